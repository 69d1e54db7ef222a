//! `hclspec record`: asks the oracles for the cases of a file that have no
//! expectation yet (or all of them) and writes the answers into the file.
//!
//! Each profile has its oracle: HCL 2.14 the Go oracle (hashicorp/hcl
//! 2.14.1), HCL 2.24 real Terraform 1.15, the 0.11 dialect real Terraform
//! 0.11.11. For an HCL2 case both are asked; equal answers are recorded once
//! (`expect`), different ones per version (`versions`). An oracle that is
//! not available is not asked: the other's answer stands for both
//! profiles until `hclspec verify` checks it. Nor is an oracle that the
//! case's `verify` says judges it only in part (its wrapper changes the
//! answer), whose answer would be the wrapper's.
//!
//! The older Terraform releases (1.6 to 1.14) are asked too, each by its
//! own oracle: a release whose answer differs from Terraform 1.15's goes
//! into the case's `terraform` table, runs of consecutive releases with
//! the same answer under one key (`"1.6-1.11"`); a release that answers as
//! 1.15 does is not written. `record --force --oracle terraform-1.9 FILE`
//! asks one release again about every case and keeps the rest.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value as Json};

use hclspec_corpus::case::{is_toml, terraform_key, CaseFile, Expectations};
use hclspec_corpus::format::case_file_text;
use hclspec_corpus::toml_file;
use hclspec_corpus::Oracle;
use hclspec_protocol::compare::{values_match, values_match_signed};
use hclspec_protocol::{ErrorPhase, Outcome, Request, TerraformVersion, Version};
use hclspec_protocol::{Expect, ExpectedError, ExpectedPhase};

#[derive(Clone, Debug, Default)]
pub struct RecordOptions {
    /// Ask again for cases that already have an expectation.
    pub force: bool,
    /// The corpus's fixture folder, sent as the requests' `base_dir`.
    pub base_dir: Option<String>,
}

/// What a record run did to one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordReport {
    /// Ids whose expectation was written (new or changed).
    pub written: Vec<String>,
    /// Ids asked again whose expectation did not change.
    pub unchanged: Vec<String>,
    /// Ids an oracle gave no usable answer for, and why.
    pub failed: Vec<(String, String)>,
    /// Oracles that were needed but not available, with how many cases
    /// they were not asked about.
    pub not_asked: Vec<(Oracle, usize)>,
}

/// One question to an oracle: a case of the file under a profile.
#[derive(Clone, Debug)]
pub struct Question {
    /// Position of the case in the file.
    pub case_index: usize,
    pub version: Version,
    pub oracle: Oracle,
    pub request: Request,
}

/// Answers a batch of requests with one oracle, one answer per request in
/// order (`Err` with why when there is no usable answer).
pub type AskOracle<'a> = dyn FnMut(Oracle, &[Request]) -> Vec<Result<Outcome, String>> + 'a;

