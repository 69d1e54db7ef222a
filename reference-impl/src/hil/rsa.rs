//! `rsadecrypt(ciphertext, key)`: base64 cipher text, a PEM `RSA PRIVATE
//! KEY` (PKCS #1), RSA decryption with PKCS #1 v1.5 padding, as Terraform
//! 0.11 does it with Go's `encoding/pem`, `crypto/x509` and `crypto/rsa`.
//! Keys that Go would reject for reasons this module does not model (a
//! malformed DER structure, an inconsistent key) answer unsupported.

use num_bigint::BigUint;

use super::funcs::UNSUPPORTED;
use crate::goquote::go_quote;

const DECRYPTION_ERROR: &str = "crypto/rsa: decryption error";

pub fn rsadecrypt(ciphertext: &str, key: &str) -> Result<Vec<u8>, String> {
    let bytes = crate::functions::base64_decode(ciphertext.as_bytes()).map_err(|_| {
        format!(
            "Failed to decode input {}: cipher text must be base64-encoded",
            go_quote(ciphertext)
        )
    })?;
    let Some((headers, der)) = pem_block(key) else {
        return Err(format!(
            "Failed to read key {}: no key found",
            go_quote(key)
        ));
    };
    if headers
        .iter()
        .any(|(k, v)| k == "Proc-Type" && v == "4,ENCRYPTED")
    {
        return Err(format!(
            "Failed to read key {}: password protected keys are\nnot supported. Please decrypt the key prior to use.",
            go_quote(key)
        ));
    }
    let (n, d) = pkcs1_modulus_and_exponent(&der).ok_or_else(|| UNSUPPORTED.to_string())?;
    decrypt_pkcs1v15(&n, &d, &bytes)
}

/// A PEM block's headers and decoded body.
type PemBlock = (Vec<(String, String)>, Vec<u8>);

/// The first PEM block (`pem.Decode`).
fn pem_block(text: &str) -> Option<PemBlock> {
    let start = text.find("-----BEGIN ")?;
    let rest = &text[start + "-----BEGIN ".len()..];
    let (kind, rest) = rest.split_once("-----")?;
    let rest = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'))?;
    let end_marker = format!("-----END {kind}-----");
    let end = rest.find(&end_marker)?;
    let mut body = &rest[..end];
    let mut headers = Vec::new();
    if let Some((head, tail)) = body.split_once("\n\n") {
        if head.lines().all(|l| l.contains(':')) {
            for line in head.lines() {
                let (k, v) = line.split_once(':')?;
                headers.push((k.trim().to_string(), v.trim().to_string()));
            }
            body = tail;
        }
    }
    let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    let der = crate::functions::base64_decode(compact.as_bytes()).ok()?;
    Some((headers, der))
}

/// Reads one DER element: (tag, contents, rest).
fn der_element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let len = rest[..count]
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (len, &rest[count..])
    };
    if rest.len() < len {
        return None;
    }
    Some((tag, &rest[..len], &rest[len..]))
}

/// `RSAPrivateKey ::= SEQUENCE { version, n, e, d, ... }`: n and d.
fn pkcs1_modulus_and_exponent(der: &[u8]) -> Option<(BigUint, BigUint)> {
    let (tag, seq, _) = der_element(der)?;
    if tag != 0x30 {
        return None;
    }
    let mut ints = Vec::new();
    let mut rest = seq;
    while !rest.is_empty() {
        let (tag, value, tail) = der_element(rest)?;
        if tag != 0x02 || value.first().is_some_and(|b| b & 0x80 != 0) {
            return None;
        }
        ints.push(BigUint::from_bytes_be(value));
        rest = tail;
    }
    // version, n, e, d, p, q, dp, dq, qinv; version 0 (two primes).
    if ints.len() != 9 || ints[0] != BigUint::from(0u8) {
        return None;
    }
    let (n, d) = (ints[1].clone(), ints[3].clone());
    // The key must be consistent (Go's PrivateKey.Validate): n = p * q.
    if n != &ints[4] * &ints[5] || n == BigUint::from(0u8) {
        return None;
    }
    Some((n, d))
}

/// `rsa.DecryptPKCS1v15`.
fn decrypt_pkcs1v15(n: &BigUint, d: &BigUint, ciphertext: &[u8]) -> Result<Vec<u8>, String> {
    let k = n.bits().div_ceil(8) as usize;
    let c = BigUint::from_bytes_be(ciphertext);
    if k < 11 || &c > n {
        return Err(DECRYPTION_ERROR.into());
    }
    let m = c.modpow(d, n).to_bytes_be();
    let mut em = vec![0u8; k.saturating_sub(m.len())];
    em.extend_from_slice(&m);
    if em.len() != k || em[0] != 0 || em[1] != 2 {
        return Err(DECRYPTION_ERROR.into());
    }
    match em[2..].iter().position(|&b| b == 0) {
        Some(i) if i + 2 >= 10 => Ok(em[i + 3..].to_vec()),
        _ => Err(DECRYPTION_ERROR.into()),
    }
}
