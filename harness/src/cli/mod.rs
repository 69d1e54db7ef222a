//! The subcommands other than `serve`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use serde_json::{Map, Value as Json};

use hclspec::engine::{Child, DEFAULT_TIMEOUT};
use hclspec::locate;
use hclspec::record::{record_file, RecordOptions, ORACLE_VERSION};
use hclspec_corpus::case::{Case, CaseFile, Corpus, Expectations};
use hclspec_corpus::select::Selector;
use hclspec_protocol::compare::compare;
use hclspec_protocol::Expect;
use hclspec_protocol::{Request, Version};

mod run;

pub use run::{matrix, run, MatrixArgs, RunArgs};

#[derive(Args)]
pub struct CorpusArgs {
    /// The corpus directory (default: $HCLSPEC_CORPUS, else the nearest
    /// `spec-tests` folder).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Only cases whose id, case file name (`splat`) or `file::id` matches
    /// this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    filter: Vec<String>,
}

#[derive(Args)]
pub struct OracleArgs {
    /// The oracle command, split on whitespace (default: $HCLSPEC_GO_ORACLE,
    /// else the built Go oracle).
    #[arg(long, value_name = "CMD")]
    oracle: Option<String>,
    /// Seconds one request may take.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT.as_secs())]
    timeout: u64,
}

impl CorpusArgs {
    fn dir(&self) -> PathBuf {
        locate::corpus_dir(self.corpus.as_deref())
    }

    fn load(&self) -> Result<Corpus> {
        let dir = self.dir();
        Corpus::load(&dir).map_err(|e| anyhow::anyhow!("the corpus does not load:\n{e}"))
    }

    fn selector(&self) -> Result<Selector> {
        Selector::new(&self.filter).map_err(|e| anyhow::anyhow!("--filter: {e}"))
    }

    /// The corpus's cases that pass the filter.
    fn selected<'c>(&self, corpus: &'c Corpus) -> Result<Vec<(&'c CaseFile, &'c Case)>> {
        let selector = self.selector()?;
        Ok(corpus
            .cases()
            .filter(|(f, c)| selector.matches(&f.name, &c.id))
            .collect())
    }
}

impl OracleArgs {
    fn command(&self, corpus: &Path) -> Result<Vec<String>> {
        let cmd = match &self.oracle {
            Some(c) => locate::split_command(c),
            None => locate::go_oracle(corpus).map_err(anyhow::Error::msg)?,
        };
        if cmd.is_empty() {
            bail!("empty --oracle command");
        }
        Ok(cmd)
    }

    fn spawn(&self, corpus: &Path) -> Result<Child> {
        let child = Child::spawn(&self.command(corpus)?)?;
        Ok(child.with_timeout(Duration::from_secs(self.timeout)))
    }
}

