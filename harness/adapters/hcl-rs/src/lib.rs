//! An engine for hclspec's protocol v1 (`docs/protocol.md`) backed by the
//! `hcl-rs` crate's expression evaluator (`hcl::eval`).
//!
//! hcl-rs evaluates HCL over a JSON-like value model: no cty types, no
//! unknown values, numbers as `u64`/`i64`/`f64`, and no built-in functions.
//! The adapter translates what it can faithfully and answers `unsupported`
//! for the rest, so hclspec measures hcl-rs's own divergences rather than
//! the adapter's.
//!
//! [`evaluate`] answers one request in-process (for differential fuzzing);
//! [`answer_line`] answers one protocol line (for the `hclspec-hclrs` binary).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use hcl::eval::{Context, ErrorKind, Evaluate};
use hcl::template::Element;
use hcl::{Identifier, Map};
use hclspec_protocol::{
    panic_message, ErrorBody, ErrorPhase, Kind, Outcome, Position, Range, Request, Response,
    TypedValue,
};
use hclspec_reference::number::Number as CtyNumber;
use hclspec_reference::Value as CtyValue;
use serde_json::{Map as JsonMap, Value as Json};

/// Answer for a scope holding an unknown value anywhere.
pub const UNSUPPORTED_UNKNOWN: &str = "hcl-rs has no unknown values";
/// Answer for a scope number that no `u64`, `i64` or finite `f64` holds exactly.
pub const UNSUPPORTED_NUMBER: &str = "number not representable in hcl-rs";
/// Answer for a call that evaluation reaches of a function the adapter can
/// not declare (see [`functions`]).
pub const UNSUPPORTED_FUNCTIONS: &str = "a function hcl-rs's FuncDef can not express";
/// Answer for values nested deeper than [`MAX_DEPTH`].
pub const UNSUPPORTED_DEPTH: &str = "value nesting too deep for the adapter";

/// The deepest value nesting the adapter converts in either direction.
pub const MAX_DEPTH: usize = 1024;

/// Answers one request. hcl-rs panics are caught and answered as `crash`.
pub fn evaluate(request: &Request) -> Response {
    PANIC_LOCATION.with(|l| l.borrow_mut().take());
    let outcome = match catch_unwind(AssertUnwindSafe(|| answer(request))) {
        Ok(outcome) => outcome,
        Err(payload) => {
            let mut text = format!("hcl-rs panicked: {}", panic_message(&*payload));
            if let Some(location) = PANIC_LOCATION.with(|l| l.borrow_mut().take()) {
                text.push_str(&format!(" (at {location})"));
            }
            Outcome::Crash(text)
        }
    };
    Response {
        id: Some(request.id.clone()),
        outcome,
    }
}

/// Answers one protocol line; `None` for a blank line, which gets no answer.
/// A corpus export's `expect` field is ignored; other unknown fields are a
/// `request` error, as in `hclspec serve`.
pub fn answer_line(line: &str) -> Option<Response> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.trim().is_empty() {
        return None;
    }
    let parsed = match serde_json::from_str::<Json>(line) {
        Ok(Json::Object(mut fields)) => {
            fields.remove("expect");
            Request::parse_line(&Json::Object(fields).to_string())
        }
        _ => Request::parse_line(line),
    };
    Some(match parsed {
        Ok(request) => evaluate(&request),
        Err(bad) => Response {
            id: bad.id,
            outcome: Outcome::Error(ErrorBody::request(bad.message)),
        },
    })
}

/// Makes panics silent and remembers where the last one happened on this
/// thread, so that [`evaluate`] can name it in the `crash` answer instead of
/// the default hook printing to standard error.
pub fn install_quiet_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let location = info
            .location()
            .map(|l| format!("{}:{}", short_path(l.file()), l.line()));
        PANIC_LOCATION.with(|l| *l.borrow_mut() = location);
    }));
}

/// The last three components of a source path (`crate-1.0/src/file.rs`):
/// enough to find the place, without the machine's registry directory.
fn short_path(path: &str) -> String {
    let parts: Vec<&str> = path.rsplit(['/', '\\']).take(3).collect();
    parts.into_iter().rev().collect::<Vec<_>>().join("/")
}

