//! cty's `regex` and `regexall`, and the regular expression side of
//! Terraform's `replace`, with Go's `regexp` (RE2) syntax and semantics:
//! patterns are parsed by a port of Go's parser rules (so the same patterns
//! are accepted, with Go's error texts) and matched by `regex-automata`
//! with leftmost-first semantics, searching and iterating the way Go's
//! `regexp` does.
//!
//! Known differences: a pattern Go accepts but whose automaton would take
//! more than [`NFA_SIZE_LIMIT`] is refused, and Go's size and nesting
//! limits are measured on a tree Go would have simplified a little more,
//! so patterns right at those limits may be judged differently.

mod parse;

use std::collections::BTreeMap;

use regex_automata::meta;
use regex_automata::util::captures::Captures;
use regex_automata::Input;
use regex_syntax::hir::{
    Capture, Class, ClassUnicode, ClassUnicodeRange, Dot, Hir, Look, Repetition,
};

use super::{CallError, Function, Param};
use crate::text::in_table;
use crate::types::Type;
use crate::value::Value;
use parse::{Node, SyntaxError};

pub(crate) use parse::GoRegexp;

/// `regex` and `regexall`.
pub(super) fn functions() -> Vec<Function> {
    vec![regex(GoRegexp::Go1_19), regexall(GoRegexp::Go1_19)]
}

/// Terraform 1.15's `regex` and `regexall` (Go 1.22+ syntax).
pub(super) fn terraform_1_15() -> Vec<Function> {
    vec![regex(GoRegexp::Go1_25), regexall(GoRegexp::Go1_25)]
}

/// Go's `Regexp.ReplaceAllString`: every match of `pattern` in `text`
/// replaced by `with`, where `$1`, `${1}`, `$name` and `${name}` stand for
/// submatches and `$$` for `$`. The error is `regexp.Compile`'s message.
pub(super) fn replace_all(
    text: &str,
    pattern: &str,
    with: &str,
    go: GoRegexp,
) -> Result<String, String> {
    let out = replace_all_bytes(text.as_bytes(), pattern.as_bytes(), with.as_bytes(), go)?;
    // Only bytes of the text and the template are copied, at character
    // boundaries.
    Ok(String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// [`replace_all`] on Go strings, bytes that need not be UTF-8, as
/// Terraform 0.11's `replace` calls it. Go's `regexp` reads a byte outside
/// a valid UTF-8 sequence as U+FFFD of width 1 (`.` and `[^a]` match it)
/// and copies the bytes of the text and the template as they are. A
/// pattern that is not UTF-8 is an error when the parser reaches its first
/// invalid byte. Not modelled: Go finds a pattern's literal prefix with a
/// byte search, so a literal U+FFFD there (`/a\x{FFFD}/`) does not match an
/// invalid byte, where here it does.
pub(crate) fn replace_all_bytes(
    text: &[u8],
    pattern: &[u8],
    with: &[u8],
    go: GoRegexp,
) -> Result<Vec<u8>, String> {
    let pattern = std::str::from_utf8(pattern).map_err(|e| invalid_utf8(pattern, e, go))?;
    let re = Compiled::new(pattern, go).map_err(|e| match e {
        CompileError::Syntax(e) => format!("error parsing regexp: {}: `{}`", e.code, e.expr),
        CompileError::TooLarge => TOO_LARGE.to_string(),
    })?;
    let (decoded, offsets) = go_decode(text);
    let raw = |i: usize| offsets.as_ref().map_or(i, |o| o[i]);
    let mut out = Vec::with_capacity(text.len());
    let mut last_end = 0;
    let mut search = 0;
    let mut caps = re.re.create_captures();
    while search <= decoded.len() {
        if !re.find_at(&decoded, search, &mut caps) {
            break;
        }
        let (start, end) = span(&caps, 0).unwrap_or((search, search));
        out.extend_from_slice(&text[raw(last_end)..raw(start)]);
        // No replacement for an empty match right after a previous one.
        if end > last_end || start == 0 {
            re.expand(with, &|s, e| &text[raw(s)..raw(e)], &caps, &mut out);
        }
        last_end = end;
        let width = decoded[search..].chars().next().map_or(0, char::len_utf8);
        search = if search + width > end {
            search + width
        } else if search + 1 > end {
            search + 1
        } else {
            end
        };
    }
    out.extend_from_slice(&text[raw(last_end)..]);
    Ok(out)
}

/// The text as Go's `regexp` reads it, each byte outside a valid UTF-8
/// sequence as U+FFFD, and for each byte offset of that text the offset in
/// `bytes` (`None` when the bytes are UTF-8: the same offsets).
fn go_decode(bytes: &[u8]) -> (std::borrow::Cow<'_, str>, Option<Vec<usize>>) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (std::borrow::Cow::Borrowed(text), None);
    }
    let mut text = String::with_capacity(bytes.len() + 8);
    let mut offsets = Vec::with_capacity(bytes.len() + 9);
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            offsets.extend(std::iter::repeat_n(at, c.len_utf8()));
            at += c.len_utf8();
            text.push(c);
        }
        for _ in chunk.invalid() {
            offsets.extend(std::iter::repeat_n(at, 3));
            at += 1;
            text.push(char::REPLACEMENT_CHARACTER);
        }
    }
    offsets.push(at);
    (std::borrow::Cow::Owned(text), Some(offsets))
}

