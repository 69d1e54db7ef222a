//! The scanner: splits source text into the tokens `hclsyntax`'s Ragel
//! scanner (`scanTokens`) produces, token for token and range for range.
//!
//! The scanner is a stack of modes: the main (expression) mode, quoted
//! templates, heredoc templates and bare templates. `"` and `<<ID` push a
//! template mode, `${`/`%{` push the main mode again, and the matching `"`,
//! closing marker or `}` pops it. Within a mode each token is the longest
//! match of that mode's lexemes; the lexemes are written as `winnow`
//! parsers named after the scanner's productions.
//!
//! Two quirks of the original are reproduced on purpose because they decide
//! token boundaries: a lone `$` or `%` in template text (not followed by
//! `{`) is a token of its own, and in heredocs and bare templates `$X`
//! directly before a newline is one token with the newline left for the
//! next one.

use winnow::combinator::{alt, dispatch, opt, peek, repeat};
use winnow::prelude::*;
use winnow::token::{any, none_of, one_of, take_till, take_until, take_while};

use super::ident::{is_id_continue, is_id_start};
use super::token::{Token, TokenKind};
use crate::error::{Pos, Span};
use crate::text::columns;

/// What the whole source is: an expression or a bare template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScanMode {
    Expression,
    Template,
}

/// Scans `source` completely. The result always ends with an `Eof` token.
/// Mirrors `hclsyntax.scanTokens`, including its UTF-8 byte order mark
/// handling (skipped, but counted in byte offsets). Without `double_colon`
/// (HCL 2.14), `::` is two colons.
pub(super) fn scan(source: &str, mode: ScanMode, double_colon: bool) -> Vec<Token<'_>> {
    let (data, base) = match source.strip_prefix('\u{FEFF}') {
        Some(rest) => (rest, source.len() - rest.len()),
        None => (source, 0),
    };
    let mut scanner = Scanner {
        data,
        base,
        pos: 0,
        cursor: Pos {
            line: 1,
            column: 1,
            byte: base,
        },
        tokens: Vec::new(),
        mode: match mode {
            ScanMode::Expression => Mode::Main,
            ScanMode::Template => Mode::Bare,
        },
        stack: Vec::new(),
        braces: 0,
        ret_braces: Vec::new(),
        heredocs: Vec::new(),
        double_colon,
    };
    scanner.run();
    scanner.tokens
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Main,
    Quoted,
    Heredoc,
    Bare,
}

struct Heredoc<'a> {
    marker: &'a str,
    start_of_line: bool,
}

struct Scanner<'a> {
    data: &'a str,
    base: usize,
    /// Byte offset into `data` of the next unscanned character.
    pos: usize,
    /// The end position of the last emitted token.
    cursor: Pos,
    tokens: Vec<Token<'a>>,
    mode: Mode,
    /// Modes to return to (the Ragel call stack).
    stack: Vec<Mode>,
    /// Brace nesting counter; may go negative on unbalanced input.
    braces: i64,
    /// Brace levels at which a `}` ends a template sequence.
    ret_braces: Vec<i64>,
    heredocs: Vec<Heredoc<'a>>,
    /// Whether `::` is one token (HCL 2.21 and later).
    double_colon: bool,
}

impl<'a> Scanner<'a> {
    fn run(&mut self) {
        while self.pos < self.data.len() {
            let progressed = match self.mode {
                Mode::Main => {
                    self.main_step();
                    true
                }
                Mode::Quoted => {
                    self.quoted_step();
                    true
                }
                Mode::Heredoc | Mode::Bare => self.template_text_step(),
            };
            if !progressed {
                // No lexeme matches here: the original gives up and turns
                // the rest of the input into one token.
                let kind = if self.mode == Mode::Bare && self.stack.is_empty() {
                    TokenKind::StringLit
                } else {
                    TokenKind::Invalid
                };
                self.emit(kind, self.pos, self.data.len());
                self.pos = self.data.len();
                break;
            }
        }
        let end = self.data.len();
        self.emit(TokenKind::Eof, end, end);
    }

