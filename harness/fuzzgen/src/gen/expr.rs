//! Expressions aimed at a type: every production of the native syntax,
//! printed with as few parentheses as HCL's precedence allows, so that
//! operator chains at every precedence level reach the parser.

use arbitrary::Unstructured;
use hclspec_reference::Type;

use super::tf_funcs::{returns, Arg, Sig, JSON_TEXTS, TERRAFORM_FUNCTIONS};
use super::value::{gen_type, is_identifier, number_text, string_text, ATTR_NAMES, MAP_KEYS};
use super::{chance, pick, quote, Ref};
use crate::config::{Construct as C, Swarm};

/// Binding strength of an expression's outermost construct (higher binds
/// tighter), following `hclsyntax`'s binary operator levels.
pub(crate) const PREC_COND: u8 = 2;
pub(crate) const PREC_OR: u8 = 3;
pub(crate) const PREC_AND: u8 = 4;
pub(crate) const PREC_EQ: u8 = 5;
pub(crate) const PREC_CMP: u8 = 6;
pub(crate) const PREC_ADD: u8 = 7;
pub(crate) const PREC_MUL: u8 = 8;
pub(crate) const PREC_UNARY: u8 = 9;
pub(crate) const PREC_ATOM: u8 = 10;

/// Generated source text with what its embedding needs to know.
#[derive(Clone, Debug)]
pub(crate) struct Frag {
    pub text: String,
    pub prec: u8,
    /// Whether a traversal step (`.a`, `[0]`, `[*]`) may follow directly:
    /// not after a number (`1.a` scans as a number) or a keyword.
    pub postfix: bool,
}

impl Frag {
    fn atom(text: String) -> Frag {
        Frag {
            text,
            prec: PREC_ATOM,
            postfix: true,
        }
    }

    fn literal(text: String) -> Frag {
        let prec = if text.starts_with('-') {
            PREC_UNARY
        } else {
            PREC_ATOM
        };
        Frag {
            text,
            prec,
            postfix: false,
        }
    }

    fn op(text: String, prec: u8) -> Frag {
        Frag {
            text,
            prec,
            postfix: false,
        }
    }

    /// The text, parenthesized unless it binds at least as tightly as
    /// `min`.
    fn at_least(self, min: u8) -> String {
        if self.prec >= min {
            self.text
        } else {
            format!("({})", self.text)
        }
    }

    /// The text, ready for a traversal step to follow.
    fn for_postfix(self) -> String {
        if self.postfix && self.prec >= PREC_ATOM {
            self.text
        } else {
            format!("({})", self.text)
        }
    }
}

/// The productions; `Leaf` first, so that an exhausted input takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prod {
    Leaf,
    Paren,
    Conditional,
    Wrap,
    TupleIndex,
    ObjectAttr,
    DynIndex,
    Arith,
    Negate,
    Length,
    MaxMin,
    ToNumber,
    Compare,
    Equality,
    Logic,
    Not,
    ToBool,
    Template,
    Heredoc,
    Case,
    ToString,
    ToList,
    Concat,
    ToSet,
    ToMap,
    TupleCons,
    ObjectCons,
    ForTuple,
    ForObject,
    Splat,
    /// A call of one of Terraform's functions (the Terraform profile).
    TfCall,
}

/// Names that `for` expressions and template `for` directives bind; some
/// shadow scope variables.
const KEY_NAMES: &[&str] = &["k", "i", "key", "a"];
const VALUE_NAMES: &[&str] = &["v", "x", "each", "item", "obj"];

/// References that fail on purpose.
const BAD_REFS: &[&str] = &["nosuch", "var.nosuch", "xs[99]", "a.b.c", "self", "obj.zzz"];

/// Separators: mostly a space; with noise, none, line breaks and comments.
const WS_PLAIN: &[&str] = &[" "];
const WS_NOISE: &[&str] = &[
    " ",
    "",
    "  ",
    "\t",
    " /* c */ ",
    "\n",
    " # c\n",
    " // c\n",
    "\n\n",
];
const WS_NOISE_ONE_LINE: &[&str] = &[" ", "", "  ", "\t", " /* c */ "];

pub(crate) struct ExprGen<'g, 'd> {
    pub(crate) u: &'g mut Unstructured<'d>,
    pub(crate) swarm: &'g Swarm,
    refs: &'g [Ref],
    /// `for` bindings, innermost last.
    pub(crate) locals: Vec<(String, Type)>,
    /// Expression nodes still allowed.
    nodes: u32,
    /// Whether a line break may separate tokens here (not inside object
    /// constructors, where it ends an item, nor inside quoted strings).
    pub(crate) newline_ok: bool,
}

impl<'g, 'd> ExprGen<'g, 'd> {
    pub(crate) fn new(
        u: &'g mut Unstructured<'d>,
        swarm: &'g Swarm,
        refs: &'g [Ref],
    ) -> ExprGen<'g, 'd> {
        ExprGen {
            u,
            swarm,
            refs,
            locals: Vec::new(),
            nodes: swarm.max_nodes,
            newline_ok: true,
        }
    }

