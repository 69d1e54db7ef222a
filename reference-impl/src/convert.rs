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

use std::cell::Cell;
use std::fmt;

use crate::types::Type;
use crate::value::{PathStep, Value};
use crate::{Feature, HclVersion};

pub use message::mismatch_message;
pub(crate) use plan::{get_plan, Plan};
pub use unify::{unify, unify_unsafe, unify_with_conversions};

thread_local! {
    static NAME_BOTH_TYPES: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with the conversion messages of the profile's go-cty: from
/// go-cty 1.14 (so in the HCL 2.24 profile) a value of a plainly wrong
/// type is "string required, but have tuple", where go-cty 1.12 says
/// "string required". Conversions are made deep inside functions that know
/// no profile, so the evaluations of a profile run inside this. Outside
/// any, messages are go-cty 1.12's. The profile's Unicode tables
/// ([`crate::text::with_unicode`]) and its refinements of unknown values
/// (go-cty 1.13+, so HCL 2.24 only; [`crate::value::with_refinements`])
/// apply inside it too.
pub fn with_messages_of<R>(version: HclVersion, f: impl FnOnce() -> R) -> R {
    let saved = NAME_BOTH_TYPES.with(|c| c.replace(version.has(Feature::ConversionNamesBothTypes)));
    let result = crate::profile::with_profile(version, || {
        crate::text::with_unicode(version.unicode(), || {
            crate::value::with_refinements(version.has(Feature::Refinements), f)
        })
    });
    NAME_BOTH_TYPES.with(|c| c.set(saved));
    result
}

fn messages_name_both_types() -> bool {
    NAME_BOTH_TYPES.with(Cell::get)
}

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

impl ConvertError {
    /// The error as Terraform writes a variable's (`tfdiags.FormatError`):
    /// the path (`.name`, `["key"]`, `[0]`) before the message when there
    /// is one. `value` is what was converted to `want`: cty steps into an
    /// object converted to an object by attribute, into anything else by
    /// index.
    pub fn with_terraform_path(&self, value: &Value, want: &Type) -> String {
        if self.path.is_empty() {
            return self.message.clone();
        }
        let mut out = String::new();
        let (mut got, mut want) = (value.ty(), want.clone());
        for step in &self.path {
            let (next_got, next_want) = match step {
                PathStep::Key(name) => {
                    if got.is_object() && want.is_object() {
                        out.push('.');
                        out.push_str(name);
                    } else {
                        out.push_str(&format!("[{}]", crate::goquote::go_quote(name)));
                    }
                    (step_type(&got, name), step_type(&want, name))
                }
                PathStep::Index(i) => {
                    out.push_str(&format!("[{}]", go_shortest_g(*i)));
                    (position_type(&got, *i), position_type(&want, *i))
                }
            };
            (got, want) = (next_got, next_want);
        }
        format!("{out}: {}", self.message)
    }
}

/// The type of an attribute or element `name` of a value of type `ty`.
fn step_type(ty: &Type, name: &str) -> Type {
    ty.attribute_type(name)
        .or(ty.element_type())
        .map_or(Type::Dynamic, |t| t.unwrap_optional().0.clone())
}

/// The type of the element at `i` of a value of type `ty`.
fn position_type(ty: &Type, i: u64) -> Type {
    match ty {
        Type::Tuple(elems) => usize::try_from(i)
            .ok()
            .and_then(|i| elems.get(i))
            .cloned()
            .unwrap_or(Type::Dynamic),
        _ => ty.element_type().cloned().unwrap_or(Type::Dynamic),
    }
}

/// A whole number as Go's `big.Float.Text('g', -1)` writes it: the
/// shortest digits, with an exponent from a million on (`1e+06`).
fn go_shortest_g(n: u64) -> String {
    let digits = n.to_string();
    if n < 1_000_000 {
        return digits;
    }
    let exponent = digits.len() - 1;
    let mantissa = digits.trim_end_matches('0');
    let (first, rest) = mantissa.split_at(1);
    let fraction = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    format!("{first}{fraction}e+{exponent:02}")
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
        Kind::Plan(plan) => apply_plan(plan, value),
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
        Some(plan) => apply_plan(&plan, value),
        None => Err(ConvertError::at(&[], mismatch_message(&have, want))),
    }
}

/// Runs a conversion plan on a value that may carry marks. cty's
/// conversions unmark each value they meet and mark the converted one the
/// same way, so every mark stays where it was: the marks come off with
/// their paths and go back onto the result at the same paths (a path into
/// a set marks the set, one into a dropped attribute is gone).
fn apply_plan(plan: &Plan, value: &Value) -> Result<Value, ConvertError> {
    if !value.contains_marked() {
        return plan.apply(value, &mut Vec::new());
    }
    let (plain, paths) = value.clone().unmark_deep_with_paths();
    let converted = plan.apply(&plain, &mut Vec::new())?;
    Ok(converted.mark_with_paths(&paths))
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
