//! Go's regular expression syntax, as `regexp.Compile` parses it
//! (`regexp/syntax` with its `Perl` flags: Perl extensions, Unicode
//! classes, `^`/`$` at the text's ends, classes that may match `\n`), into a
//! tree, with Go's error codes and the text each error quotes.
//!
//! The tree keeps what matching needs; Go's own simplifications (merging
//! literals, factoring alternations) change nothing observable except the
//! exact point where its size and nesting limits trip.
//!
//! Why not `regex-syntax`'s parser (its `Hir` still carries the tree to
//! `regex-automata`): it accepts patterns Go refuses, and the reverse.
//! Go refuses `a**` (invalid nested repetition operator) and `a{1001}`
//! (invalid repeat count), both of which parse with `regex-syntax` 0.8;
//! Go reads `\Q*\E` as a literal `*`, which `regex-syntax` refuses as an
//! unrecognized escape sequence. Its Unicode tables are newer, too: its
//! `\pL` holds U+0870, which Go's (Unicode 13.0) does not.

use crate::text::property_table::{self, Table};
use crate::text::simple_fold;
use crate::text::{property_table_10, property_table_15, unicode_version, UnicodeVersion};

/// The largest code point.
pub(super) const MAX_RUNE: u32 = 0x10FFFF;

/// The nesting limit of Go's parse trees (`maxHeight`).
const MAX_HEIGHT: u32 = 1000;
/// Go's limit on the compiled size of an expression (`maxSize`).
const MAX_SIZE: u64 = (128 << 20) / 40;
/// Go's limit on the code points held by all classes (`maxRunes`).
const MAX_RUNES: u64 = (128 << 20) / 4;
/// The largest count a `{n,m}` repetition may use.
const MAX_REPEAT: i64 = 1000;

/// The range of characters case folding can change (Go's `minFold` and
/// `maxFold`).
const MIN_FOLD: u32 = 0x0041;
const MAX_FOLD: u32 = 0x1E943;

/// Go's `syntax.Error`: an error code and the part of the pattern at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub code: &'static str,
    pub expr: String,
}

/// Go 1.19's code for a pattern too large to compile: its fix for
/// CVE-2022-41715 came in a point release, which could not add a code.
const INTERNAL_ERROR: &str = "regexp/syntax: internal error";
/// The code Go 1.20 and later give a pattern too large to compile.
const TOO_LARGE: &str = "expression too large";
const INVALID_CHAR_CLASS_RANGE: &str = "invalid character class range";
const INVALID_ESCAPE: &str = "invalid escape sequence";
const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const MISSING_BRACKET: &str = "missing closing ]";
const MISSING_PAREN: &str = "missing closing )";
const MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const UNEXPECTED_PAREN: &str = "unexpected )";
const NESTING_DEPTH: &str = "expression nests too deeply";

/// Whether Go's parser reports this error only once it has read the whole
/// pattern (so not when it stops earlier, at a byte outside UTF-8).
pub(super) fn reported_at_end(code: &str) -> bool {
    matches!(code, MISSING_PAREN | MISSING_BRACKET | TRAILING_BACKSLASH)
}

fn error(code: &'static str, expr: &str) -> SyntaxError {
    SyntaxError {
        code,
        expr: expr.to_string(),
    }
}

/// A parsed expression. Character sets are sorted, disjoint code point
/// ranges (which may include surrogates, as Go's do).
#[derive(Clone, Debug)]
pub(super) enum Node {
    Empty,
    NoMatch,
    Literal(u32),
    Class(Vec<(u32, u32)>),
    AnyCharNotNl,
    AnyChar,
    BeginLine,
    EndLine,
    BeginText,
    EndText,
    WordBoundary,
    NoWordBoundary,
    Capture {
        index: usize,
        sub: Box<Node>,
        height: u32,
    },
    Repeat {
        kind: RepeatKind,
        greedy: bool,
        sub: Box<Node>,
        height: u32,
    },
    Concat(Vec<Node>, u32),
    Alternate(Vec<Node>, u32),
}

/// The repetition operators; Go limits counted repetitions only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RepeatKind {
    Star,
    Plus,
    Quest,
    /// `{min,max}`; `max` is `None` for `{min,}`.
    Counted {
        min: u32,
        max: Option<u32>,
    },
}

impl RepeatKind {
    pub(super) fn bounds(self) -> (u32, Option<u32>) {
        match self {
            RepeatKind::Star => (0, None),
            RepeatKind::Plus => (1, None),
            RepeatKind::Quest => (0, Some(1)),
            RepeatKind::Counted { min, max } => (min, max),
        }
    }
}

impl Node {
    fn height(&self) -> u32 {
        match self {
            Node::Capture { height, .. }
            | Node::Repeat { height, .. }
            | Node::Concat(_, height)
            | Node::Alternate(_, height) => *height,
            _ => 1,
        }
    }

