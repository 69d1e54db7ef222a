//! Types and values for the generated scopes, with pools of edge values.
//!
//! Every pool lists its plain members first: an exhausted input always
//! picks index 0, so running out of bytes degrades to the simplest values.

use std::collections::BTreeMap;

use arbitrary::Unstructured;
use hclspec_reference::{Number, Type, Value};

use super::{chance, pick};
use crate::config::{Construct, Swarm};

/// Numbers every engine holds exactly.
pub const PLAIN_NUMBERS: &[&str] = &[
    "0", "1", "2", "3", "5", "10", "42", "100", "7", "0.5", "1.5", "2.25",
];

/// Numbers at the edges: signed zero, inexact decimals, beyond `f64`,
/// beyond `u64`, beyond 2^53. Exponents stay small: the Go library takes
/// minutes to parse some huge ones.
pub const EDGE_NUMBERS: &[&str] = &[
    "0.1",
    "18446744073709551616",
    "9007199254740993",
    "1e400",
    "-0",
    "0.30000000000000004",
    "123456789012345678901234567890",
    "1e-7",
    "9223372036854775807",
    "-9223372036854775808",
    "0.3333333333333333333333333333",
    "2.5e-3",
    "1e308",
    "-1.5",
];

/// Strings every engine treats alike.
pub const PLAIN_STRINGS: &[&str] = &["a", "", "b", "hello", "x y", "A", "1", "true", "k"];

/// Strings at the edges: combining characters (NFC), multi-code-point
/// graphemes, case-mapping oddities, numeric and boolean look-alikes,
/// template syntax, control characters.
pub const EDGE_STRINGS: &[&str] = &[
    "é",
    "e\u{301}",
    "\u{1F600}",
    "1.5",
    "-0",
    "0x10",
    " 1",
    "1e3",
    "false",
    "null",
    "\n",
    "\t",
    "${x}",
    "%{",
    "a\"b",
    "\\",
    "\u{1F1FA}\u{1F1F8}",
    "\u{3A3}",
    "\u{DF}",
    "\u{130}",
    "\u{1C5}",
    "Infinity",
    "NaN",
];

/// Map keys; `e\u{301}` meets `é` once NFC-normalized.
pub const MAP_KEYS: &[&str] = &["a", "b", "k", "", "1", "A", "a b", "é", "e\u{301}"];

/// Object attribute names: identifiers, keywords, and names only an index
/// can reach.
pub const ATTR_NAMES: &[&str] = &[
    "a", "b", "id", "name", "x", "count", "tags", "for", "if", "null", "a-b", "a b", "é", "_",
];

