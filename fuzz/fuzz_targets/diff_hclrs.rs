//! Generated cases, the reference against hcl-rs in process, after the allow-list of hcl-rs's known differences.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hclspec_fuzzgen::targets::diff_hclrs(data));
