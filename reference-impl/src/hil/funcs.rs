//! Terraform 0.11's interpolation functions (`config.Funcs` and the
//! `lookup`, `keys` and `values` it adds), each with HIL's signature:
//! fixed parameter types, an optional variadic type, a return type. The
//! implementations follow `config/interpolate_funcs.go` of Terraform
//! 0.11.11; where Terraform's current functions compute the same thing
//! (hashes, base64, gzip, CIDR arithmetic, regular expressions, case
//! mapping), they are shared with this crate's `functions`.
//!
//! Strings are Go strings, bytes that need not be UTF-8 ([`super::gostr`]):
//! the hashes, `base64encode` and `urlencode` take their bytes as they are,
//! the case functions and `split` decode them as Go does, and error texts
//! show them as the protocol's answer reads them.

use std::collections::BTreeMap;

use num_bigint::BigInt;

use super::convert::float_to_int;
use super::gofmt::sprintf;
use super::gostr::{self, message_text, GoString};
use super::value::{Ty, Val};
use crate::functions::ipnet::{self, IpNet};
use crate::functions::path;
use crate::goquote::go_quote_bytes;
use crate::number::gomath;

/// A function's signature and implementation. An implementation's error
/// is the text after `NAME: `; `Err(None)`-like cases that Terraform can
/// not answer offline are [`UNSUPPORTED`] errors.
pub struct FuncDef {
    pub name: &'static str,
    pub params: &'static [Ty],
    pub variadic: Option<Ty>,
    pub ret: Ty,
    pub call: fn(&[Val]) -> Result<Val, String>,
}

impl std::fmt::Debug for FuncDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The error text of functions that read files, the clock or randomness.
pub const UNSUPPORTED: &str = "\u{0}unsupported";

use Ty::{Any, Bool as B, Float as F, Int as I, List as L, Map as M, Str as S};

macro_rules! def {
    ($name:literal, [$($p:expr),*], $var:expr, $ret:expr, $f:expr) => {
        FuncDef { name: $name, params: &[$($p),*], variadic: $var, ret: $ret, call: $f }
    };
}

