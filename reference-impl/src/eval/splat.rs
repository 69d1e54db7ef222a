//! `source[*].each` and `source.*.each` (`hclsyntax.SplatExpr`).

use super::{Diags, Evaluated, Evaluator};
use crate::ast::{Expr, ExprKind};
use crate::error::{Error, Span};
use crate::goquote::go_syntax_type;
use crate::types::Type;
use crate::value::{element_type, Value};
use crate::Feature;

/// Mirrors `hclsyntax.SplatExpr.Value`.
pub(super) fn splat<'a>(ev: &mut Evaluator<'a>, source: &'a Expr, each: &'a Expr) -> Evaluated {
    let (source_val, mut diags) = ev.eval(source);
    if diags.has_errors() {
        return (Value::dynamic_unknown(), diags);
    }
    let source_ty = source_val.ty();
    // Anything but a sequence is treated as a one-element tuple, or an
    // empty tuple when null.
    let auto_upgrade = !matches!(source_ty, Type::Tuple(_) | Type::List(_) | Type::Set(_));
    // The source's own mark goes onto the result; an upgraded source keeps
    // it inside the one-element tuple too.
    // Before HCL 2.21, a source that is not a sequence lent no mark to the
    // tuple around it.
    let marked = source_val.is_marked()
        && (!auto_upgrade || ev.version().has(Feature::SplatMarksUpgradedSource));
    if source_val.is_null() {
        if auto_upgrade {
            return (Value::tuple(Vec::new()).mark_if(marked), diags);
        }
        diags.push(Error::eval(
            "Splat of null value",
            "Splat expressions (with the * symbol) cannot be applied to null sequences.",
            source.span,
        ));
        return (Value::dynamic_unknown(), diags);
    }
    if source_ty == Type::Dynamic {
        return (Value::dynamic_unknown().mark_if(marked), diags);
    }

    // An unknown value upgraded to a tuple still has its `each` expression
    // checked, but the result stays unknown: it might turn out null. One
    // refined as not null (HCL 2.17+) is upgraded as a known value is.
    let upgraded_unknown =
        auto_upgrade && !source_val.is_known() && !source_val.definitely_not_null();
    let (source_val, source_ty) = if auto_upgrade {
        (Value::tuple(vec![source_val]), Type::Tuple(vec![source_ty]))
    } else {
        (source_val.unmark().0, source_ty)
    };

    if !source_val.is_known() {
        let (ty, ty_diags) = result_type(ev, each, &source_ty);
        diags.append(ty_diags);
        return (unknown_result(&source_val, ty).mark_if(marked), diags);
    }

    let elements = source_val.elements();
    drop(source_val);
    let mut vals = Vec::with_capacity(elements.len());
    let mut is_known = true;
    let saved = ev.anon.take();
    for (_, item) in elements {
        ev.anon = Some(item);
        let (v, item_diags) = ev.eval(each);
        if item_diags.has_errors() {
            is_known = false;
        }
        diags.append(item_diags);
        vals.push(v);
    }
    ev.anon = saved;

    if upgraded_unknown {
        return (Value::dynamic_unknown().mark_if(marked), diags);
    }
    if !is_known {
        let (ty, _) = result_type(ev, each, &source_ty);
        return (Value::unknown(ty).mark_if(marked), diags);
    }
    match source_ty {
        Type::List(_) | Type::Set(_) => {
            if vals.is_empty() {
                let (ty, ty_diags) = result_type(ev, each, &source_ty);
                diags.append(ty_diags);
                let elem = ty.element_type().cloned().unwrap_or(Type::Dynamic);
                return (Value::list(elem, Vec::new()).mark_if(marked), diags);
            }
            // As `cty.ListVal`: results of the dynamic type (an unknown or
            // null of unknown type) take the others' element type. A
            // nested splat can give results of different types (`[]` for
            // a null element, a one-element tuple for another).
            let (first, other) = match element_type(&vals) {
                Ok(elem) => return (Value::list(elem, vals).mark_if(marked), diags),
                Err(types) => types,
            };
            let version = ev.version();
            if version.has(Feature::NestedSplatTypesChecked) {
                diags.push(Error::eval(
                    "Invalid nested splat expressions",
                    "The second level of splat expression produced elements of different types, so it isn't possible to construct a valid list to represent the top-level result.\n\nConsider using a for expression instead, to produce a tuple-typed result which can therefore have non-homogenous element types.",
                    each.span,
                ));
            } else if let Some(release) = version.terraform() {
                // `cty.ListVal` panics, and the process ends.
                diags.push(Error::crash(
                    release.release(),
                    format!(
                        "panic: inconsistent list element types ({} then {})",
                        go_syntax_type(&first),
                        go_syntax_type(&other)
                    ),
                    each.span,
                ));
            } else {
                // HCL 2.14.1 panics too; the reference answers an error.
                diags.push(Error::eval(
                    "Inconsistent list element types",
                    "The splat results do not all have the same type.",
                    each.span,
                ));
            }
            (Value::dynamic_unknown(), diags)
        }
        _ => (Value::tuple(vals).mark_if(marked), diags),
    }
}

