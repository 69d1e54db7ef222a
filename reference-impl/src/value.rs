//! cty values: known, null or unknown, of every type, with Terraform's
//! sensitive mark.
//!
//! # Marks
//!
//! go-cty lets any value carry marks; Terraform uses one of them,
//! `marks.Sensitive` (the ephemeral mark never reaches an expression's
//! result). Here a mark is a wrapper, [`Value::Marked`], around the value
//! it marks, at the level it marks: `[sensitive(1), 2]` is a tuple whose
//! first element is marked, `sensitive([1, 2])` a marked tuple. The
//! constructors keep two invariants: a mark never wraps a mark, and the
//! elements of a set are never marked (cty's `SetVal` moves every mark
//! inside its elements onto the set).
//!
//! Marked values are handled by the evaluator, the function-call boundary
//! and the conversions, each as go-cty and HCL do at that step; function
//! implementations see marks only where the function allows them (see
//! `functions::marks`). [`Value::unmark`] takes a value's own mark off
//! (`Value.Unmark`), [`Value::unmark_deep`] every mark inside it
//! (`Value.UnmarkDeep`), and [`Value::unmark_deep_with_paths`] /
//! [`Value::mark_with_paths`] move marks off a value and back onto the same
//! places of another (`UnmarkDeepWithPaths`, `MarkWithPaths`). The
//! conversion plans work on unmarked values only; the queries that look at
//! a value's state ([`Value::ty`], [`Value::is_null`], [`Value::is_known`])
//! look through a mark, as cty's do.

mod refine;
mod set;

use std::collections::BTreeMap;

use crate::number::Number;
use crate::text::{is_nfc, normalize_string};
use crate::types::Type;

pub(crate) use refine::safe_known_prefix_cut;
pub use refine::{
    refinements_enabled, safe_known_prefix, with_refinements, Refined, Refinement,
    RefinementBuilder, ValueRange, MAX_LENGTH,
};
pub(crate) use set::hash as set_hash;

/// The deepest nesting of values (and types) the entry points accept
/// (the protocol's JSON, `jsondecode`, `yamldecode`): as deep as the
/// parser's own cap, far beyond what Go HCL takes (`jsondecode` stops at
/// 10,001 levels there; `yamldecode` has no cap). Recursive walks over
/// values that deep run on the evaluation thread's large stack.
pub const MAX_VALUE_DEPTH: usize = 100_000;

/// A cty value.
///
/// Invariants (kept by the constructors in this module, assumed everywhere
/// else):
/// - strings, object attribute names and map keys are NFC-normalized, as
///   `cty.StringVal`, `cty.ObjectVal` and `cty.MapVal` do;
/// - a `List`, `Set` or `Map` holds only elements whose type conforms
///   to `elem`, and its null and unknown elements have exactly type `elem`
///   (cty stores them untyped);
/// - a `Set` holds no two equal known elements and keeps them in cty's set
///   iteration order (`set_internals.go`);
/// - `Null(t)` and `Unknown(t)` are the only values of type `Dynamic` and
///   the only null/unknown representations at every type.
#[derive(Clone, Debug)]
pub enum Value {
    Null(Type),
    /// An unknown value and what is known about it (nothing, in the HCL
    /// 2.14 profile); see [`refine`](self::Refinement).
    Unknown(Type, Refinement),
    Bool(bool),
    Number(Number),
    String(String),
    List {
        elem: Type,
        items: Vec<Value>,
    },
    Set {
        elem: Type,
        items: Vec<Value>,
    },
    Map {
        elem: Type,
        items: BTreeMap<String, Value>,
    },
    Tuple(Vec<Value>),
    Object(BTreeMap<String, Value>),
    /// The value inside carries Terraform's sensitive mark; never a mark
    /// around a mark (build it with [`Value::mark`]).
    Marked(Box<Value>),
}

/// A step in a path into a value: an attribute name, a map key or a
/// list/tuple index (for sets, the position in cty's set order), as in the
/// protocol's unknown paths.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathStep {
    Key(String),
    Index(u64),
}

