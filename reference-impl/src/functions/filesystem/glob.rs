//! `fileset`'s glob: doublestar 1.1.5's `Glob`, as Terraform 1.15 calls it.
//!
//! A pattern is split on unescaped `/` into components. Components without
//! a special character (`*?[{\`) are walked through as they are; `**` as a
//! whole component matches any number of directories (itself included, and
//! files when it ends the pattern); any other component is matched against
//! each directory entry's name: `*` (any run), `?` (one character),
//! `[a-z]` / `[^...]` classes, `{a,b}` alternatives (unescaped commas) and
//! `\` escapes. Hidden files are not special. A bad pattern is an error only
//! when a name is actually matched against it, and an error met while
//! descending under `**` can be hidden by a later directory's result, as in
//! the original. Entries are visited in name order (Go reads them in
//! directory order; only which error wins can depend on that).
//!
//! No crate implements this dialect: `glob` and `globset` reject or read
//! differently patterns such as `[a-]` or `{a,b}/**`.

use std::path::{Path, PathBuf};

/// doublestar's `ErrBadPattern`.
pub(super) const BAD_PATTERN: &str = "syntax error in pattern";

/// The paths matching `pattern`, relative ones resolved against `dir` (the
/// process's working directory to doublestar) but reported relative.
pub(super) fn glob(pattern: &str, dir: &Path) -> Result<Vec<String>, &'static str> {
    let components = split_unescaped(pattern, '/');
    if components.is_empty() {
        return Ok(Vec::new());
    }
    let walker = Walker { dir };
    let mut found = Vec::new();
    let (start, rest) = if components[0].is_empty() {
        ("/".to_string(), &components[1..])
    } else {
        (".".to_string(), &components[..])
    };
    match walker.walk(&start, rest, &mut found) {
        Some(e) => Err(e),
        None => Ok(found),
    }
}

struct Walker<'a> {
    dir: &'a Path,
}

impl Walker<'_> {
    /// The real path of a logical one.
    fn real(&self, logical: &str) -> PathBuf {
        if logical.starts_with('/') {
            PathBuf::from(logical)
        } else {
            self.dir.join(logical)
        }
    }

    /// doublestar's `doGlob`: appends matches under `base`, returning the
    /// error that the original would return.
    fn walk(
        &self,
        base: &str,
        components: &[String],
        found: &mut Vec<String>,
    ) -> Option<&'static str> {
        let literal = components
            .iter()
            .take_while(|c| !c.contains(['*', '?', '[', '{', '\\']))
            .count();
        let mut base = base.to_string();
        if literal > 0 {
            base = join(&base, &components[..literal].join("/"));
        }
        let real = self.real(&base);
        // `os.Lstat`, then following a symbolic link.
        if std::fs::symlink_metadata(&real).is_err() {
            return None;
        }
        if literal >= components.len() {
            found.push(base);
            return None;
        }
        match std::fs::metadata(&real) {
            Ok(m) if m.is_dir() => {}
            _ => return None,
        }
        let mut names: Vec<(String, bool)> = match std::fs::read_dir(&real) {
            Ok(entries) => entries
                .filter_map(Result::ok)
                .map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let is_dir = std::fs::metadata(e.path()).map(|m| m.is_dir());
                    (name, is_dir.unwrap_or(false))
                })
                .collect(),
            Err(_) => return None,
        };
        names.sort();
        let mut index = literal;
        let mut last = index + 1 >= components.len();
        let mut error = None;
        if components[index] == "**" {
            for (name, is_dir) in &names {
                let path = join(&base, name);
                if *is_dir {
                    if last {
                        found.push(path.clone());
                    }
                    error = self.walk(&path, &components[index..], found);
                } else if last {
                    found.push(path);
                }
            }
            if last {
                return error;
            }
            index += 1;
            last = index + 1 >= components.len();
        }
        for (name, _) in &names {
            match match_component(&components[index], name) {
                Err(e) => return Some(e),
                Ok(false) => {}
                Ok(true) if last => found.push(join(&base, name)),
                Ok(true) => error = self.walk(&join(&base, name), &components[index + 1..], found),
            }
        }
        error
    }
}

/// Go's `filepath.Join` of two parts.
fn join(a: &str, b: &str) -> String {
    super::clean(&format!("{a}/{b}"))
}

/// doublestar's `splitPathOnSeparator`: splits at separators that no `\`
/// directly precedes; a trailing separator leaves an empty last part.
fn split_unescaped(s: &str, sep: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut ended_on_separator = false;
    while start < s.len() {
        match find_unescaped(&s[start..], sep) {
            Some(end) => {
                parts.push(s[start..start + end].to_string());
                start += end + sep.len_utf8();
                ended_on_separator = true;
            }
            None => {
                parts.push(s[start..].to_string());
                start = s.len();
                ended_on_separator = false;
            }
        }
    }
    if ended_on_separator || s.is_empty() {
        parts.push(String::new());
    }
    parts
}

/// doublestar's `indexRuneWithEscaping`: the first `c` that no `\` directly
/// precedes.
fn find_unescaped(s: &str, c: char) -> Option<usize> {
    let mut from = 0;
    loop {
        let at = from + s[from..].find(c)?;
        if at == 0 || s.as_bytes()[at - 1] != b'\\' {
            return Some(at);
        }
        from = at + c.len_utf8();
    }
}

