//! `jsonencode` and `jsondecode`: cty's `stdlib.JSONEncodeFunc` and
//! `stdlib.JSONDecodeFunc`, which use cty's JSON value encoding
//! (`cty/json`) on top of Go's `encoding/json` tokenizer.
//!
//! Why not `serde_json` for the text: Go's encoder escapes HTML characters
//! and Go's decoder has its own error texts. `jsonencode("<a&b>")` is
//! `"\u003ca\u0026b\u003e"` in Go and `"<a&b>"` from `serde_json`;
//! `jsondecode("[1,]")` fails in Go with `invalid character ']' looking for
//! beginning of value`, in `serde_json` with `trailing comma at line 1
//! column 4`.

use std::collections::BTreeMap;

use crate::convert::convert;
use crate::functions::{static_return_type, CallError, Function, Param};
use crate::number::Number;
use crate::types::Type;
use crate::value::{Value, MAX_VALUE_DEPTH};

/// How Go's `encoding/json` writes U+0008 and U+000C.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum ControlEscapes {
    /// Go before 1.22: `\u0008`, `\u000c`.
    #[default]
    Unicode,
    /// Go 1.22 and later: `\b`, `\f`.
    Short,
}

/// Which `jsondecode` release: go-cty 1.18 refuses an object that repeats
/// a key with a value of another type (`json.ImpliedType`'s "duplicate
/// property" check), 1.12 lets the last one win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DuplicateKeys {
    LastWins,
    Refused,
}

/// `jsonencode(val)`. Mirrors `stdlib.JSONEncodeFunc`.
pub(super) fn encode_function(escapes: ControlEscapes) -> Function {
    Function {
        name: "jsonencode",
        // go-cty 1.13 takes unknown values, to refine the result; before,
        // the implementation's own check made the same plain unknown.
        params: vec![Param::new("val", Type::Dynamic)
            .allow_dynamic_type()
            .allow_null()
            .allow_unknown()],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(move |args, _| {
            let value = &args[0];
            if !value.is_wholly_known() {
                // A value that cannot be null starts its JSON with the
                // character of its kind (go-cty 1.13+).
                let result = Value::unknown(Type::String);
                if !value.definitely_not_null() {
                    return Ok(result);
                }
                let first = match value.ty() {
                    Type::String => "\"",
                    Type::Object(_) | Type::Map(_) => "{",
                    Type::Tuple(_) | Type::List(_) | Type::Set(_) => "[",
                    _ => "",
                };
                return Ok(result.refine().string_prefix_full(first).finish());
            }
            let mut out = String::new();
            marshal(value, &mut out, 0, escapes).map_err(CallError::general)?;
            Ok(Value::string(out))
        }),
    }
}

/// `jsondecode(str)`: the result's type is implied by the document.
/// Mirrors `stdlib.JSONDecodeFunc`.
pub(super) fn decode_function(duplicates: DuplicateKeys) -> Function {
    Function {
        name: "jsondecode",
        params: vec![Param::new("str", Type::String)],
        var_param: None,
        return_type: Box::new(move |args| match &args[0] {
            Value::String(s) => {
                let node = parse(s).map_err(CallError::general)?;
                let profile = crate::profile::current();
                let older = profile.is_terraform()
                    && !profile.has(crate::profile::Feature::JsonDuplicateKeysRefused);
                match duplicates {
                    _ if older => Ok(implied_type(&node)),
                    DuplicateKeys::LastWins => Ok(implied_type(&node)),
                    DuplicateKeys::Refused => {
                        implied_type_refusing_duplicates(&node).map_err(CallError::general)
                    }
                }
            }
            // go-cty 1.13+: an unknown string's known prefix can tell the
            // result's type, or that no JSON document starts that way.
            unknown => type_of_prefix(unknown.range().prefix.trim()),
        }),
        implementation: Box::new(|args, ret| match &args[0] {
            Value::String(s) => {
                let node = parse(s).map_err(CallError::general)?;
                unmarshal(&node, ret).map_err(CallError::general)
            }
            _ => Ok(Value::unknown(ret.clone())),
        }),
    }
}

