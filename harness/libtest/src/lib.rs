//! Run hclspec's conformance corpus against a Rust engine from the engine's
//! own `cargo test`: one libtest trial per case and profile, so filters,
//! `--list`, `--ignored` and nextest work as for any test.
//!
//! ```no_run
//! // tests/hclspec.rs, with `harness = false` for this test in Cargo.toml
//! use hclspec_harness::{Harness, Level, Outcome, Request};
//!
//! fn my_engine(request: &Request) -> Outcome {
//!     Outcome::Unsupported(format!("not yet: {}", request.source))
//! }
//!
//! fn main() {
//!     Harness::new(my_engine)
//!         .level(Level::Value)
//!         .skips("tests/hclspec-skips.txt")
//!         .run();
//! }
//! ```
//!
//! The corpus is the one built into `hclspec-corpus`; [`Harness::corpus`]
//! names a directory instead. Each case is judged exactly as `hclspec run`
//! judges it (the comparison of `hclspec-protocol`). Cases named in the
//! skip list (a glob and `# reason` per line, as for `hclspec run --skip`;
//! `id@1.9` names the case under one profile only) are ignored trials: `cargo test -- --ignored` runs them, to find entries
//! that can go. An `unsupported` answer passes (an engine may always say
//! what it does not model) and is counted in a line printed after the run,
//! unless [`Harness::require_answers`] says the engine answers every case.
//!
//! Engines are judged on an error's phase and summary only. An engine that
//! means to give HCL's exact error texts and ranges can also be held to
//! them with [`Harness::details`]: a file of the details and ranges an
//! oracle gave (as hclspec keeps the Go oracle's for its reference
//! implementation).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use hclspec_corpus::{Case, CaseFile, Corpus, SkipList};
use libtest_mimic::{Arguments, Conclusion, Failed, Trial};

pub use hclspec_protocol::{
    compare_at, Dialect, ErrorBody, ErrorPhase, Expect, Kind, Level, Outcome, Request, TypedValue,
    Verdict, Version,
};

/// The trial that reports whether the corpus and the skip list load.
pub const LOAD_TRIAL: &str = "hclspec::load";

/// A conformance run of one engine, configured by its builder methods.
pub struct Harness {
    engine: Arc<dyn Fn(&Request) -> Outcome + Send + Sync>,
    level: Level,
    versions: Vec<Version>,
    dialects: Option<Vec<Dialect>>,
    skips: Vec<PathBuf>,
    corpus: Option<PathBuf>,
    details: Vec<PathBuf>,
    answers_required: bool,
}

/// An error's detail and range as an oracle gave them, for one trial.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Detail {
    trial: String,
    detail: String,
    #[serde(default)]
    range: Option<hclspec_protocol::Range>,
}

/// Reads a details file: one JSON object per line, `{"trial": NAME,
/// "detail": TEXT, "range": RANGE}` (`range` optional), by trial name.
fn load_details(path: &Path) -> Result<HashMap<String, Detail>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = HashMap::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let d: Detail =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        out.insert(d.trial.clone(), d);
    }
    Ok(out)
}

impl Harness {
    /// A run of `engine` over the whole corpus at the full level, under
    /// every profile a case has an expectation for.
    pub fn new(engine: impl Fn(&Request) -> Outcome + Send + Sync + 'static) -> Harness {
        Harness {
            engine: Arc::new(engine),
            level: Level::Full,
            versions: Version::ALL.to_vec(),
            dialects: None,
            skips: Vec::new(),
            corpus: None,
            details: Vec::new(),
            answers_required: false,
        }
    }

    /// Judge at `level` (default: full). The level is also sent in each
    /// request, so that an engine may do less work.
    pub fn level(mut self, level: Level) -> Harness {
        self.level = level;
        self
    }

    /// Only this HCL profile (default: both). Cases of other dialects have
    /// one answer and run once either way.
    pub fn profile(mut self, version: Version) -> Harness {
        self.versions = vec![version];
        self
    }

