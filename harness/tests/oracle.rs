//! Re-checks every recorded expectation against the real implementations
//! (each profile's oracle) with `hclspec verify`. An oracle that is not
//! installed is skipped with a note, unless `HCLSPEC_REQUIRE_ORACLE` names
//! it (CI sets it, so that a missing oracle fails instead). The reference
//! implementation's error details must equal the oracles' in at least
//! [`DETAIL_FLOOR`] percent of the cases where both answer with an error.

use std::process::Command;

use hclspec::locate::built_repo_root;

/// The least share (percent) of the reference's error details that must
/// equal each HCL oracle's.
const DETAIL_FLOOR: u32 = 95;

#[test]
fn corpus_agrees_with_the_oracles() {
    let root = built_repo_root();
    let out = Command::new(env!("CARGO_BIN_EXE_hclspec"))
        .arg("verify")
        // Two oracles at a time: each Terraform release is one.
        .arg("--jobs")
        .arg("2")
        .arg("--corpus")
        .arg(root.join("spec-tests"))
        .arg("--min-detail-agreement")
        .arg(format!("go-hcl={DETAIL_FLOOR}"))
        .arg("--min-detail-agreement")
        .arg(format!("terraform={DETAIL_FLOOR}"))
        .output()
        .expect("hclspec verify runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "hclspec verify found disagreements with the oracles:\n{stdout}\n{stderr}"
    );
    let summaries: Vec<&str> = stdout
        .lines()
        .filter(|l| {
            l.starts_with("verified ")
                || l.starts_with("not verified ")
                || l.starts_with("reference error details: ")
        })
        .collect();
    assert!(
        !summaries.is_empty(),
        "no summary line in:\n{stdout}\n{stderr}"
    );
    for line in &summaries {
        if line.starts_with("verified ") {
            assert!(line.contains(" 0 disagree"), "{line}");
        }
        eprintln!("{line}");
    }
}
