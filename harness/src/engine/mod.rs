//! Engines that answer protocol requests: the in-process reference
//! implementation, and any program speaking the protocol as a child process.

mod child;
mod reference;

pub use child::{Child, ChildError, DEFAULT_TIMEOUT};
pub use reference::{Reference, EVAL_STACK_SIZE};
