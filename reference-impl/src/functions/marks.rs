//! Marked arguments at the call boundary (go-cty's `function.Call`), and
//! Terraform's `sensitive`, `nonsensitive` and `issensitive`.
//!
//! A parameter without `AllowMarked` gets its argument with every mark
//! taken off, and those marks go onto the whole result, including an early
//! unknown one. A parameter with `AllowMarked` gets the argument as it is
//! and the function decides; each such parameter of go-cty 1.18's stdlib
//! and Terraform 1.15.5's functions says in its [`Param::marks`] what the
//! function does with the marks, so that an implementation never sees a
//! mark on an argument itself (only on the elements inside one, where the
//! function keeps them) unless it handles marks:
//!
//! - most take off only the argument's own mark and put it on the result,
//!   leaving the marks of the elements in place (`concat`, `element`,
//!   `length`, `merge`, `values`, ...);
//! - `flatten` does that at every level of nested sequences;
//! - `lookup`'s key and default, `base64decode`'s string, the `to*`
//!   conversions' value and the three functions here handle the marks
//!   themselves (a marked key, string or value is hidden in an error
//!   message).
//!
//! The operators' functions that allow marks (`!`, `-`, `&&`, `||`, the
//! comparisons, and `abs`) take primitives, whose own mark is the only one:
//! they are `Own` too, which differs from the default only for an unknown
//! argument without `AllowUnknown`, whose result cty returns unmarked.

use super::{CallError, Function, Param};
use crate::goquote::go_quote;
use crate::types::Type;
use crate::value::Value;

/// What the call boundary does with one parameter's marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Policy {
    /// No `AllowMarked`: every mark comes off; all go onto the result.
    Deep,
    /// `AllowMarked`, and the function moves the argument's own mark onto
    /// the result when it runs (`arg.Unmark()` ... `WithMarks`).
    Own,
    /// `AllowMarked`, as `Own` for every nested list, tuple or set too
    /// (`flatten`'s `flattener`).
    NestedSequences,
    /// `AllowMarked`, and the function uses the marks itself.
    Passed,
}

/// A string for an error message, hidden when it is marked (Terraform's
/// `redactIfSensitive`).
pub(crate) fn redact(text: &str, marked: bool) -> String {
    if marked {
        REDACTED.to_string()
    } else {
        go_quote(text)
    }
}

const REDACTED: &str = "(sensitive value)";

/// The arguments as the implementation sees them, whether the marks taken
/// off always go onto the result (`Deep`), and whether the ones taken off
/// by the function go onto it when it runs (`Own`, `NestedSequences`).
pub(crate) fn unmark_arguments(function: &Function, args: &[Value]) -> (Vec<Value>, bool, bool) {
    let (mut always, mut when_run) = (false, false);
    let args = args
        .iter()
        .enumerate()
        .map(|(i, arg)| {
            let arg = arg.clone();
            let param = function.params.get(i).or(function.var_param.as_ref());
            match param.map_or(Policy::Deep, |p| p.marks) {
                Policy::Deep => {
                    let (v, m) = arg.unmark_deep();
                    always |= m;
                    v
                }
                Policy::Own => {
                    let (v, m) = arg.unmark();
                    when_run |= m;
                    v
                }
                Policy::NestedSequences => {
                    let (v, m) = unmark_sequences(arg);
                    when_run |= m;
                    v
                }
                Policy::Passed => arg,
            }
        })
        .collect();
    (args, always, when_run)
}

/// Takes the marks off the argument and every sequence nested in it,
/// leaving the other elements' marks. The argument itself may be a map or
/// an object (one that is not wholly known passes `flatten`'s type check),
/// whose elements `flattener` takes as it takes a sequence's.
fn unmark_sequences(v: Value) -> (Value, bool) {
    let (v, mut marked) = v.unmark();
    let mut inner = |item: Value| -> Value {
        let (item, m) = unmark_nested_sequences(item);
        marked |= m;
        item
    };
    let v = match v {
        Value::Map { elem, items } => Value::Map {
            elem,
            items: items.into_iter().map(|(k, x)| (k, inner(x))).collect(),
        },
        Value::Object(items) => {
            Value::Object(items.into_iter().map(|(k, x)| (k, inner(x))).collect())
        }
        v => {
            let (v, m) = unmark_sequence_items(v);
            marked |= m;
            v
        }
    };
    (v, marked)
}

/// An element of what `flatten` flattens: a sequence loses its marks and
/// its nested sequences theirs; anything else keeps them.
fn unmark_nested_sequences(item: Value) -> (Value, bool) {
    if item.ty().is_list() || item.ty().is_set() || item.ty().is_tuple() {
        let (item, marked) = item.unmark();
        let (item, inner) = unmark_sequence_items(item);
        (item, marked || inner)
    } else {
        (item, false)
    }
}