    /// Only cases in these dialects (default: all).
    pub fn dialects(mut self, dialects: &[Dialect]) -> Harness {
        self.dialects = Some(dialects.to_vec());
        self
    }

    /// A skip list file (repeatable).
    pub fn skips(mut self, path: impl AsRef<Path>) -> Harness {
        self.skips.push(path.as_ref().to_path_buf());
        self
    }

    /// A details file (see [`load_details`]'s format): a trial whose
    /// expectation is an error and that the file names must also give the
    /// file's error detail, and its range where the file has one
    /// (repeatable: the files name different trials).
    pub fn details(mut self, path: impl AsRef<Path>) -> Harness {
        self.details.push(path.as_ref().to_path_buf());
        self
    }

    /// Fail an `unsupported` answer instead of passing it: for an engine
    /// that means to answer every case (cases it does not, in the skip
    /// list).
    pub fn require_answers(mut self) -> Harness {
        self.answers_required = true;
        self
    }

    /// A corpus directory instead of the built-in corpus.
    pub fn corpus(mut self, dir: impl AsRef<Path>) -> Harness {
        self.corpus = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Runs with the command line's libtest arguments and exits with the
    /// test result.
    pub fn run(self) -> ! {
        let args = Arguments::from_args();
        let unsupported = Arc::new(AtomicUsize::new(0));
        let trials = self.trials_counting(&unsupported);
        let conclusion = libtest_mimic::run(&args, trials);
        report_unsupported(&unsupported, &conclusion);
        conclusion.exit()
    }

    /// The trials, for callers that run them themselves.
    pub fn trials(self) -> Vec<Trial> {
        self.trials_counting(&Arc::new(AtomicUsize::new(0)))
    }

    fn trials_counting(self, unsupported: &Arc<AtomicUsize>) -> Vec<Trial> {
        let corpus = match &self.corpus {
            Some(dir) => Corpus::load(dir),
            None => Corpus::embedded(),
        };
        let corpus = match corpus {
            Ok(c) => c,
            Err(errors) => {
                return vec![failing_load(format!("the corpus does not load:\n{errors}"))]
            }
        };
        let mut skips = SkipList::default();
        for path in &self.skips {
            match SkipList::load(path) {
                Ok(list) => skips.extend(list),
                Err(e) => return vec![failing_load(format!("the skip list does not load:\n{e}"))],
            }
        }
        let mut details = HashMap::new();
        for path in &self.details {
            match load_details(path) {
                Ok(d) => details.extend(d),
                Err(e) => {
                    return vec![failing_load(format!(
                        "the details file does not load:\n{e}"
                    ))]
                }
            }
        }
        let details = Arc::new(details);
        let mut trials = vec![Trial::test(LOAD_TRIAL, || Ok(()))];
        for file in &corpus.files {
            if let Some(ds) = &self.dialects {
                if !ds.contains(&file.dialect) {
                    continue;
                }
            }
            for case in &file.cases {
                for version in case.test_versions() {
                    if case.dialect.is_hcl2() && !self.versions.contains(&version) {
                        continue;
                    }
                    // An entry names a case (`id`), or the case under one
                    // profile (`id@1.9`, `id@2.14`).
                    let in_profile = format!("{}@{}", case.id, version.as_str());
                    let skipped = skips.entries.iter().any(|e| {
                        e.pattern.matches(&file.name, &case.id)
                            || e.pattern.matches(&file.name, &in_profile)
                    });
                    trials.push(
                        self.trial(file, case, version, unsupported, &details)
                            .with_ignored_flag(skipped),
                    );
                }
            }
        }
        trials
    }

    fn trial(
        &self,
        file: &CaseFile,
        case: &Case,
        version: Version,
        unsupported: &Arc<AtomicUsize>,
        details: &Arc<HashMap<String, Detail>>,
    ) -> Trial {
        let name = case.trial_name(file, version);
        let details = Arc::clone(details);
        let trial_name = name.clone();
        let kind = case_kind_label(case);
        let display = file.display.clone();
        let case = case.clone();
        let engine = Arc::clone(&self.engine);
        let level = self.level;
        let answers_required = self.answers_required;
        let unsupported = Arc::clone(unsupported);
        Trial::test(name, move || {
            let Some(expect) = case.expect_for(version) else {
                return Err(format!(
                    "{display}: {}: no expectation for {version}; run `hclspec record {display}`",
                    case.id
                )
                .into());
            };
            let mut request = case.request(version);
            request.level = (level != Level::Full).then_some(level);
            let outcome = engine(&request);
            let verdict = compare_at(expect, &outcome, level);
            match verdict {
                Verdict::Pass => match (&outcome, details.get(&trial_name)) {
                    (Outcome::Error(e), Some(want)) => judge_detail(e, want).map_err(|why| {
                        Failed::from(format!("{}{why}", case_header(&display, &case, version)))
                    }),
                    _ => Ok(()),
                },
                Verdict::Unsupported { .. } if !answers_required => {
                    unsupported.fetch_add(1, Ordering::Relaxed);
                    Ok(())
                }
                _ => Err(Failed::from(failure_message(
                    &display, &case, version, &verdict,
                ))),
            }
        })
        .with_kind(kind)
    }
}

/// Whether an error has the detail, and the range where one is given, of
/// a details file's entry; else what differs.
fn judge_detail(got: &ErrorBody, want: &Detail) -> Result<(), String> {
    if got.detail != want.detail {
        return Err(format!(
            "error detail differs from the oracle's\n  expected: {:?}\n  actual:   {:?}",
            want.detail, got.detail
        ));
    }
    match &want.range {
        Some(range) if got.range.as_ref() != Some(range) => Err(format!(
            "error range differs from the oracle's\n  expected: {}\n  actual:   {}",
            serde_json::to_string(range).unwrap_or_default(),
            serde_json::to_string(&got.range).unwrap_or_default()
        )),
        _ => Ok(()),
    }
}

fn case_kind_label(case: &Case) -> &'static str {
    if case.dialect.is_hcl2() {
        case.kind.as_str()
    } else {
        case.dialect.as_str()
    }
}

