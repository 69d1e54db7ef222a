//! The defaults of optional attributes (`typeexpr.Defaults`) and how each
//! HCL version applies them to a value before it is converted.
//!
//! HCL 2.14 walks the value depth first with `cty.Transform`: wherever the
//! defaults have values for the path reached, an object or map there (a
//! null one included) becomes an object with the missing or null
//! attributes set, and the walk goes on into the result. HCL 2.24 leaves
//! null and unknown values alone at every depth, applies the defaults of a
//! missing attribute's own type to its default value, and turns lists,
//! sets and maps whose elements no longer share a type into tuples and
//! objects unless the elements unify.

use std::collections::BTreeMap;

use crate::convert::unify_with_conversions;
use crate::convert::ConvertError;
use crate::types::Type;
use crate::value::Value;
use crate::{Feature, HclVersion};

/// Default values of optional attributes, by position in a type.
#[derive(Clone, Debug)]
pub struct Defaults {
    /// The type at this position (optional attributes marked).
    ty: Type,
    /// The default of each optional attribute that has one, converted to
    /// the attribute's type.
    values: BTreeMap<String, Value>,
    /// The defaults below: by attribute name, by tuple index (as decimal
    /// text), or under "" for a collection's elements.
    children: BTreeMap<String, Defaults>,
}

/// A step of the path `cty.Transform` walks (HCL 2.14).
enum Step {
    Attr(String),
    /// An index step: a list or tuple position, or `None` for a map key or
    /// a set element.
    Index(Option<usize>),
}

impl Defaults {
    pub(crate) fn collection(ty: Type, element: Defaults) -> Defaults {
        Defaults {
            ty,
            values: BTreeMap::new(),
            children: BTreeMap::from([(String::new(), element)]),
        }
    }

    /// Nothing when there are neither values nor children.
    pub(crate) fn structured(
        ty: Type,
        values: BTreeMap<String, Value>,
        children: BTreeMap<String, Defaults>,
    ) -> Option<Defaults> {
        if values.is_empty() && children.is_empty() {
            return None;
        }
        Some(Defaults {
            ty,
            values,
            children,
        })
    }

    /// `Defaults.Apply` of the given HCL version. The error stands for a
    /// panic of HCL 2.14's walk, which rebuilds a list, set or map from
    /// elements that defaults gave different types.
    pub fn apply(&self, value: &Value, version: HclVersion) -> Result<Value, ConvertError> {
        match version {
            v if v.has(Feature::RecursiveDefaults) => Ok(self.apply_2_24(value)),
            _ => self.transform(&mut Vec::new(), value.clone()),
        }
    }

    // HCL 2.14

    fn transform(&self, path: &mut Vec<Step>, value: Value) -> Result<Value, ConvertError> {
        crate::stack::deeper(|| {
            let value = self.enter(path, value);
            let inconsistent = |what: &str| ConvertError {
                path: Vec::new(),
                message: format!("inconsistent {what} element types"),
            };
            Ok(match value {
                Value::List { ref items, .. } if !items.is_empty() => {
                    let items = self.transform_sequence(path, items)?;
                    Value::list_of(items).ok_or_else(|| inconsistent("list"))?
                }
                Value::Set { ref items, .. } if !items.is_empty() => {
                    let mut out = Vec::with_capacity(items.len());
                    for item in items {
                        path.push(Step::Index(None));
                        let item = self.transform(path, item.clone());
                        path.pop();
                        out.push(item?);
                    }
                    Value::set_of(out).ok_or_else(|| inconsistent("set"))?
                }
                Value::Tuple(ref items) if !items.is_empty() => {
                    Value::tuple(self.transform_sequence(path, items)?)
                }
                Value::Map { ref items, .. } if !items.is_empty() => {
                    let mut out = BTreeMap::new();
                    for (key, item) in items {
                        path.push(Step::Index(None));
                        let item = self.transform(path, item.clone());
                        path.pop();
                        out.insert(key.clone(), item?);
                    }
                    Value::map_of(out).ok_or_else(|| inconsistent("map"))?
                }
                Value::Object(ref attrs) if !attrs.is_empty() => {
                    let mut out = BTreeMap::new();
                    for (name, item) in attrs {
                        path.push(Step::Attr(name.clone()));
                        let item = self.transform(path, item.clone());
                        path.pop();
                        out.insert(name.clone(), item?);
                    }
                    Value::object(out)
                }
                other => other,
            })
        })
    }

