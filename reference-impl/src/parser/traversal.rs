//! Attribute access, indexing and splats after a term.

use super::cursor::{between, error, node, Node, PResult, Parser};
use super::diag;
use super::expr::number_lit_value;
use super::token::{Token, TokenKind};
use crate::ast::{ExprKind, Traverser};
use crate::error::Span;

impl<'a> Parser<'a> {
    /// ```text
    /// GetAttr = "." Identifier;
    /// Index = "[" Expression "]";
    /// LegacyIndex = '.' digit+
    /// Splat = attrSplat | fullSplat;
    /// attrSplat = "." "*" GetAttr*;
    /// fullSplat = "[" "*" "]" (GetAttr | Index)*;
    /// ```
    /// Applies every step that follows `from`. Attribute names and literal
    /// keys (a number, `true`/`false`/`null` or a string without
    /// interpolation) become traversal steps; other keys make an `Index`
    /// node. A full splat takes all the steps after it (including further
    /// splats); an attribute-only splat takes only `.name` and `.N` steps,
    /// so `a.*.b[0]` indexes the splat's result. Mirrors
    /// `parser.parseExpressionTraversals`.
    pub fn traversals(&mut self, from: Node) -> PResult<Node> {
        let from_span = from.expr.span;
        let mut ret = from;
        loop {
            ret = match self.peek_kind() {
                TokenKind::Dot => self.dot_step(ret, from_span)?,
                TokenKind::OBrack => {
                    let open = self.read_span();
                    if self.peek_kind() == TokenKind::Star {
                        self.full_splat(ret, from_span, open)?
                    } else {
                        self.index(ret, from_span, open)?
                    }
                }
                _ => return Ok(ret),
            };
        }
    }

    /// `GetAttr`, `LegacyIndex` or `attrSplat`: whatever follows a dot.
    fn dot_step(&mut self, ret: Node, from_span: Span) -> PResult<Node> {
        let dot = self.read();
        let attr = self.peek();
        match attr.kind {
            TokenKind::Ident => {
                self.skip();
                let span = between(dot.span, attr.span);
                let step = Traverser::Attr {
                    name: attr.text.to_string(),
                    span,
                };
                relative_traversal(ret, step, span)
            }
            TokenKind::NumberLit => {
                self.skip();
                check_legacy_index(&attr, attr.span, LegacyIndexContext::Plain)?;
                let key = number_lit_value(&attr)?;
                let span = between(dot.span, attr.span);
                relative_traversal(ret, Traverser::Index { key, span }, span)
            }
            TokenKind::Star => self.attr_splat(ret, from_span, dot.span),
            _ => Err(error(
                diag::INVALID_ATTRIBUTE_NAME,
                diag::INVALID_ATTRIBUTE_NAME_DETAIL,
                attr.span,
            )),
        }
    }

    /// `attrSplat = "." "*" GetAttr*;` with the dot already read: the
    /// anonymous element symbol followed by `.name` and legacy `.N` steps.
    fn attr_splat(&mut self, source: Node, from_span: Span, dot: Span) -> PResult<Node> {
        let marker = self.read();
        let mut steps = Vec::new();
        let first_span = self.peek().span;
        let mut last_span = marker.span;
        while self.peek_kind() == TokenKind::Dot {
            let step_dot = self.read();
            let next = self.peek();
            match next.kind {
                TokenKind::NumberLit => {
                    self.skip();
                    check_legacy_index(&next, marker.span, LegacyIndexContext::AttrSplat)?;
                    let key = number_lit_value(&next)?;
                    steps.push(Traverser::Index {
                        key,
                        span: between(step_dot.span, next.span),
                    });
                    last_span = next.span;
                }
                TokenKind::Ident => {
                    self.skip();
                    steps.push(Traverser::Attr {
                        name: next.text.to_string(),
                        span: between(step_dot.span, next.span),
                    });
                    last_span = next.span;
                }
                TokenKind::Star => {
                    return Err(error(
                        diag::NESTED_SPLAT,
                        diag::NESTED_SPLAT_DETAIL,
                        next.span,
                    ))
                }
                _ => {
                    return Err(error(
                        diag::INVALID_ATTRIBUTE_NAME,
                        diag::INVALID_ATTRIBUTE_NAME_DETAIL,
                        marker.span,
                    ))
                }
            }
        }

        let anon = node(ExprKind::AnonSymbol, between(dot, marker.span), 0)?;
        let each = if steps.is_empty() {
            anon
        } else {
            node(
                ExprKind::RelativeTraversal {
                    source: anon.expr,
                    steps,
                },
                between(first_span, last_span),
                anon.height,
            )?
        };
        splat(source, each, between(from_span, last_span))
    }

