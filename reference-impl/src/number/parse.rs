//! Decimal string to number, as `big.ParseFloat(s, 10, 512, ToNearestEven)`.
//!
//! Go does not round the decimal correctly in one step: it keeps every
//! digit, then multiplies or divides by a power of five that is itself
//! rounded to 576 bits. The steps are mirrored so the last bit agrees.

use num_bigint::BigUint;

use super::{mul_prec, quo_prec, rounded, Form, Number, MAX_EXP, MIN_EXP};

/// Precision `cty.ParseNumberVal` parses at.
const PARSE_PREC: u32 = 512;

/// Mirrors big.Float.Parse with base 10 on a float of precision 512.
pub(super) fn parse(s: &str) -> Option<Number> {
    match s {
        "Inf" | "inf" | "+Inf" | "+inf" => return Some(Number::inf_with(false, PARSE_PREC)),
        "-Inf" | "-inf" => return Some(Number::inf_with(true, PARSE_PREC)),
        _ => {}
    }
    let b = s.as_bytes();
    let mut pos = 0;

    // Sign (big's scanSign fails on an empty string).
    let neg = match b.first()? {
        b'-' => {
            pos += 1;
            true
        }
        b'+' => {
            pos += 1;
            false
        }
        _ => false,
    };

    // Mantissa: digits with at most one radix point (nat.scan, base 10).
    let mut digits = String::new();
    let mut count: i64 = 0;
    let mut point: Option<i64> = None;
    while let Some(&c) = b.get(pos) {
        if c == b'.' && point.is_none() {
            point = Some(count);
        } else if c.is_ascii_digit() {
            count += 1;
            if !(digits.is_empty() && c == b'0') {
                digits.push(c as char);
            }
        } else {
            break;
        }
        pos += 1;
    }
    if count == 0 {
        return None;
    }
    // Negative count of fractional digits (Go's `fcount`).
    let fcount = point.map_or(0, |p| p - count);

    // Exponent (scanExponent with base-2 exponents allowed, no separators).
    let mut exp: i64 = 0;
    let mut binary_exp = false;
    if let Some(&c) = b.get(pos) {
        match c {
            b'e' | b'E' => {}
            b'p' | b'P' => binary_exp = true,
            _ => return None,
        }
        pos += 1;
        let mut text = String::new();
        match b.get(pos) {
            Some(b'-') => {
                text.push('-');
                pos += 1;
            }
            Some(b'+') => pos += 1,
            _ => {}
        }
        let start = pos;
        while b.get(pos).is_some_and(u8::is_ascii_digit) {
            pos += 1;
        }
        if pos == start {
            return None;
        }
        text.push_str(&s[start..pos]);
        exp = text.parse::<i64>().ok()?;
    }
    if pos != b.len() {
        return None;
    }

    if digits.is_empty() {
        return Some(Number::zero_with(neg, PARSE_PREC));
    }
    let mant: BigUint = digits.parse().ok()?;

    // value = mant * 2^exp2 * 5^exp5, with Go's exponent range check.
    let mut exp2 = i128::from(fcount);
    let mut exp5 = i128::from(fcount);
    exp2 += i128::from(exp);
    if !binary_exp {
        exp5 += i128::from(exp);
    }
    let gexp = exp2 + i128::from(mant.bits());
    if gexp < i128::from(MIN_EXP) || gexp > i128::from(MAX_EXP) {
        return None;
    }
    // Go keeps every digit until the power of five is applied, so this
    // operand is deliberately unrounded (and its mantissa not reduced).
    let exact = Number {
        neg,
        form: Form::Finite,
        prec: PARSE_PREC,
        mant,
        exp: exp2 as i64,
        canonical: false,
    };
    if exp5 == 0 {
        return Some(rounded(neg, exact.mant, exact.exp, false, PARSE_PREC));
    }
    let p = pow5(exp5.unsigned_abs() as u64);
    let r = if exp5 < 0 {
        quo_prec(&exact, &p, PARSE_PREC)
    } else {
        mul_prec(&exact, &p, PARSE_PREC)
    };
    r.ok()
}

/// Mirrors big.Float.pow5 on a float of precision 576: exact up to 5^27,
/// then square-and-multiply with a 640-bit running square.
fn pow5(n: u64) -> Number {
    const ZPREC: u32 = PARSE_PREC + 64;
    const FPREC: u32 = ZPREC + 64;
    const TABLE_MAX: u64 = 27;
    if n <= TABLE_MAX {
        return Number::from_u64_prec(false, 5u64.pow(n as u32), ZPREC);
    }
    let mut z = Number::from_u64_prec(false, 5u64.pow(TABLE_MAX as u32), ZPREC);
    let mut f = Number::from_u64_prec(false, 5, FPREC);
    let mut n = n - TABLE_MAX;
    while n > 0 {
        // Neither operand is ever zero, so these cannot be NaN.
        if n & 1 != 0 {
            z = mul_prec(&z, &f, ZPREC).unwrap_or_else(|_| z.clone());
        }
        f = mul_prec(&f, &f, FPREC).unwrap_or_else(|_| f.clone());
        n >>= 1;
    }
    z
}
