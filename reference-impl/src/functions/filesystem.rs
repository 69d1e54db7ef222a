//! Terraform's file-system functions (the HCL 2.24 profile): `file`,
//! `filebase64`, `fileexists`, `fileset` and the `file*` hashes. They read
//! files relative to the evaluation's base directory (Terraform's module
//! directory), so the evaluator calls them with it
//! ([`Function::call_with`] and [`in_directory`]); `templatefile` is the
//! evaluator's own, as `templatestring` is.
//!
//! Paths are Go's (`path/filepath` on Unix): a leading `~` is `$HOME`
//! (go-homedir's `Expand`), a relative path is joined to the base directory
//! and cleaned. Messages name paths as Terraform does, relative to the
//! module directory. `fileset`'s pattern language is that of doublestar
//! 1.1.5, which Terraform 1.15 uses (`glob.rs`).

mod glob;

use std::path::{Path, PathBuf};

use super::crypto::DIGESTS;
use super::encoding::base64_encode;
use super::marks::{redact, Policy};
use super::path::{clean, expand_home};
use super::{static_return_type, CallError, Function, Param};
use crate::types::Type;
use crate::value::Value;

/// A file-system function's implementation, given the base directory.
pub(crate) type DirImplFn = fn(&[Value], &Type, &Path) -> Result<Value, CallError>;

/// The functions here, each with the implementation [`in_directory`]
/// gives; their own `implementation` is never run.
pub(super) fn functions() -> Vec<Function> {
    let mut all = vec![
        signature("file", Type::String),
        signature("filebase64", Type::String),
        signature("fileexists", Type::Bool),
        Function {
            params: vec![
                Param::new("path", Type::String)
                    .allow_unknown()
                    .marks(Policy::Passed),
                Param::new("pattern", Type::String)
                    .allow_unknown()
                    .marks(Policy::Passed),
            ],
            ..signature("fileset", Type::set(Type::String))
        },
    ];
    for (name, _) in DIGESTS {
        let mut f = signature(FILE_HASHES[hash_index(name)], Type::String);
        // The hash functions take no unknown or marked path: cty answers
        // for them, and their messages name a sensitive path.
        f.params = vec![Param::new("path", Type::String)];
        all.push(f);
    }
    all
}

/// The implementation of the file-system function `name`, if it is one.
pub(crate) fn in_directory(name: &str) -> Option<DirImplFn> {
    Some(match name {
        "file" => |args, _, dir| read_text(args, dir),
        "filebase64" => |args, _, dir| read_base64(args, dir),
        "fileexists" => |args, _, dir| exists(args, dir),
        "fileset" => |args, _, dir| fileset(args, dir),
        "filemd5" => |args, _, dir| hash_file(0, args, dir),
        "filesha1" => |args, _, dir| hash_file(1, args, dir),
        "filesha256" => |args, _, dir| hash_file(2, args, dir),
        "filesha512" => |args, _, dir| hash_file(3, args, dir),
        "filebase64sha256" => |args, _, dir| hash_file(4, args, dir),
        "filebase64sha512" => |args, _, dir| hash_file(5, args, dir),
        _ => return None,
    })
}

/// The names of the `file*` hashes, in the order of [`DIGESTS`].
const FILE_HASHES: [&str; 6] = [
    "filemd5",
    "filesha1",
    "filesha256",
    "filesha512",
    "filebase64sha256",
    "filebase64sha512",
];

const NEEDS_DIRECTORY: &str = "a file-system function is run by the evaluator";
const NOT_UTF8: &str = "are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead";
const NO_FILE: &str = "; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource";

fn hash_index(name: &str) -> usize {
    DIGESTS.iter().position(|(n, _)| *n == name).unwrap_or(0)
}

/// A one-path function's parameters and result type. The path may be
/// marked: the function hides a sensitive one in its messages (Terraform's
/// `redactIfSensitive`) and marks its result.
fn signature(name: &'static str, result: Type) -> Function {
    Function {
        name,
        params: vec![Param::new("path", Type::String)
            .allow_unknown()
            .marks(Policy::Passed)],
        var_param: None,
        return_type: static_return_type(result),
        implementation: Box::new(|_, _| Err(CallError::general(NEEDS_DIRECTORY))),
    }
}