/// Go's `syntax.ErrInvalidUTF8`, which the parser reports on reaching the
/// first byte outside a valid UTF-8 sequence, naming the pattern from
/// there; an error in the part before it comes first, except those Go
/// finds only at the end of the pattern (an unclosed group or class, a
/// trailing backslash), which it never reaches.
fn invalid_utf8(pattern: &[u8], e: std::str::Utf8Error, go: GoRegexp) -> String {
    let (before, rest) = pattern.split_at(e.valid_up_to());
    let before = std::str::from_utf8(before).unwrap_or_default();
    match parse::parse(before, go) {
        Err(e) if !parse::reported_at_end(e.code) => {
            format!("error parsing regexp: {}: `{}`", e.code, e.expr)
        }
        _ => format!(
            "error parsing regexp: invalid UTF-8: `{}`",
            String::from_utf8_lossy(rest)
        ),
    }
}

/// Reported, in place of a Go parse error, for a pattern Go accepts but
/// whose automaton would exceed this implementation's memory limit.
const TOO_LARGE: &str = "the regular expression is too large to compile";
const NO_MATCH: &str = "pattern did not match any part of the given string";

/// The most memory one compiled pattern may take.
const NFA_SIZE_LIMIT: usize = 64 << 20;

/// cty's `regex`: the first match, as a string, a tuple of the unnamed
/// groups or an object of the named ones. Mirrors `stdlib.RegexFunc`.
fn regex(go: GoRegexp) -> Function {
    Function {
        name: "regex",
        params: vec![
            Param::new("pattern", Type::String),
            Param::new("string", Type::String),
        ],
        var_param: None,
        return_type: Box::new(move |args| match &args[0] {
            Value::String(pattern) => result_type(pattern, go),
            _ => Ok(Type::Dynamic),
        }),
        implementation: Box::new(move |args, ret| {
            if *ret == Type::Dynamic {
                return Ok(Value::dynamic_unknown());
            }
            let (Value::String(pattern), Value::String(text)) = (&args[0], &args[1]) else {
                return Ok(Value::unknown(ret.clone()));
            };
            let re = Compiled::new(pattern, go).map_err(|e| CallError::arg(0, e.message()))?;
            let mut caps = re.re.create_captures();
            if !re.find_at(text, 0, &mut caps) {
                return Err(CallError::general(NO_MATCH));
            }
            Ok(re.result(text, &caps, ret))
        }),
    }
}

