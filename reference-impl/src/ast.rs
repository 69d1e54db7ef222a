//! The expression tree produced by the parser and consumed by the evaluator.
//!
//! The node kinds mirror `hclsyntax`'s expression types one for one
//! (`ScopeTraversalExpr`, `RelativeTraversalExpr`, `IndexExpr`, `SplatExpr`,
//! `TemplateWrapExpr`, ...) because several observable behaviours depend on
//! which node the parser chose: a literal index such as `a[0]` becomes a
//! traversal step, not an `IndexExpr`; `"${x}"` becomes a `TemplateWrap` that
//! returns `x` unchanged; template directives are desugared into
//! `Conditional` and `For` nodes, so their errors are those of the
//! expressions they become.

use crate::error::Span;
use crate::value::Value;

/// An expression together with the source range it was parsed from.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A number, string (from a template with no interpolation is *not* this:
    /// see `Template`), `true`, `false` or `null` literal. `null` is a null of
    /// the dynamic pseudo-type.
    Literal(Value),
    /// `(expr)`: only keeps the range of the parentheses and stops the
    /// expression from being read as a keyword (for example as an object key).
    Parentheses(Box<Expr>),
    /// A variable reference with its literal traversal steps: `a.b[0]["k"].0`.
    ScopeTraversal {
        root: String,
        steps: Vec<Traverser>,
    },
    /// Literal traversal steps applied to the result of another expression:
    /// `f(x).a[0]`, `(x).a`.
    RelativeTraversal {
        source: Box<Expr>,
        steps: Vec<Traverser>,
    },
    /// `collection[key]` where `key` is not a literal.
    Index {
        collection: Box<Expr>,
        key: Box<Expr>,
    },
    /// `name(args...)`; `name` includes any namespace (`provider::p::f`).
    /// `expand_final` is set when the last argument is followed by `...`.
    FunctionCall {
        name: String,
        args: Vec<Expr>,
        expand_final: bool,
        /// The name, through its last `::` part, and the opening
        /// parenthesis: newlines may separate them.
        name_span: Span,
        open_span: Span,
    },
    Conditional {
        condition: Box<Expr>,
        true_result: Box<Expr>,
        false_result: Box<Expr>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `[a, b, c]`
    TupleCons(Vec<Expr>),
    /// `{ k = v, ... }` in source order; duplicate keys are detected at
    /// evaluation time, as `ObjectConsExpr.Value` does.
    ObjectCons(Vec<ObjectItem>),
    For(Box<ForExpr>),
    /// `source[*].each` and `source.*.each`. `each` is evaluated once per
    /// element with `AnonSymbol` bound to that element.
    Splat {
        source: Box<Expr>,
        each: Box<Expr>,
    },
    /// The element placeholder inside a splat's `each` expression.
    AnonSymbol,
    /// A template with literal and interpolated parts, evaluated to a string.
    Template(Vec<Expr>),
    /// The result of a `%{for}` directive: a tuple of strings joined together.
    TemplateJoin(Box<Expr>),
    /// A template consisting of exactly one interpolation and nothing else:
    /// evaluates to the wrapped expression's value, whatever its type.
    TemplateWrap(Box<Expr>),
}

/// One literal traversal step (`hcl.TraverseAttr` / `hcl.TraverseIndex`).
#[derive(Clone, Debug)]
pub enum Traverser {
    Attr {
        name: String,
        span: Span,
    },
    /// The key is a known number or string literal (`[0]`, `["k"]`, `.0`).
    Index {
        key: Value,
        span: Span,
    },
}

#[derive(Clone, Debug)]
pub struct ObjectItem {
    pub key: ObjectKey,
    pub value: Expr,
}

/// An object constructor key (`hclsyntax.ObjectConsKeyExpr`): a bare
/// identifier or keyword is a literal name unless `force_non_literal`
/// (the key was written in parentheses).
#[derive(Clone, Debug)]
pub struct ObjectKey {
    pub expr: Expr,
    pub force_non_literal: bool,
}

