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
    // Digits past the first few hundred rarely matter: try a prefix of
    // each decimal first and fall back to exact ones when it runs out.
    let d = shortest(x, |m, e| Decimal::leading(m, e, prefix_digits(x.prec)))
        .or_else(|| shortest(x, Decimal::exact));
    let mut out = String::new();
    out.push_str(sign);
    if let Some(d) = d {
        fmt_f(&mut out, &d);
    }
    out
}

/// Digits of prefix that settle the shortest form of a `prec`-bit number:
/// the half-ulp bounds part from it within about `prec * log10(2)` digits.
fn prefix_digits(prec: u32) -> usize {
    (f64::from(prec) * std::f64::consts::LOG10_2) as usize + 8
}

/// Mirrors big's `decimal`: the value `0.mant * 10^exp` with ASCII digits.
/// An exact decimal has no trailing zeros (zero has no digits). A prefix
/// (`more`) holds the leading digits of a longer decimal whose remaining
/// digits are not all zero; asking for those gives `None`.
struct Decimal {
    mant: Vec<u8>,
    exp: i64,
    more: bool,
}

impl Decimal {
    /// Mirrors decimal.init: the exact decimal of `m * 2^shift`.
    fn exact(m: &BigUint, shift: i64) -> Decimal {
        if m.is_zero() {
            return Decimal {
                mant: Vec::new(),
                exp: 0,
                more: false,
            };
        }
        let (digits, frac) = if shift >= 0 {
            ((m << (shift as u64)).to_str_radix(10), 0)
        } else {
            // m / 2^k == m * 5^k / 10^k, after dropping m's factors of two.
            let ntz = m.trailing_zeros().unwrap_or(0);
            let s = ntz.min(shift.unsigned_abs());
            let k = shift.unsigned_abs() - s;
            (((m >> s) * pow5(k)).to_str_radix(10), k as i64)
        };
        Decimal::from_digits(digits, frac, false)
    }

    /// At least `n` leading digits of the decimal of `m * 2^shift` (m > 0).
    fn leading(m: &BigUint, shift: i64, n: usize) -> Decimal {
        // value >= 2^(bits + shift - 1); scale by 10^t to get >= n digits.
        let low_log10 = (m.bits() as i64 + shift - 1) as f64 * std::f64::consts::LOG10_2;
        let t = n as i64 + 1 - low_log10.floor() as i64;
        if let Some(scaled) = leading_by_bounds(m, shift, t, n) {
            // The decimal goes on past these digits: see leading_by_bounds.
            return Decimal::from_digits(scaled.to_str_radix(10), t, true);
        }
        let (scaled, rem_nonzero) = if t >= 0 {
            let num = m * pow10(t as u64);
            if shift >= 0 {
                (num << (shift as u64), false)
            } else {
                let k = shift.unsigned_abs();
                let inexact = num.trailing_zeros().unwrap_or(0) < k;
                (num >> k, inexact)
            }
        } else {
            // value / 10^s == value / (5^s * 2^s)
            let s = t.unsigned_abs();
            let e = shift - s as i64;
            let (num, den) = if e >= 0 {
                (m << (e as u64), pow5(s))
            } else {
                (m.clone(), pow5(s) << e.unsigned_abs())
            };
            let (q, r) = num_integer::Integer::div_rem(&num, &den);
            (q, !r.is_zero())
        };
        Decimal::from_digits(scaled.to_str_radix(10), t, rem_nonzero)
    }

    /// The decimal `digits * 10^-frac`, followed by more non-zero digits
    /// when `more`.
    fn from_digits(digits: String, frac: i64, more: bool) -> Decimal {
        let mut mant = digits.into_bytes();
        let exp = mant.len() as i64 - frac;
        if !more {
            while mant.last() == Some(&b'0') {
                mant.pop();
            }
        }
        Decimal { mant, exp, more }
    }

    /// The i'th digit (`'0'` past the end of an exact decimal).
    fn at(&self, i: usize) -> Option<u8> {
        match self.mant.get(i) {
            Some(&c) => Some(c),
            None if self.more => None,
            None => Some(b'0'),
        }
    }

    /// Whether the full decimal has exactly `n` digits.
    fn len_is(&self, n: usize) -> bool {
        !self.more && self.mant.len() == n
    }

    /// Whether the full decimal has more than `n` digits.
    fn len_exceeds(&self, n: usize) -> bool {
        self.more || self.mant.len() > n
    }

    /// Mirrors decimal.round: nearest, ties to an even last digit.
    fn round(&mut self, n: usize) -> Option<()> {
        let c = match self.mant.get(n) {
            Some(&c) => c,
            None if self.more => return None,
            None => return Some(()),
        };
        let up = if c == b'5' && self.len_is(n + 1) {
            n > 0 && (self.mant[n - 1] - b'0') & 1 != 0
        } else {
            c >= b'5'
        };
        if up {
            self.round_up(n)
        } else {
            self.round_down(n)
        }
    }