/// Records into the file at `path` (`display` names it in messages; `name`
/// as in [`CaseFile`]). The file is rewritten in the canonical layout only
/// when an expectation changed, and only if the result still loads.
pub fn record_file(
    path: &Path,
    name: &str,
    display: &str,
    opts: RecordOptions,
    available: &dyn Fn(Oracle) -> bool,
    ask: &mut AskOracle<'_>,
) -> Result<RecordReport, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{display}: {e}"))?;
    let (new_text, report) = record_text(&text, name, display, path, opts, available, ask)?;
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
    available: &dyn Fn(Oracle) -> bool,
    ask: &mut AskOracle<'_>,
) -> Result<(Option<String>, RecordReport), String> {
    let mut file = CaseFile::parse(text, name, display, path).map_err(join_errors)?;
    file.set_base_dir(opts.base_dir.clone());
    let mut report = RecordReport::default();
    let (questions, not_asked) = questions(&file, &opts, available);
    report.not_asked = not_asked;

    // One batch per oracle, answers put back by question.
    let mut answers: Vec<Option<Result<Expect, String>>> = vec![None; questions.len()];
    for oracle in Oracle::ALL {
        let mine: Vec<usize> = (0..questions.len())
            .filter(|&i| questions[i].oracle == oracle)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let requests: Vec<Request> = mine.iter().map(|&i| questions[i].request.clone()).collect();
        let mut got = ask(oracle, &requests).into_iter();
        let older = matches!(oracle, Oracle::Terraform(t) if t != TerraformVersion::LATEST);
        for &i in &mine {
            let answer = got
                .next()
                .unwrap_or_else(|| Err(MSG_NO_ANSWER.to_string()))
                .and_then(|outcome| match outcome {
                    // An older release whose process dies there: that is
                    // its answer, recorded as such.
                    Outcome::Crash(message) if older => {
                        Ok(Expect::Crash(Some(crash_line(&message))))
                    }
                    outcome => expectation_from(outcome),
                });
            answers[i] = Some(answer);
        }
    }

    let mut changes: Vec<(usize, Answers)> = Vec::new();
    for case in &file.cases {
        let mine: Vec<usize> = (0..questions.len())
            .filter(|&i| questions[i].case_index == case.index)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let mut new = Vec::new();
        let mut failed = None;
        for &i in &mine {
            match answers[i].take().expect("every question was answered") {
                Ok(e) => new.push((questions[i].version, e)),
                Err(why) => {
                    failed = Some(format!("{}: {why}", questions[i].oracle.as_str()));
                }
            }
        }
        if let Some(why) = failed {
            report.failed.push((case.id.clone(), why));
            continue;
        }
        let merged = merge(case.dialect.is_hcl2(), &case.expect, &new);
        let terraform = merge_terraform(&merged, &case.terraform, &new);
        let merged = Answers {
            expect: merged,
            terraform,
        };
        if merged.expect == case.expect && merged.terraform == case.terraform {
            report.unchanged.push(case.id.clone());
            continue;
        }
        changes.push((case.index, merged));
        report.written.push(case.id.clone());
    }

    if changes.is_empty() {
        return Ok((None, report));
    }
    let new_text = if is_toml(path) {
        rewrite_toml(text, &changes).map_err(|e| format!("{display}: {e}"))?
    } else {
        rewrite_json(text, &changes).map_err(|e| format!("{display}: {e}"))?
    };
    CaseFile::parse(&new_text, name, display, path)
        .map_err(|es| format!("the recorded file would not load:\n{}", join_errors(es)))?;
    Ok((Some(new_text), report))
}

/// A case's recorded answers: its profiles' expectations, and the older
/// Terraform releases that answer otherwise than 1.15.
#[derive(Clone, Debug, PartialEq)]
pub struct Answers {
    pub expect: Expectations,
    pub terraform: BTreeMap<TerraformVersion, Expect>,
}

/// The `terraform` table's entries: runs of consecutive releases (in the
/// corpus's list of releases) with the same answer, each under one key.
pub fn terraform_entries(table: &BTreeMap<TerraformVersion, Expect>) -> Vec<(String, Expect)> {
    let mut out: Vec<(TerraformVersion, TerraformVersion, Expect)> = Vec::new();
    let mut previous: Option<TerraformVersion> = None;
    for v in TerraformVersion::ALL {
        let here = table.get(&v);
        match (here, out.last_mut()) {
            (Some(e), Some((_, last, run_e)))
                if previous.is_some_and(|p| p == *last) && same_expectation(e, run_e) =>
            {
                *last = v;
            }
            (Some(e), _) => out.push((v, v, e.clone())),
            (None, _) => {}
        }
        previous = here.map(|_| v);
    }
    out.into_iter()
        .map(|(first, last, e)| (terraform_key(first, last), e))
        .collect()
}

