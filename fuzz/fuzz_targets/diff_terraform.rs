//! Generated cases in Terraform's language (its functions, sensitive and unknown values), the reference as HCL 2.24 against real Terraform 1.15.5 (the Terraform oracle; cases of many inputs share one `terraform plan`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hclspec_fuzzgen::targets::diff_terraform(data));
