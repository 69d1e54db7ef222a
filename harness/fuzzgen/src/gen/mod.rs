//! The structure-aware generator: a scope of typed variables, then
//! expressions and templates aimed at a type, drawn from fuzz bytes with
//! `arbitrary`.
//!
//! Generation is total: any byte string gives cases. When the bytes run
//! out every choice falls to its first option, which is always the
//! simplest one (a leaf of the wanted type), so inputs shrink to small,
//! valid cases. A share of subexpressions is generated with the wrong type
//! and a share of sources is damaged token by token afterwards, so that
//! error paths get compared too.

mod expr;
pub mod hil;
mod template;
pub mod tf_funcs;
pub mod value;

use std::collections::BTreeMap;

use arbitrary::Unstructured;
use hclspec_protocol::{Kind, Request, TypedValue, Version};
use hclspec_reference::{Type, Value};

use crate::config::{Construct, Profile, Swarm};
use crate::tokens;
use value::{gen_type, gen_value, is_identifier};

/// Variable names for the scope: short names, Terraform's usual roots, and
/// names that `for` bindings shadow.
pub const VAR_NAMES: &[&str] = &[
    "a", "xs", "m", "obj", "n", "s", "var", "each", "count", "local", "x", "b",
];

/// The most variables one scope has.
pub const MAX_VARS: u32 = 4;

/// How many levels deep a scope variable's type goes.
pub const SCOPE_TYPE_DEPTH: u32 = 3;

/// How many traversal steps references into the scope take at most.
const REF_DEPTH: usize = 3;

/// The most references collected from one scope.
const MAX_REFS: usize = 64;

/// A batch of cases drawn from one fuzz input.
#[derive(Clone, Debug)]
pub struct Batch {
    pub swarm: Swarm,
    pub requests: Vec<Request>,
}

/// Draws a swarm configuration, then up to `max_cases` cases, all for
/// `version`. Ids are `0`, `1`, ... The first case draws a scope; each
/// later one keeps the scope of the case before it, or draws a new one
/// with a chance of [`NEW_SCOPE_PCT`] (never once the bytes run out).
pub fn gen_batch(data: &[u8], profile: Profile, max_cases: usize, version: Version) -> Batch {
    batch(data, profile, max_cases, version, true)
}

fn batch(
    data: &[u8],
    profile: Profile,
    max_cases: usize,
    version: Version,
    stop_early: bool,
) -> Batch {
    let mut u = Unstructured::new(data);
    let swarm = Swarm::arbitrary(&mut u, profile);
    let mut requests = Vec::new();
    let mut kept: Option<Scope> = None;
    while requests.len() < max_cases.max(1) {
        let id = requests.len().to_string();
        let scope = match kept.take() {
            Some(scope) if !chance(&mut u, NEW_SCOPE_PCT) => scope,
            _ => Scope::draw(&mut u, &swarm),
        };
        requests.push(case_in(&mut u, &swarm, &scope, id, version));
        kept = Some(scope);
        if stop_early && u.is_empty() {
            break;
        }
    }
    Batch { swarm, requests }
}

/// The chance, in percent, that a case of a batch draws a scope of its own
/// rather than keep the one of the case before it. Cases sharing a scope
/// are what a Terraform module is (many expressions over the same
/// variables), and what the engines can decode once: the scope's values,
/// their encoding and their decoding by every engine cost as much as the
/// expression when each case had its own.
pub const NEW_SCOPE_PCT: u8 = 12;

/// A scope drawn for one or more cases: its values, the references into
/// them, and their encoding for the requests.
struct Scope {
    refs: Vec<Ref>,
    encoded: BTreeMap<String, TypedValue>,
}

impl Scope {
    fn draw(u: &mut Unstructured<'_>, swarm: &Swarm) -> Scope {
        let vars = gen_scope(u, swarm);
        Scope {
            refs: collect_refs(&vars, swarm),
            encoded: vars
                .iter()
                .map(|(name, v)| (name.clone(), TypedValue::encode(v)))
                .collect(),
        }
    }
}

/// Exactly `cases` cases, for targets that send a batch to a process: a
/// short input is read as the stream `data`, `data` xor 1, `data` xor 2, ...
/// (up to [`FILL_BYTES_PER_CASE`] bytes a case), so that every input keeps
/// the pipeline full.
pub fn gen_batch_filled(data: &[u8], profile: Profile, cases: usize, version: Version) -> Batch {
    let want = cases.max(1) * FILL_BYTES_PER_CASE;
    if data.is_empty() || data.len() >= want {
        return batch(data, profile, cases, version, data.is_empty());
    }
    batch(&fill_stream(data, cases), profile, cases, version, false)
}