    /// Mirrors decimal.roundUp.
    fn round_up(&mut self, n: usize) -> Option<()> {
        if !self.len_exceeds(n) {
            return Some(());
        }
        if n > self.mant.len() {
            return None;
        }
        self.more = false;
        let mut n = n;
        while n > 0 && self.mant[n - 1] >= b'9' {
            n -= 1;
        }
        if n == 0 {
            self.mant.clear();
            self.mant.push(b'1');
            self.exp += 1;
            return Some(());
        }
        self.mant[n - 1] += 1;
        self.mant.truncate(n);
        Some(())
    }

    /// Mirrors decimal.roundDown.
    fn round_down(&mut self, n: usize) -> Option<()> {
        if !self.len_exceeds(n) {
            return Some(());
        }
        if n > self.mant.len() {
            return None;
        }
        self.more = false;
        self.mant.truncate(n);
        while self.mant.last() == Some(&b'0') {
            self.mant.pop();
        }
        if self.mant.is_empty() {
            self.exp = 0;
        }
        Some(())
    }
}

/// Powers of ten at least this large are not computed exactly when only a
/// prefix of digits is wanted: `1e99999999` would need a 232-million-bit
/// power of five, and printing it would take minutes instead of a second.
const BOUNDED_POWER_MIN: u64 = 4096;

/// `floor(m * 2^shift * 10^t)` for a large `|t|`, from a power of five known
/// only within tight bounds: `None` when those bounds do not settle every
/// digit (then the caller computes it exactly), or when `|t|` is small.
///
/// Its decimal never ends there: with `t = -s`, the quotient by `5^s` is
/// exact only if `5^s` divides `m`, impossible once `5^s > m`; with `t > 0`,
/// `m * 5^t * 2^(t + shift)` is a whole number only if `m` has
/// `-(t + shift)` trailing zero bits, impossible once that exceeds its
/// length. The conditions below keep to those cases.
fn leading_by_bounds(m: &BigUint, shift: i64, t: i64, n: usize) -> Option<BigUint> {
    let k = t.unsigned_abs();
    if k < BOUNDED_POWER_MIN {
        return None;
    }
    // Bits of the result, plus a margin for the bounds' relative error.
    let bits = (n as u64 + 2) * 34 / 10 + 64;
    if t < 0 {
        if k <= m.bits() {
            return None;
        }
        let (lo, hi, x) = pow5_bounds(k, bits);
        // m * 2^shift / 10^k = m * 2^(shift - k - x) / (5^k / 2^x)
        let e = shift - k as i64 - x;
        let (q_lo, q_hi) = if e >= 0 {
            let num = m << (e as u64);
            (&num / &hi, &num / &lo)
        } else {
            let d = e.unsigned_abs();
            (m / (&hi << d), m / (&lo << d))
        };
        (q_lo == q_hi).then_some(q_lo)
    } else {
        let e = t + shift;
        if e >= 0 || e.unsigned_abs() <= m.bits() {
            return None;
        }
        let (lo, hi, x) = pow5_bounds(k, bits);
        // m * 5^k * 2^(k + shift) = m * (5^k / 2^x) * 2^(e + x)
        let e = e + x;
        if e >= 0 {
            return None;
        }
        let d = e.unsigned_abs();
        let (q_lo, q_hi) = ((m * &lo) >> d, (m * &hi) >> d);
        (q_lo == q_hi).then_some(q_lo)
    }
}

/// `(lo, hi, x)` with `lo * 2^x <= 5^k <= hi * 2^x`, `lo` and `hi` about
/// `bits` bits long and apart by a relative error near `2^-(bits - 8)`.
fn pow5_bounds(k: u64, bits: u64) -> (BigUint, BigUint, i64) {
    // Both bounds are cut by the same shift: `lo` rounded down, `hi` up.
    fn trim(lo: BigUint, hi: BigUint, x: i64, bits: u64) -> (BigUint, BigUint, i64) {
        let excess = hi.bits().saturating_sub(bits);
        if excess == 0 {
            return (lo, hi, x);
        }
        (lo >> excess, (hi >> excess) + 1u32, x + excess as i64)
    }
    let (mut lo, mut hi, mut x) = (BigUint::from(1u32), BigUint::from(1u32), 0i64);
    let (mut b_lo, mut b_hi, mut b_x) = (BigUint::from(5u32), BigUint::from(5u32), 0i64);
    let mut k = k;
    loop {
        if k & 1 == 1 {
            (lo, hi, x) = trim(&lo * &b_lo, &hi * &b_hi, x + b_x, bits);
        }
        k >>= 1;
        if k == 0 {
            return (lo, hi, x);
        }
        (b_lo, b_hi, b_x) = trim(&b_lo * &b_lo, &b_hi * &b_hi, 2 * b_x, bits);
    }
}

