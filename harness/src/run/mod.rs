//! `hclspec run`: the corpus against an engine, every case ending with
//! exactly one outcome, and the report in text, JSON and JUnit forms.

pub mod html;
pub mod junit;
pub mod matrix;

pub mod text;

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::process::Command;
use std::str::FromStr;
use std::time::Instant;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::Value as Json;

use crate::engine::{ChildError, Engine, Exchange};
use hclspec_corpus::case::{Case, CaseFile, Corpus, Origin};
use hclspec_corpus::select::Selector;
use hclspec_corpus::skip::SkipList;
use hclspec_corpus::{Oracle, VerifyMode};
use hclspec_protocol::compare::{
    compare_with, phase_agrees, round_numbers_f64, values_match_f64, values_match_loosely,
    CompareOptions, Verdict,
};
use hclspec_protocol::Expect;
use hclspec_protocol::{Kind, Level, Outcome, Version};

/// The revision of the JSON report described in `docs/protocol.md`.
pub const REPORT_VERSION: u32 = 1;

/// How one case ended. Every case gets exactly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The answer matches the expectation.
    Pass,
    /// The answer matches only once numbers are rounded to 64-bit floats
    /// (`--numbers f64`).
    PassF64,
    /// A wrong value, or a value where an error was expected (or the
    /// other way round).
    Fail,
    /// An error where one was expected, of another phase or summary.
    ErrorMismatch,
    /// The engine answered that it does not support what the case needs.
    Unsupported,
    /// The engine died, reported a crash, or was not run any more after
    /// too many restarts.
    Crash,
    /// No answer within the time limit.
    Timeout,
    /// The answer is not a protocol response to this request.
    ProtocolError,
    /// In the skip list and did not pass.
    Skipped,
    /// In the skip list, yet passed.
    UnexpectedPass,
    /// Not finished: the run was interrupted.
    NotRun,
}

impl Status {
    pub const ALL: [Status; 11] = [
        Status::Pass,
        Status::PassF64,
        Status::Fail,
        Status::ErrorMismatch,
        Status::Unsupported,
        Status::Crash,
        Status::Timeout,
        Status::ProtocolError,
        Status::Skipped,
        Status::UnexpectedPass,
        Status::NotRun,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::PassF64 => "pass-f64",
            Status::Fail => "fail",
            Status::ErrorMismatch => "error-mismatch",
            Status::Unsupported => "unsupported",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::ProtocolError => "protocol-error",
            Status::Skipped => "skipped",
            Status::UnexpectedPass => "unexpected-pass",
            Status::NotRun => "not-run",
        }
    }

    /// The engine's answer was right.
    pub fn is_pass(self) -> bool {
        matches!(
            self,
            Status::Pass | Status::PassF64 | Status::UnexpectedPass
        )
    }

    /// A case outside the skip list whose answer was wrong or missing.
    /// `unsupported` is not a failure: an engine may always say what it
    /// does not model; it is counted apart.
    pub fn is_failure(self) -> bool {
        !self.is_pass() && !matches!(self, Status::Skipped | Status::Unsupported | Status::NotRun)
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How numbers compare.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Numbers {
    /// Exactly, as cty's arbitrary-precision numbers.
    #[default]
    Exact,
    /// A result that is wrong exactly but right once every number on both
    /// sides is rounded to a 64-bit float counts as `pass-f64`.
    F64,
}

impl FromStr for Numbers {
    type Err = String;
    fn from_str(s: &str) -> Result<Numbers, String> {
        match s {
            "exact" => Ok(Numbers::Exact),
            "f64" => Ok(Numbers::F64),
            _ => Err(format!(
                "unknown number profile {s:?} (expected exact or f64)"
            )),
        }
    }
}

/// What a run checks and how.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub version: Version,
    /// What is judged (default: everything).
    pub level: Level,
    pub numbers: Numbers,
    pub skips: SkipList,
    /// The engine is this oracle: a case that the oracle can judge only in
    /// part (its `verify` says so) is judged as `hclspec verify` judges it,
    /// by error phase, or not at all.
    pub oracle: Option<Oracle>,
}