    /// Mirrors Go's `calcSize`: roughly the instructions compiled.
    fn size(&self) -> u64 {
        let size = match self {
            Node::Literal(_) => 1,
            Node::Capture { sub, .. } => 2 + sub.size(),
            Node::Repeat { kind, sub, .. } => {
                let s = sub.size();
                match kind.bounds() {
                    (0, None) => 2 + s,
                    (1, Some(1)) | (0, Some(1)) if *kind == RepeatKind::Quest => 1 + s,
                    (1, None) if *kind == RepeatKind::Plus => 1 + s,
                    (min, None) => 1 + u64::from(min) * s,
                    (min, Some(max)) => u64::from(max) * s + u64::from(max - min),
                }
            }
            Node::Concat(subs, _) => subs.iter().map(Node::size).sum(),
            Node::Alternate(subs, _) => {
                subs.iter().map(Node::size).sum::<u64>() + subs.len() as u64 - 1
            }
            _ => 1,
        };
        size.max(1)
    }
}

/// The parse result: the tree and each capture group's name (`None` for
/// unnamed groups), group 1 first.
pub(super) struct Parsed {
    pub tree: Node,
    pub names: Vec<Option<String>>,
}

/// The Go whose `regexp` syntax a profile's functions follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoRegexp {
    /// Go 1.19, as HCL 2.14.1 and go-cty 1.12.1 are built here: named groups
    /// only as `(?P<name>...)`; `\p{..}` names exactly as Go's Unicode 13
    /// tables spell them. Also Go 1.11's syntax (Terraform 0.11.11), over
    /// Unicode 10 tables when the text tables in effect are
    /// [`UnicodeVersion::V10`].
    Go1_19,
    /// Go 1.22 to 1.24, as Terraform 1.6 to 1.13 are built: `(?<name>...)`
    /// too; `\p{..}` over Unicode 15 tables, names exactly as Go spells
    /// them.
    Go1_22,
    /// Go 1.25, as Terraform 1.14 and 1.15 are built: as Go 1.22, with
    /// `\p{..}` names matched loosely and more of them (see
    /// [`unicode_table`]).
    Go1_25,
}

impl GoRegexp {
    /// The Go of the current profile, for a function built for the newest
    /// Terraform ([`crate::Feature::GoRegexpLooseNames`]).
    fn in_profile(self) -> GoRegexp {
        match self {
            GoRegexp::Go1_25
                if !crate::profile::current().has(crate::Feature::GoRegexpLooseNames) =>
            {
                GoRegexp::Go1_22
            }
            go => go,
        }
    }
}

/// Parses `pattern` as Go's `regexp.Compile` does.
pub(super) fn parse(pattern: &str, go: GoRegexp) -> Result<Parsed, SyntaxError> {
    let go = go.in_profile();
    let mut p = Parser {
        whole: pattern,
        go,
        flags: Flags {
            fold: false,
            dot_nl: false,
            one_line: true,
            non_greedy: false,
        },
        groups: vec![Group::default()],
        names: Vec::new(),
        runes: 0,
    };
    let mut t = pattern;
    // The pattern from the previous token, when that token was a
    // repetition operator.
    let mut last_repeat: Option<&str> = None;
    while let Some(c) = t.chars().next() {
        let mut repeat = None;
        match c {
            '(' if t.starts_with("(?") => t = p.perl_flags(t)?,
            '(' => {
                p.open(None);
                t = &t[1..];
            }
            '|' => {
                p.bar();
                t = &t[1..];
            }
            ')' => {
                p.close()?;
                t = &t[1..];
            }
            '^' => {
                p.push(if p.flags.one_line {
                    Node::BeginText
                } else {
                    Node::BeginLine
                });
                t = &t[1..];
            }
            '$' => {
                p.push(if p.flags.one_line {
                    Node::EndText
                } else {
                    Node::EndLine
                });
                t = &t[1..];
            }
            '.' => {
                p.push(if p.flags.dot_nl {
                    Node::AnyChar
                } else {
                    Node::AnyCharNotNl
                });
                t = &t[1..];
            }
            '[' => t = p.class(t)?,
            '*' | '+' | '?' => {
                let kind = match c {
                    '*' => RepeatKind::Star,
                    '+' => RepeatKind::Plus,
                    _ => RepeatKind::Quest,
                };
                let before = t;
                t = p.repeat(kind, before, &t[1..], last_repeat)?;
                repeat = Some(before);
            }
            '{' => match parse_repeat(t) {
                None => {
                    p.literal('{' as u32);
                    t = &t[1..];
                }
                Some((min, max, after)) => {
                    let before = t;
                    if !(0..=MAX_REPEAT).contains(&min)
                        || max > MAX_REPEAT
                        || (max >= 0 && min > max)
                    {
                        return Err(error(
                            INVALID_REPEAT_SIZE,
                            &before[..before.len() - after.len()],
                        ));
                    }
                    let kind = RepeatKind::Counted {
                        min: min as u32,
                        max: u32::try_from(max).ok(),
                    };
                    t = p.repeat(kind, before, after, last_repeat)?;
                    repeat = Some(before);
                }
            },
            '\\' => t = p.escape(t)?,
            _ => {
                p.literal(c as u32);
                t = &t[c.len_utf8()..];
            }
        }
        last_repeat = repeat;
    }
    if p.groups.len() > 1 {
        return Err(error(MISSING_PAREN, pattern));
    }
    let group = p.groups.pop().unwrap_or_default();
    let tree = p.finish_group(group)?;
    if p.runes > MAX_RUNES || tree.size() > MAX_SIZE {
        let code = if p.go == GoRegexp::Go1_19 {
            INTERNAL_ERROR
        } else {
            TOO_LARGE
        };
        return Err(error(code, pattern));
    }
    Ok(Parsed {
        tree,
        names: p.names,
    })
}

