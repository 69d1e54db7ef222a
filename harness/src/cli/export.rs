//! `hclspec export`: the corpus as JSON lines for test suites in other
//! languages, opened by a manifest line that says what the export is.
//!
//! The manifest comes first so that a reader knows the layout's revision,
//! the schema, the corpus's version and commit and the counts before it
//! reads a case; its digest of the case lines lets a reader (or a release
//! page) check that the file is whole and name exactly which corpus it is.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::{json, Map, Value as Json};
use sha2::{Digest, Sha256};

use hclspec::run::CorpusInfo;
use hclspec_corpus::case::{Case, CaseFile, Origin};
use hclspec_protocol::{Expect, Version};

use super::CorpusArgs;

/// The revision of the export layout (`spec-tests/schema/export-line.schema.json`):
/// 2 added the manifest line.
pub const EXPORT_VERSION: u32 = 2;

/// The `$id` of the schema every export line meets.
pub const EXPORT_SCHEMA_ID: &str =
    "https://raw.githubusercontent.com/hclspec/hclspec/main/spec-tests/schema/export-line.schema.json";

/// The manifest line, then one JSON line per case that has an expectation
/// for `version`: the request to send, exactly as `hclspec run` sends it,
/// and the expectation; with `base_dir`, requests name it as their
/// `base_dir` instead of where the fixtures are here.
pub fn export(args: &CorpusArgs, version: Version, base_dir: Option<&str>) -> Result<ExitCode> {
    let corpus = args.load()?;
    let mut lines = Vec::new();
    for (file, case) in args.selected(&corpus)? {
        for v in case.test_versions() {
            if case.dialect.is_hcl2() && v != version {
                continue;
            }
            let Some(expect) = case.expect_for(v) else {
                continue;
            };
            let mut line = export_line(file, case, v, expect);
            if let (Some(dir), Some(slot)) = (base_dir, line["request"].get_mut("base_dir")) {
                *slot = Json::String(dir.to_string());
            }
            lines.push(line);
        }
    }
    let texts: Vec<String> = lines.iter().map(Json::to_string).collect();
    let manifest = manifest(args, version, base_dir, &corpus.origin, &lines, &texts);
    let mut out = std::io::stdout().lock();
    writeln!(out, "{manifest}")?;
    for text in &texts {
        writeln!(out, "{text}")?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `{"export_version", "manifest": {...}}`: the schema, the corpus's
/// version and commit, the filters, the counts and the digest of the case
/// lines that follow.
fn manifest(
    args: &CorpusArgs,
    version: Version,
    base_dir: Option<&str>,
    origin: &Origin,
    lines: &[Json],
    texts: &[String],
) -> Json {
    let mut digest = Sha256::new();
    for text in texts {
        digest.update(text.as_bytes());
        digest.update(b"\n");
    }
    let digest: String = digest
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut results = 0usize;
    let mut errors = 0usize;
    let mut profiles: BTreeMap<&str, usize> = BTreeMap::new();
    let mut areas: BTreeMap<&str, usize> = BTreeMap::new();
    let mut verify: BTreeMap<&str, usize> = BTreeMap::new();
    for line in lines {
        if line["expect"].get("result").is_some() {
            results += 1;
        } else {
            errors += 1;
        }
        *profiles
            .entry(line["profile"].as_str().unwrap_or(""))
            .or_default() += 1;
        *areas
            .entry(line["area"].as_str().unwrap_or(""))
            .or_default() += 1;
        if let Some(mode) = line.get("verify").and_then(Json::as_str) {
            *verify.entry(mode).or_default() += 1;
        }
    }
    json!({
        "export_version": EXPORT_VERSION,
        "manifest": {
            "schema": EXPORT_SCHEMA_ID,
            "generator": format!("hclspec {}", env!("CARGO_PKG_VERSION")),
            "hcl_version": if version == Version::V2_14 { "2.14" } else { "2.24" },
            "terraform_version": hclspec::run::older_terraform(version),
            "filters": args.filter,
            "base_dir": base_dir,
            "corpus": CorpusInfo::of(origin),
            "counts": {
                "cases": lines.len(),
                "results": results,
                "errors": errors,
                "profiles": profiles,
                "verify": verify,
                "areas": areas,
            },
            "cases_sha256": digest,
        }
    })
}

/// `{"export_version", "file", "area", "profile", "oracle", "request",
/// "expect", ...}`: everything a test suite in another language needs.
fn export_line(file: &CaseFile, case: &Case, version: Version, expect: &Expect) -> Json {
    let oracle = hclspec_corpus::Oracle::for_profile(case.dialect, version);
    let mut m = Map::new();
    m.insert("export_version".into(), Json::from(EXPORT_VERSION));
    m.insert("file".into(), Json::String(file.display.clone()));
    m.insert("area".into(), Json::String(file.area.clone()));
    m.insert(
        "profile".into(),
        Json::String(if case.dialect.is_hcl2() {
            version.as_str().to_string()
        } else {
            case.dialect.as_str().to_string()
        }),
    );
    m.insert("oracle".into(), Json::String(oracle.as_str().into()));
    if let Some(mode) = case.verify_mode(oracle) {
        m.insert("verify".into(), Json::String(mode.as_str().into()));
    }
    let request: Json =
        serde_json::from_str(&case.request(version).to_line()).expect("a request is JSON");
    m.insert("request".into(), request);
    m.insert("expect".into(), expect.to_json());
    for (key, value) in [
        ("seed", &case.seed),
        ("note", &case.note),
        ("upstream", &case.upstream),
    ] {
        if let Some(v) = value {
            m.insert(key.into(), Json::String(v.clone()));
        }
    }
    if !case.tags.is_empty() {
        m.insert(
            "tags".into(),
            Json::Array(case.tags.iter().cloned().map(Json::String).collect()),
        );
    }
    Json::Object(m)
}