#[derive(Clone, Debug)]
pub struct ForExpr {
    /// Empty when only a value variable is declared.
    pub key_var: Option<String>,
    pub value_var: String,
    pub collection: Expr,
    /// Present for the object form `{for ...: k => v}`.
    pub key: Option<Expr>,
    pub value: Expr,
    pub condition: Option<Expr>,
    /// `...` after the value in the object form.
    pub group: bool,
    /// The range of the `for` keyword through the end of the header, for
    /// diagnostics.
    pub open_span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Negate,
    Not,
}

/// Binary operators, named as in `hclsyntax` (`OpLogicalOr`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Equal,
    NotEqual,
    GreaterThan,
    GreaterThanOrEqual,
    LessThan,
    LessThanOrEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
}

/// A native-syntax body (`hclsyntax.Body`): attributes and blocks, each in
/// source order.
#[derive(Clone, Debug, Default)]
pub struct Body {
    pub attributes: Vec<Attribute>,
    pub blocks: Vec<Block>,
    /// Where a missing item is reported: the body's end (for a block, its
    /// closing brace; for a whole file, its end).
    pub end: Span,
}

/// `name = expression`.
#[derive(Clone, Debug)]
pub struct Attribute {
    pub name: String,
    pub name_span: Span,
    pub expr: Expr,
}

/// `type "label" label { body }`.
#[derive(Clone, Debug)]
pub struct Block {
    pub type_name: String,
    pub type_span: Span,
    pub labels: Vec<(String, Span)>,
    pub body: Body,
}

impl Block {
    /// The block's header, its type and labels (`hclsyntax.Block.DefRange`).
    pub fn def_span(&self) -> Span {
        match self.labels.last() {
            Some((_, last)) => self.type_span.to(*last),
            None => self.type_span,
        }
    }
}

/// Dropping a tree takes its nodes apart one at a time, with a list of its
/// own rather than by recursion, so that the deepest tree the parser
/// accepts is dropped on any stack.
impl Drop for Expr {
    fn drop(&mut self) {
        let mut pending: Vec<Expr> = Vec::new();
        take_children(&mut self.kind, &mut pending);
        while let Some(mut expr) = pending.pop() {
            take_children(&mut expr.kind, &mut pending);
        }
    }
}

/// Moves the child expressions of `kind` to `out`, leaving it a leaf.
fn take_children(kind: &mut ExprKind, out: &mut Vec<Expr>) {
    match std::mem::replace(kind, ExprKind::AnonSymbol) {
        ExprKind::Literal(_) | ExprKind::ScopeTraversal { .. } | ExprKind::AnonSymbol => {}
        ExprKind::Parentheses(e)
        | ExprKind::TemplateJoin(e)
        | ExprKind::TemplateWrap(e)
        | ExprKind::RelativeTraversal { source: e, .. }
        | ExprKind::Unary { operand: e, .. } => out.push(*e),
        ExprKind::Index { collection, key } => {
            out.push(*collection);
            out.push(*key);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            out.push(*lhs);
            out.push(*rhs);
        }
        ExprKind::Splat { source, each } => {
            out.push(*source);
            out.push(*each);
        }
        ExprKind::Conditional {
            condition,
            true_result,
            false_result,
        } => {
            out.push(*condition);
            out.push(*true_result);
            out.push(*false_result);
        }
        ExprKind::FunctionCall { args, .. } => out.extend(args),
        ExprKind::TupleCons(items) | ExprKind::Template(items) => out.extend(items),
        ExprKind::ObjectCons(items) => {
            for item in items {
                out.push(item.key.expr);
                out.push(item.value);
            }
        }
        ExprKind::For(f) => {
            let f = *f;
            out.push(f.collection);
            out.extend(f.key);
            out.push(f.value);
            out.extend(f.condition);
        }
    }
}
