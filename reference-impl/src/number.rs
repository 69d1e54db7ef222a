//! cty numbers: Go's `math/big.Float` as cty uses it.
//!
//! API contract (bodies owned by the number module's author; other modules
//! code against these signatures only).

use std::cmp::Ordering;
use std::fmt;

/// Why an operation has no numeric result (Go's `big.ErrNaN` panic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotANumber;

/// An arbitrary-precision binary floating point number with its own
/// mantissa precision, exactly as a `*big.Float` inside a cty value.
#[derive(Clone, Debug)]
pub struct Number {
    _todo: (),
}

impl Number {
    /// `cty.ParseNumberVal`: `big.ParseFloat(s, 10, 512, ToNearestEven)`.
    pub fn parse(_s: &str) -> Option<Number> {
        todo!()
    }
    /// `cty.NumberIntVal` (precision 64).
    pub fn from_i64(_v: i64) -> Number {
        todo!()
    }
    /// `cty.NumberUIntVal` (precision 64).
    pub fn from_u64(_v: u64) -> Number {
        todo!()
    }
    /// `cty.NumberFloatVal` (precision 53).
    pub fn from_f64(_v: f64) -> Number {
        todo!()
    }
    pub fn infinity(_negative: bool) -> Number {
        todo!()
    }
    pub fn add(&self, _other: &Number) -> Result<Number, NotANumber> {
        todo!()
    }
    pub fn sub(&self, _other: &Number) -> Result<Number, NotANumber> {
        todo!()
    }
    pub fn mul(&self, _other: &Number) -> Result<Number, NotANumber> {
        todo!()
    }
    pub fn quo(&self, _other: &Number) -> Result<Number, NotANumber> {
        todo!()
    }
    /// `cty.Value.Modulo` on two known numbers.
    pub fn modulo(&self, _other: &Number) -> Result<Number, NotANumber> {
        todo!()
    }
    pub fn neg(&self) -> Number {
        todo!()
    }
    /// `big.Float.Cmp`.
    pub fn cmp(&self, _other: &Number) -> Ordering {
        todo!()
    }
    /// cty's number equality (`rawNumberEqual`: equal `Text('f', -1)`,
    /// with -0 equal to 0).
    pub fn cty_equals(&self, _other: &Number) -> bool {
        todo!()
    }
    pub fn is_infinite(&self) -> bool {
        todo!()
    }
    pub fn is_integer(&self) -> bool {
        todo!()
    }
    /// `big.Float.Int64` when exact (`Accuracy == Exact`), else `None`.
    pub fn to_i64_exact(&self) -> Option<i64> {
        todo!()
    }
    /// `big.Float.Float64` (nearest).
    pub fn to_f64(&self) -> f64 {
        todo!()
    }
    /// `big.Float.Text('f', -1)`: the shortest decimal that round-trips at
    /// this number's precision; infinities as `+Inf` / `-Inf`.
    pub fn text(&self) -> String {
        todo!()
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}