/// A TOML case file with new answers, everything else kept as written.
fn rewrite_toml(text: &str, changes: &[(usize, Answers)]) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| format!("{e}"))?;
    for (index, answers) in changes {
        let entries = terraform_entries(&answers.terraform);
        let terraform = (!entries.is_empty()).then(|| {
            let docs: Vec<(&str, Json)> = entries
                .iter()
                .map(|(k, e)| (k.as_str(), e.to_json()))
                .collect();
            toml_file::versions_item(&docs)
        });
        toml_file::set_case_terraform(&mut doc, *index, terraform)?;
        let (key, item) = match &answers.expect {
            Expectations::Pending => ("expect", None),
            Expectations::Same(e) => ("expect", Some(toml_file::expectation_item(&e.to_json()))),
            Expectations::PerVersion { v2_14, v2_24 } => {
                let mut versions = Vec::new();
                if let Some(a) = v2_14 {
                    versions.push(("2.14", a.to_json()));
                }
                versions.push(("2.24", v2_24.to_json()));
                ("versions", Some(toml_file::versions_item(&versions)))
            }
        };
        toml_file::set_case_answer(&mut doc, *index, key, item)?;
    }
    Ok(doc.to_string())
}

/// A JSON case file with new answers, in the JSON layout.
fn rewrite_json(text: &str, changes: &[(usize, Answers)]) -> Result<String, String> {
    let mut doc: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
    for (index, answers) in changes {
        let obj = doc
            .get_mut("cases")
            .and_then(|c| c.get_mut(*index))
            .and_then(Json::as_object_mut)
            .ok_or_else(|| format!("cases[{index}]: not an object"))?;
        write_expectations(obj, &answers.expect);
        let entries = terraform_entries(&answers.terraform);
        if entries.is_empty() {
            obj.shift_remove("terraform");
        } else {
            let table: Map<String, Json> =
                entries.into_iter().map(|(k, e)| (k, e.to_json())).collect();
            put_after(
                obj,
                "terraform",
                Json::Object(table),
                &["versions", "expect"],
            );
        }
    }
    Ok(case_file_text(&doc))
}

/// The questions a file needs answered, and the oracles that would have
/// been asked but are not available (with how many cases each).
pub fn questions(
    file: &CaseFile,
    opts: &RecordOptions,
    available: &dyn Fn(Oracle) -> bool,
) -> (Vec<Question>, Vec<(Oracle, usize)>) {
    let mut out = Vec::new();
    let mut missing: Vec<(Oracle, usize)> = Vec::new();
    for case in &file.cases {
        let versions: Vec<Version> = if !case.dialect.is_hcl2() {
            match (&case.expect, opts.force) {
                (Expectations::Pending, _) | (_, true) => vec![Version::default()],
                _ => vec![],
            }
        } else {
            let older = Version::TERRAFORM
                .into_iter()
                .filter(|v| *v != Version::V2_24);
            match (&case.expect, opts.force) {
                (Expectations::Pending, _) | (_, true) => {
                    Version::ALL.into_iter().chain(older).collect()
                }
                (Expectations::PerVersion { v2_14: None, .. }, false) => vec![Version::V2_14],
                _ => vec![],
            }
        };
        for version in versions {
            let oracle = Oracle::for_profile(case.dialect, version);
            if case.verify_mode(oracle).is_some() {
                // The oracle's wrapper changes this case's answer: what it
                // says is not recorded (the other profile's answer stands).
                continue;
            }
            if !available(oracle) {
                match missing.iter_mut().find(|(o, _)| *o == oracle) {
                    Some((_, n)) => *n += 1,
                    None => missing.push((oracle, 1)),
                }
                continue;
            }
            out.push(Question {
                case_index: case.index,
                version,
                oracle,
                request: case.request(version),
            });
        }
    }
    (out, missing)
}

/// The expectations once the new answers replace the old ones: one answer
/// where the versions agree (or only one is known), else one per version.
fn merge(hcl2: bool, old: &Expectations, new: &[(Version, Expect)]) -> Expectations {
    if !hcl2 {
        return match new.first() {
            Some((_, e)) => Expectations::Same(e.clone()),
            None => old.clone(),
        };
    }
    let pick = |v: Version| {
        new.iter()
            .find(|(nv, _)| *nv == v)
            .map(|(_, e)| e.clone())
            .or_else(|| old_for(old, v))
    };
    match (pick(Version::V2_14), pick(Version::V2_24)) {
        (Some(a), Some(b)) if same_expectation(&a, &b) => Expectations::Same(a),
        (a, Some(b)) => Expectations::PerVersion { v2_14: a, v2_24: b },
        (Some(a), None) => Expectations::Same(a),
        (None, None) => old.clone(),
    }
}

