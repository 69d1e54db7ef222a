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
    /// The type of an optional attribute (`optional(T)`), only ever as an
    /// attribute type of an object in a type constraint that values are
    /// converted to: cty keeps the set of optional attribute names beside
    /// the attribute types. No value has a type containing it; conversion
    /// removes it (`WithoutOptionalAttributesDeep`).
    Optional(Box<Type>),
}

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
    /// An object type from (name, type) pairs; names are NFC-normalized as
    /// `cty.Object` does.
    pub fn object<I, S>(attrs: I) -> Type
    where
        I: IntoIterator<Item = (S, Type)>,
        S: Into<String>,
    {
        Type::Object(
            attrs
                .into_iter()
                .map(|(k, t)| (crate::text::normalize_string(k.into()), t))
                .collect(),
        )
    }
    /// Element type of a list, set or map.
    pub fn element_type(&self) -> Option<&Type> {
        match self {
            Type::List(e) | Type::Set(e) | Type::Map(e) => Some(e),
            _ => None,
        }
    }
    /// The type of an object attribute, if this is an object type having it.
    pub fn attribute_type(&self, name: &str) -> Option<&Type> {
        match self {
            Type::Object(attrs) => attrs.get(name),
            _ => None,
        }
    }
    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }
    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }
    pub fn is_list(&self) -> bool {
        matches!(self, Type::List(_))
    }
    pub fn is_set(&self) -> bool {
        matches!(self, Type::Set(_))
    }
    pub fn is_map(&self) -> bool {
        matches!(self, Type::Map(_))
    }
    pub fn is_tuple(&self) -> bool {
        matches!(self, Type::Tuple(_))
    }
    pub fn is_object(&self) -> bool {
        matches!(self, Type::Object(_))
    }
    pub fn is_dynamic(&self) -> bool {
        matches!(self, Type::Dynamic)
    }
    /// Whether values of this type can be iterated as elements
    /// (`cty.Value.CanIterateElements` for unmarked values).
    pub fn is_iterable(&self) -> bool {
        self.is_collection() || self.is_tuple() || self.is_object()
    }

    /// `cty.Type.HasDynamicTypes`.
    pub fn has_dynamic_types(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::String | Type::Number | Type::Bool => false,
            Type::List(e) | Type::Set(e) | Type::Map(e) => e.has_dynamic_types(),
            Type::Tuple(elems) => elems.iter().any(Type::has_dynamic_types),
            Type::Object(attrs) => attrs.values().any(Type::has_dynamic_types),
            Type::Optional(t) => t.has_dynamic_types(),
        }
    }

    /// An object attribute's type without its optional marker, and whether
    /// it is optional.
    pub fn unwrap_optional(&self) -> (&Type, bool) {
        match self {
            Type::Optional(t) => (t, true),
            t => (t, false),
        }
    }

    /// `cty.Type.WithoutOptionalAttributesDeep`.
    pub fn without_optional(&self) -> Type {
        match self {
            Type::String | Type::Number | Type::Bool | Type::Dynamic => self.clone(),
            Type::List(e) => Type::list(e.without_optional()),
            Type::Set(e) => Type::set(e.without_optional()),
            Type::Map(e) => Type::map(e.without_optional()),
            Type::Tuple(elems) => Type::Tuple(elems.iter().map(Type::without_optional).collect()),
            Type::Object(attrs) => Type::Object(
                attrs
                    .iter()
                    .map(|(k, t)| (k.clone(), t.without_optional()))
                    .collect(),
            ),
            Type::Optional(t) => t.without_optional(),
        }
    }

    /// Whether an optional attribute appears anywhere inside.
    pub fn has_optional(&self) -> bool {
        match self {
            Type::String | Type::Number | Type::Bool | Type::Dynamic => false,
            Type::List(e) | Type::Set(e) | Type::Map(e) => e.has_optional(),
            Type::Tuple(elems) => elems.iter().any(Type::has_optional),
            Type::Object(attrs) => attrs.values().any(Type::has_optional),
            Type::Optional(_) => true,
        }
    }

    /// `cty.Type.FriendlyName`: "string", "list of number", "object", ...
    pub fn friendly_name(&self) -> String {
        self.friendly(false)
    }

    /// `cty.Type.FriendlyNameForConstraint`: as `friendly_name`, but the
    /// dynamic type reads "any type" (or "any single type" as an element).
    pub fn friendly_name_for_constraint(&self) -> String {
        self.friendly(true)
    }

    fn friendly(&self, constraint: bool) -> String {
        let collection = |prefix: &str, elem: &Type| {
            let name = if constraint && *elem == Type::Dynamic {
                "any single type".to_string()
            } else {
                elem.friendly(constraint)
            };
            format!("{prefix} of {name}")
        };
        match self {
            Type::String => "string".to_string(),
            Type::Number => "number".to_string(),
            Type::Bool => "bool".to_string(),
            Type::List(e) => collection("list", e),
            Type::Set(e) => collection("set", e),
            Type::Map(e) => collection("map", e),
            Type::Tuple(_) => "tuple".to_string(),
            Type::Object(_) => "object".to_string(),
            Type::Dynamic if constraint => "any type".to_string(),
            Type::Dynamic => "dynamic".to_string(),
            Type::Optional(t) => t.friendly(constraint),
        }
    }

    /// Whether `self` conforms to `want` (`cty.Type.TestConformance`
    /// reports no errors): equal, or equal after treating every dynamic
    /// type in `want` as a wildcard.
    pub fn conforms_to(&self, want: &Type) -> bool {
        match (self, want) {
            (_, Type::Dynamic) => true,
            (Type::Object(given), Type::Object(wanted)) => {
                given.len() == wanted.len()
                    && wanted
                        .iter()
                        .all(|(k, w)| given.get(k).is_some_and(|g| g.conforms_to(w)))
            }
            (Type::Tuple(given), Type::Tuple(wanted)) => {
                given.len() == wanted.len()
                    && given.iter().zip(wanted).all(|(g, w)| g.conforms_to(w))
            }
            (Type::List(g), Type::List(w))
            | (Type::Map(g), Type::Map(w))
            | (Type::Set(g), Type::Set(w)) => g.conforms_to(w),
            _ => self == want,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn friendly_names() {
        let obj = Type::object([("a", Type::String)]);
        let rows: &[(Type, &str, &str)] = &[
            (Type::String, "string", "string"),
            (Type::Number, "number", "number"),
            (Type::Bool, "bool", "bool"),
            (Type::Dynamic, "dynamic", "any type"),
            (Type::list(Type::String), "list of string", "list of string"),
            (Type::map(Type::Number), "map of number", "map of number"),
            (Type::set(Type::Bool), "set of bool", "set of bool"),
            (
                Type::list(Type::Dynamic),
                "list of dynamic",
                "list of any single type",
            ),
            (
                Type::map(Type::list(Type::Dynamic)),
                "map of list of dynamic",
                "map of list of any single type",
            ),
            (Type::Tuple(vec![Type::String]), "tuple", "tuple"),
            (obj.clone(), "object", "object"),
            (Type::set(obj), "set of object", "set of object"),
        ];
        for (ty, name, constraint) in rows {
            assert_eq!(ty.friendly_name(), *name);
            assert_eq!(ty.friendly_name_for_constraint(), *constraint);
        }
    }

    #[test]
    fn dynamic_types_and_conformance() {
        let with_dyn = Type::object([("a", Type::list(Type::Dynamic))]);
        assert!(with_dyn.has_dynamic_types());
        assert!(!Type::Tuple(vec![Type::String]).has_dynamic_types());
        let concrete = Type::object([("a", Type::list(Type::Number))]);
        assert!(concrete.conforms_to(&with_dyn));
        assert!(!with_dyn.conforms_to(&concrete));
        assert!(!Type::object([("b", Type::list(Type::Number))]).conforms_to(&with_dyn));
    }
}
