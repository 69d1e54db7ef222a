//! Terraform 0.11 strings for the `diff_hil` target: templates with
//! `${...}` interpolations and escapes, and interpolation insides, built
//! from 0.11's operators, conditionals, variable references with indexes,
//! nested strings and function calls, over a scope of one `var` object of
//! strings, lists of strings and maps of strings (what the 0.11 oracle can
//! express).
//!
//! As the HCL generator, every choice lists its simplest option first, so
//! an input that runs out of bytes gives small valid cases.

use std::collections::BTreeMap;

use arbitrary::Unstructured;
use hclspec_protocol::{Dialect, Kind, Request, TypedValue};
use hclspec_reference::{Type, Value};

use super::{chance, pick};

/// A 0.11 value kind, as the generator aims at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hk {
    Str,
    Num,
    Bool,
    List,
    Map,
}

/// One 0.11 function: name, parameters, variadic parameter, result.
type HilSig = (&'static str, &'static [Hk], Option<Hk>, Hk);

use Hk::{Bool as B, List as L, Map as M, Num as N, Str as S};

/// 0.11's pure functions (no files, clock, randomness or keys).
pub const HIL_FUNCTIONS: &[HilSig] = &[
    ("abs", &[N], None, N),
    ("base64decode", &[S], None, S),
    ("base64encode", &[S], None, S),
    ("base64gzip", &[S], None, S),
    ("base64sha256", &[S], None, S),
    ("basename", &[S], None, S),
    ("ceil", &[N], None, N),
    ("chomp", &[S], None, S),
    ("chunklist", &[L, N], None, L),
    ("cidrhost", &[S, N], None, S),
    ("cidrnetmask", &[S], None, S),
    ("cidrsubnet", &[S, N, N], None, S),
    ("coalesce", &[S], Some(S), S),
    ("coalescelist", &[L], Some(L), L),
    ("compact", &[L], None, L),
    ("concat", &[L], Some(L), L),
    ("contains", &[L, S], None, B),
    ("dirname", &[S], None, S),
    ("distinct", &[L], None, L),
    ("element", &[L, N], None, S),
    ("flatten", &[L], None, L),
    ("floor", &[N], None, N),
    ("format", &[S], Some(S), S),
    ("formatlist", &[S], Some(L), L),
    ("indent", &[N, S], None, S),
    ("index", &[L, S], None, N),
    ("join", &[S], Some(L), S),
    ("jsonencode", &[L], None, S),
    ("keys", &[M], None, L),
    ("length", &[S], None, N),
    ("length", &[L], None, N),
    ("list", &[], Some(S), L),
    ("log", &[N, N], None, N),
    ("lookup", &[M, S], Some(S), S),
    ("lower", &[S], None, S),
    ("map", &[S, S], Some(S), M),
    ("matchkeys", &[L, L, L], None, L),
    ("max", &[N], Some(N), N),
    ("md5", &[S], None, S),
    ("merge", &[M], Some(M), M),
    ("min", &[N], Some(N), N),
    ("pow", &[N, N], None, N),
    ("replace", &[S, S, S], None, S),
    ("sha1", &[S], None, S),
    ("sha256", &[S], None, S),
    ("sha512", &[S], None, S),
    ("signum", &[N], None, N),
    ("slice", &[L, N, N], None, L),
    ("sort", &[L], None, L),
    ("split", &[S, S], None, L),
    ("substr", &[S, N, N], None, S),
    ("title", &[S], None, S),
    ("transpose", &[M], None, M),
    ("trimspace", &[S], None, S),
    ("upper", &[S], None, S),
    ("urlencode", &[S], None, S),
    ("values", &[M], None, L),
    ("zipmap", &[L, L], None, M),
];

/// Strings, plain first: 0.11's weak typing turns number-like, bool-like
/// and list-like strings into other kinds.
const HIL_STRINGS: &[&str] = &[
    "a",
    "",
    "hello",
    "1",
    "2.5",
    "true",
    "false",
    "0",
    "-1",
    "a,b",
    "x y",
    "10.0.0.0/16",
    "%s",
    "%d",
    "%v",
    "%5.2f",
    "\u{e9}",
    "e\u{301}",
    "\u{1F600}",
    "\\",
    "\n",
    "1e3",
    "0x10",
    " 1 ",
    "A",
    "a\"b",
    "null",
    "[1]",
];

const HIL_NUMBERS: &[&str] = &["1", "0", "2", "10", "1.5", "-1", "3", "0.1", "100", "-0"];

/// Literal template text, with the escapes 0.11 has.
const HIL_TEXT: &[&str] = &[
    "a", " ", "x-", "$${x}", "$", "%{", "\\n", "\n", "\u{e9}", "\"", "}",
];

const VAR_STRINGS: &[&str] = &["s", "n"];
const VAR_LISTS: &[&str] = &["l", "e"];
const VAR_MAPS: &[&str] = &["m", "em"];

