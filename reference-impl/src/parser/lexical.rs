//! Tokens that are never valid anywhere, reported before any syntax error.

use super::cursor::{error, PResult};
use super::diag;
use super::token::{Token, TokenKind};

/// Fails on the first token that can never appear in valid source: stray
/// characters, bitwise operators, quotes of other languages, newlines in
/// quoted strings. `hclsyntax` reports these for the whole input before
/// parsing starts, so they take precedence over syntax errors. Mirrors
/// `checkInvalidTokens`.
pub(super) fn check_invalid_tokens(tokens: &[Token<'_>]) -> PResult<()> {
    for token in tokens {
        let (summary, detail) = match token.kind {
            TokenKind::BitwiseAnd => (diag::UNSUPPORTED_OPERATOR, diag::BITWISE_AND_DETAIL),
            TokenKind::BitwiseOr => (diag::UNSUPPORTED_OPERATOR, diag::BITWISE_OR_DETAIL),
            TokenKind::BitwiseNot => (diag::UNSUPPORTED_OPERATOR, diag::BITWISE_NOT_DETAIL),
            TokenKind::BitwiseXor => (diag::UNSUPPORTED_OPERATOR, diag::BITWISE_XOR_DETAIL),
            TokenKind::Backtick => (diag::INVALID_CHARACTER, diag::BACKTICK_DETAIL),
            TokenKind::Apostrophe => (diag::INVALID_CHARACTER, diag::APOSTROPHE_DETAIL),
            TokenKind::Semicolon => (diag::INVALID_CHARACTER, diag::SEMICOLON_DETAIL),
            TokenKind::QuotedNewline => (
                diag::INVALID_MULTILINE_STRING,
                diag::INVALID_MULTILINE_STRING_DETAIL,
            ),
            TokenKind::Invalid if matches!(token.text, "\u{201C}" | "\u{201D}") => {
                (diag::INVALID_CHARACTER, diag::CURLY_QUOTES_DETAIL)
            }
            TokenKind::Invalid => (diag::INVALID_CHARACTER, diag::UNUSED_CHARACTER_DETAIL),
            _ => continue,
        };
        return Err(error(summary, detail, token.span));
    }
    Ok(())
}
