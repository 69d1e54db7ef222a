//! The evaluator: HCL's `Expression.Value` for every node kind.
//!
//! API contract (bodies owned by the evaluator author).

use std::collections::BTreeMap;

use crate::ast::Expr;
use crate::error::Error;
use crate::value::Value;
use crate::HclVersion;

/// What an expression is evaluated in: `hcl.EvalContext` plus the behaviour
/// profile.
#[derive(Clone, Debug, Default)]
pub struct Context {
    pub variables: BTreeMap<String, Value>,
    pub version: HclVersion,
}

/// Evaluates `expr`; the first error diagnostic HCL would report, or the
/// value.
pub fn evaluate(_expr: &Expr, _ctx: &Context) -> Result<Value, Error> {
    todo!()
}
