//! go-cty's JSON encodings of types and values (`cty/json`), extended with
//! the protocol's list of unknown paths, and lossless number text.
//!
//! API contract (bodies owned by the value-model author).

use crate::types::Type;
use crate::value::{PathStep, Value};

/// A malformed type or value document; `path` says where inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub path: String,
    pub message: String,
}

/// `["list","string"]`, `["object",{"a":"bool"}]`, `"dynamic"`, ...
pub fn type_from_json(_json: &serde_json::Value) -> Result<Type, JsonError> {
    todo!()
}

pub fn type_to_json(_ty: &Type) -> serde_json::Value {
    todo!()
}

/// Decodes a value of type `ty` in cty's JSON value encoding; numbers are
/// read from their decimal text at 512 bits (never through f64), and the
/// strings "Infinity" / "-Infinity" are infinities. Each path in `unknown`
/// marks the value there as unknown (its JSON must be null).
pub fn value_from_json(
    _ty: &Type,
    _json: &serde_json::Value,
    _unknown: &[Vec<PathStep>],
) -> Result<Value, JsonError> {
    todo!()
}

/// Encodes a value: unknown parts are written as null and listed in the
/// returned paths; numbers are written as exact decimal JSON numbers
/// (`Number::text`), infinities as "Infinity" / "-Infinity".
pub fn value_to_json(_value: &Value) -> (serde_json::Value, Vec<Vec<PathStep>>) {
    todo!()
}

pub fn path_from_json(_json: &serde_json::Value) -> Result<Vec<PathStep>, JsonError> {
    todo!()
}

pub fn path_to_json(_path: &[PathStep]) -> serde_json::Value {
    todo!()
}