/// One case to run, with its expectation for the run's version.
#[derive(Clone, Copy, Debug)]
pub struct Planned<'c> {
    pub file: &'c CaseFile,
    pub case: &'c Case,
    pub expect: &'c Expect,
}

/// The selected cases that have an expectation for `version`, and how many
/// selected cases have none.
pub fn plan<'c>(
    corpus: &'c Corpus,
    select: &Selector,
    version: Version,
) -> (Vec<Planned<'c>>, usize) {
    let mut planned = Vec::new();
    let mut without = 0;
    for (file, case) in corpus.cases() {
        if !select.matches(&file.name, &case.id) {
            continue;
        }
        match case.expect_for(version) {
            Some(expect) => planned.push(Planned { file, case, expect }),
            None => without += 1,
        }
    }
    (planned, without)
}

/// What one case did.
#[derive(Clone, Debug, Serialize)]
pub struct CaseReport {
    pub id: String,
    /// The case file's name (`splat`), which is the area of the tables.
    pub area: String,
    /// The case file (`spec-tests/splat.json`).
    pub path: String,
    pub kind: Kind,
    pub source: String,
    /// The case's variables, as typed values by name.
    pub scope: Json,
    pub outcome: Status,
    /// One line: what went wrong, or why it passed.
    pub message: String,
    /// The expectation, in the corpus's form.
    pub expected: Json,
    /// The engine's response without its id, or null without one.
    pub actual: Option<Json>,
    /// A unified diff of expected (`-`) and actual (`+`) for wrong answers.
    pub diff: Option<String>,
    /// What the engine wrote to stderr while the case was in flight.
    pub stderr: String,
    pub elapsed_ms: f64,
    /// The skip-list entry naming this case.
    pub skip: Option<SkipReport>,
}

impl CaseReport {
    /// What a reader of a wrong answer is shown: the diff of the two
    /// answers, or both answers in full when the diff has nothing to show
    /// (there is no diff, or the two are written alike and differ only in
    /// what their JSON does not show).
    pub fn answers_shown(&self) -> String {
        match self.diff.as_deref() {
            Some(diff)
                if diff.lines().any(|l| {
                    l.starts_with(['-', '+']) && !l.starts_with("---") && !l.starts_with("+++")
                }) =>
            {
                diff.to_string()
            }
            _ => {
                let actual = self
                    .actual
                    .as_ref()
                    .map(hclspec_corpus::format::compact)
                    .unwrap_or_else(|| MSG_SHOWN_NO_ANSWER.to_string());
                let mut out = format!(
                    "expected: {}\nactual: {actual}",
                    hclspec_corpus::format::compact(&self.expected)
                );
                if self.diff.is_some() {
                    out.push_str("\n");
                    out.push_str(MSG_WRITTEN_ALIKE);
                }
                out
            }
        }
    }
}

const MSG_SHOWN_NO_ANSWER: &str = "(no answer)";
const MSG_WRITTEN_ALIKE: &str =
    "(the two answers are written alike: they differ in what their JSON does not show)";

#[derive(Clone, Debug, Serialize)]
pub struct SkipReport {
    pub pattern: String,
    pub reason: String,
    /// `file:line` of the entry.
    pub origin: String,
    /// The outcome the case would have had outside the skip list.
    pub outcome: Status,
}

/// Outcome counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts([usize; 11]);

impl Counts {
    pub fn add(&mut self, s: Status) {
        self.0[s.index()] += 1;
    }

    pub fn get(&self, s: Status) -> usize {
        self.0[s.index()]
    }

    pub fn cases(&self) -> usize {
        self.0.iter().sum()
    }

    /// Cases whose answer was right (including unexpected passes).
    pub fn passed(&self) -> usize {
        Status::ALL
            .iter()
            .filter(|s| s.is_pass())
            .map(|s| self.get(*s))
            .sum()
    }

    pub fn failures(&self) -> usize {
        Status::ALL
            .iter()
            .filter(|s| s.is_failure())
            .map(|s| self.get(*s))
            .sum()
    }

