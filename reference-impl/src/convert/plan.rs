//! Conversions built for a pair of types (`conversion.go`,
//! `conversion_*.go`) and their application to values.

use std::collections::BTreeMap;

use super::unify::unify_types;
use super::{convert, ConvertError};
use crate::goquote::go_quote;
use crate::number::Number;
use crate::types::Type;
use crate::value::{PathStep, Value};

const NUMBER_REQUIRED: &str = "a number is required";
const BOOL_REQUIRED: &str = "a bool is required";
const LIST_TYPES_DIFFER: &str = "element types must all match for conversion to list";
const SET_TYPES_DIFFER: &str = "element types must all match for conversion to set";
const MAP_TYPES_DIFFER: &str = "element types must all match for conversion to map";
const ATTRIBUTE_TYPES_DIFFER: &str = "attribute types must all match for conversion to map";
const NO_COMMON_TYPE: &str = "cannot find a common base type for all elements";
/// What this implementation reports where cty would panic applying a
/// conversion to a value it was not built for.
const NOT_APPLICABLE: &str = "value does not suit the conversion";

/// A conversion for values of one type to another, wrapped as cty's
/// getConversion wraps every conversion: the dynamic target passes values
/// through, and null and unknown values convert to a null or unknown of the
/// target type without running the conversion.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    out: Type,
    known: Box<Known>,
}

/// The conversion of a known, non-null value (getConversionKnown).
#[derive(Clone, Debug)]
enum Known {
    DynamicPassthrough,
    /// Unsafe conversion from the dynamic type: `Convert` the value itself.
    DynamicFixup(Type),
    NumberToString,
    BoolToString,
    StringToNumber,
    StringToBool,
    /// Keeps the attributes listed, converting those with a plan; then
    /// adds a null of each optional attribute's type that is absent.
    ObjectToObject(BTreeMap<String, Option<Plan>>, Vec<(String, Type)>),
    TupleToTuple(Vec<Option<Plan>>),
    CollectionToList(Type, Option<Plan>),
    CollectionToSet(Type, Option<Plan>),
    CollectionToMap(Type, Option<Plan>),
    EmptyToList(Type),
    EmptyToSet(Type),
    EmptyToMap(Type),
    TupleToList(Vec<Option<Plan>>, bool),
    TupleToSet(Vec<Option<Plan>>),
    ObjectToMap(Type, BTreeMap<String, Plan>, bool),
    /// The object's attribute types (optional ones marked) and the element
    /// conversions: none for an attribute whose type is the element type;
    /// `None` for an optional attribute the element type can not convert
    /// to (an error only if the map has that key).
    MapToObject(BTreeMap<String, Type>, BTreeMap<String, Option<Plan>>),
}

/// Mirrors getConversion: the conversion from `have` to `want`, if any.
pub(crate) fn get_plan(have: &Type, want: &Type, unsafe_: bool) -> Option<Plan> {
    let known = get_known(have, want, unsafe_)?;
    // Nulls and unknowns take the target type without optional markers.
    let out = if want.has_optional() {
        want.without_optional()
    } else {
        want.clone()
    };
    Some(Plan {
        out,
        known: Box::new(known),
    })
}

