//! Differential comparison of the reference's outcome with another
//! engine's, through the harness's own comparison (`hclspec_protocol::compare`),
//! and the classes a divergence falls into.
//!
//! Each class fails from a function of its own (`divergence_value_mismatch`,
//! ...), so that the crash's stack names the class and libFuzzer's
//! deduplication by stack keeps one reproducer per class.

use std::fmt;

use hclspec_protocol::compare::{compare_with, round_numbers_f64, CompareOptions, Verdict};
use hclspec_protocol::{ErrorBody, ErrorPhase, Outcome, Request, TypedValue};
use hclspec_protocol::{Expect, ExpectedError, ExpectedPhase};

use crate::allow::AllowList;
use crate::oracle::{Answer, OracleKind};

/// What kind of difference a divergence is. "Truth" is the side taken as
/// right (the Go oracle against the reference; the reference against
/// hcl-rs), "tested" the other one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Same type, different value.
    ValueMismatch,
    /// Different result types.
    TypeMismatch,
    /// Same type and known parts, different unknown parts.
    UnknownMismatch,
    /// The truth is a value, the tested engine reports an error.
    ValueVsError,
    /// The truth is an error, the tested engine returns a value.
    ErrorVsValue,
    /// Both report errors, in different phases.
    ErrorPhase,
    /// Both report errors in the same phase with different summaries.
    ErrorSummary,
    /// The reference implementation panicked.
    ReferencePanic,
    /// The engine compared with the reference panicked (hcl-rs).
    OraclePanic,
    /// One side rejected the request itself (its scope) and the other not.
    RequestRejected,
    /// A reference result breaks a value invariant.
    Invariant,
    /// The reference answers differently under HCL 2.14 and 2.24 where the
    /// versions do not differ.
    VersionMismatch,
    /// With the scope made unknown, the reference reports a type the known
    /// result does not conform to.
    UnknownTypeInconsistency,
}

