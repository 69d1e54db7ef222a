//! `hclspec verify` and `hclspec record`: the corpus against the real
//! implementations, each profile against its own oracle.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, Result};
use clap::Args;

use hclspec::engine::{Child, Engine};
use hclspec::locate;
use hclspec::record::{
    crash_line, expectation_from, questions, record_file, same_expectation, RecordOptions,
};
use hclspec_corpus::{Case, CaseFile, Oracle, VerifyMode};
use hclspec_protocol::compare::{compare_with, phase_agrees, CompareOptions};
use hclspec_protocol::{Expect, Outcome, Request, Version};

use super::details::{comparable_detail, DetailArgs, DetailTally};
use super::CorpusArgs;

/// Choosing oracles and how to run them.
#[derive(Args)]
pub struct OracleArgs {
    /// An oracle to use, by name (`go-hcl`, `terraform` for Terraform 1.15,
    /// `terraform-1.6` ... `terraform-1.14` for an older release,
    /// `terraform-0.11`), optionally with its command (`go-hcl=CMD ARGS`,
    /// split as a shell would). Repeatable; default: every oracle that is
    /// installed.
    #[arg(long, value_name = "NAME[=CMD]")]
    oracle: Vec<String>,
    /// Oracles that must be installed (comma-separated names, or `all`);
    /// default: `$HCLSPEC_REQUIRE_ORACLE`.
    #[arg(long, value_name = "NAMES")]
    require: Option<String>,
    /// Seconds one request may take.
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    timeout: u64,
}

/// Names the oracles that must be installed (`all`, `1`, or names).
pub const REQUIRE_ENV: &str = "HCLSPEC_REQUIRE_ORACLE";

/// Requests sent ahead of their answers: oracles that batch (Terraform
/// evaluates a whole configuration per run) need many at once.
const ORACLE_WINDOW: usize = 2048;

/// An oracle to run, with its command or why it cannot run.
struct Chosen {
    oracle: Oracle,
    command: Result<Vec<String>, String>,
}

impl OracleArgs {
    /// The oracles to use: those named, else all; each with its command
    /// or why there is none. Errors when a required oracle is missing.
    fn choose(&self, corpus_dir: Option<&Path>) -> Result<Vec<Chosen>> {
        let mut named: BTreeMap<Oracle, Option<String>> = BTreeMap::new();
        for spec in &self.oracle {
            let (name, cmd) = match spec.split_once('=') {
                Some((n, c)) => (n, Some(c.to_string())),
                None => (spec.as_str(), None),
            };
            let oracle = parse_oracle(name)?;
            named.insert(oracle, cmd);
        }
        let which: Vec<Oracle> = if named.is_empty() {
            Oracle::ALL.to_vec()
        } else {
            named.keys().copied().collect()
        };
        let chosen: Vec<Chosen> = which
            .into_iter()
            .map(|oracle| {
                let command = match named.get(&oracle).cloned().flatten() {
                    Some(cmd) => shell_words::split(&cmd)
                        .map_err(|e| format!("--oracle {}: {e}", oracle.as_str()))
                        .and_then(|w| {
                            if w.is_empty() {
                                Err(format!("--oracle {}: empty command", oracle.as_str()))
                            } else {
                                Ok(w)
                            }
                        }),
                    None => locate::oracle_command(oracle, corpus_dir),
                };
                Chosen { oracle, command }
            })
            .collect();
        for required in self.required()? {
            if let Some(c) = chosen.iter().find(|c| c.oracle == required) {
                if let Err(why) = &c.command {
                    return Err(anyhow!(
                        "the {} oracle is required: {why}",
                        required.as_str()
                    ));
                }
            }
        }
        Ok(chosen)
    }

    fn required(&self) -> Result<Vec<Oracle>> {
        let text = match &self.require {
            Some(t) => t.clone(),
            None => std::env::var(REQUIRE_ENV).unwrap_or_default(),
        };
        let text = text.trim();
        if text.is_empty() || text == "0" {
            return Ok(Vec::new());
        }
        if text == "all" || text == "1" {
            return Ok(Oracle::ALL.to_vec());
        }
        text.split(',').map(|n| parse_oracle(n.trim())).collect()
    }

    fn spawn(&self, command: &[String]) -> Result<Child> {
        let child = Child::spawn(command).map_err(|e| anyhow!("{e}"))?;
        Ok(child
            .with_timeout(Duration::from_secs(self.timeout))
            .with_window(ORACLE_WINDOW))
    }
}

fn parse_oracle(name: &str) -> Result<Oracle> {
    Oracle::parse(name).ok_or_else(|| {
        anyhow!("unknown oracle {name:?} (expected go-hcl, terraform, terraform-1.6 to terraform-1.14, or terraform-0.11)")
    })
}

