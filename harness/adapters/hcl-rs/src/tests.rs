use serde_json::json;

use super::*;

/// Answers one line and returns the response as JSON.
fn ask(line: &str) -> Json {
    answer_line(line).expect("an answer").to_json()
}

fn expr(source: &str, scope: Json) -> String {
    json!({"id": "t", "kind": "expression", "source": source, "scope": scope}).to_string()
}

#[test]
fn results_round_trip() {
    let cases: &[(&str, Json, Json)] = &[
        ("1 + 2", json!({}), json!({"type": "number", "value": 3})),
        (
            "x",
            json!({"x": {"type": ["list", "number"], "value": [1, 2.5, 18446744073709551615u64]}}),
            json!({"type": ["tuple", ["number", "number", "number"]],
                   "value": [1, 2.5, 18446744073709551615u64]}),
        ),
        (
            "x.a",
            json!({"x": {"type": ["map", "string"], "value": {"a": "b"}}}),
            json!({"type": "string", "value": "b"}),
        ),
        (
            "{a = null, b = [true]}",
            json!({}),
            json!({"type": ["object", {"a": "dynamic", "b": ["tuple", ["bool"]]}],
                   "value": {"a": null, "b": [true]}}),
        ),
        (
            "-9223372036854775808",
            json!({}),
            json!({"type": "number", "value": -9223372036854775808i64}),
        ),
    ];
    for (source, scope, result) in cases {
        let answer = ask(&expr(source, scope.clone()));
        assert_eq!(answer, json!({"id": "t", "result": result}), "{source}");
        let parsed = Response::parse_line(&answer.to_string()).unwrap();
        assert_eq!(parsed.outcome.key(), "result");
    }
}

#[test]
fn templates_unwrap_a_lone_interpolation() {
    let scope = json!({"x": {"type": "number", "value": 5}});
    let cases: &[(&str, Json)] = &[
        ("${x}", json!({"type": "number", "value": 5})),
        ("a${x}", json!({"type": "string", "value": "a5"})),
        (
            "%{ if x == 5 }y%{ endif }",
            json!({"type": "string", "value": "y"}),
        ),
    ];
    for (source, result) in cases {
        let line =
            json!({"id": "t", "kind": "template", "source": source, "scope": scope}).to_string();
        assert_eq!(ask(&line)["result"], *result, "{source}");
    }
}

#[test]
fn untranslatable_requests_are_unsupported() {
    let cases: &[(&str, Json, &str)] = &[
        (
            "x",
            json!({"x": {"type": "string", "value": null, "unknown": [[]]}}),
            UNSUPPORTED_UNKNOWN,
        ),
        (
            "x[0]",
            json!({"x": {"type": ["list", "bool"], "value": [true, null], "unknown": [[1]]}}),
            UNSUPPORTED_UNKNOWN,
        ),
        (
            "x",
            json!({"x": {"type": "number", "value": 0.1}}),
            UNSUPPORTED_NUMBER,
        ),
        (
            "x",
            json!({"x": {"type": "number", "value": 18446744073709551617u128}}),
            UNSUPPORTED_NUMBER,
        ),
        (
            "x",
            json!({"x": {"type": "number", "value": "Infinity"}}),
            UNSUPPORTED_NUMBER,
        ),
        // Functions a FuncDef can not express, once evaluation reaches them.
        ("try(1, 2)", json!({}), UNSUPPORTED_FUNCTIONS),
        ("\"${can(1)}\"", json!({}), UNSUPPORTED_FUNCTIONS),
        // A function result the value models do not share exactly.
        ("tonumber(\"0.1\")", json!({}), UNSUPPORTED_NUMBER),
    ];
    for (source, scope, what) in cases {
        let answer = ask(&expr(source, scope.clone()));
        assert_eq!(
            answer,
            json!({"id": "t", "unsupported": what}),
            "{source} {scope}"
        );
    }
}

