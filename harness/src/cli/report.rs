//! `hclspec report --html DIR`: the HTML report over engines run now
//! (`--engine`, as `hclspec matrix` takes them) and saved JSON run reports.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use serde_json::Value as Json;

use hclspec::run::html::{self, Run};

use super::run::{command_line, run_engines, CommonArgs};

#[derive(Args)]
pub struct ReportArgs {
    /// Write the report to DIR/index.html (one self-contained page).
    #[arg(long, value_name = "DIR", required = true)]
    html: PathBuf,
    /// An engine to run now, as `hclspec matrix --engine` takes it:
    /// `NAME=CMD`, `NAME@LEVEL=CMD`, `reference`, or an oracle's name
    /// (repeatable; in this order, before the saved reports).
    #[arg(long = "engine", value_name = "NAME=CMD")]
    engines: Vec<String>,
    #[command(flatten)]
    common: CommonArgs,
    /// Saved JSON run reports (`hclspec run --format json`), each shown
    /// under its file name without `.json`.
    #[arg(value_name = "REPORT.json")]
    reports: Vec<PathBuf>,
}

/// `hclspec report`.
pub fn report(args: &ReportArgs) -> Result<ExitCode> {
    if args.engines.is_empty() && args.reports.is_empty() {
        bail!("nothing to report: name engines (--engine) or saved reports (REPORT.json)");
    }
    let mut runs = Vec::new();
    if !args.engines.is_empty() {
        let corpus = args.common.corpus.load()?;
        for ((name, ..), report) in run_engines(&args.engines, &args.common, &corpus)? {
            runs.push(Run {
                name,
                report: serde_json::to_value(&report)?,
            });
        }
    }
    for path in &args.reports {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let report: Json = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        let name = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        runs.push(Run { name, report });
    }
    let start = Instant::now();
    let page = html::render(&runs, Some(&command_line())).map_err(anyhow::Error::msg)?;
    std::fs::create_dir_all(&args.html)
        .with_context(|| format!("creating {}", args.html.display()))?;
    let out = args.html.join("index.html");
    std::fs::write(&out, &page).with_context(|| format!("writing {}", out.display()))?;
    eprintln!(
        "hclspec: wrote {} ({} bytes, {} runs) in {:.2} s",
        out.display(),
        page.len(),
        runs.len(),
        start.elapsed().as_secs_f64()
    );
    if let Some(sig) = hclspec::interrupt::signal() {
        return Ok(ExitCode::from((128 + sig) as u8));
    }
    Ok(ExitCode::SUCCESS)
}
