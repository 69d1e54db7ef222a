//! The parser: tokens to a syntax tree, as HIL's `parser.Parse`.
//!
//! ```text
//! sequence    = { literal | "${" expression "}" }
//! expression  = binary [ "?" expression ":" expression ]
//! binary      = levels ||, &&, == !=, < <= > >=, + -, * / %  (left-associative)
//! term        = "(" expression ")" | quoted | integer | float | bool
//!             | "-" term | "!" term | identifier [ call | index ]
//! call        = "(" [ expression { "," expression } ] ")"
//! index       = "[" expression "]"
//! ```

use super::scan::{HilPos, Tok, Token};
use super::{Fault, MAX_NESTING_DEPTH};

/// The arithmetic, comparison and logical operators (`ast.ArithmeticOp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
}

/// A literal value of the syntax.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// A syntax tree node (HIL's `ast.Node` kinds).
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Literal(Literal, HilPos),
    /// Parts joined into a string (or one list or map passed through).
    Output(Vec<Node>, HilPos),
    Variable(String, HilPos),
    /// `name[key]`; the position is the bracket's.
    Index {
        name: String,
        name_pos: HilPos,
        key: Box<Node>,
        pos: HilPos,
    },
    Call {
        name: String,
        args: Vec<Node>,
        pos: HilPos,
    },
    Arithmetic {
        op: Op,
        lhs: Box<Node>,
        rhs: Box<Node>,
        pos: HilPos,
    },
    Conditional {
        cond: Box<Node>,
        then: Box<Node>,
        otherwise: Box<Node>,
        pos: HilPos,
    },
}

const MSG_UNFINISHED_ESCAPE: &str = "unfinished backslash escape sequence";
const MSG_INVALID_ESCAPE: &str = "invalid backslash escape sequence";
const MSG_TOO_DEEP: &str = "expressions are nested too deeply";

/// Parses a whole 0.11 string.
pub fn parse(tokens: &[Token]) -> Result<Node, Fault> {
    let mut p = Parser {
        tokens,
        at: 0,
        depth: 0,
    };
    p.sequence(false)
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
    depth: usize,
}

/// The binary operator levels, loosest first (HIL's `binaryOps`).
fn level_op(level: usize, tok: &Tok) -> Option<Op> {
    match (level, tok) {
        (0, Tok::Or) => Some(Op::Or),
        (1, Tok::And) => Some(Op::And),
        (2, Tok::Equal) => Some(Op::Equal),
        (2, Tok::NotEqual) => Some(Op::NotEqual),
        (3, Tok::Punct(b'>')) => Some(Op::Greater),
        (3, Tok::GreaterEqual) => Some(Op::GreaterEqual),
        (3, Tok::Punct(b'<')) => Some(Op::Less),
        (3, Tok::LessEqual) => Some(Op::LessEqual),
        (4, Tok::Punct(b'+')) => Some(Op::Add),
        (4, Tok::Punct(b'-')) => Some(Op::Sub),
        (5, Tok::Punct(b'*')) => Some(Op::Mul),
        (5, Tok::Punct(b'/')) => Some(Op::Div),
        (5, Tok::Punct(b'%')) => Some(Op::Mod),
        _ => None,
    }
}
const LEVELS: usize = 6;

fn parse_error(pos: HilPos, message: impl Into<String>) -> Fault {
    Fault::parse(pos, message)
}

