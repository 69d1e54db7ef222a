//! Shrinking a reproducer while its divergence persists: first the
//! source (bracket groups replaced by their contents or by simple
//! literals, token runs deleted, literals simplified, layout normalized),
//! then the scope (unused variables dropped, elements removed, leaves
//! simplified), then the source once more.

use std::collections::BTreeMap;

use hclspec_protocol::{Request, TypedValue};
use hclspec_reference::{Type, Value};

use crate::tokens::{groups, tokenize};

/// Atoms a bracket group may be replaced with, simplest first.
const ATOMS: &[&str] = &["0", "\"\"", "null", "true", "[]", "{}", "\"a\""];

/// How deep scope shrinking looks into a value.
const MAX_VALUE_DEPTH: usize = 4;

/// Shrinks `req` while `still` holds, asking it at most `budget` times.
/// `still` must hold for `req` itself.
pub fn minimize(req: &Request, budget: usize, still: &mut dyn FnMut(&Request) -> bool) -> Request {
    minimize_batched(req, budget, &mut |candidates| {
        candidates.iter().position(&mut *still)
    })
}

/// Shrinks `req` as [`minimize`] does, but offers the candidates of each
/// step together: `first` answers the index of the first candidate that
/// still diverges, and may evaluate them all at once (an oracle that
/// answers a batch in about the time of one case), or one by one until
/// one holds. A step that finds none charges every candidate to `budget`,
/// a step that finds one the candidates up to it.
pub fn minimize_batched(
    req: &Request,
    budget: usize,
    first: &mut dyn FnMut(&[Request]) -> Option<usize>,
) -> Request {
    let mut m = Shrinker {
        best: req.clone(),
        budget,
        first,
    };
    m.source();
    m.scope();
    m.source();
    m.best
}

struct Shrinker<'a> {
    best: Request,
    budget: usize,
    first: &'a mut dyn FnMut(&[Request]) -> Option<usize>,
}

