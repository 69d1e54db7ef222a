//! Shared fixtures for the evaluator's tests: a scope with values of every
//! kind, and a compact rendering of results and errors that the test tables
//! compare against.
//!
//! A result renders as `OK <type> <value>`, an error as
//! `ERR <summary> @ <start>-<end>` with positions as `line:column:byte`.

use std::collections::BTreeMap;

use super::{evaluate, Context};
use crate::error::{Pos, Span};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;
use crate::{parser, HclVersion};

fn num(i: i64) -> Value {
    Value::number(Number::from_i64(i))
}

fn s(v: &str) -> Value {
    Value::string(v)
}

fn obj(attrs: &[(&str, Value)]) -> Value {
    Value::object(
        attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

fn obj_ty(attrs: &[(&str, Type)]) -> Type {
    Type::Object(
        attrs
            .iter()
            .map(|(k, t)| (k.to_string(), t.clone()))
            .collect(),
    )
}

/// The variables every test expression can use.
pub(crate) fn scope(version: HclVersion) -> Context {
    let ab = obj_ty(&[("a", Type::Number), ("b", Type::String)]);
    let ab1 = obj(&[("a", num(1)), ("b", s("x"))]);
    let ab2 = obj(&[("a", num(2)), ("b", s("y"))]);
    let vars: Vec<(&str, Value)> = vec![
        ("s", s("hello")),
        ("n", num(42)),
        ("f", Value::number(Number::parse("1.5").unwrap())),
        ("t", Value::Bool(true)),
        ("fa", Value::Bool(false)),
        ("nul", Value::Null(Type::Dynamic)),
        ("l", Value::list(Type::String, vec![s("a"), s("b"), s("c")])),
        (
            "ln",
            Value::list(Type::Number, vec![num(1), num(2), num(3)]),
        ),
        ("el", Value::list(Type::String, vec![])),
        (
            "tup",
            Value::tuple(vec![num(1), s("two"), Value::Bool(true)]),
        ),
        (
            "m",
            Value::map(
                Type::String,
                BTreeMap::from([("a".to_string(), s("x")), ("b".to_string(), s("y"))]),
            ),
        ),
        (
            "mn",
            Value::map(
                Type::Number,
                BTreeMap::from([("one".to_string(), num(1)), ("two".to_string(), num(2))]),
            ),
        ),
        ("em", Value::map(Type::String, BTreeMap::new())),
        (
            "o",
            obj(&[
                ("a", num(1)),
                ("b", s("x")),
                ("c", Value::tuple(vec![num(1), num(2)])),
                ("nested", obj(&[("x", num(1))])),
                ("0", s("zero")),
            ]),
        ),
        ("st", Value::set(Type::String, vec![s("b"), s("a")])),
        ("sn", Value::set(Type::Number, vec![num(3), num(1), num(2)])),
        (
            "lo",
            Value::list(ab.clone(), vec![ab1.clone(), ab2.clone()]),
        ),
        ("so", Value::set(ab.clone(), vec![ab1, ab2])),
        (
            "to",
            Value::tuple(vec![
                obj(&[("a", num(1))]),
                obj(&[("a", s("s")), ("b", Value::Bool(true))]),
            ]),
        ),
        ("elo", Value::list(ab.clone(), vec![])),
        ("eso", Value::set(Type::String, vec![])),
        ("u", Value::dynamic_unknown()),
        ("us", Value::unknown(Type::String)),
        ("un", Value::unknown(Type::Number)),
        ("ub", Value::unknown(Type::Bool)),
        ("ul", Value::unknown(Type::list(Type::String))),
        ("ust", Value::unknown(Type::set(Type::String))),
        ("ulo", Value::unknown(Type::list(ab.clone()))),
        (
            "ut",
            Value::unknown(Type::Tuple(vec![Type::String, Type::Number])),
        ),
        ("uo", Value::unknown(ab.clone())),
        ("um", Value::unknown(Type::map(Type::String))),
        ("ns", Value::Null(Type::String)),
        ("nn", Value::Null(Type::Number)),
        ("nb", Value::Null(Type::Bool)),
        ("nl", Value::Null(Type::list(Type::String))),
        ("nt", Value::Null(Type::Tuple(vec![Type::String]))),
        ("no", Value::Null(ab)),
        ("nm", Value::Null(Type::map(Type::String))),
        (
            "lu",
            Value::list(Type::String, vec![s("a"), Value::unknown(Type::String)]),
        ),
        (
            "ou",
            obj(&[("a", Value::unknown(Type::String)), ("b", s("x"))]),
        ),
        ("tu", Value::tuple(vec![num(1), Value::dynamic_unknown()])),
        (
            "ln2",
            Value::list(
                Type::list(Type::Number),
                vec![
                    Value::list(Type::Number, vec![num(1)]),
                    Value::list(Type::Number, vec![]),
                ],
            ),
        ),
        (
            "sdup",
            Value::list(Type::String, vec![s("a"), s("b"), s("a")]),
        ),
        (
            "ld",
            Value::list(
                Type::Dynamic,
                vec![Value::Null(Type::Dynamic), Value::dynamic_unknown()],
            ),
        ),
        (
            "lnull",
            Value::list(Type::String, vec![s("a"), Value::Null(Type::String)]),
        ),
        ("inf", Value::number(Number::infinity(false))),
        ("ninf", Value::number(Number::infinity(true))),
    ];
    Context {
        variables: std::sync::Arc::new(vars.into_iter().map(|(k, v)| (k.to_string(), v)).collect()),
        version,
        base_dir: None,
    }
}

/// Parses and evaluates an expression (`t:` prefix: a template) and
/// renders the outcome.
pub(crate) fn run(source: &str, version: HclVersion) -> String {
    let ctx = scope(version);
    let parsed = match source.strip_prefix("t:") {
        Some(template) => parser::parse_template(template),
        None => parser::parse_expression(source),
    };
    let expr = match parsed {
        Ok(e) => e,
        Err(e) => return format!("PARSE {} @ {}", e.summary, span(e.span)),
    };
    match evaluate(&expr, &ctx) {
        Ok(v) => format!("OK {} {}", ty(&v.ty()), value(&v)),
        Err(e) => format!("ERR {} @ {}", e.summary, span(e.span)),
    }
}

/// Checks a table of `(source, expected rendering)` rows, reporting every
/// mismatch at once.
pub(crate) fn check_table(rows: &[(&str, &str)], version: HclVersion) {
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|(source, want)| {
            let got = run(source, version);
            (got != *want).then(|| format!("{source}\n   want {want}\n   got  {got}"))
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn pos(p: Pos) -> String {
    format!("{}:{}:{}", p.line, p.column, p.byte)
}

fn span(s: Span) -> String {
    format!("{}-{}", pos(s.start), pos(s.end))
}

pub(crate) fn ty(t: &Type) -> String {
    match t {
        Type::Dynamic => "dynamic".into(),
        Type::String => "string".into(),
        Type::Number => "number".into(),
        Type::Bool => "bool".into(),
        Type::List(e) => format!("list({})", ty(e)),
        Type::Set(e) => format!("set({})", ty(e)),
        Type::Map(e) => format!("map({})", ty(e)),
        Type::Tuple(es) => format!(
            "tuple([{}])",
            es.iter().map(ty).collect::<Vec<_>>().join(",")
        ),
        Type::Object(attrs) => format!(
            "object({{{}}})",
            attrs
                .iter()
                .map(|(k, t)| format!("{}={}", quote(k), ty(t)))
                .collect::<Vec<_>>()
                .join(",")
        ),
        Type::Optional(t) => format!("optional({})", ty(t)),
    }
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub(crate) fn value(v: &Value) -> String {
    let seq = |items: &[Value]| items.iter().map(value).collect::<Vec<_>>().join(", ");
    let pairs = |items: &BTreeMap<String, Value>| {
        items
            .iter()
            .map(|(k, v)| format!("{}: {}", quote(k), value(v)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match v {
        Value::Unknown(t, ..) => format!("unknown({})", ty(t)),
        Value::Null(t) => format!("null({})", ty(t)),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.text(),
        Value::String(s) => quote(s),
        Value::List { elem, items } => format!("list<{}>[{}]", ty(elem), seq(items)),
        Value::Set { elem, items } => format!("set<{}>[{}]", ty(elem), seq(items)),
        Value::Tuple(items) => format!("tuple[{}]", seq(items)),
        Value::Map { elem, items } => format!("map<{}>{{{}}}", ty(elem), pairs(items)),
        Value::Object(attrs) => format!("object{{{}}}", pairs(attrs)),
        Value::Marked(inner) => format!("sensitive({})", value(inner)),
    }
}
