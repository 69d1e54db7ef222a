//! The native-syntax parser: expressions and bare templates.
//!
//! The parser mirrors `hclsyntax` closely enough to produce the same tree
//! and the same first diagnostic:
//!
//! - `scan` splits the source into the same tokens as `hclsyntax`'s
//!   scanner. Token boundaries are observable (`a.0.1` scans `0.1` as one
//!   number, heredoc lines are separate literals for strip markers and
//!   `<<-`), and `hclsyntax` reports invalid tokens anywhere in the input
//!   (`lexical`) before any syntax error.
//! - The productions (`expr`, `traversal`, `collection`, `template`) then
//!   walk the token stream with the same one-token lookahead and newline
//!   rules as `hclsyntax`'s parser, and stop at the first error.
//!
//! Nesting is limited to `MAX_NESTING_DEPTH`, both as recursion depth while
//! parsing and as the height of the resulting tree, so that neither the
//! parser nor a recursive walk over its result can exhaust the stack.

mod body;
mod collection;
mod cursor;
mod diag;
mod expr;
mod ident;
mod lexical;
mod quote;
mod scan;
mod string_lit;
mod template;
mod token;
mod traversal;
mod traversal_abs;

#[cfg(test)]
mod tests;

pub use quote::template_as_quoted;
pub(crate) use template::did_you_mean;

use crate::ast::{Body, Expr};
use crate::error::Error;
use crate::text::with_unicode;
use crate::{Feature, HclVersion};

use cursor::{error, PResult, Parser};
use scan::ScanMode;
use token::TokenKind;

/// The deepest nesting the parser accepts, and the greatest height of any
/// tree it returns: far beyond what configurations write (the corpus
/// nests 10,000 levels), and low enough that walking a tree or a value
/// this deep stays within the evaluation stack. `hclsyntax` has no such
/// limit; deeper input fails with an "Expression nested too deeply" parse
/// error.
pub const MAX_NESTING_DEPTH: usize = 100_000;

/// Parses a whole source text as one expression (`hclsyntax.ParseExpression`):
/// leading/trailing whitespace, newlines and comments allowed, nothing else.
/// Follows the default HCL version, which accepts namespaced function names.
pub fn parse_expression(source: &str) -> Result<Expr, Error> {
    parse_expression_as(source, HclVersion::default())
}

/// Parses a whole source text as a bare template (`hclsyntax.ParseTemplate`,
/// the contents of a template file).
pub fn parse_template(source: &str) -> Result<Expr, Error> {
    parse_template_as(source, HclVersion::default())
}

/// `parse_expression` as a given HCL version parses it. The parser follows
/// HCL 2.14 except for `::`, which 2.14 does not know: there a namespaced
/// function call (`provider::p::f()`) is a syntax error.
pub fn parse_expression_as(source: &str, version: HclVersion) -> Result<Expr, Error> {
    with_unicode(version.unicode(), || expression_source(source, version)).map_err(|e| *e)
}

/// `parse_template` as a given HCL version parses it (see
/// `parse_expression_as`).
pub fn parse_template_as(source: &str, version: HclVersion) -> Result<Expr, Error> {
    with_unicode(version.unicode(), || template_source(source, version)).map_err(|e| *e)
}

fn expression_source(source: &str, version: HclVersion) -> PResult<Expr> {
    let tokens = scan::scan(source, ScanMode::Expression, double_colon(version));
    lexical::check_invalid_tokens(&tokens)?;
    let mut parser = Parser::new(tokens);
    // A bare expression ignores newlines, as if it were in parentheses.
    parser.with_newlines(false, |p| {
        let node = p.expression()?;
        let next = p.peek();
        if next.kind != TokenKind::Eof {
            return Err(error(
                diag::EXTRA_CHARACTERS_AFTER_EXPRESSION,
                diag::EXTRA_CHARACTERS_AFTER_EXPRESSION_DETAIL,
                next.span,
            ));
        }
        Ok(*node.expr)
    })
}

fn template_source(source: &str, version: HclVersion) -> PResult<Expr> {
    let tokens = scan::scan(source, ScanMode::Template, double_colon(version));
    lexical::check_invalid_tokens(&tokens)?;
    let mut parser = Parser::new(tokens);
    Ok(*parser.bare_template()?.expr)
}

/// Parses a whole source text as an absolute traversal
/// (`hclsyntax.ParseTraversalAbs`): its root name and steps.
pub fn parse_traversal_abs_as(
    source: &str,
    version: HclVersion,
) -> Result<(String, Vec<crate::ast::Traverser>), Error> {
    with_unicode(version.unicode(), || {
        let tokens = scan::scan(source, ScanMode::Expression, double_colon(version));
        lexical::check_invalid_tokens(&tokens)?;
        let mut parser = Parser::new(tokens);
        parser.with_newlines(false, |p| p.traversal_abs())
    })
    .map_err(|e| *e)
}

/// Parses a whole source text as a body of attributes and blocks
/// (`hclsyntax.ParseConfig`).
pub fn parse_body_as(source: &str, version: HclVersion) -> Result<Body, Error> {
    with_unicode(version.unicode(), || body_source(source, version)).map_err(|e| *e)
}

fn body_source(source: &str, version: HclVersion) -> PResult<Body> {
    let tokens = scan::scan(source, ScanMode::Expression, double_colon(version));
    lexical::check_invalid_tokens(&tokens)?;
    let mut parser = Parser::new(tokens);
    parser.body(TokenKind::Eof)
}

/// Whether `::` is a token: namespaced functions arrived after HCL 2.14.
fn double_colon(version: HclVersion) -> bool {
    match version {
        v => v.has(Feature::NamespacedFunctions),
    }
}
