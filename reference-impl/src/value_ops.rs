//! cty's operations on values (`value_ops.go`): equality, arithmetic,
//! comparison and logic, each handling unknown operands as cty does.
//! Operands must already have the operation's parameter types (the evaluator
//! converts them first, as HCL's operator functions do).
//!
//! API contract (bodies owned by the value-model author).

use crate::value::Value;

/// Why an operation has no result. The message is user-facing, e.g. "can't
/// divide zero by zero or infinity by infinity".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpError(pub String);

impl Value {
    /// `cty.Value.Equals`: a bool, or an unknown bool.
    pub fn equals(&self, _other: &Value) -> Value {
        todo!()
    }
    pub fn add(&self, _other: &Value) -> Result<Value, OpError> {
        todo!()
    }
    pub fn subtract(&self, _other: &Value) -> Result<Value, OpError> {
        todo!()
    }
    pub fn multiply(&self, _other: &Value) -> Result<Value, OpError> {
        todo!()
    }
    pub fn divide(&self, _other: &Value) -> Result<Value, OpError> {
        todo!()
    }
    pub fn modulo(&self, _other: &Value) -> Result<Value, OpError> {
        todo!()
    }
    pub fn negate(&self) -> Result<Value, OpError> {
        todo!()
    }
    pub fn not(&self) -> Value {
        todo!()
    }
    pub fn and(&self, _other: &Value) -> Value {
        todo!()
    }
    pub fn or(&self, _other: &Value) -> Value {
        todo!()
    }
    pub fn less_than(&self, _other: &Value) -> Value {
        todo!()
    }
    pub fn less_than_or_equal_to(&self, _other: &Value) -> Value {
        todo!()
    }
    pub fn greater_than(&self, _other: &Value) -> Value {
        todo!()
    }
    pub fn greater_than_or_equal_to(&self, _other: &Value) -> Value {
        todo!()
    }
}