/// Answers `requests` with a running oracle, one answer (or why none)
/// per request, in order.
fn ask_all(child: &mut Child, requests: &[Request]) -> Vec<Result<Outcome, String>> {
    let mut out: Vec<Option<Result<Outcome, String>>> = vec![None; requests.len()];
    child.run(requests, &mut |i, exchange| {
        out[i] = Some(
            exchange
                .result
                .map(|r| r.outcome)
                .map_err(|e| format!("oracle error: {}", e.headline())),
        );
    });
    out.into_iter()
        .map(|a| a.unwrap_or_else(|| Err("oracle error: no answer".into())))
        .collect()
}

#[derive(Default)]
struct Tally {
    agree: usize,
    disagree: usize,
    phase_only: usize,
    not_expressible: usize,
}

/// Every recorded expectation against its profile's oracle, and the
/// reference's error details against the oracle's. `jobs` oracles run at
/// once (each oracle's lines are printed together when it is done).
pub fn verify(
    oracle_args: &OracleArgs,
    args: &CorpusArgs,
    detail_args: &DetailArgs,
    repeat: usize,
    jobs: usize,
) -> Result<ExitCode> {
    let corpus = args.load()?;
    let selected = args.selected(&corpus)?;
    let chosen = oracle_args.choose(corpus.origin.dir())?;
    let floors = detail_args.floors()?;
    let queue = std::sync::Mutex::new(
        chosen
            .into_iter()
            .collect::<std::collections::VecDeque<_>>(),
    );
    let failed = std::sync::atomic::AtomicBool::new(false);
    let first_error: std::sync::Mutex<Option<anyhow::Error>> = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let Some(chosen) = queue.lock().expect("not poisoned").pop_front() else {
                    break;
                };
                let job = VerifyJob {
                    oracle_args,
                    detail_args,
                    floors: &floors,
                    repeat,
                };
                let mut out = String::new();
                match job.run(chosen, &selected, &mut out) {
                    Ok(ok) => {
                        if !ok {
                            failed.store(true, std::sync::atomic::Ordering::SeqCst);
                        }
                    }
                    Err(e) => {
                        failed.store(true, std::sync::atomic::Ordering::SeqCst);
                        first_error.lock().expect("not poisoned").get_or_insert(e);
                    }
                }
                let mut stdout = std::io::stdout().lock();
                let _ = std::io::Write::write_all(&mut stdout, out.as_bytes());
                let _ = std::io::Write::flush(&mut stdout);
            });
        }
    });
    if let Some(e) = first_error.into_inner().expect("not poisoned") {
        return Err(e);
    }
    Ok(if failed.into_inner() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// What verifying one oracle needs besides the oracle and the cases.
struct VerifyJob<'a> {
    oracle_args: &'a OracleArgs,
    detail_args: &'a DetailArgs,
    floors: &'a BTreeMap<Oracle, u32>,
    repeat: usize,
}

