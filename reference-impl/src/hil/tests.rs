//! Tables of 0.11 strings and what Terraform 0.11.11 made of them: every
//! expected value and error below was printed by the real binary (an
//! `output` of a configuration with the variables of [`scope`], applied,
//! then `terraform output -json`; errors reduced to their summary as
//! docs/protocol.md describes: of several validation errors, the one whose
//! message sorts first).

use std::collections::BTreeMap;

use super::*;

/// What Terraform answered.
enum Expect {
    /// The output's value as JSON.
    Value(&'static str),
    /// A load error with this summary.
    Parse(&'static str),
    /// A validation or apply error with this summary.
    Eval(&'static str),
}
use Expect::{Eval, Parse, Value};

/// The variables every case sees.
fn scope() -> Scope {
    let s = |v: &str| Val::text(v);
    let list = |items: &[&str]| Val::List(items.iter().map(|v| s(v)).collect());
    let map = |items: &[(&str, &str)]| {
        Val::Map(
            items
                .iter()
                .map(|(k, v)| (k.as_bytes().to_vec(), s(v)))
                .collect(),
        )
    };
    Scope::with_variables(BTreeMap::from([
        ("s".to_string(), s("hello")),
        ("l".to_string(), list(&["a", "b", "c"])),
        ("e".to_string(), list(&[])),
        ("m".to_string(), map(&[("a", "x"), ("b", "y")])),
        ("em".to_string(), map(&[])),
        ("n".to_string(), s("5")),
        ("f".to_string(), s("2.5")),
        ("ll".to_string(), list(&["1", "2"])),
    ]))
}

use super::gostr::json_text;

fn json(v: &Val) -> serde_json::Value {
    match v {
        Val::List(items) => serde_json::Value::Array(items.iter().map(json).collect()),
        Val::Map(items) => {
            serde_json::Value::Object(items.iter().map(|(k, v)| (json_text(k), json(v))).collect())
        }
        other => serde_json::Value::String(json_text(&other.weak_string().unwrap_or_default())),
    }
}

fn check(kind: SourceKind, cases: &[(&str, Expect)]) {
    let scope = scope();
    let mut wrong = Vec::new();
    for (source, want) in cases {
        let got = evaluate(kind, source, &scope);
        let ok = match (want, &got) {
            (Value(text), Ok(v)) => {
                serde_json::from_str::<serde_json::Value>(text).expect("expected JSON") == json(v)
            }
            (Parse(summary) | Eval(summary), Err(fault)) => {
                let e = to_error(fault, kind, source);
                let phase_ok = matches!(want, Parse(_)) == (e.phase == crate::Phase::Parse);
                phase_ok && e.summary == *summary
            }
            _ => false,
        };
        if !ok {
            wrong.push(format!("{source:?}: got {got:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn expressions() {
    check(SourceKind::Expression, EXPRESSIONS);
}

#[test]
fn templates() {
    check(SourceKind::Template, TEMPLATES);
}

/// Deep nesting that Terraform evaluates (3,000 parentheses, 3,000 minus
/// signs, 1,000 nested calls) evaluates here too, without exhausting the
/// stack.
#[test]
fn deep_nesting() {
    let parens = format!("{}1{}", "(".repeat(3000), ")".repeat(3000));
    let minus = format!("{}1", "-".repeat(3000));
    let calls = format!("{}\"a\"{}", "upper(".repeat(1000), ")".repeat(1000));
    let scope = scope();
    for (source, want) in [(parens, "1"), (minus, "1"), (calls, "A")] {
        let got = evaluate(SourceKind::Expression, &source, &scope);
        assert_eq!(got, Ok(Val::text(want)));
    }
}

/// Past the reference's own nesting limit (HIL has none) the answer is a
/// parse error, not a stack overflow.
#[test]
fn nesting_limit() {
    let deep = format!(
        "{}1{}",
        "(".repeat(MAX_NESTING_DEPTH + 1),
        ")".repeat(MAX_NESTING_DEPTH + 1)
    );
    let got = evaluate(SourceKind::Expression, &deep, &scope());
    assert!(
        matches!(
            got,
            Err(Fault {
                stage: Stage::Load,
                ..
            })
        ),
        "{got:?}"
    );
    let chain = vec!["1"; MAX_NESTING_DEPTH + 1].join("+");
    let got = evaluate(SourceKind::Expression, &chain, &scope());
    assert!(
        matches!(
            got,
            Err(Fault {
                stage: Stage::Load,
                ..
            })
        ),
        "{got:?}"
    );
}

/// Where Terraform 0.11.11 itself panics (`formatlist` indexing an empty
/// list that came before a longer one: "index out of range"), the answer
/// is `unsupported`, not a panic of the reference.
#[test]
fn terraform_panics_are_unsupported() {
    for source in [
        r#"formatlist("%s", var.e, var.l)"#,
        r#"formatlist("", var.e, var.e, var.ll)"#,
    ] {
        let got = evaluate(SourceKind::Expression, source, &scope());
        assert!(
            matches!(
                got,
                Err(Fault {
                    unsupported: true,
                    ..
                })
            ),
            "{source}: {got:?}"
        );
    }
}

const EXPRESSIONS: &[(&str, Expect)] = &[
    (r#"abs(-3.14)"#, Value(r#""3.14""#)),
    (r#"abs(1)"#, Value(r#""1""#)),
    (
        r#"abs("x")"#,
        Eval(r#"__builtin_StringToFloat: strconv.ParseFloat: parsing "x": invalid syntax"#),
    ),
    (r#"basename("/a/b/c.txt")"#, Value(r#""c.txt""#)),
    (r#"basename("")"#, Value(r#"".""#)),
    (r#"basename("a/b/")"#, Value(r#""b""#)),
    (r#"dirname("/a/b/c.txt")"#, Value(r#""/a/b""#)),
    (r#"dirname("c.txt")"#, Value(r#"".""#)),
    (r#"dirname("/")"#, Value(r#""/""#)),
    (r#"base64decode("aGVsbG8=")"#, Value(r#""hello""#)),
    (
        r#"base64decode("!!")"#,
        Eval(r#"base64decode: failed to decode base64 data '!!'"#),
    ),
    (r#"base64encode("hello")"#, Value(r#""aGVsbG8=""#)),
    (
        r#"base64gzip("hello")"#,
        Value(r#""H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA==""#),
    ),
    (
        r#"base64sha256("hello")"#,
        Value(r#""LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=""#),
    ),
    (
        r#"base64sha512("hello")"#,
        Value(
            r#""m3HSJL1i83hdltRq0+o9czGb+8KJDKra4t/3JRlnPKcjI8PZm6XBHXx6zG4UuMXaDEZjR1wuXDre9G9zvN7AQw==""#,
        ),
    ),
    (r#"ceil(1.2)"#, Value(r#""2""#)),
    (r#"ceil(-1.2)"#, Value(r#""-1""#)),
    (r#"ceil("2.5")"#, Value(r#""3""#)),
    (r#"floor(-1.5)"#, Value(r#""-2""#)),
    (r#"chomp("a\n\n")"#, Value(r#""a""#)),
    (r#"chunklist(var.l, 2)"#, Value(r#"[["a", "b"], ["c"]]"#)),
    (r#"chunklist(var.l, 0)"#, Value(r#"[["a", "b", "c"]]"#)),
    (
        r#"chunklist(var.l, -1)"#,
        Eval(r#"chunklist: The size argument must be positive"#),
    ),
    (r#"cidrhost("10.0.0.0/8", 2)"#, Value(r#""10.0.0.2""#)),
    (
        r#"cidrhost("10.0.0.0/8", -2)"#,
        Value(r#""10.255.255.254""#),
    ),
    (
        r#"cidrhost("10.0.0.0/30", 8)"#,
        Eval(r#"cidrhost: prefix of 30 does not accommodate a host numbered 8"#),
    ),
    (
        r#"cidrhost("x", 1)"#,
        Eval(r#"cidrhost: invalid CIDR expression: invalid CIDR address: x"#),
    ),
    (r#"cidrnetmask("10.0.0.0/8")"#, Value(r#""255.0.0.0""#)),
    (
        r#"cidrnetmask("x")"#,
        Eval(r#"cidrnetmask: invalid CIDR expression: invalid CIDR address: x"#),
    ),
    (
        r#"cidrsubnet("10.0.0.0/8", 8, 2)"#,
        Value(r#""10.2.0.0/16""#),
    ),
    (
        r#"cidrsubnet("10.0.0.0/8", 33, 2)"#,
        Eval(r#"cidrsubnet: may not extend prefix by more than 32 bits"#),
    ),
    (
        r#"cidrsubnet("10.0.0.0/8", 30, 2)"#,
        Eval(r#"cidrsubnet: insufficient address space to extend prefix of 8 by 30"#),
    ),
    (
        r#"cidrsubnet("10.0.0.0/8", 2, 9)"#,
        Eval(r#"cidrsubnet: prefix extension of 2 does not accommodate a subnet numbered 9"#),
    ),
    (
        r#"cidrsubnet("2607:f298:6051:516c::/64", 8, 2)"#,
        Value(r#""2607:f298:6051:516c:200::/72""#),
    ),
    (r#"coalesce("", "b")"#, Value(r#""b""#)),
    (
        r#"coalesce("a")"#,
        Eval(r#"coalesce: must provide at least two arguments"#),
    ),
    (r#"coalesce("", "")"#, Value(r#""""#)),
    (r#"coalescelist(var.e, var.l)"#, Value(r#"["a", "b", "c"]"#)),
    (
        r#"coalescelist(var.l)"#,
        Eval(r#"coalescelist: must provide at least two arguments"#),
    ),
    (r#"compact(list("a", "", "b"))"#, Value(r#"["a", "b"]"#)),
    (
        r#"concat(var.l, var.e, list("d"))"#,
        Value(r#"["a", "b", "c", "d"]"#),
    ),
    (
        r#"concat(var.l, list(var.l))"#,
        Eval(r#"concat: unexpected type list in list of type string"#),
    ),
    (r#"contains(var.l, "b")"#, Value(r#""true""#)),
    (r#"contains(var.l, "z")"#, Value(r#""false""#)),
    (r#"distinct(list("a","b","a"))"#, Value(r#"["a", "b"]"#)),
    (
        r#"distinct(var.l, var.l)"#,
        Eval(r#"distinct: accepts only one argument."#),
    ),
    (r#"element(var.l, 4)"#, Value(r#""b""#)),
    (
        r#"element(var.l, -1)"#,
        Eval(r#"element: invalid number for index, got -1"#),
    ),
    (
        r#"element(var.e, 0)"#,
        Eval(r#"element: element() may not be used with an empty list"#),
    ),
    (
        r#"element(var.l, "x")"#,
        Eval(r#"element: invalid number for index, got x"#),
    ),
    (
        r#"element(var.l, 1.7)"#,
        Eval(r#"element: invalid number for index, got 1.7"#),
    ),
    (
        r#"flatten(list(var.l, list(var.l, var.e)))"#,
        Value(r#"["a", "b", "c", "a", "b", "c"]"#),
    ),
    (r#"format("%03d-%s", 5, "x")"#, Value(r#""005-x""#)),
    (
        r#"format("%v %v %v", 1, 1.5, true)"#,
        Value(r#""1 1.5 true""#),
    ),
    (r#"format("%d", "x")"#, Value(r#""%!d(string=x)""#)),
    (r#"format("%s")"#, Value(r#""%!s(MISSING)""#)),
    (
        r#"format("%s", "a", "b")"#,
        Value(r#""a%!(EXTRA string=b)""#),
    ),
    (
        r#"format("%5.2f|%-5s|%x|%X|%o|%b|%e|%g", 3.14159, "ab", 255, 255, 8, 5, 1234.5, 0.000012)"#,
        Value(r#"" 3.14|ab   |ff|FF|10|101|1.234500e+03|1.2e-05""#),
    ),
    (
        r#"format("%q %v", "a\"b", var.l)"#,
        Value(
            r#""\"a\\\"b\" [{Variable (TypeString): a} {Variable (TypeString): b} {Variable (TypeString): c}]""#,
        ),
    ),
    (
        r#"format("%v", var.m)"#,
        Value(r#""map[a:{Variable (TypeString): x} b:{Variable (TypeString): y}]""#),
    ),
    (r#"format("%%")"#, Value(r#""%""#)),
    (r#"format("%")"#, Value(r#""%!(NOVERB)""#)),
    (
        r#"format("%+d % d %05d %-5d|", 3, 3, -3, 3)"#,
        Value(r#""+3  3 -0003 3    |""#),
    ),
    (r#"format("%t", true)"#, Value(r#""true""#)),
    (r#"format("%.3s", "abcdef")"#, Value(r#""abc""#)),
    (r#"format("%c %U", 65, 65)"#, Value(r#""A U+0041""#)),
    (
        r#"formatlist("%s-%s", var.l, "x")"#,
        Value(r#"["a-x", "b-x", "c-x"]"#),
    ),
    (
        r#"formatlist("%s", "x")"#,
        Eval(r#"formatlist: formatlist requires at least one list argument"#),
    ),
    (
        r#"formatlist("%s-%s", var.l, var.ll)"#,
        Eval(r#"formatlist: format: mismatched list lengths: 3 != 2"#),
    ),
    (
        r#"formatlist("a")"#,
        Eval(r#"formatlist: no arguments to formatlist"#),
    ),
    (r#"indent(2, "a\nb")"#, Value(r#""a\n  b""#)),
    (r#"index(var.l, "b")"#, Value(r#""1""#)),
    (
        r#"index(var.l, "z")"#,
        Eval(
            r#"index: Could not find 'z' in '[{Variable (TypeString): a} {Variable (TypeString): b} {Variable (TypeString): c}]'"#,
        ),
    ),
    (r#"join(",", var.l)"#, Value(r#""a,b,c""#)),
    (
        r#"join(",")"#,
        Eval(r#"join: not enough arguments to join()"#),
    ),
    (r#"join(",", var.l, var.ll)"#, Value(r#""a,b,c,1,2""#)),
    (r#"jsonencode(var.l)"#, Value(r#""[\"a\",\"b\",\"c\"]""#)),
    (
        r#"jsonencode(var.m)"#,
        Value(r#""{\"a\":\"x\",\"b\":\"y\"}""#),
    ),
    (r#"jsonencode("a<b>")"#, Value(r#""\"a\\u003cb\\u003e\"""#)),
    (
        r#"jsonencode(1)"#,
        Eval(r#"jsonencode: unknown type for JSON encoding: int"#),
    ),
    (
        r#"jsonencode(list(var.l))"#,
        Value(r#""[[\"a\",\"b\",\"c\"]]""#),
    ),
    (r#"keys(var.m)"#, Value(r#"["a", "b"]"#)),
    (r#"values(var.m)"#, Value(r#"["x", "y"]"#)),
    (r#"length("héllo")"#, Value(r#""6""#)),
    (r#"length(var.l)"#, Value(r#""3""#)),
    (r#"length(var.m)"#, Value(r#""2""#)),
    (
        r#"length(1)"#,
        Eval(r#"length: arguments to length() must be a string, list, or map"#),
    ),
    (
        r#"list("a", var.l)"#,
        Eval(r#"list: unexpected type TypeList for argument 1 in list"#),
    ),
    (
        r#"list(1)"#,
        Eval(r#"list: unexpected type int for argument 0 in list"#),
    ),
    (
        r#"list(var.l, var.l)"#,
        Value(r#"[["a", "b", "c"], ["a", "b", "c"]]"#),
    ),
    (r#"log(8, 2)"#, Value(r#""3""#)),
    (r#"lookup(var.m, "a")"#, Value(r#""x""#)),
    (
        r#"lookup(var.m, "z")"#,
        Eval(r#"lookup: lookup failed to find 'z'"#),
    ),
    (r#"lookup(var.m, "z", "d")"#, Value(r#""d""#)),
    (
        r#"lookup(var.m, "z", "d", "e")"#,
        Eval(r#"lookup: lookup() takes no more than three arguments"#),
    ),
    (r#"lower("ABC")"#, Value(r#""abc""#)),
    (r#"upper("abc")"#, Value(r#""ABC""#)),
    (
        r#"map("a", 1, "b", true)"#,
        Value(r#"{"a": "1", "b": "1"}"#),
    ),
    (
        r#"map("a", "b", "a", "c")"#,
        Eval(r#"map: argument 3 is a duplicate key: "a""#),
    ),
    (
        r#"map("a")"#,
        Eval(r#"map: requires an even number of arguments, got 1"#),
    ),
    (
        r#"map(1, "x")"#,
        Eval(r#"map: argument 1 represents a key, so it must be a string"#),
    ),
    (r#"map("a", var.l)"#, Value(r#"{"a": ["a", "b", "c"]}"#)),
    (
        r#"map("a", "x", "b", var.l)"#,
        Eval(r#"map: all map values must have the same type, got type string then type list"#),
    ),
    (
        r#"matchkeys(var.l, var.ll, list("1"))"#,
        Eval(r#"matchkeys: length of keys and values should be equal"#),
    ),
    (r#"matchkeys(var.l, var.l, list("b"))"#, Value(r#"["b"]"#)),
    (r#"max(1, 5.5, 3)"#, Value(r#""5.5""#)),
    (r#"min(1, -2)"#, Value(r#""-2""#)),
    (
        r#"md5("a")"#,
        Value(r#""0cc175b9c0f1b6a831c399e269772661""#),
    ),
    (
        r#"merge(var.m, map("c", "z"))"#,
        Value(r#"{"a": "x", "b": "y", "c": "z"}"#),
    ),
    (r#"pow(2, 10)"#, Value(r#""1024""#)),
    (r#"pow(2, 0.5)"#, Value(r#""1.4142135623730951""#)),
    (r#"replace("hello", "l", "L")"#, Value(r#""heLLo""#)),
    (r#"replace("hello", "/l+/", "L")"#, Value(r#""heLo""#)),
    (
        r#"replace("hello", "/(l)/", "$1$1")"#,
        Value(r#""hellllo""#),
    ),
    (
        r#"replace("hello", "/(/", "x")"#,
        Eval(r#"replace: error parsing regexp: missing closing ): `(`"#),
    ),
    (
        r#"sha1("a")"#,
        Value(r#""86f7e437faa5a7fce15d1ddcb9eaeaea377667b8""#),
    ),
    (
        r#"sha256("a")"#,
        Value(r#""ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb""#),
    ),
    (
        r#"sha512("a")"#,
        Value(
            r#""1f40fc92da241694750979ee6cf582f2d5d7d28e18335de05abc54d0560e0f5302860c652bf08d560252aa5e74210546f369fbbbce8c12cfc7957b2652fe9a75""#,
        ),
    ),
    (r#"signum(-5)"#, Value(r#""-1""#)),
    (r#"signum(0)"#, Value(r#""0""#)),
    (r#"slice(var.l, 1, 2)"#, Value(r#"["b"]"#)),
    (
        r#"slice(var.l, 2, 1)"#,
        Eval(r#"slice: from index must be <= to index"#),
    ),
    (
        r#"slice(var.l, 0, 9)"#,
        Eval(r#"slice: to index must be <= length of the input list"#),
    ),
    (r#"sort(list("b", "a"))"#, Value(r#"["a", "b"]"#)),
    (r#"split(",", "a,b,,c")"#, Value(r#"["a", "b", "", "c"]"#)),
    (r#"split("", "abc")"#, Value(r#"["a", "b", "c"]"#)),
    (r#"substr("hello", 1, 3)"#, Value(r#""ell""#)),
    (r#"substr("hello", -3, -1)"#, Value(r#""llo""#)),
    (
        r#"substr("hello", 1, 9)"#,
        Eval(r#"substr: 'offset + length' cannot be larger than the length of the string"#),
    ),
    (
        r#"substr("hello", 9, 1)"#,
        Eval(r#"substr: offset cannot be larger than the length of the string"#),
    ),
    (
        r#"substr("hello", 1, -2)"#,
        Eval(r#"substr: length should be a non-negative integer"#),
    ),
    (
        r#"timeadd("2017-11-22T00:00:00Z", "10m")"#,
        Value(r#""2017-11-22T00:10:00Z""#),
    ),
    (
        r#"timeadd("x", "10m")"#,
        Eval(
            r#"timeadd: parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006""#,
        ),
    ),
    (r#"title("hello world")"#, Value(r#""Hello World""#)),
    (
        r#"transpose(map("a", list("1","2"), "b", list("2","3")))"#,
        Value(r#"{"1": ["a"], "2": ["a", "b"], "3": ["b"]}"#),
    ),
    (r#"trimspace("  a  ")"#, Value(r#""a""#)),
    (r#"urlencode("a b&c")"#, Value(r#""a+b%26c""#)),
    (
        r#"zipmap(var.l, var.l)"#,
        Value(r#"{"a": "a", "b": "b", "c": "c"}"#),
    ),
    (
        r#"zipmap(var.l, var.ll)"#,
        Eval(r#"zipmap: count of keys (3) does not match count of values (2)"#),
    ),
    (r#"1+2"#, Value(r#""3""#)),
    (r#"5.0/2"#, Value(r#""2.5""#)),
    (
        r#"1 + "1.5""#,
        Eval(r#"__builtin_StringToInt: strconv.ParseInt: parsing "1.5": invalid syntax"#),
    ),
    (r#"2.0 * "3""#, Value(r#""6""#)),
    (r#""10" > "9""#, Value(r#""true""#)),
    (
        r#""a" < "b""#,
        Eval(r#"__builtin_StringToInt: strconv.ParseInt: parsing "a": invalid syntax"#),
    ),
    (r#"false ? 1 : 2.5"#, Value(r#""2""#)),
    (
        r#"1e3"#,
        Parse(r#"parse error at 1:4: expected "}" but found "e3""#),
    ),
    (
        r#"var.list.0"#,
        Parse(
            r#"Invalid dot index found: 'var.list.0'. Values in maps and lists can be referenced using square bracket indexing, like: 'var.mymap["key"]' or 'var.mylist[1]'."#,
        ),
    ),
    (r#"nosuch(1)"#, Eval(r#"unknown function called: nosuch"#)),
    (
        r#"var.nope"#,
        Eval(r#"unknown variable referenced: 'nope'; define it with a 'variable' block"#),
    ),
    (
        r#"9223372036854775807 + 1"#,
        Value(r#""-9223372036854775808""#),
    ),
    (r#"5 % 2.0"#, Eval(r#"modulo cannot be used with floats"#)),
    (
        r#"aws_instance.foo.*.id"#,
        Eval(r#"unknown resource 'aws_instance.foo' referenced in variable aws_instance.foo.*.id"#),
    ),
    (
        r#"count.index"#,
        Eval(r#"count variables are only valid within resources"#),
    ),
    (
        r#"local.x"#,
        Eval(r#"local.x: no local value of this name has been declared"#),
    ),
    (
        r#"var.l[5]"#,
        Eval(r#"index 5 out of range for list var.l (max 3)"#),
    ),
    (
        r#"true ? var.l : var.l"#,
        Eval(r#"conditional operator cannot be used with list values"#),
    ),
    (
        r#"foo"#,
        Eval(
            r#"invalid variable syntax: "foo". Did you mean 'var.foo'? If this is part of inline `template` parameter
then you must escape the interpolation with two dollar signs. For
example: ${a} becomes $${a}."#,
        ),
    ),
    (
        r#"foo.bar"#,
        Parse(r#"foo.bar: resource variables must be three parts: TYPE.NAME.ATTR"#),
    ),
    (
        r#"data.x.y"#,
        Parse(r#"data.x.y: data variables must be four parts: data.TYPE.NAME.ATTR"#),
    ),
    (
        r#"module.a"#,
        Parse(r#"module.a: module variables must be three parts: module.name.attr"#),
    ),
    (
        r#"module.a.b"#,
        Eval(r#"reference to undefined module "a""#),
    ),
    (r#"self.x"#, Eval(r#"cannot contain self-reference self.x"#)),
    (r#"terraform.workspace"#, Value(r#""default""#)),
    (
        r#"terraform.foo"#,
        Eval(
            r#"terraform.foo: only supported key for 'terraform.X' interpolations is 'workspace'"#,
        ),
    ),
    (
        r#"count.foo"#,
        Eval(r#"count variables are only valid within resources"#),
    ),
    (r#"path.foo"#, Eval(r#"invalid path variable: path.foo"#)),
    (
        r#"local.x.y"#,
        Parse(r#"Can't use dot (.) attribute access in local.x.y; use square bracket indexing"#),
    ),
    (
        r#"var.m.a"#,
        Parse(
            r#"Invalid dot index found: 'var.m.a'. Values in maps and lists can be referenced using square bracket indexing, like: 'var.mymap["key"]' or 'var.mylist[1]'."#,
        ),
    ),
    (
        r#"var."#,
        Eval(r#"unknown variable referenced: ''; define it with a 'variable' block"#),
    ),
    (
        r#"var.s[0]"#,
        Eval(r#"invalid index operation into non-indexable type: TypeString"#),
    ),
    (
        r#"var.m[0]"#,
        Eval(r#"key "0" does not exist in map var.m"#),
    ),
    (
        r#"var.l["a"]"#,
        Eval(r#"__builtin_StringToInt: strconv.ParseInt: parsing "a": invalid syntax"#),
    ),
    (r#"var.l["1"]"#, Value(r#""b""#)),
    (r#"var.l[1.5]"#, Value(r#""b""#)),
    (
        r#"var.em["a"]"#,
        Eval(r#"map "var.em" does not have any elements so cannot determine type."#),
    ),
    (
        r#"var.e[0]"#,
        Eval(r#"list "var.e" does not have any elements so cannot determine type."#),
    ),
    (
        r#"var.l[-1]"#,
        Eval(r#"index -1 out of range for list var.l (max 3)"#),
    ),
    (
        r#"1 +"#,
        Parse(r#"parse error at 1:6: expected expression but found "}""#),
    ),
    (r#"upper()"#, Eval(r#"upper: expected 1 arguments, got 0"#)),
    (
        r#"upper("a", "b")"#,
        Eval(r#"upper: expected 1 arguments, got 2"#),
    ),
    (
        r#""x${var.l}""#,
        Eval(
            r#"output of an HIL expression must be a string, or a single list (argument 2 is TypeList)"#,
        ),
    ),
    (r#"-5"#, Value(r#""-5""#)),
    (r#"!true"#, Value(r#""false""#)),
    (r#"- -5"#, Value(r#""5""#)),
    (r#"1.0/3"#, Value(r#""0.3333333333333333""#)),
    (
        r#"100000000000000000000"#,
        Parse(
            r#"parse error at 1:3: invalid integer: strconv.Atoi: parsing "100000000000000000000": value out of range"#,
        ),
    ),
    (
        r#""1.5" + 1"#,
        Eval(r#"__builtin_StringToInt: strconv.ParseInt: parsing "1.5": invalid syntax"#),
    ),
    (r#"1 == "1""#, Value(r#""true""#)),
    (r#"true && "false""#, Value(r#""false""#)),
    (
        r#"1 && true"#,
        Eval(r#"logical operators require boolean operands, not TypeInt"#),
    ),
    (
        r#"true ? "a" : 1"#,
        Eval(r#"__builtin_StringToInt: strconv.ParseInt: parsing "a": invalid syntax"#),
    ),
    (
        r#""x" ? 1 : 2"#,
        Eval(r#"__builtin_StringToBool: strconv.ParseBool: parsing "x": invalid syntax"#),
    ),
    (r#"3 / 0"#, Eval(r#"__builtin_IntMath: divide by zero"#)),
    (r#"3 % 0"#, Eval(r#"__builtin_IntMath: divide by zero"#)),
    (r#"0.0/0"#, Value(r#""NaN""#)),
    (r#"-3 % 2"#, Value(r#""-1""#)),
    (r#"7 / -2"#, Value(r#""-3""#)),
    (r#"1000000.0*10"#, Value(r#""1e+07""#)),
    (r#"0.1+0.2"#, Value(r#""0.30000000000000004""#)),
    (r#"123456789.0"#, Value(r#""1.23456789e+08""#)),
    (r#"0.0001"#, Value(r#""0.0001""#)),
    (r#"0.00001"#, Value(r#""1e-05""#)),
    (
        r#"1e300 * 10"#,
        Parse(r#"parse error at 1:4: expected "}" but found "e300""#),
    ),
    (r#"1.0 / 3 * 3"#, Value(r#""1""#)),
    (
        r#"2.5 * 1e2"#,
        Parse(r#"parse error at 1:10: expected "}" but found "e2""#),
    ),
    (r#"1/3.0"#, Value(r#""0.3333333333333333""#)),
    (r#"100000000000000000000.0"#, Value(r#""1e+20""#)),
    (r#"0.000001234"#, Value(r#""1.234e-06""#)),
    (r#"-0.0 * 1"#, Value(r#""0""#)),
    (
        r#"concat(aws.x.y, var.nope)"#,
        Eval(r#"unknown resource 'aws.x' referenced in variable aws.x.y"#),
    ),
    (
        r#"concat(module.a.b, aws.x.y)"#,
        Eval(r#"reference to undefined module "a""#),
    ),
    (
        r#"concat(count.foo, self.x)"#,
        Eval(r#"cannot contain self-reference self.x"#),
    ),
    (r#"map("a", list())"#, Value(r#"{"a": {}}"#)),
    (
        r#"var.l[true]"#,
        Eval(r#"key of an index must be an int, was TypeBool"#),
    ),
    (
        r#"list(1) == 1"#,
        Eval(r#"comparison operators apply only to bool, float, int, and string"#),
    ),
    (
        r#"var.l == var.l"#,
        Eval(r#"comparison operators apply only to bool, float, int, and string"#),
    ),
    (
        r#"1 < true"#,
        Eval(r#"operand 2 should be TypeInt, got TypeBool"#),
    ),
    (
        r#"upper(var.l)"#,
        Eval(r#"upper: argument 1 should be type string, got type list"#),
    ),
    (
        r#"join(",", "x")"#,
        Eval(r#"join: argument 1 should be type list, got type string"#),
    ),
    (
        r#"coalesce("a", var.l)"#,
        Eval(r#"coalesce: argument 1 should be type string, got type list"#),
    ),
    (
        r#"format("%5.2f|%-5s|%x|%X|%o|%b", 3.14159, "ab", 255, 255, 8, 5)"#,
        Value(r#"" 3.14|ab   |ff|FF|10|101""#),
    ),
    (
        r#"format("%e|%E|%g|%G", 1234.5, 0.000012, 1e21, 1e-7)"#,
        Parse(r#"parse error at 1:44: expected ")" but found "e21""#),
    ),
    (
        r#"format("%v|%v|%v", 1e6, 123456.0, 1234567.0)"#,
        Parse(r#"parse error at 1:23: expected ")" but found "e6""#),
    ),
    (
        r#"format("%08.3f|%+.2e|% d", -3.14159, 12345.678, 42)"#,
        Value(r#""-003.142|+1.23e+04| 42""#),
    ),
    (
        r#"format("%05s|%-8q|%x", "ab", "x", "hi")"#,
        Value(r#""000ab|\"x\"     |6869""#),
    ),
    (
        r#"format("%d|%s", 1.5, 2)"#,
        Value(r#""%!d(float64=1.5)|%!s(int=2)""#),
    ),
    (
        r#"format("%t|%v", "x", true)"#,
        Value(r#""%!t(string=x)|true""#),
    ),
    (
        r#"format("%!|%z", 1)"#,
        Value(r#""%!!(int=1)|%!z(MISSING)""#),
    ),
    (r#"format("%*d", 5, 42)"#, Value(r#""   42""#)),
    (r#"format("%.*f", 2, 3.14159)"#, Value(r#""3.14""#)),
    (r#"format("%[1]d", 5)"#, Value(r#""5""#)),
    (
        r#"format("%#x|%#o|%#v", 255, 8, "a")"#,
        Value(r#""0xff|010|\"a\"""#),
    ),
    (
        r#"format("%c|%q|%U|%#U", 9731, 65, 9731, 9731)"#,
        Value(r#""☃|'A'|U+2603|U+2603 '☃'""#),
    ),
    (
        r#"format("%d", var.l)"#,
        Value(r#""[{%!d(string=a) 8} {%!d(string=b) 8} {%!d(string=c) 8}]""#),
    ),
    (
        r#"format("%v", list(var.l))"#,
        Value(
            r#""[{Variable (TypeList): [{Variable (TypeString): a} {Variable (TypeString): b} {Variable (TypeString): c}]}]""#,
        ),
    ),
    (
        r#"format("%6.2v|%.3v", 3.14159, "abcdef")"#,
        Value(r#""   3.1|abc""#),
    ),
    (
        r#"format("%x|% x|%X", "héllo", "ab", 3.5)"#,
        Value(r#""68c3a96c6c6f|61 62|%!X(float64=3.5)""#),
    ),
    (
        r#"format("%.0f|%.0f|%.0f", 0.5, 1.5, 2.5)"#,
        Value(r#""0|2|2""#),
    ),
    (
        r#"format("%.3g|%g|%g", 123456.0, 100000.0, 0.0001)"#,
        Value(r#""1.23e+05|100000|0.0001""#),
    ),
    (
        r#"format("%5t|%-5t|", true, false)"#,
        Value(r#"" true|false|""#),
    ),
    (r#"format("%d%%", 50)"#, Value(r#""50%""#)),
    (r#"format("%", 1)"#, Value(r#""%!(NOVERB)%!(EXTRA int=1)""#)),
    (
        r#"format("%-", 1)"#,
        Value(r#""%!(NOVERB)%!(EXTRA int=1)""#),
    ),
    (r#"format("%.", 1)"#, Value(r#""%!.(int=1)""#)),
    (
        r#"1.0 * 1e15"#,
        Parse(r#"parse error at 1:10: expected "}" but found "e15""#),
    ),
    (
        r#"1e20 * 10.0"#,
        Parse(r#"parse error at 1:4: expected "}" but found "e20""#),
    ),
    (r#"1.0 / 3"#, Value(r#""0.3333333333333333""#)),
    (r#"2.0 / 3 * 100"#, Value(r#""66.66666666666666""#)),
    (r#"0.1 * 3"#, Value(r#""0.30000000000000004""#)),
    (r#"100.0 / 7"#, Value(r#""14.285714285714286""#)),
    (
        r#"1e-5 * 1"#,
        Parse(r#"parse error at 1:4: expected "}" but found "e-5""#),
    ),
    (
        r#"123456789012345678.0"#,
        Value(r#""1.2345678901234568e+17""#),
    ),
    (
        r#"-1.5e-10 * 1"#,
        Parse(r#"parse error at 1:7: expected "}" but found "e-10""#),
    ),
    (
        r#"5e-324 * 1"#,
        Parse(r#"parse error at 1:4: expected "}" but found "e-324""#),
    ),
    (
        r#"1.7976931348623157e308 * 10"#,
        Parse(r#"parse error at 1:21: expected "}" but found "e308""#),
    ),
    (r#"format("%[2]d %[1]s", "a", 5)"#, Value(r#""5 a""#)),
    (r#"format("%[3]d", 1)"#, Value(r#""%!d(BADINDEX)""#)),
    (r#"format("%[x]d", 1)"#, Value(r#""%!d(BADINDEX)""#)),
    (r#"format("%d %d %[1]d", 1, 2)"#, Value(r#""1 2 1""#)),
    (r#"format("%-*d|", 4, 7)"#, Value(r#""7   |""#)),
    (r#"format("%*d", "x", 1)"#, Value(r#""%!(BADWIDTH)1""#)),
    (
        r#"format("%q", var.l)"#,
        Value(
            r#""[\"{Variable (TypeString): a}\" \"{Variable (TypeString): b}\" \"{Variable (TypeString): c}\"]""#,
        ),
    ),
    (
        r#"format("%d", list(var.l))"#,
        Value(r#""[{[{%!d(string=a) 8} {%!d(string=b) 8} {%!d(string=c) 8}] 64}]""#),
    ),
    (r#"format("%#q", "a")"#, Value(r#""`a`""#)),
    (r#"format("%+q", "é☃")"#, Value(r#""\"\\u00e9\\u2603\"""#)),
    (r#"format("%+v|%+s|%+d", 1, "a", 1)"#, Value(r#""1|a|+1""#)),
    (
        r#"timeadd("2017-11-22T00:00:00+05:30", "-1h30m")"#,
        Value(r#""2017-11-21T22:30:00+05:30""#),
    ),
    (
        r#"timeadd("2017-11-22", "1h")"#,
        Eval(
            r#"timeadd: parsing time "2017-11-22" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T""#,
        ),
    ),
    (
        r#"timeadd("2017-11-22T00:00:00Z", "1d")"#,
        Eval(r#"timeadd: time: unknown unit d in duration 1d"#),
    ),
    (
        r#"cidrsubnet("10.0.0.0/8", -1, 0)"#,
        Value(r#""10.0.0.0/7""#),
    ),
    (
        r#"cidrhost("192.168.1.0/24", -257)"#,
        Eval(r#"cidrhost: prefix of 24 does not accommodate a host numbered -1"#),
    ),
    (
        r#"cidrnetmask("fd00::/64")"#,
        Value(r#""ffff:ffff:ffff:ffff::""#),
    ),
    (
        r#"concat(var.nope, aws.x.y)"#,
        Eval(r#"unknown resource 'aws.x' referenced in variable aws.x.y"#),
    ),
];

const TEMPLATES: &[(&str, Expect)] = &[
    (r#"hello"#, Value(r#""hello""#)),
    (r#"a${1+1}b"#, Value(r#""a2b""#)),
    (r#"$${x}"#, Value(r#""${x}""#)),
    (r#"$$${1}"#, Value(r#""$1""#)),
    (
        r#"${}"#,
        Parse(r#"parse error at 1:3: expected expression but found "}""#),
    ),
    (r#"}"#, Value(r#""}""#)),
    (r#"a}b"#, Value(r#""a}b""#)),
    (r#"${1}${2}"#, Value(r#""12""#)),
    (
        r#"x ${var.l}"#,
        Eval(
            r#"output of an HIL expression must be a string, or a single list (argument 2 is TypeList)"#,
        ),
    ),
    (
        r#"${var.l}${var.l}"#,
        Eval(
            r#"output of an HIL expression must be a string, or a single list (argument 1 is TypeList)"#,
        ),
    ),
    (r#"${upper("a${"b"}c")}"#, Value(r#""ABC""#)),
    (
        r#"${"unterminated}"#,
        Parse(r#"parse error at 1:4: expected "${" but found invalid sequence "unterminated}""#),
    ),
    (
        r#"a ${nosuch()}"#,
        Eval(r#"unknown function called: nosuch"#),
    ),
    (
        r#"a ${1 + "x"}"#,
        Eval(r#"__builtin_StringToInt: strconv.ParseInt: parsing "x": invalid syntax"#),
    ),
    (r#"$"#, Value(r#""$""#)),
    (r#"a$"#, Value(r#""a$""#)),
    (
        r#"${1 2}"#,
        Parse(r#"parse error at 1:5: expected "}" but found integer 2"#),
    ),
    (
        r#"${(1}"#,
        Parse(r#"parse error at 1:5: expected ")" but found "}""#),
    ),
    (
        r#"${var.l[0}"#,
        Parse(r#"parse error at 1:10: expected "]" but found "}""#),
    ),
    (
        r#"${f(1,}"#,
        Parse(r#"parse error at 1:7: expected expression but found "}""#),
    ),
    (
        r#"${1 = 2}"#,
        Parse(r#"parse error at 1:5: expected "}" but found invalid sequence "=""#),
    ),
    (
        r#"${1 & 2}"#,
        Parse(r#"parse error at 1:5: expected "}" but found invalid sequence "&""#),
    ),
    (
        r#"${a.*.b}"#,
        Eval(r#"unknown resource 'a.*' referenced in variable a.*.b"#),
    ),
    (
        r#"${a.*b}"#,
        Parse(r#"parse error at 1:6: expected "}" but found ".""#),
    ),
    (
        r#"${1.2.3}"#,
        Parse(r#"parse error at 1:6: expected "}" but found ".""#),
    ),
    (
        r#"${é}"#,
        Eval(
            r#"invalid variable syntax: "é". Did you mean 'var.é'? If this is part of inline `template` parameter
then you must escape the interpolation with two dollar signs. For
example: ${a} becomes $${a}."#,
        ),
    ),
    (
        r#"${#}"#,
        Parse(r##"parse error at 1:3: expected expression but found invalid sequence "#""##),
    ),
    (
        r#"${var.l[0][1]}"#,
        Parse(r#"parse error at 1:11: expected "}" but found "[""#),
    ),
    (
        r#"${1 ? 2}"#,
        Parse(r#"parse error at 1:8: expected : but found "}""#),
    ),
    (r#"${"$${x}"}"#, Value(r#""${x}""#)),
    (
        r#"${"a" "b"}"#,
        Parse(r#"parse error at 1:7: expected "}" but found opening quote"#),
    ),
    (
        r#"${var.l}x"#,
        Eval(
            r#"output of an HIL expression must be a string, or a single list (argument 1 is TypeList)"#,
        ),
    ),
    (r#"${"a\nb"}"#, Value(r#""a\nb""#)),
    (r#"${"a\"b"}"#, Value(r#""a\"b""#)),
    (r#"${"a\\b"}"#, Value(r#""a\\b""#)),
];
