//! Built-in functions, modelled on cty's `function.Function`.
//!
//! A [`Function`] declares its positional parameters, an optional variadic
//! parameter, a return-type function and an implementation. [`Function::call`]
//! applies cty's generic rules before the implementation runs: null
//! arguments are rejected unless allowed, an unknown argument whose
//! parameter does not accept unknowns makes the result unknown of the return
//! type, and an argument of the dynamic pseudo-type short-circuits type
//! checking unless the parameter accepts it.
//!
//! Arguments reach `call` already converted to the parameter types: the
//! caller (HCL's function call expression, or an operator) converts them.

mod collection;
mod conversion;
mod core;
mod crypto;
mod datetime;
mod encoding;
mod filesystem;
pub(crate) mod ipnet;
pub(crate) mod marks;
mod numeric;
pub(crate) mod operators;
pub(crate) mod path;
mod string;
mod terraform;

pub(crate) use conversion::call_closures;
pub use conversion::root_traversals;
pub use conversion::ClosureOutcome;
pub(crate) use filesystem::in_directory;
pub(crate) use terraform::{CONVERT, TEMPLATE_STRING};

/// Go's standard base64 decoding (`base64.StdEncoding.DecodeString`), for
/// the 0.11 dialect's `base64decode`.
pub(crate) fn base64_decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    encoding::base64_decode(src)
}

/// A Go string (bytes) as JSON, as Go's `encoding/json` before 1.22
/// writes it, for the 0.11 dialect's `jsonencode`: each byte outside a
/// valid UTF-8 sequence is the escape `\ufffd`.
pub(crate) fn push_go_json_string(out: &mut String, s: &[u8]) {
    out.push('"');
    for chunk in s.utf8_chunks() {
        encoding::push_json_chars(out, chunk.valid(), encoding::ControlEscapes::Unicode);
        for _ in chunk.invalid() {
            out.push_str("\\ufffd");
        }
    }
    out.push('"');
}

/// Standard base64 with padding of bytes, for the 0.11 dialect.
pub(crate) fn base64_encode(data: &[u8]) -> String {
    encoding::base64_encode(data)
}

/// `base64gzip` of bytes, for the 0.11 dialect.
pub(crate) fn base64_gzip(data: &[u8]) -> String {
    encoding::base64_encode(&encoding::gzip(data))
}

/// Go's `url.QueryEscape` of bytes, for the 0.11 dialect.
pub(crate) fn query_escape(data: &[u8]) -> String {
    encoding::query_escape(data)
}

/// The digest of bytes by the hash function's name (`md5`, `sha1`,
/// `sha256`, `sha512`, `base64sha256`, `base64sha512`), for the 0.11
/// dialect.
pub(crate) fn digest(name: &str, data: &[u8]) -> Option<String> {
    crypto::DIGESTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, hash)| hash(data))
}

pub(crate) use string::{is_title_separator, replace_all_bytes as regex_replace_all, GoRegexp};

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use crate::goquote::{go_quote, go_syntax_type};
use crate::types::Type;
use crate::value::Value;
use crate::HclVersion;

/// One parameter of a function (`function.Parameter`).
#[derive(Clone, Debug)]
pub struct Param {
    pub name: &'static str,
    /// The type arguments are converted to before the call; `Dynamic`
    /// accepts any value unchanged.
    pub ty: Type,
    pub allow_null: bool,
    pub allow_unknown: bool,
    pub allow_dynamic_type: bool,
    /// The argument is passed unevaluated, as an HCL expression closure
    /// (`customdecode.ExpressionClosureType`); see [`ClosureOutcome`].
    pub expression_closure: bool,
    /// What the call boundary does with the argument's sensitive marks
    /// (`AllowMarked` and what the function does with them).
    pub(crate) marks: marks::Policy,
}

