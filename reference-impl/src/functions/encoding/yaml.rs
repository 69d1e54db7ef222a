//! `yamldecode` and `yamlencode`: go-cty-yaml's `YAMLDecodeFunc` and
//! `YAMLEncodeFunc`. go-cty-yaml drives a Go port of libyaml; here the
//! parser events come from a Rust port of libyaml, the mapping between
//! events and cty values mirrors go-cty-yaml, and the emitter is a port of
//! go-yaml's (see `emit`).

use std::collections::{BTreeMap, HashMap};

mod emit;

use libyaml_safer::{Event, EventData, Mark, Parser, ScalarStyle};

use super::base64;
use crate::convert::convert;
use crate::functions::datetime::gotime::{self, Std};
use crate::functions::{static_return_type, CallError, Function, Param};
use crate::goquote::go_quote;
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// Which go-cty-yaml release `yamldecode` follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Release {
    /// 1.0.2 (HCL 2.14's era): a null document is unknown, and integers
    /// may have underscores and a bare sign.
    V1_0_2,
    /// 1.1.0 (Terraform 1.15): a null document is null, and integers follow
    /// YAML 1.2's core schema (`[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`).
    V1_1_0,
}

/// `yamldecode(src)`: the value of a single YAML document.
/// Mirrors go-cty-yaml's `YAMLDecodeFunc`.
pub(super) fn decode_function(release: Release) -> Function {
    Function {
        name: "yamldecode",
        params: vec![Param::new("src", Type::String)],
        var_param: None,
        return_type: Box::new(move |args| match &args[0] {
            Value::String(s) => {
                let events = parse_events(s);
                let mut d = Decoder::new(&events, release);
                d.document(|d| d.implied_type(0))
                    .map_err(CallError::general)
            }
            _ => Ok(Type::Dynamic),
        }),
        implementation: Box::new(move |args, ret| {
            let Value::String(s) = &args[0] else {
                return Ok(Value::unknown(ret.clone()));
            };
            if *ret == Type::Dynamic && release == Release::V1_0_2 {
                return Ok(Value::dynamic_unknown());
            }
            let events = parse_events(s);
            let mut d = Decoder::new(&events, release);
            let value = d.document(|d| d.value(0)).map_err(CallError::general)?;
            convert(&value, ret).map_err(|e| CallError::general(e.message))
        }),
    }
}

/// `yamlencode(value)`: block-style YAML with every string double-quoted
/// (or a literal block when it has a line break).
/// Mirrors go-cty-yaml's `YAMLEncodeFunc`.
pub(super) fn encode_function() -> Function {
    Function {
        name: "yamlencode",
        params: vec![Param::new("value", Type::Dynamic)
            .allow_null()
            .allow_dynamic_type()],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| {
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(Type::String));
            }
            emit::emit(&args[0])
                .map(Value::string)
                .map_err(CallError::general)
        }),
    }
}

const STR_TAG: &str = "tag:yaml.org,2002:str";
const BOOL_TAG: &str = "tag:yaml.org,2002:bool";
const INT_TAG: &str = "tag:yaml.org,2002:int";
const FLOAT_TAG: &str = "tag:yaml.org,2002:float";
const NULL_TAG: &str = "tag:yaml.org,2002:null";
const TIMESTAMP_TAG: &str = "tag:yaml.org,2002:timestamp";
const BINARY_TAG: &str = "tag:yaml.org,2002:binary";
const SEQ_TAG: &str = "tag:yaml.org,2002:seq";
const MAP_TAG: &str = "tag:yaml.org,2002:map";

const TOO_DEEP: &str = "YAML value is nested too deeply";

/// The deepest nesting of collections `yamldecode` reads. go-cty-yaml has
/// no such limit (it decodes 200,000 nested flow sequences), but the Rust
/// port of libyaml rescans every open flow level's simple key on each
/// token, so its time grows with the square of the depth: 10,000 levels
/// take about 0.9 s, 100,000 about 90 s. Past this depth the reference
/// answers with [`TOO_DEEP`] instead, a known difference from Go.
const MAX_YAML_DEPTH: usize = 10_000;
const TOO_BIG: &str = "YAML aliases expand to too large a value";

/// The most values (or types) alias expansion may copy, so that a few
/// nested aliases cannot make an exponentially large result.
const MAX_ALIAS_COPIES: usize = 1_000_000;

/// Whether `text` begins with the byte 0xEF of a character other than the
/// byte order mark (U+FB00 `ﬀ`, U+FF10 `０`, ...): the Rust port of libyaml
/// then reports an invalid byte order mark, where go-yaml (whose encoding
/// detection only matches the whole mark) reads UTF-8. The encoding is
/// given to the port for such input; a real mark is still detected.
fn starts_like_bom(text: &str) -> bool {
    text.as_bytes().first() == Some(&0xEF) && !text.starts_with('\u{FEFF}')
}