/// How many different `var` scopes the generated cases share. The 0.11
/// oracle applies one Terraform configuration per scope (variables are
/// the configuration's), so a batch whose cases each had a scope of their
/// own cost one `terraform apply` a case; with a pool, a batch of hundreds
/// of cases costs a few.
pub const HIL_SCOPE_POOL: u64 = 6;

/// `cases` generated cases from one input (short inputs are stretched as
/// for the HCL targets), sharing one `var` scope from the pool.
pub fn gen_hil_batch(data: &[u8], cases: usize) -> Vec<Request> {
    let stream = super::fill_stream(data, cases);
    let mut u = Unstructured::new(&stream);
    let scope = pooled_hil_scope(&mut u);
    (0..cases.max(1))
        .map(|i| gen_hil_case(&mut u, i.to_string(), scope.clone()))
        .collect()
}

/// One of the [`HIL_SCOPE_POOL`] scopes, each generated from a fixed seed.
fn pooled_hil_scope(u: &mut Unstructured<'_>) -> BTreeMap<String, TypedValue> {
    let k = u.int_in_range(0..=HIL_SCOPE_POOL - 1).unwrap_or(0);
    let bytes = crate::seeded_bytes(k, 64);
    gen_hil_scope(&mut Unstructured::new(&bytes))
}

/// One case: a template (a whole 0.11 string) or an expression (the inside
/// of one interpolation), over `scope`.
pub fn gen_hil_case(
    u: &mut Unstructured<'_>,
    id: String,
    scope: BTreeMap<String, TypedValue>,
) -> Request {
    let mut g = HilGen { u, nodes: 20 };
    let (kind, source) = if chance(g.u, 40) {
        (Kind::Template, g.template(3))
    } else {
        let want = g.kind();
        (Kind::Expression, g.expr(want, 3))
    };
    Request {
        id,
        kind,
        source,
        scope,
        dialect: Dialect::Hil011,
        ..Default::default()
    }
}

/// The `var` object: strings `s` and `n`, lists `l` and `e`, maps `m` and
/// `em`, with values from the pools (`e` and `em` are often empty).
pub fn gen_hil_scope(u: &mut Unstructured<'_>) -> BTreeMap<String, TypedValue> {
    let s = |u: &mut Unstructured<'_>| Value::string(pick(u, HIL_STRINGS));
    let list = |u: &mut Unstructured<'_>, max: u32| {
        let n = u.int_in_range(0..=max).unwrap_or(0);
        Value::list(Type::String, (0..n).map(|_| s(u)).collect())
    };
    let map = |u: &mut Unstructured<'_>, max: u32| {
        let n = u.int_in_range(0..=max).unwrap_or(0);
        let items = (0..n)
            .map(|_| (pick(u, &["a", "b", "c", "", "1", "k"]).to_string(), s(u)))
            .collect();
        Value::map(Type::String, items)
    };
    let mut attrs = BTreeMap::new();
    attrs.insert("s".to_string(), s(u));
    attrs.insert("n".to_string(), Value::string(pick(u, HIL_NUMBERS)));
    attrs.insert("l".to_string(), list(u, 3));
    attrs.insert("e".to_string(), list(u, 1));
    attrs.insert("m".to_string(), map(u, 3));
    attrs.insert("em".to_string(), map(u, 1));
    BTreeMap::from([("var".to_string(), TypedValue::encode(&Value::object(attrs)))])
}

struct HilGen<'g, 'd> {
    u: &'g mut Unstructured<'d>,
    /// Expression nodes still allowed.
    nodes: u32,
}

impl HilGen<'_, '_> {
    fn kind(&mut self) -> Hk {
        pick(self.u, &[Hk::Str, Hk::Num, Hk::Bool, Hk::List, Hk::Map])
    }

    /// A whole 0.11 string: literal text and interpolations.
    fn template(&mut self, depth: u32) -> String {
        let parts = self.u.int_in_range(1..=4).unwrap_or(1);
        let mut out = String::new();
        for _ in 0..parts {
            if chance(self.u, 55) {
                let want = if chance(self.u, 80) {
                    Hk::Str
                } else {
                    self.kind()
                };
                out.push_str(&format!("${{{}}}", self.expr(want, depth)));
            } else {
                out.push_str(pick(self.u, HIL_TEXT));
            }
        }
        out
    }

