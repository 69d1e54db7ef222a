//! The parts of Go's `time` package that Terraform's date functions (and
//! cty's YAML timestamps) rely on: `time.Parse` for a few fixed layouts,
//! `time.ParseDuration`, `Time.Add` and the formatting of fields.
//!
//! Why not `jiff` or `chrono`: their RFC 3339 and duration readers accept
//! and refuse other texts than Go's. `2024-01-01t00:00:00z` is Go's error
//! `cannot parse "t00:00:00z" as "T"` and a valid time for both crates;
//! `2024-01-01T00:00:00+24:00` is a valid time in Go and out of range for
//! `chrono`; `time.ParseDuration` reads `1h1h` as two hours and `.5h` as
//! thirty minutes, which `jiff`'s `SignedDuration` parser refuses, and
//! refuses `1 hour`, which `jiff` reads.

/// An instant with the UTC offset it was written in (Go's `time.Time` in a
/// fixed zone; the zone's name never shows in the formats used here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Time {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub secs: i64,
    /// Nanoseconds within the second, `0..1_000_000_000`.
    pub nanos: u32,
    /// Seconds east of UTC.
    pub offset: i64,
}

/// Calendar fields of a [`Time`] in its own offset.
pub(crate) struct Civil {
    pub year: i64,
    /// 1 to 12.
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    /// 0 is Sunday, as Go's `time.Weekday`.
    pub weekday: u32,
}

pub(crate) const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

pub(crate) const DAY_NAMES: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

