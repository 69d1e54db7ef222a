//! Text measurement and Unicode data at Go's Unicode version, below both
//! the parser and the functions: grapheme clusters (which `hcl.Pos`
//! columns and cty's string functions count), Go's simple case mappings,
//! the category and script tables of Go's `regexp`, and cty's NFC
//! normalization.
//!
//! The tables are data generated from the Go sources (see
//! `tools/gen-unicode`), so that results follow Go's Unicode version rather
//! than the Rust standard library's or another crate's.

mod case;
mod case_table;
mod grapheme;
mod grapheme_split;
mod grapheme_table;
pub(crate) mod property_table;

use std::borrow::Cow;

use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

pub(crate) use case::{simple_case, simple_fold, to_title};
pub(crate) use grapheme::count as grapheme_count;
pub(crate) use grapheme_split::clusters as grapheme_clusters;

/// `cty.NormalizeString`: Unicode NFC.
pub fn normalize_string(s: String) -> String {
    match nfc(&s) {
        Cow::Borrowed(_) => s,
        Cow::Owned(normal) => normal,
    }
}

/// Whether `s` is already in NFC.
pub(crate) fn is_nfc(s: &str) -> bool {
    is_nfc_quick(s.chars()) == IsNormalized::Yes
}

/// `cty.NormalizeString` on a borrowed string, copying only when the
/// string is not already in NFC.
pub(crate) fn nfc(s: &str) -> Cow<'_, str> {
    if is_nfc(s) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.nfc().collect())
    }
}

/// The column width of `s` as `hcl.Pos` counts columns: one per grapheme
/// cluster.
pub(crate) fn columns(s: &str) -> usize {
    grapheme_count(s)
}
