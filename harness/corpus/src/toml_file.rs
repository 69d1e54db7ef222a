//! Case files in TOML: the corpus's own format, read and written.
//!
//! TOML keeps sources readable: a multi-line template or heredoc is a
//! multi-line string, and a source full of quotes or backslashes is a
//! literal string, with no escaping. Two things TOML cannot hold exactly
//! are written differently from the JSON form:
//!
//! - A typed value's `value` is a string holding the value's JSON text
//!   (`value = '["a", null]'`): TOML has no null, and its floats are 64-bit,
//!   while cty numbers are exact 512-bit binary floats. The `type`, and the
//!   `unknown` and `sensitive` paths, are plain TOML.
//! - Notes that many cases share (`upstream`) are written once, in the
//!   file's `[upstream]` table, and a case names its note.
//!
//! Reading turns the TOML document into the JSON form of a case file (the
//! one model both formats share); writing goes the other way with
//! `toml_edit`, which also lets `hclspec record` change a case's answer
//! without touching the rest of the file.

use std::collections::BTreeMap;

use serde_json::{Map, Number, Value as Json};
use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, Value};

/// The order of a case's keys.
pub const CASE_KEYS: [&str; 15] = [
    "id",
    "kind",
    "type",
    "spec",
    "source",
    "scope",
    "expect",
    "versions",
    "terraform",
    "verify",
    "detail_varies",
    "seed",
    "note",
    "upstream",
    "tags",
];

/// The order of a file's top-level keys.
const FILE_KEYS: [&str; 6] = ["area", "seed", "dialect", "upstream", "scopes", "cases"];

/// A problem in a TOML case file: the field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TomlError {
    pub field: String,
    pub message: String,
}

const MSG_FLOAT: &str =
    "a TOML float can not hold a cty number exactly; numbers belong in a value's JSON text";
const MSG_DATETIME: &str = "dates are not case data";
const MSG_VALUE_TEXT: &str = "must be a string holding the value's JSON text";
const MSG_NO_UPSTREAM: &str = "no note of that name in the file's `upstream` table";

/// Reads a TOML case file into the JSON form of a case file.
pub fn to_json_doc(text: &str) -> Result<Json, TomlError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| TomlError {
        field: String::new(),
        message: e.message().to_string() + &position(text, e.span()),
    })?;
    let mut doc = match to_json(&toml::Value::Table(table), "")? {
        Json::Object(m) => m,
        _ => unreachable!("a table converts to an object"),
    };
    let notes = match doc.remove("upstream") {
        None => BTreeMap::new(),
        Some(Json::Object(m)) => m
            .into_iter()
            .map(|(k, v)| match v {
                Json::String(s) => Ok((k, s)),
                _ => Err(TomlError {
                    field: format!("upstream.{k}"),
                    message: "must be a string".into(),
                }),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(TomlError {
                field: "upstream".into(),
                message: "must be a table of named notes".into(),
            })
        }
    };
    if let Some(Json::Object(scopes)) = doc.get_mut("scopes") {
        for (name, scope) in scopes.iter_mut() {
            values_in_scope(scope, &format!("scopes.{name}"))?;
        }
    }
    if let Some(Json::Array(cases)) = doc.get_mut("cases") {
        for (i, case) in cases.iter_mut().enumerate() {
            let at = format!("cases[{i}]");
            let Json::Object(case) = case else { continue };
            if let Some(scope @ Json::Object(_)) = case.get_mut("scope") {
                values_in_scope(scope, &format!("{at}.scope"))?;
            }
            if let Some(expect) = case.get_mut("expect") {
                value_in_expect(expect, &format!("{at}.expect"))?;
            }
            if let Some(Json::Object(versions)) = case.get_mut("versions") {
                for (v, expect) in versions.iter_mut() {
                    value_in_expect(expect, &format!("{at}.versions.{v}"))?;
                }
            }
            if let Some(Json::Object(releases)) = case.get_mut("terraform") {
                for (v, expect) in releases.iter_mut() {
                    value_in_expect(expect, &format!("{at}.terraform.{v}"))?;
                }
            }
            if let Some(Json::String(name)) = case.get("upstream") {
                let text = notes.get(name).ok_or_else(|| TomlError {
                    field: format!("{at}.upstream"),
                    message: format!("{MSG_NO_UPSTREAM}: {name:?}"),
                })?;
                case.insert("upstream".into(), Json::String(text.clone()));
            }
        }
    }
    Ok(Json::Object(doc))
}

