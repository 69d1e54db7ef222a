//! Tuple and object constructors, and the `for` expressions that share
//! their brackets.

use super::cursor::{between, error, node, Node, PResult, Parser};
use super::diag;
use super::token::{Token, TokenKind};
use crate::ast::{ExprKind, ForExpr, ObjectItem, ObjectKey};

impl<'a> Parser<'a> {
    /// ```text
    /// tuple = "[" (
    ///     (Expression ("," Expression)* ","?)?
    /// ) "]";
    /// ```
    /// Items are separated by commas only; newlines are ignored. Mirrors
    /// `parser.parseTupleCons`.
    pub fn tuple_cons(&mut self) -> PResult<Node> {
        let open = self.read();
        self.with_newlines(false, |p| {
            if p.peek().is_keyword("for") {
                return p.for_expr(open);
            }
            let mut items = Vec::new();
            let mut height = 0;
            let close = loop {
                if p.peek_kind() == TokenKind::CBrack {
                    break p.read();
                }
                let item = p.expression()?;
                height = height.max(item.height);
                items.push(item.expr);

                let next = p.peek();
                match next.kind {
                    TokenKind::CBrack => break p.read(),
                    TokenKind::Comma => {
                        p.read();
                    }
                    TokenKind::Eof => {
                        return Err(error(
                            diag::UNTERMINATED_TUPLE,
                            diag::UNTERMINATED_TUPLE_DETAIL,
                            open.span,
                        ))
                    }
                    _ => {
                        return Err(error(
                            diag::MISSING_ITEM_SEPARATOR,
                            diag::MISSING_ITEM_SEPARATOR_DETAIL,
                            next.span,
                        ))
                    }
                }
            };
            node(
                ExprKind::TupleCons(items),
                between(open.span, close.span),
                height,
            )
        })
    }

    /// ```text
    /// object = "{" (
    ///     (objectelem ("," objectelem)* ","?)?
    /// ) "}";
    /// objectelem = (Identifier | Expression) ("=" | ":") Expression;
    /// ```
    /// Unlike the specification says, newlines are significant here: an item
    /// ends at a comma or a newline, and an expression cannot continue on
    /// the next line outside brackets. A key in parentheses is never a
    /// literal name. Mirrors `parser.parseObjectCons`.
    pub fn object_cons(&mut self) -> PResult<Node> {
        let open = self.read();
        // `for` is looked for with newlines ignored: `{\n for ...}` is a
        // `for` expression.
        if self.with_newlines(false, |p| Ok(p.peek().is_keyword("for")))? {
            return self.for_expr(open);
        }
        self.with_newlines(true, |p| {
            let mut items = Vec::new();
            let mut height = 0;
            let close = loop {
                let next = p.peek();
                match next.kind {
                    TokenKind::Newline => {
                        p.read();
                        continue;
                    }
                    TokenKind::CBrace => break p.read(),
                    _ => {}
                }

                let force_non_literal = next.kind == TokenKind::OParen;
                let key = p.expression()?;
                let next = p.peek();
                if !matches!(next.kind, TokenKind::Equal | TokenKind::Colon) {
                    return Err(missing_separator(&open, &next));
                }
                p.read();
                let value = p.expression()?;
                height = height.max(key.height).max(value.height);
                items.push(ObjectItem {
                    key: ObjectKey {
                        expr: key.expr,
                        force_non_literal,
                    },
                    value: value.expr,
                });

                let next = p.peek();
                match next.kind {
                    TokenKind::CBrace => break p.read(),
                    TokenKind::Comma | TokenKind::Newline => {
                        p.read();
                    }
                    TokenKind::Eof => {
                        return Err(error(
                            diag::UNTERMINATED_OBJECT,
                            diag::UNTERMINATED_OBJECT_DETAIL,
                            open.span,
                        ))
                    }
                    _ => {
                        return Err(error(
                            diag::MISSING_ATTRIBUTE_SEPARATOR,
                            diag::MISSING_ATTRIBUTE_SEPARATOR_DETAIL,
                            next.span,
                        ))
                    }
                }
            };
            node(
                ExprKind::ObjectCons(items),
                between(open.span, close.span),
                height,
            )
        })
    }

