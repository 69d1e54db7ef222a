//! The YAML text go-cty-yaml writes for a value: a port of the parts of
//! its emitter (go-yaml v2's `emitterc.go`, itself a port of libyaml) that
//! the events go-cty-yaml produces reach. Those events are block sequences
//! and mappings (flow `[]` and `{}` when empty), plain scalars for null,
//! numbers and bools, and double-quoted scalars for strings, or literal
//! block scalars for strings with a line break. The emitter itself decides
//! where double-quoted strings fold, which keys need the `?` form, when a
//! literal block falls back to double quotes and when `...` ends the
//! stream; go-yaml's answers differ from libyaml's in places (which
//! characters are printable, when the stream is "open ended").
//!
//! Why not libyaml-safer's emitter (the libyaml port whose parser
//! `yamldecode` uses): fed go-cty-yaml's events, it writes `"😀"` where
//! go-yaml writes `"\U0001F600"` (go-yaml counts no four-byte character
//! printable), and `"\uFEFFx"` for U+FEFF followed by `x` where go-yaml
//! writes `"\uFEFF\x78"`.

use crate::value::{Value, MAX_VALUE_DEPTH};

/// The YAML document for a wholly known value. Mirrors go-cty-yaml's
/// `Converter.marshal` and go-yaml's `yaml_emitter_emit` for its events.
pub(super) fn emit(value: &Value) -> Result<String, &'static str> {
    let mut e = Emitter {
        out: String::new(),
        column: 0,
        whitespace: true,
        indention: true,
        open_ended: false,
        indent: -1,
        indents: Vec::new(),
        flow_level: 0,
        root: false,
        mapping: false,
        simple_key: false,
    };
    e.node(value, Context::Root, 0)?;
    // Document end (implicit), then stream end.
    e.write_indent();
    if e.open_ended {
        e.write_indicator("...", true, false, false);
        e.write_indent();
    }
    Ok(e.out)
}

/// Where a node is emitted (go-yaml's `emit_node` flags).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Root,
    Sequence,
    /// A mapping value, or a key written in the `?` form.
    Mapping,
    SimpleKey,
}

const BEST_INDENT: i64 = 2;
const BEST_WIDTH: usize = 80;
/// Longest key written in the simple `key:` form (`check_simple_key`).
const MAX_SIMPLE_KEY: usize = 128;
const TOO_DEEP: &str = "value is nested too deeply to serialize as YAML";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    DoubleQuoted,
    Literal,
}

struct Emitter {
    out: String,
    column: usize,
    whitespace: bool,
    indention: bool,
    open_ended: bool,
    indent: i64,
    indents: Vec<i64>,
    flow_level: usize,
    root: bool,
    mapping: bool,
    simple_key: bool,
}