impl Class {
    pub const ALL: [Class; 13] = [
        Class::ValueMismatch,
        Class::TypeMismatch,
        Class::UnknownMismatch,
        Class::ValueVsError,
        Class::ErrorVsValue,
        Class::ErrorPhase,
        Class::ErrorSummary,
        Class::ReferencePanic,
        Class::OraclePanic,
        Class::RequestRejected,
        Class::Invariant,
        Class::VersionMismatch,
        Class::UnknownTypeInconsistency,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::ValueMismatch => "value_mismatch",
            Class::TypeMismatch => "type_mismatch",
            Class::UnknownMismatch => "unknown_mismatch",
            Class::ValueVsError => "value_vs_error",
            Class::ErrorVsValue => "error_vs_value",
            Class::ErrorPhase => "error_phase",
            Class::ErrorSummary => "error_summary",
            Class::ReferencePanic => "reference_panic",
            Class::OraclePanic => "oracle_panic",
            Class::RequestRejected => "request_rejected",
            Class::Invariant => "invariant",
            Class::VersionMismatch => "version_mismatch",
            Class::UnknownTypeInconsistency => "unknown_type_inconsistency",
        }
    }

    pub fn from_name(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Panics from this class's own function.
    pub fn fail(self, message: &str) -> ! {
        match self {
            Class::ValueMismatch => divergence_value_mismatch(message),
            Class::TypeMismatch => divergence_type_mismatch(message),
            Class::UnknownMismatch => divergence_unknown_mismatch(message),
            Class::ValueVsError => divergence_value_vs_error(message),
            Class::ErrorVsValue => divergence_error_vs_value(message),
            Class::ErrorPhase => divergence_error_phase(message),
            Class::ErrorSummary => divergence_error_summary(message),
            Class::ReferencePanic => divergence_reference_panic(message),
            Class::OraclePanic => divergence_oracle_panic(message),
            Class::RequestRejected => divergence_request_rejected(message),
            Class::Invariant => divergence_invariant(message),
            Class::VersionMismatch => divergence_version_mismatch(message),
            Class::UnknownTypeInconsistency => divergence_unknown_type_inconsistency(message),
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[inline(never)]
#[cold]
pub fn divergence_value_mismatch(message: &str) -> ! {
    panic!("divergence (value mismatch): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_type_mismatch(message: &str) -> ! {
    panic!("divergence (type mismatch): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_unknown_mismatch(message: &str) -> ! {
    panic!("divergence (unknown parts differ): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_value_vs_error(message: &str) -> ! {
    panic!("divergence (value expected, error reported): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_error_vs_value(message: &str) -> ! {
    panic!("divergence (error expected, value returned): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_error_phase(message: &str) -> ! {
    panic!("divergence (error phase): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_error_summary(message: &str) -> ! {
    panic!("divergence (error summary): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_reference_panic(message: &str) -> ! {
    panic!("divergence (reference panic): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_oracle_panic(message: &str) -> ! {
    panic!("divergence (engine panic): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_request_rejected(message: &str) -> ! {
    panic!("divergence (request rejected): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_invariant(message: &str) -> ! {
    panic!("divergence (value invariant): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_version_mismatch(message: &str) -> ! {
    panic!("divergence (version mismatch): {message}")
}
#[inline(never)]
#[cold]
pub fn divergence_unknown_type_inconsistency(message: &str) -> ! {
    panic!("divergence (type under unknowns): {message}")
}

/// A difference that no allowance explains.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    pub class: Class,
    pub oracle: OracleKind,
    /// One line: what differs.
    pub headline: String,
    /// Both sides, for the report.
    pub detail: String,
    /// What the two sides answered, abstracted (types, error summaries):
    /// divergences with the same signature are very likely one bug.
    pub signature: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{} vs {}] {}: {}\n{}",
            self.oracle.name(),
            OracleKind::Reference.name(),
            self.class,
            self.headline,
            self.detail
        )
    }
}

/// How one case compared.
#[derive(Clone, Debug, PartialEq)]
pub enum DiffResult {
    /// The engines agree.
    Same,
    /// The other engine does not support the case.
    Skipped(String),
    /// The other engine failed in itself; nothing is known.
    Poisoned(String),
    /// They differ in a way the allow-list explains; the rule's id.
    Accepted(String),
    Diverged(Divergence),
}

/// Compares the reference's `reference` outcome for `req` with `other`'s
/// answer from `oracle`.
pub fn compare_outcomes(
    oracle: OracleKind,
    req: &Request,
    reference: &Outcome,
    other: &Answer,
    allow: &AllowList,
) -> DiffResult {
    let other = match other {
        Answer::Poisoned(why) => return DiffResult::Poisoned(why.clone()),
        Answer::Outcome(o) => o,
    };
    let diverged = |class: Class, headline: String, detail: String| {
        let d = Divergence {
            class,
            oracle,
            headline,
            detail,
            signature: signature(oracle, class, reference, other),
        };
        match allow.explain(req, reference, other, &d) {
            Some(id) => DiffResult::Accepted(id),
            None => DiffResult::Diverged(d),
        }
    };
    if let Outcome::Crash(msg) = reference {
        return diverged(Class::ReferencePanic, msg.clone(), String::new());
    }
    match other {
        Outcome::Unsupported(why) => return DiffResult::Skipped(why.clone()),
        Outcome::Crash(msg) if !oracle.crash_is_divergence() => {
            return DiffResult::Poisoned(format!("{} crashed: {msg}", oracle.name()));
        }
        Outcome::Crash(msg) => {
            return diverged(Class::OraclePanic, msg.clone(), source_line(req));
        }
        _ => {}
    }
    if let Outcome::Unsupported(why) = reference {
        return DiffResult::Skipped(format!("reference: {why}"));
    }
    let request_error =
        |o: &Outcome| matches!(o, Outcome::Error(e) if e.phase == ErrorPhase::Request);
    match (request_error(reference), request_error(other)) {
        (true, true) => return DiffResult::Same,
        (false, false) => {}
        _ => {
            let detail = format!(
                "reference: {}\n{}: {}",
                outcome_line(reference),
                oracle.name(),
                outcome_line(other)
            );
            return diverged(Class::RequestRejected, MSG_REQUEST.into(), detail);
        }
    }

    // The truth is the expectation; the tested side is the actual outcome.
    let (truth, tested, opts) = match oracle {
        OracleKind::HclRs => (
            normalize_f64(reference),
            normalize_f64(other),
            CompareOptions {
                check_summary: false,
                ..Default::default()
            },
        ),
        // Terraform writes plan values through go-cty's msgpack, which
        // drops the sign of a zero (harness/oracles/terraform/README.md).
        OracleKind::Terraform => (
            other.clone(),
            reference.clone(),
            CompareOptions {
                zero_sign: false,
                ..Default::default()
            },
        ),
        _ => (other.clone(), reference.clone(), CompareOptions::default()),
    };
    let Some(expect) = expect_of(&truth, opts.check_summary) else {
        return DiffResult::Skipped(MSG_NO_EXPECTATION.into());
    };
    let verdict = compare_with(&expect, &tested, opts);
    if verdict.is_pass() {
        return DiffResult::Same;
    }
    let class = classify(&truth, &tested, &verdict);
    let detail = format!(
        "{}\n{}: {}\n{}: {}",
        source_line(req),
        truth_name(oracle),
        outcome_line(&truth),
        tested_name(oracle),
        outcome_line(&tested)
    );
    diverged(class, verdict.headline(), detail)
}

const MSG_REQUEST: &str = "one engine rejected the request and the other did not";
const MSG_NO_EXPECTATION: &str = "no comparable answer";

fn truth_name(oracle: OracleKind) -> &'static str {
    match oracle {
        OracleKind::HclRs => "reference",
        other => other.name(),
    }
}

fn tested_name(oracle: OracleKind) -> &'static str {
    match oracle {
        OracleKind::HclRs => "hclrs",
        _ => "reference",
    }
}

/// The source, for reports.
pub fn source_line(req: &Request) -> String {
    format!("{} {:?}", req.kind.as_str(), req.source)
}

/// The expectation an outcome makes, as the corpus records it.
pub fn expect_of(outcome: &Outcome, with_summary: bool) -> Option<Expect> {
    match outcome {
        Outcome::Result(tv) => Some(Expect::Result(tv.clone())),
        Outcome::Error(e) => {
            let phase = match e.phase {
                ErrorPhase::Parse => ExpectedPhase::Parse,
                ErrorPhase::Eval => ExpectedPhase::Eval,
                ErrorPhase::Request => return None,
            };
            Some(Expect::Error(ExpectedError {
                phase,
                summary: with_summary.then(|| e.summary.clone()),
            }))
        }
        _ => None,
    }
}

/// Numbers rounded to `f64`, hcl-rs's number type.
fn normalize_f64(o: &Outcome) -> Outcome {
    match o {
        Outcome::Result(tv) => Outcome::Result(round_numbers_f64(tv)),
        other => other.clone(),
    }
}

fn classify(truth: &Outcome, tested: &Outcome, verdict: &Verdict) -> Class {
    match (truth, tested, verdict) {
        (Outcome::Result(a), Outcome::Result(b), _) => {
            if a.ty != b.ty && a.decode_type().ok() != b.decode_type().ok() {
                Class::TypeMismatch
            } else if unknown_paths(a) != unknown_paths(b) {
                Class::UnknownMismatch
            } else {
                Class::ValueMismatch
            }
        }
        (Outcome::Result(_), _, _) => Class::ValueVsError,
        (_, Outcome::Result(_), _) => Class::ErrorVsValue,
        (Outcome::Error(a), Outcome::Error(b), _) if a.phase != b.phase => Class::ErrorPhase,
        _ => Class::ErrorSummary,
    }
}

fn unknown_paths(tv: &TypedValue) -> Vec<String> {
    let mut v: Vec<String> = tv.unknown.iter().map(|p| p.to_string()).collect();
    v.sort();
    v
}

/// A one-line account of an outcome.
pub fn outcome_line(o: &Outcome) -> String {
    match o {
        Outcome::Result(tv) => {
            let mut s = format!("{} {}", tv.ty, tv.value);
            if !tv.unknown.is_empty() {
                let paths: Vec<String> = tv.unknown.iter().map(|p| p.to_string()).collect();
                s.push_str(&format!(" unknown at {}", paths.join(" ")));
            }
            s
        }
        Outcome::Error(e) => format!("{} error {:?}: {}", e.phase.as_str(), e.summary, e.detail),
        Outcome::Parsed => "parsed".into(),
        Outcome::Unsupported(why) => format!("unsupported: {why}"),
        Outcome::Crash(why) => format!("crash: {why}"),
    }
}

/// `oracle/class/truth/tested`, each side as its outcome kind with the
/// result's outermost type or the error's phase and summary.
fn signature(oracle: OracleKind, class: Class, reference: &Outcome, other: &Outcome) -> String {
    let (truth, tested) = match oracle {
        OracleKind::HclRs => (reference, other),
        _ => (other, reference),
    };
    format!(
        "{}/{}/{}/{}",
        oracle.name(),
        class,
        abstract_outcome(truth),
        abstract_outcome(tested)
    )
}

/// An outcome without its particulars.
pub fn abstract_outcome(o: &Outcome) -> String {
    match o {
        Outcome::Result(tv) => format!("value:{}", type_head(&tv.ty)),
        Outcome::Error(ErrorBody { phase, summary, .. }) => {
            // hcl-rs's summaries quote values and cite positions: keep the
            // first line's words before any quote, without numbers.
            let first = summary.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            let words = first.split('`').next().unwrap_or("").trim();
            format!("{}:{}", phase.as_str(), without_numbers(words))
        }
        Outcome::Parsed => "parsed".into(),
        Outcome::Unsupported(_) => "unsupported".into(),
        Outcome::Crash(msg) => {
            let head = msg.split(" (at ").next().unwrap_or(msg);
            format!("crash:{}", head.chars().take(60).collect::<String>())
        }
    }
}

/// Every run of digits as `#`.
pub fn without_numbers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn type_head(ty: &serde_json::Value) -> String {
    match ty {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(a) => a
            .first()
            .and_then(|t| t.as_str())
            .unwrap_or("?")
            .to_string(),
        _ => "?".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::req;
    use serde_json::json;

    fn value(ty: serde_json::Value, v: &str) -> Outcome {
        Outcome::Result(TypedValue {
            ty,
            value: serde_json::from_str(v).unwrap(),
            unknown: vec![],
            ..Default::default()
        })
    }

    fn error(phase: ErrorPhase, summary: &str) -> Outcome {
        Outcome::Error(ErrorBody {
            phase,
            summary: summary.into(),
            detail: String::new(),
            range: None,
            library_panic: false,
        })
    }

    fn class_of(oracle: OracleKind, reference: &Outcome, other: Outcome) -> Option<Class> {
        let allow = AllowList::empty();
        match compare_outcomes(
            oracle,
            &req("x"),
            reference,
            &Answer::Outcome(other),
            &allow,
        ) {
            DiffResult::Diverged(d) => Some(d.class),
            DiffResult::Same => None,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn classes_from_outcome_pairs() {
        use ErrorPhase::*;
        use OracleKind::*;
        let n1 = value(json!("number"), "1");
        let table: Vec<(OracleKind, Outcome, Outcome, Option<Class>)> = vec![
            (Go, n1.clone(), value(json!("number"), "1.0"), None),
            (
                Go,
                n1.clone(),
                value(json!("number"), "2"),
                Some(Class::ValueMismatch),
            ),
            (
                Go,
                n1.clone(),
                value(json!("string"), "\"1\""),
                Some(Class::TypeMismatch),
            ),
            (
                Go,
                n1.clone(),
                error(Eval, "Invalid operand"),
                Some(Class::ErrorVsValue),
            ),
            (Go, error(Eval, "x"), n1.clone(), Some(Class::ValueVsError)),
            (
                Go,
                error(Eval, "a"),
                error(Parse, "a"),
                Some(Class::ErrorPhase),
            ),
            (
                Go,
                error(Eval, "a"),
                error(Eval, "b"),
                Some(Class::ErrorSummary),
            ),
            // Against hcl-rs, summaries never count, numbers are doubles.
            (HclRs, error(Eval, "a"), error(Eval, "b"), None),
            (
                HclRs,
                value(json!("number"), "0.1000000000000000000001"),
                value(json!("number"), "0.1"),
                None,
            ),
            (
                HclRs,
                n1.clone(),
                error(Eval, "b"),
                Some(Class::ValueVsError),
            ),
            (
                HclRs,
                n1.clone(),
                Outcome::Crash("boom".into()),
                Some(Class::OraclePanic),
            ),
            (
                Go,
                Outcome::Crash("boom".into()),
                n1.clone(),
                Some(Class::ReferencePanic),
            ),
            (
                Go,
                n1.clone(),
                error(Request, "bad scope"),
                Some(Class::RequestRejected),
            ),
        ];
        for (oracle, reference, other, want) in table {
            let got = class_of(oracle, &reference, other.clone());
            assert_eq!(got, want, "{oracle:?} {reference:?} {other:?}");
        }
    }

    #[test]
    fn go_crashes_and_unsupported_are_not_divergences() {
        let allow = AllowList::empty();
        let n1 = value(json!("number"), "1");
        let r = compare_outcomes(
            OracleKind::Go,
            &req("x"),
            &n1,
            &Answer::Outcome(Outcome::Crash("fatal error: stack overflow".into())),
            &allow,
        );
        assert!(matches!(r, DiffResult::Poisoned(_)), "{r:?}");
        let r = compare_outcomes(
            OracleKind::HclRs,
            &req("x"),
            &n1,
            &Answer::Outcome(Outcome::Unsupported("no unknowns".into())),
            &allow,
        );
        assert!(matches!(r, DiffResult::Skipped(_)), "{r:?}");
        let r = compare_outcomes(
            OracleKind::Go,
            &req("x"),
            &n1,
            &Answer::Poisoned("timed out".into()),
            &allow,
        );
        assert!(matches!(r, DiffResult::Poisoned(_)), "{r:?}");
    }

    #[test]
    fn class_names_round_trip_and_fail_from_their_function() {
        for c in Class::ALL {
            assert_eq!(Class::from_name(c.name()), Some(c));
        }
        let r = std::panic::catch_unwind(|| Class::ErrorPhase.fail("x"));
        let msg = hclspec_protocol::panic_message(&*r.unwrap_err());
        assert!(msg.starts_with("divergence (error phase)"), "{msg}");
    }
}
