//! hclspec's conformance corpus: case files (`spec-tests/`), their model and
//! loading, selecting cases by glob, and the corpus's own file layout.

pub mod case;
pub mod format;
pub mod select;

pub use case::{Case, CaseFile, Corpus, Expectations, LoadError, LoadErrors, Scope};
pub use select::{Pattern, Selector};