impl VerifyJob<'_> {
    /// Verifies the expectations `oracle` judges, writing what it finds to
    /// `out`; whether everything agreed.
    fn run(
        &self,
        Chosen { oracle, command }: Chosen,
        selected: &[(&CaseFile, &Case)],
        out: &mut String,
    ) -> Result<bool> {
        let (oracle_args, detail_args, floors, repeat) =
            (self.oracle_args, self.detail_args, self.floors, self.repeat);
        let mut failed = false;
        // The cases this oracle judges, with how far.
        let mut todo: Vec<(&CaseFile, &Case, Version, &Expect, Option<VerifyMode>)> = Vec::new();
        let mut tally = Tally::default();
        for (file, case) in selected {
            for version in case.test_versions() {
                if Oracle::for_profile(case.dialect, version) != oracle {
                    continue;
                }
                let Some(expect) = case.expect_for(version) else {
                    continue;
                };
                match case.verify_mode(oracle) {
                    Some(VerifyMode::None) => tally.not_expressible += 1,
                    mode => todo.push((file, case, version, expect, mode)),
                }
            }
        }
        if todo.is_empty() && tally.not_expressible == 0 {
            return Ok(true);
        }
        let command = match command {
            Ok(c) => c,
            Err(why) => {
                let _ = writeln!(
                    out,
                    "not verified against {} ({}): {} expectations: {why}",
                    oracle.as_str(),
                    oracle.describe(),
                    todo.len()
                );
                return Ok(true);
            }
        };
        let mut child = oracle_args.spawn(&command)?;
        let requests: Vec<Request> = todo.iter().map(|(_, c, v, ..)| c.request(*v)).collect();
        let answers = ask_all(&mut child, &requests);
        let mut stability = Stability::default();
        // Each request's later answers, for the error details: where Go's
        // map order makes a detail vary, each detail seen is a right one.
        let mut later: Vec<Vec<Outcome>> = vec![Vec::new(); requests.len()];
        for _ in 1..repeat {
            let again = ask_all(&mut child, &requests);
            for (i, again) in again.into_iter().enumerate() {
                let (file, case, version, ..) = todo[i];
                let name = format!("{}::{} @{version}", file.name, case.id);
                stability.compare(
                    oracle,
                    &name,
                    &answers[i],
                    &again,
                    case.detail_varies(oracle),
                );
                if let Ok(outcome) = again {
                    later[i].push(outcome);
                }
            }
        }
        let mut details = DetailTally::new(oracle);
        for ((((file, case, version, expect, mode), request), answer), later) in
            todo.iter().zip(&requests).zip(answers).zip(&later)
        {
            // A detail that varies by design is none of the oracle's
            // answers more than another: it is not compared.
            if let (Ok(outcome), None, false) = (&answer, mode, case.detail_varies(oracle)) {
                let name = format!("{}::{} @{version}", file.display, case.id);
                details.compare(&name, request, outcome, later);
            }
            let problem = match (&answer, mode) {
                (Err(e), _) => Some(format!("{e}\n")),
                // A case the oracle judges by phase only, which this
                // oracle cannot express at all (Terraform 1.6 drops the
                // sign of a zero a module is given): counted as such.
                (Ok(Outcome::Unsupported(_)), Some(VerifyMode::Phase)) => {
                    tally.not_expressible += 1;
                    continue;
                }
                (Ok(outcome), Some(VerifyMode::Phase)) => {
                    tally.phase_only += 1;
                    (!phase_agrees(expect, outcome)).then(|| {
                        format!(
                            "phase-only check: expected {}, the oracle answered {}\n",
                            expect.to_json(),
                            outcome.to_json()
                        )
                    })
                }
                (Ok(outcome), _) => {
                    let verdict = compare_with(
                        expect,
                        outcome,
                        CompareOptions {
                            zero_sign: !matches!(oracle, Oracle::Terraform(_)),
                            ..CompareOptions::default()
                        },
                    );
                    (!verdict.is_pass()).then(|| verdict.to_string())
                }
            };
            match problem {
                None => tally.agree += 1,
                Some(text) => {
                    tally.disagree += 1;
                    let _ = writeln!(
                        out,
                        "DISAGREE {} ({}::{} @{version}, {})",
                        file.display,
                        file.name,
                        case.id,
                        oracle.as_str()
                    );
                    let _ = writeln!(out, "{text}");
                }
            }
        }
        let mut summary = format!(
            "verified {} expectations against {} ({}): {} agree, {} disagree",
            tally.agree + tally.disagree,
            oracle.as_str(),
            oracle.describe(),
            tally.agree,
            tally.disagree
        );
        if tally.phase_only > 0 {
            summary.push_str(&format!(
                "; {} of them by error phase only",
                tally.phase_only
            ));
        }
        if tally.not_expressible > 0 {
            summary.push_str(&format!(
                "; {} not expressible by this oracle",
                tally.not_expressible
            ));
        }
        if child.restarts() > 0 {
            summary.push_str(&format!(" (restarted {} times)", child.restarts()));
        }
        let _ = writeln!(out, "{summary}");
        if repeat > 1 {
            failed |= !stability.report(oracle, repeat, requests.len(), out);
        }
        failed |= tally.disagree > 0;
        failed |= !details.report(detail_args.show_details, floors.get(&oracle).copied(), out);
        Ok(!failed)
    }
}

/// How an oracle's answers to the same requests changed from one round of
/// `verify --repeat` to the next.
#[derive(Default)]
struct Stability {
    /// Cases (`file::id @version`) whose recordable answer changed, with the
    /// first answer and a different one.
    unstable: BTreeMap<String, (String, String)>,
    /// Cases whose answer stayed but whose error detail changed, though
    /// they do not say that it may (`detail_varies`).
    detail_changed: BTreeMap<String, (String, String)>,
    /// Cases that say their detail varies: whether it changed.
    declared: BTreeMap<String, bool>,
    /// Cases the oracle answered once and not another time, with why.
    unanswered: BTreeMap<String, String>,
}

