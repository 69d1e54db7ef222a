//! cty's `format` and `formatlist`: a printf-like verb scanner of cty's
//! own, which prints strings, bools and JSON itself and numbers through Go's
//! `fmt` with `*big.Float` / `*big.Int` arguments.
//!
//! Known differences: padding beyond [`MAX_PAD`] characters and numbers
//! whose digits would exceed the number formatter's limit are refused with
//! an error, where Go would try to build the string.

use super::{clusters, CallError, Function, Param, MAX_PAD};
use crate::convert::convert;
use crate::functions::encoding::{push_json_string, ControlEscapes};
use crate::goquote::{go_quote, go_quote_rune};
use crate::number::Number;
use crate::profile::Feature;
use crate::text::grapheme_count;
use crate::types::Type;
use crate::value::Value;

/// `format` and `formatlist`.
pub(super) fn functions() -> Vec<Function> {
    vec![
        format(ControlEscapes::Unicode),
        formatlist(ControlEscapes::Unicode),
    ]
}

/// go-cty 1.18's `format` and `formatlist`, whose arguments may be of the
/// dynamic pseudo-type: an unknown of unknown type makes an unknown string
/// (or list of strings) rather than an unknown of unknown type. Their JSON
/// output has Go 1.22's escapes.
pub(super) fn terraform_1_15() -> Vec<Function> {
    [
        format(ControlEscapes::Short),
        formatlist(ControlEscapes::Short),
    ]
    .into_iter()
    .map(|mut f| {
        f.var_param = f.var_param.map(|p| p.allow_unknown().allow_dynamic_type());
        f
    })
    .collect()
}

/// The deepest value `%v` / `%#v` print as JSON.
const MAX_JSON_DEPTH: usize = 256;

const NUMBER_TOO_LARGE: &str = "the number is too large to format";

/// Whether a Terraform release's go-cty (before 1.16.2, see
/// [`Feature::FormatNullArguments`]) makes the result of `format` or
/// `formatlist` a null or unknown of no type for these arguments: it does
/// for a null or unknown argument of no type.
fn typeless_result(args: &[Value]) -> Option<Value> {
    let profile = crate::profile::current();
    if !profile.is_terraform() || profile.has(Feature::FormatNullArguments) {
        return None;
    }
    // Only arguments of no type: the null literal, an unknown of no type.
    let typeless = |a: &&Value| a.ty() == Type::Dynamic;
    if args.iter().filter(typeless).any(|a| !a.is_known()) {
        return Some(Value::dynamic_unknown());
    }
    args.iter()
        .filter(typeless)
        .any(|a| a.is_null())
        .then(|| Value::Null(Type::Dynamic))
}

/// The return type of `format` and `formatlist`: `ty`, or no type where
/// [`typeless_result`] says so.
fn format_return_type(ty: Type) -> crate::functions::TypeFn {
    Box::new(move |args| {
        Ok(match typeless_result(&args[1..]) {
            Some(_) => Type::Dynamic,
            None => ty.clone(),
        })
    })
}

/// cty's `format`. Mirrors `stdlib.FormatFunc`.
fn format(escapes: ControlEscapes) -> Function {
    Function {
        name: "format",
        params: vec![Param::new("format", Type::String)],
        var_param: Some(Param::new("args", Type::Dynamic).allow_null()),
        return_type: format_return_type(Type::String),
        implementation: Box::new(move |args, _| {
            if let Some(v) = typeless_result(&args[1..]) {
                return Ok(v);
            }
            let spec = args[0].as_str().unwrap_or_default();
            if !args[1..].iter().all(Value::is_wholly_known) {
                // The literal text before the first verb is a prefix of
                // the result (go-cty 1.13+).
                let result = Value::unknown(Type::String);
                return Ok(match spec.find('%') {
                    Some(at) if at > 0 => result.refine().string_prefix(&spec[..at]).finish(),
                    _ => result,
                });
            }
            format_values(spec, &args[1..], escapes).map(Value::string)
        }),
    }
}

