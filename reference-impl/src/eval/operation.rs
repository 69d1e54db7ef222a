//! Unary and binary operators (`hclsyntax.UnaryOpExpr` /
//! `BinaryOpExpr`): operands are converted to the operator function's
//! parameter types, then the function is called.

use super::{Diags, Evaluated, Evaluator};
use crate::ast::{BinaryOp, Expr, UnaryOp};
use crate::convert::convert;
use crate::error::{Error, Span};
use crate::functions::operators;
use crate::functions::Function;
use crate::types::Type;
use crate::value::Value;
use crate::Feature;

const INVALID_OPERAND: &str = "Invalid operand";
const OPERATION_FAILED: &str = "Operation failed";

/// Mirrors `hclsyntax.UnaryOpExpr.Value`.
pub(super) fn unary<'a>(
    ev: &mut Evaluator<'a>,
    op: UnaryOp,
    operand: &'a Expr,
    span: Span,
) -> Evaluated {
    let function = operators::unary(op);
    let (given, mut diags) = ev.eval(operand);
    let value = match convert_operand(function, 0, given) {
        Ok(v) => Some(v),
        Err(message) => {
            diags.push(Error::eval(
                INVALID_OPERAND,
                format!("Unsuitable value for unary operand: {message}."),
                operand.span,
            ));
            None
        }
    };
    let result_type = operators::unary_result_type(op);
    match value {
        Some(v) if !diags.has_errors() => call(function, &[v], result_type, diags, span),
        _ => (Value::unknown(result_type), diags),
    }
}

/// Mirrors `hclsyntax.BinaryOpExpr.Value` of the profile's HCL version.
pub(super) fn binary<'a>(
    ev: &mut Evaluator<'a>,
    op: BinaryOp,
    lhs: &'a Expr,
    rhs: &'a Expr,
    span: Span,
) -> Evaluated {
    let function = operators::binary(op);
    let (given_lhs, lhs_diags) = ev.eval(lhs);
    let (given_rhs, rhs_diags) = ev.eval(rhs);
    let lhs_val = convert_operand(function, 0, given_lhs).map_err(|message| {
        Error::eval(
            INVALID_OPERAND,
            format!("Unsuitable value for left operand: {message}."),
            lhs.span,
        )
    });
    let rhs_val = convert_operand(function, 1, given_rhs).map_err(|message| {
        Error::eval(
            INVALID_OPERAND,
            format!("Unsuitable value for right operand: {message}."),
            rhs.span,
        )
    });
    let result_type = operators::binary_result_type(op);
    let mut diags = Diags::none();

    if !ev.version().has(Feature::ShortCircuitLogic) {
        // The operands' own diagnostics come first, then the conversions'.
        diags.append(lhs_diags);
        diags.append(rhs_diags);
        let (l, r) = collect(lhs_val, rhs_val, &mut diags);
        return match (l, r) {
            (Some(l), Some(r)) if !diags.has_errors() => {
                call(function, &[l, r], result_type, diags, span)
            }
            _ => (Value::unknown(result_type), diags),
        };
    }

    // Source: hashicorp/hcl v2.24.0 hclsyntax/expression_ops.go
    // BinaryOpExpr.Value short-circuit. Conversion errors come first, ahead
    // of the operands' own diagnostics. Without them, `&&` and `||` may be
    // decided before the operator function runs, dropping the operands'
    // diagnostics (see `short_circuit`).
    let (l, r) = collect(lhs_val, rhs_val, &mut diags);
    let (Some(l), Some(r)) = (l, r) else {
        diags.append(lhs_diags);
        diags.append(rhs_diags);
        return (Value::unknown(result_type), diags);
    };
    // The operands' own marks go onto the result (the operator function
    // puts any marks inside them there too).
    let (l, l_marked) = l.unmark();
    let (r, r_marked) = r.unmark();
    let marked = l_marked || r_marked;
    let clean = (!lhs_diags.has_errors(), !rhs_diags.has_errors());
    if let Some((forced, side)) = short_circuit(op, (&l, clean.0), (&r, clean.1)) {
        let kept = match side {
            Side::Left => lhs_diags,
            Side::Right => rhs_diags,
        };
        return (forced.mark_if(marked), kept);
    }
    diags.append(lhs_diags);
    diags.append(rhs_diags);
    if diags.has_errors() {
        return (Value::unknown(result_type).mark_if(marked), diags);
    }
    let (result, diags) = call(function, &[l, r], result_type, diags, span);
    let marked = marked && !diags.has_errors();
    (result.mark_if(marked), diags)
}

/// Records the conversion errors, left first, and returns the converted
/// operands that succeeded.
fn collect(
    lhs: Result<Value, Error>,
    rhs: Result<Value, Error>,
    diags: &mut Diags,
) -> (Option<Value>, Option<Value>) {
    let mut ok = |r: Result<Value, Error>| match r {
        Ok(v) => Some(v),
        Err(e) => {
            diags.push(e);
            None
        }
    };
    let l = ok(lhs);
    let r = ok(rhs);
    (l, r)
}