/// `data`, `data` xor 1, `data` xor 2, ... up to [`FILL_BYTES_PER_CASE`]
/// bytes a case; `data` itself when it is long enough or empty.
pub(crate) fn fill_stream(data: &[u8], cases: usize) -> Vec<u8> {
    let want = cases.max(1) * FILL_BYTES_PER_CASE;
    if data.is_empty() || data.len() >= want {
        return data.to_vec();
    }
    let mut stream = Vec::with_capacity(want);
    let mut round: u8 = 0;
    while stream.len() < want {
        stream.extend(data.iter().map(|b| b ^ round));
        round = round.wrapping_add(1);
    }
    stream.truncate(want);
    stream
}

/// How many bytes [`gen_batch_filled`] makes available per case.
pub const FILL_BYTES_PER_CASE: usize = 48;

/// One case: a scope, then an expression or a bare template over it.
pub fn gen_case(u: &mut Unstructured<'_>, swarm: &Swarm, id: String, version: Version) -> Request {
    let scope = Scope::draw(u, swarm);
    case_in(u, swarm, &scope, id, version)
}

/// An expression or a bare template over `scope`.
fn case_in(
    u: &mut Unstructured<'_>,
    swarm: &Swarm,
    scope: &Scope,
    id: String,
    version: Version,
) -> Request {
    let template = chance(u, swarm.template_pct);
    let mut g = expr::ExprGen::new(u, swarm, &scope.refs);
    let (kind, mut source) = if template {
        (Kind::Template, g.bare_template())
    } else {
        let want = g.target_type();
        let depth = swarm.max_depth;
        (Kind::Expression, g.expr(&want, depth).text)
    };
    if chance(u, swarm.broken_pct) {
        source = damage(u, &source);
    }
    Request {
        id,
        kind,
        source,
        scope: scope.encoded.clone(),
        hcl_version: Some(version),
        ..Default::default()
    }
}

/// Up to [`MAX_VARS`] variables with distinct names.
pub fn gen_scope(u: &mut Unstructured<'_>, swarm: &Swarm) -> BTreeMap<String, Value> {
    let n = u.int_in_range(0..=MAX_VARS).unwrap_or(0);
    let mut vars = BTreeMap::new();
    for _ in 0..n {
        let name = pick(u, VAR_NAMES).to_string();
        let ty = gen_type(u, swarm, SCOPE_TYPE_DEPTH);
        let mut value = gen_value(u, swarm, &ty, false);
        if swarm.on(Construct::Sensitive) && chance(u, 20) {
            value = mark_somewhere(u, value);
        }
        vars.insert(name, value);
    }
    vars
}

/// `v` marked sensitive: as a whole, or one attribute of an object or
/// element of a tuple (Terraform's oracle cannot write a mark inside a
/// list, set or map).
fn mark_somewhere(u: &mut Unstructured<'_>, v: Value) -> Value {
    let whole = chance(u, 50);
    match v {
        Value::Object(mut attrs) if !whole && !attrs.is_empty() => {
            let i = u.choose_index(attrs.len()).unwrap_or(0);
            if let Some(key) = attrs.keys().nth(i).cloned() {
                if let Some(item) = attrs.remove(&key) {
                    attrs.insert(key, item.mark());
                }
            }
            Value::Object(attrs)
        }
        Value::Tuple(mut items) if !whole && !items.is_empty() => {
            let i = u.choose_index(items.len()).unwrap_or(0);
            let item = std::mem::replace(&mut items[i], Value::null(Type::Dynamic));
            items[i] = item.mark();
            Value::Tuple(items)
        }
        v => v.mark(),
    }
}

/// A way to reach a value of a known type: a variable, or a traversal into
/// one.
#[derive(Clone, Debug)]
pub(crate) struct Ref {
    pub text: String,
    pub ty: Type,
}

/// Every reference into the scope up to [`REF_DEPTH`] steps: attributes,
/// map keys and list or tuple indexes of the actual values (so most of
/// them succeed), in the traversal forms the swarm allows.
pub(crate) fn collect_refs(vars: &BTreeMap<String, Value>, swarm: &Swarm) -> Vec<Ref> {
    let mut out = Vec::new();
    for (name, v) in vars {
        walk_value(name.clone(), v, 0, swarm, &mut out);
    }
    out
}

