//! The documented hcl-rs divergences (`fuzz/hclrs-divergences.json`, the
//! examples of `docs/hcl-rs-divergences.md`): each case's expectation was
//! recorded from the Go oracle and the reference agrees with it; hcl-rs
//! 0.20 still answers differently; and the fuzzers' allow-list explains the
//! difference, so that fuzzing does not report it again.

use std::path::Path;

use hclspec_corpus::case::CaseFile;
use hclspec_fuzzgen::allow::AllowList;
use hclspec_fuzzgen::diff::{compare_outcomes, outcome_line, DiffResult};
use hclspec_fuzzgen::{Answer, HclRsOracle, OracleKind, ReferenceOracle};
use hclspec_protocol::compare::compare;
use hclspec_protocol::{Outcome, Version};

fn load() -> CaseFile {
    let path = hclspec::locate::built_repo_root().join("fuzz/hclrs-divergences.json");
    CaseFile::load(path.parent().unwrap_or(Path::new(".")), &path)
        .unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn documented_divergences_hold() {
    let file = load();
    assert!(file.cases.len() >= 30, "{} cases", file.cases.len());
    let shipped = AllowList::shipped();
    let none = AllowList::empty();
    let mut problems = Vec::new();
    for case in &file.cases {
        let req = case.request(Version::V2_14);
        let Some(expect) = case.expect_for(Version::V2_14) else {
            problems.push(format!("{}: no recorded expectation", case.id));
            continue;
        };
        let reference = ReferenceOracle::new(Version::V2_14).outcome(&req);
        let verdict = compare(expect, &reference);
        if !verdict.is_pass() {
            problems.push(format!(
                "{}: the reference disagrees with HCL: {verdict}",
                case.id
            ));
        }
        let hclrs = Answer::Outcome(HclRsOracle.outcome(&req));
        let plain = compare_outcomes(OracleKind::HclRs, &req, &reference, &hclrs, &none);
        if !matches!(plain, DiffResult::Diverged(_)) {
            let Answer::Outcome(o) = &hclrs else {
                unreachable!()
            };
            problems.push(format!(
                "{}: hcl-rs no longer diverges ({plain:?}): {}",
                case.id,
                outcome_line(o)
            ));
        }
        let explained = compare_outcomes(OracleKind::HclRs, &req, &reference, &hclrs, &shipped);
        if !matches!(explained, DiffResult::Accepted(_)) {
            problems.push(format!(
                "{}: not in fuzz/accepted.json: {explained:?}",
                case.id
            ));
        }
        if let Outcome::Crash(msg) = &reference {
            problems.push(format!("{}: the reference crashed: {msg}", case.id));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
