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

/// A step in a path into a value: an attribute name, a map key or a
/// list/tuple index, as in the protocol's unknown paths.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathStep {
    Key(String),
    Index(u64),
}

/// API contract (bodies owned by the value-model author).
impl Value {
    /// `cty.StringVal`: NFC-normalizes.
    pub fn string(_s: impl Into<String>) -> Value {
        todo!()
    }
    pub fn number(n: Number) -> Value {
        Value::Number(n)
    }
    /// `cty.ListVal` / `cty.ListValEmpty`; the caller guarantees every item
    /// conforms to `elem`.
    pub fn list(elem: Type, items: Vec<Value>) -> Value {
        Value::List { elem, items }
    }
    /// `cty.SetVal`: removes duplicates and orders as cty's set does.
    pub fn set(_elem: Type, _items: Vec<Value>) -> Value {
        todo!()
    }
    pub fn map(elem: Type, items: BTreeMap<String, Value>) -> Value {
        Value::Map { elem, items }
    }
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(items)
    }
    pub fn object(attrs: BTreeMap<String, Value>) -> Value {
        Value::Object(attrs)
    }
    /// `cty.DynamicVal`.
    pub fn dynamic_unknown() -> Value {
        Value::Unknown(Type::Dynamic)
    }
    pub fn ty(&self) -> Type {
        todo!()
    }
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null(_))
    }
    /// False only for a wholly unknown value (`cty.Value.IsKnown`).
    pub fn is_known(&self) -> bool {
        !matches!(self, Value::Unknown(_))
    }
    /// `cty.Value.IsWhollyKnown`: no unknown anywhere inside.
    pub fn is_wholly_known(&self) -> bool {
        todo!()
    }
    /// `cty.Value.RawEquals`: same type and same value, unknowns and nulls
    /// compared structurally. Used to compare results, never by operators.
    pub fn raw_equals(&self, _other: &Value) -> bool {
        todo!()
    }
    /// `cty.Value.ElementIterator` over a list, set, map, tuple or object:
    /// (key, element) pairs in cty's order. Keys are numbers for sequences,
    /// strings for maps and objects, and the element itself for sets.
    pub fn elements(&self) -> Vec<(Value, Value)> {
        todo!()
    }
    /// `cty.Value.LengthInt` for a known collection or structural value.
    pub fn length(&self) -> usize {
        todo!()
    }
    /// The paths of all unknown values inside this value (`[]` for a wholly
    /// unknown value), in a deterministic order.
    pub fn unknown_paths(&self) -> Vec<Vec<PathStep>> {
        todo!()
    }
}