/// The parser's events up to the first error, which ends the list.
fn parse_events(src: &str) -> Vec<Result<Event, String>> {
    // go-cty-yaml parses an empty document as a single line break.
    let src = if src.is_empty() { "\n" } else { src };
    let escaped = escape_flow_tag_indicators(src);
    let src = escaped.as_deref().unwrap_or(src);
    // The Rust port of libyaml panics on a block scalar whose last line
    // ends the input without a line break (libyaml reads its terminating
    // NUL there), so the input always gets a final break; see
    // `final_break_extra` for what that changes and how it is undone.
    let needs_break = !src.ends_with(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']);
    let mut text = src.to_string();
    if needs_break {
        text.push('\n');
    }
    let mut input = text.as_bytes();
    let mut parser = Parser::new();
    parser.set_input_string(&mut input);
    if starts_like_bom(&text) {
        parser.set_encoding(libyaml_safer::Encoding::Utf8);
    }
    let mut events = Vec::new();
    // The decoder stops at a collection nested deeper than it builds
    // values; reading past that point could only cost time (the port
    // slows down with depth).
    let mut depth = 0usize;
    loop {
        match parser.parse() {
            Ok(mut e) => {
                let end = matches!(e.data, EventData::StreamEnd);
                match e.data {
                    EventData::SequenceStart { .. } | EventData::MappingStart { .. } => {
                        depth += 1;
                        if depth > MAX_YAML_DEPTH + 1 {
                            events.push(Ok(e));
                            events.push(Err(TOO_DEEP.to_string()));
                            return events;
                        }
                    }
                    EventData::SequenceEnd | EventData::MappingEnd => {
                        depth = depth.saturating_sub(1);
                    }
                    _ => {}
                }
                if needs_break && e.end_mark.index >= src.len() as u64 {
                    if let EventData::Scalar {
                        value,
                        style: ScalarStyle::Literal | ScalarStyle::Folded,
                        ..
                    } = &mut e.data
                    {
                        if value.ends_with('\n') && final_break_extra(src, &text) {
                            value.pop();
                        }
                    }
                }
                events.push(Ok(e));
                if end {
                    return events;
                }
            }
            Err(e) => {
                // A token cut off by the end of the input is reported where
                // the input ends, not past the appended break.
                let scanner = e.kind() == libyaml_safer::ErrorKind::Scanner
                    && e.problem() == "found unexpected end of stream";
                let clamp = |m: Mark| {
                    if needs_break && scanner {
                        clamp_mark(m, src)
                    } else {
                        m
                    }
                };
                events.push(Err(parser_error(&e, clamp)));
                return events;
            }
        }
    }
}

/// Go's YAML scanner (go-yaml, as go-cty-yaml has it) reads `,`, `[` and
/// `]` as part of a tag even inside a flow collection, where the Rust port
/// of libyaml ends the tag before them: `[!a]` is the tag `!a]` in Go (an
/// "unsupported tag" error) but a tag `!a` followed by `]` in the port
/// (a scanner error), and `[!a, b]` makes the port panic. Those characters
/// are percent-escaped inside such tags, which both scanners decode, so
/// that the port reads the tag Go reads. Nothing else changes; `None`
/// when there is nothing to escape.
///
/// The tags are found with a small lexer: quoted scalars, comments, block
/// scalars (skipped by indentation) and flow collections; a tag starts at
/// a `!` that begins a token inside a flow collection.
fn escape_flow_tag_indicators(src: &str) -> Option<String> {
    let bytes = src.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut flow = 0usize;
    let mut i = 0;
    let mut line_indent = 0usize;
    let mut at_line_start = true;
    // Right after a quoted scalar ends, a new token starts.
    let mut after_token = false;
    // Inside a plain scalar, which spaces do not end: it ends at a line
    // break, at ": " or " #", and inside a flow collection at `,[]{}`.
    let mut plain = false;
    while i < bytes.len() {
        let c = bytes[i];
        if plain {
            let next_blank = matches!(bytes.get(i + 1), None | Some(b' ' | b'\t' | b'\n' | b'\r'));
            let ends = matches!(c, b'\n' | b'\r')
                || (c == b':'
                    && (next_blank
                        || (flow > 0
                            && matches!(
                                bytes.get(i + 1),
                                Some(b',' | b'[' | b']' | b'{' | b'}')
                            ))))
                || (c == b'#' && matches!(bytes[i - 1], b' ' | b'\t'))
                || (flow > 0 && matches!(c, b',' | b'[' | b']' | b'{' | b'}'));
            if !ends {
                i += 1;
                continue;
            }
            plain = false;
            if c == b':' {
                i += 1;
                continue;
            }
        }
        let token_start = at_line_start
            || std::mem::take(&mut after_token)
            || matches!(bytes[i - 1], b' ' | b'\t')
            || (flow > 0 && matches!(bytes[i - 1], b'[' | b'{' | b',' | b']' | b'}' | b':'));
        match c {
            b'\n' | b'\r' => {
                at_line_start = true;
                line_indent = 0;
                i += 1;
                while i < bytes.len() && bytes[i] == b' ' {
                    line_indent += 1;
                    i += 1;
                }
                continue;
            }
            b'#' if token_start => {
                while i < bytes.len() && !matches!(bytes[i], b'\n' | b'\r') {
                    i += 1;
                }
                continue;
            }
            // A quote inside a plain scalar is part of it.
            b'\'' | b'"' if token_start => {
                i = skip_quoted(bytes, i);
                after_token = true;
                at_line_start = false;
                continue;
            }
            b'|' | b'>' if flow == 0 && token_start => {
                // A block scalar: its lines are those indented past the
                // line of its indicator (and blank lines).
                while i < bytes.len() && !matches!(bytes[i], b'\n' | b'\r') {
                    i += 1;
                }
                loop {
                    let line_end = bytes[i..]
                        .iter()
                        .skip(1)
                        .position(|&b| b == b'\n')
                        .map_or(bytes.len(), |p| i + 1 + p);
                    if i >= bytes.len() {
                        break;
                    }
                    let line = &bytes[(i + 1).min(bytes.len())..line_end];
                    let indent = line.iter().take_while(|&&b| b == b' ').count();
                    let blank = line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r'));
                    if !blank && indent <= line_indent {
                        break;
                    }
                    i = line_end;
                }
                continue;
            }
            b'[' | b'{' if flow > 0 || token_start => flow += 1,
            b']' | b'}' if flow > 0 => flow -= 1,
            // A verbatim tag (`!<...>`) runs to its `>`.
            b'!' if token_start && bytes.get(i + 1) == Some(&b'<') => {
                while i < bytes.len() && !matches!(bytes[i], b'>' | b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                at_line_start = false;
                continue;
            }
            // A tag is a token of its own, outside flow collections too
            // (`!t [!a, b]` holds a flow collection after the tag). Go
            // reads `,`, `[` and `]` as part of a tag anywhere; the Rust
            // port ends the tag there, inside a flow collection or not
            // (`!a,b c` is the unsupported tag `!a,b` in Go).
            b'!' if token_start => {
                // The handle, then the URI characters Go allows.
                let mut j = i + 1;
                while j < bytes.len()
                    && (bytes[j].is_ascii_alphanumeric() || matches!(bytes[j], b'_' | b'-'))
                {
                    j += 1;
                }
                if bytes.get(j) == Some(&b'!') {
                    j += 1;
                }
                while j < bytes.len()
                    && (bytes[j].is_ascii_alphanumeric()
                        || b"-_;/?:@&=+$,.!~*'()[]%".contains(&bytes[j]))
                {
                    if matches!(bytes[j], b',' | b'[' | b']') {
                        let text = out.get_or_insert_with(String::new);
                        text.push_str(&src[copied..j]);
                        text.push_str(match bytes[j] {
                            b',' => "%2C",
                            b'[' => "%5B",
                            _ => "%5D",
                        });
                        copied = j + 1;
                    }
                    j += 1;
                }
                i = j;
                at_line_start = false;
                continue;
            }
            // In a flow collection `?` is the key indicator whatever
            // follows it (libyaml and go-yaml alike): a token starts right
            // after it, so `[?!,` holds the tag `!,`.
            b'?' if flow > 0 && token_start => after_token = true,
            // Indicators followed by a blank: a sequence entry, a key, a
            // value.
            b'-' | b'?' | b':'
                if token_start
                    && matches!(bytes.get(i + 1), None | Some(b' ' | b'\t' | b'\n' | b'\r')) => {}
            // In a flow collection a value may follow its key's ':' directly
            // (JSON style).
            b':' if token_start && flow > 0 => {}
            // An anchor or an alias runs to the next blank or flow indicator.
            b'&' | b'*' if token_start => {
                i += 1;
                while i < bytes.len()
                    && !matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r')
                    && !(flow > 0 && matches!(bytes[i], b',' | b'[' | b']' | b'{' | b'}'))
                {
                    i += 1;
                }
                after_token = true;
                at_line_start = false;
                continue;
            }
            b',' | b' ' | b'\t' => {}
            _ if token_start => plain = true,
            _ => {}
        }
        at_line_start = at_line_start && c == b' ';
        i += 1;
    }
    out.map(|mut text| {
        text.push_str(&src[copied..]);
        text
    })
}

/// The index just past the quoted scalar that starts at `start`.
fn skip_quoted(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Whether the line break appended to `src` (giving `text`) added one to
/// the value of the block scalar that reaches the end of `src`. When the
/// last line has content, the break ends that line, which the scalar keeps
/// unless it strips its final breaks. When the last line is only spaces,
/// it becomes an empty line, which only a keeping scalar adds; that it is
/// not content (not indented past the scalar's indentation) is assumed.
fn final_break_extra(src: &str, text: &str) -> bool {
    let last_line = src
        .rsplit(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}'])
        .next();
    let content = last_line.is_some_and(|l| l.chars().any(|c| c != ' '));
    let mut input = text.as_bytes();
    let mut scanner = libyaml_safer::Scanner::new();
    scanner.set_input_string(&mut input);
    if starts_like_bom(text) {
        scanner.set_encoding(libyaml_safer::Encoding::Utf8);
    }
    let mut header = None;
    for token in scanner.by_ref() {
        let Ok(token) = token else { break };
        if let libyaml_safer::TokenData::Scalar {
            style: ScalarStyle::Literal | ScalarStyle::Folded,
            ..
        } = token.data
        {
            if token.end_mark.index >= src.len() as u64 {
                header = src.get(token.start_mark.index as usize..);
            }
        }
    }
    let Some(header) = header else { return false };
    let indicators: String = header.chars().skip(1).take(2).collect();
    if indicators.contains('-') {
        false
    } else if indicators.contains('+') {
        true
    } else {
        content
    }
}

/// A mark in the input with the appended line break, as a mark in `src`:
/// positions past the end of `src` are its end.
fn clamp_mark(m: Mark, src: &str) -> Mark {
    if m.index < src.len() as u64 {
        return m;
    }
    let mut end = m;
    end.index = src.len() as u64;
    end.line = 0;
    end.column = 0;
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        let crlf = c == '\r' && chars.peek() == Some(&'\n');
        if crlf {
            chars.next();
        }
        if matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            end.line += 1;
            end.column = 0;
        } else {
            end.column += 1;
        }
    }
    end
}

/// Mirrors go-cty-yaml's `parserError`: the problem, with the position when
/// it is past the first line.
fn parser_error(e: &libyaml_safer::Error, clamp: impl Fn(Mark) -> Mark) -> String {
    let problem = e.problem();
    let problem = if problem.is_empty() {
        "invalid YAML syntax"
    } else {
        problem
    };
    match (e.problem_mark().map(&clamp), e.context_mark().map(&clamp)) {
        (Some(m), _) if m.line != 0 => {
            let (line, column) = if e.kind() == libyaml_safer::ErrorKind::Scanner {
                (m.line + 1, 0)
            } else {
                (m.line, m.column)
            };
            format!("on line {line}, column {}: {problem}", column + 1)
        }
        (_, Some(m)) if m.line != 0 => {
            format!("on line {}, column {}: {problem}", m.line, m.column + 1)
        }
        _ => problem.to_string(),
    }
}

/// Mirrors go-cty-yaml's `parseEventErrorWrap`.
fn event_error(event: &Event, cause: impl Into<String>) -> String {
    let cause = cause.into();
    let m = event.start_mark;
    if m.line == 0 {
        return cause;
    }
    format!("on line {}, column {}: {cause}", m.line, m.column + 1)
}

fn event_name(data: &EventData) -> &'static str {
    match data {
        EventData::StreamStart { .. } => "stream start",
        EventData::StreamEnd => "stream end",
        EventData::DocumentStart { .. } => "document start",
        EventData::DocumentEnd { .. } => "document end",
        EventData::Alias { .. } => "alias",
        EventData::Scalar { .. } => "scalar",
        EventData::SequenceStart { .. } => "sequence start",
        EventData::SequenceEnd => "sequence end",
        EventData::MappingStart { .. } => "mapping start",
        EventData::MappingEnd => "mapping end",
    }
}