/// The Perl flags that `(?flags)` can change.
#[derive(Clone, Copy, Debug)]
struct Flags {
    fold: bool,
    dot_nl: bool,
    one_line: bool,
    non_greedy: bool,
}

/// An open group: its capture index, the flags to restore when it closes,
/// its finished alternatives and the pieces of the current one.
#[derive(Default)]
struct Group {
    capture: Option<usize>,
    saved: Option<Flags>,
    alternatives: Vec<Node>,
    pieces: Vec<Node>,
}

/// A class read from the start of a pattern, and the pattern after it.
type ClassAndRest<'a> = (Vec<(u32, u32)>, &'a str);

struct Parser<'a> {
    whole: &'a str,
    go: GoRegexp,
    flags: Flags,
    groups: Vec<Group>,
    names: Vec<Option<String>>,
    /// Code points held by literals and classes so far (Go's `numRunes`).
    runes: u64,
}

impl Parser<'_> {
    fn current(&mut self) -> &mut Group {
        self.groups
            .last_mut()
            .expect("the top-level group is never closed")
    }

    fn push(&mut self, node: Node) {
        self.runes += match &node {
            Node::Literal(_) => 1,
            Node::Class(ranges) => 2 * ranges.len() as u64,
            _ => 0,
        };
        self.current().pieces.push(node);
    }

    /// A literal character, standing for its case folding orbit when the
    /// `i` flag is on.
    fn literal(&mut self, c: u32) {
        if self.flags.fold && fold_orbit(c).len() > 1 {
            let mut class = Vec::new();
            append_folded_range(&mut class, c, c);
            self.push(Node::Class(clean(class)));
        } else {
            self.push(Node::Literal(c));
        }
    }

    /// Opens a group; a capture when `name` is given or for `(`.
    fn open(&mut self, name: Option<Option<String>>) {
        let capture = match name {
            None => {
                self.names.push(None);
                Some(self.names.len())
            }
            Some(Some(name)) => {
                self.names.push(Some(name));
                Some(self.names.len())
            }
            Some(None) => None,
        };
        let saved = Some(self.flags);
        self.groups.push(Group {
            capture,
            saved,
            ..Group::default()
        });
    }

    fn bar(&mut self) {
        let pieces = std::mem::take(&mut self.current().pieces);
        let piece = concat(pieces);
        self.current().alternatives.push(piece);
    }

    fn close(&mut self) -> Result<(), SyntaxError> {
        if self.groups.len() < 2 {
            return Err(error(UNEXPECTED_PAREN, self.whole));
        }
        let group = self.groups.pop().expect("checked above");
        if let Some(flags) = group.saved {
            self.flags = flags;
        }
        let capture = group.capture;
        let mut node = self.finish_group(group)?;
        if let Some(index) = capture {
            let height = node.height() + 1;
            node = Node::Capture {
                index,
                sub: Box::new(node),
                height,
            };
            self.check_height(&node)?;
        }
        self.current().pieces.push(node);
        Ok(())
    }

    fn finish_group(&self, mut group: Group) -> Result<Node, SyntaxError> {
        group.alternatives.push(concat(group.pieces));
        let node = alternate(group.alternatives);
        self.check_height(&node)?;
        Ok(node)
    }

    fn check_height(&self, node: &Node) -> Result<(), SyntaxError> {
        if node.height() > MAX_HEIGHT {
            return Err(error(NESTING_DEPTH, self.whole));
        }
        Ok(())
    }

    /// Mirrors Go's `parser.repeat`: applies a repetition operator to the
    /// last piece; `before` starts at the operator, `after` follows it.
    fn repeat<'a>(
        &mut self,
        kind: RepeatKind,
        before: &'a str,
        after: &'a str,
        last_repeat: Option<&str>,
    ) -> Result<&'a str, SyntaxError> {
        let mut after = after;
        let mut greedy = !self.flags.non_greedy;
        if let Some(rest) = after.strip_prefix('?') {
            after = rest;
            greedy = !greedy;
        }
        if let Some(last) = last_repeat {
            return Err(error(INVALID_REPEAT_OP, &last[..last.len() - after.len()]));
        }
        let operator = &before[..before.len() - after.len()];
        let Some(sub) = self.current().pieces.pop() else {
            return Err(error(MISSING_REPEAT_ARGUMENT, operator));
        };
        let height = sub.height() + 1;
        let node = Node::Repeat {
            kind,
            greedy,
            sub: Box::new(sub),
            height,
        };
        self.check_height(&node)?;
        if let RepeatKind::Counted { min, max } = kind {
            if (min >= 2 || max.is_some_and(|m| m >= 2)) && !repeat_is_valid(&node, 1000) {
                return Err(error(INVALID_REPEAT_SIZE, operator));
            }
        }
        self.current().pieces.push(node);
        Ok(after)
    }

    /// Mirrors Go's `parsePerlFlags`: a named capture, a non-capturing
    /// group, or a flag change, at `s` (which starts with `(?`).
    fn perl_flags<'a>(&mut self, s: &'a str) -> Result<&'a str, SyntaxError> {
        let b = s.as_bytes();
        let python = s.len() > 4 && b[2] == b'P' && b[3] == b'<';
        let angle = self.go != GoRegexp::Go1_19 && s.len() > 3 && b[2] == b'<';
        if python || angle {
            let Some(end) = s.find('>') else {
                return Err(error(INVALID_NAMED_CAPTURE, s));
            };
            let name = &s[if python { 4 } else { 3 }..end];
            if name.is_empty() || !name.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric()) {
                return Err(error(INVALID_NAMED_CAPTURE, &s[..=end]));
            }
            self.open(Some(Some(name.to_string())));
            return Ok(&s[end + 1..]);
        }
        let mut flags = self.flags;
        let mut negate = false;
        let mut saw_flag = false;
        let mut t = &s[2..];
        while let Some(c) = t.chars().next() {
            t = &t[c.len_utf8()..];
            match c {
                'i' => flags.fold = !negate,
                'm' => flags.one_line = negate,
                's' => flags.dot_nl = !negate,
                'U' => flags.non_greedy = !negate,
                '-' if !negate => {
                    negate = true;
                    saw_flag = false;
                    continue;
                }
                ':' | ')' if !negate || saw_flag => {
                    if c == ':' {
                        self.open(Some(None));
                    }
                    self.flags = flags;
                    return Ok(t);
                }
                _ => break,
            }
            saw_flag = true;
        }
        Err(error(INVALID_PERL_OP, &s[..s.len() - t.len()]))
    }

    /// A backslash outside a class, at the start of `t`.
    fn escape<'a>(&mut self, t: &'a str) -> Result<&'a str, SyntaxError> {
        let b = t.as_bytes();
        if b.len() >= 2 {
            match b[1] {
                b'A' => {
                    self.push(Node::BeginText);
                    return Ok(&t[2..]);
                }
                b'b' => {
                    self.push(Node::WordBoundary);
                    return Ok(&t[2..]);
                }
                b'B' => {
                    self.push(Node::NoWordBoundary);
                    return Ok(&t[2..]);
                }
                b'C' => return Err(error(INVALID_ESCAPE, &t[..2])),
                b'Q' => {
                    let (lit, rest) = t[2..].split_once("\\E").unwrap_or((&t[2..], ""));
                    for c in lit.chars() {
                        self.literal(c as u32);
                    }
                    return Ok(rest);
                }
                b'z' => {
                    self.push(Node::EndText);
                    return Ok(&t[2..]);
                }
                _ => {}
            }
        }
        if let Some((class, rest)) = self.unicode_class(t)? {
            self.push(Node::Class(clean(class)));
            return Ok(rest);
        }
        if let Some((class, rest)) = self.perl_class(t) {
            self.push(Node::Class(clean(class)));
            return Ok(rest);
        }
        let (c, rest) = parse_escape(t)?;
        self.literal(c);
        Ok(rest)
    }

    /// Mirrors Go's `parseClass`: a bracketed class at the start of `s`.
    fn class<'a>(&mut self, s: &'a str) -> Result<&'a str, SyntaxError> {
        let mut t = &s[1..];
        let negated = t.starts_with('^');
        if negated {
            t = &t[1..];
        }
        let mut class = Vec::new();
        let mut first = true;
        while t.is_empty() || !t.starts_with(']') || first {
            first = false;
            if t.len() > 2 && t.starts_with("[:") {
                if let Some(rest) = self.named_class(t, &mut class)? {
                    t = rest;
                    continue;
                }
            }
            if let Some((more, rest)) = self.unicode_class(t)? {
                class.extend(more);
                t = rest;
                continue;
            }
            if let Some((more, rest)) = self.perl_class(t) {
                class.extend(more);
                t = rest;
                continue;
            }
            let range_start = t;
            let (lo, rest) = class_char(t, s)?;
            t = rest;
            let mut hi = lo;
            if t.len() >= 2 && t.starts_with('-') && !t[1..].starts_with(']') {
                let (h, rest) = class_char(&t[1..], s)?;
                t = rest;
                hi = h;
                if hi < lo {
                    let text = &range_start[..range_start.len() - t.len()];
                    return Err(error(INVALID_CHAR_CLASS_RANGE, text));
                }
            }
            if self.flags.fold {
                append_folded_range(&mut class, lo, hi);
            } else {
                class.push((lo, hi));
            }
        }
        let mut class = clean(class);
        if negated {
            class = negate(&class);
        }
        self.push(Node::Class(class));
        Ok(&t[1..])
    }

    /// A POSIX class like `[:alpha:]` at the start of `s` (inside a
    /// bracketed class); `None` when `s` does not hold one.
    fn named_class<'a>(
        &self,
        s: &'a str,
        class: &mut Vec<(u32, u32)>,
    ) -> Result<Option<&'a str>, SyntaxError> {
        let Some(i) = s[2..].find(":]") else {
            return Ok(None);
        };
        let name = &s[..i + 4];
        let (negated, base) = match name[2..name.len() - 2].strip_prefix('^') {
            Some(base) => (true, base),
            None => (false, &name[2..name.len() - 2]),
        };
        let Some(ranges) = posix_class(base) else {
            return Err(error(INVALID_CHAR_CLASS_RANGE, name));
        };
        self.append_group(class, ranges, negated);
        Ok(Some(&s[i + 4..]))
    }

    /// Mirrors Go's `parsePerlClassEscape`: `\d`, `\s`, `\w` and their
    /// negations.
    fn perl_class<'a>(&self, s: &'a str) -> Option<ClassAndRest<'a>> {
        let b = s.as_bytes();
        if b.len() < 2 || b[0] != b'\\' {
            return None;
        }
        let ranges: &[(u32, u32)] = match b[1].to_ascii_lowercase() {
            b'd' => &[(0x30, 0x39)],
            b's' => &[(0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)],
            b'w' => &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
            _ => return None,
        };
        let mut class = Vec::new();
        self.append_group(&mut class, ranges, b[1].is_ascii_uppercase());
        Some((class, &s[2..]))
    }

    /// Mirrors Go's `appendGroup`: folds before negating.
    fn append_group(&self, class: &mut Vec<(u32, u32)>, ranges: &[(u32, u32)], negated: bool) {
        let mut group = ranges.to_vec();
        if self.flags.fold {
            let mut folded = Vec::new();
            for &(lo, hi) in ranges {
                append_folded_range(&mut folded, lo, hi);
            }
            group = clean(folded);
        }
        if negated {
            class.extend(negate(&group));
        } else {
            class.extend(group);
        }
    }

    /// Mirrors Go's `parseUnicodeClass`: `\pL`, `\p{Greek}`, `\P{^Lu}` at
    /// the start of `s`; `None` when `s` does not start with `\p` / `\P`.
    fn unicode_class<'a>(&self, s: &'a str) -> Result<Option<ClassAndRest<'a>>, SyntaxError> {
        let b = s.as_bytes();
        if b.len() < 2 || b[0] != b'\\' || (b[1] != b'p' && b[1] != b'P') {
            return Ok(None);
        }
        let mut negated = b[1] == b'P';
        let (seq, name, rest) = match s[2..].chars().next() {
            Some('{') => {
                let Some(end) = s.find('}') else {
                    return Err(error(INVALID_CHAR_CLASS_RANGE, s));
                };
                (&s[..=end], &s[3..end], &s[end + 1..])
            }
            // An empty name after a trailing `\p`.
            None => (s, "", ""),
            Some(c) => {
                let end = 2 + c.len_utf8();
                (&s[..end], &s[2..end], &s[end..])
            }
        };
        let name = match name.strip_prefix('^') {
            Some(rest) => {
                negated = !negated;
                rest
            }
            None => name,
        };
        let Some((table, fold, inverted)) = unicode_table(name, self.go) else {
            return Err(error(INVALID_CHAR_CLASS_RANGE, seq));
        };
        negated ^= inverted;
        let mut class = Vec::new();
        append_table(&mut class, table);
        if self.flags.fold {
            if let Some(fold) = fold {
                append_table(&mut class, fold);
            }
        }
        let class = clean(class);
        Ok(Some((if negated { negate(&class) } else { class }, rest)))
    }
}