    /// The type a whole case aims at: often a variable's, so that
    /// references get used, else a fresh one.
    pub(crate) fn target_type(&mut self) -> Type {
        if !self.refs.is_empty() && chance(self.u, 40) {
            let i = self.u.choose_index(self.refs.len()).unwrap_or(0);
            return self.refs[i].ty.clone();
        }
        gen_type(self.u, self.swarm, 2)
    }

    /// An expression of type `want` (or, for the ill-typed share, of some
    /// other type), nesting at most `depth` more levels.
    pub(crate) fn expr(&mut self, want: &Type, depth: u32) -> Frag {
        let ty = if chance(self.u, self.swarm.ill_typed_pct) {
            self.any_type()
        } else {
            want.clone()
        };
        if depth == 0 || self.nodes == 0 || self.u.is_empty() {
            return self.leaf(&ty);
        }
        self.nodes -= 1;
        let ty = match ty {
            // Any type will do: pick one, or a null.
            Type::Dynamic if !chance(self.u, 20) => self.any_type(),
            t => t,
        };
        let prods = self.productions(&ty);
        let p = prods[self.u.choose_index(prods.len()).unwrap_or(0)];
        self.produce(p, &ty, depth - 1)
    }

    pub(crate) fn any_type(&mut self) -> Type {
        gen_type(self.u, self.swarm, 2)
    }

    fn has_fn(&self, name: &str) -> bool {
        self.swarm.on(C::Calls) && self.swarm.profile.functions().contains(&name)
    }

    fn productions(&self, ty: &Type) -> Vec<Prod> {
        let s = self.swarm;
        let mut out = vec![Prod::Leaf, Prod::Paren];
        let mut add = |p: Prod, on: bool| {
            if on {
                out.push(p);
            }
        };
        add(Prod::Conditional, s.on(C::Conditional));
        add(Prod::Wrap, s.on(C::Interpolation));
        add(Prod::TupleIndex, s.on(C::TupleCons) && s.on(C::Index));
        add(Prod::ObjectAttr, s.on(C::ObjectCons) && s.on(C::Attr));
        add(Prod::DynIndex, s.on(C::Index));
        let tf_calls = s.profile.terraform_functions() && s.on(C::Calls);
        add(Prod::TfCall, tf_calls);
        add(Prod::TfCall, tf_calls);
        match ty {
            Type::Number => {
                add(Prod::Arith, s.on(C::Arithmetic));
                add(Prod::Arith, s.on(C::Arithmetic));
                add(Prod::Negate, s.on(C::Negate));
                add(Prod::Length, self.has_fn("length"));
                add(Prod::MaxMin, self.has_fn("max"));
                add(Prod::ToNumber, self.has_fn("tonumber"));
            }
            Type::Bool => {
                add(Prod::Compare, s.on(C::Comparison));
                add(Prod::Equality, s.on(C::Equality));
                add(Prod::Equality, s.on(C::Equality));
                add(Prod::Logic, s.on(C::Logic));
                add(Prod::Not, s.on(C::Not));
                add(Prod::ToBool, self.has_fn("tobool"));
            }
            Type::String => {
                let templates =
                    s.on(C::Interpolation) || s.on(C::TemplateIf) || s.on(C::TemplateFor);
                add(Prod::Template, templates);
                add(Prod::Template, templates);
                add(Prod::Heredoc, s.on(C::Heredoc));
                add(Prod::Case, self.has_fn("upper"));
                add(Prod::ToString, self.has_fn("tostring"));
            }
            Type::List(_) => {
                add(Prod::ToList, self.has_fn("tolist"));
                add(Prod::Concat, self.has_fn("concat"));
                add(Prod::Splat, s.on(C::Splat) || s.on(C::LegacySplat));
                add(Prod::ForTuple, s.on(C::ForTuple));
                add(Prod::TupleCons, s.on(C::TupleCons));
            }
            Type::Set(_) => {
                add(Prod::ToSet, self.has_fn("toset"));
                add(Prod::TupleCons, s.on(C::TupleCons));
            }
            Type::Map(_) => {
                add(Prod::ToMap, self.has_fn("tomap"));
                add(Prod::ObjectCons, s.on(C::ObjectCons));
                add(Prod::ForObject, s.on(C::ForObject));
            }
            Type::Tuple(_) => {
                add(Prod::TupleCons, s.on(C::TupleCons));
                add(Prod::TupleCons, s.on(C::TupleCons));
                add(Prod::ForTuple, s.on(C::ForTuple));
                add(Prod::Splat, s.on(C::Splat) || s.on(C::LegacySplat));
                add(Prod::Concat, self.has_fn("concat"));
            }
            Type::Object(_) => {
                add(Prod::ObjectCons, s.on(C::ObjectCons));
                add(Prod::ObjectCons, s.on(C::ObjectCons));
                add(Prod::ForObject, s.on(C::ForObject));
            }
            Type::Dynamic | Type::Optional(_) => {}
        }
        out
    }

