//! `timeadd`: Go 1.11's `time.Parse(time.RFC3339, ...)`, `time.ParseDuration`,
//! `Time.Add` and `Time.Format(time.RFC3339)`, with their error texts
//! (which quote values plainly, without escaping).

const LAYOUT: &str = "2006-01-02T15:04:05Z07:00";

/// A parsed timestamp: its instant in nanoseconds since the Unix epoch
/// (UTC) and its zone offset in seconds.
struct Instant {
    nanos: i128,
    offset: i64,
}

/// `timeadd(timestamp, duration)`.
pub fn timeadd(timestamp: &str, duration: &str) -> Result<String, String> {
    let t = parse_rfc3339(timestamp)?;
    let d = parse_duration(duration)?;
    Ok(format_rfc3339(&Instant {
        nanos: t.nanos + i128::from(d),
        offset: t.offset,
    }))
}

fn cannot_parse(value: &str, rest: &str, elem: &str) -> String {
    format!("parsing time \"{value}\" as \"{LAYOUT}\": cannot parse \"{rest}\" as \"{elem}\"")
}

fn out_of_range(value: &str, what: &str) -> String {
    format!("parsing time \"{value}\": {what} out of range")
}

/// Go's `getnum`: one or two leading digits (exactly two when `fixed`).
fn getnum(s: &str, fixed: bool) -> Option<(i64, &str)> {
    let b = s.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    if !digit(0) {
        return None;
    }
    if !digit(1) {
        if fixed {
            return None;
        }
        return Some((i64::from(b[0] - b'0'), &s[1..]));
    }
    Some((
        i64::from(b[0] - b'0') * 10 + i64::from(b[1] - b'0'),
        &s[2..],
    ))
}

