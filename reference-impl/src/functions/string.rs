//! The string functions: cty's stdlib string functions under Terraform's
//! names, Terraform's own `startswith`, `endswith`, `strcontains` and
//! `replace`, plus `format`/`formatlist` and the regular expression
//! functions in the submodules. (`upper` and `lower` live with the core
//! functions.)

mod format;
mod regex;

use super::numeric::to_go_int;
use super::{static_return_type, CallError, Function, Param};
use crate::number::Number;
use crate::text::{grapheme_clusters as clusters, to_title};
use crate::types::Type;
use crate::value::Value;
pub(crate) use regex::{replace_all_bytes, GoRegexp};

/// Every function defined here.
pub(super) fn functions() -> Vec<Function> {
    let mut all = vec![
        chomp(),
        affix("endswith", "suffix", |s, x| s.ends_with(x)),
        affix("startswith", "prefix", |s, x| s.starts_with(x)),
        affix("strcontains", "substr", |s, x| s.contains(x)),
        indent(),
        join(),
        split(),
        strrev(),
        substr(),
        title(),
        trim(),
        trim_affix("trimprefix", "prefix", |s, x| s.strip_prefix(x)),
        trim_affix("trimsuffix", "suffix", |s, x| s.strip_suffix(x)),
        trimspace(),
        replace(GoRegexp::Go1_19),
    ];
    all.extend(format::functions());
    all.extend(regex::functions());
    all
}

/// Terraform 1.15's versions of functions defined here: Go 1.22+ regexp
/// syntax, go-cty 1.18's `format` and `formatlist`, and a `startswith`
/// that knows every string starts with "".
pub(super) fn terraform_1_15() -> Vec<Function> {
    let mut all = vec![replace(GoRegexp::Go1_25), startswith_1_15()];
    all.extend(format::terraform_1_15());
    all.extend(regex::terraform_1_15());
    all
}

/// The longest string a function here builds by repetition (`indent`'s
/// padding, `format`'s widths); Go would try to allocate anything, this
/// implementation refuses beyond it.
pub(crate) const MAX_PAD: usize = 1 << 24;

const NEGATIVE_REPEAT: &str = "strings: negative Repeat count";
const PAD_TOO_LONG: &str = "the requested padding is too long";
const NO_LISTS: &str = "at least one list is required";

/// cty's `chomp`: removes every trailing `\n` and `\r` (its pattern
/// `(?:\r\n?|\n)*\z` matches any run of them). Mirrors `stdlib.ChompFunc`.
fn chomp() -> Function {
    string_function("chomp", |s| s.trim_end_matches(['\r', '\n']).to_string())
}

/// Terraform's `startswith`, `endswith` and `strcontains`: byte-wise
/// `strings.HasPrefix` / `HasSuffix` / `Contains`.
/// Mirrors Terraform's `funcs.StartsWithFunc`, `funcs.EndsWithFunc` and
/// `funcs.StrContainsFunc`.
fn affix(name: &'static str, second: &'static str, test: fn(&str, &str) -> bool) -> Function {
    two_strings(name, second, Type::Bool, move |s, other| {
        Value::Bool(test(s, other))
    })
}

/// A function of a string `str` and a second string parameter.
fn two_strings(
    name: &'static str,
    second: &'static str,
    returns: Type,
    f: impl Fn(&str, &str) -> Value + Send + Sync + 'static,
) -> Function {
    Function {
        name,
        params: vec![
            Param::new("str", Type::String),
            Param::new(second, Type::String),
        ],
        var_param: None,
        return_type: static_return_type(returns),
        implementation: Box::new(move |args, _| Ok(f(string(&args[0]), string(&args[1])))),
    }
}

/// Terraform 1.15's `startswith`: an unknown string starts with "", and
/// with what its known prefix starts with; it does not start with a
/// string no longer than its known prefix that the prefix does not start
/// with. Mirrors Terraform's `funcs.StartsWithFunc`.
fn startswith_1_15() -> Function {
    let mut f = affix("startswith", "prefix", |s, x| s.starts_with(x));
    f.params[0] = Param::new("str", Type::String).allow_unknown();
    let known = f.implementation;
    f.implementation = Box::new(move |args, ret| match (&args[0], &args[1]) {
        (Value::Unknown(..), Value::String(prefix)) if prefix.is_empty() => Ok(Value::Bool(true)),
        (unknown @ Value::Unknown(..), Value::String(prefix)) => {
            let known_prefix = unknown.range().prefix;
            Ok(if known_prefix.is_empty() {
                Value::unknown(Type::Bool)
            } else if known_prefix.starts_with(prefix.as_str()) {
                Value::Bool(true)
            } else if known_prefix.len() >= prefix.len() {
                Value::Bool(false)
            } else {
                Value::unknown(Type::Bool)
            })
        }
        (Value::Unknown(..), _) => Ok(Value::unknown(Type::Bool)),
        _ => known(args, ret),
    });
    f
}