/// Where `path` is: `~` expanded, joined to `dir` when relative, cleaned;
/// with the path as Terraform shows it (relative to the module directory).
fn locate(path: &str, dir: &Path) -> Result<(PathBuf, String), String> {
    let expanded = expand_home(path).map_err(|e| format!("failed to expand ~: {e}"))?;
    if expanded.starts_with('/') {
        let cleaned = clean(&expanded);
        return Ok((PathBuf::from(&cleaned), cleaned));
    }
    let shown = clean(&expanded);
    Ok((dir.join(&shown), shown))
}

/// Terraform's `readFileBytes`: errors are about the path argument, which
/// they hide when it is `marked`.
fn read_bytes(path: &str, marked: bool, dir: &Path) -> Result<Vec<u8>, CallError> {
    let (file, shown) = locate(path, dir).map_err(|e| CallError::arg(0, e))?;
    match std::fs::read(&file) {
        Ok(bytes) => Ok(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(CallError::arg(
            0,
            format!("no file exists at {}{NO_FILE}", redact(path, marked)),
        )),
        Err(_) if file.is_dir() => Err(CallError::arg(
            0,
            format!("failed to read file: read {shown}: is a directory"),
        )),
        Err(e) => Err(CallError::arg(0, format!("failed to read file: {e}"))),
    }
}

/// Whether the unknown result of an unknown path keeps the path's mark:
/// Terraform's file functions take no unknown path, and before go-cty 1.15
/// the unknown result that `function.Call` gave for one had no marks.
fn unknown_marked(marked: bool) -> bool {
    marked && crate::profile::current().has(crate::Feature::UnknownResultsKeepMarks)
}

/// The argument without its mark, whether it had one, and the string in
/// it (`None` when it is unknown).
fn string_arg(arg: &Value) -> (Option<String>, bool) {
    match arg.clone().unmark() {
        (Value::String(s), marked) => (Some(s), marked),
        (_, marked) => (None, marked),
    }
}

/// `file(path)`. Mirrors Terraform's `funcs.MakeFileFunc`.
fn read_text(args: &[Value], dir: &Path) -> Result<Value, CallError> {
    let (path, marked) = string_arg(&args[0]);
    let Some(path) = path else {
        return Ok(Value::unknown(Type::String).mark_if(unknown_marked(marked)));
    };
    let bytes = read_bytes(&path, marked, dir)?;
    let text = String::from_utf8(bytes).map_err(|_| {
        CallError::general(format!("contents of {} {NOT_UTF8}", redact(&path, marked)))
    })?;
    Ok(Value::string(text).mark_if(marked))
}

/// `filebase64(path)`.
fn read_base64(args: &[Value], dir: &Path) -> Result<Value, CallError> {
    let (path, marked) = string_arg(&args[0]);
    let Some(path) = path else {
        return Ok(Value::unknown(Type::String).mark_if(unknown_marked(marked)));
    };
    let encoded = base64_encode(&read_bytes(&path, marked, dir)?);
    Ok(Value::string(encoded).mark_if(marked))
}

/// `fileexists(path)`: whether a regular file is there; anything else but
/// nothing is an error. Mirrors Terraform's `funcs.MakeFileExistsFunc`
/// (whose errors name an argument that does not exist, so they are about
/// the call).
fn exists(args: &[Value], dir: &Path) -> Result<Value, CallError> {
    let (path, marked) = string_arg(&args[0]);
    let Some(path) = path else {
        return Ok(Value::unknown(Type::Bool).mark_if(unknown_marked(marked)));
    };
    let (file, shown) = locate(&path, dir).map_err(CallError::general)?;
    let meta = match std::fs::metadata(&file) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Value::Bool(false).mark_if(marked))
        }
        Err(_) => {
            return Err(CallError::general(format!(
                "failed to stat {}",
                redact(&shown, marked)
            )))
        }
    };
    if meta.is_file() {
        return Ok(Value::Bool(true).mark_if(marked));
    }
    let what = if meta.is_dir() {
        "is a directory, not a file"
    } else {
        "is not a regular file"
    };
    Err(CallError::general(format!(
        "{} {what}",
        redact(&shown, marked)
    )))
}

