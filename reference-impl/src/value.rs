//! cty values: known, null or unknown, of every type.

use std::collections::BTreeMap;

use crate::number::Number;
use crate::types::Type;

/// A cty value.
///
/// Invariants (kept by the constructors in this module, assumed everywhere
/// else):
/// - strings are NFC-normalized, as `cty.StringVal` does;
/// - a `List`, `Set` or `Map` holds only elements whose type conforms
///   to `elem` (elements may be null or unknown of that type);
/// - a `Set` holds no two equal known elements and keeps them in cty's set
///   iteration order (`set_internals.go`);
/// - `Null(t)` and `Unknown(t)` are the only values of type `Dynamic` and
///   the only null/unknown representations at every type.
#[derive(Clone, Debug)]
pub enum Value {
    Null(Type),
    Unknown(Type),
    Bool(bool),
    Number(Number),
    String(String),
    List { elem: Type, items: Vec<Value> },
    Set { elem: Type, items: Vec<Value> },
    Map {
        elem: Type,
        items: BTreeMap<String, Value>,
    },
    Tuple(Vec<Value>),
    Object(BTreeMap<String, Value>),
}
