//! Expressions: conditionals, operators, terms and function calls.

use super::cursor::{between, error, node, Node, PResult, Parser};
use super::diag;
use super::token::{Token, TokenKind};
use crate::ast::{BinaryOp, ExprKind, UnaryOp};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// Binary operators by token, with their precedence level (0 binds
/// loosest). All are left-associative. Mirrors `hclsyntax.binaryOps`.
fn binary_operator(kind: TokenKind) -> Option<(BinaryOp, usize)> {
    use TokenKind as K;
    let entry = match kind {
        K::Or => (BinaryOp::Or, 0),
        K::And => (BinaryOp::And, 1),
        K::EqualOp => (BinaryOp::Equal, 2),
        K::NotEqual => (BinaryOp::NotEqual, 2),
        K::GreaterThan => (BinaryOp::GreaterThan, 3),
        K::GreaterThanEq => (BinaryOp::GreaterThanOrEqual, 3),
        K::LessThan => (BinaryOp::LessThan, 3),
        K::LessThanEq => (BinaryOp::LessThanOrEqual, 3),
        K::Plus => (BinaryOp::Add, 4),
        K::Minus => (BinaryOp::Subtract, 4),
        K::Star => (BinaryOp::Multiply, 5),
        K::Slash => (BinaryOp::Divide, 5),
        K::Percent => (BinaryOp::Modulo, 5),
        _ => return None,
    };
    Some(entry)
}

impl<'a> Parser<'a> {
    /// ```text
    /// Expression = (
    ///     ExprTerm |
    ///     Operation |
    ///     Conditional
    /// );
    /// ```
    /// Mirrors `parser.ParseExpression`; every nested expression comes
    /// through here, so this is where the nesting depth is counted.
    pub fn expression(&mut self) -> PResult<Node> {
        self.enter()?;
        let result = crate::stack::deeper(|| self.conditional());
        self.leave();
        result
    }

    /// ```text
    /// Conditional = Expression "?" Expression ":" Expression;
    /// ```
    /// Mirrors `parser.parseTernaryConditional`: both results are full
    /// expressions, so `a ? b : c ? d : e` nests to the right.
    fn conditional(&mut self) -> PResult<Node> {
        let start = self.peek().span;
        let condition = self.operation(0)?;
        if self.peek_kind() != TokenKind::Question {
            return Ok(condition);
        }
        self.skip();
        let true_result = self.expression()?;
        let colon = self.peek();
        if colon.kind != TokenKind::Colon {
            return Err(error(
                diag::MISSING_FALSE_EXPRESSION,
                diag::MISSING_FALSE_EXPRESSION_DETAIL,
                colon.span,
            ));
        }
        self.skip();
        let false_result = self.expression()?;
        let span = between(start, false_result.expr.span);
        let height = condition
            .height
            .max(true_result.height)
            .max(false_result.height);
        node(
            ExprKind::Conditional {
                condition: condition.expr,
                true_result: true_result.expr,
                false_result: false_result.expr,
            },
            span,
            height,
        )
    }

    /// ```text
    /// Operation = unaryOp | binaryOp;
    /// binaryOp = ExprTerm binaryOperator ExprTerm;
    /// binaryOperator = compareOperator | arithmeticOperator | logicOperator;
    /// ```
    /// Precedence climbing over the six binary levels; gives the same trees
    /// as `parser.parseBinaryOps`, which recurses once per level.
    fn operation(&mut self, min_level: usize) -> PResult<Node> {
        let mut lhs = self.term_with_traversals()?;
        while let Some((op, level)) = binary_operator(self.peek_kind()) {
            if level < min_level {
                break;
            }
            self.skip();
            let rhs = self.operation(level + 1)?;
            let span = between(lhs.expr.span, rhs.expr.span);
            let height = lhs.height.max(rhs.height);
            lhs = node(
                ExprKind::Binary {
                    op,
                    lhs: lhs.expr,
                    rhs: rhs.expr,
                },
                span,
                height,
            )?;
        }
        Ok(lhs)
    }

