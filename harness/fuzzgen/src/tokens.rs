//! A rough tokenizer for damaging and shrinking sources. It does not need
//! to agree with HCL's scanner: it only has to cut text at places where
//! deleting or replacing a piece often leaves something meaningful.
//! Concatenating the tokens always gives the source back.

/// Multi-character punctuation, longest first.
const PUNCT: &[&str] = &[
    "$${", "%%{", "<<-", "...", "=>", "==", "!=", "<=", ">=", "&&", "||", "${", "%{", "~}", "<<",
    "::", "[*]", ".*", "\\\"", "\\\\", "\\n",
];

/// The first bytes of [`PUNCT`].
const PUNCT_FIRST: &[u8] = b"$%<.=!>&|~:[\\";

/// Splits `source` into tokens: whitespace runs, identifiers, numbers,
/// punctuation, and any other single character.
pub fn tokenize(source: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < source.len() {
        let rest = &source[i..];
        let len = token_len(rest, bytes[i]);
        out.push(&rest[..len]);
        i += len;
    }
    out
}

fn token_len(rest: &str, first: u8) -> usize {
    if first == b' ' || first == b'\t' {
        return rest
            .bytes()
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count();
    }
    if first.is_ascii_alphabetic() || first == b'_' {
        return rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
            .count();
    }
    if first.is_ascii_digit() {
        return number_len(rest.as_bytes());
    }
    // Byte by byte rather than `starts_with`: libFuzzer's hook on every
    // memcmp made the tokenizer 8% of diff_hclrs's time.
    if PUNCT_FIRST.contains(&first) {
        let starts =
            |p: &str| rest.len() >= p.len() && p.bytes().zip(rest.bytes()).all(|(a, b)| a == b);
        if let Some(p) = PUNCT.iter().find(|p| starts(p)) {
            return p.len();
        }
    }
    rest.chars().next().map_or(1, char::len_utf8)
}

/// Digits, an optional fraction, an optional exponent.
fn number_len(b: &[u8]) -> usize {
    let digits = |from: usize| from + b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = digits(0);
    if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
        i = digits(i + 1);
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            i = digits(j);
        }
    }
    i
}

/// Pairs of token indexes that open and close a bracket group (`(`, `[`,
/// `{`, `${`, `%{` with their closers), innermost first.
pub fn groups(toks: &[&str]) -> Vec<(usize, usize)> {
    let mut stack: Vec<(usize, &str)> = Vec::new();
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match *t {
            "(" | "[" | "{" | "${" | "%{" => stack.push((i, t)),
            ")" | "]" | "}" | "~}" => {
                let want: &[&str] = match *t {
                    ")" => &["("],
                    "]" => &["["],
                    _ => &["{", "${", "%{"],
                };
                if let Some(pos) = stack.iter().rposition(|(_, o)| want.contains(o)) {
                    let (open, _) = stack[pos];
                    stack.truncate(pos);
                    out.push((open, i));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_punctuation_starts_with_a_listed_byte() {
        for p in PUNCT {
            assert!(PUNCT_FIRST.contains(&p.as_bytes()[0]), "{p}");
        }
    }

    #[test]
    fn tokens_cover_the_source() {
        let table: &[(&str, &[&str])] = &[
            (
                "a.b[0] + 1.5e3",
                &["a", ".", "b", "[", "0", "]", " ", "+", " ", "1.5e3"],
            ),
            ("x...", &["x", "..."]),
            ("\"${a}é\"", &["\"", "${", "a", "}", "é", "\""]),
            ("1.a", &["1", ".", "a"]),
            ("[*].id", &["[*]", ".", "id"]),
            ("a-b-1", &["a-b-1"]),
        ];
        for (src, want) in table {
            let toks = tokenize(src);
            assert_eq!(&toks, want, "{src}");
            assert_eq!(toks.concat(), *src);
        }
    }

    #[test]
    fn groups_match_brackets() {
        let toks = tokenize("f([1, (2)], \"${x}\")");
        let g = groups(&toks);
        let texts: Vec<String> = g.iter().map(|(a, b)| toks[*a..=*b].concat()).collect();
        assert_eq!(texts, ["(2)", "[1, (2)]", "${x}", "([1, (2)], \"${x}\")"]);
    }
}