    fn produce(&mut self, p: Prod, ty: &Type, d: u32) -> Frag {
        match p {
            Prod::Leaf => self.leaf(ty),
            Prod::Paren => {
                let inner = self.nested(|g| g.expr(ty, d));
                Frag::atom(format!("({})", inner.text))
            }
            Prod::Conditional => self.conditional(ty, d),
            Prod::Wrap => {
                let was = std::mem::replace(&mut self.newline_ok, false);
                let inner = self.expr(ty, d);
                self.newline_ok = was;
                let (open, close) = self.strip_markers("${", "}");
                Frag::atom(format!("\"{open}{}{close}\"", inner.text))
            }
            Prod::TupleIndex => self.tuple_index(ty, d),
            Prod::ObjectAttr => {
                let name = self.identifier();
                let inner = self.nested(|g| g.expr(ty, d));
                let step = if chance(self.u, 30) {
                    format!("[{}]", quote(name))
                } else {
                    format!(".{name}")
                };
                Frag::atom(format!("{{{name} = {}}}{step}", inner.text))
            }
            Prod::DynIndex => self.dyn_index(ty, d),
            Prod::Arith => {
                let (op, prec) = pick(
                    self.u,
                    &[
                        ("+", PREC_ADD),
                        ("-", PREC_ADD),
                        ("*", PREC_MUL),
                        ("/", PREC_MUL),
                        ("%", PREC_MUL),
                    ],
                );
                let operand = if chance(self.u, 10) {
                    Type::String
                } else {
                    Type::Number
                };
                self.binary(op, prec, &operand, &Type::Number, d)
            }
            Prod::Negate => self.unary("-", &Type::Number, d),
            Prod::Not => self.unary("!", &Type::Bool, d),
            Prod::Compare => {
                let op = pick(self.u, &["<", ">", "<=", ">="]);
                self.binary(op, PREC_CMP, &Type::Number, &Type::Number, d)
            }
            Prod::Equality => {
                let op = pick(self.u, &["==", "!="]);
                let lhs = self.any_type();
                let rhs = if chance(self.u, 70) {
                    lhs.clone()
                } else {
                    self.any_type()
                };
                self.binary(op, PREC_EQ, &lhs, &rhs, d)
            }
            Prod::Logic => {
                let (op, prec) = pick(self.u, &[("&&", PREC_AND), ("||", PREC_OR)]);
                self.binary(op, prec, &Type::Bool, &Type::Bool, d)
            }
            Prod::Length => {
                let arg = pick(
                    self.u,
                    &[
                        Type::String,
                        Type::list(Type::String),
                        Type::map(Type::Number),
                        Type::Tuple(vec![Type::Number, Type::String]),
                        Type::set(Type::Number),
                    ],
                );
                let arg = if chance(self.u, 30) {
                    self.any_type()
                } else {
                    arg
                };
                self.call("length", &[arg], d)
            }
            Prod::MaxMin => {
                let name = pick(self.u, &["max", "min"]);
                if self.swarm.on(C::CallExpansion) && chance(self.u, 40) {
                    let list = if chance(self.u, 50) {
                        Type::list(Type::Number)
                    } else {
                        Type::Tuple(vec![Type::Number, Type::Number])
                    };
                    self.call_expanded(name, &[], &list, d)
                } else {
                    let n = self.u.int_in_range(1..=3).unwrap_or(1);
                    let args = vec![Type::Number; n];
                    self.call(name, &args, d)
                }
            }
            Prod::ToNumber => {
                let arg = pick(self.u, &[Type::String, Type::Number, Type::Bool]);
                self.call("tonumber", &[arg], d)
            }
            Prod::ToBool => {
                let arg = pick(self.u, &[Type::String, Type::Bool, Type::Number]);
                self.call("tobool", &[arg], d)
            }
            Prod::ToString => {
                let arg = pick(self.u, &[Type::Number, Type::Bool, Type::String]);
                self.call("tostring", &[arg], d)
            }
            Prod::Case => {
                let name = pick(self.u, &["upper", "lower"]);
                if self.swarm.on(C::CallExpansion) && chance(self.u, 15) {
                    self.call_expanded(name, &[], &Type::Tuple(vec![Type::String]), d)
                } else {
                    self.call(name, &[Type::String], d)
                }
            }
            Prod::Template => {
                let was = std::mem::replace(&mut self.newline_ok, false);
                let text = self.quoted_template(d);
                self.newline_ok = was;
                Frag::atom(text)
            }
            Prod::Heredoc => Frag::atom(self.heredoc(d)),
            Prod::ToList => {
                let arg = self.sequence_like(ty);
                self.call("tolist", &[arg], d)
            }
            Prod::ToSet => {
                let arg = self.sequence_like(ty);
                self.call("toset", &[arg], d)
            }
            Prod::ToMap => {
                let arg = match ty {
                    Type::Map(e) => self.object_like(e),
                    _ => self.any_type(),
                };
                self.call("tomap", &[arg], d)
            }
            Prod::Concat => {
                let n = self.u.int_in_range(1..=3).unwrap_or(1);
                let args: Vec<Type> = (0..n).map(|_| self.sequence_like(ty)).collect();
                if self.swarm.on(C::CallExpansion) && chance(self.u, 20) {
                    let last = Type::Tuple(vec![self.sequence_like(ty)]);
                    self.call_expanded("concat", &args[..n - 1], &last, d)
                } else {
                    self.call("concat", &args, d)
                }
            }
            Prod::TupleCons => self.tuple_cons(ty, d),
            Prod::ObjectCons => self.object_cons(ty, d),
            Prod::ForTuple => self.for_expr(ty, false, d),
            Prod::ForObject => self.for_expr(ty, true, d),
            Prod::Splat => self.splat(ty, d),
            Prod::TfCall => self.tf_call(ty, d),
        }
    }

