//! Go's `fmt.Sprintf` for the values HIL functions receive (`format`,
//! `formatlist`): strings, ints, floats, bools, lists and maps of
//! `ast.Variable`. Covers the flags `+ - # 0` and space, widths,
//! precisions (also `*`), the verbs for each kind, and Go's in-band
//! error texts (`%!d(string=x)`, `%!v(MISSING)`, `%!(EXTRA ...)`,
//! `%!(NOVERB)`). Explicit argument indexes (`%[1]d`) are not modelled.

use std::collections::BTreeMap;

use super::convert::format_float;
use super::value::Val;
use crate::value::go_quote;

#[derive(Default, Clone, Copy)]
struct Flags {
    plus: bool,
    minus: bool,
    sharp: bool,
    zero: bool,
    space: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

/// `fmt.Sprintf(format, args...)`.
pub fn sprintf(format: &str, args: &[Val]) -> String {
    let mut out = String::new();
    let mut next = 0usize;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut f = Flags::default();
        while let Some(&c) = chars.peek() {
            match c {
                '+' => f.plus = true,
                '-' => {
                    f.minus = true;
                    f.zero = false;
                }
                '#' => f.sharp = true,
                '0' => f.zero = !f.minus,
                ' ' => f.space = true,
                _ => break,
            }
            chars.next();
        }
        // Width.
        if chars.peek() == Some(&'*') {
            chars.next();
            match args.get(next) {
                Some(Val::Int(w)) => {
                    next += 1;
                    if *w < 0 {
                        f.minus = true;
                        f.zero = false;
                    }
                    f.width = Some(w.unsigned_abs() as usize);
                }
                _ => {
                    next += 1;
                    out.push_str("%!(BADWIDTH)");
                }
            }
        } else {
            f.width = digits(&mut chars);
        }
        // Precision.
        if chars.peek() == Some(&'.') {
            chars.next();
            if chars.peek() == Some(&'*') {
                chars.next();
                match args.get(next) {
                    Some(Val::Int(p)) if *p >= 0 => {
                        next += 1;
                        f.prec = Some(*p as usize);
                    }
                    _ => {
                        next += 1;
                        out.push_str("%!(BADPREC)");
                    }
                }
            } else {
                f.prec = Some(digits(&mut chars).unwrap_or(0));
            }
        }
        let Some(verb) = chars.next() else {
            out.push_str("%!(NOVERB)");
            break;
        };
        if verb == '%' {
            out.push('%');
            continue;
        }
        let Some(arg) = args.get(next) else {
            out.push_str(&format!("%!{verb}(MISSING)"));
            continue;
        };
        next += 1;
        format_arg(&mut out, verb, f, arg);
    }
    if next < args.len() {
        out.push_str("%!(EXTRA ");
        let extra: Vec<String> = args[next..]
            .iter()
            .map(|a| format!("{}={}", a.go_type(), plain(a)))
            .collect();
        out.push_str(&extra.join(", "));
        out.push(')');
    }
    out
}

