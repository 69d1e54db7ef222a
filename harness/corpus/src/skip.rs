//! Skip lists: the cases an engine is known to get wrong, each with why.
//!
//! One entry per line, a glob (as for `--filter`) then `#` and the reason:
//!
//! ```text
//! # Functions are not implemented yet.
//! function-calls          # no function library
//! arith-04?               # numbers are 64-bit floats
//! ```
//!
//! Blank lines and lines that start with `#` are comments. A skipped case
//! is still run; if it passes it is an unexpected pass, which tells that
//! the entry can go.

use std::path::Path;

use crate::select::Pattern;

#[derive(Clone, Debug)]
pub struct SkipEntry {
    pub pattern: Pattern,
    pub reason: String,
    /// Where the entry is: `file:line`.
    pub origin: String,
}

#[derive(Clone, Debug, Default)]
pub struct SkipList {
    pub entries: Vec<SkipEntry>,
}

impl SkipList {
    pub fn load(path: &Path) -> Result<SkipList, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        SkipList::parse(&text, &path.display().to_string())
    }

    /// Parses a skip list; `name` names it in messages.
    pub fn parse(text: &str, name: &str) -> Result<SkipList, String> {
        let mut entries = Vec::new();
        let mut errors = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let origin = format!("{name}:{}", i + 1);
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((glob, reason)) = line.split_once('#') else {
                errors.push(format!("{origin}: {MSG_NO_REASON}"));
                continue;
            };
            let (glob, reason) = (glob.trim(), reason.trim());
            if reason.is_empty() {
                errors.push(format!("{origin}: {MSG_NO_REASON}"));
                continue;
            }
            if glob.split_whitespace().count() != 1 {
                errors.push(format!("{origin}: {MSG_ONE_GLOB}"));
                continue;
            }
            match Pattern::new(glob) {
                Ok(pattern) => entries.push(SkipEntry {
                    pattern,
                    reason: reason.to_string(),
                    origin,
                }),
                Err(e) => errors.push(format!("{origin}: {e}")),
            }
        }
        if errors.is_empty() {
            Ok(SkipList { entries })
        } else {
            Err(errors.join("\n"))
        }
    }

    /// Appends another list's entries.
    pub fn extend(&mut self, other: SkipList) {
        self.entries.extend(other.entries);
    }

    /// The first entry that names the case.
    pub fn find(&self, file: &str, id: &str) -> Option<&SkipEntry> {
        self.entries.iter().find(|e| e.pattern.matches(file, id))
    }
}

const MSG_NO_REASON: &str = "an entry needs a reason: `GLOB  # reason`";
const MSG_ONE_GLOB: &str = "an entry is one glob, then `#` and the reason";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_entries_with_reasons() {
        let text = "# header\n\n  splat   # not yet\nfunction-calls::fn-00?#f64 only  \n";
        let list = SkipList::parse(text, "skip.txt").unwrap();
        assert_eq!(list.entries.len(), 2);
        assert_eq!(list.entries[0].reason, "not yet");
        assert_eq!(list.entries[0].origin, "skip.txt:3");
        assert_eq!(list.entries[1].reason, "f64 only");
        assert_eq!(
            list.find("splat", "splat-001").unwrap().origin,
            "skip.txt:3"
        );
        assert!(list.find("function-calls", "fn-003").is_some());
        assert!(list.find("function-calls", "fn-010").is_none());
    }

    #[test]
    fn every_problem_is_reported_with_its_line() {
        let text = "splat\nlogic-1 #\na b # two\nx[ # bad\n";
        let err = SkipList::parse(text, "s").unwrap_err();
        let lines: Vec<_> = err.lines().collect();
        assert_eq!(lines.len(), 4, "{err}");
        assert!(lines[0].starts_with("s:1: an entry needs a reason"));
        assert!(lines[1].starts_with("s:2: an entry needs a reason"));
        assert!(lines[2].starts_with("s:3: an entry is one glob"));
        assert!(lines[3].starts_with("s:4: bad glob"));
    }
}