/// cty's `formatlist`: one `format` per element of the sequence arguments
/// (which must be equally long), other arguments repeated.
/// Mirrors `stdlib.FormatListFunc`.
fn formatlist(escapes: ControlEscapes) -> Function {
    Function {
        name: "formatlist",
        params: vec![Param::new("format", Type::String)],
        var_param: Some(
            Param::new("args", Type::Dynamic)
                .allow_null()
                .allow_unknown(),
        ),
        return_type: format_return_type(Type::list(Type::String)),
        implementation: Box::new(move |args, ret| {
            if let Some(v) = typeless_result(&args[1..]) {
                return Ok(v);
            }
            let spec = args[0].as_str().unwrap_or_default();
            let args = &args[1..];
            if args.is_empty() {
                let one = format_values(spec, args, escapes)?;
                return Ok(Value::list(Type::String, vec![Value::string(one)]));
            }

            enum Arg<'a> {
                Each(Vec<&'a Value>),
                Single(&'a Value),
            }
            let mut iter_len: Option<(usize, usize)> = None;
            let mut unknown = false;
            let mut prepared = Vec::with_capacity(args.len());
            for (i, arg) in args.iter().enumerate() {
                let ty = arg.ty();
                let sequence = matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_));
                if sequence && !arg.is_null() {
                    let length_known = arg.length_value().is_some_and(|l| l.is_known());
                    if !(ty.is_tuple() || arg.is_known() && length_known) {
                        unknown = true;
                        prepared.push(Arg::Single(arg));
                        continue;
                    }
                    let this_len = arg.length();
                    match iter_len {
                        None => iter_len = Some((this_len, i)),
                        Some((len, chooser)) if len != this_len => {
                            return Err(CallError::arg(
                                i + 1,
                                format!(
                                    "argument {} has length {this_len}, which is inconsistent with argument {} of length {len}",
                                    i + 1,
                                    chooser + 1
                                ),
                            ));
                        }
                        Some(_) => {}
                    }
                    if !arg.is_known() {
                        unknown = true;
                        prepared.push(Arg::Single(arg));
                        continue;
                    }
                    prepared.push(Arg::Each(arg.element_values()));
                } else if matches!(arg, Value::Unknown(Type::Dynamic, ..)) {
                    unknown = true;
                    prepared.push(Arg::Single(arg));
                } else {
                    prepared.push(Arg::Single(arg));
                }
            }
            if unknown {
                return Ok(Value::unknown(ret.clone()));
            }
            let count = match iter_len {
                Some((0, _)) => return Ok(Value::list(Type::String, Vec::new())),
                Some((len, _)) => len,
                None => 1,
            };
            let mut results = Vec::with_capacity(count);
            for n in 0..count {
                let these: Vec<Value> = prepared
                    .iter()
                    .map(|a| match a {
                        Arg::Each(items) => items[n].clone(),
                        Arg::Single(v) => (*v).clone(),
                    })
                    .collect();
                if !these.iter().all(Value::is_wholly_known) {
                    results.push(Value::unknown(Type::String).refine_not_null());
                    continue;
                }
                match format_values(spec, &these, escapes) {
                    Ok(s) => results.push(Value::string(s)),
                    Err(e) => {
                        return Err(CallError::general(format!(
                            "error on format iteration {n}: {}",
                            e.message()
                        )))
                    }
                }
            }
            Ok(Value::list(Type::String, results))
        }),
    }
}

/// One formatting verb as cty's scanner records it.
#[derive(Default)]
struct Verb<'a> {
    /// The verb's text, from `%` to the verb letter.
    raw: &'a str,
    escapes: ControlEscapes,
    offset: usize,
    arg_num: i64,
    mode: char,
    zero: bool,
    sharp: bool,
    minus: bool,
    has_width: bool,
    width: i64,
    has_prec: bool,
    prec: i64,
}

