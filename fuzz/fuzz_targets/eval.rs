//! Generated cases: the reference never panics, its results are well-formed cty values, error ranges lie in the source, versions differ only where they may, and types stay consistent when the scope becomes unknown.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| hclspec_fuzzgen::targets::eval(data));