/// The old expectation for `v`; a shared one counts for both versions only
/// when no new answer says otherwise (the caller's `pick` asks new first).
fn old_for(old: &Expectations, v: Version) -> Option<Expect> {
    old.for_version(v).cloned()
}

/// The `terraform` table once the new answers of older releases replace
/// the old ones: only the releases whose answer differs from the `2.24`
/// expectation in `merged` stay.
fn merge_terraform(
    merged: &Expectations,
    old: &BTreeMap<TerraformVersion, Expect>,
    new: &[(Version, Expect)],
) -> BTreeMap<TerraformVersion, Expect> {
    let mut table = old.clone();
    for (version, e) in new {
        match version.terraform() {
            Some(t) if t != TerraformVersion::LATEST => {
                let kept = judged_as_before(old.get(&t), e);
                table.insert(t, kept);
            }
            _ => {}
        }
    }
    match merged.for_version(Version::V2_24) {
        Some(latest) => table.retain(|_, e| !same_as_latest(e, latest)),
        None => table.clear(),
    }
    table
}

/// An older release's new answer as it is recorded: an error recorded
/// with its phase only stays so when the oracle answers an error of that
/// phase, whatever its summary. `record` writes an older release's errors
/// with their summaries, so a phase-only one there was put by hand, to
/// judge that release by phase (the case's note says why: Terraform 1.6
/// reads no `::`, and its summary then comes from the oracle's wrapper).
/// The main expectations are not kept so: `--force` fills in the summary
/// of an error written by phase only.
fn judged_as_before(before: Option<&Expect>, new: &Expect) -> Expect {
    match (before, new) {
        (Some(Expect::Error(b)), Expect::Error(n)) if b.summary.is_none() && b.phase == n.phase => {
            Expect::Error(b.clone())
        }
        _ => new.clone(),
    }
}

/// Whether an older release's answer is the one `latest` records. A latest
/// expectation that records no refinements (one recorded before they were)
/// claims none, as the judge reads it: an older answer is not different for
/// its refinements alone. Nor for the sign of a zero: Terraform's plan, which
/// the oracle reads, writes `-0` as `0`, so no release's answer tells it, and
/// `verify` compares Terraform's answers without it.
fn same_as_latest(older: &Expect, latest: &Expect) -> bool {
    match (older, latest) {
        (Expect::Result(o), Expect::Result(l)) => {
            let mut o = o.clone();
            if l.refinements.is_empty() {
                o.refinements.clear();
            }
            let unsigned = values_match_signed(l, &o, false).is_ok();
            let mut signed = o.clone();
            if unsigned {
                // Take the latest's value, sign of zero included, and compare the rest.
                signed.value = l.value.clone();
            }
            same_expectation(&Expect::Result(signed), latest)
        }
        _ => same_expectation(older, latest),
    }
}

/// Whether two recorded answers are the same: values by type, value,
/// sensitive parts and refinements of unknown parts; errors by phase and
/// summary.
pub fn same_expectation(a: &Expect, b: &Expect) -> bool {
    match (a, b) {
        (Expect::Result(x), Expect::Result(y)) => {
            values_match(x, y).is_ok()
                && {
                    let paths = |v: &hclspec_protocol::TypedValue| {
                        let mut p: Vec<String> =
                            v.sensitive.iter().map(|s| s.to_string()).collect();
                        p.sort();
                        p
                    };
                    paths(x) == paths(y)
                }
                && {
                    let refinements = |v: &hclspec_protocol::TypedValue| {
                        let mut r: Vec<String> = v
                            .refinements
                            .iter()
                            .map(|r| serde_json::to_string(r).unwrap_or_default())
                            .collect();
                        r.sort();
                        r
                    };
                    refinements(x) == refinements(y)
                }
        }
        (Expect::Error(x), Expect::Error(y)) => x == y,
        (Expect::Crash(_), Expect::Crash(_)) => true,
        _ => false,
    }
}

