//! Text measurement and Unicode data at Go's Unicode version, below both
//! the parser and the functions: grapheme clusters (which `hcl.Pos`
//! columns and cty's string functions count), Go's simple case mappings,
//! the category and script tables of Go's `regexp`, and cty's NFC
//! normalization.
//!
//! The tables are data generated from the Go sources (see
//! `tools/gen-unicode`), so that results follow Go's Unicode version rather
//! than the Rust standard library's or another crate's.

mod case_table;
mod grapheme;
mod grapheme_split;
mod grapheme_table;
pub(crate) mod property_table;
mod title_table;

use std::borrow::Cow;

use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

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

/// Go's `unicode.ToUpper` / `unicode.ToLower` for one character.
pub(crate) fn simple_case(c: char, upper: bool) -> char {
    use case_table::{ALT, CASE_RANGES};
    let cp = c as u32;
    let idx = CASE_RANGES.partition_point(|&(first, _, _, _)| first <= cp);
    let Some(&(first, last, up, low)) = idx.checked_sub(1).map(|i| &CASE_RANGES[i]) else {
        return c;
    };
    if cp > last {
        return c;
    }
    let mapped = if up == ALT {
        let base = first + ((cp - first) & !1);
        if upper {
            base
        } else {
            base + 1
        }
    } else {
        let delta = if upper { up } else { low };
        cp.wrapping_add_signed(delta)
    };
    char::from_u32(mapped).unwrap_or(c)
}

/// Go's `unicode.ToTitle`.
pub(crate) fn to_title(c: char) -> char {
    let cp = c as u32;
    let runs = title_table::TITLE_RUNS;
    let idx = runs.partition_point(|&(first, ..)| first <= cp);
    let Some(&(first, last, stride, delta)) = idx.checked_sub(1).map(|i| &runs[i]) else {
        return c;
    };
    if cp > last || (cp - first) % stride != 0 {
        return c;
    }
    char::from_u32(cp.wrapping_add_signed(delta)).unwrap_or(c)
}

/// Go's `unicode.SimpleFold`: the next character in `c`'s case folding
/// orbit.
pub(crate) fn simple_fold(c: u32) -> u32 {
    use property_table::SIMPLE_FOLD;
    let idx = SIMPLE_FOLD.partition_point(|&(first, ..)| first <= c);
    match idx.checked_sub(1).map(|i| SIMPLE_FOLD[i]) {
        Some((first, last, stride, delta)) if c <= last && (c - first) % stride == 0 => {
            c.wrapping_add_signed(delta)
        }
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::simple_case;

    #[test]
    fn simple_case_mapping_matches_go() {
        // (char, Go's unicode.ToUpper, Go's unicode.ToLower)
        let table = [
            ('a', 'A', 'a'),
            ('Z', 'Z', 'z'),
            ('ß', 'ß', 'ß'),
            ('İ', 'İ', 'i'),
            ('ǅ', 'Ǆ', 'ǆ'),
            ('ᾀ', 'ᾈ', 'ᾀ'),
            ('Ā', 'Ā', 'ā'),
            ('ā', 'Ā', 'ā'),
            ('µ', 'Μ', 'µ'),
            ('1', '1', '1'),
        ];
        for (c, up, low) in table {
            assert_eq!(simple_case(c, true), up, "upper {c}");
            assert_eq!(simple_case(c, false), low, "lower {c}");
        }
    }
}