    /// A call of a Terraform function whose result suits `ty` (or, when
    /// none does, of any), sometimes through `core::`, sometimes with its
    /// last argument expanded.
    fn tf_call(&mut self, ty: &Type, d: u32) -> Frag {
        let fitting: Vec<&Sig> = TERRAFORM_FUNCTIONS
            .iter()
            .filter(|s| returns(s.ret, ty))
            .collect();
        let sig = if fitting.is_empty() || chance(self.u, 5) {
            &TERRAFORM_FUNCTIONS[self.u.choose_index(TERRAFORM_FUNCTIONS.len()).unwrap_or(0)]
        } else {
            fitting[self.u.choose_index(fitting.len()).unwrap_or(0)]
        };
        let mut args: Vec<Type> = sig.args.iter().map(|a| self.arg_type(*a, ty)).collect();
        if let Some(more) = sig.more {
            let n = self.u.int_in_range(0..=2).unwrap_or(0);
            for _ in 0..n {
                let t = self.arg_type(more, ty);
                args.push(t);
            }
        }
        let name = if chance(self.u, 15) {
            format!("core::{}", sig.name)
        } else {
            sig.name.to_string()
        };
        let mut texts: Vec<String> = self.nested(|g| {
            sig.args
                .iter()
                .chain(std::iter::repeat(&sig.more.unwrap_or(Arg::Any)))
                .zip(&args)
                .map(|(a, t)| g.arg_text(*a, t, d))
                .collect()
        });
        if sig.more.is_some()
            && !texts.is_empty()
            && self.swarm.on(C::CallExpansion)
            && chance(self.u, 15)
        {
            let last = texts.pop().unwrap_or_default();
            texts.push(format!("[{last}]..."));
        }
        Frag::atom(format!("{name}({})", texts.join(", ")))
    }

    /// The type of an argument of kind `a` in a call wanted as `want`.
    fn arg_type(&mut self, a: Arg, want: &Type) -> Type {
        match a {
            Arg::Str | Arg::JsonText => Type::String,
            Arg::Num | Arg::Small => Type::Number,
            Arg::Bool => Type::Bool,
            Arg::ListStr => Type::list(Type::String),
            Arg::ListNum => Type::list(Type::Number),
            Arg::SetStr => Type::set(Type::String),
            Arg::MapStr => Type::map(Type::String),
            Arg::Want => want.clone(),
            Arg::ListOfWant => {
                if chance(self.u, 50) {
                    Type::list(want.clone())
                } else {
                    Type::Tuple(vec![want.clone(); self.u.int_in_range(1..=2).unwrap_or(1)])
                }
            }
            Arg::MapOfWant => Type::map(want.clone()),
            Arg::Any => self.any_type(),
        }
    }

    /// An argument's text: small literals where a count or a JSON
    /// document is wanted, else an expression of its type.
    fn arg_text(&mut self, a: Arg, ty: &Type, d: u32) -> String {
        match a {
            Arg::Small if chance(self.u, 60) => {
                pick(self.u, &["0", "1", "2", "3", "-1", "10"]).to_string()
            }
            Arg::JsonText if chance(self.u, 70) => quote(pick(self.u, JSON_TEXTS)),
            _ => self.expr(ty, d).text,
        }
    }

    /// A leaf of type `ty`: a reference of that type, a literal, a null,
    /// or (for the ill-typed share) a reference that fails.
    pub(crate) fn leaf(&mut self, ty: &Type) -> Frag {
        if self.swarm.ill_typed_pct > 0 && chance(self.u, self.swarm.ill_typed_pct / 2) {
            return Frag::atom(pick(self.u, BAD_REFS).to_string());
        }
        let refs = self.refs_of(ty);
        if !refs.is_empty() && chance(self.u, 60) {
            let i = self.u.choose_index(refs.len()).unwrap_or(0);
            return Frag::atom(refs[i].clone());
        }
        if self.swarm.on(C::Nulls) && chance(self.u, 4) {
            return Frag::literal("null".into());
        }
        self.literal(ty, 3)
    }

