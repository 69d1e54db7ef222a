//! Templates: quoted strings, heredocs and bare templates.
//!
//! Parsing happens in two passes, as in `hclsyntax`: the token stream is
//! first raised to a flat list of parts (literals with strip markers already
//! applied, interpolations, directive openers and closers), then the
//! directives are matched up into `Conditional` and `For` nodes.

use std::collections::VecDeque;

use unicode_segmentation::UnicodeSegmentation;

use super::cursor::{between, error, node, Node, PResult, Parser};
use super::diag;
use super::string_lit::{go_quote, string_literal_value};
use super::token::TokenKind;
use crate::ast::{ExprKind, ForExpr};
use crate::error::Span;
use crate::value::Value;

/// A template after the first pass (`hclsyntax.templateToken`).
enum Part {
    Literal {
        value: String,
        span: Span,
    },
    Interpolation(Node),
    If {
        condition: Node,
        span: Span,
    },
    For {
        key_var: Option<String>,
        value_var: String,
        collection: Node,
        span: Span,
    },
    EndDirective {
        kind: EndDirective,
        span: Span,
    },
    End {
        span: Span,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum EndDirective {
    Else,
    EndIf,
    EndFor,
}

impl EndDirective {
    fn unexpected_summary(self) -> &'static str {
        match self {
            EndDirective::Else => diag::UNEXPECTED_ELSE,
            EndDirective::EndIf => diag::UNEXPECTED_ENDIF,
            EndDirective::EndFor => diag::UNEXPECTED_ENDFOR,
        }
    }
}

impl<'a> Parser<'a> {
    /// ```text
    /// TemplateExpr = quotedTemplate | heredocTemplate;
    /// heredocTemplate = (
    ///     ("<<" | "<<-") Identifier Newline
    ///     (content as defined in prose above)
    ///     Identifier Newline
    /// );
    /// ```
    /// The opening quote or heredoc introducer is the next token. A
    /// template that is a single interpolation and nothing else becomes a
    /// `TemplateWrap`. Mirrors the template case of
    /// `parser.parseExpressionTerm`.
    pub fn template_expr(&mut self) -> PResult<Node> {
        let open = self.read();
        let (end, flush) = if open.kind == TokenKind::OQuote {
            (TokenKind::CQuote, false)
        } else {
            (TokenKind::CHeredoc, open.text.starts_with("<<-"))
        };
        let (parts, passthrough, _) = self.template_inner(end, flush)?;
        let span = between(open.span, self.prev_span());
        template_node(parts, passthrough, span)
    }

    /// ```text
    /// Template = (
    ///     TemplateLiteral |
    ///     TemplateInterpolation |
    ///     TemplateDirective
    /// )*
    /// ```
    /// A whole bare template, up to the end of the input
    /// (`parser.ParseTemplate`).
    pub fn bare_template(&mut self) -> PResult<Node> {
        let (parts, passthrough, span) = self.template_inner(TokenKind::Eof, false)?;
        template_node(parts, passthrough, span)
    }

    /// Both passes over a template ending at `end`: the parts as
    /// expressions, whether the template is a lone interpolation, and its
    /// range. Mirrors `parser.parseTemplateInner`.
    fn template_inner(&mut self, end: TokenKind, flush: bool) -> PResult<(Vec<Node>, bool, Span)> {
        let (mut parts, span) = self.template_parts(end)?;
        if flush {
            flush_heredoc(&mut parts);
        }
        let passthrough = parts.len() == 2 && matches!(parts[0], Part::Interpolation(_));
        let exprs = Directives {
            parts: parts.into(),
        }
        .root()?;
        Ok((exprs, passthrough, span))
    }