/// Walks the events twice, as go-cty-yaml does: once for the implied type
/// and once for the value.
struct Decoder<'a> {
    events: &'a [Result<Event, String>],
    release: Release,
    pos: usize,
    /// Anchors whose definitions are still open, with their nesting counts.
    pending: HashMap<String, usize>,
    anchor_types: HashMap<String, Type>,
    anchor_values: HashMap<String, Value>,
    copies: usize,
}

/// A scalar resolved by go-cty-yaml's `resolveScalar`: a value, or the
/// merge key `<<`.
enum Resolved {
    Value(Value),
    Merge,
}

impl<'a> Decoder<'a> {
    fn new(events: &'a [Result<Event, String>], release: Release) -> Decoder<'a> {
        Decoder {
            events,
            release,
            pos: 0,
            pending: HashMap::new(),
            anchor_types: HashMap::new(),
            anchor_values: HashMap::new(),
            copies: 0,
        }
    }

    fn next(&mut self) -> Result<&'a Event, String> {
        let e = self
            .events
            .get(self.pos)
            .ok_or_else(|| "unexpected end of YAML events".to_string())?;
        self.pos += 1;
        e.as_ref().map_err(Clone::clone)
    }

    /// The next key of a mapping, resolved, or `None` at the mapping's end.
    fn mapping_key(&mut self) -> Result<Option<(&'a Event, Resolved)>, String> {
        let key = self.next()?;
        let (tag, value, style) = match &key.data {
            EventData::MappingEnd => return Ok(None),
            EventData::Scalar {
                tag, value, style, ..
            } => (tag, value, style),
            _ => return Err(event_error(key, "only strings are allowed as mapping keys")),
        };
        let resolved = resolve_scalar(tag.as_deref(), value, *style, self.release)?;
        Ok(Some((key, resolved)))
    }