/// Mirrors cty's `formatFSM`: scans `spec`, formatting each verb as it is
/// met, then complains about arguments no verb used.
fn format_values(spec: &str, args: &[Value], escapes: ControlEscapes) -> Result<String, CallError> {
    let bytes = spec.as_bytes();
    let mut out = String::with_capacity(spec.len());
    let mut next_arg: i64 = 1;
    let mut highest: i64 = 0;
    let mut p = 0;
    // Copies the run of literal text starting at `p`.
    let literal_end = |from: usize| {
        bytes[from..]
            .iter()
            .position(|&b| b == b'%')
            .map_or(bytes.len(), |i| from + i)
    };
    while p < bytes.len() {
        if bytes[p] != b'%' {
            let end = literal_end(p);
            out.push_str(&spec[p..end]);
            p = end;
            continue;
        }
        let start = p;
        p += 1;
        if bytes.get(p) == Some(&b'%') {
            out.push('%');
            p += 1;
            continue;
        }
        let mut verb = Verb {
            arg_num: next_arg,
            offset: start,
            escapes,
            ..Verb::default()
        };
        while let Some(&b) = bytes.get(p) {
            match b {
                b'0' => verb.zero = true,
                b'#' => verb.sharp = true,
                b'-' => verb.minus = true,
                // '+' and ' ' only matter to Go's own number formatting,
                // which reads them from the verb's text.
                b'+' | b' ' => {}
                _ => break,
            }
            p += 1;
        }
        if let Some(b'1'..=b'9') = bytes.get(p) {
            verb.has_width = true;
            p = scan_number(bytes, p, &mut verb.width);
        }
        if bytes.get(p) == Some(&b'.') {
            verb.has_prec = true;
            p = scan_number(bytes, p + 1, &mut verb.prec);
        }
        if bytes.get(p) == Some(&b'[') {
            p += 1;
            match bytes.get(p) {
                Some(b'1'..=b'9') => {}
                Some(_) => return Err(unrecognized(spec, p)),
                None => return Err(unfinished(spec)),
            }
            verb.arg_num = 0;
            p = scan_number(bytes, p, &mut verb.arg_num);
            match bytes.get(p) {
                Some(b']') => p += 1,
                Some(_) => return Err(unrecognized(spec, p)),
                None => return Err(unfinished(spec)),
            }
        }
        match bytes.get(p) {
            Some(b) if b.is_ascii_alphabetic() => {
                verb.mode = char::from(*b);
                verb.raw = &spec[start..=p];
                p += 1;
            }
            Some(_) => return Err(unrecognized(spec, p)),
            None => return Err(unfinished(spec)),
        }
        highest = highest.max(verb.arg_num);
        append_verb(&mut verb, &mut out, args)?;
        next_arg = verb.arg_num.wrapping_add(1);
    }
    if highest < args.len() as i64 {
        let first_bad = (highest + 1) as usize;
        let message = if highest == 0 {
            "too many arguments; no verbs in format string".to_string()
        } else {
            format!("too many arguments; only {highest} used by format string")
        };
        return Err(CallError::arg(first_bad, message));
    }
    Ok(out)
}

/// Reads decimal digits into `n` as Go's `int` arithmetic would
/// (wrapping), returning the position after them.
fn scan_number(bytes: &[u8], mut p: usize, n: &mut i64) -> usize {
    *n = 0;
    while let Some(&b @ b'0'..=b'9') = bytes.get(p) {
        *n = n.wrapping_mul(10).wrapping_add(i64::from(b - b'0'));
        p += 1;
    }
    p
}

fn unrecognized(spec: &str, p: usize) -> CallError {
    let c = spec[p..].chars().next().unwrap_or('\u{FFFD}');
    CallError::general(format!(
        "unrecognized format character {} at offset {p}",
        go_quote_rune(c)
    ))
}

fn unfinished(spec: &str) -> CallError {
    CallError::general(format!(
        "invalid format string starting at offset {}",
        spec.len()
    ))
}

