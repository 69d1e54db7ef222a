//! Terraform's type constraints (`ext/typeexpr`): `string`, `list(number)`,
//! `object({a = optional(string, "x")})`, `any`, read from an expression's
//! syntax tree, with the defaults of optional attributes; and the value an
//! input variable of such a type holds (see [`as_variable`]).
//!
//! A type constraint is never evaluated: keywords and calls are recognised
//! by their shape, as `hcl.ExprAsKeyword`, `hcl.ExprCall`, `hcl.ExprMap` and
//! `hcl.ExprList` do. Only the default of an optional attribute is
//! evaluated, without variables or functions.

mod defaults;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::ast::{Expr, ExprKind};
use crate::convert::{convert, ConvertError};
use crate::error::{Error, Span};
use crate::eval::{self, Context};
use crate::types::Type;
use crate::value::Value;
use crate::{Feature, HclVersion};

pub use defaults::Defaults;

const INVALID_TYPE: &str = "Invalid type specification";

/// A type constraint and the defaults of its optional attributes.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// The type; optional attributes are marked with [`Type::Optional`].
    pub ty: Type,
    pub defaults: Option<Defaults>,
}

/// Parses `source` as an expression and reads it as a type constraint with
/// defaults (`typeexpr.TypeConstraintWithDefaults`). Every error is of the
/// parse phase: a type constraint is part of a configuration's structure.
pub fn parse_constraint(source: &str, version: HclVersion) -> Result<Constraint, Error> {
    let expr = crate::parser::parse_expression_as(source, version)?;
    constraint(&expr, version)
}

/// `typeexpr.TypeString`: a type written as a type expression, attributes in
/// name order, an optional attribute as its type alone (the set of
/// optional attributes is not part of what it writes).
pub fn type_string(ty: &Type) -> String {
    let list = |items: &mut dyn Iterator<Item = String>| items.collect::<Vec<_>>().join(",");
    match ty {
        Type::String => "string".to_string(),
        Type::Number => "number".to_string(),
        Type::Bool => "bool".to_string(),
        Type::Dynamic => "any".to_string(),
        Type::List(e) => format!("list({})", type_string(e)),
        Type::Set(e) => format!("set({})", type_string(e)),
        Type::Map(e) => format!("map({})", type_string(e)),
        Type::Optional(e) => type_string(e),
        Type::Tuple(items) => format!("tuple([{}])", list(&mut items.iter().map(type_string))),
        Type::Object(attrs) => format!(
            "object({{{}}})",
            list(&mut attrs.iter().map(|(n, t)| format!("{n}={}", type_string(t))))
        ),
    }
}

/// `typeexpr.TypeConstraintWithDefaults` of an already parsed expression.
pub fn constraint(expr: &Expr, version: HclVersion) -> Result<Constraint, Error> {
    let (ty, defaults) = get_type(expr, version)?;
    Ok(Constraint { ty, defaults })
}

/// `typeexpr.TypeConstraint`: a type constraint whose optional attributes
/// have no defaults.
pub fn exact_constraint(expr: &Expr, version: HclVersion) -> Result<Type, Error> {
    let c = constraint(expr, version)?;
    if c.defaults.is_some() {
        return Err(invalid(
            "Optional attribute modifier expects only one argument: the attribute type.",
            expr.span,
        ));
    }
    Ok(c.ty)
}

/// The type constraint of an input variable: in HCL 2.14,
/// `typeexpr.TypeConstraintWithDefaults`; in the 2.24 profile, Terraform's
/// reading of a variable's `type`, which first rejects quoted type names
/// (the Terraform 0.11 form) and takes `list` and `map` alone as
/// `list(any)` and `map(any)`.
pub fn variable_constraint(expr: &Expr, version: HclVersion) -> Result<Constraint, Error> {
    if !version.is_terraform() {
        return constraint(expr, version);
    }
    if let ExprKind::Template(_) = &expr.kind {
        let value = constant_value(expr, version)?;
        let Value::String(name) = &value else {
            return Err(Error::parse(
                "Invalid legacy variable type hint",
                LEGACY_HINT,
                expr.span,
            ));
        };
        let advice = match name.as_str() {
            "string" => String::new(),
            "list" | "map" => format!(
                " and write {name}(string) instead to explicitly indicate that the {name} elements are strings"
            ),
            _ => {
                return Err(Error::parse(
                    "Invalid legacy variable type hint",
                    LEGACY_HINT,
                    expr.span,
                ))
            }
        };
        return Err(Error::parse(
            "Invalid quoted type constraints",
            format!(
                "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around {}{advice}.",
                go(name)
            ),
            expr.span,
        ));
    }
    match keyword(expr) {
        Some("list") => Ok(Constraint {
            ty: Type::list(Type::Dynamic),
            defaults: None,
        }),
        Some("map") => Ok(Constraint {
            ty: Type::map(Type::Dynamic),
            defaults: None,
        }),
        _ => constraint(expr, version),
    }
}

