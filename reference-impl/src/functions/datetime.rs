//! Terraform's date and time functions: cty's `formatdate` and `timeadd`,
//! and Terraform's own `timecmp`. Timestamps are RFC 3339 strings as Go's
//! `time.Parse(time.RFC3339, ...)` reads them.

pub(super) mod gotime;

use gotime::{GoTime, Time, ZoneStyle, DAY_NAMES, MONTH_NAMES, RFC3339};

use super::{static_return_type, CallError, Function, Param};
use crate::goquote::go_quote;
use crate::goquote::go_quote_bytes;
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// Every function defined here.
pub(super) fn functions() -> Vec<Function> {
    vec![
        formatdate(Rfc3339::GoParse),
        timeadd(Rfc3339::GoParse),
        timecmp(Rfc3339::GoParse),
    ]
}

/// Terraform 1.15's versions: go-cty 1.18 reads timestamps strictly.
pub(super) fn terraform_1_15() -> Vec<Function> {
    vec![
        formatdate(Rfc3339::Strict),
        timeadd(Rfc3339::Strict),
        timecmp(Rfc3339::Strict),
    ]
}

/// How timestamps are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rfc3339 {
    /// go-cty 1.12: whatever Go's `time.Parse(time.RFC3339, ...)` accepts
    /// (a one-digit hour, for one).
    GoParse,
    /// go-cty 1.18's `parseStrictRFC3339`: every field at its fixed width
    /// and in range.
    Strict,
}

