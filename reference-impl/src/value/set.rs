//! cty's set storage (`set_internals.go`, `set/`): which elements a set
//! keeps and the order it iterates them in.
//!
//! cty buckets elements by the CRC-32 of a "hash string", keeps the first
//! of any elements that compare equal within a bucket, lists the buckets in
//! ascending hash order (each in insertion order) and then stable-sorts
//! that list with `setRules.Less`. The hash string also decides the order
//! of elements that are neither primitive nor null/unknown, so it is
//! reproduced byte for byte here.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::Value;
use crate::goquote::go_quote;
use crate::number::Number;
use crate::types::Type;

/// Mirrors cty.SetVal's storage: deduplicates and orders `items`, which
/// all conform to `elem` already.
pub(super) fn build(elem: &Type, items: Vec<Value>) -> Vec<Value> {
    let mut buckets: BTreeMap<u32, Vec<(Value, String)>> = BTreeMap::new();
    for item in items {
        let h = hash_string(&item);
        let bucket = buckets.entry(crc32fast::hash(h.as_bytes())).or_default();
        if !bucket.iter().any(|(e, _)| equivalent(e, &item)) {
            bucket.push((item, h));
        }
    }
    let flat: Vec<(Value, String)> = buckets.into_values().flatten().collect();
    merge_sort(flat, &|a, b| less(elem, a, b))
        .into_iter()
        .map(|(v, _)| v)
        .collect()
}

/// Mirrors cty.Value.Hash: the CRC-32 (IEEE) of the hash string, which
/// picks an element's bucket.
pub(crate) fn hash(v: &Value) -> u32 {
    crc32fast::hash(hash_string(v).as_bytes())
}

/// Mirrors setRules.Equivalent: `Equals` is known and true.
fn equivalent(a: &Value, b: &Value) -> bool {
    matches!(a.equals(b), Value::Bool(true))
}

/// Mirrors setRules.Less on elements of type `elem`, each paired with its
/// hash string.
fn less(elem: &Type, (a, ah): &(Value, String), (b, bh): &(Value, String)) -> bool {
    if a.raw_equals_same_type(b) {
        return false;
    }
    // Nulls sort last, unknowns just before them.
    if b.is_null() && !a.is_null() {
        return true;
    } else if a.is_null() {
        return false;
    }
    if a.is_known() && !b.is_known() {
        return true;
    } else if !a.is_known() {
        return false;
    }
    match (elem, a, b) {
        (Type::String, Value::String(x), Value::String(y)) => x < y,
        (Type::Bool, Value::Bool(x), Value::Bool(y)) => *y || !*x,
        (Type::Number, Value::Number(x), Value::Number(y)) => x.cmp(y) == Ordering::Less,
        _ => ah.as_bytes() < bh.as_bytes(),
    }
}

/// A stable merge sort by a "less" predicate; unlike the standard library
/// sorts it never panics on an inconsistent predicate.
fn merge_sort<T, F: Fn(&T, &T) -> bool>(mut items: Vec<T>, less: &F) -> Vec<T> {
    if items.len() <= 1 {
        return items;
    }
    let right = items.split_off(items.len() / 2);
    let left = merge_sort(items, less);
    let right = merge_sort(right, less);
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    loop {
        match (left.peek(), right.peek()) {
            (Some(l), Some(r)) => {
                if less(r, l) {
                    out.extend(right.next());
                } else {
                    out.extend(left.next());
                }
            }
            (Some(_), None) => out.extend(left.next()),
            (None, Some(_)) => out.extend(right.next()),
            (None, None) => return out,
        }
    }
}

/// Mirrors makeSetHashBytes.
pub(crate) fn hash_string(v: &Value) -> String {
    let mut out = String::new();
    append_hash(v, &mut out);
    out
}