static FUNCS: &[FuncDef] = &[
    def!("abs", [F], None, F, |a| Ok(Val::Float(float(&a[0]).abs()))),
    def!("base64decode", [S], None, S, base64decode),
    def!("base64encode", [S], None, S, |a| Ok(Val::text(
        crate::functions::base64_encode(&string(&a[0]))
    ))),
    def!("base64gzip", [S], None, S, |a| Ok(Val::text(
        crate::functions::base64_gzip(&string(&a[0]))
    ))),
    def!("base64sha256", [S], None, S, |a| digest("base64sha256", a)),
    def!("base64sha512", [S], None, S, |a| digest("base64sha512", a)),
    def!("basename", [S], None, S, |a| Ok(Val::Str(
        path::base_bytes(&string(&a[0]))
    ))),
    def!("bcrypt", [S], Some(S), S, bcrypt),
    def!("ceil", [F], None, I, |a| Ok(Val::Int(float_to_int(
        float(&a[0]).ceil()
    )))),
    def!("chomp", [S], None, S, |a| {
        let s = string(&a[0]);
        let end = s
            .iter()
            .rposition(|b| !matches!(b, b'\r' | b'\n'))
            .map_or(0, |i| i + 1);
        Ok(Val::Str(s[..end].to_vec()))
    }),
    def!("chunklist", [L, I], None, L, chunklist),
    def!("cidrhost", [S, I], None, S, cidrhost),
    def!("cidrnetmask", [S], None, S, cidrnetmask),
    def!("cidrsubnet", [S, I, I], None, S, cidrsubnet),
    def!("coalesce", [S], Some(S), S, coalesce),
    def!("coalescelist", [L], Some(L), L, coalescelist),
    def!("compact", [L], None, L, compact),
    def!("concat", [L], Some(L), L, concat),
    def!("contains", [L, S], None, B, |a| Ok(Val::Bool(
        index_of(&a[0], &a[1]).is_some()
    ))),
    def!("dirname", [S], None, S, |a| Ok(Val::Str(path::dir_bytes(
        &string(&a[0])
    )))),
    def!("distinct", [L], Some(L), L, distinct),
    def!("element", [L, S], None, S, element),
    def!("file", [S], None, S, file),
    def!("flatten", [L], None, L, |a| {
        let mut out = Vec::new();
        flatten_into(list(&a[0]), &mut out);
        Ok(Val::List(out))
    }),
    def!("floor", [F], None, I, |a| Ok(Val::Int(float_to_int(
        float(&a[0]).floor()
    )))),
    def!("format", [S], Some(Any), S, |a| Ok(Val::Str(sprintf(
        &string(&a[0]),
        &a[1..]
    )))),
    def!("formatlist", [Any], Some(Any), L, formatlist),
    def!("indent", [I, S], None, S, indent),
    def!("index", [L, S], None, I, |a| match index_of(&a[0], &a[1]) {
        Some(i) => Ok(Val::Int(i as i64)),
        None => Err(format!(
            "Could not find '{}' in '{}'",
            message_text(&string(&a[1])),
            message_text(&sprintf(b"%s", &a[..1]))
        )),
    }),
    def!("join", [S], Some(L), S, join),
    def!("jsonencode", [Any], None, S, jsonencode),
    def!("keys", [M], None, L, |a| Ok(Val::List(
        map(&a[0]).keys().map(|k| Val::Str(k.clone())).collect()
    ))),
    def!("length", [Any], None, I, |a| Ok(Val::Int(match &a[0] {
        Val::Str(s) => s.len() as i64,
        Val::List(l) => l.len() as i64,
        Val::Map(m) => m.len() as i64,
        _ => return Err("arguments to length() must be a string, list, or map".into()),
    }))),
    def!("list", [], Some(Any), L, make_list),
    def!("log", [F, F], None, F, |a| Ok(Val::Float(
        gomath::log(float(&a[0])) / gomath::log(float(&a[1]))
    ))),
    def!("lookup", [M, S], Some(S), S, lookup_key),
    def!("lower", [S], None, S, |a| Ok(Val::Str(gostr::map_runes(
        &string(&a[0]),
        |c| crate::text::simple_case(c, false)
    )))),
    def!("map", [], Some(Any), M, make_map),
    def!("matchkeys", [L, L, L], None, L, matchkeys),
    def!("max", [F], Some(F), F, |a| Ok(Val::Float(
        a.iter().map(float).fold(float(&a[0]), go_max)
    ))),
    def!("md5", [S], None, S, |a| digest("md5", a)),
    def!("merge", [M], Some(M), M, |a| {
        let mut out = BTreeMap::new();
        for m in a {
            out.extend(map(m).clone());
        }
        Ok(Val::Map(out))
    }),
    def!("min", [F], Some(F), F, |a| Ok(Val::Float(
        a.iter().map(float).fold(float(&a[0]), go_min)
    ))),
    def!("pathexpand", [S], None, S, |a| Ok(Val::Str(expand_home(
        string(&a[0])
    )?))),
    def!("pow", [F, F], None, F, |a| Ok(Val::Float(gomath::pow(
        float(&a[0]),
        float(&a[1])
    )))),
    def!("replace", [S, S, S], None, S, replace),
    def!("rsadecrypt", [S, S], None, S, |a| super::rsa::rsadecrypt(
        &text(&a[0]),
        &text(&a[1])
    )
    .map(Val::Str)),
    def!("sha1", [S], None, S, |a| digest("sha1", a)),
    def!("sha256", [S], None, S, |a| digest("sha256", a)),
    def!("sha512", [S], None, S, |a| digest("sha512", a)),
    def!("signum", [I], None, I, |a| Ok(Val::Int(
        int(&a[0]).signum()
    ))),
    def!("slice", [L, I, I], None, L, slice),
    def!("sort", [L], None, L, sort),
    def!("split", [S, S], None, L, split),
    def!("substr", [S, I, I], None, S, substr),
    def!("timeadd", [S, S], None, S, |a| super::time::timeadd(
        &text(&a[0]),
        &text(&a[1])
    )
    .map(Val::text)),
    def!("timestamp", [], None, S, |a| shared("timestamp", a)),
    def!("title", [S], None, S, title),
    def!("transpose", [M], None, M, transpose),
    def!("trimspace", [S], None, S, trimspace),
    def!("upper", [S], None, S, |a| Ok(Val::Str(gostr::map_runes(
        &string(&a[0]),
        |c| crate::text::simple_case(c, true)
    )))),
    def!("urlencode", [S], None, S, |a| Ok(Val::text(
        crate::functions::query_escape(&string(&a[0]))
    ))),
    def!("uuid", [], None, S, |a| shared("uuid", a)),
    def!("values", [M], None, L, values),
    def!("zipmap", [L, L], None, M, zipmap),
];

