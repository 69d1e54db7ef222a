//! Typed values: go-cty's JSON type and value encodings, exact.
//!
//! Numbers must keep every digit and the sign of zero. serde_json (with
//! `arbitrary_precision`) keeps a number's text when it reads JSON *text*,
//! but a `serde_json::Value` handed to a deserializer gives its numbers to
//! visitors as 64-bit floats: `900719925474099.3` becomes `...099.2` and
//! `-0` becomes `0`. So the value document of a [`TypedValue`] is read
//! through `RawValue` ([`exact_json`]): from text it is the text itself, and
//! from a `Value` it is that value written back as text, digits intact.
//! Every reader in this crate also parses from text.

use std::panic::{catch_unwind, AssertUnwindSafe};

use hclspec_reference::json as cty_json;
use hclspec_reference::value::PathStep;
use hclspec_reference::Value;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use serde_json::Value as Json;

use crate::{join_path, panic_message};

/// A value with its type, in go-cty's JSON encodings, plus the paths of its
/// unknown parts (`[]` is the whole value; the JSON there is null), of its
/// sensitive parts (Terraform's marks), and what is known about its unknown
/// parts (go-cty's refinements).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypedValue {
    #[serde(rename = "type")]
    pub ty: Json,
    #[serde(deserialize_with = "exact_json")]
    pub value: Json,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<Json>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensitive: Vec<Json>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refinements: Vec<Refinement>,
}

/// What is known about one unknown part of a value (go-cty's refinements,
/// as its msgpack encoding carries them): only the facts known are
/// written; an unknown part with none is not listed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refinement {
    /// The unknown part's path, as in `unknown`.
    pub path: Json,
    /// It is certainly not null.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_null: bool,
    /// An unknown string's known prefix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string_prefix: Option<String>,
    /// An unknown number's lower bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number_lower: Option<NumberBound>,
    /// An unknown number's upper bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number_upper: Option<NumberBound>,
    /// An unknown collection's least length (absent: 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_lower: Option<u64>,
    /// An unknown collection's greatest length (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_upper: Option<u64>,
}

/// A bound on an unknown number: the number's exact decimal text (a string,
/// so that no format rounds it), and whether the bound is inclusive.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumberBound {
    pub value: String,
    pub inclusive: bool,
}

/// Why a [`TypedValue`] does not decode; `path` names the field inside it
/// (`type`, `value[2].a`, `unknown[0]`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Reads a JSON document exactly, through its text, so that no number
/// passes through `f64`.
pub fn exact_json<'de, D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
    let raw = Box::<RawValue>::deserialize(d)?;
    serde_json::from_str(raw.get()).map_err(serde::de::Error::custom)
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

    /// Encodes a reference value (its own type, unknown and marked parts
    /// as paths).
    pub fn encode(value: &Value) -> TypedValue {
        let ty = cty_json::type_to_json(&value.ty());
        let (json, unknown) = cty_json::value_to_json(value);
        TypedValue {
            ty,
            value: json,
            unknown: unknown.iter().map(|p| cty_json::path_to_json(p)).collect(),
            sensitive: value
                .marked_paths()
                .iter()
                .map(|p| cty_json::path_to_json(p))
                .collect(),
            refinements: unknown
                .iter()
                .filter_map(|p| refinement_at(value, p))
                .collect(),
        }
    }

    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).expect("a typed value always serializes")
    }

    /// Reads a typed value from JSON text, exactly.
    pub fn from_json_text(text: &str) -> Result<TypedValue, String> {
        let mut de = serde_json::Deserializer::from_str(text);
        let tv = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| crate::describe_path_error(&e))?;
        de.end().map_err(|e| e.to_string())?;
        Ok(tv)
    }

    fn decode_unguarded(&self) -> Result<Value, DecodeError> {
        let ty = cty_json::type_from_json(&self.ty).map_err(|e| DecodeError {
            path: join_path("type", &e.path),
            message: e.message,
        })?;
        let paths = decode_paths(&self.unknown, "unknown")?;
        let sensitive = decode_paths(&self.sensitive, "sensitive")?;
        let value =
            cty_json::value_from_json(&ty, &self.value, &paths).map_err(|e| DecodeError {
                path: join_path("value", &e.path),
                message: e.message,
            })?;
        Ok(value.mark_with_paths(&sensitive))
    }
}

/// The refinement of the unknown part of `value` at `path`, as go-cty's
/// msgpack encoding writes it (`marshalUnknownValue`): nothing for the
/// dynamic pseudo-type, no infinite bound, no length bound that says
/// nothing.
fn refinement_at(value: &Value, path: &[PathStep]) -> Option<Refinement> {
    let mut at = value.unmarked();
    for step in path {
        at = match (at, step) {
            (
                Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items),
                PathStep::Index(i),
            ) => items.get(usize::try_from(*i).ok()?)?,
            (Value::Map { items, .. } | Value::Object(items), PathStep::Key(k)) => items.get(k)?,
            _ => return None,
        }
        .unmarked();
    }
    let facts = at.refinement()?;
    let bound = |b: &Option<(hclspec_reference::Number, bool)>| {
        b.as_ref().map(|(n, inclusive)| NumberBound {
            value: n.to_string(),
            inclusive: *inclusive,
        })
    };
    let refinement = Refinement {
        path: cty_json::path_to_json(path),
        not_null: facts.not_null,
        string_prefix: (!facts.prefix.is_empty()).then(|| facts.prefix.clone()),
        number_lower: bound(&facts.lower),
        number_upper: bound(&facts.upper),
        length_lower: (facts.min_length != 0).then_some(facts.min_length),
        length_upper: (facts.max_length != hclspec_reference::value::MAX_LENGTH)
            .then_some(facts.max_length),
    };
    let says_something = refinement
        != Refinement {
            path: refinement.path.clone(),
            ..Refinement::default()
        };
    says_something.then_some(refinement)
}

fn decode_paths(paths: &[Json], field: &str) -> Result<Vec<Vec<PathStep>>, DecodeError> {
    let mut out = Vec::with_capacity(paths.len());
    for (i, p) in paths.iter().enumerate() {
        let path = cty_json::path_from_json(p).map_err(|e| DecodeError {
            path: join_path(&format!("{field}[{i}]"), &e.path),
            message: e.message,
        })?;
        out.push(path);
    }
    Ok(out)
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