fn append_hash(v: &Value, out: &mut String) {
    match v {
        // Set elements carry no marks; a marked value hashes as cty's
        // `Hash` (which unmarks) does.
        Value::Marked(inner) => append_hash(inner, out),
        Value::Unknown(..) => out.push('?'),
        Value::Null(_) => out.push('~'),
        Value::Number(n) => out.push_str(&go_float_string(n)),
        Value::Bool(b) => out.push(if *b { 'T' } else { 'F' }),
        Value::String(s) => out.push_str(&go_quote(s)),
        Value::Map { items, .. } => {
            out.push('{');
            for (k, item) in items {
                out.push_str(&go_quote(k));
                out.push(':');
                append_hash(item, out);
                out.push(';');
            }
            out.push('}');
        }
        Value::List { items, .. } | Value::Set { items, .. } => {
            out.push('[');
            for item in items {
                append_hash(item, out);
                out.push(';');
            }
            out.push(']');
        }
        Value::Object(attrs) => {
            out.push('<');
            for item in attrs.values() {
                append_hash(item, out);
                out.push(';');
            }
            out.push('>');
        }
        Value::Tuple(items) => {
            out.push('<');
            for item in items {
                append_hash(item, out);
                out.push(';');
            }
            out.push('>');
        }
    }
}

/// The number of significant digits in `big.Float.String`.
const HASH_DIGITS: usize = 10;

/// Mirrors big.Float.String, i.e. `Text('g', 10)`: the exact value rounded
/// half-to-even to ten significant digits, in %e form for large or small
/// exponents.
///
/// The number's shortest round-trip text gives the same ten digits as its
/// exact value except when that text is exactly a halfway point (eleven
/// digits ending in 5); then the side the exact value lies on is found by
/// comparing with the halfway point parsed at 512 bits.
pub(super) fn go_float_string(n: &Number) -> String {
    let text = n.text();
    let (negative, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(&text)),
    };
    if magnitude == "Inf" {
        return if negative { "-Inf" } else { "+Inf" }.to_string();
    }
    let sign = if negative { "-" } else { "" };
    let Some((mut digits, mut exp)) = decimal_digits(magnitude) else {
        return format!("{sign}{magnitude}");
    };
    if digits.len() > HASH_DIGITS {
        let next = digits[HASH_DIGITS];
        let up = if next == b'5' && digits.len() == HASH_DIGITS + 1 {
            match halfway_side(n, negative, magnitude) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => (digits[HASH_DIGITS - 1] - b'0') % 2 == 1,
            }
        } else {
            next >= b'5'
        };
        digits.truncate(HASH_DIGITS);
        if up {
            round_up(&mut digits, &mut exp);
        }
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
    }
    format!("{sign}{}", format_g(&digits, exp))
}

