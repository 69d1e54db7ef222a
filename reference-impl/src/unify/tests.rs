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