/// The function of this name.
pub fn lookup(name: &str) -> Option<&'static FuncDef> {
    FUNCS.iter().find(|f| f.name == name)
}

/// Every function name.
pub fn names() -> impl Iterator<Item = &'static str> {
    FUNCS.iter().map(|f| f.name)
}

// The type check guarantees the argument types; these accessors read them.
fn string(v: &Val) -> GoString {
    match v {
        Val::Str(s) => s.clone(),
        other => other.weak_string().unwrap_or_default(),
    }
}
/// A string argument that a function reads as text (an address, a time, a
/// path): bytes outside UTF-8 can only make it fail, and its error shows
/// them as the answer reads them.
fn text(v: &Val) -> String {
    message_text(&string(v)).into_owned()
}
fn float(v: &Val) -> f64 {
    match v {
        Val::Float(f) => *f,
        Val::Int(i) => *i as f64,
        _ => 0.0,
    }
}
fn int(v: &Val) -> i64 {
    match v {
        Val::Int(i) => *i,
        _ => 0,
    }
}
fn list(v: &Val) -> &[Val] {
    match v {
        Val::List(l) => l,
        _ => &[],
    }
}
fn map(v: &Val) -> &BTreeMap<GoString, Val> {
    static EMPTY: BTreeMap<GoString, Val> = BTreeMap::new();
    match v {
        Val::Map(m) => m,
        _ => &EMPTY,
    }
}

/// Go's `math.Max` / `math.Min` (NaN wins; +0 over -0 for max).
fn go_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == 0.0 && b == 0.0 {
        return if a.is_sign_negative() { b } else { a };
    }
    a.max(b)
}
fn go_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == 0.0 && b == 0.0 {
        return if a.is_sign_negative() { a } else { b };
    }
    a.min(b)
}

/// One of this crate's functions without arguments that Terraform 0.11
/// computes the same way.
fn shared(name: &str, args: &[Val]) -> Result<Val, String> {
    let f = crate::functions::lookup_for(name, crate::HclVersion::V2_14)
        .or_else(|| crate::functions::lookup_for(name, crate::HclVersion::V2_24))
        .ok_or_else(|| format!("no function {name}"))?;
    let args: Vec<crate::Value> = args.iter().map(|a| crate::Value::String(text(a))).collect();
    match f.call(&args) {
        Ok(crate::Value::String(s)) => Ok(Val::text(s)),
        Ok(other) => Err(format!("unexpected result {other:?}")),
        Err(e) => Err(e.message().to_string()),
    }
}

/// A hash of the string's bytes.
fn digest(name: &str, a: &[Val]) -> Result<Val, String> {
    crate::functions::digest(name, &string(&a[0]))
        .map(Val::text)
        .ok_or_else(|| format!("no function {name}"))
}

fn base64decode(a: &[Val]) -> Result<Val, String> {
    let s = string(&a[0]);
    match crate::functions::base64_decode(&s) {
        Ok(bytes) => Ok(Val::Str(bytes)),
        Err(_) => Err(format!(
            "failed to decode base64 data '{}'",
            message_text(&s)
        )),
    }
}

/// Go's `strings.Title` (through Go 1.11's `strings.Map`).
fn title(a: &[Val]) -> Result<Val, String> {
    let mut prev = ' ';
    Ok(Val::Str(gostr::map_runes(&string(&a[0]), |c| {
        let out = if crate::functions::is_title_separator(prev) {
            crate::text::to_title(c)
        } else {
            c
        };
        prev = c;
        out
    })))
}

/// Go's `strings.TrimSpace`: a byte outside UTF-8 is U+FFFD, not a space.
fn trimspace(a: &[Val]) -> Result<Val, String> {
    let s = string(&a[0]);
    let mut start = None;
    let mut end = 0;
    let mut at = 0;
    for (c, raw) in gostr::runes(&s) {
        if !c.is_whitespace() {
            start.get_or_insert(at);
            end = at + raw.len();
        }
        at += raw.len();
    }
    Ok(Val::Str(match start {
        Some(start) => s[start..end].to_vec(),
        None => Vec::new(),
    }))
}

