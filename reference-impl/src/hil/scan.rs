//! The scanner: splits a 0.11 string into tokens, alternating between
//! literal text and the insides of `${ ... }` sequences, as HIL's
//! `scanner.Scan` does. Positions count lines and columns from 1; columns
//! count characters, except that whitespace and punctuation inside an
//! interpolation count bytes (the same thing for ASCII).

use crate::goquote::go_quote;
use crate::text::in_table;

/// A line and column, as HIL's `ast.Pos`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HilPos {
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for HilPos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// What a token is; the text tokens keep their raw source text.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Text outside any interpolation (raw, `$$` not yet unescaped).
    Literal(String),
    /// Text of a quoted string inside an interpolation (raw).
    Str(String),
    Int(String),
    Float(String),
    Bool(bool),
    Ident(String),
    /// `${`
    Begin,
    /// `}`
    End,
    OpenQuote,
    CloseQuote,
    /// A one-byte punctuation token: `( ) [ ] , . + - * / % ? : ! < >`.
    Punct(u8),
    And,
    Or,
    Equal,
    NotEqual,
    GreaterEqual,
    LessEqual,
    Eof,
    /// Text that starts no token; the scanner stops after it.
    Invalid(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub pos: HilPos,
}

impl Token {
    /// How parse errors name the token (HIL's `Token.String`).
    pub fn describe(&self) -> String {
        match &self.tok {
            Tok::Eof => "end of string".to_string(),
            Tok::Invalid(s) => format!("invalid sequence {}", go_quote(s)),
            Tok::Int(s) => format!("integer {s}"),
            Tok::Float(s) => format!("float {s}"),
            Tok::Str(s) => format!("string {}", go_quote(s)),
            Tok::Literal(s) => format!("literal {}", go_quote(s)),
            Tok::OpenQuote => "opening quote".to_string(),
            Tok::CloseQuote => "closing quote".to_string(),
            Tok::And => "&&".to_string(),
            Tok::Or => "||".to_string(),
            Tok::NotEqual => "!=".to_string(),
            Tok::GreaterEqual => ">=".to_string(),
            Tok::LessEqual => "<=".to_string(),
            Tok::Equal => go_quote("=="),
            Tok::Begin => go_quote("${"),
            Tok::End => go_quote("}"),
            Tok::Bool(b) => go_quote(if *b { "true" } else { "false" }),
            Tok::Ident(s) => go_quote(s),
            Tok::Punct(b) => go_quote(&char::from(*b).to_string()),
        }
    }
}

/// Scans the whole string. The last token is always `Eof`.
pub fn scan(s: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut rest = s;
    let mut pos = HilPos { line: 1, column: 1 };
    let mut nesting = 0usize;
    loop {
        let start = pos;
        let (lit_len, terminator, after) = scan_literal(rest, pos, nesting > 0);
        if lit_len > 0 {
            let text = rest[..lit_len].to_string();
            let tok = if nesting > 0 {
                Tok::Str(text)
            } else {
                Tok::Literal(text)
            };
            out.push(Token { tok, pos: start });
            rest = &rest[lit_len..];
        }
        let consumed = match &terminator.tok {
            Tok::Begin => 2,
            Tok::CloseQuote => 1,
            Tok::Invalid(t) => t.len(),
            _ => 0,
        };
        rest = &rest[consumed..];
        pos = after;
        let kind = terminator.tok.clone();
        out.push(terminator);
        match kind {
            Tok::Invalid(_) => {
                out.push(Token { tok: Tok::Eof, pos });
                return out;
            }
            Tok::Eof => return out,
            Tok::Begin => nesting += 1,
            _ => {}
        }
        loop {
            let (token, size, new_pos) = scan_interpolation_token(rest, pos);
            rest = &rest[size..];
            pos = new_pos;
            let kind = token.tok.clone();
            out.push(token);
            match kind {
                Tok::Invalid(_) => {
                    out.push(Token { tok: Tok::Eof, pos });
                    return out;
                }
                Tok::Eof => return out,
                Tok::End => {
                    nesting = nesting.saturating_sub(1);
                    break;
                }
                Tok::OpenQuote => break,
                _ => {}
            }
        }
    }
}

