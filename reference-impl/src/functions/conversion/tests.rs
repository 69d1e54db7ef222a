// The HCL 2.14 tables are recorded from hashicorp/hcl 2.14.1 with go-cty
// 1.12.1 and the oracle's Terraform-compatible functions, over the
// evaluator's test scope.

use crate::ast::ExprKind;
use crate::eval::test_support::check_table;
use crate::parser::parse_expression;
use crate::HclVersion;

#[test]
fn conversions_and_closures_v2_14() {
    check_table(
        &[
            ("tostring(null)", "OK string null(string)"),
            ("tostring(u)", "OK string unknown(string)"),
            ("tostring(1.50)", "OK string \"1.5\""),
            ("tostring(true)", "OK string \"true\""),
            (
                "tostring(l)",
                "ERR Invalid function argument @ 1:10:9-1:11:10",
            ),
            ("tonumber(\"12\")", "OK number 12"),
            (
                "tonumber(\"x\")",
                "ERR Invalid function argument @ 1:11:10-1:12:11",
            ),
            ("tonumber(ns)", "OK number null(number)"),
            ("tonumber(u)", "OK number unknown(number)"),
            ("tobool(\"true\")", "OK bool true"),
            (
                "tobool(\"yes\")",
                "ERR Invalid function argument @ 1:9:8-1:12:11",
            ),
            ("tobool(nul)", "OK bool null(bool)"),
            ("tolist(ul)", "OK list(dynamic) unknown(list(dynamic))"),
            (
                "tolist([\"a\", 1])",
                "OK list(string) list<string>[\"a\", \"1\"]",
            ),
            (
                "tolist(tup)",
                "OK list(string) list<string>[\"1\", \"two\", \"true\"]",
            ),
            ("tolist(u)", "OK list(dynamic) unknown(list(dynamic))"),
            ("tolist(nul)", "OK list(dynamic) null(list(dynamic))"),
            (
                "tolist([1, [2]])",
                "ERR Invalid function argument @ 1:8:7-1:9:8",
            ),
            ("toset(sdup)", "OK set(string) set<string>[\"a\", \"b\"]"),
            ("toset(nul)", "OK set(dynamic) null(set(dynamic))"),
            (
                "tomap({a = 1, b = \"x\"})",
                "OK map(string) map<string>{\"a\": \"1\", \"b\": \"x\"}",
            ),
            ("tomap(ul)", "ERR Invalid function argument @ 1:7:6-1:9:8"),
            ("tomap(o)", "ERR Invalid function argument @ 1:7:6-1:8:7"),
            ("tomap(u)", "OK map(dynamic) unknown(map(dynamic))"),
            ("try(nope, 2)", "OK number 2"),
            ("try(l[5], \"d\")", "OK string \"d\""),
            ("try(l[0], \"d\")", "OK string \"a\""),
            ("try(us, \"d\")", "OK dynamic unknown(dynamic)"),
            ("try(lu[0], \"x\")", "OK string \"a\""),
            ("try(length(lu), 1)", "OK dynamic unknown(dynamic)"),
            ("try(l[9])", "ERR Error in function call @ 1:1:0-1:5:4"),
            ("try()", "ERR Error in function call @ 1:1:0-1:5:4"),
            ("try(1, nope)", "OK number 1"),
            ("try([1, 2]...)", "OK number 1"),
            ("try(o.zz, \"d\")", "OK string \"d\""),
            ("try(nope.x, 3)", "OK number 3"),
            ("try(try(nope), 5)", "OK number 5"),
            ("try(u.a.b, 1)", "OK dynamic unknown(dynamic)"),
            ("try({us = 1}.us, 2)", "OK number 1"),
            ("try({(us) = 1}.x, 2)", "OK dynamic unknown(dynamic)"),
            ("try([for us in [1] : us][0], 2)", "OK number 1"),
            (
                "[for x in [\"a\", us] : try(x, \"z\")]",
                "OK tuple([string,dynamic]) tuple[\"a\", unknown(dynamic)]",
            ),
            ("t:${try(nope, \"x\")}", "OK string \"x\""),
            ("can(nope)", "OK bool false"),
            ("can(l[0])", "OK bool true"),
            ("can(us)", "OK bool unknown(bool)"),
            ("can(lu[1])", "OK bool unknown(bool)"),
            ("can(lu[0])", "OK bool true"),
            ("can(l[5])", "OK bool false"),
            ("can()", "ERR Not enough function arguments @ 1:5:4-1:6:5"),
            ("can(1, 2)", "ERR Too many function arguments @ 1:8:7-1:9:8"),
            ("can([\"a\"]...)", "OK bool true"),
            ("can(ul...)", "OK dynamic unknown(dynamic)"),
        ],
        HclVersion::V2_14,
    );
}

// HCL 2.17.1 and later (hashicorp/hcl#622) evaluate every expression and
// give an unknown only when the first successful value is not wholly
// known; read from ext/tryfunc/tryfunc.go of HCL 2.24.
#[test]
fn closures_v2_24() {
    check_table(
        &[
            ("try(us, \"d\")", "OK dynamic unknown(dynamic)"),
            ("try(lu[0], \"x\")", "OK string \"a\""),
            ("try(length(lu), 1)", "OK number 2"),
            ("try(lu, 1)", "OK dynamic unknown(dynamic)"),
            ("try(nope, us)", "OK dynamic unknown(dynamic)"),
            ("try(nope, 2)", "OK number 2"),
            ("try(l[9])", "ERR Error in function call @ 1:1:0-1:5:4"),
            ("can(us)", "OK bool unknown(bool)"),
            ("can(length(lu))", "OK bool true"),
            ("can(lu[1])", "OK bool unknown(bool)"),
            ("can(l[5])", "OK bool false"),
        ],
        HclVersion::V2_24,
    );
}

#[test]
fn root_traversals_skip_local_names_and_keys() {
    let expr = parse_expression(
        "[for k, v in a : {b = k, (c) = v, d.e = f[g]}] + try(h) + [for x in [1] : [for y in x : z]]",
    )
    .unwrap();
    let roots: Vec<&str> = super::root_traversals(&expr, &[])
        .into_iter()
        .map(|e| match &e.kind {
            ExprKind::ScopeTraversal { root, .. } => root.as_str(),
            _ => "?",
        })
        .collect();
    assert_eq!(roots, ["a", "c", "d", "f", "g", "h", "z"]);
}
