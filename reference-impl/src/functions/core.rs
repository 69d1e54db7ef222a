//! A first set of the built-in functions, under Terraform's names:
//! `length` (Terraform's own), and cty's `upper`, `lower`, `max`, `min`,
//! `concat` and `to*` conversion functions.

use super::case_table::{ALT, CASE_RANGES};
use super::{length_value, static_return_type, CallError, Function, Param};
use crate::convert::{can_convert, convert};
use crate::number::Number;
use crate::types::Type;
use crate::unify::unify_unsafe;
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
        to_function("tolist", Type::list(Type::Dynamic)),
        to_function("toset", Type::set(Type::Dynamic)),
        to_function("tomap", Type::map(Type::Dynamic)),
        to_function("tostring", Type::String),
        to_function("tonumber", Type::Number),
        to_function("tobool", Type::Bool),
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
            .allow_unknown()],
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
                Type::Dynamic => Value::Unknown(Type::Number),
                Type::Tuple(elems) => count(elems.len()),
                Type::Object(attrs) => count(attrs.len()),
                Type::String => match value {
                    Value::String(s) => count(grapheme_count(s)),
                    _ => Value::Unknown(Type::Number),
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
            _ => Ok(Value::Unknown(Type::String)),
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
                    return Ok(Value::Unknown(Type::Number));
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
        var_param: Some(Param::new("seqs", Type::Dynamic)),
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
                let mut items = Vec::new();
                for (i, arg) in args.iter().enumerate() {
                    let list = convert(arg, ret).map_err(|e| CallError::arg(i, e.message))?;
                    if let Value::List { items: part, .. } = list {
                        items.extend(part);
                    }
                }
                Ok(Value::list((**elem).clone(), items))
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

/// `tolist`, `toset`, `tomap`, `tostring`, `tonumber` and `tobool`:
/// mirrors cty's `stdlib.MakeToFunc`, an explicit conversion with messages about
/// the requested type. Its parameter accepts nulls but neither unknowns nor
/// values of unknown type, so those give unknown (or null) results of
/// unknown type.
fn to_function(name: &'static str, want: Type) -> Function {
    let want_for_type = want.clone();
    Function {
        name,
        params: vec![Param::new("v", Type::Dynamic).allow_null()],
        var_param: None,
        return_type: Box::new(move |args| {
            let got = args[0].ty();
            if got == want_for_type || can_convert(&got, &want_for_type) {
                return Ok(want_for_type.clone());
            }
            Err(CallError::arg(
                0,
                format!(
                    "cannot convert {} to {}",
                    got.friendly_name(),
                    constraint_name(&want_for_type)
                ),
            ))
        }),
        implementation: Box::new(move |args, ret| {
            let value = &args[0];
            convert(value, ret).map_err(|_| {
                let what = match value {
                    Value::String(s) => format!("{s:?}"),
                    _ => "string".to_string(),
                };
                let message = match (value.ty(), &want) {
                    (Type::String, Type::Bool) => format!(
                        "cannot convert {what} to bool; only the strings \"true\" or \"false\" are allowed"
                    ),
                    (Type::String, Type::Number) => format!(
                        "cannot convert {what} to number; given string must be a decimal representation of a number"
                    ),
                    (got, _) => format!(
                        "cannot convert {} to {}",
                        got.friendly_name(),
                        constraint_name(&want)
                    ),
                };
                CallError::arg(0, message)
            })
        }),
    }
}

fn count(n: usize) -> Value {
    Value::number(Number::from_u64(n as u64))
}

/// cty's `Strlen`: the number of extended grapheme clusters.
fn grapheme_count(s: &str) -> usize {
    super::grapheme::count(s)
}

/// `cty.Type.FriendlyNameForConstraint` for the conversion targets used
/// here: "any single type" stands for the dynamic element type.
fn constraint_name(ty: &Type) -> String {
    match ty {
        Type::List(e) if **e == Type::Dynamic => "list of any single type".to_string(),
        Type::Set(e) if **e == Type::Dynamic => "set of any single type".to_string(),
        Type::Map(e) if **e == Type::Dynamic => "map of any single type".to_string(),
        other => other.friendly_name(),
    }
}

/// Go's `unicode.ToUpper` / `unicode.ToLower` for one character.
fn simple_case(c: char, upper: bool) -> char {
    let cp = c as u32;
    let idx = CASE_RANGES.partition_point(|&(first, _, _, _)| first <= cp);
    let Some(&(first, last, up, low)) = idx.checked_sub(1).map(|i| &CASE_RANGES[i]) else {
        return c;
    };
    if cp > last {
        return c;
    }
    let mapped = if up == ALT {
        let base = first + ((cp - first) & !1);
        if upper {
            base
        } else {
            base + 1
        }
    } else {
        let delta = if upper { up } else { low };
        cp.wrapping_add_signed(delta)
    };
    char::from_u32(mapped).unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::simple_case;

    #[test]
    fn simple_case_mapping_matches_go() {
        // (char, Go's unicode.ToUpper, Go's unicode.ToLower)
        let table = [
            ('a', 'A', 'a'),
            ('Z', 'Z', 'z'),
            ('ß', 'ß', 'ß'),
            ('İ', 'İ', 'i'),
            ('ǅ', 'Ǆ', 'ǆ'),
            ('ᾀ', 'ᾈ', 'ᾀ'),
            ('Ā', 'Ā', 'ā'),
            ('ā', 'Ā', 'ā'),
            ('µ', 'Μ', 'µ'),
            ('1', '1', '1'),
        ];
        for (c, up, low) in table {
            assert_eq!(simple_case(c, true), up, "upper {c}");
            assert_eq!(simple_case(c, false), low, "lower {c}");
        }
    }
}
