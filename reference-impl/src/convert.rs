//! Type conversion as `cty/convert` does it, safe and unsafe.
//!
//! cty builds a conversion for a pair of types once and then applies it to
//! values; some results depend on that split (a conversion built for one
//! type can be applied to a value of another, as `Unify` does), so it is
//! kept here: [`get_conversion`] builds a [`Conversion`], which
//! [`Conversion::apply`] runs.

mod message;
mod plan;
mod unify;

use std::fmt;

use crate::types::Type;
use crate::value::{PathStep, Value};

pub use message::mismatch_message;
pub(crate) use plan::{get_plan, Plan};
pub use unify::{unify, unify_unsafe, unify_with_conversions};

/// A failed conversion: where inside the value and why, with cty's message
/// (for example "a number is required").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    pub path: Vec<PathStep>,
    pub message: String,
}

impl ConvertError {
    pub(crate) fn at(path: &[PathStep], message: impl Into<String>) -> ConvertError {
        ConvertError {
            path: path.to_vec(),
            message: message.into(),
        }
    }
}

/// The message alone, as `error.Error()` of cty's path errors reads.
impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConvertError {}

/// A conversion function as `convert.GetConversion` and `convert.Unify`
/// return them (`convert.Conversion`).
#[derive(Clone, Debug)]
pub struct Conversion(Kind);

#[derive(Clone, Debug)]
enum Kind {
    /// A conversion built for a pair of types.
    Plan(Plan),
    /// Unify's answer when a dynamic type is involved: every value becomes
    /// `cty.DynamicVal`.
    ToDynamicUnknown,
    /// Unify's composition: the first conversion must succeed, then the
    /// second is applied to the original value.
    CheckThen(Box<Kind>, Box<Kind>),
}

impl Conversion {
    pub(crate) fn from_plan(plan: Plan) -> Conversion {
        Conversion(Kind::Plan(plan))
    }

    pub(crate) fn to_dynamic_unknown() -> Conversion {
        Conversion(Kind::ToDynamicUnknown)
    }

    /// `first` is applied for its errors only; the result is `then` applied
    /// to the same input (as `unifyTuplesAsList` composes them).
    pub(crate) fn check_then(first: Conversion, then: Conversion) -> Conversion {
        Conversion(Kind::CheckThen(Box::new(first.0), Box::new(then.0)))
    }

    /// Runs the conversion on `value`.
    pub fn apply(&self, value: &Value) -> Result<Value, ConvertError> {
        apply_kind(&self.0, value)
    }
}

fn apply_kind(kind: &Kind, value: &Value) -> Result<Value, ConvertError> {
    match kind {
        Kind::Plan(plan) => plan.apply(value, &mut Vec::new()),
        Kind::ToDynamicUnknown => Ok(Value::dynamic_unknown()),
        Kind::CheckThen(first, then) => {
            apply_kind(first, value)?;
            apply_kind(then, value)
        }
    }
}

/// `convert.Convert(value, want)`: unsafe conversions allowed.
pub fn convert(value: &Value, want: &Type) -> Result<Value, ConvertError> {
    let have = value.ty();
    if have == *want {
        return Ok(value.clone());
    }
    match get_plan(&have, want, true) {
        Some(plan) => plan.apply(value, &mut Vec::new()),
        None => Err(ConvertError::at(&[], mismatch_message(&have, want))),
    }
}

/// `convert.GetConversion(have, want)`: safe conversions only.
///
/// As in cty, there is no conversion between two equal primitive types or
/// two equal map types of primitive elements; check for equal types first.
pub fn get_conversion(have: &Type, want: &Type) -> Option<Conversion> {
    get_plan(have, want, false).map(Conversion::from_plan)
}

/// `convert.GetConversionUnsafe(have, want)`.
pub fn get_conversion_unsafe(have: &Type, want: &Type) -> Option<Conversion> {
    get_plan(have, want, true).map(Conversion::from_plan)
}

/// `convert.GetConversion(have, want) != nil`: a safe conversion exists
/// (false for equal primitive types, as in cty).
pub fn can_convert_safely(have: &Type, want: &Type) -> bool {
    get_plan(have, want, false).is_some()
}

/// `convert.GetConversionUnsafe(have, want) != nil` (false for equal
/// primitive types, as in cty).
pub fn can_convert(have: &Type, want: &Type) -> bool {
    get_plan(have, want, true).is_some()
}

#[cfg(test)]
mod tests;
