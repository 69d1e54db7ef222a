//! Go's `fmt.Sprintf` for the values HIL functions receive (`format`,
//! `formatlist`): strings, ints, floats, bools, lists and maps of
//! `ast.Variable`. Covers the flags `+ - # 0` and space, widths,
//! precisions (also `*`), the verbs for each kind, and Go's in-band
//! error texts (`%!d(string=x)`, `%!v(MISSING)`, `%!(EXTRA ...)`,
//! `%!(NOVERB)`). Explicit argument indexes (`%[1]d`) are not modelled.
//!
//! The format and the strings are Go strings ([`super::gostr`]): `%s`
//! copies their bytes, widths and precisions count runes as Go decodes
//! them (a byte outside valid UTF-8 is one), and `%q` writes such a byte
//! as `\xNN` (`format("%q", base64decode("null"))` is `"\x9e\xe9e"`).

use std::collections::BTreeMap;

use super::convert::format_float;
use super::gostr::{push_rune, rune_count, runes, GoString};
use super::value::Val;
use crate::goquote::{go_quote, go_quote_bytes};

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

/// Go's `tooLarge`: widths and precisions stop at a million.
const TOO_LARGE: i64 = 1_000_000;

/// `fmt.Sprintf(format, args...)`, following `pp.doPrintf`.
pub fn sprintf(format: &[u8], args: &[Val]) -> GoString {
    let f = format;
    let end = f.len();
    let mut out = GoString::new();
    let mut arg_num = 0usize;
    let mut reordered = false;
    let mut i = 0;
    while i < end {
        let last = i;
        while i < end && f[i] != b'%' {
            i += 1;
        }
        out.extend_from_slice(&f[last..i]);
        if i >= end {
            break;
        }
        i += 1;
        let mut fl = Flags::default();
        while i < end {
            match f[i] {
                b'#' => fl.sharp = true,
                b'0' => fl.zero = !fl.minus,
                b'+' => fl.plus = true,
                b'-' => {
                    fl.minus = true;
                    fl.zero = false;
                }
                b' ' => fl.space = true,
                _ => break,
            }
            i += 1;
        }
        let mut good_arg_num = true;
        let mut after_index;
        (arg_num, i, after_index) =
            arg_number(arg_num, f, i, args.len(), &mut reordered, &mut good_arg_num);
        if i < end && f[i] == b'*' {
            i += 1;
            let (w, ok, next) = int_from_arg(args, arg_num);
            arg_num = next;
            if !ok {
                out.extend_from_slice(b"%!(BADWIDTH)");
            }
            if w < 0 {
                fl.minus = true;
                fl.zero = false;
            }
            fl.width = ok.then_some(w.unsigned_abs() as usize);
            after_index = false;
        } else {
            let (w, present, next) = parse_num(f, i, end);
            i = next;
            fl.width = present.then_some(w as usize);
            if after_index && present {
                good_arg_num = false;
            }
        }
        if i + 1 < end && f[i] == b'.' {
            i += 1;
            if after_index {
                good_arg_num = false;
            }
            (arg_num, i, after_index) =
                arg_number(arg_num, f, i, args.len(), &mut reordered, &mut good_arg_num);
            if i < end && f[i] == b'*' {
                i += 1;
                let (p, ok, next) = int_from_arg(args, arg_num);
                arg_num = next;
                let ok = ok && p >= 0;
                if !ok {
                    out.extend_from_slice(b"%!(BADPREC)");
                }
                fl.prec = ok.then_some(p as usize);
                after_index = false;
            } else {
                let (p, present, next) = parse_num(f, i, end);
                i = next;
                fl.prec = Some(if present { p as usize } else { 0 });
            }
        }
        if !after_index {
            (arg_num, i, _) =
                arg_number(arg_num, f, i, args.len(), &mut reordered, &mut good_arg_num);
        }
        if i >= end {
            out.extend_from_slice(b"%!(NOVERB)");
            break;
        }
        let (verb, raw) = runes(&f[i..]).next().unwrap_or(('\u{fffd}', &f[i..]));
        i += raw.len();
        if verb == '%' {
            out.push(b'%');
        } else if !good_arg_num {
            out.extend_from_slice(format!("%!{verb}(BADINDEX)").as_bytes());
        } else if arg_num >= args.len() {
            out.extend_from_slice(format!("%!{verb}(MISSING)").as_bytes());
        } else {
            format_arg(&mut out, verb, fl, &args[arg_num]);
            arg_num += 1;
        }
    }
    if !reordered && arg_num < args.len() {
        out.extend_from_slice(b"%!(EXTRA ");
        for (i, a) in args[arg_num..].iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(b", ");
            }
            out.extend_from_slice(a.go_type().as_bytes());
            out.push(b'=');
            out.extend_from_slice(&plain(a));
        }
        out.push(b')');
    }
    out
}