/// Mirrors cty's `formatAppend`.
fn append_verb(verb: &mut Verb<'_>, out: &mut String, args: &[Value]) -> Result<(), CallError> {
    let index = verb.arg_num.wrapping_sub(1);
    if index >= args.len() as i64 {
        return Err(CallError::general(format!(
            "not enough arguments for {} at {}: need index {} but have {} total",
            go_quote(verb.raw),
            verb.offset,
            verb.arg_num,
            args.len()
        )));
    }
    let Ok(index) = usize::try_from(index) else {
        // A wrapped index: Go's slice access panics.
        return Err(CallError::panicked(format!(
            "runtime error: index out of range [{index}]"
        )));
    };
    let arg = &args[index];
    if verb.mode != 'v' && arg.is_null() {
        return Err(verb.unsupported("null value cannot be formatted"));
    }
    if !verb.has_width {
        verb.width = -1;
    }
    if !verb.has_prec {
        verb.prec = -1;
    }
    let text = match verb.mode {
        'v' => verb.as_is(arg)?,
        't' => {
            // cty ignores width and flags here.
            let b = convert(arg, &Type::Bool).map_err(|e| verb.unsupported(&e.message))?;
            (if b.as_bool() == Some(true) {
                "true"
            } else {
                "false"
            })
            .to_string()
        }
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let n = convert(arg, &Type::Number).map_err(|e| verb.unsupported(&e.message))?;
            verb.number(n.as_number().unwrap_or(&Number::zero()))?
        }
        's' | 'q' => verb.string(arg)?,
        other => {
            return Err(CallError::general(format!(
                "unsupported format verb {} in {} at offset {}",
                go_quote_rune(other),
                go_quote(verb.raw),
                verb.offset
            )))
        }
    };
    out.push_str(&text);
    Ok(())
}

impl Verb<'_> {
    fn unsupported(&self, why: &str) -> CallError {
        CallError::general(format!(
            "unsupported value for {} at {}: {why}",
            go_quote(self.raw),
            self.offset
        ))
    }

    /// Mirrors cty's `formatAppendAsIs`.
    fn as_is(&self, arg: &Value) -> Result<String, CallError> {
        if !self.sharp {
            match arg {
                Value::String(s) => return self.pad(s.clone()),
                Value::Number(n) => {
                    let text = n
                        .text_format('g', -1)
                        .ok_or_else(|| self.unsupported(NUMBER_TOO_LARGE))?;
                    return self.pad(text);
                }
                _ => {}
            }
        }
        let mut json = String::new();
        marshal(arg, &mut json, 0, self.escapes).map_err(|why| self.unsupported(why))?;
        self.pad(json)
    }

    /// Mirrors cty's `formatAppendString`: the precision counts grapheme
    /// clusters of the input.
    fn string(&self, arg: &Value) -> Result<String, CallError> {
        let s = convert(arg, &Type::String).map_err(|e| self.unsupported(&e.message))?;
        let mut s = s.as_str().unwrap_or_default();
        if self.prec > 0 {
            let parts = clusters(s);
            let keep = usize::try_from(self.prec).unwrap_or(usize::MAX);
            if keep < parts.len() {
                let len: usize = parts[..keep].iter().map(|c| c.len()).sum();
                s = &s[..len];
            }
        }
        if self.mode == 's' {
            return self.pad(s.to_string());
        }
        let mut json = String::new();
        push_json_string(&mut json, s, self.escapes);
        self.pad(json)
    }

    /// Mirrors cty's `formatPadWidth`: pads to the width in grapheme
    /// clusters, with zeros when asked (even on the right).
    fn pad(&self, text: String) -> Result<String, CallError> {
        if self.width < 0 {
            return Ok(text);
        }
        let have = grapheme_count(&text);
        let want = usize::try_from(self.width).unwrap_or(usize::MAX);
        if have >= want {
            return Ok(text);
        }
        if want > MAX_PAD {
            return Err(CallError::general(super::PAD_TOO_LONG));
        }
        let pad: String = std::iter::repeat(if self.zero { '0' } else { ' ' })
            .take(want - have)
            .collect();
        Ok(if self.minus { text + &pad } else { pad + &text })
    }

    /// Mirrors cty's `formatAppendNumber` / `formatAppendInteger`, which
    /// hand the verb's text (without any `[n]`) and a `*big.Float` or
    /// `*big.Int` to Go's `fmt.Sprintf`.
    fn number(&self, n: &Number) -> Result<String, CallError> {
        let integer = matches!(self.mode, 'b' | 'd' | 'o' | 'x' | 'X');
        if integer && !n.is_integer() {
            return Err(self.unsupported("an integer is required"));
        }
        let Some(spec) = GoSpec::parse(self.raw) else {
            // Go's fmt gives up on a width or precision over a million.
            let value = if integer {
                n.integer_digits(10).map(|d| sign_of(n).to_string() + &d)
            } else {
                n.text_format('g', -1)
            }
            .ok_or_else(|| self.unsupported(NUMBER_TOO_LARGE))?;
            let ty = if integer { "*big.Int" } else { "*big.Float" };
            return Ok(format!("%!(NOVERB)%!(EXTRA {ty}={value})"));
        };
        let text = if integer {
            spec.format_int(n, self.mode)
        } else {
            spec.format_float(n, self.mode)
        };
        text.ok_or_else(|| self.unsupported(NUMBER_TOO_LARGE))
    }
}