    /// The share of passed cases in percent, rounded down to a tenth so
    /// that only a clean sweep shows 100.0.
    pub fn pass_percent(&self) -> f64 {
        let cases = self.cases();
        if cases == 0 {
            return 0.0;
        }
        (self.passed() * 1000 / cases) as f64 / 10.0
    }
}

impl Serialize for Counts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(Status::ALL.len()))?;
        for st in Status::ALL {
            m.serialize_entry(st.as_str(), &self.get(st))?;
        }
        m.end()
    }
}

/// Counts over a set of cases, in the report's form.
#[derive(Clone, Debug, Serialize)]
pub struct Tally {
    pub cases: usize,
    pub passed: usize,
    pub pass_percent: f64,
    pub outcomes: Counts,
}

impl From<&Counts> for Tally {
    fn from(c: &Counts) -> Tally {
        Tally {
            cases: c.cases(),
            passed: c.passed(),
            pass_percent: c.pass_percent(),
            outcomes: c.clone(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct AreaTally {
    pub area: String,
    #[serde(flatten)]
    pub tally: Tally,
}

/// Which engine ran, and how.
#[derive(Clone, Debug, Serialize)]
pub struct EngineInfo {
    /// `reference`, or the command line.
    pub name: String,
    /// `in-process`, `persistent` or `one-shot`.
    pub mode: String,
    /// What the engine is, as its author names it (`hcl-rs 0.20.0`): given
    /// with `--engine-version`, or known for the built-in engines.
    pub version: Option<String>,
}

/// The corpus a run used: the hclspec release it belongs to, where it was
/// read from and, for a directory, its git commit (as the manifest of
/// `hclspec export` names it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CorpusInfo {
    pub version: String,
    /// `built-in` or `directory`.
    pub source: String,
    pub commit: Option<String>,
}

impl CorpusInfo {
    /// The corpus read from `origin`.
    pub fn of(origin: &Origin) -> CorpusInfo {
        let (source, commit) = match origin {
            Origin::Embedded => ("built-in", None),
            Origin::Dir(dir) => ("directory", git_commit(dir)),
        };
        CorpusInfo {
            version: VERSION.to_string(),
            source: source.to_string(),
            commit,
        }
    }
}

/// This program's version, as the reports name it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit a corpus directory was read from: `HEAD` of the git checkout
/// holding it, when nothing under it differs from that commit; else none
/// (no git, not a checkout, or changes not committed).
fn git_commit(dir: &Path) -> Option<String> {
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let head = git(&["rev-parse", "HEAD"])?;
    let changes = git(&["status", "--porcelain", "--untracked-files=all", "--", "."])?;
    (changes.is_empty() && !head.is_empty()).then_some(head)
}

/// A whole run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub report_version: u32,
    /// `hclspec VERSION`, the program that ran the cases.
    pub generator: String,
    pub engine: EngineInfo,
    /// The corpus the cases came from, when the caller says (the CLI does).
    pub corpus: Option<CorpusInfo>,
    /// The profile: `"2.14"` or `"2.24"` here, with an older Terraform
    /// release in `terraform_version`.
    #[serde(serialize_with = "serialize_hcl_part")]
    pub hcl_version: Version,
    /// The Terraform release whose expectations counted, when older than
    /// 1.15 (the `2.24` profile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terraform_version: Option<&'static str>,
    pub level: Level,
    pub numbers: Numbers,
    pub elapsed_seconds: f64,
    pub restarts: u32,
    /// Selected cases left out: no expectation for this version.
    pub without_expectation: usize,
    /// The signal that interrupted the run (`SIGINT`, `SIGTERM`), if one
    /// did; its unfinished cases are `not-run`.
    pub interrupted: Option<String>,
    pub totals: Tally,
    pub areas: Vec<AreaTally>,
    pub cases: Vec<CaseReport>,
    /// With `--closest-terraform`: the engine run again on the cases whose
    /// answer differs between Terraform releases, against each release's
    /// answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terraform_releases: Option<matrix::ReleaseAgreement>,
}

impl Report {
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for r in &self.cases {
            c.add(r.outcome);
        }
        c
    }

    /// Whether the run is a success: every case outside the skip list
    /// passed (and, when `strict_skips`, every skipped case failed).
    pub fn is_success(&self, strict_skips: bool) -> bool {
        let c = self.counts();
        c.failures() == 0 && !(strict_skips && c.get(Status::UnexpectedPass) > 0)
    }
}

/// The release of a profile that is an older Terraform's.
pub fn older_terraform(version: Version) -> Option<&'static str> {
    (version != Version::V2_24)
        .then(|| version.terraform())
        .flatten()
        .map(|t| t.as_str())
}