    /// Appends a token for `data[start..end]`, computing its range the way
    /// `tokenAccum.emitToken` does: bytes skipped since the previous token
    /// (only spaces and tabs) count one column each, and the token's own text
    /// advances by grapheme clusters, a newline cluster starting a new line.
    fn emit(&mut self, kind: TokenKind, start: usize, end: usize) {
        let text = &self.data[start..end];
        let start_pos = Pos {
            line: self.cursor.line,
            column: self.cursor.column + (start + self.base - self.cursor.byte),
            byte: start + self.base,
        };
        let mut end_pos = advance(start_pos, text);
        end_pos.byte = end + self.base;
        self.cursor = end_pos;
        self.tokens.push(Token {
            kind,
            text,
            span: Span::new(start_pos, end_pos),
        });
    }

    /// Runs a lexeme parser at the current position and returns its value
    /// and length.
    fn lex<T>(&self, mut parser: impl FnMut(&mut &'a str) -> ModalResult<T>) -> Option<(T, usize)> {
        let mut input = &self.data[self.pos..];
        let before = input.len();
        let value = parser(&mut input).ok()?;
        Some((value, before - input.len()))
    }

    fn push_mode(&mut self, mode: Mode) {
        self.stack.push(self.mode);
        self.mode = mode;
    }

    fn pop_mode(&mut self) {
        // The stack is never empty here: every pop matches an earlier push.
        self.mode = self.stack.pop().unwrap_or(Mode::Main);
    }

    fn main_step(&mut self) {
        let start = self.pos;
        let Some((mut lexeme, mut len)) = self.lex(main_lexeme) else {
            // Unreachable: the catch-all arm matches any character.
            self.pos = self.data.len();
            return;
        };
        if !self.double_colon && matches!(lexeme, MainLexeme::Token(TokenKind::DoubleColon)) {
            lexeme = MainLexeme::Token(TokenKind::Colon);
            len = 1;
        }
        let end = start + len;
        self.pos = end;
        match lexeme {
            MainLexeme::Spaces => {}
            MainLexeme::Token(kind) => self.emit(kind, start, end),
            MainLexeme::OpenBrace => {
                self.emit(TokenKind::OBrace, start, end);
                self.braces += 1;
            }
            MainLexeme::CloseBrace => {
                if self.ret_braces.last() == Some(&self.braces) {
                    self.emit(TokenKind::TemplateSeqEnd, start, end);
                    self.braces -= 1;
                    self.ret_braces.pop();
                    self.pop_mode();
                } else {
                    self.emit(TokenKind::CBrace, start, end);
                    self.braces -= 1;
                }
            }
            MainLexeme::TildeCloseBrace => {
                // Always a sequence end, so that the parser can reject a `~}`
                // closing an ordinary brace; only returns when it matches.
                self.emit(TokenKind::TemplateSeqEnd, start, end);
                self.braces -= 1;
                if self.ret_braces.last() == Some(&(self.braces + 1)) {
                    self.ret_braces.pop();
                    self.pop_mode();
                }
            }
            MainLexeme::OpenQuote => {
                self.emit(TokenKind::OQuote, start, end);
                self.push_mode(Mode::Quoted);
            }
            MainLexeme::OpenHeredoc { marker } => {
                self.emit(TokenKind::OHeredoc, start, end);
                self.heredocs.push(Heredoc {
                    marker,
                    start_of_line: true,
                });
                self.push_mode(Mode::Heredoc);
            }
        }
    }

    /// `${` or `%{` (with an optional `~`) at the current position of a
    /// template mode: enters the main mode until the matching `}`.
    fn template_sequence_start(&mut self) -> bool {
        let Some((kind, len)) = self.lex(template_sequence_start) else {
            return false;
        };
        let start = self.pos;
        self.pos += len;
        self.emit(kind, start, self.pos);
        self.braces += 1;
        self.ret_braces.push(self.braces);
        if let Some(heredoc) = self.heredocs.last_mut() {
            heredoc.start_of_line = false;
        }
        self.push_mode(Mode::Main);
        true
    }

    fn quoted_step(&mut self) {
        if self.template_sequence_start() {
            return;
        }
        let start = self.pos;
        let Some((kind, len)) = self.lex(quoted_lexeme) else {
            // Unreachable: the catch-all arm matches any character.
            self.pos = self.data.len();
            return;
        };
        self.pos += len;
        self.emit(kind, start, self.pos);
        if kind == TokenKind::CQuote {
            self.pop_mode();
        }
    }

    /// One step in a heredoc or bare template. Returns false when no lexeme
    /// matches (a `$`/`%` at the very end, or a carriage return not followed
    /// by a newline).
    fn template_text_step(&mut self) -> bool {
        if self.template_sequence_start() {
            return true;
        }
        let start = self.pos;
        let Some((len, ends_line)) = template_text_len(&self.data.as_bytes()[start..]) else {
            return false;
        };
        let end = start + len;
        self.pos = end;
        if self.mode == Mode::Bare {
            self.emit(TokenKind::StringLit, start, end);
            return true;
        }
        let data = self.data;
        let text = &data[start..end];
        let closes = match self.heredocs.last_mut() {
            None => false,
            Some(heredoc) if !ends_line => {
                heredoc.start_of_line = false;
                false
            }
            Some(heredoc) if heredoc.start_of_line && text.trim() == heredoc.marker => true,
            Some(heredoc) => {
                heredoc.start_of_line = true;
                false
            }
        };
        if !closes {
            self.emit(TokenKind::StringLit, start, end);
            return true;
        }
        // The closing marker: emitted as the marker token followed by a
        // separate newline token, which can then end an attribute.
        let newline_len = if text.ends_with("\r\n") { 2 } else { 1 };
        self.emit(TokenKind::CHeredoc, start, end - newline_len);
        self.emit(TokenKind::Newline, end - newline_len, end);
        self.heredocs.pop();
        self.pop_mode();
        true
    }
}

/// Moves a position's line and column over `text`: a newline (`\n` or
/// `\r\n`) starts a new line, every other grapheme cluster (as go-textseg
/// v13 splits them; clusters never span a newline) is one column.
pub(super) fn advance(mut pos: Pos, text: &str) -> Pos {
    for piece in text.split_inclusive('\n') {
        match piece.strip_suffix('\n') {
            Some(_) => {
                pos.line += 1;
                pos.column = 1;
            }
            // Every ASCII character, carriage returns included, is a
            // cluster of its own once newlines are split off.
            None if piece.is_ascii() => pos.column += piece.len(),
            None => pos.column += columns(piece),
        }
    }
    pos
}

#[derive(Clone, Debug)]
enum MainLexeme<'a> {
    Spaces,
    Token(TokenKind),
    OpenBrace,
    CloseBrace,
    TildeCloseBrace,
    OpenQuote,
    OpenHeredoc { marker: &'a str },
}

/// One lexeme of the main mode (the Ragel `main` machine): dispatches on
/// the first character, longest alternative first.
fn main_lexeme<'a>(input: &mut &'a str) -> ModalResult<MainLexeme<'a>> {
    use MainLexeme::Token as T;
    use TokenKind as K;
    dispatch! {peek(any);
        ' ' | '\t' => take_while(1.., [' ', '\t']).value(MainLexeme::Spaces),
        '0'..='9' => number_lit.value(T(K::NumberLit)),
        '#' => line_comment.value(T(K::Comment)),
        '/' => alt((
            line_comment.value(T(K::Comment)),
            block_comment.value(T(K::Comment)),
            '/'.value(T(K::Slash)),
        )),
        '\n' => '\n'.value(T(K::Newline)),
        '\r' => alt(("\r\n".value(T(K::Newline)), '\r'.value(T(K::Invalid)))),
        '=' => alt((
            "==".value(T(K::EqualOp)),
            "=>".value(T(K::FatArrow)),
            '='.value(T(K::Equal)),
        )),
        '!' => alt(("!=".value(T(K::NotEqual)), '!'.value(T(K::Bang)))),
        '<' => alt((
            heredoc_intro.map(|marker| MainLexeme::OpenHeredoc { marker }),
            "<=".value(T(K::LessThanEq)),
            '<'.value(T(K::LessThan)),
        )),
        '>' => alt((">=".value(T(K::GreaterThanEq)), '>'.value(T(K::GreaterThan)))),
        '&' => alt(("&&".value(T(K::And)), '&'.value(T(K::BitwiseAnd)))),
        '|' => alt(("||".value(T(K::Or)), '|'.value(T(K::BitwiseOr)))),
        ':' => alt(("::".value(T(K::DoubleColon)), ':'.value(T(K::Colon)))),
        '.' => alt(("...".value(T(K::Ellipsis)), '.'.value(T(K::Dot)))),
        '~' => alt(("~}".value(MainLexeme::TildeCloseBrace), '~'.value(T(K::BitwiseNot)))),
        '{' => '{'.value(MainLexeme::OpenBrace),
        '}' => '}'.value(MainLexeme::CloseBrace),
        '"' => '"'.value(MainLexeme::OpenQuote),
        '[' => any.value(T(K::OBrack)),
        ']' => any.value(T(K::CBrack)),
        '(' => any.value(T(K::OParen)),
        ')' => any.value(T(K::CParen)),
        ',' => any.value(T(K::Comma)),
        '*' => any.value(T(K::Star)),
        '%' => any.value(T(K::Percent)),
        '+' => any.value(T(K::Plus)),
        '-' => any.value(T(K::Minus)),
        '?' => any.value(T(K::Question)),
        '^' => any.value(T(K::BitwiseXor)),
        ';' => any.value(T(K::Semicolon)),
        '`' => any.value(T(K::Backtick)),
        '\'' => any.value(T(K::Apostrophe)),
        c if is_id_start(c) => ident.value(T(K::Ident)),
        _ => any.value(T(K::Invalid)),
    }
    .parse_next(input)
}

