//! What Go's `golang.org/x/text/unicode/norm` does beyond Unicode NFC
//! itself, which cty's strings and refinements show:
//!
//! - **Stream-safe text**: normalizing, it inserts U+034F COMBINING
//!   GRAPHEME JOINER before a character that would make more than 30
//!   non-starters in a row (`"x"` and 31 U+0301 become `"x"`, 30 U+0301,
//!   U+034F, U+0301). The `unicode-normalization` crate's `stream_safe`
//!   counts differently: it does not count the starters that combine with
//!   the character before them (Hangul vowel and final jamo, some Indic
//!   vowel signs), so `"x"` and 31 U+0B3E get no joiner there but do in Go.
//! - **The last boundary** (`Form.LastBoundary` for NFC), where NFC text
//!   may still change if more text follows, which
//!   `ctystrings.SafeKnownPrefix` uses to cut a string prefix back.
//!
//! The character properties are read from the `unicode-normalization`
//! crate's data (combining classes, quick-check values, decompositions,
//! compositions) the way `x/text`'s table generator derives its own:
//!
//! - a character *combines backward* when its NFC quick-check value is
//!   Maybe, and *forward* when some character that combines backward
//!   composes with it (the Hangul leading and vowel jamo always do);
//! - its leading and trailing *non-starters* are counted over its
//!   compatibility decomposition, where a non-starter has a non-zero
//!   combining class or combines backward (a Hangul syllable has two
//!   trailing, one without a final consonant);
//! - it is *inert* (nothing that follows can change it) when its class is
//!   zero, it combines neither way, has no canonical decomposition and no
//!   trailing non-starter.
//!
//! Scanning back from the end, the last boundary is the end itself after an
//! inert character, else the start of the last character without leading
//! non-starters, unless more than 30 non-starters come first (the boundary
//! is then after the 30th) or none is found.

use std::borrow::Cow;
use std::sync::OnceLock;

use unicode_normalization::char::{
    canonical_combining_class, compose, decompose_canonical, decompose_compatible,
};
use unicode_normalization::{is_nfc_quick, IsNormalized};

/// The last code point [`backward_combiners`] looks at.
const LAST_SCANNED: u32 = 0x1FFFF;

/// Go's `maxNonStarters`: the stream-safe limit.
const MAX_NON_STARTERS: usize = 30;

/// `s` with U+034F inserted where Go's normalization inserts it: before a
/// character whose leading non-starters would make more than 30 in a row
/// (counting from the last starter's trailing ones); that character then
/// starts the count again.
pub(crate) fn stream_safe(s: &str) -> Cow<'_, str> {
    if !may_overflow(s) {
        return Cow::Borrowed(s);
    }
    let mut out: Option<String> = None;
    let mut run = 0;
    for (i, c) in s.char_indices() {
        let lead = leading_non_starters(c);
        run += lead;
        if run > MAX_NON_STARTERS {
            // The character starts the next segment.
            run = trailing_non_starters(c);
            out.get_or_insert_with(|| s[..i].to_string())
                .push(GRAPHEME_JOINER);
        } else if lead == 0 {
            run = trailing_non_starters(c);
        }
        if let Some(out) = &mut out {
            out.push(c);
        }
    }
    out.map_or(Cow::Borrowed(s), Cow::Owned)
}

/// U+034F COMBINING GRAPHEME JOINER.
const GRAPHEME_JOINER: char = '\u{34F}';

/// Whether `s` has a run of non-ASCII characters long enough to hold more
/// than 30 non-starters (a character counts for at most 3): ASCII
/// characters are starters without trailing non-starters.
fn may_overflow(s: &str) -> bool {
    let mut run = 0;
    for b in s.bytes() {
        if b.is_ascii() {
            run = 0;
        } else if b & 0xC0 != 0x80 {
            run += 1;
            if run * 3 > MAX_NON_STARTERS {
                return true;
            }
        }
    }
    false
}

/// The last NFC boundary of `s` as a byte offset, or `None` where Go's
/// `LastBoundary` gives -1 (no boundary: `s` is empty or has no starter
/// within reach). `s.len()` means nothing that follows can change `s`.
pub(crate) fn last_boundary(s: &str) -> Option<usize> {
    let runes: Vec<(usize, char)> = s.char_indices().collect();
    let mut k = runes.len().checked_sub(1)?;
    if is_inert(runes[k].1) {
        return Some(s.len());
    }
    let mut seen = trailing_non_starters(runes[k].1);
    let mut at = runes[k].0;
    while leading_non_starters(runes[k].1) > 0 {
        k = k.checked_sub(1)?;
        seen += trailing_non_starters(runes[k].1);
        if seen > MAX_NON_STARTERS {
            return Some(at);
        }
        at = runes[k].0;
    }
    Some(at)
}

