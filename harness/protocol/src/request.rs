//! Requests: what an engine is asked to evaluate.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value as Json;

use crate::typed::exact_json;
use crate::{describe_path_error, Dialect, Kind, Level, TypedValue, Version};

/// One evaluation request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub id: String,
    pub kind: Kind,
    pub source: String,
    /// With `kind: "convert"`: the type constraint, in Terraform syntax.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_constraint: Option<String>,
    /// With `kind: "body"`: the decoder spec.
    #[serde(
        default,
        deserialize_with = "optional_exact_json",
        skip_serializing_if = "Option::is_none"
    )]
    pub spec: Option<Json>,
    #[serde(
        default,
        deserialize_with = "unique_scope",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub scope: BTreeMap<String, TypedValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hcl_version: Option<Version>,
    #[serde(default, skip_serializing_if = "Dialect::is_hcl2")]
    pub dialect: Dialect,
    /// The directory file-system functions resolve relative paths against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_dir: Option<String>,
    /// The conformance level the answer is judged at, for engines that can
    /// do less work at a lower level (a parser answers `parsed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
}

/// The wire form of a request, with the scope left as text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RequestWire<'a> {
    id: String,
    kind: Kind,
    source: String,
    #[serde(default, rename = "type")]
    type_constraint: Option<String>,
    #[serde(default, deserialize_with = "optional_exact_json")]
    spec: Option<Json>,
    #[serde(default, borrow)]
    scope: Option<&'a RawValue>,
    #[serde(default)]
    hcl_version: Option<Version>,
    #[serde(default)]
    dialect: Dialect,
    #[serde(default)]
    base_dir: Option<String>,
    #[serde(default)]
    level: Option<Level>,
}

/// A request line that could not be understood; `id` is the request's id
/// when one could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRequest {
    pub id: Option<String>,
    pub message: String,
}

impl fmt::Display for BadRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

pub(crate) const MSG_INVALID_JSON: &str = "invalid JSON";
const MSG_CONVERT_NEEDS_TYPE: &str = "type: a `convert` request needs a type constraint";
const MSG_TYPE_ONLY_CONVERT: &str = "type: only a `convert` request has a type constraint";
const MSG_BODY_NEEDS_SPEC: &str = "spec: a `body` request needs a spec";
const MSG_SPEC_ONLY_BODY: &str = "spec: only a `body` request has a spec";

impl Request {
    /// An expression request with nothing else set.
    pub fn expression(id: impl Into<String>, source: impl Into<String>) -> Request {
        Request {
            id: id.into(),
            source: source.into(),
            ..Request::default()
        }
    }

    /// Parses one request line, from its text (numbers stay exact).
    pub fn parse_line(line: &str) -> Result<Request, BadRequest> {
        let (mut req, scope) = Request::parse_line_raw_scope(line)?;
        if let Some(text) = scope {
            req.scope = Request::parse_scope(text).map_err(|message| BadRequest {
                id: Some(req.id.clone()),
                message,
            })?;
        }
        Ok(req)
    }

    /// Parses one request line but keeps its `scope` as JSON text (the
    /// returned request's scope is empty): an engine that serves many
    /// requests over the same scope decodes that text once
    /// ([`Request::parse_scope`]).
    pub fn parse_line_raw_scope(line: &str) -> Result<(Request, Option<&str>), BadRequest> {
        let mut de = serde_json::Deserializer::from_str(line);
        let parsed = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| describe_path_error(&e))
            .and_then(|r: RequestWire| de.end().map(|()| r).map_err(|e| e.to_string()));
        let wire = match parsed {
            Ok(w) => w,
            Err(message) => {
                return Err(BadRequest {
                    id: id_of(line),
                    message: if serde_json::from_str::<serde::de::IgnoredAny>(line).is_err() {
                        format!("{MSG_INVALID_JSON}: {message}")
                    } else {
                        message
                    },
                })
            }
        };
        let scope = wire.scope.map(RawValue::get);
        let req = Request {
            id: wire.id,
            kind: wire.kind,
            source: wire.source,
            type_constraint: wire.type_constraint,
            spec: wire.spec,
            scope: BTreeMap::new(),
            hcl_version: wire.hcl_version,
            dialect: wire.dialect,
            base_dir: wire.base_dir,
            level: wire.level,
        };
        match req.check() {
            Ok(()) => Ok((req, scope)),
            Err(message) => Err(BadRequest {
                id: Some(req.id),
                message: message.to_string(),
            }),
        }
    }

    /// A request's `scope` from its JSON text; errors name the field
    /// (`scope.x.type: ...`).
    pub fn parse_scope(text: &str) -> Result<BTreeMap<String, TypedValue>, String> {
        #[derive(Deserialize)]
        struct ScopeWire(#[serde(deserialize_with = "unique_scope")] BTreeMap<String, TypedValue>);
        let mut de = serde_json::Deserializer::from_str(text);
        match serde_path_to_error::deserialize::<_, ScopeWire>(&mut de) {
            Ok(ScopeWire(scope)) => Ok(scope),
            Err(e) => {
                let path = e.path().to_string();
                if path == "." || path == "?" || path.is_empty() {
                    Err(format!("scope: {}", e.inner()))
                } else {
                    Err(format!("scope.{path}: {}", e.inner()))
                }
            }
        }
    }

    /// The fields that belong to one kind only.
    fn check(&self) -> Result<(), &'static str> {
        match (self.kind == Kind::Convert, self.type_constraint.is_some()) {
            (true, false) => return Err(MSG_CONVERT_NEEDS_TYPE),
            (false, true) => return Err(MSG_TYPE_ONLY_CONVERT),
            _ => {}
        }
        match (self.kind == Kind::Body, self.spec.is_some()) {
            (true, false) => Err(MSG_BODY_NEEDS_SPEC),
            (false, true) => Err(MSG_SPEC_ONLY_BODY),
            _ => Ok(()),
        }
    }

    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a request always serializes")
    }
}

/// The `id` of a request line that does not parse as a request, when it
/// has a string one.
fn id_of(line: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct IdOnly {
        id: Option<Json>,
    }
    match serde_json::from_str::<IdOnly>(line) {
        Ok(IdOnly {
            id: Some(Json::String(s)),
        }) => Some(s),
        _ => None,
    }
}

fn optional_exact_json<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Json>, D::Error> {
    exact_json(d).map(Some)
}

/// A scope object whose variable names are unique: a name given twice is
/// an error, not "the last one wins".
fn unique_scope<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, TypedValue>, D::Error> {
    struct ScopeVisitor;
    impl<'de> Visitor<'de> for ScopeVisitor {
        type Value = BTreeMap<String, TypedValue>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object of typed values")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(name) = map.next_key::<String>()? {
                if out.contains_key(&name) {
                    return Err(serde::de::Error::custom(format!(
                        "variable {name:?} is given twice"
                    )));
                }
                let value = map.next_value()?;
                out.insert(name, value);
            }
            Ok(out)
        }
    }
    d.deserialize_map(ScopeVisitor)
}