#[test]
fn scope_values_a_case_does_not_use_do_not_matter() {
    let scope = json!({
        "inf": {"type": "number", "value": "Infinity"},
        "u": {"type": "dynamic", "value": null, "unknown": [[]]},
        "s": {"type": "string", "value": "a"},
    });
    assert_eq!(
        ask(&expr("upper(s)", scope.clone())),
        json!({"id": "t", "result": {"type": "string", "value": "A"}})
    );
    assert_eq!(
        ask(&expr("[s, inf]", scope)),
        json!({"id": "t", "unsupported": UNSUPPORTED_NUMBER})
    );
}

/// Functions are the reference's, called by hcl-rs: a call evaluates, and
/// one that evaluation does not reach refuses nothing.
#[test]
fn functions_are_called_through_hcl_rs() {
    let cases: &[(&str, Json)] = &[
        ("upper(\"a\")", json!({"type": "string", "value": "A"})),
        ("length([1, 2, 3])", json!({"type": "number", "value": 3})),
        ("max([1, 5]...)", json!({"type": "number", "value": 5})),
        (
            "core::lower(\"A\")",
            json!({"type": "string", "value": "a"}),
        ),
        (
            "\"${join(\",\", [\"a\", \"b\"])}\"",
            json!({"type": "string", "value": "a,b"}),
        ),
    ];
    for (source, result) in cases {
        let answer = ask(&expr(source, json!({})));
        assert_eq!(answer["result"], *result, "{source}: {answer}");
    }
    // An error inside the function is hcl-rs's evaluation error.
    let answer = ask(&expr("upper(1, 2)", json!({})));
    assert_eq!(answer["error"]["phase"], "eval", "{answer}");
    // A call of an inexpressible function on a branch not taken.
    let answer = ask(&expr("true ? 1 : try(2)", json!({})));
    assert!(
        answer.get("result").is_some() || answer.get("error").is_some(),
        "not refused: {answer}"
    );
}

#[test]
fn exact_scope_numbers_are_accepted() {
    let cases: &[(Json, Json)] = &[
        (json!(0.5), json!(0.5)),
        (json!(-0.25), json!(-0.25)),
        (
            json!(1e22),
            serde_json::from_str("10000000000000000000000").unwrap(),
        ),
        (
            json!(18446744073709551615u64),
            json!(18446744073709551615u64),
        ),
        (
            json!(-9223372036854775808i64),
            json!(-9223372036854775808i64),
        ),
        (json!(4.0), json!(4)),
    ];
    for (input, output) in cases {
        let line = expr("x", json!({"x": {"type": "number", "value": input}}));
        let answer = ask(&line);
        assert_eq!(answer["result"]["value"], *output, "{input}: {answer}");
    }
}

#[test]
fn errors_carry_their_phase() {
    let answer = ask(&expr("[1,", json!({})));
    let error = &answer["error"];
    assert_eq!(error["phase"], "parse");
    assert_eq!(
        error["range"]["start"],
        json!({"line": 1, "column": 4, "byte": 3})
    );

    let answer = ask(&expr("nope", json!({})));
    assert_eq!(answer["error"]["phase"], "eval");
    assert_eq!(answer["error"]["summary"], "undefined variable `nope`");
}

#[test]
fn panics_become_crashes() {
    let answer = ask(&expr("5 % 0", json!({})));
    let crash = answer["crash"].as_str().expect("a crash answer");
    assert!(
        crash.contains("remainder with a divisor of zero"),
        "{crash}"
    );
    // The engine keeps answering after a crash.
    assert_eq!(ask(&expr("1", json!({})))["result"]["value"], json!(1));
}

#[test]
fn malformed_lines_are_request_errors() {
    let cases: &[(&str, Json, &str)] = &[
        ("not json", Json::Null, "invalid JSON"),
        (
            r#"{"id":"a","kind":"expr","source":"1"}"#,
            json!("a"),
            "kind",
        ),
        (
            r#"{"id":"b","source":"1"}"#,
            json!("b"),
            "missing field `kind`",
        ),
        (
            r#"{"id":"c","kind":"expression","source":"1","extra":1}"#,
            json!("c"),
            "unknown field `extra`",
        ),
        (
            r#"{"id":"d","kind":"expression","source":"x","scope":{"x":{"type":"nope","value":1}}}"#,
            json!("d"),
            "scope.x.type",
        ),
    ];
    for (line, id, message) in cases {
        let answer = ask(line);
        assert_eq!(answer["id"], *id, "{line}");
        assert_eq!(answer["error"]["phase"], "request", "{line}");
        let summary = answer["error"]["summary"].as_str().unwrap();
        assert!(summary.contains(message), "{line}: {summary}");
    }
    assert!(answer_line("  \r").is_none());
    // A corpus export line's expectation is not part of the request.
    let exported = r#"{"id":"e","kind":"expression","source":"1","expect":{"result":1}}"#;
    assert_eq!(ask(exported)["result"]["value"], json!(1));
}

