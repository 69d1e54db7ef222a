//! Room on the stack for recursion. The parser and the evaluator recurse
//! once per nesting level; each such step goes through [`deeper`], which
//! moves to a fresh stack segment when the current one runs low, so deep
//! but legal input needs no large thread stack from the caller.

/// Left on the current stack before a recursive step moves to a new
/// segment: more than any one step of the parser or evaluator uses between
/// two calls of [`deeper`], in debug builds too.
const RED_ZONE: usize = 256 * 1024;

/// The size of each new segment.
const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs one recursive step, on a new stack segment if this one is low.
#[inline]
pub fn deeper<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}
