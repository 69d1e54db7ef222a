//! A bare absolute traversal (`hclsyntax.ParseTraversalAbs`): a name, then
//! `.NAME` and `[KEY]` steps whose key is a number literal or a quoted
//! string without interpolations. Terraform reads addresses this way
//! (`-target=aws_instance.a["k"]`). Unlike an expression, no legacy `.0`
//! index, no splat and no other key is accepted; newlines are ignored.

use super::cursor::{between, error, PResult, Parser};
use super::expr::number_lit_value;
use super::token::TokenKind;
use crate::ast::Traverser;
use crate::value::Value;

impl Parser<'_> {
    /// The traversal up to the end of the input: its root name and steps.
    pub(super) fn traversal_abs(&mut self) -> PResult<(String, Vec<Traverser>)> {
        let root = self.read();
        if root.kind != TokenKind::Ident {
            return Err(error(
                "Variable name required",
                "Must begin with a variable name.",
                root.span,
            ));
        }
        let mut steps = Vec::new();
        loop {
            let next = self.peek();
            match next.kind {
                TokenKind::Eof => return Ok((root.text.to_string(), steps)),
                TokenKind::Dot => {
                    let dot = self.read();
                    let name = self.read();
                    if name.kind != TokenKind::Ident {
                        let detail = if name.kind == TokenKind::Star {
                            "Splat expressions (.*) may not be used here."
                        } else {
                            "Dot must be followed by attribute name."
                        };
                        return Err(error("Attribute name required", detail, name.span));
                    }
                    steps.push(Traverser::Attr {
                        name: name.text.to_string(),
                        span: between(dot.span, name.span),
                    });
                }
                TokenKind::OBrack => {
                    let open = self.read();
                    let key = match self.peek_kind() {
                        TokenKind::NumberLit => number_lit_value(&self.read())?,
                        TokenKind::OQuote => Value::String(self.quoted_label()?.0),
                        kind => {
                            let (summary, detail) = if kind == TokenKind::Star {
                                (
                                    "Attribute name required",
                                    "Splat expressions ([*]) may not be used here.",
                                )
                            } else {
                                (
                                    "Index value required",
                                    "Index brackets must contain either a literal number or a literal string.",
                                )
                            };
                            return Err(error(summary, detail, self.peek().span));
                        }
                    };
                    let close = self.read();
                    if close.kind != TokenKind::CBrack {
                        return Err(error(
                            "Unclosed index brackets",
                            "Index key must be followed by a closing bracket.",
                            close.span,
                        ));
                    }
                    steps.push(Traverser::Index {
                        key,
                        span: between(open.span, close.span),
                    });
                }
                _ => {
                    return Err(error(
                        "Invalid character",
                        "Expected an attribute access or an index operator.",
                        next.span,
                    ))
                }
            }
        }
    }
}
