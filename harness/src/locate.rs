//! Finding the corpus and the Go oracle without being told.

use std::path::{Path, PathBuf};

/// Names the corpus directory.
pub const CORPUS_ENV: &str = "HCLSPEC_CORPUS";
/// Names the Go oracle program.
pub const GO_ORACLE_ENV: &str = "HCLSPEC_GO_ORACLE";
/// The corpus folder's name at the repository root.
pub const CORPUS_DIR: &str = "spec-tests";
/// Where the Go oracle is built, relative to the repository root.
pub const GO_ORACLE_PATH: &str = "harness/oracles/go-hcl/bin/go-hcl-oracle";

/// The corpus: `explicit`, else `$HCLSPEC_CORPUS`, else a `spec-tests`
/// folder in the current directory or one above it, else the one this
/// program was built from.
pub fn corpus_dir(explicit: Option<&Path>) -> PathBuf {
    if let Some(p) = explicit {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os(CORPUS_ENV) {
        return PathBuf::from(p);
    }
    if let Ok(cwd) = std::env::current_dir() {
        for dir in cwd.ancestors() {
            let candidate = dir.join(CORPUS_DIR);
            if candidate.is_dir() {
                return candidate;
            }
        }
    }
    built_repo_root().join(CORPUS_DIR)
}

/// The repository this program was built from.
pub fn built_repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// The Go oracle command: `$HCLSPEC_GO_ORACLE`, else the built oracle of
/// the corpus's repository, else of the repository this program was built
/// from.
pub fn go_oracle(corpus: &Path) -> Result<Vec<String>, String> {
    if let Some(p) = std::env::var_os(GO_ORACLE_ENV) {
        return Ok(vec![p.to_string_lossy().into_owned()]);
    }
    let next_to_corpus = corpus
        .canonicalize()
        .ok()
        .and_then(|c| c.parent().map(|p| p.join(GO_ORACLE_PATH)));
    let candidates = next_to_corpus
        .into_iter()
        .chain(std::iter::once(built_repo_root().join(GO_ORACLE_PATH)));
    let mut tried = Vec::new();
    for path in candidates {
        if path.is_file() {
            return Ok(vec![path.to_string_lossy().into_owned()]);
        }
        tried.push(path.display().to_string());
    }
    Err(format!(
        "no Go oracle at {} (build it with harness/oracles/go-hcl/build.sh, \
         or set {GO_ORACLE_ENV} or pass --oracle)",
        tried.join(" or ")
    ))
}

/// Splits an `--oracle` command on whitespace.
pub fn split_command(cmd: &str) -> Vec<String> {
    cmd.split_whitespace().map(str::to_string).collect()
}
