// Expected outcomes recorded from hashicorp/hcl 2.14.1 with go-cty 1.12.1
// and the oracle's Terraform-compatible functions, over the evaluator's
// test scope.

use crate::eval::test_support::check_table;
use crate::HclVersion;

#[test]
fn collection_functions() {
    check_table(
        &[
            ("alltrue([true, t])", "OK bool true"),
            ("alltrue([true, ub, false])", "OK bool unknown(bool)"),
            ("alltrue([\"true\", nb])", "OK bool false"),
            ("anytrue([false, ub])", "OK bool unknown(bool)"),
            ("anytrue([ub, true])", "OK bool true"),
            ("anytrue(lnull)", "ERR Invalid function argument @ 1:9:8-1:14:13"),
            ("coalesce(\"\", ns, \"b\")", "OK string \"b\""),
            ("coalesce(1, \"x\")", "OK string \"1\""),
            ("coalesce(nul, us, \"a\")", "OK string unknown(string)"),
            ("coalesce(\"\", ns)", "ERR Error in function call @ 1:1:0-1:10:9"),
            ("coalesce()", "ERR Error in function call @ 1:1:0-1:10:9"),
            ("sum([1, \"2\", 3.5])", "OK number 6.5"),
            ("sum(sn)", "OK number 6"),
            ("sum([inf, ninf])", "ERR Error in function call @ 1:1:0-1:5:4"),
            ("sum([])", "ERR Invalid function argument @ 1:5:4-1:6:5"),
            ("sum(m)", "ERR Invalid function argument @ 1:5:4-1:6:5"),
            ("sum(\"x\")", "ERR Invalid function argument @ 1:6:5-1:7:6"),
            ("sum(lu)", "OK number unknown(number)"),
            ("chunklist(ln, 2)", "OK list(list(number)) list<list(number)>[list<number>[1, 2], list<number>[3]]"),
            ("chunklist(ln, 0)", "OK list(list(number)) list<list(number)>[list<number>[1, 2, 3]]"),
            ("chunklist(el, 3)", "OK list(list(string)) list<list(string)>[]"),
            ("chunklist(ln, -1)", "ERR Error in function call @ 1:1:0-1:11:10"),
            ("coalescelist(el, nl, [\"a\"])", "OK tuple([string]) tuple[\"a\"]"),
            ("coalescelist(el, ul, ln)", "OK dynamic unknown(dynamic)"),
            ("coalescelist([], [1], [\"x\"])", "OK tuple([number]) tuple[1]"),
            ("coalescelist(1)", "ERR Error in function call @ 1:1:0-1:14:13"),
            ("compact([\"a\", \"\", ns, \"b\"])", "OK list(string) list<string>[\"a\", \"b\"]"),
            ("compact(lu)", "OK list(string) unknown(list(string))"),
            ("contains(l, \"b\")", "OK bool true"),
            ("contains(sn, \"2\")", "OK bool false"),
            ("contains(lu, \"b\")", "OK bool unknown(bool)"),
            ("contains(m, \"x\")", "ERR Error in function call @ 1:1:0-1:10:9"),
            ("distinct(sdup)", "OK list(string) list<string>[\"a\", \"b\"]"),
            ("distinct([1, \"1\", 2])", "OK list(string) list<string>[\"1\", \"2\"]"),
            ("distinct(ld)", "OK list(dynamic) unknown(list(dynamic))"),
            ("element(l, 4)", "OK string \"b\""),
            ("element(tup, 1)", "OK string \"two\""),
            ("element(tup, un)", "OK dynamic unknown(dynamic)"),
            ("element(l, -1)", "ERR Error in function call @ 1:1:0-1:9:8"),
            ("element(el, 0)", "ERR Error in function call @ 1:1:0-1:9:8"),
            ("element(st, 0)", "ERR Error in function call @ 1:1:0-1:9:8"),
            ("flatten([[\"a\", \"b\"], [], [\"c\"]])", "OK tuple([string,string,string]) tuple[\"a\", \"b\", \"c\"]"),
            ("flatten([[1, [2, [3]]], st])", "OK tuple([number,number,number,string,string]) tuple[1, 2, 3, \"a\", \"b\"]"),
            ("flatten([us, [ul]])", "OK dynamic unknown(dynamic)"),
            ("flatten([u, 1])", "OK dynamic unknown(dynamic)"),
            ("flatten(tup)", "OK tuple([number,string,bool]) tuple[1, \"two\", true]"),
            ("flatten(m)", "ERR Error in function call @ 1:1:0-1:9:8"),
            ("index(l, \"c\")", "OK number 2"),
            ("index(tup, \"two\")", "OK number 1"),
            ("index(lu, \"z\")", "OK number unknown(number)"),
            ("index(el, \"a\")", "ERR Error in function call @ 1:1:0-1:7:6"),
            ("index(l, \"z\")", "ERR Error in function call @ 1:1:0-1:7:6"),
            ("one([])", "OK dynamic null(dynamic)"),
            ("one(tolist([]))", "OK dynamic null(dynamic)"),
            ("one(st)", "ERR Invalid function argument @ 1:5:4-1:7:6"),
            ("one(ln)", "ERR Invalid function argument @ 1:5:4-1:7:6"),
            ("one(tup)", "ERR Invalid function argument @ 1:5:4-1:8:7"),
            ("range(3)", "OK list(number) list<number>[0, 1, 2]"),
            ("range(-3)", "OK list(number) list<number>[0, -1, -2]"),
            ("range(1, 2, 0.25)", "OK list(number) list<number>[1, 1.25, 1.5, 1.75]"),
            ("range(3, 1)", "OK list(number) list<number>[3, 2]"),
            ("range(0, 5, 0)", "ERR Error in function call @ 1:1:0-1:7:6"),
            ("range(1, 5, -1)", "ERR Invalid function argument @ 1:10:9-1:11:10"),
            ("range(2048)", "ERR Error in function call @ 1:1:0-1:7:6"),
            ("range()", "ERR Error in function call @ 1:1:0-1:7:6"),
            ("reverse(tup)", "OK tuple([bool,string,number]) tuple[true, \"two\", 1]"),
            ("reverse(sn)", "OK list(number) list<number>[3, 2, 1]"),
            ("reverse(m)", "ERR Invalid function argument @ 1:9:8-1:10:9"),
            ("slice(l, 1, 3)", "OK list(string) list<string>[\"b\", \"c\"]"),
            ("slice(tup, 0, 2)", "OK tuple([number,string]) tuple[1, \"two\"]"),
            ("slice(tup, un, 1)", "OK dynamic unknown(dynamic)"),
            ("slice(ul, 0, 1)", "OK list(string) unknown(list(string))"),
            ("slice(l, 2, 1)", "ERR Invalid function argument @ 1:10:9-1:11:10"),
            ("slice(l, 0, 4)", "ERR Invalid function argument @ 1:13:12-1:14:13"),
            ("slice(st, 0, 1)", "ERR Invalid function argument @ 1:7:6-1:9:8"),
            ("sort([\"b\", \"a\", \"B\", \"10\", \"9\"])", "OK list(string) list<string>[\"10\", \"9\", \"B\", \"a\", \"b\"]"),
            ("sort([10, 9, 1.5])", "OK list(string) list<string>[\"1.5\", \"10\", \"9\"]"),
            ("sort(lnull)", "ERR Error in function call @ 1:1:0-1:6:5"),
            ("sort(lu)", "OK list(string) unknown(list(string))"),
            ("keys(m)", "OK list(string) list<string>[\"a\", \"b\"]"),
            ("keys(uo)", "OK tuple([string,string]) tuple[\"a\", \"b\"]"),
            ("keys(um)", "OK list(string) unknown(list(string))"),
            ("keys(u)", "OK dynamic unknown(dynamic)"),
            ("keys(l)", "ERR Invalid function argument @ 1:6:5-1:7:6"),
            ("values(o)", "OK tuple([string,number,string,tuple([number,number]),object({\"x\"=number})]) tuple[\"zero\", 1, \"x\", tuple[1, 2], object{\"x\": 1}]"),
            ("values(mn)", "OK list(number) list<number>[1, 2]"),
            ("values({})", "OK tuple([]) tuple[]"),
            ("lookup(m, \"a\")", "OK string \"x\""),
            ("lookup(m, \"z\", \"d\")", "OK string \"d\""),
            ("lookup(mn, \"z\", \"x\")", "ERR Invalid function argument @ 1:18:17-1:19:18"),
            ("lookup(o, \"zz\", true)", "OK bool true"),
            ("lookup(o, \"zz\")", "ERR Invalid function argument @ 1:8:7-1:9:8"),
            ("lookup(o, us)", "OK dynamic unknown(dynamic)"),
            ("lookup(um, \"a\", 1)", "OK string unknown(string)"),
            ("lookup(l, \"a\")", "ERR Invalid function argument @ 1:8:7-1:9:8"),
            ("lookup(m, \"a\", \"b\", \"c\")", "ERR Error in function call @ 1:1:0-1:8:7"),
            ("matchkeys([\"a\", \"b\", \"c\"], [1, 2, 3], [1, 3])", "OK list(string) list<string>[\"a\", \"c\"]"),
            ("matchkeys(l, ln, [])", "OK list(string) list<string>[]"),
            ("matchkeys(l, [\"x\", \"y\"], [\"x\"])", "ERR Error in function call @ 1:1:0-1:11:10"),
            ("matchkeys(lu, l, [\"a\"])", "ERR Error in function call @ 1:1:0-1:11:10"),
            ("matchkeys(l, [\"x\", us, \"z\"], [\"z\"])", "OK list(string) unknown(list(string))"),
            ("matchkeys(l, ln, [\"a\"])", "OK list(string) list<string>[]"),
            ("merge(m, {c = \"z\"})", "OK object({\"a\"=string,\"b\"=string,\"c\"=string}) object{\"a\": \"x\", \"b\": \"y\", \"c\": \"z\"}"),
            ("merge(m, {a = 1})", "OK object({\"a\"=number,\"b\"=string}) object{\"a\": 1, \"b\": \"y\"}"),
            ("merge(m, mn)", "OK object({\"a\"=string,\"b\"=string,\"one\"=number,\"two\"=number}) object{\"a\": \"x\", \"b\": \"y\", \"one\": 1, \"two\": 2}"),
            ("merge(m, m)", "OK map(string) map<string>{\"a\": \"x\", \"b\": \"y\"}"),
            ("merge()", "OK object({}) object{}"),
            ("merge(nul, m)", "OK object({\"a\"=string,\"b\"=string}) object{\"a\": \"x\", \"b\": \"y\"}"),
            ("merge(um, {a = 1})", "OK dynamic unknown(dynamic)"),
            ("merge(uo, {c = 1})", "OK object({\"a\"=number,\"b\"=string,\"c\"=number}) unknown(object({\"a\"=number,\"b\"=string,\"c\"=number}))"),
            ("merge(m, 1)", "ERR Error in function call @ 1:1:0-1:7:6"),
            ("merge(nm, m)", "OK map(string) map<string>{\"a\": \"x\", \"b\": \"y\"}"),
            ("transpose({a = [\"1\", \"2\"], b = [\"2\", \"3\"]})", "OK map(list(string)) map<list(string)>{\"1\": list<string>[\"a\"], \"2\": list<string>[\"a\", \"b\"], \"3\": list<string>[\"b\"]}"),
            ("transpose({})", "OK map(list(string)) map<list(string)>{}"),
            ("transpose({a = [ns]})", "ERR Error in function call @ 1:1:0-1:11:10"),
            ("transpose({a = [\"x\"], b = lu})", "OK map(list(string)) unknown(map(list(string)))"),
            ("zipmap(l, ln)", "OK map(number) map<number>{\"a\": 1, \"b\": 2, \"c\": 3}"),
            ("zipmap([\"a\", \"b\", \"a\"], [1, \"x\", true])", "OK object({\"a\"=bool,\"b\"=string}) object{\"a\": true, \"b\": \"x\"}"),
            ("zipmap(l, [1])", "ERR Error in function call @ 1:1:0-1:8:7"),
            ("zipmap(lu, [1, 2])", "OK dynamic unknown(dynamic)"),
            ("zipmap(lnull, [1, 2])", "ERR Error in function call @ 1:1:0-1:8:7"),
            ("zipmap([\"a\", ns], [\"x\", \"y\"])", "ERR Error in function call @ 1:1:0-1:8:7"),
            ("zipmap(l, 1)", "ERR Error in function call @ 1:1:0-1:8:7"),
            ("setunion(st, [\"c\"], sn)", "OK set(string) set<string>[\"1\", \"2\", \"3\", \"a\", \"b\", \"c\"]"),
            ("setunion([\"a\", us], [\"b\"])", "OK set(string) set<string>[\"a\", \"b\", unknown(string)]"),
            ("setintersection(sn, [2, 3, 4], [\"3\", \"2\"])", "OK set(string) set<string>[\"2\", \"3\"]"),
            ("setintersection(st, [\"a\", us])", "OK set(string) unknown(set(string))"),
            ("setsubtract(sn, [1])", "OK set(number) set<number>[2, 3]"),
            ("setsubtract([], [])", "OK set(dynamic) set<dynamic>[]"),
            ("setunion(st, [true])", "OK set(string) set<string>[\"a\", \"b\", \"true\"]"),
            ("setunion([[1]], [\"a\"])", "ERR Error in function call @ 1:1:0-1:10:9"),
            ("setproduct([\"a\", \"b\"], [1, 2])", "OK list(tuple([string,number])) list<tuple([string,number])>[tuple[\"a\", 1], tuple[\"a\", 2], tuple[\"b\", 1], tuple[\"b\", 2]]"),
            ("setproduct(st, [1])", "OK set(tuple([string,number])) set<tuple([string,number])>[tuple[\"a\", 1], tuple[\"b\", 1]]"),
            ("setproduct([], [1])", "OK list(tuple([dynamic,number])) list<tuple([dynamic,number])>[]"),
            ("setproduct([\"a\", us], st)", "OK set(tuple([string,string])) set<tuple([string,string])>[tuple[\"a\", \"a\"], tuple[\"a\", \"b\"], tuple[unknown(string), \"a\"], tuple[unknown(string), \"b\"]]"),
            ("setproduct([1, \"a\"], [true])", "OK list(tuple([string,bool])) list<tuple([string,bool])>[tuple[\"1\", true], tuple[\"a\", true]]"),
            ("setproduct(l)", "ERR Error in function call @ 1:1:0-1:12:11"),
            ("setproduct(l, 1)", "ERR Invalid function argument @ 1:15:14-1:16:15"),
            ("setproduct([[1], [\"a\"]], [1])", "OK list(tuple([tuple([string]),number])) list<tuple([tuple([string]),number])>[tuple[tuple[\"1\"], 1], tuple[tuple[\"a\"], 1]]"),
            ("flatten(ou)", "OK tuple([string,string]) tuple[unknown(string), \"x\"]"),
            ("merge(no)", "ERR Error in function call @ 1:1:0-1:7:6"),
            ("merge(nul, st)", "OK object({\"a\"=string,\"b\"=string}) object{\"a\": \"a\", \"b\": \"b\"}"),
            ("merge(nul, l)", "ERR Error in function call @ 1:1:0-1:7:6"),
            ("setproduct(ln, sn, [1])", "OK set(tuple([number,number,number])) set<tuple([number,number,number])>[tuple[1, 1, 1], tuple[1, 2, 1], tuple[1, 3, 1], tuple[2, 1, 1], tuple[2, 2, 1], tuple[2, 3, 1], tuple[3, 1, 1], tuple[3, 2, 1], tuple[3, 3, 1]]"),
            ("coalesce(u, \"x\")", "OK string unknown(string)"),
            ("lookup(o, \"zz\", nul)", "OK dynamic null(dynamic)"),
        ],
        HclVersion::V2_14,
    );
}