fn serialize_hcl_part<S: serde::Serializer>(v: &Version, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match v {
        Version::V2_14 => "2.14",
        Version::Terraform(_) => "2.24",
    })
}

/// Runs the planned cases on `engine`. `progress` sees every case as it
/// ends. The report has one entry per planned case, in plan order.
pub fn run(
    engine: &mut dyn Engine,
    info: EngineInfo,
    planned: &[Planned],
    opts: &RunOptions,
    without_expectation: usize,
    progress: &mut dyn FnMut(&CaseReport),
) -> Report {
    let requests: Vec<_> = planned
        .iter()
        .map(|p| {
            let mut r = p.case.request(opts.version);
            r.level = (opts.level != Level::Full).then_some(opts.level);
            r
        })
        .collect();
    let mut results: Vec<Option<CaseReport>> = vec![None; planned.len()];
    let start = Instant::now();
    engine.run(&requests, &mut |i, exchange| {
        if results[i].is_some() {
            debug_assert!(false, "case {i} answered twice");
            return;
        }
        let r = judge(&planned[i], exchange, opts);
        progress(&r);
        results[i] = Some(r);
    });
    let elapsed = start.elapsed();
    let cases: Vec<CaseReport> = results
        .into_iter()
        .zip(planned)
        .map(|(r, p)| r.unwrap_or_else(|| judge(p, Exchange::failed(no_answer()), opts)))
        .collect();

    let mut areas: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut totals = Counts::default();
    for r in &cases {
        areas.entry(&r.area).or_default().add(r.outcome);
        totals.add(r.outcome);
    }
    let areas = areas
        .into_iter()
        .map(|(area, c)| AreaTally {
            area: area.to_string(),
            tally: Tally::from(&c),
        })
        .collect();
    Report {
        report_version: REPORT_VERSION,
        generator: format!("hclspec {VERSION}"),
        engine: info,
        corpus: None,
        hcl_version: opts.version,
        terraform_version: older_terraform(opts.version),
        level: opts.level,
        numbers: opts.numbers,
        elapsed_seconds: elapsed.as_secs_f64(),
        restarts: engine.restarts(),
        without_expectation,
        interrupted: crate::interrupt::signal()
            .map(|s| crate::interrupt::signal_name(s).to_string()),
        totals: Tally::from(&totals),
        areas,
        cases,
        terraform_releases: None,
    }
}

/// An engine that never reported a case is a harness bug; the case still
/// gets an outcome.
fn no_answer() -> ChildError {
    ChildError::Io(std::io::Error::other(MSG_NO_ANSWER))
}

const MSG_NO_ANSWER: &str = "the engine driver reported no answer";
const MSG_PASS: &str = "pass";
const MSG_PASS_F64: &str = "passes once numbers are rounded to 64-bit floats";
const MSG_ENGINE_CRASH: &str = "the engine reported a crash";
const MSG_UNSUPPORTED: &str = "unsupported";
const MSG_PASS_PHASE: &str = "pass (this oracle is judged by error phase only)";
const MSG_PHASE_DIFFERS: &str = "the error phase differs (this oracle is judged by phase only)";
const MSG_NOT_EXPRESSIBLE: &str = "this oracle cannot express the case";

/// The outcome of one case.
/// The area a case counts under in reports: its file's name, except that
/// the cases promoted from fuzzing (one file each) count under their
/// directory, such as `fuzz/go`.
fn report_area(file: &str) -> String {
    match file
        .strip_prefix("fuzz/")
        .and_then(|rest| rest.rsplit_once('/'))
    {
        Some((dir, _)) => format!("fuzz/{dir}"),
        None => file.to_string(),
    }
}

