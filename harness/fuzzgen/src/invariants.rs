//! Properties of the reference's answers that hold without a second
//! engine: results are well-formed cty values, error ranges lie inside the
//! source, types are consistent when the scope becomes unknown, and the
//! two HCL version profiles only differ where they are meant to.

use hclspec_protocol::{Outcome, Request, TypedValue, Version};
use hclspec_reference::text::normalize_string;
use hclspec_reference::{Type, Value};

use crate::tokens::tokenize;

/// How deep the value checks walk; deeper parts are not checked.
pub const MAX_CHECK_DEPTH: usize = 256;

/// Why a value breaks cty's invariants, if it does.
pub fn check_value(v: &Value) -> Result<(), String> {
    check_at(v, "", 0)?;
    // Encoding and decoding again gives the same value and type.
    let tv = TypedValue::encode(v);
    let back = tv
        .decode()
        .map_err(|e| format!("the encoded result does not decode: {e}"))?;
    if back.ty() != v.ty() || !back.raw_equals(v) {
        return Err(format!(
            "the result changes through its JSON encoding: {}",
            tv.to_json()
        ));
    }
    Ok(())
}

fn check_at(v: &Value, at: &str, depth: usize) -> Result<(), String> {
    if depth > MAX_CHECK_DEPTH {
        return Ok(());
    }
    let nfc = |s: &str, what: &str| {
        if normalize_string(s.to_string()) == s {
            Ok(())
        } else {
            Err(format!("{what} at `{at}` is not NFC-normalized: {s:?}"))
        }
    };
    let element = |item: &Value, elem: &Type, where_: String| -> Result<(), String> {
        // cty gives a collection the first known element's type, so only
        // nulls and unknowns sit where the element type is dynamic.
        let ok = match item {
            Value::Null(t) | Value::Unknown(t, ..) => t == elem,
            _ if *elem == Type::Dynamic => false,
            known => known.ty().conforms_to(elem),
        };
        if !ok {
            return Err(format!(
                "element at `{where_}` has type {} in a collection of {}",
                item.ty(),
                elem
            ));
        }
        check_at(item, &where_, depth + 1)
    };
    match v {
        Value::String(s) => nfc(s, "string"),
        Value::List { elem, items } => {
            for (i, item) in items.iter().enumerate() {
                element(item, elem, format!("{at}[{i}]"))?;
            }
            Ok(())
        }
        Value::Set { elem, items } => {
            for (i, item) in items.iter().enumerate() {
                if item.contains_marked() {
                    return Err(format!("set element at `{at}[{i}]` carries a mark"));
                }
                element(item, elem, format!("{at}[{i}]"))?;
            }
            let canonical = Value::set(elem.clone(), items.clone());
            if !canonical.raw_equals(v) {
                return Err(format!(
                    "set at `{at}` holds duplicates or is out of cty's order"
                ));
            }
            Ok(())
        }
        Value::Map { elem, items } => {
            for (k, item) in items {
                nfc(k, "map key")?;
                element(item, elem, format!("{at}[{k:?}]"))?;
            }
            Ok(())
        }
        Value::Tuple(items) => {
            for (i, item) in items.iter().enumerate() {
                check_at(item, &format!("{at}[{i}]"), depth + 1)?;
            }
            Ok(())
        }
        Value::Object(attrs) => {
            for (k, item) in attrs {
                nfc(k, "attribute name")?;
                check_at(item, &format!("{at}.{k}"), depth + 1)?;
            }
            Ok(())
        }
        Value::Marked(inner) if inner.is_marked() => Err(format!("a mark around a mark at `{at}`")),
        Value::Marked(inner) => check_at(inner, at, depth + 1),
        Value::Null(_) | Value::Unknown(..) | Value::Bool(_) | Value::Number(_) => Ok(()),
    }
}

