//! The native-syntax parser: expressions and bare templates.
//!
//! API contract (bodies owned by the parser author).

use crate::ast::Expr;
use crate::error::Error;

/// Parses a whole source text as one expression (`hclsyntax.ParseExpression`):
/// leading/trailing whitespace, newlines and comments allowed, nothing else.
pub fn parse_expression(_source: &str) -> Result<Expr, Error> {
    todo!()
}

/// Parses a whole source text as a bare template (`hclsyntax.ParseTemplate`,
/// the contents of a template file).
pub fn parse_template(_source: &str) -> Result<Expr, Error> {
    todo!()
}