    /// The texts of references (scope variables not shadowed by a `for`
    /// binding, and the bindings themselves) whose type is `ty`.
    fn refs_of(&self, ty: &Type) -> Vec<String> {
        let mut out = Vec::new();
        for (i, (name, t)) in self.locals.iter().enumerate() {
            let shadowed = self.locals[i + 1..].iter().any(|(n, _)| n == name);
            if shadowed {
                continue;
            }
            if t == ty {
                out.push(name.clone());
            }
            if let Type::Object(attrs) = t {
                for (k, at) in attrs {
                    if at == ty && is_identifier(k) {
                        out.push(format!("{name}.{k}"));
                    }
                }
            }
        }
        for r in self.refs {
            if &r.ty == ty && !self.locals.iter().any(|(n, _)| n == root_name(&r.text)) {
                out.push(r.text.clone());
            }
        }
        out
    }

    /// A literal (or constructor of literals) of type `ty`.
    fn literal(&mut self, ty: &Type, depth: u32) -> Frag {
        let depth = depth.saturating_sub(1);
        match ty {
            Type::Number => Frag::literal(number_text(self.u, self.swarm).to_string()),
            Type::String => Frag::atom(quote(string_text(self.u, self.swarm))),
            Type::Bool => Frag::literal(pick(self.u, &["true", "false"]).to_string()),
            Type::Dynamic | Type::Optional(_) => Frag::literal("null".into()),
            _ if depth == 0 => Frag::literal("null".into()),
            Type::List(e) | Type::Set(e) => {
                let n = self.u.int_in_range(0..=2).unwrap_or(0);
                let items: Vec<String> = (0..n).map(|_| self.literal(e, depth).text).collect();
                let tuple = format!("[{}]", items.join(", "));
                let conv = if ty.is_list() { "tolist" } else { "toset" };
                if self.has_fn(conv) && chance(self.u, 60) {
                    Frag::atom(format!("{conv}({tuple})"))
                } else {
                    Frag::atom(tuple)
                }
            }
            Type::Map(e) => {
                let n = self.u.int_in_range(0..=2).unwrap_or(0);
                let items: Vec<String> = (0..n)
                    .map(|_| {
                        let k = quote(pick(self.u, MAP_KEYS));
                        format!("{k} = {}", self.literal(e, depth).text)
                    })
                    .collect();
                let obj = format!("{{{}}}", items.join(", "));
                if self.has_fn("tomap") && chance(self.u, 60) {
                    Frag::atom(format!("tomap({obj})"))
                } else {
                    Frag::atom(obj)
                }
            }
            Type::Tuple(elems) => {
                let items: Vec<String> =
                    elems.iter().map(|t| self.literal(t, depth).text).collect();
                Frag::atom(format!("[{}]", items.join(", ")))
            }
            Type::Object(attrs) => {
                let items: Vec<String> = attrs
                    .iter()
                    .map(|(k, t)| format!("{} = {}", object_key(k), self.literal(t, depth).text))
                    .collect();
                Frag::atom(format!("{{{}}}", items.join(", ")))
            }
        }
    }

