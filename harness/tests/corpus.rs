//! The conformance corpus as `cargo test` trials against the reference
//! implementation, through the library harness: one trial per case and
//! profile (2.24, the default, 2.14, and the older Terraform releases),
//! named `file::id`, `file::id@2.14` and `file::id@1.9`, so `cargo test --
//! splat` filters by file or id. An HCL 2.14 error case must also give the
//! Go oracle's error detail and range (harness/tests/go-hcl-details.jsonl),
//! and a current-profile error case the detail Terraform 1.15 gives, where
//! the reference gave it when the file was written
//! (harness/tests/terraform-details.jsonl).

use hclspec::engine::Reference;
use hclspec::locate::CORPUS_ENV;
use hclspec_harness::{Harness, Version};

fn main() {
    // Some cases nest 10,000 levels deep: the reference's parser and
    // evaluator find stack room as they recurse, but walking the deep
    // values they build needs more than the 2 MiB of a default test
    // thread. Trial threads are spawned after this.
    if std::env::var_os("RUST_MIN_STACK").is_none() {
        std::env::set_var("RUST_MIN_STACK", (64usize << 20).to_string());
    }
    let reference = Reference::new(Version::default());
    // What the reference does not model yet of the older Terraform
    // releases, case by case and release by release (`id@1.9`), each with
    // its reason: ignored trials, which `cargo test -- --ignored` runs.
    let gaps = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference-gaps.txt");
    // The Go oracle's error details, and ranges where the reference models
    // them, for the HCL 2.14 error cases (scripts/oracle-details): the
    // reference is held to HCL's exact texts, which engines are not.
    let details = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/go-hcl-details.jsonl");
    // Terraform 1.15's details of the current profile's error cases that
    // the reference gives word for word (scripts/oracle-details --oracle
    // terraform): none of them may be lost.
    let terraform_details = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/terraform-details.jsonl");
    let mut harness = Harness::new(move |request| reference.evaluate(request))
        .skips(gaps)
        .details(details)
        .details(terraform_details)
        // The reference answers every case: `unsupported` from it is a bug.
        .require_answers();
    if let Some(dir) = std::env::var_os(CORPUS_ENV) {
        harness = harness.corpus(dir);
    }
    harness.run()
}