    /// An expression aimed at `want` (a tenth of subexpressions at another
    /// kind).
    fn expr(&mut self, want: Hk, depth: u32) -> String {
        let want = if chance(self.u, 10) {
            self.kind()
        } else {
            want
        };
        if depth == 0 || self.nodes == 0 || self.u.is_empty() {
            return self.leaf(want);
        }
        self.nodes -= 1;
        let d = depth - 1;
        match self.u.int_in_range(0..=6).unwrap_or(0) {
            0 => self.leaf(want),
            1 | 2 => self.call(want, d),
            3 => {
                let c = self.expr(Hk::Bool, d);
                let a = self.expr(want, d);
                let b = self.expr(want, d);
                format!("{c} ? {a} : {b}")
            }
            4 if want == Hk::Num => {
                let op = pick(self.u, &["+", "-", "*", "/", "%"]);
                let a = self.expr(Hk::Num, d);
                let b = self.expr(Hk::Num, d);
                format!("{a} {op} {b}")
            }
            4 if want == Hk::Bool => {
                let (op, k) = pick(
                    self.u,
                    &[
                        ("==", Hk::Str),
                        ("!=", Hk::Str),
                        ("<", Hk::Num),
                        (">=", Hk::Num),
                        ("&&", Hk::Bool),
                        ("||", Hk::Bool),
                    ],
                );
                let a = self.expr(k, d);
                let b = self.expr(k, d);
                format!("{a} {op} {b}")
            }
            5 => format!("({})", self.expr(want, d)),
            6 if want == Hk::Str => format!("\"{}\"", self.template(d)),
            6 if want == Hk::Num => format!("-{}", self.leaf(Hk::Num)),
            6 if want == Hk::Bool => format!("!{}", self.expr(Hk::Bool, d)),
            _ => self.leaf(want),
        }
    }

    /// A variable reference or a literal of the kind.
    fn leaf(&mut self, want: Hk) -> String {
        match want {
            Hk::Str => match self.u.int_in_range(0..=3).unwrap_or(0) {
                0 => format!("\"{}\"", escape(pick(self.u, HIL_STRINGS))),
                1 => format!("var.{}", pick(self.u, VAR_STRINGS)),
                2 => format!(
                    "var.{}[{}]",
                    pick(self.u, VAR_LISTS),
                    pick(self.u, &["0", "1", "2", "var.n"])
                ),
                _ => format!(
                    "var.{}[\"{}\"]",
                    pick(self.u, VAR_MAPS),
                    pick(self.u, &["a", "b", "c", "k"])
                ),
            },
            Hk::Num => {
                if chance(self.u, 30) {
                    "var.n".to_string()
                } else {
                    pick(self.u, HIL_NUMBERS).to_string()
                }
            }
            Hk::Bool => pick(self.u, &["true", "false", "\"true\"", "var.s"]).to_string(),
            Hk::List => format!("var.{}", pick(self.u, VAR_LISTS)),
            Hk::Map => format!("var.{}", pick(self.u, VAR_MAPS)),
        }
    }

    /// A call of a function returning `want` (any function, now and then).
    fn call(&mut self, want: Hk, d: u32) -> String {
        let fitting: Vec<&HilSig> = HIL_FUNCTIONS.iter().filter(|f| f.3 == want).collect();
        let sig = if fitting.is_empty() || chance(self.u, 10) {
            &HIL_FUNCTIONS[self.u.choose_index(HIL_FUNCTIONS.len()).unwrap_or(0)]
        } else {
            fitting[self.u.choose_index(fitting.len()).unwrap_or(0)]
        };
        let (name, params, variadic, _) = *sig;
        let mut args: Vec<String> = params.iter().map(|k| self.expr(*k, d)).collect();
        if let Some(k) = variadic {
            let n = self.u.int_in_range(0..=2).unwrap_or(0);
            for _ in 0..n {
                args.push(self.expr(k, d));
            }
        }
        format!("{name}({})", args.join(", "))
    }
}

/// A 0.11 quoted string's body: quotes and backslashes escaped, `${`
/// doubled.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
        .replace("${", "$${")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every function the table names is one 0.11 has.
    #[test]
    fn every_function_exists_in_0_11() {
        let names: Vec<&str> = hclspec_reference::hil::function_names().collect();
        for (name, ..) in HIL_FUNCTIONS {
            assert!(names.contains(name), "{name}");
        }
    }

    /// Many generated cases evaluate without an error under the reference
    /// (the rest compare error paths), and an exhausted input gives a
    /// plain one.
    #[test]
    fn generated_cases_mostly_evaluate() {
        let reference = crate::oracle::ReferenceOracle::new(hclspec_protocol::Version::V2_24);
        let mut ok = 0;
        let mut all = 0;
        for seed in 0..40 {
            for req in gen_hil_batch(&crate::seeded_bytes(seed, 400), 8) {
                all += 1;
                if matches!(
                    reference.outcome(&req),
                    hclspec_protocol::Outcome::Result(_)
                ) {
                    ok += 1;
                }
            }
        }
        assert!(ok * 5 >= all * 2, "{ok} of {all}");
        let plain = gen_hil_batch(&[], 1);
        assert_eq!(plain[0].kind, Kind::Expression);
        assert_eq!(plain[0].source, "\"a\"");
    }
}
