//! Variable references, literal traversal steps and index expressions:
//! `hcl.Traversal.TraverseAbs` / `TraverseRel`, `hcl.GetAttr` and
//! `hcl.Index` (`ops.go`).

use std::borrow::Cow;

use super::{text_span, Diags, Evaluated, Evaluator};
use crate::ast::{Expr, Traverser};
use crate::convert::convert;
use crate::error::{Error, Span};
use crate::goquote::go_quote;
use crate::types::Type;
use crate::value::Value;
use crate::{Feature, HclVersion};

/// `ScopeTraversalExpr.Value`: looks the root up in the scope and applies
/// the steps, stopping at the first failing step.
pub(super) fn scope_traversal(
    ev: &Evaluator<'_>,
    root: &str,
    steps: &[Traverser],
    span: Span,
) -> Evaluated {
    let Some(value) = ev.lookup(root) else {
        let suggestion = crate::parser::did_you_mean(root, &ev.variable_names());
        let error = Error::eval(
            "Unknown variable",
            format!("There is no variable named {}.{suggestion}", go_quote(root)),
            text_span(span.start, root),
        );
        return (Value::dynamic_unknown(), Diags::error(error));
    };
    apply_steps(Cow::Borrowed(value), steps, ev.version())
}

/// `RelativeTraversalExpr.Value`.
pub(super) fn relative_traversal<'a>(
    ev: &mut Evaluator<'a>,
    source: &'a Expr,
    steps: &[Traverser],
) -> Evaluated {
    let (value, mut diags) = ev.eval(source);
    let (value, step_diags) = apply_steps(Cow::Owned(value), steps, ev.version());
    diags.append(step_diags);
    (value, diags)
}

/// `IndexExpr.Value`: both operands are evaluated before indexing.
pub(super) fn index_expr<'a>(
    ev: &mut Evaluator<'a>,
    collection: &'a Expr,
    key: &'a Expr,
    span: Span,
) -> Evaluated {
    let (coll, mut diags) = ev.eval(collection);
    let (key, key_diags) = ev.eval(key);
    diags.append(key_diags);
    // The brackets and the key between them.
    let bracket = Span::new(collection.span.end, span.end);
    match index(Cow::Owned(coll), &key, bracket, ev.version()) {
        Ok(v) => (v.into_owned(), diags),
        Err(e) => {
            diags.push(e);
            (Value::dynamic_unknown(), diags)
        }
    }
}

/// `hcl.Traversal.TraverseRel`.
fn apply_steps(mut current: Cow<'_, Value>, steps: &[Traverser], version: HclVersion) -> Evaluated {
    for step in steps {
        let result = match step {
            Traverser::Attr { name, span } => get_attr(current, name, *span),
            Traverser::Index { key, span } => index(current, key, *span, version),
        };
        match result {
            Ok(next) => current = next,
            Err(e) => return (Value::dynamic_unknown(), Diags::error(e)),
        }
    }
    (current.into_owned(), Diags::none())
}

/// Which part of a known value a step selects.
enum Select {
    /// An object attribute or a map element.
    Key(String),
    /// A list or tuple element.
    Position(usize),
}

/// A step's outcome before it is applied to a borrowed or owned value.
enum Step {
    Select(Select),
    Result(Value),
}

/// Mirrors `hcl.GetAttr`. A marked value's mark goes onto the attribute
/// (`cty.Value.GetAttr`, `WithSameMarks` for unknowns).
pub(crate) fn get_attr<'v>(
    value: Cow<'v, Value>,
    name: &str,
    span: Span,
) -> Result<Cow<'v, Value>, Error> {
    if value.is_marked() {
        let (value, _) = value.into_owned().unmark();
        // Before HCL 2.21, an attribute of an unknown value lost its mark.
        let keep =
            value.is_known() || crate::profile::current().has(Feature::UnknownResultsKeepMarks);
        let found = get_attr(Cow::Owned(value), name, span)?;
        return Ok(Cow::Owned(found.into_owned().mark_if(keep)));
    }
    let step = get_attr_step(&value, name, span)?;
    Ok(take(value, step))
}

