//! Refinements of unknown values (go-cty 1.13 and later, `unknown_refinement.go`
//! and `value_range.go`): what is known about a value that is not known yet.
//!
//! An unknown value may be known not to be null; an unknown string may have a
//! known prefix; an unknown number may have a lower and an upper bound, each
//! inclusive or not; an unknown list, set or map may have bounds on its length.
//! Operators, functions and HCL's own constructs refine the unknowns they
//! produce and consult the refinements of their operands, so that, for
//! example, `"a${x}" == null` is a known `false` even while `x` is unknown.
//!
//! The choices made here:
//! - The refinement rides on the unknown itself, [`Value::Unknown`]'s second
//!   field, a [`Refinement`] that is a single null pointer when there is
//!   none: the value model grows by nothing, and code that only asks whether
//!   a value is unknown matches `Value::Unknown(..)` and never sees it.
//! - Refinements exist only in the HCL 2.24 profile (go-cty 1.18); HCL 2.14
//!   (go-cty 1.12) has none. The profile is not threaded through every
//!   operation: evaluation runs inside [`with_refinements`], and
//!   [`Value::refine`] gives a builder that refines nothing when the profile
//!   has no refinements. Producers refine unconditionally; consumers read
//!   [`Value::range`], which is then always unrefined.
//! - A builder collapses what is no longer unknown exactly as cty's
//!   `RefinementBuilder.NewValue` does: a not-null number whose inclusive
//!   bounds are equal is that number; a not-null collection whose length is
//!   exactly known becomes an empty collection, a list of that many unknown
//!   elements, or a set of one unknown element.
//! - A collection's "no upper bound" is cty's `math.MaxInt`, which is also the
//!   upper bound `length` gives an unrefined unknown collection: it is a real
//!   number there (`length(x) < 9223372036854775808` is known).
//! - Results carry their refinements out through the engine protocol's
//!   `refinements` field (written where unknown paths are), as go-cty's
//!   msgpack encoding and so Terraform's plan carry them.
//!
//! Known to be approximate: a template prefix cut at 128 bytes inside a
//! character, with no normalization boundary in the text before the cut
//! ([`safe_known_prefix_cut`]).

use std::cell::Cell;
use std::cmp::Ordering;

use super::Value;
use crate::number::Number;
use crate::text::grapheme_clusters_before_more;
use crate::types::Type;

/// cty's "no upper bound" on a collection's length: Go's `math.MaxInt`.
pub const MAX_LENGTH: u64 = i64::MAX as u64;

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with refinements on (the HCL 2.24 profile) or off (HCL 2.14).
pub fn with_refinements<R>(enabled: bool, f: impl FnOnce() -> R) -> R {
    let saved = ENABLED.with(|c| c.replace(enabled));
    let result = f();
    ENABLED.with(|c| c.set(saved));
    result
}

/// Whether the running evaluation refines unknown values.
pub fn refinements_enabled() -> bool {
    ENABLED.with(Cell::get)
}

/// What is known about an unknown value; the default knows nothing.
#[derive(Clone, Debug, Default)]
pub struct Refinement(Option<Box<Refined>>);

/// The facts of a [`Refinement`] (only those that suit the value's type are
/// ever set).
#[derive(Clone, Debug)]
pub struct Refined {
    /// Known not to be null (cty's `tristateFalse`; a value known to be null
    /// is a null, never an unknown).
    pub not_null: bool,
    /// A string's known prefix (already cut at a safe grapheme boundary).
    pub prefix: String,
    /// A number's lower bound and whether it is inclusive.
    pub lower: Option<(Number, bool)>,
    /// A number's upper bound and whether it is inclusive.
    pub upper: Option<(Number, bool)>,
    /// A collection's least length.
    pub min_length: u64,
    /// A collection's greatest length ([`MAX_LENGTH`]: none).
    pub max_length: u64,
}