impl Param {
    /// A parameter that accepts neither nulls, unknowns nor dynamic-typed
    /// values.
    pub fn new(name: &'static str, ty: Type) -> Param {
        Param {
            name,
            ty,
            allow_null: false,
            allow_unknown: false,
            allow_dynamic_type: false,
            expression_closure: false,
            marks: marks::Policy::Deep,
        }
    }

    pub fn expression_closure(mut self) -> Param {
        self.expression_closure = true;
        self
    }

    pub fn allow_null(mut self) -> Param {
        self.allow_null = true;
        self
    }

    pub fn allow_unknown(mut self) -> Param {
        self.allow_unknown = true;
        self
    }

    pub fn allow_dynamic_type(mut self) -> Param {
        self.allow_dynamic_type = true;
        self
    }

    /// `AllowMarked`, with what the function does with the marks.
    pub(crate) fn marks(mut self, policy: marks::Policy) -> Param {
        self.marks = policy;
        self
    }
}

/// Why a call failed: an error about one argument (`function.ArgError`,
/// `index` counts all arguments, positional then variadic) or about the
/// call as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallError {
    Arg {
        index: usize,
        message: String,
    },
    General(String),
    /// The profile's Terraform release crashes here: a Go panic that no
    /// one recovers ends its process (the panic's first line).
    Crash(String),
}

impl CallError {
    pub fn arg(index: usize, message: impl Into<String>) -> CallError {
        CallError::Arg {
            index,
            message: message.into(),
        }
    }

    pub fn general(message: impl Into<String>) -> CallError {
        CallError::General(message.into())
    }

    /// A Go panic inside a cty function, which `function.Call` recovers
    /// and reports as an ordinary error (`function.PanicError`, whose stack
    /// trace is left out here).
    pub fn panicked(what: impl fmt::Display) -> CallError {
        CallError::General(format!("{PANIC_PREFIX}{what}"))
    }

    pub fn message(&self) -> &str {
        match self {
            CallError::Arg { message, .. }
            | CallError::General(message)
            | CallError::Crash(message) => message,
        }
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// Computes the return type from the arguments (which may be unknown).
pub type TypeFn = Box<dyn Fn(&[Value]) -> Result<Type, CallError> + Send + Sync>;

/// Computes the result; receives the arguments and the return type the
/// type function chose.
pub type ImplFn = Box<dyn Fn(&[Value], &Type) -> Result<Value, CallError> + Send + Sync>;

/// A borrowed implementation, as [`Function::call_with`] takes it.
pub type ImplRef<'a> = dyn Fn(&[Value], &Type) -> Result<Value, CallError> + 'a;

/// A function: `function.Spec` plus its name.
pub struct Function {
    pub name: &'static str,
    pub params: Vec<Param>,
    pub var_param: Option<Param>,
    pub return_type: TypeFn,
    pub implementation: ImplFn,
}

impl fmt::Debug for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Function")
            .field("name", &self.name)
            .field("params", &self.params)
            .field("var_param", &self.var_param)
            .finish_non_exhaustive()
    }
}

/// A function of one string parameter `str` with a string result.
pub(crate) fn string_function(
    name: &'static str,
    f: impl Fn(&str) -> Result<String, CallError> + Send + Sync + 'static,
) -> Function {
    Function {
        name,
        params: vec![Param::new("str", Type::String)],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(move |args, _| match &args[0] {
            Value::String(s) => Ok(Value::string(f(s)?)),
            _ => Ok(Value::unknown(Type::String)),
        }),
    }
}

/// A return-type function that ignores its arguments
/// (`function.StaticReturnType`).
pub fn static_return_type(ty: Type) -> TypeFn {
    Box::new(move |_| Ok(ty.clone()))
}

impl Function {
    /// The parameter that receives argument `index`, if any.
    pub fn param_for(&self, index: usize) -> Option<&Param> {
        self.params.get(index).or(self.var_param.as_ref())
    }

