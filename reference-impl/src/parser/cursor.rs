//! The parser state: a cursor over the token stream (`hclsyntax`'s
//! `peeker`), the nesting guard and the height-tracked result type.

use super::diag;
use super::token::{Token, TokenKind};
use super::MAX_NESTING_DEPTH;
use crate::ast::{Expr, ExprKind};
use crate::error::{Error, Span};

/// Every parsing function stops at the first error, which is the first
/// diagnostic `hclsyntax` would report: it only ever appends diagnostics in
/// the order it meets them.
pub(super) type PResult<T> = Result<T, Box<Error>>;

/// A parsed expression with the height of its tree, so that no tree deeper
/// than `MAX_NESTING_DEPTH` is ever built (long operator chains and index
/// chains grow the tree without recursing in the parser). Boxed, like the
/// error type, to keep the parser's stack frames small.
pub(super) struct Node {
    pub expr: Box<Expr>,
    pub height: usize,
}

pub(super) struct Parser<'a> {
    tokens: Vec<Token<'a>>,
    /// Index of the next token to read, before newline/comment filtering.
    next: usize,
    /// Whether newlines are significant (the peeker's `IncludeNewlinesStack`).
    newlines: Vec<bool>,
    /// Current recursion depth of the nesting productions.
    pub depth: usize,
}

impl<'a> Parser<'a> {
    pub fn new(tokens: Vec<Token<'a>>) -> Parser<'a> {
        Parser {
            tokens,
            next: 0,
            newlines: vec![true],
            depth: 0,
        }
    }

    /// The next token after skipping what the current newline mode ignores:
    /// comments, and newlines when they are not significant. A line comment
    /// owns its newline, so it reads as a newline where newlines matter.
    /// Mirrors `peeker.nextToken`.
    fn next_token(&self) -> (Token<'a>, usize) {
        let include_newlines = self.include_newlines();
        for index in self.next..self.tokens.len() {
            let token = self.tokens[index];
            match token.kind {
                TokenKind::Comment => {
                    if include_newlines && token.text.ends_with('\n') {
                        let newline = Token {
                            kind: TokenKind::Newline,
                            text: "\n",
                            span: token.span,
                        };
                        return (newline, index + 1);
                    }
                    continue;
                }
                TokenKind::Newline if !include_newlines => continue,
                _ => return (token, index + 1),
            }
        }
        // The scanner always ends with an end-of-file token.
        let eof = self.tokens[self.tokens.len() - 1];
        (eof, self.tokens.len())
    }

    pub fn peek(&self) -> Token<'a> {
        self.next_token().0
    }

    pub fn peek_kind(&self) -> TokenKind {
        self.peek().kind
    }

    pub fn read(&mut self) -> Token<'a> {
        let (token, next) = self.next_token();
        self.next = next;
        token
    }

    /// Reads the next token, discarding it.
    pub fn skip(&mut self) {
        self.read();
    }

    /// Reads the next token, keeping only its range.
    pub fn read_span(&mut self) -> Span {
        self.read().span
    }

    /// Reads the next token, keeping only its text.
    pub fn read_text(&mut self) -> &'a str {
        self.read().text
    }

    /// Whether the next token is the identifier `word`.
    pub fn peek_keyword(&self, word: &str) -> bool {
        self.peek().is_keyword(word)
    }

    /// An error at the next token. Kept out of line so that the recursive
    /// productions' stack frames stay small.
    #[inline(never)]
    pub fn error_at_next(&self, summary: &str, detail: &str) -> Box<Error> {
        error(summary, detail, self.peek().span)
    }

    /// The range of the last token read, whatever its kind
    /// (`peeker.PrevRange`).
    pub fn prev_span(&self) -> Span {
        if self.next == 0 {
            return self.peek().span;
        }
        self.tokens[self.next - 1].span
    }

    /// Where `hclsyntax`'s error recovery would stop when looking for the
    /// closing bracket `]` from here: the first one not matched by a nested
    /// `[`, or the end of the input (`parser.recover(TokenCBrack)`).
    /// Two diagnostics report this range instead of the offending token,
    /// because their subject aliases the variable the recovery overwrites.
    pub fn recovery_close_bracket_span(&self) -> Span {
        let mut nesting = 0usize;
        for token in &self.tokens[self.next.min(self.tokens.len())..] {
            match token.kind {
                TokenKind::OBrack => nesting += 1,
                TokenKind::CBrack if nesting == 0 => return token.span,
                TokenKind::CBrack => nesting -= 1,
                TokenKind::Eof => return token.span,
                _ => {}
            }
        }
        self.tokens[self.tokens.len() - 1].span
    }

    fn include_newlines(&self) -> bool {
        self.newlines.last().copied().unwrap_or(true)
    }

    /// Runs `f` with newlines significant or not, restoring the previous
    /// mode afterwards (`PushIncludeNewlines`/`PopIncludeNewlines`).
    pub fn with_newlines<T>(
        &mut self,
        include: bool,
        f: impl FnOnce(&mut Self) -> PResult<T>,
    ) -> PResult<T> {
        self.newlines.push(include);
        let result = f(self);
        self.newlines.pop();
        result
    }

    /// Runs a recursive production one level deeper, failing cleanly
    /// instead of exhausting the stack.
    pub fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = crate::stack::deeper(|| f(self));
        self.leave();
        result
    }

    /// Goes one level deeper; every `enter` that succeeds is paired with a
    /// `leave`.
    pub fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_NESTING_DEPTH {
            return Err(nesting_error(self.peek().span));
        }
        self.depth += 1;
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }
}

/// Builds a node one level above children of height `child_height`.
pub(super) fn node(kind: ExprKind, span: Span, child_height: usize) -> PResult<Node> {
    let height = child_height + 1;
    if height > MAX_NESTING_DEPTH {
        return Err(nesting_error(span));
    }
    Ok(Node {
        expr: Box::new(Expr::new(kind, span)),
        height,
    })
}

/// A parse error with one of the summaries in `diag`.
pub(super) fn error(summary: &str, detail: impl Into<String>, span: Span) -> Box<Error> {
    Box::new(Error::parse(summary, detail, span))
}

pub(super) fn nesting_error(span: Span) -> Box<Error> {
    error(
        diag::NESTING_TOO_DEEP,
        format!("Expressions may nest at most {MAX_NESTING_DEPTH} levels deep."),
        span,
    )
}

/// `hcl.RangeBetween`: from the start of `start` to the end of `end`.
pub(super) fn between(start: Span, end: Span) -> Span {
    Span::new(start.start, end.end)
}