/// Go's `concat` of a group's pieces: nothing is the empty match, one
/// piece stands alone, nested concatenations are flattened.
fn concat(pieces: Vec<Node>) -> Node {
    collapse(pieces, true)
}

/// Go's `alternate`, flattening nested alternations the same way.
fn alternate(alternatives: Vec<Node>) -> Node {
    collapse(alternatives, false)
}

fn collapse(subs: Vec<Node>, is_concat: bool) -> Node {
    if subs.len() <= 1 {
        return subs.into_iter().next().unwrap_or(if is_concat {
            Node::Empty
        } else {
            Node::NoMatch
        });
    }
    let mut flat = Vec::with_capacity(subs.len());
    for sub in subs {
        match sub {
            Node::Concat(inner, _) if is_concat => flat.extend(inner),
            Node::Alternate(inner, _) if !is_concat => flat.extend(inner),
            other => flat.push(other),
        }
    }
    let height = 1 + flat.iter().map(Node::height).max().unwrap_or(0);
    if is_concat {
        Node::Concat(flat, height)
    } else {
        Node::Alternate(flat, height)
    }
}

/// Mirrors Go's `repeatIsValid`: nested counted repetitions may not ask
/// for more than `n` copies of anything.
fn repeat_is_valid(node: &Node, mut n: u32) -> bool {
    if let Node::Repeat {
        kind: RepeatKind::Counted { min, max },
        ..
    } = node
    {
        let m = match max {
            Some(0) => return true,
            Some(m) => *m,
            None => *min,
        };
        if m > n {
            return false;
        }
        if let Some(q) = n.checked_div(m) {
            n = q;
        }
    }
    match node {
        Node::Capture { sub, .. } | Node::Repeat { sub, .. } => repeat_is_valid(sub, n),
        Node::Concat(subs, _) | Node::Alternate(subs, _) => {
            subs.iter().all(|s| repeat_is_valid(s, n))
        }
        _ => true,
    }
}

