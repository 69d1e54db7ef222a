//! Helpers for the unit tables: values written as
//! `{"type": ..., "value": ..., "unknown": [...]}` documents.

use serde_json::{json, Value as Json};

use super::{path_from_json, path_to_json, type_from_json, type_to_json};
use super::{value_from_json, value_to_json};
use crate::value::{PathStep, Value};

/// Parses JSON text keeping the exact number text.
pub(crate) fn parse(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("test JSON {text}: {e}"))
}

/// Decodes a `{"type", "value", "unknown"}` document.
pub(crate) fn value(text: &str) -> Value {
    let doc = parse(text);
    let ty = type_from_json(&doc["type"]).expect("test type");
    let unknown: Vec<Vec<PathStep>> = doc["unknown"]
        .as_array()
        .map(|paths| {
            paths
                .iter()
                .map(|p| path_from_json(p).expect("test path"))
                .collect()
        })
        .unwrap_or_default();
    value_from_json(&ty, &doc["value"], &unknown).expect("test value")
}

/// Encodes a value as a `{"type", "value", "unknown"}` document.
pub(crate) fn document(v: &Value) -> Json {
    let (body, unknown) = value_to_json(v);
    let unknown: Vec<Json> = unknown.iter().map(|p| path_to_json(p)).collect();
    json!({"type": type_to_json(&v.ty()), "value": body, "unknown": unknown})
}
