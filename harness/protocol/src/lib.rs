//! hclspec's engine protocol v1 and the one comparison every runner shares.
//!
//! One JSON request per line in, one JSON response per line out (see
//! `docs/protocol.md`). Values travel as [`TypedValue`]s: go-cty's JSON type
//! and value encodings kept as raw JSON, so numbers keep their exact decimal
//! text and an external engine's answer is carried unchanged until it is
//! compared. [`compare`] decides whether an answer meets an [`Expect`] at a
//! conformance [`Level`]: the same decision in `cargo test`, the CLI, the
//! library harness and the fuzzers.

pub mod compare;
mod expect;
mod profile;
mod request;
mod response;
mod typed;

pub use compare::{compare, compare_at, Verdict};
pub use expect::{Expect, ExpectedError, ExpectedPhase};
pub use profile::{Dialect, Kind, Level, TerraformVersion, Version};
pub use request::{unknown_terraform_version, BadRequest, Request};
pub use response::{
    BadResponse, ErrorBody, ErrorPhase, Outcome, Position, Range, Response, OUTCOME_KEYS,
};
pub use typed::{exact_json, DecodeError, NumberBound, Refinement, TypedValue};

/// The protocol revision described in `docs/protocol.md`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Joins a field name and a path inside it reported by the codec.
pub fn join_path(field: &str, inner: &str) -> String {
    let inner = inner.trim_start_matches('.');
    if inner.is_empty() {
        field.to_string()
    } else if inner.starts_with('[') {
        format!("{field}{inner}")
    } else {
        format!("{field}.{inner}")
    }
}

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// `path: message`, or just the message at the top level.
pub fn describe_path_error(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path().to_string();
    if path == "." || path == "?" || path.is_empty() {
        e.inner().to_string()
    } else {
        format!("{path}: {}", e.inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn request_round_trip_keeps_number_text() {
        let line = r#"{"id":"a","kind":"template","source":"${x}","scope":{"x":{"type":"number","value":0.10000000000000000000000000000000000001}},"hcl_version":"2.14"}"#;
        let req = Request::parse_line(line).unwrap();
        assert_eq!(req.kind, Kind::Template);
        assert_eq!(req.hcl_version, Some(Version::V2_14));
        assert_eq!(
            req.scope["x"].value.to_string(),
            "0.10000000000000000000000000000000000001"
        );
        assert_eq!(Request::parse_line(&req.to_line()).unwrap(), req);
    }

    #[test]
    fn request_defaults_and_bad_lines() {
        let req = Request::parse_line(r#"{"id":"b","kind":"expression","source":"1"}"#).unwrap();
        assert!(req.scope.is_empty());
        assert_eq!(req.hcl_version, None);

        let cases: &[(&str, Option<&str>, &str)] = &[
            ("not json", None, "invalid JSON"),
            ("[1]", None, "invalid type"),
            (
                r#"{"id":"c","source":"1"}"#,
                Some("c"),
                "missing field `kind`",
            ),
            (
                r#"{"id":"d","kind":"expr","source":"1"}"#,
                Some("d"),
                "kind: unknown variant",
            ),
            (
                r#"{"id":"e","kind":"expression","source":"1","extra":1}"#,
                Some("e"),
                "unknown field `extra`",
            ),
            (
                r#"{"id":"f","kind":"expression","source":"1","scope":{"x":{"type":"bool"}}}"#,
                Some("f"),
                "scope.x: missing field `value`",
            ),
            (
                r#"{"id":"g","kind":"expression","source":"1","hcl_version":"2.15"}"#,
                Some("g"),
                "hcl_version: unknown HCL version \"2.15\"",
            ),
            (
                r#"{"id":7,"kind":"expression","source":"1"}"#,
                None,
                "id: invalid type",
            ),
        ];
        for (line, id, msg) in cases {
            let err = Request::parse_line(line).unwrap_err();
            assert_eq!(err.id.as_deref(), *id, "{line}");
            assert!(err.message.contains(msg), "{line}: {}", err.message);
        }
    }

    #[test]
    fn response_round_trip() {
        let responses = [
            Response {
                id: Some("a".into()),
                outcome: Outcome::Result(TypedValue {
                    ty: json!(["list", "number"]),
                    value: serde_json::from_str("[1.50, null]").unwrap(),
                    unknown: vec![json!([1])],
                    ..Default::default()
                }),
            },
            Response {
                id: None,
                outcome: Outcome::Error(ErrorBody::request("bad")),
            },
            Response {
                id: Some("b".into()),
                outcome: Outcome::Error(ErrorBody {
                    phase: ErrorPhase::Eval,
                    summary: "Invalid operand".into(),
                    detail: "Unsuitable value.".into(),
                    range: Some(Range {
                        start: Position {
                            line: 1,
                            column: 1,
                            byte: 0,
                        },
                        end: Position {
                            line: 1,
                            column: 4,
                            byte: 3,
                        },
                    }),
                    library_panic: true,
                }),
            },
            Response {
                id: Some("c".into()),
                outcome: Outcome::Unsupported("functions".into()),
            },
            Response {
                id: Some("d".into()),
                outcome: Outcome::Crash("boom".into()),
            },
        ];
        for r in responses {
            let line = r.to_line();
            assert_eq!(Response::parse_line(&line).unwrap(), r, "{line}");
        }
        assert!(Response {
            id: Some("a".into()),
            outcome: Outcome::Result(TypedValue {
                ty: json!("number"),
                value: serde_json::from_str("1.50").unwrap(),
                unknown: vec![],
                ..Default::default()
            }),
        }
        .to_line()
        .contains("1.50"));
    }

    #[test]
    fn bad_responses() {
        let cases = [
            ("{", "invalid JSON"),
            ("[]", "must be a JSON object"),
            (
                r#"{"result":{"type":"bool","value":true}}"#,
                "missing field `id`",
            ),
            (r#"{"id":"a"}"#, "exactly one of"),
            (
                r#"{"id":"a","crash":"x","unsupported":"y"}"#,
                "exactly one of",
            ),
            (r#"{"id":"a","bogus":1}"#, "unknown field `bogus`"),
            (r#"{"id":"a","crash":1}"#, "crash: must be a string"),
            (
                r#"{"id":"a","result":{"type":"bool"}}"#,
                "result: missing field `value`",
            ),
            (
                r#"{"id":"a","error":{"phase":"lex","summary":""}}"#,
                "error.phase: unknown variant",
            ),
        ];
        for (line, msg) in cases {
            let err = Response::parse_line(line).unwrap_err();
            assert!(err.0.contains(msg), "{line}: {}", err.0);
        }
    }

    #[test]
    fn join_path_forms() {
        assert_eq!(join_path("value", ""), "value");
        assert_eq!(join_path("value", "[2].a"), "value[2].a");
        assert_eq!(join_path("value", "a"), "value.a");
        assert_eq!(join_path("value", ".a"), "value.a");
    }

    /// Numbers keep every digit and the sign of zero on every path that
    /// reads protocol JSON: requests, responses, typed values alone.
    #[test]
    fn numbers_stay_exact_when_read() {
        let texts = [
            "900719925474099.3",
            "-0",
            "0.1000000000000000000000000000001",
            "-0.0",
            "123456789012345678901234567890.5",
        ];
        for text in texts {
            let line = format!(
                r#"{{"id":"a","kind":"template","source":"${{x}}","scope":{{"x":{{"type":"number","value":{text}}}}}}}"#
            );
            let req = Request::parse_line(&line).unwrap();
            assert_eq!(req.scope["x"].value.to_string(), text, "request");
            let again = Request::parse_line(&req.to_line()).unwrap();
            assert_eq!(
                again.scope["x"].value.to_string(),
                text,
                "request round trip"
            );

            let line =
                format!(r#"{{"id":"a","result":{{"type":["list","number"],"value":[{text}]}}}}"#);
            let Outcome::Result(tv) = Response::parse_line(&line).unwrap().outcome else {
                panic!("{line}")
            };
            assert_eq!(tv.value[0].to_string(), text, "response");
            let doc = Response::parse_line(&line).unwrap().to_json();
            let Outcome::Result(tv) = Response::from_json(&doc).unwrap().outcome else {
                panic!()
            };
            assert_eq!(tv.value[0].to_string(), text, "response from a document");

            let tv = TypedValue::from_json_text(&format!(r#"{{"type":"number","value":{text}}}"#))
                .unwrap();
            assert_eq!(tv.value.to_string(), text, "typed value");
        }
    }

    /// Even from an already-parsed document (whose numbers a plain
    /// deserializer hands out as 64-bit floats) a typed value reads its
    /// value exactly.
    #[test]
    fn typed_values_from_parsed_documents_are_exact() {
        let doc: serde_json::Value =
            serde_json::from_str(r#"{"type":"number","value":900719925474099.3}"#).unwrap();
        let tv: TypedValue = serde_json::from_value(doc).unwrap();
        assert_eq!(tv.value.to_string(), "900719925474099.3");
    }

    #[test]
    fn kind_fields_and_duplicates() {
        let ok = [
            r#"{"id":"a","kind":"convert","source":"[1]","type":"list(string)"}"#,
            r#"{"id":"a","kind":"body","source":"a = 1","spec":{"attr":{"name":"a"}}}"#,
            r#"{"id":"a","kind":"expression","source":"x","dialect":"hil-0.11","level":"parse","base_dir":"d"}"#,
        ];
        for line in ok {
            let req = Request::parse_line(line).unwrap();
            assert_eq!(Request::parse_line(&req.to_line()).unwrap(), req, "{line}");
        }
        let bad: &[(&str, &str)] = &[
            (
                r#"{"id":"a","kind":"convert","source":"1"}"#,
                "needs a type constraint",
            ),
            (
                r#"{"id":"a","kind":"expression","source":"1","type":"string"}"#,
                "only a `convert`",
            ),
            (r#"{"id":"a","kind":"body","source":""}"#, "needs a spec"),
            (
                r#"{"id":"a","kind":"template","source":"","spec":{}}"#,
                "only a `body`",
            ),
            (
                r#"{"id":"a","kind":"expression","source":"1","dialect":"hil"}"#,
                "dialect: unknown variant",
            ),
            (
                r#"{"id":"a","kind":"expression","source":"1","source":"2"}"#,
                "duplicate field `source`",
            ),
            (
                r#"{"id":"a","kind":"expression","source":"1","scope":{"x":{"type":"bool","value":true},"x":{"type":"bool","value":false}}}"#,
                "variable \"x\" is given twice",
            ),
        ];
        for (line, msg) in bad {
            let err = Request::parse_line(line).unwrap_err();
            assert_eq!(err.id.as_deref(), Some("a"), "{line}");
            assert!(err.message.contains(msg), "{line}: {}", err.message);
        }
        let err = Response::parse_line(r#"{"id":"a","id":"b","parsed":true}"#).unwrap_err();
        assert!(err.0.contains("given twice"), "{err}");
        let err = Response::parse_line(r#"{"id":"a","parsed":false}"#).unwrap_err();
        assert!(err.0.contains("parsed: must be true"), "{err}");
        assert_eq!(
            Response::parse_line(r#"{"id":"a","parsed":true}"#)
                .unwrap()
                .outcome,
            Outcome::Parsed
        );
    }
}
