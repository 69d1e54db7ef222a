//! Bodies: attributes and blocks (`parser.ParseBody` and its helpers),
//! with the first diagnostic `hclsyntax` reports for a malformed one.

use super::cursor::{error, PResult, Parser};
use super::string_lit::string_literal_value;
use super::token::TokenKind;
use crate::ast::{Attribute, Block, Body};
use crate::error::Span;

const ITEM_REQUIRED: &str = "Argument or block definition required";
const INVALID_BLOCK: &str = "Invalid block definition";
const INVALID_SINGLE: &str = "Invalid single-argument block definition";
const UNCLOSED_BLOCK: &str = "Unclosed configuration block";

impl Parser<'_> {
    /// A body up to `end` (a closing brace, or the end of the input).
    pub fn body(&mut self, end: TokenKind) -> PResult<Body> {
        let start = self.prev_span();
        let mut body = Body::default();
        loop {
            let next = self.peek();
            if next.kind == end {
                self.skip();
                body.end = next.span;
                return Ok(body);
            }
            match next.kind {
                TokenKind::Newline => self.skip(),
                TokenKind::Ident => self.body_item(&mut body)?,
                TokenKind::OQuote => {
                    return Err(error(
                        "Invalid argument name",
                        "Argument names must not be quoted.",
                        next.span,
                    ))
                }
                TokenKind::Eof if end == TokenKind::CBrace => {
                    return Err(error(
                        UNCLOSED_BLOCK,
                        "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                        start,
                    ))
                }
                _ => {
                    return Err(error(
                        ITEM_REQUIRED,
                        "An argument or block definition is required here.",
                        next.span,
                    ))
                }
            }
        }
    }

    fn body_item(&mut self, body: &mut Body) -> PResult<()> {
        let ident = self.read();
        match self.peek_kind() {
            TokenKind::Equal => {
                let attr = self.attribute(ident.text, ident.span, false)?;
                if let Some(existing) = body.attributes.iter().find(|a| a.name == attr.name) {
                    return Err(error(
                        "Attribute redefined",
                        format!(
                            "The argument {} was already set at {}. Each argument may be set only once.",
                            crate::goquote::go_quote(&attr.name),
                            existing.name_span.hcl_range()
                        ),
                        attr.name_span,
                    ));
                }
                body.attributes.push(attr);
            }
            TokenKind::OQuote | TokenKind::OBrace | TokenKind::Ident => {
                let block = self.nested(|p| p.block(ident.text, ident.span))?;
                body.blocks.push(block);
            }
            _ => {
                return Err(error(
                    ITEM_REQUIRED,
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.span,
                ))
            }
        }
        Ok(())
    }

    fn attribute(&mut self, name: &str, name_span: Span, single_line: bool) -> PResult<Attribute> {
        self.skip(); // `=`
        let expr = *self.expression()?.expr;
        if !single_line {
            let end = self.peek();
            match end.kind {
                TokenKind::Newline => self.skip(),
                TokenKind::Eof => {}
                TokenKind::Comma => {
                    return Err(error(
                        "Unexpected comma after argument",
                        "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
                        end.span,
                    ))
                }
                _ => {
                    return Err(error(
                        "Missing newline after argument",
                        "An argument definition must end with a newline.",
                        end.span,
                    ))
                }
            }
        }
        Ok(Attribute {
            name: name.to_string(),
            name_span,
            expr,
        })
    }

    fn block(&mut self, type_name: &str, type_span: Span) -> PResult<Block> {
        let mut labels = Vec::new();
        let open = loop {
            let tok = self.peek();
            match tok.kind {
                TokenKind::OBrace => break self.read(),
                TokenKind::OQuote => labels.push(self.quoted_label()?),
                TokenKind::Ident => {
                    let tok = self.read();
                    labels.push((tok.text.to_string(), tok.span));
                }
                TokenKind::Equal => return Err(error(INVALID_BLOCK, "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.", tok.span)),
                TokenKind::Newline => return Err(error(INVALID_BLOCK, "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.", tok.span)),
                _ => return Err(error(INVALID_BLOCK, "Either a quoted string block label or an opening brace (\"{\") is expected here.", tok.span)),
            }
        };
        let body = match self.peek_kind() {
            TokenKind::Newline | TokenKind::Eof | TokenKind::CBrace => {
                self.body(TokenKind::CBrace)?
            }
            _ => self.single_attribute_body(open.span)?,
        };
        let eol = self.peek();
        match eol.kind {
            TokenKind::Newline | TokenKind::Eof => {
                if eol.kind == TokenKind::Newline {
                    self.skip();
                }
            }
            _ => {
                return Err(error(
                    "Missing newline after block definition",
                    "A block definition must end with a newline.",
                    eol.span,
                ))
            }
        }
        Ok(Block {
            type_name: type_name.to_string(),
            type_span,
            labels,
            body,
        })
    }

    /// `name { attr = value }` on one line.
    fn single_attribute_body(&mut self, open: Span) -> PResult<Body> {
        let ident = self.read();
        if ident.kind != TokenKind::Ident {
            return Err(error(
                ITEM_REQUIRED,
                "An argument or block definition is required here.",
                ident.span,
            ));
        }
        let next = self.peek();
        let attr = match next.kind {
            TokenKind::Equal => self.attribute(ident.text, ident.span, true)?,
            TokenKind::OQuote | TokenKind::OBrace | TokenKind::Ident => {
                return Err(error(
                    "Argument definition required",
                    format!(
                        "A single-line block definition can contain only a single argument. If you meant to define argument {}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.",
                        crate::goquote::go_quote(ident.text)
                    ),
                    ident.span.to(next.span),
                ))
            }
            _ => {
                return Err(error(
                    ITEM_REQUIRED,
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.span,
                ))
            }
        };
        let close = self.peek();
        match close.kind {
            TokenKind::CBrace => {
                self.skip();
            }
            TokenKind::Comma => return Err(error(INVALID_SINGLE, "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.", close.span)),
            TokenKind::Newline => return Err(error(INVALID_SINGLE, "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.", close.span)),
            TokenKind::Eof => return Err(error(UNCLOSED_BLOCK, "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.", open)),
            _ => return Err(error(INVALID_SINGLE, "A single-line block definition must end with a closing brace immediately after its single argument definition.", close.span)),
        }
        Ok(Body {
            attributes: vec![attr],
            blocks: Vec::new(),
            end: close.span,
        })
    }

    /// A quoted block label: a string without interpolations
    /// (`parseQuotedStringLiteral`).
    pub(super) fn quoted_label(&mut self) -> PResult<(String, Span)> {
        let open = self.read();
        let mut value = String::new();
        loop {
            let tok = self.read();
            match tok.kind {
                TokenKind::CQuote => return Ok((value, open.span.to(tok.span))),
                TokenKind::QuotedLit => value.push_str(&string_literal_value(&tok)?),
                TokenKind::TemplateInterp => {
                    return Err(error(
                        "Invalid string literal",
                        "Template sequences are not allowed in this string. To include a literal \"$\", double it (as \"$$\") to escape it.",
                        tok.span,
                    ))
                }
                TokenKind::TemplateControl => {
                    return Err(error(
                        "Invalid string literal",
                        "Template sequences are not allowed in this string. To include a literal \"%\", double it (as \"%%\") to escape it.",
                        tok.span,
                    ))
                }
                // hclsyntax parseQuotedStringLiteral: the end of the input
                // and any other token have errors of their own.
                TokenKind::Eof => {
                    return Err(error(
                        "Unterminated string literal",
                        "Unable to find the closing quote mark before the end of the file.",
                        tok.span,
                    ))
                }
                _ => {
                    return Err(error(
                        "Invalid string literal",
                        "This item is not valid in a string literal.",
                        tok.span,
                    ))
                }
            }
        }
    }
}
