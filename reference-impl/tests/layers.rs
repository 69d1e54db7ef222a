//! The crate's modules form layers: each top-level module uses only
//! modules of lower layers, so there is no import circle below the
//! evaluator, and the parser knows nothing of the functions.
//!
//! The check reads the sources for `crate::<module>` paths outside test
//! code (files named `tests.rs` or `test_support.rs`, and everything from a
//! file's first `#[cfg(test)]` on). Unit tests may use higher layers, as a
//! dev-dependency may depend on the crate it tests: the value tables, for
//! instance, are written in the JSON codec's notation.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Bottom to top. A module may use the modules of lower layers; only the
/// modules of the top layer, the evaluator and the function library that
/// call one another, may use each other.
const LAYERS: &[&[&str]] = &[
    &["error", "number", "stack", "text"],
    &["profile"],
    &["types"],
    &["goquote"],
    &["value"],
    &["convert", "value_ops"],
    &["json"],
    &["ast"],
    &["parser"],
    &["body", "eval", "functions", "hil", "references", "typeexpr"],
];

#[test]
fn modules_use_only_lower_layers() {
    let layer_of: BTreeMap<&str, usize> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, names)| names.iter().map(move |n| (*n, i)))
        .collect();
    let top = LAYERS.len() - 1;
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let imports = imports_by_module(&src);
    assert!(imports.contains_key("parser") && imports.contains_key("value"));

    let mut wrong = Vec::new();
    for (module, used) in &imports {
        let Some(&layer) = layer_of.get(module.as_str()) else {
            wrong.push(format!("{module} is in no layer of LAYERS"));
            continue;
        };
        for other in used {
            let Some(&other_layer) = layer_of.get(other.as_str()) else {
                continue; // a crate-root item such as `crate::HclVersion`
            };
            if other_layer > layer || (other_layer == layer && layer != top) {
                wrong.push(format!("{module} uses {other}"));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers: {wrong:#?}");
}

/// The top-level modules each top-level module's non-test code names.
fn imports_by_module(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    collect_rust_files(src, &mut files);
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if relative.parent() == Some(Path::new("")) && name == "lib.rs" {
            continue;
        }
        if name == "tests.rs" || name == "test_support.rs" {
            continue;
        }
        let first = relative.components().next().expect("a component");
        let module = first
            .as_os_str()
            .to_str()
            .expect("UTF-8 path")
            .trim_end_matches(".rs")
            .to_string();
        let text = fs::read_to_string(&file).expect("readable source");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let used = out.entry(module.clone()).or_default();
        used.extend(crate_paths(code).into_iter().filter(|m| *m != module));
    }
    out
}

/// The first segment of every `crate::` path in `code`, including each
/// name of a `use crate::{a, b::c}` group.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for item in inner.split(',') {
                out.extend(leading_name(item.trim()));
            }
        } else {
            out.extend(leading_name(rest));
        }
    }
    out
}

/// A leading lower-case module name, if `s` starts with one.
fn leading_name(s: &str) -> Option<String> {
    let end = s
        .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
        .unwrap_or(s.len());
    (end > 0).then(|| s[..end].to_string())
}

fn collect_rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            collect_rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