    /// Mirrors `function.Function.ReturnTypeForValues`.
    pub fn return_type_for_values(&self, args: &[Value]) -> Result<Type, CallError> {
        self.return_type_checked(args).map(|(ty, _)| ty)
    }

    /// [`Function::return_type_for_values`], and whether the type is the
    /// dynamic pseudo-type only because an argument's type is, where its
    /// parameter takes no such argument (go-cty's `dynTypeArgs`).
    fn return_type_checked(&self, args: &[Value]) -> Result<(Type, bool), CallError> {
        let n_params = self.params.len();
        match &self.var_param {
            None if args.len() != n_params => {
                return Err(CallError::general(format!(
                    "wrong number of arguments ({n_params} required; {} given)",
                    args.len()
                )));
            }
            Some(_) if args.len() < n_params => {
                return Err(CallError::general(format!(
                    "wrong number of arguments (at least {n_params} required; {} given)",
                    args.len()
                )));
            }
            _ => {}
        }

        for (i, (param, arg)) in self.params.iter().zip(args).enumerate() {
            if let Some(early) = check_arg(param, arg, i)? {
                return Ok((early, true));
            }
        }
        if let Some(param) = &self.var_param {
            for (i, arg) in args[n_params..].iter().enumerate() {
                if arg.is_null() && !param.allow_null {
                    return Err(CallError::arg(n_params + i, NULL_ARGUMENT));
                }
                // cty reports a variadic conformance failure with the index
                // counted within the variadic arguments only; kept as is.
                if let Some(early) = check_arg_type(param, arg, i)? {
                    return Ok((early, true));
                }
            }
        }
        Ok(((self.return_type)(args)?, false))
    }

    /// Mirrors `function.Function.Call`.
    pub fn call(&self, args: &[Value]) -> Result<Value, CallError> {
        self.call_with(args, &*self.implementation)
    }

    /// [`Function::call_with`] without the result refinement.
    fn call_unrefined(
        &self,
        args: &[Value],
        implementation: &ImplRef<'_>,
    ) -> Result<Value, CallError> {
        let unmarked;
        let (args, marked, marked_when_run) = if args.iter().any(Value::contains_marked) {
            let (args, always, when_run) = marks::unmark_arguments(self, args);
            unmarked = args;
            (&unmarked[..], always, when_run)
        } else {
            (args, false, false)
        };
        let (expected, dynamic_argument) = self.return_type_checked(args)?;
        let n_params = self.params.len();
        // Before go-cty 1.15, the unknown result of an unknown argument
        // lost the arguments' marks. Since then it keeps the ones taken off
        // arguments whose parameters take no marked value, and only those.
        let profile = crate::profile::current();
        let unknown_marked = marked && profile.has(crate::Feature::UnknownResultsKeepMarks);
        if dynamic_argument && profile.has(crate::Feature::DynamicArgumentsSkipImplementation) {
            return Ok(Value::unknown(expected).mark_if(unknown_marked));
        }
        for (param, arg) in self.params.iter().zip(args) {
            if !arg.is_known() && !param.allow_unknown {
                return Ok(Value::unknown(expected).mark_if(unknown_marked));
            }
        }
        if let Some(param) = &self.var_param {
            if !param.allow_unknown && args[n_params..].iter().any(|a| !a.is_known()) {
                return Ok(Value::unknown(expected).mark_if(unknown_marked));
            }
        }
        let result = implementation(args, &expected)?;
        // Mirrors the end of cty's function.Call: a result that does not
        // conform to the type the type function predicted is a panic, which
        // Call's deferred recover turns into an error.
        if !result.ty().conforms_to(&expected) {
            return Err(CallError::panicked(NONCONFORMING_RESULT));
        }
        Ok(result.mark_if(marked || marked_when_run))
    }