/// The flags, width and precision Go's `fmt` reads from a verb.
struct GoSpec {
    plus: bool,
    space: bool,
    sharp: bool,
    minus: bool,
    zero: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

impl GoSpec {
    /// Mirrors the flag, width and precision parsing of fmt's `doPrintf`
    /// for the verbs cty's scanner lets through; `None` where Go's
    /// `parsenum` finds a number too large and gives up on the verb.
    fn parse(raw: &str) -> Option<GoSpec> {
        let bytes = raw.as_bytes();
        let mut spec = GoSpec {
            plus: false,
            space: false,
            sharp: false,
            minus: false,
            zero: false,
            width: None,
            prec: None,
        };
        let mut i = 1;
        while let Some(&b) = bytes.get(i) {
            match b {
                b'#' => spec.sharp = true,
                b'0' => spec.zero = !spec.minus,
                b'+' => spec.plus = true,
                b'-' => {
                    spec.minus = true;
                    spec.zero = false;
                }
                b' ' => spec.space = true,
                _ => break,
            }
            i += 1;
        }
        let (width, next) = go_parsenum(bytes, i)?;
        spec.width = width;
        i = next;
        if bytes.get(i) == Some(&b'.') {
            let (prec, next) = go_parsenum(bytes, i + 1)?;
            spec.prec = Some(prec.unwrap_or(0));
            i = next;
        }
        if bytes.get(i) == Some(&b'[') {
            i += bytes[i..].iter().position(|&b| b == b']')? + 1;
        }
        (i + 1 == bytes.len()).then_some(spec)
    }

    /// Mirrors `big.Float.Format` for `e`, `E`, `f`, `g` and `G`.
    fn format_float(&self, n: &Number, mode: char) -> Option<String> {
        let prec = match (self.prec, mode) {
            (Some(p), _) => p as i64,
            (None, 'g' | 'G') => -1,
            (None, _) => 6,
        };
        let text = n.text_format(mode, prec)?;
        let (sign, body) = if let Some(rest) = text.strip_prefix('-') {
            ("-", rest)
        } else if let Some(rest) = text.strip_prefix('+') {
            (if self.space { " " } else { "+" }, rest)
        } else if self.plus {
            ("+", text.as_str())
        } else if self.space {
            (" ", text.as_str())
        } else {
            ("", text.as_str())
        };
        let padding = self
            .width
            .map_or(0, |w| w.saturating_sub(sign.len() + body.len()));
        let pad = |c: char| std::iter::repeat(c).take(padding).collect::<String>();
        Some(if self.zero && !n.is_infinite() {
            format!("{sign}{}{body}", pad('0'))
        } else if self.minus {
            format!("{sign}{body}{}", pad(' '))
        } else {
            format!("{}{sign}{body}", pad(' '))
        })
    }

