//! Expected values below were produced by go-cty 1.12 / Go 1.19 math/big
//! (amd64). Operand specs: `i:N` is `cty.NumberIntVal`, `f:X` is
//! `cty.NumberFloatVal`, `c+` / `c-` are `cty.PositiveInfinity` /
//! `cty.NegativeInfinity`, anything else goes through `cty.ParseNumberVal`.
//! Results are `text/precision`; `{c*n}` stands for `n` copies of `c`.

use super::*;

fn num(spec: &str) -> Number {
    if let Some(v) = spec.strip_prefix("i:") {
        Number::from_i64(v.parse().unwrap())
    } else if let Some(v) = spec.strip_prefix("f:") {
        Number::from_f64(v.parse().unwrap())
    } else if spec == "c+" || spec == "c-" {
        Number::infinity(spec == "c-")
    } else {
        Number::parse(spec).unwrap()
    }
}

fn expand(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').unwrap() + start;
        let (c, n) = rest[start + 1..end].split_once('*').unwrap();
        out.push_str(&c.repeat(n.parse().unwrap()));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

fn shown(n: &Number) -> String {
    format!("{}/{}", n.text(), n.precision())
}

const PARSE: &[(&str, &str)] = &[
    ("0.1", "0.1/512"),
    ("0.3", "0.3/512"),
    ("1e400", "1{0*400}/512"),
    ("1e-400", "0.{0*399}1/512"),
    ("-0", "-0/512"),
    ("+0", "0/512"),
    (
        "123456789012345678901234567890",
        "123456789012345678901234567890/512",
    ),
    ("1.5E-3", "0.0015/512"),
    ("Inf", "+Inf/512"),
    ("+inf", "+Inf/512"),
    ("-Inf", "-Inf/512"),
    ("1_000", "ERR:PARSE"),
    ("0x10", "ERR:PARSE"),
    (".5", "0.5/512"),
    ("1.", "1/512"),
    (" 1", "ERR:PARSE"),
    ("1e", "ERR:PARSE"),
    ("infinity", "ERR:PARSE"),
    ("NaN", "ERR:PARSE"),
    ("1p-3", "0.125/512"),
    ("0e99999999999", "0/512"),
    ("1e2147483647", "ERR:PARSE"),
    ("1e646456993", "+Inf/512"),
    ("00012.50", "12.5/512"),
    ("9007199254740993", "9007199254740993/512"),
    (
        "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899863",
        "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899863/512",
    ),
];

#[test]
fn parse_matches_go() {
    for (input, want) in PARSE {
        let got = Number::parse(input).map_or("ERR:PARSE".to_string(), |n| shown(&n));
        assert_eq!(got, expand(want), "parse {input:?}");
    }
}

const BINARY: &[(&str, &str, &str, &str)] = &[
    ("0.1", "add", "0.2", "0.3/512"),
    (
        "0.1",
        "add",
        "f:0.2",
        "0.300000000000000011102230246251565404236316680908203125/512",
    ),
    ("f:0.1", "add", "f:0.2", "0.30000000000000004/53"),
    ("i:1", "quo", "i:3", "0.33333333333333333334/64"),
    ("1", "quo", "3", "0.{3*154}5/512"),
    ("f:1", "quo", "3", "0.{3*154}5/512"),
    ("i:2", "quo", "f:3", "0.6666666666666666667/64"),
    ("0.1", "mul", "0.1", "0.01{0*153}1/512"),
    (
        "i:4294967297",
        "mul",
        "i:4294967297",
        "18446744082299486209/65",
    ),
    (
        "f:0.1",
        "mul",
        "f:0.1",
        "0.0100000000000000011102230246251566/104",
    ),
    ("1e400", "quo", "3", "{3*154}4{0*245}/512"),
    ("i:7", "sub", "i:7", "0/64"),
    ("-0", "add", "-0", "-0/512"),
    ("-0", "sub", "0", "-0/512"),
    ("Inf", "add", "-Inf", "ERR:NaN"),
    ("Inf", "sub", "Inf", "ERR:NaN"),
    ("0", "mul", "Inf", "ERR:NaN"),
    ("0", "quo", "0", "ERR:NaN"),
    ("Inf", "quo", "-Inf", "ERR:NaN"),
    ("1", "quo", "0", "+Inf/512"),
    ("-1", "quo", "0", "-Inf/512"),
    ("1", "quo", "Inf", "0/512"),
    ("-1", "quo", "Inf", "-0/512"),
    ("i:7", "mod", "i:3", "1/64"),
    ("i:-7", "mod", "i:3", "-1/64"),
    ("i:7", "mod", "i:-3", "1/64"),
    ("5.5", "mod", "2", "1.5/512"),
    ("-5.5", "mod", "2", "-1.5/512"),
    ("1", "mod", "0.3", "0.0{9*153}55/512"),
    ("i:5", "mod", "i:0", "5/64"),
    ("i:5", "mod", "-0", "5/64"),
    ("-0", "mod", "i:5", "-0/512"),
    ("0", "mod", "i:5", "0/512"),
    ("1e400", "mod", "3", "0/512"),
    ("i:10", "mod", "f:0.1", "0.09999999999999945044/64"),
    ("Inf", "mod", "i:3", "ERR:PANIC"),
    ("i:3", "mod", "Inf", "ERR:NaN"),
    ("Inf", "mod", "Inf", "ERR:NaN"),
    ("Inf", "mod", "0", "+Inf/512"),
    ("c+", "mod", "i:3", "+Inf/64"),
    ("c-", "mod", "i:3", "-Inf/64"),
    ("c+", "mod", "i:0", "ERR:NaN"),
    ("i:3", "mod", "c-", "-Inf/64"),
    ("i:2", "pow", "i:10", "1024/53"),
    ("f:1.5", "pow", "i:2", "2.25/53"),
    ("i:2", "pow", "0.5", "1.4142135623730951/53"),
    ("i:-8", "pow", "f:0.3333333333333333", "ERR:PANIC"),
    ("1e400", "pow", "i:2", "ERR:RANGE"),
    ("i:10", "pow", "i:-2", "0.01/53"),
    ("i:100", "log", "i:10", "2/53"),
    ("i:8", "log", "i:2", "3/53"),
    ("i:1", "log", "i:1", "ERR:PANIC"),
    ("i:-1", "log", "i:10", "ERR:PANIC"),
    ("i:0", "log", "i:10", "-Inf/53"),
    ("i:1000", "log", "i:10", "2.9999999999999996/53"),
];

#[test]
fn binary_ops_match_go() {
    for (a, op, b, want) in BINARY {
        let (x, y) = (num(a), num(b));
        let got = match *op {
            "add" => x.add(&y).map_err(|_| "ERR:NaN"),
            "sub" => x.sub(&y).map_err(|_| "ERR:NaN"),
            "mul" => x.mul(&y).map_err(|_| "ERR:NaN"),
            "quo" => x.quo(&y).map_err(|_| "ERR:NaN"),
            "mod" => x.try_modulo(&y).map_err(|e| match e {
                ModuloError::NotANumber => "ERR:NaN",
                ModuloError::NilIntegerPanic => "ERR:PANIC",
            }),
            "pow" | "log" => {
                let r = if *op == "pow" { x.pow(&y) } else { x.log(&y) };
                r.map_err(|e| match e {
                    MathFnError::OutOfRange(_) => "ERR:RANGE",
                    MathFnError::NotANumber => "ERR:PANIC",
                })
            }
            _ => unreachable!(),
        };
        let got = got.map_or_else(str::to_string, |n| shown(&n));
        assert_eq!(got, expand(want), "{a} {op} {b}");
    }
}

const UNARY: &[(&str, &str, &str)] = &[
    ("2.5", "floor", "2/512"),
    ("-2.5", "floor", "-3/512"),
    ("-0.5", "ceil", "0/512"),
    ("-0", "floor", "0/512"),
    ("0.5", "ceil", "1/512"),
    ("1e400", "ceil", "1{0*400}/512"),
    ("f:2.5", "ceil", "3/53"),
    ("-Inf", "floor", "-Inf/512"),
    ("-2.5", "int", "-2/64"),
    ("2.5e30", "int", "25{0*29}/512"),
    ("Inf", "int", "ERR:PANIC"),
    ("-0", "neg", "0/512"),
    ("0", "neg", "-0/512"),
    ("-Inf", "abs", "+Inf/512"),
    ("c+", "abs", "+Inf/0"),
];

#[test]
fn unary_ops_match_go() {
    for (a, op, want) in UNARY {
        let x = num(a);
        let got = match *op {
            "floor" => Some(x.floor()),
            "ceil" => Some(x.ceil()),
            "int" => x.truncate(),
            "neg" => Some(x.neg()),
            "abs" => Some(x.abs()),
            _ => unreachable!(),
        };
        let got = got.map_or("ERR:PANIC".to_string(), |n| shown(&n));
        assert_eq!(got, expand(want), "{op} {a}");
    }
}

const COMPARE: &[(&str, &str, i32, bool)] = &[
    ("0.1", "f:0.1", -1, true),
    ("0.1", "0.10000000000000001", -1, false),
    ("i:3", "3", 0, true),
    ("-0", "0", 0, true),
    ("Inf", "c+", 0, true),
    ("1e-400", "0", 1, false),
];

#[test]
fn cmp_and_cty_equality_match_go() {
    for (a, b, cmp, eq) in COMPARE {
        let (x, y) = (num(a), num(b));
        assert_eq!(x.cmp(&y) as i32, *cmp, "cmp {a} {b}");
        assert_eq!(x.cty_equals(&y), *eq, "equals {a} {b}");
        assert_eq!(y.cty_equals(&x), *eq, "equals {b} {a}");
    }
}

const TO_F64: &[(&str, u64)] = &[
    ("0.1", 0x3fb999999999999a),
    ("1e-310", 0x12688b70e62b),
    ("2.4703282292062328e-324", 0x1),
    ("2.4703282292062327e-324", 0x0),
    ("1.7976931348623158e308", 0x7fefffffffffffff),
    ("1e400", 0x7ff0000000000000),
    ("-0", 0x8000000000000000),
    ("9007199254740993", 0x4340000000000000),
];

const TO_I64: &[(&str, Option<i64>)] = &[
    ("9223372036854775807", Some(9223372036854775807)),
    ("9223372036854775808", None),
    ("-9223372036854775808", Some(-9223372036854775808)),
    ("1.5", None),
    ("1e18", Some(1000000000000000000)),
    ("-0", Some(0)),
    ("Inf", None),
];

#[test]
fn conversions_match_go() {
    for (a, bits) in TO_F64 {
        assert_eq!(num(a).to_f64().to_bits(), *bits, "to_f64 {a}");
    }
    for (a, want) in TO_I64 {
        assert_eq!(num(a).to_i64_exact(), *want, "to_i64_exact {a}");
    }
}

#[test]
fn f64_round_trip_and_nan() {
    for v in [0.1, -2.5, 5e-324, f64::MAX, -0.0, f64::INFINITY] {
        let n = Number::from_f64(v);
        assert_eq!(n.precision(), 53);
        assert_eq!(n.to_f64().to_bits(), v.to_bits());
    }
    assert_eq!(Number::try_from_f64(f64::NAN).unwrap_err(), NotANumber);
}

#[test]
fn text_len_bound_covers_text() {
    for s in ["0.1", "1e400", "1e-400", "-123.456", "1e-7"] {
        let n = Number::parse(s).unwrap();
        assert!(n.text().len() as u64 <= n.text_len_bound(), "{s}");
    }
}
