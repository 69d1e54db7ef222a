//! Functions over lists, sets and tuples.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::{any_known_true, count, go_int, list_val, panicked, sequence_items};
use crate::functions::marks::Policy;
use crate::functions::{length_value, static_return_type, CallError, Function, Param};
use crate::profile::Feature;
use crate::types::Type;
use crate::value::Value;

pub(super) fn functions() -> Vec<Function> {
    vec![
        chunklist(),
        coalescelist(),
        compact(),
        contains(),
        distinct(),
        element(NegativeIndex::Rejected),
        flatten(),
        index(),
        one(),
        range(),
        reverse(),
        slice(),
        sort(UnknownElements::UnknownList),
    ]
}

/// go-cty 1.18's `element` and `sort`.
pub(super) fn terraform_1_15() -> Vec<Function> {
    vec![
        element(NegativeIndex::FromEnd),
        sort(UnknownElements::KnownLength),
    ]
}

/// What `element` makes of a negative index.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NegativeIndex {
    /// go-cty 1.12: an error.
    Rejected,
    /// go-cty 1.18: counted from the end (Go's remainder, plus the length).
    FromEnd,
}

/// What `sort` answers for a list with unknown elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum UnknownElements {
    /// go-cty 1.12: an unknown list.
    UnknownList,
    /// go-cty 1.18: an unknown list refined to the input's length, which
    /// for a known list is a list of as many unknown strings.
    KnownLength,
}

const EMPTY_ELEMENT_LIST: &str = "cannot use element function with an empty list";
const NEGATIVE_ELEMENT_INDEX: &str = "cannot use element function with a negative index";
const ONE_SHAPE: &str = "must be a list, set, or tuple value with either zero or one elements";
const RANGE_LIMIT: usize = 1024;

/// cty's `chunklist`: consecutive chunks of `size` elements; size 0 gives
/// the whole list as the only chunk. Mirrors `stdlib.ChunklistFunc`.
fn chunklist() -> Function {
    Function {
        name: "chunklist",
        params: vec![
            Param::new("list", Type::list(Type::Dynamic)).marks(Policy::Own),
            Param::new("size", Type::Number).marks(Policy::Own),
        ],
        var_param: None,
        return_type: Box::new(|args| Ok(Type::list(args[0].ty()))),
        implementation: Box::new(|args, _| {
            let list = &args[0];
            let size =
                go_int(&args[1]).map_err(|m| CallError::general(format!("invalid size: {m}")))?;
            if size < 0 {
                return Err(CallError::general("the size argument must be positive"));
            }
            let items = sequence_items(list);
            if items.is_empty() {
                return Ok(Value::list(list.ty(), Vec::new()));
            }
            if size == 0 {
                return list_val(vec![list.clone()], &list.ty());
            }
            let size = usize::try_from(size).unwrap_or(usize::MAX);
            let chunks = items
                .chunks(size)
                .map(|chunk| list_val(chunk.to_vec(), &Type::Dynamic))
                .collect::<Result<Vec<_>, _>>()?;
            list_val(chunks, &list.ty())
        }),
    }
}

/// cty's `coalescelist`: the first non-null, non-empty list or tuple.
/// Mirrors `stdlib.CoalesceListFunc`.
fn coalescelist() -> Function {
    Function {
        name: "coalescelist",
        params: Vec::new(),
        var_param: Some(
            Param::new("vals", Type::Dynamic)
                .allow_unknown()
                .allow_dynamic_type()
                .allow_null(),
        ),
        return_type: Box::new(|args| {
            let Some(first) = args.first() else {
                return Err(CallError::general("at least one argument is required"));
            };
            for arg in args {
                if !arg.is_known() {
                    return Ok(Type::Dynamic);
                }
                if !matches!(arg.ty(), Type::List(_) | Type::Tuple(_)) {
                    return Err(CallError::general(
                        "coalescelist arguments must be lists or tuples",
                    ));
                }
            }
            let first_ty = first.ty();
            if args.iter().all(|a| a.ty() == first_ty) {
                Ok(first_ty)
            } else {
                Ok(Type::Dynamic)
            }
        }),
        implementation: Box::new(|args, ret| {
            for arg in args {
                if !arg.is_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                if !arg.is_null() && arg.length() > 0 {
                    return Ok(arg.clone());
                }
            }
            Err(CallError::general("no non-null arguments"))
        }),
    }
}

