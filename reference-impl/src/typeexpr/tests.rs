use super::*;
use crate::value::Value;

fn parse(source: &str) -> Result<Constraint, Error> {
    parse_constraint(source, HclVersion::V2_24)
}

#[test]
fn constructors_build_types_with_optional_attributes_marked() {
    let c = parse("list(object({a = string, b = optional(number)}))").unwrap();
    let expected = Type::list(Type::Object(BTreeMap::from([
        ("a".to_string(), Type::String),
        ("b".to_string(), Type::Optional(Box::new(Type::Number))),
    ])));
    assert_eq!(c.ty, expected);
    assert!(c.defaults.is_none());
    assert_eq!(
        parse("map(tuple([any, set(bool)]))").unwrap().ty,
        Type::map(Type::Tuple(vec![Type::Dynamic, Type::set(Type::Bool)]))
    );
}

#[test]
fn malformed_constraints_are_parse_errors_naming_the_problem() {
    for (source, detail) in [
        (
            "list",
            "The list type constructor requires one argument specifying the element type.",
        ),
        (
            "string(1)",
            "Primitive type keyword \"string\" does not expect arguments.",
        ),
        (
            "optional(string)",
            "Keyword \"optional\" is valid only as a modifier for object type attributes.",
        ),
        (
            "foo(string)",
            "Keyword \"foo\" is not a valid type constructor.",
        ),
        (
            "object({\"a\" = string})",
            "Object constructor map keys must be attribute names.",
        ),
        (
            "object({a = string, a = number})",
            "Object constructor map keys must be unique.",
        ),
        (
            "tuple(string)",
            "Tuple type constructor requires a list of element types.",
        ),
    ] {
        let e = parse(source).unwrap_err();
        assert_eq!(
            (e.phase, e.summary.as_str(), e.detail.as_str()),
            (crate::Phase::Parse, INVALID_TYPE, detail),
            "{source}"
        );
    }
    // HCL 2.14 took the last of two equal attribute names.
    assert!(parse_constraint("object({a = string, a = number})", HclVersion::V2_14).is_ok());
}

#[test]
fn a_default_must_be_a_constant_of_the_attribute_type() {
    let e = parse("object({a = optional(number, \"x\")})").unwrap_err();
    assert_eq!(e.summary, "Invalid default value for optional attribute");
    let e = parse("object({a = optional(number, v)})").unwrap_err();
    assert_eq!(e.summary, "Variables not allowed");
}

#[test]
fn deep_constraints_are_read_and_deeper_ones_refused() {
    let deep = |n: usize| format!("{}string{}", "list(".repeat(n), ")".repeat(n));
    let c = parse(&deep(2_000)).unwrap();
    let v = as_variable(
        &Value::list(Type::String, Vec::new()),
        &c,
        HclVersion::V2_24,
    );
    assert!(v.is_err(), "a list of strings is not a list of lists");
    let n = crate::parser::MAX_NESTING_DEPTH + 1;
    assert_eq!(
        parse(&deep(n)).unwrap_err().summary,
        "Expression nested too deeply"
    );
}

#[test]
fn missing_optional_attributes_become_null_or_their_default() {
    let c = parse("object({a = optional(string, \"z\"), b = optional(number)})").unwrap();
    let given = Value::object(BTreeMap::new());
    for version in [HclVersion::V2_14, HclVersion::V2_24] {
        let v = as_variable(&given, &c, version).unwrap();
        let want = Value::object(BTreeMap::from([
            ("a".to_string(), Value::string("z")),
            ("b".to_string(), Value::Null(Type::Number)),
        ]));
        assert!(v.raw_equals(&want), "{v:?}");
    }
}