impl Value {
    /// The value as Terraform's plan holds it, which is how Terraform
    /// gives a result: go-cty's msgpack encoding changes the precision of
    /// some numbers ([`Number::through_msgpack`]), in the value and in the
    /// bounds of its unknown parts. A set keeps its order: the plan lists
    /// it as the value encoded orders it.
    pub fn through_msgpack(&self) -> Value {
        let all = |items: &[Value]| items.iter().map(Value::through_msgpack).collect();
        let each = |items: &BTreeMap<String, Value>| {
            items
                .iter()
                .map(|(k, v)| (k.clone(), v.through_msgpack()))
                .collect()
        };
        match self {
            Value::Number(n) => Value::Number(n.through_msgpack()),
            Value::Unknown(ty, r) => Value::Unknown(ty.clone(), r.through_msgpack()),
            Value::List { elem, items } => Value::List {
                elem: elem.clone(),
                items: all(items),
            },
            Value::Set { elem, items } => Value::Set {
                elem: elem.clone(),
                items: all(items),
            },
            Value::Map { elem, items } => Value::Map {
                elem: elem.clone(),
                items: each(items),
            },
            Value::Tuple(items) => Value::Tuple(all(items)),
            Value::Object(items) => Value::Object(each(items)),
            Value::Marked(inner) => Value::Marked(Box::new(inner.through_msgpack())),
            Value::Null(_) | Value::Bool(_) | Value::String(_) => self.clone(),
        }
    }

