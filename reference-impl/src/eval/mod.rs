//! The evaluator: HCL's `Expression.Value` for every node kind.
//!
//! HCL keeps evaluating after an error and collects diagnostics; callers of
//! this crate get the first error diagnostic in HCL's order. Internally each
//! node therefore returns its value together with [`Diags`], which keeps
//! only the first error of the diagnostics HCL would have collected for
//! that node: HCL only ever appends a child's diagnostics or drops them
//! wholesale, so the first error of the whole is always the first error of
//! the first child list that contributes one.

pub mod budget;
mod call;
mod collection;
mod conditional;
mod for_expr;
mod operation;
mod splat;
mod template;
mod template_string;
mod traversal;

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::ast::{Expr, ExprKind};
use crate::error::{Error, Pos, Span};
use crate::value::Value;
use crate::HclVersion;

/// What an expression is evaluated in: `hcl.EvalContext` plus the behaviour
/// profile.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The variables, shared: engines keep a scope that many requests use
    /// decoded once.
    pub variables: std::sync::Arc<BTreeMap<String, Value>>,
    pub version: HclVersion,
    /// The directory that file-system functions resolve relative paths
    /// against (Terraform's module directory); `None` is the working
    /// directory.
    pub base_dir: Option<PathBuf>,
}

/// Evaluates `expr`; the first error diagnostic HCL would report, or the
/// value.
pub fn evaluate(expr: &Expr, ctx: &Context) -> Result<Value, Error> {
    let mut evaluator = Evaluator::new(ctx);
    let (value, diags) = crate::convert::with_messages_of(ctx.version, || evaluator.eval(expr));
    match diags.0 {
        Some(error) => Err(*error),
        None => Ok(value),
    }
}

/// How deeply expressions may nest before evaluation gives up: the parser's
/// limit, so that every parsed tree evaluates, while trees built by other
/// means cannot exhaust the stack (each level takes up to about 2.5 KiB of
/// stack in an optimized build, 10 KiB in a debug build).
pub const MAX_EVAL_DEPTH: usize = crate::parser::MAX_NESTING_DEPTH;

const TOO_DEEP_SUMMARY: &str = "Expression too deeply nested";

/// The error of an evaluation that ran out of its budget.
pub(crate) fn budget_error(span: Span) -> Error {
    let limit = budget::limit();
    Error::eval(
        budget::BUDGET_EXCEEDED,
        format!(
            "This evaluation took more than {} steps or produced more than {} bytes of strings, the limits this engine sets.",
            limit.steps, limit.bytes
        ),
        span,
    )
}

/// The first error among the diagnostics HCL would have collected.
#[derive(Debug, Default)]
pub(crate) struct Diags(Option<Box<Error>>);

impl Diags {
    pub(crate) fn none() -> Diags {
        Diags(None)
    }

    pub(crate) fn error(error: Error) -> Diags {
        Diags(Some(Box::new(error)))
    }

    /// Appends one diagnostic.
    pub(crate) fn push(&mut self, error: Error) {
        if self.0.is_none() {
            self.0 = Some(Box::new(error));
        }
    }

    /// Appends all of `other`'s diagnostics.
    pub(crate) fn append(&mut self, other: Diags) {
        if self.0.is_none() {
            self.0 = other.0;
        }
    }

    pub(crate) fn has_errors(&self) -> bool {
        self.0.is_some()
    }
}

/// A value with the diagnostics produced while computing it.
pub(crate) type Evaluated = (Value, Diags);

/// The state of one evaluation: the root scope, the variables bound by
/// enclosing `for` expressions, and the element bound by the innermost
/// enclosing splat.
pub(crate) struct Evaluator<'a> {
    ctx: &'a Context,
    /// `for` bindings, innermost last; a child scope's names shadow its
    /// parents', as in `hcl.EvalContext.NewChild`.
    locals: Vec<(&'a str, Value)>,
    /// The value of `AnonSymbol` while a splat evaluates its `each`
    /// expression.
    anon: Option<Value>,
    depth: usize,
    /// Evaluating a template for `templatestring`, which may not call the
    /// template functions again.
    in_template: bool,
}

