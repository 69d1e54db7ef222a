//! Conversion table; every expected result was produced by go-cty 1.12.1's
//! `convert.Convert` on the same input.

use serde_json::json;

use super::convert;
use crate::json::test_support::{document, parse, value};
use crate::json::{path_to_json, type_from_json};

/// (input value document, target type, expected outcome).
const ROWS: &[(&str, &str, &str)] = &[
    (
        r#"{"type":"number","value":1.50,"unknown":[]}"#,
        r#""string""#,
        r#"{"ok":{"type":"string","unknown":[],"value":"1.5"}}"#,
    ),
    (
        r#"{"type":"number","value":"-Infinity","unknown":[]}"#,
        r#""string""#,
        r#"{"ok":{"type":"string","unknown":[],"value":"-Inf"}}"#,
    ),
    (
        r#"{"type":"string","value":"12e1","unknown":[]}"#,
        r#""number""#,
        r#"{"ok":{"type":"number","unknown":[],"value":120}}"#,
    ),
    (
        r#"{"type":"string","value":"hello","unknown":[]}"#,
        r#""number""#,
        r#"{"err":"a number is required","path":[]}"#,
    ),
    (
        r#"{"type":"string","value":"1","unknown":[]}"#,
        r#""bool""#,
        r#"{"ok":{"type":"bool","unknown":[],"value":true}}"#,
    ),
    (
        r#"{"type":"string","value":"TRUE","unknown":[]}"#,
        r#""bool""#,
        r#"{"err":"a bool is required; to convert from string, use lowercase \"true\"","path":[]}"#,
    ),
    (
        r#"{"type":"string","value":"no","unknown":[]}"#,
        r#""bool""#,
        r#"{"err":"a bool is required","path":[]}"#,
    ),
    (
        r#"{"type":"bool","value":true,"unknown":[]}"#,
        r#""number""#,
        r#"{"err":"number required","path":[]}"#,
    ),
    (
        r#"{"type":"number","value":null,"unknown":[]}"#,
        r#""string""#,
        r#"{"ok":{"type":"string","unknown":[],"value":null}}"#,
    ),
    (
        r#"{"type":"dynamic","value":null,"unknown":[[]]}"#,
        r#"["list","string"]"#,
        r#"{"ok":{"type":["list","string"],"unknown":[[]],"value":null}}"#,
    ),
    (
        r#"{"type":["tuple",["number","string",["map","bool"]]],"value":null,"unknown":[[]]}"#,
        r#"["tuple",["string","dynamic",["map","dynamic"]]]"#,
        r#"{"ok":{"type":["tuple",["string","string",["map","bool"]]],"unknown":[[]],"value":null}}"#,
    ),
    (
        r#"{"type":["tuple",["number","string","bool"]],"value":[1,"a",true],"unknown":[]}"#,
        r#"["list","dynamic"]"#,
        r#"{"ok":{"type":["list","string"],"unknown":[],"value":["1","a","true"]}}"#,
    ),
    (
        r#"{"type":["tuple",["number",["list","string"]]],"value":[1,["a"]],"unknown":[]}"#,
        r#"["list","dynamic"]"#,
        r#"{"err":"all list elements must have the same type","path":[]}"#,
    ),
    (
        r#"{"type":["tuple",["string","string","number"]],"value":["b","a","2"],"unknown":[]}"#,
        r#"["set","string"]"#,
        r#"{"ok":{"type":["set","string"],"unknown":[],"value":["2","a","b"]}}"#,
    ),
    (
        r#"{"type":["list","string"],"value":["a","b","a"],"unknown":[]}"#,
        r#"["set","string"]"#,
        r#"{"ok":{"type":["set","string"],"unknown":[],"value":["a","b"]}}"#,
    ),
    (
        r#"{"type":["set","string"],"value":["b","c",null],"unknown":[[2]]}"#,
        r#"["list","string"]"#,
        r#"{"ok":{"type":["list","string"],"unknown":[[]],"value":null}}"#,
    ),
    (
        r#"{"type":["set","string"],"value":["b",null],"unknown":[[1]]}"#,
        r#"["list","number"]"#,
        r#"{"ok":{"type":["list","string"],"unknown":[[]],"value":null}}"#,
    ),
    (
        r#"{"type":["object",{"a":"number","b":"string"}],"value":{"a":1,"b":"x"},"unknown":[]}"#,
        r#"["map","dynamic"]"#,
        r#"{"ok":{"type":["map","string"],"unknown":[],"value":{"a":"1","b":"x"}}}"#,
    ),
    (
        r#"{"type":["object",{"a":"number","b":["list","string"]}],"value":{"a":1,"b":["x"]},"unknown":[]}"#,
        r#"["map","dynamic"]"#,
        r#"{"err":"all map elements must have the same type","path":[]}"#,
    ),
    (
        r#"{"type":["object",{"a":["tuple",["number"]],"b":["list","string"]}],"value":{"a":[1],"b":["x"]},"unknown":[]}"#,
        r#"["map","dynamic"]"#,
        r#"{"ok":{"type":["map",["list","string"]],"unknown":[],"value":{"a":["1"],"b":["x"]}}}"#,
    ),
    (
        r#"{"type":["object",{"a":"number","b":"string","c":"bool"}],"value":{"a":1,"b":"x","c":true},"unknown":[]}"#,
        r#"["object",{"a":"string","c":"string"}]"#,
        r#"{"ok":{"type":["object",{"a":"string","c":"string"}],"unknown":[],"value":{"a":"1","c":"true"}}}"#,
    ),
    (
        r#"{"type":["object",{"a":"number"}],"value":{"a":1},"unknown":[]}"#,
        r#"["object",{"a":"string","b":"string","c":"bool"}]"#,
        r#"{"err":"attributes \"b\" and \"c\" are required","path":[]}"#,
    ),
    (
        r#"{"type":["object",{"a":"number","b":["list","string"]}],"value":{"a":1,"b":[]},"unknown":[]}"#,
        r#"["object",{"a":"bool","b":["list","number"]}]"#,
        r#"{"err":"attribute \"a\": bool required","path":[]}"#,
    ),
    (
        r#"{"type":["map","string"],"value":{"a":"1","b":"x"},"unknown":[]}"#,
        r#"["object",{"a":"number","c":"string"}]"#,
        r#"{"err":"map has no element for required attribute \"c\"","path":[]}"#,
    ),
    (
        r#"{"type":["map","string"],"value":{"a":"1","b":"x"},"unknown":[]}"#,
        r#"["object",{"a":"number","b":"number"}]"#,
        r#"{"err":"a number is required","path":["b"]}"#,
    ),
    (
        r#"{"type":["map","string"],"value":{"a":"1"},"unknown":[]}"#,
        r#"["map","string"]"#,
        r#"{"ok":{"type":["map","string"],"unknown":[],"value":{"a":"1"}}}"#,
    ),
    (
        r#"{"type":["map","number"],"value":{"a":1},"unknown":[]}"#,
        r#"["map","string"]"#,
        r#"{"ok":{"type":["map","string"],"unknown":[],"value":{"a":"1"}}}"#,
    ),
    (
        r#"{"type":["list",["map","string"]],"value":[{"a":"1"},{"a":"x"}],"unknown":[]}"#,
        r#"["list",["map","number"]]"#,
        r#"{"err":"a number is required","path":[1,"a"]}"#,
    ),
    (
        r#"{"type":["list","string"],"value":[],"unknown":[]}"#,
        r#"["list","dynamic"]"#,
        r#"{"ok":{"type":["list","string"],"unknown":[],"value":[]}}"#,
    ),
    (
        r#"{"type":["tuple",[]],"value":[],"unknown":[]}"#,
        r#"["set","dynamic"]"#,
        r#"{"ok":{"type":["set","dynamic"],"unknown":[],"value":[]}}"#,
    ),
    (
        r#"{"type":["tuple",["number","bool"]],"value":[1,true],"unknown":[]}"#,
        r#"["list","dynamic"]"#,
        r#"{"err":"all list elements must have the same type","path":[]}"#,
    ),
    (
        r#"{"type":["tuple",["number","bool"]],"value":[1,true],"unknown":[]}"#,
        r#"["set","number"]"#,
        r#"{"err":"element 1: number required","path":[]}"#,
    ),
    (
        r#"{"type":["object",{"x":"bool"}],"value":{"x":true},"unknown":[]}"#,
        r#"["map",["list","string"]]"#,
        r#"{"err":"element \"x\": list of string required","path":[]}"#,
    ),
    (
        r#"{"type":["list",["set","bool"]],"value":[],"unknown":[]}"#,
        r#"["set",["map","bool"]]"#,
        r#"{"err":"incorrect set element type: map of bool required","path":[]}"#,
    ),
    (
        r#"{"type":["tuple",["dynamic","string"]],"value":[null,"a"],"unknown":[]}"#,
        r#"["list","dynamic"]"#,
        r#"{"ok":{"type":["list","string"],"unknown":[],"value":[null,"a"]}}"#,
    ),
    (
        r#"{"type":["tuple",["dynamic","dynamic"]],"value":[null,null],"unknown":[[1]]}"#,
        r#"["list","dynamic"]"#,
        r#"{"ok":{"type":["list","dynamic"],"unknown":[[1]],"value":[null,null]}}"#,
    ),
    (
        r#"{"type":["list","dynamic"],"value":[null],"unknown":[[0]]}"#,
        r#"["list",["object",{"a":"string"}]]"#,
        r#"{"ok":{"type":["list",["object",{"a":"string"}]],"unknown":[[0]],"value":[null]}}"#,
    ),
];