    /// A term followed by its attribute, index and splat steps
    /// (`parser.parseExpressionWithTraversals`).
    pub fn term_with_traversals(&mut self) -> PResult<Node> {
        let term = self.expr_term()?;
        self.traversals(term)
    }

    /// ```text
    /// ExprTerm = (
    ///     LiteralValue |
    ///     CollectionValue |
    ///     TemplateExpr |
    ///     VariableExpr |
    ///     FunctionCall |
    ///     ForExpr |
    ///     ExprTerm Index |
    ///     ExprTerm GetAttr |
    ///     ExprTerm Splat |
    ///     "(" Expression ")"
    /// );
    /// unaryOp = ("-" | "!") ExprTerm;
    /// ```
    /// The left-recursive alternatives are `traversals`. Mirrors
    /// `parser.parseExpressionTerm`.
    fn expr_term(&mut self) -> PResult<Node> {
        let start = self.peek();
        match start.kind {
            TokenKind::OParen => self.parenthesized(),
            TokenKind::NumberLit => {
                self.skip();
                let value = number_lit_value(&start)?;
                node(ExprKind::Literal(value), start.span, 0)
            }
            TokenKind::Ident => {
                self.skip();
                if matches!(self.peek_kind(), TokenKind::OParen | TokenKind::DoubleColon) {
                    return self.function_call(start);
                }
                self.variable_or_keyword(start)
            }
            TokenKind::OQuote | TokenKind::OHeredoc => self.template_expr(),
            TokenKind::Minus | TokenKind::Bang => self.unary_op(),
            TokenKind::OBrack => self.tuple_cons(),
            TokenKind::OBrace => self.object_cons(),
            TokenKind::Eof => Err(error(
                diag::MISSING_EXPRESSION,
                diag::MISSING_EXPRESSION_DETAIL,
                start.span,
            )),
            _ => Err(error(
                diag::INVALID_EXPRESSION,
                diag::INVALID_EXPRESSION_DETAIL,
                start.span,
            )),
        }
    }

    /// `"(" Expression ")"`: newlines inside are ignored.
    fn parenthesized(&mut self) -> PResult<Node> {
        let open = self.read();
        self.with_newlines(false, |p| {
            let inner = p.expression()?;
            let close = p.peek();
            if close.kind != TokenKind::CParen {
                return Err(error(
                    diag::UNBALANCED_PARENTHESES,
                    diag::UNBALANCED_PARENTHESES_DETAIL,
                    close.span,
                ));
            }
            p.skip();
            let span = between(open.span, close.span);
            node(ExprKind::Parentheses(inner.expr), span, inner.height)
        })
    }

    /// ```text
    /// LiteralValue = ( NumericLit | "true" | "false" | "null" );
    /// VariableExpr = Identifier;
    /// ```
    fn variable_or_keyword(&mut self, ident: Token<'a>) -> PResult<Node> {
        let kind = match ident.text {
            "true" => ExprKind::Literal(Value::Bool(true)),
            "false" => ExprKind::Literal(Value::Bool(false)),
            "null" => ExprKind::Literal(Value::Null(Type::Dynamic)),
            name => ExprKind::ScopeTraversal {
                root: name.to_string(),
                steps: Vec::new(),
            },
        };
        node(kind, ident.span, 0)
    }

    /// `unaryOp = ("-" | "!") ExprTerm;` where the operand keeps its
    /// traversals but no binary operator: `-a.b + c` is `(-(a.b)) + c`.
    fn unary_op(&mut self) -> PResult<Node> {
        let symbol = self.read();
        let op = if symbol.kind == TokenKind::Minus {
            UnaryOp::Negate
        } else {
            UnaryOp::Not
        };
        let operand = self.nested(|p| p.term_with_traversals())?;
        let span = between(symbol.span, operand.expr.span);
        node(
            ExprKind::Unary {
                op,
                operand: operand.expr,
            },
            span,
            operand.height,
        )
    }

