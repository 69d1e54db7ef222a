//! HIL's values and types (`ast.Variable`, `ast.Type`). Ints are Go
//! `int` (64 bits) and floats Go `float64`: here float64 is the language's
//! own number type, so `f64` models it exactly. Strings are Go strings,
//! bytes that need not be UTF-8 ([`super::gostr`]).

use std::collections::BTreeMap;

use super::convert::format_float;
pub use super::gostr::GoString;

/// A value (HIL's `ast.Variable` with its Go value).
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Str(GoString),
    Int(i64),
    Float(f64),
    Bool(bool),
    List(Vec<Val>),
    Map(BTreeMap<GoString, Val>),
}

/// A type (`ast.Type`); `Any` appears only in function signatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Any,
    Bool,
    Str,
    Int,
    Float,
    List,
    Map,
}

impl Ty {
    /// `ast.Type.String` (the stringer name).
    pub fn name(self) -> &'static str {
        match self {
            Ty::Any => "TypeAny",
            Ty::Bool => "TypeBool",
            Ty::Str => "TypeString",
            Ty::Int => "TypeInt",
            Ty::Float => "TypeFloat",
            Ty::List => "TypeList",
            Ty::Map => "TypeMap",
        }
    }

    /// `ast.Type.Printable`.
    pub fn printable(self) -> &'static str {
        match self {
            Ty::Any => "any type",
            Ty::Bool => "type bool",
            Ty::Str => "type string",
            Ty::Int => "type int",
            Ty::Float => "type float",
            Ty::List => "type list",
            Ty::Map => "type map",
        }
    }
}

impl Val {
    /// A string value of this text.
    pub fn text(s: impl Into<String>) -> Val {
        Val::Str(s.into().into_bytes())
    }

    pub fn ty(&self) -> Ty {
        match self {
            Val::Str(_) => Ty::Str,
            Val::Int(_) => Ty::Int,
            Val::Float(_) => Ty::Float,
            Val::Bool(_) => Ty::Bool,
            Val::List(_) => Ty::List,
            Val::Map(_) => Ty::Map,
        }
    }

    /// The Go type name `%T` prints for the value as functions receive it.
    pub fn go_type(&self) -> &'static str {
        match self {
            Val::Str(_) => "string",
            Val::Int(_) => "int",
            Val::Float(_) => "float64",
            Val::Bool(_) => "bool",
            Val::List(_) => "[]ast.Variable",
            Val::Map(_) => "map[string]ast.Variable",
        }
    }

    /// The value as mapstructure's weak decoding turns a primitive into a
    /// string (`hil.InterfaceToVariable`): bools become `1`/`0`, floats
    /// `strconv.FormatFloat(f, 'f', -1, 64)`.
    pub fn weak_string(&self) -> Option<GoString> {
        match self {
            Val::Str(s) => Some(s.clone()),
            Val::Int(i) => Some(i.to_string().into_bytes()),
            Val::Float(f) => Some(format_float(*f, 'f', -1).into_bytes()),
            Val::Bool(b) => Some(if *b { b"1" } else { b"0" }.to_vec()),
            _ => None,
        }
    }
}