    /// [`Function::call`] with another implementation (one that needs more
    /// than the arguments, such as a base directory), then the function's
    /// result refinement:
    /// cty's `function.Call` applies the spec's `RefineResult` to every
    /// result not of the dynamic pseudo-type, and nearly every function
    /// has one that makes an unknown result not null (`refineNonNull`).
    pub fn call_with(
        &self,
        args: &[Value],
        implementation: &ImplRef<'_>,
    ) -> Result<Value, CallError> {
        let result = self.call_unrefined(args, implementation)?;
        Ok(if refines_result_not_null(self.name) {
            result.refine_not_null()
        } else {
            result
        })
    }
}

/// Whether a function's result is refined as not null: false for the
/// functions of Terraform 1.15.5's table whose spec has no `RefineResult`
/// (cty's `element`, `jsondecode` and `timeadd`, HCL's `try` and `can`,
/// go-cty-yaml's functions, and these Terraform ones: the `to*`
/// conversions, `convert`, `lookup`, `one`, `list`, `map`, `strcontains`,
/// the sensitivity functions, `ephemeralasnull`, `plantimestamp` and
/// `type`).
fn refines_result_not_null(name: &str) -> bool {
    !matches!(
        name,
        "can"
            | "try"
            | "convert"
            | "element"
            | "ephemeralasnull"
            | "jsondecode"
            | "yamldecode"
            | "yamlencode"
            | "list"
            | "lookup"
            | "map"
            | "one"
            | "sensitive"
            | "nonsensitive"
            | "issensitive"
            | "strcontains"
            | "timeadd"
            | "plantimestamp"
            | "type"
            | "tostring"
            | "tonumber"
            | "tobool"
            | "toset"
            | "tolist"
            | "tomap"
    )
}

/// The built-in function named `name`, as of HCL 2.14's era.
pub fn lookup(name: &str) -> Option<&'static Function> {
    registry().get(name)
}

/// The built-in function named `name` in a profile: a Terraform profile
/// has the functions of its release ([`crate::profile::function_since`]),
/// Terraform 1.15's versions of them, which replace some of the older ones
/// (see `terraform_1_15`); a behaviour that changed between releases is a
/// [`crate::Feature`] the implementation asks about.
pub fn lookup_for(name: &str, version: HclVersion) -> Option<&'static Function> {
    match version {
        HclVersion::V2_14 => lookup(name),
        HclVersion::Terraform(v) => {
            if crate::profile::function_since(name).is_some_and(|since| since > v) {
                return None;
            }
            terraform_1_15().get(name).or_else(|| lookup(name))
        }
    }
}

/// The names of all built-in functions, sorted.
pub fn names() -> impl Iterator<Item = &'static str> {
    registry().keys().copied()
}

/// The names of the functions a version has, sorted, without the `core::`
/// aliases.
pub fn names_for(version: HclVersion) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = registry().keys().copied().collect();
    if let HclVersion::Terraform(v) = version {
        names.extend(terraform_1_15().keys().copied());
        names.retain(|name| crate::profile::function_since(name).is_none_or(|since| since <= v));
    }
    names.sort_unstable();
    names.dedup();
    names
}

const NULL_ARGUMENT: &str = "argument must not be null";
const PANIC_PREFIX: &str = "panic in function implementation: ";
/// `cty.ListVal(items)` for at least one item.
pub(crate) fn list_of_elements(items: Vec<Value>) -> Result<Value, CallError> {
    let elem = element_type_of("list", &items)?;
    Ok(Value::list(elem, items))
}

/// The element type cty's `ListVal`, `SetVal` and `MapVal` (`kind` names
/// which) find for `items`. They panic when the elements' types differ,
/// naming the element type so far and the first type that differs from
/// it; `Function.Call` reports the panic as an error. (`MapVal` walks a Go
/// map, in no fixed order; this walks the keys in order.)
pub(crate) fn element_type_of<'v>(
    kind: &str,
    items: impl IntoIterator<Item = &'v Value>,
) -> Result<Type, CallError> {
    crate::value::element_type(items).map_err(|(elem, ty)| {
        CallError::panicked(format!(
            "inconsistent {kind} element types ({} then {})",
            go_syntax_type(&elem),
            go_syntax_type(&ty)
        ))
    })
}

