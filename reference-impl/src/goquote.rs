//! Go's quoting of strings and runes (`strconv.Quote`, `strconv.QuoteRune`,
//! the `%q` and `%#v` verbs on strings), which HCL, cty and Terraform's
//! functions use to name things in their messages, and cty in its set
//! hashes. This is the one place the reference quotes the Go way: a
//! diagnostic that quotes a name must quote it as Go prints it, down to
//! which characters are written as escapes.
//!
//! What is printable is Go's (`strconv.IsPrint`, the same set as
//! `unicode.IsPrint`) at the profile's Unicode version: 13.0.0 for Go 1.19,
//! which HCL 2.14.1 is built with for the oracle, 15.0.0 for Terraform 1.15,
//! 10.0.0 for Terraform 0.11.11's Go 1.11; not Rust's `char` classes, which follow another Unicode version and count
//! other characters as control or space.

use std::fmt::Write as _;

use crate::types::Type;

/// Go's `strconv.Quote` (and `%q`, `%#v` on a string): double quotes,
/// printable characters kept, everything else escaped.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        push_escaped(&mut out, c, '"');
    }
    out.push('"');
    out
}

/// Go's `strconv.QuoteRune` (`%q` on a rune): single quotes.
pub fn go_quote_rune(c: char) -> String {
    let mut out = String::from("'");
    push_escaped(&mut out, c, '\'');
    out.push('\'');
    out
}

/// Go's `strconv.Quote` of a byte string that need not be UTF-8 (`%q` on
/// a `[]byte`): each byte outside a valid UTF-8 sequence becomes `\xNN`.
pub fn go_quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_escaped(&mut out, c, '"');
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out.push('"');
    out
}

/// A cty type as Go's `%#v` prints it (`cty.Type.GoString`), as in the
/// messages of cty's panics: `cty.List(cty.String)`,
/// `cty.Object(map[string]cty.Type{"a":cty.Number})`. Go prints a map's
/// keys sorted, as object attributes are kept.
pub fn go_syntax_type(ty: &Type) -> String {
    match ty {
        Type::String => "cty.String".to_string(),
        Type::Number => "cty.Number".to_string(),
        Type::Bool => "cty.Bool".to_string(),
        Type::Dynamic => "cty.DynamicPseudoType".to_string(),
        Type::List(elem) => format!("cty.List({})", go_syntax_type(elem)),
        Type::Set(elem) => format!("cty.Set({})", go_syntax_type(elem)),
        Type::Map(elem) => format!("cty.Map({})", go_syntax_type(elem)),
        Type::Tuple(elems) if elems.is_empty() => "cty.EmptyTuple".to_string(),
        Type::Tuple(elems) => {
            let elems: Vec<String> = elems.iter().map(go_syntax_type).collect();
            format!("cty.Tuple([]cty.Type{{{}}})", elems.join(", "))
        }
        Type::Object(attrs) if attrs.is_empty() => "cty.EmptyObject".to_string(),
        Type::Object(attrs) => {
            // cty keeps optional attributes as a set of names beside the
            // attribute types.
            let mut types = Vec::with_capacity(attrs.len());
            let mut optional = Vec::new();
            for (name, attr) in attrs {
                let (attr, is_optional) = attr.unwrap_optional();
                types.push(format!("{}:{}", go_quote(name), go_syntax_type(attr)));
                if is_optional {
                    optional.push(go_quote(name));
                }
            }
            let types = format!("map[string]cty.Type{{{}}}", types.join(", "));
            if optional.is_empty() {
                format!("cty.Object({types})")
            } else {
                format!(
                    "cty.ObjectWithOptionalAttrs({types}, []string{{{}}})",
                    optional.join(", ")
                )
            }
        }
        Type::Optional(inner) => go_syntax_type(inner),
    }
}

/// Go's `strconv.IsPrint`, the same set as `unicode.IsPrint`: letters,
/// marks, numbers, punctuation, symbols and the ASCII space, at the Unicode
/// version in effect ([`crate::text::with_unicode`]).
pub fn is_print(c: char) -> bool {
    c == ' '
        || ["L", "M", "N", "P", "S"]
            .iter()
            .any(|major| crate::text::in_table(major, c))
}