/// `NumberLit = digit ("" | (NumberLitContinue - '.') | (NumberLitContinue* (NumberLitContinue - '.')))`
/// with `NumberLitContinue = (digit|'.'|('e'|'E') ('+'|'-')? digit)`: a digit
/// followed by any continuation units, never ending in `.`. This is looser
/// than the specification's `NumericLit`; malformed forms such as `1..2`
/// are rejected later, when the number's value is parsed.
fn number_lit(input: &mut &str) -> ModalResult<()> {
    (
        one_of(|c: char| c.is_ascii_digit()),
        repeat::<_, _, (), _, _>(0.., (take_while(0.., '.'), number_lit_unit)),
    )
        .void()
        .parse_next(input)
}

/// A `NumberLitContinue` unit other than `.`.
fn number_lit_unit(input: &mut &str) -> ModalResult<()> {
    alt((
        one_of(|c: char| c.is_ascii_digit()).void(),
        (
            one_of(['e', 'E']),
            opt(one_of(['+', '-'])),
            one_of(|c: char| c.is_ascii_digit()),
        )
            .void(),
    ))
    .parse_next(input)
}

/// `Identifier = ID_Start (ID_Continue | '-')*;` (the scanner also starts
/// identifiers with `_`).
fn ident<'a>(input: &mut &'a str) -> ModalResult<&'a str> {
    (one_of(is_id_start), take_while(0.., is_id_continue))
        .take()
        .parse_next(input)
}