/// Writes `expect` or `versions` into a case object, removing the other.
fn write_expectations(obj: &mut Map<String, Json>, e: &Expectations) {
    match e {
        Expectations::Pending => {
            obj.shift_remove("expect");
            obj.shift_remove("versions");
        }
        Expectations::Same(e) => {
            let at = obj.keys().position(|k| k == "versions");
            obj.shift_remove("versions");
            match at {
                Some(i) => {
                    obj.shift_insert(i.min(obj.len()), "expect".into(), e.to_json());
                }
                None => put_after(obj, "expect", e.to_json(), &EXPECT_AFTER),
            }
        }
        Expectations::PerVersion { v2_14, v2_24 } => {
            let at = obj.keys().position(|k| k == "expect");
            obj.shift_remove("expect");
            let mut versions = Map::new();
            if let Some(a) = v2_14 {
                versions.insert("2.14".into(), a.to_json());
            }
            versions.insert("2.24".into(), v2_24.to_json());
            match at {
                Some(i) => {
                    obj.shift_insert(i.min(obj.len()), "versions".into(), Json::Object(versions));
                }
                None => put_after(obj, "versions", Json::Object(versions), &EXPECT_AFTER),
            }
        }
    }
}

/// `expect` goes after the first of these keys a case has (else first).
const EXPECT_AFTER: [&str; 6] = ["scope", "spec", "type", "source", "kind", "id"];

const MSG_ORACLE_REJECTED: &str = "the oracle rejected the request";
const MSG_ORACLE_UNSUPPORTED: &str = "the oracle does not support this case";
const MSG_ORACLE_CRASHED: &str = "the oracle crashed";
const MSG_ORACLE_ONLY_PARSED: &str = "the oracle only parsed the source";
const MSG_NO_ANSWER: &str = "the oracle gave no answer";

