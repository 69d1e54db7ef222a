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

/// API contract (bodies owned by the value-model author).
impl Type {
    pub fn list(elem: Type) -> Type {
        Type::List(Box::new(elem))
    }
    pub fn set(elem: Type) -> Type {
        Type::Set(Box::new(elem))
    }
    pub fn map(elem: Type) -> Type {
        Type::Map(Box::new(elem))
    }
    /// Element type of a list, set or map.
    pub fn element_type(&self) -> Option<&Type> {
        match self {
            Type::List(e) | Type::Set(e) | Type::Map(e) => Some(e),
            _ => None,
        }
    }
    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }
    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }
    /// `cty.Type.HasDynamicTypes`.
    pub fn has_dynamic_types(&self) -> bool {
        todo!()
    }
    /// `cty.Type.FriendlyName`: "string", "list of number", "object", ...
    pub fn friendly_name(&self) -> String {
        todo!()
    }
}