    /// The stream and document framing around one value.
    /// Mirrors go-cty-yaml's `impliedType` / `unmarshal`.
    fn document<T>(
        &mut self,
        body: impl FnOnce(&mut Self) -> Result<T, String>,
    ) -> Result<T, String> {
        let e = self.next()?;
        if !matches!(e.data, EventData::StreamStart { .. }) {
            return Err(event_error(e, "missing stream start token"));
        }
        let e = self.next()?;
        if !matches!(e.data, EventData::DocumentStart { .. }) {
            return Err(event_error(e, "missing start of document"));
        }
        let result = body(self)?;
        let e = self.next()?;
        match e.data {
            EventData::DocumentStart { .. } => {
                return Err(event_error(e, "only a single document is allowed"))
            }
            EventData::DocumentEnd { .. } => {}
            ref other => {
                return Err(event_error(
                    e,
                    format!(
                        "unexpected extra content ({}) after value",
                        event_name(other)
                    ),
                ))
            }
        }
        let e = self.next()?;
        if !matches!(e.data, EventData::StreamEnd) {
            return Err(event_error(e, "unexpected extra content after value"));
        }
        Ok(result)
    }

    fn begin_anchor(&mut self, anchor: &Option<String>) {
        if let Some(name) = anchor {
            *self.pending.entry(name.clone()).or_default() += 1;
        }
    }