/// Why an error's range does not lie inside the source, if it does not.
pub fn check_range(req: &Request, outcome: &Outcome) -> Result<(), String> {
    let Outcome::Error(e) = outcome else {
        return Ok(());
    };
    let Some(range) = &e.range else {
        return Ok(());
    };
    let len = req.source.len() as u64;
    let (s, t) = (range.start, range.end);
    if s.byte > t.byte || t.byte > len {
        return Err(format!(
            "error range {}..{} is not inside the {len}-byte source",
            s.byte, t.byte
        ));
    }
    for p in [s, t] {
        if !req.source.is_char_boundary(p.byte as usize) {
            return Err(format!("error position {} splits a character", p.byte));
        }
        let line = req.source[..p.byte as usize].matches('\n').count() as u64 + 1;
        if p.line != line {
            return Err(format!(
                "error position at byte {} says line {}, the source has it on line {line}",
                p.byte, p.line
            ));
        }
    }
    Ok(())
}

/// The request with every variable replaced by an unknown of its type.
pub fn unknown_scope(req: &Request) -> Option<Request> {
    let mut out = req.clone();
    for tv in out.scope.values_mut() {
        let ty = tv.decode_type().ok()?;
        *tv = TypedValue::encode(&Value::unknown(ty));
    }
    Some(out)
}

/// Whether the result for the known scope conforms to the type reported
/// with the scope unknown: an unknown's type is a promise about the value
/// it stands for.
pub fn check_unknown_consistency(known: &Outcome, unknown: &Outcome) -> Result<(), String> {
    let (Outcome::Result(k), Outcome::Result(u)) = (known, unknown) else {
        return Ok(());
    };
    let (Ok(kt), Ok(ut)) = (k.decode_type(), u.decode_type()) else {
        return Ok(());
    };
    if kt.conforms_to(&ut) {
        Ok(())
    } else {
        Err(format!(
            "with the scope known the result has type {kt}; with it unknown, type {ut}"
        ))
    }
}

/// Whether a source can behave differently under HCL 2.14 and 2.24: binary
/// operators (2.24 reports conversion errors before the operands' own and
/// short-circuits `&&` and `||`), `::` (namespaced functions), the `can`
/// and `try` functions (unknown handling), conditionals (two null results
/// under an unknown condition), indexing (an unknown object's attributes),
/// `for` conditions (2.24 checks an `if` clause over an unknown collection,
/// where 2.14 answers unknown without looking at it) and the functions whose
/// Terraform 1.15 versions differ do.
pub fn version_sensitive(source: &str) -> bool {
    let tokens: Vec<&str> = tokenize(source)
        .into_iter()
        .filter(|t| !t.trim().is_empty())
        .collect();
    tokens.iter().enumerate().any(|(i, t)| {
        let after_operand = i > 0
            && tokens[i - 1]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ']' || c == ')');
        matches!(
            *t,
            "+" | "-"
                | "*"
                | "/"
                | "%"
                | "=="
                | "!="
                | "<"
                | ">"
                | "<="
                | ">="
                | "&&"
                | "||"
                | "::"
                | "can"
                | "try"
                | "?"
                | "if"
        ) || (matches!(*t, "[" | "%{" | "%%{") && after_operand)
            || CHANGED_IN_TERRAFORM_1_15.contains(t)
    })
}

/// The functions whose HCL 2.24 profile (Terraform 1.15) answers differ, or
/// which only that profile has.
const CHANGED_IN_TERRAFORM_1_15: &[&str] = &[
    "element",
    "sort",
    "startswith",
    "format",
    "formatlist",
    "regex",
    "regexall",
    "replace",
    "formatdate",
    "timeadd",
    "timecmp",
    "jsonencode",
    "jsondecode",
    "yamldecode",
    "templatestring",
    "timestamp",
    "plantimestamp",
    "uuid",
    "bcrypt",
    "ephemeralasnull",
    "basename",
    "dirname",
    "pathexpand",
    "abspath",
    "file",
    "filebase64",
    "fileexists",
    "fileset",
    "filemd5",
    "filesha1",
    "filesha256",
    "filesha512",
    "filebase64sha256",
    "filebase64sha512",
    "templatefile",
];