/// cty's `regexall`: every non-overlapping match, as a list of what
/// `regex` would give. Mirrors `stdlib.RegexAllFunc`.
fn regexall(go: GoRegexp) -> Function {
    Function {
        name: "regexall",
        params: vec![
            Param::new("pattern", Type::String),
            Param::new("string", Type::String),
        ],
        var_param: None,
        return_type: Box::new(move |args| match &args[0] {
            Value::String(pattern) => result_type(pattern, go).map(Type::list),
            _ => Ok(Type::list(Type::Dynamic)),
        }),
        implementation: Box::new(move |args, ret| {
            let elem = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            if elem == Type::Dynamic {
                return Ok(Value::dynamic_unknown());
            }
            let (Value::String(pattern), Value::String(text)) = (&args[0], &args[1]) else {
                return Ok(Value::unknown(ret.clone()));
            };
            let re = Compiled::new(pattern, go).map_err(|e| CallError::arg(0, e.message()))?;
            let mut items = Vec::new();
            let mut caps = re.re.create_captures();
            // Mirrors Go's `Regexp.allMatches`.
            let mut pos = 0;
            let mut prev_end = None;
            while pos <= text.len() {
                if !re.find_at(text, pos, &mut caps) {
                    break;
                }
                let (start, end) = span(&caps, 0).unwrap_or((pos, pos));
                let mut accept = true;
                if end == pos {
                    // An empty match right after the previous match does
                    // not count.
                    if prev_end == Some(start) {
                        accept = false;
                    }
                    pos += text[pos..].chars().next().map_or(1, char::len_utf8);
                } else {
                    pos = end;
                }
                prev_end = Some(end);
                if accept {
                    items.push(re.result(text, &caps, &elem));
                }
            }
            Ok(Value::list(elem, items))
        }),
    }
}

/// Mirrors cty's `regexPatternResultType`.
fn result_type(pattern: &str, go: GoRegexp) -> Result<Type, CallError> {
    let names = match parse::parse(pattern, go) {
        Ok(parsed) => parsed.names,
        Err(e) => {
            return Err(CallError::arg(
                0,
                format!("invalid regexp pattern: {} in {}", e.code, e.expr),
            ))
        }
    };
    let unnamed = names.iter().filter(|n| n.is_none()).count();
    let named: Vec<&String> = names.iter().flatten().collect();
    match (unnamed, named.len()) {
        (0, 0) => Ok(Type::String),
        (0, _) => Ok(Type::Object(
            named
                .into_iter()
                .map(|n| (n.clone(), Type::String))
                .collect(),
        )),
        (_, 0) => Ok(Type::Tuple(vec![Type::String; unnamed])),
        _ => Err(CallError::arg(
            0,
            "invalid regexp pattern: cannot mix both named and unnamed capture groups",
        )),
    }
}

enum CompileError {
    Syntax(SyntaxError),
    TooLarge,
}

impl CompileError {
    /// The message cty's implementations give (they compile again after
    /// the type check, which has already rejected syntax errors).
    fn message(&self) -> String {
        match self {
            CompileError::Syntax(e) => {
                format!(
                    "error parsing pattern: error parsing regexp: {}: `{}`",
                    e.code, e.expr
                )
            }
            CompileError::TooLarge => TOO_LARGE.to_string(),
        }
    }
}

/// A compiled pattern and its groups' names (group 1 first).
struct Compiled {
    re: meta::Regex,
    names: Vec<Option<String>>,
}

impl Compiled {
    fn new(pattern: &str, go: GoRegexp) -> Result<Compiled, CompileError> {
        let parsed = parse::parse(pattern, go).map_err(CompileError::Syntax)?;
        let hir = to_hir(&parsed.tree);
        let re = meta::Builder::new()
            .configure(meta::Config::new().nfa_size_limit(Some(NFA_SIZE_LIMIT)))
            .build_from_hir(&hir)
            .map_err(|_| CompileError::TooLarge)?;
        Ok(Compiled {
            re,
            names: parsed.names,
        })
    }

    /// The leftmost-first match starting at or after `start`, with what
    /// lies before `start` still seen by `^`, `\b` and the like.
    fn find_at(&self, text: &str, start: usize, caps: &mut Captures) -> bool {
        let input = Input::new(text).span(start..text.len());
        self.re.search_captures(&input, caps);
        caps.is_match()
    }

    /// Mirrors cty's `regexPatternResult`.
    fn result(&self, text: &str, caps: &Captures, ty: &Type) -> Value {
        let group = |i: usize| match span(caps, i) {
            Some((s, e)) => Value::string(&text[s..e]),
            None => Value::Null(Type::String),
        };
        match ty {
            Type::Tuple(_) => Value::tuple((1..=self.names.len()).map(group).collect()),
            Type::Object(_) => {
                let mut attrs = BTreeMap::new();
                for (i, name) in self.names.iter().enumerate() {
                    if let Some(name) = name {
                        attrs.insert(name.clone(), group(i + 1));
                    }
                }
                Value::object(attrs)
            }
            _ => group(0),
        }
    }

