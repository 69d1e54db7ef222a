//! Operation table; every expected result was produced by go-cty 1.12.1
//! (`Value.Equals`, the comparison methods, and the stdlib arithmetic
//! functions) on the same operands.

use serde_json::json;

use crate::json::test_support::{document, parse, value};

/// (operation, left operand, right operand, expected).
const ROWS: &[(&str, &str, &str, &str)] = &[
    (
        "equals",
        r#"{"type":"string","value":null,"unknown":[]}"#,
        r#"{"type":"number","value":null,"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":true}}"#,
    ),
    (
        "equals",
        r#"{"type":"string","value":null,"unknown":[]}"#,
        r#"{"type":"number","value":null,"unknown":[[]]}"#,
        r#"{"ok":{"type":"bool","unknown":[[]],"value":null}}"#,
    ),
    (
        "equals",
        r#"{"type":"string","value":"a","unknown":[]}"#,
        r#"{"type":"number","value":null,"unknown":[[]]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":false}}"#,
    ),
    (
        "equals",
        r#"{"type":"string","value":"a","unknown":[]}"#,
        r#"{"type":"dynamic","value":null,"unknown":[[]]}"#,
        r#"{"ok":{"type":"bool","unknown":[[]],"value":null}}"#,
    ),
    (
        "equals",
        r#"{"type":"string","value":"a","unknown":[]}"#,
        r#"{"type":"string","value":null,"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":false}}"#,
    ),
    (
        "equals",
        r#"{"type":"number","value":1,"unknown":[]}"#,
        r#"{"type":"string","value":"1","unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":false}}"#,
    ),
    (
        "equals",
        r#"{"type":"number","value":1.0,"unknown":[]}"#,
        r#"{"type":"number","value":1,"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":true}}"#,
    ),
    (
        "equals",
        r#"{"type":"number","value":-0,"unknown":[]}"#,
        r#"{"type":"number","value":0,"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":true}}"#,
    ),
    (
        "equals",
        r#"{"type":["list","string"],"value":["a",null],"unknown":[[1]]}"#,
        r#"{"type":["list","string"],"value":["b","c"],"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":false}}"#,
    ),
    (
        "equals",
        r#"{"type":["list","string"],"value":["a",null],"unknown":[[1]]}"#,
        r#"{"type":["list","string"],"value":["a","c"],"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[[]],"value":null}}"#,
    ),
    (
        "equals",
        r#"{"type":["list","dynamic"],"value":[null],"unknown":[[0]]}"#,
        r#"{"type":["list","string"],"value":["a"],"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[[]],"value":null}}"#,
    ),
    (
        "equals",
        r#"{"type":["list","dynamic"],"value":[null],"unknown":[[0]]}"#,
        r#"{"type":["list","number"],"value":[1,2],"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[[]],"value":null}}"#,
    ),
    (
        "equals",
        r#"{"type":["tuple",["dynamic"]],"value":[null],"unknown":[[0]]}"#,
        r#"{"type":["list","number"],"value":[1],"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":false}}"#,
    ),
    (
        "equals",
        r#"{"type":["set","string"],"value":["a",null],"unknown":[[1]]}"#,
        r#"{"type":["set","string"],"value":["b","c"],"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[[]],"value":null}}"#,
    ),
    (
        "equals",
        r#"{"type":["set",["tuple",["string"]]],"value":[["a"],[null]],"unknown":[[1,0]]}"#,
        r#"{"type":["set",["tuple",["string"]]],"value":[["a"],["b"]],"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":false}}"#,
    ),
    (
        "equals",
        r#"{"type":["map","number"],"value":{"a":1,"b":2},"unknown":[]}"#,
        r#"{"type":["map","number"],"value":{"a":1,"b":2.0},"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":true}}"#,
    ),
    (
        "equals",
        r#"{"type":["object",{"a":"number"}],"value":{"a":1},"unknown":[]}"#,
        r#"{"type":["object",{"a":"number"}],"value":{"a":null},"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":false}}"#,
    ),
    (
        "add",
        r#"{"type":"number","value":"Infinity","unknown":[]}"#,
        r#"{"type":"number","value":"-Infinity","unknown":[]}"#,
        r#"{"err":"can't compute sum of opposing infinities"}"#,
    ),
    (
        "subtract",
        r#"{"type":"number","value":"Infinity","unknown":[]}"#,
        r#"{"type":"number","value":"Infinity","unknown":[]}"#,
        r#"{"err":"can't subtract infinity from itself"}"#,
    ),
    (
        "multiply",
        r#"{"type":"number","value":0,"unknown":[]}"#,
        r#"{"type":"number","value":"-Infinity","unknown":[]}"#,
        r#"{"err":"can't multiply zero by infinity"}"#,
    ),
    (
        "divide",
        r#"{"type":"number","value":0,"unknown":[]}"#,
        r#"{"type":"number","value":0,"unknown":[]}"#,
        r#"{"err":"can't divide zero by zero or infinity by infinity"}"#,
    ),
    (
        "divide",
        r#"{"type":"number","value":-3,"unknown":[]}"#,
        r#"{"type":"number","value":0,"unknown":[]}"#,
        r#"{"ok":{"type":"number","unknown":[],"value":"-Infinity"}}"#,
    ),
    (
        "modulo",
        r#"{"type":"number","value":"Infinity","unknown":[]}"#,
        r#"{"type":"number","value":0,"unknown":[]}"#,
        r#"{"err":"can't use modulo with zero and infinity"}"#,
    ),
    (
        "modulo",
        r#"{"type":"number","value":7,"unknown":[]}"#,
        r#"{"type":"number","value":-3,"unknown":[]}"#,
        r#"{"ok":{"type":"number","unknown":[],"value":1}}"#,
    ),
    (
        "add",
        r#"{"type":"number","value":0.1,"unknown":[]}"#,
        r#"{"type":"number","value":0.2,"unknown":[]}"#,
        r#"{"ok":{"type":"number","unknown":[],"value":0.3}}"#,
    ),
    (
        "lt",
        r#"{"type":"number","value":1,"unknown":[]}"#,
        r#"{"type":"number","value":null,"unknown":[[]]}"#,
        r#"{"ok":{"type":"bool","unknown":[[]],"value":null}}"#,
    ),
    (
        "le",
        r#"{"type":"number","value":2,"unknown":[]}"#,
        r#"{"type":"number","value":2.0,"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":true}}"#,
    ),
    (
        "gt",
        r#"{"type":"number","value":"Infinity","unknown":[]}"#,
        r#"{"type":"number","value":1e300,"unknown":[]}"#,
        r#"{"ok":{"type":"bool","unknown":[],"value":true}}"#,
    ),
];

#[test]
fn operates_like_cty() {
    for (op, a, b, expected) in ROWS {
        let (a, b) = (value(a), value(b));
        let result = match *op {
            "equals" => Ok(a.equals(&b)),
            "add" => a.add(&b),
            "subtract" => a.subtract(&b),
            "multiply" => a.multiply(&b),
            "divide" => a.divide(&b),
            "modulo" => a.modulo(&b),
            "lt" => Ok(a.less_than(&b)),
            "le" => Ok(a.less_than_or_equal_to(&b)),
            "gt" => Ok(a.greater_than(&b)),
            _ => unreachable!("unknown table operation {op}"),
        };
        let got = match result {
            Ok(v) => json!({ "ok": document(&v) }),
            Err(e) => json!({ "err": e.0 }),
        };
        assert_eq!(got, parse(expected), "{op} {a:?} {b:?}");
    }
}
