//! A bare template rewritten as a quoted string literal with the same
//! meaning, for hosts that only accept expressions (a Terraform attribute
//! value, for one).
//!
//! A bare template and a quoted template differ only in their literal text:
//! a quoted one processes backslash escapes and may not contain a newline or
//! a `"`, a bare one takes every character as it is. So the literal parts
//! of the outermost template are escaped and everything else (`${...}` and
//! `%{...}` sequences, with any strings nested in them, and the `$${` and
//! `%%{` escapes, which both forms share) is kept byte for byte. Which bytes
//! are literal text is the scanner's decision, so the rewrite follows the
//! scanner's tokens rather than a scan of its own.
//!
//! Token boundaries matter once more for strip markers: `~` trims the one
//! literal token next to it, and the scanner cuts the literal text of a
//! bare template into one token per line, where a quoted string has one
//! token for the whole run. `"x ${1 ~}\n  y"` as a bare template is
//! `"x 1  y"` (only the newline token is trimmed). So when the template has
//! a strip marker, adjacent literal tokens are kept apart with an empty
//! interpolation `${""}`, which adds nothing to the string.

use super::scan::{scan, ScanMode};
use super::token::TokenKind;

/// `source`, a bare template, as a quoted template expression
/// (`"..."`) that evaluates to the same value. A leading byte order mark is
/// dropped, as the scanner skips it.
pub fn template_as_quoted(source: &str) -> String {
    let tokens = scan(source, ScanMode::Template, true);
    let strips = tokens.iter().any(|t| match t.kind {
        TokenKind::TemplateInterp | TokenKind::TemplateControl => t.text.ends_with('~'),
        TokenKind::TemplateSeqEnd => t.text.starts_with('~'),
        _ => false,
    });
    let mut out = String::with_capacity(source.len() + 2);
    out.push('"');
    let mut copied = source.len() - source.trim_start_matches('\u{FEFF}').len();
    let mut depth = 0usize;
    let mut after_literal = false;
    for token in &tokens {
        let (start, end) = (token.span.start.byte, token.span.end.byte);
        match token.kind {
            TokenKind::TemplateInterp | TokenKind::TemplateControl => depth += 1,
            TokenKind::TemplateSeqEnd => depth = depth.saturating_sub(1),
            TokenKind::StringLit if depth == 0 => {
                out.push_str(&source[copied..start]);
                if strips && after_literal {
                    // After a literal `$`, `${` would read as the escape `$${`.
                    out.push_str(if out.ends_with('$') {
                        TOKEN_SEPARATOR_AFTER_DOLLAR
                    } else {
                        TOKEN_SEPARATOR
                    });
                }
                escape_literal(&source[start..end], &mut out);
                copied = end;
                after_literal = true;
                continue;
            }
            _ => {}
        }
        after_literal = false;
    }
    out.push_str(&source[copied..]);
    out.push('"');
    out
}

/// Ends one literal token without adding to the string.
const TOKEN_SEPARATOR: &str = "${\"\"}";
/// The same where the literal before it ends in `$`.
const TOKEN_SEPARATOR_AFTER_DOLLAR: &str = "%{if true}%{endif}";

/// Writes literal template text as the body of a quoted string.
fn escape_literal(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::template_as_quoted;
    use crate::eval::{evaluate, Context};
    use crate::parser::{parse_expression, parse_template};

    #[test]
    fn rewrite_table() {
        let table = [
            ("plain", r#""plain""#),
            ("a\"b\\c\nd", r#""a\"b\\c\nd""#),
            (r#"${"x\n"}-${upper("a")}"#, r#""${"x\n"}-${upper("a")}""#),
            ("%{if true}\"%{endif}", r#""%{if true}\"%{endif}""#),
            ("$${not} %%{this}", r#""$${not} %%{this}""#),
            ("\u{FEFF}bom", r#""bom""#),
            ("x ${ 1 ~}\n  y", r#""x ${ 1 ~}\n${""}  y""#),
            ("a\nb", r#""a\nb""#),
            (
                "%{if 1~}$e%{endif}",
                r#""%{if 1~}$%{if true}%{endif}e%{endif}""#,
            ),
        ];
        for (template, want) in table {
            assert_eq!(template_as_quoted(template), want, "{template:?}");
        }
    }

    /// The rewritten expression has the bare template's value.
    #[test]
    fn same_value() {
        let templates = [
            "a\\b\"c\n\td",
            "${\"\\\"\"}\\",
            "%{for x in [1, 2]}\"${x}\"\n%{endfor}",
            "line\r\nnext",
            "x ${ 1 ~}\n  y",
            "a\n  ${~ 1}",
            "${1}",
            "%{if true~}$e%{endif}",
            "%{~if true}$ %{endif}",
            "x ${ 1 ~}$\n %$ y",
        ];
        let ctx = Context::default();
        for template in templates {
            let bare = evaluate(&parse_template(template).unwrap(), &ctx).unwrap();
            let quoted = parse_expression(&template_as_quoted(template)).unwrap();
            let quoted = evaluate(&quoted, &ctx).unwrap();
            assert_eq!(format!("{bare:?}"), format!("{quoted:?}"), "{template:?}");
        }
    }
}
