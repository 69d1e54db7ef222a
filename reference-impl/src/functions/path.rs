//! Terraform's path functions that need no file: `basename`, `dirname`,
//! `pathexpand` and `abspath`, over slash-separated paths as Go's
//! `path/filepath` treats them on Unix.
//!
//! `pathexpand` reads `$HOME` and `abspath` the working directory, so the
//! corpus checks them by property.

use super::{static_return_type, CallError, Function, Param};
use crate::types::Type;
use crate::value::Value;

pub(super) fn functions() -> Vec<Function> {
    vec![
        path_function("basename", |p| Ok(base(p))),
        path_function("dirname", |p| Ok(dir(p))),
        path_function("pathexpand", expand_home),
        path_function("abspath", absolute),
    ]
}

pub(crate) const NO_USER_HOME: &str = "cannot expand user-specific home dir";
const NO_HOME: &str = "blank output when reading home directory";

/// A function of one path string with a string result.
fn path_function(name: &'static str, f: fn(&str) -> Result<String, String>) -> Function {
    Function {
        name,
        params: vec![Param::new("path", Type::String)],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(move |args, _| {
            let path = args[0].as_str().unwrap_or_default();
            f(path).map(Value::string).map_err(CallError::general)
        }),
    }
}

/// Go's `filepath.Clean`: the shortest lexically equivalent path.
pub(crate) fn clean(path: &str) -> String {
    from_path_bytes(clean_bytes(path.as_bytes()))
}

/// Go's `filepath.Base`: the last element, trailing slashes removed.
pub(crate) fn base(path: &str) -> String {
    from_path_bytes(base_bytes(path.as_bytes()))
}

/// Go's `filepath.Dir`: all but the last element, cleaned.
pub(crate) fn dir(path: &str) -> String {
    from_path_bytes(dir_bytes(path.as_bytes()))
}

/// [`clean`] of a path that need not be UTF-8 (Go's paths are bytes).
pub(crate) fn clean_bytes(path: &[u8]) -> Vec<u8> {
    if path.is_empty() {
        return b".".to_vec();
    }
    let rooted = path.starts_with(b"/");
    let mut parts: Vec<&[u8]> = Vec::new();
    for part in path.split(|&b| b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => match parts.last() {
                Some(&last) if last != b".." => {
                    parts.pop();
                }
                _ if rooted => {}
                _ => parts.push(b".."),
            },
            _ => parts.push(part),
        }
    }
    let joined = parts.join(&b'/');
    match (rooted, joined.is_empty()) {
        (true, _) => [&b"/"[..], &joined].concat(),
        (false, true) => b".".to_vec(),
        (false, false) => joined,
    }
}

/// [`base`] of a path that need not be UTF-8.
pub(crate) fn base_bytes(path: &[u8]) -> Vec<u8> {
    if path.is_empty() {
        return b".".to_vec();
    }
    let end = path.iter().rposition(|&b| b != b'/').map_or(0, |i| i + 1);
    let trimmed = &path[..end];
    if trimmed.is_empty() {
        return b"/".to_vec();
    }
    match trimmed.iter().rposition(|&b| b == b'/') {
        Some(i) => trimmed[i + 1..].to_vec(),
        None => trimmed.to_vec(),
    }
}

/// [`dir`] of a path that need not be UTF-8.
pub(crate) fn dir_bytes(path: &[u8]) -> Vec<u8> {
    let end = path.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    clean_bytes(&path[..end])
}

/// A path cut from UTF-8 at slashes, which stays UTF-8.
fn from_path_bytes(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// go-homedir's `Expand`: a leading `~` is the home directory (`$HOME`,
/// else the user database's entry, as go-homedir falls back to).
pub(super) fn expand_home(path: &str) -> Result<String, String> {
    let Some(rest) = path.strip_prefix('~') else {
        return Ok(path.to_string());
    };
    if !(rest.is_empty() || rest.starts_with('/') || rest.starts_with('\\')) {
        return Err(NO_USER_HOME.to_string());
    }
    let home = match std::env::var("HOME") {
        Ok(h) if !h.is_empty() => h,
        _ => std::env::home_dir()
            .map(|h| h.to_string_lossy().into_owned())
            .ok_or_else(|| NO_HOME.to_string())?,
    };
    Ok(clean(&format!("{home}/{rest}")))
}

/// Go's `filepath.Abs`: a relative path joined to the working directory.
fn absolute(path: &str) -> Result<String, String> {
    if path.starts_with('/') {
        return Ok(clean(path));
    }
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    Ok(clean(&format!("{}/{path}", cwd.to_string_lossy())))
}

#[cfg(test)]
mod tests {
    use super::{base, clean, dir};

    // Go's path/filepath on Unix.
    #[test]
    fn go_filepath_table() {
        let rows = [
            ("", ".", ".", "."),
            ("/", "/", "/", "/"),
            ("a/b/c", "a/b/c", "c", "a/b"),
            ("a/b/", "a/b", "b", "a/b"),
            ("//a//b//", "/a/b", "b", "/a/b"),
            ("../a/./b/..", "../a", "..", "../a/b"),
            ("/../a", "/a", "a", "/"),
            ("a/../..", "..", "..", "."),
            ("file.txt", "file.txt", "file.txt", "."),
        ];
        for (path, want_clean, want_base, want_dir) in rows {
            assert_eq!(clean(path), want_clean, "clean {path:?}");
            assert_eq!(base(path), want_base, "base {path:?}");
            assert_eq!(dir(path), want_dir, "dir {path:?}");
        }
    }
}
