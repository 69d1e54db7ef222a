//! Terraform's `templatestring(template, vars)` (the HCL 2.24 profile):
//! renders a template string found elsewhere with the given variables.
//!
//! It looks at its first argument's expression before evaluating it: only a
//! reference to a value (a traversal, possibly indexed or splatted) is
//! accepted, so that an inline template is written as a plain template
//! instead. The template is then parsed and evaluated with the variables
//! and the usual functions, except that it may not call `templatestring`
//! (or `templatefile`) again. Mirrors Terraform's
//! `funcs.MakeTemplateStringFunc` and `makeRenderTemplateFunc`.

use std::path::PathBuf;

use super::{Context, Evaluator};
use crate::ast::{Expr, ExprKind};
use crate::convert::convert;
use crate::error::Error;
use crate::functions::{self, root_traversals, CallError};
use crate::goquote::go_quote;
use crate::parser::parse_template_as;
use crate::profile::Feature;
use crate::types::Type;
use crate::value::Value;
use crate::HclVersion;

const TEMPLATE_WRAP: &str = "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to treat the inner expression as template syntax, write the reference expression directly without any template interpolation syntax";
const TEMPLATE_LITERAL: &str = "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead";
const TEMPLATE_INLINE: &str = "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to render an inline template, consider using a plain template string expression";
const NOT_A_REFERENCE: &str = "invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax";
const NOT_A_STRING: &str = "invalid template value: a string is required";
const VARS_NOT_A_MAP: &str = "invalid vars value: must be a map";
const NULL_ARGUMENT: &str = "argument must not be null";
const NULL_RESULT: &str = "Template result is null; The result of the template is null, which is not a valid result for a templatestring call.";
/// The file name Terraform gives the template in its messages.
const SOURCE_NAME: &str = "<templatestring argument>";
/// The function the evaluator runs with its base directory.
pub(super) const TEMPLATE_FILE: &str = "templatefile";
/// What Terraform before 1.9 panicked with on a sensitive path (cty's
/// `AsString` of a marked value).
const MARKED_PATH_PANIC: &str = "value is marked, so must be unmarked first";
/// The functions a template may not call.
pub(super) const TEMPLATE_FUNCTIONS: [&str; 2] = ["templatestring", "templatefile"];

/// The call, once the arity is checked: `template` is the first argument's
/// expression (`None` when it came from an expanded list), `vars` the
/// second argument's value.
pub(super) fn call<'a>(
    ev: &mut Evaluator<'a>,
    template: Option<&'a Expr>,
    vars: Value,
) -> Result<Value, CallError> {
    // `function.Call`'s own checks come first: a null argument, one of
    // unknown type, an unknown one.
    if vars.is_null() {
        return Err(CallError::arg(1, NULL_ARGUMENT));
    }
    if vars.ty() == Type::Dynamic {
        return Ok(Value::dynamic_unknown());
    }
    if !vars.is_known() {
        return Ok(Value::unknown(Type::String));
    }
    let template = template.ok_or_else(|| CallError::arg(0, NOT_A_REFERENCE))?;
    match &template.kind {
        ExprKind::TemplateWrap(_) => return Err(CallError::arg(0, TEMPLATE_WRAP)),
        ExprKind::Template(parts) => {
            let literal = matches!(parts.as_slice(), [p] if matches!(p.kind, ExprKind::Literal(_)));
            let why = if literal {
                TEMPLATE_LITERAL
            } else {
                TEMPLATE_INLINE
            };
            return Err(CallError::arg(0, why));
        }
        _ if !is_reference(template) => return Err(CallError::arg(0, NOT_A_REFERENCE)),
        _ => {}
    }
    let (text, diags) = ev.eval(template);
    if let Some(e) = diags.0 {
        return Err(CallError::arg(
            0,
            format!("invalid template expression: {}", describe(&e, SOURCE_NAME)),
        ));
    }
    // A marked template string's mark goes onto the result.
    let (text, marked) = text.unmark();
    let text = match text {
        Value::Unknown(..) => return Ok(Value::unknown(Type::String)),
        Value::String(s) => s,
        _ => return Err(CallError::arg(0, NOT_A_STRING)),
    };
    let parsed = parse_template_as(&text, ev.version()).map_err(|e| {
        CallError::arg(
            0,
            format!("invalid template: {}", describe(&e, SOURCE_NAME)),
        )
    })?;
    let value = render(&parsed, &vars, SOURCE_NAME, ev.version(), ev.base_dir())?;
    convert(&value, &Type::String)
        .map(|v| v.mark_if(marked))
        .map_err(|e| CallError::general(format!("invalid template result: {}", e.message)))
}

