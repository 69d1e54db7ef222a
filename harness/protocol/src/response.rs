//! Responses: what an engine answered.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value as Json};

use crate::request::MSG_INVALID_JSON;
use crate::TypedValue;

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
                // A crash is no error ([`Outcome::from_reference`]).
                hclspec_reference::Phase::Eval | hclspec_reference::Phase::Crash => {
                    ErrorPhase::Eval
                }
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
    /// The source parses; nothing more was done (an engine that only parses,
    /// judged at the parse level).
    Parsed,
    /// The engine does not implement something the request needs.
    Unsupported(String),
    /// The engine failed internally (a panic) but survived.
    Crash(String),
}

impl Outcome {
    /// The reference implementation's error as an answer: a diagnostic,
    /// or the crash of the real implementation it models.
    pub fn from_reference(e: &hclspec_reference::Error) -> Outcome {
        match e.phase {
            hclspec_reference::Phase::Crash => {
                Outcome::Crash(format!("{}: {}", e.summary, e.detail))
            }
            _ => Outcome::Error(ErrorBody::from_reference(e)),
        }
    }

    /// The response key naming this outcome.
    pub fn key(&self) -> &'static str {
        match self {
            Outcome::Result(_) => "result",
            Outcome::Error(_) => "error",
            Outcome::Parsed => "parsed",
            Outcome::Unsupported(_) => "unsupported",
            Outcome::Crash(_) => "crash",
        }
    }

    /// `{"result": ...}`, `{"error": ...}`, ...
    pub fn to_json(&self) -> Json {
        let body = match self {
            Outcome::Result(v) => v.to_json(),
            Outcome::Error(e) => serde_json::to_value(e).expect("an error always serializes"),
            Outcome::Parsed => Json::Bool(true),
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

/// Every outcome key, in the order messages list them.
pub const OUTCOME_KEYS: [&str; 5] = ["result", "error", "parsed", "unsupported", "crash"];

const MSG_NOT_OBJECT: &str = "a response must be a JSON object";
const MSG_ONE_OUTCOME: &str =
    "a response needs exactly one of `result`, `error`, `parsed`, `unsupported`, `crash`";

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

    /// Reads a response line: an `id` and exactly one outcome key. The
    /// outcome's body is read from its own text, so numbers stay exact.
    pub fn parse_line(line: &str) -> Result<Response, BadResponse> {
        let fields: Fields = match serde_json::from_str(line) {
            Ok(f) => f,
            Err(e) if e.is_data() => return Err(BadResponse(MSG_NOT_OBJECT.into())),
            Err(e) => return Err(BadResponse(format!("{MSG_INVALID_JSON}: {e}"))),
        };
        let mut id = None;
        let mut outcome = None;
        for (key, raw) in fields.0 {
            match key.as_str() {
                "id" if id.is_some() => {
                    return Err(BadResponse("id: given twice".into()));
                }
                "id" => {
                    id = Some(match serde_json::from_str::<Json>(raw.get()) {
                        Ok(Json::String(s)) => Some(s),
                        Ok(Json::Null) => None,
                        _ => return Err(BadResponse("id: must be a string or null".into())),
                    })
                }
                k if OUTCOME_KEYS.contains(&k) => {
                    if outcome.is_some() {
                        return Err(BadResponse(MSG_ONE_OUTCOME.into()));
                    }
                    outcome = Some(outcome_from(k, raw.get())?);
                }
                k => {
                    return Err(BadResponse(format!(
                        "unknown field `{k}`, expected `id` or one of `result`, `error`, \
                         `parsed`, `unsupported`, `crash`"
                    )))
                }
            }
        }
        let Some(id) = id else {
            return Err(BadResponse("missing field `id`".into()));
        };
        let Some(outcome) = outcome else {
            return Err(BadResponse(MSG_ONE_OUTCOME.into()));
        };
        Ok(Response { id, outcome })
    }

    /// [`Response::parse_line`] on a document (whose numbers still hold
    /// their text).
    pub fn from_json(json: &Json) -> Result<Response, BadResponse> {
        Response::parse_line(&json.to_string())
    }
}

/// An outcome from its key and the text of its body.
fn outcome_from(key: &str, body: &str) -> Result<Outcome, BadResponse> {
    match key {
        "result" => Ok(Outcome::Result(from_text_at(key, body)?)),
        "error" => Ok(Outcome::Error(from_text_at(key, body)?)),
        "parsed" => match serde_json::from_str::<Json>(body) {
            Ok(Json::Bool(true)) => Ok(Outcome::Parsed),
            _ => Err(BadResponse("parsed: must be true".into())),
        },
        _ => match serde_json::from_str::<Json>(body) {
            Ok(Json::String(s)) if key == "unsupported" => Ok(Outcome::Unsupported(s)),
            Ok(Json::String(s)) => Ok(Outcome::Crash(s)),
            _ => Err(BadResponse(format!("{key}: must be a string"))),
        },
    }
}

fn from_text_at<T: serde::de::DeserializeOwned>(field: &str, body: &str) -> Result<T, BadResponse> {
    let mut de = serde_json::Deserializer::from_str(body);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        if path == "." || path == "?" {
            BadResponse(format!("{field}: {}", e.inner()))
        } else {
            BadResponse(format!("{field}.{path}: {}", e.inner()))
        }
    })
}

/// A JSON object's members in order, each value kept as its text; a key
/// given twice is kept twice (and then refused by the reader).
struct Fields(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Fields, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Fields;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    out.push((k, map.next_value::<Box<RawValue>>()?));
                }
                Ok(Fields(out))
            }
        }
        d.deserialize_map(V)
    }
}
