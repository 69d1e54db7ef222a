//! Functions over maps and objects, and Terraform's `matchkeys`.

use std::collections::BTreeMap;

use super::{list_val, panicked, sequence_items};
use crate::convert::convert;
use crate::convert::unify_unsafe;
use crate::functions::marks::Policy;
use crate::functions::{static_return_type, CallError, Function, Param};
use crate::goquote::go_quote;
use crate::types::Type;
use crate::value::Value;

pub(super) fn functions() -> Vec<Function> {
    vec![
        keys(),
        lookup(),
        matchkeys(),
        merge(),
        transpose(),
        values(),
        zipmap(),
    ]
}

const LOOKUP_NOT_MAP: &str = "lookup() requires a map as the first argument";
const NULL_VALUE_PANIC: &str = "value is null";
const NOT_A_STRING_PANIC: &str = "not a string";

/// cty's `keys`: a list of a map's keys, or a tuple of an object's
/// attribute names (even when the object is unknown), in lexical order.
/// Mirrors `stdlib.KeysFunc`.
fn keys() -> Function {
    Function {
        name: "keys",
        params: vec![Param::new("inputMap", Type::Dynamic)
            .allow_unknown()
            .marks(Policy::Own)],
        var_param: None,
        return_type: Box::new(|args| match args[0].ty() {
            Type::Map(_) => Ok(Type::list(Type::String)),
            Type::Object(attrs) => Ok(Type::Tuple(vec![Type::String; attrs.len()])),
            _ => Err(CallError::arg(0, "must have map or object type")),
        }),
        implementation: Box::new(|args, ret| match (&args[0], args[0].ty()) {
            (_, Type::Object(attrs)) => {
                Ok(Value::tuple(attrs.into_keys().map(Value::String).collect()))
            }
            (Value::Map { items, .. }, _) => Ok(Value::list(
                Type::String,
                items.keys().cloned().map(Value::String).collect(),
            )),
            _ => Ok(Value::unknown(ret.clone())),
        }),
    }
}

/// Terraform's `lookup`: a map element or object attribute, or the
/// optional default. Mirrors Terraform's `funcs.LookupFunc`.
fn lookup() -> Function {
    Function {
        name: "lookup",
        params: vec![
            Param::new("inputMap", Type::Dynamic)
                .allow_unknown()
                .marks(Policy::Own),
            Param::new("key", Type::String)
                .allow_unknown()
                .marks(Policy::Passed),
        ],
        var_param: Some(
            Param::new("default", Type::Dynamic)
                .allow_unknown()
                .allow_dynamic_type()
                .allow_null()
                .marks(Policy::Passed),
        ),
        return_type: Box::new(|args| {
            if args.len() > 3 {
                return Err(CallError::general(format!(
                    "lookup() takes two or three arguments, got {}",
                    args.len()
                )));
            }
            match args[0].ty() {
                Type::Object(attrs) => {
                    let Value::String(key) = args[1].unmarked() else {
                        return Ok(Type::Dynamic);
                    };
                    if let Some(ty) = attrs.get(key) {
                        return Ok(ty.clone());
                    }
                    match args.get(2) {
                        Some(default) => Ok(default.ty()),
                        None => Err(CallError::arg(
                            0,
                            format!("the given object has no attribute {}", go_quote(key)),
                        )),
                    }
                }
                Type::Map(elem) => {
                    if let Some(default) = args.get(2) {
                        if convert(default, &elem).is_err() {
                            return Err(CallError::arg(
                                2,
                                "the default value must have the same type as the map elements",
                            ));
                        }
                    }
                    Ok(*elem)
                }
                _ => Err(CallError::arg(0, LOOKUP_NOT_MAP)),
            }
        }),
        // The key allows marks: they go onto the result, and hide the key
        // in the error.
        implementation: Box::new(|args, ret| {
            let coll = &args[0];
            let (key, key_marked) = args[1].clone().unmark();
            let Value::String(key) = key else {
                return Ok(Value::unknown(ret.clone()).mark_if(key_marked));
            };
            let found = match coll {
                Value::Object(attrs) => attrs.get(&key),
                Value::Map { items, .. } => items.get(&key),
                _ => return Ok(Value::unknown(ret.clone()).mark_if(key_marked)),
            };
            if let Some(v) = found {
                return Ok(v.clone().mark_if(key_marked));
            }
            match args.get(2) {
                Some(default) => convert(default, ret)
                    .map(|v| v.mark_if(key_marked))
                    .map_err(|e| CallError::general(e.message)),
                None => Err(CallError::general(format!(
                    "lookup failed to find key {}",
                    crate::functions::marks::redact(&key, key_marked)
                ))),
            }
        }),
    }
}

