//! Bodies decoded with a spec, `dynamic` blocks expanded: what
//! `hcldec.Decode(dynblock.Expand(body, ctx), spec, ctx)` computes.
//!
//! A [`Spec`] says which attributes (with their types) and which blocks (one,
//! a list or a set of them, with their labels) a body has, and how they make
//! a value, as `hcldec`'s `ObjectSpec`, `AttrSpec`, `BlockSpec`,
//! `BlockListSpec`, `BlockSetSpec` and `BlockLabelSpec` do. Before a body's
//! items are matched against the spec, each `dynamic "TYPE"` block of a
//! type the spec has becomes one `TYPE` block per element of its `for_each`
//! value, whose content sees the element as `ITERATOR.key` and
//! `ITERATOR.value`; an unknown `for_each` gives one block whose values are
//! all unknown, which makes a list or set of such blocks unknown as a whole.
//!
//! HCL 2.24 decodes bodies as 2.14 does except where values carry marks
//! (not modelled here) and in one order: it reports a bad `iterator` before
//! evaluating `for_each`.
//!
//! HCL reports every problem it finds, in an order that follows Go's map
//! iteration in places; the first error in source and schema order is the
//! answer here.

mod decode;
mod spec;
mod variables;

pub use spec::Spec;

use crate::error::Error;
use crate::eval::Context;
use crate::value::Value;

/// Parses `source` as a body: the variables it refers to under `spec`
/// (`dynblock.VariablesHCLDec`), as a set of strings.
pub fn variables_source(
    source: &str,
    spec: &Spec,
    version: crate::HclVersion,
) -> Result<Value, Error> {
    let body = crate::parser::parse_body_as(source, version)?;
    Ok(variables::body_variables(&body, spec))
}

/// Parses `source` as a body and decodes it with `spec`.
pub fn decode_source(source: &str, spec: &Spec, ctx: &Context) -> Result<Value, Error> {
    let body = crate::parser::parse_body_as(source, ctx.version)?;
    crate::convert::with_messages_of(ctx.version, || decode::decode_root(&body, spec, ctx))
}
