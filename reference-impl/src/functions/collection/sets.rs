//! cty's set functions: `setunion`, `setintersection`, `setsubtract` and
//! `setproduct`.

use super::{panicked, sequence_items};
use crate::convert::convert;
use crate::convert::unify_unsafe;
use crate::functions::marks::Policy;
use crate::functions::{length_value, CallError, Function, Param};
use crate::types::Type;
use crate::value::{set_hash, Value};

pub(super) fn functions() -> Vec<Function> {
    vec![
        set_operation("setunion", &["first_set"], Some("other_sets"), Op::Union),
        set_operation(
            "setintersection",
            &["first_set"],
            Some("other_sets"),
            Op::Intersection,
        ),
        set_operation("setsubtract", &["a", "b"], None, Op::Subtract),
        setproduct(),
    ]
}

/// The most elements `setproduct` builds. cty has no limit (a large enough
/// product exhausts memory); past this one, this implementation reports an
/// error instead.
const MAX_PRODUCT: usize = 1 << 18;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Union,
    Intersection,
    Subtract,
}

/// A set operation over sets converted to their common element type.
/// Mirrors `stdlib.SetUnionFunc`, `SetIntersectionFunc` and
/// `SetSubtractFunc` (`setOperationReturnType`, `setOperationImpl`).
fn set_operation(
    name: &'static str,
    params: &[&'static str],
    var_param: Option<&'static str>,
    op: Op,
) -> Function {
    let set_param = |name| Param::new(name, Type::set(Type::Dynamic)).allow_dynamic_type();
    Function {
        name,
        params: params.iter().map(|p| set_param(p)).collect(),
        var_param: var_param.map(set_param),
        return_type: Box::new(|args| {
            let mut elems = Vec::new();
            for arg in args {
                let elem = arg.ty().element_type().cloned().unwrap_or(Type::Dynamic);
                // Empty sets of unknown element type convert to anything.
                if arg.is_known() && arg.length() == 0 && elem == Type::Dynamic {
                    continue;
                }
                elems.push(elem);
            }
            if elems.is_empty() {
                return Ok(Type::set(Type::Dynamic));
            }
            match unify_unsafe(&elems) {
                Some((elem, _)) => Ok(Type::set(elem)),
                None => Err(CallError::general(
                    "given sets must all have compatible element types",
                )),
            }
        }),
        implementation: Box::new(move |args, ret| {
            let elem = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            let mut result: Vec<Value> = Vec::new();
            for (i, arg) in args.iter().enumerate() {
                let set = convert(arg, ret).map_err(|e| CallError::arg(i, e.message))?;
                // Unknown elements could turn out equal to others, so only
                // the union can say anything before they are known.
                if op != Op::Union && !set.is_wholly_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                let items = sequence_items(&set);
                result = match (i, op) {
                    (0, _) | (_, Op::Union) => {
                        result.extend(items.iter().cloned());
                        result
                    }
                    (_, Op::Intersection) => {
                        result.into_iter().filter(|v| set_has(items, v)).collect()
                    }
                    (_, Op::Subtract) => {
                        result.into_iter().filter(|v| !set_has(items, v)).collect()
                    }
                };
            }
            Ok(Value::set(elem, result))
        }),
    }
}

/// cty's `setproduct`: the Cartesian product as a list of tuples when every
/// argument is a list or tuple, otherwise as a set of tuples.
/// Mirrors `stdlib.SetProductFunc`.
fn setproduct() -> Function {
    Function {
        name: "setproduct",
        params: Vec::new(),
        // go-cty 1.13 takes unknown arguments, whose length bounds bound
        // the result's; before, an unknown argument made an unknown result
        // before the implementation ran, as it still does without bounds.
        var_param: Some(
            Param::new("sets", Type::Dynamic)
                .allow_unknown()
                .marks(Policy::Own),
        ),
        return_type: Box::new(|args| {
            if args.len() < 2 {
                return Err(CallError::general("at least two arguments are required"));
            }
            let mut lists = 0;
            let mut elems = Vec::with_capacity(args.len());
            for (i, arg) in args.iter().enumerate() {
                match arg.ty() {
                    Type::Set(elem) => elems.push(*elem),
                    Type::List(elem) => {
                        elems.push(*elem);
                        lists += 1;
                    }
                    Type::Tuple(tys) if tys.is_empty() => {
                        elems.push(Type::Dynamic);
                        lists += 1;
                    }
                    Type::Tuple(tys) => {
                        let Some((elem, _)) = unify_unsafe(&tys) else {
                            return Err(CallError::arg(i, "all elements must be of the same type"));
                        };
                        elems.push(elem);
                        lists += 1;
                    }
                    _ => return Err(CallError::arg(i, "a set or a list is required")),
                }
            }
            let product = Type::Tuple(elems);
            Ok(if lists == args.len() {
                Type::list(product)
            } else {
                Type::set(product)
            })
        }),
        implementation: Box::new(|args, ret| {
            let product_ty = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            let Type::Tuple(part_tys) = &product_ty else {
                return Ok(Value::unknown(ret.clone()));
            };
            if args.iter().any(|a| !length_value(a).is_known()) {
                return Ok(unknown_product(args, ret));
            }
            let parts: Vec<&[Value]> = args.iter().map(sequence_items).collect();
            let mut total: usize = 1;
            for part in &parts {
                total = total.saturating_mul(part.len());
            }
            if total > MAX_PRODUCT {
                return Err(panicked("setproduct result too large"));
            }
            let mut tuples = Vec::with_capacity(total);
            if total > 0 {
                let mut odometer = vec![0usize; parts.len()];
                for _ in 0..total {
                    let mut tuple = Vec::with_capacity(parts.len());
                    for ((part, &at), ty) in parts.iter().zip(&odometer).zip(part_tys) {
                        let v = &part[at];
                        tuple.push(if v.ty() == *ty {
                            v.clone()
                        } else {
                            convert(v, ty).map_err(|e| CallError::general(e.message))?
                        });
                    }
                    tuples.push(Value::tuple(tuple));
                    // The last argument varies fastest.
                    for (pos, part) in odometer.iter_mut().zip(&parts).rev() {
                        *pos += 1;
                        if *pos < part.len() {
                            break;
                        }
                        *pos = 0;
                    }
                }
            }
            Ok(match (ret, tuples.is_empty()) {
                (Type::List(_), true) => Value::list(product_ty, tuples),
                (_, true) => Value::set(product_ty, tuples),
                (Type::List(_), false) => {
                    let elem = crate::functions::element_type_of("list", &tuples)?;
                    Value::list(elem, tuples)
                }
                (_, false) => {
                    let elem = crate::functions::element_type_of("set", &tuples)?;
                    Value::set(elem, tuples)
                }
            })
        }),
    }
}

/// `cty.ValueSet.Has`: an element with the same hash that equals `v`.
fn set_has(items: &[Value], v: &Value) -> bool {
    let hash = set_hash(v);
    items
        .iter()
        .any(|item| set_hash(item) == hash && matches!(item.equals(v), Value::Bool(true)))
}

/// The unknown result of `setproduct` when an argument's length is unknown
/// (go-cty 1.13+): empty when some argument surely is, otherwise at least
/// one and at most the product of the greatest lengths, when those are
/// small enough to track (cty gives up past 1,024 for one argument or
/// 2,048 for the product).
fn unknown_product(args: &[Value], ret: &Type) -> Value {
    let unrefined = Value::unknown(ret.clone());
    let mut most: u64 = 1;
    for arg in args {
        let arg_most = match arg.ty() {
            Type::Tuple(elems) => elems.len() as u64,
            ty if ty.is_collection() => arg.range().max_length,
            _ => return unrefined,
        };
        if arg_most > 1024 {
            return unrefined;
        }
        most *= arg_most;
        if most > 2048 {
            return unrefined;
        }
    }
    let least = most.min(1);
    unrefined
        .refine()
        .collection_length_lower_bound(least)
        .collection_length_upper_bound(most)
        .finish()
}
