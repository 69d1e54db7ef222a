//! Splitting strings into grapheme clusters with the same scanner that
//! [`super::grapheme_count`] counts with (go-textseg v13's
//! `ScanGraphemeClusters`, as cty's string functions call it).

use super::grapheme::{property, token, Gcb};

/// The grapheme clusters of `s`, in order; concatenated they give `s`.
pub(crate) fn clusters(s: &str) -> Vec<&str> {
    scan(s, true).0
}

/// The grapheme clusters the scanner finds in `s` when more text may follow
/// (`ScanGraphemeClusters` with `atEOF` false), and whether it stopped
/// short of the end: at a character no token covers (a line feed, or a
/// carriage return without one after it) it asks for more text instead of
/// taking the character alone, so the clusters end before it.
pub(crate) fn clusters_before_more(s: &str) -> (Vec<&str>, bool) {
    scan(s, false)
}

fn scan(s: &str, at_eof: bool) -> (Vec<&str>, bool) {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let props: Vec<Gcb> = chars.iter().map(|&(_, c)| property(c)).collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < props.len() {
        let len = match token(&props[at..]) {
            0 if !at_eof => return (out, true),
            // At the end of the text, a character no token covers is a
            // cluster on its own.
            len => len.max(1),
        };
        let start = chars[at].0;
        at += len;
        let end = chars.get(at).map_or(s.len(), |&(i, _)| i);
        out.push(&s[start..end]);
    }
    (out, false)
}

#[cfg(test)]
mod tests {
    use super::{clusters, clusters_before_more};

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

    #[test]
    fn scanning_before_more_text_stops_at_a_lone_line_break() {
        let table: [(&str, &[&str], bool); 5] = [
            ("ab", &["a", "b"], false),
            ("a\r\nb", &["a", "\r\n", "b"], false),
            ("a\nb", &["a"], true),
            ("a\rb", &["a"], true),
            ("\n\n ", &[], true),
        ];
        for (s, want, stopped) in table {
            assert_eq!(clusters_before_more(s), (want.to_vec(), stopped), "{s:?}");
        }
    }
}
