//! Tuple and object constructors (`hclsyntax.TupleConsExpr`,
//! `ObjectConsExpr` and its key wrapper `ObjectConsKeyExpr`).

use std::collections::BTreeMap;

use super::{Diags, Evaluated, Evaluator};
use crate::ast::{ExprKind, ObjectItem, ObjectKey};
use crate::convert::convert;
use crate::error::Error;
use crate::types::Type;
use crate::value::Value;

/// Mirrors `hclsyntax.TupleConsExpr.Value`.
pub(super) fn tuple_cons<'a>(ev: &mut Evaluator<'a>, items: &'a [crate::ast::Expr]) -> Evaluated {
    let mut diags = Diags::none();
    let mut vals = Vec::with_capacity(items.len());
    for item in items {
        let (v, d) = ev.eval(item);
        diags.append(d);
        vals.push(v);
    }
    (Value::tuple(vals), diags)
}

/// Mirrors `hclsyntax.ObjectConsExpr.Value`: a key that is unknown or
/// fails makes the whole object unknown; a repeated key takes the later
/// value.
pub(super) fn object_cons<'a>(ev: &mut Evaluator<'a>, items: &'a [ObjectItem]) -> Evaluated {
    let mut diags = Diags::none();
    let mut vals = BTreeMap::new();
    let mut known = true;
    let mut marked = false;
    for item in items {
        let (key, key_diags) = object_key(ev, &item.key);
        let key_failed = key_diags.has_errors();
        diags.append(key_diags);
        let (value, value_diags) = ev.eval(&item.value);
        diags.append(value_diags);
        if key_failed {
            known = false;
            continue;
        }
        if key.is_null() {
            diags.push(Error::eval(
                "Null value as key",
                "Can't use a null value as a key.",
                item.value.span,
            ));
            known = false;
            continue;
        }
        // A key's mark goes onto the whole object.
        let (key, key_marked) = key.unmark();
        marked |= key_marked;
        match convert(&key, &Type::String) {
            Ok(Value::String(k)) => {
                vals.insert(k, value);
            }
            Ok(_) => known = false,
            Err(e) => {
                diags.push(Error::eval(
                    "Incorrect key type",
                    format!("Can't use this value as a key: {}.", e.message),
                    item.key.expr.span,
                ));
                known = false;
            }
        }
    }
    if !known {
        return (Value::dynamic_unknown(), diags);
    }
    (Value::object(vals).mark_if(marked), diags)
}

/// Mirrors `hclsyntax.ObjectConsKeyExpr.Value`: a bare name (or `null`,
/// `true`, `false`) is the key itself, a bare dotted reference is rejected
/// as ambiguous, anything else is evaluated.
fn object_key<'a>(ev: &mut Evaluator<'a>, key: &'a ObjectKey) -> Evaluated {
    if !key.force_non_literal {
        match &key.expr.kind {
            ExprKind::ScopeTraversal { steps, .. } if !steps.is_empty() => {
                let error = Error::eval(
                    "Ambiguous attribute key",
                    "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                    key.expr.span,
                );
                return (Value::dynamic_unknown(), Diags::error(error));
            }
            ExprKind::ScopeTraversal { root, .. } => {
                return (Value::string(root.as_str()), Diags::none())
            }
            ExprKind::Literal(Value::Null(_)) => return (Value::string("null"), Diags::none()),
            ExprKind::Literal(Value::Bool(b)) => {
                return (
                    Value::string(if *b { "true" } else { "false" }),
                    Diags::none(),
                )
            }
            _ => {}
        }
    }
    ev.eval(&key.expr)
}

#[cfg(test)]
mod tests {
    use crate::eval::test_support::check_table;
    use crate::HclVersion;

    // Expected outcomes checked against hashicorp/hcl 2.14.1.
    #[test]
    fn constructor_table() {
        check_table(
            &[
                (
                    "[u, us, null]",
                    "OK tuple([dynamic,string,dynamic]) tuple[unknown(dynamic), unknown(string), null(dynamic)]",
                ),
                ("{a = 1, \"a\" = 2}", "OK object({\"a\"=number}) object{\"a\": 2}"),
                (
                    "{true = 1, null = 2}",
                    "OK object({\"null\"=number,\"true\"=number}) object{\"null\": 2, \"true\": 1}",
                ),
                ("{a.b = 1}", "ERR Ambiguous attribute key @ 1:2:1-1:5:4"),
                ("{(null) = 1}", "ERR Null value as key @ 1:11:10-1:12:11"),
                ("{(l) = 1}", "ERR Incorrect key type @ 1:2:1-1:5:4"),
                ("{(us) = 1}", "OK dynamic unknown(dynamic)"),
                ("{(nul) = nope}", "ERR Unknown variable @ 1:10:9-1:14:13"),
            ],
            HclVersion::V2_14,
        );
    }
}