impl Default for Refined {
    fn default() -> Self {
        Refined {
            not_null: false,
            prefix: String::new(),
            lower: None,
            upper: None,
            min_length: 0,
            max_length: MAX_LENGTH,
        }
    }
}

impl Refinement {
    /// No refinement.
    pub const NONE: Refinement = Refinement(None);

    /// The facts, if there are any.
    pub fn get(&self) -> Option<&Refined> {
        self.0.as_deref()
    }
    pub fn is_none(&self) -> bool {
        self.0.is_none()
    }
}

/// `cty.ValueRange`: what is known about any value, known or not. A known
/// value's range is the value itself (its string is its own prefix, its
/// number both bounds, its length both length bounds).
#[derive(Clone, Debug)]
pub struct ValueRange {
    pub ty: Type,
    /// `Some(true)`: definitely null; `Some(false)`: definitely not null.
    pub null: Option<bool>,
    pub prefix: String,
    /// The lower bound; an unbounded range is negative infinity, exclusive.
    pub lower: (Number, bool),
    pub upper: (Number, bool),
    pub min_length: u64,
    pub max_length: u64,
}

impl ValueRange {
    pub fn definitely_not_null(&self) -> bool {
        self.null == Some(false)
    }

    /// `ValueRange.NumberLowerBound`: `None` (an unknown bound) for the
    /// dynamic pseudo-type.
    pub fn number_lower_bound(&self) -> Option<(Number, bool)> {
        (self.ty != Type::Dynamic).then(|| self.lower.clone())
    }
    /// `ValueRange.NumberUpperBound`.
    pub fn number_upper_bound(&self) -> Option<(Number, bool)> {
        (self.ty != Type::Dynamic).then(|| self.upper.clone())
    }

    /// `ValueRange.Includes`: `Some(false)` when `v` certainly lies outside
    /// the range, `None` when it may lie inside (cty's unknown result).
    pub fn excludes(&self, v: &Value) -> bool {
        match self.null {
            Some(true) => return !v.is_null(),
            Some(false) if v.is_null() => return true,
            _ => {}
        }
        if v.is_null() {
            return false;
        }
        if !v.ty().conforms_to(&self.ty) {
            return true;
        }
        if v.ty() == Type::Dynamic {
            return false;
        }
        match &self.ty {
            Type::String => match v {
                Value::String(s) => !s.starts_with(&self.prefix),
                _ => false,
            },
            Type::List(_) | Type::Set(_) | Type::Map(_) => match v.length_value() {
                Some(Value::Number(n)) => {
                    n.cmp(&Number::from_u64(self.min_length)).is_lt()
                        || n.cmp(&Number::from_u64(self.max_length)).is_gt()
                }
                _ => false,
            },
            Type::Number => match v {
                Value::Number(n) => {
                    let (lo, lo_inc) = &self.lower;
                    let (hi, hi_inc) = &self.upper;
                    let below = if *lo_inc {
                        n.cmp(lo).is_lt() && !n.cty_equals(lo)
                    } else {
                        !n.cmp(lo).is_gt()
                    };
                    let above = if *hi_inc {
                        n.cmp(hi).is_gt() && !n.cty_equals(hi)
                    } else {
                        !n.cmp(hi).is_lt()
                    };
                    below || above
                }
                _ => false,
            },
            _ => false,
        }
    }
}

impl Value {
    /// The refinement of an unknown value (none for any other value).
    pub fn refinement(&self) -> Option<&Refined> {
        match self {
            Value::Unknown(_, r) => r.get(),
            Value::Marked(inner) => inner.refinement(),
            _ => None,
        }
    }

    /// This value without refinements anywhere inside it.
    pub fn without_refinements(self) -> Value {
        match self {
            Value::Unknown(t, _) => Value::Unknown(t, Refinement::NONE),
            Value::Marked(inner) => inner.without_refinements().mark(),
            other => other,
        }
    }