/// cty's `compact`: the list without null and empty strings.
/// Mirrors `stdlib.CompactFunc`.
fn compact() -> Function {
    Function {
        name: "compact",
        params: vec![Param::new("list", Type::list(Type::String))],
        var_param: None,
        return_type: static_return_type(Type::list(Type::String)),
        implementation: Box::new(|args, ret| {
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let kept = sequence_items(&args[0])
                .iter()
                .filter(|v| matches!(v, Value::String(s) if !s.is_empty()))
                .cloned()
                .collect();
            list_val(kept, &Type::String)
        }),
    }
}

/// cty's `contains` for a list, tuple or set.
/// Mirrors `stdlib.ContainsFunc`.
fn contains() -> Function {
    Function {
        name: "contains",
        params: vec![
            Param::new("list", Type::Dynamic),
            Param::new("value", Type::Dynamic),
        ],
        var_param: None,
        return_type: static_return_type(Type::Bool),
        implementation: Box::new(|args, _| {
            if !matches!(args[0].ty(), Type::List(_) | Type::Tuple(_) | Type::Set(_)) {
                return Err(CallError::general("argument must be list, tuple, or set"));
            }
            Ok(any_known_true(sequence_items(&args[0]).iter().map(
                |item| match args[1].equals(item) {
                    Value::Bool(b) => Some(b),
                    _ => None,
                },
            )))
        }),
    }
}

/// cty's `distinct`: the first occurrence of each element.
/// Mirrors `stdlib.DistinctFunc`.
fn distinct() -> Function {
    Function {
        name: "distinct",
        params: vec![Param::new("list", Type::list(Type::Dynamic))],
        var_param: None,
        return_type: Box::new(|args| Ok(args[0].ty())),
        implementation: Box::new(|args, ret| {
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            // Elements equal to an earlier one are dropped; only elements
            // with the same equality hash need comparing.
            let mut kept: Vec<Value> = Vec::new();
            let mut buckets: HashMap<u64, Vec<usize>> = HashMap::new();
            for item in sequence_items(&args[0]) {
                let bucket = buckets.entry(equality_hash(item)).or_default();
                if !bucket
                    .iter()
                    .any(|&k| matches!(kept[k].equals(item), Value::Bool(true)))
                {
                    bucket.push(kept.len());
                    kept.push(item.clone());
                }
            }
            list_val(kept, ret.element_type().unwrap_or(&Type::Dynamic))
        }),
    }
}

/// A hash of a known value under which values that `Equals` calls equal
/// hash alike: structure, strings and booleans as they are, numbers by
/// value.
fn equality_hash(value: &Value) -> u64 {
    fn feed(value: &Value, state: &mut DefaultHasher) {
        match value {
            Value::Marked(inner) => feed(inner, state),
            Value::Null(_) => 0u8.hash(state),
            Value::Unknown(..) => 1u8.hash(state),
            Value::Bool(b) => (2u8, b).hash(state),
            Value::Number(n) => {
                3u8.hash(state);
                n.hash_value(state);
            }
            Value::String(s) => (4u8, s).hash(state),
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                (5u8, items.len()).hash(state);
                items.iter().for_each(|v| feed(v, state));
            }
            Value::Map { items, .. } | Value::Object(items) => {
                (6u8, items.len()).hash(state);
                for (k, v) in items {
                    k.hash(state);
                    feed(v, state);
                }
            }
        }
    }
    let mut state = DefaultHasher::new();
    feed(value, &mut state);
    state.finish()
}

/// cty's `element`: the element at an index taken modulo the length.
/// Mirrors `stdlib.ElementFunc`.
fn element(negative: NegativeIndex) -> Function {
    // A Terraform release before 1.10 rejects negative indexes too.
    let rejects = move || {
        negative == NegativeIndex::Rejected
            || !crate::profile::current().has(Feature::ElementNegativeIndex)
    };
    Function {
        name: "element",
        params: vec![
            Param::new("list", Type::Dynamic).marks(Policy::Own),
            Param::new("index", Type::Number),
        ],
        var_param: None,
        return_type: Box::new(move |args| {
            let index = &args[1];
            if rejects() && is_negative(index) {
                return Err(CallError::general(NEGATIVE_ELEMENT_INDEX));
            }
            match args[0].ty() {
                Type::List(elem) => Ok(*elem),
                Type::Tuple(elems) => {
                    if !index.is_known() {
                        return Ok(Type::Dynamic);
                    }
                    let i = go_int(index)
                        .map_err(|m| CallError::general(format!("invalid index: {m}")))?;
                    if elems.is_empty() {
                        return Err(CallError::general(EMPTY_ELEMENT_LIST));
                    }
                    // go-cty 1.16.0 indexes the tuple's types with Go's
                    // remainder of it: fine for a multiple of the length,
                    // a negative index (a panic) otherwise.
                    let remainder = i % elems.len() as i64;
                    if remainder < 0
                        && !crate::profile::current().has(Feature::ElementNegativeTupleIndex)
                    {
                        return Err(CallError::panicked(format!(
                            "runtime error: index out of range [{remainder}]"
                        )));
                    }
                    Ok(elems[wrap_index(i, elems.len())].clone())
                }
                other => Err(CallError::general(format!(
                    "cannot read elements from {}",
                    other.friendly_name()
                ))),
            }
        }),
        implementation: Box::new(move |args, _| {
            let i =
                go_int(&args[1]).map_err(|m| CallError::general(format!("invalid index: {m}")))?;
            if rejects() && i < 0 {
                return Err(CallError::general(NEGATIVE_ELEMENT_INDEX));
            }
            let items = sequence_items(&args[0]);
            if items.is_empty() {
                return Err(CallError::general(EMPTY_ELEMENT_LIST));
            }
            Ok(items[wrap_index(i, items.len())].clone())
        }),
    }
}