/// cty's `indent`: spaces after every `\n`. Mirrors `stdlib.IndentFunc`.
fn indent() -> Function {
    Function {
        name: "indent",
        params: vec![
            Param::new("spaces", Type::Number),
            Param::new("str", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| {
            let spaces = to_go_int(number(&args[0])).map_err(CallError::general)?;
            // Go builds the padding before looking at the string.
            let pad = padding(spaces, ' ')?;
            let text = string(&args[1]);
            let lines = text.bytes().filter(|&b| b == b'\n').count() as u64;
            let size = (text.len() as u64).saturating_add(lines.saturating_mul(pad.len() as u64));
            if !crate::eval::budget::reserve_bytes(size) {
                return Ok(Value::string(""));
            }
            Ok(Value::string(text.replace('\n', &format!("\n{pad}"))))
        }),
    }
}

/// cty's `join`. Mirrors `stdlib.JoinFunc`.
fn join() -> Function {
    Function {
        name: "join",
        params: vec![Param::new("separator", Type::String)],
        var_param: Some(Param::new("lists", Type::list(Type::String))),
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| {
            let lists = &args[1..];
            if lists.is_empty() {
                return Err(CallError::general(NO_LISTS));
            }
            if !lists.iter().all(Value::is_wholly_known) {
                return Ok(Value::unknown(Type::String));
            }
            let mut items = Vec::new();
            for (li, list) in lists.iter().enumerate() {
                for (ei, elem) in list.element_values().into_iter().enumerate() {
                    let Value::String(s) = elem else {
                        let message = if lists.len() > 1 {
                            format!(
                                "element {ei} of list {} is null; cannot concatenate null values",
                                li + 1
                            )
                        } else {
                            format!("element {ei} is null; cannot concatenate null values")
                        };
                        return Err(CallError::arg(li + 1, message));
                    };
                    items.push(s.as_str());
                }
            }
            Ok(Value::string(items.join(string(&args[0]))))
        }),
    }
}

/// cty's `split`: Go's `strings.Split`, which explodes into characters on
/// an empty separator. Mirrors `stdlib.SplitFunc`.
fn split() -> Function {
    Function {
        name: "split",
        params: vec![
            Param::new("separator", Type::String),
            Param::new("str", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::list(Type::String)),
        implementation: Box::new(|args, _| {
            let (sep, text) = (string(&args[0]), string(&args[1]));
            let parts: Vec<Value> = if sep.is_empty() {
                text.chars().map(|c| Value::string(c.to_string())).collect()
            } else {
                text.split(sep).map(Value::string).collect()
            };
            Ok(Value::list(Type::String, parts))
        }),
    }
}

/// cty's `reverse` of a string (Terraform's `strrev`): grapheme clusters in
/// reverse order. Mirrors `stdlib.ReverseFunc`.
fn strrev() -> Function {
    Function {
        name: "strrev",
        params: vec![Param::new("str", Type::String).allow_dynamic_type()],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| match &args[0] {
            Value::String(s) => Ok(Value::string(
                clusters(s).into_iter().rev().collect::<String>(),
            )),
            _ => Ok(Value::unknown(Type::String)),
        }),
    }
}

/// cty's `substr`, counting grapheme clusters. Mirrors `stdlib.SubstrFunc`,
/// including its quirks: a negative offset is counted from the end and may
/// stay negative (then it means the start), and a length of 0 with a
/// negative offset means "to the end".
fn substr() -> Function {
    Function {
        name: "substr",
        params: vec![
            Param::new("str", Type::String).allow_dynamic_type(),
            Param::new("offset", Type::Number).allow_dynamic_type(),
            Param::new("length", Type::Number).allow_dynamic_type(),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| {
            let (Value::String(text), Value::Number(offset), Value::Number(length)) =
                (&args[0], &args[1], &args[2])
            else {
                return Ok(Value::unknown(Type::String));
            };
            let mut offset = to_go_int(offset).map_err(CallError::general)?;
            let length = to_go_int(length).map_err(CallError::general)?;
            let parts = clusters(text);
            let count = parts.len() as i64;
            if offset < 0 {
                offset += count;
            } else if length == 0 {
                return Ok(Value::string(""));
            }
            let start = offset.clamp(0, count) as usize;
            let rest = &parts[start..];
            let take = if length <= 0 {
                rest.len()
            } else {
                rest.len()
                    .min(usize::try_from(length).unwrap_or(usize::MAX))
            };
            Ok(Value::string(rest[..take].concat()))
        }),
    }
}