    fn end_anchor(&mut self, anchor: &Option<String>) {
        if let Some(name) = anchor {
            if let Some(n) = self.pending.get_mut(name) {
                *n -= 1;
                if *n == 0 {
                    self.pending.remove(name);
                }
            }
        }
    }

    fn alias_target(&self, name: &str) -> Result<(), String> {
        if self.pending.contains_key(name) {
            return Err(format!(
                "cannot refer to anchor {} from inside its own definition",
                go_quote(name)
            ));
        }
        Ok(())
    }

    fn undefined_anchor(name: &str) -> String {
        format!("reference to undefined anchor {}", go_quote(name))
    }

    fn charge(&mut self, size: usize) -> Result<(), String> {
        self.copies = self.copies.saturating_add(size);
        if self.copies > MAX_ALIAS_COPIES {
            return Err(TOO_BIG.to_string());
        }
        Ok(())
    }

    /// The next node's implied type. Mirrors go-cty-yaml's
    /// `impliedTypeParseRemainder` and the functions it calls.
    fn implied_type(&mut self, depth: usize) -> Result<Type, String> {
        if depth > MAX_YAML_DEPTH {
            return Err(TOO_DEEP.to_string());
        }
        let e = self.next()?;
        match &e.data {
            EventData::Scalar {
                anchor,
                tag,
                value,
                plain_implicit,
                style,
                ..
            } => {
                self.begin_anchor(anchor);
                let ty = if tag.is_none() && !plain_implicit {
                    Type::String
                } else {
                    match resolve_scalar(tag.as_deref(), value, *style, self.release) {
                        Ok(Resolved::Merge) => Type::String,
                        Ok(Resolved::Value(v)) => v.ty(),
                        Err(err) => return Err(event_error(e, err)),
                    }
                };
                if let Some(name) = anchor {
                    self.end_anchor(anchor);
                    self.anchor_types.insert(name.clone(), ty.clone());
                }
                Ok(ty)
            }
            EventData::Alias { anchor } => {
                self.alias_target(anchor)
                    .map_err(|err| event_error(e, err))?;
                let ty = self
                    .anchor_types
                    .get(anchor)
                    .cloned()
                    .ok_or_else(|| event_error(e, Self::undefined_anchor(anchor)))?;
                self.charge(type_size(&ty))?;
                Ok(ty)
            }
            EventData::MappingStart { anchor, tag, .. } => {
                check_tag(e, tag, MAP_TAG, "mapping")?;
                self.begin_anchor(anchor);
                let mut attrs = BTreeMap::new();
                while let Some((key, resolved)) = self.mapping_key()? {
                    let name = match resolved {
                        Resolved::Merge => {
                            let ty = crate::stack::deeper(|| self.implied_type(depth + 1))?;
                            let Type::Object(merged) = ty else {
                                return Err(event_error(
                                    key,
                                    format!("cannot merge {} into mapping", ty.friendly_name()),
                                ));
                            };
                            attrs.extend(merged);
                            continue;
                        }
                        Resolved::Value(v) => key_string(key, &v)?,
                    };
                    let ty = crate::stack::deeper(|| self.implied_type(depth + 1))?;
                    attrs.insert(name, ty);
                }
                let ty = Type::Object(attrs);
                if let Some(name) = anchor {
                    self.end_anchor(anchor);
                    self.anchor_types.insert(name.clone(), ty.clone());
                }
                Ok(ty)
            }
            EventData::SequenceStart { anchor, tag, .. } => {
                check_tag(e, tag, SEQ_TAG, "sequence")?;
                self.begin_anchor(anchor);
                let mut elems = Vec::new();
                while !self.at_sequence_end()? {
                    elems.push(crate::stack::deeper(|| self.implied_type(depth + 1))?);
                }
                let ty = Type::Tuple(elems);
                if let Some(name) = anchor {
                    self.end_anchor(anchor);
                    self.anchor_types.insert(name.clone(), ty.clone());
                }
                Ok(ty)
            }
            other => Err(unexpected_event(e, other)),
        }
    }

    /// Consumes a sequence end event if it is next.
    fn at_sequence_end(&mut self) -> Result<bool, String> {
        match self.events.get(self.pos) {
            Some(Ok(e)) if matches!(e.data, EventData::SequenceEnd) => {
                self.pos += 1;
                Ok(true)
            }
            Some(Err(err)) => Err(err.clone()),
            _ => Ok(false),
        }
    }

