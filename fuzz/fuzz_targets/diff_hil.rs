//! Generated Terraform 0.11 strings and interpolations, the reference's hil-0.11 dialect against real Terraform 0.11.11 (the 0.11 oracle; cases of many inputs share one `terraform apply`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hclspec_fuzzgen::targets::diff_hil(data));