    /// `cty.Value.Range`.
    pub fn range(&self) -> ValueRange {
        if let Value::Marked(inner) = self {
            return inner.range();
        }
        let ty = self.ty();
        let mut range = ValueRange {
            ty: ty.clone(),
            null: None,
            prefix: String::new(),
            lower: (Number::infinity(true), false),
            upper: (Number::infinity(false), false),
            min_length: 0,
            max_length: MAX_LENGTH,
        };
        match self {
            Value::Unknown(_, r) => {
                if let Some(r) = r.get() {
                    range.null = r.not_null.then_some(false);
                    range.prefix = r.prefix.clone();
                    if let Some(lower) = &r.lower {
                        range.lower = lower.clone();
                    }
                    if let Some(upper) = &r.upper {
                        range.upper = upper.clone();
                    }
                    range.min_length = r.min_length;
                    range.max_length = r.max_length;
                }
            }
            Value::Null(_) => range.null = Some(true),
            Value::String(s) => {
                range.null = Some(false);
                range.prefix = s.clone();
            }
            Value::Number(n) => {
                range.null = Some(false);
                range.lower = (n.clone(), true);
                range.upper = (n.clone(), true);
            }
            Value::List { .. } | Value::Set { .. } | Value::Map { .. } => {
                range.null = Some(false);
                if let Some(Value::Number(n)) = self.length_value() {
                    let len = n.to_i64_exact().map_or(0, |l| l as u64);
                    range.min_length = len;
                    range.max_length = len;
                }
            }
            _ => range.null = Some(false),
        }
        range
    }

    /// `cty.Value.Refine`: a builder of refinements for this value, which
    /// refines nothing when this value is known, of the dynamic
    /// pseudo-type, or refinements are off.
    pub fn refine(self) -> RefinementBuilder {
        // A marked value is refined under its mark, which stays on.
        if let Value::Marked(inner) = self {
            let inner = inner.refine();
            return RefinementBuilder {
                marked: true,
                ..inner
            };
        }
        let wip = match &self {
            Value::Unknown(t, r) if *t != Type::Dynamic && refinements_enabled() => {
                Some(r.get().cloned().unwrap_or_default())
            }
            _ => None,
        };
        RefinementBuilder {
            orig: self,
            wip,
            marked: false,
        }
    }

    /// `cty.Value.RefineNotNull`.
    pub fn refine_not_null(self) -> Value {
        self.refine().not_null().finish()
    }

    /// `definitelyNotNull` in cty: known and not null, or refined so.
    pub fn definitely_not_null(&self) -> bool {
        match self {
            Value::Null(_) => false,
            Value::Unknown(_, r) => r.get().is_some_and(|r| r.not_null),
            Value::Marked(inner) => inner.definitely_not_null(),
            _ => true,
        }
    }
}

impl Refinement {
    /// The refinement as go-cty's msgpack encoding carries it: its number
    /// bounds as [`Number::through_msgpack`] gives them.
    pub fn through_msgpack(&self) -> Refinement {
        let Some(r) = &self.0 else {
            return Refinement(None);
        };
        let bound =
            |b: &Option<(Number, bool)>| b.as_ref().map(|(n, inc)| (n.through_msgpack(), *inc));
        Refinement(Some(Box::new(Refined {
            lower: bound(&r.lower),
            upper: bound(&r.upper),
            ..(**r).clone()
        })))
    }
}

/// `cty.RefinementBuilder`.
#[derive(Debug)]
pub struct RefinementBuilder {
    orig: Value,
    wip: Option<Refined>,
    /// Whether the value refined was marked: the result is too.
    marked: bool,
}

impl RefinementBuilder {
    /// `RefinementBuilder.NotNull`.
    pub fn not_null(mut self) -> Self {
        if let Some(w) = &mut self.wip {
            w.not_null = true;
        }
        self
    }

    /// `RefinementBuilder.StringPrefix`: the prefix cut back to where no
    /// later text can change it (`ctystrings.SafeKnownPrefix`).
    pub fn string_prefix(self, prefix: &str) -> Self {
        let safe = safe_known_prefix(prefix);
        self.string_prefix_full(&safe)
    }

