//! Templates: quoted strings, heredocs and bare templates, with
//! interpolations, `if` and `for` directives and strip markers.

use hclspec_reference::Type;

use super::expr::{binding_types, ExprGen};
use super::{chance, escape_quoted, pick};
use crate::config::Construct as C;

/// Literal template text: plain words, spaces and line breaks (which strip
/// markers eat), combining characters, and the characters that start
/// template sequences.
const TEXT: &[&str] = &[
    "a",
    "hello ",
    " ",
    "\n",
    "x y",
    "é",
    "e\u{301}",
    "\t",
    "$",
    "%",
    "${",
    "%{",
    "\\",
    "\"",
    "{",
    "}",
    "~",
    "  \n  ",
    "$$",
    "%%",
    "\u{1F600}",
];

/// Where template text goes, which decides how it is escaped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Inside `"..."`: backslash escapes, no raw line breaks.
    Quoted,
    /// A heredoc body or a bare template: raw text.
    Raw,
}

/// The heredoc delimiter; no generated line is ever just this word.
const MARKER: &str = "EOT";

/// How many parts a template has at most.
const MAX_PARTS: u32 = 4;

impl ExprGen<'_, '_> {
    /// A quoted template: `"text ${expr} %{if c}...%{endif}"`.
    pub(crate) fn quoted_template(&mut self, d: u32) -> String {
        format!("\"{}\"", self.parts(Ctx::Quoted, d))
    }

    /// A heredoc in parentheses (so that anything may follow it), plain
    /// `<<EOT` or indented `<<-EOT`.
    pub(crate) fn heredoc(&mut self, d: u32) -> String {
        let body = self.parts(Ctx::Raw, d);
        let body = body.strip_suffix('\n').unwrap_or(&body).to_string();
        if chance(self.u, 50) {
            let indent = pick(self.u, &["  ", "    ", "\t", " "]);
            let lines: Vec<String> = body.split('\n').map(|l| format!("{indent}{l}")).collect();
            let close = pick(self.u, &["", "  ", " "]);
            format!("(<<-{MARKER}\n{}\n{close}{MARKER}\n)", lines.join("\n"))
        } else {
            format!("(<<{MARKER}\n{body}\n{MARKER}\n)")
        }
    }

    /// A whole bare template (a template file's contents).
    pub(crate) fn bare_template(&mut self) -> String {
        let d = self.swarm.max_depth;
        self.parts(Ctx::Raw, d)
    }

    fn parts(&mut self, ctx: Ctx, d: u32) -> String {
        let n = self.u.int_in_range(1..=MAX_PARTS).unwrap_or(1);
        let mut out = String::new();
        for _ in 0..n {
            let choice = if d == 0 || self.u.is_empty() {
                0
            } else {
                self.u.int_in_range(0..=5).unwrap_or(0)
            };
            match choice {
                1 | 2 if self.swarm.on(C::Interpolation) => {
                    let ty = self.interpolated_type();
                    let inner = self.expr(&ty, d - 1).text;
                    let (open, close) = self.strip_markers("${", "}");
                    out.push_str(&format!("{open}{inner}{close}"));
                }
                3 | 4 if self.swarm.on(C::TemplateIf) => {
                    out.push_str(&self.if_directive(ctx, d - 1))
                }
                5 if self.swarm.on(C::TemplateFor) => out.push_str(&self.for_directive(ctx, d - 1)),
                _ => {
                    let text = pick(self.u, TEXT);
                    out.push_str(&escape(text, ctx));
                }
            }
        }
        out
    }

    /// Mostly the primitive types an interpolation converts to a string.
    fn interpolated_type(&mut self) -> Type {
        match self.u.int_in_range(0..=5).unwrap_or(0) {
            0 | 1 => Type::String,
            2 => Type::Number,
            3 => Type::Bool,
            _ => self.any_type(),
        }
    }

    fn if_directive(&mut self, ctx: Ctx, d: u32) -> String {
        let cond = self.expr(&Type::Bool, d).text;
        let (o1, c1) = self.strip_markers("%{", "}");
        let then = self.parts(ctx, d);
        let otherwise = if chance(self.u, 50) {
            let (o2, c2) = self.strip_markers("%{", "}");
            let body = self.parts(ctx, d);
            format!("{o2}else{c2}{body}")
        } else {
            String::new()
        };
        let (o3, c3) = self.strip_markers("%{", "}");
        format!("{o1}if {cond}{c1}{then}{otherwise}{o3}endif{c3}")
    }

    fn for_directive(&mut self, ctx: Ctx, d: u32) -> String {
        let coll_ty = self.iterable_type();
        let (kt, vt) = binding_types(&coll_ty);
        let coll = self.expr(&coll_ty, d).text;
        let two = chance(self.u, 40);
        let vname = pick(self.u, &["v", "x", "each"]).to_string();
        let head = if two {
            self.locals.push(("k".to_string(), kt));
            format!("k, {vname}")
        } else {
            vname.clone()
        };
        self.locals.push((vname, vt));
        let (o1, c1) = self.strip_markers("%{", "}");
        let body = self.parts(ctx, d);
        let (o2, c2) = self.strip_markers("%{", "}");
        self.locals.pop();
        if two {
            self.locals.pop();
        }
        format!("{o1}for {head} in {coll}{c1}{body}{o2}endfor{c2}")
    }
}

fn escape(text: &str, ctx: Ctx) -> String {
    match ctx {
        Ctx::Quoted => escape_quoted(text),
        Ctx::Raw => text.replace("${", "$${").replace("%{", "%%{"),
    }
}