/// One JSON line per case that has an expectation for `version`.
pub fn export(args: &CorpusArgs, version: Version) -> Result<ExitCode> {
    let corpus = args.load()?;
    let mut out = std::io::stdout().lock();
    for (_, case) in args.selected(&corpus)? {
        let Some(expect) = case.expect_for(version) else {
            continue;
        };
        writeln!(out, "{}", export_line(case, expect))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn export_line(case: &Case, expect: &Expect) -> Json {
    let mut m = Map::new();
    m.insert("id".into(), Json::String(case.id.clone()));
    m.insert("kind".into(), Json::String(case.kind.as_str().into()));
    m.insert("source".into(), Json::String(case.source.clone()));
    let scope = case
        .scope
        .iter()
        .map(|(k, v)| (k.clone(), v.to_json()))
        .collect::<Map<_, _>>();
    m.insert("scope".into(), Json::Object(scope));
    m.insert("expect".into(), expect.to_json());
    Json::Object(m)
}

/// Case counts per area and per seed section.
pub fn stats(args: &CorpusArgs) -> Result<ExitCode> {
    let corpus = args.load()?;
    #[derive(Default)]
    struct Row {
        cases: usize,
        results: usize,
        errors: usize,
        versioned: usize,
        pending: usize,
    }
    let mut areas: BTreeMap<&str, Row> = BTreeMap::new();
    let mut seeds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut total = Row::default();
    for (file, case) in args.selected(&corpus)? {
        for row in [areas.entry(&file.area).or_default(), &mut total] {
            row.cases += 1;
            match &case.expect {
                Expectations::Pending => row.pending += 1,
                Expectations::PerVersion { .. } => row.versioned += 1,
                Expectations::Same(Expect::Result(_)) => row.results += 1,
                Expectations::Same(Expect::Error(_)) => row.errors += 1,
            }
        }
        *seeds
            .entry(case.seed.as_deref().unwrap_or("(none)"))
            .or_default() += 1;
    }
    let w = areas.keys().map(|a| a.len()).max().unwrap_or(0).max(5);
    println!(
        "{:<w$}  {:>6}  {:>7}  {:>6}  {:>9}  {:>7}",
        "area", "cases", "results", "errors", "versioned", "pending"
    );
    let line = |name: &str, r: &Row| {
        println!(
            "{name:<w$}  {:>6}  {:>7}  {:>6}  {:>9}  {:>7}",
            r.cases, r.results, r.errors, r.versioned, r.pending
        )
    };
    for (area, row) in &areas {
        line(area, row);
    }
    line("total", &total);
    println!();
    let w = seeds.keys().map(|s| s.len()).max().unwrap_or(0).max(12);
    println!("{:<w$}  {:>6}", "seed section", "cases");
    for (seed, n) in &seeds {
        println!("{seed:<w$}  {n:>6}");
    }
    Ok(ExitCode::SUCCESS)
}

/// A run stops when the oracle fails this many requests in a row.
const MAX_ORACLE_FAILURES: usize = 5;

/// Every case with a 2.14 expectation through the oracle.
pub fn verify(oracle: &OracleArgs, args: &CorpusArgs) -> Result<ExitCode> {
    let corpus = args.load()?;
    let selected = args.selected(&corpus)?;
    let mut child = oracle.spawn(&corpus.root)?;
    let todo: Vec<_> = selected
        .iter()
        .filter_map(|(f, c)| c.expect_for(ORACLE_VERSION).map(|e| (*f, *c, e)))
        .collect();
    let pending = selected.len() - todo.len();

    let bar = indicatif::ProgressBar::new(todo.len() as u64);
    let (mut agree, mut disagree) = (0usize, 0usize);
    let mut failing = 0usize;
    for (file, case, expect) in todo {
        let req: Request = case.request(ORACLE_VERSION);
        let report = match child.request(&req) {
            Ok(resp) => {
                failing = 0;
                let verdict = compare(expect, &resp.outcome);
                (!verdict.is_pass()).then(|| verdict.to_string())
            }
            Err(e) => {
                failing += 1;
                if failing == MAX_ORACLE_FAILURES {
                    bar.finish_and_clear();
                    bail!("the oracle failed {failing} requests in a row; the last: {e}");
                }
                Some(format!("oracle error: {e}\n"))
            }
        };
        match report {
            None => agree += 1,
            Some(text) => {
                disagree += 1;
                bar.suspend(|| {
                    println!("DISAGREE {} ({}::{})", file.display, file.name, case.id);
                    print!("{text}");
                    println!();
                });
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut summary = format!(
        "verified {} cases: {agree} agree, {disagree} disagree",
        agree + disagree
    );
    if pending > 0 {
        summary.push_str(&format!(" ({pending} without a 2.14 expectation skipped)"));
    }
    if child.restarts() > 0 {
        summary.push_str(&format!(" (oracle restarted {} times)", child.restarts()));
    }
    println!("{summary}");
    Ok(if disagree == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Fills in expectations from the oracle.
pub fn record(oracle: &OracleArgs, force: bool, files: &[PathBuf]) -> Result<ExitCode> {
    let corpus_dir = locate::corpus_dir(None);
    let mut child = oracle.spawn(&corpus_dir)?;
    let mut failed = 0usize;
    let mut failing = 0usize;
    for path in files {
        let (name, display) = file_names(&corpus_dir, path);
        let mut ask = |req: &Request| {
            if failing >= MAX_ORACLE_FAILURES {
                return Err(format!(
                    "skipped: the oracle failed {failing} requests in a row"
                ));
            }
            match child.request(req) {
                Ok(r) => {
                    failing = 0;
                    Ok(r.outcome)
                }
                Err(e) => {
                    failing += 1;
                    Err(format!("oracle error: {e}"))
                }
            }
        };
        let report = record_file(path, &name, &display, RecordOptions { force }, &mut ask)
            .map_err(anyhow::Error::msg)?;
        for (id, why) in &report.failed {
            println!("{display}: {id}: not recorded: {why}");
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

/// Lays case files out in the corpus layout.
pub fn fmt(corpus: Option<&Path>, check: bool, files: &[PathBuf]) -> Result<ExitCode> {
    let files = if files.is_empty() {
        let dir = locate::corpus_dir(corpus);
        hclspec_corpus::case::case_file_paths(&dir)
            .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
    } else {
        files.to_vec()
    };
    let mut off = 0usize;
    for path in &files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let doc: Json = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        let laid_out = hclspec_corpus::format::case_file_text(&doc);
        if laid_out == text {
            continue;
        }
        off += 1;
        if check {
            println!("{}: not in the corpus layout", path.display());
        } else {
            std::fs::write(path, laid_out)
                .with_context(|| format!("writing {}", path.display()))?;
            println!("{}: rewritten", path.display());
        }
    }
    Ok(if check && off > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