    /// The next node's value. Mirrors go-cty-yaml's
    /// `unmarshalParseRemainder` and the functions it calls.
    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_YAML_DEPTH {
            return Err(TOO_DEEP.to_string());
        }
        let e = self.next()?;
        match &e.data {
            EventData::Scalar {
                anchor,
                tag,
                value,
                style,
                ..
            } => {
                self.begin_anchor(anchor);
                let v = match resolve_scalar(tag.as_deref(), value, *style, self.release) {
                    Ok(Resolved::Merge) => Value::string("<<"),
                    Ok(Resolved::Value(v)) => v,
                    Err(err) => return Err(event_error(e, err)),
                };
                if let Some(name) = anchor {
                    self.end_anchor(anchor);
                    self.anchor_values.insert(name.clone(), v.clone());
                }
                Ok(v)
            }
            EventData::Alias { anchor } => {
                self.alias_target(anchor)
                    .map_err(|err| event_error(e, err))?;
                let v = self
                    .anchor_values
                    .get(anchor)
                    .cloned()
                    .ok_or_else(|| event_error(e, Self::undefined_anchor(anchor)))?;
                self.charge(value_size(&v))?;
                Ok(v)
            }
            EventData::MappingStart { anchor, tag, .. } => {
                check_tag(e, tag, MAP_TAG, "mapping")?;
                self.begin_anchor(anchor);
                let mut attrs = BTreeMap::new();
                while let Some((key, resolved)) = self.mapping_key()? {
                    let name = match resolved {
                        Resolved::Merge => {
                            let v = crate::stack::deeper(|| self.value(depth + 1))?;
                            match v {
                                Value::Object(items) | Value::Map { items, .. } => {
                                    attrs.extend(items);
                                }
                                other => {
                                    return Err(event_error(
                                        key,
                                        format!(
                                            "cannot merge {} into mapping",
                                            other.ty().friendly_name()
                                        ),
                                    ))
                                }
                            }
                            continue;
                        }
                        Resolved::Value(v) => key_string(key, &v)?,
                    };
                    let v = crate::stack::deeper(|| self.value(depth + 1))?;
                    attrs.insert(name, v);
                }
                let v = Value::object(attrs);
                if let Some(name) = anchor {
                    self.end_anchor(anchor);
                    self.anchor_values.insert(name.clone(), v.clone());
                }
                Ok(v)
            }
            EventData::SequenceStart { anchor, tag, .. } => {
                check_tag(e, tag, SEQ_TAG, "sequence")?;
                self.begin_anchor(anchor);
                let mut items = Vec::new();
                while !self.at_sequence_end()? {
                    items.push(crate::stack::deeper(|| self.value(depth + 1))?);
                }
                let v = Value::tuple(items);
                if let Some(name) = anchor {
                    self.end_anchor(anchor);
                    self.anchor_values.insert(name.clone(), v.clone());
                }
                Ok(v)
            }
            other => Err(unexpected_event(e, other)),
        }
    }
}

fn unexpected_event(e: &Event, data: &EventData) -> String {
    match data {
        EventData::DocumentStart { .. } => event_error(e, "only a single document is allowed"),
        EventData::StreamEnd => event_error(e, "expecting value but found end of stream"),
        other => event_error(e, format!("unexpected parser event {}", event_name(other))),
    }
}

fn check_tag(e: &Event, tag: &Option<String>, allowed: &str, what: &str) -> Result<(), String> {
    match tag.as_deref() {
        None => Ok(()),
        Some(t) if t == allowed => Ok(()),
        Some(t) => Err(event_error(e, format!("can't interpret {what} as {t}"))),
    }
}

/// A mapping key's string. Mirrors the key checks of go-cty-yaml's
/// `impliedTypeMapping` / `unmarshalMapping`.
fn key_string(key: &Event, v: &Value) -> Result<String, String> {
    let only_strings = || event_error(key, "only strings are allowed as mapping keys");
    let s = convert(v, &Type::String).map_err(|_| only_strings())?;
    match s {
        Value::String(s) => Ok(s),
        Value::Null(_) => Err(event_error(key, "mapping key cannot be null")),
        _ => Err(only_strings()),
    }
}

fn type_size(ty: &Type) -> usize {
    match ty {
        Type::Tuple(elems) => 1 + elems.iter().map(type_size).sum::<usize>(),
        Type::Object(attrs) => 1 + attrs.values().map(type_size).sum::<usize>(),
        _ => 1,
    }
}

fn value_size(v: &Value) -> usize {
    1 + v
        .element_values()
        .into_iter()
        .map(value_size)
        .sum::<usize>()
}

/// The first-byte hint of go-cty-yaml's `resolveTable`.
fn hint(src: &str) -> Option<u8> {
    match src.as_bytes().first() {
        None => Some(b'N'),
        Some(b'+' | b'-') => Some(b'S'),
        Some(b'0'..=b'9') => Some(b'D'),
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => {
            Some(b'M')
        }
        Some(b'.') => Some(b'.'),
        _ => None,
    }
}

