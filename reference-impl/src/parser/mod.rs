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

mod collection;
mod cursor;
mod diag;
mod expr;
mod ident;
mod lexical;
mod scan;
mod string_lit;
mod template;
mod token;
mod traversal;

#[cfg(test)]
mod tests;

use crate::ast::Expr;
use crate::error::Error;

use cursor::{error, Parser};
use scan::ScanMode;
use token::TokenKind;

/// The deepest nesting the parser accepts, and the greatest height of any
/// tree it returns. `hclsyntax` has no such limit; deeper input fails with
/// an "Expression nested too deeply" parse error.
pub const MAX_NESTING_DEPTH: usize = 128;

/// Parses a whole source text as one expression (`hclsyntax.ParseExpression`):
/// leading/trailing whitespace, newlines and comments allowed, nothing else.
pub fn parse_expression(source: &str) -> Result<Expr, Error> {
    let tokens = scan::scan(source, ScanMode::Expression);
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
        Ok(node.expr)
    })
}

/// Parses a whole source text as a bare template (`hclsyntax.ParseTemplate`,
/// the contents of a template file).
pub fn parse_template(source: &str) -> Result<Expr, Error> {
    let tokens = scan::scan(source, ScanMode::Template);
    lexical::check_invalid_tokens(&tokens)?;
    let mut parser = Parser::new(tokens);
    Ok(parser.bare_template()?.expr)
}
