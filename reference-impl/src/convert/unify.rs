//! Type unification as `cty/convert.Unify` and `UnifyUnsafe` do it
//! (`unify.go`, `sort_types.go`, `compare_types.go`).
//!
//! cty collects object attribute types in random map order in a few places;
//! key order is used here. The result can only differ where cty's own
//! answer is not deterministic.

use std::collections::BTreeMap;

use super::{get_plan, Conversion};
use crate::types::Type;

/// `convert.UnifyUnsafe(types)`: the common type, or `None`. The returned
/// flags say which inputs need a conversion to reach it; use
/// [`unify_with_conversions`] to get the conversions themselves.
pub fn unify_unsafe(types: &[Type]) -> Option<(Type, Vec<bool>)> {
    flags(unify_types(types, true))
}

/// `convert.Unify(types)` (safe conversions only).
pub fn unify(types: &[Type]) -> Option<(Type, Vec<bool>)> {
    flags(unify_types(types, false))
}

/// `convert.Unify` (`unsafe_` false) or `convert.UnifyUnsafe` with cty's
/// conversion for each input (`None` where none is needed). Apply these
/// rather than converting to the unified type: when a dynamic type is
/// involved cty's conversions turn every value into `cty.DynamicVal`.
pub fn unify_with_conversions(
    types: &[Type],
    unsafe_: bool,
) -> Option<(Type, Vec<Option<Conversion>>)> {
    unify_types(types, unsafe_)
}

fn flags(result: Option<(Type, Vec<Option<Conversion>>)>) -> Option<(Type, Vec<bool>)> {
    result.map(|(ty, convs)| (ty, convs.iter().map(Option::is_some).collect()))
}

type Unified = Option<(Type, Vec<Option<Conversion>>)>;

/// Mirrors convert's unify.
pub(crate) fn unify_types(types: &[Type], unsafe_: bool) -> Unified {
    if types.is_empty() {
        return None;
    }
    let count = |f: fn(&Type) -> bool| types.iter().filter(|t| f(t)).count();
    let maps = count(Type::is_map);
    let lists = count(Type::is_list);
    let sets = count(Type::is_set);
    let objects = count(Type::is_object);
    let tuples = count(Type::is_tuple);
    let dynamics = count(Type::is_dynamic);
    let n = types.len();
    if maps > 0 && maps + dynamics == n {
        return unify_collections(Type::map, types, unsafe_, dynamics > 0);
    } else if maps > 0 && maps + objects + dynamics == n {
        if let Some(result) = unify_objects_as_maps(types, unsafe_) {
            return Some(result);
        }
    } else if lists > 0 && lists + dynamics == n {
        return unify_collections(Type::list, types, unsafe_, dynamics > 0);
    } else if lists > 0 && lists + tuples + dynamics == n {
        if let Some(result) = unify_tuples_as_list(types, unsafe_) {
            return Some(result);
        }
    } else if sets > 0 && sets + dynamics == n {
        return unify_collections(Type::set, types, unsafe_, dynamics > 0);
    } else if objects > 0 && objects + dynamics == n {
        return unify_objects(types, unsafe_, dynamics > 0);
    } else if tuples > 0 && tuples + dynamics == n {
        return unify_tuples(types, unsafe_, dynamics > 0);
    } else if objects > 0 && tuples > 0 {
        return None;
    }

    // Equal types are tried once, and converted with one conversion each:
    // the outcome is cty's, without its cost growing with the square of
    // the number of elements.
    let groups = TypeGroups::of(types);
    let mut tried = vec![false; groups.types.len()];
    'preferences: for want_group in groups.preference_order() {
        if std::mem::replace(&mut tried[want_group], true) {
            continue;
        }
        let want = groups.types[want_group];
        let mut group_convs: Vec<Option<Conversion>> = Vec::with_capacity(groups.types.len());
        for (g, ty) in groups.types.iter().enumerate() {
            if g == want_group {
                group_convs.push(None);
                continue;
            }
            match conversion(ty, want, unsafe_) {
                Some(c) => group_convs.push(Some(c)),
                None => continue 'preferences,
            }
        }
        let convs = groups
            .of_element
            .iter()
            .map(|&g| group_convs[g].clone())
            .collect();
        return Some((want.clone(), convs));
    }
    None
}