    /// Mirrors `big.Int.Format` for `b`, `d`, `o`, `x` and `X`.
    fn format_int(&self, n: &Number, mode: char) -> Option<String> {
        let base = match mode {
            'b' => 2,
            'o' => 8,
            'x' | 'X' => 16,
            _ => 10,
        };
        let mut digits = n.integer_digits(base)?;
        if mode == 'X' {
            digits.make_ascii_uppercase();
        }
        let negative = n.sign() < 0;
        let sign = if negative {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        };
        let prefix = match (self.sharp, mode) {
            (true, 'b') => "0b",
            (true, 'o') => "0",
            (true, 'x') => "0x",
            (true, 'X') => "0X",
            _ => "",
        };
        let mut zeros = 0;
        if let Some(prec) = self.prec {
            if digits.len() < prec {
                zeros = prec - digits.len();
            } else if digits == "0" && prec == 0 {
                return Some(String::new());
            }
        }
        let (mut left, mut right) = (0, 0);
        let length = sign.len() + prefix.len() + zeros + digits.len();
        if let Some(width) = self.width.filter(|&w| w > length) {
            let d = width - length;
            if self.minus {
                right = d;
            } else if self.zero && self.prec.is_none() {
                zeros = d;
            } else {
                left = d;
            }
        }
        let mut out = String::with_capacity(length + left + right);
        out.extend(std::iter::repeat(' ').take(left));
        out.push_str(sign);
        out.push_str(prefix);
        out.extend(std::iter::repeat('0').take(zeros));
        out.push_str(&digits);
        out.extend(std::iter::repeat(' ').take(right));
        Some(out)
    }
}

/// Mirrors fmt's `parsenum`: `None` when the number grows past a million
/// while digits remain (Go then abandons the verb).
fn go_parsenum(bytes: &[u8], mut i: usize) -> Option<(Option<usize>, usize)> {
    let mut num: usize = 0;
    let mut any = false;
    while let Some(&b @ b'0'..=b'9') = bytes.get(i) {
        if num > 1_000_000 {
            return None;
        }
        num = num * 10 + usize::from(b - b'0');
        any = true;
        i += 1;
    }
    Some((any.then_some(num), i))
}

fn sign_of(n: &Number) -> &'static str {
    if n.sign() < 0 {
        "-"
    } else {
        ""
    }
}

