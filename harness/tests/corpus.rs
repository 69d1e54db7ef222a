//! The conformance corpus as `cargo test` trials: one per case and HCL
//! version (2.24, the default, and 2.14).
//! Trials are named `file::id` and `file::id@2.14`, so `cargo test -- splat`
//! filters by file or id.

use std::path::PathBuf;

use hclspec::engine::Reference;
use hclspec::locate::{CORPUS_DIR, CORPUS_ENV};
use hclspec_corpus::case::{Case, CaseFile, Corpus};
use hclspec_protocol::compare::compare;
use hclspec_protocol::Version;
use libtest_mimic::{Arguments, Failed, Trial};

/// The trial that reports whether the corpus loads.
const LOAD_TRIAL: &str = "corpus::load";

fn main() {
    let args = Arguments::from_args();
    let root = std::env::var_os(CORPUS_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(CORPUS_DIR)
        });
    let trials = match Corpus::load(&root) {
        Ok(corpus) => {
            let mut trials = vec![Trial::test(LOAD_TRIAL, || Ok(()))];
            for file in &corpus.files {
                for case in &file.cases {
                    for version in case.test_versions() {
                        trials.push(trial(file, case, version));
                    }
                }
            }
            trials
        }
        Err(errors) => {
            let message = format!("the corpus does not load:\n{errors}");
            vec![Trial::test(LOAD_TRIAL, move || Err(message.into()))]
        }
    };
    libtest_mimic::run(&args, trials).exit();
}

fn trial(file: &CaseFile, case: &Case, version: Version) -> Trial {
    let name = case.trial_name(file, version);
    let display = file.display.clone();
    let case = case.clone();
    Trial::test(name, move || {
        let Some(expect) = case.expect_for(version) else {
            return Err(format!(
                "{display}: {}: no expectation for {version}; run `hclspec record {display}`",
                case.id
            )
            .into());
        };
        let outcome = Reference::new(version).evaluate(&case.request(version));
        let verdict = compare(expect, &outcome);
        if verdict.is_pass() {
            return Ok(());
        }
        let mut msg = format!("{display}: {} (HCL {version})\n", case.id);
        msg.push_str(&format!("{} source:\n", case.kind.as_str()));
        for line in case.source.lines() {
            msg.push_str(&format!("    {line}\n"));
        }
        if !case.scope.is_empty() {
            let names: Vec<_> = case.scope.keys().map(String::as_str).collect();
            let via = case
                .scope_name
                .as_deref()
                .map(|n| format!(" (scope {n:?})"))
                .unwrap_or_default();
            msg.push_str(&format!("variables: {}{via}\n", names.join(", ")));
        }
        msg.push_str(&verdict.to_string());
        Err(Failed::from(msg))
    })
}