const NONCONFORMING_RESULT: &str = "returned value does not conform to expected return type";

fn registry() -> &'static BTreeMap<&'static str, Function> {
    static REGISTRY: OnceLock<BTreeMap<&'static str, Function>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        core::functions()
            .into_iter()
            .chain(numeric::functions())
            .chain(collection::functions())
            .chain(conversion::functions())
            .chain(string::functions())
            .chain(crypto::functions())
            .chain(datetime::functions())
            .chain(encoding::functions())
            .chain(ipnet::functions())
            .map(|f| (f.name, f))
            .collect()
    })
}

/// Terraform 1.15's versions of the functions whose behaviour changed since
/// HCL 2.14's era (Go 1.25's encoding/json and regexp, go-cty 1.18,
/// go-cty-yaml 1.1), and the functions it added.
fn terraform_1_15() -> &'static BTreeMap<&'static str, Function> {
    static REGISTRY: OnceLock<BTreeMap<&'static str, Function>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        collection::terraform_1_15()
            .into_iter()
            .chain(terraform::functions())
            .chain(path::functions())
            .chain(filesystem::functions())
            .chain(string::terraform_1_15())
            .chain(datetime::terraform_1_15())
            .chain(encoding::terraform_1_15())
            .chain([
                marks::sensitive(),
                marks::nonsensitive(),
                marks::issensitive(),
            ])
            .map(|f| (f.name, f))
            .collect()
    })
}

/// The null and type checks `ReturnTypeForValues` applies to a positional
/// argument. `Ok(Some(ty))` ends type checking early with that type.
fn check_arg(param: &Param, arg: &Value, index: usize) -> Result<Option<Type>, CallError> {
    if arg.is_null() && !param.allow_null {
        return Err(CallError::arg(index, NULL_ARGUMENT));
    }
    check_arg_type(param, arg, index)
}

fn check_arg_type(param: &Param, arg: &Value, index: usize) -> Result<Option<Type>, CallError> {
    let ty = arg.ty();
    if ty == Type::Dynamic {
        if !param.allow_dynamic_type {
            return Ok(Some(Type::Dynamic));
        }
    } else if let Err(message) = test_conformance(&ty, &param.ty) {
        return Err(CallError::arg(index, message));
    }
    Ok(None)
}

/// Mirrors `cty.Type.TestConformance`, reporting the first mismatch only.
pub(crate) fn test_conformance(given: &Type, want: &Type) -> Result<(), String> {
    match (given, want) {
        (_, Type::Dynamic) => Ok(()),
        _ if given == want => Ok(()),
        (Type::Object(g), Type::Object(w)) => {
            if let Some(k) = g.keys().find(|k| !w.contains_key(*k)) {
                return Err(format!("unsupported attribute {}", go_quote(k)));
            }
            if let Some(k) = w.keys().find(|k| !g.contains_key(*k)) {
                return Err(format!("missing required attribute {}", go_quote(k)));
            }
            for (k, wt) in w {
                test_conformance(&g[k], wt)?;
            }
            Ok(())
        }
        (Type::Tuple(g), Type::Tuple(w)) => {
            if g.len() != w.len() {
                return Err(format!(
                    "{} elements are required, but got {}",
                    w.len(),
                    g.len()
                ));
            }
            for (gt, wt) in g.iter().zip(w) {
                test_conformance(gt, wt)?;
            }
            Ok(())
        }
        (Type::List(g), Type::List(w))
        | (Type::Set(g), Type::Set(w))
        | (Type::Map(g), Type::Map(w)) => test_conformance(g, w),
        _ => Err(format!(
            "{} required, but received {}",
            want.friendly_name(),
            given.friendly_name()
        )),
    }
}

