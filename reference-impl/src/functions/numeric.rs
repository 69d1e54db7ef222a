//! The numeric functions: `abs`, `ceil`, `floor`, `log`, `pow`, `signum`
//! and `parseint`, all cty stdlib functions that Terraform uses unchanged.
//! (`max` and `min` live with the core functions.)

use num_bigint::{BigInt, BigUint, Sign};

use super::{static_return_type, CallError, Function, Param};
use crate::functions::marks::Policy;
use crate::number::{MathFnError, Number};
use crate::types::Type;
use crate::value::Value;

/// Every function defined here.
pub(super) fn functions() -> Vec<Function> {
    vec![
        abs(),
        rounding("ceil", false),
        rounding("floor", true),
        math("log", "base", Number::log),
        math("pow", "power", Number::pow),
        signum(),
        parseint(),
    ]
}

/// The message cty's function layer gives a recovered `big.ErrNaN` panic
/// from `cty.NumberFloatVal` (without the stack trace cty appends).
pub(crate) const NAN_PANIC: &str = "Float.SetFloat64(NaN)";

const BASE_RANGE: &str = "base must be a whole number between 2 and 62 inclusive";

/// cty's `abs`. Mirrors `stdlib.AbsoluteFunc`.
fn abs() -> Function {
    Function {
        name: "abs",
        params: vec![Param::new("num", Type::Number)
            .allow_dynamic_type()
            .marks(Policy::Own)],
        var_param: None,
        return_type: static_return_type(Type::Number),
        implementation: Box::new(|args, _| match &args[0] {
            Value::Number(n) => Ok(Value::number(n.abs())),
            _ => Ok(Value::unknown(Type::Number)),
        }),
    }
}

/// cty's `ceil` / `floor`. Mirrors `stdlib.CeilFunc` / `stdlib.FloorFunc`.
fn rounding(name: &'static str, down: bool) -> Function {
    Function {
        name,
        params: vec![Param::new("num", Type::Number)],
        var_param: None,
        return_type: static_return_type(Type::Number),
        implementation: Box::new(move |args, _| {
            let n = number(&args[0]);
            Ok(Value::number(if down { n.floor() } else { n.ceil() }))
        }),
    }
}

/// cty's `log` and `pow`: float64 arithmetic through Go's `math`.
/// Mirrors `stdlib.LogFunc` / `stdlib.PowFunc`.
fn math(
    name: &'static str,
    second: &'static str,
    op: fn(&Number, &Number) -> Result<Number, MathFnError>,
) -> Function {
    Function {
        name,
        params: vec![
            Param::new("num", Type::Number),
            Param::new(second, Type::Number),
        ],
        var_param: None,
        return_type: static_return_type(Type::Number),
        implementation: Box::new(
            move |args, _| match op(number(&args[0]), number(&args[1])) {
                Ok(n) => Ok(Value::number(n)),
                Err(MathFnError::OutOfRange(_)) => Err(CallError::general(float64_range())),
                Err(MathFnError::NotANumber) => Err(CallError::panicked(NAN_PANIC)),
            },
        ),
    }
}

/// cty's `signum`: the number must convert to a Go `int`.
/// Mirrors `stdlib.SignumFunc`.
fn signum() -> Function {
    Function {
        name: "signum",
        params: vec![Param::new("num", Type::Number)],
        var_param: None,
        return_type: static_return_type(Type::Number),
        implementation: Box::new(|args, _| {
            let n = to_go_int(number(&args[0])).map_err(CallError::general)?;
            Ok(Value::int(n.signum()))
        }),
    }
}

/// cty's `parseint`: `big.Int.SetString` in bases 2 to 62.
/// Mirrors `stdlib.ParseIntFunc`.
fn parseint() -> Function {
    Function {
        name: "parseint",
        params: vec![
            Param::new("number", Type::Dynamic),
            Param::new("base", Type::Number),
        ],
        var_param: None,
        return_type: Box::new(|args| {
            let ty = args[0].ty();
            if ty != Type::String {
                return Err(CallError::arg(
                    0,
                    format!(
                        "first argument must be a string, not {}",
                        ty.friendly_name()
                    ),
                ));
            }
            Ok(Type::Number)
        }),
        implementation: Box::new(|args, _| {
            let Value::String(text) = &args[0] else {
                return Ok(Value::unknown(Type::Number));
            };
            let base = to_go_int(number(&args[1])).map_err(|m| CallError::arg(1, m))?;
            if !(2..=62).contains(&base) {
                return Err(CallError::arg(1, BASE_RANGE));
            }
            match parse_big_int(text, base as u32) {
                Some(i) => Ok(Value::number(Number::from_big_int(&i))),
                None => Err(CallError::arg(
                    0,
                    format!(
                        "cannot parse {} as a base {base} integer",
                        crate::goquote::go_quote(text)
                    ),
                )),
            }
        }),
    }
}