/// doublestar's `matchComponent`: whether `name` matches one pattern
/// component.
fn match_component(pattern: &str, name: &str) -> Result<bool, &'static str> {
    if pattern.is_empty() {
        return Ok(name.is_empty());
    }
    if name.is_empty() && pattern != "*" {
        return Ok(false);
    }
    let (mut p, mut n) = (0, 0);
    while p < pattern.len() && n < name.len() {
        let pc = char_at(pattern, p);
        let nc = char_at(name, n);
        match pc {
            '\\' => {
                p += 1;
                if p >= pattern.len() {
                    return Err(BAD_PATTERN);
                }
                let escaped = char_at(pattern, p);
                if escaped != nc {
                    return Ok(false);
                }
                p += escaped.len_utf8();
                n += nc.len_utf8();
            }
            '*' => {
                p += 1;
                if p >= pattern.len() {
                    return Ok(true);
                }
                // The step is the width of the name's character here, kept
                // for the whole scan as in the original.
                let step = nc.len_utf8();
                while n < name.len() {
                    if name.is_char_boundary(n)
                        && match_component(&pattern[p..], &name[n..]).unwrap_or(false)
                    {
                        return Ok(true);
                    }
                    n += step;
                }
                return Ok(false);
            }
            '[' => {
                p += 1;
                let end = p + find_unescaped(&pattern[p..], ']').ok_or(BAD_PATTERN)?;
                let class: Vec<char> = pattern[p..end].chars().collect();
                if !class_matches(&class, nc)? {
                    return Ok(false);
                }
                p = end + 1;
                n += nc.len_utf8();
            }
            '{' => {
                p += 1;
                let end = p + find_unescaped(&pattern[p..], '}').ok_or(BAD_PATTERN)?;
                let rest = &pattern[end + 1..];
                for option in split_unescaped(&pattern[p..end], ',') {
                    if match_component(&format!("{option}{rest}"), &name[n..])? {
                        return Ok(true);
                    }
                }
                return Ok(false);
            }
            _ if pc == '?' || pc == nc => {
                p += pc.len_utf8();
                n += nc.len_utf8();
            }
            _ => return Ok(false),
        }
    }
    let rest = &pattern[p.min(pattern.len())..];
    Ok((p >= pattern.len() && n >= name.len()) || (n >= name.len() && rest == "*") || rest == "**")
}

fn char_at(s: &str, i: usize) -> char {
    s[i..].chars().next().unwrap_or('\u{fffd}')
}

/// A `[...]` class (its contents) against one character.
fn class_matches(class: &[char], c: char) -> Result<bool, &'static str> {
    if class.is_empty() {
        return Err(BAD_PATTERN);
    }
    let negated = class[0] == '^';
    let mut i = usize::from(negated);
    let mut hit = false;
    let bound = |i: &mut usize| -> Result<char, &'static str> {
        let mut ch = class[*i];
        *i += 1;
        if ch == '\\' {
            ch = *class.get(*i).ok_or(BAD_PATTERN)?;
            *i += 1;
        }
        Ok(ch)
    };
    while i < class.len() {
        if class[i] == '-' {
            return Err(BAD_PATTERN);
        }
        let low = bound(&mut i)?;
        let mut high = low;
        if class.get(i) == Some(&'-') {
            i += 1;
            if i >= class.len() || class[i] == '-' {
                return Err(BAD_PATTERN);
            }
            high = bound(&mut i)?;
        }
        if low <= c && c <= high {
            hit = true;
        }
    }
    Ok(hit != negated)
}

#[cfg(test)]
mod tests {
    use super::{match_component, split_unescaped, BAD_PATTERN};

    // doublestar 1.1.5's behaviour.
    #[test]
    fn component_table() {
        let rows: &[(&str, &str, Result<bool, &str>)] = &[
            ("*", "", Ok(true)),
            ("*.txt", "a.txt", Ok(true)),
            ("*.txt", ".txt", Ok(true)),
            ("a?c", "abc", Ok(true)),
            ("[a-c]x", "bx", Ok(true)),
            ("[^a-c]x", "bx", Ok(false)),
            ("{a,b}.md", "b.md", Ok(true)),
            ("{a,b}.md", "c.md", Ok(false)),
            ("\\*", "*", Ok(true)),
            ("[", "a", Err(BAD_PATTERN)),
            ("[a-]", "a", Err(BAD_PATTERN)),
            ("a**", "abc", Ok(true)),
            ("é*", "éa", Ok(true)),
        ];
        for (pattern, name, want) in rows {
            assert_eq!(match_component(pattern, name), *want, "{pattern} {name}");
        }
    }

    #[test]
    fn split_table() {
        assert_eq!(split_unescaped("a/b", '/'), ["a", "b"]);
        assert_eq!(split_unescaped("/a", '/'), ["", "a"]);
        assert_eq!(split_unescaped("a\\/b/c", '/'), ["a\\/b", "c"]);
        assert_eq!(split_unescaped("a,", ','), ["a", ""]);
    }
}
