//! `hclspec report --html DIR`: the HTML report over engines run now
//! (`--engine`, as `hclspec matrix` takes them) and saved JSON run reports;
//! with neither, over the reference, as `hclspec run` runs it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use serde_json::Value as Json;

use hclspec::run::html::{self, Run};

use super::run::{command_line, run_engines, CommonArgs, REFERENCE};

#[derive(Args)]
pub struct ReportArgs {
    /// Write the report to DIR: index.html, cases/*.js (each area's
    /// details) and badges/*.svg (a badge per engine).
    #[arg(long, value_name = "DIR", required = true)]
    html: PathBuf,
    /// An engine to run now, as `hclspec matrix --engine` takes it:
    /// `NAME=CMD`, `NAME@LEVEL=CMD`, `reference`, or an oracle's name
    /// (repeatable; in this order, before the saved reports). With no
    /// engine and no saved report: `reference`.
    #[arg(long = "engine", value_name = "NAME=CMD")]
    engines: Vec<String>,
    /// `NAME=TEXT`: what the engine named NAME is (`hcl-rs=hcl-rs 0.20.0`),
    /// shown in the report (repeatable); the reference and the oracles name
    /// theirs.
    #[arg(long = "engine-version", value_name = "NAME=TEXT")]
    versions: Vec<String>,
    #[command(flatten)]
    common: CommonArgs,
    /// Also run each engine named by `--engine` on the cases whose answer
    /// differs between Terraform releases, once per release (1.6 to 1.15),
    /// and show the release it agrees with most. A saved report shows it
    /// when it was run with `hclspec run --closest-terraform`.
    #[arg(long)]
    closest_terraform: bool,
    /// Saved JSON run reports (`hclspec run --format json`), each shown
    /// under its file name without `.json`.
    #[arg(value_name = "REPORT.json")]
    reports: Vec<PathBuf>,
}

/// `hclspec report`.
pub fn report(args: &ReportArgs) -> Result<ExitCode> {
    let engines = if args.engines.is_empty() && args.reports.is_empty() {
        vec![REFERENCE.to_string()]
    } else {
        args.engines.clone()
    };
    let mut runs = Vec::new();
    if !engines.is_empty() {
        let corpus = args.common.corpus.load()?;
        let reports = run_engines(
            &engines,
            &args.versions,
            &args.common,
            &corpus,
            args.closest_terraform,
        )?;
        for (engine, report) in reports {
            runs.push(Run {
                name: engine.name,
                report: serde_json::to_value(&report)?,
            });
        }
    } else if let Some(v) = args.versions.first() {
        bail!("--engine-version {v:?}: no --engine is named so (a saved report keeps the version it was run with)");
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
    let files = html::render(&runs, Some(&command_line())).map_err(anyhow::Error::msg)?;
    write_files(&args.html, &files)?;
    eprintln!(
        "hclspec: wrote {} ({} bytes, {} runs) and {} more files ({} bytes) in {:.2} s",
        args.html.join(html::INDEX).display(),
        files[0].text.len(),
        runs.len(),
        files.len() - 1,
        files[1..].iter().map(|f| f.text.len()).sum::<usize>(),
        start.elapsed().as_secs_f64()
    );
    if let Some(sig) = hclspec::interrupt::signal() {
        return Ok(ExitCode::from((128 + sig) as u8));
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the report's files into `dir`, after removing the area and badge
/// files of an earlier report there (only those: `cases/*.js`,
/// `badges/*.svg`), so that none is left from an area or engine that is
/// gone.
fn write_files(dir: &Path, files: &[html::File]) -> Result<()> {
    for (sub, ext) in [(html::CASES_DIR, "js"), (html::BADGES_DIR, "svg")] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for entry in entries {
            let path = entry?.path();
            if path.is_file() && path.extension().is_some_and(|e| e == ext) {
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
            }
        }
    }
    for file in files {
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, &file.text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
