//! Terraform 0.11's interpolation language (HIL, hashicorp/hil as
//! vendored by Terraform 0.11.11) with Terraform 0.11's functions and
//! reference rules, evaluated as an `output` value of a configuration
//! whose only other blocks are `variable`s.
//!
//! The pipeline mirrors what Terraform does with such an output:
//!
//! 1. **load**: the string is scanned and parsed ([`scan`], [`parse`]);
//!    each variable reference is classified ([`references`]); errors here
//!    are Terraform's "Error reading config" (a `parse` error).
//! 2. **validate**: references to things a variables-only configuration
//!    lacks (undeclared variables, resources, modules, `count.*`, `self.*`)
//!    fail validation.
//! 3. **apply**: the referenced values are looked up, then HIL runs its
//!    identifier check, its type check ([`check`]) and evaluation
//!    ([`eval`]).
//!
//! The result is what `terraform output -json` shows: a string, or a list
//! or map whose leaves are strings.
//!
//! Unlike the HCL2 side of this crate, numbers here are Go's `int` (64-bit,
//! wrapping) and `float64`: those are the language's own number types, so
//! `i64` and `f64` model them exactly; floats print with Go's
//! `strconv.FormatFloat`.

mod check;
mod convert;
mod eval;
mod funcs;
mod gofmt;
mod gostr;
mod parse;
mod references;
mod rsa;
mod scan;
#[cfg(test)]
mod tests;
mod time;

use std::collections::BTreeMap;

use crate::text::{with_unicode, UnicodeVersion};

pub use scan::HilPos;
pub use value::{GoString, Ty, Val};

mod value;

use crate::error::{Error, Pos, Span};
use crate::SourceKind;

/// Deepest nesting the parser accepts; HIL itself has no limit, but
/// recursion here must stay within the stack.
pub const MAX_NESTING_DEPTH: usize = 10_000;

/// Which stage of Terraform rejected the configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Loading the configuration ("Error reading config for output").
    Load,
    /// Validating it (`output 'NAME': ...`).
    Validate,
    /// Applying it (`output.NAME: ...`).
    Apply,
}

/// Why an evaluation failed: Terraform's message (without the ` in:`
/// suffix that repeats the source) and, where known, a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub stage: Stage,
    pub message: String,
    pub pos: Option<HilPos>,
    /// Terraform 0.11 can not answer this offline (a function that reads
    /// files, the clock or randomness, or a path of the machine).
    pub unsupported: bool,
}

impl Fault {
    fn new(stage: Stage, message: impl Into<String>) -> Fault {
        Fault {
            stage,
            message: message.into(),
            pos: None,
            unsupported: false,
        }
    }

    /// A syntax error: `parse error at L:C: MSG`.
    fn parse(pos: HilPos, message: impl Into<String>) -> Fault {
        Fault {
            pos: Some(pos),
            ..Fault::new(
                Stage::Load,
                format!("parse error at {pos}: {}", message.into()),
            )
        }
    }

    fn apply(message: impl Into<String>) -> Fault {
        Fault::new(Stage::Apply, message)
    }

    fn apply_at(pos: HilPos, message: impl Into<String>) -> Fault {
        Fault {
            pos: Some(pos),
            ..Fault::new(Stage::Apply, message)
        }
    }

    fn unsupported(what: impl Into<String>) -> Fault {
        Fault {
            unsupported: true,
            ..Fault::new(Stage::Apply, what)
        }
    }
}

/// The values HIL sees: Terraform's variables by their reference name
/// (`var.NAME`).
#[derive(Clone, Debug, Default)]
pub struct Scope {
    values: BTreeMap<String, Val>,
    /// Terraform's working directory, where `file` reads relative paths.
    base_dir: Option<std::path::PathBuf>,
}

impl Scope {
    /// A scope with the input variables given (`var.NAME` for each name).
    pub fn with_variables(vars: BTreeMap<String, Val>) -> Scope {
        Scope {
            values: vars
                .into_iter()
                .map(|(k, v)| (format!("var.{k}"), v))
                .collect(),
            base_dir: None,
        }
    }

    /// The directory `file` reads relative paths from.
    pub fn with_base_dir(mut self, dir: Option<std::path::PathBuf>) -> Scope {
        self.base_dir = dir;
        self
    }

    /// Whether an input variable of this name is declared.
    fn declares_variable(&self, name: &str) -> bool {
        self.values.contains_key(&format!("var.{name}"))
    }

    fn lookup(&self, name: &str) -> Option<&Val> {
        self.values.get(name)
    }

    fn insert(&mut self, name: String, v: Val) {
        self.values.insert(name, v);
    }
}

/// Evaluates a 0.11 string (a template) or the inside of one `${...}`
/// (an expression) as an output value, at Unicode 10.0.0: Terraform
/// 0.11.11 is built with Go 1.11, whose `unicode` package (case mapping,
/// letters for identifiers, `regexp` classes, what `%q` escapes) is at
/// that version.
pub fn evaluate(kind: SourceKind, source: &str, scope: &Scope) -> Result<Val, Fault> {
    with_unicode(UnicodeVersion::V10, || {
        funcs::with_base_dir(scope.base_dir.as_deref(), || match kind {
            SourceKind::Template => evaluate_string(source, scope),
            SourceKind::Expression => evaluate_string(&format!("${{{source}}}"), scope),
        })
    })
}