thread_local! {
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Why a request gets no result: the protocol's non-result outcomes.
const UNSUPPORTED_DIALECT: &str = "dialects other than HCL2";
const UNSUPPORTED_CONVERT: &str = "conversion to a type constraint";
const UNSUPPORTED_BODY: &str = "bodies";
const UNSUPPORTED_VARIABLES: &str = "listing the variables a source refers to";
const UNSUPPORTED_TRAVERSAL: &str = "bare traversals: hcl-rs parses expressions only";
const UNSUPPORTED_TYPE_CONSTRAINT: &str =
    "reading a type constraint: hcl-rs's parser accepts any expression in its place";

enum Refusal {
    /// The source parsed, and nothing more was asked.
    Parsed,
    Unsupported(&'static str),
    Error(ErrorBody),
    Crash(&'static str),
}

impl From<Refusal> for Outcome {
    fn from(r: Refusal) -> Outcome {
        match r {
            Refusal::Parsed => Outcome::Parsed,
            Refusal::Unsupported(what) => Outcome::Unsupported(what.to_string()),
            Refusal::Error(body) => Outcome::Error(body),
            Refusal::Crash(what) => Outcome::Crash(what.to_string()),
        }
    }
}

fn answer(request: &Request) -> Outcome {
    match answer_inner(request) {
        Ok(result) => Outcome::Result(result),
        Err(refusal) => refusal.into(),
    }
}

/// The source, parsed by hcl-rs.
enum Parsed {
    Expression(hcl::Expression),
    Template(hcl::Template),
}

/// Checks in the order real HCL would fail: a malformed scope, then a parse
/// error, then what the adapter can not translate, then evaluation.
fn answer_inner(request: &Request) -> Result<TypedValue, Refusal> {
    if !request.dialect.is_hcl2() {
        return Err(Refusal::Unsupported(UNSUPPORTED_DIALECT));
    }
    let mut scope = Vec::with_capacity(request.scope.len());
    for (name, typed) in &request.scope {
        let value = typed
            .decode()
            .map_err(|e| Refusal::Error(ErrorBody::request(format!("scope.{name}.{e}"))))?;
        scope.push((name, value));
    }
    let source = &request.source;
    // At the parse level only acceptance is judged: hcl-rs's parser alone,
    // which also reads bodies and the source of a conversion.
    let parse_level = request.level == Some(hclspec_protocol::Level::Parse);
    let parsed = match request.kind {
        Kind::Expression => Parsed::Expression(parse_expression(source)?.into()),
        Kind::Template => {
            let parsed = hcl::edit::parser::parse_template(source)
                .map_err(|e| parse_error(source, 0, source, &e))?;
            Parsed::Template(parsed.into())
        }
        Kind::Convert if parse_level => {
            parse_expression(source)?;
            let ty = request.type_constraint.as_deref().unwrap_or_default();
            parse_expression(ty)?;
            return Err(Refusal::Unsupported(UNSUPPORTED_TYPE_CONSTRAINT));
        }
        Kind::Body if parse_level => {
            hcl::edit::parser::parse_body(source)
                .map_err(|e| parse_error(source, 0, source, &e))?;
            return Err(Refusal::Parsed);
        }
        Kind::Convert => return Err(Refusal::Unsupported(UNSUPPORTED_CONVERT)),
        Kind::Body => return Err(Refusal::Unsupported(UNSUPPORTED_BODY)),
        Kind::Variables | Kind::BodyVariables => {
            return Err(Refusal::Unsupported(UNSUPPORTED_VARIABLES))
        }
        Kind::Type => return Err(Refusal::Unsupported(UNSUPPORTED_TYPE_CONSTRAINT)),
        Kind::Traversal => return Err(Refusal::Unsupported(UNSUPPORTED_TRAVERSAL)),
    };
    if parse_level {
        return Err(Refusal::Parsed);
    }
    let version = match request.hcl_version.unwrap_or_default() {
        hclspec_protocol::Version::V2_14 => hclspec_reference::HclVersion::V2_14,
        _ => hclspec_reference::HclVersion::V2_24,
    };
    functions::begin(
        version,
        request.base_dir.as_ref().map(std::path::PathBuf::from),
    );
    let mut ctx = Context::new();
    functions::declare(&mut ctx, version, source);
    // A scope value hcl-rs can not hold is left undeclared: the answer is
    // the adapter's only if evaluation then misses that variable (case
    // files share one scope, most of which a case does not use).
    let mut untranslatable = BTreeMap::new();
    for (name, value) in scope {
        match to_hcl(&value) {
            Ok(v) => ctx.declare_var(Identifier::unchecked(name.as_str()), v),
            Err(Refusal::Unsupported(why)) => {
                untranslatable.insert(name.as_str(), why);
            }
            Err(other) => return Err(other),
        }
    }
    let value = match &parsed {
        Parsed::Expression(expr) => expr.evaluate(&ctx),
        Parsed::Template(template) => evaluate_template(template, &ctx),
    }
    .map_err(|e| match e.kind() {
        ErrorKind::UndefinedVar(name) if untranslatable.contains_key(name.as_str()) => {
            Refusal::Unsupported(untranslatable[name.as_str()])
        }
        _ => eval_error(e),
    });
    // A function call the value models could not share exactly makes the
    // whole answer the adapter's, not hcl-rs's.
    if let Some(why) = functions::refused() {
        return Err(Refusal::Unsupported(why));
    }
    from_hcl(&value?, 0)
}

/// An expression parsed by hcl-edit, as `hcl::Expression::from_str` does
/// once [`trim_edges`] has dropped what surrounds it.
fn parse_expression(source: &str) -> Result<hcl::edit::expr::Expression, Refusal> {
    let (offset, text) = trim_edges(source);
    hcl::edit::parser::parse_expr(text).map_err(|e| parse_error(source, offset, text, &e))
}

/// The source without surrounding spaces, tabs and line breaks, and where
/// it starts. hcl-edit's `parse_expr` takes exactly one expression and
/// rejects any whitespace around it, which hclsyntax's `ParseExpression`
/// skips (inside an HCL file it is the attribute's surroundings).
fn trim_edges(source: &str) -> (usize, &str) {
    let edge = |c: char| matches!(c, ' ' | '\t' | '\r' | '\n');
    let rest = source.trim_start_matches(edge);
    (source.len() - rest.len(), rest.trim_end_matches(edge))
}

/// A lone interpolation yields its value unchanged, anything else renders
/// to a string. Mirrors hcl-rs's `TemplateExpr::evaluate`, which is how
/// hcl-rs evaluates a template that is a value (`Template::evaluate` alone
/// always renders a string).
fn evaluate_template(
    template: &hcl::Template,
    ctx: &Context,
) -> Result<hcl::Value, hcl::eval::Error> {
    match template.elements() {
        [Element::Interpolation(interp)] => interp.expr.evaluate(ctx),
        _ => template.evaluate(ctx).map(hcl::Value::String),
    }
}

/// A parse error at hcl-edit's error location (a point: start equals end)
/// in `parsed`, which starts `offset` bytes into `source`.
fn parse_error(source: &str, offset: usize, parsed: &str, e: &hcl::edit::parser::Error) -> Refusal {
    let loc = e.location();
    let pos = position_at(source, offset + byte_at(parsed, loc.line(), loc.column()));
    Refusal::Error(ErrorBody {
        phase: ErrorPhase::Parse,
        summary: e.message().to_string(),
        detail: String::new(),
        range: Some(Range {
            start: pos,
            end: pos,
        }),
        library_panic: false,
    })
}

/// The byte offset of a 1-based line and character column, clamped to the
/// text (hcl-edit clamps its own offset to the last byte).
fn byte_at(text: &str, line: usize, column: usize) -> usize {
    let line_start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let rest = &text[line_start..];
    line_start
        + rest
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i)
}

/// The protocol position of a byte offset (clamped to a character boundary
/// at or before it).
fn position_at(source: &str, byte: usize) -> Position {
    let mut byte = byte.min(source.len());
    while !source.is_char_boundary(byte) {
        byte -= 1;
    }
    let before = &source[..byte];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Position {
        line: before.matches('\n').count() as u64 + 1,
        column: before[line_start..].chars().count() as u64 + 1,
        byte: byte as u64,
    }
}

fn eval_error(e: hcl::eval::Error) -> Refusal {
    if let ErrorKind::UndefinedFunc(_) = e.kind() {
        return Refusal::Unsupported(UNSUPPORTED_FUNCTIONS);
    }
    Refusal::Error(ErrorBody {
        phase: ErrorPhase::Eval,
        summary: e.kind().to_string(),
        detail: e.to_string(),
        range: None,
        library_panic: false,
    })
}

/// Converts a decoded scope value: collections become arrays or objects
/// (objects in cty's key order), nulls lose their type.
fn to_hcl(value: &CtyValue) -> Result<hcl::Value, Refusal> {
    if !value.is_wholly_known() {
        return Err(Refusal::Unsupported(UNSUPPORTED_UNKNOWN));
    }
    to_hcl_at(value, 0)
}

fn to_hcl_at(value: &CtyValue, depth: usize) -> Result<hcl::Value, Refusal> {
    if depth > MAX_DEPTH {
        return Err(Refusal::Unsupported(UNSUPPORTED_DEPTH));
    }
    Ok(match value {
        // hcl-rs has no sensitive marks: it sees the value unmarked, and
        // its results carry no marks.
        CtyValue::Marked(inner) => return to_hcl_at(inner, depth),
        CtyValue::Null(_) => hcl::Value::Null,
        CtyValue::Unknown(..) => return Err(Refusal::Unsupported(UNSUPPORTED_UNKNOWN)),
        CtyValue::Bool(b) => hcl::Value::Bool(*b),
        CtyValue::String(s) => hcl::Value::String(s.clone()),
        CtyValue::Number(n) => hcl::Value::Number(number_to_hcl(n)?),
        CtyValue::List { items, .. } | CtyValue::Set { items, .. } | CtyValue::Tuple(items) => {
            hcl::Value::Array(
                items
                    .iter()
                    .map(|v| to_hcl_at(v, depth + 1))
                    .collect::<Result<_, _>>()?,
            )
        }
        CtyValue::Map { items, .. } | CtyValue::Object(items) => {
            let mut out = Map::with_capacity(items.len());
            for (k, v) in items {
                out.insert(k.clone(), to_hcl_at(v, depth + 1)?);
            }
            hcl::Value::Object(out)
        }
    })
}

/// 2^64, the first integer beyond `u64`.
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// The hcl-rs number holding exactly `n`: an integer as `i64` or `u64`,
/// otherwise a finite `f64` equal to it.
fn number_to_hcl(n: &CtyNumber) -> Result<hcl::Number, Refusal> {
    let refuse = || Refusal::Unsupported(UNSUPPORTED_NUMBER);
    if n.is_infinite() {
        return Err(refuse());
    }
    if let Some(i) = n.to_i64_exact() {
        return Ok(hcl::Number::from(i));
    }
    // The bound keeps `to_big_int_trunc` from materialising huge integers.
    if n.is_integer() && !n.is_sign_negative() && n.to_f64() <= TWO_POW_64 {
        if let Some(u) = n.to_big_int_trunc().and_then(|i| u64::try_from(i).ok()) {
            return Ok(hcl::Number::from(u));
        }
    }
    let f = n.to_f64();
    match CtyNumber::try_from_f64(f) {
        Ok(back) if f.is_finite() && back.cmp(n).is_eq() => {
            hcl::Number::from_f64(f).ok_or_else(refuse)
        }
        _ => Err(refuse()),
    }
}

/// The typed value real HCL would report for a JSON-like result: arrays are
/// tuples, objects are objects, null is a null of unknown type (`dynamic`).
fn from_hcl(value: &hcl::Value, depth: usize) -> Result<TypedValue, Refusal> {
    let (ty, value) = encode(value, depth)?;
    Ok(TypedValue {
        ty,
        value,
        unknown: Vec::new(),
        sensitive: Vec::new(),
        refinements: Vec::new(),
    })
}

/// The cty JSON type and value encodings of an hcl-rs value.
fn encode(value: &hcl::Value, depth: usize) -> Result<(Json, Json), Refusal> {
    if depth > MAX_DEPTH {
        return Err(Refusal::Unsupported(UNSUPPORTED_DEPTH));
    }
    Ok(match value {
        hcl::Value::Null => (Json::from("dynamic"), Json::Null),
        hcl::Value::Bool(b) => (Json::from("bool"), Json::Bool(*b)),
        hcl::Value::String(s) => (Json::from("string"), Json::String(s.clone())),
        hcl::Value::Number(n) => (Json::from("number"), number_from_hcl(n)?),
        hcl::Value::Array(items) => {
            let mut types = Vec::with_capacity(items.len());
            let mut values = Vec::with_capacity(items.len());
            for item in items {
                let (t, v) = encode(item, depth + 1)?;
                types.push(t);
                values.push(v);
            }
            (
                Json::Array(vec![Json::from("tuple"), Json::Array(types)]),
                Json::Array(values),
            )
        }
        hcl::Value::Object(attrs) => {
            let mut types = JsonMap::new();
            let mut values = JsonMap::new();
            for (k, item) in attrs {
                let (t, v) = encode(item, depth + 1)?;
                types.insert(k.clone(), t);
                values.insert(k.clone(), v);
            }
            (
                Json::Array(vec![Json::from("object"), Json::Object(types)]),
                Json::Object(values),
            )
        }
    })
}

/// An hcl-rs number as a protocol number: integers exactly, floats as the
/// shortest decimal that reads back as the same `f64` (cty's text for a
/// number made from a `float64`). hcl-rs promises finite floats, but its
/// release builds let division by zero through: infinities are reported as
/// the protocol's infinities, NaN (which cty has no value for) as a crash.
fn number_from_hcl(n: &hcl::Number) -> Result<Json, Refusal> {
    let exact = if let Some(u) = n.as_u64() {
        CtyNumber::from_u64(u)
    } else if let Some(i) = n.as_i64() {
        CtyNumber::from_i64(i)
    } else {
        let f = n.as_f64().unwrap_or(f64::NAN);
        CtyNumber::try_from_f64(f).map_err(|_| Refusal::Crash(NAN_RESULT))?
    };
    Ok(hclspec_reference::json::number_to_json(&exact))
}

/// The crash text for a NaN result.
const NAN_RESULT: &str = "hcl-rs produced NaN";

pub mod functions;

#[cfg(test)]
mod tests;