fn digits(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<usize> {
    let mut n: Option<usize> = None;
    while let Some(&c) = chars.peek() {
        let Some(d) = c.to_digit(10) else { break };
        n = Some(
            n.unwrap_or(0)
                .saturating_mul(10)
                .saturating_add(d as usize)
                .min(1_000_000),
        );
        chars.next();
    }
    n
}

/// `%v` of a value.
fn plain(v: &Val) -> String {
    let mut s = String::new();
    format_arg(&mut s, 'v', Flags::default(), v);
    s
}

/// `ast.Variable.String`: `{Variable (TypeString): a}`.
fn variable_string(v: &Val) -> String {
    format!("{{Variable ({}): {}}}", v.ty().name(), plus_v(v))
}

/// `%+v` of the Go value inside a variable.
fn plus_v(v: &Val) -> String {
    match v {
        Val::List(items) => list_string(items),
        Val::Map(items) => map_string(items),
        other => plain(other),
    }
}

fn list_string(items: &[Val]) -> String {
    let parts: Vec<String> = items.iter().map(variable_string).collect();
    format!("[{}]", parts.join(" "))
}

fn map_string(items: &BTreeMap<String, Val>) -> String {
    let parts: Vec<String> = items
        .iter()
        .map(|(k, v)| format!("{k}:{}", variable_string(v)))
        .collect();
    format!("map[{}]", parts.join(" "))
}

fn bad_verb(out: &mut String, verb: char, arg: &Val) {
    out.push_str(&format!("%!{verb}({}={})", arg.go_type(), plain(arg)));
}

fn format_arg(out: &mut String, verb: char, f: Flags, arg: &Val) {
    match arg {
        Val::Str(s) => match verb {
            'v' | 's' => pad(out, f, &truncate(s, f.prec)),
            'q' => pad(out, f, &go_quote(&truncate(s, f.prec))),
            'x' | 'X' => pad(out, f, &hex_bytes(truncate(s, f.prec).as_bytes(), verb, f)),
            _ => bad_verb(out, verb, arg),
        },
        Val::Bool(b) => match verb {
            'v' | 't' => pad(out, f, if *b { "true" } else { "false" }),
            _ => bad_verb(out, verb, arg),
        },
        Val::Int(i) => format_int(out, verb, f, *i, arg),
        Val::Float(x) => format_float_verb(out, verb, f, *x, arg),
        Val::List(items) => match verb {
            'v' | 's' => pad(out, f, &list_string(items)),
            _ => bad_verb(out, verb, arg),
        },
        Val::Map(items) => match verb {
            'v' | 's' => pad(out, f, &map_string(items)),
            _ => bad_verb(out, verb, arg),
        },
    }
}

fn truncate(s: &str, prec: Option<usize>) -> String {
    match prec {
        Some(p) => s.chars().take(p).collect(),
        None => s.to_string(),
    }
}

fn hex_bytes(b: &[u8], verb: char, f: Flags) -> String {
    let digits = if verb == 'x' {
        b"0123456789abcdef"
    } else {
        b"0123456789ABCDEF"
    };
    let mut s = String::new();
    for (i, byte) in b.iter().enumerate() {
        if f.space && i > 0 {
            s.push(' ');
        }
        if f.sharp && (f.space || i == 0) {
            s.push_str(if verb == 'x' { "0x" } else { "0X" });
        }
        s.push(char::from(digits[usize::from(byte >> 4)]));
        s.push(char::from(digits[usize::from(byte & 15)]));
    }
    s
}

/// Pads to the width with spaces (or zeros with the `0` flag), on the left
/// unless the `-` flag is set.
fn pad(out: &mut String, f: Flags, s: &str) {
    let n = s.chars().count();
    let width = f.width.unwrap_or(0);
    if n >= width {
        out.push_str(s);
        return;
    }
    let fill = width - n;
    if f.minus {
        out.push_str(s);
        out.extend(std::iter::repeat_n(' ', fill));
    } else {
        let c = if f.zero { '0' } else { ' ' };
        out.extend(std::iter::repeat_n(c, fill));
        out.push_str(s);
    }
}

/// Pads a number: zero padding goes after the sign.
fn pad_number(out: &mut String, f: Flags, sign: &str, body: &str) {
    let width = f.width.unwrap_or(0);
    let n = sign.chars().count() + body.chars().count();
    if f.zero && !f.minus && n < width {
        out.push_str(sign);
        out.extend(std::iter::repeat_n('0', width - n));
        out.push_str(body);
        return;
    }
    pad(out, Flags { zero: false, ..f }, &format!("{sign}{body}"));
}

fn format_int(out: &mut String, verb: char, f: Flags, i: i64, arg: &Val) {
    let (base, upper) = match verb {
        'd' | 'v' => (10, false),
        'b' => (2, false),
        'o' => (8, false),
        'x' => (16, false),
        'X' => (16, true),
        'c' => {
            let c = u32::try_from(i)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or('\u{fffd}');
            pad(out, f, &c.to_string());
            return;
        }
        'q' => {
            let c = u32::try_from(i)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or('\u{fffd}');
            let q = go_quote(&c.to_string());
            pad(
                out,
                f,
                &format!("'{}'", &q[1..q.len() - 1].replace("\\\"", "\"")),
            );
            return;
        }
        'U' => {
            let mut s = format!("U+{:04X}", i);
            if f.sharp {
                if let Some(c) = u32::try_from(i).ok().and_then(char::from_u32) {
                    s.push_str(&format!(" '{c}'"));
                }
            }
            pad(out, f, &s);
            return;
        }
        _ => {
            bad_verb(out, verb, arg);
            return;
        }
    };
    let mag = i.unsigned_abs();
    let mut body = match base {
        2 => format!("{mag:b}"),
        8 => format!("{mag:o}"),
        16 if upper => format!("{mag:X}"),
        16 => format!("{mag:x}"),
        _ => mag.to_string(),
    };
    let mut f = f;
    if let Some(p) = f.prec {
        f.zero = false;
        if p == 0 && mag == 0 {
            body.clear();
        }
        while body.len() < p {
            body.insert(0, '0');
        }
    }
    if f.sharp {
        match base {
            8 if !body.starts_with('0') => body.insert(0, '0'),
            16 => body.insert_str(0, if upper { "0X" } else { "0x" }),
            _ => {}
        }
    }
    let sign = if i < 0 {
        "-"
    } else if f.plus {
        "+"
    } else if f.space {
        " "
    } else {
        ""
    };
    pad_number(out, f, sign, &body);
}

fn format_float_verb(out: &mut String, verb: char, f: Flags, x: f64, arg: &Val) {
    let prec = f.prec.map(|p| p as i64);
    let (fmt, prec) = match verb {
        'v' | 'g' => ('g', prec.unwrap_or(-1)),
        'G' => ('G', prec.unwrap_or(-1)),
        'e' => ('e', prec.unwrap_or(6)),
        'E' => ('E', prec.unwrap_or(6)),
        'f' | 'F' => ('f', prec.unwrap_or(6)),
        _ => {
            bad_verb(out, verb, arg);
            return;
        }
    };
    let lower = fmt.to_ascii_lowercase();
    let mut text = format_float(x, lower, prec);
    if fmt.is_ascii_uppercase() {
        text = text.to_uppercase();
    }
    let (sign, body) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest.to_string()),
        None => match text.strip_prefix('+') {
            Some(rest) => ("+", rest.to_string()),
            None => ("", text.clone()),
        },
    };
    let sign = if sign.is_empty() {
        if f.plus {
            "+"
        } else if f.space {
            " "
        } else {
            ""
        }
    } else if sign == "+" && !f.plus {
        // Go prints +Inf only with the plus flag.
        if f.space {
            " "
        } else {
            ""
        }
    } else {
        sign
    };
    let f = if x.is_finite() {
        f
    } else {
        Flags { zero: false, ..f }
    };
    pad_number(out, f, sign, &body);
}
