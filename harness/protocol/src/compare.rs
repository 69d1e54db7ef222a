//! The one comparison of an expected outcome with an engine's answer, used
//! by `cargo test`, the CLI and the fuzzers alike.
//!
//! Results compare by type and by value as `cty.Value.RawEquals` does (so
//! `1.0` and `1` are the same number, and set order does not matter), after
//! decoding both sides with the reference JSON codec. When the expected side
//! does not decode, the comparison falls back to the JSON documents.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::{Map, Value as Json};

use hclspec_reference::Value;

use crate::{
    ErrorBody, ErrorPhase, Expect, ExpectedError, ExpectedPhase, Level, Outcome, Refinement,
    TypedValue,
};

/// How a comparison judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompareOptions {
    /// What is judged: acceptance only, values and error phases, or
    /// everything.
    pub level: Level,
    /// At the full level, compare error summaries when the expectation
    /// gives one.
    pub check_summary: bool,
    /// At the full level, tell `-0` from `0`. Off only for an engine whose
    /// answers are known to lose the sign on the way out: Terraform stores
    /// output values through go-cty's msgpack, which writes `-0` as the
    /// integer `0`, although its evaluation keeps the sign.
    pub zero_sign: bool,
}

impl Default for CompareOptions {
    fn default() -> CompareOptions {
        CompareOptions {
            level: Level::Full,
            check_summary: true,
            zero_sign: true,
        }
    }
}

/// The result of one comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Pass,
    /// A different value, or a value where an error was expected (or the
    /// other way round).
    Fail {
        reason: String,
        diff: Diff,
    },
    /// Both sides are errors, in different phases or with different
    /// summaries.
    ErrorMismatch {
        expected: ExpectedError,
        actual: ErrorBody,
        diff: Diff,
    },
    /// The engine does not support what the case needs.
    Unsupported {
        reason: String,
    },
    /// The engine failed internally.
    Crash {
        message: String,
    },
}

/// The two sides of a mismatch as pretty JSON documents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    pub expected: String,
    pub actual: String,
}

impl fmt::Display for Diff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = similar_asserts::SimpleDiff::from_str(
            &self.expected,
            &self.actual,
            "expected",
            "actual",
        );
        write!(f, "{d}")
    }
}

impl Diff {
    /// A plain unified diff, expected (`-`) against actual (`+`).
    pub fn unified(&self) -> String {
        let mut expected = self.expected.clone();
        let mut actual = self.actual.clone();
        expected.push('\n');
        actual.push('\n');
        similar::TextDiff::from_lines(&expected, &actual)
            .unified_diff()
            .context_radius(usize::MAX / 4)
            .header("expected", "actual")
            .to_string()
    }
}

impl Verdict {
    pub fn is_pass(&self) -> bool {
        matches!(self, Verdict::Pass)
    }

    /// One line saying what went wrong ("pass" for a pass).
    pub fn headline(&self) -> String {
        match self {
            Verdict::Pass => "pass".to_string(),
            Verdict::Fail { reason, .. } => reason.clone(),
            Verdict::ErrorMismatch {
                expected, actual, ..
            } => {
                if expected.phase.as_str() != actual.phase.as_str() {
                    format!(
                        "expected {} error, got {} error",
                        a_phase(expected.phase.as_str()),
                        a_phase(actual.phase.as_str())
                    )
                } else {
                    format!(
                        "expected the {} error summary {:?}, got {:?}",
                        expected.phase.as_str(),
                        expected.summary.as_deref().unwrap_or(""),
                        actual.summary
                    )
                }
            }
            Verdict::Unsupported { reason } => format!("unsupported: {reason}"),
            Verdict::Crash { message } => format!("engine crashed: {message}"),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.headline())?;
        match self {
            Verdict::Fail { diff, .. } | Verdict::ErrorMismatch { diff, .. } => {
                write!(f, "{diff}")
            }
            _ => Ok(()),
        }
    }
}

/// Whether an answer agrees with an expectation in its error phase alone:
/// an error of the same phase, or any value where a value is expected. This
/// is how an oracle whose wrapper changes the rest of an answer is judged.
pub fn phase_agrees(expected: &Expect, actual: &Outcome) -> bool {
    match (expected, actual) {
        (Expect::Result(_), Outcome::Result(_)) => true,
        (Expect::Error(e), Outcome::Error(a)) => e.phase.as_str() == a.phase.as_str(),
        (Expect::Crash(_), Outcome::Crash(_)) => true,
        _ => false,
    }
}

/// Compares at the full level.
pub fn compare(expected: &Expect, actual: &Outcome) -> Verdict {
    compare_with(expected, actual, CompareOptions::default())
}

/// Compares at `level`.
pub fn compare_at(expected: &Expect, actual: &Outcome, level: Level) -> Verdict {
    compare_with(
        expected,
        actual,
        CompareOptions {
            level,
            ..CompareOptions::default()
        },
    )
}

