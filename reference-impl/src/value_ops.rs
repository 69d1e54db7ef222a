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
use crate::value::{refinements_enabled, set_hash, Value};

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
        let unknown = Value::unknown(Type::Bool).refine_not_null();
        // go-cty 1.13's refinements: a null never equals what is surely not
        // null, and a known value never equals an unknown whose range
        // leaves it out (outside 2.24 no unknown is refined).
        match (self.is_null(), other.is_null()) {
            (true, false) if other.definitely_not_null() => return Value::Bool(false),
            (false, true) if self.definitely_not_null() => return Value::Bool(false),
            _ => {}
        }
        match (self, other) {
            (Value::Unknown(_, r), known) | (known, Value::Unknown(_, r))
                if !r.is_none() && known.is_known() =>
            {
                let (unk, known) = if self.is_known() {
                    (other, self)
                } else {
                    (self, other)
                };
                if unk.range().excludes(known) {
                    return Value::Bool(false);
                }
            }
            _ => {}
        }
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
                Ok(Value::unknown(Type::Number).refine_not_null())
            }
        }
    }
    /// `cty.Value.Not`; a null operand gives an unknown bool (the function
    /// layer rejects it first).
    pub fn not(&self) -> Value {
        match self {
            Value::Bool(b) => Value::Bool(!b),
            _ => Value::unknown(Type::Bool).refine_not_null(),
        }
    }
    /// `cty.Value.And`; unknown or null operands give an unknown bool,
    /// except that from go-cty 1.13 (the 2.24 profile) a false operand
    /// decides.
    pub fn and(&self, other: &Value) -> Value {
        logic(self, other, false)
    }
    /// `cty.Value.Or`; unknown or null operands give an unknown bool,
    /// except that from go-cty 1.13 (the 2.24 profile) a true operand
    /// decides.
    pub fn or(&self, other: &Value) -> Value {
        logic(self, other, true)
    }
    /// `cty.Value.LessThan` (`big.Float.Cmp`), decided by the operands'
    /// bounds when they do not overlap.
    pub fn less_than(&self, other: &Value) -> Value {
        compare(self, other, |o| o == Ordering::Less)
            .unwrap_or_else(|| decide_by_bounds(self, other))
    }
    /// `cty.Value.LessThanOrEqualTo`: `LessThan` or `Equals`, where
    /// `Equals` compares the numbers' decimal texts.
    pub fn less_than_or_equal_to(&self, other: &Value) -> Value {
        self.less_than(other).or(&self.equals(other))
    }
    /// `cty.Value.GreaterThan` (`big.Float.Cmp`), decided by the operands'
    /// bounds when they do not overlap.
    pub fn greater_than(&self, other: &Value) -> Value {
        compare(self, other, |o| o == Ordering::Greater)
            .unwrap_or_else(|| decide_by_bounds(other, self))
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
        (Value::Unknown(..), _) | (_, Value::Unknown(..)) => {
            Ok(Value::unknown(Type::Number).refine_not_null())
        }
        _ => Err(OpError(NULL_OPERAND.to_string())),
    }
}

/// A numeric comparison of two known numbers; `None` when either is not.
fn compare(a: &Value, b: &Value, want: fn(Ordering) -> bool) -> Option<Value> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Some(Value::Bool(want(x.cmp(y)))),
        _ => None,
    }
}

/// `lesser < greater` for operands that are not both known numbers:
/// true when the upper bound of `lesser` is below the lower bound of
/// `greater`, false when its lower bound is above the other's upper bound
/// (cty compares the bounds strictly, inclusive or not), otherwise an
/// unknown bool (not null). Dynamic or null operands give an unknown bool.
fn decide_by_bounds(lesser: &Value, greater: &Value) -> Value {
    let unknown = Value::unknown(Type::Bool).refine_not_null();
    if lesser.ty() != Type::Number || greater.ty() != Type::Number {
        return unknown;
    }
    let (l, g) = (lesser.range(), greater.range());
    if l.upper.0.cmp(&g.lower.0).is_lt() {
        return Value::Bool(true);
    }
    if l.lower.0.cmp(&g.upper.0).is_gt() {
        return Value::Bool(false);
    }
    unknown
}

/// `cty.Value.And` (`decisive` false) and `cty.Value.Or` (true).
fn logic(a: &Value, b: &Value, decisive: bool) -> Value {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => Value::Bool(if decisive { *x || *y } else { *x && *y }),
        (Value::Bool(x), _) | (_, Value::Bool(x)) if *x == decisive && refinements_enabled() => {
            Value::Bool(decisive)
        }
        _ => Value::unknown(Type::Bool).refine_not_null(),
    }
}

#[cfg(test)]
mod tests;