fn parse_rfc3339(value: &str) -> Result<Instant, String> {
    let mut rest = value;
    let literal = |rest: &mut &str, lit: &str| -> Result<(), String> {
        match rest.strip_prefix(lit) {
            Some(r) => {
                *rest = r;
                Ok(())
            }
            None => Err(cannot_parse(value, rest, lit)),
        }
    };
    // Year: four bytes, the first a digit, all read by atoi. Go cuts the
    // four bytes off before atoi reads them, so when they are not all
    // digits the error shows the bytes after them, which may start inside
    // a character (`200€` leaves two bytes of the euro sign).
    let b = rest.as_bytes();
    if b.len() < 4 || !b[0].is_ascii_digit() {
        return Err(cannot_parse(value, rest, "2006"));
    }
    if !b[..4].iter().all(u8::is_ascii_digit) {
        let after = super::gostr::message_text(&b[4..]);
        return Err(cannot_parse(value, &after, "2006"));
    }
    let year = b[..4]
        .iter()
        .fold(0i64, |y, d| y * 10 + i64::from(d - b'0'));
    rest = &rest[4..];
    let number = |rest: &mut &str, fixed: bool, elem: &str| -> Result<i64, String> {
        let (n, r) = getnum(rest, fixed).ok_or_else(|| cannot_parse(value, rest, elem))?;
        *rest = r;
        Ok(n)
    };
    literal(&mut rest, "-")?;
    let month = number(&mut rest, true, "01")?;
    if !(1..=12).contains(&month) {
        return Err(out_of_range(value, "month"));
    }
    literal(&mut rest, "-")?;
    let day = number(&mut rest, true, "02")?;
    literal(&mut rest, "T")?;
    let hour = number(&mut rest, false, "15")?;
    if hour >= 24 {
        return Err(out_of_range(value, "hour"));
    }
    literal(&mut rest, ":")?;
    let minute = number(&mut rest, true, "04")?;
    if minute >= 60 {
        return Err(out_of_range(value, "minute"));
    }
    literal(&mut rest, ":")?;
    let second = number(&mut rest, true, "05")?;
    if second >= 60 {
        return Err(out_of_range(value, "second"));
    }
    let mut nanos: i64 = 0;
    let rb = rest.as_bytes();
    if rb.len() >= 2 && rb[0] == b'.' && rb[1].is_ascii_digit() {
        let n = 1 + rb[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let digits = &rest[1..n];
        if digits.len() > 10 {
            return Err(out_of_range(value, "fractional second"));
        }
        let mut scaled = digits.to_string();
        while scaled.len() < 9 {
            scaled.push('0');
        }
        nanos = scaled[..9].parse().unwrap_or(0);
        rest = &rest[n..];
    }
    let offset = if let Some(r) = rest.strip_prefix('Z') {
        rest = r;
        0
    } else {
        let zb = rest.as_bytes();
        if zb.len() < 6 || zb[3] != b':' || !rest.is_char_boundary(6) {
            return Err(cannot_parse(value, rest, "Z07:00"));
        }
        let (hh, mm) = (&rest[1..3], &rest[4..6]);
        let parse = |s: &str| -> Option<i64> {
            let d = s.strip_prefix('-').unwrap_or(s);
            if d.is_empty() || !d.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        };
        let (Some(h), Some(m)) = (parse(hh), parse(mm)) else {
            return Err(cannot_parse(value, rest, "Z07:00"));
        };
        let off = (h * 60 + m) * 60;
        let off = match zb[0] {
            b'+' => off,
            b'-' => -off,
            _ => return Err(cannot_parse(value, rest, "Z07:00")),
        };
        rest = &rest[6..];
        off
    };
    if !rest.is_empty() {
        return Err(format!("parsing time \"{value}\": extra text: {rest}"));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(out_of_range(value, "day"));
    }
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Ok(Instant {
        nanos: i128::from(secs) * 1_000_000_000 + i128::from(nanos),
        offset,
    })
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn format_rfc3339(t: &Instant) -> String {
    let local = t.nanos.div_euclid(1_000_000_000) as i64 + t.offset;
    let (days, secs) = (local.div_euclid(86_400), local.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    let year = if y < 0 {
        format!("-{:04}", -y)
    } else {
        format!("{y:04}")
    };
    let zone = if t.offset == 0 {
        "Z".to_string()
    } else {
        let sign = if t.offset < 0 { '-' } else { '+' };
        let o = t.offset.abs() / 60;
        format!("{sign}{:02}:{:02}", o / 60, o % 60)
    };
    format!(
        "{year}-{m:02}-{d:02}T{:02}:{:02}:{:02}{zone}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Go 1.11's `time.ParseDuration`, in nanoseconds.
pub fn parse_duration(orig: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {orig}");
    let mut s = orig;
    let mut neg = false;
    if let Some(c) = s.bytes().next() {
        if c == b'-' || c == b'+' {
            neg = c == b'-';
            s = &s[1..];
        }
    }
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut total: i64 = 0;
    while !s.is_empty() {
        let b = s.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let int_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: i64 = 0;
        for &c in &b[..int_len] {
            if v > i64::MAX / 10 {
                return Err(invalid());
            }
            v = v * 10 + i64::from(c - b'0');
            if v < 0 {
                return Err(invalid());
            }
        }
        let pre = int_len > 0;
        s = &s[int_len..];
        let (mut f, mut scale, mut post) = (0i64, 1.0f64, false);
        if let Some(r) = s.strip_prefix('.') {
            s = r;
            let frac_len = s.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for c in s[..frac_len].bytes() {
                if overflow {
                    continue;
                }
                if f > i64::MAX / 10 {
                    overflow = true;
                    continue;
                }
                f = f * 10 + i64::from(c - b'0');
                scale *= 10.0;
            }
            post = frac_len > 0;
            s = &s[frac_len..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s
            .bytes()
            .take_while(|c| !(*c == b'.' || c.is_ascii_digit()))
            .count();
        if unit_len == 0 {
            return Err(format!("time: missing unit in duration {orig}"));
        }
        let unit_text = &s[..unit_len];
        s = &s[unit_len..];
        let unit: i64 = match unit_text {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(format!("time: unknown unit {unit_text} in duration {orig}")),
        };
        if v > i64::MAX / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v = v.wrapping_add((f as f64 * (unit as f64 / scale)) as i64);
            if v < 0 {
                return Err(invalid());
            }
        }
        total = total.wrapping_add(v);
        if total < 0 {
            return Err(invalid());
        }
    }
    Ok(if neg { -total } else { total })
}
