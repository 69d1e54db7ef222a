//! Errors with a phase, a one-line summary (HCL's diagnostic summary where
//! there is one), a detail sentence and a source range.

use std::fmt;

/// A position in the source: 1-based line and column (columns count
/// characters, as `hcl.Pos` does), 0-based byte offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
    pub byte: usize,
}

/// A half-open source range `[start, end)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: Pos,
    pub end: Pos,
}

/// The name HCL's messages give the source where they name a place in it
/// (`hcl.Range.String`): the reference reads no files, and the Go oracle
/// parses each request's source under this name.
pub const SOURCE_NAME: &str = "case.hcl";

impl Span {
    /// `hcl.Range.String`: `case.hcl:1,2-5`, or `case.hcl:1,2-3,4` across
    /// lines.
    pub fn hcl_range(&self) -> String {
        self.hcl_range_in(SOURCE_NAME)
    }

    /// `hcl.Range.String` in a source called `file`.
    pub fn hcl_range_in(&self, file: &str) -> String {
        let (start, end) = (self.start, self.end);
        if start.line == end.line {
            format!("{file}:{},{}-{}", start.line, start.column, end.column)
        } else {
            format!(
                "{file}:{},{}-{},{}",
                start.line, start.column, end.line, end.column
            )
        }
    }

    pub fn new(start: Pos, end: Pos) -> Span {
        Span { start, end }
    }

    /// The smallest range covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// Which stage rejected the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Parse,
    Eval,
    /// Not a diagnostic: the profile's real implementation crashes on this
    /// input (a Terraform release whose process a Go panic ends), and the
    /// reference answers as it does. The summary names the release, the
    /// detail is the panic's first line.
    Crash,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Parse => "parse",
            Phase::Eval => "eval",
            Phase::Crash => "crash",
        }
    }
}

/// One error diagnostic. `summary` is a short title (for example
/// "Invalid operand"), `detail` the full sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub phase: Phase,
    pub summary: String,
    pub detail: String,
    pub span: Span,
}

impl Error {
    pub fn parse(summary: impl Into<String>, detail: impl Into<String>, span: Span) -> Error {
        Error {
            phase: Phase::Parse,
            summary: summary.into(),
            detail: detail.into(),
            span,
        }
    }

    pub fn eval(summary: impl Into<String>, detail: impl Into<String>, span: Span) -> Error {
        Error {
            phase: Phase::Eval,
            summary: summary.into(),
            detail: detail.into(),
            span,
        }
    }
}

impl Error {
    /// The crash of the profile's real implementation (see [`Phase::Crash`]).
    pub fn crash(release: &str, panic: impl Into<String>, span: Span) -> Error {
        Error {
            phase: Phase::Crash,
            summary: format!("Terraform {release} crashes"),
            detail: panic.into(),
            span,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}",
            self.span.start.line, self.span.start.column, self.summary
        )?;
        if !self.detail.is_empty() {
            write!(f, "; {}", self.detail)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}