fn chunklist(a: &[Val]) -> Result<Val, String> {
    let values = list(&a[0]);
    let size = int(&a[1]);
    if size < 0 {
        return Err("The size argument must be positive".into());
    }
    if size == 0 {
        return Ok(Val::List(vec![Val::List(values.to_vec())]));
    }
    Ok(Val::List(
        values
            .chunks(size as usize)
            .map(|c| Val::List(c.to_vec()))
            .collect(),
    ))
}

/// `net.ParseCIDR`'s network, with Terraform 0.11's error text.
fn parse_network(s: &str) -> Result<IpNet, String> {
    ipnet::parse_cidr(s).map(|(_, network)| network)
}

/// go-cidr's `1 << bits - 1` as a uint64 (0 - 1 when the shift is 64 or
/// more, or negative and so enormous as Go's uint).
fn all_ones(bits: i64) -> u64 {
    if (0..64).contains(&bits) {
        (1u64 << bits) - 1
    } else {
        u64::MAX
    }
}

/// `cidrhost(prefix, hostnum)`: go-cidr's `Host` (2018), on Go ints.
fn cidrhost(a: &[Val]) -> Result<Val, String> {
    let mut num = int(&a[1]);
    let network = parse_network(&text(&a[0]))?;
    let (parent_len, addr_len) = ipnet::mask_size(&network.mask);
    let max_host = all_ones(addr_len - parent_len);
    let mut num_u = num as u64;
    if num < 0 {
        num_u = (num.wrapping_neg() as u64).wrapping_sub(1);
        num = max_host.wrapping_sub(num_u) as i64;
    }
    if num_u > max_host {
        return Err(format!(
            "prefix of {parent_len} does not accommodate a host numbered {num}"
        ));
    }
    let bits = if network.ip.len() == 4 { 32 } else { 128 };
    let ip = ipnet::insert_num_into_ip(&network.ip, &BigInt::from(num), bits)
        .map_err(|e| e.message().to_string())?;
    Ok(Val::text(ipnet::ip_string(&ip)))
}

/// `cidrnetmask(prefix)`: the mask as an address (IPv6 masks too).
fn cidrnetmask(a: &[Val]) -> Result<Val, String> {
    let network = parse_network(&text(&a[0]))?;
    Ok(Val::text(ipnet::ip_string(&network.mask)))
}

/// `cidrsubnet(prefix, newbits, netnum)`: go-cidr's `Subnet` (2018).
fn cidrsubnet(a: &[Val]) -> Result<Val, String> {
    let (new_bits, num) = (int(&a[1]), int(&a[2]));
    let network = parse_network(&text(&a[0]))?;
    if new_bits > 32 {
        return Err("may not extend prefix by more than 32 bits".into());
    }
    let (parent_len, addr_len) = ipnet::mask_size(&network.mask);
    let new_len = parent_len + new_bits;
    if new_len > addr_len {
        return Err(format!(
            "insufficient address space to extend prefix of {parent_len} by {new_bits}"
        ));
    }
    if num as u64 > all_ones(new_bits) {
        return Err(format!(
            "prefix extension of {new_bits} does not accommodate a subnet numbered {num}"
        ));
    }
    let ip = ipnet::insert_num_into_ip(&network.ip, &BigInt::from(num), new_len)
        .map_err(|e| e.message().to_string())?;
    let subnet = IpNet {
        ip,
        mask: ipnet::cidr_mask(new_len, addr_len),
    };
    Ok(Val::text(ipnet::net_string(&subnet)))
}

fn coalesce(a: &[Val]) -> Result<Val, String> {
    if a.len() < 2 {
        return Err("must provide at least two arguments".into());
    }
    Ok(a.iter()
        .map(string)
        .find(|s| !s.is_empty())
        .map_or(Val::Str(Vec::new()), Val::Str))
}

fn coalescelist(a: &[Val]) -> Result<Val, String> {
    if a.len() < 2 {
        return Err("must provide at least two arguments".into());
    }
    Ok(a.iter()
        .find(|l| !list(l).is_empty())
        .cloned()
        .unwrap_or(Val::List(Vec::new())))
}

fn compact(a: &[Val]) -> Result<Val, String> {
    let mut out = Vec::new();
    for v in list(&a[0]) {
        match v {
            Val::Str(s) if s.is_empty() => {}
            Val::Str(_) => out.push(v.clone()),
            other => {
                return Err(format!(
                    "compact() may only be used with flat lists, this list contains elements of {}",
                    other.ty().printable()
                ))
            }
        }
    }
    Ok(Val::List(out))
}