/// Whether nothing that follows `c` can change it under NFC.
fn is_inert(c: char) -> bool {
    canonical_combining_class(c) == 0
        && !combines_backward(c)
        && !combines_forward(c)
        && !has_canonical_decomposition(c)
        && trailing_non_starters(c) == 0
}

fn combines_backward(c: char) -> bool {
    is_nfc_quick(std::iter::once(c)) == IsNormalized::Maybe
}

fn combines_forward(c: char) -> bool {
    if is_jamo_leading(c) || is_jamo_vowel(c) {
        return true;
    }
    backward_combiners()
        .iter()
        .any(|&b| compose(c, b).is_some())
}

/// Every character whose NFC quick-check value is Maybe, found once. They
/// are all in the first two planes (a test checks), so only those are
/// scanned.
fn backward_combiners() -> &'static [char] {
    static ALL: OnceLock<Vec<char>> = OnceLock::new();
    ALL.get_or_init(|| {
        (0..=LAST_SCANNED)
            .filter_map(char::from_u32)
            .filter(|&c| combines_backward(c))
            .collect()
    })
}

fn has_canonical_decomposition(c: char) -> bool {
    let mut other = false;
    decompose_canonical(c, |d| other |= d != c);
    other
}

fn is_non_starter(c: char) -> bool {
    canonical_combining_class(c) != 0 || combines_backward(c)
}

fn compatibility_decomposition(c: char) -> Vec<char> {
    let mut out = Vec::new();
    decompose_compatible(c, |d| out.push(d));
    out
}

fn leading_non_starters(c: char) -> usize {
    compatibility_decomposition(c)
        .into_iter()
        .take_while(|&d| is_non_starter(d))
        .count()
}

fn trailing_non_starters(c: char) -> usize {
    if is_hangul_syllable(c) {
        return if (c as u32 - 0xAC00) % 28 == 0 { 1 } else { 2 };
    }
    compatibility_decomposition(c)
        .into_iter()
        .rev()
        .take_while(|&d| is_non_starter(d))
        .count()
}

fn is_jamo_leading(c: char) -> bool {
    ('\u{1100}'..='\u{1112}').contains(&c)
}

fn is_jamo_vowel(c: char) -> bool {
    ('\u{1161}'..='\u{1175}').contains(&c)
}

fn is_hangul_syllable(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

#[cfg(test)]
mod tests {
    //! The expected values are what Go's `golang.org/x/text/unicode/norm`
    //! (Debian's copy) gives: `norm.NFC.String` and `norm.NFC.LastBoundary`.

    use super::{combines_backward, last_boundary, stream_safe, LAST_SCANNED};

    #[test]
    fn joiners() {
        let accents = |n: usize| "\u{301}".repeat(n);
        let rows = [
            (format!("x{}", accents(30)), format!("x{}", accents(30))),
            (
                format!("x{}", accents(31)),
                format!("x{}\u{34F}{}", accents(30), accents(1)),
            ),
            // After a joiner the count starts again with the character
            // that overflowed (also `str-125`, from Go HCL and Terraform).
            (
                format!("x{}", accents(62)),
                format!(
                    "x{}\u{34F}{}\u{34F}{}",
                    accents(30),
                    accents(30),
                    accents(2)
                ),
            ),
            // Vowel signs that combine backward count as non-starters.
            (
                format!("x{}", "\u{B3E}".repeat(31)),
                format!("x{}\u{34F}\u{B3E}", "\u{B3E}".repeat(30)),
            ),
        ];
        for (s, want) in rows {
            assert_eq!(stream_safe(&s), want, "{s:?}");
        }
    }

    #[test]
    fn no_backward_combiner_past_the_scanned_planes() {
        let past = (LAST_SCANNED + 1..=char::MAX as u32)
            .filter_map(char::from_u32)
            .find(|&c| combines_backward(c));
        assert_eq!(past, None);
    }

    #[test]
    fn boundaries() {
        let rows: &[(&str, Option<usize>)] = &[
            ("", None),
            ("ab-", Some(3)),
            // A letter can take an accent: the boundary is before it.
            ("ab", Some(1)),
            // A prefix character then a letter: the letter starts the
            // last segment, though both are one grapheme cluster.
            ("\u{600}a", Some(2)),
            // Marks after a letter belong to its segment.
            ("xa\u{301}\u{302}", Some(1)),
            // Nothing but marks: no boundary.
            ("\u{301}\u{302}", None),
            // Hangul: a leading jamo may take a vowel.
            ("\u{1100}\u{1100}", Some(3)),
        ];
        for (s, want) in rows {
            assert_eq!(last_boundary(s), *want, "{s:?}");
        }
        // More than 30 non-starters: the boundary is after the 30th from
        // the end.
        let s = format!("x{}", "\u{301}".repeat(32));
        assert_eq!(last_boundary(&s), Some(1 + 2 * 2));
    }
}
