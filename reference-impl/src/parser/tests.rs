//! Parser tests.