impl Shrinker<'_> {
    /// Tries candidates in order; keeps the first for which the divergence
    /// persists, and answers its index.
    fn try_first(&mut self, mut candidates: Vec<Request>) -> Option<usize> {
        candidates.truncate(self.budget);
        if candidates.is_empty() {
            return None;
        }
        match (self.first)(&candidates) {
            Some(i) if i < candidates.len() => {
                self.budget -= i + 1;
                self.best = candidates.swap_remove(i);
                Some(i)
            }
            _ => {
                self.budget -= candidates.len();
                None
            }
        }
    }

    /// Tries a candidate; keeps it when the divergence persists.
    fn try_req(&mut self, candidate: Request) -> bool {
        self.try_first(vec![candidate]).is_some()
    }

    /// Whether `source` is shorter than the best one, or as long and
    /// smaller bytewise, so that shrinking always ends.
    fn smaller(&self, source: &str) -> bool {
        let cur = &self.best.source;
        (source.len(), source.as_bytes()) < (cur.len(), cur.as_bytes())
    }

    /// Tries sources in order (those not smaller than the best are left
    /// out); keeps the first that still diverges, and answers its index
    /// in `sources`.
    fn try_sources(&mut self, sources: Vec<String>) -> Option<usize> {
        let mut at = Vec::new();
        let mut candidates = Vec::new();
        for (i, source) in sources.into_iter().enumerate() {
            if self.smaller(&source) {
                let mut c = self.best.clone();
                c.source = source;
                candidates.push(c);
                at.push(i);
            }
        }
        self.try_first(candidates).map(|k| at[k])
    }

    fn try_source(&mut self, source: String) -> bool {
        self.try_sources(vec![source]).is_some()
    }

    fn source(&mut self) {
        loop {
            let before = self.best.source.clone();
            self.groups();
            self.directives();
            self.chunks();
            self.literals();
            self.characters();
            self.layout();
            if self.best.source == before || self.budget == 0 {
                return;
            }
        }
    }

    /// Each bracket group, outermost first: its contents alone, an atom,
    /// or nothing.
    fn groups(&mut self) {
        let mut i = 0;
        loop {
            let src = self.best.source.clone();
            let toks = tokenize(&src);
            let mut gs = groups(&toks);
            gs.reverse();
            let Some(&(open, close)) = gs.get(i) else {
                return;
            };
            let before = toks[..open].concat();
            let after = toks[close + 1..].concat();
            let inner = toks[open + 1..close].concat();
            let mut candidates = vec![format!("{before}{inner}{after}")];
            // A call's name goes with its parentheses: `f(x)` becomes `x`.
            if open > 0 && toks[open] == "(" && crate::gen::value::is_identifier(toks[open - 1]) {
                let before_name = toks[..open - 1].concat();
                candidates.insert(0, format!("{before_name}{inner}{after}"));
            }
            candidates.extend(ATOMS.iter().map(|a| format!("{before}{a}{after}")));
            candidates.push(format!("{before}{after}"));
            if self.try_sources(candidates).is_none() {
                i += 1;
            }
        }
    }

    /// Each template directive block (`%{if}...%{endif}`,
    /// `%{for}...%{endfor}`): removed whole, or unwrapped to its body.
    fn directives(&mut self) {
        let mut i = 0;
        loop {
            let src = self.best.source.clone();
            let toks = tokenize(&src);
            let blocks = directive_blocks(&toks);
            let Some(b) = blocks.get(i) else {
                return;
            };
            let before = toks[..b.open].concat();
            let after = toks[b.close + 1..].concat();
            let body = toks[b.body.0..b.body.1].concat();
            let tried = self.try_sources(vec![
                format!("{before}{after}"),
                format!("{before}{body}{after}"),
            ]);
            if tried.is_none() {
                i += 1;
            }
        }
    }

    /// Deletes runs of tokens, halving the run length down to one.
    fn chunks(&mut self) {
        let mut n = tokenize(&self.best.source).len() / 2;
        while n >= 1 {
            // Short runs are tried at every offset, long ones aligned to
            // their length; after a deletion the same offset is tried
            // again.
            let step = if n < FINE_CHUNK { 1 } else { n };
            let mut start = 0;
            loop {
                let src = self.best.source.clone();
                let toks = tokenize(&src);
                let starts: Vec<usize> = (start..toks.len()).step_by(step).collect();
                let candidates: Vec<String> = starts
                    .iter()
                    .map(|&at| {
                        let end = (at + n).min(toks.len());
                        format!("{}{}", toks[..at].concat(), toks[end..].concat())
                    })
                    .collect();
                match self.try_sources(candidates) {
                    Some(k) => start = starts[k],
                    None => break,
                }
            }
            n /= 2;
        }
    }

    /// Single characters, for sources short enough: tokens glued together
    /// by earlier deletions come apart again.
    fn characters(&mut self) {
        if self.best.source.len() > CHARACTER_PASS_MAX {
            return;
        }
        let mut i = 0;
        loop {
            let src = self.best.source.clone();
            let cuts: Vec<(usize, String)> = src
                .char_indices()
                .enumerate()
                .skip(i)
                .map(|(n, (at, c))| (n, format!("{}{}", &src[..at], &src[at + c.len_utf8()..])))
                .collect();
            let (at, sources): (Vec<usize>, Vec<String>) = cuts.into_iter().unzip();
            match self.try_sources(sources) {
                Some(k) => i = at[k],
                None => return,
            }
        }
    }

    /// Number literals become `0` or `1`. Names are left alone: they may
    /// be variables.
    fn literals(&mut self) {
        let mut i = 0;
        loop {
            let src = self.best.source.clone();
            let toks = tokenize(&src);
            let Some(tok) = toks.get(i) else {
                return;
            };
            if tok.starts_with(|c: char| c.is_ascii_digit()) {
                for simpler in ["0", "1"] {
                    if *tok > simpler {
                        let c =
                            format!("{}{simpler}{}", toks[..i].concat(), toks[i + 1..].concat());
                        if self.try_source(c) {
                            break;
                        }
                    }
                }
            }
            i += 1;
        }
    }

    /// Runs of spaces become one; comments and line breaks go where the
    /// divergence allows.
    fn layout(&mut self) {
        let src = self.best.source.clone();
        let toks = tokenize(&src);
        let squeezed: String = toks
            .iter()
            .map(|t| {
                if t.len() > 1 && t.trim().is_empty() {
                    " "
                } else {
                    t
                }
            })
            .collect();
        self.try_source(squeezed);
        let trimmed = self.best.source.trim().to_string();
        self.try_source(trimmed);
    }

    fn scope(&mut self) {
        // Variables the source does not mention at all, then any.
        let names: Vec<String> = self.best.scope.keys().cloned().collect();
        let unused: Vec<&String> = names
            .iter()
            .filter(|n| !self.best.source.contains(n.as_str()))
            .collect();
        if !unused.is_empty() {
            let mut c = self.best.clone();
            for n in &unused {
                c.scope.remove(*n);
            }
            self.try_req(c);
        }
        for name in names {
            if !self.best.scope.contains_key(&name) {
                continue;
            }
            let mut c = self.best.clone();
            c.scope.remove(&name);
            if self.try_req(c) {
                continue;
            }
            self.shrink_var(&name);
        }
    }

    /// Replaces the variable's value by smaller ones while that works.
    fn shrink_var(&mut self, name: &str) {
        loop {
            let Some(Ok(value)) = self.best.scope.get(name).map(TypedValue::decode) else {
                return;
            };
            let candidates: Vec<Request> = smaller_values(&value, 0)
                .into_iter()
                .map(|smaller| {
                    let mut c = self.best.clone();
                    c.scope
                        .insert(name.to_string(), TypedValue::encode(&smaller));
                    c
                })
                .collect();
            if self.try_first(candidates).is_none() || self.budget == 0 {
                return;
            }
        }
    }
}

