//! Base64 with the standard alphabet and padding, as Go's
//! `encoding/base64.StdEncoding` reads and writes it.
//!
//! Why not the `base64` crate: Go's decoder skips line breaks anywhere in
//! the input, the crate's standard engine refuses them. `"aGk=\n"` decodes
//! to `hi` in Go and fails with `InvalidByte(4, 10)` in `base64` 0.22.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const PAD: u8 = b'=';

/// `StdEncoding.EncodeToString`.
pub(crate) fn encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 0x3f) as usize]));
            } else {
                out.push(char::from(PAD));
            }
        }
    }
    out
}

/// `StdEncoding.DecodeString`: line breaks (`\r`, `\n`) anywhere are
/// skipped, padding is required, and stray bits in the last quantum are
/// accepted. The error is Go's `CorruptInputError`: the offset of the first
/// offending byte.
pub(crate) fn decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    while si < src.len() {
        si = decode_quantum(src, si, &mut out)?;
    }
    Ok(out)
}

/// Mirrors `Encoding.decodeQuantum`: decodes up to four symbols starting at
/// `si` into `out` and returns where the next quantum starts.
fn decode_quantum(src: &[u8], mut si: usize, out: &mut Vec<u8>) -> Result<usize, usize> {
    let mut dbuf = [0u8; 4];
    let mut dlen = 4;
    let mut trailing_garbage = None;
    let mut j = 0;
    while j < 4 {
        if si == src.len() {
            // Padding is required, so a short final quantum is corrupt.
            return match j {
                0 => Ok(si),
                _ => Err(si - j),
            };
        }
        let c = src[si];
        si += 1;
        if let Some(v) = symbol_value(c) {
            dbuf[j] = v;
            j += 1;
            continue;
        }
        if c == b'\n' || c == b'\r' {
            continue;
        }
        if c != PAD {
            return Err(si - 1);
        }
        match j {
            0 | 1 => return Err(si - 1),
            2 => {
                // The second '=' of "==" must follow, after any line breaks.
                si = skip_line_breaks(src, si);
                if si == src.len() {
                    return Err(src.len());
                }
                if src[si] != PAD {
                    return Err(si - 1);
                }
                si += 1;
            }
            _ => {}
        }
        si = skip_line_breaks(src, si);
        if si < src.len() {
            trailing_garbage = Some(si);
        }
        dlen = j;
        break;
    }
    let val = u32::from(dbuf[0]) << 18
        | u32::from(dbuf[1]) << 12
        | u32::from(dbuf[2]) << 6
        | u32::from(dbuf[3]);
    let bytes = [(val >> 16) as u8, (val >> 8) as u8, val as u8];
    out.extend_from_slice(&bytes[..dlen - 1]);
    match trailing_garbage {
        Some(at) => Err(at),
        None => Ok(si),
    }
}

fn skip_line_breaks(src: &[u8], mut si: usize) -> usize {
    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
        si += 1;
    }
    si
}

fn symbol_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{decode, encode};

    // Expected values checked against Go 1.19's encoding/base64.
    #[test]
    fn round_trips_and_errors() {
        assert_eq!(encode(b""), "");
        assert_eq!(encode(b"f"), "Zg==");
        assert_eq!(encode(b"fo"), "Zm8=");
        assert_eq!(encode(b"foo"), "Zm9v");
        assert_eq!(encode(b"\xff\xfe"), "//4=");
        assert_eq!(decode(b"Zm9v").unwrap(), b"foo");
        assert_eq!(decode(b"Zm\n9v\r\n").unwrap(), b"foo");
        assert_eq!(decode(b"Zg==").unwrap(), b"f");
        assert_eq!(decode(b"Zh==").unwrap(), b"f");
        assert_eq!(decode(b"Zg"), Err(0));
        assert_eq!(decode(b"Zm9vZ"), Err(4));
        assert_eq!(decode(b"Zm9v!"), Err(4));
        assert_eq!(decode(b"Zg=="), Ok(b"f".to_vec()));
        assert_eq!(decode(b"Zg=x"), Err(2));
        assert_eq!(decode(b"Zg="), Err(3));
        assert_eq!(decode(b"Zm8=Zm8="), Err(4));
        assert_eq!(decode(b"="), Err(0));
    }
}
