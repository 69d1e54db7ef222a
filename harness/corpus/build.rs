//! The corpus is embedded in the library (see `src/embedded.rs`): rebuild
//! it whenever anything under `spec-tests/` changes, files added or removed
//! included, which the embedding macro alone would not notice.

fn main() {
    println!("cargo:rerun-if-changed=../../spec-tests");
}