impl<'a> Evaluator<'a> {
    fn new(ctx: &'a Context) -> Evaluator<'a> {
        Evaluator {
            ctx,
            locals: Vec::new(),
            anon: None,
            depth: 0,
            in_template: false,
        }
    }

    fn version(&self) -> HclVersion {
        self.ctx.version
    }

    /// The directory file-system functions resolve relative paths against.
    fn base_dir(&self) -> PathBuf {
        match &self.ctx.base_dir {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        }
    }

    /// The names of the variables in scope, innermost first: the names
    /// an unknown variable's diagnostic suggests from.
    fn variable_names(&self) -> Vec<&str> {
        let locals = self.locals.iter().rev().map(|(n, _)| &**n);
        locals
            .chain(self.ctx.variables.keys().map(String::as_str))
            .collect()
    }

    /// The variable `name` as seen from the current scope.
    fn lookup(&self, name: &str) -> Option<&Value> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
            .or_else(|| self.ctx.variables.get(name))
    }

    /// `Expression.Value` for any node.
    pub(crate) fn eval(&mut self, expr: &'a Expr) -> Evaluated {
        if self.depth >= MAX_EVAL_DEPTH {
            return (
                Value::dynamic_unknown(),
                Diags::error(Error::eval(
                    TOO_DEEP_SUMMARY,
                    format!("Expressions may nest at most {MAX_EVAL_DEPTH} levels deep."),
                    expr.span,
                )),
            );
        }
        if !budget::take(1, 0) {
            return (
                Value::dynamic_unknown(),
                Diags::error(budget_error(expr.span)),
            );
        }
        self.depth += 1;
        let result = crate::stack::deeper(|| self.eval_kind(expr));
        self.depth -= 1;
        result
    }

    fn eval_kind(&mut self, expr: &'a Expr) -> Evaluated {
        match &expr.kind {
            ExprKind::Literal(v) => (v.clone(), Diags::none()),
            ExprKind::Parentheses(inner) => self.eval(inner),
            ExprKind::ScopeTraversal { root, steps } => {
                traversal::scope_traversal(self, root, steps, expr.span)
            }
            ExprKind::RelativeTraversal { source, steps } => {
                traversal::relative_traversal(self, source, steps)
            }
            ExprKind::Index { collection, key } => {
                traversal::index_expr(self, collection, key, expr.span)
            }
            ExprKind::FunctionCall {
                name,
                args,
                expand_final,
                name_span,
                open_span,
            } => call::function_call(
                self,
                name,
                args,
                *expand_final,
                expr.span,
                *name_span,
                *open_span,
            ),
            ExprKind::Conditional {
                condition,
                true_result,
                false_result,
            } => conditional::conditional(self, condition, true_result, false_result, expr.span),
            ExprKind::Unary { op, operand } => operation::unary(self, *op, operand, expr.span),
            ExprKind::Binary { op, lhs, rhs } => operation::binary(self, *op, lhs, rhs, expr.span),
            ExprKind::TupleCons(items) => collection::tuple_cons(self, items),
            ExprKind::ObjectCons(items) => collection::object_cons(self, items),
            ExprKind::For(for_expr) => for_expr::for_expr(self, for_expr, expr.span),
            ExprKind::Splat { source, each } => splat::splat(self, source, each),
            ExprKind::AnonSymbol => (
                self.anon.clone().unwrap_or_else(Value::dynamic_unknown),
                Diags::none(),
            ),
            ExprKind::Template(parts) => template::template(self, parts),
            ExprKind::TemplateJoin(tuple) => template::template_join(self, tuple),
            ExprKind::TemplateWrap(inner) => self.eval(inner),
        }
    }
}

/// The position `text` (one line) further on from `pos`; columns count
/// grapheme clusters, as `hcl.Pos` does.
fn advance(pos: Pos, text: &str) -> Pos {
    Pos {
        line: pos.line,
        column: pos.column + crate::text::columns(text),
        byte: pos.byte + text.len(),
    }
}

/// The range of `text` (one line) starting at `start`.
fn text_span(start: Pos, text: &str) -> Span {
    Span::new(start, advance(start, text))
}

/// The one-byte token at the start of `span` (an opening bracket or an
/// operator symbol).
fn first_char_span(span: Span) -> Span {
    text_span(span.start, "(")
}

/// The one-byte token at the end of `span` (a closing bracket).
fn last_char_span(span: Span) -> Span {
    let start = Pos {
        line: span.end.line,
        column: span.end.column.saturating_sub(1),
        byte: span.end.byte.saturating_sub(1),
    };
    Span::new(start, span.end)
}

