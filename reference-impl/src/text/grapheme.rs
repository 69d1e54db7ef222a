//! Grapheme clusters as go-cty's string functions count them: go-textseg
//! v13's scanner, a longest-match tokenizer whose grammar is close to, but
//! not the same as, Unicode 13.0's UAX #29 rules (a ZWJ glues a following
//! pictograph onto Hangul, flag and emoji sequences only; there is no Indic
//! conjunct rule; U+FFFD stands alone).
//!
//! Why not `unicode-segmentation`: it follows a later UAX #29, with the
//! Indic conjunct rule: `क्ष` (U+0915 U+094D U+0937) is one cluster for
//! `unicode-segmentation` 1.13 and two for go-textseg v13.

use super::{grapheme_table, grapheme_table_15, unicode_version, UnicodeVersion};

/// The number of grapheme clusters in `s` (cty's `Strlen`).
pub(crate) fn count(s: &str) -> usize {
    let props: Vec<Gcb> = s.chars().map(property).collect();
    let mut rest = props.as_slice();
    let mut clusters = 0;
    while !rest.is_empty() {
        // A character no token covers is a cluster on its own.
        let len = token(rest).max(1);
        rest = &rest[len..];
        clusters += 1;
    }
    clusters
}

/// A character's class in the scanner's grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Gcb {
    Other,
    Cr,
    Lf,
    Control,
    /// `Extend` or `SpacingMark`.
    Extender,
    Zwj,
    RegionalIndicator,
    Prepend,
    L,
    V,
    T,
    Lv,
    Lvt,
    ExtendedPictographic,
}

/// The length of the longest token at the start of `p` (0 if none).
pub(super) fn token(p: &[Gcb]) -> usize {
    match p[0] {
        Gcb::Cr if p.get(1) == Some(&Gcb::Lf) => 2,
        Gcb::Control => 1,
        Gcb::Prepend => {
            let prepends = run(p, |g| g == Gcb::Prepend);
            prepends + sequence(&p[prepends..])
        }
        _ => sequence(p),
    }
}

/// The longest Hangul, emoji, ZWJ, flag or other sequence at the start of
/// `p` (0 if none).
fn sequence(p: &[Gcb]) -> usize {
    let Some(&first) = p.first() else {
        return 0;
    };
    match first {
        Gcb::L | Gcb::V | Gcb::T | Gcb::Lv | Gcb::Lvt => hangul(p),
        Gcb::ExtendedPictographic => 1 + extension(&p[1..]),
        Gcb::Zwj => 1 + run(&p[1..], |g| matches!(g, Gcb::Zwj | Gcb::Extender)),
        Gcb::RegionalIndicator => {
            let flags = if p.get(1) == Some(&Gcb::RegionalIndicator) {
                2
            } else {
                1
            };
            flags + extension(&p[flags..])
        }
        Gcb::Other | Gcb::Extender => 1 + run(&p[1..], |g| matches!(g, Gcb::Zwj | Gcb::Extender)),
        Gcb::Cr | Gcb::Lf | Gcb::Control | Gcb::Prepend => 0,
    }
}

/// Extending characters after a Hangul, emoji or flag sequence: a ZWJ takes
/// a directly following pictograph with it.
fn extension(p: &[Gcb]) -> usize {
    let mut i = 0;
    while let Some(&g) = p.get(i) {
        match g {
            Gcb::Extender => i += 1,
            Gcb::Zwj if p.get(i + 1) == Some(&Gcb::ExtendedPictographic) => i += 2,
            Gcb::Zwj => i += 1,
            _ => break,
        }
    }
    i
}

/// A Hangul syllable sequence and its extension.
fn hangul(p: &[Gcb]) -> usize {
    let at = |i: usize| p.get(i).copied();
    let vs = |from: usize| run(&p[from.min(p.len())..], |g| g == Gcb::V);
    let ts = |from: usize| run(&p[from.min(p.len())..], |g| g == Gcb::T);
    let leading = run(p, |g| g == Gcb::L);
    let end = if leading > 0 {
        match at(leading) {
            Some(Gcb::Lv) if at(leading + 1) == Some(Gcb::V) => {
                let v = vs(leading + 1);
                leading + 1 + v + ts(leading + 1 + v)
            }
            Some(Gcb::Lv) => leading + 1,
            Some(Gcb::V) => {
                let v = vs(leading);
                leading + v + ts(leading + v)
            }
            Some(Gcb::Lvt) => leading + 1 + ts(leading + 1),
            _ => leading,
        }
    } else {
        match p[0] {
            Gcb::Lv => {
                let v = vs(1);
                1 + v + ts(1 + v)
            }
            Gcb::V => {
                let v = vs(0);
                v + ts(v)
            }
            Gcb::Lvt => 1 + ts(1),
            _ => ts(0),
        }
    };
    end + extension(&p[end..])
}

fn run(p: &[Gcb], pred: impl Fn(Gcb) -> bool) -> usize {
    p.iter().take_while(|&&g| pred(g)).count()
}

pub(super) fn property(c: char) -> Gcb {
    let cp = c as u32;
    if (0xAC00..=0xD7A3).contains(&cp) {
        return if (cp - 0xAC00) % 28 == 0 {
            Gcb::Lv
        } else {
            Gcb::Lvt
        };
    }
    let ranges = match unicode_version() {
        // No function of the Terraform 0.11 dialect counts grapheme
        // clusters (its `length` and `substr` count characters), so Unicode
        // 10 has no grapheme table; Unicode 13's stands in.
        UnicodeVersion::V10 | UnicodeVersion::V13 => grapheme_table::GRAPHEME_RANGES,
        UnicodeVersion::V15 => grapheme_table_15::GRAPHEME_RANGES,
    };
    let idx = ranges.partition_point(|&(first, _, _)| first <= cp);
    match idx.checked_sub(1).map(|i| ranges[i]) {
        Some((_, last, prop)) if cp <= last => prop,
        _ => Gcb::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    // Expected counts checked against go-textseg v13 as go-cty 1.12.1 uses it.
    #[test]
    fn cluster_counts() {
        let table = [
            ("", 0),
            ("hello", 5),
            ("e\u{301}", 1),
            ("\r\n", 1),
            ("\u{1F1FA}\u{1F1F8}", 1),
            ("\u{1F1FA}\u{1F1F8}\u{1F1EC}", 2),
            ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", 1),
            ("\u{915}\u{94D}\u{937}\u{93F}", 2),
            ("\u{FFFD}\u{301}", 2),
            ("\u{1F1E6}\u{200D}\u{A9}", 1),
            ("a\u{200D}\u{A9}", 2),
            ("a\u{200D}b", 2),
            ("\u{1100}\u{1161}\u{11A8}", 1),
        ];
        for (s, want) in table {
            assert_eq!(count(s), want, "{s:?}");
        }
    }
}
