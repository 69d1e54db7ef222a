//! The semantic checks HIL runs before evaluating: the identifier check
//! (`IdentifierCheck`: functions exist and get enough arguments) and the
//! type check (`TypeCheck`), which decides every operator's operand type,
//! inserts the implicit conversions and turns operators into calls of
//! HIL's `__builtin_*` functions. Both visit children before parents, left
//! to right, and stop at the first error.

use super::funcs::{self, FuncDef};
use super::parse::{Literal, Node, Op};
use super::scan::HilPos;
use super::value::{Ty, Val};
use super::{Fault, Scope};

/// A node after the type check.
#[derive(Clone, Debug)]
pub enum Typed {
    Literal(Val),
    Variable(String),
    Index {
        name: String,
        key: Box<Typed>,
    },
    Call {
        func: Callee,
        args: Vec<Typed>,
    },
    Conditional {
        cond: Box<Typed>,
        then: Box<Typed>,
        otherwise: Box<Typed>,
    },
    Output(Vec<Typed>),
}

/// What a call calls.
#[derive(Clone, Copy, Debug)]
pub enum Callee {
    Builtin(Builtin),
    Function(&'static FuncDef),
}

impl Callee {
    /// The name call errors start with.
    pub fn name(self) -> &'static str {
        match self {
            Callee::Builtin(b) => b.name(),
            Callee::Function(f) => f.name,
        }
    }
}

/// HIL's own functions for operators and implicit conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    IntMath(Op),
    FloatMath(Op),
    BoolCompare(Op),
    FloatCompare(Op),
    IntCompare(Op),
    StringCompare(Op),
    Logical(Op),
    FloatToInt,
    FloatToString,
    IntToFloat,
    IntToString,
    StringToInt,
    StringToFloat,
    StringToBool,
    BoolToString,
}

impl Builtin {
    pub fn name(self) -> &'static str {
        match self {
            Builtin::IntMath(_) => "__builtin_IntMath",
            Builtin::FloatMath(_) => "__builtin_FloatMath",
            Builtin::BoolCompare(_) => "__builtin_BoolCompare",
            Builtin::FloatCompare(_) => "__builtin_FloatCompare",
            Builtin::IntCompare(_) => "__builtin_IntCompare",
            Builtin::StringCompare(_) => "__builtin_StringCompare",
            Builtin::Logical(_) => "__builtin_Logical",
            Builtin::FloatToInt => "__builtin_FloatToInt",
            Builtin::FloatToString => "__builtin_FloatToString",
            Builtin::IntToFloat => "__builtin_IntToFloat",
            Builtin::IntToString => "__builtin_IntToString",
            Builtin::StringToInt => "__builtin_StringToInt",
            Builtin::StringToFloat => "__builtin_StringToFloat",
            Builtin::StringToBool => "__builtin_StringToBool",
            Builtin::BoolToString => "__builtin_BoolToString",
        }
    }
}

/// The implicit conversion from one type to another, if HIL has one.
fn implicit(from: Ty, to: Ty) -> Option<Builtin> {
    match (from, to) {
        (Ty::Float, Ty::Int) => Some(Builtin::FloatToInt),
        (Ty::Float, Ty::Str) => Some(Builtin::FloatToString),
        (Ty::Int, Ty::Float) => Some(Builtin::IntToFloat),
        (Ty::Int, Ty::Str) => Some(Builtin::IntToString),
        (Ty::Str, Ty::Int) => Some(Builtin::StringToInt),
        (Ty::Str, Ty::Float) => Some(Builtin::StringToFloat),
        (Ty::Str, Ty::Bool) => Some(Builtin::StringToBool),
        (Ty::Bool, Ty::Str) => Some(Builtin::BoolToString),
        _ => None,
    }
}

fn convert(node: Typed, from: Ty, to: Ty) -> Option<Typed> {
    implicit(from, to).map(|b| Typed::Call {
        func: Callee::Builtin(b),
        args: vec![node],
    })
}

