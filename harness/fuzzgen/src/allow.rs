//! Accepted differences: the normalization that turns known, documented
//! differences into non-divergences, each with its reason.
//!
//! The list is `fuzz/accepted.json` (compiled in). An entry names the
//! engine, a reason, and either a built-in rule (a predicate written here,
//! for differences that need to look at values) or a declarative `match`
//! on the divergence class, the source and the two outcomes, or both (then
//! both must hold).

use hclspec_protocol::{ErrorPhase, Outcome, Request, TypedValue};
use hclspec_reference::convert::convert;
use hclspec_reference::text::normalize_string;
use hclspec_reference::Number;
use serde_json::Value as Json;

use crate::diff::{abstract_outcome, Class, Divergence};
use crate::oracle::OracleKind;
use crate::tokens::tokenize;

/// The accepted differences shipped with the fuzzers.
pub const ACCEPTED_JSON: &str = include_str!("../../../fuzz/accepted.json");

/// Built-in predicates an entry can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The case uses numbers that a `u64`/`i64`/`f64` does not hold
    /// exactly, or arithmetic whose result may not be held exactly.
    F64Numbers,
    /// The tested value, converted to the truth's type with cty's
    /// conversion, equals the truth's value: only the type differs.
    UntypedValues,
    /// The results are equal once the elements of every sequence are
    /// sorted: only an iteration order differs.
    IterationOrder,
    /// The truth is a value and the tested engine reports a type error.
    NoImplicitConversion,
    /// The case compares with `==` or `!=` while the scope holds unknown
    /// values, and one side's bool is unknown where the other's is known.
    UnknownEqualityOrder,
    /// A panic from an arithmetic overflow check (only in builds with
    /// overflow checks, which fuzz builds have).
    OverflowCheck,
    /// One side reports a parse error for a source with a line break
    /// outside heredocs, or with a comment.
    LineBreaksAndComments,
    /// The source holds text that NFC normalization changes.
    NonNfcSource,
    /// A scope value holds a set somewhere.
    ScopeSets,
    /// A line of a heredoc starts with its marker followed by a character
    /// that can not continue a name.
    HeredocMarkerPrefix,
    /// The source iterates an object constructor (`in {`).
    IteratesObjectConstructor,
}

impl Rule {
    fn from_name(name: &str) -> Option<Rule> {
        Some(match name {
            "f64_numbers" => Rule::F64Numbers,
            "untyped_values" => Rule::UntypedValues,
            "iteration_order" => Rule::IterationOrder,
            "no_implicit_conversion" => Rule::NoImplicitConversion,
            "unknown_equality_order" => Rule::UnknownEqualityOrder,
            "overflow_check" => Rule::OverflowCheck,
            "line_breaks_and_comments" => Rule::LineBreaksAndComments,
            "non_nfc_source" => Rule::NonNfcSource,
            "scope_sets" => Rule::ScopeSets,
            "heredoc_marker_prefix" => Rule::HeredocMarkerPrefix,
            "iterates_object_constructor" => Rule::IteratesObjectConstructor,
            _ => return None,
        })
    }
}

/// A declarative condition on a divergence. Every given field must hold.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matcher {
    /// One of these classes.
    pub classes: Vec<Class>,
    /// Every one of these substrings occurs in the source.
    pub source_contains: Vec<String>,
    /// A substring of the truth's abstract outcome (`value:number`,
    /// `eval:Invalid operand`, `crash:...`).
    pub truth: Option<String>,
    /// A substring of the tested side's abstract outcome.
    pub tested: Option<String>,
    /// A substring of the tested side's full error detail or crash text.
    pub tested_detail: Option<String>,
}

/// One accepted difference.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub id: String,
    pub oracle: OracleKind,
    pub reason: String,
    pub rule: Option<Rule>,
    pub matcher: Option<Matcher>,
}

/// The accepted differences.
#[derive(Clone, Debug, Default)]
pub struct AllowList {
    pub entries: Vec<Entry>,
}

impl AllowList {
    pub fn empty() -> AllowList {
        AllowList::default()
    }

    /// The shipped list. It is checked by the tests, so a broken file can
    /// not get this far.
    pub fn shipped() -> AllowList {
        AllowList::parse(ACCEPTED_JSON).expect("fuzz/accepted.json is valid")
    }

