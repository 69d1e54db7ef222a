//! Any bytes as a Terraform 0.11 string and as one interpolation's inside, with string, list and map variables: the reference never panics, never overflows the stack, and reports error ranges inside the source.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hclspec_fuzzgen::targets::hil(data));
