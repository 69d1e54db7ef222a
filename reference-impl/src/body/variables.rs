//! The variables a body refers to under a spec, `dynamic` blocks included:
//! `dynblock.VariablesHCLDec`.
//!
//! The walk reads each body leniently (`PartialContent`): the attributes the
//! spec names, the blocks of its types with the right number of labels, and
//! `dynamic` blocks with one label; anything else is skipped, never an
//! error. An attribute's references are those of
//! [`hcl.Expression.Variables`](crate::references::variables), less the
//! iterators of the `dynamic` blocks around it. A `dynamic` block gives
//! the references of its `for_each` (less the iterators of the blocks
//! around it, not its own) and of its `labels` (less its own iterator too),
//! whether or not the spec has its block type; each of its unlabelled
//! `content` blocks is then walked as a block of that type, if the spec has
//! it, with the block's iterator added. A `dynamic` block whose `iterator`
//! is not a bare traversal (parentheses and `"${...}"` around one do not
//! count) is skipped whole.

use std::collections::BTreeSet;

use super::spec::Spec;
use crate::ast::{Body, Expr, ExprKind};
use crate::functions::root_traversals;
use crate::references::traversal_text;
use crate::types::Type;
use crate::value::Value;

/// The iterators in scope (`dynblock`'s `iteration`): the innermost one's
/// name, and the names of those around it.
#[derive(Clone)]
struct Iteration {
    name: String,
    inherited: BTreeSet<String>,
}

impl Iteration {
    /// `iteration.MakeChild`.
    fn child(outer: Option<&Iteration>, name: String) -> Iteration {
        let inherited = match outer {
            None => BTreeSet::new(),
            Some(o) => {
                let mut names = o.inherited.clone();
                names.insert(o.name.clone());
                names
            }
        };
        Iteration { name, inherited }
    }

    /// Whether `root` names this iterator or one around it.
    fn binds(&self, root: &str) -> bool {
        root == self.name || self.inherited.contains(root)
    }
}

/// The references of `body` under `spec`, as a set of strings.
pub(super) fn body_variables(body: &Body, spec: &Spec) -> Value {
    let mut found = Vec::new();
    crate::stack::deeper(|| walk(body, spec, None, &mut found));
    Value::set(Type::String, found.into_iter().map(Value::String).collect())
}

/// The references of `expr` whose root `keep` accepts.
fn references(expr: &Expr, keep: impl Fn(&str) -> bool, out: &mut Vec<String>) {
    for traversal in root_traversals(expr, &[]) {
        if let ExprKind::ScopeTraversal { root, .. } = &traversal.kind {
            if keep(root) {
                out.extend(traversal_text(traversal));
            }
        }
    }
}

/// `WalkVariablesNode.Visit` of one body, then its children's with the
/// specs of their block types (`walkVariablesWithHCLDec`).
fn walk(body: &Body, spec: &Spec, it: Option<&Iteration>, out: &mut Vec<String>) {
    let schema = spec.schema();
    for (name, _) in &schema.attributes {
        if let Some(attr) = body.attributes.iter().find(|a| &a.name == name) {
            references(&attr.expr, |root| !it.is_some_and(|it| it.binds(root)), out);
        }
    }
    let mut pending: Vec<(&str, &Body, Option<Iteration>)> = Vec::new();
    for block in &body.blocks {
        if block.type_name == "dynamic" {
            let [(type_name, _)] = block.labels.as_slice() else {
                continue;
            };
            let attr = |name: &str| block.body.attributes.iter().find(|a| a.name == name);
            let iterator = match attr("iterator") {
                None => type_name.clone(),
                Some(a) => match traversal_root(&a.expr) {
                    Some(root) => root.to_string(),
                    None => continue,
                },
            };
            let block_it = Iteration::child(it, iterator);
            if let Some(a) = attr("for_each") {
                references(&a.expr, |root| !block_it.inherited.contains(root), out);
            }
            if let Some(a) = attr("labels") {
                references(&a.expr, |root| !block_it.binds(root), out);
            }
            for content in &block.body.blocks {
                if content.type_name == "content" && content.labels.is_empty() {
                    pending.push((type_name.as_str(), &content.body, Some(block_it.clone())));
                }
            }
            continue;
        }
        let wanted = schema.blocks.iter().find(|(t, _)| *t == block.type_name);
        if wanted.is_some_and(|(_, labels)| labels.len() == block.labels.len()) {
            pending.push((block.type_name.as_str(), &block.body, it.cloned()));
        }
    }
    let children = spec.child_block_types();
    for (type_name, child, child_it) in pending {
        if let Some(child_spec) = children.get(type_name) {
            crate::stack::deeper(|| walk(child, child_spec, child_it.as_ref(), out));
        }
    }
}

/// The root name of an expression that is a traversal
/// (`hcl.AbsTraversalForExpr`): a bare one, not in parentheses or `"${}"`.
fn traversal_root(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::ScopeTraversal { root, .. } => Some(root),
        _ => None,
    }
}
