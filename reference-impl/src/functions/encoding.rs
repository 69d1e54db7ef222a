//! Terraform's encoding functions: `base64decode`, `base64encode`,
//! `base64gzip`, `csvdecode`, `jsondecode`, `jsonencode`,
//! `textdecodebase64`, `textencodebase64`, `urlencode`, `yamldecode` and
//! `yamlencode`.

mod base64;
mod csv;
mod gzip;
mod json;
mod text;
mod yaml;

use super::{static_return_type, string_function, CallError, Function, Param};
use crate::functions::marks::Policy;
use crate::types::Type;
use crate::value::Value;

pub(super) use base64::decode as base64_decode;
/// Standard base64 with padding, for the hash functions.
pub(super) use base64::encode as base64_encode;
pub(super) use gzip::gzip;
pub(super) use json::{push_json_chars, push_json_string, ControlEscapes};

/// Every function defined here.
pub(super) fn functions() -> Vec<Function> {
    vec![
        base64decode(),
        string_function("base64encode", |s| Ok(base64::encode(s.as_bytes()))),
        string_function("base64gzip", |s| {
            Ok(base64::encode(&gzip::gzip(s.as_bytes())))
        }),
        string_function("urlencode", |s| Ok(query_escape(s.as_bytes()))),
        text::encode_function(),
        text::decode_function(),
        json::encode_function(ControlEscapes::Unicode),
        json::decode_function(json::DuplicateKeys::LastWins),
        csv::decode_function(),
        yaml::encode_function(),
        yaml::decode_function(yaml::Release::V1_0_2),
    ]
}

/// Terraform 1.15's versions: Go 1.22+ `encoding/json` escapes, go-cty
/// 1.18's `jsondecode` and go-cty-yaml 1.1.0's `yamldecode`.
pub(super) fn terraform_1_15() -> Vec<Function> {
    vec![
        json::encode_function(ControlEscapes::Short),
        json::decode_function(json::DuplicateKeys::Refused),
        yaml::decode_function(yaml::Release::V1_1_0),
    ]
}

/// `base64decode`: the decoded bytes must be UTF-8.
/// Mirrors Terraform's `funcs.Base64DecodeFunc`.
fn base64decode() -> Function {
    Function {
        name: "base64decode",
        params: vec![Param::new("str", Type::String)
            .allow_unknown()
            .marks(Policy::Passed)],
        var_param: None,
        return_type: static_return_type(Type::String),
        // The string allows marks: they go onto the result, and hide the
        // string in the error.
        implementation: Box::new(|args, _| {
            let (s, marked) = args[0].clone().unmark();
            let Value::String(s) = s else {
                return Ok(Value::unknown(Type::String).mark_if(marked));
            };
            let bytes = base64::decode(s.as_bytes()).map_err(|_| {
                CallError::general(format!(
                    "failed to decode base64 data {}",
                    crate::functions::marks::redact(&s, marked)
                ))
            })?;
            let text = String::from_utf8(bytes).map_err(|_| {
                CallError::general("the result of decoding the provided string is not valid UTF-8")
            })?;
            Ok(Value::string(text).mark_if(marked))
        }),
    }
}

/// Go's `url.QueryEscape`: unreserved characters stay, spaces become `+`,
/// every other byte is percent-encoded in upper-case hex.
pub(super) fn query_escape(s: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &b in s {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(char::from(b))
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::query_escape;

    // Expected values checked against Go 1.19's url.QueryEscape.
    #[test]
    fn query_escape_matches_go() {
        assert_eq!(
            query_escape("a b&c=d/é~_.-".as_bytes()),
            "a+b%26c%3Dd%2F%C3%A9~_.-"
        );
        assert_eq!(query_escape(b""), "");
        assert_eq!(query_escape(b"+%\x9e"), "%2B%25%9E");
    }
}
