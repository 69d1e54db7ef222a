//! Tokens of the native syntax, as `hclsyntax`'s scanner produces them.

use crate::error::Span;

/// Token kinds, named after `hclsyntax.TokenType`. Kinds that the scanner of
/// HCL 2.14 never emits for UTF-8 text (`**`, tabs, bad UTF-8) are absent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TokenKind {
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    OQuote,
    CQuote,
    OHeredoc,
    CHeredoc,

    Star,
    Slash,
    Plus,
    Minus,
    Percent,

    Equal,
    EqualOp,
    NotEqual,
    LessThan,
    LessThanEq,
    GreaterThan,
    GreaterThanEq,

    And,
    Or,
    Bang,

    Dot,
    Comma,
    DoubleColon,
    Ellipsis,
    FatArrow,

    Question,
    Colon,

    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,

    /// A literal part of a quoted template: may contain backslash escapes.
    QuotedLit,
    /// A literal part of a heredoc or bare template: no backslash escapes.
    StringLit,
    NumberLit,
    Ident,

    Comment,
    Newline,
    Eof,

    BitwiseAnd,
    BitwiseOr,
    BitwiseNot,
    BitwiseXor,
    Apostrophe,
    Backtick,
    Semicolon,
    Invalid,
    QuotedNewline,
}

/// One token: its kind, its exact source text and its range.
#[derive(Clone, Copy, Debug)]
pub(super) struct Token<'a> {
    pub kind: TokenKind,
    pub text: &'a str,
    pub span: Span,
}

impl Token<'_> {
    /// Whether this is the identifier `word` (`hclsyntax.Keyword.TokenMatches`).
    pub fn is_keyword(&self, word: &str) -> bool {
        self.kind == TokenKind::Ident && self.text == word
    }
}
