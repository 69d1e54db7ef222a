//! The reference implementation as an engine, in process.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use hclspec_reference::eval::budget::Budget;
use hclspec_reference::eval::Context;

use super::{ChildError, Engine, Exchange};
use hclspec_protocol::{
    panic_message, ErrorBody, Kind, Outcome, Request, Response, TypedValue, Version,
};

/// Stack for an evaluation thread: deep but legal inputs must reach the
/// reference implementation's own depth limits, not the end of the stack.
pub const EVAL_STACK_SIZE: usize = 64 * 1024 * 1024;

/// An evaluation with less stack than this left moves to a new stack of
/// [`EVAL_STACK_SIZE`]. The reference's parser and evaluator find room for
/// their own recursion; this covers the rest of one evaluation.
const EVAL_RED_ZONE: usize = 1024 * 1024;

/// Evaluates requests with `hclspec_reference`.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The version for requests that name none.
    pub default_version: Version,
    /// Make sure each evaluation has room: with little stack left it moves
    /// to a new stack of [`EVAL_STACK_SIZE`].
    pub large_stack: bool,
    /// How much work one evaluation may do.
    pub budget: Budget,
}

impl Reference {
    pub fn new(default_version: Version) -> Reference {
        Reference {
            default_version,
            large_stack: true,
            budget: Budget::DEFAULT,
        }
    }

    /// Answers one request; a panic in the reference implementation becomes
    /// a `crash` outcome.
    pub fn evaluate(&self, req: &Request) -> Outcome {
        self.evaluate_in(req, None)
    }

    /// Answers one request with its variables already decoded (`None`:
    /// decode the request's own scope).
    pub fn evaluate_in(&self, req: &Request, variables: Option<Variables>) -> Outcome {
        if self.large_stack {
            let this = Reference {
                large_stack: false,
                ..self.clone()
            };
            return stacker::maybe_grow(EVAL_RED_ZONE, EVAL_STACK_SIZE, || {
                this.evaluate_in(req, variables)
            });
        }
        let version = req.hcl_version.unwrap_or(self.default_version);
        install_panic_hook();
        let run = || {
            IN_EVAL.with(|f| f.set(true));
            let result = catch_unwind(AssertUnwindSafe(|| {
                let variables = match variables.clone() {
                    Some(v) => v,
                    None => match cached_scope(&req.scope) {
                        Ok(v) => v,
                        Err(outcome) => return outcome,
                    },
                };
                hclspec_reference::eval::budget::with_budget(self.budget, || {
                    evaluate_unguarded(req, version, variables)
                })
            }));
            IN_EVAL.with(|f| f.set(false));
            match result {
                Ok(outcome) => outcome,
                Err(payload) => {
                    let at = PANIC_AT.with(|p| p.borrow_mut().take());
                    let at = at.map(|l| format!(" at {l}")).unwrap_or_default();
                    Outcome::Crash(format!("{MSG_PANIC}{at}: {}", panic_message(&*payload)))
                }
            }
        };
        run()
    }

    pub fn respond(&self, req: &Request) -> Response {
        Response {
            id: Some(req.id.clone()),
            outcome: self.evaluate(req),
        }
    }
}

/// The reference implementation as an [`Engine`]: requests are evaluated
/// in order on a worker thread with a large stack. A request that takes
/// longer than the time limit is a timeout; the worker is abandoned (a
/// thread can not be killed) and a new one goes on with the next request.
pub struct InProcess {
    reference: Reference,
    timeout: Duration,
    max_restarts: u32,
    restarts: u32,
}

impl InProcess {
    pub fn new(default_version: Version, timeout: Duration, max_restarts: u32) -> InProcess {
        InProcess {
            reference: Reference {
                default_version,
                // The worker already has the large stack.
                large_stack: false,
                budget: Budget::DEFAULT,
            },
            timeout,
            max_restarts,
            restarts: 0,
        }
    }
}