/// Mirrors getConversionKnown.
fn get_known(have: &Type, want: &Type, unsafe_: bool) -> Option<Known> {
    if *want == Type::Dynamic {
        return Some(Known::DynamicPassthrough);
    }
    if unsafe_ && *have == Type::Dynamic {
        return Some(Known::DynamicFixup(want.clone()));
    }
    match (have, want) {
        (Type::Number, Type::String) => Some(Known::NumberToString),
        (Type::Bool, Type::String) => Some(Known::BoolToString),
        (Type::String, Type::Number) if unsafe_ => Some(Known::StringToNumber),
        (Type::String, Type::Bool) if unsafe_ => Some(Known::StringToBool),
        (Type::Object(have_attrs), Type::Object(want_attrs)) => {
            object_to_object(have_attrs, want_attrs, unsafe_)
        }
        (Type::Tuple(have_elems), Type::Tuple(want_elems)) => {
            if have_elems.len() != want_elems.len() {
                return None;
            }
            let convs = element_plans(have_elems.iter(), want_elems.iter(), unsafe_)?;
            Some(Known::TupleToTuple(convs))
        }
        (Type::List(have_elem) | Type::Set(have_elem), Type::List(want_elem)) => {
            if have_elem == want_elem {
                return Some(Known::CollectionToList((**want_elem).clone(), None));
            }
            let conv = get_plan(have_elem, want_elem, unsafe_)?;
            Some(Known::CollectionToList((**want_elem).clone(), Some(conv)))
        }
        (Type::List(have_elem) | Type::Set(have_elem), Type::Set(want_elem)) => {
            if have.is_list() && !unsafe_ {
                return None;
            }
            let conv = get_plan(have_elem, want_elem, unsafe_);
            if have_elem == want_elem {
                return Some(Known::CollectionToSet((**want_elem).clone(), None));
            }
            Some(Known::CollectionToSet((**want_elem).clone(), Some(conv?)))
        }
        (Type::Map(have_elem), Type::Map(want_elem)) => {
            // cty asks for an element conversion even for equal element
            // types, so equal primitive elements have none.
            let conv = get_plan(have_elem, want_elem, unsafe_)?;
            Some(Known::CollectionToMap((**want_elem).clone(), Some(conv)))
        }
        (Type::Tuple(elems), Type::List(want_elem)) => tuple_to_list(elems, want_elem, unsafe_),
        (Type::Tuple(elems), Type::Set(want_elem)) => tuple_to_set(elems, want_elem, unsafe_),
        (Type::Object(attrs), Type::Map(want_elem)) => object_to_map(attrs, want_elem, unsafe_),
        (Type::Map(have_elem), Type::Object(want_attrs)) if unsafe_ => {
            let mut convs = BTreeMap::new();
            for (name, aty) in want_attrs {
                let (aty, optional) = aty.unwrap_optional();
                if aty != &**have_elem {
                    let conv = get_plan(have_elem, aty, unsafe_);
                    if conv.is_none() && !optional {
                        return None;
                    }
                    convs.insert(name.clone(), conv);
                }
            }
            Some(Known::MapToObject(want_attrs.clone(), convs))
        }
        _ => None,
    }
}

/// Element conversions for pairwise types: `None` where they are equal;
/// no result if any pair has no conversion.
fn element_plans<'a>(
    have: impl Iterator<Item = &'a Type>,
    want: impl Iterator<Item = &'a Type>,
    unsafe_: bool,
) -> Option<Vec<Option<Plan>>> {
    have.zip(want)
        .map(|(h, w)| {
            if h == w {
                Some(None)
            } else {
                get_plan(h, w, unsafe_).map(Some)
            }
        })
        .collect()
}

/// Mirrors conversionObjectToObject: an optional attribute may be absent.
fn object_to_object(
    have: &BTreeMap<String, Type>,
    want: &BTreeMap<String, Type>,
    unsafe_: bool,
) -> Option<Known> {
    let mut convs = BTreeMap::new();
    let mut absent = Vec::new();
    for (name, want_ty) in want {
        let (want_ty, optional) = want_ty.unwrap_optional();
        let Some(have_ty) = have.get(name) else {
            if !optional {
                return None;
            }
            absent.push((name.clone(), want_ty.without_optional()));
            continue;
        };
        let conv = if have_ty == want_ty {
            None
        } else {
            Some(get_plan(have_ty, want_ty, unsafe_)?)
        };
        convs.insert(name.clone(), conv);
    }
    Some(Known::ObjectToObject(convs, absent))
}

/// The single element type for converting the given element types to a
/// collection whose element type is dynamic (the caller wants one chosen).
fn unified_element_type(elems: &[Type], unsafe_: bool, all_dynamic_check: bool) -> Option<Type> {
    let (ety, _) = unify_types(elems, unsafe_)?;
    // A dynamic result is only usable when every element is dynamic.
    if all_dynamic_check && ety == Type::Dynamic && elems.iter().any(|t| *t != Type::Dynamic) {
        return None;
    }
    Some(ety)
}

/// Mirrors conversionTupleToList.
fn tuple_to_list(elems: &[Type], want_elem: &Type, unsafe_: bool) -> Option<Known> {
    if elems.is_empty() {
        return Some(Known::EmptyToList(want_elem.clone()));
    }
    let convs = tuple_element_plans(elems, want_elem, unsafe_)?;
    Some(Known::TupleToList(convs, unsafe_))
}

/// Mirrors conversionTupleToSet.
fn tuple_to_set(elems: &[Type], want_elem: &Type, unsafe_: bool) -> Option<Known> {
    if elems.is_empty() {
        return Some(Known::EmptyToSet(want_elem.clone()));
    }
    let convs = tuple_element_plans(elems, want_elem, unsafe_)?;
    Some(Known::TupleToSet(convs))
}