/// cty's `flatten`: nested lists, sets and tuples spliced into one tuple.
/// Mirrors `stdlib.FlattenFunc`.
fn flatten() -> Function {
    Function {
        name: "flatten",
        params: vec![Param::new("list", Type::Dynamic).marks(Policy::NestedSequences)],
        var_param: None,
        return_type: Box::new(|args| {
            if !args[0].is_wholly_known() {
                return Ok(Type::Dynamic);
            }
            if !matches!(args[0].ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
                return Err(CallError::general(
                    "can only flatten lists, sets and tuples",
                ));
            }
            Ok(match flattened(&args[0]) {
                Some(items) => Type::Tuple(items.iter().map(Value::ty).collect()),
                None => Type::Dynamic,
            })
        }),
        implementation: Box::new(|args, ret| {
            if args[0].length() == 0 {
                return Ok(Value::tuple(Vec::new()));
            }
            Ok(match flattened(&args[0]) {
                Some(items) => Value::tuple(items),
                None => Value::unknown(ret.clone()),
            })
        }),
    }
}

/// Terraform's `index`: the position of the first element equal to the
/// value. Mirrors Terraform's `funcs.IndexFunc`.
fn index() -> Function {
    Function {
        name: "index",
        params: vec![
            Param::new("list", Type::Dynamic),
            Param::new("value", Type::Dynamic),
        ],
        var_param: None,
        return_type: static_return_type(Type::Number),
        implementation: Box::new(|args, _| {
            if !matches!(args[0].ty(), Type::List(_) | Type::Tuple(_)) {
                return Err(CallError::general("argument must be a list or tuple"));
            }
            let items = sequence_items(&args[0]);
            if items.is_empty() {
                return Err(CallError::general("cannot search an empty list"));
            }
            for (i, item) in items.iter().enumerate() {
                match item.equals(&args[1]) {
                    Value::Bool(true) => return Ok(count(i)),
                    Value::Bool(false) => {}
                    _ => return Ok(Value::unknown(Type::Number)),
                }
            }
            Err(CallError::general("item not found"))
        }),
    }
}

/// Terraform's `one`: the only element of a list, set or tuple, or null
/// when it is empty. Mirrors Terraform's `funcs.OneFunc`.
fn one() -> Function {
    Function {
        name: "one",
        params: vec![Param::new("list", Type::Dynamic)],
        var_param: None,
        return_type: Box::new(|args| match args[0].ty() {
            Type::List(elem) | Type::Set(elem) => Ok(*elem),
            Type::Tuple(elems) if elems.is_empty() => Ok(Type::Dynamic),
            Type::Tuple(elems) if elems.len() == 1 => Ok(elems[0].clone()),
            _ => Err(CallError::arg(0, ONE_SHAPE)),
        }),
        implementation: Box::new(|args, ret| {
            if !length_value(&args[0]).is_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            match sequence_items(&args[0]) {
                [] => Ok(Value::Null(ret.clone())),
                [only] => Ok(only.clone()),
                _ => Err(CallError::arg(0, ONE_SHAPE)),
            }
        }),
    }
}

