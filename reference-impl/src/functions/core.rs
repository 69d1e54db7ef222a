//! A first set of the built-in functions, under Terraform's names:
//! `length` (Terraform's own), and cty's `upper`, `lower`, `max`, `min` and
//! `concat`. The `to*` conversion functions are in `conversion`.

use super::{length_value, list_of_elements, static_return_type, CallError, Function, Param};
use crate::convert::convert;
use crate::convert::unify_unsafe;
use crate::functions::marks::Policy;
use crate::number::Number;
use crate::text::{grapheme_count, simple_case};
use crate::types::Type;
use crate::value::Value;

/// Every function defined here.
pub(super) fn functions() -> Vec<Function> {
    vec![
        length(),
        case_function("upper", true),
        case_function("lower", false),
        extremum("max", true),
        extremum("min", false),
        concat(),
    ]
}

/// Terraform's `length`: grapheme clusters of a string, elements of a
/// collection, attributes or elements of a structural value.
/// Mirrors Terraform's `funcs.LengthFunc`.
fn length() -> Function {
    Function {
        name: "length",
        params: vec![Param::new("value", Type::Dynamic)
            .allow_dynamic_type()
            .allow_unknown()
            .marks(Policy::Own)],
        var_param: None,
        return_type: Box::new(|args| match args[0].ty() {
            Type::Number | Type::Bool => Err(CallError::general(
                "argument must be a string, a collection type, or a structural type",
            )),
            _ => Ok(Type::Number),
        }),
        implementation: Box::new(|args, _| {
            let value = &args[0];
            Ok(match value.ty() {
                Type::Dynamic => Value::unknown(Type::Number),
                Type::Tuple(elems) => count(elems.len()),
                Type::Object(attrs) => count(attrs.len()),
                Type::String => match value {
                    Value::String(s) => count(grapheme_count(s)),
                    // cty's `strlen` (which Terraform's `length` calls):
                    // never negative, and at least as long as the known
                    // prefix.
                    _ => {
                        let prefix = value.range().prefix;
                        let least = Number::from_u64(grapheme_count(&prefix) as u64);
                        Value::unknown(Type::Number)
                            .refine()
                            .not_null()
                            .number_lower_bound(Some((least, true)))
                            .finish()
                    }
                },
                _ => length_value(value),
            })
        }),
    }
}

/// cty's `upper` / `lower`: Go's per-character simple case mapping.
/// Mirrors `stdlib.UpperFunc` / `stdlib.LowerFunc`.
fn case_function(name: &'static str, upper: bool) -> Function {
    Function {
        name,
        params: vec![Param::new("str", Type::String).allow_dynamic_type()],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(move |args, _| match &args[0] {
            Value::String(s) => Ok(Value::string(
                s.chars().map(|c| simple_case(c, upper)).collect::<String>(),
            )),
            _ => Ok(Value::unknown(Type::String)),
        }),
    }
}

/// cty's `max` / `min` over one or more numbers.
/// Mirrors `stdlib.MaxFunc` / `stdlib.MinFunc`.
fn extremum(name: &'static str, greatest: bool) -> Function {
    Function {
        name,
        params: Vec::new(),
        var_param: Some(Param::new("numbers", Type::Number).allow_dynamic_type()),
        return_type: static_return_type(Type::Number),
        implementation: Box::new(move |args, _| {
            if args.is_empty() {
                return Err(CallError::general("must pass at least one number"));
            }
            // cty starts from the opposite infinity and only replaces on a
            // strict improvement, so the first of equal values wins.
            let mut best = Value::number(Number::infinity(greatest));
            for arg in args {
                let (Value::Number(n), Value::Number(b)) = (arg, &best) else {
                    return Ok(Value::unknown(Type::Number));
                };
                let ord = n.cmp(b);
                if (greatest && ord.is_gt()) || (!greatest && ord.is_lt()) {
                    best = arg.clone();
                }
            }
            Ok(best)
        }),
    }
}

/// cty's `concat`: a list when every argument is a list and their types
/// unify, otherwise a tuple of all elements. Mirrors `stdlib.ConcatFunc`.
fn concat() -> Function {
    Function {
        name: "concat",
        params: Vec::new(),
        var_param: Some(Param::new("seqs", Type::Dynamic).marks(Policy::Own)),
        return_type: Box::new(|args| {
            if args.is_empty() {
                return Err(CallError::general("at least one argument is required"));
            }
            let types: Vec<Type> = args.iter().map(Value::ty).collect();
            if types.iter().all(|t| matches!(t, Type::List(_))) {
                if let Some((common, _)) = unify_unsafe(&types) {
                    return Ok(common);
                }
            }
            let mut elems = Vec::new();
            for (i, (arg, ty)) in args.iter().zip(types).enumerate() {
                match ty {
                    Type::Tuple(tys) => elems.extend(tys),
                    Type::List(elem) => {
                        if !arg.is_known() {
                            return Ok(Type::Dynamic);
                        }
                        elems.resize(elems.len() + arg.length(), *elem);
                    }
                    other => {
                        return Err(CallError::arg(
                            i,
                            format!(
                                "all arguments must be lists or tuples; got {}",
                                other.friendly_name()
                            ),
                        ))
                    }
                }
            }
            Ok(Type::Tuple(elems))
        }),
        implementation: Box::new(|args, ret| match ret {
            Type::List(elem) => {
                // The unified type can have a dynamic element type, which
                // leaves the converted elements as they were: cty builds the
                // list from the elements themselves (`cty.ListVal`), taking
                // its element type from them and panicking when they differ.
                let mut items = Vec::new();
                for (i, arg) in args.iter().enumerate() {
                    let list = convert(arg, ret).map_err(|e| CallError::arg(i, e.message))?;
                    if let Value::List { items: part, .. } = list {
                        items.extend(part);
                    }
                }
                if items.is_empty() {
                    return Ok(Value::list((**elem).clone(), items));
                }
                list_of_elements(items)
            }
            _ => {
                let mut items = Vec::new();
                for arg in args {
                    items.extend(arg.elements().into_iter().map(|(_, v)| v));
                }
                Ok(Value::tuple(items))
            }
        }),
    }
}

fn count(n: usize) -> Value {
    Value::number(Number::from_u64(n as u64))
}

#[cfg(test)]
mod tests {
    use crate::functions::lookup;
    use crate::number::Number;
    use crate::types::Type;
    use crate::value::Value;

    fn list(elem: Type, items: Vec<Value>) -> Value {
        Value::list(elem, items)
    }

    // Checked against go-cty 1.12.1's ConcatFunc.
    #[test]
    fn concat_builds_lists_from_their_elements() {
        let concat = lookup("concat").unwrap();
        let empty = list(Type::Dynamic, Vec::new());
        let one_tuple = list(Type::Tuple(Vec::new()), vec![Value::tuple(Vec::new())]);
        let got = concat.call(&[empty.clone(), one_tuple]).unwrap();
        assert_eq!(got.ty(), Type::list(Type::Tuple(Vec::new())));
        assert_eq!(got.length(), 1);

        let numbers = list(Type::Number, vec![Value::number(Number::from_u64(0))]);
        let bools = list(Type::Bool, vec![Value::bool(true)]);
        let err = concat.call(&[numbers, bools, empty]).unwrap_err();
        assert!(err.message().contains("inconsistent list element types"));
    }
}
