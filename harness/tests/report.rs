//! `hclspec report --html` end to end: engines run now and a saved JSON
//! run report make one page; a file that is not a run report is refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_hclspec");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn hclspec(args: &[&str], dir: &Path) -> Output {
    Command::new(BIN)
        .args(args)
        .args(["--corpus", root().join("spec-tests").to_str().unwrap()])
        .current_dir(dir)
        .env_remove("HCLSPEC_CORPUS")
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hclspec-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn engines_and_saved_reports_make_one_page() {
    let dir = scratch("page");
    let wrong = root().join("examples/export-pytest/constant_engine.py");
    let engine = format!("python3 {}", wrong.display());
    let saved = hclspec(
        &[
            "run",
            "--engine",
            &engine,
            "--filter",
            "arith-00?",
            "--format",
            "json",
        ],
        &dir,
    );
    assert_eq!(saved.status.code(), Some(1), "the constant engine fails");
    std::fs::write(dir.join("constant.json"), &saved.stdout).unwrap();

    let out = hclspec(
        &[
            "report",
            "--html",
            "out",
            "--engine",
            "reference",
            "--filter",
            "arith-00?",
            "constant.json",
        ],
        &dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.join("out/index.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    // A row per run in the summary, the saved one under its file name.
    assert!(
        page.contains(r#"<tr data-run="0"><th scope="row">reference</th>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<tr data-run="1"><th scope="row">constant</th>"#),
        "{page}"
    );
    // The reference passes all nine cases, the constant engine none, and
    // its failures are in the page's data with their expectations.
    let nine = hclspec(&["run", "--filter", "arith-00?", "--list"], &dir);
    assert_eq!(String::from_utf8_lossy(&nine.stdout).lines().count(), 9);
    assert!(
        page.contains(r#"<td class="n pass"><b>100.0%</b> <span class="c">9</span></td>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<td class="n pass"><b>0.0%</b> <span class="c">0</span></td>"#),
        "{page}"
    );
    assert!(
        page.contains(
            r#"["arithmetic","arith-001","spec-tests/arithmetic.toml","expression","1 + 2","""#
        ),
        "{page}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_that_is_not_a_run_report_is_refused() {
    let dir = scratch("refused");
    std::fs::write(
        dir.join("matrix.json"),
        r#"{"report_version": 1, "engines": []}"#,
    )
    .unwrap();
    let out = hclspec(&["report", "--html", "out", "matrix.json"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("matrix: is not an `hclspec run --format json` report"),
        "{stderr}"
    );
    assert!(!dir.join("out/index.html").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
