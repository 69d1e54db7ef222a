//! Splitting strings into grapheme clusters with the same scanner that
//! [`super::grapheme_count`] counts with (go-textseg v13's
//! `ScanGraphemeClusters`, as cty's string functions call it).

use super::grapheme::{property, token, Gcb};

/// The grapheme clusters of `s`, in order; concatenated they give `s`.
pub(crate) fn clusters(s: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let props: Vec<Gcb> = chars.iter().map(|&(_, c)| property(c)).collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < props.len() {
        // A character no token covers is a cluster on its own.
        let len = token(&props[at..]).max(1);
        let start = chars[at].0;
        at += len;
        let end = chars.get(at).map_or(s.len(), |&(i, _)| i);
        out.push(&s[start..end]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::clusters;

    #[test]
    fn clusters_concatenate_to_the_input() {
        let table: [(&str, &[&str]); 5] = [
            ("", &[]),
            ("ab", &["a", "b"]),
            ("e\u{301}x", &["e\u{301}", "x"]),
            ("\r\n\n", &["\r\n", "\n"]),
            (
                "\u{1F1FA}\u{1F1F8}\u{1F1EC}",
                &["\u{1F1FA}\u{1F1F8}", "\u{1F1EC}"],
            ),
        ];
        for (s, want) in table {
            assert_eq!(clusters(s), want, "{s:?}");
        }
    }
}