/// The `file*` hashes. Mirrors Terraform's `funcs.makeFileHashFunction`,
/// whose errors are Go's `os.Open` messages about the call.
fn hash_file(digest: usize, args: &[Value], dir: &Path) -> Result<Value, CallError> {
    let (Some(path), _) = string_arg(&args[0]) else {
        return Ok(Value::unknown(Type::String));
    };
    let (file, shown) = locate(&path, dir).map_err(CallError::general)?;
    // Go opens a directory without complaint; reading it then fails.
    let bytes = std::fs::read(&file).map_err(|e| {
        let (op, why) = match e.kind() {
            std::io::ErrorKind::NotFound => ("open", "no such file or directory".to_string()),
            _ if file.is_dir() => ("read", "is a directory".to_string()),
            _ => ("open", e.to_string()),
        };
        CallError::general(format!("{op} {shown}: {why}"))
    })?;
    Ok(Value::string((DIGESTS[digest].1)(&bytes)))
}

/// `fileset(path, pattern)`: the regular files under `path` that match
/// `pattern`, relative to `path`. Mirrors Terraform's
/// `funcs.MakeFileSetFunc`.
fn fileset(args: &[Value], dir: &Path) -> Result<Value, CallError> {
    let ((path, path_marked), (pattern, pattern_marked)) =
        (string_arg(&args[0]), string_arg(&args[1]));
    let marked = path_marked || pattern_marked;
    let (Some(path), Some(pattern)) = (path, pattern) else {
        return Ok(Value::unknown(Type::set(Type::String)).mark_if(unknown_marked(marked)));
    };
    // Terraform's base directory is "." (the module directory), so the
    // joined pattern is relative unless the path is absolute.
    let base = if path.starts_with('/') {
        clean(&path)
    } else {
        clean(&format!("./{path}"))
    };
    let full = clean(&format!("{base}/{pattern}"));
    let matches = glob::glob(&full, dir).map_err(|e| {
        CallError::general(format!(
            "failed to glob pattern {}: {e}",
            redact(&full, marked)
        ))
    })?;
    let mut found = Vec::new();
    for m in matches {
        let real = if m.starts_with('/') {
            PathBuf::from(&m)
        } else {
            dir.join(&m)
        };
        let meta = std::fs::metadata(&real).map_err(|e| {
            CallError::general(format!("failed to stat {}: {e}", redact(&m, marked)))
        })?;
        if !meta.is_file() {
            continue;
        }
        found.push(Value::string(relative(&base, &m)));
    }
    Ok(Value::set(Type::String, found).mark_if(marked))
}

/// Go's `filepath.Rel` for two clean paths both relative or both absolute
/// (as `fileset`'s are).
fn relative(base: &str, target: &str) -> String {
    let parts = |p: &str| -> Vec<String> {
        p.split('/')
            .filter(|c| !c.is_empty() && *c != ".")
            .map(str::to_string)
            .collect()
    };
    let (b, t) = (parts(base), parts(target));
    let common = b.iter().zip(&t).take_while(|(x, y)| x == y).count();
    let mut out: Vec<String> = vec!["..".to_string(); b.len() - common];
    out.extend(t[common..].iter().cloned());
    if out.is_empty() {
        ".".to_string()
    } else {
        out.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::relative;

    #[test]
    fn relative_table() {
        let rows = [
            ("nested", "nested/a.txt", "a.txt"),
            (".", "a.txt", "a.txt"),
            ("nested", "hello.txt", "../hello.txt"),
            ("/a/b", "/a/c/d", "../c/d"),
            ("a", "a", "."),
        ];
        for (base, target, want) in rows {
            assert_eq!(relative(base, target), want, "{base} {target}");
        }
    }
}
