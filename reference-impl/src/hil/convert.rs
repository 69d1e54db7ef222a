//! Go's number and bool conversions as HIL's implicit conversions use
//! them: `strconv.ParseInt(s, 0, 0)`, `strconv.ParseFloat(s, 64)`,
//! `strconv.ParseBool`, `strconv.FormatFloat(f, 'g', -1, 64)`, and the
//! error texts of `strconv.NumError` (Go 1.11, which built Terraform
//! 0.11.11: no `0b`/`0o` prefixes, no underscores, no hex floats). The
//! texts parsed are Go strings, so the error texts quote their bytes as
//! `strconv.Quote` does: `parsing "\x9e\xe9e": invalid syntax`.

use crate::goquote::go_quote_bytes;
use crate::number::Number;

/// A `strconv.NumError` text for a syntax error.
fn syntax_error(func: &str, s: &[u8]) -> String {
    format!(
        "strconv.{func}: parsing {}: invalid syntax",
        go_quote_bytes(s)
    )
}

fn range_error(func: &str, s: &[u8]) -> String {
    format!(
        "strconv.{func}: parsing {}: value out of range",
        go_quote_bytes(s)
    )
}

/// `strconv.Atoi`'s error for text the scanner called an integer (all
/// digits): only a range error is possible.
pub fn parse_int_error(func: &str, s: &str) -> String {
    range_error(func, s.as_bytes())
}

/// `strconv.ParseInt(s, 0, 64)`: optional sign, then `0x`/`0X` hex, a
/// leading `0` octal, or decimal.
pub fn parse_int(s: &[u8]) -> Result<i64, String> {
    const FUNC: &str = "ParseInt";
    if s.is_empty() {
        return Err(syntax_error(FUNC, s));
    }
    let (neg, body) = match s[0] {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let (base, digits) = if body.len() >= 2 && body[0] == b'0' {
        match body[1] {
            b'x' | b'X' => (16, &body[2..]),
            _ => (8, &body[1..]),
        }
    } else {
        (10, body)
    };
    if digits.is_empty() && base != 8 {
        return Err(syntax_error(FUNC, s));
    }
    let mut value: u64 = 0;
    let mut overflow = false;
    for &b in digits {
        let Some(d) = char::from(b).to_digit(base) else {
            return Err(syntax_error(FUNC, s));
        };
        match value
            .checked_mul(u64::from(base))
            .and_then(|v| v.checked_add(u64::from(d)))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
    }
    let limit: u64 = 1 << 63;
    if overflow || (!neg && value >= limit) || (neg && value > limit) {
        return Err(range_error(FUNC, s));
    }
    Ok(if neg {
        (value as i64).wrapping_neg()
    } else {
        value as i64
    })
}

/// `strconv.ParseFloat(s, 64)` of Go 1.11: decimal digits with an optional
/// exponent, or `inf`/`infinity`/`nan` in any case, each with an optional
/// sign. Out of range is an error (Go returns it with ±Inf).
pub fn parse_float(s: &[u8]) -> Result<f64, String> {
    const FUNC: &str = "ParseFloat";
    let (sign, body) = match s.first() {
        Some(b'+') => (1.0, &s[1..]),
        Some(b'-') => (-1.0, &s[1..]),
        _ => (1.0, s),
    };
    let lower = body.to_ascii_lowercase();
    if lower == b"inf" || lower == b"infinity" {
        return Ok(sign * f64::INFINITY);
    }
    if lower == b"nan" && body.len() == s.len() {
        return Ok(f64::NAN);
    }
    if !decimal_float_syntax(body) {
        return Err(syntax_error(FUNC, s));
    }
    // The syntax is ASCII.
    let v: f64 = std::str::from_utf8(s)
        .ok()
        .and_then(|text| text.parse().ok())
        .ok_or_else(|| syntax_error(FUNC, s))?;
    if v.is_infinite() {
        return Err(range_error(FUNC, s));
    }
    Ok(v)
}

/// Digits with at most one period and at least one digit, then an optional
/// `e`/`E`, sign and digits.
fn decimal_float_syntax(b: &[u8]) -> bool {
    let mut i = 0;
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// `strconv.ParseBool`.
pub fn parse_bool(s: &[u8]) -> Result<bool, String> {
    match s {
        b"1" | b"t" | b"T" | b"TRUE" | b"true" | b"True" => Ok(true),
        b"0" | b"f" | b"F" | b"FALSE" | b"false" | b"False" => Ok(false),
        _ => Err(syntax_error("ParseBool", s)),
    }
}

/// `strconv.FormatFloat(f, fmt, prec, 64)` for the formats `'e'`, `'f'`
/// and `'g'` (prec -1: the shortest text that reads back the same).
pub fn format_float(f: f64, fmt: char, prec: i64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    Number::from_f64(f)
        .text_format(fmt, prec)
        .unwrap_or_else(|| f.to_string())
}

/// Go's `int(f)` for a float64: truncation toward zero; out of range
/// values give the minimum int64, as amd64's conversion does.
pub fn float_to_int(f: f64) -> i64 {
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() || !(-TWO_POW_63..TWO_POW_63).contains(&f) {
        return i64::MIN;
    }
    f.trunc() as i64
}
