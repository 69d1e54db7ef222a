//! Engines that answer protocol requests: the in-process reference
//! implementation, and any program speaking the protocol as a child process,
//! either persistent ([`Child`]) or started once per request ([`OneShot`]).

mod child;
mod oneshot;
mod process;
mod reference;

use std::time::Duration;

pub use child::{Child, ChildError, DEFAULT_TIMEOUT, DEFAULT_WINDOW, STDERR_MAX_LINES};
pub use oneshot::OneShot;
pub use reference::{decode_scope, InProcess, Reference, ScopeCache, Variables, EVAL_STACK_SIZE};

use hclspec_protocol::{Request, Response};

/// Something that answers requests.
pub trait Engine {
    /// Answers `requests`, calling `done` exactly once for each (by index),
    /// in order.
    fn run(&mut self, requests: &[Request], done: &mut dyn FnMut(usize, Exchange));

    /// How many times the engine was started again after a failure.
    fn restarts(&self) -> u32;
}

/// What came of one request.
#[derive(Debug)]
pub struct Exchange {
    pub result: Result<Response, ChildError>,
    /// What the engine wrote to stderr while the request was in flight.
    pub stderr: Vec<String>,
    /// From when the engine could start on the request to its answer.
    pub elapsed: Duration,
}

impl Exchange {
    pub(crate) fn failed(error: ChildError) -> Exchange {
        Exchange {
            result: Err(error),
            stderr: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}
