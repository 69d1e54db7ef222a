//! hclspec's harness: the conformance corpus (`spec-tests/`), the engine
//! protocol, the in-process reference engine, and the one comparison of an
//! expectation with an engine's answer that every runner shares.

pub mod case;
pub mod compare;
pub mod engine;
pub mod format;
pub mod locate;
pub mod protocol;
pub mod record;
pub mod run;
pub mod select;
pub mod serve;

pub use case::{Case, CaseFile, Corpus, Expect, Expectations};
pub use compare::{compare, Verdict};
pub use protocol::{Kind, Outcome, Request, Response, TypedValue, Version};
