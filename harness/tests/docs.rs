//! Documents generated from the corpus stay in step with it.

use std::path::PathBuf;
use std::process::Command;

/// The repository's root, and what `hclspec stats FLAG` prints for its
/// corpus (it must succeed).
fn stats(flag: &str) -> (PathBuf, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(env!("CARGO_BIN_EXE_hclspec"))
        .args(["stats", flag, "--corpus"])
        .arg(root.join("spec-tests"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (root, String::from_utf8(out.stdout).unwrap())
}

/// `docs/diagnostics.md` lists exactly the summaries the corpus expects:
/// the table `hclspec stats --diagnostics` prints.
#[test]
fn the_diagnostics_list_is_up_to_date() {
    let (root, table) = stats("--diagnostics");
    assert!(table.lines().count() > 10, "{table}");
    let doc = std::fs::read_to_string(root.join("docs/diagnostics.md")).unwrap();
    let start = doc
        .find("| phase |")
        .expect("docs/diagnostics.md has the table");
    similar_asserts::assert_eq!(
        &doc[start..],
        table.as_str(),
        "docs/diagnostics.md is out of date: regenerate it with `hclspec stats --diagnostics`"
    );
}

#[test]
fn the_terraform_changelog_is_up_to_date() {
    let (root, text) = stats("--terraform-versions");
    assert!(text.contains("1.6") && text.contains("1.14"), "{text}");
    let doc = std::fs::read_to_string(root.join("docs/terraform-versions.md")).unwrap();
    similar_asserts::assert_eq!(
        doc.as_str(),
        text.as_str(),
        "docs/terraform-versions.md is out of date: regenerate it with `hclspec stats --terraform-versions > docs/terraform-versions.md`"
    );
}
