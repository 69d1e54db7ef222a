//! Engine protocol v1: one JSON request per line in, one JSON response per
//! line out (see `docs/protocol.md`).
//!
//! Values travel as [`TypedValue`]s: go-cty's JSON type and value encodings
//! kept as raw JSON, so numbers keep their exact decimal text and an external
//! engine's answer is carried unchanged until it is compared.

use std::collections::BTreeMap;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

use hclspec_reference::json as cty_json;
use hclspec_reference::value::PathStep;
use hclspec_reference::{HclVersion, Value};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

/// The protocol revision described in `docs/protocol.md`.
pub const PROTOCOL_VERSION: u32 = 1;

/// An HCL behaviour profile, spelled as in the protocol and the corpus.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Version {
    #[serde(rename = "2.14")]
    V2_14,
    /// The default: the current behaviour.
    #[default]
    #[serde(rename = "2.24")]
    V2_24,
}

impl Version {
    pub const ALL: [Version; 2] = [Version::V2_14, Version::V2_24];

    pub fn as_str(self) -> &'static str {
        match self {
            Version::V2_14 => "2.14",
            Version::V2_24 => "2.24",
        }
    }

    pub fn to_reference(self) -> HclVersion {
        match self {
            Version::V2_14 => HclVersion::V2_14,
            Version::V2_24 => HclVersion::V2_24,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Version {
    type Err = String;
    fn from_str(s: &str) -> Result<Version, String> {
        match s {
            "2.14" => Ok(Version::V2_14),
            "2.24" => Ok(Version::V2_24),
            _ => Err(format!("unknown HCL version {s:?} (expected 2.14 or 2.24)")),
        }
    }
}

/// Whether a source is an expression or a bare template.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    #[default]
    Expression,
    Template,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Expression => "expression",
            Kind::Template => "template",
        }
    }

    pub fn to_reference(self) -> hclspec_reference::SourceKind {
        match self {
            Kind::Expression => hclspec_reference::SourceKind::Expression,
            Kind::Template => hclspec_reference::SourceKind::Template,
        }
    }
}

/// A value with its type, in go-cty's JSON encodings, plus the paths of its
/// unknown parts (`[]` is the whole value; the JSON there is null).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypedValue {
    #[serde(rename = "type")]
    pub ty: Json,
    pub value: Json,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<Json>,
}

/// Why a [`TypedValue`] does not decode; `path` names the field inside it
/// (`type`, `value[2].a`, `unknown[0]`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl TypedValue {
    /// Decodes into a reference value with the reference JSON codec.
    /// A panic inside the codec is reported as an error, not propagated.
    pub fn decode(&self) -> Result<Value, DecodeError> {
        guarded(|| self.decode_unguarded())
    }

    /// Decodes only the type.
    pub fn decode_type(&self) -> Result<hclspec_reference::Type, DecodeError> {
        guarded(|| {
            cty_json::type_from_json(&self.ty).map_err(|e| DecodeError {
                path: join_path("type", &e.path),
                message: e.message,
            })
        })
    }

    /// Encodes a reference value (its own type, unknown parts as paths).
    pub fn encode(value: &Value) -> TypedValue {
        let ty = cty_json::type_to_json(&value.ty());
        let (json, unknown) = cty_json::value_to_json(value);
        TypedValue {
            ty,
            value: json,
            unknown: unknown.iter().map(|p| cty_json::path_to_json(p)).collect(),
        }
    }

    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).expect("a typed value always serializes")
    }

    fn decode_unguarded(&self) -> Result<Value, DecodeError> {
        let ty = cty_json::type_from_json(&self.ty).map_err(|e| DecodeError {
            path: join_path("type", &e.path),
            message: e.message,
        })?;
        let mut paths: Vec<Vec<PathStep>> = Vec::with_capacity(self.unknown.len());
        for (i, p) in self.unknown.iter().enumerate() {
            let path = cty_json::path_from_json(p).map_err(|e| DecodeError {
                path: join_path(&format!("unknown[{i}]"), &e.path),
                message: e.message,
            })?;
            paths.push(path);
        }
        cty_json::value_from_json(&ty, &self.value, &paths).map_err(|e| DecodeError {
            path: join_path("value", &e.path),
            message: e.message,
        })
    }
}