impl Emitter {
    /// Mirrors `yaml_emitter_emit_node` and the emit functions it selects.
    fn node(&mut self, v: &Value, ctx: Context, depth: usize) -> Result<(), &'static str> {
        if depth > 4 * MAX_VALUE_DEPTH {
            return Err(TOO_DEEP);
        }
        self.root = ctx == Context::Root;
        self.mapping = matches!(ctx, Context::Mapping | Context::SimpleKey);
        self.simple_key = ctx == Context::SimpleKey;
        match v {
            // The call boundary unmarks arguments; kept for completeness.
            Value::Marked(inner) => return self.node(inner, ctx, depth),
            Value::Null(_) => self.scalar("null", Style::Plain),
            Value::Unknown(..) => return Err("cannot serialize unknown value as YAML"),
            Value::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain),
            Value::Number(n) => self.scalar(&n.text(), Style::Plain),
            Value::String(s) => {
                let style = if s.contains('\n') {
                    Style::Literal
                } else {
                    Style::DoubleQuoted
                };
                self.scalar(s, style);
            }
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                if items.is_empty() || self.flow_level > 0 {
                    self.empty_flow("[", "]");
                } else {
                    self.block_sequence(items, depth)?;
                }
            }
            Value::Map { items, .. } | Value::Object(items) => {
                if items.is_empty() || self.flow_level > 0 {
                    self.empty_flow("{", "}");
                } else {
                    self.block_mapping(items, depth)?;
                }
            }
        }
        Ok(())
    }

    /// Mirrors `yaml_emitter_increase_indent`.
    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    /// An empty sequence or mapping, which go-yaml always writes in flow
    /// style.
    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.pop_indent();
        self.write_indicator(close, false, false, false);
    }

    /// Mirrors `yaml_emitter_emit_block_sequence_item`.
    fn block_sequence(&mut self, items: &[Value], depth: usize) -> Result<(), &'static str> {
        let indentless = self.mapping && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            crate::stack::deeper(|| self.node(item, Context::Sequence, depth + 1))?;
        }
        self.pop_indent();
        Ok(())
    }

    /// Mirrors `yaml_emitter_emit_block_mapping_key` and `_value`.
    fn block_mapping(
        &mut self,
        items: &std::collections::BTreeMap<String, Value>,
        depth: usize,
    ) -> Result<(), &'static str> {
        self.increase_indent(false, false);
        for (k, v) in items {
            let key = Value::String(k.clone());
            self.write_indent();
            let simple = !analyze(k).multiline && k.len() <= MAX_SIMPLE_KEY;
            if simple {
                crate::stack::deeper(|| self.node(&key, Context::SimpleKey, depth + 1))?;
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                crate::stack::deeper(|| self.node(&key, Context::Mapping, depth + 1))?;
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            crate::stack::deeper(|| self.node(v, Context::Mapping, depth + 1))?;
        }
        self.pop_indent();
        Ok(())
    }

    /// Mirrors `yaml_emitter_emit_scalar` with `select_scalar_style`, for
    /// untagged, implicit scalars.
    fn scalar(&mut self, text: &str, requested: Style) {
        let a = analyze(text);
        let mut style = requested;
        if self.simple_key && a.multiline {
            style = Style::DoubleQuoted;
        }
        // Plain values here (null, bools, numbers) are always allowed
        // plain, so the single-quoted fallback never applies.
        if style == Style::Literal && (!a.block_allowed || self.flow_level > 0 || self.simple_key) {
            style = Style::DoubleQuoted;
        }
        self.increase_indent(true, false);
        match style {
            Style::Plain => self.write_plain(text),
            Style::DoubleQuoted => self.write_double_quoted(text, !self.simple_key),
            Style::Literal => self.write_literal(text),
        }
        self.pop_indent();
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// Mirrors go-yaml's `write_break`: `\n` as a line break, other break
    /// characters copied.
    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    /// Mirrors `yaml_emitter_write_indicator`.
    fn write_indicator(&mut self, indicator: &str, need_ws: bool, is_ws: bool, is_indention: bool) {
        if need_ws && !self.whitespace {
            self.put(' ');
        }
        for c in indicator.chars() {
            self.put(c);
        }
        self.whitespace = is_ws;
        self.indention = self.indention && is_indention;
        self.open_ended = false;
    }

    /// Mirrors `yaml_emitter_write_indent`.
    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    /// Mirrors `yaml_emitter_write_plain_scalar` for text without spaces
    /// or breaks.
    fn write_plain(&mut self, text: &str) {
        if !self.whitespace {
            self.put(' ');
        }
        for c in text.chars() {
            self.put(c);
        }
        self.whitespace = false;
        self.indention = false;
        if self.root {
            self.open_ended = true;
        }
    }

    /// Mirrors `yaml_emitter_write_double_quoted_scalar`.
    fn write_double_quoted(&mut self, text: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        // go-yaml's `is_bom` looks at the start of the text whatever the
        // position, so a text starting with a BOM is escaped throughout.
        let bom_start = text.starts_with('\u{feff}');
        let mut spaces = false;
        let mut k = 0;
        while k < chars.len() {
            let (i, c) = chars[k];
            if !is_printable(c) || bom_start || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                match c {
                    '\0' => self.put('0'),
                    '\u{7}' => self.put('a'),
                    '\u{8}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{b}' => self.put('v'),
                    '\u{c}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1b}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{a0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    _ => {
                        let v = u32::from(c);
                        let (letter, digits) = match v {
                            0..=0xff => ('x', 2),
                            0x100..=0xffff => ('u', 4),
                            _ => ('U', 8),
                        };
                        self.put(letter);
                        for d in format!("{v:0digits$X}").chars() {
                            self.put(d);
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < text.len() - 1
                {
                    self.write_indent();
                    if chars.get(k + 1).is_some_and(|&(_, n)| n == ' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
            k += 1;
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// Mirrors `yaml_emitter_write_literal_scalar`.
    fn write_literal(&mut self, text: &str) {
        self.write_indicator("|", true, false, false);
        self.write_block_hints(text);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in text.chars() {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }

    /// Mirrors `yaml_emitter_write_block_scalar_hints`: an indentation hint
    /// when the text starts with a space or break, then `-` (no final
    /// break) or `+` (several, or only a break).
    fn write_block_hints(&mut self, text: &str) {
        let mut chars = text.chars();
        if chars
            .clone()
            .next()
            .is_some_and(|c| c == ' ' || is_break(c))
        {
            self.write_indicator(&BEST_INDENT.to_string(), false, false, false);
        }
        self.open_ended = false;
        let last = chars.next_back();
        let before_last = chars.next_back();
        let chomp = match (last, before_last) {
            (None, _) => Some("-"),
            (Some(l), _) if !is_break(l) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(p)) if is_break(p) => Some("+"),
            _ => None,
        };
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
    }
}

/// What `yaml_emitter_analyze_scalar` finds out about a string that the
/// styles used here depend on.
struct Analysis {
    multiline: bool,
    block_allowed: bool,
}

/// Mirrors the relevant part of `yaml_emitter_analyze_scalar`.
fn analyze(text: &str) -> Analysis {
    if text.is_empty() {
        return Analysis {
            multiline: false,
            block_allowed: false,
        };
    }
    let mut line_breaks = false;
    let mut special = false;
    let mut trailing_space = false;
    let mut space_break = false;
    let mut previous_space = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let last = chars.peek().is_none();
        if !is_printable(c) {
            special = true;
        }
        if c == ' ' {
            if last {
                trailing_space = true;
            }
            previous_space = true;
        } else if is_break(c) {
            line_breaks = true;
            if previous_space {
                space_break = true;
            }
            previous_space = false;
        } else {
            previous_space = false;
        }
    }
    Analysis {
        multiline: line_breaks,
        block_allowed: !(trailing_space || space_break || special),
    }
}

/// go-yaml's `is_printable`: only characters of the Basic Multilingual
/// Plane count, unlike libyaml's.
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        && c != '\u{feff}'
}

/// go-yaml's `is_break`.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::emit;
    use crate::value::Value;
    use std::collections::BTreeMap;

    fn obj(pairs: Vec<(&str, Value)>) -> Value {
        Value::object(
            pairs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect::<BTreeMap<_, _>>(),
        )
    }

    // Expected values checked against the Go oracle (go-cty-yaml).
    #[test]
    fn emits_like_go_yaml() {
        let rows = [
            (Value::int(1), "1\n...\n"),
            (Value::string("\n"), "|2+\n\n"),
            (Value::string("😀\nx"), "\"\\U0001F600\\nx\"\n"),
            (Value::string("\u{feff}a b"), "\"\\uFEFF\\x61\\x20\\x62\"\n"),
            (
                obj(vec![
                    ("a", Value::tuple(vec![Value::int(1)])),
                    ("b", Value::tuple(vec![])),
                ]),
                "\"a\":\n- 1\n\"b\": []\n",
            ),
            (
                Value::tuple(vec![obj(vec![("a", Value::string("x\ny"))])]),
                "- \"a\": |-\n    x\n    y\n",
            ),
        ];
        for (v, want) in rows {
            assert_eq!(emit(&v).unwrap(), want);
        }
    }
}
