//! Evaluation of a type-checked tree, as HIL's `evalVisitor`: every node
//! is evaluated, children first and left to right (a conditional evaluates
//! both branches, `&&` and `||` both operands); the first error stops it.

use super::check::{Builtin, Callee, Typed};
use super::convert::{float_to_int, format_float, parse_bool, parse_float, parse_int};
use super::parse::Op;
use super::value::Val;
use super::{Fault, Scope};
use crate::goquote::{go_quote, go_quote_bytes};

pub fn eval(node: &Typed, scope: &Scope) -> Result<Val, Fault> {
    crate::stack::deeper(|| match node {
        Typed::Literal(v) => Ok(v.clone()),
        Typed::Variable(name) => scope
            .lookup(name)
            .cloned()
            .ok_or_else(|| Fault::apply(format!("unknown variable accessed: {name}"))),
        Typed::Index { name, key } => {
            let key = eval(key, scope)?;
            let target = scope
                .lookup(name)
                .ok_or_else(|| Fault::apply(format!("unknown variable accessed: {name}")))?;
            index(name, target, &key)
        }
        Typed::Call { func, args } => {
            let mut values = Vec::with_capacity(args.len());
            for a in args {
                values.push(eval(a, scope)?);
            }
            super::budget_step(&values)?;
            let result = match func {
                Callee::Builtin(b) => builtin(*b, &values),
                Callee::Function(f) => (f.call)(&values),
            };
            result.map_err(|e| {
                if e == super::funcs::UNSUPPORTED {
                    Fault::unsupported(format!("the {} function here", func.name()))
                } else {
                    Fault::apply(format!("{}: {e}", func.name()))
                }
            })
        }
        Typed::Conditional {
            cond,
            then,
            otherwise,
        } => {
            let c = eval(cond, scope)?;
            let t = eval(then, scope)?;
            let o = eval(otherwise, scope)?;
            Ok(if c == Val::Bool(true) { t } else { o })
        }
        Typed::Output(parts) => {
            let mut values = Vec::with_capacity(parts.len());
            for p in parts {
                values.push(eval(p, scope)?);
            }
            if values.len() == 1 && matches!(values[0], Val::List(_) | Val::Map(_)) {
                return Ok(values.pop().expect("one part"));
            }
            let mut out = Vec::new();
            for (i, v) in values.iter().enumerate().rev() {
                match v {
                    Val::Str(s) => {
                        out.splice(0..0, s.iter().copied());
                    }
                    other => {
                        return Err(Fault::apply(format!(
                            "invalid output with {} value at index {i}: {other:?}",
                            other.ty().name()
                        )))
                    }
                }
            }
            Ok(Val::Str(out))
        }
    })
}

fn index(name: &str, target: &Val, key: &Val) -> Result<Val, Fault> {
    match (target, key) {
        (Val::List(items), Val::Int(i)) => {
            if items.is_empty() {
                return Err(Fault::apply("list is empty"));
            }
            usize::try_from(*i)
                .ok()
                .and_then(|i| items.get(i))
                .cloned()
                .ok_or_else(|| {
                    Fault::apply(format!(
                        "index {i} out of range for list {name} (max {})",
                        items.len()
                    ))
                })
        }
        (Val::Map(items), Val::Str(k)) => {
            if items.is_empty() {
                return Err(Fault::apply("map is empty"));
            }
            items.get(k).cloned().ok_or_else(|| {
                Fault::apply(format!(
                    "key {} does not exist in map {name}",
                    go_quote_bytes(k)
                ))
            })
        }
        (other, _) => Err(Fault::apply(format!(
            "target {} for indexing must be ast.TypeList or ast.TypeMap, is {}",
            go_quote(name),
            other.ty().name()
        ))),
    }
}

const MSG_DIVIDE_BY_ZERO: &str = "divide by zero";

/// HIL's `__builtin_*` functions.
fn builtin(b: Builtin, args: &[Val]) -> Result<Val, String> {
    let one = args.first();
    match (b, one) {
        (Builtin::FloatToInt, Some(Val::Float(f))) => return Ok(Val::Int(float_to_int(*f))),
        (Builtin::FloatToString, Some(Val::Float(f))) => {
            return Ok(Val::text(format_float(*f, 'g', -1)))
        }
        (Builtin::IntToFloat, Some(Val::Int(i))) => return Ok(Val::Float(*i as f64)),
        (Builtin::IntToString, Some(Val::Int(i))) => return Ok(Val::text(i.to_string())),
        (Builtin::StringToInt, Some(Val::Str(s))) => return parse_int(s).map(Val::Int),
        (Builtin::StringToFloat, Some(Val::Str(s))) => return parse_float(s).map(Val::Float),
        (Builtin::StringToBool, Some(Val::Str(s))) => return parse_bool(s).map(Val::Bool),
        (Builtin::BoolToString, Some(Val::Bool(v))) => return Ok(Val::text(v.to_string())),
        _ => {}
    }
    match (b, args) {
        (Builtin::IntMath(op), [Val::Int(a), Val::Int(c)]) => int_math(op, *a, *c).map(Val::Int),
        (Builtin::FloatMath(op), [Val::Float(a), Val::Float(c)]) => Ok(Val::Float(match op {
            Op::Add => a + c,
            Op::Sub => a - c,
            Op::Mul => a * c,
            Op::Div => a / c,
            _ => *a,
        })),
        (Builtin::IntCompare(op), [Val::Int(a), Val::Int(c)]) => Ok(Val::Bool(ordered(op, a, c))),
        (Builtin::FloatCompare(op), [Val::Float(a), Val::Float(c)]) => {
            Ok(Val::Bool(ordered(op, a, c)))
        }
        (Builtin::BoolCompare(op), [Val::Bool(a), Val::Bool(c)]) => equality(op, a == c),
        (Builtin::StringCompare(op), [Val::Str(a), Val::Str(c)]) => equality(op, a == c),
        (Builtin::Logical(op), [Val::Bool(a), Val::Bool(c)]) => Ok(Val::Bool(match op {
            Op::And => *a && *c,
            _ => *a || *c,
        })),
        _ => Err(format!("unexpected arguments {args:?}")),
    }
}

/// Go's int arithmetic: wrapping, with division and modulo by zero errors.
fn int_math(op: Op, a: i64, b: i64) -> Result<i64, String> {
    Ok(match op {
        Op::Add => a.wrapping_add(b),
        Op::Sub => a.wrapping_sub(b),
        Op::Mul => a.wrapping_mul(b),
        Op::Div => {
            if b == 0 {
                return Err(MSG_DIVIDE_BY_ZERO.to_string());
            }
            a.wrapping_div(b)
        }
        Op::Mod => {
            if b == 0 {
                return Err(MSG_DIVIDE_BY_ZERO.to_string());
            }
            a.wrapping_rem(b)
        }
        _ => a,
    })
}

fn ordered<T: PartialOrd>(op: Op, a: &T, b: &T) -> bool {
    match op {
        Op::Equal => a == b,
        Op::NotEqual => a != b,
        Op::Less => a < b,
        Op::LessEqual => a <= b,
        Op::Greater => a > b,
        _ => a >= b,
    }
}

fn equality(op: Op, equal: bool) -> Result<Val, String> {
    match op {
        Op::Equal => Ok(Val::Bool(equal)),
        Op::NotEqual => Ok(Val::Bool(!equal)),
        _ => Err("invalid comparison operation".to_string()),
    }
}