/// `jsondecode`'s message for an unknown document whose known prefix no
/// JSON value starts with (the character follows, Go-quoted).
const BAD_DOCUMENT_START: &str = "a JSON document cannot begin with the character";

/// The result type of `jsondecode` on a string that starts with `prefix`
/// (already trimmed of white space): a string, a bool or a number when the
/// first character can only begin one, an error when it can begin no JSON
/// value, otherwise unknown. Mirrors the unknown case of
/// `stdlib.JSONDecodeFunc`'s type function.
fn type_of_prefix(prefix: &str) -> Result<Type, CallError> {
    match prefix.chars().next() {
        None | Some('{' | '[' | 'n') => Ok(Type::Dynamic),
        Some('"') => Ok(Type::String),
        Some('t' | 'f') => Ok(Type::Bool),
        Some('-' | '0'..='9' | '.') => Ok(Type::Number),
        Some(c) => Err(CallError::arg(
            0,
            format!("{BAD_DOCUMENT_START} {}", crate::goquote::go_quote_rune(c)),
        )),
    }
}

/// How deep [`marshal`] recurses before giving up; values never get this
/// deep, so this only guards the stack.
const MAX_ENCODE_DEPTH: usize = 4 * MAX_VALUE_DEPTH;

const TOO_DEEP: &str = "value is nested too deeply to serialize";
const INFINITY: &str = "cannot serialize infinity as JSON";

/// Appends the JSON text of a wholly known value.
/// Mirrors cty's `json.marshal` for a value of its own type.
fn marshal(
    value: &Value,
    out: &mut String,
    depth: usize,
    escapes: ControlEscapes,
) -> Result<(), &'static str> {
    if depth > MAX_ENCODE_DEPTH {
        return Err(TOO_DEEP);
    }
    match value {
        // The call boundary unmarks arguments; kept for completeness.
        Value::Marked(inner) => return marshal(inner, out, depth, escapes),
        Value::Null(_) | Value::Unknown(..) => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if n.is_infinite() {
                return Err(INFINITY);
            }
            out.push_str(&n.text());
        }
        Value::String(s) => push_json_string(out, s, escapes),
        Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                crate::stack::deeper(|| marshal(item, out, depth + 1, escapes))?;
            }
            out.push(']');
        }
        Value::Map { items, .. } | Value::Object(items) => {
            out.push('{');
            for (i, (k, v)) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, k, escapes);
                out.push(':');
                crate::stack::deeper(|| marshal(v, out, depth + 1, escapes))?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// A string as Go's `json.Marshal` writes it: HTML-significant characters,
/// control characters, U+2028 and U+2029 escaped.
pub(crate) fn push_json_string(out: &mut String, s: &str, escapes: ControlEscapes) {
    out.push('"');
    push_json_chars(out, s, escapes);
    out.push('"');
}

/// The characters of [`push_json_string`] without the quotes.
pub(crate) fn push_json_chars(out: &mut String, s: &str, escapes: ControlEscapes) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' if escapes == ControlEscapes::Short => out.push_str("\\b"),
            '\u{c}' if escapes == ControlEscapes::Short => out.push_str("\\f"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            '\0'..='\u{1f}' | '<' | '>' | '&' => {
                let b = c as u8;
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
            _ => out.push(c),
        }
    }
}