    /// ```text
    /// ForExpr = forTupleExpr | forObjectExpr;
    /// forTupleExpr = "[" forIntro Expression forCond? "]";
    /// forObjectExpr = "{" forIntro Expression "=>" Expression "..."? forCond? "}";
    /// forIntro = "for" Identifier ("," Identifier)? "in" Expression ":";
    /// forCond = "if" Expression;
    /// ```
    /// Newlines are ignored throughout. The key and grouping parts are
    /// parsed in both forms and rejected afterwards where they do not
    /// belong. Mirrors `parser.finishParsingForExpr`.
    fn for_expr(&mut self, open: Token<'a>) -> PResult<Node> {
        self.with_newlines(false, |p| {
            p.read(); // the `for` keyword
            let (make_object, close_kind) = if open.kind == TokenKind::OBrace {
                (true, TokenKind::CBrace)
            } else {
                (false, TokenKind::CBrack)
            };
            let invalid = |detail: &str, token: &Token<'_>| {
                error(diag::INVALID_FOR_EXPRESSION, detail, token.span)
            };

            if p.peek_kind() != TokenKind::Ident {
                return Err(invalid(diag::FOR_MISSING_NAME_DETAIL, &p.peek()));
            }
            let mut value_var = p.read().text;
            let mut key_var = None;
            if p.peek_kind() == TokenKind::Comma {
                key_var = Some(value_var.to_string());
                p.read();
                if p.peek_kind() != TokenKind::Ident {
                    return Err(invalid(diag::FOR_MISSING_VALUE_NAME_DETAIL, &p.peek()));
                }
                value_var = p.read().text;
            }
            if !p.peek().is_keyword("in") {
                return Err(invalid(diag::FOR_MISSING_IN_DETAIL, &p.peek()));
            }
            p.read();
            let collection = p.expression()?;
            if p.peek_kind() != TokenKind::Colon {
                return Err(invalid(diag::FOR_MISSING_COLON_DETAIL, &p.peek()));
            }
            p.read();

            let mut value = p.expression()?;
            let mut key = None;
            if p.peek_kind() == TokenKind::FatArrow {
                p.read();
                key = Some(value);
                value = p.expression()?;
            }
            let ellipsis = if p.peek_kind() == TokenKind::Ellipsis {
                Some(p.read())
            } else {
                None
            };
            let condition = if p.peek().is_keyword("if") {
                p.read();
                Some(p.expression()?)
            } else {
                None
            };
            if p.peek_kind() != close_kind {
                return Err(invalid(diag::FOR_EXTRA_CHARACTERS_DETAIL, &p.peek()));
            }
            let close = p.read();

            if !make_object {
                if let Some(key) = &key {
                    return Err(error(
                        diag::INVALID_FOR_EXPRESSION,
                        diag::FOR_TUPLE_KEY_DETAIL,
                        key.expr.span,
                    ));
                }
                if let Some(ellipsis) = &ellipsis {
                    return Err(invalid(diag::FOR_TUPLE_GROUP_DETAIL, ellipsis));
                }
            } else if key.is_none() {
                return Err(error(
                    diag::INVALID_FOR_EXPRESSION,
                    diag::FOR_OBJECT_KEY_DETAIL,
                    value.expr.span,
                ));
            }

            let height = [
                Some(collection.height),
                key.as_ref().map(|k| k.height),
                Some(value.height),
                condition.as_ref().map(|c| c.height),
            ]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(0);
            let for_expr = ForExpr {
                key_var,
                value_var: value_var.to_string(),
                collection: collection.expr,
                key: key.map(|k| k.expr),
                value: value.expr,
                condition: condition.map(|c| c.expr),
                group: ellipsis.is_some(),
                open_span: open.span,
            };
            node(
                ExprKind::For(Box::new(for_expr)),
                between(open.span, close.span),
                height,
            )
        })
    }
}

/// The error for an object item whose key is not followed by `=` or `:`.
fn missing_separator(open: &Token<'_>, next: &Token<'_>) -> crate::error::Error {
    match next.kind {
        TokenKind::Newline | TokenKind::Comma => error(
            diag::MISSING_ATTRIBUTE_VALUE,
            diag::MISSING_ATTRIBUTE_VALUE_DETAIL,
            next.span,
        ),
        // Perhaps an HCL 1 style name with a period followed by a digit.
        TokenKind::Ident => error(
            diag::MISSING_KEY_VALUE_SEPARATOR,
            diag::MISSING_KEY_VALUE_SEPARATOR_IDENT_DETAIL,
            next.span,
        ),
        TokenKind::Eof => error(
            diag::UNTERMINATED_OBJECT,
            diag::UNTERMINATED_OBJECT_DETAIL,
            open.span,
        ),
        _ => error(
            diag::MISSING_KEY_VALUE_SEPARATOR,
            diag::MISSING_KEY_VALUE_SEPARATOR_DETAIL,
            next.span,
        ),
    }
}
