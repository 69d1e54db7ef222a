//! `hclspec record`: asks an oracle for the cases of a file that have no
//! expectation yet (or all of them) and writes the answers into the file.

use std::path::Path;

use serde_json::{Map, Value as Json};

use hclspec_corpus::case::{CaseFile, Expectations};
use hclspec_corpus::format::case_file_text;
use hclspec_protocol::{ErrorPhase, Outcome, Request, Version};
use hclspec_protocol::{Expect, ExpectedError, ExpectedPhase};

/// The version whose answers the oracle gives.
pub const ORACLE_VERSION: Version = Version::V2_14;

#[derive(Clone, Copy, Debug, Default)]
pub struct RecordOptions {
    /// Ask again for cases that already have an expectation.
    pub force: bool,
}

/// What a record run did to one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordReport {
    /// Ids whose expectation was written (new or changed).
    pub written: Vec<String>,
    /// Ids asked again whose expectation did not change.
    pub unchanged: Vec<String>,
    /// Ids the oracle gave no usable answer for, and why.
    pub failed: Vec<(String, String)>,
}

/// Where an answer goes in a case object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Expect,
    Versions2_14,
}

/// Records into the file at `path` (`display` names it in messages; `name`
/// as in [`CaseFile`]). The file is rewritten in the canonical layout only
/// when an expectation changed, and only if the result still loads.
pub fn record_file(
    path: &Path,
    name: &str,
    display: &str,
    opts: RecordOptions,
    oracle: &mut dyn FnMut(&Request) -> Result<Outcome, String>,
) -> Result<RecordReport, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{display}: {e}"))?;
    let (new_text, report) = record_text(&text, name, display, path, opts, oracle)?;
    if let Some(new_text) = new_text {
        std::fs::write(path, new_text).map_err(|e| format!("{display}: {e}"))?;
    }
    Ok(report)
}

/// [`record_file`] on text: the new text when something changed.
pub fn record_text(
    text: &str,
    name: &str,
    display: &str,
    path: &Path,
    opts: RecordOptions,
    oracle: &mut dyn FnMut(&Request) -> Result<Outcome, String>,
) -> Result<(Option<String>, RecordReport), String> {
    let file = CaseFile::parse(text, name, display, path).map_err(join_errors)?;
    let mut doc: Json = serde_json::from_str(text).map_err(|e| format!("{display}: {e}"))?;
    let mut report = RecordReport::default();

    for case in &file.cases {
        let target = match &case.expect {
            Expectations::Pending => Target::Expect,
            Expectations::Same(_) if opts.force => Target::Expect,
            Expectations::PerVersion { v2_14: None, .. } => Target::Versions2_14,
            Expectations::PerVersion { v2_14: Some(_), .. } if opts.force => Target::Versions2_14,
            _ => continue,
        };
        let answer = oracle(&case.request(ORACLE_VERSION)).and_then(expectation_from);
        let expect = match answer {
            Ok(e) => e,
            Err(why) => {
                report.failed.push((case.id.clone(), why));
                continue;
            }
        };
        if case.expect_for(ORACLE_VERSION) == Some(&expect) {
            report.unchanged.push(case.id.clone());
            continue;
        }
        let obj = doc
            .get_mut("cases")
            .and_then(|c| c.get_mut(case.index))
            .and_then(Json::as_object_mut)
            .ok_or_else(|| format!("{display}: cases[{}]: not an object", case.index))?;
        match target {
            Target::Expect => put_after(obj, "expect", expect.to_json(), &EXPECT_AFTER),
            Target::Versions2_14 => {
                let versions = obj
                    .get_mut("versions")
                    .and_then(Json::as_object_mut)
                    .ok_or_else(|| {
                        format!("{display}: cases[{}].versions: not an object", case.index)
                    })?;
                put_after(versions, "2.14", expect.to_json(), &[]);
            }
        }
        report.written.push(case.id.clone());
    }

    if report.written.is_empty() {
        return Ok((None, report));
    }
    let new_text = case_file_text(&doc);
    CaseFile::parse(&new_text, name, display, path)
        .map_err(|es| format!("the recorded file would not load:\n{}", join_errors(es)))?;
    Ok((Some(new_text), report))
}

/// `expect` goes after the first of these keys a case has (else first).
const EXPECT_AFTER: [&str; 4] = ["scope", "source", "kind", "id"];

const MSG_ORACLE_REJECTED: &str = "the oracle rejected the request";
const MSG_ORACLE_UNSUPPORTED: &str = "the oracle does not support this case";
const MSG_ORACLE_CRASHED: &str = "the oracle crashed";
const MSG_ORACLE_ONLY_PARSED: &str = "the oracle only parsed the source";

