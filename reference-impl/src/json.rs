//! go-cty's JSON encodings of types and values (`cty/json`), extended with
//! the protocol's list of unknown paths, and lossless number text.
//!
//! Value decoding follows cty's `json.Unmarshal` (including its lenient
//! primitive rules: numbers and bools are accepted where a string is
//! wanted, strings where a number or bool is); encoding follows
//! `json.Marshal` for a value's own type. The extensions: infinities are the
//! strings "Infinity" / "-Infinity", and unknown values are written as null
//! and listed as paths (an array of attribute names or map keys as strings
//! and list, tuple or set positions as integers).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};

use serde_json::Value as Json;

use crate::convert::convert;
use crate::goquote::go_quote;
use crate::number::Number;
use crate::text::normalize_string;
use crate::types::Type;
use crate::value::{PathStep, Value, MAX_VALUE_DEPTH};

/// A malformed type or value document; `path` says where inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub path: String,
    pub message: String,
}

/// The JSON strings standing for the infinities.
pub const POSITIVE_INFINITY: &str = "Infinity";
pub const NEGATIVE_INFINITY: &str = "-Infinity";

const TOO_DEEP: &str = "nesting too deep";

/// `["list","string"]`, `["object",{"a":"bool"}]`, `"dynamic"`, ...
pub fn type_from_json(json: &Json) -> Result<Type, JsonError> {
    decode_type(json, &mut Vec::new(), 0)
}

/// Writes cty's JSON type notation, e.g. `["list","string"]`. It is
/// defined here, beside the notation, so that `types` depends on no codec.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", type_to_json(self))
    }
}

pub fn type_to_json(ty: &Type) -> Json {
    match ty {
        Type::String => Json::from("string"),
        Type::Number => Json::from("number"),
        Type::Bool => Json::from("bool"),
        Type::Dynamic => Json::from("dynamic"),
        Type::List(e) => Json::Array(vec![Json::from("list"), type_to_json(e)]),
        Type::Set(e) => Json::Array(vec![Json::from("set"), type_to_json(e)]),
        Type::Map(e) => Json::Array(vec![Json::from("map"), type_to_json(e)]),
        Type::Tuple(elems) => Json::Array(vec![
            Json::from("tuple"),
            Json::Array(elems.iter().map(type_to_json).collect()),
        ]),
        Type::Object(attrs) => {
            let mut out = vec![
                Json::from("object"),
                Json::Object(
                    attrs
                        .iter()
                        .map(|(k, t)| (k.clone(), type_to_json(t.unwrap_optional().0)))
                        .collect(),
                ),
            ];
            // cty lists the optional attributes third.
            let optional: Vec<Json> = attrs
                .iter()
                .filter(|(_, t)| t.unwrap_optional().1)
                .map(|(k, _)| Json::from(k.as_str()))
                .collect();
            if !optional.is_empty() {
                out.push(Json::Array(optional));
            }
            Json::Array(out)
        }
        Type::Optional(t) => type_to_json(t),
    }
}

/// Decodes a value of type `ty` in cty's JSON value encoding; numbers are
/// read from their decimal text at 512 bits (never through f64), and the
/// strings "Infinity" / "-Infinity" are infinities. Each path in `unknown`
/// marks the value there as unknown (its JSON must be null); every path
/// must lead to a position inside the value. A set's positions are those of
/// its JSON array, which [`value_to_json`] writes in cty's set order.
///
/// A JSON number decoded as a string keeps serde_json's text of it, which
/// normalizes exponents (`1E5` reads as "1e+5"; cty keeps "1E5").
pub fn value_from_json(
    ty: &Type,
    json: &Json,
    unknown: &[Vec<PathStep>],
) -> Result<Value, JsonError> {
    let mut decoder = Decoder {
        unknown: unknown.iter().cloned().collect(),
        used: BTreeSet::new(),
        path: Vec::new(),
        depth: 0,
    };
    let value = decoder.decode(ty, json)?;
    if let Some(unused) = decoder.unknown.difference(&decoder.used).next() {
        return Err(JsonError {
            path: render_path(unused),
            message: "unknown path does not lead to a value".to_string(),
        });
    }
    Ok(value)
}

/// Encodes a value: unknown parts are written as null and listed in the
/// returned paths; numbers are written as exact decimal JSON numbers
/// (`Number::text`), infinities as "Infinity" / "-Infinity".
pub fn value_to_json(value: &Value) -> (Json, Vec<Vec<PathStep>>) {
    let json = encode(value);
    (json, value.unknown_paths())
}

