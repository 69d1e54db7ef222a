//! `[for ...]` and `{for ...}` (`hclsyntax.ForExpr`).

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

use super::{Diags, Evaluated, Evaluator};
use crate::ast::{Expr, ForExpr};
use crate::convert::convert;
use crate::error::{Error, Span};
use crate::goquote::go_quote;
use crate::types::Type;
use crate::value::Value;
use crate::Feature;

const INVALID_CONDITION: &str = "Invalid 'for' condition";
const INVALID_KEY: &str = "Invalid object key";

/// Mirrors `hclsyntax.ForExpr.Value`.
pub(super) fn for_expr<'a>(ev: &mut Evaluator<'a>, f: &'a ForExpr, _span: Span) -> Evaluated {
    let (collection, mut diags) = ev.eval(&f.collection);
    if collection.is_null() {
        diags.push(Error::eval(
            "Iteration over null value",
            "A null value cannot be used as the collection in a 'for' expression.",
            f.collection.span,
        ));
        return (Value::dynamic_unknown(), diags);
    }
    let ty = collection.ty();
    if ty == Type::Dynamic {
        return (Value::dynamic_unknown(), diags);
    }
    // The collection's own mark goes onto the result, as do the marks of
    // every key and of every condition value (even one that excludes its
    // element).
    let (collection, collection_marked) = collection.unmark();
    if ty.is_primitive() {
        diags.push(Error::eval(
            "Iteration over non-iterable value",
            format!(
                "A value of type {} cannot be used as the collection in a 'for' expression.",
                ty.friendly_name()
            ),
            f.collection.span,
        ));
        return (Value::dynamic_unknown(), diags);
    }
    // HCL 2.14 stops at an unknown collection before checking the
    // condition; HCL 2.24 checks the condition first and adds its mark.
    let known = collection.is_known();
    if !known
        && !ev
            .version()
            .has(Feature::ForConditionBeforeUnknownCollection)
    {
        return (Value::dynamic_unknown(), diags);
    }
    let mut condition_marked = false;

    // A first check of the condition with both variables unknown catches
    // conditions that are wrong whatever the element.
    if let Some(cond) = &f.condition {
        let (result, cond_diags) = with_bindings(
            ev,
            f,
            Value::dynamic_unknown(),
            Value::dynamic_unknown(),
            |ev| ev.eval(cond),
        );
        let cond_failed = cond_diags.has_errors();
        diags.append(cond_diags);
        if result.is_null() {
            diags.push(Error::eval("Condition is null", NULL_CONDITION, cond.span));
            return (Value::dynamic_unknown(), diags);
        }
        condition_marked = result.is_marked();
        if let Err(e) = convert(&result, &Type::Bool) {
            diags.push(invalid_condition(cond, &e.message));
            return (Value::dynamic_unknown(), diags);
        }
        if cond_failed {
            return (Value::dynamic_unknown(), diags);
        }
    }

    if !known {
        let marked = collection_marked || condition_marked;
        return (Value::dynamic_unknown().mark_if(marked), diags);
    }
    let elements = collection.elements();
    drop(collection);
    match &f.key {
        Some(key_expr) => object_result(ev, f, key_expr, elements, diags, collection_marked),
        None => tuple_result(ev, f, elements, diags, collection_marked),
    }
}