/// cty's `range(end)`, `range(start, end)` and `range(start, end, step)`,
/// limited to 1024 elements. Mirrors `stdlib.RangeFunc`.
fn range() -> Function {
    Function {
        name: "range",
        params: Vec::new(),
        var_param: Some(Param::new("params", Type::Number)),
        return_type: static_return_type(Type::list(Type::Number)),
        implementation: Box::new(|args, _| {
            let zero = Value::int(0);
            let (start, end, step) = match args {
                [end] => {
                    let step = if is_true(&end.less_than(&zero)) {
                        -1
                    } else {
                        1
                    };
                    (Value::int(0), end, Value::int(step))
                }
                [start, end] => {
                    let step = if is_true(&end.less_than(start)) {
                        -1
                    } else {
                        1
                    };
                    (start.clone(), end, Value::int(step))
                }
                [start, end, step] => (start.clone(), end, step.clone()),
                _ => return Err(CallError::general("must have one, two, or three arguments")),
            };
            // cty compares the step with its zero value by identity, so a
            // zero step never gets the "must not be zero" error; it runs into
            // the element limit instead (or yields nothing when start = end).
            let down = is_true(&step.less_than(&zero));
            if down && is_true(&end.greater_than(&start)) {
                return Err(CallError::arg(
                    1,
                    "end must be less than start when step is negative",
                ));
            }
            if !down && is_true(&end.less_than(&start)) {
                return Err(CallError::arg(
                    1,
                    "end must be greater than start when step is positive",
                ));
            }
            let mut items = Vec::new();
            let mut current = start;
            loop {
                let done = if down {
                    current.less_than_or_equal_to(end)
                } else {
                    current.greater_than_or_equal_to(end)
                };
                if is_true(&done) {
                    break;
                }
                if items.len() >= RANGE_LIMIT {
                    return Err(CallError::general(
                        "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step",
                    ));
                }
                let next = current
                    .add(&step)
                    .map_err(|_| panicked("addition of infinities with opposite signs"))?;
                items.push(std::mem::replace(&mut current, next));
            }
            Ok(Value::list(Type::Number, items))
        }),
    }
}

/// cty's `reverse` of a list, set or tuple (Terraform's `reverse`).
/// Mirrors `stdlib.ReverseListFunc`.
fn reverse() -> Function {
    Function {
        name: "reverse",
        params: vec![Param::new("list", Type::Dynamic).marks(Policy::Own)],
        var_param: None,
        return_type: Box::new(|args| match args[0].ty() {
            Type::Tuple(elems) => Ok(Type::Tuple(elems.into_iter().rev().collect())),
            Type::List(elem) | Type::Set(elem) => Ok(Type::List(elem)),
            other => Err(CallError::arg(
                0,
                format!(
                    "can only reverse list or tuple values, not {}",
                    other.friendly_name()
                ),
            )),
        }),
        implementation: Box::new(|args, ret| {
            let items: Vec<Value> = sequence_items(&args[0]).iter().rev().cloned().collect();
            match ret {
                Type::Tuple(_) => Ok(Value::tuple(items)),
                _ => list_val(items, ret.element_type().unwrap_or(&Type::Dynamic)),
            }
        }),
    }
}

/// cty's `slice` of a list or tuple.
/// Mirrors `stdlib.SliceFunc`.
fn slice() -> Function {
    Function {
        name: "slice",
        params: vec![
            Param::new("list", Type::Dynamic).marks(Policy::Own),
            Param::new("start_index", Type::Number),
            Param::new("end_index", Type::Number),
        ],
        var_param: None,
        return_type: Box::new(|args| {
            let ty = args[0].ty();
            if ty.is_set() {
                return Err(CallError::arg(
                    0,
                    "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important",
                ));
            }
            if !ty.is_list() && !ty.is_tuple() {
                return Err(CallError::arg(0, "must be a list or tuple value"));
            }
            let bounds = slice_bounds(args)?;
            match ty {
                Type::Tuple(elems) => Ok(match bounds {
                    Some((start, end)) => Type::Tuple(elems[start..end].to_vec()),
                    None => Type::Dynamic,
                }),
                list => Ok(list),
            }
        }),
        implementation: Box::new(|args, ret| {
            let Some((start, end)) = slice_bounds(args)? else {
                return Ok(Value::dynamic_unknown());
            };
            let items = sequence_items(&args[0])[start..end].to_vec();
            match ret {
                Type::Tuple(_) => Ok(Value::tuple(items)),
                _ => list_val(items, ret.element_type().unwrap_or(&Type::Dynamic)),
            }
        }),
    }
}