/// Mirrors Go's `parseRepeat`: `{n}`, `{n,}` or `{n,m}` at the start of
/// `s` as `(min, max, rest)` with `max` -1 for "no maximum" and -1 for a
/// number too large; `None` when `s` does not hold a repetition (then `{`
/// is a literal).
fn parse_repeat(s: &str) -> Option<(i64, i64, &str)> {
    let s = s.strip_prefix('{')?;
    let (mut min, s) = parse_int(s)?;
    let (max, s) = if let Some(s) = s.strip_prefix(',') {
        if let Some(rest) = s.strip_prefix('}') {
            return Some((min, -1, rest));
        }
        let (max, s) = parse_int(s)?;
        if max < 0 {
            min = -1;
        }
        (max, s)
    } else {
        (min, s)
    };
    let rest = s.strip_prefix('}')?;
    Some((min, max, rest))
}

/// Mirrors Go's `parseInt`: decimal digits without leading zeros; -1 for
/// values of 10^8 or more.
fn parse_int(s: &str) -> Option<(i64, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits >= 2 && s.starts_with('0')) {
        return None;
    }
    let mut n: i64 = 0;
    for b in s[..digits].bytes() {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(b - b'0');
    }
    Some((n, &s[digits..]))
}

/// Mirrors Go's `parseEscape`: a single-character escape at the start of
/// `s`.
fn parse_escape(s: &str) -> Result<(u32, &str), SyntaxError> {
    let t = &s[1..];
    let Some(c) = t.chars().next() else {
        return Err(error(TRAILING_BACKSLASH, ""));
    };
    let mut t = &t[c.len_utf8()..];
    let bad = |t: &str| error(INVALID_ESCAPE, &s[..s.len() - t.len()]);
    let octal = |t: &str| {
        t.as_bytes()
            .first()
            .is_some_and(|b| (b'0'..=b'7').contains(b))
    };
    match c {
        '1'..='7' if !octal(t) => Err(bad(t)),
        '0'..='7' => {
            let mut r = c as u32 - '0' as u32;
            for _ in 1..3 {
                if !octal(t) {
                    break;
                }
                r = r * 8 + u32::from(t.as_bytes()[0] - b'0');
                t = &t[1..];
            }
            Ok((r, t))
        }
        'x' => {
            let Some(c) = t.chars().next() else {
                return Err(bad(t));
            };
            t = &t[c.len_utf8()..];
            if c == '{' {
                let mut r: u32 = 0;
                let mut digits = 0;
                loop {
                    let Some(c) = t.chars().next() else {
                        return Err(bad(t));
                    };
                    t = &t[c.len_utf8()..];
                    if c == '}' {
                        break;
                    }
                    let Some(v) = c.to_digit(16) else {
                        return Err(bad(t));
                    };
                    r = r * 16 + v;
                    if r > MAX_RUNE {
                        return Err(bad(t));
                    }
                    digits += 1;
                }
                if digits == 0 {
                    return Err(bad(t));
                }
                return Ok((r, t));
            }
            let x = c.to_digit(16);
            let second = t.chars().next();
            if let Some(c) = second {
                t = &t[c.len_utf8()..];
            }
            match (x, second.and_then(|c| c.to_digit(16))) {
                (Some(x), Some(y)) => Ok((x * 16 + y, t)),
                _ => Err(bad(t)),
            }
        }
        'a' => Ok((0x07, t)),
        'f' => Ok((0x0C, t)),
        'n' => Ok((0x0A, t)),
        'r' => Ok((0x0D, t)),
        't' => Ok((0x09, t)),
        'v' => Ok((0x0B, t)),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((c as u32, t)),
        _ => Err(bad(t)),
    }
}