/// `("#" | "//") (any - EndOfLine)* EndOfLine?`: the newline belongs to the
/// comment.
fn line_comment(input: &mut &str) -> ModalResult<()> {
    (alt(("#", "//")), take_till(0.., '\n'), opt('\n'))
        .void()
        .parse_next(input)
}

/// `"/*" any* :>> "*/"`: ends at the first `*/`. Without one this is not a
/// comment at all and the `/` is scanned as an operator.
fn block_comment(input: &mut &str) -> ModalResult<()> {
    ("/*", take_until(0.., "*/"), "*/").void().parse_next(input)
}

/// `BeginHeredocTmpl = '<<' ('-')? Ident Newline;`, yielding the marker.
fn heredoc_intro<'a>(input: &mut &'a str) -> ModalResult<&'a str> {
    ("<<", opt('-'), ident, alt(("\r\n", "\n")))
        .map(|(_, _, marker, _)| marker)
        .parse_next(input)
}

/// `TemplateInterp = "${" ("~")?;` and `TemplateControl = "%{" ("~")?;`.
fn template_sequence_start(input: &mut &str) -> ModalResult<TokenKind> {
    alt((
        ("${", opt('~')).value(TokenKind::TemplateInterp),
        ("%{", opt('~')).value(TokenKind::TemplateControl),
    ))
    .parse_next(input)
}