impl Engine for InProcess {
    fn run(&mut self, requests: &[Request], done: &mut dyn FnMut(usize, Exchange)) {
        let requests: Arc<Vec<Request>> = Arc::new(requests.to_vec());
        let n = requests.len();
        let mut start = 0;
        let mut first = true;
        while start < n {
            if !first {
                if self.restarts >= self.max_restarts {
                    for i in start..n {
                        done(
                            i,
                            Exchange::failed(ChildError::GaveUp {
                                restarts: self.restarts,
                            }),
                        );
                    }
                    return;
                }
                self.restarts += 1;
            }
            first = false;
            let (tx, rx) = mpsc::channel();
            let cancelled = Arc::new(AtomicBool::new(false));
            let worker = {
                let requests = Arc::clone(&requests);
                let cancelled = Arc::clone(&cancelled);
                let reference = self.reference.clone();
                std::thread::Builder::new()
                    .name("hclspec-reference".into())
                    .stack_size(EVAL_STACK_SIZE)
                    .spawn(move || {
                        for (i, req) in requests.iter().enumerate().skip(start) {
                            if cancelled.load(Ordering::Relaxed) {
                                return;
                            }
                            let t = Instant::now();
                            let response = reference.respond(req);
                            if tx.send((i, response, t.elapsed())).is_err() {
                                return;
                            }
                        }
                    })
            };
            if let Err(e) = worker {
                done(start, Exchange::failed(ChildError::Io(e)));
                start += 1;
                continue;
            }
            let mut waited = Duration::ZERO;
            while start < n {
                if let Some(signal) = crate::interrupt::signal() {
                    cancelled.store(true, Ordering::Relaxed);
                    for i in start..n {
                        done(i, Exchange::failed(ChildError::Interrupted { signal }));
                    }
                    return;
                }
                let slice = crate::interrupt::POLL.min(self.timeout.saturating_sub(waited));
                let received = rx.recv_timeout(slice);
                if matches!(received, Err(RecvTimeoutError::Timeout))
                    && waited + slice < self.timeout
                {
                    waited += slice;
                    continue;
                }
                waited = Duration::ZERO;
                match received {
                    Ok((i, response, elapsed)) => {
                        debug_assert_eq!(i, start);
                        done(
                            i,
                            Exchange {
                                result: Ok(response),
                                stderr: Vec::new(),
                                elapsed,
                            },
                        );
                        start += 1;
                    }
                    Err(e) => {
                        cancelled.store(true, Ordering::Relaxed);
                        let error = match e {
                            RecvTimeoutError::Timeout => ChildError::TimedOut {
                                after: self.timeout,
                                stderr: String::new(),
                            },
                            RecvTimeoutError::Disconnected => ChildError::Crashed {
                                status: None,
                                stderr: MSG_WORKER_DIED.to_string(),
                            },
                        };
                        let elapsed = match &error {
                            ChildError::TimedOut { after, .. } => *after,
                            _ => Duration::ZERO,
                        };
                        done(
                            start,
                            Exchange {
                                result: Err(error),
                                stderr: Vec::new(),
                                elapsed,
                            },
                        );
                        start += 1;
                        break;
                    }
                }
            }
        }
    }

    fn restarts(&self) -> u32 {
        self.restarts
    }
}

const MSG_WORKER_DIED: &str = "the evaluation thread died";

const MSG_NOT_YET: &str = "the reference implementation does not model";

const MSG_PANIC: &str = "the reference implementation panicked";

