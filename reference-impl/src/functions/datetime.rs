//! Terraform's date and time functions: cty's `formatdate` and `timeadd`,
//! and Terraform's own `timecmp`. Timestamps are RFC 3339 strings as Go's
//! `time.Parse(time.RFC3339, ...)` reads them.

pub(super) mod gotime;

use gotime::{Time, ZoneStyle, DAY_NAMES, MONTH_NAMES, RFC3339};

use super::crypto::quote_bytes;
use super::{static_return_type, CallError, Function, Param};
use crate::number::Number;
use crate::types::Type;
use crate::value::{go_quote, Value};

/// Every function defined here.
pub(super) fn functions() -> Vec<Function> {
    vec![formatdate(), timeadd(), timecmp()]
}

/// `formatdate(format, time)`. Mirrors `stdlib.FormatDateFunc`.
fn formatdate() -> Function {
    Function {
        name: "formatdate",
        params: vec![
            Param::new("format", Type::String),
            Param::new("time", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| {
            let (Value::String(format), Value::String(time)) = (&args[0], &args[1]) else {
                return Ok(Value::Unknown(Type::String));
            };
            let t = parse_timestamp(time).map_err(|e| CallError::arg(1, e))?;
            format_date(format.as_bytes(), &t)
                .map(Value::string)
                .map_err(|e| CallError::arg(0, e))
        }),
    }
}

/// `timeadd(timestamp, duration)`. Mirrors `stdlib.TimeAddFunc`.
fn timeadd() -> Function {
    Function {
        name: "timeadd",
        params: vec![
            Param::new("timestamp", Type::String),
            Param::new("duration", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| {
            let (Value::String(ts), Value::String(dur)) = (&args[0], &args[1]) else {
                return Ok(Value::Unknown(Type::String));
            };
            let t = parse_timestamp(ts).map_err(CallError::general)?;
            let d = gotime::parse_duration(dur).map_err(CallError::general)?;
            Ok(Value::string(t.add(d).format_rfc3339()))
        }),
    }
}

/// `timecmp(timestamp_a, timestamp_b)`: -1, 0 or 1 comparing the instants.
/// Mirrors Terraform's `funcs.TimeCmpFunc`.
fn timecmp() -> Function {
    Function {
        name: "timecmp",
        params: vec![
            Param::new("timestamp_a", Type::String),
            Param::new("timestamp_b", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::Number),
        implementation: Box::new(|args, _| {
            let (Value::String(a), Value::String(b)) = (&args[0], &args[1]) else {
                return Ok(Value::Unknown(Type::Number));
            };
            let a = parse_timestamp(a).map_err(|e| CallError::arg(0, e))?;
            let b = parse_timestamp(b).map_err(|e| CallError::arg(1, e))?;
            let ord = (a.secs, a.nanos).cmp(&(b.secs, b.nanos));
            Ok(Value::number(Number::from_i64(ord as i64)))
        }),
    }
}

/// `time.Parse(time.RFC3339, ts)` with its errors reworded by timestamp
/// part. Mirrors cty's (and Terraform's) `parseTimestamp`.
fn parse_timestamp(ts: &str) -> Result<Time, String> {
    const PREFIX: &str = "not a valid RFC3339 timestamp";
    let e = match gotime::parse(RFC3339, ts) {
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
                    quote_bytes(&e.value_elem)
                )
            });
        }
        _ => "timestamp segment",
    };
    if e.value_elem.is_empty() {
        Err(format!("{PREFIX}: end of string before {what}"))
    } else {
        Err(format!(
            "{PREFIX}: cannot use {} as {what}",
            quote_bytes(&e.value_elem)
        ))
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
    use crate::value::Value;

    fn call(name: &str, args: &[&str]) -> String {
        let f = functions().into_iter().find(|f| f.name == name).unwrap();
        let args: Vec<Value> = args.iter().map(|s| Value::string(*s)).collect();
        match f.call(&args) {
            Ok(Value::String(s)) => s,
            Ok(Value::Number(n)) => n.text(),
            Ok(other) => format!("{other:?}"),
            Err(e) => format!("error: {e}"),
        }
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
