//! Parser tests. Every expected tree, error summary, detail and range here
//! was checked against `hclsyntax` (HCL 2.14.1).

use super::*;
use crate::ast::{BinaryOp, ExprKind, Traverser, UnaryOp};
use crate::error::Span;
use crate::value::Value;

use Source::{Expression, Template};

#[derive(Clone, Copy, Debug)]
enum Source {
    Expression,
    Template,
}

fn parse(kind: Source, source: &str) -> Result<Expr, Error> {
    match kind {
        Expression => parse_expression(source),
        Template => parse_template(source),
    }
}

/// A compact rendering of a tree, without ranges: numbers show as `num`,
/// strings quoted, `*` is the splat element, `(item! ...)` a parenthesized
/// object key.
fn compact(expr: &Expr) -> String {
    let list = |head: &str, items: &[Expr]| {
        let mut out = format!("({head}");
        for item in items {
            out.push(' ');
            out.push_str(&compact(item));
        }
        out.push(')');
        out
    };
    match &expr.kind {
        ExprKind::Literal(value) => compact_value(value),
        ExprKind::Parentheses(inner) => format!("(paren {})", compact(inner)),
        ExprKind::ScopeTraversal { root, steps } => {
            format!("(scope {root}{})", compact_steps(steps))
        }
        ExprKind::RelativeTraversal { source, steps } => {
            format!("(rel {}{})", compact(source), compact_steps(steps))
        }
        ExprKind::Index { collection, key } => {
            format!("(index {} {})", compact(collection), compact(key))
        }
        ExprKind::FunctionCall {
            name,
            args,
            expand_final,
            ..
        } => list(
            &format!("call {name}{}", if *expand_final { "..." } else { "" }),
            args,
        ),
        ExprKind::Conditional {
            condition,
            true_result,
            false_result,
        } => format!(
            "(? {} {} {})",
            compact(condition),
            compact(true_result),
            compact(false_result)
        ),
        ExprKind::Unary { op, operand } => {
            let op = if *op == UnaryOp::Negate { "neg" } else { "not" };
            format!("({op} {})", compact(operand))
        }
        ExprKind::Binary { op, lhs, rhs } => {
            format!("({} {} {})", binary_symbol(*op), compact(lhs), compact(rhs))
        }
        ExprKind::TupleCons(items) => list("tuple", items),
        ExprKind::ObjectCons(items) => {
            let mut out = String::from("(object");
            for item in items {
                let tag = if item.key.force_non_literal {
                    "item!"
                } else {
                    "item"
                };
                out.push_str(&format!(
                    " ({tag} {} {})",
                    compact(&item.key.expr),
                    compact(&item.value)
                ));
            }
            out.push(')');
            out
        }
        ExprKind::For(f) => {
            let mut out = format!(
                "(for {} {} {}",
                f.key_var.as_deref().unwrap_or("_"),
                f.value_var,
                compact(&f.collection)
            );
            if let Some(key) = &f.key {
                out.push_str(&format!(" {} =>", compact(key)));
            }
            out.push_str(&format!(" {}", compact(&f.value)));
            if f.group {
                out.push_str(" ...");
            }
            if let Some(condition) = &f.condition {
                out.push_str(&format!(" if {}", compact(condition)));
            }
            out.push(')');
            out
        }
        ExprKind::Splat { source, each } => {
            format!("(splat {} {})", compact(source), compact(each))
        }
        ExprKind::AnonSymbol => "*".to_string(),
        ExprKind::Template(parts) => list("tmpl", parts),
        ExprKind::TemplateJoin(inner) => format!("(join {})", compact(inner)),
        ExprKind::TemplateWrap(inner) => format!("(wrap {})", compact(inner)),
    }
}

fn compact_value(value: &Value) -> String {
    match value {
        Value::Null(_) => "null".to_string(),
        Value::Number(_) => "num".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => {
            let escaped = s
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', "\\n")
                .replace('\r', "\\r")
                .replace('\t', "\\t");
            format!("\"{escaped}\"")
        }
        other => format!("{other:?}"),
    }
}

