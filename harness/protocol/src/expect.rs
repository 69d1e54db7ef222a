//! What a case expects: a typed result, an error of a phase, or (for a
//! Terraform release that panics there) a crash.

use serde::Deserialize;
use serde_json::{Map, Value as Json};

use crate::TypedValue;

/// An expected outcome.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    Result(TypedValue),
    Error(ExpectedError),
    /// The implementation's process dies (a Go panic that nothing
    /// recovers); the text is the panic's first line, for people to read.
    Crash(Option<String>),
}

/// An expected error: its phase and, when given, its summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedError {
    pub phase: ExpectedPhase,
    pub summary: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExpectedPhase {
    Parse,
    Eval,
}

impl ExpectedPhase {
    pub fn as_str(self) -> &'static str {
        match self {
            ExpectedPhase::Parse => "parse",
            ExpectedPhase::Eval => "eval",
        }
    }
}

impl Expect {
    /// The corpus form: `{"result": ...}` or `{"error": {"phase": ...}}`.
    pub fn to_json(&self) -> Json {
        let mut m = Map::new();
        match self {
            Expect::Result(v) => {
                m.insert("result".into(), v.to_json());
            }
            Expect::Error(e) => {
                let mut body = Map::new();
                body.insert("phase".into(), Json::String(e.phase.as_str().into()));
                if let Some(s) = &e.summary {
                    body.insert("summary".into(), Json::String(s.clone()));
                }
                m.insert("error".into(), Json::Object(body));
            }
            Expect::Crash(message) => {
                m.insert(
                    "crash".into(),
                    message.clone().map_or(Json::Bool(true), Json::String),
                );
            }
        }
        Json::Object(m)
    }
}