/// The type the result would have, found by evaluating `each` on unknown
/// elements of the source's element types.
fn result_type<'a>(ev: &mut Evaluator<'a>, each: &'a Expr, source_ty: &Type) -> (Type, Diags) {
    let saved = ev.anon.take();
    let mut diags = Diags::none();
    let ty = match source_ty {
        Type::List(elem) | Type::Set(elem) => {
            ev.anon = Some(Value::unknown((**elem).clone()));
            let (v, d) = ev.eval(each);
            diags.append(d);
            Type::list(v.ty())
        }
        Type::Tuple(elems) => {
            let mut tys = Vec::with_capacity(elems.len());
            for elem in elems {
                ev.anon = Some(Value::unknown(elem.clone()));
                let (v, d) = ev.eval(each);
                diags.append(d);
                tys.push(v.ty());
            }
            Type::Tuple(tys)
        }
        _ => Type::Dynamic,
    };
    ev.anon = saved;
    (ty, diags)
}

/// The range of the splat marker (`[*]` or `.*`), which the parser gives to
/// the placeholder at the root of `each`.
pub(super) fn marker_span(each: &Expr) -> Option<Span> {
    let mut expr = each;
    loop {
        expr = match &expr.kind {
            ExprKind::AnonSymbol => return Some(expr.span),
            ExprKind::RelativeTraversal { source, .. } => source,
            ExprKind::Index { collection, .. } => collection,
            ExprKind::Splat { source, .. } => source,
            _ => return None,
        };
    }
}

/// The result of a splat over an unknown collection (HCL 2.17+): not null
/// (unless of the dynamic pseudo-type), and a list as long as the source
/// collection can be. Mirrors the unknown-source case of
/// `hclsyntax.SplatExpr.Value`.
fn unknown_result(source: &Value, ty: Type) -> Value {
    let is_list = matches!(ty, Type::List(_));
    let mut result = Value::unknown(ty).refine().not_null();
    if is_list && source.ty().is_collection() {
        let range = source.range();
        result = result
            .collection_length_lower_bound(range.min_length)
            .collection_length_upper_bound(range.max_length);
    }
    result.finish()
}

#[cfg(test)]
mod tests {
    use crate::eval::test_support::check_table;
    use crate::HclVersion;

    // Expected outcomes checked against hashicorp/hcl 2.14.1.
    #[test]
    fn splat_table() {
        check_table(
            &[
                ("so[*].a", "OK list(number) list<number>[1, 2]"),
                ("to[*].a", "OK tuple([number,string]) tuple[1, \"s\"]"),
                ("o.*.a", "OK tuple([number]) tuple[1]"),
                ("nul[*].a", "OK tuple([]) tuple[]"),
                ("nl[*]", "ERR Splat of null value @ 1:1:0-1:3:2"),
                ("ulo[*].a", "OK list(number) unknown(list(number))"),
                ("uo[*].a", "OK dynamic unknown(dynamic)"),
                ("elo[*].c", "ERR Unsupported attribute @ 1:7:6-1:9:8"),
                ("lo.*.a[1]", "OK number 2"),
                ("lo[*].a[1]", "ERR Invalid index @ 1:8:7-1:11:10"),
            ],
            HclVersion::V2_14,
        );
    }
}
