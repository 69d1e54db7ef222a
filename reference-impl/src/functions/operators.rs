//! The functions behind HCL's operators (cty's `stdlib.AddFunc`,
//! `stdlib.EqualFunc`, ...). HCL converts each operand to the parameter
//! type and then calls the function, so nulls are rejected and unknown
//! operands give unknown results by the generic call rules.

use std::sync::OnceLock;

use super::{static_return_type, CallError, Function, Param};
use crate::ast::{BinaryOp, UnaryOp};
use crate::functions::marks::Policy;
use crate::types::Type;
use crate::value::Value;
use crate::value_ops::OpError;

/// The function implementing a binary operator.
pub(crate) fn binary(op: BinaryOp) -> &'static Function {
    let all = table();
    let i = match op {
        BinaryOp::Or => 0,
        BinaryOp::And => 1,
        BinaryOp::Equal => 2,
        BinaryOp::NotEqual => 3,
        BinaryOp::GreaterThan => 4,
        BinaryOp::GreaterThanOrEqual => 5,
        BinaryOp::LessThan => 6,
        BinaryOp::LessThanOrEqual => 7,
        BinaryOp::Add => 8,
        BinaryOp::Subtract => 9,
        BinaryOp::Multiply => 10,
        BinaryOp::Divide => 11,
        BinaryOp::Modulo => 12,
    };
    &all[i]
}

/// The function implementing a unary operator.
pub(crate) fn unary(op: UnaryOp) -> &'static Function {
    let all = table();
    match op {
        UnaryOp::Not => &all[13],
        UnaryOp::Negate => &all[14],
    }
}

/// The operator's result type (`hclsyntax.Operation.Type`), the type of the
/// unknown value an operator returns when it fails.
pub(crate) fn binary_result_type(op: BinaryOp) -> Type {
    match op {
        BinaryOp::Add
        | BinaryOp::Subtract
        | BinaryOp::Multiply
        | BinaryOp::Divide
        | BinaryOp::Modulo => Type::Number,
        _ => Type::Bool,
    }
}

pub(crate) fn unary_result_type(op: UnaryOp) -> Type {
    match op {
        UnaryOp::Not => Type::Bool,
        UnaryOp::Negate => Type::Number,
    }
}

type Binary = fn(&Value, &Value) -> Result<Value, OpError>;

fn table() -> &'static [Function] {
    static TABLE: OnceLock<Vec<Function>> = OnceLock::new();
    TABLE.get_or_init(|| {
        vec![
            logic("or", |a, b| Ok(a.or(b))),
            logic("and", |a, b| Ok(a.and(b))),
            equality("equal", false),
            equality("notequal", true),
            comparison("greaterthan", Value::greater_than),
            comparison("greaterthanorequalto", Value::greater_than_or_equal_to),
            comparison("lessthan", Value::less_than),
            comparison("lessthanorequalto", Value::less_than_or_equal_to),
            arithmetic("add", Type::Number, Value::add),
            arithmetic("subtract", Type::Number, Value::subtract),
            arithmetic("multiply", Type::Number, Value::multiply),
            arithmetic("divide", Type::Number, Value::divide),
            arithmetic("modulo", Type::Number, Value::modulo),
            Function {
                name: "not",
                params: vec![Param::new("val", Type::Bool)
                    .allow_dynamic_type()
                    .marks(Policy::Own)],
                var_param: None,
                return_type: static_return_type(Type::Bool),
                implementation: Box::new(|args, _| Ok(args[0].not())),
            },
            Function {
                name: "negate",
                params: vec![Param::new("num", Type::Number)
                    .allow_dynamic_type()
                    .marks(Policy::Own)],
                var_param: None,
                return_type: static_return_type(Type::Number),
                implementation: Box::new(|args, _| args[0].negate().map_err(op_error)),
            },
        ]
    })
}

fn two(ty: Type) -> Vec<Param> {
    vec![
        Param::new("a", ty.clone()).allow_dynamic_type(),
        Param::new("b", ty).allow_dynamic_type(),
    ]
}

/// `&&` and `||` allow marks: their operands are primitives, whose own
/// mark is the only one.
fn logic(name: &'static str, f: Binary) -> Function {
    Function {
        name,
        params: two(Type::Bool)
            .into_iter()
            .map(|p| p.marks(Policy::Own))
            .collect(),
        var_param: None,
        return_type: static_return_type(Type::Bool),
        implementation: Box::new(move |args, _| f(&args[0], &args[1]).map_err(op_error)),
    }
}

/// Numeric operands; `result` is the operator's return type.
fn arithmetic(name: &'static str, result: Type, f: Binary) -> Function {
    Function {
        name,
        params: two(Type::Number),
        var_param: None,
        return_type: static_return_type(result),
        implementation: Box::new(move |args, _| f(&args[0], &args[1]).map_err(op_error)),
    }
}

/// The comparison operators take unknown operands (go-cty 1.13+), whose
/// bounds can decide them. In the 2.14 profile (go-cty 1.12, where they
/// did not) no unknown has bounds, so the answer is the same unknown.
/// They allow marks, as `&&` and `||` do.
fn comparison(name: &'static str, f: fn(&Value, &Value) -> Value) -> Function {
    let mut function = arithmetic(name, Type::Bool, |_, _| unreachable!());
    for param in &mut function.params {
        param.allow_unknown = true;
        param.marks = Policy::Own;
    }
    function.implementation = Box::new(move |args, _| Ok(f(&args[0], &args[1])));
    function
}

/// `==` and `!=` take any operands, null and unknown included.
fn equality(name: &'static str, negate: bool) -> Function {
    let any = || {
        Param::new("a", Type::Dynamic)
            .allow_null()
            .allow_unknown()
            .allow_dynamic_type()
    };
    let mut b = any();
    b.name = "b";
    Function {
        name,
        params: vec![any(), b],
        var_param: None,
        return_type: static_return_type(Type::Bool),
        implementation: Box::new(move |args, _| {
            let eq = args[0].equals(&args[1]);
            Ok(if negate { eq.not() } else { eq })
        }),
    }
}

fn op_error(e: OpError) -> CallError {
    CallError::General(e.0)
}