    /// Reads an accepted-differences document.
    pub fn parse(text: &str) -> Result<AllowList, String> {
        let doc: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let items = doc
            .get("accepted")
            .and_then(Json::as_array)
            .ok_or("missing array `accepted`")?;
        let mut entries = Vec::new();
        for (i, item) in items.iter().enumerate() {
            entries.push(parse_entry(item).map_err(|e| format!("accepted[{i}]: {e}"))?);
        }
        Ok(AllowList { entries })
    }

    /// The id of the first entry that explains `d`, if any.
    pub fn explain(
        &self,
        req: &Request,
        reference: &Outcome,
        other: &Outcome,
        d: &Divergence,
    ) -> Option<String> {
        let (truth, tested) = match d.oracle {
            OracleKind::HclRs => (reference, other),
            _ => (other, reference),
        };
        let facts = Facts {
            req,
            truth,
            tested,
            class: d.class,
            tokens: std::cell::OnceCell::new(),
        };
        self.entries
            .iter()
            .find(|e| e.oracle == d.oracle && e.holds(&facts))
            .map(|e| e.id.clone())
    }
}

/// What an entry is checked against.
struct Facts<'a> {
    req: &'a Request,
    truth: &'a Outcome,
    tested: &'a Outcome,
    class: Class,
    /// The source's tokens, cut once for all the rules that read them.
    tokens: std::cell::OnceCell<Vec<&'a str>>,
}

impl<'a> Facts<'a> {
    fn tokens(&self) -> &[&'a str] {
        self.tokens.get_or_init(|| tokenize(&self.req.source))
    }
}

impl Entry {
    fn holds(&self, f: &Facts<'_>) -> bool {
        self.rule.is_none_or(|r| rule_holds(r, f))
            && self.matcher.as_ref().is_none_or(|m| m.holds(f))
    }
}

impl Matcher {
    fn holds(&self, f: &Facts<'_>) -> bool {
        (self.classes.is_empty() || self.classes.contains(&f.class))
            && self
                .source_contains
                .iter()
                .all(|s| f.req.source.contains(s.as_str()))
            && self
                .truth
                .as_ref()
                .is_none_or(|t| abstract_outcome(f.truth).contains(t.as_str()))
            && self
                .tested
                .as_ref()
                .is_none_or(|t| abstract_outcome(f.tested).contains(t.as_str()))
            && self
                .tested_detail
                .as_ref()
                .is_none_or(|t| detail_of(f.tested).contains(t.as_str()))
    }
}

fn detail_of(o: &Outcome) -> String {
    match o {
        Outcome::Error(e) => format!("{} {}", e.summary, e.detail),
        Outcome::Crash(s) | Outcome::Unsupported(s) => s.clone(),
        Outcome::Result(tv) => tv.value.to_string(),
        Outcome::Parsed => String::new(),
    }
}

fn parse_entry(item: &Json) -> Result<Entry, String> {
    let text = |key: &str| item.get(key).and_then(Json::as_str).map(str::to_string);
    let id = text("id").ok_or("missing `id`")?;
    let reason = text("reason").filter(|r| !r.trim().is_empty());
    let reason = reason.ok_or_else(|| format!("{id}: missing `reason`"))?;
    let oracle = match text("oracle").as_deref() {
        Some("go") => OracleKind::Go,
        Some("hclrs") => OracleKind::HclRs,
        Some("terraform") => OracleKind::Terraform,
        Some("terraform-0.11") => OracleKind::Terraform011,
        other => {
            return Err(format!(
                "{id}: `oracle` must be \"go\", \"hclrs\", \"terraform\" or \"terraform-0.11\", not {other:?}"
            ))
        }
    };
    let rule = match text("rule") {
        Some(name) => {
            Some(Rule::from_name(&name).ok_or_else(|| format!("{id}: unknown rule {name:?}"))?)
        }
        None => None,
    };
    let matcher = match item.get("match") {
        Some(m) => Some(parse_matcher(m).map_err(|e| format!("{id}: match: {e}"))?),
        None => None,
    };
    if rule.is_none() && matcher.is_none() {
        return Err(format!("{id}: needs `rule` or `match`"));
    }
    let known = ["id", "reason", "oracle", "rule", "match", "see"];
    if let Some(k) = item
        .as_object()
        .and_then(|o| o.keys().find(|k| !known.contains(&k.as_str())))
    {
        return Err(format!("{id}: unknown field `{k}`"));
    }
    Ok(Entry {
        id,
        oracle,
        reason,
        rule,
        matcher,
    })
}