/// Terraform's `matchkeys`: the elements of `values` whose counterpart in
/// `keys` occurs in `searchset`. Mirrors Terraform's `funcs.MatchkeysFunc`.
fn matchkeys() -> Function {
    Function {
        name: "matchkeys",
        params: vec![
            Param::new("values", Type::list(Type::Dynamic)),
            Param::new("keys", Type::list(Type::Dynamic)),
            Param::new("searchset", Type::list(Type::Dynamic)),
        ],
        var_param: None,
        return_type: Box::new(|args| {
            if unify_unsafe(&[args[1].ty(), args[2].ty()]).is_none() {
                return Err(CallError::general(
                    "keys and searchset must be of the same type",
                ));
            }
            Ok(args[0].ty())
        }),
        implementation: Box::new(|args, ret| {
            let values = &args[0];
            let elem = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            if values.length() != args[1].length() {
                return Err(CallError::general(
                    "length of keys and values should be equal",
                ));
            }
            let (common, _) = unify_unsafe(&[args[1].ty(), args[2].ty()])
                .ok_or_else(|| panicked("keys and searchset types do not unify"))?;
            let search = convert(&args[2], &common).map_err(|e| panicked(&e.message))?;
            if search.length() == 0 {
                return Ok(Value::list(elem, Vec::new()));
            }
            let keys = convert(&args[1], &common).map_err(|e| panicked(&e.message))?;
            if !values.is_wholly_known() || !keys.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let mut kept = Vec::new();
            for (key, value) in sequence_items(&keys).iter().zip(sequence_items(values)) {
                for candidate in sequence_items(&search) {
                    match key.equals(candidate) {
                        Value::Bool(true) => {
                            kept.push(value.clone());
                            break;
                        }
                        Value::Bool(false) => {}
                        _ => return Ok(Value::list(elem, Vec::new())),
                    }
                }
            }
            list_val(kept, &elem)
        }),
    }
}