impl Time {
    /// The calendar fields at the time's own offset.
    pub(crate) fn civil(&self) -> Civil {
        let local = self.secs + self.offset;
        let days = local.div_euclid(86_400);
        let rem = local.rem_euclid(86_400) as u32;
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: rem / 3600,
            minute: rem / 60 % 60,
            second: rem % 60,
            weekday: (days + 4).rem_euclid(7) as u32,
        }
    }

    /// Go's `Time.Add` with a duration in nanoseconds.
    pub(crate) fn add(&self, d: i64) -> Time {
        let mut secs = self.secs.saturating_add(d / 1_000_000_000);
        let mut nanos = i64::from(self.nanos) + d % 1_000_000_000;
        if nanos >= 1_000_000_000 {
            secs += 1;
            nanos -= 1_000_000_000;
        } else if nanos < 0 {
            secs -= 1;
            nanos += 1_000_000_000;
        }
        Time {
            secs,
            nanos: nanos as u32,
            offset: self.offset,
        }
    }

    /// `Format(time.RFC3339)`.
    pub(crate) fn format_rfc3339(&self) -> String {
        let c = self.civil();
        format!(
            "{}-{:02}-{:02}T{:02}:{:02}:{:02}{}",
            go_year(c.year),
            c.month,
            c.day,
            c.hour,
            c.minute,
            c.second,
            self.format_zone(ZoneStyle::IsoColon)
        )
    }

    /// The zone offset in one of Go's numeric layouts: `Z07:00` (`Z` for
    /// UTC), `-0700` or `-07:00`. Whole minutes only, truncated as Go does.
    pub(crate) fn format_zone(&self, style: ZoneStyle) -> String {
        if self.offset == 0 && style == ZoneStyle::IsoColon {
            return "Z".to_string();
        }
        let mut zone = self.offset / 60;
        let sign = if zone < 0 {
            zone = -zone;
            '-'
        } else {
            '+'
        };
        let colon = if style == ZoneStyle::Compact { "" } else { ":" };
        format!("{sign}{:02}{colon}{:02}", zone / 60, zone % 60)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ZoneStyle {
    /// `Z07:00`.
    IsoColon,
    /// `-0700`.
    Compact,
    /// `-07:00`.
    Colon,
}

/// Go's `appendInt(b, year, 4)`: at least four digits, sign first.
fn go_year(year: i64) -> String {
    if year < 0 {
        format!("-{:04}", -year)
    } else {
        format!("{year:04}")
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in a month of the proleptic Gregorian calendar.
pub(crate) fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// One element of a Go time layout (the subset Terraform and cty use).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Std {
    /// `2006`.
    LongYear,
    /// `1`.
    NumMonth,
    /// `01`.
    ZeroMonth,
    /// `2`.
    Day,
    /// `02`.
    ZeroDay,
    /// `15`.
    Hour,
    /// `4`.
    Minute,
    /// `04`.
    ZeroMinute,
    /// `5`.
    Second,
    /// `05`.
    ZeroSecond,
    /// `.999999999`.
    FracSecond9,
    /// `Z07:00`.
    IsoColonTz,
    /// The end of the layout.
    End,
}

impl Std {
    /// The layout text of the element (`ParseError.LayoutElem`).
    fn text(self) -> &'static str {
        match self {
            Std::LongYear => "2006",
            Std::NumMonth => "1",
            Std::ZeroMonth => "01",
            Std::Day => "2",
            Std::ZeroDay => "02",
            Std::Hour => "15",
            Std::Minute => "4",
            Std::ZeroMinute => "04",
            Std::Second => "5",
            Std::ZeroSecond => "05",
            Std::FracSecond9 => ".999999999",
            Std::IsoColonTz => "Z07:00",
            Std::End => "",
        }
    }
}

/// A layout: each element preceded by the literal text before it.
pub(crate) type Layout = [(&'static str, Std)];

/// `time.RFC3339`.
pub(crate) const RFC3339: &Layout = &[
    ("", Std::LongYear),
    ("-", Std::ZeroMonth),
    ("-", Std::ZeroDay),
    ("T", Std::Hour),
    (":", Std::ZeroMinute),
    (":", Std::ZeroSecond),
    ("", Std::IsoColonTz),
    ("", Std::End),
];

/// Go's `time.ParseError` fields (without the layout and input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError {
    pub layout_elem: &'static str,
    /// The rest of the input at the failure, as bytes: it may start inside
    /// a UTF-8 sequence.
    pub value_elem: Vec<u8>,
    pub message: String,
}

/// Which Go's `time.Parse` errors to give: the two differ only in the
/// input a malformed element's error shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoTime {
    /// Go 1.19: the input after the element (`"-01-01T00:00:00Z"` for the
    /// year of `"20x8-01-01T00:00:00Z"`).
    Go1_19,
    /// Go 1.20 and later: the input from the element on (the whole
    /// `"20x8-01-01T00:00:00Z"`). Out-of-range errors are unchanged.
    Go1_20,
}

/// Mirrors Go's `time.Parse(layout, value)` for the layout elements above.
pub(crate) fn parse(layout: &Layout, value: &str, go: GoTime) -> Result<Time, ParseError> {
    let mut v = value.as_bytes();
    let (mut year, mut month, mut day) = (0i64, -1i64, -1i64);
    let (mut hour, mut min, mut sec, mut nsec) = (0i64, 0i64, 0i64, 0i64);
    let mut utc = false;
    let mut zone_offset: Option<i64> = None;
    let rest = |v: &[u8]| v.to_vec();
    for (k, &(prefix, std)) in layout.iter().enumerate() {
        v = skip(v, prefix).map_err(|v| ParseError {
            layout_elem: prefix,
            value_elem: rest(v),
            message: String::new(),
        })?;
        if std == Std::End {
            if !v.is_empty() {
                return Err(ParseError {
                    layout_elem: "",
                    value_elem: rest(v),
                    message: format!(": extra text: {}", quote(&String::from_utf8_lossy(v))),
                });
            }
            break;
        }
        let mut range_err = None;
        let mut bad = false;
        let hold = v;
        match std {
            Std::LongYear => {
                if v.len() < 4 || !v[0].is_ascii_digit() {
                    bad = true;
                } else {
                    let p = &v[..4];
                    v = &v[4..];
                    match atoi(p) {
                        Some(y) => year = y,
                        None => bad = true,
                    }
                }
            }
            Std::NumMonth | Std::ZeroMonth => match getnum(v, std == Std::ZeroMonth) {
                Some((n, r)) => {
                    month = n;
                    v = r;
                    if !(1..=12).contains(&month) {
                        range_err = Some("month");
                    }
                }
                None => bad = true,
            },
            Std::Day | Std::ZeroDay => match getnum(v, std == Std::ZeroDay) {
                Some((n, r)) => {
                    day = n;
                    v = r;
                }
                None => bad = true,
            },
            Std::Hour => match getnum(v, false) {
                Some((n, r)) => {
                    hour = n;
                    v = r;
                    if hour >= 24 {
                        range_err = Some("hour");
                    }
                }
                None => bad = true,
            },
            Std::Minute | Std::ZeroMinute => match getnum(v, std == Std::ZeroMinute) {
                Some((n, r)) => {
                    min = n;
                    v = r;
                    if min >= 60 {
                        range_err = Some("minute");
                    }
                }
                None => bad = true,
            },
            Std::Second | Std::ZeroSecond => match getnum(v, std == Std::ZeroSecond) {
                Some((n, r)) => {
                    sec = n;
                    v = r;
                    if sec >= 60 {
                        range_err = Some("second");
                    } else if v.len() >= 2
                        && (v[0] == b'.' || v[0] == b',')
                        && v[1].is_ascii_digit()
                        && layout.get(k + 1).map(|e| e.1) != Some(Std::FracSecond9)
                    {
                        // A fraction the layout does not ask for.
                        let mut n = 2;
                        while n < v.len() && v[n].is_ascii_digit() {
                            n += 1;
                        }
                        nsec = parse_nanoseconds(&v[..n]);
                        v = &v[n..];
                    }
                }
                None => bad = true,
            },
            Std::FracSecond9 => {
                if v.len() >= 2 && (v[0] == b'.' || v[0] == b',') && v[1].is_ascii_digit() {
                    let mut i = 0;
                    while i < 9 && i + 1 < v.len() && v[i + 1].is_ascii_digit() {
                        i += 1;
                    }
                    nsec = parse_nanoseconds(&v[..1 + i]);
                    v = &v[1 + i..];
                }
            }
            Std::IsoColonTz => {
                if v.first() == Some(&b'Z') {
                    v = &v[1..];
                    utc = true;
                } else if v.len() < 6 || v[3] != b':' {
                    bad = true;
                } else {
                    let (sign, h, m) = (v[0], &v[1..3], &v[4..6]);
                    v = &v[6..];
                    match (atoi(h), atoi(m)) {
                        (Some(h), Some(m)) => {
                            let off = (h * 60 + m) * 60;
                            match sign {
                                b'+' => zone_offset = Some(off),
                                b'-' => zone_offset = Some(-off),
                                _ => bad = true,
                            }
                        }
                        _ => bad = true,
                    }
                }
            }
            Std::End => {}
        }
        if let Some(what) = range_err {
            return Err(ParseError {
                layout_elem: std.text(),
                value_elem: rest(v),
                message: format!(": {what} out of range"),
            });
        }
        if bad {
            return Err(ParseError {
                layout_elem: std.text(),
                value_elem: rest(if go == GoTime::Go1_20 { hold } else { v }),
                message: String::new(),
            });
        }
    }
    if month < 0 {
        month = 1;
    }
    if day < 0 {
        day = 1;
    }
    if day < 1 || day > i64::from(days_in(month as u32, year)) {
        return Err(ParseError {
            layout_elem: "",
            value_elem: rest(v),
            message: ": day out of range".to_string(),
        });
    }
    let days = days_from_civil(year, month as u32, day as u32);
    let local = days * 86_400 + hour * 3600 + min * 60 + sec;
    let offset = if utc { 0 } else { zone_offset.unwrap_or(0) };
    Ok(Time {
        secs: local - offset,
        nanos: nsec as u32,
        offset,
    })
}

/// Mirrors `time.skip`: literal layout text must match; a space matches
/// any run of spaces.
fn skip<'a>(mut value: &'a [u8], prefix: &str) -> Result<&'a [u8], &'a [u8]> {
    let mut prefix = prefix.as_bytes();
    while let Some(&p) = prefix.first() {
        if p == b' ' {
            if value.first().is_some_and(|&c| c != b' ') {
                return Err(value);
            }
            prefix = trim_spaces(prefix);
            value = trim_spaces(value);
            continue;
        }
        if value.first() != Some(&p) {
            return Err(value);
        }
        prefix = &prefix[1..];
        value = &value[1..];
    }
    Ok(value)
}