    /// The first pass, up to and including the `end` token. Mirrors
    /// `parser.parseTemplateParts`.
    fn template_parts(&mut self, end: TokenKind) -> PResult<(Vec<Part>, Span)> {
        let start_span = self.peek().span;
        let mut parts = Vec::new();
        let mut ltrim_next = false;
        let mut next_can_trim_prev = false;
        let end_span = loop {
            let next = self.read();
            if next.kind == end {
                break next.span;
            }
            let ltrim = std::mem::take(&mut ltrim_next);
            let can_trim_prev = std::mem::take(&mut next_can_trim_prev);

            match next.kind {
                TokenKind::StringLit | TokenKind::QuotedLit => {
                    let mut value = string_literal_value(&next)?;
                    if ltrim {
                        value = value.trim_start_matches(char::is_whitespace).to_string();
                    }
                    parts.push(Part::Literal {
                        value,
                        span: next.span,
                    });
                    next_can_trim_prev = true;
                }
                TokenKind::TemplateInterp | TokenKind::TemplateControl => {
                    // `${~` and `%{~` strip the end of the literal just before.
                    if can_trim_prev && next.text.ends_with('~') {
                        if let Some(Part::Literal { value, .. }) = parts.last_mut() {
                            value.truncate(value.trim_end_matches(char::is_whitespace).len());
                        }
                    }
                    let sequence_start = next;
                    ltrim_next = self.with_newlines(false, |p| {
                        if sequence_start.kind == TokenKind::TemplateInterp {
                            p.template_interpolation(&mut parts, start_span, end)
                        } else {
                            p.template_directive(&mut parts, sequence_start.span)
                        }
                    })?;
                }
                _ => {
                    return Err(error(
                        diag::UNTERMINATED_TEMPLATE_STRING,
                        diag::UNTERMINATED_TEMPLATE_STRING_DETAIL,
                        next.span,
                    ))
                }
            }
        };

        if parts.is_empty() {
            // An empty template is an empty string.
            parts.push(Part::Literal {
                value: String::new(),
                span: Span::new(start_span.end, start_span.end),
            });
        }
        parts.push(Part::End { span: end_span });
        Ok((parts, between(start_span, end_span)))
    }

    /// ```text
    /// TemplateInterpolation = ("${" | "${~") Expression ("}" | "~}");
    /// ```
    /// After the opener; returns whether the closer strips the following
    /// literal.
    fn template_interpolation(
        &mut self,
        parts: &mut Vec<Part>,
        start_span: Span,
        end: TokenKind,
    ) -> PResult<bool> {
        let expr = self.expression()?;
        let close = self.peek();
        if close.kind != TokenKind::TemplateSeqEnd {
            let quoted = end == TokenKind::CQuote;
            return Err(match close.kind {
                TokenKind::Eof => error(
                    diag::UNCLOSED_INTERPOLATION,
                    diag::UNCLOSED_INTERPOLATION_EOF_DETAIL,
                    start_span,
                ),
                TokenKind::Colon => error(
                    diag::EXTRA_AFTER_INTERPOLATION,
                    diag::EXTRA_AFTER_INTERPOLATION_COLON_DETAIL,
                    close.span,
                ),
                TokenKind::CQuote | TokenKind::OQuote if quoted => error(
                    diag::UNCLOSED_INTERPOLATION,
                    diag::UNCLOSED_INTERPOLATION_QUOTE_DETAIL,
                    start_span,
                ),
                _ => error(
                    diag::EXTRA_AFTER_INTERPOLATION,
                    diag::EXTRA_AFTER_INTERPOLATION_DETAIL,
                    close.span,
                ),
            });
        }
        self.read();
        parts.push(Part::Interpolation(expr));
        Ok(close.text.starts_with('~'))
    }