fn evaluate_string(source: &str, scope: &Scope) -> Result<Val, Fault> {
    let tokens = scan::scan(source);
    let tree = parse::parse(&tokens)?;
    let mut names = Vec::new();
    parse::variables(&tree, &mut names);
    let refs = references::classify(&names)?;
    references::validate(&refs, scope)?;
    let mut scope = scope.clone();
    references::resolve(&refs, &mut scope)?;
    check::identifiers(&tree, &scope)?;
    let (typed, _) = check::types(&tree, &scope)?;
    let value = eval::eval(&typed, &scope)?;
    Ok(match value {
        v @ (Val::List(_) | Val::Map(_) | Val::Str(_)) => v,
        other => Val::Str(other.weak_string().unwrap_or_default()),
    })
}

/// Counts one function call against the evaluation budget, with the size
/// of its arguments.
fn budget_step(args: &[Val]) -> Result<(), Fault> {
    let bytes: u64 = args.iter().map(size).sum();
    if !crate::eval::budget::reserve_steps(1) || !crate::eval::budget::reserve_bytes(bytes / 16) {
        return Err(Fault::apply(crate::eval::budget::BUDGET_EXCEEDED));
    }
    Ok(())
}

fn size(v: &Val) -> u64 {
    match v {
        Val::Str(s) => s.len() as u64,
        Val::List(items) => items.iter().map(size).sum::<u64>() + 1,
        Val::Map(items) => {
            items
                .iter()
                .map(|(k, v)| k.len() as u64 + size(v))
                .sum::<u64>()
                + 1
        }
        _ => 1,
    }
}

/// The value as `terraform output -json` shows it: strings, lists (a
/// tuple when the elements' types differ) and maps (an object when they
/// differ). Bytes outside valid UTF-8 become U+FFFD as `encoding/json`
/// writes them (`gostr::json_text`); keys that become equal so leave the
/// value of the last in Go's order (sorted by bytes), as reading the JSON
/// back keeps the last of equal keys.
pub fn to_value(v: &Val) -> crate::Value {
    match v {
        Val::List(items) => {
            let items: Vec<crate::Value> = items.iter().map(to_value).collect();
            if items.is_empty() {
                return crate::Value::list(crate::Type::String, items);
            }
            let ty = items[0].ty();
            if items.iter().all(|i| i.ty() == ty) {
                crate::Value::List { elem: ty, items }
            } else {
                crate::Value::Tuple(items)
            }
        }
        Val::Map(items) => {
            let items: BTreeMap<String, crate::Value> = items
                .iter()
                .map(|(k, v)| (gostr::json_text(k), to_value(v)))
                .collect();
            let mut types = items.values().map(crate::Value::ty);
            match types.next() {
                None => crate::Value::map(crate::Type::String, items),
                Some(ty) if items.values().all(|v| v.ty() == ty) => {
                    crate::Value::Map { elem: ty, items }
                }
                Some(_) => crate::Value::Object(items),
            }
        }
        other => crate::Value::String(gostr::json_text(&other.weak_string().unwrap_or_default())),
    }
}

/// Splits a leading position off a message, in either of HIL's spellings:
/// `L:C: ` or `At column C, line L: `.
fn leading_position(message: &str) -> Option<(HilPos, &str)> {
    let (head, rest) = message.split_once(": ")?;
    let (line, column) = match head.strip_prefix("At column ") {
        Some(tail) => {
            let (column, line) = tail.split_once(", line ")?;
            (line, column)
        }
        None => head.split_once(':')?,
    };
    let pos = HilPos {
        line: line.parse().ok()?,
        column: column.parse().ok()?,
    };
    Some((pos, rest))
}

/// The fault as this crate's error: a load fault is a `parse` error, the
/// others `eval` errors; a leading position becomes the range (made
/// relative to the request's source: for an expression the `${` added in
/// front is taken off line 1).
pub fn to_error(fault: &Fault, kind: SourceKind, source: &str) -> Error {
    let (pos, summary) = match leading_position(&fault.message) {
        Some((pos, rest)) => (Some(pos), rest.to_string()),
        None => (fault.pos, fault.message.clone()),
    };
    let pos = pos.map(|p| {
        let column = if kind == SourceKind::Expression && p.line == 1 {
            p.column.saturating_sub(2).max(1)
        } else {
            p.column
        };
        let byte = byte_offset(source, p.line, column);
        Pos {
            line: p.line,
            column,
            byte,
        }
    });
    // Terraform gives no position: the range is the start of the source.
    let start = Pos {
        line: 1,
        column: 1,
        byte: 0,
    };
    let span = pos.map_or(Span::new(start, start), |p| Span::new(p, p));
    match fault.stage {
        Stage::Load => Error::parse(summary, String::new(), span),
        _ => Error::eval(summary, String::new(), span),
    }
}

fn byte_offset(source: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in source.split('\n').enumerate() {
        if i + 1 == line {
            return offset
                + l.char_indices()
                    .nth(column.saturating_sub(1))
                    .map_or(l.len(), |(b, _)| b);
        }
        offset += l.len() + 1;
    }
    source.len()
}

/// Every function name the dialect knows.
pub fn function_names() -> impl Iterator<Item = &'static str> {
    funcs::names()
}