fn trim_spaces(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|&&c| c == b' ').count();
    &s[n..]
}

/// Mirrors `time.getnum`: one or two digits (exactly two when `fixed`).
fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    let digit = |i: usize| {
        s.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| i64::from(c - b'0'))
    };
    let first = digit(0)?;
    match digit(1) {
        Some(second) => Some((first * 10 + second, &s[2..])),
        None if fixed => None,
        None => Some((first, &s[1..])),
    }
}

/// Mirrors `time.atoi`: an optional sign and decimal digits, nothing else.
fn atoi(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut x: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        x = x.checked_mul(10)?.checked_add(i64::from(c - b'0'))?;
    }
    Some(if neg { -x } else { x })
}

/// Mirrors `time.parseNanoseconds` for a separator and 1+ digits: at most
/// nine digits count.
fn parse_nanoseconds(frac: &[u8]) -> i64 {
    let digits = &frac[1..frac.len().min(10)];
    let mut ns = atoi(digits).unwrap_or(0);
    for _ in digits.len()..9 {
        ns *= 10;
    }
    ns
}

/// Mirrors `time.ParseDuration`: nanoseconds, or Go's error text.
pub(crate) fn parse_duration(orig: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {}", quote(orig));
    let mut s = orig.as_bytes();
    let mut neg = false;
    if let Some(&c) = s.first() {
        if c == b'-' || c == b'+' {
            neg = c == b'-';
            s = &s[1..];
        }
    }
    if s == b"0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    const LIMIT: u64 = 1 << 63;
    let mut d: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let before = s.len();
        let (v, rest) = leading_int(s).ok_or_else(invalid)?;
        s = rest;
        let pre = before != s.len();
        let mut f = 0u64;
        let mut scale = 1f64;
        let mut post = false;
        if s.first() == Some(&b'.') {
            s = &s[1..];
            let before = s.len();
            (f, scale, s) = leading_fraction(s);
            post = before != s.len();
        }
        if !pre && !post {
            return Err(invalid());
        }
        let i = s
            .iter()
            .position(|&c| c == b'.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        if i == 0 {
            return Err(format!("time: missing unit in duration {}", quote(orig)));
        }
        let u = std::str::from_utf8(&s[..i]).unwrap_or_default();
        s = &s[i..];
        let unit: u64 = match u {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    quote(u),
                    quote(orig)
                ))
            }
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        let mut v = v * unit;
        if f > 0 {
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        d += v;
        if d > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        return Ok((d as i64).wrapping_neg());
    }
    if d > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(d as i64)
}