/// Go's `parsenum`: digits from `start`; (number, whether any, next index).
fn parse_num(f: &[u8], start: usize, end: usize) -> (i64, bool, usize) {
    if start >= end {
        return (0, false, end);
    }
    let (mut num, mut any, mut i) = (0i64, false, start);
    while i < end && f[i].is_ascii_digit() {
        if num > TOO_LARGE {
            return (0, false, end);
        }
        num = num * 10 + i64::from(f[i] - b'0');
        any = true;
        i += 1;
    }
    (num, any, i)
}

/// Go's `argNumber`: an explicit `[n]` argument index.
fn arg_number(
    arg_num: usize,
    f: &[u8],
    i: usize,
    num_args: usize,
    reordered: &mut bool,
    good: &mut bool,
) -> (usize, usize, bool) {
    if f.len() <= i || f[i] != b'[' {
        return (arg_num, i, false);
    }
    *reordered = true;
    let rest = &f[i..];
    let parsed = if rest.len() < 3 {
        (0, 1, false)
    } else {
        match rest.iter().position(|&b| b == b']') {
            Some(close) => {
                let (n, ok, next) = parse_num(rest, 1, close);
                if !ok || next != close {
                    (0, close + 1, false)
                } else {
                    (n - 1, close + 1, true)
                }
            }
            None => (0, 1, false),
        }
    };
    let (index, width, ok) = parsed;
    if ok && index >= 0 && (index as usize) < num_args {
        return (index as usize, i + width, true);
    }
    *good = false;
    (arg_num, i + width, ok)
}

/// Go's `intFromArg`: an int argument for `*`; (value, ok, next index).
fn int_from_arg(args: &[Val], arg_num: usize) -> (i64, bool, usize) {
    match args.get(arg_num) {
        Some(Val::Int(n)) if (-TOO_LARGE..=TOO_LARGE).contains(n) => (*n, true, arg_num + 1),
        Some(_) => (0, false, arg_num + 1),
        None => (0, false, arg_num),
    }
}

/// `%v` of a value.
fn plain(v: &Val) -> GoString {
    let mut s = GoString::new();
    format_arg(&mut s, 'v', Flags::default(), v);
    s
}

/// `ast.Variable.String`: `{Variable (TypeString): a}`.
fn variable_string(v: &Val) -> GoString {
    let mut out = format!("{{Variable ({}): ", v.ty().name()).into_bytes();
    out.extend_from_slice(&plus_v(v));
    out.push(b'}');
    out
}

/// `%+v` of the Go value inside a variable.
fn plus_v(v: &Val) -> GoString {
    match v {
        Val::List(items) => list_string(items),
        Val::Map(items) => map_string(items),
        other => plain(other),
    }
}

fn list_string(items: &[Val]) -> GoString {
    let parts: Vec<GoString> = items.iter().map(variable_string).collect();
    bracketed(b"[", &parts)
}

fn map_string(items: &BTreeMap<GoString, Val>) -> GoString {
    let parts: Vec<GoString> = items
        .iter()
        .map(|(k, v)| [&k[..], b":", &variable_string(v)].concat())
        .collect();
    bracketed(b"map[", &parts)
}