    /// ```text
    /// FunctionCall = Identifier "(" arguments ")";
    /// Arguments = (
    ///     () ||
    ///     (Expression ("," Expression)* ("," | "...")?)
    /// );
    /// ```
    /// The name is already read. Also accepts namespaced names
    /// (`provider::p::f(...)`), which later HCL versions parse as one name
    /// joined with `::`. HCL 2.14 has no `::` token: there such a call is a
    /// syntax error ("Extra characters after expression" at top level).
    /// Mirrors `parser.finishParsingFunctionCall` of those later versions.
    fn function_call(&mut self, name_token: Token<'a>) -> PResult<Node> {
        let mut open = self.read();
        let mut name = name_token.text.to_string();
        let mut name_span = name_token.span;
        while open.kind == TokenKind::DoubleColon {
            let part = self.read();
            if part.kind != TokenKind::Ident {
                return Err(error(
                    diag::MISSING_FUNCTION_NAME,
                    diag::MISSING_FUNCTION_NAME_DETAIL,
                    part.span,
                ));
            }
            name.push_str("::");
            name.push_str(part.text);
            name_span = between(name_token.span, part.span);
            open = self.read();
        }
        if open.kind != TokenKind::OParen {
            return Err(error(
                diag::MISSING_OPEN_PARENTHESIS,
                diag::MISSING_OPEN_PARENTHESIS_DETAIL,
                open.span,
            ));
        }

        self.with_newlines(false, |p| {
            let mut args = Vec::new();
            let mut height = 0;
            let mut expand_final = false;
            let close = loop {
                if p.peek_kind() == TokenKind::CParen {
                    break p.read();
                }
                let arg = p.expression()?;
                height = height.max(arg.height);
                args.push(*arg.expr);

                let separator = p.read();
                match separator.kind {
                    TokenKind::CParen => break separator,
                    TokenKind::Ellipsis => {
                        expand_final = true;
                        if p.peek_kind() != TokenKind::CParen {
                            return Err(error(
                                diag::MISSING_CLOSING_PARENTHESIS,
                                diag::MISSING_CLOSING_PARENTHESIS_DETAIL,
                                separator.span,
                            ));
                        }
                        break p.read();
                    }
                    TokenKind::Comma => {}
                    TokenKind::Eof => {
                        return Err(error(
                            diag::UNTERMINATED_FUNCTION_CALL,
                            diag::UNTERMINATED_FUNCTION_CALL_DETAIL,
                            between(name_token.span, open.span),
                        ))
                    }
                    _ => {
                        return Err(error(
                            diag::MISSING_ARGUMENT_SEPARATOR,
                            diag::MISSING_ARGUMENT_SEPARATOR_DETAIL,
                            separator.span,
                        ))
                    }
                }
                // A trailing comma after the last argument.
                if p.peek_kind() == TokenKind::CParen {
                    break p.read();
                }
            };
            let span = between(name_token.span, close.span);
            node(
                ExprKind::FunctionCall {
                    name,
                    args,
                    expand_final,
                    name_span,
                    open_span: open.span,
                },
                span,
                height,
            )
        })
    }
}

/// `NumericLit = decimal+ ("." decimal+)? (expmark decimal+)?;`, valued as
/// `cty.ParseNumberVal` does. Tokens the scanner accepts but that are not
/// numbers (`1..2`, `1e2e3`) fail here. Mirrors `parser.numberLitValue`.
pub(super) fn number_lit_value(token: &Token<'_>) -> PResult<Value> {
    match Number::parse(token.text) {
        Some(number) => Ok(Value::Number(number)),
        None => Err(error(
            diag::INVALID_NUMBER_LITERAL,
            diag::INVALID_NUMBER_LITERAL_DETAIL,
            token.span,
        )),
    }
}