/// `cty.Value.Length`: the length as a number value, unknown when it cannot
/// be known (an unknown collection, or a set whose unknown elements might
/// coalesce with others).
pub(crate) fn length_value(value: &Value) -> Value {
    use crate::number::Number;
    // A tuple's length is its type's, even when null or unknown; matched
    // without building the type, which costs as much as the value is deep.
    match value {
        Value::Tuple(items) => return Value::number(Number::from_u64(items.len() as u64)),
        Value::Null(Type::Tuple(elems)) | Value::Unknown(Type::Tuple(elems), ..) => {
            return Value::number(Number::from_u64(elems.len() as u64));
        }
        _ => {}
    }
    // `cty.Value.Length`, refined as cty refines an unknown length.
    value
        .length_value()
        .unwrap_or_else(|| Value::number(Number::from_u64(value.length() as u64)))
}

/// Calls the function `name` among `functions` with string arguments;
/// renders a string or number result as its text, an error as
/// `error: message`.
#[cfg(test)]
pub(crate) fn call_with_strings(functions: Vec<Function>, name: &str, args: &[&str]) -> String {
    let f = functions.into_iter().find(|f| f.name == name).unwrap();
    let args: Vec<Value> = args.iter().map(|s| Value::string(*s)).collect();
    match f.call(&args) {
        Ok(Value::String(s)) => s,
        Ok(Value::Number(n)) => n.text(),
        Ok(other) => format!("{other:?}"),
        Err(e) => format!("error: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{lookup, operators, CallError};
    use crate::ast::BinaryOp;
    use crate::number::Number;
    use crate::types::Type;
    use crate::value::Value;

    fn num(i: i64) -> Value {
        Value::number(Number::from_i64(i))
    }

    fn render(result: Result<Value, CallError>) -> String {
        match result {
            Ok(v) => crate::eval::test_support::value(&v),
            Err(CallError::Arg { index, message }) => format!("arg {index}: {message}"),
            Err(CallError::General(message)) => format!("error: {message}"),
            Err(CallError::Crash(message)) => format!("crash: {message}"),
        }
    }

    // Expected outcomes checked against go-cty 1.12.1's `Function.Call`.
    #[test]
    fn call_rules() {
        let upper = lookup("upper").unwrap();
        let max = lookup("max").unwrap();
        let concat = lookup("concat").unwrap();
        let add = operators::binary(BinaryOp::Add);
        let and = operators::binary(BinaryOp::And);
        let equal = operators::binary(BinaryOp::Equal);
        let rows: Vec<(Result<Value, CallError>, &str)> = vec![
            (
                upper.call(&[Value::string("a"), Value::string("b")]),
                "error: wrong number of arguments (1 required; 2 given)",
            ),
            (
                max.call(&[Value::unknown(Type::Number), Value::Null(Type::Number)]),
                "arg 1: argument must not be null",
            ),
            (
                max.call(&[Value::unknown(Type::Number), num(1)]),
                "unknown(number)",
            ),
            (
                add.call(&[Value::Null(Type::Dynamic), num(1)]),
                "arg 0: argument must not be null",
            ),
            (upper.call(&[Value::dynamic_unknown()]), "unknown(string)"),
            (
                upper.call(&[num(1)]),
                "arg 0: string required, but received number",
            ),
            (concat.call(&[]), "error: at least one argument is required"),
            (
                equal.call(&[Value::Null(Type::String), Value::unknown(Type::Number)]),
                "unknown(bool)",
            ),
            (
                and.call(&[Value::Bool(false), Value::unknown(Type::Bool)]),
                "unknown(bool)",
            ),
            (concat.call(&[Value::dynamic_unknown()]), "unknown(dynamic)"),
        ];
        for (i, (got, want)) in rows.into_iter().enumerate() {
            assert_eq!(render(got), want, "row {i}");
        }
    }
}