thread_local! {
    /// Set while this thread evaluates a request.
    static IN_EVAL: Cell<bool> = const { Cell::new(false) };
    /// Where the last evaluation panic on this thread happened.
    static PANIC_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Panics during an evaluation become `crash` answers that carry their
/// location, instead of printing to stderr; other panics print as before.
fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_EVAL.with(Cell::get) {
                let at = info.location().map(|l| l.to_string());
                PANIC_AT.with(|p| *p.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

/// A request's variables, decoded, shareable between requests.
pub type Variables = Arc<BTreeMap<String, hclspec_reference::Value>>;

/// Scopes decoded before, by their JSON text: cases of one corpus file
/// share a scope, and decoding it is most of the work of a small case.
#[derive(Default)]
pub struct ScopeCache {
    decoded: HashMap<String, Result<Variables, Outcome>>,
}

/// The most scopes kept; past that the cache starts afresh.
const SCOPE_CACHE_MAX: usize = 512;

impl ScopeCache {
    /// The scope whose JSON text is `key`, decoded by `decode` unless it
    /// was decoded before.
    pub fn get_or_decode(
        &mut self,
        key: &str,
        decode: impl FnOnce() -> Result<Variables, Outcome>,
    ) -> Result<Variables, Outcome> {
        if let Some(hit) = self.decoded.get(key) {
            return hit.clone();
        }
        let decoded = decode();
        if self.decoded.len() >= SCOPE_CACHE_MAX {
            self.decoded.clear();
        }
        self.decoded.insert(key.to_string(), decoded.clone());
        decoded
    }
}

/// [`decode_scope`] through a [`ScopeCache`] of this thread.
fn cached_scope(scope: &BTreeMap<String, TypedValue>) -> Result<Variables, Outcome> {
    thread_local! {
        static DECODED: RefCell<ScopeCache> = RefCell::new(ScopeCache::default());
    }
    if scope.is_empty() {
        return Ok(Variables::default());
    }
    let Ok(key) = serde_json::to_string(scope) else {
        return decode_scope(scope);
    };
    DECODED.with(|d| d.borrow_mut().get_or_decode(&key, || decode_scope(scope)))
}

/// Decodes a scope; a value that does not decode is a request error.
pub fn decode_scope(scope: &BTreeMap<String, TypedValue>) -> Result<Variables, Outcome> {
    let mut variables = BTreeMap::new();
    for (name, tv) in scope {
        match tv.decode() {
            Ok(v) => {
                variables.insert(name.clone(), v);
            }
            Err(e) => {
                let at = hclspec_protocol::join_path(&format!("scope.{name}"), &e.path);
                return Err(Outcome::Error(ErrorBody::request(format!(
                    "{at}: {}",
                    e.message
                ))));
            }
        }
    }
    Ok(Arc::new(variables))
}

/// Terraform's sensitive marks exist only where Terraform is the judge: in
/// the Terraform releases' expressions, templates and conversions. HCL 2.14
/// (the Go oracle, plain HCL), bodies (decoded by HCL's `hcldec` for both
/// profiles) and the 0.11 dialect see a marked scope value unmarked.
fn without_marks(req: &Request, version: Version, variables: Variables) -> Variables {
    let marks_apply =
        req.dialect.is_hcl2() && version.terraform().is_some() && req.kind != Kind::Body;
    if marks_apply || !variables.values().any(|v| v.contains_marked()) {
        return variables;
    }
    Arc::new(
        variables
            .iter()
            .map(|(name, v)| (name.clone(), v.clone().unmark_deep().0))
            .collect(),
    )
}

fn evaluate_unguarded(req: &Request, version: Version, variables: Variables) -> Outcome {
    let variables = without_marks(req, version, variables);
    let ctx = Context {
        variables,
        version: version.to_reference(),
        base_dir: req.base_dir.as_ref().map(std::path::PathBuf::from),
    };
    if !req.dialect.is_hcl2() {
        return evaluate_hil(req, &ctx.variables);
    }
    let answer = match (req.kind.source_kind(), &req.type_constraint) {
        (Some(kind), _) => hclspec_reference::evaluate_source(kind, &req.source, &ctx),
        (None, Some(ty)) if req.kind == Kind::Convert => {
            hclspec_reference::convert_source(ty, &req.source, &ctx)
        }
        (None, _) if req.kind == Kind::Type => {
            hclspec_reference::type_source(&req.source, ctx.version)
        }
        (None, _) if req.kind == Kind::Traversal => {
            hclspec_reference::traversal_source(&req.source, ctx.version)
        }
        (None, _) if req.kind == Kind::Variables => {
            hclspec_reference::variables_source(&req.source, ctx.version)
        }
        (None, _) if req.kind.needs_spec() => {
            let Some(spec) = &req.spec else {
                return Outcome::Error(ErrorBody::request(
                    "spec: a `body` or `body_variables` request needs a spec",
                ));
            };
            match hclspec_reference::body::Spec::from_json(spec, ctx.version) {
                Ok(spec) if req.kind == Kind::BodyVariables => {
                    hclspec_reference::body::variables_source(&req.source, &spec, ctx.version)
                }
                Ok(spec) => hclspec_reference::body::decode_source(&req.source, &spec, &ctx),
                Err(e) => return Outcome::Error(ErrorBody::request(e)),
            }
        }
        _ => {
            return Outcome::Unsupported(format!("{MSG_NOT_YET} `{}` requests", req.kind.as_str()))
        }
    };
    match answer {
        Ok(v) => Outcome::Result(TypedValue::encode(&v)),
        Err(e) => Outcome::from_reference(&e),
    }
}

/// Answers a request in the Terraform 0.11 dialect (`hil-0.11`).
fn evaluate_hil(req: &Request, variables: &BTreeMap<String, hclspec_reference::Value>) -> Outcome {
    use hclspec_reference::hil;
    let kind = match req.kind.source_kind() {
        Some(kind) => kind,
        None => {
            return Outcome::Error(ErrorBody::request(format!(
                "kind: the {} dialect has no `{}` requests",
                req.dialect,
                req.kind.as_str()
            )))
        }
    };
    let scope = match hil_scope(variables) {
        Ok(scope) => scope.with_base_dir(req.base_dir.as_ref().map(std::path::PathBuf::from)),
        Err(e) => return Outcome::Error(ErrorBody::request(e)),
    };
    match hil::evaluate(kind, &req.source, &scope) {
        Ok(v) => Outcome::Result(TypedValue::encode(&hil::to_value(&v))),
        Err(fault) if fault.unsupported => {
            Outcome::Unsupported(format!("{MSG_NOT_YET} {}", fault.message))
        }
        Err(fault) => Outcome::Error(ErrorBody::from_reference(&hil::to_error(
            &fault,
            kind,
            &req.source,
        ))),
    }
}

const MSG_HIL_SCOPE: &str = "in the hil-0.11 dialect the scope has only `var`, an object whose attributes are strings, lists of strings or maps of strings";

/// The 0.11 scope: `var`'s attributes become input variables.
fn hil_scope(
    variables: &BTreeMap<String, hclspec_reference::Value>,
) -> Result<hclspec_reference::hil::Scope, String> {
    use hclspec_reference::hil::{Scope, Val};
    use hclspec_reference::Value;
    let mut vars = BTreeMap::new();
    for (name, value) in variables {
        if name != "var" {
            return Err(format!("scope.{name}: {MSG_HIL_SCOPE}"));
        }
        let Value::Object(attrs) = value else {
            return Err(format!("scope.var: {MSG_HIL_SCOPE}"));
        };
        for (attr, v) in attrs {
            let bad = || format!("scope.var.{attr}: {MSG_HIL_SCOPE}");
            let string = |v: &Value| match v {
                Value::String(s) => Ok(Val::text(s.clone())),
                _ => Err(bad()),
            };
            let converted = match v {
                Value::String(s) => Val::text(s.clone()),
                Value::List { items, .. } => {
                    Val::List(items.iter().map(string).collect::<Result<_, _>>()?)
                }
                Value::Map { items, .. } => Val::Map(
                    items
                        .iter()
                        .map(|(k, v)| Ok((k.as_bytes().to_vec(), string(v)?)))
                        .collect::<Result<_, String>>()?,
                ),
                _ => return Err(bad()),
            };
            vars.insert(attr.clone(), converted);
        }
    }
    Ok(Scope::with_variables(vars))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(id: &str, source: &str) -> Request {
        Request::expression(id, source)
    }

    #[test]
    fn in_process_answers_in_order() {
        let requests: Vec<_> = (0..20)
            .map(|i| request(&format!("r{i}"), &format!("{i} + 1")))
            .collect();
        let mut engine = InProcess::new(Version::V2_24, Duration::from_secs(10), 0);
        let mut got = Vec::new();
        engine.run(&requests, &mut |i, x| {
            let r = x.result.unwrap();
            assert_eq!(r.id.as_deref(), Some(format!("r{i}").as_str()));
            got.push(i);
        });
        assert_eq!(got, (0..20).collect::<Vec<_>>());
        assert_eq!(engine.restarts(), 0);
    }

    /// With a time limit nothing meets, each request times out on a fresh
    /// worker until the restarts are used up; the rest are given up.
    #[test]
    fn in_process_timeouts_restart_then_give_up() {
        let long = vec!["1"; 3000].join(" + ");
        let requests: Vec<_> = (0..6).map(|i| request(&format!("r{i}"), &long)).collect();
        let mut engine = InProcess::new(Version::V2_24, Duration::from_nanos(1), 2);
        let mut got = Vec::new();
        engine.run(&requests, &mut |i, x| {
            let kind = match x.result {
                Err(ChildError::TimedOut { .. }) => "timeout",
                Err(ChildError::GaveUp { restarts: 2 }) => "gave-up",
                other => panic!("{other:?}"),
            };
            got.push((i, kind));
        });
        assert_eq!(
            got,
            [
                (0, "timeout"),
                (1, "timeout"),
                (2, "timeout"),
                (3, "gave-up"),
                (4, "gave-up"),
                (5, "gave-up")
            ]
        );
        assert_eq!(engine.restarts(), 2);
    }
}