    /// `RefinementBuilder.StringPrefixFull`: the prefix as it is.
    pub fn string_prefix_full(mut self, prefix: &str) -> Self {
        if let (Some(w), Type::String) = (&mut self.wip, self.orig.ty()) {
            let prefix = crate::text::normalize_string(prefix.to_string());
            if prefix.len() > w.prefix.len() {
                w.prefix = prefix;
            }
        }
        self
    }

    /// `RefinementBuilder.NumberRangeLowerBound`; `None` is an unknown bound
    /// (ignored).
    pub fn number_lower_bound(self, min: Option<(Number, bool)>) -> Self {
        self.number_bound(min, Ordering::Less)
    }

    /// `RefinementBuilder.NumberRangeUpperBound`.
    pub fn number_upper_bound(self, max: Option<(Number, bool)>) -> Self {
        self.number_bound(max, Ordering::Greater)
    }

    /// A lower (`outward` is `Less`) or upper (`Greater`) bound: kept only
    /// if it narrows the one already known; an infinite bound in the
    /// outward direction says nothing.
    fn number_bound(mut self, bound: Option<(Number, bool)>, outward: Ordering) -> Self {
        let (Some(w), Some((new, inclusive))) = (&mut self.wip, bound) else {
            return self;
        };
        let current = if outward == Ordering::Less {
            &mut w.lower
        } else {
            &mut w.upper
        };
        if let Some((cur, cur_inc)) = current {
            let narrower = if inclusive && !*cur_inc {
                new.cmp(cur) == outward.reverse()
            } else {
                new.cmp(cur) != outward
            };
            if !narrower {
                return self;
            }
        }
        let says_nothing =
            new.is_infinite() && new.is_sign_negative() == (outward == Ordering::Less);
        if !says_nothing {
            *current = Some((new, inclusive));
        }
        self
    }

    /// `RefinementBuilder.CollectionLengthLowerBound`.
    pub fn collection_length_lower_bound(mut self, min: u64) -> Self {
        if let Some(w) = &mut self.wip {
            if w.min_length <= min {
                w.min_length = min;
            }
        }
        self
    }

    /// `RefinementBuilder.CollectionLengthUpperBound`.
    pub fn collection_length_upper_bound(mut self, max: u64) -> Self {
        if let Some(w) = &mut self.wip {
            if w.max_length >= max {
                w.max_length = max;
            }
        }
        self
    }

    /// `RefinementBuilder.NewValue`.
    pub fn finish(self) -> Value {
        let marked = self.marked;
        self.finish_unmarked().mark_if(marked)
    }

    fn finish_unmarked(self) -> Value {
        let Some(w) = self.wip else {
            return self.orig;
        };
        let ty = self.orig.ty();
        if w.not_null {
            if let (Some((lo, true)), Some((hi, true))) = (&w.lower, &w.upper) {
                if lo.cty_equals(hi) {
                    return Value::Number(lo.clone());
                }
            }
            if ty.is_collection() && w.min_length == w.max_length {
                let len = w.min_length;
                match &ty {
                    Type::List(elem) if len == 0 => return Value::list((**elem).clone(), vec![]),
                    Type::Set(elem) if len == 0 => return Value::set((**elem).clone(), vec![]),
                    Type::Map(elem) if len == 0 => {
                        return Value::map((**elem).clone(), Default::default())
                    }
                    Type::List(elem) => {
                        let unknown = Value::unknown((**elem).clone());
                        return Value::list((**elem).clone(), vec![unknown; len as usize]);
                    }
                    Type::Set(elem) if len == 1 => {
                        return Value::set((**elem).clone(), vec![Value::unknown((**elem).clone())])
                    }
                    _ => {}
                }
            }
        }
        Value::Unknown(ty, Refinement(Some(Box::new(w))))
    }
}