/// cty's `merge` of maps and objects; later keys win. All-equal argument
/// types keep their type; otherwise the result is an object.
/// Mirrors `stdlib.MergeFunc`.
fn merge() -> Function {
    Function {
        name: "merge",
        params: Vec::new(),
        var_param: Some(
            Param::new("maps", Type::Dynamic)
                .allow_dynamic_type()
                .allow_null()
                .marks(Policy::Own),
        ),
        return_type: Box::new(|args| {
            let Some(first) = args.first().map(Value::ty) else {
                return Ok(Type::Object(BTreeMap::new()));
            };
            let mut attrs: BTreeMap<String, Type> = BTreeMap::new();
            let mut matching = true;
            let mut attrs_known = true;
            for (i, arg) in args.iter().enumerate() {
                let ty = arg.ty();
                match (&ty, arg) {
                    (Type::Dynamic, _) => return Ok(Type::Dynamic),
                    (Type::Object(_), Value::Null(_)) | (Type::Map(_), Value::Null(_)) => {}
                    (Type::Object(atys), _) => {
                        attrs.extend(atys.iter().map(|(k, t)| (k.clone(), t.clone())));
                    }
                    (Type::Map(elem), Value::Map { items, .. }) => {
                        attrs.extend(items.keys().map(|k| (k.clone(), (**elem).clone())));
                    }
                    (Type::Map(_), _) => attrs_known = false,
                    _ => {
                        return Err(CallError::general(format!(
                            "arguments must be maps or objects, got {}",
                            go_quote(&ty.friendly_name())
                        )))
                    }
                }
                if i > 0 && ty != first {
                    matching = false;
                }
            }
            if matching {
                Ok(first)
            } else if !attrs_known {
                Ok(Type::Dynamic)
            } else {
                Ok(Type::Object(attrs))
            }
        }),
        implementation: Box::new(|args, ret| {
            let mut merged: BTreeMap<String, Value> = BTreeMap::new();
            for arg in args {
                merge_into(&mut merged, arg)?;
            }
            let result = match ret {
                Type::Map(elem) if merged.is_empty() => Value::map((**elem).clone(), merged),
                Type::Map(_) => {
                    let elem = crate::functions::element_type_of("map", merged.values())?;
                    Value::map(elem, merged)
                }
                _ => Value::object(merged),
            };
            // A null object argument contributes no attributes although the
            // type function counted its type; cty's check of the result
            // against that type panics, which Function.Call reports.
            if !result.ty().conforms_to(ret) {
                return Err(panicked(
                    "returned value does not conform to expected return type",
                ));
            }
            Ok(result)
        }),
    }
}

/// Terraform's `transpose` of a map of lists of strings: each string maps
/// to the sorted keys whose lists hold it. Mirrors Terraform's
/// `funcs.TransposeFunc` as the HCL 2.14 profile has it, where a null
/// list or string panics.
fn transpose() -> Function {
    transpose_of(false)
}

/// Terraform 1.15's `transpose`, which reports a null list or string.
pub(super) fn transpose_1_15() -> Function {
    transpose_of(true)
}

fn transpose_of(reports_nulls: bool) -> Function {
    let null_list = move || {
        if reports_nulls {
            CallError::general("input must not contain null list")
        } else {
            // Terraform iterates the null list, which panics.
            panicked("can't use ElementIterator on null value")
        }
    };
    let null_string = move || {
        if reports_nulls {
            CallError::general("input list must not contain null string")
        } else {
            panicked(NULL_VALUE_PANIC)
        }
    };
    let out_elem = Type::list(Type::String);
    Function {
        name: "transpose",
        params: vec![Param::new("values", Type::map(out_elem.clone()))],
        var_param: None,
        return_type: static_return_type(Type::map(out_elem.clone())),
        implementation: Box::new(move |args, ret| {
            let Value::Map { items, .. } = &args[0] else {
                return Ok(Value::unknown(ret.clone()));
            };
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let mut swapped: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (key, list) in items {
                let Value::List { items: strings, .. } = list else {
                    return Err(null_list());
                };
                for s in strings {
                    let Value::String(s) = s else {
                        return Err(null_string());
                    };
                    swapped.entry(s.clone()).or_default().push(key.clone());
                }
            }
            let out = swapped
                .into_iter()
                .map(|(name, mut keys)| {
                    keys.sort();
                    let keys = keys.into_iter().map(Value::String).collect();
                    (name, Value::list(Type::String, keys))
                })
                .collect();
            Ok(Value::map(out_elem.clone(), out))
        }),
    }
}

/// cty's `values`: a list of a map's elements, or a tuple of an object's
/// attributes, in key order. Mirrors `stdlib.ValuesFunc`.
fn values() -> Function {
    Function {
        name: "values",
        params: vec![Param::new("mapping", Type::Dynamic).marks(Policy::Own)],
        var_param: None,
        return_type: Box::new(|args| match args[0].ty() {
            Type::Map(elem) => Ok(Type::List(elem)),
            Type::Object(attrs) => Ok(Type::Tuple(attrs.into_values().collect())),
            _ => Err(CallError::general(
                "values() requires a map as the first argument",
            )),
        }),
        implementation: Box::new(|args, ret| {
            let items: Vec<Value> = match &args[0] {
                Value::Map { items, .. } | Value::Object(items) => {
                    items.values().cloned().collect()
                }
                _ => Vec::new(),
            };
            match ret {
                Type::Tuple(_) => Ok(Value::tuple(items)),
                _ => list_val(items, ret.element_type().unwrap_or(&Type::Dynamic)),
            }
        }),
    }
}

