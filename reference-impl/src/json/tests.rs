//! JSON codec tables. Rows marked as cty's were checked against go-cty
//! 1.12.1's `json.Unmarshal` / `json.UnmarshalType`; the others pin this
//! crate's protocol extensions (infinities, unknown paths).

use serde_json::json;

use super::test_support::{document, parse, value};
use super::{type_from_json, value_from_json, value_to_json};
use crate::json::path_to_json;
use crate::types::Type;
use crate::value::{PathStep, Value};

/// cty's Unmarshal: (type, JSON value, expected outcome).
const UNMARSHAL_ROWS: &[(&str, &str, &str)] = &[
    (
        r#""number""#,
        r#""12""#,
        r#"{"ok":{"type":"number","unknown":[],"value":12}}"#,
    ),
    (
        r#""number""#,
        r#""abc""#,
        r#"{"err":"a number is required"}"#,
    ),
    (r#""number""#, r#"true"#, r#"{"err":"number is required"}"#),
    (
        r#""number""#,
        r#"1.50"#,
        r#"{"ok":{"type":"number","unknown":[],"value":1.5}}"#,
    ),
    (
        r#""number""#,
        r#""Inf""#,
        r#"{"ok":{"type":"number","unknown":[],"value":"Infinity"}}"#,
    ),
    (
        r#""number""#,
        r#""1p3""#,
        r#"{"ok":{"type":"number","unknown":[],"value":8}}"#,
    ),
    (
        r#""string""#,
        r#"1.50"#,
        r#"{"ok":{"type":"string","unknown":[],"value":"1.50"}}"#,
    ),
    (
        r#""string""#,
        r#"-0"#,
        r#"{"ok":{"type":"string","unknown":[],"value":"-0"}}"#,
    ),
    (
        r#""string""#,
        r#"true"#,
        r#"{"ok":{"type":"string","unknown":[],"value":"true"}}"#,
    ),
    (
        r#""string""#,
        r#""e\u0301""#,
        r#"{"ok":{"type":"string","unknown":[],"value":"é"}}"#,
    ),
    (
        r#""bool""#,
        r#""1""#,
        r#"{"ok":{"type":"bool","unknown":[],"value":true}}"#,
    ),
    (
        r#""bool""#,
        r#""TRUE""#,
        r#"{"err":"a bool is required; to convert from string, use lowercase \"true\""}"#,
    ),
    (r#""bool""#, r#"1"#, r#"{"err":"bool is required"}"#),
    (
        r#"["list","string"]"#,
        r#"{}"#,
        r#"{"err":"missing expected ["}"#,
    ),
    (
        r#"["list","string"]"#,
        r#"[1,true,"x",null]"#,
        r#"{"ok":{"type":["list","string"],"unknown":[],"value":["1","true","x",null]}}"#,
    ),
    (
        r#"["set","number"]"#,
        r#"[1,"1",1.0,2]"#,
        r#"{"ok":{"type":["set","number"],"unknown":[],"value":[1,2]}}"#,
    ),
    (
        r#"["tuple",["string","number"]]"#,
        r#"["a",1,2]"#,
        r#"{"err":"too many tuple elements (need 2)"}"#,
    ),
    (
        r#"["object",{"a":"string"}]"#,
        r#"{"b":1}"#,
        r#"{"err":"unsupported attribute \"b\""}"#,
    ),
    (
        r#"["object",{"a":"string","b":"number"}]"#,
        r#"{"b":1}"#,
        r#"{"ok":{"type":["object",{"a":"string","b":"number"}],"unknown":[],"value":{"a":null,"b":1}}}"#,
    ),
    (
        r#""dynamic""#,
        r#"{"value":"x","type":"string"}"#,
        r#"{"ok":{"type":"string","unknown":[],"value":"x"}}"#,
    ),
    (
        r#""dynamic""#,
        r#"{"type":"string"}"#,
        r#"{"err":"missing value in dynamically-typed value"}"#,
    ),
    (
        r#""dynamic""#,
        r#"{"value":1,"type":"number","x":1}"#,
        r#"{"err":"invalid key \"x\" in dynamically-typed value"}"#,
    ),
    (
        r#""dynamic""#,
        r#"{"value":1,"type":"nope"}"#,
        r#"{"err":"failed to decode type for dynamic value: invalid primitive type name \"nope\""}"#,
    ),
    (
        r#"["list","dynamic"]"#,
        r#"[{"value":"x","type":"string"},null]"#,
        r#"{"ok":{"type":["list","string"],"unknown":[],"value":["x",null]}}"#,
    ),
    (
        r#"["list","dynamic"]"#,
        r#"[null,null]"#,
        r#"{"ok":{"type":["list","dynamic"],"unknown":[],"value":[null,null]}}"#,
    ),
    (
        r#"["object",{"a":"dynamic"}]"#,
        r#"{"a":{"value":[1,"a"],"type":["tuple",["number","string"]]}}"#,
        r#"{"ok":{"type":["object",{"a":["tuple",["number","string"]]}],"unknown":[],"value":{"a":[1,"a"]}}}"#,
    ),
];

#[test]
fn unmarshals_like_cty() {
    for (ty, body, expected) in UNMARSHAL_ROWS {
        let ty = type_from_json(&parse(ty)).expect("type");
        let got = match value_from_json(&ty, &parse(body), &[]) {
            Ok(v) => json!({ "ok": document(&v) }),
            Err(e) => json!({ "err": e.message }),
        };
        assert_eq!(got, parse(expected), "{body}");
    }
}

#[test]
fn types_decode_like_cty() {
    let rows = [
        (r#""strin""#, Err("invalid primitive type name \"strin\"")),
        (r#"["lst","string"]"#, Err("invalid complex type kind name")),
        (r#"[1,"string"]"#, Err("invalid complex type kind name")),
        (
            r#"["list","string","x"]"#,
            Err("unexpected extra data in type description"),
        ),
        (r#"{}"#, Err("invalid complex type description")),
        (r#"["tuple",null]"#, Ok(r#"["tuple",[]]"#)),
        (r#"["object",null]"#, Ok(r#"["object",{}]"#)),
        (r#"["map",["set","bool"]]"#, Ok(r#"["map",["set","bool"]]"#)),
    ];
    for (input, expected) in rows {
        let got = type_from_json(&parse(input)).map(|t| super::type_to_json(&t));
        match expected {
            Ok(out) => assert_eq!(got.expect(input), parse(out), "{input}"),
            Err(message) => assert_eq!(got.expect_err(input).message, message, "{input}"),
        }
    }
}

#[test]
fn unknown_paths_round_trip() {
    // A set of objects with an unknown attribute and an unknown element:
    // unknown elements sort after known ones (cty's set order).
    let v = value(
        r#"{"type":["set",["object",{"a":"number","b":"string"}]],
            "value":[null,{"a":2,"b":null},{"a":1,"b":"x"}],
            "unknown":[[0],[1,"b"]]}"#,
    );
    let (body, unknown) = value_to_json(&v);
    assert_eq!(body, parse(r#"[{"a":1,"b":"x"},{"a":2,"b":null},null]"#));
    let paths: Vec<_> = unknown.iter().map(|p| path_to_json(p)).collect();
    assert_eq!(json!(paths), parse(r#"[[1,"b"],[2]]"#));
    let ty = v.ty();
    let back = value_from_json(&ty, &body, &unknown).expect("decodes");
    assert!(back.raw_equals(&v));
}

#[test]
fn protocol_extensions() {
    let inf = value(r#"{"type":"number","value":"-Infinity","unknown":[]}"#);
    assert_eq!(value_to_json(&inf).0, json!("-Infinity"));
    let exact =
        value(r#"{"type":"number","value":0.1000000000000000055511151231257827,"unknown":[]}"#);
    assert_eq!(
        value_to_json(&exact).0,
        parse("0.1000000000000000055511151231257827")
    );
    // An unknown position must hold null and must exist.
    let err = value_from_json(&Type::String, &json!("x"), &[vec![]]).expect_err("not null");
    assert_eq!(err.message, "an unknown value must be written as null");
    let missing = vec![PathStep::Index(3)];
    let err = value_from_json(&Type::list(Type::Bool), &json!([true]), &[missing])
        .expect_err("no such element");
    assert_eq!(err.path, "[3]");
    let whole = value_from_json(&Type::Dynamic, &json!(null), &[vec![]]).expect("unknown");
    assert!(whole.raw_equals(&Value::dynamic_unknown()));
}
