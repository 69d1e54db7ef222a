//! Go strings as Terraform 0.11 holds them: bytes, usually but not always
//! UTF-8. `base64decode`, `substr` (which cuts at byte offsets), `file`
//! and `rsadecrypt` can make a string that is not UTF-8, and the next
//! function sees its bytes unchanged: `urlencode(base64decode("null"))` is
//! `%9E%E9e`, not the escapes of two U+FFFD.
//!
//! Where Go reads such a string as text it decodes it with
//! `utf8.DecodeRuneInString`, which takes each byte that does not begin a
//! valid sequence as one `utf8.RuneError` (U+FFFD) of width 1: `"\xe9\x80b"`
//! is three runes, two of them U+FFFD. [`runes`] is that decoding.
//!
//! The bytes become text only where a value leaves the dialect, in one of
//! two ways:
//!
//! - **Results** ([`json_text`]): Terraform writes an output's value to its
//!   state with `encoding/json`, which writes each such byte as one U+FFFD
//!   (`"\xe9\x80b"` reads back as `"\u{FFFD}\u{FFFD}b"`).
//! - **Error messages** ([`message_text`]): Terraform prints a message's
//!   bytes as they are; the protocol's answer is UTF-8, read with the
//!   standard decoder that replaces each maximal invalid subsequence with
//!   one U+FFFD (Unicode's recommended practice, as Rust's
//!   `String::from_utf8_lossy`): `"\xe9\x80b"` reads as `"\u{FFFD}b"`.

use std::borrow::Cow;

/// A Go string.
pub type GoString = Vec<u8>;

/// Go's `for _, r := range s`: each rune with the bytes it was read from;
/// a byte outside a valid UTF-8 sequence is U+FFFD of width 1.
pub fn runes(bytes: &[u8]) -> impl Iterator<Item = (char, &[u8])> {
    bytes.utf8_chunks().flat_map(|chunk| {
        let valid = chunk.valid();
        let chars = valid
            .char_indices()
            .map(move |(i, c)| (c, &valid.as_bytes()[i..i + c.len_utf8()]));
        let invalid = chunk
            .invalid()
            .chunks(1)
            .map(|b| (char::REPLACEMENT_CHARACTER, b));
        chars.chain(invalid)
    })
}

/// Go's `utf8.RuneCountInString`.
pub fn rune_count(bytes: &[u8]) -> usize {
    runes(bytes).count()
}

/// A value's bytes as the state Terraform writes holds them: Go's
/// `encoding/json` writes each byte that does not begin a valid UTF-8
/// sequence as one U+FFFD (where Rust's `from_utf8_lossy` replaces a
/// whole broken sequence with one).
pub fn json_text(bytes: &[u8]) -> String {
    runes(bytes).map(|(c, _)| c).collect()
}

/// Bytes inside an error message, as the protocol's answer reads them
/// (see the module documentation).
pub fn message_text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// Go 1.11's `strings.Map(mapping, s)`, as `strings.ToUpper`, `ToLower`
/// and `Title` use it: nothing is copied until the first rune the mapping
/// changes; from there on every rune is written again, so a byte outside a
/// valid sequence before that rune stays as it is and one after it
/// becomes the three bytes of U+FFFD (`upper("\x80a")` is `"\x80A"`,
/// `upper("a\x80")` is `"A\u{FFFD}"`).
pub fn map_runes(bytes: &[u8], mut mapping: impl FnMut(char) -> char) -> GoString {
    let mut out: Option<GoString> = None;
    let mut at = 0;
    for (c, raw) in runes(bytes) {
        let r = mapping(c);
        match &mut out {
            None if r == c => {}
            None => {
                let mut copy = bytes[..at].to_vec();
                push_rune(&mut copy, r);
                out = Some(copy);
            }
            Some(out) => push_rune(out, r),
        }
        at += raw.len();
    }
    out.unwrap_or_else(|| bytes.to_vec())
}

/// Go's `strings.Split(s, "")` (its `explode`): one string per rune, a
/// byte outside a valid sequence becoming U+FFFD.
pub fn explode(bytes: &[u8]) -> Vec<GoString> {
    runes(bytes)
        .map(|(c, raw)| {
            if c == char::REPLACEMENT_CHARACTER {
                "\u{FFFD}".as_bytes().to_vec()
            } else {
                raw.to_vec()
            }
        })
        .collect()
}

/// Go's `strings.Split(s, sep)` for a non-empty separator.
pub fn split(bytes: &[u8], sep: &[u8]) -> Vec<GoString> {
    let mut parts = Vec::new();
    let mut rest = bytes;
    while let Some(i) = find(rest, sep) {
        parts.push(rest[..i].to_vec());
        rest = &rest[i + sep.len()..];
    }
    parts.push(rest.to_vec());
    parts
}

/// The first offset of `needle` in `haystack` (`strings.Index`).
pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Go's `strings.Replace(s, old, new, -1)`: an empty `old` matches before
/// every rune and at the end.
pub fn replace_all(bytes: &[u8], old: &[u8], new: &[u8]) -> GoString {
    let mut out = Vec::with_capacity(bytes.len());
    if old.is_empty() {
        for (_, raw) in runes(bytes) {
            out.extend_from_slice(new);
            out.extend_from_slice(raw);
        }
        out.extend_from_slice(new);
        return out;
    }
    let parts = split(bytes, old);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(new);
        }
        out.extend_from_slice(part);
    }
    out
}

/// The rune as UTF-8 (`utf8.EncodeRune`).
pub fn push_rune(out: &mut GoString, c: char) {
    let mut buf = [0; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_byte_is_one_rune() {
        let got: Vec<(char, &[u8])> = runes(b"\xe9\x80b").collect();
        assert_eq!(
            got,
            [
                ('\u{FFFD}', &b"\xe9"[..]),
                ('\u{FFFD}', &b"\x80"[..]),
                ('b', &b"b"[..])
            ]
        );
        assert_eq!(rune_count("é\x7f".as_bytes()), 2);
    }

    #[test]
    fn results_and_messages_read_bytes_differently() {
        assert_eq!(json_text(b"\xe9\x80b"), "\u{FFFD}\u{FFFD}b");
        assert_eq!(message_text(b"\xe9\x80b"), "\u{FFFD}b");
    }

    #[test]
    fn mapping_rewrites_only_after_the_first_change() {
        let upper = |b: &[u8]| map_runes(b, |c| c.to_ascii_uppercase());
        assert_eq!(upper(b"\x9e\xe9e"), b"\x9e\xe9E");
        assert_eq!(upper(b"a\x80b"), "A\u{FFFD}B".as_bytes());
        assert_eq!(upper(b"\x80"), b"\x80");
    }

    #[test]
    fn splitting_and_replacing() {
        assert_eq!(explode(b"a\x80"), [b"a".to_vec(), "\u{FFFD}".into()]);
        assert_eq!(split(b"a\x80b", b"\x80"), [b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(replace_all(b"a\x80", b"", b"-"), b"-a-\x80-");
    }
}
