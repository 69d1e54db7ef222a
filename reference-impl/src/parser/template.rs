//! Templates: quoted strings, heredocs and bare templates.
//!
//! Parsing happens in two passes, as in `hclsyntax`: the token stream is
//! first raised to a flat list of parts (literals with strip markers already
//! applied, interpolations, directive openers and closers), then the
//! directives are matched up into `Conditional` and `For` nodes.

use std::collections::VecDeque;

use super::cursor::{between, error, nesting_error, node, Node, PResult, Parser};
use super::diag;
use super::string_lit::string_literal_value;
use super::token::{Token, TokenKind};
use super::MAX_NESTING_DEPTH;
use crate::ast::{ExprKind, ForExpr};
use crate::error::Span;
use crate::goquote::go_quote;
use crate::text::grapheme_count;
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
        // Directive nesting continues the count of the enclosing
        // expressions, so the two kinds of recursion share one limit.
        let exprs = Directives {
            parts: parts.into(),
            depth: self.depth,
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
                    parts.push(literal_part(&next, ltrim)?);
                    next_can_trim_prev = true;
                }
                TokenKind::TemplateInterp | TokenKind::TemplateControl => {
                    // `${~` and `%{~` strip the end of the literal just before.
                    if can_trim_prev && next.text.ends_with('~') {
                        trim_last_literal(&mut parts);
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
        self.skip();
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
        self.skip();
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
                let suggestion = did_you_mean(other, &["if", "for", "else", "endif", "endfor"]);
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
        self.skip();
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
        let mut value_var = self.read_text();
        let mut key_var = None;
        if self.peek_kind() == TokenKind::Comma {
            key_var = Some(value_var.to_string());
            self.skip();
            if self.peek_kind() != TokenKind::Ident {
                return Err(invalid(
                    diag::FOR_DIRECTIVE_MISSING_VALUE_NAME_DETAIL,
                    self.peek().span,
                ));
            }
            value_var = self.read_text();
        }
        if !self.peek().is_keyword("in") {
            return Err(invalid(
                diag::FOR_DIRECTIVE_MISSING_IN_DETAIL,
                self.peek().span,
            ));
        }
        self.skip();
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

/// A literal token as a template part, with its leading whitespace removed
/// when the sequence before it ends with `~}`.
fn literal_part(token: &Token<'_>, ltrim: bool) -> PResult<Part> {
    let mut value = string_literal_value(token)?;
    if ltrim {
        value = value.trim_start_matches(char::is_whitespace).to_string();
    }
    Ok(Part::Literal {
        value,
        span: token.span,
    })
}

/// Removes trailing whitespace from the last part if it is a literal.
fn trim_last_literal(parts: &mut [Part]) {
    if let Some(Part::Literal { value, .. }) = parts.last_mut() {
        value.truncate(value.trim_end_matches(char::is_whitespace).len());
    }
}

fn template_node(mut parts: Vec<Node>, passthrough: bool, span: Span) -> PResult<Node> {
    if passthrough && parts.len() == 1 {
        let wrapped = parts.remove(0);
        return node(ExprKind::TemplateWrap(wrapped.expr), span, wrapped.height);
    }
    template_of(parts, span)
}

fn template_of(parts: Vec<Node>, span: Span) -> PResult<Node> {
    let height = parts.iter().map(|p| p.height).max().unwrap_or(0);
    node(
        ExprKind::Template(parts.into_iter().map(|p| *p.expr).collect()),
        span,
        height,
    )
}

/// The second pass: matches directives up (`hclsyntax.templateParser`).
struct Directives {
    parts: VecDeque<Part>,
    depth: usize,
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
        let body = self.nested(|d| d.directive_body(open_span, true))?;
        let mut true_parts = body.first;
        let mut false_parts = body.second;
        if true_parts.is_empty() {
            let at = Span::new(open_span.end, open_span.end);
            true_parts.push(node(ExprKind::Literal(Value::string("")), at, 0)?);
        }
        if false_parts.is_empty() {
            let at = Span::new(body.end.start, body.end.start);
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
                condition: condition.expr,
                true_result: true_result.expr,
                false_result: false_result.expr,
            },
            between(open_span, body.end),
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
        let body = self.nested(|d| d.directive_body(open_span, false))?;
        let mut parts = body.first;
        if parts.is_empty() {
            let at = Span::new(open_span.end, open_span.end);
            parts.push(node(ExprKind::Literal(Value::string("")), at, 0)?);
        }
        let value = template_of_parts(parts)?;
        let span = between(open_span, body.end);
        let height = collection.height.max(value.height);
        let for_expr = ForExpr {
            key_var,
            value_var,
            collection: *collection.expr,
            key: None,
            value: *value.expr,
            condition: None,
            group: false,
            open_span,
        };
        let for_node = node(ExprKind::For(Box::new(for_expr)), span, height)?;
        node(ExprKind::TemplateJoin(for_node.expr), span, for_node.height)
    }

    /// Runs a nested directive one level deeper, failing cleanly instead of
    /// exhausting the stack.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING_DEPTH {
            return Err(nesting_error(self.open_span()));
        }
        self.depth += 1;
        let result = crate::stack::deeper(|| f(self));
        self.depth -= 1;
        result
    }

    fn open_span(&self) -> Span {
        match self.peek() {
            Part::Literal { span, .. }
            | Part::If { span, .. }
            | Part::For { span, .. }
            | Part::EndDirective { span, .. }
            | Part::End { span } => *span,
            Part::Interpolation(node) => node.expr.span,
        }
    }

    /// The parts up to the directive closing the `if` (when `is_if`) or
    /// `for` opened at `open_span`: the body, or for an `if` the two
    /// branches, and the closer's range.
    fn directive_body(&mut self, open_span: Span, is_if: bool) -> PResult<DirectiveBody> {
        let mut first = Vec::new();
        let mut second = Vec::new();
        let mut in_else = false;
        loop {
            let (kind, span) = match self.peek() {
                Part::End { span } => return Err(missing_end(open_span, is_if, *span)),
                Part::EndDirective { kind, span } => (*kind, *span),
                _ => {
                    let expr = self.expr()?;
                    if in_else {
                        second.push(expr);
                    } else {
                        first.push(expr);
                    }
                    continue;
                }
            };
            self.read();
            match (kind, is_if) {
                (EndDirective::Else, true) if !in_else => in_else = true,
                (EndDirective::EndIf, true) | (EndDirective::EndFor, false) => {
                    return Ok(DirectiveBody {
                        first,
                        second,
                        end: span,
                    })
                }
                _ => return Err(unexpected_end(kind, open_span, is_if, span)),
            }
        }
    }
}