// The first row agrees with the oracle. The second is this implementation's
// own limit: cty would build the product, this implementation refuses
// products larger than the limit rather than risk exhausting memory.
#[test]
fn setproduct_size_limit() {
    check_table(
        &[
            (
                "length(setproduct(range(512), range(512)))",
                "OK number 262144",
            ),
            (
                "setproduct(range(513), range(512))",
                "ERR Error in function call @ 1:1:0-1:12:11",
            ),
        ],
        HclVersion::V2_14,
    );
}

/// `distinct` keeps the first of the elements `Equals` calls equal, as a
/// comparison of every element with every kept one does.
#[test]
fn distinct_keeps_first_occurrences_by_equality() {
    use crate::eval::{evaluate, Context};
    use crate::value::Value;
    use std::collections::BTreeMap;
    use std::sync::Arc;
    let ctx = Context {
        variables: Arc::new(BTreeMap::new()),
        version: HclVersion::V2_24,
        base_dir: None,
    };
    let items = [
        "1",
        "1.0",
        "tonumber(\"1\")",
        "-0",
        "0",
        "0.5",
        "pow(2, -1)",
        "1e2",
        "100",
        "1e300",
    ];
    let list = format!("[{}]", items.join(", "));
    let evaluated =
        |src: &str| evaluate(&crate::parser::parse_expression(src).unwrap(), &ctx).unwrap();
    let all = evaluated(&format!("tolist({list})"));
    let mut naive: Vec<Value> = Vec::new();
    for item in all.element_values() {
        if !naive
            .iter()
            .any(|k| matches!(k.equals(item), Value::Bool(true)))
        {
            naive.push(item.clone());
        }
    }
    let got = evaluated(&format!("distinct({list})"));
    assert_eq!(got.element_values().len(), naive.len());
    for (g, n) in got.element_values().into_iter().zip(&naive) {
        assert!(g.raw_equals(n), "{g:?} {n:?}");
    }
    assert_eq!(naive.len(), 5, "1, -0, 0.5, 100, 1e300");
}