/// Mirrors Go's `parseClassChar`: one (possibly escaped) character of a
/// class; `whole` is the class from its `[` for the error.
fn class_char<'a>(s: &'a str, whole: &str) -> Result<(u32, &'a str), SyntaxError> {
    match s.chars().next() {
        None => Err(error(MISSING_BRACKET, whole)),
        Some('\\') => parse_escape(s),
        Some(c) => Ok((c as u32, &s[c.len_utf8()..])),
    }
}

/// The POSIX classes of Go's `posixGroup`, by name without `[:` `:]`.
fn posix_class(name: &str) -> Option<&'static [(u32, u32)]> {
    Some(match name {
        "alnum" => &[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)],
        "alpha" => &[(0x41, 0x5A), (0x61, 0x7A)],
        "ascii" => &[(0x00, 0x7F)],
        "blank" => &[(0x09, 0x09), (0x20, 0x20)],
        "cntrl" => &[(0x00, 0x1F), (0x7F, 0x7F)],
        "digit" => &[(0x30, 0x39)],
        "graph" => &[(0x21, 0x7E)],
        "lower" => &[(0x61, 0x7A)],
        "print" => &[(0x20, 0x7E)],
        "punct" => &[(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
        "space" => &[(0x09, 0x0D), (0x20, 0x20)],
        "upper" => &[(0x41, 0x5A)],
        "word" => &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
        "xdigit" => &[(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
        _ => return None,
    })
}

/// The general category aliases of the Unicode Character Database
/// (`PropertyValueAliases.txt`, `gc`), which Go 1.25's `\p{..}` accepts:
/// `(alias, category)`.
const CATEGORY_ALIASES: &[(&str, &str)] = &[
    ("Cased_Letter", "LC"),
    ("Close_Punctuation", "Pe"),
    ("Combining_Mark", "M"),
    ("Connector_Punctuation", "Pc"),
    ("Control", "Cc"),
    ("Currency_Symbol", "Sc"),
    ("Dash_Punctuation", "Pd"),
    ("Decimal_Number", "Nd"),
    ("Enclosing_Mark", "Me"),
    ("Final_Punctuation", "Pf"),
    ("Format", "Cf"),
    ("Initial_Punctuation", "Pi"),
    ("Letter", "L"),
    ("Letter_Number", "Nl"),
    ("Line_Separator", "Zl"),
    ("Lowercase_Letter", "Ll"),
    ("Mark", "M"),
    ("Math_Symbol", "Sm"),
    ("Modifier_Letter", "Lm"),
    ("Modifier_Symbol", "Sk"),
    ("Nonspacing_Mark", "Mn"),
    ("Number", "N"),
    ("Open_Punctuation", "Ps"),
    ("Other", "C"),
    ("Other_Letter", "Lo"),
    ("Other_Number", "No"),
    ("Other_Punctuation", "Po"),
    ("Other_Symbol", "So"),
    ("Paragraph_Separator", "Zp"),
    ("Private_Use", "Co"),
    ("Punctuation", "P"),
    ("Separator", "Z"),
    ("Space_Separator", "Zs"),
    ("Spacing_Mark", "Mc"),
    ("Surrogate", "Cs"),
    ("Symbol", "S"),
    ("Titlecase_Letter", "Lt"),
    ("Unassigned", "Cn"),
    ("Uppercase_Letter", "Lu"),
    ("cntrl", "Cc"),
    ("digit", "Nd"),
    ("punct", "P"),
];

/// Go 1.25's `canonicalName`: spaces, underscores and hyphens dropped, the
/// first letter upper case and the other ASCII letters lower case. The
/// tables are then searched under that name, so a script whose name holds
/// an underscore (`Old_Italic`) is no longer found.
fn canonical_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().filter(|c| !matches!(c, '_' | '-' | ' ')) {
        out.push(if out.is_empty() {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        });
    }
    out
}

/// Go's `unicodeTable`: a category or script by name, the extra characters
/// case folding adds to it, and whether the class is the table's
/// complement (Go 1.25's `Assigned`).
fn unicode_table(name: &str, go: GoRegexp) -> Option<(Table, Option<Table>, bool)> {
    const ANY: Table = &[(0, MAX_RUNE, 1)];
    const ASCII: Table = &[(0, 0x7F, 1)];
    const ASCII_FOLD: Table = &[(0, 0x7F, 1), (0x17F, 0x17F, 1), (0x212A, 0x212A, 1)];
    let find = |list: &'static [(&str, Table)], name: &str| {
        list.binary_search_by(|(n, _)| (*n).cmp(name))
            .ok()
            .map(|i| list[i].1)
    };
    let (tables, name) = match go {
        // Go 1.11's syntax is Go 1.19's; the Terraform 0.11 dialect runs it
        // over Unicode 10.
        GoRegexp::Go1_19 if unicode_version() == UnicodeVersion::V10 => {
            (property_table_10::TABLES, name.to_string())
        }
        GoRegexp::Go1_19 => (property_table::TABLES, name.to_string()),
        GoRegexp::Go1_22 => (property_table_15::TABLES, name.to_string()),
        GoRegexp::Go1_25 => (property_table_15::TABLES, canonical_name(name)),
    };
    let category = |name: &str| {
        find(tables.categories, name).map(|t| (t, find(tables.fold_category, name), false))
    };
    match (go, name.as_str()) {
        (_, "Any") => return Some((ANY, Some(ANY), false)),
        (GoRegexp::Go1_25, "Assigned") => {
            let unassigned = find(tables.categories, "Cn")?;
            return Some((unassigned, Some(unassigned), true));
        }
        (GoRegexp::Go1_25, "Ascii") => return Some((ASCII, Some(ASCII_FOLD), false)),
        (GoRegexp::Go1_25, "Lc") => return category("LC"),
        // Before Go 1.25 the categories have no `Cn` (unassigned) and no
        // `LC`, and `C` is `Cc`, `Cf`, `Co` and `Cs` only.
        (GoRegexp::Go1_22, "Cn" | "LC") => return None,
        (GoRegexp::Go1_22, "C") => {
            static OTHER: std::sync::OnceLock<Vec<(u32, u32, u32)>> = std::sync::OnceLock::new();
            let table = OTHER.get_or_init(|| {
                ["Cc", "Cf", "Co", "Cs"]
                    .iter()
                    .filter_map(|n| find(tables.categories, n))
                    .flat_map(|t| t.iter().copied())
                    .collect()
            });
            return Some((table.as_slice(), find(tables.fold_category, "C"), false));
        }
        _ => {}
    }
    if let Some(found) = category(&name) {
        return Some(found);
    }
    if let Some(table) = find(tables.scripts, &name) {
        return Some((table, find(tables.fold_script, &name), false));
    }
    if go == GoRegexp::Go1_25 {
        let alias = CATEGORY_ALIASES
            .iter()
            .find(|(alias, _)| canonical_name(alias) == name);
        if let Some((_, actual)) = alias {
            return category(actual);
        }
    }
    None
}