    /// `fullSplat = "[" "*" "]" (GetAttr | Index)*;` with the bracket
    /// already read: every following step, splats included, applies to
    /// each element.
    fn full_splat(&mut self, source: Node, from_span: Span, open: Span) -> PResult<Node> {
        self.skip(); // the star
        let close = self.read();
        if close.kind != TokenKind::CBrack {
            return Err(error(
                diag::MISSING_SPLAT_CLOSE_BRACKET,
                diag::MISSING_SPLAT_CLOSE_BRACKET_DETAIL,
                self.recovery_close_bracket_span(),
            ));
        }
        let anon = node(ExprKind::AnonSymbol, between(open, close.span), 0)?;
        let each = self.nested(|p| p.traversals(anon))?;
        let span = between(from_span, each.expr.span);
        splat(source, each, span)
    }

    /// `Index = "[" Expression "]";` with the bracket already read; newlines
    /// inside are ignored.
    fn index(&mut self, collection: Node, from_span: Span, open: Span) -> PResult<Node> {
        let (key, close) = self.with_newlines(false, |p| {
            let key = p.expression()?;
            let close = p.read();
            if close.kind != TokenKind::CBrack {
                return Err(error(
                    diag::MISSING_INDEX_CLOSE_BRACKET,
                    diag::MISSING_INDEX_CLOSE_BRACKET_DETAIL,
                    p.recovery_close_bracket_span(),
                ));
            }
            Ok((key, close))
        })?;
        let span = between(open, close.span);
        if let Some(literal) = literal_key(&key.expr.kind) {
            let step = Traverser::Index {
                key: literal.clone(),
                span,
            };
            return relative_traversal(collection, step, span);
        }
        let height = collection.height.max(key.height);
        node(
            ExprKind::Index {
                collection: collection.expr,
                key: key.expr,
            },
            between(from_span, span),
            height,
        )
    }
}

/// The constant key of an index: a literal, or a template that is a single
/// literal part (`TemplateExpr.IsStringLiteral`).
fn literal_key(kind: &ExprKind) -> Option<&crate::value::Value> {
    match kind {
        ExprKind::Literal(value) => Some(value),
        ExprKind::Template(parts) if parts.len() == 1 => match &parts[0].kind {
            ExprKind::Literal(value) => Some(value),
            _ => None,
        },
        _ => None,
    }
}

/// Appends a step to a traversal, or starts a relative traversal on any
/// other expression. Mirrors `makeRelativeTraversal`.
fn relative_traversal(mut expr: Node, step: Traverser, step_span: Span) -> PResult<Node> {
    match &mut expr.expr.kind {
        ExprKind::ScopeTraversal { steps, .. } | ExprKind::RelativeTraversal { steps, .. } => {
            steps.push(step);
            expr.expr.span = between(expr.expr.span, step_span);
            Ok(expr)
        }
        _ => {
            let span = between(expr.expr.span, step_span);
            node(
                ExprKind::RelativeTraversal {
                    source: expr.expr,
                    steps: vec![step],
                },
                span,
                expr.height,
            )
        }
    }
}

fn splat(source: Node, each: Node, span: Span) -> PResult<Node> {
    let height = source.height.max(each.height);
    node(
        ExprKind::Splat {
            source: source.expr,
            each: each.expr,
        },
        span,
        height,
    )
}

#[derive(Clone, Copy)]
enum LegacyIndexContext {
    Plain,
    AttrSplat,
}

/// `foo.0.1` scans `0.1` as one number: rejected with a hint, since legacy
/// indexes cannot be chained.
fn check_legacy_index(token: &Token<'_>, span: Span, context: LegacyIndexContext) -> PResult<()> {
    let Some((first, second)) = token.text.split_once('.') else {
        return Ok(());
    };
    let detail = match context {
        LegacyIndexContext::Plain => format!(
            "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{first}][{second}]."
        ),
        LegacyIndexContext::AttrSplat => format!(
            "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [{first}][{second}]."
        ),
    };
    Err(error(diag::INVALID_LEGACY_INDEX, detail, span))
}