/// Mirrors cty's `json.Marshal(v, v.Type())` for the values `format` can
/// see (wholly known ones).
fn marshal(
    v: &Value,
    out: &mut String,
    depth: usize,
    escapes: ControlEscapes,
) -> Result<(), &'static str> {
    if depth > MAX_JSON_DEPTH {
        return Err("value is nested too deeply");
    }
    match v {
        // The call boundary unmarks arguments; kept for completeness.
        Value::Marked(inner) => return marshal(inner, out, depth, escapes),
        Value::Null(_) => out.push_str("null"),
        Value::Unknown(..) => return Err("value is not known"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if n.is_infinite() {
                return Err("cannot serialize infinity as JSON");
            }
            if n.text_len_bound() > super::MAX_PAD as u64 {
                return Err(NUMBER_TOO_LARGE);
            }
            out.push_str(&n.text());
        }
        Value::String(s) => push_json_string(out, s, escapes),
        Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                marshal(item, out, depth + 1, escapes)?;
            }
            out.push(']');
        }
        Value::Map { items, .. } | Value::Object(items) => {
            out.push('{');
            for (i, (k, item)) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, k, escapes);
                out.push(':');
                marshal(item, out, depth + 1, escapes)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_eval::check;

    // Expected outcomes checked against go-cty 1.12.1 through HCL 2.14.
    #[test]
    fn format_verbs() {
        check(&[
            ("format(\"%5.2f|%v|%#v\", 3.14159, [1, \"a\"], {a = 1})", "\" 3.14|[1,\\\"a\\\"]|{\\\"a\\\":1}\""),
            ("format(\"%\")", "error: invalid format string starting at offset 1"),
            ("format(\"%[1]5d\", 1)", "error: unrecognized format character '5' at offset 4"),
            ("format(\"%5.2[1]f\", 1)", "\" 1.00\""),
            ("format(\"%\u{e9}\")", "error: unrecognized format character '\u{e9}' at offset 1"),
            ("format(\"%d %d\", 1)", "error: not enough arguments for \"%d\" at 3: need index 2 but have 1 total"),
            ("format(\"x\", 1)", "arg 1: too many arguments; no verbs in format string"),
            ("format(\"%d %[1]d\", 1, 2)", "arg 2: too many arguments; only 1 used by format string"),
            ("format(\"%.f|%.3s|%.0s|%5.1s|\", 1.55, \"h\u{e9}llo\", \"ab\", \"xyz\")", "\"2|h\u{e9}l|ab|    x|\""),
            ("format(\"%05s|%-5s|%5q|%05v|%-05s|\", \"a\", \"b\", \"c\", -1, \"d\")", "\"0000a|b    |  \\\"c\\\"|000-1|d0000|\""),
            ("format(\"%t\", 0)", "error: unsupported value for \"%t\" at 0: bool required"),
            ("format(\"%d\", null)", "error: unsupported value for \"%d\" at 0: null value cannot be formatted"),
            ("format(\"%v\", null)", "\"null\""),
            ("format(\"%v %v %v\", 0.0001, 0.00001, 1000000)", "\"0.0001 1e-05 1e+06\""),
            ("format(\"%b|%o|%#x|%X|%+d|% d|%08d|%-8d|%.5d|%8.5d|%.0d|%08.3d\", 5, 8, 255, 255, 3, 3, -42, 42, 42, 42, 0, 7)", "\"101|10|0xff|FF|+3| 3|-0000042|42      |00042|   00042||     007\""),
            ("format(\"%05f|%-5f|%+f|% f\", inf, ninf, inf, inf)", "\" +Inf|-Inf |+Inf| Inf\""),
            ("format(\"%d\", 1.5)", "error: unsupported value for \"%d\" at 0: an integer is required"),
            ("format(\"%#v\", inf)", "error: unsupported value for \"%#v\" at 0: cannot serialize infinity as JSON"),
            ("format(\"%q\", \"<&>\")", "\"\\\"\\\\u003c\\\\u0026\\\\u003e\\\"\""),
            ("format(\"%c\", 1)", "error: unsupported format verb 'c' in \"%c\" at offset 0"),
            ("format(\"%10000000000d\", 1)", "\"%!(NOVERB)%!(EXTRA *big.Int=1)\""),
            ("format(\"%v\", u)", "unknown(dynamic)"),
            ("formatlist(\"%s-%s\", [\"a\", \"b\"], \"x\")", "list<string>[\"a-x\", \"b-x\"]"),
            ("formatlist(\"%s-%s\", [\"a\", \"b\"], [\"x\"])", "arg 2: argument 2 has length 1, which is inconsistent with argument 1 of length 2"),
            ("formatlist(\"%s\", lu)", "list<string>[\"a\", unknown(string)]"),
            ("formatlist(\"%s\", ul)", "unknown(list(string))"),
            ("formatlist(\"%s\", [])", "list<string>[]"),
            ("formatlist(\"%d\", [\"a\"])", "error: error on format iteration 0: unsupported value for \"%d\" at 0: a number is required"),
            ("formatlist(\"x\")", "list<string>[\"x\"]"),
        ]);
    }
}