/// The `{for ...}` form: one attribute per element, or with `...` a tuple
/// of values per key.
fn object_result<'a>(
    ev: &mut Evaluator<'a>,
    f: &'a ForExpr,
    key_expr: &'a Expr,
    elements: Vec<(Value, Value)>,
    mut diags: Diags,
    mut marked: bool,
) -> Evaluated {
    let mut vals: BTreeMap<String, Value> = BTreeMap::new();
    let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut known = true;
    for (k, v) in elements {
        let step = with_bindings(ev, f, k, v, |ev| {
            let mut diags = Diags::none();
            if let Some(cond) = &f.condition {
                let (include, cond_diags) = ev.eval(cond);
                diags.append(cond_diags);
                if include.is_null() {
                    return ObjectStep::Unknown(diags, Some(null_condition(cond)));
                }
                let (include, include_marked) = include.unmark();
                marked |= include_marked;
                match convert(&include, &Type::Bool) {
                    Err(e) => {
                        return ObjectStep::Unknown(
                            diags,
                            Some(invalid_condition(cond, &e.message)),
                        )
                    }
                    Ok(Value::Bool(false)) => return ObjectStep::Skip(diags),
                    Ok(Value::Bool(true)) => {}
                    Ok(_) => return ObjectStep::Unknown(diags, None),
                }
            }
            let (key, key_diags) = ev.eval(key_expr);
            diags.append(key_diags);
            if key.is_null() {
                let error = Error::eval(
                    INVALID_KEY,
                    "Key expression in 'for' expression must not produce a null value.",
                    key_expr.span,
                );
                return ObjectStep::Unknown(diags, Some(error));
            }
            let (key, key_marked) = key.unmark();
            marked |= key_marked;
            if !key.is_known() {
                return ObjectStep::Unknown(diags, None);
            }
            let key = match convert(&key, &Type::String) {
                Ok(Value::String(s)) => s,
                Ok(_) => return ObjectStep::Unknown(diags, None),
                Err(e) => {
                    let error = Error::eval(
                        INVALID_KEY,
                        format!(
                            "The key expression produced an invalid result: {}.",
                            e.message
                        ),
                        key_expr.span,
                    );
                    return ObjectStep::Unknown(diags, Some(error));
                }
            };
            let (value, value_diags) = ev.eval(&f.value);
            diags.append(value_diags);
            ObjectStep::Item(diags, key, value)
        });
        match step {
            ObjectStep::Skip(d) => diags.append(d),
            ObjectStep::Unknown(d, error) => {
                diags.append(d);
                // Only the first element that makes the result unknown
                // reports why.
                if let Some(error) = error.filter(|_| known) {
                    diags.push(error);
                }
                known = false;
            }
            ObjectStep::Item(d, key, value) => {
                diags.append(d);
                if f.group {
                    groups.entry(key).or_default().push(value);
                    continue;
                }
                match vals.entry(key) {
                    Entry::Vacant(slot) => {
                        slot.insert(value);
                    }
                    Entry::Occupied(slot) => diags.push(Error::eval(
                        "Duplicate object key",
                        format!(
                            "Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                            go_quote(slot.key())
                        ),
                        key_expr.span,
                    )),
                }
            }
        }
    }
    if !known {
        // Before HCL 2.21, without the marks.
        let marked = marked && ev.version().has(Feature::UnknownResultsKeepMarks);
        return (Value::dynamic_unknown().mark_if(marked), diags);
    }
    if f.group {
        vals = groups
            .into_iter()
            .map(|(k, vs)| (k, Value::tuple(vs)))
            .collect();
    }
    (Value::object(vals).mark_if(marked), diags)
}

enum ObjectStep {
    /// The condition excluded the element.
    Skip(Diags),
    /// The element makes the result unknown, with the error that explains
    /// why when there is one.
    Unknown(Diags, Option<Error>),
    Item(Diags, String, Value),
}