    /// `cty.StringVal`: NFC-normalizes.
    pub fn string(s: impl Into<String>) -> Value {
        Value::String(normalize_string(s.into()))
    }
    pub fn number(n: Number) -> Value {
        Value::Number(n)
    }
    /// `cty.NumberIntVal`.
    pub fn int(n: i64) -> Value {
        Value::Number(Number::from_i64(n))
    }
    pub fn bool(b: bool) -> Value {
        Value::Bool(b)
    }
    /// `cty.NullVal(ty)`.
    pub fn null(ty: Type) -> Value {
        Value::Null(ty)
    }
    /// `cty.UnknownVal(ty)`.
    pub fn unknown(ty: Type) -> Value {
        Value::Unknown(ty, Refinement::NONE)
    }
    /// `cty.ListVal` / `cty.ListValEmpty`; the caller guarantees every item
    /// conforms to `elem`.
    pub fn list(elem: Type, items: Vec<Value>) -> Value {
        let items = items.into_iter().map(|v| fit_element(&elem, v)).collect();
        Value::List { elem, items }
    }
    /// `cty.SetVal` / `cty.SetValEmpty`: removes duplicates and orders as
    /// cty's set does; the caller guarantees every item conforms to `elem`.
    /// A mark on or inside an item marks the whole set instead, as in
    /// cty.
    pub fn set(elem: Type, items: Vec<Value>) -> Value {
        let mut marked = false;
        let items = items
            .into_iter()
            .map(|v| {
                let (v, m) = v.unmark_deep();
                marked |= m;
                fit_element(&elem, v)
            })
            .collect();
        let items = set::build(&elem, items);
        Value::Set { elem, items }.mark_if(marked)
    }
    /// `cty.MapVal` / `cty.MapValEmpty`: NFC-normalizes the keys; the caller
    /// guarantees every item conforms to `elem`.
    pub fn map(elem: Type, items: BTreeMap<String, Value>) -> Value {
        let items = items
            .into_iter()
            .map(|(k, v)| (normalize_string(k), fit_element(&elem, v)))
            .collect();
        Value::Map { elem, items }
    }
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(items)
    }
    /// `cty.ObjectVal`: NFC-normalizes the attribute names.
    pub fn object(attrs: BTreeMap<String, Value>) -> Value {
        if attrs.keys().all(|k| is_nfc(k)) {
            return Value::Object(attrs);
        }
        Value::Object(
            attrs
                .into_iter()
                .map(|(k, v)| (normalize_string(k), v))
                .collect(),
        )
    }
    /// `cty.DynamicVal`.
    pub fn dynamic_unknown() -> Value {
        Value::unknown(Type::Dynamic)
    }

    /// `cty.ListVal(items)`: the element type is that of the first item
    /// not of the dynamic type. `None` when `items` is empty or the types
    /// differ (`cty.CanListVal` is false).
    pub fn list_of(items: Vec<Value>) -> Option<Value> {
        let elem = common_element_type(&items)?;
        Some(Value::list(elem, items))
    }
    /// `cty.SetVal(items)`, with the same rules as [`Value::list_of`].
    pub fn set_of(items: Vec<Value>) -> Option<Value> {
        let elem = common_element_type(&items)?;
        Some(Value::set(elem, items))
    }
    /// `cty.MapVal(items)`, with the same rules as [`Value::list_of`].
    pub fn map_of(items: BTreeMap<String, Value>) -> Option<Value> {
        let values: Vec<&Value> = items.values().collect();
        let elem = common_element_type_refs(&values)?;
        Some(Value::map(elem, items))
    }

    pub fn ty(&self) -> Type {
        match self {
            Value::Marked(v) => v.ty(),
            Value::Null(t) | Value::Unknown(t, ..) => t.clone(),
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::List { elem, .. } => Type::list(elem.clone()),
            Value::Set { elem, .. } => Type::set(elem.clone()),
            Value::Map { elem, .. } => Type::map(elem.clone()),
            Value::Tuple(items) => Type::Tuple(items.iter().map(Value::ty).collect()),
            Value::Object(attrs) => {
                Type::Object(attrs.iter().map(|(k, v)| (k.clone(), v.ty())).collect())
            }
        }
    }
    pub fn is_null(&self) -> bool {
        matches!(self.unmarked(), Value::Null(_))
    }
    /// False only for a wholly unknown value (`cty.Value.IsKnown`).
    pub fn is_known(&self) -> bool {
        !matches!(self.unmarked(), Value::Unknown(..))
    }
    /// `cty.Value.IsWhollyKnown`: no unknown anywhere inside.
    pub fn is_wholly_known(&self) -> bool {
        match self {
            Value::Unknown(..) => false,
            Value::Marked(v) => v.is_wholly_known(),
            _ => self.children().all(Value::is_wholly_known),
        }
    }
    /// `cty.Value.HasWhollyKnownType`: no unknown of a type with dynamic
    /// parts anywhere inside.
    pub fn has_wholly_known_type(&self) -> bool {
        match self {
            Value::Marked(v) => v.has_wholly_known_type(),
            Value::Null(_) => true,
            Value::Unknown(t, ..) => !t.has_dynamic_types(),
            _ => self.children().all(Value::has_wholly_known_type),
        }
    }

    /// `cty.Value.RawEquals`: same type and same value, unknowns and nulls
    /// compared structurally. Used to compare results, never by operators.
    pub fn raw_equals(&self, other: &Value) -> bool {
        if self.ty() != other.ty() {
            return false;
        }
        self.raw_equals_same_type(other)
    }

    /// `RawEquals` once the types are known to be equal; marks count.
    pub(crate) fn raw_equals_same_type(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Marked(a), Value::Marked(b)) => a.raw_equals_same_type(b),
            (Value::Marked(_), _) | (_, Value::Marked(_)) => false,
            (Value::Unknown(..), Value::Unknown(..)) | (Value::Null(_), Value::Null(_)) => true,
            (Value::Unknown(..), _) | (_, Value::Unknown(..)) => false,
            (Value::Null(_), _) | (_, Value::Null(_)) => false,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a.cty_equals(b),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::List { items: a, .. }, Value::List { items: b, .. })
            | (Value::Set { items: a, .. }, Value::Set { items: b, .. })
            | (Value::Tuple(a), Value::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.raw_equals_same_type(y))
            }
            (Value::Map { items: a, .. }, Value::Map { items: b, .. })
            | (Value::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, x)| b.get(k).is_some_and(|y| x.raw_equals_same_type(y)))
            }
            _ => false,
        }
    }

    /// `cty.Value.ElementIterator` over a list, set, map, tuple or object:
    /// (key, element) pairs in cty's order. Keys are numbers for sequences,
    /// strings for maps and objects, and the element itself for sets.
    /// Empty for any other value, and for null or unknown values (which cty
    /// refuses to iterate).
    pub fn elements(&self) -> Vec<(Value, Value)> {
        match self {
            Value::List { items, .. } | Value::Tuple(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (Value::int(i as i64), v.clone()))
                .collect(),
            Value::Set { items, .. } => items.iter().map(|v| (v.clone(), v.clone())).collect(),
            Value::Map { items, .. } | Value::Object(items) => items
                .iter()
                .map(|(k, v)| (Value::String(k.clone()), v.clone()))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The element values of a known collection or structural value in
    /// cty's iteration order, without keys (`cty.Value.AsValueSlice`).
    pub fn element_values(&self) -> Vec<&Value> {
        self.children().collect()
    }

    /// `cty.Value.LengthInt` for a known collection or structural value.
    /// Tuples and objects report their type's length even when null or
    /// unknown; other null or unknown values report 0 (cty panics). A set
    /// counts each unknown element separately, as cty does.
    pub fn length(&self) -> usize {
        match self {
            Value::Marked(v) => v.length(),
            Value::Null(Type::Tuple(t)) | Value::Unknown(Type::Tuple(t), ..) => t.len(),
            Value::Null(Type::Object(t)) | Value::Unknown(Type::Object(t), ..) => t.len(),
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                items.len()
            }
            Value::Map { items, .. } | Value::Object(items) => items.len(),
            _ => 0,
        }
    }

    /// `cty.Value.Length` as a value: a number, or an unknown number for an
    /// unknown collection and for a set holding more than one element when
    /// any of them is not wholly known. `None` where cty panics (null
    /// collections, non-collections).
    pub fn length_value(&self) -> Option<Value> {
        let ty = self.ty();
        if let Type::Tuple(elems) = &ty {
            return Some(Value::int(elems.len() as i64));
        }
        // An unknown length is refined (go-cty 1.13+): not null, within
        // the collection's length bounds, or for a known set holding
        // unknowns, between one and its number of elements.
        let between = |least: u64, most: u64| {
            Value::unknown(Type::Number)
                .refine()
                .not_null()
                .number_lower_bound(Some((Number::from_u64(least), true)))
                .number_upper_bound(Some((Number::from_u64(most), true)))
                .finish()
        };
        if !self.is_known() {
            let range = self.range();
            return Some(between(range.min_length, range.max_length));
        }
        match self {
            Value::Set { items, .. } => {
                if items.len() == 1 || self.is_wholly_known() {
                    Some(Value::int(items.len() as i64))
                } else {
                    Some(between(1, items.len() as u64))
                }
            }
            Value::List { .. } | Value::Map { .. } | Value::Object(_) => {
                Some(Value::int(self.length() as i64))
            }
            _ => None,
        }
    }

    /// The paths of all unknown values inside this value (`[]` for a wholly
    /// unknown value), in cty's iteration order.
    pub fn unknown_paths(&self) -> Vec<Vec<PathStep>> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        collect_unknown_paths(self, &mut path, &mut out);
        out
    }

    /// The string of a known string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    /// The bool of a known bool value.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// The number of a known number value.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// `cty.Value.GetAttr`: the attribute of an object value. A dynamic
    /// value gives `cty.DynamicVal`; an unknown object an unknown of the
    /// attribute's type; a null object a null of it (as cty's raw lookup
    /// does). `None` when this is not an object or has no such attribute.
    pub fn get_attr(&self, name: &str) -> Option<Value> {
        match self {
            Value::Null(Type::Dynamic) | Value::Unknown(Type::Dynamic, ..) => {
                Some(Value::dynamic_unknown())
            }
            Value::Object(attrs) => attrs.get(name).cloned(),
            Value::Null(Type::Object(atys)) => atys.get(name).cloned().map(Value::Null),
            Value::Unknown(Type::Object(atys), ..) => atys.get(name).cloned().map(Value::unknown),
            _ => None,
        }
    }

    /// `cty.Value.Index` on a list, map or tuple: the element at `key`
    /// (a number for lists and tuples, a string for maps). Unknown keys or
    /// collections give unknowns as cty does. `None` where cty would panic
    /// or the element does not exist (check [`Value::has_index`] first).
    pub fn index(&self, key: &Value) -> Option<Value> {
        let ty = self.ty();
        if ty == Type::Dynamic {
            return Some(Value::dynamic_unknown());
        }
        match &ty {
            Type::List(elem) | Type::Map(elem) => {
                let want_key = if ty.is_list() {
                    Type::Number
                } else {
                    Type::String
                };
                let key_ty = key.ty();
                if key_ty == Type::Dynamic || (key_ty == want_key && !key.is_known()) {
                    return Some(Value::unknown((**elem).clone()));
                }
                if key_ty != want_key {
                    return None;
                }
                match self {
                    Value::Unknown(..) => Some(Value::unknown((**elem).clone())),
                    Value::List { items, .. } => {
                        let i = key.as_number()?.to_i64_exact()?;
                        items.get(usize::try_from(i).ok()?).cloned()
                    }
                    Value::Map { items, .. } => items.get(key.as_str()?).cloned(),
                    _ => None,
                }
            }
            Type::Tuple(etys) => {
                let key_ty = key.ty();
                if key_ty == Type::Dynamic || (key_ty == Type::Number && !key.is_known()) {
                    return Some(Value::dynamic_unknown());
                }
                let i = usize::try_from(key.as_number()?.to_i64_exact()?).ok()?;
                match self {
                    Value::Unknown(..) => etys.get(i).cloned().map(Value::unknown),
                    Value::Tuple(items) => items.get(i).cloned(),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `cty.Value.HasIndex` on a list, map or tuple: a bool, or an unknown
    /// bool. `None` for other types (cty panics).
    pub fn has_index(&self, key: &Value) -> Option<Value> {
        let ty = self.ty();
        let key_ty = key.ty();
        let unknown = Some(Value::unknown(Type::Bool));
        let int_key = || {
            key.as_number()
                .and_then(Number::to_i64_exact)
                .and_then(|i| usize::try_from(i).ok())
        };
        match &ty {
            Type::Dynamic => unknown,
            Type::List(_) | Type::Tuple(_) => {
                if key_ty == Type::Dynamic {
                    return unknown;
                }
                if key_ty != Type::Number {
                    return Some(Value::Bool(false));
                }
                if !key.is_known() || (ty.is_list() && !self.is_known()) {
                    return unknown;
                }
                let Some(i) = int_key() else {
                    return Some(Value::Bool(false));
                };
                Some(Value::Bool(i < self.length()))
            }
            Type::Map(_) => {
                if key_ty == Type::Dynamic {
                    return unknown;
                }
                if key_ty != Type::String {
                    return Some(Value::Bool(false));
                }
                if !key.is_known() || !self.is_known() {
                    return unknown;
                }
                match (self, key) {
                    (Value::Map { items, .. }, Value::String(k)) => {
                        Some(Value::Bool(items.contains_key(k)))
                    }
                    _ => Some(Value::Bool(false)),
                }
            }
            _ => None,
        }
    }

    /// The direct element values of a known collection or structural value
    /// (through its mark).
    fn children(&self) -> Box<dyn Iterator<Item = &Value> + '_> {
        match self {
            Value::Marked(v) => v.children(),
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                Box::new(items.iter())
            }
            Value::Map { items, .. } | Value::Object(items) => Box::new(items.values()),
            _ => Box::new(std::iter::empty()),
        }
    }
}

/// Gives a null or unknown element the collection's element type, as cty's
/// untyped storage of collection elements does.
fn fit_element(elem: &Type, v: Value) -> Value {
    match v {
        Value::Marked(inner) => fit_element(elem, *inner).mark(),
        Value::Null(t) if t != *elem => Value::Null(elem.clone()),
        Value::Unknown(t, ..) if t != *elem => Value::unknown(elem.clone()),
        v => v,
    }
}

/// cty's element type rule for `ListVal`/`SetVal`/`MapVal` (none for no
/// items or items of different types).
fn common_element_type(items: &[Value]) -> Option<Type> {
    (!items.is_empty())
        .then(|| element_type(items).ok())
        .flatten()
}

fn common_element_type_refs(items: &[&Value]) -> Option<Type> {
    (!items.is_empty())
        .then(|| element_type(items.iter().copied()).ok())
        .flatten()
}

/// The element type cty's `ListVal`, `SetVal` and `MapVal` find for
/// `items`: the first type other than the dynamic pseudo-type, which every
/// other item must have too (or be of the dynamic pseudo-type). Where one
/// does not, the type so far and the item's type, which cty's panic names.
pub fn element_type<'v>(items: impl IntoIterator<Item = &'v Value>) -> Result<Type, (Type, Type)> {
    let mut elem = Type::Dynamic;
    for v in items {
        let t = v.ty();
        if elem == Type::Dynamic {
            elem = t;
        } else if t != Type::Dynamic && t != elem {
            return Err((elem, t));
        }
    }
    Ok(elem)
}

fn collect_unknown_paths(v: &Value, path: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    match v {
        Value::Unknown(..) => out.push(path.clone()),
        Value::Marked(inner) => collect_unknown_paths(inner, path, out),
        Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(PathStep::Index(i as u64));
                collect_unknown_paths(item, path, out);
                path.pop();
            }
        }
        Value::Map { items, .. } | Value::Object(items) => {
            for (k, item) in items {
                path.push(PathStep::Key(k.clone()));
                collect_unknown_paths(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

mod marks;

#[cfg(test)]
mod tests;
