//! Any bytes as an expression and as a template, under both HCL versions: the reference never panics, never overflows the stack, and reports error ranges inside the source.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hclspec_fuzzgen::targets::parse(data));