/// cty's `zipmap`: a map from a list of values, or an object from a tuple.
/// Later duplicate keys win. Mirrors `stdlib.ZipmapFunc`.
fn zipmap() -> Function {
    Function {
        name: "zipmap",
        params: vec![
            Param::new("keys", Type::list(Type::String)),
            Param::new("values", Type::Dynamic).marks(Policy::Own),
        ],
        var_param: None,
        return_type: Box::new(|args| {
            let keys = &args[0];
            match args[1].ty() {
                Type::List(elem) => Ok(Type::Map(elem)),
                Type::Tuple(elems) => {
                    if !keys.is_wholly_known() {
                        return Ok(Type::Dynamic);
                    }
                    let names = sequence_items(keys);
                    if names.len() != elems.len() {
                        return Err(count_mismatch(names.len(), elems.len()));
                    }
                    let mut attrs = BTreeMap::new();
                    for (i, (name, ty)) in names.iter().zip(elems).enumerate() {
                        let Value::String(name) = name else {
                            return Err(CallError::general(format!(
                                "keys list has null value at index {i}"
                            )));
                        };
                        attrs.insert(name.clone(), ty);
                    }
                    Ok(Type::Object(attrs))
                }
                _ => Err(CallError::general(
                    "values argument must be a list or tuple value",
                )),
            }
        }),
        implementation: Box::new(|args, ret| {
            let (keys, values) = (&args[0], &args[1]);
            if !keys.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let names = sequence_items(keys);
            let items = sequence_items(values);
            if names.len() != items.len() {
                return Err(count_mismatch(names.len(), items.len()));
            }
            let mut out = BTreeMap::new();
            for (name, item) in names.iter().zip(items) {
                let Value::String(name) = name else {
                    return Err(panicked(NULL_VALUE_PANIC));
                };
                out.insert(name.clone(), item.clone());
            }
            match ret {
                Type::Map(elem) if out.is_empty() => Ok(Value::map((**elem).clone(), out)),
                Type::Map(_) => {
                    let elem = crate::functions::element_type_of("map", out.values())?;
                    Ok(Value::map(elem, out))
                }
                _ => Ok(Value::object(out)),
            }
        }),
    }
}

/// Adds the elements of one `merge` argument, keyed as cty's element
/// iterator keys them. Only maps and objects pass the type function, unless
/// a null of unknown type made it give up; then other values get here, and
/// cty panics on every key that is not a string.
fn merge_into(merged: &mut BTreeMap<String, Value>, arg: &Value) -> Result<(), CallError> {
    match arg {
        Value::Null(_) => {}
        Value::Map { items, .. } | Value::Object(items) => {
            merged.extend(items.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        Value::Set { items, .. } => {
            for item in items {
                match item {
                    Value::String(s) => {
                        merged.insert(s.clone(), item.clone());
                    }
                    Value::Null(_) => return Err(panicked(NULL_VALUE_PANIC)),
                    Value::Unknown(..) => return Err(panicked("value is unknown")),
                    _ => return Err(panicked(NOT_A_STRING_PANIC)),
                }
            }
        }
        Value::List { items, .. } | Value::Tuple(items) => {
            if !items.is_empty() {
                return Err(panicked(NOT_A_STRING_PANIC));
            }
        }
        _ => return Err(panicked("value is not iterable")),
    }
    Ok(())
}

fn count_mismatch(keys: usize, values: usize) -> CallError {
    CallError::general(format!(
        "number of keys ({keys}) does not match number of values ({values})"
    ))
}
