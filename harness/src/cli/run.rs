//! `hclspec run` and `hclspec matrix`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Context as _, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use hclspec::engine::{Child, Engine, InProcess, OneShot, DEFAULT_WINDOW};
use hclspec::locate;
use hclspec::run::matrix::{Column, Matrix, ReleaseAgreement};
use hclspec::run::text::Show;
use hclspec::run::{self as runner, CorpusInfo, EngineInfo, Numbers, Report, RunOptions};
use hclspec_corpus::case::Corpus;
use hclspec_corpus::select::Selector;
use hclspec_corpus::skip::SkipList;
use hclspec_corpus::Oracle;
use hclspec_protocol::{Level, TerraformVersion, Version};

use super::CorpusArgs;

/// What every run needs to know about the engine and the comparison.
#[derive(Args, Clone)]
pub struct CommonArgs {
    /// The HCL version whose expectations count.
    #[arg(long, default_value = "2.24", value_parser = parse_hcl_version)]
    hcl_version: Version,
    /// The Terraform release whose expectations count, and whose behaviour
    /// a request asks for (`1.6`, `1.8`, ..., `1.15`; implies `--hcl-version
    /// 2.24`).
    #[arg(long, value_name = "RELEASE", value_parser = parse_terraform_version)]
    terraform_version: Option<TerraformVersion>,
    /// What is judged: `parse` (accept or reject), `value` (values and
    /// error phases, list/tuple and map/object alike), or `full` (types and
    /// error summaries too).
    #[arg(long, default_value = "full", value_parser = parse_level)]
    pub(super) level: Level,
    #[command(flatten)]
    pub(super) corpus: CorpusArgs,
    /// `exact`, or `f64`: a result right only once its numbers and the
    /// expected ones are rounded to 64-bit floats counts as `pass-f64`.
    #[arg(long, default_value = "exact", value_parser = parse_numbers)]
    numbers: Numbers,
    /// Seconds one case may take before the engine is killed and
    /// restarted.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_seconds)]
    timeout: Duration,
    /// How many times an engine is restarted (after crashes, timeouts and
    /// protocol errors) before the remaining cases are given up as `crash`.
    #[arg(long, value_name = "N", default_value_t = 20)]
    max_restarts: u32,
    /// Start the engine afresh for every case: one request on its stdin,
    /// then end of input; one response on its stdout.
    #[arg(long)]
    one_shot: bool,
    /// How many requests a persistent engine gets ahead of its answers.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_WINDOW)]
    window: usize,
}

#[derive(Args)]
pub struct RunArgs {
    /// The engine's command line, split as a shell would (default: the
    /// built-in reference implementation, in process).
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// What the engine is, for the reports (`my-engine 1.4.0`); the
    /// built-in reference and the oracles name theirs.
    #[arg(long, value_name = "TEXT")]
    engine_version: Option<String>,
    #[command(flatten)]
    common: CommonArgs,
    /// A skip list: one `GLOB  # reason` per line (repeatable).
    #[arg(long, value_name = "FILE")]
    skip: Vec<PathBuf>,
    /// Fail the run when a case in the skip list passes.
    #[arg(long)]
    strict_skips: bool,
    /// The report on stdout: `text` (failures, a table per area, a summary)
    /// or `json` (every case; see docs/protocol.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also write the report as JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Text report: only the table and the summary (`--show none`).
    #[arg(short, long)]
    quiet: bool,
    /// Text report: which cases to show one by one: `failures` (default;
    /// unsupported and skipped cases as counts per area), `unsupported`,
    /// `all`, or `none`.
    #[arg(long, value_name = "WHICH", default_value = "failures", value_parser = parse_show)]
    show: Show,
    /// List the selected cases (`file::id`), one per line, and run nothing.
    #[arg(long)]
    list: bool,
    /// Also run the engine on the cases whose answer differs between
    /// Terraform releases, once per release (1.6 to 1.15), and report the
    /// release it agrees with most.
    #[arg(long)]
    closest_terraform: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Args)]