/// `ctystrings.SafeKnownPrefix`: the prefix, in NFC, cut back to where no
/// later text can change it. Cut at its last normalization boundary when
/// that is not its end; otherwise without its last grapheme cluster, which
/// text after it could still extend, unless that cluster is one of the
/// punctuation characters cty knows always end one.
pub fn safe_known_prefix(prefix: &str) -> String {
    let prefix = crate::text::normalize_string(prefix.to_string());
    match crate::text::nfc_last_boundary(&prefix) {
        Some(at) if at != prefix.len() => prefix[..at].to_string(),
        _ => without_last_cluster(prefix),
    }
}

/// [`safe_known_prefix`] of `valid` followed by the first bytes of a
/// character cut short (a template's prefix cut at 128 bytes). Go's
/// boundary search steps over the broken bytes, so the prefix keeps
/// `valid` when its last character is one nothing can change, and is cut
/// at its last boundary otherwise. Approximated: with no boundary at all
/// (no starter in reach), Go scans grapheme clusters over the broken bytes
/// too; here the last cluster of `valid` is dropped.
pub(crate) fn safe_known_prefix_cut(valid: &str) -> String {
    let valid = crate::text::normalize_string(valid.to_string());
    match crate::text::nfc_last_boundary(&valid) {
        Some(at) => valid[..at].to_string(),
        None => without_last_cluster(valid),
    }
}

/// The grapheme-cluster step of `ctystrings.SafeKnownPrefix`. Its scan
/// says more text may follow, so it stops before a line feed or a lone
/// carriage return, and the prefix ends there, whatever follows.
fn without_last_cluster(prefix: String) -> String {
    let (clusters, stopped) = grapheme_clusters_before_more(&prefix);
    if stopped {
        let scanned = clusters.iter().map(|c| c.len()).sum();
        return prefix[..scanned].to_string();
    }
    let Some(last) = clusters.last().copied() else {
        return prefix;
    };
    let start = prefix.len() - last.len();
    let mut chars = last.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if "-_:;/\\,.(){}[]|?!~ \t@#$%^&*+\"'".contains(c) {
            return prefix;
        }
    }
    prefix[..start].to_string()
}

#[cfg(test)]
mod tests {
    //! Small tables of go-cty 1.18's refinement rules, each read from its
    //! source (`unknown_refinement.go`, `value_range.go`, `value_ops.go`,
    //! `ctystrings/prefix.go`).

    use super::*;

    fn on<R>(f: impl FnOnce() -> R) -> R {
        with_refinements(true, f)
    }
    fn num(n: i64) -> Number {
        Number::from_i64(n)
    }
    fn bounded(lo: i64, hi: i64) -> Value {
        on(|| {
            Value::unknown(Type::Number)
                .refine()
                .number_lower_bound(Some((num(lo), true)))
                .number_upper_bound(Some((num(hi), true)))
                .finish()
        })
    }

    #[test]
    fn safe_known_prefix_drops_the_last_cluster_unless_punctuation() {
        for (prefix, want) in [
            ("ab", "a"),
            ("ab-", "ab-"),
            ("a/b/", "a/b/"),
            ("x.", "x."),
            ("a b ", "a b "),
            ("é", ""),
            ("e\u{301}x", "é"),
            ("", ""),
            // The scan stops before a line feed or a lone carriage return.
            ("\n\n ", ""),
            ("ab\ncd-", "ab"),
            ("a.\rb-", "a."),
            // A last letter is cut by the normalization step first.
            ("a\nb", "a\n"),
            ("a\r\nb-", "a\r\nb-"),
        ] {
            assert_eq!(safe_known_prefix(prefix), want, "{prefix:?}");
        }
    }