fn parse_matcher(m: &Json) -> Result<Matcher, String> {
    let obj = m.as_object().ok_or("must be an object")?;
    let mut out = Matcher::default();
    for (k, v) in obj {
        let strings = || -> Result<Vec<String>, String> {
            match v {
                Json::String(s) => Ok(vec![s.clone()]),
                Json::Array(a) => a
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .map(str::to_string)
                            .ok_or("strings only".to_string())
                    })
                    .collect(),
                _ => Err(format!("`{k}` must be a string or an array of strings")),
            }
        };
        let one = || {
            v.as_str()
                .map(str::to_string)
                .ok_or(format!("`{k}` must be a string"))
        };
        match k.as_str() {
            "class" => {
                for name in strings()? {
                    out.classes
                        .push(Class::from_name(&name).ok_or(format!("unknown class {name:?}"))?);
                }
            }
            "source_contains" => out.source_contains = strings()?,
            "truth" => out.truth = Some(one()?),
            "tested" => out.tested = Some(one()?),
            "tested_detail" => out.tested_detail = Some(one()?),
            other => return Err(format!("unknown field `{other}`")),
        }
    }
    Ok(out)
}

fn rule_holds(rule: Rule, f: &Facts<'_>) -> bool {
    match rule {
        Rule::F64Numbers => {
            // A negative zero anywhere in the answer: hcl-rs has none.
            let negative_zero =
                matches!(f.truth, Outcome::Result(tv) if tv.value.to_string().contains("-0"));
            negative_zero || f64_sensitive_tokens(f.req, f.tokens())
        }
        Rule::UntypedValues => match (f.truth, f.tested) {
            (Outcome::Result(t), Outcome::Result(x)) => converts_to_equal(x, t),
            _ => false,
        },
        Rule::IterationOrder => match (f.truth, f.tested) {
            (Outcome::Result(t), Outcome::Result(x)) => sorted(&t.value) == sorted(&x.value),
            _ => false,
        },
        Rule::NoImplicitConversion => {
            matches!(f.truth, Outcome::Result(_))
                && matches!(f.tested, Outcome::Error(e) if e.phase == ErrorPhase::Eval
                    && TYPE_ERRORS.iter().any(|p| e.summary.starts_with(p)))
        }
        Rule::UnknownEqualityOrder => {
            let has_eq = f.tokens().iter().any(|t| *t == "==" || *t == "!=");
            let has_unknown = f.req.scope.values().any(|tv| !tv.unknown.is_empty());
            // The answers agree but for some result being unknown on one
            // side: compare them with every unknown part made null.
            let same_but_unknowns = match (f.truth, f.tested) {
                (Outcome::Result(t), Outcome::Result(x)) => {
                    t.ty == x.ty && t.unknown != x.unknown && nulled(t) == nulled(x)
                }
                _ => false,
            };
            has_eq && has_unknown && same_but_unknowns
        }
        Rule::OverflowCheck => {
            matches!(f.tested, Outcome::Crash(m) if m.contains("with overflow"))
        }
        Rule::LineBreaksAndComments => {
            let parse_error =
                |o: &Outcome| matches!(o, Outcome::Error(e) if e.phase == ErrorPhase::Parse);
            let toks = f.tokens();
            let comment = toks.iter().any(|t| matches!(*t, "#" | "/"));
            (parse_error(f.truth) || parse_error(f.tested))
                && (comment
                    || line_break_outside_heredocs(&f.req.source)
                    || line_break_in_template_sequence(toks))
        }
        Rule::NonNfcSource => normalize_string(f.req.source.clone()) != f.req.source,
        Rule::HeredocMarkerPrefix => heredoc_marker_prefix(&f.req.source),
        Rule::IteratesObjectConstructor => {
            let toks: Vec<&str> = f
                .tokens()
                .iter()
                .copied()
                .filter(|t| !t.trim().is_empty())
                .collect();
            toks.windows(2).any(|w| w[0] == "in" && w[1] == "{")
        }
        Rule::ScopeSets => f
            .req
            .scope
            .values()
            .any(|tv| tv.ty.to_string().contains("\"set\"")),
    }
}