/// Mirrors `hcl.Index`. The collection's mark goes onto the element; the
/// key's too where cty's `Value.Index` sees it (a list, tuple or map
/// whose `HasIndex` is known), not where HCL unmarks the key first (an
/// object's attribute name) or answers an unknown itself.
pub(crate) fn index<'v>(
    collection: Cow<'v, Value>,
    key: &Value,
    span: Span,
    version: HclVersion,
) -> Result<Cow<'v, Value>, Error> {
    if !collection.is_marked() && !key.is_marked() {
        let step = index_step(&collection, key, span, version)?;
        return Ok(take(collection, step));
    }
    let (collection, collection_marked) = collection.into_owned().unmark();
    let (key, key_marked) = key.clone().unmark();
    let ty = collection.ty();
    let key_mark_kept = key_marked
        && key.is_known()
        && match ty {
            Type::Tuple(_) => true,
            Type::List(_) | Type::Map(_) => collection.is_known(),
            _ => false,
        };
    // Before HCL 2.21, an index of an unknown collection or by an unknown
    // key lost the marks.
    let keep =
        (collection.is_known() && key.is_known()) || version.has(Feature::UnknownResultsKeepMarks);
    let found = index(Cow::Owned(collection), &key, span, version)?;
    Ok(Cow::Owned(
        found
            .into_owned()
            .mark_if((collection_marked || key_mark_kept) && keep),
    ))
}

fn take(value: Cow<'_, Value>, step: Step) -> Cow<'_, Value> {
    let select = match step {
        Step::Result(v) => return Cow::Owned(v),
        Step::Select(s) => s,
    };
    match value {
        Cow::Borrowed(v) => Cow::Borrowed(select_ref(v, &select)),
        Cow::Owned(v) => Cow::Owned(select_owned(v, &select)),
    }
}

fn select_ref<'v>(value: &'v Value, select: &Select) -> &'v Value {
    match (value, select) {
        (Value::Object(attrs), Select::Key(k)) => &attrs[k],
        (Value::Map { items, .. }, Select::Key(k)) => &items[k],
        (Value::List { items, .. }, Select::Position(i)) => &items[*i],
        (Value::Tuple(items), Select::Position(i)) => &items[*i],
        _ => unreachable!("a step selects only from a known container"),
    }
}

fn select_owned(value: Value, select: &Select) -> Value {
    let found = match (value, select) {
        (Value::Object(mut attrs), Select::Key(k)) => attrs.remove(k),
        (Value::Map { mut items, .. }, Select::Key(k)) => items.remove(k),
        (Value::List { mut items, .. }, Select::Position(i)) => {
            (*i < items.len()).then(|| items.swap_remove(*i))
        }
        (Value::Tuple(mut items), Select::Position(i)) => {
            (*i < items.len()).then(|| items.swap_remove(*i))
        }
        _ => None,
    };
    found.expect("a step selects only an existing element")
}

const UNSUPPORTED_ATTRIBUTE: &str = "Unsupported attribute";
const INVALID_INDEX: &str = "Invalid index";
/// How every `Invalid index` detail about a key that selects nothing begins.
const NO_ELEMENT: &str = "The given key does not identify an element in this collection value";

fn no_attribute(name: &str) -> String {
    format!(
        "This object does not have an attribute named {}.",
        go_quote(name)
    )
}

fn get_attr_step(value: &Value, name: &str, span: Span) -> Result<Step, Error> {
    let unsupported = |detail: String| Error::eval(UNSUPPORTED_ATTRIBUTE, detail, span);
    if value.is_null() {
        return Err(Error::eval(
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.",
            span,
        ));
    }
    // cty normalizes attribute names and map keys.
    let name = crate::text::nfc(name);
    // Known objects are by far the most common case: skip building the type.
    if let Value::Object(attrs) = value {
        return if attrs.contains_key(name.as_ref()) {
            Ok(Step::Select(Select::Key(name.into_owned())))
        } else {
            Err(unsupported(no_attribute(&name)))
        };
    }
    match value.ty() {
        Type::Object(attrs) => match attrs.get(name.as_ref()) {
            None => Err(unsupported(no_attribute(&name))),
            Some(attr_ty) if !value.is_known() => Ok(Step::Result(Value::unknown(attr_ty.clone()))),
            Some(_) => Ok(Step::Select(Select::Key(name.into_owned()))),
        },
        Type::Map(elem) => match value {
            Value::Map { items, .. } => {
                if items.contains_key(name.as_ref()) {
                    Ok(Step::Select(Select::Key(name.into_owned())))
                } else {
                    Err(Error::eval(
                        "Missing map element",
                        format!(
                            "This map does not have an element with the key {}.",
                            go_quote(&name)
                        ),
                        span,
                    ))
                }
            }
            _ => Ok(Step::Result(Value::unknown(*elem))),
        },
        Type::Dynamic => Ok(Step::Result(Value::dynamic_unknown())),
        Type::List(elem) if matches!(*elem, Type::Object(_)) => {
            let has = matches!(&*elem, Type::Object(a) if a.contains_key(name.as_ref()));
            Err(unsupported(if has {
                format!(
                    "Can't access attributes on a list of objects. Did you mean to access attribute {} for a specific element of the list, or across all elements of the list?",
                    go_quote(&name)
                )
            } else {
                "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?"
                    .to_string()
            }))
        }
        Type::Set(elem) if matches!(*elem, Type::Object(_)) => Err(unsupported(
            "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?".to_string(),
        )),
        ty if ty.is_primitive() => Err(unsupported(format!(
            "Can't access attributes on a primitive-typed value ({}).",
            ty.friendly_name()
        ))),
        _ => Err(unsupported(
            "This value does not have any attributes.".to_string(),
        )),
    }
}