pub fn compare_with(expected: &Expect, actual: &Outcome, opts: CompareOptions) -> Verdict {
    let diff = || Diff {
        expected: pretty(&expected.to_json()),
        actual: pretty(&actual_doc(actual)),
    };
    if let Expect::Crash(_) = expected {
        return compare_crash(actual, opts.level, diff);
    }
    match actual {
        Outcome::Unsupported(reason) => {
            return Verdict::Unsupported {
                reason: reason.clone(),
            }
        }
        Outcome::Crash(message) => {
            return Verdict::Crash {
                message: message.clone(),
            }
        }
        _ => {}
    }
    if opts.level == Level::Parse {
        return compare_acceptance(expected, actual, diff);
    }
    match (expected, actual) {
        (_, Outcome::Unsupported(_) | Outcome::Crash(_)) => unreachable!("answered above"),
        (_, Outcome::Parsed) => Verdict::Unsupported {
            reason: format!("{MSG_ONLY_PARSED} {}", opts.level),
        },
        (Expect::Result(e), Outcome::Result(a)) => {
            let matched = match opts.level {
                Level::Full => values_match_signed(e, a, opts.zero_sign)
                    .and_then(|()| sensitive_match(e, a))
                    .and_then(|()| refinements_match(e, a)),
                _ => values_match_loosely(e, a),
            };
            match matched {
                Ok(()) => Verdict::Pass,
                Err(reason) => Verdict::Fail {
                    reason,
                    diff: diff(),
                },
            }
        }
        (Expect::Result(_), Outcome::Error(err)) => Verdict::Fail {
            reason: format!(
                "expected a value, got {} error",
                a_phase(err.phase.as_str())
            ),
            diff: diff(),
        },
        (Expect::Error(e), Outcome::Result(_)) => Verdict::Fail {
            reason: format!("expected {} error, got a value", a_phase(e.phase.as_str())),
            diff: diff(),
        },
        (Expect::Crash(_), _) => unreachable!("judged above"),
        (Expect::Error(e), Outcome::Error(a)) => {
            let phase_ok = e.phase.as_str() == a.phase.as_str();
            let summary_ok = opts.level != Level::Full
                || !opts.check_summary
                || e.summary.as_deref().map_or(true, |s| s == a.summary);
            if phase_ok && summary_ok {
                Verdict::Pass
            } else {
                Verdict::ErrorMismatch {
                    expected: e.clone(),
                    actual: a.clone(),
                    diff: diff(),
                }
            }
        }
    }
}

/// An expected crash: where a Terraform release's process dies, an engine
/// that models that release answers `crash`. At the parse level the source
/// was accepted (the crash comes while evaluating), so any answer but a
/// parse error passes.
fn compare_crash(actual: &Outcome, level: Level, diff: impl Fn() -> Diff) -> Verdict {
    match actual {
        Outcome::Crash(_) => Verdict::Pass,
        Outcome::Unsupported(reason) => Verdict::Unsupported {
            reason: reason.clone(),
        },
        Outcome::Error(e) if level == Level::Parse && e.phase != ErrorPhase::Parse => Verdict::Pass,
        Outcome::Error(e) if level == Level::Parse && e.phase == ErrorPhase::Parse => {
            Verdict::Fail {
                reason: MSG_REJECTED.to_string(),
                diff: diff(),
            }
        }
        _ if level == Level::Parse => Verdict::Pass,
        _ => Verdict::Fail {
            reason: MSG_EXPECTED_CRASH.to_string(),
            diff: diff(),
        },
    }
}

const MSG_EXPECTED_CRASH: &str =
    "expected a crash (the implementation's process dies here), got an answer";
const MSG_ONLY_PARSED: &str =
    "the engine only parsed the source (answered `parsed`), and this is judged at the level";
const MSG_REJECTED: &str =
    "expected the source to be accepted, the engine rejected it as a parse error";
const MSG_ACCEPTED: &str =
    "expected the source to be rejected as a parse error, the engine accepted it";
const MSG_SENSITIVE_DIFFER: &str = "result sensitive parts differ";
const MSG_REFINEMENTS_DIFFER: &str = "result refinements of unknown parts differ";

/// The parse level: a source HCL rejects while parsing must be rejected
/// with a parse error; every other source must be accepted, whatever it
/// then evaluates to.
fn compare_acceptance(expected: &Expect, actual: &Outcome, diff: impl Fn() -> Diff) -> Verdict {
    let expect_rejected = matches!(expected, Expect::Error(e) if e.phase == ExpectedPhase::Parse);
    let request_error = || Verdict::Fail {
        reason: format!(
            "expected the source to be {}, got a request error",
            if expect_rejected {
                "rejected"
            } else {
                "accepted"
            }
        ),
        diff: diff(),
    };
    match actual {
        Outcome::Error(a) if a.phase == ErrorPhase::Request => request_error(),
        Outcome::Error(a) if a.phase == ErrorPhase::Parse => {
            if expect_rejected {
                Verdict::Pass
            } else {
                Verdict::Fail {
                    reason: MSG_REJECTED.to_string(),
                    diff: diff(),
                }
            }
        }
        _ if expect_rejected => Verdict::Fail {
            reason: MSG_ACCEPTED.to_string(),
            diff: diff(),
        },
        _ => Verdict::Pass,
    }
}