/// The expectation an oracle answer records; error summaries are kept.
pub fn expectation_from(outcome: Outcome) -> Result<Expect, String> {
    match outcome {
        Outcome::Result(v) => match v.decode() {
            Ok(_) => Ok(Expect::Result(v)),
            Err(e) => Err(format!("the oracle's value does not decode: {e}")),
        },
        Outcome::Parsed => Err(MSG_ORACLE_ONLY_PARSED.to_string()),
        Outcome::Error(e) => {
            let phase = match e.phase {
                ErrorPhase::Parse => ExpectedPhase::Parse,
                ErrorPhase::Eval => ExpectedPhase::Eval,
                ErrorPhase::Request => {
                    return Err(format!("{MSG_ORACLE_REJECTED}: {}", e.summary));
                }
            };
            Ok(Expect::Error(ExpectedError {
                phase,
                summary: Some(e.summary),
            }))
        }
        Outcome::Unsupported(why) => Err(format!("{MSG_ORACLE_UNSUPPORTED}: {why}")),
        Outcome::Crash(msg) => Err(format!("{MSG_ORACLE_CRASHED}: {msg}")),
    }
}

/// Sets `key` in place if present, else inserts it right after the first of
/// `after` that exists (at the front when none does).
fn put_after(obj: &mut Map<String, Json>, key: &str, value: Json, after: &[&str]) {
    if let Some(slot) = obj.get_mut(key) {
        *slot = value;
        return;
    }
    let index = after
        .iter()
        .find_map(|k| obj.keys().position(|x| x == k))
        .map_or(0, |i| i + 1);
    obj.shift_insert(index, key.to_string(), value);
}

fn join_errors(errors: Vec<hclspec_corpus::case::LoadError>) -> String {
    errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hclspec_protocol::{ErrorBody, TypedValue};
    use serde_json::json;

    const FILE: &str = r#"{
  "area": "demo",
  "cases": [
    {"id": "d-1", "source": ["true", "&& false"], "note": "n"},
    {"id": "d-2", "source": "1", "scope": {}, "expect": {"error": {"phase": "eval"}}, "tags": ["t"]},
    {"id": "d-3", "source": "2", "upstream": "hcl#1", "versions": {"2.24": {"error": {"phase": "parse"}}}},
    {"id": "d-4", "kind": "template", "source": "x"}
  ]
}"#;

    /// A scripted oracle: answers by source text.
    fn oracle(req: &Request) -> Result<Outcome, String> {
        assert_eq!(req.hcl_version, Some(Version::V2_14));
        match req.source.as_str() {
            "true\n&& false" | "2" => Ok(Outcome::Result(TypedValue {
                ty: json!("bool"),
                value: json!(false),
                unknown: vec![],
                ..Default::default()
            })),
            "1" => Ok(Outcome::Error(ErrorBody {
                phase: ErrorPhase::Eval,
                summary: "Invalid operand".into(),
                detail: "d".into(),
                range: None,
                library_panic: false,
            })),
            _ => Ok(Outcome::Unsupported("templates".into())),
        }
    }

    fn run(force: bool) -> (Option<String>, RecordReport) {
        record_text(
            FILE,
            "demo",
            "spec-tests/demo.json",
            Path::new("spec-tests/demo.json"),
            RecordOptions { force },
            &mut oracle,
        )
        .unwrap()
    }

    #[test]
    fn records_pending_cases_only() {
        let (text, report) = run(false);
        assert_eq!(report.written, ["d-1", "d-3"]);
        assert_eq!(report.failed.len(), 1);
        assert_eq!(report.failed[0].0, "d-4");
        assert!(report.failed[0].1.contains("does not support"));
        let want = r#"{
  "area": "demo",
  "cases": [
    {"id": "d-1", "source": ["true", "&& false"], "expect": {"result": {"type": "bool", "value": false}}, "note": "n"},
    {"id": "d-2", "source": "1", "scope": {}, "expect": {"error": {"phase": "eval"}}, "tags": ["t"]},
    {"id": "d-3", "source": "2", "upstream": "hcl#1", "versions": {"2.14": {"result": {"type": "bool", "value": false}}, "2.24": {"error": {"phase": "parse"}}}},
    {"id": "d-4", "kind": "template", "source": "x"}
  ]
}
"#;
        similar_asserts::assert_eq!(text.unwrap(), want);
    }

    #[test]
    fn force_rerecords_with_summaries() {
        let (text, report) = run(true);
        assert_eq!(report.written, ["d-1", "d-2", "d-3"]);
        let text = text.unwrap();
        assert!(
            text.contains(
                r#""expect": {"error": {"phase": "eval", "summary": "Invalid operand"}}"#
            ),
            "{text}"
        );
        // Recording the recorded file again changes nothing.
        let again = record_text(
            &text,
            "demo",
            "spec-tests/demo.json",
            Path::new("spec-tests/demo.json"),
            RecordOptions { force: true },
            &mut oracle,
        )
        .unwrap();
        assert_eq!(again.0, None);
        assert_eq!(again.1.unchanged, ["d-1", "d-2", "d-3"]);
    }

    #[test]
    fn refuses_invalid_files_and_request_errors() {
        let err = record_text(
            r#"{"area": "a", "cases": [{"id": "x"}]}"#,
            "a",
            "spec-tests/a.json",
            Path::new("spec-tests/a.json"),
            RecordOptions::default(),
            &mut oracle,
        )
        .unwrap_err();
        assert!(
            err.starts_with("spec-tests/a.json: cases[0]: missing field `source`"),
            "{err}"
        );
        let e = expectation_from(Outcome::Error(ErrorBody::request("bad scope"))).unwrap_err();
        assert_eq!(e, "the oracle rejected the request: bad scope");
    }
}