/// The number inside a known number argument (`Function::call` passes only
/// known, non-null arguments to these implementations).
fn number(v: &Value) -> &Number {
    static ZERO: std::sync::OnceLock<Number> = std::sync::OnceLock::new();
    v.as_number()
        .unwrap_or_else(|| ZERO.get_or_init(Number::zero))
}

/// gocty's conversion of a number to a Go `int` (64 bits): exact integers
/// in range only.
pub(crate) fn to_go_int(n: &Number) -> Result<i64, String> {
    n.to_i64_exact().ok_or_else(|| {
        format!(
            "value must be a whole number, between {} and {}",
            i64::MIN,
            i64::MAX
        )
    })
}

/// gocty's message for a number beyond the float64 range: both bounds
/// printed with Go's `%f`, which writes every digit of the exact value.
fn float64_range() -> String {
    format!(
        "value must be between {:.6} and {:.6} inclusive",
        -f64::MAX,
        f64::MAX
    )
}

/// `big.Int.SetString(s, base)` for a base from 2 to 62: an optional sign,
/// then at least one digit, nothing else. Up to base 36 letters of either
/// case are digits 10 to 35; above it lower case letters are 10 to 35 and
/// upper case 36 to 61.
fn parse_big_int(s: &str, base: u32) -> Option<BigInt> {
    let (sign, digits) = match s.as_bytes().first() {
        Some(b'-') => (Sign::Minus, &s[1..]),
        Some(b'+') => (Sign::Plus, &s[1..]),
        _ => (Sign::Plus, s),
    };
    if digits.is_empty() {
        return None;
    }
    let values = digits
        .bytes()
        .map(|b| {
            let d = match b {
                b'0'..=b'9' => u32::from(b - b'0'),
                b'a'..=b'z' => u32::from(b - b'a') + 10,
                b'A'..=b'Z' if base <= 36 => u32::from(b - b'A') + 10,
                b'A'..=b'Z' => u32::from(b - b'A') + 36,
                _ => return None,
            };
            (d < base).then_some(d as u8)
        })
        .collect::<Option<Vec<u8>>>()?;
    let magnitude = BigUint::from_radix_be(&values, base)?;
    Some(BigInt::from_biguint(sign, magnitude))
}

#[cfg(test)]
mod tests {
    use super::super::string::test_eval::check;

    // Expected outcomes checked against go-cty 1.12.1 through HCL 2.14.
    #[test]
    fn numeric_functions() {
        check(&[
            ("abs(-1.5)", "1.5"),
            ("abs(-0)", "0"),
            ("ceil(-0.5)", "0"),
            ("floor(-0.5)", "-1"),
            ("floor(1e30 + 0.5)", "1000000000000000000000000000000"),
            ("log(8, 2)", "3"),
            ("log(-1, 10)", "error: panic in function implementation: Float.SetFloat64(NaN)"),
            ("pow(2, 10)", "1024"),
            ("pow(2, -1)", "0.5"),
            ("signum(-3)", "-1"),
            ("signum(-0)", "0"),
            ("signum(1.5)", "error: value must be a whole number, between -9223372036854775808 and 9223372036854775807"),
            ("parseint(\"-ff\", 16)", "-255"),
            ("parseint(\"+Zz\", 62)", "3817"),
            ("parseint(\"zZ\", 36)", "1295"),
            ("parseint(\"0x1f\", 16)", "arg 0: cannot parse \"0x1f\" as a base 16 integer"),
            ("parseint(\"1_000\", 10)", "arg 0: cannot parse \"1_000\" as a base 10 integer"),
            ("parseint(\"1\", 63)", "arg 1: base must be a whole number between 2 and 62 inclusive"),
            ("parseint(12, 10)", "arg 0: first argument must be a string, not number"),
            ("parseint(\"-\", 10)", "arg 0: cannot parse \"-\" as a base 10 integer"),
        ]);
    }
}
