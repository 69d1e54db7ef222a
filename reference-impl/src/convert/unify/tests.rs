//! Unification table; every expected result was produced by go-cty
//! 1.12.1's `convert.Unify` / `convert.UnifyUnsafe` on the same types.

use serde_json::json;

use super::{unify, unify_unsafe, unify_with_conversions};
use crate::json::test_support::{document, parse, value};
use crate::json::{type_from_json, type_to_json};
use crate::types::Type;

/// (types, unsafe, expected `{"type", "convs"}` or `{"type": null}`).
const ROWS: &[(&str, bool, &str)] = &[
    (
        r#"["number","string"]"#,
        false,
        r#"{"convs":[true,false],"type":"string"}"#,
    ),
    (
        r#"["number","string"]"#,
        true,
        r#"{"convs":[true,false],"type":"string"}"#,
    ),
    (
        r#"["string","bool"]"#,
        true,
        r#"{"convs":[false,true],"type":"string"}"#,
    ),
    (r#"["number","bool"]"#, true, r#"{"type":null}"#),
    (
        r#"["dynamic","number"]"#,
        true,
        r#"{"convs":[true,false],"type":"number"}"#,
    ),
    (
        r#"["dynamic","number"]"#,
        false,
        r#"{"convs":[false,true],"type":"dynamic"}"#,
    ),
    (
        r#"[["list","string"],"dynamic"]"#,
        true,
        r#"{"convs":[true,true],"type":"dynamic"}"#,
    ),
    (
        r#"[["list","number"],["list","string"]]"#,
        false,
        r#"{"convs":[true,false],"type":["list","string"]}"#,
    ),
    (
        r#"[["list","number"],["set","number"]]"#,
        true,
        r#"{"convs":[false,true],"type":["list","number"]}"#,
    ),
    (
        r#"[["tuple",["number","string"]],["tuple",["string","number"]]]"#,
        true,
        r#"{"convs":[true,true],"type":["tuple",["string","string"]]}"#,
    ),
    (
        r#"[["tuple",["number"]],["tuple",["string","number"]]]"#,
        true,
        r#"{"convs":[true,true],"type":["list","string"]}"#,
    ),
    (
        r#"[["tuple",["number"]],["tuple",["bool","number"]]]"#,
        true,
        r#"{"type":null}"#,
    ),
    (
        r#"[["list","string"],["tuple",["number","bool"]]]"#,
        true,
        r#"{"convs":[false,true],"type":["list","string"]}"#,
    ),
    (
        r#"[["object",{"a":"number"}],["object",{"a":"string"}]]"#,
        false,
        r#"{"convs":[true,false],"type":["object",{"a":"string"}]}"#,
    ),
    (
        r#"[["object",{"a":"number"}],["object",{"b":"string"}]]"#,
        false,
        r#"{"convs":[true,true],"type":["map","string"]}"#,
    ),
    (
        r#"[["object",{"a":"number"}],["object",{"b":"bool"}]]"#,
        false,
        r#"{"type":null}"#,
    ),
    (
        r#"[["map","string"],["object",{"a":"number","b":"bool"}]]"#,
        false,
        r#"{"convs":[false,true],"type":["map","string"]}"#,
    ),
    (
        r#"[["object",{"a":"number"}],["tuple",["number"]]]"#,
        true,
        r#"{"type":null}"#,
    ),
    (
        r#"[["map","number"],["list","number"]]"#,
        true,
        r#"{"type":null}"#,
    ),
    (
        r#"[["object",{"a":["tuple",["number"]]}],"dynamic"]"#,
        true,
        r#"{"convs":[true,true],"type":"dynamic"}"#,
    ),
];

#[test]
fn unifies_like_cty() {
    for (types, unsafe_, expected) in ROWS {
        let types: Vec<Type> = parse(types)
            .as_array()
            .expect("array")
            .iter()
            .map(|t| type_from_json(t).expect("type"))
            .collect();
        let result = if *unsafe_ {
            unify_unsafe(&types)
        } else {
            unify(&types)
        };
        let got = match result {
            Some((ty, flags)) => json!({"type": type_to_json(&ty), "convs": flags}),
            None => json!({ "type": null }),
        };
        assert_eq!(got, parse(expected), "{types:?}");
    }
}

/// Applying unify's own conversions, as HCL's conditional does; expected
/// values from go-cty.
#[test]
fn unify_conversions_apply_like_cty() {
    let rows: &[(&str, &str, &str)] = &[
        (
            // A composed conversion: the tuple is checked against
            // list(object) but then converted by the list conversion.
            r#"{"type":["list",["map","string"]],"value":[{"a":"x"}],"unknown":[]}"#,
            r#"{"type":["tuple",[["object",{"a":"number"}],["object",{"a":"string"}]]],"value":[{"a":1},{"a":"x"}],"unknown":[]}"#,
            r#"[{"type":["list",["map","string"]],"unknown":[],"value":[{"a":"x"}]},{"err":"element types must all match for conversion to list"}]"#,
        ),
        (
            r#"{"type":"number","value":12,"unknown":[]}"#,
            r#"{"type":"string","value":"hello","unknown":[]}"#,
            r#"[{"type":"string","unknown":[],"value":"12"},{"type":"string","unknown":[],"value":"hello"}]"#,
        ),
        (
            r#"{"type":["list","string"],"value":["x"],"unknown":[]}"#,
            r#"{"type":"dynamic","value":null,"unknown":[]}"#,
            r#"[{"type":"dynamic","unknown":[[]],"value":null},{"type":"dynamic","unknown":[[]],"value":null}]"#,
        ),
    ];
    for (a, b, expected) in rows {
        let values = [value(a), value(b)];
        let types: Vec<Type> = values.iter().map(|v| v.ty()).collect();
        let (_, convs) = unify_with_conversions(&types, true).expect("unifies");
        let got: Vec<_> = values
            .iter()
            .zip(convs)
            .map(|(v, conv)| match conv.map(|c| c.apply(v)) {
                None => document(v),
                Some(Ok(out)) => document(&out),
                Some(Err(e)) => json!({ "err": e.message }),
            })
            .collect();
        assert_eq!(json!(got), parse(expected), "{a} / {b}");
    }
}

/// cty's sortTypes over every pair of elements, as it is written: the
/// per-type version must order the types' first elements the same way.
fn sort_types_pairwise(types: &[Type]) -> Vec<usize> {
    let n = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n.saturating_sub(1) {
        for j in i + 1..n {
            match super::compare_types(&types[i], &types[j]) {
                c if c < 0 => edges[i].push(j),
                c if c > 0 => edges[j].push(i),
                _ => {}
            }
        }
    }
    let mut in_degree = vec![0usize; n];
    for outs in &edges {
        for &j in outs {
            in_degree[j] += 1;
        }
    }
    let mut result: Vec<usize> = (0..n).filter(|&i| in_degree[i] == 0).collect();
    let mut head = 0;
    while head < result.len() {
        let i = result[head];
        head += 1;
        for &j in &edges[i] {
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                result.push(j);
            }
        }
    }
    result
}

#[test]
fn preference_order_per_type_matches_the_pairwise_sort() {
    let pool = [
        Type::Number,
        Type::String,
        Type::Bool,
        Type::Dynamic,
        Type::list(Type::String),
        Type::list(Type::Number),
        Type::set(Type::String),
        Type::map(Type::Dynamic),
        Type::object([("a", Type::String)]),
        Type::Tuple(vec![Type::Number]),
    ];
    // A fixed pseudo-random sequence of type lists with repeats.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m as u64) as usize
    };
    for _ in 0..2000 {
        let len = 1 + next(12);
        let types: Vec<Type> = (0..len).map(|_| pool[next(pool.len())].clone()).collect();
        let groups = super::TypeGroups::of(&types);
        let mut seen = std::collections::HashSet::new();
        let want: Vec<usize> = sort_types_pairwise(&types)
            .into_iter()
            .map(|i| groups.of_element[i])
            .filter(|g| seen.insert(*g))
            .collect();
        assert_eq!(groups.preference_order(), want, "{types:?}");
    }
}