/// Joins a field name and a path inside it reported by the codec.
pub(crate) fn join_path(field: &str, inner: &str) -> String {
    let inner = inner.trim_start_matches('.');
    if inner.is_empty() {
        field.to_string()
    } else if inner.starts_with('[') {
        format!("{field}{inner}")
    } else {
        format!("{field}.{inner}")
    }
}

/// Runs `f`, turning a panic into a [`DecodeError`] so that a bug in the
/// codec can not take down a comparison or a corpus load.
fn guarded<T>(f: impl FnOnce() -> Result<T, DecodeError>) -> Result<T, DecodeError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(DecodeError {
            path: String::new(),
            message: format!("the value codec panicked: {}", panic_message(&*payload)),
        }),
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

/// One evaluation request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub id: String,
    pub kind: Kind,
    pub source: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scope: BTreeMap<String, TypedValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hcl_version: Option<Version>,
}

/// A request line that could not be understood; `id` is the request's id
/// when one could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRequest {
    pub id: Option<String>,
    pub message: String,
}

impl Request {
    /// Parses one request line.
    pub fn parse_line(line: &str) -> Result<Request, BadRequest> {
        let json: Json = serde_json::from_str(line).map_err(|e| BadRequest {
            id: None,
            message: format!("{MSG_INVALID_JSON}: {e}"),
        })?;
        let id = json
            .as_object()
            .and_then(|o| o.get("id"))
            .and_then(Json::as_str)
            .map(str::to_string);
        serde_path_to_error::deserialize(json).map_err(|e| BadRequest {
            id,
            message: describe_path_error(&e),
        })
    }

    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a request always serializes")
    }
}

const MSG_INVALID_JSON: &str = "invalid JSON";

/// `path: message`, or just the message at the top level.
pub(crate) fn describe_path_error(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path().to_string();
    if path == "." || path == "?" || path.is_empty() {
        e.inner().to_string()
    } else {
        format!("{path}: {}", e.inner())
    }
}

/// Which stage rejected the input; `request` means the request itself was
/// malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorPhase {
    Parse,
    Eval,
    Request,
}

impl ErrorPhase {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorPhase::Parse => "parse",
            ErrorPhase::Eval => "eval",
            ErrorPhase::Request => "request",
        }
    }
}

/// A position: 1-based line and column (in characters), 0-based byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub line: u64,
    pub column: u64,
    pub byte: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

/// An error diagnostic in a response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    pub phase: ErrorPhase,
    pub summary: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    /// The engine's libraries panicked and the panic was turned into this
    /// error (as cty's function machinery does); optional, default false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub library_panic: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl ErrorBody {
    pub fn request(summary: impl Into<String>) -> ErrorBody {
        ErrorBody {
            phase: ErrorPhase::Request,
            summary: summary.into(),
            detail: String::new(),
            range: None,
            library_panic: false,
        }
    }

    pub fn from_reference(e: &hclspec_reference::Error) -> ErrorBody {
        let pos = |p: hclspec_reference::Pos| Position {
            line: p.line as u64,
            column: p.column as u64,
            byte: p.byte as u64,
        };
        ErrorBody {
            phase: match e.phase {
                hclspec_reference::Phase::Parse => ErrorPhase::Parse,
                hclspec_reference::Phase::Eval => ErrorPhase::Eval,
            },
            summary: e.summary.clone(),
            detail: e.detail.clone(),
            range: Some(Range {
                start: pos(e.span.start),
                end: pos(e.span.end),
            }),
            library_panic: false,
        }
    }
}

/// What an engine answered for one request.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Result(TypedValue),
    Error(ErrorBody),
    /// The engine does not implement something the request needs.
    Unsupported(String),
    /// The engine failed internally (a panic) but survived.
    Crash(String),
}