/// The distinct types of a list of types, in order of first appearance,
/// and which one each element has.
struct TypeGroups<'a> {
    types: Vec<&'a Type>,
    of_element: Vec<usize>,
}

impl<'a> TypeGroups<'a> {
    fn of(types: &'a [Type]) -> TypeGroups<'a> {
        let mut index: std::collections::HashMap<&Type, usize> = std::collections::HashMap::new();
        let mut distinct = Vec::new();
        let of_element = types
            .iter()
            .map(|t| {
                *index.entry(t).or_insert_with(|| {
                    distinct.push(t);
                    distinct.len() - 1
                })
            })
            .collect();
        TypeGroups {
            types: distinct,
            of_element,
        }
    }

    /// The groups in the order in which their first element comes out of
    /// sortTypes, which orders the elements themselves.
    fn preference_order(&self) -> Vec<usize> {
        let order = sort_types(&self.types, &self.of_element);
        let mut seen = vec![false; self.types.len()];
        order
            .into_iter()
            .map(|i| self.of_element[i])
            .filter(|&g| !std::mem::replace(&mut seen[g], true))
            .collect()
    }
}

fn conversion(have: &Type, want: &Type, unsafe_: bool) -> Option<Conversion> {
    get_plan(have, want, unsafe_).map(Conversion::from_plan)
}

/// The conversion of each of `types` to `target` (`None` for equal types);
/// no result if any is impossible.
fn conversions_to(types: &[Type], target: &Type, unsafe_: bool) -> Option<Vec<Option<Conversion>>> {
    types
        .iter()
        .map(|ty| {
            if ty == target {
                Some(None)
            } else {
                conversion(ty, target, unsafe_).map(Some)
            }
        })
        .collect()
}

/// Mirrors unifyTuplesAsList: the tuples become lists first.
fn unify_tuples_as_list(types: &[Type], unsafe_: bool) -> Unified {
    let tuple_idxs: Vec<usize> = (0..types.len()).filter(|&i| types[i].is_tuple()).collect();
    let tuples: Vec<Type> = tuple_idxs.iter().map(|&i| types[i].clone()).collect();
    let (list_ty, tuple_convs) = unify_tuples_to_list(&tuples, unsafe_)?;
    if !list_ty.is_list() {
        return None;
    }
    let mut listed = types.to_vec();
    for &i in &tuple_idxs {
        listed[i] = list_ty.clone();
    }
    compose_with(&listed, &tuple_idxs, tuple_convs, unsafe_, Type::is_list)
}

/// Mirrors unifyObjectsAsMaps: the objects become maps first.
fn unify_objects_as_maps(types: &[Type], unsafe_: bool) -> Unified {
    let obj_idxs: Vec<usize> = (0..types.len()).filter(|&i| types[i].is_object()).collect();
    let objects: Vec<Type> = obj_idxs.iter().map(|&i| types[i].clone()).collect();
    let (map_ty, obj_convs) = unify_objects_to_map(&objects, unsafe_)?;
    if !map_ty.is_map() {
        return None;
    }
    let mut mapped = types.to_vec();
    for &i in &obj_idxs {
        mapped[i] = map_ty.clone();
    }
    compose_with(&mapped, &obj_idxs, obj_convs, unsafe_, Type::is_map)
}

/// Unifies the rewritten `types`, then gives each rewritten input its
/// first-stage conversion followed by the second stage (both applied to the
/// original value, as cty does).
fn compose_with(
    rewritten: &[Type],
    idxs: &[usize],
    first_stage: Vec<Option<Conversion>>,
    unsafe_: bool,
    kind: fn(&Type) -> bool,
) -> Unified {
    let (ty, mut convs) = unify_types(rewritten, unsafe_)?;
    if !kind(&ty) {
        return None;
    }
    for (&idx, first) in idxs.iter().zip(first_stage) {
        convs[idx] = match (first, convs[idx].take()) {
            (first, None) => first,
            (Some(first), Some(second)) => Some(Conversion::check_then(first, second)),
            // A missing first stage means the input already had the
            // rewritten type; cty would call a nil function here.
            (None, Some(second)) => Some(second),
        };
    }
    Some((ty, convs))
}

/// Mirrors unifyCollectionTypes.
fn unify_collections(
    make: fn(Type) -> Type,
    types: &[Type],
    unsafe_: bool,
    has_dynamic: bool,
) -> Unified {
    if has_dynamic {
        return unify_all_as_dynamic(types);
    }
    let elems: Vec<Type> = types
        .iter()
        .map(|t| t.element_type().cloned().unwrap_or(Type::Dynamic))
        .collect();
    let (elem, _) = unify_types(&elems, unsafe_)?;
    let ty = make(elem);
    let convs = conversions_to(types, &ty, unsafe_)?;
    Some((ty, convs))
}

fn attributes(ty: &Type) -> Option<&BTreeMap<String, Type>> {
    match ty {
        Type::Object(attrs) => Some(attrs),
        _ => None,
    }
}

fn tuple_elements(ty: &Type) -> &[Type] {
    match ty {
        Type::Tuple(elems) => elems,
        _ => &[],
    }
}

/// Mirrors unifyObjectTypes: objects with the same attribute names unify
/// attribute by attribute, others as maps.
fn unify_objects(types: &[Type], unsafe_: bool, has_dynamic: bool) -> Unified {
    if has_dynamic {
        return unify_all_as_dynamic(types);
    }
    let first = attributes(&types[0])?;
    for ty in &types[1..] {
        let attrs = attributes(ty)?;
        if attrs.len() != first.len() || attrs.keys().any(|k| !first.contains_key(k)) {
            return unify_objects_to_map(types, unsafe_);
        }
    }
    let mut unified = BTreeMap::new();
    for name in first.keys() {
        let across: Vec<Type> = types
            .iter()
            .map(|t| {
                attributes(t)
                    .and_then(|a| a.get(name))
                    .cloned()
                    .unwrap_or(Type::Dynamic)
            })
            .collect();
        let (ty, _) = unify_types(&across, unsafe_)?;
        unified.insert(name.clone(), ty);
    }
    let ty = Type::Object(unified);
    match conversions_to(types, &ty, unsafe_) {
        Some(convs) => Some((ty, convs)),
        None => unify_objects_to_map(types, unsafe_),
    }
}

/// Mirrors unifyObjectTypesToMap.
fn unify_objects_to_map(types: &[Type], unsafe_: bool) -> Unified {
    let attr_types: Vec<Type> = types
        .iter()
        .filter_map(attributes)
        .flat_map(|a| a.values().cloned())
        .collect();
    let (elem, _) = unify_types(&attr_types, unsafe_)?;
    let ty = Type::map(elem);
    let convs = conversions_to(types, &ty, unsafe_)?;
    Some((ty, convs))
}

/// Mirrors unifyTupleTypes: tuples of one length unify element by element,
/// others as lists.
fn unify_tuples(types: &[Type], unsafe_: bool, has_dynamic: bool) -> Unified {
    if has_dynamic {
        return unify_all_as_dynamic(types);
    }
    let first = tuple_elements(&types[0]);
    if types[1..]
        .iter()
        .any(|t| tuple_elements(t).len() != first.len())
    {
        return unify_tuples_to_list(types, unsafe_);
    }
    let mut unified = Vec::with_capacity(first.len());
    for idx in 0..first.len() {
        let across: Vec<Type> = types
            .iter()
            .map(|t| tuple_elements(t)[idx].clone())
            .collect();
        let (ty, _) = unify_types(&across, unsafe_)?;
        unified.push(ty);
    }
    let ty = Type::Tuple(unified);
    match conversions_to(types, &ty, unsafe_) {
        Some(convs) => Some((ty, convs)),
        None => unify_tuples_to_list(types, unsafe_),
    }
}

/// Mirrors unifyTupleTypesToList.
fn unify_tuples_to_list(types: &[Type], unsafe_: bool) -> Unified {
    let elems: Vec<Type> = types
        .iter()
        .flat_map(|t| tuple_elements(t).iter().cloned())
        .collect();
    let (elem, _) = unify_types(&elems, unsafe_)?;
    let ty = Type::list(elem);
    let convs = conversions_to(types, &ty, unsafe_)?;
    Some((ty, convs))
}

/// Mirrors unifyAllAsDynamic.
fn unify_all_as_dynamic(types: &[Type]) -> Unified {
    Some((
        Type::Dynamic,
        types
            .iter()
            .map(|_| Some(Conversion::to_dynamic_unknown()))
            .collect(),
    ))
}

/// Mirrors sortTypes: a topological order of preference (Kahn's algorithm
/// over compareTypes). Positions left unfilled by a cycle stay 0, as in
/// cty.
fn sort_types(groups: &[&Type], of_element: &[usize]) -> Vec<usize> {
    // cty's topological sort over the elements, where an element is
    // preferred before another when compareTypes says so. Elements of equal
    // types compare equal and have the same predecessors, so the work is
    // done per distinct type: an element's in-degree is the number of
    // elements of the types preferred over its own, and all elements of a
    // type become ready together, when the last of those is taken.
    let k = groups.len();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (i, &g) in of_element.iter().enumerate() {
        members[g].push(i);
    }
    // successors[g]: the types g is preferred over.
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); k];
    let mut waiting = vec![0usize; k];
    for a in 0..k {
        for b in 0..k {
            if a != b && compare_types(groups[a], groups[b]) < 0 {
                successors[a].push(b);
                waiting[b] += members[a].len();
            }
        }
    }
    let mut result: Vec<usize> = (0..of_element.len())
        .filter(|&i| waiting[of_element[i]] == 0)
        .collect();
    let mut head = 0;
    while head < result.len() {
        let g = of_element[result[head]];
        head += 1;
        let mut ready: Vec<usize> = Vec::new();
        for &s in &successors[g] {
            waiting[s] -= 1;
            if waiting[s] == 0 {
                ready.extend(&members[s]);
            }
        }
        ready.sort_unstable();
        result.extend(ready);
    }
    result
}