/// Whether `s` can follow a `.` in a traversal or stand as a bare object
/// key: ASCII letters and `_` first, then also digits and `-`.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A number literal's text from the pools.
pub fn number_text(u: &mut Unstructured<'_>, swarm: &Swarm) -> &'static str {
    if swarm.on(Construct::EdgeNumbers) && chance(u, 30) {
        pick(u, EDGE_NUMBERS)
    } else {
        pick(u, PLAIN_NUMBERS)
    }
}

/// A string from the pools.
pub fn string_text(u: &mut Unstructured<'_>, swarm: &Swarm) -> &'static str {
    if swarm.profile == crate::config::Profile::Terraform && chance(u, 20) {
        return pick(u, super::tf_funcs::TERRAFORM_STRINGS);
    }
    if swarm.on(Construct::EdgeStrings) && chance(u, 30) {
        pick(u, EDGE_STRINGS)
    } else {
        pick(u, PLAIN_STRINGS)
    }
}

/// A type for a scope variable, at most `depth` levels deep.
pub fn gen_type(u: &mut Unstructured<'_>, swarm: &Swarm, depth: u32) -> Type {
    const PRIMITIVE: [Type; 3] = [Type::String, Type::Number, Type::Bool];
    let choice = if depth == 0 {
        0
    } else {
        u.int_in_range(0..=9).unwrap_or(0)
    };
    match choice {
        0..=3 => PRIMITIVE[u.choose_index(3).unwrap_or(0)].clone(),
        4 => Type::list(gen_type(u, swarm, depth - 1)),
        5 if swarm.on(Construct::Sets) => Type::set(gen_primitive(u)),
        6 if swarm.on(Construct::Maps) => Type::map(gen_type(u, swarm, depth - 1)),
        7 => {
            let n = u.int_in_range(0..=3).unwrap_or(0);
            Type::Tuple((0..n).map(|_| gen_type(u, swarm, depth - 1)).collect())
        }
        _ => {
            let n = u.int_in_range(1..=3).unwrap_or(1);
            let mut attrs = BTreeMap::new();
            for _ in 0..n {
                let name = pick(u, ATTR_NAMES);
                attrs.insert(name.to_string(), gen_type(u, swarm, depth - 1));
            }
            Type::object(attrs)
        }
    }
}

fn gen_primitive(u: &mut Unstructured<'_>) -> Type {
    match u.int_in_range(0..=2).unwrap_or(0) {
        0 => Type::String,
        1 => Type::Number,
        _ => Type::Bool,
    }
}

/// A value of type `ty`; null and unknown parts as the swarm allows.
/// `in_set` keeps nulls out of set elements.
pub fn gen_value(u: &mut Unstructured<'_>, swarm: &Swarm, ty: &Type, in_set: bool) -> Value {
    if swarm.on(Construct::Unknowns) && chance(u, swarm.unknown_pct) {
        return Value::unknown(ty.clone());
    }
    if !in_set && swarm.on(Construct::Nulls) && chance(u, swarm.null_pct) {
        return Value::null(ty.clone());
    }
    match ty {
        Type::String => Value::string(string_text(u, swarm)),
        Type::Number => Value::number(parse_number(number_text(u, swarm))),
        Type::Bool => Value::bool(u.arbitrary().unwrap_or(false)),
        Type::List(e) => Value::list((**e).clone(), gen_items(u, swarm, e, false)),
        Type::Set(e) => Value::set((**e).clone(), gen_items(u, swarm, e, true)),
        Type::Map(e) => {
            let n = u.int_in_range(0..=3).unwrap_or(0);
            let mut items = BTreeMap::new();
            for _ in 0..n {
                let key = pick(u, MAP_KEYS).to_string();
                items.insert(key, gen_value(u, swarm, e, false));
            }
            Value::map((**e).clone(), items)
        }
        Type::Tuple(elems) => Value::tuple(
            elems
                .iter()
                .map(|t| gen_value(u, swarm, t, false))
                .collect(),
        ),
        Type::Object(attrs) => Value::object(
            attrs
                .iter()
                .map(|(k, t)| (k.clone(), gen_value(u, swarm, t, false)))
                .collect(),
        ),
        Type::Dynamic => Value::null(Type::Dynamic),
        // Never the type of a value; the generator does not make type
        // constraints.
        Type::Optional(t) => gen_value(u, swarm, t, in_set),
    }
}

fn gen_items(u: &mut Unstructured<'_>, swarm: &Swarm, elem: &Type, in_set: bool) -> Vec<Value> {
    let n = u.int_in_range(0..=3).unwrap_or(0);
    (0..n).map(|_| gen_value(u, swarm, elem, in_set)).collect()
}

/// A pool number; every pool entry parses.
pub fn parse_number(text: &str) -> Number {
    Number::parse(text).unwrap_or_else(Number::zero)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Profile;

    #[test]
    fn pools_parse_and_identifiers_are_recognised() {
        for n in PLAIN_NUMBERS.iter().chain(EDGE_NUMBERS) {
            assert!(Number::parse(n).is_some(), "{n}");
        }
        assert!(is_identifier("a-b") && is_identifier("_") && is_identifier("for"));
        assert!(!is_identifier("a b") && !is_identifier("é") && !is_identifier("1"));
    }

    #[test]
    fn exhausted_input_gives_the_plainest_value() {
        let swarm = Swarm::full(Profile::Go);
        let mut u = Unstructured::new(&[]);
        assert_eq!(gen_type(&mut u, &swarm, 3), Type::String);
        let v = gen_value(&mut u, &swarm, &Type::list(Type::Number), false);
        assert!(v.raw_equals(&Value::list(Type::Number, vec![])));
        let v = gen_value(&mut u, &swarm, &Type::String, false);
        assert_eq!(v.as_str(), Some("a"));
    }

    /// Sets never hold nulls; unknowns only where the profile allows.
    #[test]
    fn values_respect_the_swarm() {
        let data: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
        let mut u = Unstructured::new(&data);
        let swarm = Swarm::full(Profile::HclRs);
        while !u.is_empty() {
            let ty = gen_type(&mut u, &swarm, 2);
            let v = gen_value(&mut u, &swarm, &ty, false);
            assert!(v.is_wholly_known(), "{v:?}");
            assert_eq!(v.ty(), ty);
        }
    }
}