/// go-cty-yaml's `resolveMap`: the words YAML 1.1 gives meaning to.
fn resolve_word(src: &str) -> Option<(Value, &'static str)> {
    Some(match src {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            (Value::Bool(true), BOOL_TAG)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            (Value::Bool(false), BOOL_TAG)
        }
        "" | "~" | "null" | "Null" | "NULL" => (Value::Null(Type::Dynamic), NULL_TAG),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            (Value::number(Number::infinity(false)), FLOAT_TAG)
        }
        "-.inf" | "-.Inf" | "-.INF" => (Value::number(Number::infinity(true)), FLOAT_TAG),
        _ => return None,
    })
}

/// Mirrors go-cty-yaml's `resolveScalar`.
fn resolve_scalar(
    tag: Option<&str>,
    src: &str,
    style: ScalarStyle,
    release: Release,
) -> Result<Resolved, String> {
    let mut tag = tag.unwrap_or("");
    let resolvable = matches!(
        tag,
        "" | STR_TAG | BOOL_TAG | INT_TAG | FLOAT_TAG | NULL_TAG | TIMESTAMP_TAG | BINARY_TAG
    );
    if !resolvable {
        return Err(format!("unsupported tag {}", go_quote(tag)));
    }
    let cannot_parse = |tag: &str| format!("cannot parse {} as {tag}", go_quote(src));
    if let Some(h) = hint(src) {
        if tag != STR_TAG && tag != BINARY_TAG {
            if matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) {
                return Ok(Resolved::Value(Value::string(src)));
            }
            if let Some((v, _)) = resolve_word(src) {
                return Ok(Resolved::Value(v));
            }
            if tag.is_empty() && matches!(src, ".nan" | ".NaN" | ".NAN") {
                return Err("floating point NaN is not supported".to_string());
            }
            match h {
                b'.' => {
                    if let Some(n) = Number::parse(src) {
                        return Ok(Resolved::Value(Value::number(n)));
                    }
                }
                b'D' | b'S' => {
                    if tag.is_empty() || tag == TIMESTAMP_TAG {
                        if let Some(t) = parse_timestamp(src) {
                            return Ok(Resolved::Value(Value::string(t)));
                        }
                    }
                    if is_integer_literal(src, release) {
                        tag = INT_TAG;
                    } else if is_float_literal(src) {
                        tag = FLOAT_TAG;
                    }
                }
                _ => {}
            }
        }
    }
    if tag.is_empty() && src == "<<" {
        return Ok(Resolved::Merge);
    }
    let v = match tag {
        STR_TAG | BINARY_TAG => {
            if tag == BINARY_TAG && base64::decode(src.as_bytes()).is_err() {
                return Err(format!("{}: not valid base64", cannot_parse(tag)));
            }
            Value::string(src)
        }
        BOOL_TAG => match resolve_word(src) {
            Some((v, BOOL_TAG)) => v,
            _ => return Err(cannot_parse(tag)),
        },
        FLOAT_TAG | INT_TAG => {
            let plain = src.replace('_', "");
            if let Some(n) = Number::parse(&plain) {
                Value::number(n)
            } else if let Some(i) = go_parse_int(&plain, true).and_then(|i| i64::try_from(i).ok()) {
                Value::number(Number::from_i64(i))
            } else if let Some(u) = go_parse_int(&plain, false).and_then(|i| u64::try_from(i).ok())
            {
                Value::number(Number::from_u64(u))
            } else {
                return Err(cannot_parse(tag));
            }
        }
        TIMESTAMP_TAG => match parse_timestamp(src) {
            Some(t) => Value::string(t),
            None => return Err(cannot_parse(tag)),
        },
        NULL_TAG => Value::Null(Type::Dynamic),
        _ => Value::string(src),
    };
    Ok(Resolved::Value(v))
}

/// go-cty-yaml's `integerLiteralRegexp`: in 1.0.2
/// `\A[-+]?(|0o[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)\z`, in 1.1.0
/// `\A([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\z`.
fn is_integer_literal(s: &str, release: Release) -> bool {
    // Terraform before 1.10 has go-cty-yaml's older integers.
    let profile = crate::profile::current();
    let core = !profile.is_terraform() || profile.has(crate::profile::Feature::YamlCoreIntegers);
    if release == Release::V1_1_0 && core {
        let digits = |b: &str, ok: fn(&char) -> bool| !b.is_empty() && b.chars().all(|c| ok(&c));
        let decimal = s.strip_prefix(['-', '+']).unwrap_or(s);
        return digits(decimal, char::is_ascii_digit)
            || s.strip_prefix("0o")
                .is_some_and(|b| digits(b, |c| matches!(c, '0'..='7')))
            || s.strip_prefix("0x")
                .is_some_and(|b| digits(b, char::is_ascii_hexdigit));
    }
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let all = |body: &str, ok: fn(char) -> bool| !body.is_empty() && body.chars().all(ok);
    s.is_empty()
        || s.strip_prefix("0o")
            .is_some_and(|b| all(b, |c| matches!(c, '0'..='7' | '_')))
        || all(s, |c| c.is_ascii_digit() || c == '_')
        || s.strip_prefix("0x")
            .is_some_and(|b| all(b, |c| c.is_ascii_hexdigit() || c == '_'))
}