fn expectation(wanted: &str, got: &Token) -> Fault {
    parse_error(
        got.pos,
        format!("expected {wanted} but found {}", got.describe()),
    )
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        &self.tokens[self.at.min(self.tokens.len() - 1)]
    }

    fn read(&mut self) -> Token {
        let t = self.peek().clone();
        if self.at < self.tokens.len() - 1 {
            self.at += 1;
        }
        t
    }

    /// Runs one nested step with the depth guard.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, Fault>) -> Result<T, Fault> {
        if self.depth >= MAX_NESTING_DEPTH {
            return Err(parse_error(self.peek().pos, MSG_TOO_DEEP));
        }
        self.depth += 1;
        let r = crate::stack::deeper(|| f(self));
        self.depth -= 1;
        r
    }

    /// A sequence of literals and interpolations, up to the end of input
    /// (top level) or the closing quote (quoted). Mirrors
    /// `parseInterpolationSeq`.
    fn sequence(&mut self, quoted: bool) -> Result<Node, Fault> {
        let start = self.peek().pos;
        if quoted {
            let tok = self.read();
            if tok.tok != Tok::OpenQuote {
                return Err(expectation("open quote", &tok));
            }
        }
        let mut parts = Vec::new();
        loop {
            let tok = self.read();
            match &tok.tok {
                Tok::Eof if !quoted => break,
                Tok::CloseQuote if quoted => break,
                Tok::Literal(raw) if !quoted => parts.push(Node::Literal(
                    Literal::Str(unescape(raw, &tok, false)?),
                    tok.pos,
                )),
                Tok::Str(raw) if quoted => parts.push(Node::Literal(
                    Literal::Str(unescape(raw, &tok, true)?),
                    tok.pos,
                )),
                Tok::Begin => {
                    let expr = self.expression()?;
                    self.require(&Tok::End, r#""}""#)?;
                    parts.push(expr);
                }
                _ => return Err(expectation(r#""${""#, &tok)),
            }
        }
        if parts.is_empty() {
            return Ok(Node::Literal(Literal::Str(String::new()), start));
        }
        if parts.len() == 1 && matches!(parts[0], Node::Literal(Literal::Str(_), _)) {
            return Ok(parts.pop().expect("one part"));
        }
        Ok(Node::Output(parts, start))
    }

    fn require(&mut self, want: &Tok, name: &str) -> Result<(), Fault> {
        let tok = self.read();
        if &tok.tok != want {
            return Err(expectation(name, &tok));
        }
        Ok(())
    }

    /// `expression = binary [ "?" expression ":" expression ]`
    fn expression(&mut self) -> Result<Node, Fault> {
        self.nested(|p| {
            let start = p.peek().pos;
            let cond = p.binary(0)?;
            if p.peek().tok != Tok::Punct(b'?') {
                return Ok(cond);
            }
            p.read();
            let then = p.expression()?;
            let colon = p.read();
            if colon.tok != Tok::Punct(b':') {
                return Err(expectation(":", &colon));
            }
            let otherwise = p.expression()?;
            Ok(Node::Conditional {
                cond: Box::new(cond),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
                pos: start,
            })
        })
    }

    /// One binary operator level, left-associative; every node of the
    /// chain has the position of the chain's first token.
    fn binary(&mut self, level: usize) -> Result<Node, Fault> {
        if level == LEVELS {
            return self.term();
        }
        let start = self.peek().pos;
        let mut lhs = self.binary(level + 1)?;
        let mut chained = 0usize;
        while let Some(op) = level_op(level, &self.peek().tok) {
            self.read();
            let rhs = self.binary(level + 1)?;
            chained += 1;
            if self.depth + chained >= MAX_NESTING_DEPTH {
                return Err(parse_error(self.peek().pos, MSG_TOO_DEEP));
            }
            lhs = Node::Arithmetic {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
                pos: start,
            };
        }
        Ok(lhs)
    }

    fn term(&mut self) -> Result<Node, Fault> {
        let next = self.peek().clone();
        match &next.tok {
            Tok::Punct(b'(') => {
                self.read();
                let expr = self.expression()?;
                self.require(&Tok::Punct(b')'), r#"")""#)?;
                Ok(expr)
            }
            Tok::OpenQuote => self.nested(|p| p.sequence(true)),
            Tok::Int(text) => {
                self.read();
                match text.parse::<i64>() {
                    Ok(v) => Ok(Node::Literal(Literal::Int(v), next.pos)),
                    Err(_) => Err(parse_error(
                        next.pos,
                        format!(
                            "invalid integer: {}",
                            super::convert::parse_int_error("Atoi", text)
                        ),
                    )),
                }
            }
            Tok::Float(text) => {
                self.read();
                match super::convert::parse_float(text.as_bytes()) {
                    Ok(v) => Ok(Node::Literal(Literal::Float(v), next.pos)),
                    Err(e) => Err(parse_error(next.pos, format!("invalid float: {e}"))),
                }
            }
            Tok::Bool(b) => {
                self.read();
                Ok(Node::Literal(Literal::Bool(*b), next.pos))
            }
            Tok::Punct(b'-') | Tok::Punct(b'!') => {
                self.read();
                let operand = self.nested(|p| p.term())?;
                let (op, zero) = if next.tok == Tok::Punct(b'-') {
                    (Op::Sub, Literal::Int(0))
                } else {
                    (Op::Equal, Literal::Bool(false))
                };
                Ok(Node::Arithmetic {
                    op,
                    lhs: Box::new(Node::Literal(zero, next.pos)),
                    rhs: Box::new(operand),
                    pos: next.pos,
                })
            }
            Tok::Ident(name) => {
                self.read();
                self.scope_interaction(name.clone(), next.pos)
            }
            _ => Err(expectation("expression", &next)),
        }
    }

    /// A function call, an indexed variable or a variable.
    fn scope_interaction(&mut self, name: String, pos: HilPos) -> Result<Node, Fault> {
        match self.peek().tok {
            Tok::Punct(b'(') => {
                self.read();
                let mut args = Vec::new();
                loop {
                    if self.peek().tok == Tok::Punct(b')') {
                        break;
                    }
                    args.push(self.expression()?);
                    if self.peek().tok == Tok::Punct(b',') {
                        self.read();
                        continue;
                    }
                    break;
                }
                self.require(&Tok::Punct(b')'), r#"")""#)?;
                Ok(Node::Call { name, args, pos })
            }
            Tok::Punct(b'[') => {
                let bracket = self.read().pos;
                let key = self.expression()?;
                self.require(&Tok::Punct(b']'), r#""]""#)?;
                Ok(Node::Index {
                    name,
                    name_pos: pos,
                    key: Box::new(key),
                    pos: bracket,
                })
            }
            _ => Ok(Node::Variable(name, pos)),
        }
    }
}

/// The value of a literal's text: `$$` is `$`; in quoted strings `\\`,
/// `\n` and `\"` are escapes and any other backslash is an error.
/// Mirrors `parseStringToken`.
fn unescape(raw: &str, tok: &Token, backslashes: bool) -> Result<String, Fault> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let mut b = bytes[i];
        let more = i + 1 < bytes.len();
        if b == b'$' {
            if more && bytes[i + 1] == b'$' {
                i += 1;
            }
        } else if backslashes && b == b'\\' {
            let at = HilPos {
                line: tok.pos.line,
                column: tok.pos.column + raw[..i].chars().count(),
            };
            if !more {
                return Err(parse_error(at, MSG_UNFINISHED_ESCAPE));
            }
            match bytes[i + 1] {
                b'\\' => i += 1,
                b'n' => {
                    b = b'\n';
                    i += 1;
                }
                b'"' => {
                    b = b'"';
                    i += 1;
                }
                _ => return Err(parse_error(at, MSG_INVALID_ESCAPE)),
            }
        }
        out.push(b);
        i += 1;
    }
    Ok(String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Every variable name the tree uses, in the order HIL's walk visits
/// them (children before their parent, left to right).
pub fn variables(node: &Node, out: &mut Vec<(String, HilPos)>) {
    crate::stack::deeper(|| match node {
        Node::Literal(..) => {}
        Node::Output(parts, _) => parts.iter().for_each(|p| variables(p, out)),
        Node::Variable(name, pos) => out.push((name.clone(), *pos)),
        Node::Index {
            name,
            name_pos,
            key,
            ..
        } => {
            out.push((name.clone(), *name_pos));
            variables(key, out);
        }
        Node::Call { args, .. } => args.iter().for_each(|a| variables(a, out)),
        Node::Arithmetic { lhs, rhs, .. } => {
            variables(lhs, out);
            variables(rhs, out);
        }
        Node::Conditional {
            cond,
            then,
            otherwise,
            ..
        } => {
            variables(cond, out);
            variables(then, out);
            variables(otherwise, out);
        }
    })
}
