//! Text measurement and Unicode data at Go's Unicode version, below both
//! the parser and the functions: grapheme clusters (which `hcl.Pos`
//! columns and cty's string functions count), Go's simple case mappings,
//! the category and script tables of Go's `regexp`, and cty's NFC
//! normalization.
//!
//! The tables are data generated from the Go sources (see
//! `tools/gen-unicode`), so that results follow Go's Unicode version rather
//! than the Rust standard library's or another crate's. There are three
//! sets: Unicode 13.0.0 (Go 1.19 and go-textseg v13, as HCL 2.14.1 and
//! go-cty 1.12.1 are built) for the HCL 2.14 profile, Unicode 15.0.0 (Go
//! 1.21 and later and go-textseg v15, as Terraform 1.15 is built) for the
//! HCL 2.24 profile, and Unicode 10.0.0 (Go 1.11, as Terraform 0.11.11 is
//! built) for the Terraform 0.11 dialect. Which one applies is set per
//! thread by [`with_unicode`]; outside it, Unicode 13.0.0.
//! `upper("\U00010597")` (a Vithkuqi letter, new in Unicode 14) is itself
//! at Unicode 13 and U+10570 at 15; Terraform 0.11's `upper("ა")` is
//! itself, since the Georgian capitals it maps to at 13 came in Unicode 11.
//!
//! No Go 1.11 toolchain is at hand, so the Unicode 10 set is derived from
//! the Unicode Character Database 10.0.0 the way Go derives its `unicode`
//! tables; the generator checks that the same derivation gives exactly the
//! Unicode 13 and 15 tables of Go 1.19 and Go 1.23. Case mappings and the
//! category and script tables are all the 0.11 dialect uses: it counts no
//! grapheme clusters, so Unicode 10 has no grapheme table (Unicode 13's
//! stands in).

mod case;
mod case_table;
mod case_table_10;
mod case_table_15;
mod go_norm;
mod grapheme;
mod grapheme_split;
mod grapheme_table;
mod grapheme_table_15;
pub(crate) mod property_table;
pub(crate) mod property_table_10;
pub(crate) mod property_table_15;

use std::borrow::Cow;
use std::cell::Cell;

use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

pub(crate) use case::{simple_case, simple_fold, to_title};
pub(crate) use go_norm::last_boundary as nfc_last_boundary;
pub(crate) use grapheme::count as grapheme_count;
pub(crate) use grapheme_split::clusters as grapheme_clusters;
pub(crate) use grapheme_split::clusters_before_more as grapheme_clusters_before_more;

/// The Unicode version of the tables the text functions use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnicodeVersion {
    /// Unicode 10.0.0: Go 1.11's `unicode` (Terraform 0.11.11).
    V10,
    /// Unicode 13.0.0: Go 1.19's `unicode` and go-textseg v13 (HCL 2.14.1).
    V13,
    /// Unicode 15.0.0: Go 1.21 and later, go-textseg v15 (Terraform 1.15).
    V15,
}

thread_local! {
    static UNICODE: Cell<UnicodeVersion> = const { Cell::new(UnicodeVersion::V13) };
}

/// Runs `f` with the tables of `version` on this thread.
pub fn with_unicode<R>(version: UnicodeVersion, f: impl FnOnce() -> R) -> R {
    let saved = UNICODE.with(|v| v.replace(version));
    let result = f();
    UNICODE.with(|v| v.set(saved));
    result
}

/// The Unicode version in effect on this thread.
pub(crate) fn unicode_version() -> UnicodeVersion {
    UNICODE.with(Cell::get)
}

/// Go's `regexp` tables of one Unicode version: categories, scripts, and
/// the characters case folding adds to each, by name.
pub(crate) struct PropertyTables {
    pub(crate) categories: &'static [(&'static str, property_table::Table)],
    pub(crate) scripts: &'static [(&'static str, property_table::Table)],
    pub(crate) fold_category: &'static [(&'static str, property_table::Table)],
    pub(crate) fold_script: &'static [(&'static str, property_table::Table)],
}

/// Whether `c` is in the general category or script `name` (`"L"`, `"Lu"`,
/// `"Greek"`, ...) of Go's `unicode` tables at the Unicode version in
/// effect.
pub(crate) fn in_table(name: &str, c: char) -> bool {
    let tables = property_tables();
    let find = |list: &'static [(&str, property_table::Table)]| {
        list.binary_search_by(|(n, _)| (*n).cmp(name))
            .ok()
            .map(|i| list[i].1)
    };
    let Some(table) = find(tables.categories).or_else(|| find(tables.scripts)) else {
        return false;
    };
    let cp = c as u32;
    let at = table.partition_point(|&(lo, _, _)| lo <= cp);
    at.checked_sub(1)
        .map(|i| table[i])
        .is_some_and(|(lo, hi, stride)| cp <= hi && (cp - lo) % stride == 0)
}

/// Go's `regexp` tables at the Unicode version in effect.
pub(crate) fn property_tables() -> PropertyTables {
    match unicode_version() {
        UnicodeVersion::V10 => property_table_10::TABLES,
        UnicodeVersion::V13 => property_table::TABLES,
        UnicodeVersion::V15 => property_table_15::TABLES,
    }
}

/// `cty.NormalizeString`: Unicode NFC as Go's `x/text` gives it, which is
/// also stream-safe (a U+034F joiner after 30 non-starters in a row; see
/// `go_norm`).
pub fn normalize_string(s: String) -> String {
    match nfc(&s) {
        Cow::Borrowed(_) => s,
        Cow::Owned(normal) => normal,
    }
}

/// Whether `s` is already what [`normalize_string`] makes of it.
pub(crate) fn is_nfc(s: &str) -> bool {
    matches!(nfc(s), Cow::Borrowed(_))
}

/// `cty.NormalizeString` on a borrowed string, copying only when the
/// string is not already normalized.
pub(crate) fn nfc(s: &str) -> Cow<'_, str> {
    let safe = go_norm::stream_safe(s);
    if is_nfc_quick(safe.chars()) == IsNormalized::Yes {
        return safe;
    }
    Cow::Owned(safe.nfc().collect())
}

/// The column width of `s` as `hcl.Pos` counts columns: one per grapheme
/// cluster.
pub(crate) fn columns(s: &str) -> usize {
    grapheme_count(s)
}
