//! Re-checks every recorded expectation against the real hashicorp/hcl
//! (the Go oracle) when the oracle is built. `scripts/setup` builds it; CI
//! sets `HCLSPEC_REQUIRE_ORACLE=1` so that a missing oracle fails instead of
//! skipping.

use std::path::Path;
use std::process::Command;

use hclspec::locate::{built_repo_root, GO_ORACLE_PATH};

const REQUIRE_ENV: &str = "HCLSPEC_REQUIRE_ORACLE";

#[test]
fn corpus_agrees_with_the_go_oracle() {
    let root = built_repo_root();
    let oracle = root.join(GO_ORACLE_PATH);
    if !oracle.is_file() {
        assert!(
            std::env::var_os(REQUIRE_ENV).is_none(),
            "{REQUIRE_ENV} is set but the Go oracle is not built at {}; run scripts/setup",
            oracle.display()
        );
        eprintln!(
            "note: the Go oracle is not built ({}); run scripts/setup to verify the corpus against it",
            Path::new(GO_ORACLE_PATH).display()
        );
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_hclspec"))
        .arg("verify")
        .arg("--corpus")
        .arg(root.join("spec-tests"))
        .arg("--oracle")
        .arg(&oracle)
        .output()
        .expect("hclspec verify runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "hclspec verify found disagreements with the Go oracle:\n{stdout}\n{stderr}"
    );
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("verified "))
        .unwrap_or_else(|| panic!("no summary line in:\n{stdout}"));
    assert!(summary.contains(" 0 disagree"), "{summary}");
    eprintln!("{summary}");
}