/// The plans that convert each element of a non-empty tuple to one list or
/// set element type: `want_elem`, or the elements' unified type when that
/// is dynamic.
fn tuple_element_plans(
    elems: &[Type],
    want_elem: &Type,
    unsafe_: bool,
) -> Option<Vec<Option<Plan>>> {
    let ety = if *want_elem == Type::Dynamic {
        unified_element_type(elems, unsafe_, true)?
    } else {
        want_elem.clone()
    };
    element_plans(elems.iter(), std::iter::repeat(&ety), unsafe_)
}

/// Mirrors conversionObjectToMap.
fn object_to_map(attrs: &BTreeMap<String, Type>, want_elem: &Type, unsafe_: bool) -> Option<Known> {
    if attrs.is_empty() {
        return Some(Known::EmptyToMap(want_elem.clone()));
    }
    let ety = if *want_elem == Type::Dynamic {
        let types: Vec<Type> = attrs.values().cloned().collect();
        unified_element_type(&types, unsafe_, false)?
    } else {
        want_elem.clone()
    };
    let mut convs = BTreeMap::new();
    for (name, aty) in attrs {
        if *aty != ety {
            convs.insert(name.clone(), get_plan(aty, &ety, unsafe_)?);
        }
    }
    Some(Known::ObjectToMap(ety, convs, unsafe_))
}

impl Plan {
    /// Runs the conversion on `value`, found at `path` inside the value
    /// being converted.
    pub(crate) fn apply(
        &self,
        value: &Value,
        path: &mut Vec<PathStep>,
    ) -> Result<Value, ConvertError> {
        if self.out == Type::Dynamic {
            return Ok(value.clone());
        }
        match value {
            Value::Unknown(t, ..) => Ok(unknown_result(value, dynamic_replace(t, &self.out))),
            Value::Null(t) => Ok(Value::Null(dynamic_replace(t, &self.out))),
            _ => self.known.apply(value, path),
        }
    }
}