/// `Expression.StartRange`: the part of an expression HCL highlights when a
/// diagnostic is about the expression as a whole argument. Ranges HCL takes
/// from tokens the tree does not record (an opening bracket, a splat
/// marker) are rebuilt on the assumption that no space precedes the token.
fn start_range(expr: &Expr) -> Span {
    let mut expr = expr;
    loop {
        expr = match &expr.kind {
            ExprKind::Parentheses(inner) => inner,
            ExprKind::Conditional { condition, .. } => condition,
            ExprKind::Binary { lhs, .. } => lhs,
            ExprKind::TemplateJoin(inner) => inner,
            ExprKind::Template(parts) => match parts.first() {
                Some(first) => first,
                None => return expr.span,
            },
            ExprKind::FunctionCall { name, .. } => {
                // The name and the opening parenthesis.
                let end = advance(advance(expr.span.start, name), "(");
                return Span::new(expr.span.start, end);
            }
            ExprKind::Unary { .. } | ExprKind::TupleCons(_) | ExprKind::ObjectCons(_) => {
                return first_char_span(expr.span)
            }
            ExprKind::Index { collection, .. } => return text_span(collection.span.end, "["),
            ExprKind::For(f) => {
                // A template directive's range starts where the expression
                // does; a bracketed `for` starts at its bracket.
                return if f.open_span.start == expr.span.start {
                    f.open_span
                } else {
                    first_char_span(expr.span)
                };
            }
            ExprKind::Splat { each, .. } => return splat::marker_span(each).unwrap_or(expr.span),
            ExprKind::Literal(_)
            | ExprKind::ScopeTraversal { .. }
            | ExprKind::RelativeTraversal { .. }
            | ExprKind::AnonSymbol
            | ExprKind::TemplateWrap(_) => return expr.span,
        };
    }
}

#[cfg(test)]
pub(crate) mod test_support;

#[cfg(test)]
mod tests {
    use super::{evaluate, Context, MAX_EVAL_DEPTH, TOO_DEEP_SUMMARY};
    use crate::ast::{BinaryOp, Expr, ExprKind, ForExpr};
    use crate::error::Span;
    use crate::number::Number;
    use crate::value::Value;

    fn lit(i: i64) -> Expr {
        Expr::new(
            ExprKind::Literal(Value::number(Number::from_i64(i))),
            Span::default(),
        )
    }

    /// Wraps `inner` in `depth` levels of a mix of node kinds.
    fn nested(depth: usize) -> Expr {
        let mut expr = lit(1);
        for level in 0..depth {
            let boxed = Box::new(expr);
            let kind = match level % 4 {
                0 => ExprKind::Binary {
                    op: BinaryOp::Add,
                    lhs: boxed,
                    rhs: Box::new(lit(1)),
                },
                1 => ExprKind::FunctionCall {
                    name: "max".into(),
                    args: vec![*boxed],
                    expand_final: false,
                    name_span: Span::default(),
                    open_span: Span::default(),
                },
                2 => ExprKind::For(Box::new(ForExpr {
                    key_var: None,
                    value_var: "x".into(),
                    collection: Expr::new(ExprKind::TupleCons(vec![lit(0)]), Span::default()),
                    key: None,
                    value: *boxed,
                    condition: None,
                    group: false,
                    open_span: Span::default(),
                })),
                _ => ExprKind::Index {
                    collection: boxed,
                    key: Box::new(lit(0)),
                },
            };
            expr = Expr::new(kind, Span::default());
        }
        expr
    }

    #[test]
    fn depth_guard() {
        // The deepest allowed tree evaluates; deeper ones are refused
        // instead of overflowing the stack.
        let handle = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(|| {
                let ctx = Context::default();
                let ok = evaluate(&nested(MAX_EVAL_DEPTH - 1), &ctx);
                let too_deep = evaluate(&nested(MAX_EVAL_DEPTH * 4), &ctx);
                (ok.is_ok(), too_deep.map_err(|e| e.summary))
            })
            .unwrap();
        let (ok, too_deep) = handle.join().unwrap();
        assert!(ok);
        assert_eq!(too_deep.unwrap_err(), TOO_DEEP_SUMMARY);
    }
}