/// Mirrors `strconv.appendEscapedRune` inside `quote` quotes.
fn push_escaped(out: &mut String, c: char, quote: char) {
    if c == quote || c == '\\' {
        out.push('\\');
        out.push(c);
        return;
    }
    if is_print(c) {
        out.push(c);
        return;
    }
    let r = c as u32;
    let _ = match c {
        '\u{7}' => out.write_str("\\a"),
        '\u{8}' => out.write_str("\\b"),
        '\u{c}' => out.write_str("\\f"),
        '\n' => out.write_str("\\n"),
        '\r' => out.write_str("\\r"),
        '\t' => out.write_str("\\t"),
        '\u{b}' => out.write_str("\\v"),
        _ if r < 0x20 || r == 0x7f => write!(out, "\\x{r:02x}"),
        _ if r < 0x10000 => write!(out, "\\u{r:04x}"),
        _ => write!(out, "\\U{r:08x}"),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_go() {
        // Expected values from Go's strconv.Quote.
        let rows = [
            ("abc", r#""abc""#),
            ("a\"b\\c", r#""a\"b\\c""#),
            ("\u{7}\u{8}\u{c}\n\r\t\u{b}", r#""\a\b\f\n\r\t\v""#),
            ("\u{0}\u{1f}\u{7f}", r#""\x00\x1f\x7f""#),
            ("\u{a0}é\u{ad}\u{2028}", "\"\\u00a0é\\u00ad\\u2028\""),
            (
                "日本\u{1f600}\u{e0001}\u{10ffff}",
                "\"日本😀\\U000e0001\\U0010ffff\"",
            ),
        ];
        for (input, want) in rows {
            assert_eq!(go_quote(input), want, "{input:?}");
        }
    }

    #[test]
    fn escapes_what_go_does_not_print() {
        // Expected values from Go 1.19's strconv.Quote: format and space
        // characters Rust does not call control are escaped all the same.
        assert_eq!(go_quote("a\u{200b}b"), r#""a\u200bb""#);
        assert_eq!(
            go_quote("\u{ad}\u{61c}\u{180e}\u{feff}"),
            r#""\u00ad\u061c\u180e\ufeff""#
        );
    }

    #[test]
    fn printable_follows_the_unicode_version() {
        use crate::text::{with_unicode, UnicodeVersion};
        // U+10570, a Vithkuqi letter, is new in Unicode 14: unassigned (so
        // escaped) for Go 1.19, a letter for Go 1.21 and later.
        assert_eq!(go_quote("\u{10570}"), r#""\U00010570""#);
        assert_eq!(
            with_unicode(UnicodeVersion::V15, || go_quote("\u{10570}")),
            "\"\u{10570}\""
        );
        // U+1F970, new in Unicode 11: escaped by Terraform 0.11.11's Go
        // 1.11 (recorded as hil-uni10-026).
        assert_eq!(go_quote("\u{1F970}"), "\"\u{1F970}\"");
        assert_eq!(
            with_unicode(UnicodeVersion::V10, || go_quote("\u{1F970}")),
            r#""\U0001f970""#
        );
    }

    #[test]
    fn quotes_runes_and_bytes_like_go() {
        // Expected values from Go 1.19's strconv.QuoteRune and Quote.
        let runes = [
            ('\'', r"'\''"),
            ('"', r#"'"'"#),
            ('\u{200b}', r"'\u200b'"),
            ('\u{7f}', r"'\x7f'"),
            ('é', "'é'"),
            ('\u{e0001}', r"'\U000e0001'"),
        ];
        for (c, want) in runes {
            assert_eq!(go_quote_rune(c), want, "{c:?}");
        }
        assert_eq!(go_quote_bytes(b"\xff\xe2\x82"), r#""\xff\xe2\x82""#);
        assert_eq!(go_quote_bytes(b"x\xedy"), r#""x\xedy""#);
    }
}