/// Sensitive parts are compared as sets of paths.
fn sensitive_match(expected: &TypedValue, actual: &TypedValue) -> Result<(), String> {
    let set = |v: &TypedValue| {
        let mut paths: Vec<String> = v.sensitive.iter().map(|p| p.to_string()).collect();
        paths.sort();
        paths.dedup();
        paths
    };
    if set(expected) == set(actual) {
        Ok(())
    } else {
        Err(MSG_SENSITIVE_DIFFER.to_string())
    }
}

/// Refinements of unknown parts are judged only when the expectation
/// records some (expectations recorded before the protocol had them say
/// nothing either way): then the answer must give the same facts at the
/// same paths, bounds compared as numbers.
fn refinements_match(expected: &TypedValue, actual: &TypedValue) -> Result<(), String> {
    if expected.refinements.is_empty() {
        return Ok(());
    }
    let key = |v: &TypedValue| {
        let mut facts: Vec<(String, Refinement)> = v
            .refinements
            .iter()
            .map(|r| {
                let mut r = r.clone();
                for bound in [&mut r.number_lower, &mut r.number_upper]
                    .into_iter()
                    .flatten()
                {
                    if let Some(n) = hclspec_reference::Number::parse(&bound.value) {
                        bound.value = n.to_string();
                    }
                }
                (r.path.to_string(), r)
            })
            .collect();
        facts.sort_by(|a, b| a.0.cmp(&b.0));
        facts
    };
    if key(expected) == key(actual) {
        Ok(())
    } else {
        Err(MSG_REFINEMENTS_DIFFER.to_string())
    }
}

/// The value level: the same values once list and tuple, map and object,
/// and typed and untyped null are not told apart (numbers still exact).
/// Like types, sensitive marks and the refinements of unknown values are
/// judged at the full level only: here a marked value is its value.
pub fn values_match_loosely(expected: &TypedValue, actual: &TypedValue) -> Result<(), String> {
    let unmarked = |v: Value| v.unmark_deep().0;
    match (
        expected.decode().map(unmarked),
        actual.decode().map(unmarked),
    ) {
        (Ok(e), Ok(a)) => match catch_unwind(AssertUnwindSafe(|| loose_equals(&e, &a))) {
            Ok(true) => Ok(()),
            Ok(false) => Err(MSG_VALUES_DIFFER.to_string()),
            Err(_) => json_fallback(expected, actual, "value comparison panicked"),
        },
        (Err(e), _) => json_fallback(expected, actual, &format!("expected value: {e}")),
        (Ok(_), Err(e)) => Err(format!("{MSG_BAD_ACTUAL}: {e}")),
    }
}

/// Equality without types: sequences by position, sets as multisets (a
/// set also matches a sequence of the same elements), mappings by key.
fn loose_equals(a: &Value, b: &Value) -> bool {
    use Value as V;
    fn seq(v: &Value) -> Option<&[Value]> {
        match v {
            Value::List { items, .. } | Value::Tuple(items) => Some(items),
            _ => None,
        }
    }
    fn mapping(v: &Value) -> Option<&std::collections::BTreeMap<String, Value>> {
        match v {
            Value::Map { items, .. } | Value::Object(items) => Some(items),
            _ => None,
        }
    }
    match (a, b) {
        (V::Null(_), V::Null(_)) | (V::Unknown(..), V::Unknown(..)) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::String(x), V::String(y)) => x == y,
        (V::Number(x), V::Number(y)) => x.cty_equals(y),
        (V::Set { items: x, .. }, other) | (other, V::Set { items: x, .. }) => {
            let y = match other {
                V::Set { items, .. } => items.as_slice(),
                _ => match seq(other) {
                    Some(items) => items,
                    None => return false,
                },
            };
            same_multiset(x, y)
        }
        _ => match (seq(a), seq(b), mapping(a), mapping(b)) {
            (Some(x), Some(y), _, _) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| loose_equals(p, q))
            }
            (_, _, Some(x), Some(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|((k, p), (l, q))| k == l && loose_equals(p, q))
            }
            _ => false,
        },
    }
}

/// Whether `x` and `y` hold the same elements in any order, by `eq`.
fn same_multiset_by(x: &[Value], y: &[Value], eq: fn(&Value, &Value) -> bool) -> bool {
    if x.len() != y.len() {
        return false;
    }
    let mut used = vec![false; y.len()];
    x.iter()
        .all(|p| match (0..y.len()).find(|&i| !used[i] && eq(p, &y[i])) {
            Some(i) => {
                used[i] = true;
                true
            }
            None => false,
        })
}

fn same_multiset(x: &[Value], y: &[Value]) -> bool {
    same_multiset_by(x, y, loose_equals)
}

/// Whether two typed values are the same cty value of the same type;
/// otherwise why not.
pub fn values_match(expected: &TypedValue, actual: &TypedValue) -> Result<(), String> {
    values_match_signed(expected, actual, true)
}

