//! cty numbers: Go's `math/big.Float` as cty uses it.
//!
//! A [`Number`] is a binary floating point number with its own mantissa
//! precision, rounded to nearest-even after every operation, with signed
//! zeros and infinities, exactly like a `*big.Float` inside a cty value.
//! Every operation mirrors the Go code cty runs for it, including the
//! precision each result is given, because the precision decides how the
//! number prints (`Text('f', -1)`), and printing decides cty equality.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{ToPrimitive, Zero};

mod format;
pub(crate) mod gomath;
mod parse;
mod text;

/// Why an operation has no numeric result (Go's `big.ErrNaN` panic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotANumber;

/// Why `cty.Value.Modulo` has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuloError {
    /// A `big.ErrNaN` panic: stdlib's `ModuloFunc` recovers it and reports
    /// "can't use modulo with zero and infinity".
    NotANumber,
    /// A computed infinity modulo a finite number: `big.Float.Int` returns a
    /// nil integer which `SetInt` then dereferences. `ModuloFunc` re-panics
    /// and the function layer reports "panic in function implementation".
    NilIntegerPanic,
}

/// Why cty's `pow` or `log` function has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathFnError {
    /// Argument `n` (0-based) is finite but beyond the float64 range; gocty
    /// reports "value must be between ... inclusive".
    OutOfRange(usize),
    /// The float64 result is NaN: `cty.NumberFloatVal` panics, which the
    /// function layer reports as "panic in function implementation".
    NotANumber,
}

/// An arbitrary-precision binary floating point number with its own
/// mantissa precision, exactly as a `*big.Float` inside a cty value.
#[derive(Clone, Debug)]
pub struct Number {
    neg: bool,
    form: Form,
    /// Mantissa precision in bits (`big.Float.Prec`).
    prec: u32,
    /// Finite numbers only: an odd mantissa, the value being `mant * 2^exp`.
    mant: BigUint,
    exp: i64,
    /// Whether this is `cty.PositiveInfinity` / `cty.NegativeInfinity`
    /// itself. Go compares those by pointer in `cty.Value.Modulo`, so only
    /// copies of them (never computed infinities) count.
    canonical: bool,
}

