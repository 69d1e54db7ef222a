//! `cond ? a : b` (`hclsyntax.ConditionalExpr`).
//!
//! HCL 2.14 evaluates both results before the condition, unifies their
//! types, and reports only the taken branch's diagnostics. HCL 2.24 keeps
//! that and answers an unknown condition between two nulls with a null.

use super::{Diags, Evaluated, Evaluator};
use crate::ast::Expr;
use crate::convert::unify_with_conversions;
use crate::convert::{convert, get_conversion_unsafe, Conversion};
use crate::error::{Error, Span};
use crate::goquote::go_quote;
use crate::types::Type;
use std::cmp::Ordering;

use crate::number::Number;
use crate::value::Value;
use crate::Feature;

const INCONSISTENT_TYPES: &str = "Inconsistent conditional result types";

/// Mirrors `hclsyntax.ConditionalExpr.Value`.
pub(super) fn conditional<'a>(
    ev: &mut Evaluator<'a>,
    condition: &'a Expr,
    true_expr: &'a Expr,
    false_expr: &'a Expr,
    _span: Span,
) -> Evaluated {
    let (true_val, true_diags) = ev.eval(true_expr);
    let (false_val, false_diags) = ev.eval(false_expr);

    // A literal `null` result takes the other result's type; a result of
    // unknown type leaves the result type unknown. Otherwise the results
    // unify, and unify's own conversions are applied later: they can fail
    // where a direct conversion to the unified type would not.
    let true_ty = true_val.ty();
    let false_ty = false_val.ty();
    let (result_ty, convs): (Type, [Option<Conversion>; 2]) = if is_dynamic_null(&true_val) {
        let conv = get_conversion_unsafe(&Type::Dynamic, &false_ty);
        (false_ty, [conv, None])
    } else if is_dynamic_null(&false_val) {
        let conv = get_conversion_unsafe(&Type::Dynamic, &true_ty);
        (true_ty, [None, conv])
    } else if true_ty == Type::Dynamic || false_ty == Type::Dynamic {
        (Type::Dynamic, [None, None])
    } else {
        match unify_with_conversions(&[true_ty.clone(), false_ty.clone()], true) {
            Some((ty, mut convs)) if convs.len() == 2 => {
                let false_conv = convs.pop().flatten();
                let true_conv = convs.pop().flatten();
                (ty, [true_conv, false_conv])
            }
            _ => {
                let error = Error::eval(
                    INCONSISTENT_TYPES,
                    format!(
                        "The true and false result expressions must have consistent types. {}.",
                        describe_mismatch(&true_ty, &false_ty)
                    ),
                    true_expr.span.to(false_expr.span),
                );
                return (Value::dynamic_unknown(), Diags::error(error));
            }
        }
    };

    let (cond, mut diags) = ev.eval(condition);
    if cond.is_null() {
        diags.push(Error::eval(
            "Null condition",
            "The condition value is null. Conditions must either be true or false.",
            condition.span,
        ));
        return (Value::unknown(result_ty), diags);
    }
    // The own marks of the condition and of both results go onto the
    // result, whichever is taken (HCL 2.21; before, for a known condition,
    // the taken result's own only).
    let (cond, cond_marked) = cond.unmark();
    let (true_val, true_marked) = true_val.unmark();
    let (false_val, false_marked) = false_val.unmark();
    let marked = cond_marked || true_marked || false_marked;
    if !cond.is_known() {
        // HCL 2.24: two null results make a null whatever the condition.
        if ev.version().has(Feature::UnknownConditionOfNulls)
            && true_val.is_null()
            && false_val.is_null()
        {
            return (Value::Null(result_ty).mark_if(marked), diags);
        }
        return (
            either_result(&true_val, &false_val, result_ty).mark_if(marked),
            diags,
        );
    }
    let cond = match convert(&cond, &Type::Bool) {
        Ok(Value::Bool(b)) => b,
        Ok(_) => return (Value::unknown(result_ty), diags),
        Err(_) => {
            diags.push(Error::eval(
                "Incorrect condition type",
                "The condition expression must be of type bool.",
                condition.span,
            ));
            return (Value::unknown(result_ty), diags);
        }
    };

    let [true_conv, false_conv] = convs;
    // Before HCL 2.21, only the taken result's own marks.
    let marked = if ev.version().has(Feature::ConditionalMarks) {
        marked
    } else if cond {
        true_marked
    } else {
        false_marked
    };
    let (value, branch_diags, conv, branch, which) = if cond {
        (true_val, true_diags, true_conv, true_expr, "true")
    } else {
        (false_val, false_diags, false_conv, false_expr, "false")
    };
    diags.append(branch_diags);
    let Some(conv) = conv else {
        return (value.mark_if(marked), diags);
    };
    match conv.apply(&value) {
        Ok(v) => (v.mark_if(marked), diags),
        Err(e) => {
            diags.push(Error::eval(
                INCONSISTENT_TYPES,
                format!(
                    "The {which} result value has the wrong type: {}.",
                    e.message
                ),
                branch.span,
            ));
            (Value::unknown(result_ty).mark_if(marked), diags)
        }
    }
}

