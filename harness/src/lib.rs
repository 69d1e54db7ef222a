//! hclspec's command-line tool as a library: engines that answer protocol
//! requests (the in-process reference, child processes), running the corpus
//! against them with reports, recording and verifying expectations with an
//! oracle, and serving the reference over the protocol.
//!
//! The case model lives in `hclspec-corpus`, the protocol and the comparison
//! in `hclspec-protocol`, and the library harness for Rust engines in
//! `hclspec-harness`.

pub mod engine;
pub mod interrupt;
pub mod locate;
pub mod record;
pub mod run;
pub mod serve;
