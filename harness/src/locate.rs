//! Finding the corpus and the oracles without being told.
//!
//! The corpus is the one built into this program unless `--corpus DIR` or
//! `$HCLSPEC_CORPUS` names a directory; commands that write case files
//! (`record`, `fmt`) need a directory and otherwise take the nearest
//! `spec-tests` folder. Each oracle is a protocol engine built or installed
//! by `scripts/setup` in the repository, or the command in its environment
//! variable.

use std::path::{Path, PathBuf};

use hclspec_corpus::Oracle;
use hclspec_protocol::TerraformVersion;

/// Names the corpus directory.
pub const CORPUS_ENV: &str = "HCLSPEC_CORPUS";
/// The corpus folder's name at the repository root.
pub const CORPUS_DIR: &str = "spec-tests";
/// Names the Go oracle program (kept for scripts that set it).
pub const GO_ORACLE_ENV: &str = "HCLSPEC_GO_ORACLE";
/// Where the Go oracle is built, relative to the repository root.
pub const GO_ORACLE_PATH: &str = "harness/oracles/go-hcl/bin/go-hcl-oracle";

/// The environment variable that names an oracle's command.
pub fn oracle_env(oracle: Oracle) -> &'static str {
    match oracle {
        Oracle::GoHcl => GO_ORACLE_ENV,
        Oracle::Terraform(_) => "HCLSPEC_TERRAFORM_ORACLE",
        Oracle::Terraform011 => "HCLSPEC_TERRAFORM_0_11_ORACLE",
    }
}

/// Where `scripts/setup` installs an older Terraform release's virtualenv,
/// relative to the repository root; the Terraform oracle runs it when
/// started with `--terraform-version`.
pub fn terraform_release_dir(version: TerraformVersion) -> String {
    format!("harness/oracles/terraform/versions/{version}/.venv")
}

/// Where `scripts/setup` puts an oracle's launcher, relative to the
/// repository root.
pub fn oracle_path(oracle: Oracle) -> &'static str {
    match oracle {
        Oracle::GoHcl => GO_ORACLE_PATH,
        Oracle::Terraform(_) => "harness/oracles/terraform/bin/terraform-oracle",
        Oracle::Terraform011 => "harness/oracles/terraform-0.11/bin/terraform-0.11-oracle",
    }
}

/// Where a corpus directory came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusDir {
    pub dir: PathBuf,
    /// `--corpus`, `$HCLSPEC_CORPUS`, or "the nearest spec-tests folder".
    pub given_by: String,
}

/// The corpus directory the user named (`explicit`, else
/// `$HCLSPEC_CORPUS`); `None` means the embedded corpus.
pub fn corpus_override(explicit: Option<&Path>) -> Option<CorpusDir> {
    if let Some(p) = explicit {
        return Some(CorpusDir {
            dir: p.to_path_buf(),
            given_by: "--corpus".into(),
        });
    }
    std::env::var_os(CORPUS_ENV).map(|p| CorpusDir {
        dir: PathBuf::from(p),
        given_by: format!("${CORPUS_ENV}"),
    })
}

/// A corpus directory to write case files in: the one named, else a
/// `spec-tests` folder in the current directory or one above it.
pub fn writable_corpus_dir(explicit: Option<&Path>) -> Result<CorpusDir, String> {
    if let Some(named) = corpus_override(explicit) {
        return Ok(named);
    }
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    cwd.ancestors()
        .map(|d| d.join(CORPUS_DIR))
        .find(|c| c.is_dir())
        .map(|dir| CorpusDir {
            dir,
            given_by: format!("the nearest {CORPUS_DIR} folder"),
        })
        .ok_or_else(|| {
            format!(
                "no {CORPUS_DIR} folder here or above; name the corpus with --corpus DIR or ${CORPUS_ENV}"
            )
        })
}

/// The repository this program was built from.
pub fn built_repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// An oracle's command: its environment variable (split as a shell would),
/// else its launcher in the repository around `corpus_dir`, else in the
/// repository this program was built from.
pub fn oracle_command(oracle: Oracle, corpus_dir: Option<&Path>) -> Result<Vec<String>, String> {
    // An older Terraform release is the Terraform oracle told which.
    let release = match oracle {
        Oracle::Terraform(t) if t != TerraformVersion::LATEST => Some(t),
        _ => None,
    };
    let with_release = |mut words: Vec<String>| {
        if let Some(t) = release {
            words.extend(["--terraform-version".to_string(), t.as_str().to_string()]);
        }
        words
    };
    let env = oracle_env(oracle);
    if let Some(cmd) = std::env::var_os(env) {
        let cmd = cmd.to_string_lossy();
        let words = shell_words::split(&cmd).map_err(|e| format!("${env}: {e}"))?;
        if words.is_empty() {
            return Err(format!("${env} is empty"));
        }
        return Ok(with_release(words));
    }
    let rel = oracle_path(oracle);
    let next_to_corpus = corpus_dir
        .and_then(|c| c.canonicalize().ok())
        .and_then(|c| c.parent().map(|p| p.join(rel)));
    let candidates = next_to_corpus
        .into_iter()
        .chain(std::iter::once(built_repo_root().join(rel)));
    let mut tried = Vec::new();
    for path in candidates {
        let installed = match release {
            // The launcher is three levels below the repository root.
            Some(t) => path
                .ancestors()
                .nth(5)
                .is_some_and(|root| root.join(terraform_release_dir(t)).is_dir()),
            None => true,
        };
        if path.is_file() && installed {
            return Ok(with_release(vec![path.to_string_lossy().into_owned()]));
        }
        tried.push(path.display().to_string());
    }
    Err(format!(
        "no {} oracle at {} (run scripts/setup in the repository, or set ${env})",
        oracle.as_str(),
        tried.join(" or ")
    ))
}

/// The Go oracle's command (see [`oracle_command`]).
pub fn go_oracle(corpus_dir: Option<&Path>) -> Result<Vec<String>, String> {
    oracle_command(Oracle::GoHcl, corpus_dir)
}