fn append_table(class: &mut Vec<(u32, u32)>, table: Table) {
    for &(lo, hi, stride) in table {
        if stride == 1 {
            class.push((lo, hi));
        } else {
            class.extend((lo..=hi).step_by(stride as usize).map(|c| (c, c)));
        }
    }
}

/// `c` and every character case folding makes equivalent to it.
fn fold_orbit(c: u32) -> Vec<u32> {
    let mut orbit = vec![c];
    let mut f = simple_fold(c);
    while f != c && orbit.len() < 8 {
        orbit.push(f);
        f = simple_fold(f);
    }
    orbit
}

/// Mirrors Go's `appendFoldedRange`: a range plus its case variants.
fn append_folded_range(class: &mut Vec<(u32, u32)>, lo: u32, hi: u32) {
    if (lo <= MIN_FOLD && hi >= MAX_FOLD) || hi < MIN_FOLD || lo > MAX_FOLD {
        class.push((lo, hi));
        return;
    }
    if lo < MIN_FOLD {
        class.push((lo, MIN_FOLD - 1));
    }
    if hi > MAX_FOLD {
        class.push((MAX_FOLD + 1, hi));
    }
    for c in lo.max(MIN_FOLD)..=hi.min(MAX_FOLD) {
        class.extend(fold_orbit(c).into_iter().map(|f| (f, f)));
    }
}

/// Mirrors Go's `cleanClass`: sorted, merged ranges.
fn clean(mut class: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    class.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(class.len());
    for (lo, hi) in class {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// The complement of a clean class within all code points.
fn negate(class: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::with_capacity(class.len() + 1);
    let mut next = 0;
    for &(lo, hi) in class {
        if next < lo {
            out.push((next, lo - 1));
        }
        next = hi + 1;
    }
    if next <= MAX_RUNE {
        out.push((next, MAX_RUNE));
    }
    out
}
