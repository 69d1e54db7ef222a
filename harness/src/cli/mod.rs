//! The subcommands other than `serve`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::Args;
use serde_json::Value as Json;

use hclspec::locate;
use hclspec_corpus::case::{is_toml, Case, CaseFile, Corpus, Expectations};
use hclspec_corpus::select::Selector;
use hclspec_corpus::toml_file;
use hclspec_protocol::{Expect, Version};

mod changelog;
mod details;
mod export;
mod oracle;
mod report;
mod run;

pub use details::DetailArgs;
pub use export::export;
pub use oracle::{record, verify, OracleArgs};
pub use report::{report, ReportArgs};
pub use run::{matrix, parse_hcl_version, parse_terraform_version, run, MatrixArgs, RunArgs};

#[derive(Args, Clone)]
pub struct CorpusArgs {
    /// The corpus directory (default: $HCLSPEC_CORPUS, else the nearest
    /// `spec-tests` folder).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Only cases whose id, case file name (`splat`) or `file::id` matches
    /// this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub(super) filter: Vec<String>,
}

impl CorpusArgs {
    /// The corpus named by `--corpus` or `$HCLSPEC_CORPUS`, else the one
    /// built into this program.
    fn load(&self) -> Result<Corpus> {
        match locate::corpus_override(self.corpus.as_deref()) {
            Some(named) => Corpus::load(&named.dir).map_err(|e| {
                anyhow::anyhow!(
                    "the corpus at {} (given by {}) does not load:\n{e}",
                    named.dir.display(),
                    named.given_by
                )
            }),
            None => Corpus::embedded()
                .map_err(|e| anyhow::anyhow!("the built-in corpus does not load:\n{e}")),
        }
    }

    fn selector(&self) -> Result<Selector> {
        Selector::new(&self.filter).map_err(|e| anyhow::anyhow!("--filter: {e}"))
    }

    /// The corpus's cases that pass the filter.
    pub(super) fn selected<'c>(&self, corpus: &'c Corpus) -> Result<Vec<(&'c CaseFile, &'c Case)>> {
        let selector = self.selector()?;
        Ok(corpus
            .cases()
            .filter(|(f, c)| selector.matches(&f.name, &c.id))
            .collect())
    }
}

/// Every error summary the selected cases expect, as a markdown table:
/// phase, summary, the versions that expect it, and how many cases do.
pub fn diagnostics(args: &CorpusArgs) -> Result<ExitCode> {
    let corpus = args.load()?;
    print!("{}", diagnostics_table(&args.selected(&corpus)?));
    Ok(ExitCode::SUCCESS)
}

/// The table [`diagnostics`] prints.
pub fn diagnostics_table(cases: &[(&CaseFile, &Case)]) -> String {
    let mut rows: BTreeMap<(String, String), (std::collections::BTreeSet<&str>, usize)> =
        BTreeMap::new();
    for (_, case) in cases {
        let mut seen = std::collections::BTreeSet::new();
        // A case of another dialect has one answer, named by its dialect.
        let profiles: Vec<(Version, &str)> = if case.dialect.is_hcl2() {
            [Version::V2_14, Version::V2_24]
                .into_iter()
                .map(|v| (v, v.as_str()))
                .collect()
        } else {
            vec![(Version::default(), case.dialect.as_str())]
        };
        for (version, profile) in profiles {
            if let Some(Expect::Error(e)) = case.expect_for(version) {
                let Some(summary) = &e.summary else { continue };
                let key = (e.phase.as_str().to_string(), summary.clone());
                let row = rows.entry(key.clone()).or_default();
                row.0.insert(profile);
                if seen.insert(key) {
                    row.1 += 1;
                }
            }
        }
    }
    let mut out =
        String::from("| phase | summary | versions | cases |\n| :--- | :--- | :--- | ---: |\n");
    for ((phase, summary), (versions, n)) in &rows {
        let versions: Vec<&str> = versions.iter().copied().collect();
        out.push_str(&format!(
            "| {phase} | {} | {} | {n} |\n",
            // A summary of several lines (Terraform 0.11 has some) stays one row.
            summary.replace('|', "\\|").replace('\n', "<br>"),
            versions.join(", ")
        ));
    }
    out
}