impl Known {
    fn apply(&self, value: &Value, path: &mut Vec<PathStep>) -> Result<Value, ConvertError> {
        match self {
            Known::DynamicPassthrough => Ok(value.clone()),
            Known::DynamicFixup(want) => convert(value, want).map_err(|e| {
                let mut full = path.clone();
                full.extend(e.path);
                ConvertError {
                    path: full,
                    message: e.message,
                }
            }),
            Known::NumberToString => match value {
                Value::Number(n) => Ok(Value::string(n.text())),
                _ => Err(ConvertError::at(path, NOT_APPLICABLE)),
            },
            Known::BoolToString => match value {
                Value::Bool(b) => Ok(Value::string(if *b { "true" } else { "false" })),
                _ => Err(ConvertError::at(path, NOT_APPLICABLE)),
            },
            Known::StringToNumber => match value {
                Value::String(s) => Number::parse(s)
                    .map(Value::Number)
                    .ok_or_else(|| ConvertError::at(path, NUMBER_REQUIRED)),
                _ => Err(ConvertError::at(path, NOT_APPLICABLE)),
            },
            Known::StringToBool => match value {
                Value::String(s) => string_to_bool(s).map_err(|m| ConvertError::at(path, m)),
                _ => Err(ConvertError::at(path, NOT_APPLICABLE)),
            },
            Known::ObjectToObject(convs, absent) => {
                let mut out = BTreeMap::new();
                for (name, item) in keyed_elements(value) {
                    let Some(conv) = convs.get(name) else {
                        continue;
                    };
                    let item = apply_at(conv.as_ref(), item, path, PathStep::Key(name.clone()))?;
                    out.insert(name.clone(), item);
                }
                for (name, ty) in absent {
                    out.entry(name.clone())
                        .or_insert_with(|| Value::Null(ty.clone()));
                }
                Ok(Value::object(out))
            }
            Known::TupleToTuple(convs) => {
                let mut out = Vec::new();
                for (i, item) in value.element_values().into_iter().enumerate() {
                    let conv = convs
                        .get(i)
                        .ok_or_else(|| ConvertError::at(path, NOT_APPLICABLE))?;
                    out.push(apply_at(conv.as_ref(), item, path, index_step(i))?);
                }
                Ok(Value::tuple(out))
            }
            Known::CollectionToList(ety, conv) => {
                if let Some(len) = value.length_value() {
                    if !len.is_known() {
                        return Ok(Value::unknown(Type::list(element_type_of(value))));
                    }
                }
                let out = apply_to_elements(conv.as_ref(), value, path)?;
                if out.is_empty() {
                    let ety = empty_element_type(ety, value);
                    return Ok(Value::list(ety, Vec::new()));
                }
                Value::list_of(out).ok_or_else(|| ConvertError::at(path, LIST_TYPES_DIFFER))
            }
            Known::CollectionToSet(ety, conv) => {
                let out = apply_to_elements(conv.as_ref(), value, path)?;
                if out.is_empty() {
                    let ety = empty_element_type(ety, value);
                    return Ok(Value::set(ety, Vec::new()));
                }
                Value::set_of(out).ok_or_else(|| ConvertError::at(path, SET_TYPES_DIFFER))
            }
            Known::CollectionToMap(ety, conv) => {
                let mut out = BTreeMap::new();
                for (name, item) in keyed_elements(value) {
                    let item = apply_at(conv.as_ref(), item, path, PathStep::Key(name.clone()))?;
                    out.insert(name.clone(), item);
                }
                if out.is_empty() {
                    let ety = empty_element_type(ety, value);
                    return Ok(Value::map(ety, BTreeMap::new()));
                }
                if ety.is_collection() || ety.is_object() {
                    // cty unifies these elements with safe conversions only.
                    out = unify_keyed_elements(out, path, false)?;
                }
                Value::map_of(out).ok_or_else(|| ConvertError::at(path, MAP_TYPES_DIFFER))
            }
            Known::EmptyToList(ety) => Ok(Value::list(ety.without_optional(), Vec::new())),
            Known::EmptyToSet(ety) => Ok(Value::set(ety.without_optional(), Vec::new())),
            Known::EmptyToMap(ety) => Ok(Value::map(ety.without_optional(), BTreeMap::new())),
            Known::TupleToList(convs, unsafe_) => {
                let mut out = Vec::new();
                for (i, item) in value.element_values().into_iter().enumerate() {
                    let conv = convs
                        .get(i)
                        .ok_or_else(|| ConvertError::at(path, NOT_APPLICABLE))?;
                    out.push(apply_at(conv.as_ref(), item, path, index_step(i))?);
                }
                // cty unifies from the path of the last element.
                let mut last = path.clone();
                if !out.is_empty() {
                    last.push(index_step(out.len() - 1));
                }
                let out = unify_sequence(out, &mut last, *unsafe_)?;
                Value::list_of(out).ok_or_else(|| ConvertError::at(path, LIST_TYPES_DIFFER))
            }
            Known::TupleToSet(convs) => {
                let mut out = Vec::new();
                for (i, item) in value.element_values().into_iter().enumerate() {
                    let conv = convs
                        .get(i)
                        .ok_or_else(|| ConvertError::at(path, NOT_APPLICABLE))?;
                    out.push(apply_at(conv.as_ref(), item, path, index_step(i))?);
                }
                Value::set_of(out).ok_or_else(|| ConvertError::at(path, SET_TYPES_DIFFER))
            }
            Known::ObjectToMap(ety, convs, unsafe_) => {
                let mut out = BTreeMap::new();
                for (name, item) in keyed_elements(value) {
                    let item = apply_at(convs.get(name), item, path, PathStep::Key(name.clone()))?;
                    out.insert(name.clone(), item);
                }
                if ety.is_collection() || ety.is_object() {
                    out = unify_keyed_elements(out, path, *unsafe_)?;
                }
                Value::map_of(out).ok_or_else(|| ConvertError::at(path, ATTRIBUTE_TYPES_DIFFER))
            }
            Known::MapToObject(attrs, convs) => {
                let mut out = BTreeMap::new();
                for (name, item) in keyed_elements(value) {
                    let Some(aty) = attrs.get(name) else {
                        continue;
                    };
                    let item = match convs.get(name) {
                        None => item.clone(),
                        Some(Some(conv)) => {
                            apply_at(Some(conv), item, path, PathStep::Key(name.clone()))?
                        }
                        Some(None) => {
                            return Err(ConvertError::at(
                                path,
                                format!(
                                    "map element type is incompatible with attribute {}: {}",
                                    go_quote(name),
                                    super::mismatch_message(&item.ty(), aty.unwrap_optional().0)
                                ),
                            ))
                        }
                    };
                    out.insert(name.clone(), item);
                }
                for (name, aty) in attrs {
                    if let (aty, true) = aty.unwrap_optional() {
                        out.entry(name.clone())
                            .or_insert_with(|| Value::Null(aty.without_optional()));
                    }
                    if !out.contains_key(name) {
                        return Err(ConvertError::at(
                            path,
                            format!(
                                "map has no element for required attribute {}",
                                go_quote(name)
                            ),
                        ));
                    }
                }
                Ok(Value::object(out))
            }
        }
    }
}

