//! What a case expects: a typed result or an error of a phase.

use serde::Deserialize;
use serde_json::{Map, Value as Json};

use crate::TypedValue;

/// An expected outcome.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    Result(TypedValue),
    Error(ExpectedError),
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
        }
        Json::Object(m)
    }
}
