//! Choosing cases by glob: a pattern names a case by `file::id`, by its id
//! alone, or a whole case file by its name (`splat`, `ops/*`).

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

/// Any of several patterns; empty selects everything.
#[derive(Clone, Debug, Default)]
pub struct Selector {
    patterns: Vec<Pattern>,
}

impl Selector {
    pub fn new(globs: &[String]) -> Result<Selector, String> {
        let patterns = globs
            .iter()
            .map(|g| Pattern::new(g))
            .collect::<Result<_, _>>()?;
        Ok(Selector { patterns })
    }

    pub fn matches(&self, file: &str, id: &str) -> bool {
        self.patterns.is_empty() || self.patterns.iter().any(|p| p.matches(file, id))
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
    }
}