fn judge(p: &Planned, exchange: Exchange, opts: &RunOptions) -> CaseReport {
    let Exchange {
        result,
        stderr,
        elapsed,
    } = exchange;
    let mut diff = None;
    let mut actual = None;
    let (status, message) = match result {
        Ok(response) if opts.oracle.and_then(|o| p.case.verify_mode(o)).is_some() => {
            actual = Some(response.outcome.to_json());
            let mode = opts.oracle.and_then(|o| p.case.verify_mode(o));
            match mode {
                Some(VerifyMode::Phase) if phase_agrees(p.expect, &response.outcome) => {
                    (Status::Pass, MSG_PASS_PHASE.to_string())
                }
                Some(VerifyMode::Phase) => (Status::ErrorMismatch, MSG_PHASE_DIFFERS.to_string()),
                _ => (Status::Unsupported, MSG_NOT_EXPRESSIBLE.to_string()),
            }
        }
        Ok(response) => {
            actual = Some(response.outcome.to_json());
            let verdict = compare_with(
                p.expect,
                &response.outcome,
                CompareOptions {
                    level: opts.level,
                    zero_sign: !matches!(opts.oracle, Some(Oracle::Terraform(_))),
                    ..CompareOptions::default()
                },
            );
            let headline = verdict.headline();
            match verdict {
                Verdict::Pass => (Status::Pass, MSG_PASS.to_string()),
                Verdict::Fail { reason, diff: d } => {
                    diff = Some(d.unified());
                    let rounded = match (opts.numbers, p.expect, &response.outcome) {
                        (Numbers::F64, Expect::Result(e), Outcome::Result(a)) => {
                            if opts.level == Level::Full {
                                values_match_f64(e, a).is_ok()
                            } else {
                                values_match_loosely(&round_numbers_f64(e), &round_numbers_f64(a))
                                    .is_ok()
                            }
                        }
                        _ => false,
                    };
                    if rounded {
                        (Status::PassF64, MSG_PASS_F64.to_string())
                    } else {
                        (Status::Fail, reason)
                    }
                }
                Verdict::ErrorMismatch { diff: d, .. } => {
                    diff = Some(d.unified());
                    (Status::ErrorMismatch, headline)
                }
                Verdict::Unsupported { reason } => {
                    (Status::Unsupported, format!("{MSG_UNSUPPORTED}: {reason}"))
                }
                Verdict::Crash { message } => {
                    (Status::Crash, format!("{MSG_ENGINE_CRASH}: {message}"))
                }
            }
        }
        Err(e) => {
            let status = match e {
                ChildError::TimedOut { .. } => Status::Timeout,
                ChildError::Protocol { .. } => Status::ProtocolError,
                ChildError::Interrupted { .. } => Status::NotRun,
                ChildError::Spawn { .. }
                | ChildError::Crashed { .. }
                | ChildError::Io(_)
                | ChildError::GaveUp { .. } => Status::Crash,
            };
            (status, e.headline())
        }
    };
    let skip = opts
        .skips
        .find(&p.file.name, &p.case.id)
        .map(|entry| SkipReport {
            pattern: entry.pattern.as_str().to_string(),
            reason: entry.reason.clone(),
            origin: entry.origin.clone(),
            outcome: status,
        });
    let outcome = match (&skip, status.is_pass()) {
        (_, false) if status == Status::NotRun => status,
        (None, _) => status,
        (Some(_), true) => Status::UnexpectedPass,
        (Some(_), false) => Status::Skipped,
    };
    CaseReport {
        id: p.case.id.clone(),
        area: report_area(&p.file.name),
        path: p.file.display.clone(),
        kind: p.case.kind,
        source: p.case.source.clone(),
        scope: Json::Object(
            p.case
                .scope
                .iter()
                .map(|(k, v)| (k.clone(), v.to_json()))
                .collect(),
        ),
        outcome,
        message,
        expected: p.expect.to_json(),
        actual,
        diff,
        stderr: stderr.join("\n"),
        elapsed_ms: elapsed.as_secs_f64() * 1000.0,
        skip,
    }
}

#[cfg(test)]
mod tests;