/// The line of a crash message a case records: Go's `panic: ...` line
/// when there is one, else the first line.
pub fn crash_line(message: &str) -> String {
    let line = message
        .lines()
        .find(|l| l.trim_start().starts_with("panic: "))
        .or_else(|| message.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("the process died");
    line.trim().chars().take(200).collect()
}

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
    {"id": "d-4", "kind": "template", "source": "x"},
    {"id": "d-5", "source": "3"}
  ]
}"#;

    fn bool_false() -> Outcome {
        Outcome::Result(TypedValue {
            ty: json!("bool"),
            value: json!(false),
            ..Default::default()
        })
    }

    fn invalid_operand() -> Outcome {
        Outcome::Error(ErrorBody {
            phase: ErrorPhase::Eval,
            summary: "Invalid operand".into(),
            detail: "d".into(),
            range: None,
            library_panic: false,
        })
    }

    /// Scripted oracles: answer by source text; Terraform differs from HCL
    /// 2.14 on `3`.
    fn ask(oracle: Oracle, requests: &[Request]) -> Vec<Result<Outcome, String>> {
        requests
            .iter()
            .map(|req| {
                let want = match oracle {
                    Oracle::GoHcl => Version::V2_14,
                    Oracle::Terraform(t) => Version::Terraform(t),
                    _ => Version::V2_24,
                };
                assert_eq!(req.hcl_version, Some(want));
                Ok(match (req.source.as_str(), oracle) {
                    ("true\n&& false" | "2", _) => bool_false(),
                    ("1", _) => invalid_operand(),
                    ("3", Oracle::GoHcl) => bool_false(),
                    ("3", _) => invalid_operand(),
                    _ => Outcome::Unsupported("templates".into()),
                })
            })
            .collect()
    }

    fn run(
        text: &str,
        force: bool,
        available: &dyn Fn(Oracle) -> bool,
    ) -> (Option<String>, RecordReport) {
        record_text(
            text,
            "demo",
            "spec-tests/demo.json",
            Path::new("spec-tests/demo.json"),
            RecordOptions {
                force,
                base_dir: None,
            },
            available,
            &mut ask,
        )
        .unwrap()
    }

    #[test]
    fn an_older_answer_differing_only_in_the_sign_of_zero_is_the_latest() {
        let number = |text: &str, sensitive: bool| {
            Expect::Result(TypedValue {
                ty: json!("number"),
                value: serde_json::from_str(text).unwrap(),
                sensitive: if sensitive { vec![json!([])] } else { vec![] },
                ..Default::default()
            })
        };
        assert!(same_as_latest(&number("0", false), &number("-0", false)));
        assert!(same_as_latest(&number("-0", false), &number("0", false)));
        assert!(!same_as_latest(&number("1", false), &number("-0", false)));
        assert!(!same_as_latest(&number("0", false), &number("-0", true)));
    }

    #[test]
    fn records_pending_cases_from_both_oracles() {
        let (text, report) = run(FILE, false, &|_| true);
        assert_eq!(report.written, ["d-1", "d-3", "d-5"]);
        assert_eq!(report.failed.len(), 1);
        assert_eq!(report.failed[0].0, "d-4");
        assert!(
            report.failed[0].1.contains("does not support"),
            "{report:?}"
        );
        let want = r#"{
  "area": "demo",
  "cases": [
    {"id": "d-1", "source": ["true", "&& false"], "expect": {"result": {"type": "bool", "value": false}}, "note": "n"},
    {"id": "d-2", "source": "1", "scope": {}, "expect": {"error": {"phase": "eval"}}, "tags": ["t"]},
    {"id": "d-3", "source": "2", "upstream": "hcl#1", "versions": {"2.14": {"result": {"type": "bool", "value": false}}, "2.24": {"error": {"phase": "parse"}}}},
    {"id": "d-4", "kind": "template", "source": "x"},
    {"id": "d-5", "source": "3", "versions": {"2.14": {"result": {"type": "bool", "value": false}}, "2.24": {"error": {"phase": "eval", "summary": "Invalid operand"}}}}
  ]
}
"#;
        similar_asserts::assert_eq!(text.unwrap(), want);
    }

    /// Without Terraform, the Go oracle's answer is recorded for both
    /// profiles, and the report says Terraform was not asked.
    #[test]
    fn a_missing_oracle_is_reported() {
        let (text, report) = run(FILE, false, &|o| o == Oracle::GoHcl);
        let sorted = |list: &[(Oracle, usize)]| {
            let mut list: Vec<String> = list.iter().map(|x| format!("{x:?}")).collect();
            list.sort();
            list
        };
        let terraforms: Vec<(Oracle, usize)> = Oracle::ALL
            .into_iter()
            .filter(|o| matches!(o, Oracle::Terraform(_)))
            .map(|o| (o, 3))
            .collect();
        assert_eq!(sorted(&report.not_asked), sorted(&terraforms));
        let text = text.unwrap();
        assert!(
            text.contains(r#"{"id": "d-5", "source": "3", "expect": {"result": {"type": "bool", "value": false}}}"#),
            "{text}"
        );
    }

    #[test]
    fn force_rerecords_and_merges_agreeing_versions() {
        let (text, report) = run(FILE, true, &|_| true);
        assert_eq!(report.written, ["d-1", "d-2", "d-3", "d-5"]);
        let text = text.unwrap();
        assert!(
            text.contains(
                r#"{"id": "d-2", "source": "1", "scope": {}, "expect": {"error": {"phase": "eval", "summary": "Invalid operand"}}, "tags": ["t"]}"#
            ),
            "{text}"
        );
        // d-3: both oracles now say false: one shared answer.
        assert!(
            text.contains(r#"{"id": "d-3", "source": "2", "upstream": "hcl#1", "expect": {"result": {"type": "bool", "value": false}}}"#),
            "{text}"
        );
        // Recording the recorded file again changes nothing.
        let (again, report) = run(&text, true, &|_| true);
        assert_eq!(again, None);
        assert_eq!(report.unchanged, ["d-1", "d-2", "d-3", "d-5"]);
    }

    /// An older release's error recorded by its phase only stays so when
    /// recorded again and the oracle answers that phase; another phase, or
    /// a value, replaces it.
    #[test]
    fn a_phase_only_error_stays_phase_only() {
        let phase_only = Expect::Error(ExpectedError {
            phase: ExpectedPhase::Parse,
            summary: None,
        });
        let summarised = |phase| {
            Expect::Error(ExpectedError {
                phase,
                summary: Some("Unbalanced parentheses".into()),
            })
        };
        let parse = summarised(ExpectedPhase::Parse);
        let eval = summarised(ExpectedPhase::Eval);
        assert_eq!(judged_as_before(Some(&phase_only), &parse), phase_only);
        assert_eq!(judged_as_before(Some(&phase_only), &eval), eval);
        assert_eq!(judged_as_before(Some(&parse), &eval), eval);
        assert_eq!(judged_as_before(None, &parse), parse);
        let latest = Expectations::Same(eval.clone());
        let old: BTreeMap<_, _> = [(TerraformVersion::ALL[0], phase_only.clone())].into();
        let new = [(Version::Terraform(TerraformVersion::ALL[0]), parse.clone())];
        let table = merge_terraform(&latest, &old, &new);
        assert_eq!(table.get(&TerraformVersion::ALL[0]), Some(&phase_only));
        // Not the main expectations.
        let merged = merge(
            true,
            &Expectations::Same(phase_only.clone()),
            &[(Version::V2_14, parse.clone())],
        );
        assert_eq!(merged.for_version(Version::V2_14), Some(&parse));
    }

    /// A case that Terraform judges by phase only keeps its recorded
    /// answer for 2.24: Terraform is not asked about it.
    #[test]
    fn phase_only_oracles_are_not_recorded() {
        let file = r#"{"area": "demo", "cases": [
    {"id": "d-5", "source": "3", "verify": {"terraform": "phase"}, "note": "wrapped"}
  ]}"#;
        let (text, report) = run(file, false, &|_| true);
        assert!(report.not_asked.is_empty(), "{report:?}");
        assert!(
            text.unwrap()
                .contains(r#""expect": {"result": {"type": "bool", "value": false}}"#),
            "only the Go oracle's answer is recorded"
        );
    }

    #[test]
    fn refuses_invalid_files_and_request_errors() {
        let err = record_text(
            r#"{"area": "a", "cases": [{"id": "x"}]}"#,
            "a",
            "spec-tests/a.json",
            Path::new("spec-tests/a.json"),
            RecordOptions::default(),
            &|_| true,
            &mut ask,
        )
        .unwrap_err();
        assert!(
            err.starts_with("spec-tests/a.json: cases[0]: missing field `source`"),
            "{err}"
        );
        let e = expectation_from(Outcome::Error(ErrorBody::request("bad scope"))).unwrap_err();
        assert_eq!(e, "the oracle rejected the request: bad scope");
    }
    /// A TOML file keeps its comments and layout; only the answers change.
    #[test]
    fn records_into_toml() {
        let text = "area = \"demo\" # shared\n\n[[cases]]\nid = \"t-1\"\nsource = '''\n3'''\nnote = \"n\" # why\n";
        let (out, report) = record_text(
            text,
            "demo",
            "spec-tests/demo.toml",
            Path::new("spec-tests/demo.toml"),
            RecordOptions::default(),
            &|_| true,
            &mut ask,
        )
        .unwrap();
        assert_eq!(report.written, ["t-1"]);
        similar_asserts::assert_eq!(
            out.unwrap(),
            "area = \"demo\" # shared\n\n[[cases]]\nid = \"t-1\"\nsource = '''\n3'''\nversions.\"2.14\".result = { type = \"bool\", value = \"false\" }\nversions.\"2.24\".error = { phase = \"eval\", summary = \"Invalid operand\" }\nnote = \"n\" # why\n"
        );
    }
}
