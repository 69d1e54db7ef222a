//! Function calls (`hclsyntax.FunctionCallExpr`): argument expansion,
//! arity checks and conversion of each argument to its parameter's type
//! happen here; null, unknown and type rules inside the call are
//! `Function::call`'s.

use super::{last_char_span, start_range, template_string, Diags, Evaluated, Evaluator};
use crate::ast::Expr;
use crate::convert::convert;
use crate::error::{Error, Span};
use crate::functions::{self, CallError, ClosureOutcome};
use crate::goquote::go_quote;
use crate::types::Type;
use crate::value::Value;
use crate::{Feature, HclVersion};

const INVALID_EXPANSION: &str = "Invalid expanding argument value";
const INVALID_ARGUMENT: &str = "Invalid function argument";
const CALL_FAILED: &str = "Error in function call";

/// One argument: an expression, or an element of the expanded final
/// argument (whose range is the whole expanded expression).
enum Arg<'a> {
    Expr(&'a Expr),
    Expanded(Value, Span),
}

impl Arg<'_> {
    fn start_range(&self) -> Span {
        match self {
            Arg::Expr(e) => start_range(e),
            Arg::Expanded(_, span) => *span,
        }
    }
}

/// Terraform's namespace for its built-in functions: `core::upper` is
/// `upper` (Terraform 1.8 and later, so the HCL 2.24 profile).
const CORE_NAMESPACE: &str = "core::";
const UNKNOWN_FUNCTION: &str = "Call to unknown function";
const UNKNOWN_PROVIDER_FUNCTION: &str = "Unknown provider function";

/// The built-in function a call names, in the profile's namespaces.
fn lookup(name: &str, version: HclVersion) -> Option<&'static functions::Function> {
    match (version, name.strip_prefix(CORE_NAMESPACE)) {
        (v, Some(base)) if v.has(Feature::NamespacedFunctions) => {
            functions::lookup_for(base, version)
        }
        _ => functions::lookup_for(name, version),
    }
}

/// The error for a call of a function that does not exist. Terraform
/// (`lang.Scope`'s filter of HCL's unknown-function diagnostics, the HCL
/// 2.24 profile) reports a namespaced name as an unknown provider
/// function, explaining what is wrong with the namespace.
fn unknown_function(name: &str, version: HclVersion, span: Span) -> Error {
    let (namespace, base) = match (version, name.rfind("::")) {
        (v, Some(at)) if v.has(Feature::NamespacedFunctions) => name.split_at(at + 2),
        _ => {
            let suggestion = crate::parser::did_you_mean(name, &functions::names_for(version));
            let detail = format!("There is no function named {}.{suggestion}", go_quote(name));
            return Error::eval(UNKNOWN_FUNCTION, detail, span);
        }
    };
    // "provider::p::" splits into "provider", "p" and "".
    let mut parts = namespace.split("::");
    let detail = match (parts.next(), parts.next()) {
        (Some("provider"), Some("")) => {
            "The function call must include the provider name after the \"provider::\" prefix."
                .to_string()
        }
        (Some("provider"), Some(provider)) => format!(
            "There is no function named \"{name}\". Ensure that provider name {} is declared in this module's required_providers block, and that this provider offers a function named {}.",
            go_quote(provider),
            go_quote(base)
        ),
        (first, _) => format!(
            "The function namespace {} is not valid. Provider function calls must use the \"provider::\" namespace prefix.",
            go_quote(first.unwrap_or_default())
        ),
    };
    Error::eval(UNKNOWN_PROVIDER_FUNCTION, detail, span)
}

