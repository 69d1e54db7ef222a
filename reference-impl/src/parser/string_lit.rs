//! The value of a template literal token: escape sequences in quoted
//! templates, `$${`/`%%{` everywhere.

use super::cursor::{error, PResult};
use super::diag;
use super::scan::advance;
use super::token::{Token, TokenKind};
use crate::error::Span;
use crate::goquote::go_quote;

/// The string a literal token stands for. Quoted-template tokens resolve
/// backslash escapes (`\n \r \t \" \\ \uNNNN \UNNNNNNNN`); heredoc and bare
/// template tokens keep backslashes. Both turn `$${` into `${` and `%%{`
/// into `%{`. Mirrors `hclsyntax.ParseStringLiteralToken`.
pub(super) fn string_literal_value(token: &Token<'_>) -> PResult<String> {
    let quoted = token.kind == TokenKind::QuotedLit;
    let mut out = String::with_capacity(token.text.len());
    let mut end = token.span.start;
    for slice in string_lit_slices(token.text, quoted) {
        if slice.is_empty() {
            continue;
        }
        let start = end;
        end = advance(end, slice);
        end.byte = start.byte + slice.len();
        let span = Span::new(start, end);
        let bytes = slice.as_bytes();
        match bytes[0] {
            b'\\' if quoted => out.push_str(&escape_value(slice, span)?),
            b'$' | b'%' if bytes.len() == 3 && bytes[1] == bytes[0] && bytes[2] == b'{' => {
                out.push(char::from(bytes[0]));
                out.push('{');
            }
            _ => out.push_str(slice),
        }
    }
    Ok(out)
}

/// The value of one backslash escape slice.
fn escape_value(slice: &str, span: Span) -> PResult<String> {
    let invalid = |detail: String| error(diag::INVALID_ESCAPE_SEQUENCE, detail, span);
    let mut chars = slice.chars();
    chars.next(); // the backslash
    let Some(selector) = chars.next() else {
        return Err(invalid(
            "Backslash must be followed by an escape sequence selector character.".to_string(),
        ));
    };
    let simple = match selector {
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        '"' => '"',
        '\\' => '\\',
        'u' | 'U' => {
            let (want, detail) = if selector == 'u' {
                (6, diag::SHORT_UNICODE_ESCAPE_DETAIL)
            } else {
                (10, diag::LONG_UNICODE_ESCAPE_DETAIL)
            };
            if slice.len() != want {
                return Err(invalid(detail.to_string()));
            }
            // At most eight hex digits, so this always fits.
            let code = u32::from_str_radix(&slice[2..], 16).unwrap_or(u32::MAX);
            // Surrogates and values past U+10FFFF have no UTF-8 encoding.
            return match char::from_u32(code) {
                Some(c) => Ok(c.to_string()),
                None => Err(invalid(format!(
                    "Cannot encode character U+{code:04x} in UTF-8."
                ))),
            };
        }
        _ => {
            return Err(invalid(format!(
                "The symbol {} is not a valid escape sequence selector.",
                go_quote(&slice[1..])
            )))
        }
    };
    Ok(simple.to_string())
}

/// Splits a literal token into escape sequences, `$`/`%` sequences,
/// newlines and the plain runs between them. Mirrors `scanStringLit`:
/// ```text
/// UnicodeEscapeShort = "\\u" . Hex{0,4};
/// UnicodeEscapeLong = "\\U" . Hex{0,8};
/// SimpleEscape = "\\" . (AnyUTF8 - ('U'|'u'))?;
/// TemplateEscape = ("$" . ("$" . ("{"?))?) | ("%" . ("%" . ("{"?))?);
/// Newline = ("\r\n" | "\r" | "\n");
/// ```
fn string_lit_slices(text: &str, quoted: bool) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut slices = Vec::new();
    let mut literal_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let len = match bytes[i] {
            b'\\' if quoted => match bytes.get(i + 1) {
                Some(b'u') => 2 + hex_run(&bytes[i + 2..], 4),
                Some(b'U') => 2 + hex_run(&bytes[i + 2..], 8),
                Some(_) => 1 + text[i + 1..].chars().next().map_or(0, char::len_utf8),
                None => 1,
            },
            sign @ (b'$' | b'%') => {
                if bytes.get(i + 1) != Some(&sign) {
                    1
                } else if bytes.get(i + 2) == Some(&b'{') {
                    3
                } else {
                    2
                }
            }
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => 2,
            b'\r' | b'\n' => 1,
            _ => {
                i += 1;
                continue;
            }
        };
        if literal_start < i {
            slices.push(&text[literal_start..i]);
        }
        slices.push(&text[i..i + len]);
        i += len;
        literal_start = i;
    }
    if literal_start < bytes.len() {
        slices.push(&text[literal_start..]);
    }
    slices
}

fn hex_run(bytes: &[u8], max: usize) -> usize {
    bytes
        .iter()
        .take(max)
        .take_while(|b| b.is_ascii_hexdigit())
        .count()
}