fn failing_load(message: String) -> Trial {
    Trial::test(LOAD_TRIAL, move || Err(message.into()))
}

fn report_unsupported(unsupported: &AtomicUsize, conclusion: &Conclusion) {
    let n = unsupported.load(Ordering::Relaxed);
    if n > 0 {
        println!(
            "hclspec: {n} of {} passed trials are `unsupported` answers",
            conclusion.num_passed
        );
    }
}

/// What a failing trial prints: the case, its source and scope, and the
/// verdict with its diff.
pub fn failure_message(display: &str, case: &Case, version: Version, verdict: &Verdict) -> String {
    let mut msg = case_header(display, case, version);
    msg.push_str(&verdict.to_string());
    msg
}

/// The case part of a failing trial's message: its file, id, source and
/// scope.
fn case_header(display: &str, case: &Case, version: Version) -> String {
    let mut msg = format!("{display}: {} (HCL {version})\n", case.id);
    msg.push_str(&format!("{} source:\n", case.kind.as_str()));
    for line in case.source.lines() {
        msg.push_str(&format!("    {line}\n"));
    }
    if let Some(t) = &case.type_constraint {
        msg.push_str(&format!("type: {t}\n"));
    }
    if !case.scope.is_empty() {
        let via = case
            .scope_name
            .as_deref()
            .map(|n| format!(" (scope {n:?})"))
            .unwrap_or_default();
        msg.push_str(&format!("scope{via}:\n"));
        for (name, value) in &case.scope {
            msg.push_str(&format!("    {name} = {}\n", value.to_json()));
        }
    }
    msg
}