impl Stability {
    /// Compares a later answer with the first; `varies`: the case says
    /// that this oracle's error detail changes from run to run.
    fn compare(
        &mut self,
        oracle: Oracle,
        name: &str,
        first: &Result<Outcome, String>,
        again: &Result<Outcome, String>,
        varies: bool,
    ) {
        // An oracle that gave no answer (a timeout on a busy machine) did
        // not change its answer: that is reported as what it is (and a
        // first round without an answer already is, as a disagreement).
        match (first, again) {
            (Err(_), _) => return,
            (Ok(_), Err(e)) => {
                self.unanswered
                    .entry(name.to_string())
                    .or_insert_with(|| e.clone());
                return;
            }
            _ => {}
        }
        // A crash is compared by its panic line: the rest of its text
        // (goroutines, addresses) is one run's.
        let recordable = |a: &Result<Outcome, String>| match a {
            Ok(Outcome::Crash(message)) => Ok(Expect::Crash(Some(crash_line(message)))),
            Ok(outcome) => expectation_from(outcome.clone()),
            Err(e) => Err(e.clone()),
        };
        let shown = |a: &Result<Expect, String>| match a {
            Ok(e) => e.to_json().to_string(),
            Err(e) => e.clone(),
        };
        let (x, y) = (recordable(first), recordable(again));
        let same = match (&x, &y) {
            (Ok(x), Ok(y)) => same_expectation(x, y),
            (Err(x), Err(y)) => x == y,
            _ => false,
        };
        if !same {
            self.unstable
                .entry(name.to_string())
                .or_insert_with(|| (shown(&x), shown(&y)));
            return;
        }
        let changed = match (first, again) {
            (Ok(Outcome::Error(x)), Ok(Outcome::Error(y))) => {
                let (dx, dy) = (
                    comparable_detail(oracle, &x.detail),
                    comparable_detail(oracle, &y.detail),
                );
                (dx != dy).then_some((dx, dy))
            }
            _ => None,
        };
        if varies {
            *self.declared.entry(name.to_string()).or_default() |= changed.is_some();
        } else if let Some(pair) = changed {
            self.detail_changed.entry(name.to_string()).or_insert(pair);
        }
    }

    /// Writes what changed; whether every recordable answer, and every
    /// detail not said to vary, stayed.
    fn report(&self, oracle: Oracle, repeat: usize, asked: usize, out: &mut String) -> bool {
        for (name, (first, other)) in &self.unstable {
            let _ = writeln!(
                out,
                "UNSTABLE {name} ({}): the oracle answered\n  {first}\nand then\n  {other}\n",
                oracle.as_str()
            );
        }
        for (name, why) in &self.unanswered {
            let _ = writeln!(
                out,
                "NO ANSWER {name} ({}) in a later round: {why}",
                oracle.as_str()
            );
        }
        for (name, (first, other)) in &self.detail_changed {
            let _ = writeln!(
                out,
                "DETAIL CHANGES {name} ({}): {first:?}, then {other:?}; a case must have one right answer: make it one, or list the oracle in the case's `detail_varies` and say why in its note",
                oracle.as_str()
            );
        }
        let stayed: Vec<&String> = self
            .declared
            .iter()
            .filter(|(_, changed)| !**changed)
            .map(|(name, _)| name)
            .collect();
        for name in &stayed {
            let _ = writeln!(
                out,
                "detail stayed {name} ({}): the case says it varies, and it was the same {repeat} times",
                oracle.as_str()
            );
        }
        let _ = writeln!(
            out,
            "asked {} {repeat} times for {asked} expectations: {} answers changed, {} more error details changed; {} of {} details said to vary changed; {} not answered every time",
            oracle.as_str(),
            self.unstable.len(),
            self.detail_changed.len(),
            self.declared.len() - stayed.len(),
            self.declared.len(),
            self.unanswered.len()
        );
        self.unstable.is_empty() && self.detail_changed.is_empty() && self.unanswered.is_empty()
    }
}