    fn transform_sequence(
        &self,
        path: &mut Vec<Step>,
        items: &[Value],
    ) -> Result<Vec<Value>, ConvertError> {
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            path.push(Step::Index(Some(i)));
            let item = self.transform(path, item.clone());
            path.pop();
            out.push(item?);
        }
        Ok(out)
    }

    /// The transformer's `Enter`: an object or map (even null) where the
    /// path has default values becomes an object with them filled in.
    fn enter(&self, path: &[Step], value: Value) -> Value {
        if !value.is_known() {
            return value;
        }
        let Some(defaults) = self.traverse(path) else {
            return value;
        };
        if defaults.is_empty() || !(value.ty().is_object() || value.ty().is_map()) {
            return value;
        }
        let mut attrs = match value {
            Value::Object(attrs) => attrs,
            Value::Map { items, .. } => items,
            _ => BTreeMap::new(),
        };
        for (name, default) in defaults {
            if attrs.get(name).is_none_or(Value::is_null) {
                attrs.insert(name.clone(), default.clone());
            }
        }
        Value::object(attrs)
    }

    fn traverse(&self, path: &[Step]) -> Option<&BTreeMap<String, Value>> {
        let Some((step, rest)) = path.split_first() else {
            return Some(&self.values);
        };
        let key = match (step, &self.ty) {
            (Step::Attr(name), Type::Object(_)) => name.clone(),
            (Step::Attr(_), Type::Map(_)) => String::new(),
            (Step::Index(Some(i)), Type::Tuple(_)) => i.to_string(),
            (Step::Index(_), Type::List(_) | Type::Set(_) | Type::Map(_)) => String::new(),
            _ => return None,
        };
        self.children.get(&key)?.traverse(rest)
    }

    // HCL 2.24

    fn apply_2_24(&self, value: &Value) -> Value {
        crate::stack::deeper(|| self.apply_known(value))
    }

    fn apply_known(&self, value: &Value) -> Value {
        if !value.is_known() || value.is_null() {
            return value.clone();
        }
        if self.values.is_empty() && self.children.is_empty() {
            return value.clone();
        }
        match value {
            Value::List { elem, items } | Value::Set { elem, items } => {
                let items: Vec<Value> = items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        self.child_at(i)
                            .map_or(item.clone(), |d| d.apply_2_24(item))
                    })
                    .collect();
                let set = matches!(value, Value::Set { .. });
                if items.is_empty() {
                    return if set {
                        Value::set(elem.clone(), items)
                    } else {
                        Value::list(elem.clone(), items)
                    };
                }
                match unify_sequence(&items) {
                    Some(unified) if set => Value::set_of(unified).unwrap_or(Value::tuple(items)),
                    Some(unified) => Value::list_of(unified).unwrap_or(Value::tuple(items)),
                    None => Value::tuple(items),
                }
            }
            Value::Tuple(items) => Value::tuple(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        self.child_at(i)
                            .map_or(item.clone(), |d| d.apply_2_24(item))
                    })
                    .collect(),
            ),
            Value::Object(attrs) | Value::Map { items: attrs, .. } => {
                let mut out: BTreeMap<String, Value> = attrs
                    .iter()
                    .map(|(key, item)| {
                        let item = self
                            .child_named(key)
                            .map_or(item.clone(), |d| d.apply_2_24(item));
                        (key.clone(), item)
                    })
                    .collect();
                for (name, default) in &self.values {
                    if out.get(name).is_none_or(Value::is_null) {
                        let filled = match self.children.get(name) {
                            Some(d) => d.apply_2_24(default),
                            None => default.clone(),
                        };
                        out.insert(name.clone(), filled);
                    }
                    // HCL 2.17+: an attribute with a default that is not
                    // null is not null either, even while unknown.
                    if default.definitely_not_null() {
                        if let Some(v) = out.get_mut(name).filter(|v| v.ty() != Type::Dynamic) {
                            *v = v.clone().refine_not_null();
                        }
                    }
                }
                if let Value::Map { elem, .. } = value {
                    if out.is_empty() {
                        return Value::map(elem.clone(), out);
                    }
                    if let Some(unified) = unify_keyed(&out) {
                        if let Some(map) = Value::map_of(unified) {
                            return map;
                        }
                    }
                }
                Value::object(out)
            }
            other => other.clone(),
        }
    }

    /// `getChild` with an integer key.
    fn child_at(&self, i: usize) -> Option<&Defaults> {
        match self.ty {
            Type::Tuple(_) => self.children.get(&i.to_string()),
            _ => self.children.get(""),
        }
    }

    /// `getChild` with a string key.
    fn child_named(&self, key: &str) -> Option<&Defaults> {
        match self.ty {
            Type::Object(_) => self.children.get(key),
            _ => self.children.get(""),
        }
    }
}

/// `unifyAsSlice`: the elements converted to their unsafe unification, or
/// nothing when there is none or a conversion fails.
fn unify_sequence(items: &[Value]) -> Option<Vec<Value>> {
    let types: Vec<Type> = items.iter().map(Value::ty).collect();
    let (_, convs) = unify_with_conversions(&types, true)?;
    items
        .iter()
        .zip(convs)
        .map(|(item, conv)| match conv {
            None => Some(item.clone()),
            Some(conv) => conv.apply(item).ok(),
        })
        .collect()
}

/// `unifyAsMap`, in key order.
fn unify_keyed(items: &BTreeMap<String, Value>) -> Option<BTreeMap<String, Value>> {
    let values: Vec<Value> = items.values().cloned().collect();
    let unified = unify_sequence(&values)?;
    Some(items.keys().cloned().zip(unified).collect())
}
