//! `hclspec`: run the conformance corpus against engines, serve the
//! reference implementation over the engine protocol, and manage the corpus
//! against the Go oracle.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use hclspec_protocol::{TerraformVersion, Version};

mod cli;

#[derive(Parser)]
#[command(
    name = "hclspec",
    version,
    about = "Terraform expression language conformance suite"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the corpus against an engine (default: the built-in reference
    /// implementation) and report every case's outcome.
    Run(cli::RunArgs),
    /// Run the corpus against several engines and write a compatibility
    /// matrix (markdown, and JSON with --json).
    Matrix(cli::MatrixArgs),
    /// Write an HTML report (versions, summary, areas, a badge per engine,
    /// and every case, searchable, with the answers of the engines that did
    /// not pass it) over engines run now and saved JSON run reports.
    Report(cli::ReportArgs),
    /// Answer protocol requests (one JSON line each) on stdin with the
    /// reference implementation.
    Serve {
        /// The HCL version for requests that name none.
        #[arg(long, default_value = "2.24", value_parser = cli::parse_hcl_version)]
        hcl_version: Version,
        /// The Terraform release for requests that name no version (`1.6`
        /// to `1.15`; implies `--hcl-version 2.24`).
        #[arg(long, value_name = "RELEASE", value_parser = cli::parse_terraform_version)]
        terraform_version: Option<TerraformVersion>,
        /// Seconds one request may take; a request still running then is
        /// answered `crash` and the next one goes to a fresh thread
        /// (default: no limit).
        #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
        timeout: Option<std::time::Duration>,
        /// The longest request line, in bytes; a longer one is answered
        /// with a request error.
        #[arg(long, value_name = "N", default_value_t = hclspec::serve::DEFAULT_MAX_LINE_BYTES)]
        max_line_bytes: usize,
        /// Evaluation steps one request may take (expression nodes
        /// evaluated, elements of function results) before it is answered
        /// with an "Evaluation budget exceeded" error.
        #[arg(long, value_name = "N", default_value_t = hclspec_reference::eval::budget::Budget::DEFAULT.steps)]
        max_steps: u64,
        /// Bytes of strings that functions and templates of one request may
        /// return.
        #[arg(long, value_name = "N", default_value_t = hclspec_reference::eval::budget::Budget::DEFAULT.bytes)]
        max_bytes: u64,
    },
    /// Print every case that applies to a version as one JSON line.
    Export {
        #[arg(long, value_parser = cli::parse_hcl_version)]
        hcl_version: Version,
        /// Export the expectations of this Terraform release (`1.6` to
        /// `1.15`) instead of the `2.24` ones.
        #[arg(long, value_name = "RELEASE", value_parser = cli::parse_terraform_version)]
        terraform_version: Option<TerraformVersion>,
        #[command(flatten)]
        corpus: cli::CorpusArgs,
        /// The `base_dir` to write into the requests (default: where the
        /// corpus's fixtures are on this machine); a relative one, such as
        /// `spec-tests/fixtures`, makes an export that runs from the root
        /// of any checkout.
        #[arg(long, value_name = "DIR")]
        base_dir: Option<String>,
    },
    /// List the built-in functions the reference implementation provides,
    /// one name per line.
    Functions,
    /// Count cases per area and per seed document section.
    Stats {
        #[command(flatten)]
        corpus: cli::CorpusArgs,
        /// Print instead, as markdown, every error summary the expectations
        /// record, with its phase, versions and number of cases
        /// (`docs/diagnostics.md`).
        #[arg(long)]
        diagnostics: bool,
        /// Print instead, as markdown, the expression language's changelog
        /// from Terraform 1.6 to 1.15: each case whose answer changed from
        /// one release to the next (`docs/terraform-versions.md`).
        #[arg(long, conflicts_with = "diagnostics")]
        terraform_versions: bool,
    },
    /// Check every recorded expectation against its profile's oracle (HCL
    /// 2.14: the Go oracle; 2.24: Terraform 1.15; the 0.11 dialect:
    /// Terraform 0.11), and count how often the reference implementation's
    /// error details equal the oracle's where both answer with an error.
    Verify {
        #[command(flatten)]
        oracle: cli::OracleArgs,
        #[command(flatten)]
        corpus: cli::CorpusArgs,
        #[command(flatten)]
        details: cli::DetailArgs,
        /// Ask each oracle N times and report (and fail on) every
        /// expectation whose answer is not the same each time: a case must
        /// have one right answer.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
        repeat: u32,
        /// How many oracles to verify at once (each prints its lines
        /// together when it is done).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
        jobs: u32,
    },
    /// Ask the oracles for the cases of FILEs that have no expectation
    /// and write the answers into the files.
    Record {
        #[command(flatten)]
        oracle: cli::OracleArgs,
        /// The corpus directory the files belong to (default:
        /// $HCLSPEC_CORPUS, else the nearest `spec-tests` folder).
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Ask again for cases that already have an expectation.
        #[arg(long)]
        force: bool,
        /// How many oracles to ask at once.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
        jobs: u32,
        /// Case files to update.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Rewrite case files in the corpus layout (default: every case file).
    Fmt {
        /// Only report files that are not in the layout (exit 1 if any).
        #[arg(long)]
        check: bool,
        /// Turn JSON case files into TOML ones.
        #[arg(long)]
        to_toml: bool,
        /// The corpus directory (default: $HCLSPEC_CORPUS, else the nearest
        /// `spec-tests` folder).
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Case files (default: the whole corpus).
        files: Vec<PathBuf>,
    },
}

fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs > 0.0 => Ok(std::time::Duration::from_secs_f64(secs)),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Command::Run(run) => cli::run(&run),
        Command::Matrix(m) => cli::matrix(&m),
        Command::Report(r) => cli::report(&r),
        Command::Serve {
            hcl_version,
            terraform_version,
            timeout,
            max_line_bytes,
            max_steps,
            max_bytes,
        } => {
            let options = hclspec::serve::ServeOptions {
                default_version: terraform_version.map_or(hcl_version, Version::Terraform),
                max_line_bytes,
                timeout,
                budget: hclspec_reference::eval::budget::Budget {
                    steps: max_steps,
                    bytes: max_bytes,
                },
            };
            hclspec::serve::serve_stdio(options)
                .map(|()| ExitCode::SUCCESS)
                .map_err(anyhow::Error::from)
        }
        Command::Export {
            hcl_version,
            terraform_version,
            corpus,
            base_dir,
        } => cli::export(
            &corpus,
            terraform_version.map_or(hcl_version, Version::Terraform),
            base_dir.as_deref(),
        ),
        Command::Functions => {
            for name in hclspec_reference::functions::names() {
                println!("{name}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Stats {
            corpus,
            terraform_versions: true,
            ..
        } => cli::terraform_versions(&corpus),
        Command::Stats {
            corpus,
            diagnostics: false,
            ..
        } => cli::stats(&corpus),
        Command::Stats {
            corpus,
            diagnostics: true,
            ..
        } => cli::diagnostics(&corpus),
        Command::Verify {
            oracle,
            corpus,
            details,
            repeat,
            jobs,
        } => cli::verify(&oracle, &corpus, &details, repeat as usize, jobs as usize),
        Command::Record {
            oracle,
            corpus,
            force,
            jobs,
            files,
        } => cli::record(&oracle, corpus.as_deref(), force, &files, jobs as usize),
        Command::Fmt {
            check,
            to_toml,
            corpus,
            files,
        } => cli::fmt(corpus.as_deref(), check, to_toml, &files),
    };
    match result {
        Ok(code) => code,
        // A closed pipe (`hclspec export | head`) is the reader's choice.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hclspec: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