/// 5^k, with the small ones (the common case) cheap.
fn pow5(k: u64) -> BigUint {
    if k <= 27 {
        return BigUint::from(5u64.pow(k as u32));
    }
    BigUint::from(5u32).pow(u32::try_from(k).unwrap_or(u32::MAX))
}

/// 10^k.
fn pow10(k: u64) -> BigUint {
    if k <= 19 {
        return BigUint::from(10u64.pow(k as u32));
    }
    BigUint::from(10u32).pow(u32::try_from(k).unwrap_or(u32::MAX))
}

/// Mirrors big's roundShortest on the decimal of finite `x`, with decimals
/// made by `make`; `None` when a prefix decimal runs out of digits.
fn shortest(x: &Number, make: impl Fn(&BigUint, i64) -> Decimal) -> Option<Decimal> {
    let mut d = make(&x.mant, x.exp);
    // x = mant * 2^exp with the lsb of mant worth half an ulp.
    let s = i64::from(x.prec) + 1 - x.mant.bits() as i64;
    let (mant, exp) = if s >= 0 {
        (&x.mant << (s as u64), x.exp - s)
    } else {
        (&x.mant >> s.unsigned_abs(), x.exp - s)
    };
    let lower = make(&(&mant - 1u32), exp);
    let upper = make(&(&mant + 1u32), exp);
    // The bounds round to x only if its mantissa is even.
    let inclusive = !mant.bit(1);

    let mut i = 0;
    while d.len_exceeds(i) {
        let m = d.at(i)?;
        let l = lower.at(i)?;
        let u = upper.at(i)?;
        let okdown = l != m || inclusive && lower.len_is(i + 1);
        let okup = m != u && (inclusive || m + 1 < u || upper.len_exceeds(i + 1));
        match (okdown, okup) {
            (true, true) => d.round(i + 1)?,
            (true, false) => d.round_down(i + 1)?,
            (false, true) => d.round_up(i + 1)?,
            (false, false) => {
                i += 1;
                continue;
            }
        }
        return Some(d);
    }
    (!d.more).then_some(d)
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
        out.extend((0..prec).map(|i| {
            usize::try_from(d.exp + i)
                .ok()
                .and_then(|i| d.mant.get(i).copied())
                .unwrap_or(b'0') as char
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `floor(m * 2^shift * 10^t)` computed exactly.
    fn exact(m: &BigUint, shift: i64, t: i64) -> BigUint {
        let (mut num, mut den) = (m.clone(), BigUint::from(1u32));
        if t >= 0 {
            num *= pow10(t as u64);
        } else {
            den *= pow10(t.unsigned_abs());
        }
        if shift >= 0 {
            num <<= shift as u64;
        } else {
            den <<= shift.unsigned_abs();
        }
        num / den
    }

    #[test]
    fn bounded_powers_give_the_exact_digits() {
        let mut checked = 0;
        // Mantissas of one bit to 512 bits, with awkward bit patterns.
        let mantissas: Vec<BigUint> = [1u32, 3, 5, 7, 77, 1023]
            .iter()
            .map(|&v| BigUint::from(v))
            .chain([
                (BigUint::from(1u32) << 511u32) - 1u32,
                (BigUint::from(1u32) << 300u32) + 12345u32,
                BigUint::from(5u32).pow(200) + 1u32,
            ])
            .collect();
        for m in &mantissas {
            for &k in &[4096i64, 4097, 5000, 9999, 20011] {
                for t in [k, -k] {
                    // The shift that leaves about n + 1 digits in the result.
                    let n = 162usize;
                    let want_log2 = ((n + 2) as f64 / std::f64::consts::LOG10_2) as i64;
                    let log2_10t = (t as f64 / std::f64::consts::LOG10_2) as i64;
                    let shift = want_log2 - m.bits() as i64 - log2_10t;
                    if let Some(q) = leading_by_bounds(m, shift, t, n) {
                        assert_eq!(q, exact(m, shift, t), "m={m} shift={shift} t={t}");
                        checked += 1;
                    }
                }
            }
        }
        // The bounds settle (almost) every case; a miss falls back to exact.
        assert!(
            checked >= 80,
            "only {checked} cases went through the bounds"
        );
    }

    #[test]
    fn huge_exponents_print_quickly_and_as_before() {
        // Up to 1e5000 the exact path is still quick: compare it with the
        // bounded one through the whole shortest-digit walk.
        for src in ["1e5000", "1.234567e-5000", "9.999e4999", "3e-4500"] {
            let x = Number::parse(src).unwrap();
            let bounded = shortest(&x, |m, e| Decimal::leading(m, e, prefix_digits(x.prec)));
            let exact = shortest(&x, Decimal::exact).unwrap();
            let bounded = bounded.unwrap();
            assert_eq!(
                (bounded.mant, bounded.exp),
                (exact.mant, exact.exp),
                "{src}"
            );
        }
        let text = Number::parse("1e99999999").unwrap().text();
        assert_eq!(text.len(), 100_000_000);
        assert!(text.starts_with("1000000000000"));
    }
}