/// The request under another version.
pub fn with_version(req: &Request, v: Version) -> Request {
    let mut r = req.clone();
    r.hcl_version = Some(v);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use hclspec_protocol::{ErrorBody, ErrorPhase, Kind, Position, Range};
    use serde_json::json;
    use std::collections::BTreeMap;

    #[test]
    fn well_formed_values_pass() {
        let values = [
            Value::list(
                Type::String,
                vec![Value::string("a"), Value::null(Type::String)],
            ),
            Value::set(
                Type::Number,
                vec![Value::int(2), Value::int(1), Value::int(2)],
            ),
            Value::object(BTreeMap::from([(
                "é".to_string(),
                Value::unknown(Type::Bool),
            )])),
        ];
        for v in values {
            assert_eq!(check_value(&v), Ok(()), "{v:?}");
        }
    }

    #[test]
    fn broken_values_fail() {
        let bad = [
            (
                Value::List {
                    elem: Type::String,
                    items: vec![Value::int(1)],
                },
                "has type",
            ),
            (
                Value::List {
                    elem: Type::String,
                    items: vec![Value::null(Type::Dynamic)],
                },
                "has type",
            ),
            (
                Value::Set {
                    elem: Type::Number,
                    items: vec![Value::int(1), Value::int(1)],
                },
                "duplicates",
            ),
            (Value::String("e\u{301}".into()), "NFC"),
        ];
        for (v, want) in bad {
            let err = check_value(&v).unwrap_err();
            assert!(err.contains(want), "{v:?}: {err}");
        }
    }

    #[test]
    fn ranges_must_lie_in_the_source() {
        let req = Request {
            id: "0".into(),
            kind: Kind::Expression,
            source: "é\n+".into(),
            scope: Default::default(),
            hcl_version: None,
            ..Default::default()
        };
        let err = |start: (u64, u64), end: (u64, u64)| {
            Outcome::Error(ErrorBody {
                phase: ErrorPhase::Parse,
                summary: "x".into(),
                detail: String::new(),
                range: Some(Range {
                    start: Position {
                        line: start.0,
                        column: 1,
                        byte: start.1,
                    },
                    end: Position {
                        line: end.0,
                        column: 1,
                        byte: end.1,
                    },
                }),
                library_panic: false,
            })
        };
        assert_eq!(check_range(&req, &err((2, 3), (2, 4))), Ok(()));
        assert!(check_range(&req, &err((1, 1), (1, 1))).is_err(), "splits é");
        assert!(
            check_range(&req, &err((1, 0), (2, 9))).is_err(),
            "past the end"
        );
        assert!(
            check_range(&req, &err((1, 3), (2, 4))).is_err(),
            "wrong line"
        );
    }

    #[test]
    fn unknown_consistency() {
        let tv = |ty: serde_json::Value, v: serde_json::Value, unknown: Vec<serde_json::Value>| {
            Outcome::Result(TypedValue {
                ty,
                value: v,
                unknown,
                ..Default::default()
            })
        };
        let known = tv(json!(["list", "string"]), json!(["a"]), vec![]);
        let dynamic = tv(json!("dynamic"), json!(null), vec![json!([])]);
        let list = tv(json!(["list", "string"]), json!(null), vec![json!([])]);
        let tuple = tv(json!(["tuple", ["string"]]), json!(null), vec![json!([])]);
        assert!(check_unknown_consistency(&known, &dynamic).is_ok());
        assert!(check_unknown_consistency(&known, &list).is_ok());
        assert!(check_unknown_consistency(&known, &tuple).is_err());
        assert!(version_sensitive("a && b") && version_sensitive("1+x"));
        assert!(!version_sensitive("[for x in xs : x[*].a]"));
        assert!(version_sensitive("{for m in xs: \"\" => m if 0}"));
        // `%{` after an operand is the modulo operator before an object.
        assert!(version_sensitive("r%{d=\"\"}"));
    }
}
