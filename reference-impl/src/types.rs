//! cty's type system: primitive, collection and structural types plus the
//! dynamic pseudo-type.

use std::collections::BTreeMap;

/// A cty type. Object attributes are kept sorted by name, as cty does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    String,
    Number,
    Bool,
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>),
    Tuple(Vec<Type>),
    Object(BTreeMap<String, Type>),
    /// `cty.DynamicPseudoType`: "any type"; only unknown and null values
    /// have it.
    Dynamic,
}