/// One lexeme of a quoted template (the Ragel `stringTemplate` machine),
/// once `${` and `%{` have been ruled out.
fn quoted_lexeme(input: &mut &str) -> ModalResult<TokenKind> {
    use TokenKind as K;
    dispatch! {peek(any);
        '"' => '"'.value(K::CQuote),
        '$' | '%' => alt((template_escape_or_sign.value(K::QuotedLit), any.value(K::Invalid))),
        '\r' | '\n' => take_while(1.., ['\r', '\n']).value(K::QuotedNewline),
        _ => alt((quoted_literal_run.value(K::QuotedLit), any.value(K::Invalid))),
    }
    .parse_next(input)
}

/// `TemplateNotInterp = '$' (TemplateIgnoredNonBrace | TemplateInterp)`
/// (and its `%` twin): `$${` / `%%{` with an optional `~` is one literal
/// token; otherwise the sign followed by any character is a one-character
/// token. A sign at the very end matches nothing.
fn template_escape_or_sign(input: &mut &str) -> ModalResult<()> {
    let sign = one_of(['$', '%']).parse_next(input)?;
    alt(((sign, '{', opt('~')).void(), peek(any).void())).parse_next(input)
}

/// `QuotedStringLiteralWithEsc+`, where
/// `QuotedStringLiteralWithEsc = ('\\' StringLiteralChars) | (StringLiteralChars - ("$" | '%' | '"' | "\\"))`.
fn quoted_literal_run(input: &mut &str) -> ModalResult<()> {
    repeat::<_, _, (), _, _>(
        1..,
        alt((
            ('\\', none_of(['\r', '\n'])).void(),
            none_of(['$', '%', '"', '\\', '\r', '\n']).void(),
        )),
    )
    .parse_next(input)
}

/// The length of the next literal token in a heredoc or bare template and
/// whether it ends a line (the Ragel `HeredocStringLiteral EndOfLine` and
/// `BareStringLiteral` rules), once `${` and `%{` have been ruled out.
/// `None` when nothing matches.
fn template_text_len(bytes: &[u8]) -> Option<(usize, bool)> {
    let end_of_line = |rest: &[u8]| -> Option<usize> {
        if rest.starts_with(b"\n") {
            Some(1)
        } else if rest.starts_with(b"\r\n") {
            Some(2)
        } else {
            None
        }
    };
    match bytes.first() {
        Some(&sign @ (b'$' | b'%')) => {
            if bytes.len() >= 3 && bytes[1] == sign && bytes[2] == b'{' {
                let len = if bytes.get(3) == Some(&b'~') { 4 } else { 3 };
                return Some(match end_of_line(&bytes[len..]) {
                    Some(eol) => (len + eol, true),
                    None => (len, false),
                });
            }
            if bytes.len() < 2 {
                return None;
            }
            // The sign takes one more byte; when a carriage return or
            // newline follows that byte the original keeps both as a
            // line-ending token without the newline, otherwise the token is
            // the sign alone.
            if matches!(bytes.get(2), Some(b'\r' | b'\n')) {
                Some((2, true))
            } else {
                Some((1, false))
            }
        }
        _ => {
            let run = bytes
                .iter()
                .position(|b| matches!(b, b'$' | b'%' | b'\r' | b'\n'))
                .unwrap_or(bytes.len());
            match end_of_line(&bytes[run..]) {
                Some(eol) => Some((run + eol, true)),
                None if run > 0 => Some((run, false)),
                None => None,
            }
        }
    }
}