/// cty's `title`: Go's `strings.Title`, which title-cases every letter
/// after a separator (an ASCII character other than a letter, digit or
/// `_`, or a Unicode space). Mirrors `stdlib.TitleFunc`.
fn title() -> Function {
    string_function("title", |s| {
        let mut prev = ' ';
        s.chars()
            .map(|c| {
                let out = if is_title_separator(prev) {
                    to_title(c)
                } else {
                    c
                };
                prev = c;
                out
            })
            .collect()
    })
}

/// cty's `trim`: Go's `strings.Trim`, removing characters of the cutset
/// from both ends. Mirrors `stdlib.TrimFunc`.
fn trim() -> Function {
    Function {
        name: "trim",
        params: vec![
            Param::new("str", Type::String),
            Param::new("cutset", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| {
            let cutset = string(&args[1]);
            let trimmed = string(&args[0]).trim_matches(|c| cutset.contains(c));
            Ok(Value::string(trimmed))
        }),
    }
}

/// cty's `trimprefix` / `trimsuffix`. Mirrors `stdlib.TrimPrefixFunc` /
/// `stdlib.TrimSuffixFunc`.
fn trim_affix(
    name: &'static str,
    second: &'static str,
    strip: for<'a> fn(&'a str, &str) -> Option<&'a str>,
) -> Function {
    two_strings(name, second, Type::String, move |text, affix| {
        Value::string(strip(text, affix).unwrap_or(text))
    })
}

/// cty's `trimspace`: Go's `strings.TrimSpace` (Unicode white space).
/// Mirrors `stdlib.TrimSpaceFunc`.
fn trimspace() -> Function {
    string_function("trimspace", |s| {
        s.trim_matches(char::is_whitespace).to_string()
    })
}