/// The changelog of the releases, as markdown on stdout.
pub fn terraform_versions(args: &CorpusArgs) -> Result<ExitCode> {
    let corpus = args.load()?;
    let selected = args.selected(&corpus)?;
    print!("{}", changelog::changelog(&corpus, &selected));
    Ok(ExitCode::SUCCESS)
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
        by_release: usize,
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
                Expectations::Same(Expect::Error(_) | Expect::Crash(_)) => row.errors += 1,
            }
            if !case.terraform.is_empty() {
                row.by_release += 1;
            }
        }
        *seeds
            .entry(case.seed.as_deref().unwrap_or("(none)"))
            .or_default() += 1;
    }
    let w = areas.keys().map(|a| a.len()).max().unwrap_or(0).max(5);
    println!(
        "{:<w$}  {:>6}  {:>7}  {:>6}  {:>9}  {:>10}  {:>7}",
        "area", "cases", "results", "errors", "versioned", "by release", "pending"
    );
    let line = |name: &str, r: &Row| {
        println!(
            "{name:<w$}  {:>6}  {:>7}  {:>6}  {:>9}  {:>10}  {:>7}",
            r.cases, r.results, r.errors, r.versioned, r.by_release, r.pending
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

/// Lays case files out in the corpus layout; with `to_toml`, turns JSON
/// case files into TOML ones (checking that both hold the same cases).
pub fn fmt(
    corpus: Option<&Path>,
    check: bool,
    to_toml: bool,
    files: &[PathBuf],
) -> Result<ExitCode> {
    let files = if files.is_empty() {
        let dir = locate::writable_corpus_dir(corpus).map_err(anyhow::Error::msg)?;
        hclspec_corpus::case::case_file_paths(&dir.dir).map_err(|e| {
            anyhow::anyhow!("{} (given by {}): {e}", dir.dir.display(), dir.given_by)
        })?
    } else {
        files.to_vec()
    };
    let mut off = 0usize;
    for path in &files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let toml = is_toml(path);
        if to_toml && !toml {
            let doc: Json = serde_json::from_str(&text)
                .with_context(|| format!("{} is not JSON", path.display()))?;
            let converted = toml_file::from_json_doc(&doc);
            let target = path.with_extension("toml");
            same_cases(path, &text, &target, &converted)?;
            off += 1;
            if check {
                println!("{}: JSON, not TOML", path.display());
            } else {
                std::fs::write(&target, converted)
                    .with_context(|| format!("writing {}", target.display()))?;
                std::fs::remove_file(path)
                    .with_context(|| format!("removing {}", path.display()))?;
                println!("{}: now {}", path.display(), target.display());
            }
            continue;
        }
        let laid_out = if toml {
            toml_file::canonical(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        } else {
            let doc: Json = serde_json::from_str(&text)
                .with_context(|| format!("{} is not JSON", path.display()))?;
            hclspec_corpus::format::case_file_text(&doc)
        };
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

/// Refuses a conversion unless the new file holds exactly the old one's
/// cases: the same requests, expectations and notes.
fn same_cases(old_path: &Path, old: &str, new_path: &Path, new: &str) -> Result<()> {
    let load = |path: &Path, text: &str| {
        let name = path.with_extension("").display().to_string();
        CaseFile::parse(text, &name, &path.display().to_string(), path).map_err(|es| {
            anyhow::anyhow!(
                "{}",
                es.iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        })
    };
    let a = load(old_path, old)?;
    let b = load(new_path, new).context("the converted file does not load")?;
    let summary = |f: &CaseFile| -> Vec<String> {
        let mut out = vec![format!("{} {:?} {}", f.area, f.seed, f.dialect)];
        for c in &f.cases {
            for v in Version::ALL {
                out.push(c.request(v).to_line());
                out.push(
                    c.expect_for(v)
                        .map(|e| e.to_json().to_string())
                        .unwrap_or_default(),
                );
            }
            out.push(format!(
                "{:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                c.seed, c.note, c.upstream, c.tags, c.verify, c.detail_varies, c.scope_name
            ));
        }
        out
    };
    let (sa, sb) = (summary(&a), summary(&b));
    if sa != sb {
        let first = sa
            .iter()
            .zip(&sb)
            .find(|(x, y)| x != y)
            .map(|(x, y)| format!("\n  JSON: {x}\n  TOML: {y}"))
            .unwrap_or_default();
        anyhow::bail!(
            "{}: the TOML form would not hold the same cases{first}",
            old_path.display()
        );
    }
    Ok(())
}