/// go-cty-yaml's `floatLiteralRegexp`:
/// `\A[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\z`.
fn is_float_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go's `strconv.ParseInt(s, 0, 64)` (`signed`) or `ParseUint(s, 0, 64)`
/// on a string without underscores: a `0x`, `0o`, `0b` or `0` (octal)
/// prefix picks the base. The caller checks the range.
fn go_parse_int(s: &str, signed: bool) -> Option<i128> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') if signed => (true, &s[1..]),
        Some(b'+') if signed => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = u128::from_str_radix(digits, radix).ok()?;
    let v = i128::try_from(v).ok()?;
    Some(if neg { -v } else { v })
}

/// The timestamp layouts go-cty-yaml tries, in order.
const TIMESTAMP_LAYOUTS: [&gotime::Layout; 4] = [
    &[
        ("", Std::LongYear),
        ("-", Std::NumMonth),
        ("-", Std::Day),
        ("T", Std::Hour),
        (":", Std::Minute),
        (":", Std::Second),
        ("", Std::FracSecond9),
        ("", Std::IsoColonTz),
        ("", Std::End),
    ],
    &[
        ("", Std::LongYear),
        ("-", Std::NumMonth),
        ("-", Std::Day),
        ("t", Std::Hour),
        (":", Std::Minute),
        (":", Std::Second),
        ("", Std::FracSecond9),
        ("", Std::IsoColonTz),
        ("", Std::End),
    ],
    &[
        ("", Std::LongYear),
        ("-", Std::NumMonth),
        ("-", Std::Day),
        (" ", Std::Hour),
        (":", Std::Minute),
        (":", Std::Second),
        ("", Std::FracSecond9),
        ("", Std::End),
    ],
    &[
        ("", Std::LongYear),
        ("-", Std::NumMonth),
        ("-", Std::Day),
        ("", Std::End),
    ],
];

/// Mirrors go-cty-yaml's `parseTimestamp`, giving the RFC 3339 text cty
/// uses for it.
fn parse_timestamp(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits != 4 || b.get(4) != Some(&b'-') {
        return None;
    }
    TIMESTAMP_LAYOUTS
        .iter()
        .find_map(|layout| gotime::parse(layout, s, gotime::GoTime::Go1_19).ok())
        .map(|t| t.format_rfc3339())
}

#[cfg(test)]
mod tests {
    use super::{decode_function, encode_function, Release};
    use crate::value::Value;

    fn decode(src: &str) -> String {
        decode_as(src, Release::V1_0_2)
    }

    fn decode_as(src: &str, release: Release) -> String {
        match decode_function(release).call(&[Value::string(src)]) {
            Ok(v) => crate::eval::test_support::value(&v),
            Err(e) => format!("error: {e}"),
        }
    }

    fn encode(v: Value) -> String {
        match encode_function().call(&[v]) {
            Ok(Value::String(s)) => s,
            other => format!("{other:?}"),
        }
    }

    // Expected values checked against the Go oracle (go-cty-yaml).
    #[test]
    fn decodes_like_go_cty_yaml() {
        let rows = [
            (
                "a: 1\nb: [true, ~, 'x']\n",
                "object{\"a\": 1, \"b\": tuple[true, null(dynamic), \"x\"]}",
            ),
            ("0x1F", "31"),
            ("2001-12-14 21:59:43.10", "\"2001-12-14T21:59:43Z\""),
            ("|-\n  1.0\n", "\"1\""),
            ("a: &x 1\nb: *x\n", "object{\"a\": 1, \"b\": 1}"),
            (
                "base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n",
                "object{\"base\": object{\"x\": 1}, \"d\": object{\"true\": 2, \"x\": 1}}",
            ),
            ("", "error: on line 1, column 1: missing start of document"),
            ("+", "error: cannot parse \"+\" as tag:yaml.org,2002:int"),
            (".nan", "error: floating point NaN is not supported"),
        ];
        for (src, want) in rows {
            assert_eq!(decode(src), want, "{src:?}");
        }
    }

    #[test]
    fn encodes_like_go_cty_yaml() {
        let mut attrs = std::collections::BTreeMap::new();
        attrs.insert("a".to_string(), Value::int(1));
        attrs.insert("b".to_string(), Value::string("x\ny"));
        assert_eq!(
            encode(Value::object(attrs)),
            "\"a\": 1\n\"b\": |-\n  x\n  y\n"
        );
    }

    // Expected values checked against Terraform 1.15.5 (go-cty-yaml 1.1.0).
    #[test]
    fn decodes_like_go_cty_yaml_1_1() {
        let rows = [
            ("~", "null(dynamic)"),
            ("1_000", "\"1_000\""),
            ("+", "\"+\""),
            ("0o17", "15"),
            ("-0o7", "\"-0o7\""),
            ("0x_1", "\"0x_1\""),
            ("+12", "12"),
        ];
        for (src, want) in rows {
            assert_eq!(decode_as(src, Release::V1_1_0), want, "{src:?}");
        }
    }
}