/// Mirrors `time.leadingInt`: `None` on overflow.
fn leading_int(s: &[u8]) -> Option<(u64, &[u8])> {
    let mut x: u64 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        if x > (1 << 63) / 10 {
            return None;
        }
        x = x * 10 + u64::from(s[i] - b'0');
        if x > 1 << 63 {
            return None;
        }
        i += 1;
    }
    Some((x, &s[i..]))
}

/// Mirrors `time.leadingFraction`: digits past the point of overflow are
/// skipped.
fn leading_fraction(s: &[u8]) -> (u64, f64, &[u8]) {
    let mut x: u64 = 0;
    let mut scale = 1f64;
    let mut overflow = false;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        if !overflow {
            if x > ((1u64 << 63) - 1) / 10 {
                overflow = true;
            } else {
                let y = x * 10 + u64::from(s[i] - b'0');
                if y > 1 << 63 {
                    overflow = true;
                } else {
                    x = y;
                    scale *= 10.0;
                }
            }
        }
        i += 1;
    }
    (x, scale, &s[i..])
}

/// Mirrors the `time` package's own `quote`: non-ASCII and control bytes
/// as `\x..` escapes.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if (c as u32) >= 0x80 || (c as u32) < 0x20 {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::{parse, parse_duration, GoTime, RFC3339};

    // Expected values checked against Go 1.19's time package.
    #[test]
    fn parses_like_go() {
        let t = parse(RFC3339, "2017-11-22T01:00:00+01:00", GoTime::Go1_19).unwrap();
        assert_eq!(t.secs, 1_511_308_800);
        assert_eq!(t.format_rfc3339(), "2017-11-22T01:00:00+01:00");
        let t = parse(RFC3339, "2000-02-29T23:59:59.123456789999Z", GoTime::Go1_19).unwrap();
        assert_eq!(
            (t.nanos, t.format_rfc3339().as_str()),
            (123_456_789, "2000-02-29T23:59:59Z")
        );
        let e = parse(RFC3339, "2001-02-29T00:00:00Z", GoTime::Go1_19).unwrap_err();
        assert_eq!(e.message, ": day out of range");
        let e = parse(RFC3339, "2006-13-02T15:04:05Z", GoTime::Go1_19).unwrap_err();
        assert_eq!(
            (e.layout_elem, &e.value_elem[..]),
            ("01", &b"-02T15:04:05Z"[..])
        );
        assert_eq!(
            parse(RFC3339, "2006-01-02T1:04:05Z", GoTime::Go1_19)
                .unwrap()
                .civil()
                .hour,
            1
        );
        assert_eq!(
            parse(RFC3339, "2006-01-02T10:04:05+-1:30", GoTime::Go1_19)
                .unwrap()
                .offset,
            -1800
        );
    }

    #[test]
    fn durations_like_go() {
        assert_eq!(parse_duration("1h30m"), Ok(5_400_000_000_000));
        assert_eq!(parse_duration("-1.5h"), Ok(-5_400_000_000_000));
        assert_eq!(parse_duration("1.0000000001s"), Ok(1_000_000_000));
        assert_eq!(parse_duration("0"), Ok(0));
        assert_eq!(
            parse_duration(""),
            Err("time: invalid duration \"\"".to_string())
        );
        assert_eq!(
            parse_duration("1"),
            Err("time: missing unit in duration \"1\"".to_string())
        );
        assert_eq!(
            parse_duration("1d"),
            Err("time: unknown unit \"d\" in duration \"1d\"".to_string())
        );
        assert_eq!(parse_duration("9223372036854775807ns"), Ok(i64::MAX));
        assert_eq!(parse_duration("-9223372036854775808ns"), Ok(i64::MIN));
        assert!(parse_duration("9223372036854775808ns").is_err());
    }
}
