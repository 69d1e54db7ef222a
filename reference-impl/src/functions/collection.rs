//! Terraform's collection functions. Most are go-cty's stdlib functions,
//! which Terraform uses as they are; `alltrue`, `anytrue`, `coalesce`,
//! `index`, `lookup`, `matchkeys`, `one`, `sum` and `transpose` are
//! Terraform's own (`internal/lang/funcs/collection.go`). `length` and
//! `concat` live in `core`.

mod mapping;
mod sequence;
mod sets;

use super::{static_return_type, CallError, Function, Param};
use crate::convert::convert;
use crate::convert::unify_unsafe;
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// Every function defined here.
pub(super) fn functions() -> Vec<Function> {
    let mut all = vec![alltrue(), anytrue(), coalesce(), sum()];
    all.extend(sequence::functions());
    all.extend(mapping::functions());
    all.extend(sets::functions());
    all
}

/// Terraform 1.15's versions of functions defined here.
pub(super) fn terraform_1_15() -> Vec<Function> {
    let mut all = sequence::terraform_1_15();
    all.push(mapping::transpose_1_15());
    all
}

/// gocty's message for a number that does not fit a Go `int`.
const NOT_AN_INT: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

const COALESCE_TYPES: &str = "all arguments must have the same type";
const COALESCE_NONE: &str = "no non-null, non-empty-string arguments";
const SUM_NONITERABLE: &str = "cannot sum noniterable";
const SUM_EMPTY: &str = "cannot sum an empty list";
const SUM_ELEMENTS: &str = "argument must be list, set, or tuple of number values";
const SUM_INFINITIES: &str = "can't compute sum of opposing infinities";

/// Terraform's `alltrue`: false at the first false or null element,
/// unknown at an unknown element met before that.
/// Mirrors Terraform's `funcs.AllTrueFunc`.
fn alltrue() -> Function {
    Function {
        name: "alltrue",
        params: vec![Param::new("list", Type::list(Type::Bool))],
        var_param: None,
        return_type: static_return_type(Type::Bool),
        implementation: Box::new(|args, _| {
            for item in sequence_items(&args[0]) {
                match item {
                    Value::Unknown(..) => return Ok(Value::unknown(Type::Bool)),
                    Value::Null(_) | Value::Bool(false) => return Ok(Value::Bool(false)),
                    _ => {}
                }
            }
            Ok(Value::Bool(true))
        }),
    }
}

/// Terraform's `anytrue`: true at the first true element; otherwise
/// unknown if any element is unknown. Nulls count as false.
/// Mirrors Terraform's `funcs.AnyTrueFunc`.
fn anytrue() -> Function {
    Function {
        name: "anytrue",
        params: vec![Param::new("list", Type::list(Type::Bool))],
        var_param: None,
        return_type: static_return_type(Type::Bool),
        implementation: Box::new(|args, _| {
            Ok(any_known_true(sequence_items(&args[0]).iter().map(
                |item| match item {
                    Value::Unknown(..) => None,
                    Value::Bool(true) => Some(true),
                    _ => Some(false),
                },
            )))
        }),
    }
}

/// True at the first `Some(true)`; otherwise unknown if any result is
/// unknown (`None`), else false.
fn any_known_true(results: impl Iterator<Item = Option<bool>>) -> Value {
    let mut saw_unknown = false;
    for result in results {
        match result {
            Some(true) => return Value::Bool(true),
            Some(false) => {}
            None => saw_unknown = true,
        }
    }
    if saw_unknown {
        Value::unknown(Type::Bool)
    } else {
        Value::Bool(false)
    }
}

/// Terraform's `coalesce`: the first argument that is not null and, when
/// the arguments unify to string, not empty.
/// Mirrors Terraform's `funcs.CoalesceFunc`.
fn coalesce() -> Function {
    Function {
        name: "coalesce",
        params: Vec::new(),
        var_param: Some(
            Param::new("vals", Type::Dynamic)
                .allow_unknown()
                .allow_dynamic_type()
                .allow_null(),
        ),
        return_type: Box::new(|args| {
            let types: Vec<Type> = args.iter().map(Value::ty).collect();
            unify_unsafe(&types)
                .map(|(ty, _)| ty)
                .ok_or_else(|| CallError::general(COALESCE_TYPES))
        }),
        implementation: Box::new(|args, ret| {
            for arg in args {
                // An unsafe conversion can still fail; Terraform then holds
                // cty's zero value, which reads as null and is skipped.
                let Ok(value) = convert(arg, ret) else {
                    continue;
                };
                match &value {
                    Value::Unknown(..) => return Ok(Value::unknown(ret.clone())),
                    Value::Null(_) => continue,
                    Value::String(s) if s.is_empty() && *ret == Type::String => continue,
                    _ => return Ok(value),
                }
            }
            Err(CallError::general(COALESCE_NONE))
        }),
    }
}

/// Terraform's `sum` of a list, set or tuple of numbers.
/// Mirrors Terraform's `funcs.SumFunc`.
fn sum() -> Function {
    Function {
        name: "sum",
        params: vec![Param::new("list", Type::Dynamic)],
        var_param: None,
        return_type: static_return_type(Type::Number),
        implementation: Box::new(|args, _| {
            let coll = &args[0];
            let ty = coll.ty();
            if !ty.is_iterable() {
                return Err(CallError::arg(0, SUM_NONITERABLE));
            }
            if coll.length() == 0 {
                return Err(CallError::arg(0, SUM_EMPTY));
            }
            if !matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
                return Err(CallError::arg(
                    0,
                    format!(
                        "argument must be list, set, or tuple. Received {}",
                        ty.friendly_name()
                    ),
                ));
            }
            if !coll.is_wholly_known() {
                return Ok(Value::unknown(Type::Number));
            }
            let mut total: Option<Value> = None;
            for item in sequence_items(coll) {
                if item.is_null() {
                    return Err(CallError::arg(0, SUM_ELEMENTS));
                }
                let n =
                    convert(item, &Type::Number).map_err(|_| CallError::arg(0, SUM_ELEMENTS))?;
                total = Some(match total {
                    None => n,
                    Some(t) => t.add(&n).map_err(|_| CallError::general(SUM_INFINITIES))?,
                });
            }
            Ok(total.unwrap_or(Value::unknown(Type::Number)))
        }),
    }
}

/// The elements of a known list, set or tuple, in cty's order.
fn sequence_items(v: &Value) -> &[Value] {
    match v {
        Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => items,
        _ => &[],
    }
}

fn count(n: usize) -> Value {
    Value::number(Number::from_u64(n as u64))
}

/// `gocty.FromCtyValue` into a Go `int`: the number when it is a whole
/// number in range.
fn go_int(v: &Value) -> Result<i64, &'static str> {
    v.as_number()
        .and_then(Number::to_i64_exact)
        .ok_or(NOT_AN_INT)
}

/// `cty.ListVal(items)`, or `cty.ListValEmpty(empty_elem)` when there are
/// none. cty panics on inconsistent element types, which `Function.Call`
/// reports as an error.
fn list_val(items: Vec<Value>, empty_elem: &Type) -> Result<Value, CallError> {
    if items.is_empty() {
        return Ok(Value::list(empty_elem.clone(), items));
    }
    super::list_of_elements(items)
}

/// An error as `Function.Call` reports a recovered panic (without the Go
/// stack trace that follows the message).
fn panicked(message: &str) -> CallError {
    CallError::panicked(message)
}

#[cfg(test)]
mod tests;