/// cty's `sort` of strings in byte order.
/// Mirrors `stdlib.SortFunc`.
fn sort(unknown_elements: UnknownElements) -> Function {
    let list = Param::new("list", Type::list(Type::String));
    Function {
        name: "sort",
        params: vec![match unknown_elements {
            UnknownElements::UnknownList => list,
            UnknownElements::KnownLength => list.allow_unknown(),
        }],
        var_param: None,
        return_type: static_return_type(Type::list(Type::String)),
        implementation: Box::new(move |args, ret| {
            if !args[0].is_wholly_known() {
                if unknown_elements == UnknownElements::KnownLength && args[0].is_known() {
                    let n = sequence_items(&args[0]).len();
                    return Ok(Value::list(
                        Type::String,
                        vec![Value::unknown(Type::String); n],
                    ));
                }
                // Sorting keeps the length (go-cty 1.13+).
                let range = args[0].range();
                return Ok(Value::unknown(ret.clone())
                    .refine()
                    .collection_length_lower_bound(range.min_length)
                    .collection_length_upper_bound(range.max_length)
                    .finish());
            }
            let mut strings = Vec::new();
            for (i, item) in sequence_items(&args[0]).iter().enumerate() {
                match item {
                    Value::String(s) => strings.push(s.clone()),
                    _ => {
                        return Err(CallError::general(format!(
                            "given list element {i} is null; a null string cannot be sorted"
                        )))
                    }
                }
            }
            strings.sort();
            Ok(Value::list(
                Type::String,
                strings.into_iter().map(Value::String).collect(),
            ))
        }),
    }
}

/// `stdlib.sliceIndexes`: the bounds once both are known, checked against
/// the length when that is known.
fn slice_bounds(args: &[Value]) -> Result<Option<(usize, usize)>, CallError> {
    let list = &args[0];
    let length = if list.ty().is_tuple() || length_value(list).is_known() {
        Some(list.length())
    } else {
        None
    };
    let start = bound(&args[1], 1, "start", length)?;
    let end = bound(&args[2], 2, "end", length)?;
    match (start, end) {
        (Some(s), Some(e)) if s > e => Err(CallError::arg(
            1,
            "start index must not be greater than end index",
        )),
        (Some(s), Some(e)) => Ok(Some((s, e))),
        _ => Ok(None),
    }
}

/// One slice bound, or `None` while it is unknown.
fn bound(
    v: &Value,
    arg: usize,
    which: &str,
    length: Option<usize>,
) -> Result<Option<usize>, CallError> {
    if !v.is_known() {
        return Ok(None);
    }
    let i = go_int(v).map_err(|m| CallError::arg(arg, format!("invalid {which} index: {m}")))?;
    let Ok(i) = usize::try_from(i) else {
        return Err(CallError::arg(
            arg,
            format!("{which} index must not be less than zero"),
        ));
    };
    if length.is_some_and(|len| i > len) {
        return Err(CallError::arg(
            arg,
            format!("{which} index must not be greater than the length of the list"),
        ));
    }
    Ok(Some(i))
}

/// `stdlib.flattener`: the flattened elements, or `None` when the result
/// cannot be known yet (an unknown length, an unknown nested sequence, or
/// an unknown value of unknown type that might be one). Walks with an
/// explicit stack so that deeply nested values cannot exhaust the stack.
fn flattened(list: &Value) -> Option<Vec<Value>> {
    let mut out = Vec::new();
    let mut known = true;
    if !length_value(list).is_known() {
        return None;
    }
    // The top level may be a map or object too: the type check lets a
    // value that is not wholly known through unchecked.
    let mut stack = vec![list.element_values().into_iter()];
    while let Some(top) = stack.last_mut() {
        let Some(item) = top.next() else {
            stack.pop();
            continue;
        };
        if matches!(item, Value::Unknown(Type::Dynamic, ..)) {
            known = false;
        }
        let nested = is_sequence(item);
        if item.is_null() || !nested {
            out.push(item.clone());
        } else if !item.is_known() || !length_value(item).is_known() {
            known = false;
        } else {
            stack.push(item.element_values().into_iter());
        }
    }
    known.then_some(out)
}

/// Whether the value is a list, set or tuple (known, null or unknown),
/// found without building its type: building it at every level of a deep
/// value made `flatten` quadratic.
fn is_sequence(v: &Value) -> bool {
    match v {
        Value::List { .. } | Value::Set { .. } | Value::Tuple(_) => true,
        Value::Null(t) | Value::Unknown(t, ..) => {
            matches!(t, Type::List(_) | Type::Set(_) | Type::Tuple(_))
        }
        _ => false,
    }
}

/// Go's `index % length` for a non-negative index.
/// Go's `i % len`, moved into range when negative (go-cty 1.18).
fn wrap_index(i: i64, len: usize) -> usize {
    let len = len as i64;
    i.rem_euclid(len) as usize
}

fn is_negative(v: &Value) -> bool {
    v.as_number().is_some_and(|n| n.sign() < 0)
}

fn is_true(v: &Value) -> bool {
    matches!(v, Value::Bool(true))
}