/// Whether `source` has a line break that is not part of a heredoc (its
/// opening line's end, its body, its closing marker's line end).
pub fn line_break_outside_heredocs(source: &str) -> bool {
    let mut marker: Option<String> = None;
    for line in source.split_inclusive('\n') {
        if let Some(m) = &marker {
            if line.trim() == m {
                marker = None;
            }
            continue;
        }
        if let Some(at) = line.find("<<") {
            let rest = line[at + 2..].trim_start_matches('-');
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && line.ends_with('\n') {
                marker = Some(name);
                continue;
            }
        }
        if line.ends_with('\n') {
            return true;
        }
    }
    false
}

/// Whether a line after a heredoc opener starts with the opener's marker
/// and goes on with a character that can not continue a name (`EOT,`).
pub fn heredoc_marker_prefix(source: &str) -> bool {
    let mut markers: Vec<String> = Vec::new();
    for line in source.lines() {
        let trimmed = line.trim_start();
        for m in &markers {
            if let Some(rest) = trimmed.strip_prefix(m.as_str()) {
                if rest
                    .chars()
                    .next()
                    .is_some_and(|c| !(c.is_alphanumeric() || c == '_' || c == '-'))
                {
                    return true;
                }
            }
        }
        let mut rest = line;
        while let Some(at) = rest.find("<<") {
            let after = rest[at + 2..].trim_start_matches('-');
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                markers.push(name);
            }
            rest = &rest[at + 2..];
        }
    }
    false
}

/// Whether a line break occurs inside a `${...}` or `%{...}` sequence.
fn line_break_in_template_sequence(toks: &[&str]) -> bool {
    let mut stack: Vec<bool> = Vec::new();
    for t in toks {
        match *t {
            "${" | "%{" => stack.push(true),
            "{" => stack.push(false),
            "}" | "~}" => {
                stack.pop();
            }
            t if t.contains('\n') && stack.contains(&true) => return true,
            _ => {}
        }
    }
    false
}

/// The value with every unknown part, and every bool, made null: what two
/// answers that differ only in unknown-versus-known bools share.
fn nulled(tv: &TypedValue) -> Json {
    fn clear_bools(v: &mut Json) {
        match v {
            Json::Bool(_) => *v = Json::Null,
            Json::Array(items) => items.iter_mut().for_each(clear_bools),
            Json::Object(m) => m.values_mut().for_each(clear_bools),
            _ => {}
        }
    }
    let mut v = tv.value.clone();
    clear_bools(&mut v);
    v
}

/// hcl-rs's type errors: what its evaluator reports where HCL converts.
const TYPE_ERRORS: &[&str] = &["unexpected value", "binary operator", "unary operator"];

/// Whether `tested` converts (as cty converts) to `truth`'s type and then
/// equals it.
fn converts_to_equal(tested: &TypedValue, truth: &TypedValue) -> bool {
    let (Ok(t), Ok(ty), Ok(x)) = (truth.decode(), truth.decode_type(), tested.decode()) else {
        return false;
    };
    match convert(&x, &ty) {
        Ok(converted) => converted.raw_equals(&t),
        Err(_) => false,
    }
}

/// A JSON document with every array sorted by the elements' text.
fn sorted(v: &Json) -> Json {
    match v {
        Json::Array(items) => {
            let mut items: Vec<Json> = items.iter().map(sorted).collect();
            items.sort_by_key(|x| x.to_string());
            Json::Array(items)
        }
        Json::Object(m) => Json::Object(m.iter().map(|(k, x)| (k.clone(), sorted(x))).collect()),
        other => other.clone(),
    }
}

/// Whether the case's numbers or arithmetic leave what `u64`, `i64` and
/// `f64` hold exactly: a division or modulo, two or more multiplications
/// (a product may pass `i64`), or a number (in the source or the scope)
/// that is not exactly a double of magnitude at most 2^31, or is -0.
pub fn f64_sensitive(req: &Request) -> bool {
    f64_sensitive_tokens(req, &tokenize(&req.source))
}

