//! The variables an expression refers to: the roots of its scope
//! traversals that no `for` expression binds, as `hcl.Expression.Variables`
//! reports them.
//!
//! Tools that embed an expression somewhere else need this: Terraform, for
//! one, only accepts references rooted at `var`, `local` and a few other
//! names, so running a case through Terraform means renaming each of these
//! roots in the source text. The walk is `hclsyntax.Variables`'s (see
//! [`root_traversals`]): iteration variables are bound inside a `for`'s
//! key, value and condition but not in its collection; a splat's element
//! placeholder is no traversal; and an object key written as a bare name
//! is a literal, not a reference.
//!
//! One Terraform rule goes beyond HCL: the second argument of `convert` is a
//! type constraint (`convert(x, list(string))`), whose names are keywords,
//! not references, so it is not walked, in the profiles that have `convert`
//! (Terraform 1.15; before, it is an unknown function like any other, and
//! `string` there a reference).

use crate::ast::{Expr, ExprKind, Traverser};
use crate::error::{Pos, Span};
use crate::functions::root_traversals;
use crate::goquote::go_quote;
use crate::types::Type;
use crate::value::Value;

/// Functions whose second argument is a type constraint, not a value.
pub const TYPE_ARGUMENT_FUNCTIONS: &[&str] = &["convert", "core::convert"];

/// One reference to a variable of the scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootReference {
    /// The variable's name.
    pub name: String,
    /// Where the name is written: the first bytes of the traversal.
    pub span: Span,
}

/// The functions of the [current](crate::profile::current) profile whose
/// second argument is a type constraint: none before Terraform 1.15.
pub fn type_argument_functions() -> &'static [&'static str] {
    let has_convert = crate::profile::current()
        .terraform()
        .is_some_and(|v| crate::profile::function_since("convert").is_none_or(|since| since <= v));
    if has_convert {
        TYPE_ARGUMENT_FUNCTIONS
    } else {
        &[]
    }
}

/// The references of `expr` to variables of its scope, in source order,
/// under the [current](crate::profile::current) profile.
pub fn root_references(expr: &Expr) -> Vec<RootReference> {
    let mut found: Vec<RootReference> = root_traversals(expr, type_argument_functions())
        .into_iter()
        .filter_map(|e| match &e.kind {
            ExprKind::ScopeTraversal { root, .. } => Some(RootReference {
                name: root.clone(),
                span: name_span(e.span, root),
            }),
            _ => None,
        })
        .collect();
    found.sort_by_key(|r| r.span.start.byte);
    found
}

/// The range of the root name at the start of a traversal's range. Names
/// are identifiers, whose characters are each one column wide.
fn name_span(traversal: Span, root: &str) -> Span {
    let start = traversal.start;
    let end = Pos {
        line: start.line,
        column: start.column + root.chars().count(),
        byte: start.byte + root.len(),
    };
    Span::new(start, end)
}

/// `hclsyntax.Variables`: every traversal of `expr` rooted at a variable
/// of the scope (none of its own iteration variables), written out as
/// [`traversal_text`] does, as a set of strings. Unlike
/// [`root_references`], no function argument is left out: HCL does not
/// know which arguments are types.
pub fn variables(expr: &Expr) -> Value {
    let found = root_traversals(expr, &[])
        .into_iter()
        .filter_map(traversal_text)
        .map(Value::String)
        .collect();
    Value::set(Type::String, found)
}

/// A scope traversal written out: its root name, then `.NAME` for each
/// attribute step and `[KEY]` for each index step, where a number key is
/// its decimal text (`big.Float.Text('f', -1)`: `0`, `1.5`), a string key
/// is quoted as Go's `strconv.Quote` does, and `true`, `false` and `null`
/// are themselves. `None` for any other expression.
pub fn traversal_text(expr: &Expr) -> Option<String> {
    let ExprKind::ScopeTraversal { root, steps } = &expr.kind else {
        return None;
    };
    Some(steps_text(root, steps))
}

