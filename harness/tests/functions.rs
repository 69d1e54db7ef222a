//! `hclspec functions` lists every pure Terraform function the reference
//! implements: the Terraform 1.12 function reference less the impure and
//! filesystem functions.

use std::process::Command;

const TERRAFORM_PURE_FUNCTIONS: &[&str] = &[
    // numeric
    "abs",
    "ceil",
    "floor",
    "log",
    "max",
    "min",
    "parseint",
    "pow",
    "signum",
    // string
    "chomp",
    "endswith",
    "format",
    "formatlist",
    "indent",
    "join",
    "lower",
    "regex",
    "regexall",
    "replace",
    "split",
    "startswith",
    "strcontains",
    "strrev",
    "substr",
    "title",
    "trim",
    "trimprefix",
    "trimsuffix",
    "trimspace",
    "upper",
    // collection
    "alltrue",
    "anytrue",
    "chunklist",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "distinct",
    "element",
    "flatten",
    "index",
    "keys",
    "length",
    "lookup",
    "matchkeys",
    "merge",
    "one",
    "range",
    "reverse",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setunion",
    "slice",
    "sort",
    "sum",
    "transpose",
    "values",
    "zipmap",
    // encoding
    "base64decode",
    "base64encode",
    "base64gzip",
    "csvdecode",
    "jsondecode",
    "jsonencode",
    "textdecodebase64",
    "textencodebase64",
    "urlencode",
    "yamldecode",
    "yamlencode",
    // date and time
    "formatdate",
    "timeadd",
    "timecmp",
    // hash and crypto
    "base64sha256",
    "base64sha512",
    "md5",
    "sha1",
    "sha256",
    "sha512",
    "uuidv5",
    // IP network
    "cidrhost",
    "cidrnetmask",
    "cidrsubnet",
    "cidrsubnets",
    // type conversion
    "can",
    "try",
    "tobool",
    "tolist",
    "tomap",
    "tonumber",
    "toset",
    "tostring",
];

#[test]
fn lists_every_pure_terraform_function_and_no_impure_one() {
    let out = Command::new(env!("CARGO_BIN_EXE_hclspec"))
        .arg("functions")
        .output()
        .expect("hclspec functions runs");
    assert!(out.status.success());
    let listed: Vec<String> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(str::to_owned)
        .collect();
    let missing: Vec<_> = TERRAFORM_PURE_FUNCTIONS
        .iter()
        .filter(|f| !listed.iter().any(|l| l == *f))
        .collect();
    assert!(missing.is_empty(), "not implemented: {missing:?}");
    for impure in [
        "timestamp",
        "uuid",
        "bcrypt",
        "file",
        "templatefile",
        "abspath",
    ] {
        assert!(!listed.iter().any(|l| l == impure), "{impure} is listed");
    }
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(listed, sorted, "names are listed in order");
}