    /// ```text
    /// TemplateIf = (
    ///     ("%{" | "%{~") "if" Expression ("}" | "~}")
    ///     Template
    ///     (
    ///         ("%{" | "%{~") "else" ("}" | "~}")
    ///         Template
    ///     )?
    ///     ("%{" | "%{~") "endif" ("}" | "~}")
    /// );
    /// TemplateFor = (
    ///     ("%{" | "%{~") "for" Identifier ("," Identifier) "in" Expression ("}" | "~}")
    ///     Template
    ///     ("%{" | "%{~") "endfor" ("}" | "~}")
    /// );
    /// ```
    /// One directive marker, after the opener; returns whether the closer
    /// strips the following literal.
    fn template_directive(&mut self, parts: &mut Vec<Part>, open_span: Span) -> PResult<bool> {
        let keyword = self.peek();
        if keyword.kind != TokenKind::Ident {
            return Err(error(
                diag::INVALID_TEMPLATE_DIRECTIVE,
                diag::INVALID_TEMPLATE_DIRECTIVE_DETAIL,
                keyword.span,
            ));
        }
        self.read();
        let extra_summary = match keyword.text {
            "if" => {
                let condition = self.expression()?;
                let span = between(open_span, self.peek().span);
                parts.push(Part::If { condition, span });
                diag::EXTRA_IN_IF_MARKER
            }
            "else" => {
                self.end_directive(parts, EndDirective::Else, open_span);
                diag::EXTRA_IN_ELSE_MARKER
            }
            "endif" => {
                self.end_directive(parts, EndDirective::EndIf, open_span);
                diag::EXTRA_IN_ENDIF_MARKER
            }
            "for" => {
                self.for_directive(parts, open_span)?;
                diag::EXTRA_IN_FOR_MARKER
            }
            "endfor" => {
                self.end_directive(parts, EndDirective::EndFor, open_span);
                diag::EXTRA_IN_ENDFOR_MARKER
            }
            other => {
                let suggestion = name_suggestion(other, &["if", "for", "else", "endif", "endfor"])
                    .map(|s| format!(" Did you mean {}?", go_quote(s)))
                    .unwrap_or_default();
                return Err(error(
                    diag::INVALID_TEMPLATE_CONTROL_KEYWORD,
                    format!(
                        "{} is not a valid template control keyword.{suggestion}",
                        go_quote(other)
                    ),
                    keyword.span,
                ));
            }
        };
        let close = self.peek();
        if close.kind != TokenKind::TemplateSeqEnd {
            return Err(error(
                extra_summary,
                diag::EXTRA_IN_MARKER_DETAIL,
                close.span,
            ));
        }
        self.read();
        Ok(close.text.starts_with('~'))
    }

    fn end_directive(&mut self, parts: &mut Vec<Part>, kind: EndDirective, open_span: Span) {
        let span = between(open_span, self.peek().span);
        parts.push(Part::EndDirective { kind, span });
    }

    /// The header of a `%{ for }` directive, after the keyword.
    fn for_directive(&mut self, parts: &mut Vec<Part>, open_span: Span) -> PResult<()> {
        let invalid = |detail: &str, span: Span| error(diag::INVALID_FOR_DIRECTIVE, detail, span);
        if self.peek_kind() != TokenKind::Ident {
            return Err(invalid(
                diag::FOR_DIRECTIVE_MISSING_NAME_DETAIL,
                self.peek().span,
            ));
        }
        let mut value_var = self.read().text;
        let mut key_var = None;
        if self.peek_kind() == TokenKind::Comma {
            key_var = Some(value_var.to_string());
            self.read();
            if self.peek_kind() != TokenKind::Ident {
                return Err(invalid(
                    diag::FOR_DIRECTIVE_MISSING_VALUE_NAME_DETAIL,
                    self.peek().span,
                ));
            }
            value_var = self.read().text;
        }
        if !self.peek().is_keyword("in") {
            return Err(invalid(
                diag::FOR_DIRECTIVE_MISSING_IN_DETAIL,
                self.peek().span,
            ));
        }
        self.read();
        let collection = self.expression()?;
        let span = between(open_span, self.peek().span);
        parts.push(Part::For {
            key_var,
            value_var: value_var.to_string(),
            collection,
            span,
        });
        Ok(())
    }
}

fn template_node(mut parts: Vec<Node>, passthrough: bool, span: Span) -> PResult<Node> {
    if passthrough && parts.len() == 1 {
        let wrapped = parts.remove(0);
        return node(
            ExprKind::TemplateWrap(Box::new(wrapped.expr)),
            span,
            wrapped.height,
        );
    }
    template_of(parts, span)
}

fn template_of(parts: Vec<Node>, span: Span) -> PResult<Node> {
    let height = parts.iter().map(|p| p.height).max().unwrap_or(0);
    node(
        ExprKind::Template(parts.into_iter().map(|p| p.expr).collect()),
        span,
        height,
    )
}

/// The second pass: matches directives up (`hclsyntax.templateParser`).
struct Directives {
    parts: VecDeque<Part>,
}

impl Directives {
    fn peek(&self) -> &Part {
        // Never empty: the list ends with `Part::End`, which `read` keeps.
        &self.parts[0]
    }