    /// Mirrors Go's `Regexp.expand` for a replacement template.
    /// Go's `Regexp.Expand` of the template's bytes; `group` gives the
    /// text's bytes of a span.
    fn expand<'t>(
        &self,
        template: &[u8],
        group: &dyn Fn(usize, usize) -> &'t [u8],
        caps: &Captures,
        out: &mut Vec<u8>,
    ) {
        let mut rest = template;
        while let Some(dollar) = rest.iter().position(|&b| b == b'$') {
            out.extend_from_slice(&rest[..dollar]);
            rest = &rest[dollar + 1..];
            if let Some(after) = rest.strip_prefix(b"$") {
                out.push(b'$');
                rest = after;
                continue;
            }
            // A name is letters, digits and `_`: it ends before any byte
            // outside valid UTF-8.
            let valid = match std::str::from_utf8(rest) {
                Ok(valid) => valid,
                Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
            };
            let Some((name, after)) = template_name(valid) else {
                out.push(b'$');
                continue;
            };
            rest = &rest[valid.len() - after.len()..];
            let number = match group_number(name) {
                Some(n) => Some(n),
                None => self
                    .names
                    .iter()
                    .enumerate()
                    .find(|(i, n)| n.as_deref() == Some(name) && span(caps, i + 1).is_some())
                    .map(|(i, _)| i + 1),
            };
            if let Some((s, e)) = number.and_then(|g| span(caps, g)) {
                out.extend_from_slice(group(s, e));
            }
        }
        out.extend_from_slice(rest);
    }
}

/// The span of group `i` when it took part in the match.
fn span(caps: &Captures, i: usize) -> Option<(usize, usize)> {
    caps.get_group(i).map(|s| (s.start, s.end))
}

/// Mirrors Go's `extract`: the name after a `$` (letters, digits and `_`,
/// optionally in braces) and the rest of the template.
fn template_name(s: &str) -> Option<(&str, &str)> {
    let (braced, body) = match s.strip_prefix('{') {
        Some(body) => (true, body),
        None => (false, s),
    };
    let len: usize = body
        .chars()
        .take_while(|&c| c == '_' || in_table("L", c) || in_table("Nd", c))
        .map(char::len_utf8)
        .sum();
    if len == 0 {
        return None;
    }
    let name = &body[..len];
    let rest = &body[len..];
    if braced {
        return rest.strip_prefix('}').map(|rest| (name, rest));
    }
    Some((name, rest))
}

/// A template name that is a group number: ASCII digits without a leading
/// zero, below 10^8.
fn group_number(name: &str) -> Option<usize> {
    if !name.bytes().all(|b| b.is_ascii_digit()) || (name.len() > 1 && name.starts_with('0')) {
        return None;
    }
    let mut n: usize = 0;
    for b in name.bytes() {
        if n >= 100_000_000 {
            return None;
        }
        n = n * 10 + usize::from(b - b'0');
    }
    Some(n)
}

