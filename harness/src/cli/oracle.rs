//! `hclspec verify` and `hclspec record`: the corpus against the real
//! implementations, each profile against its own oracle.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, Result};
use clap::Args;

use hclspec::engine::{Child, Engine};
use hclspec::locate;
use hclspec::record::{expectation_from, record_file, same_expectation, RecordOptions};
use hclspec_corpus::{Case, CaseFile, Oracle, VerifyMode};
use hclspec_protocol::compare::{compare_with, phase_agrees, CompareOptions};
use hclspec_protocol::{Expect, Outcome, Request, Version};

use super::details::{comparable_detail, DetailArgs, DetailTally};
use super::CorpusArgs;

/// Choosing oracles and how to run them.
#[derive(Args)]
pub struct OracleArgs {
    /// An oracle to use, by name (`go-hcl`, `terraform`, `terraform-0.11`),
    /// optionally with its command (`go-hcl=CMD ARGS`, split as a shell
    /// would). Repeatable; default: every oracle that is installed.
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
    Oracle::ALL
        .into_iter()
        .find(|o| o.as_str() == name)
        .ok_or_else(|| {
            anyhow!("unknown oracle {name:?} (expected go-hcl, terraform or terraform-0.11)")
        })
}

/// What each oracle is, for the summary lines.
fn describe(oracle: Oracle) -> &'static str {
    match oracle {
        Oracle::GoHcl => "HCL 2.14.1 with go-cty 1.12.1",
        Oracle::Terraform => "Terraform 1.15.5",
        Oracle::Terraform011 => "Terraform 0.11.11",
    }
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
/// reference's error details against the oracle's.
pub fn verify(
    oracle_args: &OracleArgs,
    args: &CorpusArgs,
    detail_args: &DetailArgs,
    repeat: usize,
) -> Result<ExitCode> {
    let corpus = args.load()?;
    let selected = args.selected(&corpus)?;
    let chosen = oracle_args.choose(corpus.origin.dir())?;
    let floors = detail_args.floors()?;
    let mut failed = false;
    for Chosen { oracle, command } in chosen {
        // The cases this oracle judges, with how far.
        let mut todo: Vec<(&CaseFile, &Case, Version, &Expect, Option<VerifyMode>)> = Vec::new();
        let mut tally = Tally::default();
        for (file, case) in &selected {
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
            continue;
        }
        let command = match command {
            Ok(c) => c,
            Err(why) => {
                println!(
                    "not verified against {} ({}): {} expectations: {why}",
                    oracle.as_str(),
                    describe(oracle),
                    todo.len()
                );
                continue;
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
                            zero_sign: oracle != Oracle::Terraform,
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
                    println!(
                        "DISAGREE {} ({}::{} @{version}, {})",
                        file.display,
                        file.name,
                        case.id,
                        oracle.as_str()
                    );
                    print!("{text}");
                    println!();
                }
            }
        }
        let mut summary = format!(
            "verified {} expectations against {} ({}): {} agree, {} disagree",
            tally.agree + tally.disagree,
            oracle.as_str(),
            describe(oracle),
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
        println!("{summary}");
        if repeat > 1 {
            failed |= !stability.report(oracle, repeat, requests.len());
        }
        failed |= tally.disagree > 0;
        failed |= !details.report(detail_args.show_details, floors.get(&oracle).copied());
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
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
        let recordable = |a: &Result<Outcome, String>| match a {
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

    /// Prints what changed; whether every recordable answer, and every
    /// detail not said to vary, stayed.
    fn report(&self, oracle: Oracle, repeat: usize, asked: usize) -> bool {
        for (name, (first, other)) in &self.unstable {
            println!(
                "UNSTABLE {name} ({}): the oracle answered\n  {first}\nand then\n  {other}\n",
                oracle.as_str()
            );
        }
        for (name, why) in &self.unanswered {
            println!(
                "NO ANSWER {name} ({}) in a later round: {why}",
                oracle.as_str()
            );
        }
        for (name, (first, other)) in &self.detail_changed {
            println!(
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
            println!(
                "detail stayed {name} ({}): the case says it varies, and it was the same {repeat} times",
                oracle.as_str()
            );
        }
        println!(
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

/// Fills in expectations from the oracles.
pub fn record(
    oracle_args: &OracleArgs,
    corpus: Option<&Path>,
    force: bool,
    files: &[PathBuf],
) -> Result<ExitCode> {
    let corpus_dir = locate::writable_corpus_dir(corpus).map_err(anyhow::Error::msg)?;
    let chosen = oracle_args.choose(Some(&corpus_dir.dir))?;
    let mut children: BTreeMap<Oracle, Child> = BTreeMap::new();
    let mut unavailable: BTreeMap<Oracle, String> = BTreeMap::new();
    for Chosen { oracle, command } in chosen {
        match command {
            Ok(c) => {
                children.insert(oracle, oracle_args.spawn(&c)?);
            }
            Err(why) => {
                unavailable.insert(oracle, why);
            }
        }
    }
    let installed: Vec<Oracle> = children.keys().copied().collect();
    let available = |o: Oracle| installed.contains(&o);
    let mut failed = 0usize;
    for path in files {
        let (name, display) = file_names(&corpus_dir.dir, path);
        let mut ask = |o: Oracle, requests: &[Request]| match children.get_mut(&o) {
            Some(child) => ask_all(child, requests),
            None => vec![Err("not available".to_string()); requests.len()],
        };
        let report = record_file(
            path,
            &name,
            &display,
            RecordOptions {
                force,
                base_dir: hclspec_corpus::case::fixtures_in(&corpus_dir.dir),
            },
            &available,
            &mut ask,
        )
        .map_err(anyhow::Error::msg)?;
        for (id, why) in &report.failed {
            println!("{display}: {id}: not recorded: {why}");
        }
        for (oracle, n) in &report.not_asked {
            let why = unavailable
                .get(oracle)
                .map(String::as_str)
                .unwrap_or("not chosen");
            println!(
                "{display}: {} not asked about {n} cases ({why}); the other oracle's answer stands for both profiles until `hclspec verify` checks it",
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
    Ok(if failed == 0 {
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