    #[test]
    fn not_null_equal_inclusive_bounds_collapse_to_the_number() {
        let v = on(|| bounded(2, 2).refine_not_null());
        assert!(matches!(v, Value::Number(n) if n.cty_equals(&num(2))));
        // Without not-null, or with an exclusive bound, it stays unknown.
        assert!(!bounded(2, 2).is_known());
        let exclusive = on(|| {
            Value::unknown(Type::Number)
                .refine()
                .not_null()
                .number_lower_bound(Some((num(2), false)))
                .number_upper_bound(Some((num(2), true)))
                .finish()
        });
        assert!(!exclusive.is_known());
    }

    #[test]
    fn exact_collection_lengths_collapse() {
        let exactly = |ty: Type, n: u64| {
            on(|| {
                Value::unknown(ty)
                    .refine()
                    .not_null()
                    .collection_length_lower_bound(n)
                    .collection_length_upper_bound(n)
                    .finish()
            })
        };
        let list = exactly(Type::list(Type::String), 2);
        assert!(
            matches!(&list, Value::List { items, .. } if items.len() == 2 && !items[0].is_known())
        );
        let set = exactly(Type::set(Type::String), 1);
        assert!(matches!(&set, Value::Set { items, .. } if items.len() == 1));
        assert!(
            matches!(exactly(Type::map(Type::String), 0), Value::Map { items, .. } if items.is_empty())
        );
        // A map of one and a set of two stay unknown.
        assert!(!exactly(Type::map(Type::String), 1).is_known());
        assert!(!exactly(Type::set(Type::String), 2).is_known());
    }

    #[test]
    fn a_wider_bound_does_not_replace_a_narrower_one() {
        let v = on(|| {
            bounded(1, 5)
                .refine()
                .number_lower_bound(Some((num(0), true)))
                .number_upper_bound(Some((num(9), true)))
                .finish()
        });
        let r = v.refinement().expect("refined");
        assert!(r.lower.as_ref().is_some_and(|(n, _)| n.cty_equals(&num(1))));
        assert!(r.upper.as_ref().is_some_and(|(n, _)| n.cty_equals(&num(5))));
        // An inclusive bound at an exclusive one's value is not narrower.
        let v = on(|| {
            Value::unknown(Type::Number)
                .refine()
                .number_lower_bound(Some((num(1), false)))
                .number_lower_bound(Some((num(1), true)))
                .finish()
        });
        assert_eq!(
            v.refinement().and_then(|r| r.lower.clone()).map(|b| b.1),
            Some(false)
        );
    }

    #[test]
    fn ranges_exclude_what_lies_outside() {
        let v = bounded(1, 5);
        let range = v.range();
        assert!(range.excludes(&Value::int(0)));
        assert!(range.excludes(&Value::int(6)));
        assert!(!range.excludes(&Value::int(5)));
        let s = on(|| {
            Value::unknown(Type::String)
                .refine()
                .string_prefix("ab-")
                .not_null()
                .finish()
        });
        assert!(s.range().excludes(&Value::string("ac")));
        assert!(s.range().excludes(&Value::null(Type::String)));
        assert!(!s.range().excludes(&Value::string("ab-c")));
    }

    #[test]
    fn comparisons_use_bounds_strictly() {
        on(|| {
            let v = bounded(1, 5);
            assert!(matches!(v.less_than(&Value::int(6)), Value::Bool(true)));
            assert!(matches!(v.greater_than(&Value::int(5)), Value::Unknown(..)));
            assert!(matches!(v.greater_than(&Value::int(0)), Value::Bool(true)));
            assert!(matches!(
                v.less_than_or_equal_to(&Value::int(0)),
                Value::Bool(false)
            ));
        });
    }

    #[test]
    fn nothing_is_refined_when_refinements_are_off() {
        let v = Value::unknown(Type::String)
            .refine()
            .string_prefix("ab-")
            .not_null()
            .finish();
        assert!(v.refinement().is_none());
        assert!(!bounded(2, 2).refine_not_null().is_known());
        // Dynamic unknowns are never refined.
        let d = on(|| Value::dynamic_unknown().refine_not_null());
        assert!(d.refinement().is_none());
    }
}