/// A parsed JSON document, keeping duplicate object keys in order.
#[derive(Clone, Debug, PartialEq)]
enum Node {
    Null,
    Bool(bool),
    /// The number's text as written.
    Number(String),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

/// Parses a document as cty's `json.ImpliedType` reads it through Go's
/// `json.Decoder.Token`: one value, then nothing but whitespace, except
/// that a stray `]` or `}` after the value is ignored (`Decoder.More`).
fn parse(src: &str) -> Result<Node, String> {
    let mut p = Parser {
        src: src.as_bytes(),
        pos: 0,
        too_deep: None,
    };
    let node = p.value(0)?;
    match p.peek() {
        Some(c) if c != b']' && c != b'}' => Err("extraneous data after JSON object".to_string()),
        _ => match p.too_deep {
            Some(message) => Err(message),
            None => Ok(node),
        },
    }
}

/// Where the token reader is, as `json.Decoder`'s token states (for the
/// error contexts).
#[derive(Clone, Copy)]
enum Context {
    Value,
    /// Before an object's first key: Go's `tokenError` has no words for it.
    ObjectStart,
    ArrayComma,
    ObjectKey,
    ObjectColon,
    ObjectComma,
}

impl Context {
    fn describe(self) -> &'static str {
        match self {
            Context::Value => "looking for beginning of value",
            Context::ObjectStart => "",
            Context::ArrayComma => "after array element",
            Context::ObjectKey => "looking for beginning of object key string",
            Context::ObjectColon => "after object key",
            Context::ObjectComma => "after object key:value pair",
        }
    }
}

const EOF: &str = "EOF";
const UNEXPECTED_EOF: &str = "unexpected EOF";
const NESTING: &str = "JSON value is nested too deeply";

/// The deepest nesting of arrays and objects Go's `encoding/json` reads
/// for go-cty's `jsondecode` (it says "exceeded max depth" past it).
const GO_MAX_NESTING: usize = 10_001;

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    /// Go's error for the first array or object nested past
    /// [`GO_MAX_NESTING`]. go-cty reads a document twice: its first pass
    /// (the type) has no depth limit and reports syntax errors anywhere in
    /// the text; its second pass (the value) stops at that depth. So this
    /// error is given only once the whole text has parsed.
    too_deep: Option<String>,
}