fn compact_steps(steps: &[Traverser]) -> String {
    steps
        .iter()
        .map(|step| match step {
            Traverser::Attr { name, .. } => format!(" .{name}"),
            Traverser::Index { key, .. } => format!(" [{}]", compact_value(key)),
        })
        .collect()
}

fn binary_symbol(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Or => "||",
        BinaryOp::And => "&&",
        BinaryOp::Equal => "==",
        BinaryOp::NotEqual => "!=",
        BinaryOp::GreaterThan => ">",
        BinaryOp::GreaterThanOrEqual => ">=",
        BinaryOp::LessThan => "<",
        BinaryOp::LessThanOrEqual => "<=",
        BinaryOp::Add => "+",
        BinaryOp::Subtract => "-",
        BinaryOp::Multiply => "*",
        BinaryOp::Divide => "/",
        BinaryOp::Modulo => "%",
    }
}

/// Source, and either the tree (`Ok`) or the first diagnostic's summary.
#[rustfmt::skip]
const TABLE: &[(Source, &str, Result<&str, &str>)] = &[
    (Expression, "42", Ok("num")),
    (Expression, "1.5e3", Ok("num")),
    (Expression, "1.e5", Ok("num")),
    (Expression, "1.", Err("Invalid attribute name")),
    (Expression, ".5", Err("Invalid expression")),
    (Expression, "0x10", Err("Extra characters after expression")),
    (Expression, "1..2", Err("Invalid number literal")),
    (Expression, "1e5e5", Err("Invalid number literal")),
    (Expression, "true", Ok("true")),
    (Expression, "null", Ok("null")),
    (Expression, "foo-bar", Ok("(scope foo-bar)")),
    (Expression, "\u{e9}_1", Ok("(scope \u{e9}_1)")),
    (Expression, "\"hello\"", Ok("(tmpl \"hello\")")),
    (Expression, "\"\"", Ok("(tmpl \"\")")),
    (Expression, "\"a\\nb\\t\\\"\\\\\"", Ok("(tmpl \"a\\nb\\t\\\"\\\\\")")),
    (Expression, "\"\\u00e9\\U0001F600\"", Ok("(tmpl \"\u{e9}\u{1f600}\")")),
    (Expression, "\"\\q\"", Err("Invalid escape sequence")),
    (Expression, "\"\\u12\"", Err("Invalid escape sequence")),
    (Expression, "\"\\uD800\"", Err("Invalid escape sequence")),
    (Expression, "\"$${x} %%{y} $x %\"", Ok("(tmpl \"${\" \"x} \" \"%{\" \"y} \" \"$\" \"x \" \"%\")")),
    (Expression, "\"e\u{301}\"", Ok("(tmpl \"\u{e9}\")")),
    (Expression, "\"a\nb\"", Err("Invalid multi-line string")),
    (Expression, "\"abc", Err("Unterminated template string")),
    (Expression, "\"${x}\"", Ok("(wrap (scope x))")),
    (Expression, "\"a${x}b\"", Ok("(tmpl \"a\" (scope x) \"b\")")),
    (Expression, "\"${x}${y}\"", Ok("(tmpl (scope x) (scope y))")),
    (Expression, "\"a ${~ x ~} b\"", Ok("(tmpl \"a\" (scope x) \"b\")")),
    (Expression, "\"${x", Err("Unclosed template interpolation sequence")),
    (Expression, "\"${x:y}\"", Err("Extra characters after interpolation expression")),
    (Expression, "\"${x y}\"", Err("Extra characters after interpolation expression")),
    (Expression, "\"${\"}\"", Err("Unclosed template interpolation sequence")),
    (Expression, "\"%{if c}a%{else}b%{endif}\"", Ok("(tmpl (? (scope c) (tmpl \"a\") (tmpl \"b\")))")),
    (Expression, "\"%{if c}%{endif}\"", Ok("(tmpl (? (scope c) (tmpl \"\") (tmpl \"\")))")),
    (Expression, "\"%{for v in xs}${v},%{endfor}\"", Ok("(tmpl (join (for _ v (scope xs) (tmpl (scope v) \",\"))))")),
    (Expression, "\"%{for k, v in m}${k}%{endfor}\"", Ok("(tmpl (join (for k v (scope m) (tmpl (scope k)))))")),
    (Expression, "\"%{ if c ~} a %{~ endif }\"", Ok("(tmpl (? (scope c) (tmpl \"a\") (tmpl \"\")))")),
    (Expression, "\"%{endif}\"", Err("Unexpected endif directive")),
    (Expression, "\"%{if c}\"", Err("Unexpected end of template")),
    (Expression, "\"%{if c}%{else}%{else}%{endif}\"", Err("Unexpected else directive")),
    (Expression, "\"%{for v in xs}%{else}%{endfor}\"", Err("Unexpected else directive")),
    (Expression, "\"%{if c}%{endfor}\"", Err("Unexpected endfor directive")),
    (Expression, "\"%{iff c}\"", Err("Invalid template control keyword")),
    (Expression, "\"%{ }\"", Err("Invalid template directive")),
    (Expression, "\"%{for in xs}%{endfor}\"", Err("Invalid 'for' directive")),
    (Expression, "\"%{for v xs}%{endfor}\"", Err("Invalid 'for' directive")),
    (Expression, "\"%{if c d}%{endif}\"", Err("Extra characters in if marker")),
    (Expression, "<<EOT\nhello\nEOT\n", Ok("(tmpl \"hello\\n\")")),
    (Expression, "<<EOT\nhello ${name}\n  EOT\n", Ok("(tmpl \"hello \" (scope name) \"\\n\")")),
    (Expression, "<<-EOT\n    a\n      b\n    EOT\n", Ok("(tmpl \"a\\n\" \"  b\\n\")")),
    (Expression, "<<-EOT\n  a\n\n  ${b}\nEOT\n", Ok("(tmpl \"a\\n\" \"\\n\" \"\" (scope b) \"\\n\")")),
    (Expression, "<<-EOT\n  a\n${b}\nEOT\n", Ok("(tmpl \"  a\\n\" (scope b) \"\\n\")")),
    (Expression, "<<EOT\na\\nb\nEOT\n", Ok("(tmpl \"a\\\\nb\\n\")")),
    (Expression, "<<EOT\nx\nEOT", Err("Unterminated template string")),
    (Expression, "<<EOT\nx\n", Err("Unterminated template string")),
    (Expression, "<<EOT x", Err("Invalid expression")),
    (Expression, "<<EOT\r\nx\r\nEOT\r\n", Ok("(tmpl \"x\\r\\n\")")),
    (Expression, "[]", Ok("(tuple)")),
    (Expression, "[1, 2,]", Ok("(tuple num num)")),
    (Expression, "[\n1,\n2\n]", Ok("(tuple num num)")),
    (Expression, "[1 2]", Err("Missing item separator")),
    (Expression, "[1,", Err("Missing expression")),
    (Expression, "{}", Ok("(object)")),
    (Expression, "{a = 1, b = 2}", Ok("(object (item (scope a) num) (item (scope b) num))")),
    (Expression, "{\n  a = 1\n  b: 2\n}", Ok("(object (item (scope a) num) (item (scope b) num))")),
    (Expression, "{\"k\" = 1, (k) = 2, 3 = 4, true = 5}", Ok("(object (item (tmpl \"k\") num) (item! (paren (scope k)) num) (item num num) (item true num))")),
    (Expression, "{a = 1 b = 2}", Err("Missing attribute separator")),
    (Expression, "{a}", Err("Missing key/value separator")),
    (Expression, "{a\n= 1}", Err("Missing attribute value")),
    (Expression, "{a = 1 +\n 2}", Err("Invalid expression")),
    (Expression, "{a = (1 +\n 2)}", Ok("(object (item (scope a) (paren (+ num num))))")),
    (Expression, "{a = 1,", Err("Missing expression")),
    (Expression, "{for = 1}", Err("Invalid 'for' expression")),
    (Expression, "{\"a\" \"b\"}", Err("Missing key/value separator")),
    (Expression, "[for v in xs: v]", Ok("(for _ v (scope xs) (scope v))")),
    (Expression, "[for i, v in xs: v if i < 2]", Ok("(for i v (scope xs) (scope v) if (< (scope i) num))")),
    (Expression, "{for k, v in m: k => v}", Ok("(for k v (scope m) (scope k) => (scope v))")),
    (Expression, "{for k, v in m: v => k...}", Ok("(for k v (scope m) (scope v) => (scope k) ...)")),
    (Expression, "[for v in xs: v => v]", Err("Invalid 'for' expression")),
    (Expression, "[for v in xs: v...]", Err("Invalid 'for' expression")),
    (Expression, "{for v in xs: v}", Err("Invalid 'for' expression")),
    (Expression, "[for v in xs v]", Err("Invalid 'for' expression")),
    (Expression, "[for 1 in xs: v]", Err("Invalid 'for' expression")),
    (Expression, "[for v, in xs: v]", Err("Invalid 'for' expression")),
    (Expression, "[for v in xs: v if]", Err("Invalid expression")),
    (Expression, "[for v in xs: v v]", Err("Invalid 'for' expression")),
    (Expression, "[\n for v in xs:\n v\n]", Ok("(for _ v (scope xs) (scope v))")),
    (Expression, "a.b.c", Ok("(scope a .b .c)")),
    (Expression, "a[0][\"k\"][true][null]", Ok("(scope a [num] [\"k\"] [true] [null])")),
    (Expression, "a.0", Ok("(scope a [num])")),
    (Expression, "a.0.1", Err("Invalid legacy index syntax")),
    (Expression, "a[x]", Ok("(index (scope a) (scope x))")),
    (Expression, "a[-1]", Ok("(index (scope a) (neg num))")),
    (Expression, "a[\"${k}\"]", Ok("(index (scope a) (wrap (scope k)))")),
    (Expression, "a[*].b[0]", Ok("(splat (scope a) (rel * .b [num]))")),
    (Expression, "a.*.b[0]", Ok("(rel (splat (scope a) (rel * .b)) [num])")),
    (Expression, "a.*.0", Ok("(splat (scope a) (rel * [num]))")),
    (Expression, "a.*.*", Err("Nested splat expression not allowed")),
    (Expression, "a.*.b.0.1", Err("Invalid legacy index syntax")),
    (Expression, "a[*][*].c", Ok("(splat (scope a) (splat * (rel * .c)))")),
    (Expression, "f(x).a[0]", Ok("(rel (call f (scope x)) .a [num])")),
    (Expression, "(a).b", Ok("(rel (paren (scope a)) .b)")),
    (Expression, "a.", Err("Invalid attribute name")),
    (Expression, "a.[0]", Err("Invalid attribute name")),
    (Expression, "a[*x]", Err("Missing close bracket on splat index")),
    (Expression, "a[0", Err("Missing close bracket on index")),
    (Expression, "f()", Ok("(call f)")),
    (Expression, "f(1, 2,)", Ok("(call f num num)")),
    (Expression, "f(xs...)", Ok("(call f... (scope xs))")),
    (Expression, "f(xs..., 1)", Err("Missing closing parenthesis")),
    (Expression, "f(1 2)", Err("Missing argument separator")),
    (Expression, "f(1,", Err("Missing expression")),
    (Expression, "f(\n1,\n2\n)", Ok("(call f num num)")),
    (Expression, "1 + 2 * 3", Ok("(+ num (* num num))")),
    (Expression, "1 - 2 - 3", Ok("(- (- num num) num)")),
    (Expression, "a || b && c == d < e + f * g", Ok("(|| (scope a) (&& (scope b) (== (scope c) (< (scope d) (+ (scope e) (* (scope f) (scope g)))))))")),
    (Expression, "-a.b + c", Ok("(+ (neg (scope a .b)) (scope c))")),
    (Expression, "!a == b", Ok("(== (not (scope a)) (scope b))")),
    (Expression, "- - 1", Ok("(neg (neg num))")),
    (Expression, "a ? b : c ? d : e", Ok("(? (scope a) (scope b) (? (scope c) (scope d) (scope e)))")),
    (Expression, "a ? b ? c : d : e", Ok("(? (scope a) (? (scope b) (scope c) (scope d)) (scope e))")),
    (Expression, "a ? b", Err("Missing false expression in conditional")),
    (Expression, "(a", Err("Unbalanced parentheses")),
    (Expression, "(a b)", Err("Unbalanced parentheses")),
    (Expression, "1 +", Err("Missing expression")),
    (Expression, "", Err("Missing expression")),
    (Expression, "# just a comment", Err("Missing expression")),
    (Expression, "a /* c */ + // c\n b", Ok("(+ (scope a) (scope b))")),
    (Expression, "a b", Err("Extra characters after expression")),
    (Expression, "a ~} b", Err("Extra characters after expression")),
    (Expression, "a & b", Err("Unsupported operator")),
    (Expression, "a | b", Err("Unsupported operator")),
    (Expression, "~a", Err("Unsupported operator")),
    (Expression, "a ^ b", Err("Unsupported operator")),
    (Expression, "'a'", Err("Invalid character")),
    (Expression, "`a`", Err("Invalid character")),
    (Expression, "a;", Err("Invalid character")),
    (Expression, "a @ b", Err("Invalid character")),
    (Expression, "\u{201c}a\u{201d}", Err("Invalid character")),
    (Expression, "1 + @ + \"\\q\"", Err("Invalid character")),
    (Expression, "$", Err("Invalid character")),
    (Template, "", Ok("(tmpl \"\")")),
    (Template, "hello", Ok("(tmpl \"hello\")")),
    (Template, "${x}", Ok("(wrap (scope x))")),
    (Template, " ${x}", Ok("(tmpl \" \" (scope x))")),
    (Template, "a\\nb ${x}", Ok("(tmpl \"a\\\\nb \" (scope x))")),
    (Template, "$${x} %%{y}", Ok("(tmpl \"${\" \"x} \" \"%{\" \"y}\")")),
    (Template, "%{if c}yes%{endif}", Ok("(tmpl (? (scope c) (tmpl \"yes\") (tmpl \"\")))")),
    (Template, "x\r${y}", Ok("(tmpl \"x\" \"\\r${y}\")")),
    (Template, "a $", Ok("(tmpl \"a \" \"$\")")),
    (Template, "${x", Err("Unclosed template interpolation sequence")),
    (Template, "%{endfor}", Err("Unexpected endfor directive")),
    (Template, "${\"${x}\"}", Ok("(wrap (wrap (scope x)))")),
    (Template, "<<EOT\nx\nEOT\n", Ok("(tmpl \"<<EOT\\n\" \"x\\n\" \"EOT\\n\")")),
];