/// Applies an optional element conversion to `item`, found at `step` below
/// `path`.
fn apply_at(
    conv: Option<&Plan>,
    item: &Value,
    path: &mut Vec<PathStep>,
    step: PathStep,
) -> Result<Value, ConvertError> {
    let Some(conv) = conv else {
        return Ok(item.clone());
    };
    path.push(step);
    let result = conv.apply(item, path);
    path.pop();
    result
}

fn index_step(i: usize) -> PathStep {
    PathStep::Index(i as u64)
}

/// The (name, element) pairs of a map or object value, in key order.
fn keyed_elements(value: &Value) -> Vec<(&String, &Value)> {
    match value {
        Value::Map { items, .. } | Value::Object(items) => items.iter().collect(),
        _ => Vec::new(),
    }
}

/// `conv` applied to each element of a list, set or tuple, in order.
fn apply_to_elements(
    conv: Option<&Plan>,
    value: &Value,
    path: &mut Vec<PathStep>,
) -> Result<Vec<Value>, ConvertError> {
    let mut out = Vec::new();
    for (i, item) in value.element_values().into_iter().enumerate() {
        out.push(apply_at(conv, item, path, index_step(i))?);
    }
    Ok(out)
}

/// The element type of an empty collection converted to one of `ety`
/// elements: the source's own element type when `ety` is dynamic.
fn empty_element_type(ety: &Type, value: &Value) -> Type {
    if *ety == Type::Dynamic {
        element_type_of(value)
    } else {
        ety.without_optional()
    }
}

/// The element type of a collection value's type (dynamic for others).
fn element_type_of(value: &Value) -> Type {
    value.ty().element_type().cloned().unwrap_or(Type::Dynamic)
}

/// Mirrors the unsafe string-to-bool conversion.
fn string_to_bool(s: &str) -> Result<Value, String> {
    match s {
        "true" | "1" => Ok(Value::Bool(true)),
        "false" | "0" => Ok(Value::Bool(false)),
        _ => match s.to_lowercase().as_str() {
            "true" => Err(format!(
                "{BOOL_REQUIRED}; to convert from string, use lowercase \"true\""
            )),
            "false" => Err(format!(
                "{BOOL_REQUIRED}; to convert from string, use lowercase \"false\""
            )),
            _ => Err(BOOL_REQUIRED.to_string()),
        },
    }
}

/// Mirrors conversionUnifyCollectionElements. cty visits the elements in
/// random order; key order is used here.
fn unify_keyed_elements(
    elems: BTreeMap<String, Value>,
    path: &mut Vec<PathStep>,
    unsafe_: bool,
) -> Result<BTreeMap<String, Value>, ConvertError> {
    let types: Vec<Type> = elems.values().map(Value::ty).collect();
    let Some((unified, _)) = unify_types(&types, unsafe_) else {
        return Err(ConvertError::at(path, NO_COMMON_TYPE));
    };
    let mut out = BTreeMap::new();
    for (name, elem) in elems {
        let ty = elem.ty();
        if ty == unified {
            out.insert(name, elem);
            continue;
        }
        let conv = get_plan(&ty, &unified, unsafe_);
        if conv.is_none() {
            return Err(ConvertError::at(path, NO_COMMON_TYPE));
        }
        let value = apply_at(conv.as_ref(), &elem, path, PathStep::Key(name.clone()))?;
        out.insert(name, value);
    }
    Ok(out)
}

/// Mirrors conversionUnifyListElements.
fn unify_sequence(
    elems: Vec<Value>,
    path: &mut Vec<PathStep>,
    unsafe_: bool,
) -> Result<Vec<Value>, ConvertError> {
    let types: Vec<Type> = elems.iter().map(Value::ty).collect();
    let Some((unified, _)) = unify_types(&types, unsafe_) else {
        return Err(ConvertError::at(path, NO_COMMON_TYPE));
    };
    let mut out = Vec::with_capacity(elems.len());
    for (i, (elem, ty)) in elems.into_iter().zip(types).enumerate() {
        if ty == unified {
            out.push(elem);
            continue;
        }
        let conv = get_plan(&ty, &unified, unsafe_);
        if conv.is_none() {
            return Err(ConvertError::at(path, NO_COMMON_TYPE));
        }
        out.push(apply_at(conv.as_ref(), &elem, path, index_step(i))?);
    }
    Ok(out)
}