/// Terraform's `replace`: a substring wrapped in slashes is a regular
/// expression, anything else is replaced literally. Mirrors Terraform's
/// `funcs.ReplaceFunc`.
fn replace(go: GoRegexp) -> Function {
    Function {
        name: "replace",
        params: vec![
            Param::new("str", Type::String),
            Param::new("substr", Type::String),
            Param::new("replace", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(move |args, _| {
            let (text, search, with) = (string(&args[0]), string(&args[1]), string(&args[2]));
            if search.len() > 1 && search.starts_with('/') && search.ends_with('/') {
                let pattern = &search[1..search.len() - 1];
                let replaced =
                    regex::replace_all(text, pattern, with, go).map_err(CallError::general)?;
                return Ok(Value::string(replaced));
            }
            Ok(Value::string(go_replace_all(text, search, with)))
        }),
    }
}

/// A function of one string parameter that returns a string.
fn string_function(name: &'static str, f: fn(&str) -> String) -> Function {
    super::string_function(name, move |s| Ok(f(s)))
}

/// Go's `strings.Replace(s, old, new, -1)`: an empty `old` matches before
/// every character and at the end.
fn go_replace_all(s: &str, old: &str, new: &str) -> String {
    if !old.is_empty() {
        return s.replace(old, new);
    }
    let mut out = String::with_capacity(s.len() + new.len() * (s.len() + 1));
    for c in s.chars() {
        out.push_str(new);
        out.push(c);
    }
    out.push_str(new);
    out
}

/// `strings.Repeat(pad, n)` for the padding functions build: Go panics on
/// a negative count; huge ones are refused here.
fn padding(n: i64, pad: char) -> Result<String, CallError> {
    if n < 0 {
        return Err(CallError::panicked(NEGATIVE_REPEAT));
    }
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if n > MAX_PAD {
        return Err(CallError::general(PAD_TOO_LONG));
    }
    Ok(std::iter::repeat(pad).take(n).collect())
}

/// The string inside a known string argument (`Function::call` passes only
/// known, non-null arguments to implementations that do not opt out).
fn string(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// The number inside a known number argument.
fn number(v: &Value) -> &Number {
    static ZERO: std::sync::OnceLock<Number> = std::sync::OnceLock::new();
    v.as_number()
        .unwrap_or_else(|| ZERO.get_or_init(Number::zero))
}

/// Go's `strings.isSeparator` as `strings.Title` uses it.
pub(crate) fn is_title_separator(c: char) -> bool {
    if c.is_ascii() {
        return !(c.is_ascii_alphanumeric() || c == '_');
    }
    // Letters and digits are never white space, so Go's extra letter and
    // digit test changes nothing beyond ASCII.
    c.is_whitespace()
}

/// Test helpers shared by the numeric and string function tests.
#[cfg(test)]
pub(super) mod test_eval {
    use crate::convert::convert;
    use crate::eval::test_support::{scope, value};
    use crate::functions::{lookup, CallError};
    use crate::value::Value;
    use crate::HclVersion;

    /// Calls a function of HCL 2.14's table written as `name(args...)`,
    /// under that profile: the arguments are
    /// evaluated as a tuple in the shared test scope and converted to the
    /// parameter types, as a call expression would. Renders the result, or
    /// the error as `arg N: message` / `error: message`.
    pub(crate) fn call(source: &str) -> String {
        let open = source.find('(').expect("a call");
        let name = &source[..open];
        let inner = &source[open + 1..source.len() - 1];
        let expr = crate::parser::parse_expression(&format!("[{inner}]")).expect("parses");
        let ctx = scope(HclVersion::V2_14);
        let Value::Tuple(args) = crate::eval::evaluate(&expr, &ctx).expect("evaluates") else {
            panic!("not a tuple");
        };
        let function = lookup(name).expect("a known function");
        let args: Vec<Value> = args
            .into_iter()
            .enumerate()
            .map(|(i, a)| {
                let param = function.param_for(i).expect("a parameter");
                convert(&a, &param.ty).unwrap_or(a)
            })
            .collect();
        // The functions of HCL 2.14's table, under that profile.
        match crate::profile::with_profile(HclVersion::V2_14, || function.call(&args)) {
            Ok(v) => value(&v),
            Err(CallError::Arg { index, message }) => format!("arg {index}: {message}"),
            Err(CallError::General(message)) => format!("error: {message}"),
            Err(CallError::Crash(message)) => format!("crash: {message}"),
        }
    }

    /// Checks `(call, rendering)` rows, reporting every mismatch at once.
    pub(crate) fn check(rows: &[(&str, &str)]) {
        let failures: Vec<String> = rows
            .iter()
            .filter_map(|(source, want)| {
                let got = call(source);
                (got != *want).then(|| format!("{source}\n   want {want}\n   got  {got}"))
            })
            .collect();
        assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::test_eval::check;

    // Expected outcomes checked against go-cty 1.12.1 (and Terraform's own
    // functions as the oracle implements them) through HCL 2.14.
    #[test]
    fn string_functions() {
        check(&[
            ("chomp(\"a\\n\\r\\n\\r\")", "\"a\""),
            ("startswith(\"hello\", \"he\")", "true"),
            ("endswith(\"hello\", \"he\")", "false"),
            ("strcontains(\"hello\", \"\")", "true"),
            ("indent(2, \"a\\nb\\n\")", "\"a\\u000a  b\\u000a  \""),
            (
                "indent(-1, \"a\")",
                "error: panic in function implementation: strings: negative Repeat count",
            ),
            (
                "join(\",\", [\"a\", null])",
                "arg 1: element 1 is null; cannot concatenate null values",
            ),
            (
                "join(\",\", [\"a\"], [null])",
                "arg 2: element 0 of list 2 is null; cannot concatenate null values",
            ),
            ("join(\",\")", "error: at least one list is required"),
            ("join(\"-\", [\"a\"], [], [\"b\", \"c\"])", "\"a-b-c\""),
            ("split(\"\", \"\")", "list<string>[]"),
            ("split(\"\", \"abc\")", "list<string>[\"a\", \"b\", \"c\"]"),
            ("split(\",\", \"\")", "list<string>[\"\"]"),
            ("strrev(\"e\u{301}x\")", "\"x\u{e9}\""),
            ("substr(\"hello\", -10, 2)", "\"he\""),
            ("substr(\"hello\", 5, 2)", "\"\""),
            ("substr(\"hello\", -3, 0)", "\"llo\""),
            ("substr(\"hello\", 1, 0)", "\"\""),
            ("substr(\"abc\", 1, -5)", "\"bc\""),
            (
                "title(\"hello wORLD \u{e9}lan_x \u{1c6}a\")",
                "\"Hello WORLD \u{c9}lan_x \u{1c5}a\"",
            ),
            ("trim(\"?!hi?!\", \"!?\")", "\"hi\""),
            ("trimprefix(\"hello\", \"hel\")", "\"lo\""),
            ("trimsuffix(\"hello\", \"hel\")", "\"hello\""),
            ("trimspace(\"\\u3000 a \\n\")", "\"a\""),
            ("replace(\"abc\", \"\", \"-\")", "\"-a-b-c-\""),
        ]);
    }
}