/// A traversal from its root name and steps, written as [`traversal_text`]
/// says.
pub fn steps_text(root: &str, steps: &[Traverser]) -> String {
    let mut out = root.to_string();
    for step in steps {
        match step {
            Traverser::Attr { name, .. } => {
                out.push('.');
                out.push_str(name);
            }
            Traverser::Index { key, .. } => {
                out.push('[');
                out.push_str(&match key {
                    Value::Number(n) => n.text(),
                    Value::String(s) => go_quote(s),
                    Value::Bool(b) => b.to_string(),
                    Value::Null(_) => "null".to_string(),
                    other => unreachable!("a literal index key is never {other:?}"),
                });
                out.push(']');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::{parse_expression, parse_template};

    type Parse = fn(&str) -> Result<Expr, crate::Error>;

    /// Each source's references as (name, byte offset).
    fn check(parse: Parse, table: &[(&str, &[(&str, usize)])]) {
        for (source, want) in table {
            let found: Vec<(String, usize)> = root_references(&parse(source).unwrap())
                .into_iter()
                .map(|r| (r.name, r.span.start.byte))
                .collect();
            let want: Vec<(String, usize)> =
                want.iter().map(|(n, o)| (n.to_string(), *o)).collect();
            assert_eq!(found, want, "{source}");
        }
    }

    #[test]
    fn expression_table() {
        let table: &[(&str, &[(&str, usize)])] = &[
            ("1 + 2", &[]),
            ("a", &[("a", 0)]),
            ("a.b[0] + c[d]", &[("a", 0), ("c", 9), ("d", 11)]),
            ("f(x, y...)", &[("x", 2), ("y", 5)]),
            ("[for v in l : v + w]", &[("l", 10), ("w", 18)]),
            (
                "{for k, v in m : k => v if k != z}",
                &[("m", 13), ("z", 32)],
            ),
            ("[for v in v : v]", &[("v", 10)]),
            (
                "[for a in l : [for b in a : a + b + c]]",
                &[("l", 10), ("c", 36)],
            ),
            ("l[*].id", &[("l", 0)]),
            (
                "{a = b, (c) = d, e.f = 1}",
                &[("b", 5), ("c", 9), ("d", 14), ("e", 17)],
            ),
            ("{null = x}", &[("x", 8)]),
            ("c ? t : f", &[("c", 0), ("t", 4), ("f", 8)]),
            ("!x && -y", &[("x", 1), ("y", 7)]),
            ("(a).b", &[("a", 1)]),
            ("convert(x, list(string))", &[("x", 8)]),
            ("core::convert(x, y, z)", &[("x", 14), ("z", 20)]),
        ];
        check(parse_expression, table);
    }

    #[test]
    fn before_1_15_convert_is_a_call_like_any_other() {
        use crate::profile::{with_profile, HclVersion, TerraformVersion};
        let expr = parse_expression("convert(x, list(string))").unwrap();
        let names = |version| {
            with_profile(version, || root_references(&expr))
                .into_iter()
                .map(|r| r.name)
                .collect::<Vec<_>>()
        };
        assert_eq!(names(HclVersion::V2_24), ["x"]);
        assert_eq!(
            names(HclVersion::Terraform(TerraformVersion::V1_14)),
            ["x", "string"]
        );
    }

    #[test]
    fn template_table() {
        let table: &[(&str, &[(&str, usize)])] = &[
            ("plain", &[]),
            ("${a}-${b.c}", &[("a", 2), ("b", 7)]),
            ("%{for x in xs}${x}${y}%{endfor}", &[("xs", 11), ("y", 20)]),
            ("%{if c}yes%{else}${n}%{endif}", &[("c", 5), ("n", 19)]),
        ];
        check(parse_template, table);
    }

    #[test]
    fn name_span_covers_the_name() {
        let expr = parse_expression("  résumé.x").unwrap();
        let found = root_references(&expr);
        assert_eq!(found.len(), 1);
        let span = found[0].span;
        assert_eq!((span.start.byte, span.end.byte), (2, 2 + "résumé".len()));
        assert_eq!((span.start.column, span.end.column), (3, 9));
    }
}