pub fn path_from_json(json: &Json) -> Result<Vec<PathStep>, JsonError> {
    let Json::Array(steps) = json else {
        return Err(JsonError {
            path: String::new(),
            message: "a path must be an array".to_string(),
        });
    };
    steps
        .iter()
        .enumerate()
        .map(|(i, step)| match step {
            Json::String(s) => Ok(PathStep::Key(s.clone())),
            Json::Number(n) => n.as_u64().map(PathStep::Index).ok_or_else(|| JsonError {
                path: format!("[{i}]"),
                message: "a path index must be a non-negative integer".to_string(),
            }),
            _ => Err(JsonError {
                path: format!("[{i}]"),
                message: "a path step must be a string or an integer".to_string(),
            }),
        })
        .collect()
}

pub fn path_to_json(path: &[PathStep]) -> Json {
    Json::Array(
        path.iter()
            .map(|step| match step {
                PathStep::Key(k) => Json::from(k.as_str()),
                PathStep::Index(i) => Json::from(*i),
            })
            .collect(),
    )
}

/// A JSON number holding exactly `n`'s decimal text, or the infinity
/// strings.
pub fn number_to_json(n: &Number) -> Json {
    if n.is_infinite() {
        let text = n.text();
        return Json::from(if text.starts_with('-') {
            NEGATIVE_INFINITY
        } else {
            POSITIVE_INFINITY
        });
    }
    let text = n.text();
    match serde_json::from_str::<serde_json::Number>(&text) {
        Ok(num) => Json::Number(num),
        Err(_) => Json::String(text),
    }
}