/// The unknown result of an unknown condition, refined (HCL 2.17+) with
/// what both results share: not null if neither can be null; for two
/// numbers, bounds that cover both ranges; for two collections of the same
/// type, length bounds that cover both. Mirrors the unknown-condition case
/// of `hclsyntax.ConditionalExpr.Value`.
fn either_result(true_val: &Value, false_val: &Value, result_ty: Type) -> Value {
    let (t, f) = (true_val.range(), false_val.range());
    let mut result = Value::unknown(result_ty).refine();
    if t.definitely_not_null() && f.definitely_not_null() {
        result = result.not_null();
    }
    let (true_ty, false_ty) = (true_val.ty(), false_val.ty());
    if true_ty == Type::Number && false_ty == Type::Number {
        // The lower of the lower bounds (inclusive if either is, when they
        // are equal), and the higher of the upper ones.
        let lower = wider_bound(&t.lower, &f.lower, Ordering::Less);
        let upper = wider_bound(&t.upper, &f.upper, Ordering::Greater);
        return result
            .number_lower_bound(Some(lower))
            .number_upper_bound(Some(upper))
            .finish();
    }
    if true_ty.is_collection() && true_ty == false_ty {
        return result
            .collection_length_lower_bound(t.min_length.min(f.min_length))
            .collection_length_upper_bound(t.max_length.max(f.max_length))
            .finish();
    }
    result.finish()
}

/// Of the true result's bound and the false one's, the one further in the
/// direction `wider`; equal bounds are inclusive if either is.
fn wider_bound(t: &(Number, bool), f: &(Number, bool), wider: Ordering) -> (Number, bool) {
    if t.0.cmp(&f.0) == wider {
        t.clone()
    } else if t.0.cty_equals(&f.0) {
        (f.0.clone(), t.1 || f.1)
    } else {
        f.clone()
    }
}

/// `cty.NullVal(cty.DynamicPseudoType)`, which a literal `null` produces.
fn is_dynamic_null(value: &Value) -> bool {
    matches!(value, Value::Null(Type::Dynamic))
}

/// Why two result types do not unify, looking inside structural types of
/// the same kind (`hclsyntax.describeConditionalTypeMismatch`).
fn describe_mismatch(true_ty: &Type, false_ty: &Type) -> String {
    match (true_ty, false_ty) {
        (Type::Object(t), Type::Object(f)) => {
            // Attribute names in sorted order, as HCL sorts them.
            for (name, t_attr) in t {
                match f.get(name) {
                    None => {
                        return format!(
                            "The 'true' value includes object attribute {}, which is absent in the 'false' value",
                            go_quote(name)
                        )
                    }
                    Some(f_attr) if f_attr != t_attr => {
                        return format!(
                            "Type mismatch for object attribute {}: {}",
                            go_quote(name),
                            describe_mismatch(t_attr, f_attr)
                        )
                    }
                    Some(_) => {}
                }
            }
            if let Some(name) = f.keys().find(|k| !t.contains_key(*k)) {
                return format!(
                    "The 'false' value includes object attribute {}, which is absent in the 'true' value",
                    go_quote(name)
                );
            }
        }
        (Type::Tuple(t), Type::Tuple(f)) => {
            if t.len() != f.len() {
                return format!(
                    "The 'true' tuple has length {}, but the 'false' tuple has length {}",
                    t.len(),
                    f.len()
                );
            }
            if let Some((i, (te, fe))) = t.iter().zip(f).enumerate().find(|(_, (a, b))| a != b) {
                return format!(
                    "Type mismatch for tuple element {i}: {}",
                    describe_mismatch(te, fe)
                );
            }
        }
        (Type::List(te), Type::List(fe))
        | (Type::Set(te), Type::Set(fe))
        | (Type::Map(te), Type::Map(fe))
            if (te.is_object() && fe.is_object()) || (te.is_tuple() && fe.is_tuple()) =>
        {
            let noun = match true_ty {
                Type::List(_) => "list",
                Type::Set(_) => "set",
                _ => "map",
            };
            return format!(
                "Mismatched {noun} element types: {}",
                describe_mismatch(te, fe)
            );
        }
        _ => {}
    }
    let (t, f) = (true_ty.friendly_name(), false_ty.friendly_name());
    if t == f {
        "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value".to_string()
    } else {
        format!("The 'true' value is {t}, but the 'false' value is {f}")
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::test_support::check_table;
    use crate::HclVersion;

    // Expected outcomes checked against hashicorp/hcl 2.14.1.
    #[test]
    fn conditional_table() {
        check_table(
            &[
                ("true ? 12 : \"hello\"", "OK string \"12\""),
                ("false ? \"five\" : 1", "OK string \"1\""),
                ("true ? null : 1", "OK number null(number)"),
                (
                    "ub ? [1] : [\"a\"]",
                    "OK tuple([string]) unknown(tuple([string]))",
                ),
                (
                    "true ? o : m",
                    "ERR Inconsistent conditional result types @ 1:8:7-1:13:12",
                ),
                ("nb ? 1 : 2", "ERR Null condition @ 1:1:0-1:3:2"),
                (
                    "\"x\" ? 1 : 2",
                    "ERR Incorrect condition type @ 1:1:0-1:4:3",
                ),
                ("true ? 1 : nope", "OK number 1"),
                ("false ? 1 : nope", "ERR Unknown variable @ 1:13:12-1:17:16"),
                ("ub ? nope : 1", "OK dynamic unknown(dynamic)"),
                (
                    "true ? [[], [\"\"]] : tolist([])",
                    "ERR Inconsistent conditional result types @ 1:8:7-1:18:17",
                ),
                (
                    "false ? [[], [\"\"]] : tolist([])",
                    "OK list(dynamic) list<dynamic>[]",
                ),
            ],
            HclVersion::V2_14,
        );
    }

    // Checked against Terraform 1.15.5 (HCL 2.24.0).
    #[test]
    fn conditional_table_2_24() {
        check_table(
            &[
                ("ub ? null : null", "OK dynamic null(dynamic)"),
                (
                    "ub ? tolist(nul) : null",
                    "OK list(dynamic) null(list(dynamic))",
                ),
                ("ub ? 1 : null", "OK number unknown(number)"),
            ],
            HclVersion::V2_24,
        );
    }
}