/// A sequence with its nested sequences' marks taken off.
fn unmark_sequence_items(v: Value) -> (Value, bool) {
    let mut marked = false;
    let mut inner = |items: Vec<Value>| -> Vec<Value> {
        items
            .into_iter()
            .map(|item| {
                let (item, m) = unmark_nested_sequences(item);
                marked |= m;
                item
            })
            .collect()
    };
    let v = match v {
        Value::List { elem, items } => Value::List {
            elem,
            items: inner(items),
        },
        Value::Tuple(items) => Value::Tuple(inner(items)),
        v => v,
    };
    (v, marked)
}

/// Terraform's `sensitive(value)`: the value, marked. Mirrors
/// `funcs.SensitiveFunc`.
pub(super) fn sensitive() -> Function {
    same_type("sensitive", |v| v.mark())
}

/// Terraform's `nonsensitive(value)`: the value without its own mark (marks
/// inside stay). A known value that is not marked is an error in Terraform
/// 1.6 only. Mirrors `funcs.NonsensitiveFunc`.
pub(super) fn nonsensitive() -> Function {
    let mut function = same_type("nonsensitive", |v| v.unmark().0);
    function.implementation = Box::new(|args, _| {
        let value = &args[0];
        if value.is_known()
            && !value.is_marked()
            && !crate::profile::current().has(crate::Feature::NonsensitiveOfPlainValues)
        {
            return Err(CallError::arg(0, NOT_SENSITIVE));
        }
        Ok(value.clone().unmark().0)
    });
    function
}

/// Terraform 1.6's error for `nonsensitive` of a known value that is not
/// sensitive.
const NOT_SENSITIVE: &str = "the given value is not sensitive, so this call is redundant";

/// A function of one value of any kind whose result has the value's type.
fn same_type(name: &'static str, f: fn(Value) -> Value) -> Function {
    Function {
        name,
        params: vec![any_value()],
        var_param: None,
        return_type: Box::new(|args| Ok(args[0].ty())),
        implementation: Box::new(move |args, _| Ok(f(args[0].clone()))),
    }
}

/// Terraform's `issensitive(value)`: whether the value itself is marked;
/// unknown for an unmarked unknown value (from 1.10; `false` before).
/// Mirrors `funcs.IssensitiveFunc`.
pub(super) fn issensitive() -> Function {
    Function {
        name: "issensitive",
        params: vec![any_value()],
        var_param: None,
        return_type: Box::new(|_| Ok(Type::Bool)),
        implementation: Box::new(|args, _| {
            Ok(match &args[0] {
                Value::Marked(_) => Value::Bool(true),
                v if !v.is_known()
                    && crate::profile::current().has(crate::Feature::IsSensitiveUnknown) =>
                {
                    Value::unknown(Type::Bool)
                }
                _ => Value::Bool(false),
            })
        }),
    }
}

/// The one parameter of the three: anything, marked or not.
fn any_value() -> Param {
    Param::new("value", Type::Dynamic)
        .allow_null()
        .allow_unknown()
        .allow_dynamic_type()
        .marks(Policy::Passed)
}

#[cfg(test)]
mod tests {
    use super::{unmark_sequences, Policy};
    use crate::value::Value;

    #[test]
    fn flatten_unmarks_nested_sequences_only() {
        let nested = Value::tuple(vec![
            Value::tuple(vec![Value::int(1).mark()]).mark(),
            Value::int(2),
        ])
        .mark();
        let (v, marked) = unmark_sequences(nested);
        assert!(marked);
        let Value::Tuple(items) = &v else {
            panic!("not a tuple: {v:?}")
        };
        assert!(!items[0].is_marked());
        assert!(items[0].contains_marked(), "the leaf keeps its mark");
    }

    #[test]
    fn policies() {
        use crate::HclVersion;
        let find = |name: &str| {
            super::super::lookup_for(name, HclVersion::V2_24)
                .unwrap_or_else(|| panic!("no function {name}"))
        };
        assert_eq!(find("upper").params[0].marks, Policy::Deep);
        let lookup = find("lookup");
        assert_eq!(lookup.params[0].marks, Policy::Own);
        assert_eq!(lookup.params[1].marks, Policy::Passed);
        assert_eq!(
            lookup.var_param.as_ref().map(|p| p.marks),
            Some(Policy::Passed)
        );
        assert_eq!(find("slice").params[1].marks, Policy::Deep);
        assert_eq!(
            find("concat").var_param.as_ref().map(|p| p.marks),
            Some(Policy::Own)
        );
        assert_eq!(find("length").params[0].marks, Policy::Own);
        assert_eq!(find("tolist").params[0].marks, Policy::Passed);
        assert_eq!(find("flatten").params[0].marks, Policy::NestedSequences);
    }
}