/// Terraform's `templatefile(path, vars)` once its arguments are checked
/// (`Function::call_with`): the file at `path` rendered as a template, of
/// whatever type the template gives. Mirrors Terraform's
/// `funcs.MakeTemplateFileFunc`.
pub(super) fn template_file(
    args: &[Value],
    version: HclVersion,
    base_dir: PathBuf,
) -> Result<Value, CallError> {
    // The path comes marked: `file` hides a sensitive one in its messages,
    // and its mark goes onto the result.
    let (path, marked) = args[0].clone().unmark();
    let (Value::String(path), vars) = (path, &args[1]) else {
        return Ok(Value::dynamic_unknown().mark_if(marked));
    };
    if !vars.is_known() {
        return Ok(Value::dynamic_unknown().mark_if(marked));
    }
    let read = functions::in_directory("file").expect("file is a file-system function");
    let text = match read(&args[..1], &Type::String, &base_dir)?.unmark().0 {
        Value::String(s) => s,
        _ => return Ok(Value::dynamic_unknown().mark_if(marked)),
    };
    // Before 1.9, a sensitive path that names a file panics once it is read.
    if marked && !version.has(Feature::TemplateFileMarkedPath) {
        return Err(CallError::panicked(MARKED_PATH_PANIC));
    }
    let parsed =
        parse_template_as(&text, version).map_err(|e| CallError::general(describe(&e, &path)))?;
    render(&parsed, vars, &path, version, base_dir).map(|v| v.mark_if(marked))
}

/// `makeRenderTemplateFunc`: evaluates a parsed template with the given
/// variables; `source` names the template in messages.
fn render(
    parsed: &Expr,
    vars: &Value,
    source: &str,
    version: HclVersion,
    base_dir: PathBuf,
) -> Result<Value, CallError> {
    let variables = match vars {
        Value::Object(items) | Value::Map { items, .. } => items.clone(),
        _ => return Err(CallError::arg(1, VARS_NOT_A_MAP)),
    };
    if let Some(name) = variables.keys().find(|n| !is_identifier(n)) {
        return Err(CallError::arg(
            1,
            format!(
                "invalid template variable name {}: must start with a letter, followed by zero or more letters, digits, and underscores",
                go_quote(name)
            ),
        ));
    }
    for reference in root_traversals(parsed, &[]) {
        let ExprKind::ScopeTraversal { root, .. } = &reference.kind else {
            continue;
        };
        if !variables.contains_key(root) {
            let s = reference.span;
            return Err(CallError::arg(
                1,
                format!(
                    "vars map does not contain key {}, referenced at {source}:{},{}-{}",
                    go_quote(root),
                    s.start.line,
                    s.start.column,
                    s.start.column + root.chars().count()
                ),
            ));
        }
    }
    let ctx = Context {
        variables: std::sync::Arc::new(variables),
        version,
        base_dir: Some(base_dir),
    };
    let mut inner = Evaluator::new(&ctx);
    inner.in_template = true;
    let (value, diags) = inner.eval(parsed);
    if let Some(e) = diags.0 {
        return Err(CallError::general(describe(&e, source)));
    }
    if value.is_null() && !crate::profile::current().has(Feature::TemplateStringNullChecked) {
        // `templatefile` gave the null; `templatestring` refined it as
        // not null, which panics.
        return match source {
            SOURCE_NAME => Err(CallError::Crash(
                "panic: refining null value as non-null".into(),
            )),
            _ => Ok(value),
        };
    }
    if value.is_null() {
        return Err(CallError::general(format!(
            "{}: {NULL_RESULT}",
            parsed.span.hcl_range_in(source)
        )));
    }
    Ok(value)
}

/// Terraform's `isValidTemplateStringExpr`.
fn is_reference(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::ScopeTraversal { .. } => true,
        ExprKind::RelativeTraversal { source, .. } | ExprKind::Splat { source, .. } => {
            is_reference(source)
        }
        ExprKind::Index { collection, .. } => is_reference(collection),
        _ => false,
    }
}

/// `hclsyntax.ValidIdentifier` for the names a map key can hold: a letter
/// or underscore, then letters, digits, underscores and dashes.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// A diagnostic as `hcl.Diagnostics.Error` writes it.
fn describe(e: &Error, source: &str) -> String {
    format!(
        "{}: {}; {}",
        e.span.hcl_range_in(source),
        e.summary,
        e.detail
    )
}