struct DirectiveBody {
    first: Vec<Node>,
    second: Vec<Node>,
    end: Span,
}

/// The error for a template that ends inside an `if` or `for` directive.
fn missing_end(open_span: Span, is_if: bool, at: Span) -> Box<crate::error::Error> {
    let detail = if is_if {
        format!(
            "The if directive at {} is missing its corresponding endif directive.",
            open_span.hcl_range()
        )
    } else {
        format!(
            "The for directive at {} is missing its corresponding endfor directive.",
            open_span.hcl_range()
        )
    };
    error(diag::UNEXPECTED_END_OF_TEMPLATE, detail, at)
}

/// The error for a closing directive that does not match the open `if` or
/// `for`.
fn unexpected_end(
    kind: EndDirective,
    open_span: Span,
    is_if: bool,
    at: Span,
) -> Box<crate::error::Error> {
    let detail = match (kind, is_if) {
        (EndDirective::Else, true) => format!(
            "Already in the else clause for the if started at {}.",
            open_span.hcl_range()
        ),
        (_, true) => format!(
            "Expecting an endif directive for the if started at {}.",
            open_span.hcl_range()
        ),
        (EndDirective::Else, false) => diag::ELSE_IN_FOR_DETAIL.to_string(),
        (_, false) => format!(
            "Expecting an endfor directive corresponding to the for directive at {}.",
            open_span.hcl_range()
        ),
    };
    error(kind.unexpected_summary(), detail, at)
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
                        spaces = grapheme_count(prefix);
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
            let cut = leading_clusters_len(value, min_spaces);
            value.drain(..cut);
            span.start.column += min_spaces;
            span.start.byte += cut;
        }
    }
}

/// The byte length of the first `count` grapheme clusters of `s` (all of
/// `s` if it has fewer): the last prefix that still splits into at most
/// `count` clusters, since adding characters never lowers the count.
fn leading_clusters_len(s: &str, count: usize) -> usize {
    let boundaries: Vec<usize> = s
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(s.len()))
        .collect();
    let fits = boundaries.partition_point(|&end| grapheme_count(&s[..end]) <= count);
    boundaries[fits.saturating_sub(1)]
}

/// " Did you mean "x"?", which HCL adds to a detail when `given` is close
/// to one of `names` (else nothing).
pub(crate) fn did_you_mean(given: &str, names: &[&str]) -> String {
    name_suggestion(given, names)
        .map(|s| format!(" Did you mean {}?", go_quote(s)))
        .unwrap_or_default()
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