/// Mirrors `hclsyntax.FunctionCallExpr.Value`.
pub(super) fn function_call<'a>(
    ev: &mut Evaluator<'a>,
    name: &'a str,
    arg_exprs: &'a [Expr],
    expand_final: bool,
    span: Span,
    name_span: Span,
    open_span: Span,
) -> Evaluated {
    // The name and the opening parenthesis, where HCL reports a failed call.
    let head = Span::new(name_span.start, open_span.end);
    let Some(function) = lookup(name, ev.version()) else {
        let error = unknown_function(name, ev.version(), name_span);
        return (Value::dynamic_unknown(), Diags::error(error));
    };

    let mut diags = Diags::none();
    let mut args: Vec<Arg<'a>> = arg_exprs.iter().map(Arg::Expr).collect();
    if let (true, Some(last)) = (expand_final, arg_exprs.last()) {
        let (value, expand_diags) = ev.eval(last);
        if expand_diags.has_errors() {
            return (Value::dynamic_unknown(), expand_diags);
        }
        diags.append(expand_diags);
        let expansion_error = |detail: &str| Error::eval(INVALID_EXPANSION, detail, last.span);
        match value.ty() {
            Type::Dynamic | Type::Tuple(_) | Type::List(_) | Type::Set(_) if value.is_null() => {
                diags.push(expansion_error(
                    "The expanding argument (indicated by ...) must not be null.",
                ));
                return (Value::dynamic_unknown(), diags);
            }
            Type::Dynamic => return (Value::dynamic_unknown(), diags),
            Type::Tuple(_) | Type::List(_) | Type::Set(_) => {
                if !value.is_known() {
                    return (Value::dynamic_unknown(), diags);
                }
                // The collection's own mark goes onto each element.
                let (value, marked) = value.unmark();
                args.pop();
                args.extend(
                    value
                        .elements()
                        .into_iter()
                        .map(|(_, v)| Arg::Expanded(v.mark_if(marked), last.span)),
                );
            }
            _ => {
                diags.push(expansion_error(
                    "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                ));
                return (Value::dynamic_unknown(), diags);
            }
        }
    }

    let params = &function.params;
    if args.len() < params.len() {
        let at_least = if function.var_param.is_some() {
            " at least"
        } else {
            ""
        };
        let error = Error::eval(
            "Not enough function arguments",
            format!(
                "Function {} expects{at_least} {} argument(s). Missing value for {}.",
                go_quote(name),
                params.len(),
                go_quote(params[args.len()].name)
            ),
            last_char_span(span),
        );
        return (Value::dynamic_unknown(), Diags::error(error));
    }
    if function.var_param.is_none() && args.len() > params.len() {
        let error = Error::eval(
            "Too many function arguments",
            format!(
                "Function {} expects only {} argument(s).",
                go_quote(name),
                params.len()
            ),
            args[params.len()].start_range(),
        );
        return (Value::dynamic_unknown(), Diags::error(error));
    }

    let plain_name = name.strip_prefix(CORE_NAMESPACE).unwrap_or(name);
    if ev.in_template && template_string::TEMPLATE_FUNCTIONS.contains(&plain_name) {
        let e = CallError::general(format!(
            "cannot recursively call {plain_name} from inside another template function"
        ));
        diags.push(call_error(name, function, &args, &e, span, head));
        return (Value::dynamic_unknown(), diags);
    }
    if function.name == functions::TEMPLATE_STRING {
        let template = match &args[0] {
            Arg::Expr(e) => Some(*e),
            Arg::Expanded(..) => None,
        };
        let vars = match &args[1] {
            Arg::Expr(e) => {
                let (v, d) = ev.eval(e);
                diags.append(d);
                v
            }
            Arg::Expanded(v, _) => v.clone(),
        };
        if diags.has_errors() {
            return (Value::dynamic_unknown(), diags);
        }
        // `vars` has no `AllowMarked`: its marks go onto the result.
        let (vars, marked) = vars.unmark_deep();
        return match template_string::call(ev, template, vars) {
            // Terraform's `templatestring` refines its result as not null.
            Ok(v) => (v.refine_not_null().mark_if(marked), diags),
            Err(e) => {
                diags.push(call_error(name, function, &args, &e, span, head));
                (Value::dynamic_unknown(), diags)
            }
        };
    }

    if function.name == functions::CONVERT {
        return convert_call(ev, name, function, &args, span, head, diags);
    }
    if function
        .params
        .iter()
        .chain(&function.var_param)
        .any(|p| p.expression_closure)
    {
        let outcomes: Vec<ClosureOutcome> =
            args.iter().map(|arg| closure_outcome(ev, arg)).collect();
        return match functions::call_closures(function, &outcomes, ev.version()) {
            Ok(v) => (v, diags),
            Err(e) => {
                diags.push(call_error(name, function, &args, &e, span, head));
                (Value::dynamic_unknown(), diags)
            }
        };
    }

    let mut values = Vec::with_capacity(args.len());
    for (i, arg) in args.iter().enumerate() {
        let param = function
            .param_for(i)
            .expect("arity was checked against the parameters");
        let value = match arg {
            Arg::Expr(e) => {
                let (v, d) = ev.eval(e);
                diags.append(d);
                v
            }
            Arg::Expanded(v, _) => v.clone(),
        };
        let value = if param.ty == Type::Dynamic {
            value
        } else {
            match convert(&value, &param.ty) {
                Ok(v) => v,
                Err(e) => {
                    diags.push(Error::eval(
                        INVALID_ARGUMENT,
                        invalid_value(param.name, &e.message),
                        arg.start_range(),
                    ));
                    value
                }
            }
        };
        values.push(value);
    }
    if diags.has_errors() {
        return (Value::dynamic_unknown(), diags);
    }

    let result = match functions::in_directory(function.name) {
        _ if function.name == template_string::TEMPLATE_FILE => {
            let (version, dir) = (ev.version(), ev.base_dir());
            function.call_with(&values, &|args, _| {
                template_string::template_file(args, version, dir.clone())
            })
        }
        Some(implementation) => {
            let dir = ev.base_dir();
            function.call_with(&values, &|args, ty| implementation(args, ty, &dir))
        }
        None => function.call(&values),
    };
    match result {
        Ok(v) if !super::budget::take_value(&v) => {
            diags.push(super::budget_error(span));
            (Value::dynamic_unknown(), diags)
        }
        Ok(v) => (v, diags),
        Err(e) => {
            diags.push(call_error(name, function, &args, &e, span, head));
            (Value::dynamic_unknown(), diags)
        }
    }
}

/// Terraform's `convert(value, type)`: the value converted to the type
/// constraint written as the second argument, then the constraint's
/// defaults applied (the reverse of an input variable's order). An unknown
/// value gives an unknown of the type.
fn convert_call<'a>(
    ev: &mut Evaluator<'a>,
    name: &str,
    function: &functions::Function,
    args: &[Arg<'a>],
    span: Span,
    head: Span,
    mut diags: Diags,
) -> Evaluated {
    let value = match &args[0] {
        Arg::Expr(e) => {
            let (v, d) = ev.eval(e);
            diags.append(d);
            v
        }
        Arg::Expanded(v, _) => v.clone(),
    };
    let constraint = match &args[1] {
        Arg::Expr(e) => crate::typeexpr::constraint(e, ev.version()).map_err(|mut e| {
            e.phase = crate::Phase::Eval;
            e
        }),
        Arg::Expanded(_, span) => Err(Error::eval(
            INVALID_ARGUMENT,
            "A type constraint must be written as the argument itself.",
            *span,
        )),
    };
    let constraint = match constraint {
        Ok(c) => c,
        Err(e) => {
            diags.push(e);
            return (Value::dynamic_unknown(), diags);
        }
    };
    if diags.has_errors() {
        return (Value::dynamic_unknown(), diags);
    }
    let ty = constraint.ty.without_optional();
    // `value` has no `AllowMarked`: its marks go onto the whole result.
    let (value, marked) = value.unmark_deep();
    if !value.is_known() {
        return (Value::unknown(ty).mark_if(marked), diags);
    }
    let converted = convert(&value, &constraint.ty)
        .map_err(|e| CallError::arg(0, e.message))
        .and_then(|v| match &constraint.defaults {
            Some(d) => d
                .apply(&v, ev.version())
                .map_err(|e| CallError::general(e.message)),
            None => Ok(v),
        });
    match converted {
        Ok(v) => (v.mark_if(marked), diags),
        Err(e) => {
            diags.push(call_error(name, function, args, &e, span, head));
            (Value::dynamic_unknown(), diags)
        }
    }
}

/// Evaluates an argument that the function takes as an expression closure
/// (`can`, `try`): its errors go to the function instead of the caller.
fn closure_outcome<'a>(ev: &mut Evaluator<'a>, arg: &Arg<'a>) -> ClosureOutcome {
    match arg {
        Arg::Expanded(v, _) => ClosureOutcome {
            result: Ok(v.clone()),
            depends_on_unknowns: false,
        },
        Arg::Expr(e) => {
            let depends_on_unknowns = functions::root_traversals(e, &[]).into_iter().any(|t| {
                let (v, d) = ev.eval(t);
                !d.has_errors() && !v.is_wholly_known()
            });
            let (v, d) = ev.eval(e);
            let result = match d.0 {
                Some(error) => Err(*error),
                None => Ok(v),
            };
            ClosureOutcome {
                result,
                depends_on_unknowns,
            }
        }
    }
}

/// The detail of an argument that does not suit its parameter.
fn invalid_value(param: &str, error: impl std::fmt::Display) -> String {
    format!("Invalid value for {} parameter: {error}.", go_quote(param))
}

/// The diagnostic for a failed call: about one argument when the function
/// names one, otherwise about the call.
fn call_error(
    name: &str,
    function: &functions::Function,
    args: &[Arg<'_>],
    error: &CallError,
    span: Span,
    head: Span,
) -> Error {
    let call_failed = || {
        Error::eval(
            CALL_FAILED,
            format!("Call to function {} failed: {error}.", go_quote(name)),
            head,
        )
    };
    if let CallError::Crash(panic) = error {
        let release = crate::profile::current()
            .terraform()
            .map_or("", |v| v.release());
        return Error::crash(release, panic.clone(), head);
    }
    let CallError::Arg { index, .. } = error else {
        return call_failed();
    };
    match (function.param_for(*index), args.get(*index)) {
        (Some(param), Some(arg)) => Error::eval(
            INVALID_ARGUMENT,
            invalid_value(param.name, error),
            arg.start_range(),
        ),
        // An error about a variadic argument that was not given.
        (Some(param), None) => {
            Error::eval(INVALID_ARGUMENT, invalid_value(param.name, error), span)
        }
        (None, _) => call_failed(),
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::test_support::check_table;
    use crate::HclVersion;

    // Expected outcomes checked against hashicorp/hcl 2.14.1 with the
    // oracle's function table (Terraform's `length`, cty's others).
    #[test]
    fn call_table() {
        check_table(
            &[
                ("length(\"h\u{e9}llo\")", "OK number 5"),
                ("length(uo)", "OK number 2"),
                ("length(n)", "ERR Error in function call @ 1:1:0-1:8:7"),
                (
                    "length(nul)",
                    "ERR Invalid function argument @ 1:8:7-1:11:10",
                ),
                (
                    "length()",
                    "ERR Not enough function arguments @ 1:8:7-1:9:8",
                ),
                (
                    "length(1, 2)",
                    "ERR Too many function arguments @ 1:11:10-1:12:11",
                ),
                ("nofunc(nope)", "ERR Call to unknown function @ 1:1:0-1:7:6"),
                (
                    "nofunc\u{301}(1)",
                    "ERR Call to unknown function @ 1:1:0-1:7:8",
                ),
                ("max(1, \"5\", 3)", "OK number 5"),
                ("max(ul...)", "OK dynamic unknown(dynamic)"),
                (
                    "max(nl...)",
                    "ERR Invalid expanding argument value @ 1:5:4-1:7:6",
                ),
                (
                    "upper([\"a\", \"b\"]...)",
                    "ERR Too many function arguments @ 1:7:6-1:17:16",
                ),
                (
                    "concat(1, l)",
                    "ERR Invalid function argument @ 1:8:7-1:9:8",
                ),
                (
                    "tobool(\"x\")",
                    "ERR Invalid function argument @ 1:9:8-1:10:9",
                ),
                ("toset(sdup)", "OK set(string) set<string>[\"a\", \"b\"]"),
                ("tostring(null)", "OK string null(string)"),
                ("tolist(ul)", "OK list(dynamic) unknown(list(dynamic))"),
            ],
            HclVersion::V2_14,
        );
    }

    /// Terraform's namespaces (the HCL 2.24 profile).
    #[test]
    fn namespace_table() {
        check_table(
            &[
                ("core::upper(\"a\")", "OK string \"A\""),
                (
                    "core::nosuch(1)",
                    "ERR Unknown provider function @ 1:1:0-1:13:12",
                ),
                (
                    "provider::p::f(1)",
                    "ERR Unknown provider function @ 1:1:0-1:15:14",
                ),
                (
                    "ns::upper(1)",
                    "ERR Unknown provider function @ 1:1:0-1:10:9",
                ),
                (
                    "provider::f(1)",
                    "ERR Unknown provider function @ 1:1:0-1:12:11",
                ),
                ("nofunc(1)", "ERR Call to unknown function @ 1:1:0-1:7:6"),
            ],
            HclVersion::V2_24,
        );
    }
}