    /// Runs `f` where line breaks are allowed again (inside brackets).
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let was = std::mem::replace(&mut self.newline_ok, true);
        let out = f(self);
        self.newline_ok = was;
        out
    }

    /// A token separator.
    fn ws(&mut self) -> &'static str {
        if !self.swarm.on(C::Noise) {
            return pick(self.u, WS_PLAIN);
        }
        if self.newline_ok {
            pick(self.u, WS_NOISE)
        } else {
            pick(self.u, WS_NOISE_ONE_LINE)
        }
    }

    /// An opener and closer, with strip markers when the swarm allows.
    pub(crate) fn strip_markers(&mut self, open: &str, close: &str) -> (String, String) {
        let strip = self.swarm.on(C::StripMarkers);
        let left = if strip && chance(self.u, 30) {
            "~ "
        } else {
            ""
        };
        let right = if strip && chance(self.u, 30) {
            " ~"
        } else {
            ""
        };
        (format!("{open}{left}"), format!("{right}{close}"))
    }

    fn identifier(&mut self) -> &'static str {
        loop {
            let name = pick(self.u, ATTR_NAMES);
            if is_identifier(name) {
                return name;
            }
        }
    }

    fn binary(&mut self, op: &str, prec: u8, lhs: &Type, rhs: &Type, d: u32) -> Frag {
        // Left-associative: the right operand must bind tighter.
        let l = self.expr(lhs, d).at_least(prec);
        let r = self.expr(rhs, d).at_least(prec + 1);
        let (w1, w2) = (self.ws(), self.ws());
        Frag::op(format!("{l}{w1}{op}{w2}{r}"), prec)
    }

    fn unary(&mut self, op: &str, operand: &Type, d: u32) -> Frag {
        let inner = self.expr(operand, d).at_least(PREC_UNARY);
        let sep = if inner.starts_with(['-', '!']) {
            " "
        } else {
            ""
        };
        Frag::op(format!("{op}{sep}{inner}"), PREC_UNARY)
    }

    fn conditional(&mut self, ty: &Type, d: u32) -> Frag {
        let c = self.expr(&Type::Bool, d).at_least(PREC_OR);
        let other = if chance(self.u, 15) {
            self.any_type()
        } else {
            ty.clone()
        };
        let a = self.expr(ty, d).text;
        let b = self.expr(&other, d).text;
        let (w1, w2, w3, w4) = (self.ws(), self.ws(), self.ws(), self.ws());
        Frag::op(format!("{c}{w1}?{w2}{a}{w3}:{w4}{b}"), PREC_COND)
    }

    fn call(&mut self, name: &str, args: &[Type], d: u32) -> Frag {
        let texts: Vec<String> = self.nested(|g| args.iter().map(|t| g.expr(t, d).text).collect());
        let trailing = if !texts.is_empty() && chance(self.u, 5) {
            ","
        } else {
            ""
        };
        Frag::atom(format!("{name}({}{trailing})", texts.join(", ")))
    }

    /// `name(args..., last...)`: the last argument's elements become
    /// arguments.
    fn call_expanded(&mut self, name: &str, args: &[Type], last: &Type, d: u32) -> Frag {
        let mut texts: Vec<String> =
            self.nested(|g| args.iter().map(|t| g.expr(t, d).text).collect());
        let last = self.nested(|g| g.expr(last, d).text);
        texts.push(format!("{last}..."));
        Frag::atom(format!("{name}({})", texts.join(", ")))
    }

    /// A tuple, list or set type whose elements suit `ty`'s.
    fn sequence_like(&mut self, ty: &Type) -> Type {
        let elem = match ty {
            Type::List(e) | Type::Set(e) | Type::Map(e) => (**e).clone(),
            Type::Tuple(es) if !es.is_empty() => es[0].clone(),
            _ => self.any_type(),
        };
        match self.u.int_in_range(0..=2).unwrap_or(0) {
            0 => Type::Tuple(vec![elem; self.u.int_in_range(0..=2).unwrap_or(0)]),
            1 => Type::list(elem),
            _ => Type::set(elem),
        }
    }

    /// An object or map type whose attributes have type `elem`.
    fn object_like(&mut self, elem: &Type) -> Type {
        if chance(self.u, 30) {
            return Type::map(elem.clone());
        }
        let n = self.u.int_in_range(0..=2).unwrap_or(0);
        Type::object((0..n).map(|_| (pick(self.u, MAP_KEYS), elem.clone())))
    }

    /// `[a, b, c][i]` or `[a, b, c].i`, where element `i` has type `ty`.
    fn tuple_index(&mut self, ty: &Type, d: u32) -> Frag {
        let n = self.u.int_in_range(1..=3).unwrap_or(1);
        let at = self.u.choose_index(n).unwrap_or(0);
        let items: Vec<String> = self.nested(|g| {
            (0..n)
                .map(|i| {
                    let t = if i == at { ty.clone() } else { g.any_type() };
                    g.expr(&t, d).text
                })
                .collect()
        });
        let step = if self.swarm.on(C::LegacyIndex) && chance(self.u, 30) {
            format!(".{at}")
        } else {
            format!("[{at}]")
        };
        Frag::atom(format!("[{}]{step}", items.join(", ")))
    }

    /// `collection[key]` with a key that is an expression, not a literal:
    /// an `IndexExpr` rather than a traversal step.
    fn dyn_index(&mut self, ty: &Type, d: u32) -> Frag {
        let mut choices: Vec<(String, Type, Option<String>)> = Vec::new();
        for r in self.refs {
            if self.locals.iter().any(|(n, _)| n == root_name(&r.text)) {
                continue;
            }
            match &r.ty {
                Type::List(e) | Type::Map(e) if **e == *ty => {
                    choices.push((r.text.clone(), r.ty.clone(), None));
                }
                Type::Tuple(es) => {
                    if let Some(i) = es.iter().position(|t| t == ty) {
                        choices.push((r.text.clone(), r.ty.clone(), Some(i.to_string())));
                    }
                }
                Type::Object(attrs) => {
                    if let Some((k, _)) = attrs.iter().find(|(_, t)| *t == ty) {
                        choices.push((r.text.clone(), r.ty.clone(), Some(quote(k))));
                    }
                }
                _ => {}
            }
        }
        if choices.is_empty() {
            let inner = self.nested(|g| g.expr(ty, d));
            let key = self.key_expr("0", &Type::Number, d);
            return Frag::atom(format!("[{}][{key}]", inner.text));
        }
        let (text, coll, known) = choices[self.u.choose_index(choices.len()).unwrap_or(0)].clone();
        let (literal, key_ty) = match (&coll, known) {
            (_, Some(k)) => {
                let kt = if k.starts_with('"') {
                    Type::String
                } else {
                    Type::Number
                };
                (k, kt)
            }
            (Type::Map(_), None) => (quote(pick(self.u, MAP_KEYS)), Type::String),
            _ => (pick(self.u, &["0", "1"]).to_string(), Type::Number),
        };
        let key = self.key_expr(&literal, &key_ty, d);
        Frag::atom(format!("{text}[{key}]"))
    }

    /// A key expression that usually evaluates to `literal`, in a form the
    /// parser does not fold into a traversal step.
    fn key_expr(&mut self, literal: &str, ty: &Type, d: u32) -> String {
        match self.u.int_in_range(0..=4).unwrap_or(0) {
            0 => format!("({literal})"),
            1 if *ty == Type::Number => format!("{literal} + 0"),
            2 if *ty == Type::Number => format!("\"{literal}\""),
            3 if *ty == Type::String => format!("\"${{{literal}}}\""),
            4 => self.nested(|g| g.expr(ty, d).text),
            _ => format!("({literal})"),
        }
    }

    fn tuple_cons(&mut self, ty: &Type, d: u32) -> Frag {
        let elems: Vec<Type> = match ty {
            Type::Tuple(es) => es.clone(),
            Type::List(e) | Type::Set(e) | Type::Map(e) => {
                vec![(**e).clone(); self.u.int_in_range(0..=3).unwrap_or(0)]
            }
            _ => vec![],
        };
        let items: Vec<String> = self.nested(|g| elems.iter().map(|t| g.expr(t, d).text).collect());
        let trailing = if !items.is_empty() && chance(self.u, 15) {
            ","
        } else {
            ""
        };
        let sep = if self.swarm.on(C::Noise) && chance(self.u, 20) {
            ",\n"
        } else {
            ", "
        };
        Frag::atom(format!("[{}{trailing}]", items.join(sep)))
    }

    fn object_cons(&mut self, ty: &Type, d: u32) -> Frag {
        let attrs: Vec<(String, Type)> = match ty {
            Type::Object(attrs) => attrs.iter().map(|(k, t)| (k.clone(), t.clone())).collect(),
            Type::Map(e) => (0..self.u.int_in_range(0..=3).unwrap_or(0))
                .map(|_| (pick(self.u, MAP_KEYS).to_string(), (**e).clone()))
                .collect(),
            _ => vec![],
        };
        let was = std::mem::replace(&mut self.newline_ok, false);
        let mut items = Vec::new();
        for (k, t) in &attrs {
            let key = self.key_form(k, d);
            let eq = if chance(self.u, 15) { ":" } else { "=" };
            let value = self.expr(t, d).text;
            items.push(format!("{key} {eq} {value}"));
        }
        self.newline_ok = was;
        let newline_items = chance(self.u, 25);
        let body = if newline_items && !items.is_empty() {
            format!("\n{}\n", items.join("\n"))
        } else {
            let trailing = if !items.is_empty() && chance(self.u, 10) {
                ","
            } else {
                ""
            };
            format!("{}{trailing}", items.join(", "))
        };
        Frag::atom(format!("{{{body}}}"))
    }

    /// An object constructor key for `name`: bare, quoted, parenthesized
    /// or computed by a template.
    fn key_form(&mut self, name: &str, d: u32) -> String {
        match self.u.int_in_range(0..=5).unwrap_or(0) {
            0..=2 if is_identifier(name) => name.to_string(),
            4 => format!("({})", quote(name)),
            5 if d > 0 => {
                let inner = self.nested(|g| g.expr(&Type::String, d - 1).text);
                format!("({inner})")
            }
            _ => quote(name),
        }
    }

    /// `[for k, v in coll : body if cond]` or
    /// `{for k, v in coll : key => value... if cond}`.
    fn for_expr(&mut self, ty: &Type, object: bool, d: u32) -> Frag {
        let coll_ty = self.iterable_type();
        let (kt, vt) = binding_types(&coll_ty);
        let coll = self.nested(|g| g.expr(&coll_ty, d).text);
        let two = chance(self.u, 50);
        let kname = pick(self.u, KEY_NAMES).to_string();
        let vname = pick(self.u, VALUE_NAMES).to_string();
        let head = if two {
            format!("{kname}, {vname}")
        } else {
            vname.clone()
        };
        let pushed = if two { 2 } else { 1 };
        if two {
            self.locals.push((kname, kt));
        }
        self.locals.push((vname, vt.clone()));
        let cond = if self.swarm.on(C::ForCondition) && chance(self.u, 30) {
            let c = self.nested(|g| g.expr(&Type::Bool, d).text);
            format!(" if {c}")
        } else {
            String::new()
        };
        let body_ty = match ty {
            Type::List(e) | Type::Set(e) | Type::Map(e) => (**e).clone(),
            Type::Tuple(es) if !es.is_empty() => es[0].clone(),
            Type::Object(attrs) if !attrs.is_empty() => attrs.values().next().cloned().unwrap(),
            _ if chance(self.u, 50) => vt,
            _ => self.any_type(),
        };
        let text = self.nested(|g| {
            let value = g.expr(&body_ty, d).text;
            if object {
                let key = g.expr(&Type::String, d).text;
                let group = if g.swarm.on(C::ForGroup) && chance(g.u, 30) {
                    "..."
                } else {
                    ""
                };
                format!("{{for {head} in {coll} : {key} => {value}{group}{cond}}}")
            } else {
                format!("[for {head} in {coll} : {value}{cond}]")
            }
        });
        for _ in 0..pushed {
            self.locals.pop();
        }
        Frag::atom(text)
    }

    /// A type to iterate over: a variable's collection type when one
    /// exists, else a fresh collection or structural type.
    pub(crate) fn iterable_type(&mut self) -> Type {
        let iterable: Vec<&Ref> = self.refs.iter().filter(|r| r.ty.is_iterable()).collect();
        if !iterable.is_empty() && chance(self.u, 60) {
            let i = self.u.choose_index(iterable.len()).unwrap_or(0);
            return iterable[i].ty.clone();
        }
        match self.u.int_in_range(0..=5).unwrap_or(0) {
            0 => Type::list(Type::String),
            1 => Type::map(Type::Number),
            2 => Type::Tuple(vec![Type::Number, Type::String]),
            3 => Type::set(Type::String),
            4 => Type::object([("a", Type::Number), ("b", Type::Bool)]),
            _ => Type::list(Type::object([("id", Type::String), ("n", Type::Number)])),
        }
    }

    /// `src[*].a.b`, `src[*][0]` or the legacy `src.*.a`.
    fn splat(&mut self, ty: &Type, d: u32) -> Frag {
        let with_objects: Vec<&Ref> = self
            .refs
            .iter()
            .filter(|r| matches!(&r.ty, Type::List(e) | Type::Set(e) if e.is_object()))
            .filter(|r| !self.locals.iter().any(|(n, _)| n == root_name(&r.text)))
            .collect();
        let (src, elem) = if !with_objects.is_empty() && chance(self.u, 60) {
            let r = with_objects[self.u.choose_index(with_objects.len()).unwrap_or(0)];
            (
                r.text.clone(),
                r.ty.element_type().cloned().unwrap_or(Type::Dynamic),
            )
        } else {
            let elem = match ty {
                Type::List(e) => Type::object([("a", (**e).clone())]),
                _ => Type::object([("a", Type::String)]),
            };
            let src_ty = if chance(self.u, 80) {
                Type::list(elem.clone())
            } else {
                elem.clone()
            };
            let src = self.nested(|g| g.expr(&src_ty, d)).for_postfix();
            (src, elem)
        };
        let legacy =
            self.swarm.on(C::LegacySplat) && (!self.swarm.on(C::Splat) || chance(self.u, 40));
        let mut text = if legacy {
            format!("{src}.*")
        } else {
            format!("{src}[*]")
        };
        let mut cur = elem;
        let steps = self.u.int_in_range(0..=2).unwrap_or(0);
        for _ in 0..steps {
            match &cur {
                Type::Object(attrs) if !attrs.is_empty() => {
                    let i = self.u.choose_index(attrs.len()).unwrap_or(0);
                    let (k, t) = attrs.iter().nth(i).expect("index in range");
                    if is_identifier(k) {
                        text.push('.');
                        text.push_str(k);
                    } else if legacy {
                        break;
                    } else {
                        text.push_str(&format!("[{}]", quote(k)));
                    }
                    cur = t.clone();
                }
                Type::List(e) if !legacy => {
                    text.push_str("[0]");
                    cur = (**e).clone();
                }
                _ => break,
            }
        }
        Frag::atom(text)
    }
}

/// The types `for k, v in coll` binds, as cty iterates `coll`.
pub(crate) fn binding_types(coll: &Type) -> (Type, Type) {
    match coll {
        Type::List(e) => (Type::Number, (**e).clone()),
        Type::Set(e) => ((**e).clone(), (**e).clone()),
        Type::Map(e) => (Type::String, (**e).clone()),
        Type::Tuple(es) => (
            Type::Number,
            match es.first() {
                Some(t) if es.iter().all(|x| x == t) => t.clone(),
                _ => Type::Dynamic,
            },
        ),
        Type::Object(attrs) => (
            Type::String,
            match attrs.values().next() {
                Some(t) if attrs.values().all(|x| x == t) => t.clone(),
                _ => Type::Dynamic,
            },
        ),
        _ => (Type::Dynamic, Type::Dynamic),
    }
}

/// The variable a reference starts from.
pub(crate) fn root_name(text: &str) -> &str {
    let end = text.find(['.', '[']).unwrap_or(text.len());
    &text[..end]
}

/// A bare object key when the name allows it, else a quoted one.
fn object_key(name: &str) -> String {
    if is_identifier(name) {
        name.to_string()
    } else {
        quote(name)
    }
}