/// Mirrors dynamicReplace: the type a null or unknown of type `have`
/// takes when converted to `want`, keeping what `have` knows where `want`
/// has dynamic parts.
pub(crate) fn dynamic_replace(have: &Type, want: &Type) -> Type {
    if *have == Type::Dynamic {
        return want.clone();
    }
    match want {
        Type::Optional(want) => dynamic_replace(have, want),
        Type::Dynamic => have.clone(),
        Type::String | Type::Number | Type::Bool => want.clone(),
        Type::Map(want_elem) => {
            let elem = match have {
                Type::Map(have_elem) => dynamic_replace(have_elem, want_elem),
                Type::Object(attrs) => {
                    let types: Vec<Type> = attrs.values().cloned().collect();
                    replace_unified(&types, want_elem)
                }
                _ => (**want_elem).clone(),
            };
            Type::map(elem)
        }
        Type::Object(want_attrs) => {
            let mut out = BTreeMap::new();
            match have {
                Type::Map(have_elem) => {
                    for (name, aty) in want_attrs {
                        out.insert(name.clone(), dynamic_replace(have_elem, aty));
                    }
                }
                Type::Object(have_attrs) => {
                    for (name, aty) in want_attrs {
                        let ty = match have_attrs.get(name) {
                            Some(h) => dynamic_replace(h, aty),
                            None => aty.clone(),
                        };
                        out.insert(name.clone(), ty);
                    }
                }
                _ => {}
            }
            Type::Object(out)
        }
        Type::Set(want_elem) | Type::List(want_elem) => {
            let elem = match have {
                Type::Set(have_elem) | Type::List(have_elem) => {
                    dynamic_replace(have_elem, want_elem)
                }
                Type::Tuple(elems) => replace_unified(elems, want_elem),
                _ => (**want_elem).clone(),
            };
            if want.is_set() {
                Type::set(elem)
            } else {
                Type::list(elem)
            }
        }
        Type::Tuple(want_elems) => {
            let have_elems = match have {
                Type::Tuple(h) if h.len() == want_elems.len() => Some(h),
                _ => None,
            };
            Type::Tuple(
                want_elems
                    .iter()
                    .enumerate()
                    .map(|(i, w)| match have_elems {
                        Some(h) => dynamic_replace(&h[i], w),
                        None => w.clone(),
                    })
                    .collect(),
            )
        }
    }
}

/// dynamicReplace of the unsafe unification of `types` (the target element
/// type itself when they do not unify).
fn replace_unified(types: &[Type], want_elem: &Type) -> Type {
    match unify_types(types, true) {
        Some((unified, _)) => dynamic_replace(&unified, want_elem),
        None => want_elem.clone(),
    }
}

/// `convert.prepareUnknownResult`: the conversion of an unknown keeps what
/// it says about nullness and length. A map from an object or a list from a
/// tuple has exactly the source's number of attributes or elements; a set
/// from a tuple at most that many and at least one unless empty; a
/// collection from a collection its source's length bounds (a set's lower
/// bound only as "at least one").
fn unknown_result(source: &Value, target: Type) -> Value {
    let range = source.range();
    let mut result = Value::unknown(target.clone()).refine();
    if range.definitely_not_null() {
        result = result.not_null();
    }
    let exactly = |result: crate::value::RefinementBuilder, n: u64| {
        result
            .collection_length_lower_bound(n)
            .collection_length_upper_bound(n)
    };
    match (&range.ty, &target) {
        (Type::Object(attrs), Type::Map(_)) => exactly(result, attrs.len() as u64),
        (Type::Tuple(elems), Type::List(_)) => exactly(result, elems.len() as u64),
        (Type::Tuple(elems), Type::Set(_)) => match elems.len() as u64 {
            n @ (0 | 1) => exactly(result, n),
            n => result
                .collection_length_lower_bound(1)
                .collection_length_upper_bound(n),
        },
        (source_ty, target) if source_ty.is_collection() && target.is_collection() => {
            let lower = match target {
                Type::Set(_) => u64::from(range.min_length > 0),
                _ => range.min_length,
            };
            result
                .collection_length_lower_bound(lower)
                .collection_length_upper_bound(range.max_length)
        }
        _ => result,
    }
    .finish()
}