/// Mirrors compareTypes: negative when `a` is preferred over `b`.
fn compare_types(a: &Type, b: &Type) -> i32 {
    if *a == Type::Dynamic || *b == Type::Dynamic {
        return match (*a == Type::Dynamic, *b == Type::Dynamic) {
            (false, true) => -1,
            (true, false) => 1,
            _ => 0,
        };
    }
    if a.is_primitive() && b.is_primitive() && (*a == Type::String || *b == Type::String) {
        return match (*a == Type::String, *b == Type::String) {
            (false, true) => 1,
            (true, false) => -1,
            _ => 0,
        };
    }
    match (a, b) {
        (Type::List(x), Type::List(y))
        | (Type::Set(x), Type::Set(y))
        | (Type::Map(x), Type::Map(y)) => return compare_types(x, y),
        _ => {}
    }
    let swapped = matches!(
        (a, b),
        (Type::Tuple(_), Type::List(_))
            | (Type::Object(_), Type::Map(_))
            | (Type::Set(_), Type::Tuple(_))
            | (Type::Set(_), Type::List(_))
    );
    let (a, b, swap) = if swapped { (b, a, -1) } else { (a, b, 1) };
    if b.is_set() && (a.is_tuple() || a.is_list()) {
        return -swap;
    }
    if a.is_list() && b.is_tuple() {
        return -swap;
    }
    if a.is_map() && b.is_object() {
        return -swap;
    }
    let supers = |cmps: &mut dyn Iterator<Item = i32>| {
        let (mut a_super, mut b_super) = (false, false);
        for c in cmps {
            if c < 0 {
                a_super = true;
            } else if c > 0 {
                b_super = true;
            }
        }
        match (a_super, b_super) {
            (true, false) => -swap,
            (false, true) => swap,
            _ => 0,
        }
    };
    match (a, b) {
        (Type::Object(x), Type::Object(y)) => {
            if x.len() != y.len() || x.keys().any(|k| !y.contains_key(k)) {
                return 0;
            }
            supers(&mut x.iter().map(|(k, t)| compare_types(t, &y[k])))
        }
        (Type::Tuple(x), Type::Tuple(y)) => {
            if x.len() != y.len() {
                return 0;
            }
            supers(&mut x.iter().zip(y).map(|(s, t)| compare_types(s, t)))
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests;
