//! Choosing cases by glob: a pattern names a case by `file::id`, by its id
//! alone, or a whole case file by its name (`splat`, `ops/*`).
//!
//! A filter (`--filter`) without glob characters matches any case whose
//! `file::id` contains it, as `cargo test` filters do (`functions` selects
//! every `functions/...` file); skip-list entries are always globs, so that
//! an entry never silently covers more than it names.

use globset::{Glob, GlobMatcher};

/// One glob over case names.
#[derive(Clone, Debug)]
pub struct Pattern {
    text: String,
    matcher: GlobMatcher,
}

impl Pattern {
    pub fn new(text: &str) -> Result<Pattern, String> {
        let glob = Glob::new(text).map_err(|e| format!("bad glob {text:?}: {e}"))?;
        Ok(Pattern {
            text: text.to_string(),
            matcher: glob.compile_matcher(),
        })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the pattern names case `id` of case file `file`.
    pub fn matches(&self, file: &str, id: &str) -> bool {
        self.matcher.is_match(id)
            || self.matcher.is_match(file)
            || self.matcher.is_match(format!("{file}::{id}"))
    }
}

/// Any of several filters; empty selects everything.
#[derive(Clone, Debug, Default)]
pub struct Selector {
    filters: Vec<Filter>,
}

/// A glob, or (without glob characters) a substring of `file::id`.
#[derive(Clone, Debug)]
enum Filter {
    Glob(Pattern),
    Substring(String),
}

/// The characters that make a filter a glob.
const GLOB_CHARS: [char; 4] = ['*', '?', '[', '{'];

impl Selector {
    pub fn new(filters: &[String]) -> Result<Selector, String> {
        let filters = filters
            .iter()
            .map(|f| {
                if f.contains(GLOB_CHARS) {
                    Pattern::new(f).map(Filter::Glob)
                } else {
                    Ok(Filter::Substring(f.clone()))
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(Selector { filters })
    }

    pub fn matches(&self, file: &str, id: &str) -> bool {
        self.filters.is_empty()
            || self.filters.iter().any(|f| match f {
                Filter::Glob(p) => p.matches(file, id),
                Filter::Substring(s) => format!("{file}::{id}").contains(s.as_str()),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_name_files_ids_and_pairs() {
        let table: &[(&str, &str, &str, bool)] = &[
            ("splat", "splat", "splat-001", true),
            ("splat", "for-expressions", "splat", true),
            ("splat", "for-expressions", "for-001", false),
            ("splat-00*", "splat", "splat-001", true),
            ("splat-00*", "splat", "splat-010", false),
            ("splat::splat-001", "splat", "splat-001", true),
            ("splat::splat-001", "other", "splat-001", false),
            ("ops/*", "ops/precedence", "p-1", true),
            ("*::*-01?", "logical", "logic-012", true),
        ];
        for (glob, file, id, want) in table {
            let p = Pattern::new(glob).unwrap();
            assert_eq!(p.matches(file, id), *want, "{glob} vs {file}::{id}");
        }
        assert!(Pattern::new("a[").is_err());
        assert!(Selector::new(&[]).unwrap().matches("x", "y"));
        let s = Selector::new(&["a".into(), "b-*".into()]).unwrap();
        assert!(s.matches("a", "z") && s.matches("q", "b-1") && !s.matches("q", "c"));
        // Without glob characters a filter is a substring of `file::id`.
        let s = Selector::new(&["functions".into()]).unwrap();
        assert!(s.matches("functions/string", "fn-upper-001"));
        assert!(!s.matches("splat", "splat-001"));
        let s = Selector::new(&["t::splat-00".into()]).unwrap();
        assert!(s.matches("splat", "splat-001") && !s.matches("splat", "splat-010"));
        assert!(Selector::new(&["a[".into()]).is_err());
    }
}