pub struct MatrixArgs {
    /// `NAME=CMD`, `reference` for the built-in reference implementation, or
    /// an oracle's name (`go-hcl`, `terraform`, `terraform-0.11`) for the
    /// installed oracle (repeatable; columns in this order). `NAME@LEVEL`
    /// judges that column at another level than `--level`. A column named
    /// after an oracle judges the cases that oracle can judge only in part
    /// as `hclspec verify` does.
    #[arg(long = "engine", value_name = "NAME=CMD", required = true)]
    engines: Vec<String>,
    /// `NAME=TEXT`: what the engine named NAME is (`hcl-rs=hcl-rs 0.20.0`),
    /// for the JSON (repeatable); the reference and the oracles name theirs.
    #[arg(long = "engine-version", value_name = "NAME=TEXT")]
    versions: Vec<String>,
    #[command(flatten)]
    common: CommonArgs,
    /// Write the markdown matrix to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also write the matrix as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also run each engine on the cases whose answer differs between
    /// Terraform releases, once per release (1.6 to 1.15), and show the
    /// release it agrees with most.
    #[arg(long)]
    closest_terraform: bool,
}

/// `hclspec run`.
pub fn run(args: &RunArgs) -> Result<ExitCode> {
    args.common.check_profile()?;
    let spec = match &args.engine {
        None if args.common.one_shot => bail!("--one-shot needs --engine"),
        None => EngineSpec::Reference,
        Some(cmd) => EngineSpec::parse(cmd)?,
    };
    let version = args
        .engine_version
        .clone()
        .or_else(|| spec.builtin_version());
    let mut skips = SkipList::default();
    for path in &args.skip {
        skips.extend(SkipList::load(path).map_err(anyhow::Error::msg)?);
    }
    let corpus = args.common.corpus.load()?;
    if args.list {
        let selector = args.common.corpus.selector()?;
        let (planned, _) = runner::plan(&corpus, &selector, args.common.profile());
        let mut out = std::io::stdout().lock();
        for p in planned {
            writeln!(out, "{}::{}", p.file.name, p.case.id)?;
        }
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    warn_unused_skips(&skips, &corpus);
    hclspec::interrupt::install().context("watching for interrupts")?;
    let mut report = run_engine(
        &spec,
        &args.common,
        args.common.level,
        &corpus,
        skips,
        "run",
        None,
    )?;
    report.engine.version = version;
    if args.closest_terraform && hclspec::interrupt::signal().is_none() {
        let engine = NamedEngine {
            name: report.engine.name.clone(),
            level: args.common.level,
            command: String::new(),
            spec,
            oracle: None,
            version: None,
        };
        report.terraform_releases = Some(release_agreement(&engine, &args.common, &corpus)?);
    }

    if let Some(path) = &args.junit {
        let xml = runner::junit::to_xml(&report).map_err(anyhow::Error::msg)?;
        std::fs::write(path, xml).with_context(|| format!("writing {}", path.display()))?;
    }
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Text => {
            let show = if args.quiet { Show::None } else { args.show };
            out.write_all(runner::text::details(&report, show).as_bytes())?;
            out.write_all(
                runner::text::table(&report.areas, &report.totals, report.numbers).as_bytes(),
            )?;
            writeln!(out)?;
            out.write_all(runner::text::summary(&report).as_bytes())?;
        }
    }
    out.flush()?;
    if let Some(sig) = hclspec::interrupt::signal() {
        return Ok(ExitCode::from((128 + sig) as u8));
    }
    Ok(if report.is_success(args.strict_skips) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `hclspec matrix`.
pub fn matrix(args: &MatrixArgs) -> Result<ExitCode> {
    args.common.check_profile()?;
    let corpus = args.common.corpus.load()?;
    let mut columns = Vec::new();
    let runs = run_engines(
        &args.engines,
        &args.versions,
        &args.common,
        &corpus,
        args.closest_terraform,
    )?;
    for (engine, report) in runs {
        let command = match engine.spec {
            EngineSpec::Reference => "built-in reference implementation".to_string(),
            EngineSpec::Command(_) => engine.command.clone(),
        };
        columns.push(Column::new(&engine.name, &command, &report));
    }
    let matrix = Matrix {
        report_version: runner::REPORT_VERSION,
        hcl_version: args.common.profile(),
        numbers: args.common.numbers,
        engines: columns,
        command_line: Some(command_line()),
    };
    let markdown = matrix.to_markdown();
    match &args.out {
        Some(path) => std::fs::write(path, &markdown)
            .with_context(|| format!("writing {}", path.display()))?,
        None => std::io::stdout().lock().write_all(markdown.as_bytes())?,
    }
    if let Some(path) = &args.json {
        let mut text = serde_json::to_string_pretty(&matrix)?;
        text.push('\n');
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(sig) = hclspec::interrupt::signal() {
        return Ok(ExitCode::from((128 + sig) as u8));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--closest-terraform`: the engine asked, as in the matrix, the selected
/// cases whose answer differs between Terraform releases (a `terraform`
/// table), and its answers judged against each release's: the requests
/// name no release, so that an engine that knows one Terraform answers as
/// that one does.
fn release_agreement(
    engine: &NamedEngine,
    common: &CommonArgs,
    corpus: &Corpus,
) -> Result<ReleaseAgreement> {
    let names: Vec<String> = common
        .corpus
        .selected(corpus)?
        .into_iter()
        .filter(|(_, case)| !case.terraform.is_empty())
        .map(|(file, case)| format!("{}::{}", file.name, case.id))
        .collect();
    if names.is_empty() {
        bail!("--closest-terraform: no selected case differs between Terraform releases");
    }
    let selector = Selector::new(&names).map_err(|e| anyhow!("--closest-terraform: {e}"))?;
    let mut args = common.clone();
    args.hcl_version = Version::V2_24;
    args.terraform_version = None;
    let mut passed = Vec::new();
    for release in TerraformVersion::ALL {
        let (planned, without) = runner::plan(corpus, &selector, Version::Terraform(release));
        let (mut started, info) = engine.spec.start(&args)?;
        let opts = RunOptions {
            // Asked as the current profile; judged by `planned`'s answers,
            // the release's.
            version: Version::V2_24,
            level: engine.level,
            numbers: args.numbers,
            skips: SkipList::default(),
            oracle: engine.oracle,
        };
        let report = runner::run(
            started.as_mut(),
            info,
            &planned,
            &opts,
            without,
            &mut |_| {},
        );
        passed.push((release.as_str().to_string(), report.counts().passed()));
    }
    eprintln!(
        "{}: of {} cases that differ between Terraform releases, passes {}",
        engine.name,
        names.len(),
        passed
            .iter()
            .map(|(v, n)| format!("{n} as {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(ReleaseAgreement {
        cases: names.len(),
        passed,
    })
}

/// An engine named on the command line.
pub(super) struct NamedEngine {
    pub name: String,
    /// The level its column judges.
    pub level: Level,
    /// The command shown for it (empty for the reference).
    pub command: String,
    pub spec: EngineSpec,
    /// The oracle it is, if it is one.
    pub oracle: Option<Oracle>,
    /// What it is (`--engine-version NAME=TEXT`, or a built-in engine's).
    pub version: Option<String>,
}

/// `NAME=CMD`, `NAME@LEVEL=CMD`, `reference` or an oracle's name, as
/// `--engine` of `hclspec matrix` and `hclspec report` take it.
fn parse_engine(e: &str, default_level: Level, corpus: &Corpus) -> Result<NamedEngine> {
    let (name, cmd) = match e.split_once('=') {
        Some((n, c)) => (n.trim(), c.trim()),
        None => (e.trim(), ""),
    };
    let (name, level) = match name.split_once('@') {
        Some((n, l)) => (
            n.trim(),
            l.trim().parse::<Level>().map_err(anyhow::Error::msg)?,
        ),
        None => (name, default_level),
    };
    if name.is_empty() {
        bail!("--engine {e:?}: the name is empty");
    }
    let oracle = Oracle::ALL.into_iter().find(|o| o.as_str() == name);
    let (spec, command) = match (name, cmd, oracle) {
        (REFERENCE, "", _) => (EngineSpec::Reference, String::new()),
        (_, "", Some(o)) => {
            let words = locate::oracle_command(o, corpus.origin.dir())
                .map_err(|why| anyhow!("--engine {e:?}: {why}"))?;
            // Shown as where setup installs it, not as this machine's path.
            let shown = locate::oracle_path(o).to_string();
            (EngineSpec::Command(words), shown)
        }
        (_, "", None) => {
            bail!("--engine {e:?}: expected NAME=CMD (or `{REFERENCE}` or an oracle's name)")
        }
        (_, cmd, _) => (EngineSpec::parse(cmd)?, cmd.to_string()),
    };
    let version = match (&spec, oracle, cmd) {
        (_, Some(o), "") => Some(o.implementation().to_string()),
        (spec, ..) => spec.builtin_version(),
    };
    Ok(NamedEngine {
        name: name.to_string(),
        level,
        command,
        spec,
        oracle,
        version,
    })
}

/// `--engine-version NAME=TEXT` of `hclspec matrix` and `hclspec report`,
/// by engine name; every NAME must be an engine's.
fn engine_versions<'a>(
    versions: &'a [String],
    engines: &[NamedEngine],
) -> Result<Vec<(&'a str, &'a str)>> {
    versions
        .iter()
        .map(|v| {
            let (name, text) = v
                .split_once('=')
                .map(|(n, t)| (n.trim(), t.trim()))
                .filter(|(n, t)| !n.is_empty() && !t.is_empty())
                .ok_or_else(|| anyhow!("--engine-version {v:?}: expected NAME=TEXT"))?;
            if !engines.iter().any(|e| e.name == name) {
                bail!("--engine-version {v:?}: no --engine is named {name:?}");
            }
            Ok((name, text))
        })
        .collect()
}

/// Runs each `--engine` in turn on the selected cases, saying how each did
/// on stderr; stops early after an interrupt.
pub(super) fn run_engines(
    engines: &[String],
    versions: &[String],
    common: &CommonArgs,
    corpus: &Corpus,
    closest_terraform: bool,
) -> Result<Vec<(NamedEngine, Report)>> {
    let mut engines = engines
        .iter()
        .map(|e| parse_engine(e, common.level, corpus))
        .collect::<Result<Vec<_>>>()?;
    for (name, text) in engine_versions(versions, &engines)? {
        for e in engines.iter_mut().filter(|e| e.name == name) {
            e.version = Some(text.to_string());
        }
    }
    hclspec::interrupt::install().context("watching for interrupts")?;
    let mut reports = Vec::new();
    for engine in engines {
        if hclspec::interrupt::signal().is_some() {
            break;
        }
        let mut report = run_engine(
            &engine.spec,
            common,
            engine.level,
            corpus,
            SkipList::default(),
            &engine.name,
            engine.oracle,
        )?;
        report.engine.version.clone_from(&engine.version);
        let c = report.counts();
        eprintln!(
            "{}: {} of {} cases pass ({:.1}%) in {:.2} s",
            engine.name,
            c.passed(),
            c.cases(),
            c.pass_percent(),
            report.elapsed_seconds
        );
        if closest_terraform {
            report.terraform_releases = Some(release_agreement(&engine, common, corpus)?);
        }
        reports.push((engine, report));
    }
    Ok(reports)
}

/// `--hcl-version`: `2.14` or `2.24`.
pub fn parse_hcl_version(s: &str) -> Result<Version, String> {
    match s {
        "2.14" => Ok(Version::V2_14),
        "2.24" => Ok(Version::V2_24),
        _ => Err(format!("unknown HCL version {s:?} (expected 2.14 or 2.24; a Terraform release is --terraform-version)")),
    }
}

/// `--terraform-version`: `1.6` to `1.15` (or the exact release).
pub fn parse_terraform_version(s: &str) -> Result<TerraformVersion, String> {
    TerraformVersion::parse(s).ok_or_else(|| hclspec_protocol::unknown_terraform_version(s))
}

impl CommonArgs {
    /// The profile whose expectations count: the Terraform release when
    /// one is named, else the HCL version.
    pub fn profile(&self) -> Version {
        self.terraform_version
            .map_or(self.hcl_version, Version::Terraform)
    }

    /// `--terraform-version` with `--hcl-version 2.14` is a contradiction.
    pub fn check_profile(&self) -> anyhow::Result<()> {
        if self.terraform_version.is_some() && self.hcl_version == Version::V2_14 {
            anyhow::bail!(
                "--terraform-version names a Terraform release, which is not --hcl-version 2.14"
            );
        }
        Ok(())
    }
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse()
}

fn parse_show(s: &str) -> Result<Show, String> {
    s.parse()
}

fn parse_numbers(s: &str) -> Result<Numbers, String> {
    s.parse()
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(Duration::from_secs_f64(x)),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

/// The built-in engine's name.
pub(super) const REFERENCE: &str = "reference";

/// An engine to run: the built-in one, or a command line.
pub(super) enum EngineSpec {
    Reference,
    Command(Vec<String>),
}

impl EngineSpec {
    /// What a built-in engine is: the reference is this program's; an
    /// oracle launched from where `scripts/setup` installs it is the
    /// implementation it runs.
    fn builtin_version(&self) -> Option<String> {
        match self {
            EngineSpec::Reference => Some(format!("hclspec {}", runner::VERSION)),
            EngineSpec::Command(words) => match words.as_slice() {
                [program] => Oracle::ALL
                    .into_iter()
                    .find(|o| Path::new(program).ends_with(locate::oracle_path(*o)))
                    .map(|o| o.implementation().to_string()),
                _ => None,
            },
        }
    }

    fn parse(cmd: &str) -> Result<EngineSpec> {
        let words =
            shell_words::split(cmd).with_context(|| format!("bad engine command {cmd:?}"))?;
        if words.is_empty() {
            bail!("empty engine command");
        }
        Ok(EngineSpec::Command(words))
    }

    /// Starts the engine; a command that does not start is an error here,
    /// not a crash of every case.
    fn start(&self, common: &CommonArgs) -> Result<(Box<dyn Engine>, EngineInfo)> {
        Ok(match self {
            EngineSpec::Reference => (
                Box::new(InProcess::new(
                    common.profile(),
                    common.timeout,
                    common.max_restarts,
                )),
                EngineInfo {
                    name: REFERENCE.into(),
                    mode: "in-process".into(),
                    version: None,
                },
            ),
            EngineSpec::Command(words) if common.one_shot => {
                let engine = OneShot::new(words, common.timeout);
                engine.check()?;
                (
                    Box::new(engine),
                    EngineInfo {
                        name: shell_words::join(words),
                        mode: "one-shot".into(),
                        version: None,
                    },
                )
            }
            EngineSpec::Command(words) => {
                let child = Child::spawn(words)?
                    .with_timeout(common.timeout)
                    .with_window(common.window)
                    .with_max_restarts(common.max_restarts);
                (
                    Box::new(child),
                    EngineInfo {
                        name: shell_words::join(words),
                        mode: "persistent".into(),
                        version: None,
                    },
                )
            }
        })
    }
}

/// Runs the selected cases on one engine with a progress bar on a terminal.
#[allow(clippy::too_many_arguments)]
fn run_engine(
    spec: &EngineSpec,
    common: &CommonArgs,
    level: Level,
    corpus: &Corpus,
    skips: SkipList,
    label: &str,
    oracle: Option<Oracle>,
) -> Result<Report> {
    let selector = common.corpus.selector()?;
    let (planned, without) = runner::plan(corpus, &selector, common.profile());
    if planned.is_empty() {
        bail!(
            "no case to run: {without} selected cases, none with a {} expectation",
            common.profile()
        );
    }
    let (mut engine, info) = spec.start(common)?;
    let opts = RunOptions {
        version: common.profile(),
        level,
        numbers: common.numbers,
        skips,
        oracle,
    };
    let bar = progress_bar(planned.len() as u64, label);
    let mut failing = 0usize;
    let mut report = runner::run(engine.as_mut(), info, &planned, &opts, without, &mut |r| {
        if r.outcome.is_failure() {
            failing += 1;
            bar.set_message(format!("{failing} failing"));
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    report.corpus = Some(CorpusInfo::of(&corpus.origin));
    Ok(report)
}

fn progress_bar(len: u64, label: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} ({per_sec}, {elapsed}) {msg}",
    )
    .expect("a valid template")
    .progress_chars("=> ");
    bar.set_style(style);
    bar.set_prefix(label.to_string());
    bar
}

/// Skip-list entries that name no case of the corpus are probably typos.
fn warn_unused_skips(skips: &SkipList, corpus: &Corpus) {
    for e in &skips.entries {
        if !corpus
            .cases()
            .any(|(f, c)| e.pattern.matches(&f.name, &c.id))
        {
            eprintln!(
                "hclspec: warning: {}: `{}` names no case",
                e.origin,
                e.pattern.as_str()
            );
        }
    }
}

/// This program's command line, with the program named `hclspec`.
pub(super) fn command_line() -> String {
    let args: Vec<String> = std::iter::once("hclspec".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    shell_words::join(args)
}
