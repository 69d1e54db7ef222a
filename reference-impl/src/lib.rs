//! hclspec's reference implementation of the Terraform expression language:
//! HCL native-syntax expressions and templates evaluated with go-cty's
//! types, conversions and operations.
//!
//! The pipeline is `parser` -> `ast` -> `eval`, with `value`, `types` and
//! `convert` (with its unification) modelling go-cty. [`hil`] is the other
//! dialect: Terraform 0.11's interpolation language, with its own parser,
//! types and functions. Nothing in this crate runs tests or talks to other
//! implementations.

pub mod ast;
pub mod body;
pub mod convert;
pub mod error;
pub mod goquote;
pub mod json;
pub mod number;
pub mod profile;
pub mod references;
pub mod stack;
pub mod text;
pub mod typeexpr;
pub mod types;
pub mod value;
pub mod value_ops;

pub use error::{Error, Phase, Pos, Span};
pub use number::Number;
pub use profile::{Feature, HclVersion, TerraformVersion};
pub use types::Type;
pub use value::Value;

pub mod eval;
pub mod functions;
pub mod hil;
pub mod parser;

/// The summary of a value that does not convert to a type constraint, as
/// Terraform reports an input variable's default that does not suit it.
pub const INVALID_VARIABLE_VALUE: &str = "Invalid default value for variable";

/// Evaluates the expression `source` and converts its value to the type
/// constraint `type_source` as an input variable of that type holds its
/// default ([`typeexpr::as_variable`]). Both are parsed first, source
/// then type (a syntax error in either is a parse error), then the type
/// constraint is read ([`typeexpr::variable_constraint`]; its errors are
/// parse errors too), then the source
/// evaluated; a value that does not convert is an eval error.
pub fn convert_source(
    type_source: &str,
    source: &str,
    ctx: &eval::Context,
) -> Result<Value, Error> {
    let expr = parser::parse_expression_as(source, ctx.version)?;
    let type_expr = parser::parse_expression_as(type_source, ctx.version)?;
    convert::with_messages_of(ctx.version, || convert_parsed(&expr, &type_expr, ctx))
        .map(|v| as_answered(v, ctx.version))
}

/// [`convert_source`] once both sources are parsed.
fn convert_parsed(
    expr: &ast::Expr,
    type_expr: &ast::Expr,
    ctx: &eval::Context,
) -> Result<Value, Error> {
    let constraint = typeexpr::variable_constraint(type_expr, ctx.version)?;
    // Marks stay where they were through the conversion and the defaults.
    let (value, marks) = eval::evaluate(expr, ctx)?.unmark_deep_with_paths();
    let converted = typeexpr::as_variable(&value, &constraint, ctx.version);
    converted.map(|v| v.mark_with_paths(&marks)).map_err(|e| {
        // Terraform (the HCL 2.24 profile) writes where in the value.
        let reason = match ctx.version {
            HclVersion::V2_14 => e.message,
            HclVersion::Terraform(_) => e.with_terraform_path(&value, &constraint.ty),
        };
        Error::eval(
            INVALID_VARIABLE_VALUE,
            format!(
                "This default value is not compatible with the variable's type constraint: {reason}."
            ),
            expr.span,
        )
    })
}

/// Whether a source is an expression or a bare template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceKind {
    Expression,
    Template,
}

/// Parses `source` as an expression: the variables it refers to
/// (`hcl.Expression.Variables`), as a set of strings.
pub fn variables_source(source: &str, version: HclVersion) -> Result<Value, Error> {
    let expr = parser::parse_expression_as(source, version)?;
    Ok(references::variables(&expr))
}

/// Parses `source` as a type constraint (`typeexpr.TypeConstraintWithDefaults`)
/// and writes it back (`typeexpr.TypeString`), as a string value.
pub fn type_source(source: &str, version: HclVersion) -> Result<Value, Error> {
    let constraint = typeexpr::parse_constraint(source, version)?;
    Ok(Value::String(typeexpr::type_string(&constraint.ty)))
}

/// Parses `source` as an absolute traversal (`hclsyntax.ParseTraversalAbs`),
/// written out as a string value (see [`references::steps_text`]).
pub fn traversal_source(source: &str, version: HclVersion) -> Result<Value, Error> {
    let (root, steps) = parser::parse_traversal_abs_as(source, version)?;
    Ok(Value::String(references::steps_text(&root, &steps)))
}

/// Parses and evaluates `source` in one step.
pub fn evaluate_source(
    kind: SourceKind,
    source: &str,
    ctx: &eval::Context,
) -> Result<Value, Error> {
    let expr = match kind {
        SourceKind::Expression => parser::parse_expression_as(source, ctx.version)?,
        SourceKind::Template => parser::parse_template_as(source, ctx.version)?,
    };
    eval::evaluate(&expr, ctx).map(|v| as_answered(v, ctx.version))
}

/// A result as the profile's implementation gives it: Terraform gives the
/// value its plan holds, through go-cty's msgpack encoding
/// ([`Value::through_msgpack`]), so that `log(2, 10) - length("")`, exact
/// at precision 64 (`0.3010299956639811425`), is the float64 it holds
/// (`0.30102999566398114`). HCL 2.14.1 gives the value itself.
fn as_answered(value: Value, version: HclVersion) -> Value {
    match version {
        HclVersion::V2_14 => value,
        HclVersion::Terraform(_) => value.through_msgpack(),
    }
}