/// ` (line L, column C)` for a byte span of `text`.
fn position(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    let Some(span) = span else {
        return String::new();
    };
    let before = &text[..span.start.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!(" (line {line}, column {column})")
}

fn to_json(v: &toml::Value, at: &str) -> Result<Json, TomlError> {
    let err = |message: &str| TomlError {
        field: at.to_string(),
        message: message.to_string(),
    };
    Ok(match v {
        toml::Value::String(s) => Json::String(s.clone()),
        toml::Value::Integer(i) => Json::Number(Number::from(*i)),
        toml::Value::Float(_) => return Err(err(MSG_FLOAT)),
        toml::Value::Boolean(b) => Json::Bool(*b),
        toml::Value::Datetime(_) => return Err(err(MSG_DATETIME)),
        toml::Value::Array(items) => Json::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, x)| to_json(x, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        toml::Value::Table(t) => {
            let mut m = Map::new();
            for (k, x) in t {
                let field = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                m.insert(k.clone(), to_json(x, &field)?);
            }
            Json::Object(m)
        }
    })
}

fn values_in_scope(scope: &mut Json, at: &str) -> Result<(), TomlError> {
    if let Json::Object(vars) = scope {
        for (var, tv) in vars.iter_mut() {
            value_text(tv, &format!("{at}.{var}"))?;
            // The protocol gives an engine a scope value's unknown parts
            // without refinements (engines decode type, value, unknown and
            // sensitive paths only): a case that wrote some would be judged
            // as if they were not there.
            if tv.get("refinements").is_some() {
                return Err(TomlError {
                    field: format!("{at}.{var}.refinements"),
                    message: MSG_SCOPE_REFINEMENTS.into(),
                });
            }
        }
    }
    Ok(())
}

const MSG_SCOPE_REFINEMENTS: &str = "refinements describe the unknown parts of a result; \
     a scope value's unknown parts reach the engine without them";

fn value_in_expect(expect: &mut Json, at: &str) -> Result<(), TomlError> {
    if let Some(result) = expect.get_mut("result") {
        value_text(result, &format!("{at}.result"))?;
    }
    Ok(())
}

/// Replaces a typed value's `value` text by the JSON it holds.
fn value_text(tv: &mut Json, at: &str) -> Result<(), TomlError> {
    let Json::Object(m) = tv else { return Ok(()) };
    let Some(v) = m.get_mut("value") else {
        return Ok(());
    };
    let Json::String(text) = v else {
        return Err(TomlError {
            field: format!("{at}.value"),
            message: MSG_VALUE_TEXT.into(),
        });
    };
    *v = serde_json::from_str(text).map_err(|e| TomlError {
        field: format!("{at}.value"),
        message: format!("not JSON: {e}"),
    })?;
    Ok(())
}

/// Writes the JSON form of a case file as TOML, sharing upstream notes.
pub fn from_json_doc(doc: &Json) -> String {
    let mut out = DocumentMut::new();
    let Json::Object(file) = doc else {
        return String::new();
    };
    // Shared notes: one name per distinct text.
    let mut notes: Vec<(String, String)> = Vec::new();
    if let Some(Json::Array(cases)) = file.get("cases") {
        for case in cases {
            if let Some(Json::String(text)) = case.get("upstream") {
                if !notes.iter().any(|(_, t)| t == text) {
                    let name = note_name(text, &notes);
                    notes.push((name, text.clone()));
                }
            }
        }
    }
    for key in FILE_KEYS {
        match (key, file.get(key)) {
            ("upstream", _) if !notes.is_empty() => {
                let mut t = Table::new();
                for (name, text) in &notes {
                    t.insert(name, Item::Value(string_value(text)));
                }
                out.insert("upstream", Item::Table(t));
            }
            ("scopes", Some(Json::Object(scopes))) if !scopes.is_empty() => {
                let mut t = Table::new();
                t.set_implicit(true);
                for (name, scope) in scopes {
                    t.insert(name, Item::Table(scope_table(scope)));
                }
                out.insert("scopes", Item::Table(t));
            }
            ("cases", Some(Json::Array(cases))) => {
                let mut aot = ArrayOfTables::new();
                for case in cases {
                    aot.push(case_table(case, &notes));
                }
                out.insert("cases", Item::ArrayOfTables(aot));
            }
            (_, Some(v)) if !matches!(key, "upstream" | "scopes") => {
                out.insert(key, Item::Value(plain_value(v)));
            }
            _ => {}
        }
    }
    let mut text = out.to_string();
    // A blank line between cases, so that each reads as a block.
    text = text.replace("\n[[cases]]", "\n\n[[cases]]");
    text = text.replace("\n\n\n[[cases]]", "\n\n[[cases]]");
    text
}

/// A short name for a note, from its first words.
fn note_name(text: &str, taken: &[(String, String)]) -> String {
    let words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(5)
        .map(str::to_ascii_lowercase)
        .collect();
    let base = if words.is_empty() {
        "note".to_string()
    } else {
        words.join("-")
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.iter().any(|(t, _)| *t == name) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

fn scope_table(scope: &Json) -> Table {
    let mut t = Table::new();
    if let Json::Object(vars) = scope {
        for (var, tv) in vars {
            t.insert(var, Item::Value(Value::InlineTable(typed_value(tv))));
        }
    }
    t
}

/// A case's table, keys in [`CASE_KEYS`] order.
fn case_table(case: &Json, notes: &[(String, String)]) -> Table {
    let mut t = Table::new();
    let Json::Object(m) = case else { return t };
    for key in CASE_KEYS {
        let Some(v) = m.get(key) else { continue };
        let item = match (key, v) {
            ("source", Json::Array(lines)) => {
                let joined: Vec<&str> = lines.iter().filter_map(Json::as_str).collect();
                Item::Value(string_value(&joined.join("\n")))
            }
            ("source" | "note" | "seed" | "type", Json::String(s)) => Item::Value(string_value(s)),
            ("scope", Json::Object(_)) => {
                let mut s = scope_table(v);
                s.set_dotted(true);
                Item::Table(s)
            }
            ("expect", e) => Item::Table(expect_table(e)),
            ("versions" | "terraform", Json::Object(vs)) => {
                let mut outer = Table::new();
                outer.set_dotted(true);
                for (ver, e) in vs {
                    outer.insert(ver, Item::Table(expect_table(e)));
                }
                Item::Table(outer)
            }
            ("verify", Json::Object(_)) => {
                let mut s = match plain_value(v) {
                    Value::InlineTable(it) => it.into_table(),
                    _ => Table::new(),
                };
                s.set_dotted(true);
                Item::Table(s)
            }
            ("upstream", Json::String(text)) => {
                let name = notes
                    .iter()
                    .find(|(_, t)| t == text)
                    .map_or(text.as_str(), |(n, _)| n.as_str());
                Item::Value(string_value(name))
            }
            _ => Item::Value(plain_value(v)),
        };
        t.insert(key, item);
    }
    t
}

/// `expect.result = { ... }` or `expect.error = { ... }` (dotted).
fn expect_table(e: &Json) -> Table {
    let mut t = Table::new();
    t.set_dotted(true);
    if let Json::Object(m) = e {
        for (k, v) in m {
            let value = if k == "result" {
                Value::InlineTable(typed_value(v))
            } else {
                plain_value(v)
            };
            t.insert(k, Item::Value(value));
        }
    }
    t
}

/// The expectations of a case as TOML items, for `hclspec record`: the
/// `expect` or the `versions` item.
pub fn expectation_item(expect_json: &Json) -> Item {
    Item::Table(expect_table(expect_json))
}

/// `versions` from per-version expectation documents.
pub fn versions_item(versions: &[(&str, Json)]) -> Item {
    let mut outer = Table::new();
    outer.set_dotted(true);
    for (ver, e) in versions {
        outer.insert(ver, Item::Table(expect_table(e)));
    }
    Item::Table(outer)
}

/// Replaces a case's `expect`/`versions` (whichever `key` is, removing the
/// other) in a TOML case file, keeping everything else as written.
pub fn set_case_answer(
    doc: &mut DocumentMut,
    index: usize,
    key: &str,
    item: Option<Item>,
) -> Result<(), String> {
    let case = case_at(doc, index)?;
    case.remove("expect");
    case.remove("versions");
    if let Some(item) = item {
        case.insert(key, item);
    }
    case.sort_values_by(|a, _, b, _| key_rank(a.get()).cmp(&key_rank(b.get())));
    Ok(())
}

/// Case number `index` of a TOML case file.
fn case_at(doc: &mut DocumentMut, index: usize) -> Result<&mut toml_edit::Table, String> {
    doc.get_mut("cases")
        .and_then(Item::as_array_of_tables_mut)
        .ok_or("no [[cases]]")?
        .get_mut(index)
        .ok_or_else(|| format!("cases[{index}]: no such case"))
}

/// Replaces a case's `terraform` table (`None` removes it) in a TOML case
/// file, keeping everything else as written.
pub fn set_case_terraform(
    doc: &mut DocumentMut,
    index: usize,
    item: Option<Item>,
) -> Result<(), String> {
    let case = case_at(doc, index)?;
    case.remove("terraform");
    if let Some(item) = item {
        case.insert("terraform", item);
    }
    case.sort_values_by(|a, _, b, _| key_rank(a.get()).cmp(&key_rank(b.get())));
    Ok(())
}

/// A TOML case file in the corpus layout: each case's keys in
/// [`CASE_KEYS`] order, everything else as written.
pub fn canonical(text: &str) -> Result<String, String> {
    let mut doc: DocumentMut = text.parse().map_err(|e| format!("{e}"))?;
    if let Some(cases) = doc.get_mut("cases").and_then(Item::as_array_of_tables_mut) {
        for case in cases.iter_mut() {
            case.sort_values_by(|a, _, b, _| key_rank(a.get()).cmp(&key_rank(b.get())));
        }
    }
    Ok(doc.to_string())
}

fn key_rank(key: &str) -> usize {
    CASE_KEYS
        .iter()
        .position(|k| *k == key)
        .unwrap_or(CASE_KEYS.len())
}

/// A typed value: `type` and paths as TOML, the value as its JSON text.
fn typed_value(tv: &Json) -> InlineTable {
    let mut t = InlineTable::new();
    if let Json::Object(m) = tv {
        for (k, v) in m {
            let value = if k == "value" {
                string_value(&crate::format::compact(v))
            } else {
                plain_value(v)
            };
            t.insert(k, value);
        }
    }
    t
}

/// JSON without numbers other than integers as TOML.
fn plain_value(v: &Json) -> Value {
    match v {
        Json::Null => string_value("null"),
        Json::Bool(b) => Value::from(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::from(i),
            None => string_value(&n.to_string()),
        },
        Json::String(s) => string_value(s),
        Json::Array(items) => {
            let mut a = Array::new();
            for x in items {
                a.push(plain_value(x));
            }
            Value::Array(a)
        }
        Json::Object(m) => {
            let mut t = InlineTable::new();
            for (k, x) in m {
                t.insert(k, plain_value(x));
            }
            Value::InlineTable(t)
        }
    }
}

/// A string, in the most readable form TOML allows: as `toml_edit`
/// chooses (literal when that avoids escapes, multi-line when it has line
/// breaks), except that characters a reader could not see (controls,
/// format characters such as U+200B, unusual spaces) are written as
/// escapes in a basic string.
pub fn string_value(s: &str) -> Value {
    if !s.chars().any(hidden) {
        return Value::from(s);
    }
    let multiline = s.contains('\n');
    let mut raw = String::from(if multiline { "\"\"\"\n" } else { "\"" });
    for c in s.chars() {
        match c {
            '\n' if multiline => raw.push('\n'),
            '"' => raw.push_str("\\\""),
            '\\' => raw.push_str("\\\\"),
            '\t' => raw.push_str("\\t"),
            '\n' => raw.push_str("\\n"),
            '\r' => raw.push_str("\\r"),
            c if hidden(c) || c.is_control() => {
                let n = c as u32;
                if n <= 0xffff {
                    raw.push_str(&format!("\\u{n:04X}"));
                } else {
                    raw.push_str(&format!("\\U{n:08X}"));
                }
            }
            c => raw.push(c),
        }
    }
    raw.push_str(if multiline { "\"\"\"" } else { "\"" });
    raw.parse::<Value>().unwrap_or_else(|_| Value::from(s))
}

/// A character a reader of the file could not see or tell apart.
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c as u32,
            0x00A0 | 0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5
            | 0x180B..=0x180E | 0x2000..=0x200F | 0x2028..=0x202F | 0x205F..=0x206F
            | 0x3000 | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB
            | 0xE0000..=0xE0FFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(json: &str) -> (String, Json) {
        let doc: Json = serde_json::from_str(json).unwrap();
        let text = from_json_doc(&doc);
        let back = to_json_doc(&text).unwrap_or_else(|e| panic!("{text}\n{e:?}"));
        (text, back)
    }

    #[test]
    fn json_and_toml_hold_the_same_cases() {
        let json = r#"{
          "area": "demo",
          "seed": "doc.md#x",
          "scopes": {"s": {"n": {"type": "number", "value": 900719925474099.3}, "l": {"type": ["list", "string"], "value": ["a", null], "unknown": [[1]]}}},
          "cases": [
            {"id": "d-1", "kind": "template", "source": ["Hello,", "${name}!"], "scope": {"name": {"type": "string", "value": "W\u200bo"}}, "expect": {"result": {"type": "string", "value": "Hello,\nW\u200bo!"}}, "note": "n"},
            {"id": "d-2", "source": "1 + \"a\\\\b\"", "scope": "s", "versions": {"2.14": {"error": {"phase": "eval", "summary": "Invalid operand"}}, "2.24": {"result": {"type": "number", "value": -0}}}, "upstream": "HCL 2.24 changed this"},
            {"id": "d-3", "source": "x", "upstream": "HCL 2.24 changed this", "verify": {"terraform": "phase"}, "detail_varies": ["go-hcl"], "note": "why", "expect": {"error": {"phase": "parse"}}, "tags": ["a", "b"]},
            {"id": "d-4", "kind": "convert", "type": "list(string)", "source": "[1]"}
          ]
        }"#;
        let (text, back) = round_trip(json);
        let mut want: Json = serde_json::from_str(json).unwrap();
        want["cases"][0]["source"] = Json::String("Hello,\n${name}!".into());
        assert_eq!(back, want, "{text}");
        // Exact numbers survive, sources read as written, invisible
        // characters are escaped, shared notes are named once.
        assert!(text.contains("value = \"900719925474099.3\""), "{text}");
        assert!(text.contains("value = \"-0\""), "{text}");
        assert!(
            text.contains("source = \"\"\"\nHello,\n${name}!\"\"\""),
            "{text}"
        );
        assert!(text.contains(r"W\u200Bo"), "{text}");
        assert_eq!(text.matches("HCL 2.24 changed this").count(), 1, "{text}");
        assert!(
            text.contains("upstream = \"hcl-2-24-changed-this\""),
            "{text}"
        );
    }

    #[test]
    fn errors_name_the_field() {
        let table: &[(&str, &str, &str)] = &[
            ("area = 1.5\ncases = []", "area", "TOML float"),
            (
                "area = 'a'\n[[cases]]\nid = 'x'\nsource = '1'\nexpect.result = { type = 'number', value = 1 }",
                "cases[0].expect.result.value",
                "JSON text",
            ),
            (
                "area = 'a'\n[[cases]]\nid = 'x'\nsource = '1'\nexpect.result = { type = 'number', value = '1 2' }",
                "cases[0].expect.result.value",
                "not JSON",
            ),
            (
                "area = 'a'\n[[cases]]\nid = 'x'\nsource = '1'\nupstream = 'nope'",
                "cases[0].upstream",
                "no note of that name",
            ),
            ("area = 'a'\ncases = [", "", "line 2"),
            (
                "area = 'a'\n[scopes.s]\nx = { type = 'number', value = 'null', unknown = [[]], refinements = [{ path = [], not_null = true }] }\n[[cases]]\nid = 'x'\nsource = 'x'\nscope = 's'",
                "scopes.s.x.refinements",
                "reach the engine without them",
            ),
        ];
        for (text, field, msg) in table {
            let e = to_json_doc(text).unwrap_err();
            assert_eq!(e.field, *field, "{text}: {e:?}");
            assert!(e.message.contains(msg), "{text}: {e:?}");
        }
    }

    #[test]
    fn record_edits_keep_the_rest() {
        let text =
            "area = 'a' # the area\n\n[[cases]]\nid = 'x' # first\nsource = '1'\nnote = 'n'\n";
        let mut doc: DocumentMut = text.parse().unwrap();
        let e: Json =
            serde_json::from_str(r#"{"result": {"type": "number", "value": 1}}"#).unwrap();
        set_case_answer(&mut doc, 0, "expect", Some(expectation_item(&e))).unwrap();
        assert_eq!(
            doc.to_string(),
            "area = 'a' # the area\n\n[[cases]]\nid = 'x' # first\nsource = '1'\nexpect.result = { type = \"number\", value = \"1\" }\nnote = 'n'\n"
        );
    }
}