/// [`f64_sensitive`] with the source's tokens already cut.
fn f64_sensitive_tokens(req: &Request, toks: &[&str]) -> bool {
    if toks.iter().any(|t| *t == "/" || *t == "%") {
        return true;
    }
    if toks.iter().filter(|t| **t == "*").count() >= 2 {
        return true;
    }
    // hcl-rs has no negative zero.
    let non_space: Vec<&&str> = toks.iter().filter(|t| !t.trim().is_empty()).collect();
    let negated_zero = non_space
        .windows(2)
        .any(|w| *w[0] == "-" && Number::parse(w[1]).is_some_and(|n| n.is_zero()));
    if negated_zero {
        return true;
    }
    let literal_inexact = toks.iter().any(|t| {
        t.starts_with(|c: char| c.is_ascii_digit())
            && !Number::parse(t).is_some_and(|n| exact_small(&n))
    });
    // The scope's numbers are the JSON numbers of its values (with every
    // digit): read where they are, without decoding the values.
    literal_inexact || req.scope.values().any(|tv| has_inexact_number(&tv.value))
}

/// 2^31: products of two such numbers still fit an `i64`.
const EXACT_LIMIT: f64 = 2_147_483_648.0;

fn exact_small(n: &Number) -> bool {
    if n.is_zero() {
        return !n.is_sign_negative();
    }
    let f = n.to_f64();
    f.is_finite()
        && f.abs() <= EXACT_LIMIT
        && Number::try_from_f64(f).is_ok_and(|back| back.cmp(n).is_eq())
}

