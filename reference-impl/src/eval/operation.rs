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
use crate::HclVersion;

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
                format!("The operand is not suitable: {message}."),
                operand.span,
            ));
            None
        }
    };
    let result_type = operators::unary_result_type(op);
    match value {
        Some(v) if !diags.has_errors() => call(function, &[v], result_type, diags, span),
        _ => (Value::Unknown(result_type), diags),
    }
}

/// Mirrors `hclsyntax.BinaryOpExpr.Value`, with HCL 2.24's short-circuit
/// for `&&` and `||` under that profile.
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
    let lhs_val = convert_operand(function, 0, given_lhs);

    // Source: hashicorp/hcl v2.24.0 hclsyntax/expression_ops.go
    // BinaryOpExpr.Value short-circuit. Both operands are still evaluated,
    // but when the left one is error-free, known and decides the result on
    // its own (false for &&, true for ||), that is the result and anything
    // wrong with the right operand is ignored.
    if ev.version() == HclVersion::V2_24 && !lhs_diags.has_errors() {
        let decisive = match op {
            BinaryOp::And => Some(false),
            BinaryOp::Or => Some(true),
            _ => None,
        };
        if let (Some(decisive), Ok(Value::Bool(b))) = (decisive, &lhs_val) {
            if *b == decisive {
                return (Value::Bool(*b), Diags::none());
            }
        }
    }

    let rhs_val = convert_operand(function, 1, given_rhs);
    let mut diags = lhs_diags;
    diags.append(rhs_diags);
    let lhs_val = lhs_val.map_err(|message| {
        diags.push(Error::eval(
            INVALID_OPERAND,
            format!("The left operand is not suitable: {message}."),
            lhs.span,
        ))
    });
    let rhs_val = rhs_val.map_err(|message| {
        diags.push(Error::eval(
            INVALID_OPERAND,
            format!("The right operand is not suitable: {message}."),
            rhs.span,
        ))
    });
    let result_type = operators::binary_result_type(op);
    match (lhs_val, rhs_val) {
        (Ok(l), Ok(r)) if !diags.has_errors() => call(function, &[l, r], result_type, diags, span),
        _ => (Value::Unknown(result_type), diags),
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
                format!("The operation could not be performed: {e}."),
                span,
            ));
            (Value::Unknown(result_type), diags)
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

    // HCL 2.24's documented short-circuit rule for `&&` and `||`.
    #[test]
    fn short_circuit_table() {
        check_table(
            &[
                ("false && ub", "OK bool false"),
                ("false && \"x\"", "OK bool false"),
                ("true || nope", "OK bool true"),
                ("\"false\" && nope", "OK bool false"),
                ("true && ub", "OK bool unknown(bool)"),
                ("nope || true", "ERR Unknown variable @ 1:1:0-1:5:4"),
                ("ub || nb", "ERR Operation failed @ 1:1:0-1:9:8"),
            ],
            HclVersion::V2_24,
        );
    }
}