impl Outcome {
    /// The response key naming this outcome.
    pub fn key(&self) -> &'static str {
        match self {
            Outcome::Result(_) => "result",
            Outcome::Error(_) => "error",
            Outcome::Unsupported(_) => "unsupported",
            Outcome::Crash(_) => "crash",
        }
    }

    /// `{"result": ...}`, `{"error": ...}`, ...
    pub fn to_json(&self) -> Json {
        let body = match self {
            Outcome::Result(v) => v.to_json(),
            Outcome::Error(e) => serde_json::to_value(e).expect("an error always serializes"),
            Outcome::Unsupported(s) | Outcome::Crash(s) => Json::String(s.clone()),
        };
        let mut m = Map::new();
        m.insert(self.key().to_string(), body);
        Json::Object(m)
    }
}

/// One response line.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// The request's id; `None` (JSON null) when a malformed request had none.
    pub id: Option<String>,
    pub outcome: Outcome,
}

/// Why a response line is not a valid protocol response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadResponse(pub String);

impl fmt::Display for BadResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

const OUTCOME_KEYS: [&str; 4] = ["result", "error", "unsupported", "crash"];

impl Response {
    pub fn to_json(&self) -> Json {
        let mut m = Map::new();
        m.insert(
            "id".to_string(),
            self.id.clone().map(Json::String).unwrap_or(Json::Null),
        );
        if let Json::Object(o) = self.outcome.to_json() {
            m.extend(o);
        }
        Json::Object(m)
    }

    pub fn to_line(&self) -> String {
        self.to_json().to_string()
    }

    pub fn parse_line(line: &str) -> Result<Response, BadResponse> {
        let json: Json = serde_json::from_str(line)
            .map_err(|e| BadResponse(format!("{MSG_INVALID_JSON}: {e}")))?;
        Response::from_json(json)
    }

    /// Reads a response document: an `id` and exactly one outcome key.
    pub fn from_json(json: Json) -> Result<Response, BadResponse> {
        let Json::Object(mut m) = json else {
            return Err(BadResponse("a response must be a JSON object".into()));
        };
        let id = match m.remove("id") {
            Some(Json::String(s)) => Some(s),
            Some(Json::Null) => None,
            Some(_) => return Err(BadResponse("id: must be a string or null".into())),
            None => return Err(BadResponse("missing field `id`".into())),
        };
        let keys: Vec<String> = m.keys().cloned().collect();
        if let Some(k) = keys.iter().find(|k| !OUTCOME_KEYS.contains(&k.as_str())) {
            return Err(BadResponse(format!(
                "unknown field `{k}`, expected one of `result`, `error`, `unsupported`, `crash`"
            )));
        }
        if keys.len() != 1 {
            return Err(BadResponse(
                "a response needs exactly one of `result`, `error`, `unsupported`, `crash`".into(),
            ));
        }
        let (key, body) = m.into_iter().next().expect("one key");
        let outcome = match key.as_str() {
            "result" => Outcome::Result(from_json_at(&key, body)?),
            "error" => Outcome::Error(from_json_at(&key, body)?),
            _ => match body {
                Json::String(s) if key == "unsupported" => Outcome::Unsupported(s),
                Json::String(s) => Outcome::Crash(s),
                _ => return Err(BadResponse(format!("{key}: must be a string"))),
            },
        };
        Ok(Response { id, outcome })
    }
}

fn from_json_at<T: serde::de::DeserializeOwned>(field: &str, body: Json) -> Result<T, BadResponse> {
    serde_path_to_error::deserialize(body).map_err(|e| {
        let path = e.path().to_string();
        if path == "." || path == "?" {
            BadResponse(format!("{field}: {}", e.inner()))
        } else {
            BadResponse(format!("{field}.{path}: {}", e.inner()))
        }
    })
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
                "hcl_version: unknown variant `2.15`",
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
}