/// `OPEN` then the parts separated by spaces, then `]`.
fn bracketed(open: &[u8], parts: &[GoString]) -> GoString {
    let mut out = open.to_vec();
    out.extend_from_slice(&parts.join(&b' '));
    out.push(b']');
    out
}

/// Go's `badVerb`: the argument is printed as `%v` under the flags given
/// (`%05d` of "5" is `%!d(string=00005)`), `+` and `#` staying plain flags
/// rather than becoming `%+v` and `%#v`: for each kind of value that is the
/// verb `%v` stands for.
fn bad_verb(out: &mut GoString, verb: char, f: Flags, arg: &Val) {
    out.extend_from_slice(format!("%!{verb}({}=", arg.go_type()).as_bytes());
    let as_v = match arg {
        Val::Str(_) => 's',
        Val::Int(_) => 'd',
        Val::Float(_) => 'g',
        Val::Bool(_) => 't',
        _ => 'v',
    };
    format_arg(out, as_v, f, arg);
    out.push(b')');
}

fn format_arg(out: &mut GoString, verb: char, f: Flags, arg: &Val) {
    // `%+v` and `%#v` move the flag into the verb's own mode (Go's plusV
    // and sharpV): no sign, no alternate form.
    let f = if verb == 'v' {
        Flags { plus: false, ..f }
    } else {
        f
    };
    match arg {
        Val::Str(s) => match verb {
            'v' if f.sharp => pad(out, f, go_quote_bytes(s).as_bytes()),
            'v' | 's' => pad(out, f, &truncate(s, f.prec)),
            'q' => pad(out, f, quote_verb(&truncate(s, f.prec), f).as_bytes()),
            'x' | 'X' => pad(out, f, hex_bytes(&truncate(s, f.prec), verb, f).as_bytes()),
            _ => bad_verb(out, verb, f, arg),
        },
        Val::Bool(b) => match verb {
            'v' | 't' => pad(out, f, if *b { b"true" } else { b"false" }),
            _ => bad_verb(out, verb, f, arg),
        },
        Val::Int(i) => format_int(out, verb, f, *i, arg),
        Val::Float(x) => format_float_verb(out, verb, f, *x, arg),
        Val::List(items) => match verb {
            'v' | 's' => pad(out, f, &list_string(items)),
            _ => out.extend_from_slice(&list_fields(items, verb)),
        },
        Val::Map(items) => match verb {
            'v' | 's' => pad(out, f, &map_string(items)),
            _ => {
                let parts: Vec<GoString> = items
                    .iter()
                    .map(|(k, v)| {
                        let mut key = GoString::new();
                        format_arg(&mut key, verb, Flags::default(), &Val::Str(k.clone()));
                        [&key[..], b":", &variable_fields(v, verb)].concat()
                    })
                    .collect();
                out.extend_from_slice(&bracketed(b"map[", &parts));
            }
        },
    }
}

/// A list printed with a verb other than `%v` and `%s`: Go prints each
/// `ast.Variable` through its `String` method for `%x`, `%X` and `%q`, and
/// field by field (`{VALUE TYPE}`) otherwise.
fn list_fields(items: &[Val], verb: char) -> GoString {
    let parts: Vec<GoString> = items.iter().map(|v| variable_fields(v, verb)).collect();
    bracketed(b"[", &parts)
}

