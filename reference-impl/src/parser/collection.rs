//! Tuple and object constructors, and the `for` expressions that share
//! their brackets.

use super::cursor::{between, error, node, Node, PResult, Parser};
use super::diag;
use super::token::{Token, TokenKind};
use crate::ast::{ExprKind, ForExpr, ObjectItem, ObjectKey};
use crate::error::Span;

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
            if p.peek_keyword("for") {
                return p.for_expr(open);
            }
            let mut items = Vec::new();
            let mut height = 0;
            let close = loop {
                if p.peek_kind() == TokenKind::CBrack {
                    break p.read_span();
                }
                let item = p.expression()?;
                height = height.max(item.height);
                items.push(*item.expr);

                let next = p.peek();
                match next.kind {
                    TokenKind::CBrack => break p.read_span(),
                    TokenKind::Comma => {
                        p.skip();
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
                between(open.span, close),
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
        if self.with_newlines(false, |p| Ok(p.peek_keyword("for")))? {
            return self.for_expr(open);
        }
        self.with_newlines(true, |p| {
            let mut items = Vec::new();
            let mut height = 0;
            let close = loop {
                let next = p.peek();
                match next.kind {
                    TokenKind::Newline => {
                        p.skip();
                        continue;
                    }
                    TokenKind::CBrace => break p.read_span(),
                    _ => {}
                }

                let force_non_literal = next.kind == TokenKind::OParen;
                let key = p.expression()?;
                let next = p.peek();
                if !matches!(next.kind, TokenKind::Equal | TokenKind::Colon) {
                    return Err(missing_separator(&open, &next));
                }
                p.skip();
                let value = p.expression()?;
                height = height.max(key.height).max(value.height);
                items.push(ObjectItem {
                    key: ObjectKey {
                        expr: *key.expr,
                        force_non_literal,
                    },
                    value: *value.expr,
                });

                let next = p.peek();
                match next.kind {
                    TokenKind::CBrace => break p.read_span(),
                    TokenKind::Comma | TokenKind::Newline => {
                        p.skip();
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
                between(open.span, close),
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
            let parts = p.for_expr_parts(open.kind == TokenKind::OBrace)?;
            finish_for_expr(open.span, parts)
        })
    }

    /// Everything from the `for` keyword to the closing bracket.
    fn for_expr_parts(&mut self, make_object: bool) -> PResult<ForParts<'a>> {
        self.skip(); // the `for` keyword
        let close_kind = if make_object {
            TokenKind::CBrace
        } else {
            TokenKind::CBrack
        };
        let invalid =
            |p: &Self, detail: &str| p.error_at_next(diag::INVALID_FOR_EXPRESSION, detail);

        if self.peek_kind() != TokenKind::Ident {
            return Err(invalid(self, diag::FOR_MISSING_NAME_DETAIL));
        }
        let mut value_var = self.read_text();
        let mut key_var = None;
        if self.peek_kind() == TokenKind::Comma {
            key_var = Some(value_var);
            self.skip();
            if self.peek_kind() != TokenKind::Ident {
                return Err(invalid(self, diag::FOR_MISSING_VALUE_NAME_DETAIL));
            }
            value_var = self.read_text();
        }
        if !self.peek_keyword("in") {
            return Err(invalid(self, diag::FOR_MISSING_IN_DETAIL));
        }
        self.skip();
        let collection = self.expression()?;
        if self.peek_kind() != TokenKind::Colon {
            return Err(invalid(self, diag::FOR_MISSING_COLON_DETAIL));
        }
        self.skip();

        let mut value = self.expression()?;
        let mut key = None;
        if self.peek_kind() == TokenKind::FatArrow {
            self.skip();
            key = Some(value);
            value = self.expression()?;
        }
        let group = if self.peek_kind() == TokenKind::Ellipsis {
            Some(self.read_span())
        } else {
            None
        };
        let condition = if self.peek_keyword("if") {
            self.skip();
            Some(self.expression()?)
        } else {
            None
        };
        if self.peek_kind() != close_kind {
            return Err(invalid(self, diag::FOR_EXTRA_CHARACTERS_DETAIL));
        }
        let close = self.read_span();
        Ok(ForParts {
            make_object,
            key_var,
            value_var,
            collection,
            key,
            value,
            group,
            condition,
            close,
        })
    }
}

/// The pieces of a `for` expression, before the checks that depend on its
/// brackets.
struct ForParts<'a> {
    make_object: bool,
    key_var: Option<&'a str>,
    value_var: &'a str,
    collection: Node,
    key: Option<Node>,
    value: Node,
    group: Option<Span>,
    condition: Option<Node>,
    close: Span,
}

/// Rejects a key or grouping in a tuple `for` and a missing key in an object
/// `for`, then builds the node.
fn finish_for_expr(open: Span, parts: ForParts<'_>) -> PResult<Node> {
    let invalid = |detail: &str, span: Span| error(diag::INVALID_FOR_EXPRESSION, detail, span);
    if !parts.make_object {
        if let Some(key) = &parts.key {
            return Err(invalid(diag::FOR_TUPLE_KEY_DETAIL, key.expr.span));
        }
        if let Some(ellipsis) = parts.group {
            return Err(invalid(diag::FOR_TUPLE_GROUP_DETAIL, ellipsis));
        }
    } else if parts.key.is_none() {
        return Err(invalid(diag::FOR_OBJECT_KEY_DETAIL, parts.value.expr.span));
    }

    let height = [
        Some(parts.collection.height),
        parts.key.as_ref().map(|k| k.height),
        Some(parts.value.height),
        parts.condition.as_ref().map(|c| c.height),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    let for_expr = ForExpr {
        key_var: parts.key_var.map(str::to_string),
        value_var: parts.value_var.to_string(),
        collection: *parts.collection.expr,
        key: parts.key.map(|k| *k.expr),
        value: *parts.value.expr,
        condition: parts.condition.map(|c| *c.expr),
        group: parts.group.is_some(),
        open_span: open,
    };
    node(
        ExprKind::For(Box::new(for_expr)),
        between(open, parts.close),
        height,
    )
}

/// The error for an object item whose key is not followed by `=` or `:`.
fn missing_separator(open: &Token<'_>, next: &Token<'_>) -> Box<crate::error::Error> {
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