fn index_step(
    collection: &Value,
    key: &Value,
    span: Span,
    version: HclVersion,
) -> Result<Step, Error> {
    let invalid = |detail: &str| Error::eval(INVALID_INDEX, detail, span);
    if collection.is_null() {
        return Err(Error::eval(
            "Attempt to index null value",
            "This value is null, so it does not have any indices.",
            span,
        ));
    }
    if key.is_null() {
        return Err(invalid("Can't use a null value as an indexing key."));
    }
    let ty = collection.ty();
    let key_ty = key.ty();
    if key_ty == Type::Dynamic || ty == Type::Dynamic {
        return Ok(Step::Result(Value::dynamic_unknown()));
    }
    match &ty {
        Type::List(_) | Type::Tuple(_) | Type::Map(_) => {
            let want = if matches!(ty, Type::Map(_)) {
                Type::String
            } else {
                Type::Number
            };
            let key = convert(key, &want).map_err(|e| {
                Error::eval(
                    INVALID_INDEX,
                    format!("{NO_ELEMENT}: {}.", e.message),
                    span,
                )
            })?;
            index_sequence_or_map(collection, &ty, &key, span)
        }
        Type::Object(attrs) => {
            let was_number = key_ty == Type::Number;
            let key = convert(key, &Type::String).map_err(|e| {
                Error::eval(
                    INVALID_INDEX,
                    format!("{NO_ELEMENT}: {}.", e.message),
                    span,
                )
            })?;
            let Value::String(name) = key else {
                return Ok(Step::Result(Value::dynamic_unknown()));
            };
            // HCL 2.14 gives up on an unknown object; 2.24 first checks
            // the attribute, then gives an unknown of its type.
            if !collection.is_known() && !version.has(Feature::UnknownObjectAttributeChecked) {
                return Ok(Step::Result(Value::dynamic_unknown()));
            }
            if let (Some(attr_ty), false) = (attrs.get(&name), collection.is_known()) {
                Ok(Step::Result(Value::unknown(attr_ty.clone())))
            } else if attrs.contains_key(&name) {
                Ok(Step::Select(Select::Key(name)))
            } else if was_number {
                Err(invalid(&format!(
                    "{NO_ELEMENT}. An object only supports looking up attributes by name, not by numeric index."
                )))
            } else {
                Err(invalid(&format!("{NO_ELEMENT}.")))
            }
        }
        Type::Set(_) => Err(invalid(
            "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.",
        )),
        _ => Err(invalid("This value does not have any indices.")),
    }
}