impl Parser<'_> {
    /// The next non-space byte, without consuming it.
    fn peek(&mut self) -> Option<u8> {
        while let Some(&c) = self.src.get(self.pos) {
            if !matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
                return Some(c);
            }
            self.pos += 1;
        }
        None
    }

    fn next_or_eof(&mut self) -> Result<u8, String> {
        self.peek().ok_or_else(|| EOF.to_string())
    }

    /// A value where one may begin.
    fn value(&mut self, depth: usize) -> Result<Node, String> {
        if depth > MAX_VALUE_DEPTH {
            return Err(NESTING.to_string());
        }
        let c = self.next_or_eof()?;
        match c {
            b'[' => {
                self.pos += 1;
                crate::stack::deeper(|| self.array(depth))
            }
            b'{' => {
                self.pos += 1;
                crate::stack::deeper(|| self.object(depth))
            }
            b']' | b'}' | b',' | b':' => Err(token_error(c, Context::Value)),
            _ => self.scalar(),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Node, String> {
        let mut items = Vec::new();
        if self.next_or_eof()? == b']' {
            self.pos += 1;
            return Ok(Node::Array(items));
        }
        loop {
            self.note_depth(depth, "tuple");
            items.push(self.value(depth + 1)?);
            match self.next_or_eof()? {
                b']' => {
                    self.pos += 1;
                    return Ok(Node::Array(items));
                }
                b',' => self.pos += 1,
                c => return Err(token_error(c, Context::ArrayComma)),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Node, String> {
        let mut members = Vec::new();
        if self.next_or_eof()? == b'}' {
            self.pos += 1;
            return Ok(Node::Object(members));
        }
        let mut context = Context::ObjectStart;
        loop {
            let c = self.next_or_eof()?;
            if c != b'"' {
                return Err(token_error(c, context));
            }
            context = Context::ObjectKey;
            let Node::String(key) = self.scalar()? else {
                unreachable!("a value starting with a quote is a string");
            };
            let c = self.next_or_eof()?;
            if c != b':' {
                return Err(token_error(c, Context::ObjectColon));
            }
            self.pos += 1;
            self.note_depth(depth, "object");
            members.push((key, self.value(depth + 1)?));
            match self.next_or_eof()? {
                b'}' => {
                    self.pos += 1;
                    return Ok(Node::Object(members));
                }
                b',' => self.pos += 1,
                c => return Err(token_error(c, Context::ObjectComma)),
            }
        }
    }

    /// Before an element of a container read by `value(depth)`, which is
    /// `depth + 1` deep: notes Go's error if the element opens a container
    /// past [`GO_MAX_NESTING`]. `kind` is what go-cty calls the enclosing
    /// container's value in its message.
    fn note_depth(&mut self, depth: usize, kind: &str) {
        if depth + 2 <= GO_MAX_NESTING || self.too_deep.is_some() {
            return;
        }
        if let Some(c @ (b'[' | b'{')) = self.peek() {
            self.too_deep = Some(format!(
                "failed to read {kind} value: invalid character '{}' exceeded max depth",
                c as char
            ));
        }
    }

    /// A string, number or literal, read as `json.Decoder.Decode` reads a
    /// whole value (Go's scanner states and messages).
    fn scalar(&mut self) -> Result<Node, String> {
        let start = self.pos;
        let c = self.src[start];
        match c {
            b'"' => self.string(),
            b'-' | b'0'..=b'9' => self.number(start),
            b't' => self.literal(b"true", Node::Bool(true)),
            b'f' => self.literal(b"false", Node::Bool(false)),
            b'n' => self.literal(b"null", Node::Null),
            _ => Err(scan_error(c, "looking for beginning of value")),
        }
    }

    fn literal(&mut self, word: &'static [u8], node: Node) -> Result<Node, String> {
        let name = std::str::from_utf8(word).unwrap_or_default();
        for (i, &want) in word.iter().enumerate() {
            match self.src.get(self.pos + i) {
                None => return Err(UNEXPECTED_EOF.to_string()),
                Some(&c) if c != want => {
                    let expecting = char::from(want);
                    return Err(scan_error(
                        c,
                        &format!("in literal {name} (expecting '{expecting}')"),
                    ));
                }
                Some(_) => {}
            }
        }
        self.pos += word.len();
        Ok(node)
    }

    fn number(&mut self, start: usize) -> Result<Node, String> {
        let src = self.src;
        let mut i = start;
        let digits = |i: &mut usize| {
            while src.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
        };
        if src[i] == b'-' {
            i += 1;
            match src.get(i) {
                None => return Err(UNEXPECTED_EOF.to_string()),
                Some(c) if !c.is_ascii_digit() => {
                    return Err(scan_error(*c, "in numeric literal"));
                }
                _ => {}
            }
        }
        if src[i] == b'0' {
            i += 1;
        } else {
            digits(&mut i);
        }
        if src.get(i) == Some(&b'.') {
            i += 1;
            match src.get(i) {
                None => return Err(UNEXPECTED_EOF.to_string()),
                Some(c) if !c.is_ascii_digit() => {
                    return Err(scan_error(*c, "after decimal point in numeric literal"));
                }
                _ => digits(&mut i),
            }
        }
        if matches!(src.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(src.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            match src.get(i) {
                None => return Err(UNEXPECTED_EOF.to_string()),
                Some(c) if !c.is_ascii_digit() => {
                    return Err(scan_error(*c, "in exponent of numeric literal"));
                }
                _ => digits(&mut i),
            }
        }
        self.pos = i;
        let text = std::str::from_utf8(&src[start..i]).unwrap_or_default();
        Ok(Node::Number(text.to_string()))
    }

    /// A string literal: Go's scanner checks it, then `unquote` decodes it
    /// (a lone or mismatched surrogate escape becomes U+FFFD).
    fn string(&mut self) -> Result<Node, String> {
        let src = self.src;
        let mut i = self.pos + 1;
        let mut out = String::new();
        let mut run_start = i;
        loop {
            let Some(&c) = src.get(i) else {
                return Err(UNEXPECTED_EOF.to_string());
            };
            match c {
                b'"' => {
                    out.push_str(std::str::from_utf8(&src[run_start..i]).unwrap_or_default());
                    self.pos = i + 1;
                    return Ok(Node::String(out));
                }
                b'\\' => {
                    out.push_str(std::str::from_utf8(&src[run_start..i]).unwrap_or_default());
                    i += 1;
                    let Some(&e) = src.get(i) else {
                        return Err(UNEXPECTED_EOF.to_string());
                    };
                    i += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(char::from(e)),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let first = hex4(src, i)?;
                            i += 4;
                            out.push(self.unicode_escape(first, &mut i)?);
                        }
                        _ => return Err(scan_error(e, "in string escape code")),
                    }
                    run_start = i;
                }
                0..=0x1f => return Err(scan_error(c, "in string literal")),
                _ => i += 1,
            }
        }
    }

    /// The character of a `\uXXXX` escape whose code unit is `first`;
    /// consumes a following low-surrogate escape when it pairs up.
    fn unicode_escape(&self, first: u32, i: &mut usize) -> Result<char, String> {
        if !(0xd800..0xe000).contains(&first) {
            return Ok(char::from_u32(first).unwrap_or('\u{fffd}'));
        }
        // The scanner has to accept a following escape anyway, so check
        // its syntax before pairing.
        if self.src.get(*i) == Some(&b'\\') && self.src.get(*i + 1) == Some(&b'u') {
            let second = hex4(self.src, *i + 2)?;
            if (0xd800..0xdc00).contains(&first) && (0xdc00..0xe000).contains(&second) {
                *i += 6;
                let c = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
                return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
            }
        }
        Ok('\u{fffd}')
    }
}

/// Four hex digits of a `\u` escape starting at `at`.
fn hex4(src: &[u8], at: usize) -> Result<u32, String> {
    let mut v = 0;
    for k in 0..4 {
        let Some(&c) = src.get(at + k) else {
            return Err(UNEXPECTED_EOF.to_string());
        };
        let d = char::from(c)
            .to_digit(16)
            .ok_or_else(|| scan_error(c, "in \\u hexadecimal character escape"))?;
        v = v * 16 + d;
    }
    Ok(v)
}

/// `json.Decoder.tokenError`.
fn token_error(c: u8, context: Context) -> String {
    scan_error(c, context.describe())
}

/// A scanner syntax error: "invalid character 'x' <context>".
fn scan_error(c: u8, context: &str) -> String {
    if context.is_empty() {
        return format!("invalid character {}", quote_char(c));
    }
    format!("invalid character {} {context}", quote_char(c))
}

/// Mirrors `encoding/json.quoteChar`.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'"' => "'\"'".to_string(),
        _ => {
            let quoted = crate::goquote::go_quote(&char::from(c).to_string());
            format!("'{}'", &quoted[1..quoted.len() - 1])
        }
    }
}

/// go-cty 1.18's `json.ImpliedType`: as [`implied_type`], but an object
/// that repeats a key with a value of another type is refused (a repeat of
/// the same type is let through, the last one winning).
fn implied_type_refusing_duplicates(node: &Node) -> Result<Type, String> {
    match node {
        Node::Array(items) => items
            .iter()
            .map(|item| crate::stack::deeper(|| implied_type_refusing_duplicates(item)))
            .collect::<Result<_, _>>()
            .map(Type::Tuple),
        Node::Object(members) => {
            // Each key's latest type, by position: keeping a copy of a
            // deep type at every level would make deep documents quadratic.
            let mut raw: BTreeMap<&str, usize> = BTreeMap::new();
            let mut attrs: Vec<(String, Type)> = Vec::with_capacity(members.len());
            for (k, v) in members {
                let ty = crate::stack::deeper(|| implied_type_refusing_duplicates(v))?;
                if raw.get(k.as_str()).is_some_and(|&i| attrs[i].1 != ty) {
                    return Err(format!(
                        "duplicate {} property in JSON object",
                        crate::goquote::go_quote(k)
                    ));
                }
                raw.insert(k, attrs.len());
                attrs.push((crate::text::normalize_string(k.clone()), ty));
            }
            // Later keys win, as they do in a map built in order.
            Ok(Type::Object(attrs.into_iter().collect()))
        }
        _ => Ok(implied_type(node)),
    }
}

/// Mirrors cty's `json.ImpliedType`: objects are object types (a repeated
/// key takes its last value's type), arrays are tuples, null is dynamic.
fn implied_type(node: &Node) -> Type {
    match node {
        Node::Null => Type::Dynamic,
        Node::Bool(_) => Type::Bool,
        Node::Number(_) => Type::Number,
        Node::String(_) => Type::String,
        Node::Array(items) => Type::Tuple(
            items
                .iter()
                .map(|item| crate::stack::deeper(|| implied_type(item)))
                .collect(),
        ),
        Node::Object(members) => {
            let mut attrs = BTreeMap::new();
            for (k, v) in members {
                attrs.insert(
                    crate::text::normalize_string(k.clone()),
                    crate::stack::deeper(|| implied_type(v)),
                );
            }
            Type::Object(attrs)
        }
    }
}

/// Decodes a document as the given type. Mirrors cty's `json.Unmarshal`,
/// whose lenient primitive rules and per-occurrence decoding matter when an
/// object repeats a key with values of different types.
fn unmarshal(node: &Node, ty: &Type) -> Result<Value, String> {
    if *node == Node::Null {
        return Ok(Value::Null(ty.clone()));
    }
    match ty {
        Type::Optional(t) => unmarshal(node, t),
        Type::Dynamic => unmarshal_dynamic(node),
        Type::Bool => match node {
            Node::Bool(b) => Ok(Value::Bool(*b)),
            Node::String(s) => convert(&Value::string(s.clone()), ty).map_err(|e| e.message),
            _ => Err("bool is required".to_string()),
        },
        Type::Number => match node {
            Node::Number(s) | Node::String(s) => Number::parse(s)
                .map(Value::Number)
                .ok_or_else(|| "a number is required".to_string()),
            _ => Err("number is required".to_string()),
        },
        Type::String => match node {
            Node::String(s) | Node::Number(s) => Ok(Value::string(s.clone())),
            Node::Bool(b) => Ok(Value::string(if *b { "true" } else { "false" })),
            _ => Err("string is required".to_string()),
        },
        Type::Tuple(types) => {
            let Node::Array(items) = node else {
                return Err("missing expected [".to_string());
            };
            if items.len() > types.len() {
                return Err(format!("too many tuple elements (need {})", types.len()));
            }
            let values = items
                .iter()
                .zip(types)
                .map(|(item, t)| crate::stack::deeper(|| unmarshal(item, t)))
                .collect::<Result<Vec<_>, _>>()?;
            if values.len() != types.len() {
                return Err(format!("not enough tuple elements (need {})", types.len()));
            }
            Ok(Value::tuple(values))
        }
        Type::Object(attrs) => {
            let Node::Object(members) = node else {
                return Err("missing expected {".to_string());
            };
            let mut values = BTreeMap::new();
            for (k, v) in members {
                let k = crate::text::normalize_string(k.clone());
                let Some(t) = attrs.get(&k) else {
                    return Err(format!(
                        "unsupported attribute {}",
                        crate::goquote::go_quote(&k)
                    ));
                };
                let v = crate::stack::deeper(|| unmarshal(v, t))?;
                values.insert(k, v);
            }
            for (k, t) in attrs {
                values
                    .entry(k.clone())
                    .or_insert_with(|| Value::Null(t.clone()));
            }
            Ok(Value::object(values))
        }
        Type::List(_) | Type::Set(_) | Type::Map(_) => {
            // Implied types never contain collections.
            Err("unsupported type".to_string())
        }
    }
}

/// A non-null value decoded as the dynamic pseudo-type: cty's wrapper
/// object `{"value": ..., "type": ...}`. Reached only when a repeated key's
/// last value is null. Mirrors cty's `json.unmarshalDynamic`.
fn unmarshal_dynamic(node: &Node) -> Result<Value, String> {
    let Node::Object(members) = node else {
        return Err("missing expected {".to_string());
    };
    let mut ty = None;
    let mut body = None;
    for (k, v) in members {
        match k.as_str() {
            "type" => {
                let json = node_to_json(v);
                let t = crate::json::type_from_json(&json).map_err(|e| {
                    format!("failed to decode type for dynamic value: {}", e.message)
                })?;
                ty = Some(t);
            }
            "value" => body = Some(v),
            _ => {
                return Err(format!(
                    "invalid key {} in dynamically-typed value",
                    crate::goquote::go_quote(k)
                ))
            }
        }
    }
    let ty = ty.ok_or_else(|| "missing type in dynamically-typed value".to_string())?;
    let body = body.ok_or_else(|| "missing value in dynamically-typed value".to_string())?;
    unmarshal(body, &ty)
}

fn node_to_json(node: &Node) -> serde_json::Value {
    use serde_json::Value as Json;
    match node {
        Node::Null => Json::Null,
        Node::Bool(b) => Json::Bool(*b),
        Node::Number(s) => serde_json::from_str(s).unwrap_or(Json::Null),
        Node::String(s) => Json::String(s.clone()),
        Node::Array(items) => Json::Array(items.iter().map(node_to_json).collect()),
        Node::Object(members) => Json::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), node_to_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{implied_type, parse, push_json_string, unmarshal, ControlEscapes};

    fn decode(src: &str) -> String {
        match parse(src) {
            Ok(node) => match unmarshal(&node, &implied_type(&node)) {
                Ok(v) => crate::eval::test_support::value(&v),
                Err(e) => format!("error: {e}"),
            },
            Err(e) => format!("error: {e}"),
        }
    }

    // Expected values checked against the Go oracle (cty's jsondecode and
    // jsonencode on Go 1.19's encoding/json).
    #[test]
    fn decode_matches_cty() {
        let rows = [
            ("", "error: EOF"),
            ("  ", "error: EOF"),
            ("[1,", "error: EOF"),
            ("\"abc", "error: unexpected EOF"),
            ("tru", "error: unexpected EOF"),
            (
                "trux",
                "error: invalid character 'x' in literal true (expecting 'e')",
            ),
            ("1 2", "error: extraneous data after JSON object"),
            ("[1,2] ]", "tuple[1, 2]"),
            ("[01]", "error: invalid character '1' after array element"),
            (
                "[1,]",
                "error: invalid character ']' looking for beginning of value",
            ),
            ("{\"a\" 1}", "error: invalid character '1' after object key"),
            ("{1:2}", "error: invalid character '1'"),
            (
                "{\"a\":1,2}",
                "error: invalid character '2' looking for beginning of object key string",
            ),
            (
                "{\"a\":1,}",
                "error: invalid character '}' looking for beginning of object key string",
            ),
            ("\"\\ud800x\"", "\"\u{fffd}x\""),
            ("{\"a\":1,\"a\":\"x\"}", "object{\"a\": \"x\"}"),
            ("{\"a\":\"x\",\"a\":1}", "error: a number is required"),
            (
                "{\"a\":[1,2],\"a\":[3]}",
                "error: too many tuple elements (need 1)",
            ),
            ("{\"a\":1,\"a\":null}", "error: missing expected {"),
        ];
        for (src, want) in rows {
            assert_eq!(decode(src), want, "{src:?}");
        }
    }

    #[test]
    fn strings_escape_like_go() {
        let mut out = String::new();
        push_json_string(
            &mut out,
            "<a&b>\u{1}\u{8}\u{7f}\u{2028}é\"\\\n",
            ControlEscapes::Unicode,
        );
        assert_eq!(
            out,
            r#""\u003ca\u0026b\u003e\u0001\u0008\u007f\u2028é\"\\\n""#.replace("\\u007f", "\u{7f}")
        );
    }
}