fn concat(a: &[Val]) -> Result<Val, String> {
    let out: Vec<Val> = a.iter().flat_map(|l| list(l).iter().cloned()).collect();
    if let Some(first) = out.first() {
        let ty = first.ty();
        if let Some(v) = out.iter().find(|v| v.ty() != ty) {
            return Err(format!(
                "unexpected {} in list of {}",
                v.ty().printable(),
                ty.printable()
            ));
        }
    }
    Ok(Val::List(out))
}

/// The position of the first element equal to the string (only string
/// elements can be).
fn index_of(haystack: &Val, needle: &Val) -> Option<usize> {
    let needle = string(needle);
    list(haystack)
        .iter()
        .position(|e| matches!(e, Val::Str(s) if *s == needle))
}

fn distinct(a: &[Val]) -> Result<Val, String> {
    if a.len() != 1 {
        return Err("accepts only one argument.".into());
    }
    let mut out: Vec<Val> = Vec::new();
    for v in list(&a[0]) {
        if !matches!(v, Val::Str(_)) {
            return Err(format!(
                "only works for flat lists, this list contains elements of {}",
                v.ty().printable()
            ));
        }
        if !out.contains(v) {
            out.push(v.clone());
        }
    }
    Ok(Val::List(out))
}

fn element(a: &[Val]) -> Result<Val, String> {
    let items = list(&a[0]);
    if items.is_empty() {
        return Err("element() may not be used with an empty list".into());
    }
    let text = text(&a[1]);
    let index = match atoi(&text) {
        Some(i) if i >= 0 => i as usize,
        _ => return Err(format!("invalid number for index, got {text}")),
    };
    match &items[index % items.len()] {
        Val::Str(s) => Ok(Val::Str(s.clone())),
        other => Err(format!(
            "element() may only be used with flat lists, this list contains elements of {}",
            other.ty().printable()
        )),
    }
}

/// Go's `strconv.Atoi` (base 10, optional sign), `None` on any error.
fn atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn flatten_into(items: &[Val], out: &mut Vec<Val>) {
    for v in items {
        match v {
            Val::List(inner) => crate::stack::deeper(|| flatten_into(inner, out)),
            other => out.push(other.clone()),
        }
    }
}

fn formatlist(a: &[Val]) -> Result<Val, String> {
    let Val::Str(format) = &a[0] else {
        return Err(UNSUPPORTED.into());
    };
    if a.len() < 2 {
        return Err("no arguments to formatlist".into());
    }
    let mut n: Option<usize> = None;
    for v in &a[1..] {
        let Val::List(items) = v else { continue };
        if items.iter().any(|e| !matches!(e, Val::Str(_))) {
            // Terraform formats the type's name with %T: always "string".
            return Err("list has non-string element (string)".into());
        }
        match n {
            None | Some(0) => n = Some(items.len()),
            Some(len) if len != items.len() => {
                return Err(format!(
                    "format: mismatched list lengths: {len} != {}",
                    items.len()
                ))
            }
            _ => {}
        }
    }
    let Some(n) = n else {
        return Err("formatlist requires at least one list argument".into());
    };
    // An empty list before a longer one passes the length check (a length
    // of 0 is taken as "none seen yet"), and Terraform then indexes it and
    // panics.
    if a[1..]
        .iter()
        .any(|v| matches!(v, Val::List(items) if items.len() < n))
    {
        return Err(UNSUPPORTED.into());
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let args: Vec<Val> = a[1..]
            .iter()
            .map(|v| match v {
                Val::List(items) => items[i].clone(),
                other => other.clone(),
            })
            .collect();
        out.push(Val::Str(sprintf(format, &args)));
    }
    Ok(Val::List(out))
}

fn indent(a: &[Val]) -> Result<Val, String> {
    let spaces = int(&a[0]);
    if spaces < 0 {
        return Err(UNSUPPORTED.into());
    }
    let data = string(&a[1]);
    let newline = format!("\n{}", " ".repeat(spaces.min(1 << 24) as usize));
    Ok(Val::Str(gostr::replace_all(
        &data,
        b"\n",
        newline.as_bytes(),
    )))
}

