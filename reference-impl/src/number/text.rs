//! Number to decimal text, as `big.Float.Text('f', -1)`.
//!
//! Go converts the number, and the two points half an ulp below and above
//! it, to exact decimals, then walks the digits to find where it may stop.
//! The walk compares digits by position even when the bounds have a
//! different decimal exponent; that quirk is mirrored on purpose.

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use super::{Form, Number};

/// Mirrors big.Float.Text with format 'f' and precision -1.
pub(super) fn text(x: &Number) -> String {
    let sign = if x.neg { "-" } else { "" };
    match x.form {
        Form::Inf => return if x.neg { "-Inf" } else { "+Inf" }.to_string(),
        Form::Zero => return format!("{sign}0"),
        Form::Finite => {}
    }
    // An integer whose ulp is at most 1 prints all its digits: every
    // shorter decimal is at least 1 away, beyond the half-ulp bounds.
    if x.exp >= 0 && x.mant.bits() as i64 + x.exp <= i64::from(x.prec) {
        let v = &x.mant << (x.exp as u64);
        return match v.to_u64() {
            Some(small) => format!("{sign}{small}"),
            None => format!("{sign}{v}"),
        };
    }
    let mut d = Decimal::new(&x.mant, x.exp);
    round_shortest(&mut d, x);
    let mut out = String::with_capacity(d.mant.len() + 8);
    out.push_str(sign);
    fmt_f(&mut out, &d);
    out
}

/// Mirrors big's `decimal`: the value `0.mant * 10^exp` with ASCII digits
/// and no trailing zeros; zero has no digits.
struct Decimal {
    mant: Vec<u8>,
    exp: i64,
}

impl Decimal {
    /// Mirrors decimal.init: the exact decimal of `m * 2^shift`.
    fn new(m: &BigUint, shift: i64) -> Decimal {
        if m.is_zero() {
            return Decimal {
                mant: Vec::new(),
                exp: 0,
            };
        }
        let (digits, frac) = if shift >= 0 {
            ((m << (shift as u64)).to_str_radix(10), 0)
        } else {
            // m / 2^k == m * 5^k / 10^k, after dropping m's factors of two.
            let ntz = m.trailing_zeros().unwrap_or(0);
            let s = ntz.min(shift.unsigned_abs());
            let k = shift.unsigned_abs() - s;
            let odd = m >> s;
            if k == 0 {
                (odd.to_str_radix(10), 0)
            } else {
                ((odd * pow5(k)).to_str_radix(10), k as i64)
            }
        };
        let mut mant = digits.into_bytes();
        let exp = mant.len() as i64 - frac;
        while mant.last() == Some(&b'0') {
            mant.pop();
        }
        Decimal { mant, exp }
    }

    fn at(&self, i: i64) -> u8 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.mant.get(i).copied())
            .unwrap_or(b'0')
    }

    /// Mirrors decimal.round: nearest, ties to an even last digit.
    fn round(&mut self, n: usize) {
        if n >= self.mant.len() {
            return;
        }
        let up = if self.mant[n] == b'5' && n + 1 == self.mant.len() {
            n > 0 && (self.mant[n - 1] - b'0') & 1 != 0
        } else {
            self.mant[n] >= b'5'
        };
        if up {
            self.round_up(n);
        } else {
            self.round_down(n);
        }
    }

    fn round_up(&mut self, n: usize) {
        if n >= self.mant.len() {
            return;
        }
        let mut n = n;
        while n > 0 && self.mant[n - 1] >= b'9' {
            n -= 1;
        }
        if n == 0 {
            self.mant.clear();
            self.mant.push(b'1');
            self.exp += 1;
            return;
        }
        self.mant[n - 1] += 1;
        self.mant.truncate(n);
    }

    fn round_down(&mut self, n: usize) {
        if n >= self.mant.len() {
            return;
        }
        self.mant.truncate(n);
        while self.mant.last() == Some(&b'0') {
            self.mant.pop();
        }
        if self.mant.is_empty() {
            self.exp = 0;
        }
    }
}

/// 5^k, with the small ones (the common case) cheap.
fn pow5(k: u64) -> BigUint {
    if k <= 27 {
        return BigUint::from(5u64.pow(k as u32));
    }
    let k32 = u32::try_from(k).unwrap_or(u32::MAX);
    BigUint::from(5u32).pow(k32)
}

/// Mirrors big's roundShortest.
fn round_shortest(d: &mut Decimal, x: &Number) {
    if d.mant.is_empty() {
        return;
    }
    // x = mant * 2^exp with the lsb of mant worth half an ulp.
    let s = i64::from(x.prec) + 1 - x.mant.bits() as i64;
    let (mant, exp) = if s >= 0 {
        (&x.mant << (s as u64), x.exp - s)
    } else {
        (&x.mant >> s.unsigned_abs(), x.exp - s)
    };
    let lower = Decimal::new(&(&mant - 1u32), exp);
    let upper = Decimal::new(&(&mant + 1u32), exp);
    // The bounds round to x only if its mantissa is even.
    let inclusive = !mant.bit(1);

    for i in 0..d.mant.len() {
        let m = d.mant[i];
        let l = lower.at(i as i64);
        let u = upper.at(i as i64);
        let okdown = l != m || inclusive && i + 1 == lower.mant.len();
        let okup = m != u && (inclusive || m + 1 < u || i + 1 < upper.mant.len());
        match (okdown, okup) {
            (true, true) => return d.round(i + 1),
            (true, false) => return d.round_down(i + 1),
            (false, true) => return d.round_up(i + 1),
            (false, false) => {}
        }
    }
}

/// Mirrors big's fmtF with the shortest precision.
fn fmt_f(out: &mut String, d: &Decimal) {
    let len = d.mant.len() as i64;
    if d.exp > 0 {
        let m = len.min(d.exp) as usize;
        out.extend(d.mant[..m].iter().map(|&c| c as char));
        out.extend(std::iter::repeat('0').take((d.exp - m as i64) as usize));
    } else {
        out.push('0');
    }
    let prec = (len - d.exp).max(0);
    if prec > 0 {
        out.push('.');
        out.extend((0..prec).map(|i| d.at(d.exp + i) as char));
    }
}
