//! `hclspec report --html` end to end: engines run now and a saved JSON
//! run report make one directory (the page, a file per area, a badge per
//! engine); with neither, the reference is run; a file that is not a run
//! report is refused.

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
            "--engine-version",
            "constant 1.0",
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
        page.contains(r#"<tr data-run="0"><th scope="row">reference<img class="badge" src="badges/reference.svg""#),
        "{page}"
    );
    assert!(
        page.contains(r#"<tr data-run="1"><th scope="row">constant<img class="badge" src="badges/constant.svg""#),
        "{page}"
    );
    // The versions: the reference's is this program's, the saved run's
    // the one it was given.
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        page.contains(&format!(r#"<td class="version">hclspec {version}</td>"#)),
        "{page}"
    );
    assert!(
        page.contains(r#"<td class="version">constant 1.0</td>"#),
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
    // Every case is in the index, with one outcome character per run
    // (`a`, pass; `c`, fail); the details are in the area's file.
    assert!(page.contains(r#"[0,"arith-001",0,"1 + 2"]"#), "{page}");
    assert!(page.contains(r#""outcomes":"aaaaaaaaa""#), "{page}");
    assert!(page.contains(r#""outcomes":"ccccccccc""#), "{page}");
    let details = std::fs::read_to_string(dir.join("out/cases/arithmetic.js")).unwrap();
    assert!(
        details
            .starts_with(r#"hclspecCases(0, {"texts":["","spec-tests/arithmetic.toml","1 + 2","#),
        "{details}"
    );
    assert!(details.contains(r#"\"value\": \"constant\""#), "{details}");
    for badge in ["reference", "constant"] {
        let svg = std::fs::read_to_string(dir.join(format!("out/badges/{badge}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn with_nothing_named_the_reference_is_reported() {
    let dir = scratch("reference");
    let out = hclspec(&["report", "--html", "out", "--filter", "arith-00?"], &dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.join("out/index.html")).unwrap();
    assert!(
        page.contains(r#"<tr data-run="0"><th scope="row">reference<img class="badge" src="badges/reference.svg""#),
        "{page}"
    );
    let svg = std::fs::read_to_string(dir.join("out/badges/reference.svg")).unwrap();
    assert!(svg.contains("conformance: 100.0%"), "{svg}");
    // A second report into the same directory leaves no file of the first.
    std::fs::write(dir.join("out/cases/gone.js"), "").unwrap();
    let again = hclspec(&["report", "--html", "out", "--filter", "str-00?"], &dir);
    assert!(again.status.success());
    let mut left: Vec<String> = std::fs::read_dir(dir.join("out/cases"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["strings.js"]);
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

#[test]
fn a_version_for_no_engine_is_refused() {
    let dir = scratch("version");
    let out = hclspec(
        &[
            "report",
            "--html",
            "out",
            "--engine",
            "reference",
            "--engine-version",
            "other=1.0",
            "--filter",
            "arith-001",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(r#"no --engine is named "other""#),
        "{stderr}"
    );
    assert!(!dir.join("out").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
