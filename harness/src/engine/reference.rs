//! The reference implementation as an engine, in process.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use hclspec_reference::eval::Context;

use crate::protocol::{panic_message, ErrorBody, Outcome, Request, Response, TypedValue, Version};

/// Stack for an evaluation thread: deep but legal inputs must reach the
/// reference implementation's own depth limits, not the end of the stack.
pub const EVAL_STACK_SIZE: usize = 64 * 1024 * 1024;

/// Evaluates requests with `hclspec_reference`.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The version for requests that name none.
    pub default_version: Version,
    /// Run each evaluation on a fresh thread with [`EVAL_STACK_SIZE`].
    pub own_thread: bool,
}

impl Reference {
    pub fn new(default_version: Version) -> Reference {
        Reference {
            default_version,
            own_thread: true,
        }
    }

    /// Answers one request; a panic in the reference implementation becomes
    /// a `crash` outcome.
    pub fn evaluate(&self, req: &Request) -> Outcome {
        let version = req.hcl_version.unwrap_or(self.default_version);
        install_panic_hook();
        let run = || {
            IN_EVAL.with(|f| f.set(true));
            let result = catch_unwind(AssertUnwindSafe(|| evaluate_unguarded(req, version)));
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
        if !self.own_thread {
            return run();
        }
        std::thread::scope(|s| {
            let worker = std::thread::Builder::new()
                .name("hclspec-eval".into())
                .stack_size(EVAL_STACK_SIZE)
                .spawn_scoped(s, run);
            match worker {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|_| Outcome::Crash(MSG_PANIC.to_string())),
                // No thread to be had: evaluate here rather than not at all.
                Err(_) => run(),
            }
        })
    }

    pub fn respond(&self, req: &Request) -> Response {
        Response {
            id: Some(req.id.clone()),
            outcome: self.evaluate(req),
        }
    }
}

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

fn evaluate_unguarded(req: &Request, version: Version) -> Outcome {
    let mut variables = BTreeMap::new();
    for (name, tv) in &req.scope {
        match tv.decode() {
            Ok(v) => {
                variables.insert(name.clone(), v);
            }
            Err(e) => {
                let at = crate::protocol::join_path(&format!("scope.{name}"), &e.path);
                return Outcome::Error(ErrorBody::request(format!("{at}: {}", e.message)));
            }
        }
    }
    let ctx = Context {
        variables,
        version: version.to_reference(),
    };
    match hclspec_reference::evaluate_source(req.kind.to_reference(), &req.source, &ctx) {
        Ok(v) => Outcome::Result(TypedValue::encode(&v)),
        Err(e) => Outcome::Error(ErrorBody::from_reference(&e)),
    }
}