fn join(a: &[Val]) -> Result<Val, String> {
    if a.len() < 2 {
        return Err("not enough arguments to join()".into());
    }
    let mut parts = Vec::new();
    for l in &a[1..] {
        for v in list(l) {
            match v {
                Val::Str(s) => parts.push(s.clone()),
                other => {
                    return Err(format!(
                        "only works on flat lists, this list contains elements of {}",
                        other.ty().printable()
                    ))
                }
            }
        }
    }
    Ok(Val::Str(parts.join(&string(&a[0])[..])))
}

fn jsonencode(a: &[Val]) -> Result<Val, String> {
    fn encode(v: &Val, out: &mut String) {
        match v {
            Val::Str(s) => crate::functions::push_go_json_string(out, s),
            Val::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    crate::stack::deeper(|| encode(item, out));
                }
                out.push(']');
            }
            Val::Map(items) => {
                out.push('{');
                for (i, (k, item)) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    crate::functions::push_go_json_string(out, k);
                    out.push(':');
                    crate::stack::deeper(|| encode(item, out));
                }
                out.push('}');
            }
            other => out.push_str(&message_text(&other.weak_string().unwrap_or_default())),
        }
    }
    match &a[0] {
        v @ (Val::Str(_) | Val::List(_) | Val::Map(_)) => {
            let mut out = String::new();
            encode(v, &mut out);
            Ok(Val::text(out))
        }
        other => Err(format!(
            "unknown type for JSON encoding: {}",
            other.go_type()
        )),
    }
}

fn make_list(a: &[Val]) -> Result<Val, String> {
    for (i, v) in a.iter().enumerate() {
        if !matches!(v, Val::Str(_) | Val::List(_) | Val::Map(_)) {
            return Err(format!(
                "unexpected type {} for argument {i} in list",
                v.go_type()
            ));
        }
    }
    if let Some(first) = a.first() {
        if let Some((i, v)) = a
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, v)| v.ty() != first.ty())
        {
            return Err(format!(
                "unexpected type {} for argument {i} in list",
                v.ty().name()
            ));
        }
    }
    Ok(Val::List(a.to_vec()))
}

fn make_map(a: &[Val]) -> Result<Val, String> {
    if !a.len().is_multiple_of(2) {
        return Err(format!(
            "requires an even number of arguments, got {}",
            a.len()
        ));
    }
    let mut out = BTreeMap::new();
    let mut first: Option<Ty> = None;
    for (i, pair) in a.chunks(2).enumerate() {
        let Val::Str(key) = &pair[0] else {
            return Err(format!(
                "argument {} represents a key, so it must be a string",
                2 * i + 1
            ));
        };
        // hil.InterfaceToVariable: primitives become strings and an empty
        // list an empty map (mapstructure's weak decoding).
        let value = match &pair[1] {
            Val::List(l) if l.is_empty() => Val::Map(BTreeMap::new()),
            v @ (Val::List(_) | Val::Map(_)) => v.clone(),
            other => Val::Str(other.weak_string().unwrap_or_default()),
        };
        match first {
            None => first = Some(value.ty()),
            Some(t) if t != value.ty() => {
                return Err(format!(
                    "all map values must have the same type, got {} then {}",
                    t.printable(),
                    value.ty().printable()
                ))
            }
            _ => {}
        }
        if out.contains_key(key) {
            return Err(format!(
                "argument {} is a duplicate key: {}",
                2 * i + 1,
                go_quote_bytes(key)
            ));
        }
        out.insert(key.clone(), value);
    }
    Ok(Val::Map(out))
}

fn lookup_key(a: &[Val]) -> Result<Val, String> {
    if a.len() > 3 {
        return Err("lookup() takes no more than three arguments".into());
    }
    let key = string(&a[1]);
    match map(&a[0]).get(&key) {
        None if a.len() > 2 => Ok(Val::Str(string(&a[2]))),
        None => Err(format!("lookup failed to find '{}'", message_text(&key))),
        Some(Val::Str(s)) => Ok(Val::Str(s.clone())),
        Some(other) => Err(format!(
            "lookup() may only be used with flat maps, this map contains elements of {}",
            other.ty().printable()
        )),
    }
}

fn matchkeys(a: &[Val]) -> Result<Val, String> {
    let (values, keys, search) = (list(&a[0]), list(&a[1]), list(&a[2]));
    if keys.len() != values.len() {
        return Err("length of keys and values should be equal".into());
    }
    let mut out = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        for s in search {
            if key.ty() != s.ty() {
                return Err(format!(
                    "won't compare items of different types {} and {}",
                    key.ty().printable(),
                    s.ty().printable()
                ));
            }
            let (Val::Str(k), Val::Str(v)) = (key, s) else {
                return Err(format!(
                    "can't compare items of type {}",
                    key.ty().printable()
                ));
            };
            if k == v {
                out.push(values[i].clone());
                break;
            }
        }
    }
    Ok(Val::List(out))
}