/// Renders a value path for messages: attribute names and map keys as
/// `["key"]` (Go-quoted), positions as `[0]`.
fn render_path(path: &[PathStep]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            PathStep::Key(k) => {
                let _ = write!(out, "[{}]", go_quote(k));
            }
            PathStep::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

/// A step of the path to a part of a type description, rendered only for
/// a message: cty's path text (`[1]["a"]`) costs a Go quoting of every
/// attribute name, and nearly every type decodes without error.
#[derive(Clone, Copy)]
enum TypeStep<'a> {
    Key(&'a str),
    Index(usize),
}

fn type_error(path: &[TypeStep<'_>], message: impl Into<String>) -> JsonError {
    let mut text = String::new();
    for step in path {
        let _ = match step {
            TypeStep::Key(k) => write!(text, "[{}]", go_quote(k)),
            TypeStep::Index(i) => write!(text, "[{i}]"),
        };
    }
    JsonError {
        path: text,
        message: message.into(),
    }
}

/// Mirrors cty.Type.UnmarshalJSON on an already-parsed document.
fn decode_type<'a>(
    json: &'a Json,
    path: &mut Vec<TypeStep<'a>>,
    depth: usize,
) -> Result<Type, JsonError> {
    if depth > MAX_VALUE_DEPTH {
        return Err(type_error(path, TOO_DEEP));
    }
    match json {
        Json::String(name) => match name.as_str() {
            "bool" => Ok(Type::Bool),
            "number" => Ok(Type::Number),
            "string" => Ok(Type::String),
            "dynamic" => Ok(Type::Dynamic),
            _ => Err(type_error(
                path,
                format!("invalid primitive type name {}", go_quote(name)),
            )),
        },
        Json::Array(items) => {
            let Some(Json::String(kind)) = items.first() else {
                return Err(type_error(path, "invalid complex type kind name"));
            };
            let Some(arg) = items.get(1) else {
                return Err(type_error(path, "missing type description argument"));
            };
            let len = path.len();
            path.push(TypeStep::Index(1));
            let ty = match kind.as_str() {
                "list" => Type::list(decode_type(arg, path, depth + 1)?),
                "set" => Type::set(decode_type(arg, path, depth + 1)?),
                "map" => Type::map(decode_type(arg, path, depth + 1)?),
                "tuple" => {
                    // cty reads a null list of element types as none.
                    let elems = match arg {
                        Json::Array(elems) => elems.as_slice(),
                        Json::Null => &[],
                        _ => return Err(type_error(path, "tuple element types must be an array")),
                    };
                    let mut out = Vec::with_capacity(elems.len());
                    for (i, e) in elems.iter().enumerate() {
                        let l = path.len();
                        path.push(TypeStep::Index(i));
                        out.push(decode_type(e, path, depth + 1)?);
                        path.truncate(l);
                    }
                    Type::Tuple(out)
                }
                "object" => {
                    // cty reads a null object of attribute types as none.
                    let attrs = match arg {
                        Json::Object(attrs) => Some(attrs),
                        Json::Null => None,
                        _ => {
                            return Err(type_error(
                                path,
                                "object attribute types must be an object",
                            ))
                        }
                    };
                    let mut out = BTreeMap::new();
                    for (name, t) in attrs.into_iter().flatten() {
                        let l = path.len();
                        path.push(TypeStep::Key(name));
                        out.insert(
                            normalize_string(name.clone()),
                            decode_type(t, path, depth + 1)?,
                        );
                        path.truncate(l);
                    }
                    if items.len() > 2 {
                        return Err(type_error(
                            path,
                            "optional object attributes are not supported",
                        ));
                    }
                    Type::Object(out)
                }
                _ => {
                    path.truncate(len);
                    return Err(type_error(path, "invalid complex type kind name"));
                }
            };
            path.truncate(len);
            if items.len() > 2 {
                return Err(type_error(
                    path,
                    "unexpected extra data in type description",
                ));
            }
            Ok(ty)
        }
        Json::Object(_) => Err(type_error(path, "invalid complex type description")),
        _ => Err(type_error(path, "invalid type description")),
    }
}

struct Decoder {
    unknown: BTreeSet<Vec<PathStep>>,
    used: BTreeSet<Vec<PathStep>>,
    path: Vec<PathStep>,
    depth: usize,
}

impl Decoder {
    fn error(&self, message: impl Into<String>) -> JsonError {
        JsonError {
            path: render_path(&self.path),
            message: message.into(),
        }
    }

    /// Decodes the element at `step` below the current position.
    fn decode_at(&mut self, step: PathStep, ty: &Type, json: &Json) -> Result<Value, JsonError> {
        self.path.push(step);
        let result = self.decode(ty, json);
        self.path.pop();
        result
    }

    /// Mirrors cty/json's unmarshal at the current position.
    fn decode(&mut self, ty: &Type, json: &Json) -> Result<Value, JsonError> {
        if self.unknown.contains(&self.path) {
            self.used.insert(self.path.clone());
            if !json.is_null() {
                return Err(self.error("an unknown value must be written as null"));
            }
            return Ok(Value::unknown(ty.clone()));
        }
        if json.is_null() {
            return Ok(Value::Null(ty.clone()));
        }
        if self.depth >= MAX_VALUE_DEPTH {
            return Err(self.error(TOO_DEEP));
        }
        self.depth += 1;
        let result = self.decode_known(ty, json);
        self.depth -= 1;
        result
    }

    fn decode_known(&mut self, ty: &Type, json: &Json) -> Result<Value, JsonError> {
        match ty {
            Type::Optional(t) => self.decode_known(t, json),
            Type::Dynamic => self.decode_dynamic(json),
            Type::Bool => match json {
                Json::Bool(b) => Ok(Value::Bool(*b)),
                Json::String(s) => convert(&Value::string(s.as_str()), &Type::Bool)
                    .map_err(|e| self.error(e.message)),
                _ => Err(self.error("bool is required")),
            },
            Type::Number => match json {
                Json::Number(n) => Number::parse(&n.to_string())
                    .map(Value::Number)
                    .ok_or_else(|| self.error("a number is required")),
                Json::String(s) if s == POSITIVE_INFINITY => {
                    Ok(Value::Number(Number::infinity(false)))
                }
                Json::String(s) if s == NEGATIVE_INFINITY => {
                    Ok(Value::Number(Number::infinity(true)))
                }
                Json::String(s) => Number::parse(s)
                    .map(Value::Number)
                    .ok_or_else(|| self.error("a number is required")),
                _ => Err(self.error("number is required")),
            },
            Type::String => match json {
                Json::String(s) => Ok(Value::string(s.as_str())),
                Json::Number(n) => Ok(Value::string(n.to_string())),
                Json::Bool(b) => Ok(Value::string(if *b { "true" } else { "false" })),
                _ => Err(self.error("string is required")),
            },
            Type::List(elem) | Type::Set(elem) => {
                let Json::Array(items) = json else {
                    return Err(self.error("missing expected ["));
                };
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(self.decode_at(PathStep::Index(i as u64), elem, item)?);
                }
                let inconsistent = || self.error("inconsistent element types");
                match (ty.is_set(), out.is_empty()) {
                    (false, true) => Ok(Value::list((**elem).clone(), out)),
                    (true, true) => Ok(Value::set((**elem).clone(), out)),
                    (false, false) => Value::list_of(out).ok_or_else(inconsistent),
                    (true, false) => Value::set_of(out).ok_or_else(inconsistent),
                }
            }
            Type::Map(elem) => {
                let Json::Object(items) = json else {
                    return Err(self.error("missing expected {"));
                };
                let mut out = BTreeMap::new();
                for (k, item) in items {
                    let v = self.decode_at(PathStep::Key(k.clone()), elem, item)?;
                    out.insert(k.clone(), v);
                }
                if out.is_empty() {
                    return Ok(Value::map((**elem).clone(), out));
                }
                Value::map_of(out).ok_or_else(|| self.error("inconsistent element types"))
            }
            Type::Tuple(elems) => {
                let Json::Array(items) = json else {
                    return Err(self.error("missing expected ["));
                };
                if items.len() > elems.len() {
                    return Err(
                        self.error(format!("too many tuple elements (need {})", elems.len()))
                    );
                }
                let mut out = Vec::with_capacity(items.len());
                for (i, (item, ety)) in items.iter().zip(elems).enumerate() {
                    out.push(self.decode_at(PathStep::Index(i as u64), ety, item)?);
                }
                if out.len() != elems.len() {
                    return Err(
                        self.error(format!("not enough tuple elements (need {})", elems.len()))
                    );
                }
                Ok(Value::tuple(out))
            }
            Type::Object(attrs) => {
                let Json::Object(items) = json else {
                    return Err(self.error("missing expected {"));
                };
                let mut out = BTreeMap::new();
                for (k, item) in items {
                    let Some(aty) = attrs.get(k) else {
                        return Err(self.error(format!("unsupported attribute {}", go_quote(k))));
                    };
                    let v = self.decode_at(PathStep::Key(k.clone()), aty, item)?;
                    out.insert(k.clone(), v);
                }
                for (k, aty) in attrs {
                    if !out.contains_key(k) {
                        let mut path = self.path.clone();
                        path.push(PathStep::Key(k.clone()));
                        let v = if self.unknown.contains(&path) {
                            self.used.insert(path);
                            Value::unknown(aty.clone())
                        } else {
                            Value::Null(aty.clone())
                        };
                        out.insert(k.clone(), v);
                    }
                }
                Ok(Value::object(out))
            }
        }
    }

    /// Mirrors unmarshalDynamic: `{"value": ..., "type": ...}`.
    fn decode_dynamic(&mut self, json: &Json) -> Result<Value, JsonError> {
        let Json::Object(fields) = json else {
            return Err(self.error("missing expected {"));
        };
        let mut ty = None;
        let mut body = None;
        for (key, field) in fields {
            match key.as_str() {
                "type" => {
                    let t = decode_type(field, &mut Vec::new(), 0).map_err(|e| {
                        self.error(format!(
                            "failed to decode type for dynamic value: {}",
                            e.message
                        ))
                    })?;
                    ty = Some(t);
                }
                "value" => body = Some(field),
                _ => {
                    return Err(self.error(format!(
                        "invalid key {} in dynamically-typed value",
                        go_quote(key)
                    )))
                }
            }
        }
        let Some(ty) = ty else {
            return Err(self.error("missing type in dynamically-typed value"));
        };
        let Some(body) = body else {
            return Err(self.error("missing value in dynamically-typed value"));
        };
        self.decode(&ty, body)
    }
}

/// Mirrors cty/json's marshal for a value's own type.
fn encode(value: &Value) -> Json {
    match value {
        // Marks are written apart, as `sensitive` paths.
        Value::Marked(inner) => encode(inner),
        Value::Null(_) | Value::Unknown(..) => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => number_to_json(n),
        Value::String(s) => Json::String(s.clone()),
        Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
            Json::Array(items.iter().map(encode).collect())
        }
        Value::Map { items, .. } | Value::Object(items) => {
            Json::Object(items.iter().map(|(k, v)| (k.clone(), encode(v))).collect())
        }
    }
}

#[cfg(test)]
pub(crate) mod test_support;
#[cfg(test)]
mod tests;
