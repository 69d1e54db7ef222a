//! The corpus built into the library, so that an installed `hclspec` (or a
//! Rust engine's test using `hclspec-harness`) runs the suite from any
//! directory, with nothing to find on disk.

use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir, DirEntry};

use crate::case::{is_case_file_name, is_case_path};

/// The name the embedded corpus's files are shown under.
pub const EMBEDDED_ROOT: &str = "spec-tests";

static CORPUS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../spec-tests");

/// Every embedded case file, as its path below the corpus root and its
/// text (`None` when it is not UTF-8), in the order a directory walk sorted
/// by name gives.
pub(crate) fn case_files() -> Vec<(PathBuf, Option<&'static str>)> {
    let mut out = Vec::new();
    walk(&CORPUS, 1, &mut out);
    out
}

fn walk(dir: &'static Dir<'static>, depth: usize, out: &mut Vec<(PathBuf, Option<&'static str>)>) {
    let mut entries: Vec<&DirEntry> = dir.entries().iter().collect();
    entries.sort_by(|a, b| file_name(a.path()).cmp(file_name(b.path())));
    for entry in entries {
        let name = file_name(entry.path());
        match entry {
            DirEntry::Dir(d) if is_case_path(name, depth, true) => walk(d, depth + 1, out),
            DirEntry::File(f) if is_case_path(name, depth, false) && is_case_file_name(name) => {
                out.push((f.path().to_path_buf(), f.contents_utf8()));
            }
            _ => {}
        }
    }
}

fn file_name(p: &Path) -> &str {
    p.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// The embedded fixture files written out to a folder of their own (named
/// after their contents, under the system's temporary folder), so that
/// engines can read them; written once, then reused.
pub(crate) fn fixtures_dir() -> Result<String, String> {
    use std::hash::{Hash, Hasher};
    let Some(fixtures) = CORPUS.get_dir(crate::case::FIXTURES_DIR) else {
        return Err("the built-in corpus has no fixtures folder".into());
    };
    let mut files = Vec::new();
    collect_files(fixtures, &mut files);
    files.sort_by(|a, b| a.path().cmp(b.path()));
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for f in &files {
        f.path().hash(&mut hasher);
        f.contents().hash(&mut hasher);
    }
    let dir = std::env::temp_dir().join(format!("hclspec-fixtures-{:016x}", hasher.finish()));
    if !dir.is_dir() {
        // Written to a fresh folder, then renamed into place, so that a
        // reader never sees half the files.
        let partial = std::env::temp_dir().join(format!(
            "hclspec-fixtures-{:016x}.{}",
            hasher.finish(),
            std::process::id()
        ));
        let write = || -> std::io::Result<()> {
            for f in &files {
                let rel = f
                    .path()
                    .strip_prefix(crate::case::FIXTURES_DIR)
                    .unwrap_or(f.path());
                let path = partial.join(rel);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                std::fs::write(path, f.contents())?;
            }
            std::fs::create_dir_all(&partial)?;
            match std::fs::rename(&partial, &dir) {
                Ok(()) => Ok(()),
                // Another process put the same files there first.
                Err(_) if dir.is_dir() => {
                    let _ = std::fs::remove_dir_all(&partial);
                    Ok(())
                }
                Err(e) => Err(e),
            }
        };
        write().map_err(|e| format!("writing the fixture files to {}: {e}", dir.display()))?;
    }
    Ok(dir.to_string_lossy().into_owned())
}

fn collect_files(dir: &'static Dir<'static>, out: &mut Vec<&'static include_dir::File<'static>>) {
    for entry in dir.entries() {
        match entry {
            DirEntry::Dir(d) => collect_files(d, out),
            DirEntry::File(f) => out.push(f),
        }
    }
}
