//! Terraform's type conversion functions: `tobool`, `tonumber`,
//! `tostring`, `tolist`, `toset` and `tomap` (Terraform's own
//! `funcs.MakeToFunc`, not cty's), and HCL's `can` and `try`
//! (`ext/tryfunc`), which take their arguments as unevaluated expressions.

use super::{CallError, Function, Param};
use crate::ast::{Expr, ExprKind};
use crate::convert::{can_convert, convert};
use crate::error::Error;
use crate::functions::marks::Policy;
use crate::goquote::go_quote;
use crate::types::Type;
use crate::value::Value;
use crate::{Feature, HclVersion};

/// Every function defined here.
pub(super) fn functions() -> Vec<Function> {
    vec![
        to_function("tobool", Type::Bool),
        to_function("tonumber", Type::Number),
        to_function("tostring", Type::String),
        to_function("tolist", Type::list(Type::Dynamic)),
        to_function("toset", Type::set(Type::Dynamic)),
        to_function("tomap", Type::map(Type::Dynamic)),
        closure_function("can", false),
        closure_function("try", true),
    ]
}

/// One argument of `can` or `try` (an HCL expression closure), evaluated
/// by the caller: its value or its first error, and whether one of the
/// variables it refers to is not wholly known (tryfunc's
/// `dependsOnUnknowns`, which HCL 2.14 consults before evaluating).
#[derive(Clone, Debug)]
pub struct ClosureOutcome {
    pub result: Result<Value, Error>,
    pub depends_on_unknowns: bool,
}

/// Calls a function whose parameters take expression closures (`can`,
/// `try`) with its evaluated arguments. Mirrors `tryfunc.CanFunc` and
/// `tryfunc.TryFunc` of the given HCL version.
pub(crate) fn call_closures(
    function: &Function,
    args: &[ClosureOutcome],
    version: HclVersion,
) -> Result<Value, CallError> {
    match function.name {
        "can" => Ok(can(&args[0], version)),
        "try" => try_first(args, version),
        name => Err(CallError::general(format!(
            "{name} does not take expression arguments"
        ))),
    }
}

/// The variable references of `expr` that `hclsyntax.Variables` reports:
/// the scope traversals whose root is not a name bound by a `for`
/// expression inside `expr`. Object keys that are bare names are not
/// references. Mirrors `hclsyntax.Variables`; calls of the functions in
/// `type_argument_functions` have their second argument left out (it is a
/// type constraint, as for Terraform's `convert`).
pub fn root_traversals<'a>(expr: &'a Expr, type_argument_functions: &[&str]) -> Vec<&'a Expr> {
    // Scopes are (parent, names) pairs; each pending node carries the
    // index of the scope it is walked in. An explicit stack keeps deeply
    // nested expressions from exhausting the call stack.
    let mut scopes: Vec<(Option<usize>, Vec<&str>)> = Vec::new();
    let mut pending: Vec<(&'a Expr, Option<usize>)> = vec![(expr, None)];
    let mut found = Vec::new();
    while let Some((e, scope)) = pending.pop() {
        let mut push = |child: &'a Expr| pending.push((child, scope));
        match &e.kind {
            ExprKind::ScopeTraversal { root, .. } => {
                if !is_local(&scopes, scope, root) {
                    found.push(e);
                }
            }
            ExprKind::Literal(_) | ExprKind::AnonSymbol => {}
            ExprKind::Parentheses(inner)
            | ExprKind::TemplateJoin(inner)
            | ExprKind::TemplateWrap(inner) => push(inner),
            ExprKind::RelativeTraversal { source, .. } => push(source),
            ExprKind::Index { collection, key } => {
                push(key);
                push(collection);
            }
            ExprKind::FunctionCall { name, args, .. } => {
                let skip = type_argument_functions.contains(&name.as_str());
                for (i, arg) in args.iter().enumerate().rev() {
                    if !(skip && i == 1) {
                        push(arg);
                    }
                }
            }
            ExprKind::Conditional {
                condition,
                true_result,
                false_result,
            } => {
                push(false_result);
                push(true_result);
                push(condition);
            }
            ExprKind::Unary { operand, .. } => push(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                push(rhs);
                push(lhs);
            }
            ExprKind::TupleCons(items) | ExprKind::Template(items) => {
                items.iter().rev().for_each(push)
            }
            ExprKind::ObjectCons(items) => {
                for item in items.iter().rev() {
                    push(&item.value);
                    if !is_keyword_key(&item.key.expr) {
                        push(&item.key.expr);
                    }
                }
            }
            ExprKind::Splat { source, each } => {
                push(each);
                push(source);
            }
            ExprKind::For(f) => {
                let names = f.key_var.iter().map(String::as_str);
                let names = names.chain([f.value_var.as_str()]).collect();
                scopes.push((scope, names));
                let inner = Some(scopes.len() - 1);
                if let Some(c) = &f.condition {
                    pending.push((c, inner));
                }
                pending.push((&f.value, inner));
                if let Some(k) = &f.key {
                    pending.push((k, inner));
                }
                pending.push((&f.collection, scope));
            }
        }
    }
    found
}

const NO_EXPRESSION_SUCCEEDED: &str = "no expression succeeded:\n";
const AT_LEAST_ONE: &str = "\nAt least one expression must produce a successful result";