/// The matcher's form of a parsed pattern. Group numbers stay Go's; a
/// group the simplifier drops (inside `{0}`, or next to something that
/// never matches) could never have taken part in a match.
fn to_hir(node: &Node) -> Hir {
    match node {
        Node::Empty => Hir::empty(),
        Node::NoMatch => Hir::fail(),
        Node::Literal(c) => match char::from_u32(*c) {
            Some(c) => Hir::literal(c.to_string().into_bytes()),
            None => Hir::fail(),
        },
        Node::Class(ranges) => {
            let ranges = ranges.iter().flat_map(|&(lo, hi)| {
                // Surrogates never occur in a string.
                let below = (lo <= 0xD7FF).then(|| (lo, hi.min(0xD7FF)));
                let above = (hi >= 0xE000).then(|| (lo.max(0xE000), hi));
                below.into_iter().chain(above).filter_map(|(lo, hi)| {
                    Some(ClassUnicodeRange::new(
                        char::from_u32(lo)?,
                        char::from_u32(hi)?,
                    ))
                })
            });
            Hir::class(Class::Unicode(ClassUnicode::new(ranges)))
        }
        Node::AnyCharNotNl => Hir::dot(Dot::AnyCharExceptLF),
        Node::AnyChar => Hir::dot(Dot::AnyChar),
        Node::BeginLine => Hir::look(Look::StartLF),
        Node::EndLine => Hir::look(Look::EndLF),
        Node::BeginText => Hir::look(Look::Start),
        Node::EndText => Hir::look(Look::End),
        Node::WordBoundary => Hir::look(Look::WordAscii),
        Node::NoWordBoundary => Hir::look(Look::WordAsciiNegate),
        Node::Capture { index, sub, .. } => Hir::capture(Capture {
            index: *index as u32,
            name: None,
            sub: Box::new(to_hir(sub)),
        }),
        Node::Repeat {
            kind, greedy, sub, ..
        } => {
            let (min, max) = kind.bounds();
            Hir::repetition(Repetition {
                min,
                max,
                greedy: *greedy,
                sub: Box::new(to_hir(sub)),
            })
        }
        Node::Concat(subs, _) => Hir::concat(subs.iter().map(to_hir).collect()),
        Node::Alternate(subs, _) => Hir::alternation(subs.iter().map(to_hir).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_eval::check;

    // Expected outcomes checked against go-cty 1.12.1 (Go 1.19's regexp)
    // through HCL 2.14.
    #[test]
    fn regex_functions() {
        check(&[
            (
                "regex(\"[a-z]+\", \"53453453.345345aaabbbccc23454\")",
                "\"aaabbbccc\"",
            ),
            (
                "regex(\"(\\\\d\\\\d\\\\d\\\\d)-(\\\\d\\\\d)\", \"2019-02-01\")",
                "tuple[\"2019\", \"02\"]",
            ),
            (
                "regex(\"(?P<y>\\\\d+)-(?P<m>\\\\d+)\", \"2019-02\")",
                "object{\"m\": \"02\", \"y\": \"2019\"}",
            ),
            ("regex(\"(a)|(b)\", \"b\")", "tuple[null(string), \"b\"]"),
            (
                "regex(\"x\", \"y\")",
                "error: pattern did not match any part of the given string",
            ),
            (
                "regex(\"(a\", \"y\")",
                "arg 0: invalid regexp pattern: missing closing ) in (a",
            ),
            (
                "regex(\"(?P<a>x)(y)\", \"xy\")",
                "arg 0: invalid regexp pattern: cannot mix both named and unnamed capture groups",
            ),
            (
                "regex(\"\\\\C\", \"y\")",
                "arg 0: invalid regexp pattern: invalid escape sequence in \\C",
            ),
            (
                "regex(\"(?<a>x)\", \"x\")",
                "arg 0: invalid regexp pattern: invalid or unsupported Perl syntax in (?<",
            ),
            (
                "regex(\"a**\", \"a\")",
                "arg 0: invalid regexp pattern: invalid nested repetition operator in **",
            ),
            ("regex(\"\\\\w+\", \"\u{e9}t\u{e9}\")", "\"t\""),
            ("regex(\"(?i)\u{212a}\", \"k\")", "\"k\""),
            ("regex(us, \"x\")", "unknown(dynamic)"),
            ("regex(\"(x)\", us)", "unknown(tuple([string]))"),
            (
                "regexall(\"a*\", \"baaab\")",
                "list<string>[\"\", \"aaa\", \"\"]",
            ),
            ("regexall(\"[a-z]+\", \"1 2\")", "list<string>[]"),
            ("regexall(us, \"x\")", "unknown(list(dynamic))"),
            (
                "replace(\"hello world\", \"/o(.)/\", \"<$1$$>\")",
                "\"hell< $>w<r$>ld\"",
            ),
            ("replace(\"abc\", \"/x*/\", \"-\")", "\"-a-b-c-\""),
            (
                "replace(\"abc\", \"/(/\", \"-\")",
                "error: error parsing regexp: missing closing ): `(`",
            ),
            (
                "replace(\"ab\", \"/(?P<n>a)/\", \"$${n}x$nx$1x\")",
                "\"axb\"",
            ),
        ]);
    }
}