/// [`values_match`], telling `-0` from `0` only when `zero_sign` is set.
pub fn values_match_signed(
    expected: &TypedValue,
    actual: &TypedValue,
    zero_sign: bool,
) -> Result<(), String> {
    let exp = expected
        .decode()
        .and_then(|v| Ok((expected.decode_type()?, v)));
    let act = actual.decode().and_then(|v| Ok((actual.decode_type()?, v)));
    match (exp, act) {
        (Ok((et, ev)), Ok((at, av))) => {
            if et != at {
                return Err(MSG_TYPES_DIFFER.to_string());
            }
            match catch_unwind(AssertUnwindSafe(|| same_value(&ev, &av))) {
                Ok(true)
                    if zero_sign
                        && zero_signs_differ(&expected.ty, &expected.value, &actual.value) =>
                {
                    Err(MSG_ZERO_SIGN.to_string())
                }
                Ok(true) => Ok(()),
                Ok(false) => Err(MSG_VALUES_DIFFER.to_string()),
                // A broken comparison must not hide a result: use the JSON.
                Err(_) => json_fallback(expected, actual, "value comparison panicked"),
            }
        }
        (Err(e), _) => json_fallback(expected, actual, &format!("expected value: {e}")),
        (Ok(_), Err(e)) => Err(format!("{MSG_BAD_ACTUAL}: {e}")),
    }
}

/// `cty.Value.RawEquals` for two values of one type, written here rather
/// than called from the reference: the judge must not share the code it
/// judges, or a fault in the reference's equality would make a wrong answer
/// equal to the expectation. Marks count (both or neither), unknowns and
/// nulls are equal to their own kind, and a set's elements are compared as
/// a multiset.
fn same_value(a: &Value, b: &Value) -> bool {
    use Value as V;
    match (a, b) {
        (V::Marked(x), V::Marked(y)) => same_value(x, y),
        (V::Marked(_), _) | (_, V::Marked(_)) => false,
        (V::Unknown(..), V::Unknown(..)) | (V::Null(_), V::Null(_)) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Number(x), V::Number(y)) => x.cty_equals(y),
        (V::String(x), V::String(y)) => x == y,
        (V::List { items: x, .. }, V::List { items: y, .. }) | (V::Tuple(x), V::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        (V::Set { items: x, .. }, V::Set { items: y, .. }) => same_multiset_by(x, y, same_value),
        (V::Map { items: x, .. }, V::Map { items: y, .. }) | (V::Object(x), V::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, p)| y.get(k).is_some_and(|q| same_value(p, q)))
        }
        _ => false,
    }
}

const MSG_ZERO_SIGN: &str = "result values differ in the sign of a zero";

/// Whether a zero is `-0` on one side and `0` on the other anywhere outside
/// a set. cty's equality calls them equal, but they are different answers:
/// go-cty keeps the sign (`tostring(-0)` is `"-0"`), and an engine that
/// loses it will write it wrongly.
fn zero_signs_differ(ty: &Json, expected: &Json, actual: &Json) -> bool {
    match (ty, expected, actual) {
        (Json::String(t), Json::Number(e), Json::Number(a)) if t == "number" => {
            is_negative_zero(e) != is_negative_zero(a)
        }
        (Json::Array(t), e, a) => match (t.first().and_then(Json::as_str), t.get(1)) {
            (Some("list"), Some(elem)) => {
                zip_items(e, a).any(|(e, a)| zero_signs_differ(elem, e, a))
            }
            (Some("map"), Some(elem)) => match (e, a) {
                (Json::Object(e), Json::Object(a)) => e
                    .iter()
                    .any(|(k, ev)| a.get(k).is_some_and(|av| zero_signs_differ(elem, ev, av))),
                _ => false,
            },
            (Some("tuple"), Some(Json::Array(elems))) => zip_items(e, a)
                .zip(elems)
                .any(|((e, a), t)| zero_signs_differ(t, e, a)),
            (Some("object"), Some(Json::Object(attrs))) => match (e, a) {
                (Json::Object(e), Json::Object(a)) => {
                    attrs.iter().any(|(k, t)| match (e.get(k), a.get(k)) {
                        (Some(ev), Some(av)) => zero_signs_differ(t, ev, av),
                        _ => false,
                    })
                }
                _ => false,
            },
            // Sets hold -0 and 0 as they like; their elements are compared
            // by cty's rules.
            _ => false,
        },
        _ => false,
    }
}

fn zip_items<'a>(e: &'a Json, a: &'a Json) -> impl Iterator<Item = (&'a Json, &'a Json)> {
    let items = |v: &'a Json| v.as_array().map(|v| v.as_slice()).unwrap_or(&[]);
    items(e).iter().zip(items(a))
}

/// Whether a JSON number's text is a zero with a minus sign.
fn is_negative_zero(n: &serde_json::Number) -> bool {
    let text = n.to_string();
    let Some(magnitude) = text.strip_prefix('-') else {
        return false;
    };
    let mantissa = magnitude.split(['e', 'E']).next().unwrap_or("");
    mantissa.chars().all(|c| c == '0' || c == '.')
}

/// Whether two results match once every number on both sides is rounded
/// to the nearest 64-bit float: the profile of engines whose numbers are
/// doubles.
pub fn values_match_f64(expected: &TypedValue, actual: &TypedValue) -> Result<(), String> {
    values_match(&round_numbers_f64(expected), &round_numbers_f64(actual))
}