/// `formatdate(format, time)`. Mirrors `stdlib.FormatDateFunc`.
fn formatdate(rfc3339: Rfc3339) -> Function {
    Function {
        name: "formatdate",
        params: vec![
            Param::new("format", Type::String),
            Param::new("time", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(move |args, _| {
            let (Value::String(format), Value::String(time)) = (&args[0], &args[1]) else {
                return Ok(Value::unknown(Type::String));
            };
            let t = parse_timestamp(time, rfc3339).map_err(|e| CallError::arg(1, e))?;
            format_date(format.as_bytes(), &t)
                .map(Value::string)
                .map_err(|e| CallError::arg(0, e))
        }),
    }
}

/// `timeadd(timestamp, duration)`. Mirrors `stdlib.TimeAddFunc`.
fn timeadd(rfc3339: Rfc3339) -> Function {
    Function {
        name: "timeadd",
        params: vec![
            Param::new("timestamp", Type::String),
            Param::new("duration", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(move |args, _| {
            let (Value::String(ts), Value::String(dur)) = (&args[0], &args[1]) else {
                return Ok(Value::unknown(Type::String));
            };
            let t = parse_timestamp(ts, rfc3339).map_err(CallError::general)?;
            let d = gotime::parse_duration(dur).map_err(CallError::general)?;
            Ok(Value::string(t.add(d).format_rfc3339()))
        }),
    }
}

/// `timecmp(timestamp_a, timestamp_b)`: -1, 0 or 1 comparing the instants.
/// Mirrors Terraform's `funcs.TimeCmpFunc`.
fn timecmp(rfc3339: Rfc3339) -> Function {
    Function {
        name: "timecmp",
        params: vec![
            Param::new("timestamp_a", Type::String),
            Param::new("timestamp_b", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::Number),
        implementation: Box::new(move |args, _| {
            let (Value::String(a), Value::String(b)) = (&args[0], &args[1]) else {
                return Ok(Value::unknown(Type::Number));
            };
            let a = parse_timestamp(a, rfc3339).map_err(|e| CallError::arg(0, e))?;
            let b = parse_timestamp(b, rfc3339).map_err(|e| CallError::arg(1, e))?;
            let ord = (a.secs, a.nanos).cmp(&(b.secs, b.nanos));
            Ok(Value::number(Number::from_i64(ord as i64)))
        }),
    }
}

const TIMESTAMP_PREFIX: &str = "not a valid RFC3339 timestamp";

/// `time.Parse(time.RFC3339, ts)` with its errors reworded by timestamp
/// part. Mirrors cty's (and Terraform's) `parseTimestamp`; in the strict
/// form, a timestamp Go's parser accepts but go-cty 1.18's fixed-width
/// reading (`parseRFC3339`) does not is refused, with the message
/// Terraform 1.15 gives for the most common such inputs.
fn parse_timestamp(ts: &str, rfc3339: Rfc3339) -> Result<Time, String> {
    const PREFIX: &str = TIMESTAMP_PREFIX;
    let go = match rfc3339 {
        Rfc3339::GoParse => GoTime::Go1_19,
        Rfc3339::Strict => GoTime::Go1_20,
    };
    let e = match gotime::parse(RFC3339, ts, go) {
        Ok(_) if rfc3339 == Rfc3339::Strict && !is_strict_rfc3339(ts.as_bytes()) => {
            return Err(format!("{PREFIX}: {}", strict_refusal(ts.as_bytes())));
        }
        Ok(t) => return Ok(t),
        Err(e) => e,
    };
    if e.layout_elem.is_empty() && e.value_elem.is_empty() && !e.message.is_empty() {
        return Err(format!("{PREFIX}{}", e.message));
    }
    let what = match e.layout_elem {
        "2006" => "year",
        "01" => "month",
        "02" => "day of month",
        "15" => "hour",
        "04" => "minute",
        "05" => "second",
        "Z07:00" => "UTC offset",
        "T" => return Err(format!("{PREFIX}: missing required time introducer 'T'")),
        ":" | "-" => {
            let expected = go_quote(e.layout_elem);
            return Err(if e.value_elem.is_empty() {
                format!("{PREFIX}: end of string where {expected} is expected")
            } else {
                format!(
                    "{PREFIX}: found {} where {expected} is expected",
                    go_quote_bytes(&e.value_elem)
                )
            });
        }
        _ => "timestamp segment",
    };
    if e.value_elem.is_empty() {
        return Err(format!("{PREFIX}: end of string before {what}"));
    }
    // go-cty 1.18 words three more cases itself.
    if rfc3339 == Rfc3339::Strict {
        let special = match what {
            "hour" if e.value_elem.contains(&b':') => {
                Some("hour must be between 0 and 23 inclusive")
            }
            "hour" if e.value_elem.len() != 2 => Some("hour must have exactly two digits"),
            "minute" if e.value_elem.len() != 2 => Some("minute must have exactly two digits"),
            _ => None,
        };
        if let Some(text) = special {
            return Err(format!("{PREFIX}: {text}"));
        }
    }
    Err(format!(
        "{PREFIX}: cannot use {} as {what}",
        go_quote_bytes(&e.value_elem)
    ))
}

/// go-cty 1.18's `parseRFC3339`: `YYYY-MM-DDThh:mm:ss`, an optional
/// `.` fraction, then `Z` or `±hh:mm`, each field of fixed width and in
/// range.
fn is_strict_rfc3339(s: &[u8]) -> bool {
    let num = |r: std::ops::Range<usize>, max: u32| -> Option<u32> {
        let digits = s.get(r)?;
        let mut n = 0u32;
        for &d in digits {
            if !d.is_ascii_digit() {
                return None;
            }
            n = n * 10 + u32::from(d - b'0');
        }
        (n <= max).then_some(n)
    };
    let at = |i: usize, c: u8| s.get(i) == Some(&c);
    let Some(year) = num(0..4, 9999) else {
        return false;
    };
    let (Some(month), Some(day)) = (num(5..7, 12), num(8..10, 31)) else {
        return false;
    };
    let fields = num(11..13, 23).and(num(14..16, 59)).and(num(17..19, 59));
    if month == 0
        || day == 0
        || day > gotime::days_in(month, i64::from(year))
        || fields.is_none()
        || !(at(4, b'-') && at(7, b'-') && at(10, b'T') && at(13, b':') && at(16, b':'))
    {
        return false;
    }
    let mut rest = &s[19..];
    if rest.len() >= 2 && rest[0] == b'.' && rest[1].is_ascii_digit() {
        let n = rest[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        rest = &rest[1 + n..];
    }
    match rest {
        b"Z" => true,
        [sign, h1, h2, b':', m1, m2] if *sign == b'+' || *sign == b'-' => {
            let two = |a: u8, b: u8| {
                (a.is_ascii_digit() && b.is_ascii_digit())
                    .then(|| u32::from(a - b'0') * 10 + u32::from(b - b'0'))
            };
            matches!((two(*h1, *h2), two(*m1, *m2)), (Some(h), Some(m)) if h <= 23 && m <= 59)
        }
        _ => false,
    }
}

/// Why a timestamp that Go's parser reads is not strict RFC 3339.
fn strict_refusal(s: &[u8]) -> String {
    let one_digit = |i: usize| s.get(i + 1) == Some(&b':');
    if one_digit(11) {
        "hour must have exactly two digits".to_string()
    } else if one_digit(14) {
        "minute must have exactly two digits".to_string()
    } else if s.get(19) == Some(&b',') {
        "cannot use \",\" as timestamp segment".to_string()
    } else {
        let offset = String::from_utf8_lossy(&s[s.len().saturating_sub(6)..]).into_owned();
        format!("cannot use {} as UTC offset", go_quote(&offset))
    }
}

/// The longest token Go's `bufio.Scanner` accepts (`MaxScanTokenSize`).
/// `FormatDateFunc` stops at a longer verb or quoted token without an
/// error, returning what it formatted so far.
const MAX_SCAN_TOKEN: usize = 64 * 1024;

/// The format loop of `stdlib.FormatDateFunc`: letters form verbs (runs of
/// one letter), `'...'` quotes literal text (`''` is a quote), anything
/// else is copied.
fn format_date(format: &[u8], t: &Time) -> Result<String, String> {
    let mut out: Vec<u8> = Vec::new();
    let mut rest = format;
    while !rest.is_empty() {
        let tok = next_token(rest);
        if tok.len() >= MAX_SCAN_TOKEN && (tok[0] == b'\'' || tok[0].is_ascii_alphabetic()) {
            break;
        }
        rest = &rest[tok.len()..];
        if tok[0] == b'\'' {
            if tok.len() == 1 || tok[tok.len() - 1] != b'\'' {
                return Err("unterminated literal '".to_string());
            }
            if tok.len() == 2 {
                out.push(b'\'');
                continue;
            }
            let raw = &tok[1..tok.len() - 1];
            let mut i = 0;
            while i < raw.len() {
                out.push(raw[i]);
                if raw[i] == b'\'' {
                    i += 1;
                }
                i += 1;
            }
        } else if tok[0].is_ascii_alphabetic() {
            format_verb(tok, t, &mut out)?;
        } else {
            out.extend_from_slice(tok);
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// The next token of a format, as cty's `splitDateFormat` cuts it when it
/// sees the whole rest of the input.
fn next_token(data: &[u8]) -> &[u8] {
    const ESC: u8 = b'\'';
    match data[0] {
        ESC => {
            if data.get(1) == Some(&ESC) {
                return &data[..2];
            }
            let mut i = 1;
            while i < data.len() {
                if data[i] == ESC {
                    if i + 1 == data.len() {
                        return data;
                    }
                    if data[i + 1] == ESC {
                        i += 2;
                        continue;
                    }
                    return &data[..=i];
                }
                i += 1;
            }
            data
        }
        c if c.is_ascii_alphabetic() => {
            let n = data.iter().take_while(|&&b| b == c).count();
            &data[..n]
        }
        _ => {
            let n = data
                .iter()
                .position(|&b| b == ESC || b.is_ascii_alphabetic())
                .unwrap_or(data.len());
            &data[..n]
        }
    }
}

/// One verb of `formatdate`.
fn format_verb(tok: &[u8], t: &Time, out: &mut Vec<u8>) -> Result<(), String> {
    let c = t.civil();
    let n = tok.len();
    let invalid = |rule: &str| {
        let verb = go_quote(&String::from_utf8_lossy(tok));
        if rule.is_empty() {
            format!("invalid date format verb {verb}")
        } else {
            format!("invalid date format verb {verb}: {rule}")
        }
    };
    let text = match (tok[0], n) {
        (b'Y', 2) => format!("{:02}", c.year % 100),
        (b'Y', 4) => format!("{:04}", c.year),
        (b'Y', _) => return Err(invalid("year must either be \"YY\" or \"YYYY\"")),
        (b'M', 1) => c.month.to_string(),
        (b'M', 2) => format!("{:02}", c.month),
        (b'M', 3) => MONTH_NAMES[c.month as usize - 1][..3].to_string(),
        (b'M', 4) => MONTH_NAMES[c.month as usize - 1].to_string(),
        (b'M', _) => return Err(invalid("month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"")),
        (b'D', 1) => c.day.to_string(),
        (b'D', 2) => format!("{:02}", c.day),
        (b'D', _) => return Err(invalid("day of month must either be \"D\" or \"DD\"")),
        (b'E', 3) => DAY_NAMES[c.weekday as usize][..3].to_string(),
        (b'E', 4) => DAY_NAMES[c.weekday as usize].to_string(),
        (b'E', _) => return Err(invalid("day of week must either be \"EEE\" or \"EEEE\"")),
        (b'h', 1) => c.hour.to_string(),
        (b'h', 2) => format!("{:02}", c.hour),
        (b'h', _) => return Err(invalid("24-hour must either be \"h\" or \"hh\"")),
        (b'H', 1 | 2) => {
            let h = match c.hour % 12 {
                0 => 12,
                h => h,
            };
            if n == 1 {
                h.to_string()
            } else {
                format!("{h:02}")
            }
        }
        (b'H', _) => return Err(invalid("12-hour must either be \"H\" or \"HH\"")),
        (b'A' | b'a', 2) => {
            let pm = c.hour >= 12;
            match (tok[0] == b'A', pm) {
                (true, false) => "AM",
                (true, true) => "PM",
                (false, false) => "am",
                (false, true) => "pm",
            }
            .to_string()
        }
        (b'A' | b'a', _) => {
            let l = char::from(tok[0]);
            return Err(invalid(&format!("must be \"{l}{l}\"")));
        }
        (b'm', 1) => c.minute.to_string(),
        (b'm', 2) => format!("{:02}", c.minute),
        (b'm', _) => return Err(invalid("minute must either be \"m\" or \"mm\"")),
        (b's', 1) => c.second.to_string(),
        (b's', 2) => format!("{:02}", c.second),
        (b's', _) => return Err(invalid("second must either be \"s\" or \"ss\"")),
        (b'Z', 1) => t.format_zone(ZoneStyle::IsoColon),
        (b'Z', 3) => match t.format_zone(ZoneStyle::Compact).as_str() {
            "+0000" => "UTC".to_string(),
            other => other.to_string(),
        },
        (b'Z', 4) => t.format_zone(ZoneStyle::Compact),
        (b'Z', 5) => t.format_zone(ZoneStyle::Colon),
        (b'Z', _) => return Err(invalid("timezone must be Z, ZZZZ, or ZZZZZ")),
        _ => return Err(invalid("")),
    };
    out.extend_from_slice(text.as_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::functions;
    use crate::functions::call_with_strings;

    fn call(name: &str, args: &[&str]) -> String {
        call_with_strings(functions(), name, args)
    }

    // Expected values checked against the Go oracle (cty's formatdate and
    // timeadd, Terraform's timecmp, on Go 1.19).
    #[test]
    fn date_functions() {
        let rows: &[(&str, &[&str], &str)] = &[
            (
                "formatdate",
                &["DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z"],
                "02 Jan 2018 23:12 UTC",
            ),
            (
                "formatdate",
                &[
                    "EEEE, MMMM D, YY 'at' H:mmaa ZZZZZ",
                    "2018-01-02T03:04:05-08:00",
                ],
                "Tuesday, January 2, 18 at 3:04am -08:00",
            ),
            (
                "formatdate",
                &["'it''s' h", "2018-01-02T03:04:05Z"],
                "it's 3",
            ),
            (
                "formatdate",
                &["YYY", "2018-01-02T03:04:05Z"],
                "error: invalid date format verb \"YYY\": year must either be \"YY\" or \"YYYY\"",
            ),
            (
                "formatdate",
                &["'abc", "2018-01-02T03:04:05Z"],
                "error: unterminated literal '",
            ),
            (
                "formatdate",
                &["x", "2018-01-02"],
                "error: not a valid RFC3339 timestamp: missing required time introducer 'T'",
            ),
            (
                "timeadd",
                &["2017-11-22T00:00:00Z", "10m"],
                "2017-11-22T00:10:00Z",
            ),
            (
                "timeadd",
                &["2017-11-22T00:00:00+01:30", "-1h30m0.5s"],
                "2017-11-21T22:29:59+01:30",
            ),
            (
                "timeadd",
                &["2017-11-22T00:00:00Z", "1x"],
                "error: time: unknown unit \"x\" in duration \"1x\"",
            ),
            (
                "timecmp",
                &["2017-11-22T00:00:00Z", "2017-11-22T01:00:00+01:00"],
                "0",
            ),
            (
                "timecmp",
                &["2017-11-22T00:00:00.5Z", "2017-11-22T00:00:00Z"],
                "1",
            ),
            (
                "timecmp",
                &["2017-11-22T00:00:00Z", "2017-13-22T00:00:00Z"],
                "error: not a valid RFC3339 timestamp: cannot use \"-22T00:00:00Z\" as month",
            ),
        ];
        for (name, args, want) in rows {
            assert_eq!(call(name, args), *want, "{name}({args:?})");
        }
    }
}