/// Splits a plain decimal ("123.45", "0.001") into significant digits
/// without leading or trailing zeros and the decimal exponent `exp` such
/// that the value is `0.digits × 10^exp`. `None` for text of another shape.
fn decimal_digits(text: &str) -> Option<(Vec<u8>, i64)> {
    let (int_part, frac_part) = text.split_once('.').unwrap_or((text, ""));
    if !int_part
        .bytes()
        .chain(frac_part.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let int_trimmed = int_part.trim_start_matches('0');
    let mut digits: Vec<u8>;
    let exp: i64;
    if !int_trimmed.is_empty() {
        digits = int_trimmed.bytes().chain(frac_part.bytes()).collect();
        exp = int_trimmed.len() as i64;
    } else {
        let frac_trimmed = frac_part.trim_start_matches('0');
        digits = frac_trimmed.bytes().collect();
        exp = -((frac_part.len() - frac_trimmed.len()) as i64);
    }
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    if digits.is_empty() {
        return Some((digits, 0));
    }
    Some((digits, exp))
}

/// Mirrors decimal.roundUp after truncation to the current length.
fn round_up(digits: &mut Vec<u8>, exp: &mut i64) {
    while let Some(&last) = digits.last() {
        if last == b'9' {
            digits.pop();
        } else {
            *digits.last_mut().expect("non-empty") += 1;
            return;
        }
    }
    digits.push(b'1');
    *exp += 1;
}

/// Mirrors the 'g' branch of big.Float.Append with precision 10.
fn format_g(digits: &[u8], exp: i64) -> String {
    let n = digits.len() as i64;
    let mut eprec = HASH_DIGITS as i64;
    if eprec > n && n >= exp {
        eprec = n;
    }
    let x = exp - 1;
    let digit_str = |d: &[u8]| String::from_utf8_lossy(d).into_owned();
    if x < -4 || x >= eprec {
        let prec = (HASH_DIGITS as i64).min(n);
        let mut s = String::new();
        s.push(digits.first().map_or('0', |&d| d as char));
        if prec - 1 > 0 {
            s.push('.');
            s.push_str(&digit_str(&digits[1..(prec as usize).min(digits.len())]));
        }
        let e = if digits.is_empty() { 0 } else { x };
        s.push('e');
        s.push(if e < 0 { '-' } else { '+' });
        if e.abs() < 10 {
            s.push('0');
        }
        s.push_str(&e.abs().to_string());
        return s;
    }
    let prec = if HASH_DIGITS as i64 > exp {
        n
    } else {
        HASH_DIGITS as i64
    };
    let frac_len = (prec - exp).max(0);
    let mut s = String::new();
    if exp > 0 {
        for i in 0..exp {
            s.push(digits.get(i as usize).map_or('0', |&d| d as char));
        }
    } else {
        s.push('0');
    }
    if frac_len > 0 {
        s.push('.');
        for i in 0..frac_len {
            let idx = exp + i;
            let d = if idx >= 0 {
                digits.get(idx as usize).map_or('0', |&d| d as char)
            } else {
                '0'
            };
            s.push(d);
        }
    }
    s
}

/// The bits cty parses decimal numbers to.
const PARSE_PRECISION: u64 = 512;

/// Which side of the decimal `halfway` (the magnitude's text, exactly a
/// ten-digit rounding midpoint) the exact magnitude of `n` lies on.
fn halfway_side(n: &Number, negative: bool, halfway: &str) -> Ordering {
    let Some(parsed) = Number::parse(halfway) else {
        return Ordering::Equal;
    };
    let magnitude = if negative { n.neg() } else { n.clone() };
    match magnitude.cmp(&parsed) {
        Ordering::Equal => {}
        other => return other,
    }
    // The number is the 512-bit rounding of the midpoint: it lies on the
    // side the parse rounded to, or on it when that was exact.
    let Some((digits, exp)) = decimal_digits(halfway) else {
        return Ordering::Equal;
    };
    let mantissa = BigUint::parse_bytes(&digits, 10).unwrap_or_default();
    rounding_direction(&mantissa, exp - digits.len() as i64)
}

/// Beyond this decimal exponent the exact comparison is skipped (treated
/// as an exact tie) to bound the work.
const MAX_EXACT_EXPONENT: u64 = 20_000;

/// Rounds `m × 10^e` to 512 significant bits, half to even, and says
/// whether the result is above, below or equal to the exact value.
fn rounding_direction(m: &BigUint, e: i64) -> Ordering {
    if m.is_zero() {
        return Ordering::Equal;
    }
    if e.unsigned_abs() > MAX_EXACT_EXPONENT {
        return Ordering::Equal;
    }
    let ten = BigUint::from(10u32);
    let (num, den) = if e >= 0 {
        (m * ten.pow(e as u32), BigUint::one())
    } else {
        (m.clone(), ten.pow(e.unsigned_abs() as u32))
    };
    // Scale by 2^k so the quotient has exactly PARSE_PRECISION bits.
    let mut k = PARSE_PRECISION as i64 + den.bits() as i64 - num.bits() as i64;
    let quotient = |k: i64| {
        let (n, d) = if k >= 0 {
            (&num << (k as u64), den.clone())
        } else {
            (num.clone(), &den << k.unsigned_abs())
        };
        let q = &n / &d;
        let r = &n - &q * &d;
        (q, r, d)
    };
    let (mut q, mut r, mut d) = quotient(k);
    if q.bits() > PARSE_PRECISION {
        k -= 1;
        (q, r, d) = quotient(k);
    }
    if r.is_zero() {
        return Ordering::Equal;
    }
    let twice = &r << 1u32;
    let up = twice > d || (twice == d && q.bit(0));
    if up {
        Ordering::Greater
    } else {
        Ordering::Less
    }
}