fn variable_fields(v: &Val, verb: char) -> GoString {
    let mut out = GoString::new();
    if matches!(verb, 'x' | 'X' | 'q') {
        format_arg(
            &mut out,
            verb,
            Flags::default(),
            &Val::Str(variable_string(v)),
        );
        return out;
    }
    match v {
        Val::List(items) => out.extend_from_slice(&list_fields(items, verb)),
        other => format_arg(&mut out, verb, Flags::default(), other),
    }
    let code: i64 = match v.ty() {
        super::value::Ty::Any => 2,
        super::value::Ty::Bool => 4,
        super::value::Ty::Str => 8,
        super::value::Ty::Int => 16,
        super::value::Ty::Float => 32,
        super::value::Ty::List => 64,
        super::value::Ty::Map => 128,
    };
    let mut ty = GoString::new();
    format_arg(&mut ty, verb, Flags::default(), &Val::Int(code));
    let ty = String::from_utf8_lossy(&ty).replace("(int=", "(ast.Type=");
    [&b"{"[..], &out, b" ", ty.as_bytes(), b"}"].concat()
}

/// `%q` of a string: back-quoted with `#` when Go's `CanBackquote`
/// allows (never for bytes that are not UTF-8), ASCII-only with `+`
/// (`QuoteToASCII`).
fn quote_verb(s: &[u8], f: Flags) -> String {
    let backquoted = std::str::from_utf8(s).ok().filter(|s| {
        s.chars()
            .all(|c| c != '`' && c != '\u{feff}' && (c == '\t' || !c.is_control()))
    });
    if let Some(s) = backquoted.filter(|_| f.sharp) {
        return format!("`{s}`");
    }
    let quoted = go_quote_bytes(s);
    if !f.plus {
        return quoted;
    }
    let mut ascii = String::with_capacity(quoted.len());
    for c in quoted.chars() {
        match c as u32 {
            0..=0x7f => ascii.push(c),
            n @ 0x80..=0xffff => ascii.push_str(&format!("\\u{n:04x}")),
            n => ascii.push_str(&format!("\\U{n:08x}")),
        }
    }
    ascii
}

/// The first `prec` runes.
fn truncate(s: &[u8], prec: Option<usize>) -> GoString {
    match prec {
        Some(p) => runes(s).take(p).flat_map(|(_, raw)| raw).copied().collect(),
        None => s.to_vec(),
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
fn pad(out: &mut GoString, f: Flags, s: &[u8]) {
    let n = rune_count(s);
    let width = f.width.unwrap_or(0);
    if n >= width {
        out.extend_from_slice(s);
        return;
    }
    let fill = width - n;
    if f.minus {
        out.extend_from_slice(s);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else {
        let c = if f.zero { b'0' } else { b' ' };
        out.extend(std::iter::repeat_n(c, fill));
        out.extend_from_slice(s);
    }
}

/// Pads a number: zero padding goes after the sign.
fn pad_number(out: &mut GoString, f: Flags, sign: &str, body: &str) {
    let width = f.width.unwrap_or(0);
    let n = sign.chars().count() + body.chars().count();
    if f.zero && !f.minus && n < width {
        out.extend_from_slice(sign.as_bytes());
        out.extend(std::iter::repeat_n(b'0', width - n));
        out.extend_from_slice(body.as_bytes());
        return;
    }
    pad(
        out,
        Flags { zero: false, ..f },
        format!("{sign}{body}").as_bytes(),
    );
}

fn format_int(out: &mut GoString, verb: char, f: Flags, i: i64, arg: &Val) {
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
            let mut text = GoString::new();
            push_rune(&mut text, c);
            pad(out, f, &text);
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
                format!("'{}'", &q[1..q.len() - 1].replace("\\\"", "\"")).as_bytes(),
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
            pad(out, f, s.as_bytes());
            return;
        }
        _ => {
            bad_verb(out, verb, f, arg);
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

fn format_float_verb(out: &mut GoString, verb: char, f: Flags, x: f64, arg: &Val) {
    let prec = f.prec.map(|p| p as i64);
    let (fmt, prec) = match verb {
        'v' | 'g' => ('g', prec.unwrap_or(-1)),
        'G' => ('G', prec.unwrap_or(-1)),
        'e' => ('e', prec.unwrap_or(6)),
        'E' => ('E', prec.unwrap_or(6)),
        'f' | 'F' => ('f', prec.unwrap_or(6)),
        _ => {
            bad_verb(out, verb, f, arg);
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
