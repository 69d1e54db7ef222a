//! Decimal formats other than the shortest `'f'` text: `big.Float.Text`
//! with the `'e'`, `'E'`, `'f'`, `'g'` and `'G'` formats and any precision,
//! and integer digits in a base, as cty's `format` function prints numbers.

use num_bigint::BigUint;

use super::{Form, Number};

/// The most decimal digits these conversions produce or work with; larger
/// requests are refused rather than exhausting memory.
const MAX_FORMAT_DIGITS: u64 = 10_000_000;

impl Number {
    /// Mirrors `big.Float.Text(format, prec)` for the decimal formats
    /// `'e'`, `'E'`, `'f'`, `'g'` and `'G'`: a negative `prec` selects the
    /// shortest digits that identify the number at its precision.
    /// Infinities print as `+Inf` / `-Inf`. `None` for other formats, or
    /// when the digits would exceed [`MAX_FORMAT_DIGITS`].
    pub fn text_format(&self, format: char, prec: i64) -> Option<String> {
        if !matches!(format, 'e' | 'E' | 'f' | 'g' | 'G') {
            return None;
        }
        let mut out = String::new();
        if self.neg {
            out.push('-');
        }
        if self.form == Form::Inf {
            if !self.neg {
                out.push('+');
            }
            out.push_str("Inf");
            return Some(out);
        }
        let shortest = prec < 0;
        let mut prec = prec;
        let d = if shortest {
            let d = self.shortest_decimal()?;
            prec = match format {
                'e' | 'E' => d.digits.len() as i64 - 1,
                'f' => (d.digits.len() as i64 - d.exp).max(0),
                _ => d.digits.len() as i64,
            };
            d
        } else {
            let mut d = self.exact_decimal()?;
            match format {
                'e' | 'E' => d.round(prec.saturating_add(1)),
                'f' => d.round(d.exp.saturating_add(prec)),
                _ => {
                    if prec == 0 {
                        prec = 1;
                    }
                    d.round(prec);
                }
            }
            d
        };
        if prec.unsigned_abs() > MAX_FORMAT_DIGITS {
            return None;
        }
        match format {
            'e' | 'E' => push_e(&mut out, format, prec, &d),
            'f' => push_f(&mut out, prec, &d),
            _ => {
                let len = d.digits.len() as i64;
                let mut eprec = prec;
                if eprec > len && len >= d.exp {
                    eprec = len;
                }
                if shortest {
                    eprec = 6;
                }
                let exp = d.exp - 1;
                if exp < -4 || exp >= eprec {
                    let prec = prec.min(len);
                    let e = if format == 'g' { 'e' } else { 'E' };
                    push_e(&mut out, e, prec - 1, &d);
                } else {
                    let prec = if prec > d.exp { len } else { prec };
                    push_f(&mut out, (prec - d.exp).max(0), &d);
                }
            }
        }
        Some(out)
    }

    /// The magnitude's integer digits in `base` (2 to 36, lower case), for
    /// an integer number (`big.Float.Int` then `big.Int.Text`). `None` for
    /// non-integers, infinities, and integers too long to print.
    pub fn integer_digits(&self, base: u32) -> Option<String> {
        match self.form {
            Form::Zero => Some("0".to_string()),
            Form::Inf => None,
            Form::Finite => {
                if self.exp < 0 || self.gexp() as u64 > MAX_FORMAT_DIGITS * 3 {
                    return None;
                }
                Some((&self.mant << (self.exp as u64)).to_str_radix(base))
            }
        }
    }

    /// The shortest decimal, read back from the shortest `'f'` text.
    fn shortest_decimal(&self) -> Option<Decimal> {
        if self.form == Form::Zero {
            return Some(Decimal::zero());
        }
        if self.text_len_bound() > MAX_FORMAT_DIGITS {
            return None;
        }
        let text = self.text();
        let text = text.trim_start_matches('-');
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        let all: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
        let lead = all.iter().take_while(|&&c| c == b'0').count();
        let mut d = Decimal {
            digits: all[lead..].to_vec(),
            exp: int.len() as i64 - lead as i64,
        };
        d.trim();
        Some(d)
    }

    /// Mirrors big's `decimal.init`: the exact decimal of the magnitude.
    fn exact_decimal(&self) -> Option<Decimal> {
        if self.form != Form::Finite {
            return Some(Decimal::zero());
        }
        // Digits before the point plus digits after it.
        let int_digits = (self.gexp().max(0) as u64) * 30103 / 100000 + 1;
        let frac_digits = (-self.exp).max(0) as u64;
        if int_digits + frac_digits > MAX_FORMAT_DIGITS {
            return None;
        }
        let (digits, frac) = if self.exp >= 0 {
            ((&self.mant << (self.exp as u64)).to_str_radix(10), 0)
        } else {
            // m / 2^k == m * 5^k / 10^k
            let k = self.exp.unsigned_abs();
            let five = BigUint::from(5u32).pow(u32::try_from(k).ok()?);
            ((&self.mant * five).to_str_radix(10), k as i64)
        };
        let mut d = Decimal {
            exp: digits.len() as i64 - frac,
            digits: digits.into_bytes(),
        };
        d.trim();
        Some(d)
    }
}