const MSG_UNKNOWN_FUNCTION: &str = "unknown function called: ";
const MSG_UNKNOWN_VARIABLE: &str = "unknown variable accessed: ";

/// HIL's identifier check: every function exists and gets at least its
/// fixed arguments (exactly, unless variadic); every variable exists.
pub fn identifiers(node: &Node, scope: &Scope) -> Result<(), Fault> {
    crate::stack::deeper(|| {
        let fail = |pos: HilPos, msg: String| Err(Fault::apply_at(pos, format!("{pos}: {msg}")));
        match node {
            Node::Literal(..) => Ok(()),
            Node::Output(parts, _) => parts.iter().try_for_each(|p| identifiers(p, scope)),
            Node::Variable(name, pos) => {
                if scope.lookup(name).is_none() {
                    return fail(*pos, format!("{MSG_UNKNOWN_VARIABLE}{name}"));
                }
                Ok(())
            }
            Node::Index {
                name,
                name_pos,
                key,
                ..
            } => {
                if scope.lookup(name).is_none() {
                    return fail(*name_pos, format!("{MSG_UNKNOWN_VARIABLE}{name}"));
                }
                identifiers(key, scope)
            }
            Node::Call { name, args, pos } => {
                args.iter().try_for_each(|a| identifiers(a, scope))?;
                let Some(f) = funcs::lookup(name) else {
                    return fail(*pos, format!("{MSG_UNKNOWN_FUNCTION}{name}"));
                };
                let fixed = f.params.len();
                let counted = if f.variadic.is_some() {
                    args.len().min(fixed)
                } else {
                    args.len()
                };
                if counted != fixed {
                    return fail(
                        *pos,
                        format!("{name}: expected {fixed} arguments, got {}", args.len()),
                    );
                }
                Ok(())
            }
            Node::Arithmetic { lhs, rhs, .. } => {
                identifiers(lhs, scope)?;
                identifiers(rhs, scope)
            }
            Node::Conditional {
                cond,
                then,
                otherwise,
                ..
            } => {
                identifiers(cond, scope)?;
                identifiers(then, scope)?;
                identifiers(otherwise, scope)
            }
        }
    })
}

/// A type error at a node: `At column C, line L: MSG`.
fn type_error(pos: HilPos, msg: impl std::fmt::Display) -> Fault {
    Fault::apply_at(
        pos,
        format!("At column {}, line {}: {msg}", pos.column, pos.line),
    )
}