impl Number {
    /// `cty.ParseNumberVal`: `big.ParseFloat(s, 10, 512, ToNearestEven)`.
    ///
    /// Accepts an optional sign, decimal digits with at most one `.`, and
    /// an optional `e`/`E` (power of ten) or `p`/`P` (power of two)
    /// exponent; or exactly `Inf`/`inf` with an optional sign.
    pub fn parse(s: &str) -> Option<Number> {
        parse::parse(s)
    }
    /// `cty.NumberIntVal` (precision 64).
    pub fn from_i64(v: i64) -> Number {
        Number::from_u64_prec(v < 0, v.unsigned_abs(), 64)
    }
    /// `cty.NumberUIntVal` (precision 64).
    pub fn from_u64(v: u64) -> Number {
        Number::from_u64_prec(false, v, 64)
    }
    /// `cty.NumberFloatVal` (precision 53). Go panics on NaN; here NaN gives
    /// +0, so callers that can see NaN must use [`Number::try_from_f64`].
    pub fn from_f64(v: f64) -> Number {
        Number::try_from_f64(v).unwrap_or_else(|_| Number::zero_with(false, 53))
    }
    /// `cty.NumberFloatVal`, with NaN (Go's `ErrNaN` panic) as an error.
    pub fn try_from_f64(v: f64) -> Result<Number, NotANumber> {
        if v.is_nan() {
            return Err(NotANumber);
        }
        let neg = v.is_sign_negative();
        if v == 0.0 {
            return Ok(Number::zero_with(neg, 53));
        }
        if v.is_infinite() {
            return Ok(Number::inf_with(neg, 53));
        }
        let bits = v.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (m, e) = if biased == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), biased - 1075)
        };
        Ok(Number::normalized(neg, BigUint::from(m), e, 53))
    }
    /// `cty.PositiveInfinity` / `cty.NegativeInfinity` themselves
    /// (precision 0). Copies of these are what `modulo` treats specially.
    pub fn infinity(negative: bool) -> Number {
        let mut n = Number::inf_with(negative, 0);
        n.canonical = true;
        n
    }
    /// `cty.Zero` (`big.NewFloat(0)`: precision 53).
    pub fn zero() -> Number {
        Number::zero_with(false, 53)
    }
    /// `big.Float.SetInt` on a fresh float: precision `max(bit length, 64)`.
    pub fn from_big_int(v: &BigInt) -> Number {
        let bits = v.bits();
        let prec = u32::try_from(bits.max(64)).unwrap_or(u32::MAX);
        Number::from_big_int_prec(v.sign() == Sign::Minus, v.magnitude(), prec)
    }
    /// `cty.Value.Add`.
    pub fn add(&self, other: &Number) -> Result<Number, NotANumber> {
        add_prec(self, other, self.prec.max(other.prec))
    }
    /// `cty.Value.Subtract`: `self + (-other)`.
    pub fn sub(&self, other: &Number) -> Result<Number, NotANumber> {
        self.add(&other.neg())
    }
    /// `cty.Value.Multiply`: the product rounded to 512 bits, kept at the
    /// larger of both precisions or the bits the product needs.
    pub fn mul(&self, other: &Number) -> Result<Number, NotANumber> {
        let mut r = mul_prec(self, other, 512)?;
        let res_prec = self.prec.max(other.prec).max(r.min_prec());
        // No rounding: the product already fits in `min_prec` bits.
        r.prec = res_prec;
        Ok(r)
    }
    /// `cty.Value.Divide`.
    pub fn quo(&self, other: &Number) -> Result<Number, NotANumber> {
        quo_prec(self, other, self.prec.max(other.prec))
    }
    /// `cty.Value.Modulo` on two known numbers; see [`Number::try_modulo`].
    pub fn modulo(&self, other: &Number) -> Result<Number, NotANumber> {
        self.try_modulo(other).map_err(|_| NotANumber)
    }
    /// Mirrors cty.Value.Modulo: `self - other * trunc(self / other)`, the
    /// integer and the product held at `self`'s precision.
    ///
    /// Only copies of [`Number::infinity`] take cty's infinity shortcut (a
    /// multiplication); computed infinities run the general path, which
    /// fails: `Inf % finite` with [`ModuloError::NilIntegerPanic`],
    /// `x % Inf` and `Inf % Inf` with [`ModuloError::NotANumber`].
    /// `x % 0` (either sign) is `x`.
    pub fn try_modulo(&self, other: &Number) -> Result<Number, ModuloError> {
        if self.canonical || other.canonical {
            return self.mul(other).map_err(|_| ModuloError::NotANumber);
        }
        if other.form == Form::Zero {
            return Ok(self.clone());
        }
        let rat = self.quo(other).map_err(|_| ModuloError::NotANumber)?;
        if rat.form == Form::Inf {
            return Err(ModuloError::NilIntegerPanic);
        }
        let work = rat.trunc_rounded(self.prec);
        let work = mul_prec(other, &work, self.prec).map_err(|_| ModuloError::NotANumber)?;
        add_prec(self, &work.neg(), self.prec).map_err(|_| ModuloError::NotANumber)
    }
    /// `cty.Value.Negate` (`big.Float.Neg`): flips the sign, zeros included.
    pub fn neg(&self) -> Number {
        let mut r = self.clone();
        r.neg = !r.neg;
        r.canonical = false;
        r
    }
    /// `cty.Value.Absolute` (`big.Float.Abs`).
    pub fn abs(&self) -> Number {
        let mut r = self.clone();
        r.neg = false;
        r.canonical = false;
        r
    }
    /// `big.Float.Cmp`: -0 equals +0, each infinity equals itself.
    // Not `Ord`: numeric order treats -0 and +0 (and precisions) as equal.
    #[allow(clippy::should_implement_trait)]
    pub fn cmp(&self, other: &Number) -> Ordering {
        let (mx, my) = (self.ord(), other.ord());
        if mx != my {
            return mx.cmp(&my);
        }
        match mx {
            1 => ucmp(self, other),
            -1 => ucmp(other, self),
            _ => Ordering::Equal,
        }
    }
    /// cty's number equality (`rawNumberEqual`: equal `Text('f', -1)`,
    /// with -0 equal to 0).
    pub fn cty_equals(&self, other: &Number) -> bool {
        if self.sign() != other.sign() {
            return false;
        }
        if self.form == Form::Zero {
            return true;
        }
        if self.prec == other.prec && self.cmp(other) == Ordering::Equal {
            return true;
        }
        self.texts_may_match(other) && self.text() == other.text()
    }
    pub fn is_infinite(&self) -> bool {
        self.form == Form::Inf
    }
    /// `big.Float.IsInt`: zeros are integers, infinities are not.
    pub fn is_integer(&self) -> bool {
        match self.form {
            Form::Zero => true,
            Form::Inf => false,
            Form::Finite => self.exp >= 0,
        }
    }
    /// Feeds `state` so that numbers that compare equal (`cmp` is `Equal`,
    /// so `-0` and `0` alike) hash alike, whatever their precision.
    pub fn hash_value<H: std::hash::Hasher>(&self, state: &mut H) {
        use std::hash::Hash;
        match self.form {
            Form::Zero => 0u8.hash(state),
            Form::Inf => (1u8, self.neg).hash(state),
            Form::Finite => (2u8, self.neg, &self.mant, self.exp).hash(state),
        }
    }

    pub fn is_zero(&self) -> bool {
        self.form == Form::Zero
    }
    /// `big.Float.Signbit`: true for negative numbers, -0 and -Inf.
    pub fn is_sign_negative(&self) -> bool {
        self.neg
    }
    /// `big.Float.Sign`: -1, 0 (for either zero) or +1.
    pub fn sign(&self) -> i32 {
        match (self.form, self.neg) {
            (Form::Zero, _) => 0,
            (_, true) => -1,
            (_, false) => 1,
        }
    }
    /// `big.Float.Prec`: the mantissa precision in bits.
    pub fn precision(&self) -> u32 {
        self.prec
    }
    /// `big.Float.MinPrec`: the bits needed to hold the value exactly
    /// (0 for zeros and infinities).
    pub fn min_prec(&self) -> u32 {
        match self.form {
            Form::Finite => u32::try_from(self.mant.bits()).unwrap_or(u32::MAX),
            _ => 0,
        }
    }
    /// `big.Float.Int64` when exact (`Accuracy == Exact`), else `None`.
    pub fn to_i64_exact(&self) -> Option<i64> {
        match self.form {
            Form::Zero => Some(0),
            Form::Inf => None,
            Form::Finite => {
                if self.exp < 0 || self.mant.bits() as i64 + self.exp > 64 {
                    return None;
                }
                let mag = (&self.mant << (self.exp as u64)).to_u64()?;
                let v = if self.neg {
                    -i128::from(mag)
                } else {
                    i128::from(mag)
                };
                i64::try_from(v).ok()
            }
        }
    }
    /// `big.Float.Float64` (nearest-even, subnormals included, overflow to
    /// an infinity).
    pub fn to_f64(&self) -> f64 {
        self.to_f64_acc().0
    }
    /// gocty's conversion to `float64`: `None` when a finite number lies
    /// beyond the float64 range (rounding is allowed, overflow is not).
    pub fn to_f64_checked(&self) -> Option<f64> {
        let (v, exact) = self.to_f64_acc();
        if !exact && v.is_infinite() {
            None
        } else {
            Some(v)
        }
    }
    /// `big.Float.Int`: truncation toward zero; `None` for infinities.
    /// Materialises the whole integer, so huge exponents cost memory.
    pub fn to_big_int_trunc(&self) -> Option<BigInt> {
        match self.form {
            Form::Zero => Some(BigInt::zero()),
            Form::Inf => None,
            Form::Finite => {
                let mag = if self.exp >= 0 {
                    &self.mant << (self.exp as u64)
                } else {
                    &self.mant >> self.exp.unsigned_abs()
                };
                let sign = if self.neg { Sign::Minus } else { Sign::Plus };
                Some(BigInt::from_biguint(sign, mag))
            }
        }
    }
    /// Mirrors cty stdlib FloorFunc: infinities unchanged, otherwise
    /// `big.Float.Int` adjusted down when it rounded up, stored back at this
    /// number's precision. Zero results are +0.
    pub fn floor(&self) -> Number {
        self.round_integral(true)
    }
    /// Mirrors cty stdlib CeilFunc (see [`Number::floor`]).
    pub fn ceil(&self) -> Number {
        self.round_integral(false)
    }
    /// Mirrors cty stdlib IntFunc: integers unchanged (same value and
    /// precision), others truncated toward zero into a fresh float
    /// (precision `max(bits, 64)`). `None` for infinities, where Go panics
    /// on a nil integer (reported as "panic in function implementation").
    pub fn truncate(&self) -> Option<Number> {
        match self.form {
            Form::Inf => None,
            _ if self.is_integer() => Some(self.clone()),
            _ => self.to_big_int_trunc().map(|i| Number::from_big_int(&i)),
        }
    }
    /// Mirrors cty stdlib PowFunc: both operands converted to float64,
    /// Go's `math.Pow`, then `cty.NumberFloatVal` (precision 53).
    pub fn pow(&self, power: &Number) -> Result<Number, MathFnError> {
        let x = self.to_f64_checked().ok_or(MathFnError::OutOfRange(0))?;
        let y = power.to_f64_checked().ok_or(MathFnError::OutOfRange(1))?;
        Number::try_from_f64(gomath::pow(x, y)).map_err(|_| MathFnError::NotANumber)
    }
    /// Mirrors cty stdlib LogFunc: `math.Log(num) / math.Log(base)` in
    /// float64, then `cty.NumberFloatVal`.
    pub fn log(&self, base: &Number) -> Result<Number, MathFnError> {
        let x = self.to_f64_checked().ok_or(MathFnError::OutOfRange(0))?;
        let b = base.to_f64_checked().ok_or(MathFnError::OutOfRange(1))?;
        Number::try_from_f64(gomath::log(x) / gomath::log(b)).map_err(|_| MathFnError::NotANumber)
    }
    /// The number as go-cty's msgpack encoding carries it, and so as
    /// Terraform's plan holds a result (`msgpack.Marshal`, then
    /// `Unmarshal`): a number that is not an integer but that a float64
    /// holds exactly is written as that float64 and read back with
    /// `cty.NumberFloatVal`, at precision 53, whose text is the float64's
    /// shortest decimal. The value is the same; only its precision, and so
    /// its text, changes. Integers (written as an int64 or as text) and
    /// numbers a float64 does not hold (written as text and read back at
    /// precision 512, which gives back the same text) keep theirs.
    pub fn through_msgpack(&self) -> Number {
        if self.form == Form::Finite && !self.is_integer() {
            if let (v, true) = self.to_f64_acc() {
                return Number::from_f64(v);
            }
        }
        self.clone()
    }
    /// `big.Float.Text('f', -1)`: the shortest decimal that round-trips at
    /// this number's precision; infinities as `+Inf` / `-Inf`.
    pub fn text(&self) -> String {
        text::text(self)
    }
    /// An upper bound on the length of [`Number::text`], computed without
    /// formatting, for callers that must refuse absurdly long outputs
    /// (`1e100000000` prints a hundred million digits, in Go as here).
    pub fn text_len_bound(&self) -> u64 {
        match self.form {
            Form::Zero | Form::Inf => 4,
            Form::Finite => {
                let int_digits = (self.gexp().max(0) as u64) * 30103 / 100000 + 1;
                let frac_digits = (-self.exp).max(0) as u64 + u64::from(self.prec) + 2;
                int_digits + frac_digits + 2
            }
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// `big.MinExp` / `big.MaxExp`: the range of the exponent of a mantissa in
/// `[0.5, 1)`; results beyond it become zero or infinity.
const MIN_EXP: i64 = i32::MIN as i64;
const MAX_EXP: i64 = i32::MAX as i64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    Zero,
    Finite,
    Inf,
}

impl Number {
    fn zero_with(neg: bool, prec: u32) -> Number {
        Number {
            neg,
            form: Form::Zero,
            prec,
            mant: BigUint::zero(),
            exp: 0,
            canonical: false,
        }
    }

    fn inf_with(neg: bool, prec: u32) -> Number {
        Number {
            form: Form::Inf,
            ..Number::zero_with(neg, prec)
        }
    }

    /// A finite number from an exact mantissa (no rounding).
    fn normalized(neg: bool, mant: BigUint, exp: i64, prec: u32) -> Number {
        let tz = mant.trailing_zeros().unwrap_or(0);
        Number {
            neg,
            form: Form::Finite,
            prec,
            mant: mant >> tz,
            exp: exp + tz as i64,
            canonical: false,
        }
    }

    /// Mirrors big.Float.setBits64 on a float of precision `prec` (>= 64).
    fn from_u64_prec(neg: bool, v: u64, prec: u32) -> Number {
        if v == 0 {
            return Number::zero_with(neg, prec);
        }
        rounded(neg, BigUint::from(v), 0, false, prec)
    }

    /// Mirrors big.Float.SetInt on a float of precision `prec`.
    fn from_big_int_prec(neg: bool, mag: &BigUint, prec: u32) -> Number {
        if mag.is_zero() {
            return Number::zero_with(false, prec);
        }
        rounded(neg, mag.clone(), 0, false, prec)
    }

    /// The exponent Go stores: the value is `0.mant * 2^gexp`.
    fn gexp(&self) -> i64 {
        self.exp + self.mant.bits() as i64
    }

    /// False when two numbers of one sign surely print differently: a text
    /// lies within half an ulp of its number, so texts can only match for
    /// numbers that close (checked with a fourfold margin).
    fn texts_may_match(&self, other: &Number) -> bool {
        if self.form != Form::Finite || other.form != Form::Finite {
            return true;
        }
        let (gx, gy) = (self.gexp(), other.gexp());
        if self.prec >= 2 && other.prec >= 2 && (gx - gy).abs() > 2 {
            return false;
        }
        // Half-ulp exponents, with the margin folded in (4 * 2^h).
        let hx = gx - i64::from(self.prec) + 1;
        let hy = gy - i64::from(other.prec) + 1;
        let e = self.exp.min(other.exp).min(hx).min(hy);
        let shift = |m: &BigUint, by: i64| m << ((by - e) as u64);
        let one = BigUint::from(1u32);
        let a = shift(&self.mant, self.exp);
        let b = shift(&other.mant, other.exp);
        let diff = if a > b { a - b } else { b - a };
        diff <= shift(&one, hx) + shift(&one, hy)
    }

    /// `big.Float.ord`.
    fn ord(&self) -> i32 {
        let m = match self.form {
            Form::Zero => return 0,
            Form::Finite => 1,
            Form::Inf => 2,
        };
        if self.neg {
            -m
        } else {
            m
        }
    }

    /// `new(big.Float).SetPrec(prec).SetInt(x.Int())` for finite `x`,
    /// without building the integer when `x` is already one.
    fn trunc_rounded(&self, prec: u32) -> Number {
        match self.form {
            Form::Finite if self.exp >= 0 => {
                rounded(self.neg, self.mant.clone(), self.exp, false, prec)
            }
            Form::Finite => {
                let mag = &self.mant >> self.exp.unsigned_abs();
                Number::from_big_int_prec(self.neg, &mag, prec)
            }
            _ => Number::zero_with(false, prec),
        }
    }

    /// Shared body of FloorFunc / CeilFunc.
    fn round_integral(&self, down: bool) -> Number {
        match self.form {
            Form::Inf => {
                let mut r = self.clone();
                r.canonical = false;
                r
            }
            Form::Zero => Number::zero_with(false, self.prec),
            Form::Finite if self.exp >= 0 => {
                Number::normalized(self.neg, self.mant.clone(), self.exp, self.prec)
            }
            Form::Finite => {
                // Not an integer: |self| < 2^prec, so the integer is small.
                let mut mag = &self.mant >> self.exp.unsigned_abs();
                // Truncation rounded toward zero; step away from zero when
                // that went the wrong way for this direction.
                if self.neg == down {
                    mag += 1u32;
                }
                Number::from_big_int_prec(self.neg, &mag, self.prec)
            }
        }
    }

    /// `big.Float.Float64` with whether it was exact.
    fn to_f64_acc(&self) -> (f64, bool) {
        let sign = if self.neg { -1.0 } else { 1.0 };
        match self.form {
            Form::Zero => (sign * 0.0, true),
            Form::Inf => (sign * f64::INFINITY, true),
            Form::Finite => {
                const EMIN: i64 = -1022;
                const EMAX: i64 = 1023;
                let e = self.gexp() - 1;
                let mut p: i64 = 53;
                if e < EMIN {
                    p = 53 + e - EMIN;
                    let half = self.mant.bits() == 1;
                    if p < 0 || (p == 0 && half) {
                        return (sign * 0.0, false);
                    }
                    if p == 0 {
                        return (sign * f64::from_bits(1), false);
                    }
                }
                let r = rounded(false, self.mant.clone(), self.exp, false, p as u32);
                if r.form == Form::Inf {
                    return (sign * f64::INFINITY, false);
                }
                let exact = r.mant == self.mant && r.exp == self.exp;
                let e = r.gexp() - 1;
                if e > EMAX {
                    return (sign * f64::INFINITY, false);
                }
                let sign_bit = if self.neg { 1u64 << 63 } else { 0 };
                let rbits = r.mant.bits() as i64;
                let bits = if e < EMIN {
                    let p = 53 + e - EMIN;
                    let m = (&r.mant << ((p - rbits) as u64)).to_u64().unwrap_or(0);
                    sign_bit | m
                } else {
                    let m = (&r.mant << ((53 - rbits) as u64)).to_u64().unwrap_or(0);
                    sign_bit | (((e + 1023) as u64) << 52) | (m & ((1u64 << 52) - 1))
                };
                (f64::from_bits(bits), exact)
            }
        }
    }
}

/// Mirrors big.Float.setExpAndRound + round (nearest-even): the finite
/// value `mant * 2^exp` (`mant` non-zero), plus a sticky bit for discarded
/// non-zero bits below it, rounded to `prec` bits.
fn rounded(neg: bool, mant: BigUint, exp: i64, sticky: bool, prec: u32) -> Number {
    let bits = mant.bits() as i64;
    let gexp = exp + bits;
    if gexp < MIN_EXP || prec == 0 {
        return Number::zero_with(neg, prec);
    }
    if gexp > MAX_EXP {
        return Number::inf_with(neg, prec);
    }
    if bits <= i64::from(prec) {
        return Number::normalized(neg, mant, exp, prec);
    }
    let r = (bits - i64::from(prec) - 1) as u64;
    let rbit = mant.bit(r);
    let sbit = sticky || mant.trailing_zeros().unwrap_or(0) < r;
    let mut q = mant >> (r + 1);
    if rbit && (sbit || q.bit(0)) {
        q += 1u32;
        if q.bits() > u64::from(prec) && gexp >= MAX_EXP {
            return Number::inf_with(neg, prec);
        }
    }
    Number::normalized(neg, q, exp + r as i64 + 1, prec)
}

/// `big.Float.Set` into a float of precision `prec` (rounds only when
/// `prec` is smaller than the source's).
fn set_prec(x: &Number, prec: u32) -> Number {
    if x.form == Form::Finite && prec < x.prec {
        return rounded(x.neg, x.mant.clone(), x.exp, false, prec);
    }
    let mut r = x.clone();
    r.prec = prec;
    r.canonical = false;
    r
}

/// Mirrors big.Float.Add into a float of precision `prec`.
fn add_prec(x: &Number, y: &Number, prec: u32) -> Result<Number, NotANumber> {
    match (x.form, y.form) {
        (Form::Finite, Form::Finite) => {
            if x.neg == y.neg {
                Ok(uadd(x, y, x.neg, prec))
            } else {
                match ucmp(x, y) {
                    Ordering::Greater => Ok(usub(x, y, x.neg, prec)),
                    Ordering::Less => Ok(usub(y, x, !x.neg, prec)),
                    Ordering::Equal => Ok(Number::zero_with(false, prec)),
                }
            }
        }
        (Form::Inf, Form::Inf) if x.neg != y.neg => Err(NotANumber),
        (Form::Zero, Form::Zero) => Ok(Number::zero_with(x.neg && y.neg, prec)),
        (Form::Inf, _) | (_, Form::Zero) => Ok(set_prec(x, prec)),
        _ => Ok(set_prec(y, prec)),
    }
}

/// Mirrors big.Float.Mul into a float of precision `prec`.
fn mul_prec(x: &Number, y: &Number, prec: u32) -> Result<Number, NotANumber> {
    let neg = x.neg != y.neg;
    match (x.form, y.form) {
        (Form::Finite, Form::Finite) => {
            Ok(rounded(neg, &x.mant * &y.mant, x.exp + y.exp, false, prec))
        }
        (Form::Zero, Form::Inf) | (Form::Inf, Form::Zero) => Err(NotANumber),
        (Form::Inf, _) | (_, Form::Inf) => Ok(Number::inf_with(neg, prec)),
        _ => Ok(Number::zero_with(neg, prec)),
    }
}

/// Mirrors big.Float.Quo into a float of precision `prec`.
fn quo_prec(x: &Number, y: &Number, prec: u32) -> Result<Number, NotANumber> {
    let neg = x.neg != y.neg;
    match (x.form, y.form) {
        (Form::Finite, Form::Finite) => {
            // Enough quotient bits for a rounding bit plus one; the
            // remainder supplies the sticky bit, so rounding is exact.
            let (bx, by) = (x.mant.bits() as i64, y.mant.bits() as i64);
            let shift = (i64::from(prec) + 2 + by - bx).max(0);
            let num = &x.mant << (shift as u64);
            let (q, r) = num_integer::Integer::div_rem(&num, &y.mant);
            Ok(rounded(neg, q, x.exp - y.exp - shift, !r.is_zero(), prec))
        }
        (Form::Zero, Form::Zero) | (Form::Inf, Form::Inf) => Err(NotANumber),
        (Form::Zero, _) | (_, Form::Inf) => Ok(Number::zero_with(neg, prec)),
        _ => Ok(Number::inf_with(neg, prec)),
    }
}

/// Mirrors big.Float.ucmp: compares magnitudes of two finite numbers.
fn ucmp(x: &Number, y: &Number) -> Ordering {
    let (gx, gy) = (x.gexp(), y.gexp());
    if gx != gy {
        return gx.cmp(&gy);
    }
    // Same binade: the exponent gap is bounded by the mantissa lengths.
    let e = x.exp.min(y.exp);
    let a = &x.mant << ((x.exp - e) as u64);
    let b = &y.mant << ((y.exp - e) as u64);
    a.cmp(&b)
}

/// Aligns two finite mantissas for an exact sum or difference. A `small`
/// operand lying wholly below `big`'s last bit and its rounding bit only
/// acts as a sticky bit, so it is replaced by one tiny bit: this gives the
/// same rounded result as Go's exact sum without a huge shift.
fn align(big: &Number, small: &Number, prec: u32) -> (BigUint, BigUint, i64) {
    let limit = big.exp.min(big.gexp() - i64::from(prec) - 2);
    let (sm, se) = if small.gexp() <= limit {
        (BigUint::from(1u32), limit - 1)
    } else {
        (small.mant.clone(), small.exp)
    };
    let e = big.exp.min(se);
    let a = &big.mant << ((big.exp - e) as u64);
    let b = sm << ((se - e) as u64);
    (a, b, e)
}

/// Mirrors big.Float.uadd: `|x| + |y|` with sign `neg`.
fn uadd(x: &Number, y: &Number, neg: bool, prec: u32) -> Number {
    let (a, b, e) = if x.gexp() >= y.gexp() {
        align(x, y, prec)
    } else {
        align(y, x, prec)
    };
    rounded(neg, a + b, e, false, prec)
}

/// Mirrors big.Float.usub: `|x| - |y|` for `|x| > |y|`, with sign `neg`.
fn usub(x: &Number, y: &Number, neg: bool, prec: u32) -> Number {
    let (a, b, e) = align(x, y, prec);
    rounded(neg, a - b, e, false, prec)
}

#[cfg(test)]
mod tests;