    fn read(&mut self) -> Part {
        if self.parts.len() > 1 {
            if let Some(part) = self.parts.pop_front() {
                return part;
            }
        }
        match self.parts.front() {
            Some(Part::End { span }) => Part::End { span: *span },
            _ => Part::End {
                span: Span::default(),
            },
        }
    }

    fn root(&mut self) -> PResult<Vec<Node>> {
        let mut exprs = Vec::new();
        while !matches!(self.peek(), Part::End { .. }) {
            exprs.push(self.expr()?);
        }
        Ok(exprs)
    }

    fn expr(&mut self) -> PResult<Node> {
        match self.read() {
            Part::Literal { value, span } => node(ExprKind::Literal(Value::string(value)), span, 0),
            Part::Interpolation(expr) => Ok(expr),
            Part::If { condition, span } => self.if_directive(condition, span),
            Part::For {
                key_var,
                value_var,
                collection,
                span,
            } => self.for_directive(key_var, value_var, collection, span),
            Part::End { span } => Err(error(
                diag::UNEXPECTED_END_OF_TEMPLATE,
                diag::UNBALANCED_DIRECTIVES_DETAIL,
                span,
            )),
            Part::EndDirective { kind, span } => Err(error(
                kind.unexpected_summary(),
                diag::UNBALANCED_DIRECTIVES_DETAIL,
                span,
            )),
        }
    }

    /// `%{ if }` ... `%{ else }` ... `%{ endif }` becomes a conditional
    /// between two templates; an empty branch is an empty string.
    fn if_directive(&mut self, condition: Node, open_span: Span) -> PResult<Node> {
        let mut true_parts = Vec::new();
        let mut false_parts = Vec::new();
        let mut in_else = false;
        let endif_span = loop {
            match self.peek() {
                Part::End { span } => {
                    return Err(error(
                        diag::UNEXPECTED_END_OF_TEMPLATE,
                        format!(
                            "The if directive at {} is missing its corresponding endif directive.",
                            range_string(open_span)
                        ),
                        *span,
                    ))
                }
                Part::EndDirective { kind, span } => {
                    let (kind, span) = (*kind, *span);
                    self.read();
                    match kind {
                        EndDirective::Else if !in_else => in_else = true,
                        EndDirective::Else => {
                            return Err(error(
                                diag::UNEXPECTED_ELSE,
                                format!(
                                    "Already in the else clause for the if started at {}.",
                                    range_string(open_span)
                                ),
                                span,
                            ))
                        }
                        EndDirective::EndIf => break span,
                        EndDirective::EndFor => {
                            return Err(error(
                                diag::UNEXPECTED_ENDFOR,
                                format!(
                                    "Expecting an endif directive for the if started at {}.",
                                    range_string(open_span)
                                ),
                                span,
                            ))
                        }
                    }
                }
                _ => {
                    let expr = self.expr()?;
                    if in_else {
                        false_parts.push(expr);
                    } else {
                        true_parts.push(expr);
                    }
                }
            }
        };

        if true_parts.is_empty() {
            let at = Span::new(open_span.end, open_span.end);
            true_parts.push(node(ExprKind::Literal(Value::string("")), at, 0)?);
        }
        if false_parts.is_empty() {
            let at = Span::new(endif_span.start, endif_span.start);
            false_parts.push(node(ExprKind::Literal(Value::string("")), at, 0)?);
        }
        let true_result = template_of_parts(true_parts)?;
        let false_result = template_of_parts(false_parts)?;
        let height = condition
            .height
            .max(true_result.height)
            .max(false_result.height);
        node(
            ExprKind::Conditional {
                condition: Box::new(condition.expr),
                true_result: Box::new(true_result.expr),
                false_result: Box::new(false_result.expr),
            },
            between(open_span, endif_span),
            height,
        )
    }

