//! Generated cases, the reference against the real Go HCL library (a persistent oracle process; several cases per input, pipelined).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hclspec_fuzzgen::targets::diff_go(data));
