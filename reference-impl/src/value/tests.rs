//! Value model tables; every expected result was produced by go-cty 1.12.1
//! (`cty.SetVal` iteration order, `Value.Length`, `Value.RawEquals`) on the
//! same input. Set inputs are listed in insertion order.

use serde_json::json;

use crate::json::test_support::{document, parse, value};
use crate::number::Number;
use crate::types::Type;
use crate::value::{PathStep, Value};

/// (operation, value, second value, expected).
const ROWS: &[(&str, &str, &str, &str)] = &[
    (
        "value",
        r#"{"type":["set","string"],"value":["b","a","B","é","e\u0301",null,"a"],"unknown":[[5]]}"#,
        r#""#,
        r#"{"type":["set","string"],"unknown":[[4]],"value":["B","a","b","é",null]}"#,
    ),
    (
        "value",
        r#"{"type":["set","number"],"value":[10,9,"Infinity",-0,0,1.5,2,null,null,"-Infinity"],"unknown":[[8]]}"#,
        r#""#,
        r#"{"type":["set","number"],"unknown":[[8]],"value":["-Infinity",-0,0,1.5,2,9,10,"Infinity",null,null]}"#,
    ),
    (
        "value",
        r#"{"type":["set","bool"],"value":[true,false,null,true],"unknown":[]}"#,
        r#""#,
        r#"{"type":["set","bool"],"unknown":[],"value":[false,true,null]}"#,
    ),
    (
        "value",
        r#"{"type":["set",["tuple",["number"]]],"value":[[10],[9],[1e10],[1e9],[0.00001],[0.0001],[-1],[123456789012]],"unknown":[]}"#,
        r#""#,
        r#"{"type":["set",["tuple",["number"]]],"unknown":[],"value":[[-1],[0.0001],[123456789012],[1000000000],[10],[10000000000],[0.00001],[9]]}"#,
    ),
    (
        "value",
        r#"{"type":["set",["tuple",["number"]]],"value":[[1.0000000005],[1.000000001],[1234567890.5],[1234567890]],"unknown":[]}"#,
        r#""#,
        r#"{"type":["set",["tuple",["number"]]],"unknown":[],"value":[[1.000000001],[1234567890.5],[1234567890],[1.0000000005]]}"#,
    ),
    (
        "value",
        r#"{"type":["set",["object",{"s":"string"}]],"value":[{"s":"b"},{"s":"\u00a0"},{"s":"a\"b"},{"s":"\t"},{"s":"Z"},{"s":null}],"unknown":[]}"#,
        r#""#,
        r#"{"type":["set",["object",{"s":"string"}]],"unknown":[],"value":[{"s":"Z"},{"s":"\t"},{"s":" "},{"s":"a\"b"},{"s":"b"},{"s":null}]}"#,
    ),
    (
        "value",
        r#"{"type":["set",["list","bool"]],"value":[[true,false],[false],[],null,[true,null],null],"unknown":[[5],[4,1]]}"#,
        r#""#,
        r#"{"type":["set",["list","bool"]],"unknown":[[1,1],[4]],"value":[[false],[true,null],[true,false],[],null,null]}"#,
    ),
    (
        "value",
        r#"{"type":["set",["map","string"]],"value":[{"b":"1"},{"a":"2"},{},{"a":"1","b":"1"}],"unknown":[]}"#,
        r#""#,
        r#"{"type":["set",["map","string"]],"unknown":[],"value":[{"a":"1","b":"1"},{"a":"2"},{"b":"1"},{}]}"#,
    ),
    (
        "value",
        r#"{"type":["set",["set","number"]],"value":[[3,1],[1,3],[2],[]],"unknown":[]}"#,
        r#""#,
        r#"{"type":["set",["set","number"]],"unknown":[],"value":[[1,3],[2],[]]}"#,
    ),
    (
        "length",
        r#"{"type":["set","string"],"value":["a",null,null],"unknown":[[1],[2]]}"#,
        r#""#,
        r#"{"type":"number","unknown":[[]],"value":null}"#,
    ),
    (
        "length",
        r#"{"type":["set","string"],"value":[null],"unknown":[[0]]}"#,
        r#""#,
        r#"{"type":"number","unknown":[],"value":1}"#,
    ),
    (
        "length",
        r#"{"type":["set",["tuple",["string"]]],"value":[["a"],[null]],"unknown":[[1,0]]}"#,
        r#""#,
        r#"{"type":"number","unknown":[[]],"value":null}"#,
    ),
    (
        "rawequals",
        r#"{"type":["set","string"],"value":[null,"a"],"unknown":[[0]]}"#,
        r#"{"type":["set","string"],"value":["a",null],"unknown":[[1]]}"#,
        r#"true"#,
    ),
    (
        "rawequals",
        r#"{"type":["list","number"],"value":[1.0],"unknown":[]}"#,
        r#"{"type":["list","number"],"value":[1],"unknown":[]}"#,
        r#"true"#,
    ),
    (
        "rawequals",
        r#"{"type":["map","string"],"value":{"a":null},"unknown":[]}"#,
        r#"{"type":["map","string"],"value":{"a":null},"unknown":[[ "a"]]}"#,
        r#"false"#,
    ),
];

#[test]
fn sets_order_and_compare_like_cty() {
    for (op, a, b, expected) in ROWS {
        let got = match *op {
            "value" => document(&value(a)),
            "length" => document(&value(a).length_value().expect("a set")),
            "rawequals" => json!(value(a).raw_equals(&value(b))),
            _ => unreachable!("unknown table operation {op}"),
        };
        assert_eq!(got, parse(expected), "{op} {a}");
    }
}

#[test]
fn float_strings_like_go() {
    // big.Float.String of numbers parsed at 512 bits, from Go.
    let rows = [
        ("0", "0"),
        ("-0", "-0"),
        ("123456789", "123456789"),
        ("1234567890", "1234567890"),
        ("12345678901", "1.23456789e+10"),
        ("0.0001", "0.0001"),
        ("0.00001", "1e-05"),
        ("1.0000000005", "1"),
        ("1.0000000015", "1.000000002"),
        ("1234567890.5", "1234567890"),
        ("1234567891.5", "1234567892"),
        ("99999999995", "1e+11"),
        ("-2.5e-300", "-2.5e-300"),
    ];
    for (input, want) in rows {
        let n = Number::parse(input).expect("number");
        assert_eq!(super::set::go_float_string(&n), want, "{input}");
    }
    assert_eq!(super::set::go_float_string(&Number::infinity(true)), "-Inf");
}

#[test]
fn unknown_paths_and_accessors() {
    let v = value(
        r#"{"type":["object",{"l":["list","string"],"m":["map","bool"]}],
            "value":{"l":["a",null],"m":{"k":null}},"unknown":[["l",1],["m","k"]]}"#,
    );
    assert_eq!(
        v.unknown_paths(),
        vec![
            vec![PathStep::Key("l".into()), PathStep::Index(1)],
            vec![PathStep::Key("m".into()), PathStep::Key("k".into())],
        ]
    );
    assert!(!v.is_wholly_known());
    let list = v.get_attr("l").expect("attribute");
    assert_eq!(
        list.index(&Value::int(0)).as_ref().and_then(Value::as_str),
        Some("a")
    );
    assert!(list.index(&Value::int(2)).is_none());
    assert!(matches!(
        list.has_index(&Value::unknown(Type::Number)),
        Some(Value::Unknown(Type::Bool, ..))
    ));
    assert!(Value::unknown(Type::Dynamic).get_attr("x").is_some());
    assert_eq!(Value::string("e\u{301}").as_str(), Some("\u{e9}"));
}