/// HIL's type check: the typed tree and its type.
pub fn types(node: &Node, scope: &Scope) -> Result<(Typed, Ty), Fault> {
    crate::stack::deeper(|| match node {
        Node::Literal(lit, _) => {
            let v = match lit {
                Literal::Str(s) => Val::text(s.clone()),
                Literal::Int(i) => Val::Int(*i),
                Literal::Float(f) => Val::Float(*f),
                Literal::Bool(b) => Val::Bool(*b),
            };
            let ty = v.ty();
            Ok((Typed::Literal(v), ty))
        }
        Node::Variable(name, pos) => match scope.lookup(name) {
            Some(v) => Ok((Typed::Variable(name.clone()), v.ty())),
            None => Err(type_error(*pos, format!("{MSG_UNKNOWN_VARIABLE}{name}"))),
        },
        Node::Index { name, key, pos, .. } => {
            let (key, key_ty) = types(key, scope)?;
            let target = scope.lookup(name);
            let Some(target) = target else {
                return Err(type_error(*pos, format!("{MSG_UNKNOWN_VARIABLE}{name}")));
            };
            let (want, elems): (Ty, Vec<&Val>) = match target {
                Val::List(items) => (Ty::Int, items.iter().collect()),
                Val::Map(items) => (Ty::Str, items.values().collect()),
                other => {
                    return Err(type_error(
                        *pos,
                        format!(
                            "invalid index operation into non-indexable type: {}",
                            other.ty().name()
                        ),
                    ))
                }
            };
            let key = if key_ty == want {
                key
            } else {
                match convert(key, key_ty, want) {
                    Some(k) => k,
                    None => {
                        let what = if want == Ty::Int {
                            "an int"
                        } else {
                            "a string"
                        };
                        return Err(type_error(
                            *pos,
                            format!("key of an index must be {what}, was {}", key_ty.name()),
                        ));
                    }
                }
            };
            let kind = if want == Ty::Int { "list" } else { "map" };
            let Some(first) = elems.first() else {
                return Err(type_error(
                    *pos,
                    format!(
                        "{kind} {} does not have any elements so cannot determine type.",
                        crate::goquote::go_quote(name)
                    ),
                ));
            };
            let elem_ty = first.ty();
            if let Some(other) = elems.iter().find(|e| e.ty() != elem_ty) {
                return Err(type_error(
                    *pos,
                    format!(
                        "{kind} {} does not have homogenous types. found {} and then {}",
                        crate::goquote::go_quote(name),
                        elem_ty.name(),
                        other.ty().name()
                    ),
                ));
            }
            Ok((
                Typed::Index {
                    name: name.clone(),
                    key: Box::new(key),
                },
                elem_ty,
            ))
        }
        Node::Call { name, args, pos } => {
            let mut typed = Vec::with_capacity(args.len());
            for a in args {
                typed.push(types(a, scope)?);
            }
            let Some(f) = funcs::lookup(name) else {
                return Err(type_error(*pos, format!("{MSG_UNKNOWN_FUNCTION}{name}")));
            };
            let mut out = Vec::with_capacity(typed.len());
            for (i, (node, ty)) in typed.into_iter().enumerate() {
                let want = match f.params.get(i) {
                    Some(t) => *t,
                    None => f.variadic.unwrap_or(Ty::Any),
                };
                if want == Ty::Any || ty == want {
                    out.push(node);
                    continue;
                }
                match convert(node, ty, want) {
                    Some(n) => out.push(n),
                    None => {
                        // HIL numbers variadic arguments from 0 here.
                        let shown = if i < f.params.len() { i + 1 } else { i };
                        return Err(type_error(
                            *pos,
                            format!(
                                "{name}: argument {shown} should be {}, got {}",
                                want.printable(),
                                ty.printable()
                            ),
                        ));
                    }
                }
            }
            Ok((
                Typed::Call {
                    func: Callee::Function(f),
                    args: out,
                },
                f.ret,
            ))
        }
        Node::Conditional {
            cond,
            then,
            otherwise,
            pos,
        } => {
            let (cond, cond_ty) = types(cond, scope)?;
            let (then, mut then_ty) = types(then, scope)?;
            let (otherwise, else_ty) = types(otherwise, scope)?;
            let cond = if cond_ty == Ty::Bool {
                cond
            } else {
                convert(cond, cond_ty, Ty::Bool).ok_or_else(|| {
                    type_error(
                        *pos,
                        format!("condition must be type bool, not {}", cond_ty.printable()),
                    )
                })?
            };
            let mismatch = || {
                type_error(
                    *pos,
                    format!(
                        "true and false expression types must match; have {} and {}",
                        then_ty.printable(),
                        else_ty.printable()
                    ),
                )
            };
            let (then, otherwise) = if then_ty == else_ty {
                (then, otherwise)
            } else if then_ty == Ty::Str {
                let t = convert(then, then_ty, else_ty).ok_or_else(mismatch)?;
                then_ty = else_ty;
                (t, otherwise)
            } else {
                let o = convert(otherwise, else_ty, then_ty).ok_or_else(mismatch)?;
                (then, o)
            };
            match then_ty {
                Ty::List => Err(type_error(
                    *pos,
                    "conditional operator cannot be used with list values",
                )),
                Ty::Map => Err(type_error(
                    *pos,
                    "conditional operator cannot be used with map values",
                )),
                _ => Ok((
                    Typed::Conditional {
                        cond: Box::new(cond),
                        then: Box::new(then),
                        otherwise: Box::new(otherwise),
                    },
                    then_ty,
                )),
            }
        }
        Node::Output(parts, pos) => {
            let mut typed = Vec::with_capacity(parts.len());
            for p in parts {
                typed.push(types(p, scope)?);
            }
            if typed.len() == 1 && matches!(typed[0].1, Ty::List | Ty::Map) {
                let (node, ty) = typed.pop().expect("one part");
                return Ok((Typed::Output(vec![node]), ty));
            }
            let mut out = Vec::with_capacity(typed.len());
            for (i, (node, ty)) in typed.into_iter().enumerate() {
                if ty == Ty::Str {
                    out.push(node);
                    continue;
                }
                match convert(node, ty, Ty::Str) {
                    Some(n) => out.push(n),
                    None => {
                        return Err(type_error(
                            *pos,
                            format!(
                                "output of an HIL expression must be a string, or a single list (argument {} is {})",
                                i + 1,
                                ty.name()
                            ),
                        ))
                    }
                }
            }
            Ok((Typed::Output(out), Ty::Str))
        }
        Node::Arithmetic { op, lhs, rhs, pos } => {
            let (lhs, lt) = types(lhs, scope)?;
            let (rhs, rt) = types(rhs, scope)?;
            arithmetic(*op, [(lhs, lt), (rhs, rt)], *pos)
        }
    })
}

