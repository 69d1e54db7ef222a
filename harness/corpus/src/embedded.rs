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