#[test]
fn positions_count_characters() {
    let cases: &[(&str, usize, usize, usize)] = &[
        ("abc", 1, 2, 1),
        ("é\nxé!", 2, 3, 6),
        ("ab", 1, 3, 2),
        ("ab", 5, 1, 2),
    ];
    for (text, line, column, byte) in cases {
        assert_eq!(byte_at(text, *line, *column), *byte, "{text:?}");
    }
    let cases: &[(&str, usize, (u64, u64))] = &[
        ("abc", 0, (1, 1)),
        ("é\nxé!", 6, (2, 3)),
        ("é\nxé!", 1, (1, 1)),
        ("ab", 9, (1, 3)),
    ];
    for (source, byte, (line, column)) in cases {
        let pos = position_at(source, *byte);
        assert_eq!(
            (pos.line, pos.column),
            (*line, *column),
            "{source:?} {byte}"
        );
    }
}

#[test]
fn expressions_may_have_surrounding_whitespace() {
    assert_eq!(
        ask(&expr("\n 1 \r\n", json!({})))["result"]["value"],
        json!(1)
    );
    let heredoc = ask(&expr("<<EOT\nhello\nEOT\n", json!({})));
    assert_eq!(heredoc["result"]["value"], json!("hello\n"));
    // Errors are placed in the untrimmed source.
    let answer = ask(&expr("\n  [1,", json!({})));
    let start = &answer["error"]["range"]["start"];
    assert_eq!(*start, json!({"line": 2, "column": 6, "byte": 6}));
}

/// At the parse level the adapter answers from hcl-rs's parser alone.
#[test]
fn parse_level_answers_parsed() {
    let line =
        json!({"id": "t", "kind": "expression", "source": "nosuch(1) + x", "level": "parse"})
            .to_string();
    assert_eq!(ask(&line), json!({"id": "t", "parsed": true}));
    let line =
        json!({"id": "t", "kind": "expression", "source": "1 +", "level": "parse"}).to_string();
    assert_eq!(ask(&line)["error"]["phase"], "parse");
}

/// At the parse level bodies are parsed, and so are both expressions of a
/// conversion, whose type constraint a parser can not judge.
#[test]
fn parse_level_reads_bodies_and_conversions() {
    let ask_parse = |fields: Json| {
        let mut request = json!({"id": "t", "level": "parse"});
        request
            .as_object_mut()
            .unwrap()
            .extend(fields.as_object().unwrap().clone());
        ask(&request.to_string())
    };
    let body = |source: &str| json!({"kind": "body", "source": source, "spec": {"object": {}}});
    assert_eq!(
        ask_parse(body("b \"l\" {\n  x = f(1)\n}\n")),
        json!({"id": "t", "parsed": true})
    );
    assert_eq!(ask_parse(body("b {\n  x = 1\n"))["error"]["phase"], "parse");
    let convert = |source: &str, ty: &str| json!({"kind": "convert", "source": source, "type": ty});
    assert_eq!(
        ask_parse(convert("[1]", "list(number)"))["unsupported"],
        UNSUPPORTED_TYPE_CONSTRAINT
    );
    assert_eq!(
        ask_parse(convert("[1", "number"))["error"]["phase"],
        "parse"
    );
    assert_eq!(ask_parse(convert("1", "list("))["error"]["phase"], "parse");
    // Beyond the parse level bodies and conversions stay unsupported.
    let line = json!({"id": "t", "kind": "body", "source": "a = 1\n", "spec": {"object": {}}});
    assert_eq!(ask(&line.to_string())["unsupported"], UNSUPPORTED_BODY);
}