/// The type check of an operator node: its builtin call and result type.
fn arithmetic(op: Op, operands: [(Typed, Ty); 2], pos: HilPos) -> Result<(Typed, Ty), Fault> {
    let tys = [operands[0].1, operands[1].1];
    let (builtin, operand_ty, result) = match op {
        Op::And | Op::Or => (Builtin::Logical(op), Ty::Bool, Ty::Bool),
        Op::Equal | Op::NotEqual | Op::Less | Op::LessEqual | Op::Greater | Op::GreaterEqual => {
            let mut cmp_ty = tys[0];
            let mut builtin = match cmp_ty {
                Ty::Bool => Builtin::BoolCompare(op),
                Ty::Float => Builtin::FloatCompare(op),
                Ty::Int => Builtin::IntCompare(op),
                Ty::Str => Builtin::StringCompare(op),
                _ => {
                    return Err(type_error(
                        pos,
                        "comparison operators apply only to bool, float, int, and string",
                    ))
                }
            };
            if !matches!(op, Op::Equal | Op::NotEqual) {
                if tys.contains(&Ty::Float) {
                    cmp_ty = Ty::Float;
                    builtin = Builtin::FloatCompare(op);
                } else {
                    cmp_ty = Ty::Int;
                    builtin = Builtin::IntCompare(op);
                }
            }
            (builtin, cmp_ty, Ty::Bool)
        }
        _ => {
            if tys.contains(&Ty::Float) {
                (Builtin::FloatMath(op), Ty::Float, Ty::Float)
            } else {
                (Builtin::IntMath(op), Ty::Int, Ty::Int)
            }
        }
    };
    let mut args = Vec::with_capacity(2);
    for (i, (node, ty)) in operands.into_iter().enumerate() {
        if ty == operand_ty {
            args.push(node);
            continue;
        }
        match convert(node, ty, operand_ty) {
            Some(n) => args.push(n),
            None => {
                let msg = if matches!(builtin, Builtin::Logical(_)) {
                    format!(
                        "logical operators require boolean operands, not {}",
                        ty.name()
                    )
                } else {
                    format!(
                        "operand {} should be {}, got {}",
                        i + 1,
                        operand_ty.name(),
                        ty.name()
                    )
                };
                return Err(type_error(pos, msg));
            }
        }
    }
    match builtin {
        Builtin::FloatMath(Op::Mod) => {
            return Err(type_error(pos, "modulo cannot be used with floats"))
        }
        Builtin::BoolCompare(o) | Builtin::StringCompare(o)
            if !matches!(o, Op::Equal | Op::NotEqual) =>
        {
            return Err(type_error(
                pos,
                "<, >, <= and >= may apply only to int and float values",
            ))
        }
        _ => {}
    }
    Ok((
        Typed::Call {
            func: Callee::Builtin(builtin),
            args,
        },
        result,
    ))
}