#[test]
fn converts_like_cty() {
    for (input, want, expected) in ROWS {
        let v = value(input);
        let want_ty = type_from_json(&parse(want)).expect("type");
        let got = match convert(&v, &want_ty) {
            Ok(out) => json!({ "ok": document(&out) }),
            Err(e) => json!({ "err": e.message, "path": path_to_json(&e.path) }),
        };
        assert_eq!(got, parse(expected), "{input} -> {want}");
    }
}

// Expected texts from the oracles (the indexes from Go 1.19's big.Float):
// go-cty 1.18 through Terraform 1.15.5
// (the HCL 2.24 profile) names both types where go-cty 1.12.1 names one,
// and Terraform writes a variable default's error with its path.
#[test]
fn messages_of_each_profile() {
    use crate::HclVersion;
    let tuple = value(r#"{"type":["tuple",["number"]],"value":[1]}"#);
    let in_2_14 =
        super::with_messages_of(HclVersion::V2_14, || convert(&tuple, &crate::Type::String));
    assert_eq!(in_2_14.unwrap_err().message, "string required");
    let in_2_24 =
        super::with_messages_of(HclVersion::V2_24, || convert(&tuple, &crate::Type::String));
    assert_eq!(
        in_2_24.unwrap_err().message,
        "string required, but have tuple"
    );

    let list = value(r#"{"type":["tuple",["number","string"]],"value":[1,"x"]}"#);
    let want = type_from_json(&parse(r#"["list","number"]"#)).expect("type");
    let e = convert(&list, &want).unwrap_err();
    assert_eq!(
        e.with_terraform_path(&list, &want),
        "[1]: a number is required"
    );
    let map = value(r#"{"type":["object",{"b":"string"}],"value":{"b":"x"}}"#);
    let want = type_from_json(&parse(r#"["map","number"]"#)).expect("type");
    let e = convert(&map, &want).unwrap_err();
    assert_eq!(
        e.with_terraform_path(&map, &want),
        r#"["b"]: a number is required"#
    );
}

#[test]
fn indexes_are_written_as_go_writes_big_floats() {
    let rows = [
        (0, "0"),
        (999_999, "999999"),
        (1_000_000, "1e+06"),
        (1_250_000, "1.25e+06"),
    ];
    for (n, want) in rows {
        assert_eq!(super::go_shortest_g(n), want);
    }
}