/// Terraform 0.11's `replace`: a search string wrapped in slashes is a
/// regular expression (Go 1.11's `regexp`, whose syntax is Go 1.19's),
/// anything else is replaced literally.
fn replace(a: &[Val]) -> Result<Val, String> {
    let (s, search, with) = (string(&a[0]), string(&a[1]), string(&a[2]));
    if search.len() > 1 && search.starts_with(b"/") && search.ends_with(b"/") {
        let pattern = &search[1..search.len() - 1];
        return crate::functions::regex_replace_all(
            &s,
            pattern,
            &with,
            crate::functions::GoRegexp::Go1_19,
        )
        .map(Val::Str);
    }
    Ok(Val::Str(gostr::replace_all(&s, &search, &with)))
}

fn slice(a: &[Val]) -> Result<Val, String> {
    let items = list(&a[0]);
    let (from, to) = (int(&a[1]), int(&a[2]));
    if from < 0 {
        return Err("from index must be >= 0".into());
    }
    if to > items.len() as i64 {
        return Err("to index must be <= length of the input list".into());
    }
    if from > to {
        return Err("from index must be <= to index".into());
    }
    Ok(Val::List(items[from as usize..to as usize].to_vec()))
}

fn sort(a: &[Val]) -> Result<Val, String> {
    let mut out = Vec::new();
    for (i, v) in list(&a[0]).iter().enumerate() {
        match v {
            Val::Str(s) => out.push(s.clone()),
            other => {
                return Err(format!(
                    "sort() may only be used with lists of strings - {} at index {i}",
                    other.ty().name()
                ))
            }
        }
    }
    out.sort();
    Ok(Val::List(out.into_iter().map(Val::Str).collect()))
}

/// Go's `strings.Split`: an empty separator splits into runes.
fn split(a: &[Val]) -> Result<Val, String> {
    let (sep, s) = (string(&a[0]), string(&a[1]));
    let parts = if sep.is_empty() {
        gostr::explode(&s)
    } else {
        gostr::split(&s, &sep)
    };
    Ok(Val::List(parts.into_iter().map(Val::Str).collect()))
}

/// Byte offsets, as Go slices strings.
fn substr(a: &[Val]) -> Result<Val, String> {
    let s = string(&a[0]);
    let len = s.len() as i64;
    let mut offset = int(&a[1]);
    let length = int(&a[2]);
    if offset < 0 {
        offset = offset.wrapping_add(len);
    }
    let end = if length == -1 {
        len
    } else if length >= 0 {
        length.wrapping_add(offset)
    } else {
        return Err("length should be a non-negative integer".into());
    };
    if offset > len || offset < 0 {
        return Err("offset cannot be larger than the length of the string".into());
    }
    if end > len {
        return Err("'offset + length' cannot be larger than the length of the string".into());
    }
    if end < offset {
        return Err(UNSUPPORTED.into());
    }
    Ok(Val::Str(s[offset as usize..end as usize].to_vec()))
}

fn transpose(a: &[Val]) -> Result<Val, String> {
    let mut out: BTreeMap<GoString, Vec<GoString>> = BTreeMap::new();
    for (key, v) in map(&a[0]) {
        let Val::List(items) = v else {
            return Err("transpose requires a map of lists of strings".into());
        };
        for item in items {
            let Val::Str(s) = item else {
                return Err(
                    "transpose requires the given map values to be lists of strings".into(),
                );
            };
            out.entry(s.clone()).or_default().push(key.clone());
        }
    }
    Ok(Val::Map(
        out.into_iter()
            .map(|(k, mut v)| {
                v.sort();
                (k, Val::List(v.into_iter().map(Val::Str).collect()))
            })
            .collect(),
    ))
}

fn values(a: &[Val]) -> Result<Val, String> {
    let mut out = Vec::new();
    for (k, v) in map(&a[0]) {
        match v {
            Val::Str(s) => out.push(Val::Str(s.clone())),
            other => {
                return Err(format!(
                    "values(): {} has element with bad type {}",
                    go_quote_bytes(k),
                    other.ty().name()
                ))
            }
        }
    }
    Ok(Val::List(out))
}

