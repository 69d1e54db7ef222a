//! Go's per-character case functions over one generated table, as Go's
//! `unicode` package computes them: `ToUpper`, `ToLower` and `ToTitle`
//! from `CaseRanges`, and `SimpleFold` from the case orbits and then those
//! mappings.
//!
//! Why not `char::to_uppercase` and `to_lowercase`: they apply full case
//! mappings at the standard library's Unicode version. `ß` upper-cases to
//! `SS` in Rust and stays `ß` in Go; U+2C2F (new in Unicode 14) lower-cases
//! to U+2C5F in Rust and stays itself in Go 1.19 (Unicode 13.0).

use super::case_table::ALT;
use super::{case_table, case_table_10, case_table_15, unicode_version, UnicodeVersion};

// The tables mark alternating ranges alike.
const _: () =
    assert!(case_table::ALT == case_table_15::ALT && case_table::ALT == case_table_10::ALT);

/// `(CaseRanges, case orbits)` at the Unicode version in effect.
type Tables = (&'static [(u32, u32, i32, i32, i32)], &'static [(u32, u32)]);

fn tables() -> Tables {
    match unicode_version() {
        UnicodeVersion::V10 => (case_table_10::CASE_RANGES, case_table_10::CASE_ORBIT),
        UnicodeVersion::V13 => (case_table::CASE_RANGES, case_table::CASE_ORBIT),
        UnicodeVersion::V15 => (case_table_15::CASE_RANGES, case_table_15::CASE_ORBIT),
    }
}

/// Which mapping of a `CaseRanges` entry to apply (Go's `UpperCase`,
/// `LowerCase`, `TitleCase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    Upper,
    Lower,
    Title,
}

/// Go's `unicode.ToUpper` / `unicode.ToLower` for one character.
pub(crate) fn simple_case(c: char, upper: bool) -> char {
    to(if upper { Case::Upper } else { Case::Lower }, c)
}

/// Go's `unicode.ToTitle`.
pub(crate) fn to_title(c: char) -> char {
    to(Case::Title, c)
}

/// Go's `unicode.SimpleFold`: the next character in `c`'s case folding
/// orbit.
pub(crate) fn simple_fold(c: u32) -> u32 {
    let (_, orbit) = tables();
    if let Ok(i) = orbit.binary_search_by_key(&c, |&(from, _)| from) {
        return orbit[i].1;
    }
    let Some(ch) = char::from_u32(c) else {
        return c;
    };
    let lower = to(Case::Lower, ch);
    if lower != ch {
        return lower as u32;
    }
    to(Case::Upper, ch) as u32
}

/// Mirrors Go's `unicode.to`.
fn to(case: Case, c: char) -> char {
    let cp = c as u32;
    let (ranges, _) = tables();
    let idx = ranges.partition_point(|&(first, ..)| first <= cp);
    let Some(&(first, last, upper, lower, title)) = idx.checked_sub(1).map(|i| &ranges[i]) else {
        return c;
    };
    if cp > last {
        return c;
    }
    let delta = match case {
        Case::Upper => upper,
        Case::Lower => lower,
        Case::Title => title,
    };
    let mapped = if delta == ALT {
        // Upper case at even offsets from the start, lower case at odd.
        let base = first + ((cp - first) & !1);
        if case == Case::Lower {
            base + 1
        } else {
            base
        }
    } else {
        cp.wrapping_add_signed(delta)
    };
    char::from_u32(mapped).unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::{simple_case, simple_fold, to_title};

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

    #[test]
    fn title_and_folding_match_go() {
        // Go's unicode.ToTitle
        assert_eq!(to_title('ǆ'), 'ǅ');
        assert_eq!(to_title('ǅ'), 'ǅ');
        assert_eq!(to_title('a'), 'A');
        // Go's unicode.SimpleFold: k -> Kelvin sign -> K -> k, and a pair
        // outside the orbits
        let orbit = [0x6B, 0x212A, 0x4B, 0x6B];
        for pair in orbit.windows(2) {
            assert_eq!(simple_fold(pair[0]), pair[1], "{:X}", pair[0]);
        }
        assert_eq!(simple_fold(0x101), 0x100);
        assert_eq!(simple_fold(0x100), 0x101);
        assert_eq!(simple_fold(0x31), 0x31);
    }

    #[test]
    fn georgian_capitals_follow_the_unicode_version() {
        use crate::text::{with_unicode, UnicodeVersion};
        // Mtavruli capitals (U+1C90..) are new in Unicode 11: Go 1.11
        // (Unicode 10) leaves U+10D0 and U+1C90 alone, Go 1.19 maps and
        // folds them.
        assert_eq!(simple_case('\u{10D0}', true), '\u{1C90}');
        assert_eq!(simple_case('\u{1C90}', false), '\u{10D0}');
        assert_eq!(simple_fold(0x1C90), 0x10D0);
        with_unicode(UnicodeVersion::V10, || {
            assert_eq!(simple_case('\u{10D0}', true), '\u{10D0}');
            assert_eq!(simple_case('\u{1C90}', false), '\u{1C90}');
            assert_eq!(simple_fold(0x1C90), 0x1C90);
            assert_eq!(simple_case('ß', true), 'ß');
            assert_eq!(simple_case('ǅ', false), 'ǆ');
        });
    }
}
