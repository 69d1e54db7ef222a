//! hclspec's conformance corpus: case files (`spec-tests/`), their model and
//! loading, selecting cases by glob, and the corpus's own file layout.

pub mod case;
mod embedded;
pub mod format;
pub mod select;
pub mod skip;
pub mod toml_file;

pub use case::{
    Case, CaseFile, Corpus, Expectations, LoadError, LoadErrors, Oracle, Origin, Scope, VerifyMode,
};
pub use embedded::EMBEDDED_ROOT;
pub use select::{Pattern, Selector};
pub use skip::{SkipEntry, SkipList};