/// Mirrors big's `decimal`: the value `0.digits * 10^exp`, ASCII digits
/// without trailing zeros (zero has none).
struct Decimal {
    digits: Vec<u8>,
    exp: i64,
}

impl Decimal {
    fn zero() -> Decimal {
        Decimal {
            digits: Vec::new(),
            exp: 0,
        }
    }

    /// The `i`th digit, `'0'` outside the digits.
    fn at(&self, i: i64) -> u8 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.digits.get(i).copied())
            .unwrap_or(b'0')
    }

    /// Mirrors decimal.round: to `n` digits, nearest with ties to even.
    fn round(&mut self, n: i64) {
        let Ok(n) = usize::try_from(n) else {
            return;
        };
        if n >= self.digits.len() {
            return;
        }
        let up = if self.digits[n] == b'5' && n + 1 == self.digits.len() {
            n > 0 && (self.digits[n - 1] - b'0') & 1 != 0
        } else {
            self.digits[n] >= b'5'
        };
        if up {
            let mut n = n;
            while n > 0 && self.digits[n - 1] >= b'9' {
                n -= 1;
            }
            if n == 0 {
                self.digits.clear();
                self.digits.push(b'1');
                self.exp += 1;
            } else {
                self.digits[n - 1] += 1;
                self.digits.truncate(n);
            }
        } else {
            self.digits.truncate(n);
            self.trim();
        }
    }

    /// Mirrors big's `trim`: drops trailing zeros.
    fn trim(&mut self) {
        while self.digits.last() == Some(&b'0') {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.exp = 0;
        }
    }
}

/// Mirrors big's `fmtE`: `d.ddddde±dd`.
fn push_e(out: &mut String, e: char, prec: i64, d: &Decimal) {
    out.push(d.digits.first().map_or('0', |&c| c as char));
    if prec > 0 {
        out.push('.');
        for i in 1..=prec {
            out.push(d.at(i) as char);
        }
    }
    out.push(e);
    let exp = if d.digits.is_empty() { 0 } else { d.exp - 1 };
    out.push(if exp < 0 { '-' } else { '+' });
    if exp.abs() < 10 {
        out.push('0');
    }
    out.push_str(&exp.unsigned_abs().to_string());
}

/// Mirrors big's `fmtF`: `ddddd.dddd`.
fn push_f(out: &mut String, prec: i64, d: &Decimal) {
    if d.exp > 0 {
        let m = d.digits.len().min(d.exp as usize);
        out.extend(d.digits[..m].iter().map(|&c| c as char));
        out.extend(std::iter::repeat('0').take(d.exp as usize - m));
    } else {
        out.push('0');
    }
    if prec > 0 {
        out.push('.');
        for i in 0..prec {
            out.push(d.at(d.exp + i) as char);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Number;

    // Expected texts from Go 1.19's big.Float.Text on cty numbers
    // (`cty.ParseNumberVal`, 512 bits).
    #[test]
    fn text_format_matches_big_float() {
        let table = [
            ("1234.5678", 'e', -1, "1.2345678e+03"),
            ("1234.5678", 'e', 6, "1.234568e+03"),
            ("1234.5678", 'g', -1, "1234.5678"),
            ("1234.5678", 'g', 3, "1.23e+03"),
            ("1e7", 'g', -1, "1e+07"),
            ("100000", 'g', -1, "100000"),
            ("0.0001", 'g', -1, "0.0001"),
            ("0.00001", 'g', -1, "1e-05"),
            ("15", 'e', 0, "2e+01"),
            ("25", 'e', 0, "2e+01"),
            ("0.05", 'f', 1, "0.1"),
            ("0.25", 'f', 1, "0.2"),
            ("0.5", 'f', 0, "0"),
            ("0.1", 'f', 20, "0.10000000000000000000"),
            ("0.1", 'g', 30, "0.1"),
            ("1e-10", 'G', -1, "1E-10"),
            ("0", 'e', 6, "0.000000e+00"),
            ("-1", 'f', 2, "-1.00"),
            ("1e-300", 'e', 3, "1.000e-300"),
        ];
        for (n, format, prec, want) in table {
            let got = Number::parse(n).unwrap().text_format(format, prec);
            assert_eq!(got.as_deref(), Some(want), "{n} {format} {prec}");
        }
        let inf = Number::infinity(true);
        assert_eq!(inf.text_format('f', 2).as_deref(), Some("-Inf"));
    }
}