/// The length of the literal text at the start of `s`, the token that ends
/// it and the position after that token. Mirrors HIL's `scanLiteral`,
/// including that an unterminated quoted string is one invalid token
/// positioned where the text began.
fn scan_literal(s: &str, start: HilPos, nested: bool) -> (usize, Token, HilPos) {
    let bytes = s.as_bytes();
    let mut len = 0;
    let mut pos = start;
    loop {
        if len >= bytes.len() {
            if nested {
                let tok = Token {
                    tok: Tok::Invalid(s.to_string()),
                    pos: start,
                };
                // HIL advances the column by the byte length of the token.
                let after = HilPos {
                    line: start.line,
                    column: start.column + s.len(),
                };
                return (0, tok, after);
            }
            return (len, Token { tok: Tok::Eof, pos }, pos);
        }
        let next = bytes[len];
        if next == b'$' && bytes.len() > len + 1 {
            match bytes[len + 1] {
                b'{' => {
                    let tok = Token {
                        tok: Tok::Begin,
                        pos,
                    };
                    let after = HilPos {
                        line: pos.line,
                        column: pos.column + 2,
                    };
                    return (len, tok, after);
                }
                b'$' => {
                    pos.column += 2;
                    len += 2;
                    continue;
                }
                _ => {}
            }
        }
        if nested {
            if next == b'"' {
                let tok = Token {
                    tok: Tok::CloseQuote,
                    pos,
                };
                let after = HilPos {
                    line: pos.line,
                    column: pos.column + 1,
                };
                return (len, tok, after);
            }
            if next == b'\\' && bytes.len() > len + 1 && matches!(bytes[len + 1], b'"' | b'\\') {
                pos.column += 2;
                len += 2;
                continue;
            }
        }
        if next == b'\n' {
            pos.column = 1;
            pos.line += 1;
            len += 1;
        } else {
            pos.column += 1;
            len += s[len..].chars().next().map_or(1, char::len_utf8);
        }
    }
}

/// One token inside an interpolation: the token, the bytes consumed
/// (leading whitespace included) and the position after it. Mirrors HIL's
/// `scanInterpolationToken`.
fn scan_interpolation_token(s: &str, start: HilPos) -> (Token, usize, HilPos) {
    let bytes = s.as_bytes();
    let mut pos = start;
    let mut size = 0;
    while size < bytes.len() && matches!(bytes[size], b' ' | b'\t' | b'\r' | b'\n') {
        if bytes[size] == b'\n' {
            pos.column = 1;
            pos.line += 1;
        } else {
            pos.column += 1;
        }
        size += 1;
    }
    let s = &s[size..];
    let bytes = s.as_bytes();
    let Some(&next) = bytes.first() else {
        return (Token { tok: Tok::Eof, pos }, size, pos);
    };
    let two = |t: Tok, one: Tok, second: u8| -> (Tok, usize) {
        if bytes.get(1) == Some(&second) {
            (t, 2)
        } else {
            (one, 1)
        }
    };
    let (tok, len) = match next {
        b'(' | b')' | b'[' | b']' | b',' | b'.' | b'+' | b'-' | b'*' | b'/' | b'%' | b'?'
        | b':' => (Tok::Punct(next), 1),
        b'}' => (Tok::End, 1),
        b'"' => (Tok::OpenQuote, 1),
        b'!' => two(Tok::NotEqual, Tok::Punct(b'!'), b'='),
        b'<' => two(Tok::LessEqual, Tok::Punct(b'<'), b'='),
        b'>' => two(Tok::GreaterEqual, Tok::Punct(b'>'), b'='),
        b'=' => two(Tok::Equal, Tok::Invalid("=".into()), b'='),
        b'&' => two(Tok::And, Tok::Invalid("&".into()), b'&'),
        b'|' => two(Tok::Or, Tok::Invalid("|".into()), b'|'),
        b'0'..=b'9' => {
            let (len, float) = scan_number(bytes);
            let text = s[..len].to_string();
            (
                if float {
                    Tok::Float(text)
                } else {
                    Tok::Int(text)
                },
                len,
            )
        }
        _ => {
            if starts_identifier(s) {
                let (len, runes) = scan_identifier(s);
                let ident = &s[..len];
                let tok = match ident {
                    "true" => Tok::Bool(true),
                    "false" => Tok::Bool(false),
                    _ => Tok::Ident(ident.to_string()),
                };
                let after = HilPos {
                    line: pos.line,
                    column: pos.column + runes,
                };
                return (Token { tok, pos }, size + len, after);
            }
            let c = s.chars().next().unwrap_or('\u{fffd}');
            let token = Token {
                tok: Tok::Invalid(c.to_string()),
                pos,
            };
            let after = HilPos {
                line: pos.line,
                column: pos.column + 1,
            };
            return (token, size + c.len_utf8(), after);
        }
    };
    let after = HilPos {
        line: pos.line,
        column: pos.column + len,
    };
    (Token { tok, pos }, size + len, after)
}