/// Fills in expectations from the oracles. Every file's questions go to
/// each oracle in one batch (an oracle that batches, as Terraform does,
/// answers hundreds of cases per run), `jobs` oracles at once; then each
/// file is written.
pub fn record(
    oracle_args: &OracleArgs,
    corpus: Option<&Path>,
    force: bool,
    files: &[PathBuf],
    jobs: usize,
) -> Result<ExitCode> {
    let corpus_dir = locate::writable_corpus_dir(corpus).map_err(anyhow::Error::msg)?;
    let chosen = oracle_args.choose(Some(&corpus_dir.dir))?;
    let mut commands: BTreeMap<Oracle, Vec<String>> = BTreeMap::new();
    let mut unavailable: BTreeMap<Oracle, String> = BTreeMap::new();
    for Chosen { oracle, command } in chosen {
        match command {
            Ok(c) => {
                commands.insert(oracle, c);
            }
            Err(why) => {
                unavailable.insert(oracle, why);
            }
        }
    }
    let available = |o: Oracle| commands.contains_key(&o);
    let options = RecordOptions {
        force,
        base_dir: hclspec_corpus::case::fixtures_in(&corpus_dir.dir),
    };

    // Every file's questions, by oracle.
    let mut asked: BTreeMap<Oracle, Vec<Request>> = BTreeMap::new();
    for path in files {
        let (name, display) = file_names(&corpus_dir.dir, path);
        let text = std::fs::read_to_string(path).map_err(|e| anyhow!("{display}: {e}"))?;
        let mut file = CaseFile::parse(&text, &name, &display, path)
            .map_err(|es| anyhow!("{}", hclspec_corpus::case::LoadErrors(es)))?;
        file.set_base_dir(options.base_dir.clone());
        for q in questions(&file, &options, &available).0 {
            asked.entry(q.oracle).or_default().push(q.request);
        }
    }
    // Each oracle answers its batch; answers are kept by request id.
    let answers: std::sync::Mutex<BTreeMap<(Oracle, String), Result<Outcome, String>>> =
        std::sync::Mutex::new(BTreeMap::new());
    let queue = std::sync::Mutex::new(asked.into_iter().collect::<Vec<_>>());
    let spawn_error: std::sync::Mutex<Option<anyhow::Error>> = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let Some((oracle, requests)) = queue.lock().expect("not poisoned").pop() else {
                    break;
                };
                let mut child = match oracle_args.spawn(&commands[&oracle]) {
                    Ok(c) => c,
                    Err(e) => {
                        spawn_error.lock().expect("not poisoned").get_or_insert(e);
                        continue;
                    }
                };
                eprintln!("asking {} about {} cases", oracle.as_str(), requests.len());
                let got = ask_all(&mut child, &requests);
                let mut answers = answers.lock().expect("not poisoned");
                for (request, answer) in requests.into_iter().zip(got) {
                    answers.insert((oracle, request.id), answer);
                }
            });
        }
    });
    if let Some(e) = spawn_error.into_inner().expect("not poisoned") {
        return Err(e);
    }
    let mut answers = answers.into_inner().expect("not poisoned");

    let mut failed = 0usize;
    let mut unwritten = 0usize;
    for path in files {
        let (name, display) = file_names(&corpus_dir.dir, path);
        let mut ask = |o: Oracle, requests: &[Request]| {
            requests
                .iter()
                .map(|r| {
                    answers
                        .remove(&(o, r.id.clone()))
                        .unwrap_or_else(|| Err("not available".to_string()))
                })
                .collect()
        };
        // A file that cannot be written keeps what it had; the others are
        // still written.
        let report = match record_file(path, &name, &display, options.clone(), &available, &mut ask)
        {
            Ok(report) => report,
            Err(e) => {
                println!("{display}: not written: {e}");
                unwritten += 1;
                continue;
            }
        };
        for (id, why) in &report.failed {
            println!("{display}: {id}: not recorded: {why}");
        }
        for (oracle, n) in &report.not_asked {
            let why = unavailable
                .get(oracle)
                .map(String::as_str)
                .unwrap_or("not chosen");
            let stands = match oracle {
                Oracle::Terraform(t) if *t != hclspec_protocol::TerraformVersion::LATEST => {
                    "the case's answer for it stays as it was"
                }
                _ => "the other oracle's answer stands for both profiles until `hclspec verify` checks it",
            };
            println!(
                "{display}: {} not asked about {n} cases ({why}); {stands}",
                oracle.as_str()
            );
        }
        failed += report.failed.len();
        println!(
            "{display}: {} recorded, {} unchanged, {} failed",
            report.written.len(),
            report.unchanged.len(),
            report.failed.len()
        );
    }
    Ok(if failed == 0 && unwritten == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A file's case-file name and display name: relative to the corpus when
/// it lies inside it, else its own path.
fn file_names(corpus: &Path, path: &Path) -> (String, String) {
    let inside = match (corpus.canonicalize(), path.canonicalize()) {
        (Ok(c), Ok(p)) if p.starts_with(&c) => Some((c, p)),
        _ => None,
    };
    match inside {
        Some((c, p)) => {
            let rel = p.strip_prefix(&c).expect("checked").with_extension("");
            let name = rel
                .components()
                .map(|x| x.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            (name, hclspec_corpus::case::display_name(&c, &p))
        }
        None => {
            let display = path.display().to_string();
            (path.with_extension("").display().to_string(), display)
        }
    }
}