fn zipmap(a: &[Val]) -> Result<Val, String> {
    let (keys, values) = (list(&a[0]), list(&a[1]));
    if keys.len() != values.len() {
        return Err(format!(
            "count of keys ({}) does not match count of values ({})",
            keys.len(),
            values.len()
        ));
    }
    let mut out = BTreeMap::new();
    for (i, k) in keys.iter().enumerate() {
        let Val::Str(k) = k else {
            return Err(format!(
                "keys must be strings. value at position {i} is {}",
                k.ty().printable()
            ));
        };
        out.insert(k.clone(), values[i].clone());
    }
    Ok(Val::Map(out))
}

thread_local! {
    /// The directory `file` reads relative paths from (Terraform's working
    /// directory); `None`: the process's.
    static BASE_DIR: std::cell::RefCell<Option<std::path::PathBuf>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `file` reading relative paths from `dir`.
pub fn with_base_dir<R>(dir: Option<&std::path::Path>, f: impl FnOnce() -> R) -> R {
    let previous = BASE_DIR.with(|d| d.replace(dir.map(std::path::Path::to_path_buf)));
    let result = f();
    BASE_DIR.with(|d| *d.borrow_mut() = previous);
    result
}

/// The home directory `~` names: the protocol fixes it (docs/protocol.md,
/// the `hil-0.11` dialect), as the oracle's Terraform runs with it.
const HOME: &str = "/home/hclspec";

/// go-homedir's `Expand`: `~` alone or before `/` is the home directory
/// (the result cleaned, as `filepath.Join` does); `~user` is an error.
fn expand_home(p: GoString) -> Result<GoString, String> {
    match p.strip_prefix(b"~") {
        None => Ok(p),
        Some(rest) if rest.is_empty() || rest.starts_with(b"/") => {
            Ok(path::clean_bytes(&[HOME.as_bytes(), b"/", rest].concat()))
        }
        Some(_) => Err(path::NO_USER_HOME.into()),
    }
}

/// `file(path)`: `ioutil.ReadFile` of the path (home expanded), relative
/// to the working directory; Go's `*PathError` texts.
fn file(a: &[Val]) -> Result<Val, String> {
    let name = message_text(&expand_home(string(&a[0]))?).into_owned();
    let full = match BASE_DIR.with(|d| d.borrow().clone()) {
        Some(dir) if !name.starts_with('/') => dir.join(&name),
        _ => std::path::PathBuf::from(&name),
    };
    if full.is_dir() {
        return Err(format!("read {name}: is a directory"));
    }
    match std::fs::read(&full) {
        Ok(bytes) => Ok(Val::Str(bytes)),
        Err(e) => {
            let why = match e.kind() {
                std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
                std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                _ => return Err(UNSUPPORTED.into()),
            };
            Err(format!("open {name}: {why}"))
        }
    }
}

/// `bcrypt(password, cost)`: x/crypto's bcrypt of 2018 (no password
/// length limit, its older range message), `$2a$` hashes.
fn bcrypt(a: &[Val]) -> Result<Val, String> {
    let mut cost: i64 = 10;
    if let Some(c) = a.get(1) {
        let bytes = string(c);
        cost = std::str::from_utf8(&bytes)
            .ok()
            .and_then(atoi)
            .ok_or_else(|| {
                format!(
                    "strconv.Atoi: parsing {}: invalid syntax",
                    go_quote_bytes(&bytes)
                )
            })?;
    }
    if a.len() > 2 {
        return Err("bcrypt() takes no more than two arguments".into());
    }
    if cost > 31 {
        return Err(format!(
            "error occured generating password crypto/bcrypt: cost {cost} is outside allowed range (4,31)"
        ));
    }
    if cost < 4 {
        cost = 10;
    }
    // 2^cost rounds: charged to the evaluation's budget first, as the
    // crate's bcrypt does.
    if !crate::eval::budget::reserve_steps(64u64 << cost) {
        return Err(crate::eval::budget::BUDGET_EXCEEDED.into());
    }
    let password = string(&a[0]);
    let bytes = &password[..password.len().min(72)];
    ::bcrypt::hash_with_result(bytes, cost as u32)
        .map(|parts| Val::text(parts.format_for_version(::bcrypt::Version::TwoA)))
        .map_err(|e| format!("error occured generating password {e}"))
}
