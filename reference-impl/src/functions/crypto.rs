//! Terraform's hash and name-based UUID functions: `md5`, `sha1`, `sha256`,
//! `sha512`, `base64sha256`, `base64sha512` and `uuidv5`. Each hashes the
//! UTF-8 bytes of its string argument.

use md5::Md5;
use sha1::{Digest, Sha1};
use sha2::{Sha256, Sha512};

use super::encoding::base64_encode;
use super::{static_return_type, string_function, CallError, Function, Param};
use crate::types::Type;
use crate::value::Value;

/// Bytes to an encoded digest.
pub(super) type Hasher = fn(&[u8]) -> String;

/// The hash functions by name, each hashing bytes to its encoded digest;
/// Terraform's `file*` variants hash a file's contents the same way.
pub(super) const DIGESTS: [(&str, Hasher); 6] = [
    ("md5", |b| hex(&Md5::digest(b))),
    ("sha1", |b| hex(&Sha1::digest(b))),
    ("sha256", |b| hex(&Sha256::digest(b))),
    ("sha512", |b| hex(&Sha512::digest(b))),
    ("base64sha256", |b| base64_encode(&Sha256::digest(b))),
    ("base64sha512", |b| base64_encode(&Sha512::digest(b))),
];

/// Every function defined here.
pub(super) fn functions() -> Vec<Function> {
    let mut all: Vec<Function> = DIGESTS
        .iter()
        .map(|(name, hash)| hash_function(name, *hash))
        .collect();
    all.push(uuidv5());
    all
}

/// A one-string function returning an encoded digest.
/// Mirrors Terraform's `funcs.makeStringHashFunction`.
fn hash_function(name: &'static str, hash: fn(&[u8]) -> String) -> Function {
    string_function(name, move |s| Ok(hash(s.as_bytes())))
}

/// `uuidv5(namespace, name)`: RFC 4122 version 5 UUID of `name` in one of
/// the well-known namespaces or a namespace given as a UUID.
/// Mirrors Terraform's `funcs.UUIDV5Func` (google/uuid's `Parse` and
/// `NewSHA1`).
fn uuidv5() -> Function {
    Function {
        name: "uuidv5",
        params: vec![
            Param::new("namespace", Type::String),
            Param::new("name", Type::String),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| {
            let (Value::String(ns), Value::String(name)) = (&args[0], &args[1]) else {
                return Ok(Value::unknown(Type::String));
            };
            let namespace = match ns.as_str() {
                "dns" => NAMESPACE_DNS,
                "url" => NAMESPACE_URL,
                "oid" => NAMESPACE_OID,
                "x500" => NAMESPACE_X500,
                _ => parse_uuid(ns.as_bytes()).map_err(|e| {
                    CallError::general(format!("uuidv5() doesn't support namespace {ns} ({e})"))
                })?,
            };
            let mut hasher = Sha1::new();
            hasher.update(namespace);
            hasher.update(name.as_bytes());
            let digest = hasher.finalize();
            let mut uuid = [0u8; 16];
            uuid.copy_from_slice(&digest[..16]);
            uuid[6] = (uuid[6] & 0x0f) | 0x50;
            uuid[8] = (uuid[8] & 0x3f) | 0x80;
            Ok(Value::string(format_uuid(&uuid)))
        }),
    }
}

const NAMESPACE_DNS: [u8; 16] = uuid_bytes(0x6ba7b810_9dad_11d1_80b4_00c04fd430c8);
const NAMESPACE_URL: [u8; 16] = uuid_bytes(0x6ba7b811_9dad_11d1_80b4_00c04fd430c8);
const NAMESPACE_OID: [u8; 16] = uuid_bytes(0x6ba7b812_9dad_11d1_80b4_00c04fd430c8);
const NAMESPACE_X500: [u8; 16] = uuid_bytes(0x6ba7b814_9dad_11d1_80b4_00c04fd430c8);

const fn uuid_bytes(v: u128) -> [u8; 16] {
    v.to_be_bytes()
}

/// Byte offsets of the 16 hex pairs in `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
const PAIR_OFFSETS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/// Mirrors google/uuid's `Parse`: the 36-character form, optionally with a
/// `urn:uuid:` prefix or any one character on each side (braces are not
/// checked), or 32 bare hex digits.
fn parse_uuid(s: &[u8]) -> Result<[u8; 16], String> {
    const BAD_FORMAT: &str = "invalid UUID format";
    let mut uuid = [0u8; 16];
    let body = match s.len() {
        36 => s,
        45 => {
            if !s[..9].eq_ignore_ascii_case(b"urn:uuid:") {
                return Err(format!(
                    "invalid urn prefix: {}",
                    crate::goquote::go_quote_bytes(&s[..9])
                ));
            }
            &s[9..]
        }
        38 => &s[1..],
        32 => {
            for (i, pair) in s.chunks(2).enumerate() {
                uuid[i] = hex_pair(pair[0], pair[1]).ok_or(BAD_FORMAT)?;
            }
            return Ok(uuid);
        }
        n => return Err(format!("invalid UUID length: {n}")),
    };
    if [8, 13, 18, 23].iter().any(|&i| body[i] != b'-') {
        return Err(BAD_FORMAT.to_string());
    }
    for (i, &x) in PAIR_OFFSETS.iter().enumerate() {
        uuid[i] = hex_pair(body[x], body[x + 1]).ok_or(BAD_FORMAT)?;
    }
    Ok(uuid)
}

fn hex_pair(hi: u8, lo: u8) -> Option<u8> {
    let digit = |c: u8| char::from(c).to_digit(16).map(|d| d as u8);
    Some(digit(hi)? << 4 | digit(lo)?)
}

fn format_uuid(u: &[u8; 16]) -> String {
    let h = hex(u);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// Lower-case hex digits, as Go's `hex.EncodeToString`.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::functions;
    use crate::functions::call_with_strings;

    fn call(name: &str, args: &[&str]) -> String {
        call_with_strings(functions(), name, args)
    }

    // Expected values checked against the Go oracle (Terraform's functions
    // on Go's crypto packages and google/uuid).
    #[test]
    fn digests_and_uuids() {
        let rows = [
            (
                "md5",
                vec!["hello world"],
                "5eb63bbbe01eeed093cb22bb8f5acdc3",
            ),
            (
                "sha1",
                vec!["hello world"],
                "2aae6c35c94fcfb415dbe95f408b9ce91ee846ed",
            ),
            (
                "sha256",
                vec![""],
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            ),
            (
                "base64sha256",
                vec!["hello world"],
                "uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=",
            ),
            (
                "uuidv5",
                vec!["dns", "x"],
                "05b16a01-46c6-56dd-bd6e-c6dfb4a1427a",
            ),
            (
                "uuidv5",
                vec!["6ba7b810-9dad-11d1-80b4-00c04fd430c8", "x"],
                "05b16a01-46c6-56dd-bd6e-c6dfb4a1427a",
            ),
            (
                "uuidv5",
                vec!["nope", "x"],
                "error: uuidv5() doesn't support namespace nope (invalid UUID length: 4)",
            ),
        ];
        for (name, args, want) in rows {
            assert_eq!(call(name, &args), want, "{name}({args:?})");
        }
    }
}
