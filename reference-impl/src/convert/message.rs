//! Why a conversion is impossible (`mismatch_msg.go`).

use super::get_plan;
use crate::goquote::go_quote;
use crate::types::Type;

/// `convert.MismatchMessage(got, want)`: the message `Convert` reports when
/// no conversion exists. Where cty picks among several offending object
/// attributes in random order, the first by name is reported here.
pub fn mismatch_message(got: &Type, want: &Type) -> String {
    match (got, want) {
        (Type::Object(_), Type::Object(_)) => objects(got, want),
        (Type::Tuple(_), Type::List(e)) if **e == Type::Dynamic => {
            "all list elements must have the same type".to_string()
        }
        (Type::Tuple(_), Type::Set(e)) if **e == Type::Dynamic => {
            "all set elements must have the same type".to_string()
        }
        (Type::Object(_), Type::Map(e)) if **e == Type::Dynamic => {
            "all map elements must have the same type".to_string()
        }
        (Type::Tuple(_) | Type::Object(_), _) if want.is_collection() => from_structural(got, want),
        _ if got.is_collection() && want.is_collection() => from_collection(got, want),
        _ if super::messages_name_both_types() && !likely_to_confuse(got, want) => format!(
            "{} required, but have {}",
            want.friendly_name(),
            got.friendly_name()
        ),
        _ => required(want),
    }
}

/// go-cty 1.18's `typesAreLikelyToCauseConfusion`: whether naming the type
/// a value has beside the one it needs would mislead (a string that is
/// not a number is a wrong value, not a wrong type).
fn likely_to_confuse(got: &Type, want: &Type) -> bool {
    if got.is_primitive() != want.is_primitive() || *want == Type::String {
        return false;
    }
    if matches!(
        (got, want),
        (Type::Number, Type::Bool) | (Type::Bool, Type::Number)
    ) {
        return false;
    }
    if let (Some(g), Some(w)) = (got.element_type(), want.element_type()) {
        if got.is_collection()
            && want.is_collection()
            && !g.has_dynamic_types()
            && w.has_dynamic_types()
        {
            return false;
        }
    }
    // cty also exempts a tuple where an object is wanted; the check of the
    // reverse it means to make tests `got` twice and never holds.
    !(got.is_tuple() && want.is_object())
}

fn required(want: &Type) -> String {
    format!("{} required", want.friendly_name_for_constraint())
}

/// Mirrors mismatchMessageObjects: an absent optional attribute is fine.
fn objects(got: &Type, want: &Type) -> String {
    let (Type::Object(got_attrs), Type::Object(want_attrs)) = (got, want) else {
        return required(want);
    };
    let mut missing: Vec<&String> = Vec::new();
    let mut unsafe_mismatch: Option<String> = None;
    let mut safe_mismatch: Option<String> = None;
    for (name, want_ty) in want_attrs {
        let (want_ty, optional) = want_ty.unwrap_optional();
        let Some(got_ty) = got_attrs.get(name) else {
            if !optional {
                missing.push(name);
            }
            continue;
        };
        if got_ty == want_ty || unsafe_mismatch.is_some() {
            continue;
        }
        // Both messages describe the same attribute; build it once so deep
        // mismatches stay linear.
        let mut described: Option<String> = None;
        let mut describe = || {
            described
                .get_or_insert_with(|| {
                    format!(
                        "attribute {}: {}",
                        go_quote(name),
                        mismatch_message(got_ty, want_ty)
                    )
                })
                .clone()
        };
        if get_plan(got_ty, want_ty, true).is_none() {
            unsafe_mismatch = Some(describe());
        }
        if safe_mismatch.is_some() {
            continue;
        }
        if get_plan(got_ty, want_ty, false).is_none() {
            safe_mismatch = Some(describe());
        }
    }
    match missing.as_slice() {
        [] => unsafe_mismatch
            .or(safe_mismatch)
            .unwrap_or_else(|| "incorrect object attributes".to_string()),
        [one] => format!("attribute {} is required", go_quote(one)),
        [a, b] => format!(
            "attributes {} and {} are required",
            go_quote(a),
            go_quote(b)
        ),
        [init @ .., last] => {
            let mut list = String::new();
            for name in init {
                list.push_str(&go_quote(name));
                list.push_str(", ");
            }
            format!("attributes {list}and {} are required", go_quote(last))
        }
    }
}

/// Mirrors mismatchMessageCollectionsFromStructural.
fn from_structural(got: &Type, want: &Type) -> String {
    let Some(want_elem) = want.element_type() else {
        return required(want);
    };
    match (got, want) {
        (Type::Tuple(elems), Type::List(_) | Type::Set(_)) => {
            for (i, got_elem) in elems.iter().enumerate() {
                if got_elem == want_elem || get_plan(got_elem, want_elem, true).is_some() {
                    continue;
                }
                return format!("element {i}: {}", mismatch_message(got_elem, want_elem));
            }
            all_elements(want_elem)
        }
        (Type::Object(attrs), Type::Map(_)) => {
            for (name, got_elem) in attrs {
                if got_elem == want_elem || get_plan(got_elem, want_elem, true).is_some() {
                    continue;
                }
                return format!(
                    "element {}: {}",
                    go_quote(name),
                    mismatch_message(got_elem, want_elem)
                );
            }
            all_elements(want_elem)
        }
        _ => required(want),
    }
}

fn all_elements(want_elem: &Type) -> String {
    format!(
        "all elements must be {}",
        want_elem.friendly_name_for_constraint()
    )
}

/// Mirrors mismatchMessageCollectionsFromCollections.
fn from_collection(got: &Type, want: &Type) -> String {
    let noun = match (got, want) {
        (Type::List(_) | Type::Set(_), Type::List(_)) => "list element type",
        (Type::List(_) | Type::Set(_), Type::Set(_)) => "set element type",
        (Type::Map(_), Type::Map(_)) => "map element type",
        _ => return required(want),
    };
    match (got.element_type(), want.element_type()) {
        (Some(g), Some(w)) => format!("incorrect {noun}: {}", mismatch_message(g, w)),
        _ => required(want),
    }
}