const LEGACY_HINT: &str =
    "To provide a full type expression, remove the surrounding quotes and give the type expression directly.";

/// The value an input variable with this type constraint holds when given
/// `value` as its default, as Terraform computes it: the constraint's
/// defaults applied (unless the value is null), the result converted to the
/// type when the configuration loads, and again, defaults included, when
/// the variable is evaluated.
pub fn as_variable(
    value: &Value,
    constraint: &Constraint,
    version: HclVersion,
) -> Result<Value, ConvertError> {
    let apply = |v: Value| match &constraint.defaults {
        Some(d) if !v.is_null() => d.apply(&v, version),
        _ => Ok(v),
    };
    let loaded = convert(&apply(value.clone())?, &constraint.ty)?;
    let given = convert(&loaded, &constraint.ty)?;
    convert(&apply(given)?, &constraint.ty)
}

/// The keyword an expression is (`hcl.ExprAsKeyword`): a lone name.
fn keyword(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::ScopeTraversal { root, steps } if steps.is_empty() => Some(root),
        _ => None,
    }
}

fn invalid(detail: impl Into<String>, span: Span) -> Error {
    Error::parse(INVALID_TYPE, detail, span)
}

type TypeAndDefaults = (Type, Option<Defaults>);

/// Mirrors typeexpr's getType with `constraint` and `withDefaults` set.
fn get_type(expr: &Expr, version: HclVersion) -> Result<TypeAndDefaults, Error> {
    crate::stack::deeper(|| get_type_inner(expr, version))
}

fn get_type_inner(expr: &Expr, version: HclVersion) -> Result<TypeAndDefaults, Error> {
    match keyword(expr) {
        Some("bool") => return Ok((Type::Bool, None)),
        Some("string") => return Ok((Type::String, None)),
        Some("number") => return Ok((Type::Number, None)),
        Some("any") => return Ok((Type::Dynamic, None)),
        Some(kw @ ("list" | "map" | "set")) => {
            return Err(invalid(
                format!(
                    "The {kw} type constructor requires one argument specifying the element type."
                ),
                expr.span,
            ))
        }
        Some("object") => return Err(invalid(OBJECT_ARGUMENT, expr.span)),
        Some("tuple") => return Err(invalid(TUPLE_ARGUMENT, expr.span)),
        Some(kw) => {
            return Err(invalid(
                format!("The keyword {} is not a valid type specification.", go(kw)),
                expr.span,
            ))
        }
        None => {}
    }
    let ExprKind::FunctionCall { name, args, .. } = &expr.kind else {
        return Err(invalid(
            "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).",
            expr.span,
        ));
    };
    match name.as_str() {
        "bool" | "string" | "number" => {
            return Err(invalid(
                format!(
                    "Primitive type keyword {} does not expect arguments.",
                    go(name)
                ),
                expr.span,
            ))
        }
        "any" => {
            return Err(invalid(
                format!(
                    "Type constraint keyword {} does not expect arguments.",
                    go(name)
                ),
                expr.span,
            ))
        }
        _ => {}
    }
    if args.len() != 1 {
        let detail = match name.as_str() {
            "list" | "set" | "map" => Some(format!(
                "The {name} type constructor requires one argument specifying the element type."
            )),
            "object" => Some(OBJECT_ARGUMENT.to_string()),
            "tuple" => Some(TUPLE_ARGUMENT.to_string()),
            _ => None,
        };
        if let Some(detail) = detail {
            return Err(invalid(detail, expr.span));
        }
    }
    match name.as_str() {
        "list" | "set" | "map" => {
            let (ety, defaults) = get_type(&args[0], version)?;
            let ty = match name.as_str() {
                "list" => Type::list(ety),
                "set" => Type::set(ety),
                _ => Type::map(ety),
            };
            let defaults = defaults.map(|d| Defaults::collection(ty.clone(), d));
            Ok((ty, defaults))
        }
        "object" => object(&args[0], version),
        "tuple" => {
            let ExprKind::TupleCons(elems) = &args[0].kind else {
                return Err(invalid(
                    "Tuple type constructor requires a list of element types.",
                    args[0].span,
                ));
            };
            let mut types = Vec::with_capacity(elems.len());
            let mut children = BTreeMap::new();
            for (i, elem) in elems.iter().enumerate() {
                let (ty, defaults) = get_type(elem, version)?;
                types.push(ty);
                if let Some(d) = defaults {
                    children.insert(i.to_string(), d);
                }
            }
            let ty = Type::Tuple(types);
            Ok((
                ty.clone(),
                Defaults::structured(ty, BTreeMap::new(), children),
            ))
        }
        "optional" => Err(invalid(
            format!(
                "Keyword {} is valid only as a modifier for object type attributes.",
                go(name)
            ),
            expr.span,
        )),
        _ => Err(invalid(
            format!("Keyword {} is not a valid type constructor.", go(name)),
            expr.span,
        )),
    }
}

