//! Type conversion as `cty/convert` does it, safe and unsafe.
//!
//! API contract (bodies owned by the value-model author).

use crate::types::Type;
use crate::value::{PathStep, Value};

/// A failed conversion: where inside the value and why, with cty's message
/// (for example "a number is required").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    pub path: Vec<PathStep>,
    pub message: String,
}

/// `convert.Convert(value, want)`: unsafe conversions allowed.
pub fn convert(_value: &Value, _want: &Type) -> Result<Value, ConvertError> {
    todo!()
}

/// `convert.GetConversion(have, want) != nil`: a safe conversion exists.
pub fn can_convert_safely(_have: &Type, _want: &Type) -> bool {
    todo!()
}

/// `convert.GetConversionUnsafe(have, want) != nil`.
pub fn can_convert(_have: &Type, _want: &Type) -> bool {
    todo!()
}