fn walk_value(text: String, v: &Value, depth: usize, swarm: &Swarm, out: &mut Vec<Ref>) {
    if out.len() >= MAX_REFS {
        return;
    }
    out.push(Ref {
        text: text.clone(),
        ty: v.ty(),
    });
    if depth >= REF_DEPTH {
        return;
    }
    // A sensitive value is reached as the value it marks.
    let v = match v {
        Value::Marked(inner) => &**inner,
        v => v,
    };
    match v {
        Value::Object(attrs) if swarm.on(Construct::Attr) => {
            for (k, item) in attrs {
                walk_value(attr_step(&text, k), item, depth + 1, swarm, out);
            }
        }
        Value::Map { items, .. } if swarm.on(Construct::Index) => {
            for (k, item) in items {
                walk_value(key_step(&text, k), item, depth + 1, swarm, out);
            }
        }
        Value::List { items, .. } | Value::Tuple(items) if swarm.on(Construct::Index) => {
            for (i, item) in items.iter().enumerate() {
                let step = if swarm.on(Construct::LegacyIndex) && i % 2 == 1 {
                    format!("{text}.{i}")
                } else {
                    format!("{text}[{i}]")
                };
                walk_value(step, item, depth + 1, swarm, out);
            }
        }
        Value::Unknown(ty, ..) | Value::Null(ty) => walk_type(text, ty, depth, swarm, out),
        _ => {}
    }
}

/// References into a value known only by its type (null, unknown, or a
/// `for` binding).
fn walk_type(text: String, ty: &Type, depth: usize, swarm: &Swarm, out: &mut Vec<Ref>) {
    if depth >= REF_DEPTH || out.len() >= MAX_REFS {
        return;
    }
    match ty {
        Type::Object(attrs) if swarm.on(Construct::Attr) => {
            for (k, t) in attrs {
                let step = attr_step(&text, k);
                out.push(Ref {
                    text: step.clone(),
                    ty: t.clone(),
                });
                walk_type(step, t, depth + 1, swarm, out);
            }
        }
        Type::List(e) if swarm.on(Construct::Index) => {
            let step = format!("{text}[0]");
            out.push(Ref {
                text: step.clone(),
                ty: (**e).clone(),
            });
            walk_type(step, e, depth + 1, swarm, out);
        }
        _ => {}
    }
}

/// `.name` when the name is an identifier, else `["name"]`.
fn attr_step(text: &str, name: &str) -> String {
    if is_identifier(name) {
        format!("{text}.{name}")
    } else {
        format!("{text}[{}]", quote(name))
    }
}

fn key_step(text: &str, key: &str) -> String {
    format!("{text}[{}]", quote(key))
}

/// A quoted string literal for `s`, with HCL's escapes, and template
/// sequences doubled so that they stay literal.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    out.push_str(&escape_quoted(s));
    out.push('"');
    out
}

/// The body of a quoted string literal for `s`.
pub fn escape_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Tokens that damage inserts: brackets, separators, operators, template
/// openers, heredoc and comment starts, keywords.
const DAMAGE_TOKENS: &[&str] = &[
    ")", "(", "]", "[", "}", "{", ",", "=", "=>", "...", "?", ":", ".", "*", "\"", "${", "%{", "~",
    "<<EOT\n", "\n", "#", "/*", "!", "-", "1", "a", "for", "in", "if", "else", "endif", "null",
    "[*]", ".*", "&&", "==", "<",
];

/// Breaks a source the way typing mistakes do: one to three token
/// deletions, duplications, insertions, swaps or a truncation.
pub fn damage(u: &mut Unstructured<'_>, source: &str) -> String {
    let mut toks: Vec<String> = tokens::tokenize(source)
        .into_iter()
        .map(str::to_string)
        .collect();
    let rounds = u.int_in_range(1..=3).unwrap_or(1);
    for _ in 0..rounds {
        let len = toks.len();
        let at = if len == 0 {
            0
        } else {
            u.choose_index(len).unwrap_or(0)
        };
        match u.int_in_range(0..=4).unwrap_or(0) {
            0 if len > 0 => {
                toks.remove(at);
            }
            1 if len > 0 => {
                let t = toks[at].clone();
                toks.insert(at, t);
            }
            3 if len > 1 && at + 1 < len => toks.swap(at, at + 1),
            4 if len > 0 => toks.truncate(at),
            _ => toks.insert(at.min(len), pick(u, DAMAGE_TOKENS).to_string()),
        }
    }
    toks.concat()
}

/// True with `pct` percent probability; false once the bytes run out.
pub(crate) fn chance(u: &mut Unstructured<'_>, pct: u8) -> bool {
    if pct == 0 {
        return false;
    }
    let roll: u8 = u.int_in_range(0..=99).unwrap_or(0);
    roll >= 100 - pct.min(100)
}

/// An element of a non-empty pool; the first once the bytes run out.
pub(crate) fn pick<T: Clone>(u: &mut Unstructured<'_>, pool: &[T]) -> T {
    pool[u.choose_index(pool.len()).unwrap_or(0)].clone()
}

#[cfg(test)]
mod tests;
