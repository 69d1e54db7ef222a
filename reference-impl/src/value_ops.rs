//! cty's operations on values (`value_ops.go`): equality, arithmetic,
//! comparison and logic, each handling unknown operands as cty does.
//!
//! These are the implementations behind HCL's operator functions
//! (`stdlib.AddFunc`, ...). The function-call layer converts the operands to
//! the parameter types, rejects null operands ("argument must not be null")
//! and answers unknown operands with an unknown result before calling them;
//! `equals` alone accepts nulls and unknowns. The arithmetic methods report
//! the message the stdlib function's panic handler gives when `big.Float`
//! has no result (e.g. "can't divide zero by zero or infinity by
//! infinity").

use std::cmp::Ordering;

use crate::number::{NotANumber, Number};
use crate::types::Type;
use crate::value::{set_hash, Value};

/// Why an operation has no result. The message is user-facing, e.g. "can't
/// divide zero by zero or infinity by infinity".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpError(pub String);

/// `stdlib.AddFunc`'s message for a NaN result.
pub const ADD_NAN: &str = "can't compute sum of opposing infinities";
/// `stdlib.SubtractFunc`'s message for a NaN result.
pub const SUBTRACT_NAN: &str = "can't subtract infinity from itself";
/// `stdlib.MultiplyFunc`'s message for a NaN result.
pub const MULTIPLY_NAN: &str = "can't multiply zero by infinity";
/// `stdlib.DivideFunc`'s message for a NaN result.
pub const DIVIDE_NAN: &str = "can't divide zero by zero or infinity by infinity";
/// `stdlib.ModuloFunc`'s message for a NaN result.
pub const MODULO_NAN: &str = "can't use modulo with zero and infinity";
/// What an operation reports for a null operand (cty itself panics; the
/// function layer rejects nulls first with this same text).
pub const NULL_OPERAND: &str = "argument must not be null";

impl Value {
    /// `cty.Value.Equals`: a bool, or an unknown bool. Nulls are equal to
    /// each other whatever their types. Object attributes and map elements
    /// are compared in key order (Go visits them in random order, which
    /// only matters when one pair is unknown and another unequal).
    pub fn equals(&self, other: &Value) -> Value {
        self.equals_typed(other, false)
    }

    /// `equals`, told whether the two values are known to have the same,
    /// wholly known type (the elements of two such values have): then the
    /// types are not compared again, which would cost time in proportion
    /// to the depth at every level of a deep value.
    fn equals_typed(&self, other: &Value, same_known_type: bool) -> Value {
        let unknown = Value::Unknown(Type::Bool);
        match (self.is_known(), other.is_known()) {
            (false, false) => return unknown,
            (true, false) | (false, true) => {
                let (known, unk) = if self.is_known() {
                    (self, other)
                } else {
                    (other, self)
                };
                let unk_ty = unk.ty();
                if known.is_null() || unk_ty.has_dynamic_types() {
                    return unknown;
                }
                if known.ty() != unk_ty {
                    return Value::Bool(false);
                }
                return unknown;
            }
            (true, true) => {}
        }
        match (self.is_null(), other.is_null()) {
            (true, true) => return Value::Bool(true),
            (true, false) | (false, true) => return Value::Bool(false),
            (false, false) => {}
        }
        // The types are compared, then let go before the elements are:
        // held during the recursion, every level's type would be alive at
        // once, quadratic in the depth of the value.
        if !same_known_type {
            let (lt, rt) = (self.ty(), other.ty());
            if !self.has_wholly_known_type() || !other.has_wholly_known_type() {
                if !lt.conforms_to(&rt) && !rt.conforms_to(&lt) {
                    return Value::Bool(false);
                }
                return unknown;
            }
            if lt != rt {
                return Value::Bool(false);
            }
        }
        Value::Bool(match (self, other) {
            (Value::Number(a), Value::Number(b)) => a.cty_equals(b),
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => {
                match all_equal(a.iter().map(|(k, x)| (x, b.get(k)))) {
                    Some(r) => r,
                    None => return unknown,
                }
            }
            (Value::Tuple(a), Value::Tuple(b))
            | (Value::List { items: a, .. }, Value::List { items: b, .. }) => {
                if a.len() != b.len() {
                    false
                } else {
                    match all_equal(a.iter().zip(b.iter().map(Some))) {
                        Some(r) => r,
                        None => return unknown,
                    }
                }
            }
            (Value::Map { items: a, .. }, Value::Map { items: b, .. }) => {
                if a.len() != b.len() {
                    false
                } else {
                    match all_equal(a.iter().map(|(k, x)| (x, b.get(k)))) {
                        Some(r) => r,
                        None => return unknown,
                    }
                }
            }
            (Value::Set { items: a, .. }, Value::Set { items: b, .. }) => {
                // Any unknown element makes the result unknown; otherwise
                // each side must contain every element of the other.
                if a.iter().chain(b.iter()).any(|v| !v.is_known()) {
                    return unknown;
                }
                sets_equal(a, b)
            }
            _ => false,
        })
    }