const OBJECT_ARGUMENT: &str =
    "The object type constructor requires one argument specifying the attribute types and values as a map.";
const TUPLE_ARGUMENT: &str =
    "The tuple type constructor requires one argument specifying the element types as a list.";

fn go(s: &str) -> String {
    crate::goquote::go_quote(s)
}

/// The `object({...})` constructor's argument.
fn object(arg: &Expr, version: HclVersion) -> Result<TypeAndDefaults, Error> {
    let ExprKind::ObjectCons(items) = &arg.kind else {
        return Err(invalid(
            "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.",
            arg.span,
        ));
    };
    let mut attrs: BTreeMap<String, Type> = BTreeMap::new();
    let mut optional: BTreeSet<String> = BTreeSet::new();
    let mut values: BTreeMap<String, Value> = BTreeMap::new();
    let mut children: BTreeMap<String, Defaults> = BTreeMap::new();
    for item in items {
        let name = match (item.key.force_non_literal, keyword(&item.key.expr)) {
            (false, Some(name)) => name.to_string(),
            _ => {
                return Err(invalid(
                    "Object constructor map keys must be attribute names.",
                    item.key.expr.span,
                ))
            }
        };
        if version.has(Feature::DuplicateTypeAttributes) && attrs.contains_key(&name) {
            return Err(invalid(
                "Object constructor map keys must be unique.",
                item.key.expr.span,
            ));
        }
        let mut type_expr = &item.value;
        let mut default_expr = None;
        if let ExprKind::FunctionCall { name: f, args, .. } = &item.value.kind {
            if f == "optional" {
                match args.len() {
                    0 => {
                        return Err(invalid(
                            "Optional attribute modifier requires the attribute type as its argument.",
                            item.value.span,
                        ))
                    }
                    1 | 2 => {}
                    _ => {
                        return Err(invalid(
                            "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.",
                            item.value.span,
                        ))
                    }
                }
                if let Some(default) = args.get(1) {
                    values.insert(name.clone(), constant_value(default, version)?);
                    default_expr = Some(default);
                }
                optional.insert(name.clone());
                type_expr = &args[0];
            }
        }
        let (ty, defaults) = get_type(type_expr, version)?;
        if let (Some(default), Some(expr)) = (values.get(&name), default_expr) {
            match convert(default, &ty) {
                Ok(converted) => {
                    values.insert(name.clone(), converted);
                }
                Err(e) => {
                    return Err(Error::parse(
                        "Invalid default value for optional attribute",
                        format!(
                            "This default value is not compatible with the attribute's type constraint: {e}."
                        ),
                        expr.span,
                    ))
                }
            }
        }
        attrs.insert(name.clone(), ty);
        if let Some(d) = defaults {
            children.insert(name, d);
        }
    }
    let ty = Type::Object(
        attrs
            .into_iter()
            .map(|(name, ty)| {
                let ty = if optional.contains(&name) {
                    Type::Optional(Box::new(ty))
                } else {
                    ty
                };
                (name, ty)
            })
            .collect(),
    );
    Ok((ty.clone(), Defaults::structured(ty, values, children)))
}

/// The value of a default (`Expression.Value(nil)`): no variables. Its
/// errors are of the parse phase, as all of a type constraint's are.
///
/// Not modelled: HCL also refuses function calls here ("Function calls not
/// allowed"); the reference evaluates them.
fn constant_value(expr: &Expr, version: HclVersion) -> Result<Value, Error> {
    if let Some(reference) = crate::functions::root_traversals(expr, &[]).first() {
        return Err(Error::parse(
            "Variables not allowed",
            "Variables may not be used here.",
            reference.span,
        ));
    }
    let ctx = Context {
        variables: Arc::new(BTreeMap::new()),
        version,
        base_dir: None,
    };
    eval::evaluate(expr, &ctx).map_err(|mut e| {
        e.phase = crate::Phase::Parse;
        e
    })
}

#[cfg(test)]
mod tests;