/// Digits and at most one period; a trailing period is not part of the
/// number. Mirrors HIL's `scanNumber`.
fn scan_number(s: &[u8]) -> (usize, bool) {
    let mut period: Option<usize> = None;
    let mut len = 0;
    let mut float = false;
    while len < s.len() {
        let next = s[len];
        if next != b'.' && !next.is_ascii_digit() {
            if period.is_some_and(|p| p + 1 == len) {
                len -= 1;
                float = false;
            }
            break;
        }
        if next == b'.' {
            if period.is_some() {
                break;
            }
            period = Some(len);
            float = true;
        }
        len += 1;
    }
    // A period at the very end of the input stays part of the number, as
    // in HIL (the parser then rejects the float text).
    (len, float)
}

/// An underscore, an ASCII letter or a Unicode letter.
fn starts_identifier(s: &str) -> bool {
    match s.chars().next() {
        Some(c) if c == '_' || c.is_ascii_alphabetic() => true,
        Some(c) => !c.is_ascii() && is_letter(c),
        None => false,
    }
}

/// Letters, digits, marks, `_`, `-`, `.`, and `*` between periods.
/// Mirrors HIL's `scanIdentifier`; returns the byte and character lengths.
fn scan_identifier(s: &str) -> (usize, usize) {
    let bytes = s.as_bytes();
    let mut len = 0;
    let mut runes = 0;
    for c in s.chars() {
        let ok = c == '_'
            || c == '-'
            || c == '.'
            || c == '*'
            || is_number(c)
            || is_letter(c)
            || is_mark(c);
        if !ok {
            break;
        }
        if c == '*' && (len == 0 || bytes[len - 1] != b'.') {
            break;
        }
        if len > 0 && bytes[len - 1] == b'*' && c != '.' {
            len -= 1;
            if len > 0 && bytes[len - 1] == b'.' {
                len -= 1;
            }
            break;
        }
        len += c.len_utf8();
        runes += 1;
    }
    (len, runes)
}

/// Go's `unicode.IsLetter` (category L) at the Unicode version in effect
/// (10.0.0 for Terraform 0.11.11's Go 1.11).
fn is_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || !c.is_ascii() && in_table("L", c)
}

/// Go's `unicode.IsNumber` (category N: Nd, Nl, No).
fn is_number(c: char) -> bool {
    c.is_ascii_digit() || !c.is_ascii() && in_table("N", c)
}

/// Go's `unicode.IsMark` (category M: Mn, Mc, Me).
fn is_mark(c: char) -> bool {
    !c.is_ascii() && in_table("M", c)
}

#[cfg(test)]
mod tests {
    use super::{is_letter, is_mark, is_number, scan_identifier};
    use crate::text::{with_unicode, UnicodeVersion};

    #[test]
    fn character_classes_follow_the_unicode_version() {
        // (character, Go 1.11's IsLetter/IsNumber/IsMark, Go 1.19's)
        let table = [
            ('a', [true, false, false], [true, false, false]),
            ('ª', [true, false, false], [true, false, false]),
            ('\u{10D0}', [true, false, false], [true, false, false]),
            ('\u{1C90}', [false, false, false], [true, false, false]),
            ('\u{10D30}', [false, false, false], [false, true, false]),
            ('\u{0EBA}', [false, false, false], [false, false, true]),
            ('\u{1CF2}', [false, false, true], [true, false, false]),
            ('²', [false, true, false], [false, true, false]),
            ('\u{301}', [false, false, true], [false, false, true]),
            ('-', [false, false, false], [false, false, false]),
        ];
        let classes = |c| [is_letter(c), is_number(c), is_mark(c)];
        for (c, at10, at13) in table {
            assert_eq!(
                with_unicode(UnicodeVersion::V10, || classes(c)),
                at10,
                "{c:?} at 10"
            );
            assert_eq!(
                with_unicode(UnicodeVersion::V13, || classes(c)),
                at13,
                "{c:?} at 13"
            );
        }
    }

    #[test]
    fn an_identifier_ends_at_a_character_unknown_to_unicode_10() {
        let source = "s\u{1C90}x";
        assert_eq!(
            with_unicode(UnicodeVersion::V10, || scan_identifier(source)),
            (1, 1)
        );
        assert_eq!(
            with_unicode(UnicodeVersion::V13, || scan_identifier(source)),
            (source.len(), 3)
        );
    }
}
