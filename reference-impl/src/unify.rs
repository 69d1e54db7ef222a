//! Type unification as `cty/convert.Unify` and `UnifyUnsafe` do it.
//!
//! API contract (bodies owned by the value-model author).

use crate::types::Type;

/// `convert.UnifyUnsafe(types)`: the common type, or `None`. The returned
/// flags say which inputs need a conversion to reach it.
pub fn unify_unsafe(_types: &[Type]) -> Option<(Type, Vec<bool>)> {
    todo!()
}

/// `convert.Unify(types)` (safe conversions only).
pub fn unify(_types: &[Type]) -> Option<(Type, Vec<bool>)> {
    todo!()
}