/// Terraform's `to*` conversion: unlike cty's `MakeToFunc`, unknown values
/// and values of unknown type are accepted, so `tostring(null)` is a null
/// string and an unknown gives an unknown of the requested type.
/// Mirrors Terraform's `funcs.MakeToFunc`.
fn to_function(name: &'static str, want: Type) -> Function {
    let want_for_type = want.clone();
    Function {
        name,
        params: vec![Param::new("v", Type::Dynamic)
            .allow_null()
            .allow_dynamic_type()
            .allow_unknown()
            .marks(Policy::Passed)],
        var_param: None,
        return_type: Box::new(move |args| {
            let got = args[0].ty();
            if got == want_for_type || can_convert(&got, &want_for_type) {
                return Ok(want_for_type.clone());
            }
            Err(CallError::arg(0, cannot_convert(&got, &want_for_type)))
        }),
        // The value allows marks: its own mark goes onto the result, the
        // conversion keeps those inside, and an error does not show a
        // marked value.
        implementation: Box::new(move |args, ret| {
            let sensitive = args[0].contains_marked();
            let (value, marked) = args[0].clone().unmark();
            if !value.is_known() {
                return Ok(Value::unknown(ret.clone()).mark_if(marked));
            }
            let converted = convert(&value, ret).map(|v| v.mark_if(marked));
            converted.map_err(|_| {
                if sensitive {
                    let message = format!(
                        "cannot convert this sensitive {} to {}",
                        value.ty().friendly_name(),
                        want.friendly_name_for_constraint()
                    );
                    return CallError::arg(0, message);
                }
                let what = match &value {
                    Value::String(s) => go_quote(s),
                    _ => "string".to_string(),
                };
                let message = match (value.ty(), &want) {
                    (Type::String, Type::Bool) => format!(
                        "cannot convert {what} to bool; only the strings \"true\" or \"false\" are allowed"
                    ),
                    (Type::String, Type::Number) => format!(
                        "cannot convert {what} to number; given string must be a decimal representation of a number"
                    ),
                    (got, _) => cannot_convert(&got, &want),
                };
                CallError::arg(0, message)
            })
        }),
    }
}

fn cannot_convert(got: &Type, want: &Type) -> String {
    format!(
        "cannot convert {} to {}",
        got.friendly_name(),
        want.friendly_name_for_constraint()
    )
}

/// `can` or `try`: registered like any other function so that lookups,
/// names and arity checks see them, but called through
/// [`call_closures`]; a plain call has no expressions to evaluate.
fn closure_function(name: &'static str, variadic: bool) -> Function {
    let param = Param::new(
        if variadic {
            "expressions"
        } else {
            "expression"
        },
        Type::Dynamic,
    )
    .expression_closure();
    let (params, var_param) = if variadic {
        (Vec::new(), Some(param))
    } else {
        (vec![param], None)
    };
    Function {
        name,
        params,
        var_param,
        return_type: Box::new(move |_| {
            Err(CallError::general(format!(
                "{name} needs its arguments as expressions"
            )))
        }),
        implementation: Box::new(move |_, _| {
            Err(CallError::general(format!(
                "{name} needs its arguments as expressions"
            )))
        }),
    }
}

/// `can`: whether the expression evaluates without errors.
/// Mirrors `tryfunc.can`.
fn can(arg: &ClosureOutcome, version: HclVersion) -> Value {
    if !version.has(Feature::TryEvaluatesUnknowns) && arg.depends_on_unknowns {
        return Value::unknown(Type::Bool);
    }
    match &arg.result {
        Err(_) => Value::Bool(false),
        Ok(v) if !v.is_wholly_known() && version.has(Feature::TryEvaluatesUnknowns) => {
            Value::unknown(Type::Bool)
        }
        Ok(_) => Value::Bool(true),
    }
}

/// `try`: the value of the first expression that evaluates without
/// errors. HCL 2.14 gives up with an unknown as soon as an expression
/// refers to something unknown; later versions evaluate first and give an
/// unknown when the first successful value is not wholly known.
/// Mirrors `tryfunc.try`.
fn try_first(args: &[ClosureOutcome], version: HclVersion) -> Result<Value, CallError> {
    if args.is_empty() {
        return Err(CallError::general("at least one argument is required"));
    }
    let mut failures = Vec::new();
    for arg in args {
        if !version.has(Feature::TryEvaluatesUnknowns) && arg.depends_on_unknowns {
            return Ok(Value::dynamic_unknown());
        }
        match &arg.result {
            Err(e) => failures.push(e),
            Ok(v) if !v.is_wholly_known() && version.has(Feature::TryEvaluatesUnknowns) => {
                return Ok(Value::dynamic_unknown())
            }
            Ok(v) => return Ok(v.clone()),
        }
    }
    let mut message = String::from(NO_EXPRESSION_SUCCEEDED);
    for e in failures {
        message.push_str(&format!(
            "- {} (at {})\n  {}\n",
            e.summary,
            e.span.hcl_range(),
            e.detail
        ));
    }
    message.push_str(AT_LEAST_ONE);
    Err(CallError::general(message))
}

/// Whether `name` is bound by a `for` expression in `scope` or one of its
/// parents.
fn is_local(scopes: &[(Option<usize>, Vec<&str>)], mut scope: Option<usize>, name: &str) -> bool {
    while let Some(i) = scope {
        let (parent, names) = &scopes[i];
        if names.contains(&name) {
            return true;
        }
        scope = *parent;
    }
    false
}

/// `hcl.ExprAsKeyword` is non-empty: an object key written as a bare name
/// (or `null`, `true`, `false`) is a literal, not a reference.
fn is_keyword_key(expr: &Expr) -> bool {
    matches!(&expr.kind, ExprKind::ScopeTraversal { steps, .. } if steps.is_empty())
}

#[cfg(test)]
mod tests;