#[test]
fn conformance_table() {
    let mut failures = Vec::new();
    for &(kind, source, expected) in TABLE {
        let actual = match parse(kind, source) {
            Ok(expr) => Ok(compact(&expr)),
            Err(err) => Err(err.summary),
        };
        let matches = match (&actual, expected) {
            (Ok(tree), Ok(want)) => tree == want,
            (Err(summary), Err(want)) => summary == want,
            _ => false,
        };
        if !matches {
            failures.push(format!(
                "{kind:?} {source:?}: got {actual:?}, want {expected:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn pos(line: usize, column: usize, byte: usize) -> crate::error::Pos {
    crate::error::Pos { line, column, byte }
}

fn span(start: (usize, usize, usize), end: (usize, usize, usize)) -> Span {
    Span::new(pos(start.0, start.1, start.2), pos(end.0, end.1, end.2))
}

#[test]
fn ranges() {
    let expr = parse_expression("a.b[0]").unwrap();
    assert_eq!(expr.span, span((1, 1, 0), (1, 7, 6)));
    let ExprKind::ScopeTraversal { steps, .. } = &expr.kind else {
        panic!("not a traversal: {expr:?}");
    };
    let step_spans: Vec<Span> = steps
        .iter()
        .map(|s| match s {
            Traverser::Attr { span, .. } | Traverser::Index { span, .. } => *span,
        })
        .collect();
    assert_eq!(
        step_spans,
        [span((1, 2, 1), (1, 4, 3)), span((1, 4, 3), (1, 7, 6))]
    );

    // Columns count grapheme clusters; bytes count bytes.
    let expr = parse_expression("\"\u{1F44D}\u{1F3FD}${x}\"").unwrap();
    assert_eq!(expr.span, span((1, 1, 0), (1, 8, 14)));
    let ExprKind::Template(parts) = &expr.kind else {
        panic!("not a template: {expr:?}");
    };
    assert_eq!(parts[0].span, span((1, 2, 1), (1, 3, 9)));
    assert_eq!(parts[1].span, span((1, 5, 11), (1, 6, 12)));

    // `<<-` moves the start of the trimmed literal.
    let expr = parse_expression("<<-EOT\n    a\n  EOT\n").unwrap();
    assert_eq!(expr.span, span((1, 1, 0), (3, 6, 18)));
    let ExprKind::Template(parts) = &expr.kind else {
        panic!("not a template: {expr:?}");
    };
    assert_eq!(parts[0].span, span((2, 5, 11), (3, 1, 13)));

    // The splat's element symbol covers `[*]`.
    let expr = parse_expression("x[*].y").unwrap();
    let ExprKind::Splat { each, .. } = &expr.kind else {
        panic!("not a splat: {expr:?}");
    };
    assert_eq!(each.span, span((1, 2, 1), (1, 7, 6)));
}

#[test]
fn error_details_and_ranges() {
    let cases: &[(&str, &str, &str, Span)] = &[
        (
            "a.0.1",
            "Invalid legacy index syntax",
            "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [0][1].",
            span((1, 3, 2), (1, 6, 5)),
        ),
        (
            "a.*.b.0.1",
            "Invalid legacy index syntax",
            "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [0][1].",
            span((1, 3, 2), (1, 4, 3)),
        ),
        (
            "\"\\\u{e9}\"",
            "Invalid escape sequence",
            "The symbol \"\u{e9}\" is not a valid escape sequence selector.",
            span((1, 2, 1), (1, 4, 4)),
        ),
        (
            "\"\\uD800\"",
            "Invalid escape sequence",
            "Cannot encode character U+d800 in UTF-8.",
            span((1, 2, 1), (1, 8, 7)),
        ),
        (
            "\"%{ends}\"",
            "Invalid template control keyword",
            "\"ends\" is not a valid template control keyword. Did you mean \"endif\"?",
            span((1, 4, 3), (1, 8, 7)),
        ),
        (
            "\"%{if c}\"",
            "Unexpected end of template",
            "The if directive at case.hcl:1,2-9 is missing its corresponding endif directive.",
            span((1, 9, 8), (1, 10, 9)),
        ),
        (
            "\"%{if c}%{endfor}\"",
            "Unexpected endfor directive",
            "Expecting an endif directive for the if started at case.hcl:1,2-9.",
            span((1, 9, 8), (1, 18, 17)),
        ),
        (
            "[1,\n  @]",
            "Invalid character",
            "This character is not used within the language.",
            span((2, 3, 6), (2, 4, 7)),
        ),
        // The subject is where recovery would resume, not the bad token.
        (
            "a[0 1] + b",
            "Missing close bracket on index",
            "The index operator must end with a closing bracket (\"]\").",
            span((1, 6, 5), (1, 7, 6)),
        ),
    ];
    for (source, summary, detail, range) in cases {
        let err = parse_expression(source).unwrap_err();
        assert_eq!(err.phase, crate::error::Phase::Parse, "{source:?}");
        assert_eq!(err.summary, *summary, "{source:?}");
        assert_eq!(err.detail, *detail, "{source:?}");
        assert_eq!(err.span, *range, "{source:?}");
    }
}

/// Later HCL versions accept namespaced function names, and so does the
/// default version here; HCL 2.14 has no `::` token and rejects them.
#[test]
fn namespaced_function_calls() {
    let expr = parse_expression("provider::aws::arn(x, y...)").unwrap();
    assert_eq!(
        compact(&expr),
        "(call provider::aws::arn... (scope x) (scope y))"
    );
    assert_eq!(
        parse_expression("ns::").unwrap_err().summary,
        "Missing function name"
    );
    assert_eq!(
        parse_expression("ns::f").unwrap_err().summary,
        "Missing open parenthesis"
    );

    let old = crate::HclVersion::V2_14;
    let cases = [
        ("ns::upper(\"a\")", "Extra characters after expression"),
        ("{a::b = 1}", "Invalid expression"),
        ("a ? b ::c", "Invalid expression"),
    ];
    for (source, summary) in cases {
        let err = parse_expression_as(source, old).unwrap_err();
        assert_eq!(err.summary, summary, "{source:?}");
    }
    assert!(parse_expression_as("a ? b : c", old).is_ok());
}

/// Inputs nested far beyond the limit fail cleanly on a default-sized
/// (2 MiB) test thread, debug build included.
#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let nested = |n: usize, open: &str, middle: &str, close: &str| {
        format!("{}{middle}{}", open.repeat(n), close.repeat(n))
    };
    const DEEP: usize = MAX_NESTING_DEPTH + 1;
    const LESS: usize = DEEP;
    let expressions = [
        nested(DEEP, "(", "a", ")"),
        nested(DEEP, "(", "a", ""),
        nested(DEEP, "[", "a", "]"),
        nested(DEEP, "{a=", "a", "}"),
        nested(DEEP, "\"${", "a", "}\""),
        nested(DEEP, "!", "a", ""),
        nested(DEEP, "- ", "a", ""),
        nested(DEEP, "a?", "a", ":a"),
        nested(DEEP, "a?a:", "a", ""),
        nested(LESS, "f(", "a", ")"),
        nested(LESS, "a[", "a", "]"),
        nested(LESS, "[for x in ", "a", ":x]"),
        nested(LESS, "{for x in ", "a", ":x=>x}"),
        nested(LESS, "<<E\n${", "a", "}\nE\n"),
        // Chains build deep trees without recursing.
        nested(LESS, "", "a", "[*]"),
        nested(LESS, "", "1", "+1"),
        nested(LESS, "", "a", "[b]"),
        nested(LESS, "", "f(x)", ".a[b]"),
    ];
    for source in &expressions {
        let err = parse_expression(source).unwrap_err();
        assert_eq!(err.summary, diag::NESTING_TOO_DEEP, "{}", &source[..20]);
    }
    let templates = [
        nested(LESS, "%{if a}", "x", "%{endif}"),
        nested(LESS, "%{for x in y}", "x", "%{endfor}"),
        nested(LESS, "${\"", "x", "\"}"),
    ];
    for source in &templates {
        let err = parse_template(source).unwrap_err();
        assert_eq!(err.summary, diag::NESTING_TOO_DEEP, "{}", &source[..20]);
    }
    // Flat sequences are not nesting.
    assert!(parse_expression(&format!("a{}", ".b".repeat(LESS))).is_ok());
    assert!(parse_expression(&format!("[{}]", "1,".repeat(LESS))).is_ok());
    assert!(parse_template(&"${a}x".repeat(LESS)).is_ok());
    // Below the limit, every construct nests 10,000 deep (HCL has no
    // limit); the trees are dropped without recursion.
    for source in [
        nested(10_000, "(", "a", ")"),
        nested(10_000, "[for x in ", "a", ":x]"),
        nested(10_000, "\"${", "a", "}\""),
        nested(10_000, "", "1", "+1"),
    ] {
        assert!(parse_expression(&source).is_ok(), "{}", &source[..20]);
    }
}

#[test]
fn nesting_limit_is_exact() {
    let parens = |n: usize| format!("{}a{}", "(".repeat(n), ")".repeat(n));
    assert!(parse_expression(&parens(MAX_NESTING_DEPTH - 1)).is_ok());
    assert_eq!(
        parse_expression(&parens(MAX_NESTING_DEPTH))
            .unwrap_err()
            .summary,
        diag::NESTING_TOO_DEEP
    );
    let chain = |n: usize| format!("1{}", "+1".repeat(n));
    assert!(parse_expression(&chain(MAX_NESTING_DEPTH - 1)).is_ok());
    assert!(parse_expression(&chain(MAX_NESTING_DEPTH)).is_err());
}

/// A small deterministic generator for the no-panic test.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// No input panics: random bytes (made valid UTF-8 the lossy way), random
/// token soup and mutations of the table's inputs.
#[test]
fn arbitrary_input_never_panics() {
    const PIECES: &[&str] = &[
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ".",
        ",",
        ":",
        "::",
        "?",
        "!",
        "=",
        "==",
        "=>",
        "<",
        "<=",
        "&&",
        "||",
        "+",
        "-",
        "*",
        "/",
        "%",
        "...",
        "\"",
        "${",
        "%{",
        "~}",
        "}",
        "$${",
        "%%{",
        "\\",
        "\\u",
        "\\uD800",
        "\\U0010FFFF",
        "\n",
        "\r",
        "\r\n",
        "\t",
        " ",
        "#",
        "//",
        "/*",
        "*/",
        "<<EOT\n",
        "<<-EOT\n",
        "EOT\n",
        "a",
        "b1",
        "for",
        "in",
        "if",
        "else",
        "endif",
        "endfor",
        "true",
        "null",
        "0",
        "1.5",
        "1e3",
        "1..2",
        "\u{e9}",
        "\u{301}",
        "\u{FFFD}",
        "\u{1F600}",
        "\u{FEFF}",
        "@",
        "'",
        "`",
        ";",
        "&",
        "|",
        "^",
        "~",
    ];
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut inputs: Vec<String> = Vec::new();
    for _ in 0..3000 {
        let len = rng.below(40);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        inputs.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    for _ in 0..6000 {
        let count = rng.below(16);
        inputs.push(
            (0..count)
                .map(|_| PIECES[rng.below(PIECES.len())])
                .collect(),
        );
    }
    for &(_, source, _) in TABLE {
        for _ in 0..20 {
            let mut chars: Vec<char> = source.chars().collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(chars.len() + 1);
                if rng.below(2) == 0 && at < chars.len() {
                    chars.remove(at);
                } else {
                    let piece = PIECES[rng.below(PIECES.len())];
                    chars.splice(at..at, piece.chars());
                }
            }
            inputs.push(chars.into_iter().collect());
        }
    }
    for input in &inputs {
        let _ = parse_expression(input);
        let _ = parse_template(input);
    }
}

/// Block labels are quoted strings without sequences; hclsyntax's
/// parseQuotedStringLiteral names the sequence's introducer and has its own
/// error for the end of the input.
#[test]
fn quoted_block_label_errors() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "b \"a${x}\" {\n}\n",
            "Invalid string literal",
            "Template sequences are not allowed in this string. To include a literal \"$\", double it (as \"$$\") to escape it.",
        ),
        (
            "b \"a%{if x}y%{endif}\" {\n}\n",
            "Invalid string literal",
            "Template sequences are not allowed in this string. To include a literal \"%\", double it (as \"%%\") to escape it.",
        ),
        (
            "b \"a",
            "Unterminated string literal",
            "Unable to find the closing quote mark before the end of the file.",
        ),
    ];
    for (source, summary, detail) in cases {
        let err = super::parse_body_as(source, crate::HclVersion::default()).unwrap_err();
        assert_eq!(err.phase, crate::error::Phase::Parse, "{source:?}");
        assert_eq!(err.summary, *summary, "{source:?}");
        assert_eq!(err.detail, *detail, "{source:?}");
    }
}