fn has_inexact_number(v: &Json) -> bool {
    match v {
        Json::Number(n) => !Number::parse(&n.to_string()).is_some_and(|n| exact_small(&n)),
        Json::Array(items) => items.iter().any(has_inexact_number),
        Json::Object(attrs) => attrs.values().any(has_inexact_number),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::req;
    use serde_json::json;

    #[test]
    fn shipped_list_parses_with_reasons() {
        let list = AllowList::parse(ACCEPTED_JSON).unwrap();
        assert!(!list.entries.is_empty());
        let mut ids: Vec<&str> = list.entries.iter().map(|e| e.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), list.entries.len(), "ids are unique");
    }

    #[test]
    fn malformed_entries_are_rejected() {
        let table = [
            (
                r#"{"accepted": [{"id": "a", "oracle": "go", "rule": "f64_numbers"}]}"#,
                "reason",
            ),
            (
                r#"{"accepted": [{"id": "a", "oracle": "x", "reason": "r", "rule": "f64_numbers"}]}"#,
                "oracle",
            ),
            (
                r#"{"accepted": [{"id": "a", "oracle": "go", "reason": "r"}]}"#,
                "needs",
            ),
            (
                r#"{"accepted": [{"id": "a", "oracle": "go", "reason": "r", "rule": "nope"}]}"#,
                "unknown rule",
            ),
            (
                r#"{"accepted": [{"id": "a", "oracle": "go", "reason": "r", "match": {"class": "nope"}}]}"#,
                "unknown class",
            ),
            (
                r#"{"accepted": [{"id": "a", "oracle": "go", "reason": "r", "rule": "f64_numbers", "x": 1}]}"#,
                "unknown field",
            ),
        ];
        for (text, want) in table {
            let err = AllowList::parse(text).unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    #[test]
    fn f64_sensitivity() {
        let table = [
            ("1 + 2", false),
            ("0.5 * 4", false),
            ("1 / 3", true),
            ("5 % 2", true),
            ("0.1 + 0.2", true),
            ("18446744073709551616", true),
            ("2 * 3 * 4", true),
            ("-0", true),
            ("\"a\"", false),
        ];
        for (src, want) in table {
            assert_eq!(f64_sensitive(&req(src)), want, "{src}");
        }
        let mut r = req("x");
        r.scope.insert(
            "x".into(),
            TypedValue {
                ty: json!(["list", "number"]),
                value: json!([1, 0.1]),
                unknown: vec![],
                ..Default::default()
            },
        );
        assert!(f64_sensitive(&r));
    }

    #[test]
    fn line_breaks_outside_heredocs() {
        let table = [
            ("1 +\n2", true),
            ("(<<EOT\na\nEOT\n)", false),
            ("(<<-EOT\n  a\n  EOT\n)", false),
            ("(<<EOT\na\nEOT\n) +\n1", true),
            ("\"a\"", false),
        ];
        for (src, want) in table {
            assert_eq!(line_break_outside_heredocs(src), want, "{src:?}");
        }
    }

    /// A few shipped entries on the differences they describe; each was
    /// seen between the Go oracle (or the reference) and the other engine.
    #[test]
    fn shipped_entries_explain_their_differences() {
        use crate::diff::{compare_outcomes, DiffResult};
        use crate::oracle::Answer;
        use hclspec_protocol::ErrorBody;
        let value = |ty: Json, v: Json, unknown: Vec<Json>| {
            Outcome::Result(TypedValue {
                ty,
                value: v,
                unknown,
                ..Default::default()
            })
        };
        let error = |phase: ErrorPhase, summary: &str| {
            Outcome::Error(ErrorBody {
                phase,
                summary: summary.into(),
                detail: String::new(),
                range: None,
                library_panic: false,
            })
        };
        let mut with_unknown = req("{a = x, b = 1} == {a = x, b = 2}");
        with_unknown.scope.insert(
            "x".into(),
            TypedValue {
                ty: json!("string"),
                value: Json::Null,
                unknown: vec![json!([])],
                ..Default::default()
            },
        );
        let nested = with_unknown.clone();
        let table: Vec<(OracleKind, Request, Outcome, Outcome, &str)> = vec![
            (
                OracleKind::Go,
                nested,
                value(
                    json!(["object", {"_": "bool"}]),
                    json!({"_": false}),
                    vec![],
                ),
                value(
                    json!(["object", {"_": "bool"}]),
                    json!({"_": null}),
                    vec![json!(["_"])],
                ),
                "go-unknown-equality-order",
            ),
            // (engine, request, reference's answer, engine's answer, entry)
            (
                OracleKind::Go,
                with_unknown,
                value(json!("bool"), Json::Null, vec![json!([])]),
                value(json!("bool"), json!(false), vec![]),
                "go-unknown-equality-order",
            ),
            (
                OracleKind::HclRs,
                req("1 +\n2"),
                value(json!("number"), json!(3), vec![]),
                error(ErrorPhase::Parse, "unexpected token"),
                "hclrs-line-breaks-and-comments",
            ),
            (
                OracleKind::HclRs,
                req("true ? 12 : \"hello\""),
                value(json!("string"), json!("12"), vec![]),
                value(json!("number"), json!(12), vec![]),
                "hclrs-untyped-values",
            ),
            (
                OracleKind::HclRs,
                req("\"1\" + 2"),
                value(json!("number"), json!(3), vec![]),
                error(ErrorPhase::Eval, "binary operator `+` is not applicable"),
                "hclrs-no-implicit-conversion",
            ),
            (
                OracleKind::HclRs,
                req("0.1 + 0.2"),
                value(json!("number"), json!(0.3), vec![]),
                value(json!("number"), json!(0.30000000000000004), vec![]),
                "hclrs-f64-numbers",
            ),
        ];
        let list = AllowList::shipped();
        for (oracle, r, reference, other, want) in table {
            let got = compare_outcomes(oracle, &r, &reference, &Answer::Outcome(other), &list);
            assert_eq!(got, DiffResult::Accepted(want.into()), "{}", r.source);
        }
    }

    #[test]
    fn heredoc_marker_prefixes() {
        assert!(heredoc_marker_prefix("[<<EOT\nx\nEOT,\n\"a\"]"));
        assert!(!heredoc_marker_prefix("[<<EOT\nx\nEOTx\nEOT\n]"));
        assert!(!heredoc_marker_prefix("<<EOT\nx\nEOT\n"));
    }

    #[test]
    fn conversions_and_order() {
        let tv = |ty: Json, v: Json| TypedValue {
            ty,
            value: v,
            unknown: vec![],
            ..Default::default()
        };
        let list = tv(json!(["list", "string"]), json!(["a", "b"]));
        let tuple = tv(json!(["tuple", ["string", "string"]]), json!(["a", "b"]));
        assert!(converts_to_equal(&tuple, &list));
        let swapped = tv(json!(["tuple", ["string", "string"]]), json!(["b", "a"]));
        assert!(!converts_to_equal(&swapped, &list));
        assert_eq!(sorted(&json!(["b", "a"])), sorted(&json!(["a", "b"])));
        let twelve = tv(json!("number"), json!(12));
        let text = tv(json!("string"), json!("12"));
        assert!(converts_to_equal(&twelve, &text));
    }
}