/// The value with every number rounded to the nearest 64-bit float;
/// magnitudes beyond its range become the infinities.
pub fn round_numbers_f64(v: &TypedValue) -> TypedValue {
    TypedValue {
        ty: v.ty.clone(),
        value: round_json_numbers(&v.value),
        unknown: v.unknown.clone(),
        sensitive: v.sensitive.clone(),
        refinements: v.refinements.clone(),
    }
}

/// Only a cty number is a JSON number in a value document (the type of a
/// `dynamic` wrapper holds none), so every JSON number is rounded.
fn round_json_numbers(v: &Json) -> Json {
    match v {
        Json::Number(n) => match n.to_string().parse::<f64>() {
            Ok(f) if f.is_finite() => {
                Json::Number(serde_json::Number::from_f64(f).expect("finite"))
            }
            Ok(f) if f > 0.0 => Json::String("Infinity".into()),
            Ok(_) => Json::String("-Infinity".into()),
            Err(_) => v.clone(),
        },
        Json::Array(items) => Json::Array(items.iter().map(round_json_numbers).collect()),
        Json::Object(m) => Json::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), round_json_numbers(x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// "a parse", "an eval", "a request".
fn a_phase(phase: &str) -> String {
    if phase.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {phase}")
    } else {
        format!("a {phase}")
    }
}

const MSG_TYPES_DIFFER: &str = "result types differ";
const MSG_VALUES_DIFFER: &str = "result values differ";
const MSG_BAD_ACTUAL: &str = "the engine's result is not a valid typed value";

/// Compares the JSON documents, ignoring the order of unknown paths.
fn json_fallback(expected: &TypedValue, actual: &TypedValue, why: &str) -> Result<(), String> {
    if canonical(expected) == canonical(actual) {
        Ok(())
    } else {
        Err(format!("{MSG_VALUES_DIFFER} (compared as JSON; {why})"))
    }
}

fn canonical(v: &TypedValue) -> (Json, Json, Vec<String>) {
    let mut unknown: Vec<String> = v.unknown.iter().map(|p| p.to_string()).collect();
    unknown.sort();
    (v.ty.clone(), v.value.clone(), unknown)
}

/// The actual side of a diff: the outcome without the source range, which
/// no expectation records.
fn actual_doc(actual: &Outcome) -> Json {
    match actual {
        Outcome::Error(e) => {
            let mut body = Map::new();
            body.insert("phase".into(), Json::String(e.phase.as_str().into()));
            body.insert("summary".into(), Json::String(e.summary.clone()));
            if !e.detail.is_empty() {
                body.insert("detail".into(), Json::String(e.detail.clone()));
            }
            let mut m = Map::new();
            m.insert("error".into(), Json::Object(body));
            Json::Object(m)
        }
        other => other.to_json(),
    }
}

fn pretty(v: &Json) -> String {
    serde_json::to_string_pretty(v).expect("JSON always serializes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorPhase;
    use crate::ExpectedPhase;
    use serde_json::json;

    fn tv(ty: Json, value: &str, unknown: Vec<Json>) -> TypedValue {
        TypedValue {
            ty,
            value: serde_json::from_str(value).unwrap(),
            unknown,
            ..Default::default()
        }
    }

    fn err(phase: ErrorPhase, summary: &str) -> Outcome {
        Outcome::Error(ErrorBody {
            phase,
            summary: summary.into(),
            detail: "Some detail.".into(),
            range: None,
            library_panic: false,
        })
    }

    fn expect_err(phase: ExpectedPhase, summary: Option<&str>) -> Expect {
        Expect::Error(ExpectedError {
            phase,
            summary: summary.map(str::to_string),
        })
    }

    #[test]
    fn refinements_are_judged_when_expected_at_the_full_level() {
        let refined = |facts: Json| {
            let mut v = tv(json!("number"), "null", vec![json!([])]);
            v.refinements = vec![serde_json::from_value(facts).unwrap()];
            v
        };
        let bounds = |lo: &str| {
            refined(json!({"path": [], "not_null": true,
                           "number_lower": {"value": lo, "inclusive": true}}))
        };
        let plain = tv(json!("number"), "null", vec![json!([])]);
        let table = [
            (bounds("1"), bounds("1.0"), Level::Full, true),
            (bounds("1"), bounds("2"), Level::Full, false),
            (bounds("1"), plain.clone(), Level::Full, false),
            (bounds("1"), plain.clone(), Level::Value, true),
            (plain.clone(), bounds("1"), Level::Full, true),
            (
                bounds("1"),
                refined(json!({"path": [], "number_lower": {"value": "1", "inclusive": true}})),
                Level::Full,
                false,
            ),
        ];
        for (i, (e, a, level, pass)) in table.into_iter().enumerate() {
            let v = compare_at(&Expect::Result(e), &Outcome::Result(a), level);
            assert_eq!(matches!(v, Verdict::Pass), pass, "row {i}: {v:?}");
        }
    }

    /// The judge's equality is its own: sequences by position (also inside
    /// a list of tuples, the elements of one type), sets in any order,
    /// mappings by key, numbers by value.
    #[test]
    fn values_are_compared_by_the_judge_s_own_equality() {
        let list_of_pairs = json!(["list", ["tuple", ["number", "string"]]]);
        let set_of_pairs = json!(["set", ["tuple", ["number", "string"]]]);
        let table = [
            (
                list_of_pairs.clone(),
                r#"[[1, "a"], [2, "b"]]"#,
                r#"[[1.0, "a"], [2, "b"]]"#,
                true,
            ),
            (
                list_of_pairs.clone(),
                r#"[[1, "a"], [2, "b"]]"#,
                r#"[[2, "b"], [1, "a"]]"#,
                false,
            ),
            (
                list_of_pairs,
                r#"[[1, "a"], [2, "b"]]"#,
                r#"[[1, "a"], [2, "c"]]"#,
                false,
            ),
            (
                set_of_pairs.clone(),
                r#"[[1, "a"], [2, "b"]]"#,
                r#"[[2, "b"], [1, "a"]]"#,
                true,
            ),
            (
                set_of_pairs,
                r#"[[1, "a"], [2, "b"]]"#,
                r#"[[1, "a"], [3, "b"]]"#,
                false,
            ),
            (
                json!(["map", ["list", "number"]]),
                r#"{"k": [1]}"#,
                r#"{"k": [1, 1]}"#,
                false,
            ),
            (
                json!(["object", {"a": "string"}]),
                r#"{"a": null}"#,
                r#"{"a": "x"}"#,
                false,
            ),
        ];
        for (i, (ty, e, a, pass)) in table.into_iter().enumerate() {
            let got = values_match(&tv(ty.clone(), e, vec![]), &tv(ty, a, vec![]));
            assert_eq!(got.is_ok(), pass, "row {i}: {got:?}");
        }
    }

    /// Each level over marked, refined and unknown values: the parse level
    /// judges acceptance only, the value level the values (a mark, a
    /// refinement and a type are not judged), the full level everything.
    #[test]
    fn each_level_judges_marks_refinements_and_unknowns() {
        let marked = |ty: Json, value: &str, paths: Vec<Json>| {
            let mut v = tv(ty, value, vec![]);
            v.sensitive = paths;
            v
        };
        let unknown = |ty: Json, paths: Vec<Json>| tv(ty, "null", paths);
        let refined = |prefix: &str| {
            let mut v = unknown(json!("string"), vec![json!([])]);
            v.refinements =
                vec![serde_json::from_value(json!({"path": [], "string_prefix": prefix})).unwrap()];
            v
        };
        let marked_unknown = || {
            let mut v = marked(json!("string"), "null", vec![json!([])]);
            v.unknown = vec![json!([])];
            v
        };
        let list = || json!(["list", "number"]);
        let tuple = || json!(["tuple", ["number", "number"]]);
        // (expected, actual, passes at parse, at value, at full)
        let table = [
            // The same marked value on both sides.
            (
                marked(json!("number"), "4", vec![json!([])]),
                marked(json!("number"), "4", vec![json!([])]),
                [true, true, true],
            ),
            // A mark the answer lacks: a value-level engine need not model marks.
            (
                marked(json!("number"), "4", vec![json!([])]),
                tv(json!("number"), "4", vec![]),
                [true, true, false],
            ),
            (
                tv(json!("number"), "4", vec![]),
                marked(json!("number"), "4", vec![json!([])]),
                [true, true, false],
            ),
            // A marked value that is another value.
            (
                marked(json!("number"), "4", vec![json!([])]),
                marked(json!("number"), "5", vec![json!([])]),
                [true, false, false],
            ),
            // Marks inside a collection, at another element.
            (
                marked(list(), "[1, 2]", vec![json!([1])]),
                marked(list(), "[1, 2]", vec![json!([0])]),
                [true, true, false],
            ),
            (
                marked(list(), "[1, 2]", vec![json!([1])]),
                marked(tuple(), "[1, 3]", vec![json!([1])]),
                [true, false, false],
            ),
            // A marked list against an unmarked tuple of the same elements.
            (
                marked(list(), "[1, 2]", vec![json!([])]),
                tv(tuple(), "[1, 2]", vec![]),
                [true, true, false],
            ),
            // Unknowns: of any type alike at the value level.
            (
                unknown(json!("string"), vec![json!([])]),
                unknown(json!("number"), vec![json!([])]),
                [true, true, false],
            ),
            (
                unknown(json!("string"), vec![json!([])]),
                tv(json!("string"), "\"a\"", vec![]),
                [true, false, false],
            ),
            (
                marked_unknown(),
                unknown(json!("string"), vec![json!([])]),
                [true, true, false],
            ),
            // Refinements are judged at the full level only.
            (refined("a-"), refined("a-"), [true, true, true]),
            (refined("a-"), refined("b-"), [true, true, false]),
            (
                refined("a-"),
                unknown(json!("string"), vec![json!([])]),
                [true, true, false],
            ),
        ];
        for (i, (e, a, passes)) in table.into_iter().enumerate() {
            for (level, pass) in [Level::Parse, Level::Value, Level::Full]
                .into_iter()
                .zip(passes)
            {
                let v = compare_at(
                    &Expect::Result(e.clone()),
                    &Outcome::Result(a.clone()),
                    level,
                );
                assert_eq!(v.is_pass(), pass, "row {i} at {level}: {v:?}");
            }
        }
        // At the parse level an error is judged by whether it is a parse error.
        let value = marked(json!("number"), "4", vec![json!([])]);
        assert!(!compare_at(
            &Expect::Result(value.clone()),
            &err(ErrorPhase::Parse, "x"),
            Level::Parse
        )
        .is_pass());
        assert!(compare_at(
            &Expect::Result(value),
            &err(ErrorPhase::Eval, "x"),
            Level::Parse
        )
        .is_pass());
    }

    #[test]
    fn errors_compare_by_phase_and_given_summary() {
        use ErrorPhase::*;
        use ExpectedPhase as P;
        let table = [
            (
                expect_err(P::Eval, None),
                err(Eval, "Invalid operand"),
                true,
            ),
            (
                expect_err(P::Eval, Some("Invalid operand")),
                err(Eval, "Invalid operand"),
                true,
            ),
            (
                expect_err(P::Eval, Some("Invalid operand")),
                err(Eval, "Other"),
                false,
            ),
            (expect_err(P::Parse, None), err(Eval, "x"), false),
            (expect_err(P::Eval, None), err(Request, "x"), false),
        ];
        for (e, a, pass) in table {
            let v = compare(&e, &a);
            assert_eq!(v.is_pass(), pass, "{e:?} {a:?}: {v}");
            if !pass {
                assert!(matches!(v, Verdict::ErrorMismatch { .. }));
            }
        }
        let lax = CompareOptions {
            check_summary: false,
            ..CompareOptions::default()
        };
        let v = compare_with(
            &expect_err(P::Eval, Some("Invalid operand")),
            &err(Eval, "Other"),
            lax,
        );
        assert!(v.is_pass());
    }

    #[test]
    fn kind_mismatches_fail_with_diff() {
        let value = Outcome::Result(tv(json!("bool"), "true", vec![]));
        let v = compare(&expect_err(ExpectedPhase::Parse, None), &value);
        let Verdict::Fail { reason, diff } = &v else {
            panic!("{v:?}")
        };
        assert_eq!(reason, "expected a parse error, got a value");
        assert!(diff.expected.contains("\"phase\": \"parse\""));
        assert!(diff.actual.contains("\"result\""));

        let v = compare(
            &Expect::Result(tv(json!("bool"), "true", vec![])),
            &err(ErrorPhase::Eval, "Invalid operand"),
        );
        assert_eq!(v.headline(), "expected a value, got an eval error");
        assert!(v.to_string().contains("Invalid operand"), "{v}");

        let v = compare(
            &Expect::Result(tv(json!("bool"), "true", vec![])),
            &Outcome::Unsupported("no functions".into()),
        );
        assert_eq!(v.headline(), "unsupported: no functions");
        let v = compare(
            &Expect::Result(tv(json!("bool"), "true", vec![])),
            &Outcome::Crash("boom".into()),
        );
        assert_eq!(v.headline(), "engine crashed: boom");
    }

    /// Values decode through the reference codec: numbers by cty equality,
    /// sets regardless of order, unknown paths and types strictly.
    #[test]
    fn values_compare_as_cty_values() {
        let table: &[(TypedValue, TypedValue, bool)] = &[
            (
                tv(json!("number"), "1", vec![]),
                tv(json!("number"), "1.0", vec![]),
                true,
            ),
            (
                tv(json!("number"), "1", vec![]),
                tv(json!("number"), "1e0", vec![]),
                true,
            ),
            // Equal in cty, but a different answer: the sign is kept.
            (
                tv(json!("number"), "0", vec![]),
                tv(json!("number"), "-0", vec![]),
                false,
            ),
            (
                tv(json!("number"), "-0", vec![]),
                tv(json!("number"), "-0.0e5", vec![]),
                true,
            ),
            (
                tv(
                    json!(["tuple", ["number", "string"]]),
                    r#"[-0, "a"]"#,
                    vec![],
                ),
                tv(
                    json!(["tuple", ["number", "string"]]),
                    r#"[0, "a"]"#,
                    vec![],
                ),
                false,
            ),
            (
                tv(
                    json!(["object", {"a": ["list", "number"]}]),
                    r#"{"a": [1, -0]}"#,
                    vec![],
                ),
                tv(
                    json!(["object", {"a": ["list", "number"]}]),
                    r#"{"a": [1, 0]}"#,
                    vec![],
                ),
                false,
            ),
            (
                tv(json!("number"), "1", vec![]),
                tv(json!("number"), "2", vec![]),
                false,
            ),
            (
                tv(json!("number"), "0.1", vec![]),
                tv(json!("number"), "0.10000000000000000001", vec![]),
                false,
            ),
            (
                tv(json!("string"), "\"1\"", vec![]),
                tv(json!("number"), "1", vec![]),
                false,
            ),
            (
                tv(json!(["set", "string"]), r#"["a","b"]"#, vec![]),
                tv(json!(["set", "string"]), r#"["b","a"]"#, vec![]),
                true,
            ),
            (
                tv(json!(["list", "string"]), r#"["a","b"]"#, vec![]),
                tv(json!(["list", "string"]), r#"["b","a"]"#, vec![]),
                false,
            ),
            (
                tv(json!(["list", "string"]), r#"["a",null]"#, vec![json!([1])]),
                tv(json!(["list", "string"]), r#"["a",null]"#, vec![]),
                false,
            ),
            (
                tv(
                    json!(["tuple", ["string", "bool"]]),
                    r#"[null,null]"#,
                    vec![json!([0])],
                ),
                tv(
                    json!(["tuple", ["string", "bool"]]),
                    r#"[null,null]"#,
                    vec![json!([0])],
                ),
                true,
            ),
            (
                tv(json!("dynamic"), "null", vec![json!([])]),
                tv(json!("dynamic"), "null", vec![]),
                false,
            ),
            (
                tv(json!(["list", "number"]), "[]", vec![]),
                tv(json!(["list", "string"]), "[]", vec![]),
                false,
            ),
        ];
        for (e, a, pass) in table {
            let v = compare(&Expect::Result(e.clone()), &Outcome::Result(a.clone()));
            assert_eq!(v.is_pass(), *pass, "{e:?} vs {a:?}: {v}");
        }
    }

    #[test]
    fn undecodable_expected_falls_back_to_json() {
        let bad = tv(json!("lst"), "1", vec![]);
        let v = compare(&Expect::Result(bad.clone()), &Outcome::Result(bad.clone()));
        assert!(v.is_pass(), "{v}");
        let other = tv(json!("lst"), "2", vec![]);
        let v = compare(&Expect::Result(bad), &Outcome::Result(other));
        assert!(v.headline().contains("compared as JSON"), "{v}");
    }

    #[test]
    fn malformed_actual_fails() {
        let v = compare(
            &Expect::Result(tv(json!("number"), "1", vec![])),
            &Outcome::Result(tv(json!("number"), "\"one\"", vec![])),
        );
        assert!(
            v.headline()
                .starts_with("the engine's result is not a valid typed value: value"),
            "{v}"
        );
    }

    #[test]
    fn diff_shows_both_sides() {
        let v = compare(
            &Expect::Result(tv(json!(["list", "number"]), "[1, 2]", vec![])),
            &Outcome::Result(tv(json!(["list", "number"]), "[1, 3]", vec![])),
        );
        let Verdict::Fail { diff, .. } = &v else {
            panic!("{v:?}")
        };
        assert_eq!(
            diff.expected,
            "{\n  \"result\": {\n    \"type\": [\n      \"list\",\n      \"number\"\n    ],\n    \"value\": [\n      1,\n      2\n    ]\n  }\n}"
        );
        let text = diff.to_string();
        assert!(
            text.contains("expected") && text.contains("actual"),
            "{text}"
        );
        assert!(text.contains('2') && text.contains('3'), "{text}");
    }

    #[test]
    fn unified_diff_is_plain_text() {
        let d = Diff {
            expected: "{\n  \"a\": 1\n}".into(),
            actual: "{\n  \"a\": 2\n}".into(),
        };
        assert_eq!(
            d.unified(),
            "--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n {\n-  \"a\": 1\n+  \"a\": 2\n }\n"
        );
    }

    /// Rounding to doubles: equal once rounded, unequal when the doubles
    /// differ; overflow meets the infinity strings; strings untouched.
    #[test]
    fn f64_profile_rounds_both_sides() {
        let num = |text: &str| tv(json!("number"), text, vec![]);
        let table: &[(TypedValue, TypedValue, bool, bool)] = &[
            // (expected, actual, exact match, match after rounding)
            (num("0.1"), num("0.1"), true, true),
            (
                num("0.1000000000000000000000000000001"),
                num("0.1"),
                false,
                true,
            ),
            (
                num("9007199254740993"),
                num("9007199254740992"),
                false,
                true,
            ),
            (
                num("9007199254740994"),
                num("9007199254740992"),
                false,
                false,
            ),
            (num("1e400"), num("\"Infinity\""), false, true),
            (num("-1e400"), num("\"-Infinity\""), false, true),
            (num("0.3"), num("0.30000000000000004"), false, false),
            (
                tv(
                    json!(["list", "number"]),
                    "[1.00000000000000000001, 2]",
                    vec![],
                ),
                tv(json!(["list", "number"]), "[1, 2]", vec![]),
                false,
                true,
            ),
            (
                tv(json!("string"), "\"1.00000000000000000001\"", vec![]),
                tv(json!("string"), "\"1\"", vec![]),
                false,
                false,
            ),
        ];
        for (e, a, exact, rounded) in table {
            assert_eq!(values_match(e, a).is_ok(), *exact, "{e:?} vs {a:?}");
            assert_eq!(values_match_f64(e, a).is_ok(), *rounded, "{e:?} vs {a:?}");
        }
    }
}