/// Which operand's diagnostics a short-circuited `&&` or `||` keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

/// HCL 2.24's short-circuit for `&&` and `||`, on operands already
/// converted to bool, each with whether its evaluation was error-free; the
/// forced result and the side whose diagnostics go with it (errors
/// included), the other side's being dropped. In HCL's order: two unknowns
/// give an unknown when the left is error-free (and no short-circuit
/// otherwise); a known decisive operand decides, the left one first (for
/// `&&` a null counts as false, as cty's `Value.False` has it); an unknown
/// against a known operand that does not decide gives an unknown, with the
/// unknown side's diagnostics.
fn short_circuit(op: BinaryOp, lhs: (&Value, bool), rhs: (&Value, bool)) -> Option<(Value, Side)> {
    if !matches!(op, BinaryOp::And | BinaryOp::Or) {
        return None;
    }
    let decisive = |v: &Value| match op {
        BinaryOp::And => matches!(v, Value::Bool(false) | Value::Null(_)),
        _ => matches!(v, Value::Bool(true)),
    };
    let unknown = || Value::unknown(Type::Bool).refine_not_null();
    let ((l, l_clean), (r, _)) = (lhs, rhs);
    match (l.is_known(), r.is_known()) {
        (false, false) => l_clean.then(|| (unknown(), Side::Left)),
        _ if l.is_known() && decisive(l) => Some((Value::Bool(op == BinaryOp::Or), Side::Left)),
        _ if r.is_known() && decisive(r) => Some((Value::Bool(op == BinaryOp::Or), Side::Right)),
        (false, true) => Some((unknown(), Side::Left)),
        (true, false) => Some((unknown(), Side::Right)),
        (true, true) => None,
    }
}

/// Converts an operand to the type of the function's parameter `index`.
fn convert_operand(function: &Function, index: usize, value: Value) -> Result<Value, String> {
    let want = &function.params[index].ty;
    if *want == Type::Dynamic {
        return Ok(value);
    }
    convert(&value, want).map_err(|e| e.message)
}

fn call(
    function: &Function,
    args: &[Value],
    result_type: Type,
    mut diags: Diags,
    span: Span,
) -> Evaluated {
    match function.call(args) {
        Ok(v) => (v, diags),
        Err(e) => {
            diags.push(Error::eval(
                OPERATION_FAILED,
                format!("Error during operation: {e}."),
                span,
            ));
            (Value::unknown(result_type), diags)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::test_support::check_table;
    use crate::HclVersion;

    // Expected outcomes checked against hashicorp/hcl 2.14.1.
    #[test]
    fn operation_table() {
        check_table(
            &[
                ("\"1\" + 2", "OK number 3"),
                ("1 + \"a\"", "ERR Invalid operand @ 1:5:4-1:8:7"),
                ("nn + 1", "ERR Operation failed @ 1:1:0-1:7:6"),
                ("u + 1", "OK number unknown(number)"),
                ("0 / 0", "ERR Operation failed @ 1:1:0-1:6:5"),
                ("[1] == tolist([1])", "OK bool false"),
                ("ns == nn", "OK bool true"),
                ("us == \"a\"", "OK bool unknown(bool)"),
                ("false && ub", "OK bool unknown(bool)"),
                ("false && \"x\"", "ERR Invalid operand @ 1:10:9-1:13:12"),
                ("\"a\" && nope", "ERR Unknown variable @ 1:8:7-1:12:11"),
                ("!\"x\"", "ERR Invalid operand @ 1:2:1-1:5:4"),
            ],
            HclVersion::V2_14,
        );
    }

    // HCL 2.24's short-circuit rule, as the corpus records it from
    // hashicorp/hcl v2.24.0 (PR #713).
    #[test]
    fn short_circuit_table() {
        check_table(
            &[
                ("false && ub", "OK bool false"),
                ("ub && false", "OK bool false"),
                ("nope || true", "OK bool true"),
                ("null && true", "OK bool false"),
                ("ub || nb", "OK bool unknown(bool)"),
                ("ub && nope", "OK bool unknown(bool)"),
                ("nope && ub", "ERR Unknown variable @ 1:1:0-1:5:4"),
                ("true && nope", "ERR Unknown variable @ 1:9:8-1:13:12"),
                (
                    "[false, nope][0] && true",
                    "ERR Unknown variable @ 1:9:8-1:13:12",
                ),
                ("false && \"x\"", "ERR Invalid operand @ 1:10:9-1:13:12"),
                ("true || [nope]", "ERR Invalid operand @ 1:9:8-1:15:14"),
                ("nb || nb", "ERR Operation failed @ 1:1:0-1:9:8"),
            ],
            HclVersion::V2_24,
        );
    }
}