/// The `[for ...]` form.
fn tuple_result<'a>(
    ev: &mut Evaluator<'a>,
    f: &'a ForExpr,
    elements: Vec<(Value, Value)>,
    mut diags: Diags,
    mut marked: bool,
) -> Evaluated {
    let mut vals = Vec::with_capacity(elements.len());
    let mut known = true;
    for (k, v) in elements {
        let step = with_bindings(ev, f, k, v, |ev| {
            let mut diags = Diags::none();
            if let Some(cond) = &f.condition {
                let (include, cond_diags) = ev.eval(cond);
                diags.append(cond_diags);
                if include.is_null() {
                    return (diags, TupleStep::Unknown(Some(null_condition(cond))));
                }
                let (include, include_marked) = include.unmark();
                marked |= include_marked;
                // Unlike the object form, an unknown condition is accepted
                // before its type is checked.
                if !include.is_known() {
                    return (diags, TupleStep::Unknown(None));
                }
                match convert(&include, &Type::Bool) {
                    Err(e) => {
                        let error = invalid_condition(cond, &e.message);
                        return (diags, TupleStep::Unknown(Some(error)));
                    }
                    Ok(Value::Bool(false)) => return (diags, TupleStep::Skip),
                    _ => {}
                }
            }
            let (value, value_diags) = ev.eval(&f.value);
            diags.append(value_diags);
            (diags, TupleStep::Item(value))
        });
        let (d, step) = step;
        diags.append(d);
        match step {
            TupleStep::Skip => {}
            TupleStep::Unknown(error) => {
                if let Some(error) = error.filter(|_| known) {
                    diags.push(error);
                }
                known = false;
            }
            TupleStep::Item(value) => vals.push(value),
        }
    }
    if !known {
        // Before HCL 2.21, without the marks.
        let marked = marked && ev.version().has(Feature::UnknownResultsKeepMarks);
        return (Value::dynamic_unknown().mark_if(marked), diags);
    }
    (Value::tuple(vals).mark_if(marked), diags)
}

enum TupleStep {
    Skip,
    Unknown(Option<Error>),
    Item(Value),
}

/// Runs `body` in a child scope binding the key and value variables.
fn with_bindings<'a, R>(
    ev: &mut Evaluator<'a>,
    f: &'a ForExpr,
    key: Value,
    value: Value,
    body: impl FnOnce(&mut Evaluator<'a>) -> R,
) -> R {
    let mark = ev.locals.len();
    if let Some(name) = &f.key_var {
        ev.locals.push((name.as_str(), key));
    }
    ev.locals.push((f.value_var.as_str(), value));
    let result = body(ev);
    ev.locals.truncate(mark);
    result
}

const NULL_CONDITION: &str = "The value of the 'if' clause must not be null.";

fn null_condition(cond: &Expr) -> Error {
    Error::eval(INVALID_CONDITION, NULL_CONDITION, cond.span)
}

fn invalid_condition(cond: &Expr, message: &str) -> Error {
    Error::eval(
        INVALID_CONDITION,
        format!("The 'if' clause value is invalid: {message}."),
        cond.span,
    )
}

#[cfg(test)]
mod tests {
    use crate::eval::test_support::check_table;
    use crate::HclVersion;

    // Expected outcomes checked against hashicorp/hcl 2.14.1.
    #[test]
    fn for_table() {
        check_table(
            &[
                ("[for i, x in l: i]", "OK tuple([number,number,number]) tuple[0, 1, 2]"),
                ("[for k, v in st: k]", "OK tuple([string,string]) tuple[\"a\", \"b\"]"),
                ("[for x in l: x if nb]", "ERR Condition is null @ 1:19:18-1:21:20"),
                (
                    "[for x in l: x if x == \"a\" ? null : true]",
                    "ERR Invalid 'for' condition @ 1:19:18-1:41:40",
                ),
                ("[for x in l: x if x == \"b\" ? ub : true]", "OK dynamic unknown(dynamic)"),
                ("{for x in l: \"k\" => x}", "ERR Duplicate object key @ 1:14:13-1:17:16"),
                (
                    "{for i, x in sdup: x => i...}",
                    "OK object({\"a\"=tuple([number,number]),\"b\"=tuple([number])}) object{\"a\": tuple[0, 2], \"b\": tuple[1]}",
                ),
                ("{for x in l: us => x}", "OK dynamic unknown(dynamic)"),
                ("{for x in l: [x] => x}", "ERR Invalid object key @ 1:14:13-1:17:16"),
                ("[for x in nl: x]", "ERR Iteration over null value @ 1:11:10-1:13:12"),
                ("[for x in s: x]", "ERR Iteration over non-iterable value @ 1:11:10-1:12:11"),
                ("[for x in ul: x]", "OK dynamic unknown(dynamic)"),
            ],
            HclVersion::V2_14,
        );
    }
}