    /// `stdlib.AddFunc`'s implementation (`cty.Value.Add`).
    pub fn add(&self, other: &Value) -> Result<Value, OpError> {
        arithmetic(self, other, Number::add, ADD_NAN)
    }
    /// `stdlib.SubtractFunc`'s implementation (`cty.Value.Subtract`).
    pub fn subtract(&self, other: &Value) -> Result<Value, OpError> {
        arithmetic(self, other, Number::sub, SUBTRACT_NAN)
    }
    /// `stdlib.MultiplyFunc`'s implementation (`cty.Value.Multiply`).
    pub fn multiply(&self, other: &Value) -> Result<Value, OpError> {
        arithmetic(self, other, Number::mul, MULTIPLY_NAN)
    }
    /// `stdlib.DivideFunc`'s implementation (`cty.Value.Divide`): a nonzero
    /// number divided by zero is an infinity.
    pub fn divide(&self, other: &Value) -> Result<Value, OpError> {
        arithmetic(self, other, Number::quo, DIVIDE_NAN)
    }
    /// `stdlib.ModuloFunc`'s implementation (`cty.Value.Modulo`).
    pub fn modulo(&self, other: &Value) -> Result<Value, OpError> {
        arithmetic(self, other, Number::modulo, MODULO_NAN)
    }
    /// `stdlib.NegateFunc`'s implementation (`cty.Value.Negate`).
    pub fn negate(&self) -> Result<Value, OpError> {
        match self {
            Value::Number(n) => Ok(Value::Number(n.neg())),
            Value::Null(_) => Err(OpError(NULL_OPERAND.to_string())),
            _ => {
                check_type(&Type::Number, &[self])?;
                Ok(Value::Unknown(Type::Number))
            }
        }
    }
    /// `cty.Value.Not`; a null operand gives an unknown bool (the function
    /// layer rejects it first).
    pub fn not(&self) -> Value {
        match self {
            Value::Bool(b) => Value::Bool(!b),
            _ => Value::Unknown(Type::Bool),
        }
    }
    /// `cty.Value.And`; unknown or null operands give an unknown bool.
    pub fn and(&self, other: &Value) -> Value {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => Value::Bool(*a && *b),
            _ => Value::Unknown(Type::Bool),
        }
    }
    /// `cty.Value.Or`; unknown or null operands give an unknown bool.
    pub fn or(&self, other: &Value) -> Value {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => Value::Bool(*a || *b),
            _ => Value::Unknown(Type::Bool),
        }
    }
    /// `cty.Value.LessThan` (`big.Float.Cmp`).
    pub fn less_than(&self, other: &Value) -> Value {
        compare(self, other, |o| o == Ordering::Less)
    }
    /// `cty.Value.LessThanOrEqualTo`: `LessThan` or `Equals`, where
    /// `Equals` compares the numbers' decimal texts.
    pub fn less_than_or_equal_to(&self, other: &Value) -> Value {
        self.less_than(other).or(&self.equals(other))
    }
    /// `cty.Value.GreaterThan` (`big.Float.Cmp`).
    pub fn greater_than(&self, other: &Value) -> Value {
        compare(self, other, |o| o == Ordering::Greater)
    }
    /// `cty.Value.GreaterThanOrEqualTo`: `GreaterThan` or `Equals`.
    pub fn greater_than_or_equal_to(&self, other: &Value) -> Value {
        self.greater_than(other).or(&self.equals(other))
    }
}

/// Folds element comparisons as cty's Equals does: stops at the first
/// unknown result (`None`) or the first false one. A missing counterpart is
/// unequal.
fn all_equal<'a>(pairs: impl Iterator<Item = (&'a Value, Option<&'a Value>)>) -> Option<bool> {
    for (a, b) in pairs {
        let Some(b) = b else {
            return Some(false);
        };
        match a.equals_typed(b, true) {
            Value::Bool(true) => {}
            Value::Bool(false) => return Some(false),
            _ => return None,
        }
    }
    Some(true)
}

/// Mirrors the set case of Equals: every element of each set is in the
/// other (same hash bucket and `Equals` true). Each pair is compared once,
/// so nested sets cost no more than other nesting.
fn sets_equal(a: &[Value], b: &[Value]) -> bool {
    let ha: Vec<u32> = a.iter().map(set_hash).collect();
    let hb: Vec<u32> = b.iter().map(set_hash).collect();
    let mut equal = vec![vec![None::<bool>; b.len()]; a.len()];
    let mut pair = |i: usize, j: usize| -> bool {
        if ha[i] != hb[j] {
            return false;
        }
        *equal[i][j].get_or_insert_with(|| matches!(a[i].equals(&b[j]), Value::Bool(true)))
    };
    (0..a.len()).all(|i| (0..b.len()).any(|j| pair(i, j)))
        && (0..b.len()).all(|j| (0..a.len()).any(|i| pair(i, j)))
}

/// cty's typeCheck for an operation: every operand has type `want` or is
/// dynamic; the panic message otherwise.
fn check_type(want: &Type, operands: &[&Value]) -> Result<(), OpError> {
    for (i, v) in operands.iter().enumerate() {
        let ty = v.ty();
        if ty != Type::Dynamic && ty != *want {
            return Err(OpError(format!(
                "type mismatch: want {} but value {i} is {}",
                want.friendly_name(),
                ty.friendly_name()
            )));
        }
    }
    Ok(())
}

/// A binary numeric operation with cty's short-circuit rules: unknown (or
/// dynamic) operands give an unknown number.
fn arithmetic(
    a: &Value,
    b: &Value,
    op: fn(&Number, &Number) -> Result<Number, NotANumber>,
    nan: &str,
) -> Result<Value, OpError> {
    check_type(&Type::Number, &[a, b])?;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => op(x, y)
            .map(Value::Number)
            .map_err(|NotANumber| OpError(nan.to_string())),
        (Value::Unknown(_), _) | (_, Value::Unknown(_)) => Ok(Value::Unknown(Type::Number)),
        _ => Err(OpError(NULL_OPERAND.to_string())),
    }
}

/// A numeric comparison; unknown, dynamic or null operands give an unknown
/// bool.
fn compare(a: &Value, b: &Value, want: fn(Ordering) -> bool) -> Value {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Value::Bool(want(x.cmp(y))),
        _ => Value::Unknown(Type::Bool),
    }
}

#[cfg(test)]
mod tests;