    /// `%{ for }` ... `%{ endfor }` becomes a tuple `for` expression over
    /// the body template, joined into one string.
    fn for_directive(
        &mut self,
        key_var: Option<String>,
        value_var: String,
        collection: Node,
        open_span: Span,
    ) -> PResult<Node> {
        let mut body = Vec::new();
        let endfor_span = loop {
            match self.peek() {
                Part::End { span } => return Err(error(
                    diag::UNEXPECTED_END_OF_TEMPLATE,
                    format!(
                        "The for directive at {} is missing its corresponding endfor directive.",
                        range_string(open_span)
                    ),
                    *span,
                )),
                Part::EndDirective { kind, span } => {
                    let (kind, span) = (*kind, *span);
                    self.read();
                    match kind {
                        EndDirective::Else => {
                            return Err(error(
                                diag::UNEXPECTED_ELSE,
                                diag::ELSE_IN_FOR_DETAIL,
                                span,
                            ))
                        }
                        EndDirective::EndFor => break span,
                        EndDirective::EndIf => {
                            return Err(error(
                                diag::UNEXPECTED_ENDIF,
                                format!(
                                    "Expecting an endfor directive corresponding to the for directive at {}.",
                                    range_string(open_span)
                                ),
                                span,
                            ))
                        }
                    }
                }
                _ => body.push(self.expr()?),
            }
        };

        if body.is_empty() {
            let at = Span::new(open_span.end, open_span.end);
            body.push(node(ExprKind::Literal(Value::string("")), at, 0)?);
        }
        let value = template_of_parts(body)?;
        let span = between(open_span, endfor_span);
        let height = collection.height.max(value.height);
        let for_expr = ForExpr {
            key_var,
            value_var,
            collection: collection.expr,
            key: None,
            value: value.expr,
            condition: None,
            group: false,
            open_span,
        };
        let for_node = node(ExprKind::For(Box::new(for_expr)), span, height)?;
        node(
            ExprKind::TemplateJoin(Box::new(for_node.expr)),
            span,
            for_node.height,
        )
    }
}

/// A directive branch or body: a template spanning its first to last part.
fn template_of_parts(parts: Vec<Node>) -> PResult<Node> {
    let first = parts.first().map(|p| p.expr.span).unwrap_or_default();
    let last = parts.last().map(|p| p.expr.span).unwrap_or_default();
    template_of(parts, between(first, last))
}

/// Applies the `<<-` rule: finds the smallest number of leading whitespace
/// characters (grapheme clusters) over the literals that start a line, and
/// removes that many from each of them. A line starting with an
/// interpolation or directive counts as zero; a literal that is only
/// whitespace and a newline (a blank line) is ignored. Works on the literal
/// parts, after strip markers. Mirrors `flushHeredocTemplateParts`.
fn flush_heredoc(parts: &mut [Part]) {
    let mut min_spaces = usize::MAX;
    let mut at_line_start = true;
    let mut adjust = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        if at_line_start {
            at_line_start = false;
            let mut spaces = 0;
            match part {
                Part::Literal { value, .. } => {
                    let trimmed = value.trim_start_matches(char::is_whitespace);
                    if trimmed.is_empty() && value.ends_with('\n') {
                        spaces = usize::MAX;
                    } else {
                        let prefix = &value[..value.len() - trimmed.len()];
                        spaces = prefix.graphemes(true).count();
                        adjust.push(index);
                    }
                }
                Part::End { .. } => break,
                _ => {}
            }
            min_spaces = min_spaces.min(spaces);
        }
        if let Part::Literal { value, .. } = part {
            if value.ends_with('\n') {
                at_line_start = true;
            }
        }
    }

    for index in adjust {
        if let Part::Literal { value, span } = &mut parts[index] {
            let cut: usize = value.graphemes(true).take(min_spaces).map(str::len).sum();
            value.drain(..cut);
            span.start.column += min_spaces;
            span.start.byte += cut;
        }
    }
}

/// `hcl.Range.String` for a range in an unnamed source.
fn range_string(span: Span) -> String {
    if span.start.line == span.end.line {
        format!(
            ":{},{}-{}",
            span.start.line, span.start.column, span.end.column
        )
    } else {
        format!(
            ":{},{}-{},{}",
            span.start.line, span.start.column, span.end.line, span.end.column
        )
    }
}

/// The first suggestion within edit distance 2 of `given`
/// (`hclsyntax.nameSuggestion`).
fn name_suggestion<'s>(given: &str, suggestions: &[&'s str]) -> Option<&'s str> {
    suggestions
        .iter()
        .copied()
        .find(|suggestion| levenshtein(given, suggestion) < 3)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}