/// Sources up to this many bytes get the character-by-character pass.
const CHARACTER_PASS_MAX: usize = 160;

/// Runs shorter than this are tried at every token offset.
const FINE_CHUNK: usize = 8;

/// A template directive block: the tokens from its opening `%{` to the
/// `}` that closes its end directive, and its body between the two.
struct Block {
    open: usize,
    close: usize,
    body: (usize, usize),
}

/// The `if` and `for` directive blocks of a token list, innermost first.
fn directive_blocks(toks: &[&str]) -> Vec<Block> {
    // (keyword, index of `%{`, index of its closing `}`)
    let mut directives: Vec<(&str, usize, usize)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == "%{" {
            let keyword = toks[i + 1..]
                .iter()
                .find(|t| !t.trim().is_empty() && **t != "~")
                .copied()
                .unwrap_or("");
            let close = (i + 1..toks.len()).find(|&j| matches!(toks[j], "}" | "~}"));
            if let Some(close) = close {
                directives.push((keyword, i, close));
                i = close;
            }
        }
        i += 1;
    }
    let mut stack: Vec<(&str, usize, usize)> = Vec::new();
    let mut out = Vec::new();
    for (keyword, open, close) in directives {
        match keyword {
            "if" | "for" => stack.push((keyword, open, close)),
            "endif" | "endfor" => {
                let want = if keyword == "endif" { "if" } else { "for" };
                if let Some(pos) = stack.iter().rposition(|(k, _, _)| *k == want) {
                    let (_, o, c) = stack[pos];
                    stack.truncate(pos);
                    out.push(Block {
                        open: o,
                        close,
                        body: (c + 1, open),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// Values one step smaller than `v`: an element fewer, or one element
/// replaced by a smaller one; strings emptied, numbers zeroed.
fn smaller_values(v: &Value, depth: usize) -> Vec<Value> {
    let mut out = Vec::new();
    if depth > MAX_VALUE_DEPTH {
        return out;
    }
    match v {
        Value::String(s) if !s.is_empty() => out.push(Value::string("")),
        Value::Number(n) if !n.is_zero() => out.push(Value::int(0)),
        Value::List { elem, items } | Value::Set { elem, items } => {
            let rebuild = |items: Vec<Value>| {
                if v.ty().is_set() {
                    Value::set(elem.clone(), items)
                } else {
                    Value::list(elem.clone(), items)
                }
            };
            for i in 0..items.len() {
                let mut rest = items.clone();
                rest.remove(i);
                out.push(rebuild(rest));
            }
            for (i, item) in items.iter().enumerate() {
                for s in smaller_values(item, depth + 1) {
                    if s.ty().conforms_to(elem) {
                        let mut changed = items.clone();
                        changed[i] = s;
                        out.push(rebuild(changed));
                    }
                }
            }
        }
        Value::Tuple(items) => {
            for i in 0..items.len() {
                let mut rest = items.clone();
                rest.remove(i);
                out.push(Value::tuple(rest));
            }
            for (i, item) in items.iter().enumerate() {
                for s in smaller_values(item, depth + 1) {
                    let mut changed = items.clone();
                    changed[i] = s;
                    out.push(Value::tuple(changed));
                }
            }
        }
        Value::Map { elem, items } => {
            for k in items.keys() {
                let mut rest = items.clone();
                rest.remove(k);
                out.push(Value::map(elem.clone(), rest));
            }
            for (k, item) in items {
                for s in smaller_values(item, depth + 1) {
                    if s.ty().conforms_to(elem) {
                        let mut changed = items.clone();
                        changed.insert(k.clone(), s);
                        out.push(Value::map(elem.clone(), changed));
                    }
                }
            }
        }
        Value::Object(attrs) => {
            for k in attrs.keys() {
                let mut rest: BTreeMap<String, Value> = attrs.clone();
                rest.remove(k);
                out.push(Value::object(rest));
            }
            for (k, item) in attrs {
                for s in smaller_values(item, depth + 1) {
                    let mut changed = attrs.clone();
                    changed.insert(k.clone(), s);
                    out.push(Value::object(changed));
                }
            }
        }
        _ => {}
    }
    // Typed collections must keep their element type.
    out.retain(|s| !matches!(s.ty(), Type::Dynamic) || v.ty() == Type::Dynamic);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::req;

    /// The predicate keeps sources containing `%`: the shrinker must get
    /// down to a small one.
    #[test]
    fn shrinks_source_to_what_matters() {
        let start = req("[for x in [1, 2, 3] : (x + 5 % 0) * 2 if x > 1][0] + length([\"a\"])");
        let mut calls = 0;
        let out = minimize(&start, 2000, &mut |r| {
            calls += 1;
            r.source.contains('%')
        });
        assert!(out.source.len() <= 3, "{:?}", out.source);
        assert!(calls <= 2000);
    }

    #[test]
    fn shrinks_scope() {
        let mut start = req("xs[0] + 1");
        let xs = Value::list(
            Type::Number,
            vec![Value::int(5), Value::int(6), Value::int(7)],
        );
        start.scope.insert("xs".into(), TypedValue::encode(&xs));
        start
            .scope
            .insert("unused".into(), TypedValue::encode(&Value::int(1)));
        // Keeps whatever still has a list `xs` with a first element.
        let out = minimize(&start, 500, &mut |r| {
            r.source.contains("xs")
                && r.scope
                    .get("xs")
                    .and_then(|tv| tv.decode().ok())
                    .is_some_and(|v| v.length() >= 1)
        });
        assert!(!out.scope.contains_key("unused"));
        let xs = out.scope["xs"].decode().unwrap();
        assert_eq!(xs.length(), 1);
        assert_eq!(
            xs.element_values()[0].as_number().map(|n| n.is_zero()),
            Some(true)
        );
    }

    #[test]
    fn unwraps_and_removes_directive_blocks() {
        let start = req("\"%{if a}x%{for v in b}y%{endfor}%{endif}z\"");
        let out = minimize(&start, 500, &mut |r| {
            r.source.contains('y') && hclspec_reference::parser::parse_expression(&r.source).is_ok()
        });
        assert_eq!(out.source, "\"y\"");
        let toks = tokenize("%{ if c ~}a%{~ endif }");
        let blocks = directive_blocks(&toks);
        assert_eq!(blocks.len(), 1);
        assert_eq!(toks[blocks[0].body.0..blocks[0].body.1].concat(), "a");
    }

    #[test]
    fn respects_the_budget() {
        let start = req("1 + 2 + 3 + 4 + 5 + 6 + 7 + 8");
        let mut calls = 0;
        minimize(&start, 10, &mut |_| {
            calls += 1;
            false
        });
        assert_eq!(calls, 10);
    }
}
