//! Requests: what an engine is asked to evaluate.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value as Json;

use crate::typed::exact_json;
use crate::{describe_path_error, Dialect, Kind, Level, TerraformVersion, TypedValue, Version};

/// One evaluation request.
///
/// `hcl_version` is the whole behaviour profile: on the wire it is two
/// fields, `hcl_version` (`"2.14"` or `"2.24"`) and `terraform_version`
/// (`"1.6"` to `"1.15"`, which implies `"2.24"`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    pub id: String,
    pub kind: Kind,
    pub source: String,
    /// With `kind: "convert"`: the type constraint, in Terraform syntax.
    pub type_constraint: Option<String>,
    /// With `kind: "body"`: the decoder spec.
    pub spec: Option<Json>,
    pub scope: BTreeMap<String, TypedValue>,
    /// The profile the request asks for; `None` leaves it to the engine.
    pub hcl_version: Option<Version>,
    pub dialect: Dialect,
    /// The directory file-system functions resolve relative paths against.
    pub base_dir: Option<String>,
    /// The conformance level the answer is judged at, for engines that can
    /// do less work at a lower level (a parser answers `parsed`).
    pub level: Option<Level>,
}

/// The wire form of a request, with the scope left as text (`S` is
/// `&RawValue` when reading a line, the scope itself otherwise).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
struct RequestWire<S> {
    id: String,
    kind: Kind,
    source: String,
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    type_constraint: Option<String>,
    #[serde(
        default,
        deserialize_with = "optional_exact_json",
        skip_serializing_if = "Option::is_none"
    )]
    spec: Option<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scope: Option<S>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hcl_version: Option<HclField>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    terraform_version: Option<TerraformField>,
    #[serde(default, skip_serializing_if = "Dialect::is_hcl2")]
    dialect: Dialect,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base_dir: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level: Option<Level>,
}

/// The `hcl_version` field: `"2.14"` or `"2.24"`.
#[derive(Clone, Copy)]
struct HclField(Version);

impl Serialize for HclField {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = match self.0 {
            Version::V2_14 => "2.14",
            Version::Terraform(_) => "2.24",
        };
        s.serialize_str(text)
    }
}

impl<'de> Deserialize<'de> for HclField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<HclField, D::Error> {
        match <std::borrow::Cow<'de, str>>::deserialize(d)?.as_ref() {
            "2.14" => Ok(HclField(Version::V2_14)),
            "2.24" => Ok(HclField(Version::V2_24)),
            other => Err(serde::de::Error::custom(format!(
                "unknown HCL version {other:?} (expected 2.14 or 2.24)"
            ))),
        }
    }
}

/// The `terraform_version` field: `"1.6"` to `"1.15"`.
#[derive(Clone, Copy)]
struct TerraformField(TerraformVersion);

impl Serialize for TerraformField {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.as_str())
    }
}

impl<'de> Deserialize<'de> for TerraformField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TerraformField, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        TerraformVersion::parse(&text)
            .map(TerraformField)
            .ok_or_else(|| serde::de::Error::custom(unknown_terraform_version(&text)))
    }
}

/// The error for a Terraform version the corpus is not recorded on.
pub fn unknown_terraform_version(text: &str) -> String {
    let known: Vec<&str> = TerraformVersion::ALL.iter().map(|v| v.as_str()).collect();
    format!(
        "unknown Terraform version {text:?} (expected one of {})",
        known.join(", ")
    )
}

const MSG_TERRAFORM_NOT_2_14: &str =
    "terraform_version: a Terraform version is an HCL 2.24-era profile, not hcl_version \"2.14\"";

impl<S> RequestWire<S> {
    /// The profile the two wire fields name.
    fn profile(&self) -> Result<Option<Version>, &'static str> {
        match (self.hcl_version, self.terraform_version) {
            (Some(HclField(Version::V2_14)), Some(_)) => Err(MSG_TERRAFORM_NOT_2_14),
            (_, Some(TerraformField(v))) => Ok(Some(Version::Terraform(v))),
            (h, None) => Ok(h.map(|HclField(v)| v)),
        }
    }
}

impl Serialize for Request {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (hcl_version, terraform_version) = match self.hcl_version {
            None => (None, None),
            Some(Version::V2_14) => (Some(HclField(Version::V2_14)), None),
            // `"2.24"` alone means the latest Terraform.
            Some(v) if v == Version::V2_24 => (Some(HclField(v)), None),
            Some(v @ Version::Terraform(t)) => (Some(HclField(v)), Some(TerraformField(t))),
        };
        RequestWire {
            id: self.id.clone(),
            kind: self.kind,
            source: self.source.clone(),
            type_constraint: self.type_constraint.clone(),
            spec: self.spec.clone(),
            scope: (!self.scope.is_empty()).then_some(&self.scope),
            hcl_version,
            terraform_version,
            dialect: self.dialect,
            base_dir: self.base_dir.clone(),
            level: self.level,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Request {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Request, D::Error> {
        #[derive(Deserialize)]
        struct Scope(#[serde(deserialize_with = "unique_scope")] BTreeMap<String, TypedValue>);
        let wire = RequestWire::<Scope>::deserialize(d)?;
        let profile = wire.profile().map_err(serde::de::Error::custom)?;
        Ok(Request {
            id: wire.id,
            kind: wire.kind,
            source: wire.source,
            type_constraint: wire.type_constraint,
            spec: wire.spec,
            scope: wire.scope.map(|Scope(s)| s).unwrap_or_default(),
            hcl_version: profile,
            dialect: wire.dialect,
            base_dir: wire.base_dir,
            level: wire.level,
        })
    }
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
const MSG_BODY_NEEDS_SPEC: &str = "spec: a `body` or `body_variables` request needs a spec";
const MSG_SPEC_ONLY_BODY: &str = "spec: only a `body` or `body_variables` request has a spec";

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
            .and_then(|r: RequestWire<&RawValue>| de.end().map(|()| r).map_err(|e| e.to_string()));
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
        let profile = match wire.profile() {
            Ok(p) => p,
            Err(message) => {
                return Err(BadRequest {
                    id: Some(wire.id),
                    message: message.to_string(),
                })
            }
        };
        let req = Request {
            id: wire.id,
            kind: wire.kind,
            source: wire.source,
            type_constraint: wire.type_constraint,
            spec: wire.spec,
            scope: BTreeMap::new(),
            hcl_version: profile,
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
        match (self.kind.needs_spec(), self.spec.is_some()) {
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