/// The list, tuple and map cases of `hcl.Index`, with the key already
/// converted (number for sequences, string for maps).
fn index_sequence_or_map(
    collection: &Value,
    ty: &Type,
    key: &Value,
    span: Span,
) -> Result<Step, Error> {
    let invalid = |detail: &str| Error::eval(INVALID_INDEX, detail, span);
    let elem_unknown = || match ty {
        Type::Tuple(_) => Value::dynamic_unknown(),
        _ => Value::unknown(ty.element_type().cloned().unwrap_or(Type::Dynamic)),
    };
    // `cty.Value.HasIndex`: unknown when the answer depends on an unknown.
    let has = match (ty, key, collection) {
        (_, Value::Unknown(..), _) => None,
        (Type::Map(_), Value::String(k), Value::Map { items, .. }) => Some(items.contains_key(k)),
        (Type::Map(_), _, _) => None,
        (Type::Tuple(elems), Value::Number(n), _) => {
            Some(matches!(n.to_i64_exact(), Some(i) if i >= 0 && (i as u64) < elems.len() as u64))
        }
        (_, Value::Number(n), Value::List { items, .. }) => {
            Some(matches!(n.to_i64_exact(), Some(i) if i >= 0 && (i as u64) < items.len() as u64))
        }
        _ => None,
    };
    match has {
        None => Ok(Step::Result(elem_unknown())),
        Some(true) => Ok(match (key, collection) {
            (Value::String(k), _) => Step::Select(Select::Key(k.clone())),
            (Value::Number(n), Value::Tuple(_) | Value::List { .. }) => {
                let i = n.to_i64_exact().unwrap_or(0) as usize;
                Step::Select(Select::Position(i))
            }
            // An unknown tuple: the element type at that position.
            (Value::Number(n), _) => {
                let i = n.to_i64_exact().unwrap_or(0) as usize;
                match ty {
                    Type::Tuple(elems) => Step::Result(Value::unknown(elems[i].clone())),
                    _ => Step::Result(elem_unknown()),
                }
            }
            _ => Step::Result(elem_unknown()),
        }),
        Some(false) => {
            if let (Type::List(_) | Type::Tuple(_), Value::Number(n)) = (ty, key) {
                if n.is_infinite() || !n.is_integer() {
                    return Err(invalid(&format!(
                        "{NO_ELEMENT}: indexing a sequence requires a whole number, but the given index has a fractional part."
                    )));
                }
                let zero = crate::number::Number::from_i64(0);
                if n.cmp(&zero).is_lt() {
                    return Err(invalid(&format!(
                        "{NO_ELEMENT}: a negative number is not a valid index for a sequence."
                    )));
                }
                let len = match (ty, collection) {
                    (Type::Tuple(elems), _) => Some(elems.len()),
                    (_, Value::List { items, .. }) => Some(items.len()),
                    _ => None,
                };
                if let Some(len) = len {
                    let len_number = crate::number::Number::from_u64(len as u64);
                    if !n.cmp(&len_number).is_gt() {
                        return Err(invalid(&if len == 0 {
                            format!("{NO_ELEMENT}: the collection has no elements.")
                        } else {
                            format!("{NO_ELEMENT}: the given index is greater than or equal to the length of the collection.")
                        }));
                    }
                }
            }
            Err(invalid(&format!("{NO_ELEMENT}.")))
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::test_support::check_table;
    use crate::HclVersion;

    // Expected outcomes checked against hashicorp/hcl 2.14.1.
    #[test]
    fn traversal_table() {
        check_table(
            &[
                ("o.nested.x", "OK number 1"),
                ("o[0]", "OK string \"zero\""),
                ("o[1]", "ERR Invalid index @ 1:2:1-1:5:4"),
                ("m.c", "ERR Missing map element @ 1:2:1-1:4:3"),
                ("uo.zz", "ERR Unsupported attribute @ 1:3:2-1:6:5"),
                ("uo[\"zz\"]", "OK dynamic unknown(dynamic)"),
                ("nul[0]", "ERR Attempt to index null value @ 1:4:3-1:7:6"),
                ("lo.a", "ERR Unsupported attribute @ 1:3:2-1:5:4"),
                ("ln[\"1\"]", "OK number 2"),
                ("ln[3]", "ERR Invalid index @ 1:3:2-1:6:5"),
                ("ul[-1]", "OK string unknown(string)"),
                ("ut[1]", "OK number unknown(number)"),
                ("st[0]", "ERR Invalid index @ 1:3:2-1:6:5"),
                ("  nope", "ERR Unknown variable @ 1:3:2-1:7:6"),
                ("e\u{301}x + 1", "ERR Unknown variable @ 1:1:0-1:3:4"),
                ("m[ln[0]]", "ERR Invalid index @ 1:2:1-1:9:8"),
                (
                    "(null).a",
                    "ERR Attempt to get attribute from null value @ 1:7:6-1:9:8",
                ),
            ],
            HclVersion::V2_14,
        );
    }

    // Checked against Terraform 1.15.5 (HCL 2.24.0).
    #[test]
    fn traversal_table_2_24() {
        check_table(
            &[
                ("uo[\"zz\"]", "ERR Invalid index @ 1:3:2-1:9:8"),
                ("uo[\"a\"]", "OK number unknown(number)"),
                ("uo.a", "OK number unknown(number)"),
            ],
            HclVersion::V2_24,
        );
    }
}
