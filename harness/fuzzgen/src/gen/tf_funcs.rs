//! Terraform's functions for the generator's Terraform profile: each with
//! the kind of value it returns and the types of its arguments, so that a
//! call can stand where its result type is wanted.
//!
//! The table is a generator's, not a specification: a signature names the
//! argument types that make the call mostly succeed, and the ill-typed
//! share of the generator breaks them as it breaks everything else.

use hclspec_reference::Type;

/// What a call returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ret {
    Str,
    Num,
    Bool,
    /// A list of strings.
    ListStr,
    /// A list of numbers.
    ListNum,
    /// A set of strings.
    SetStr,
    /// A map of strings.
    MapStr,
    /// The wanted type itself: the arguments are built from it
    /// ([`Arg::Want`], [`Arg::ListOfWant`], ...).
    Want,
}

/// An argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    Str,
    Num,
    Bool,
    ListStr,
    ListNum,
    SetStr,
    MapStr,
    /// A JSON document in a string.
    JsonText,
    /// A small whole number (an index, a count, a width).
    Small,
    /// A value of the wanted type.
    Want,
    /// A list (or tuple) of the wanted type.
    ListOfWant,
    /// A map (or object) of the wanted type.
    MapOfWant,
    /// Anything.
    Any,
}

/// One function: its name, what it returns, its arguments, and what more
/// arguments it takes (variadic).
#[derive(Clone, Copy, Debug)]
pub struct Sig {
    pub name: &'static str,
    pub ret: Ret,
    pub args: &'static [Arg],
    pub more: Option<Arg>,
}

const fn sig(name: &'static str, ret: Ret, args: &'static [Arg]) -> Sig {
    Sig {
        name,
        ret,
        args,
        more: None,
    }
}

const fn var(name: &'static str, ret: Ret, args: &'static [Arg], more: Arg) -> Sig {
    Sig {
        name,
        ret,
        args,
        more: Some(more),
    }
}

use Arg as A;

/// Terraform 1.15's functions the generator calls. Impure ones
/// (`timestamp`, `uuid`, `bcrypt`), file-system ones and ones whose result
/// depends on the oracle's working directory are left out.
pub const TERRAFORM_FUNCTIONS: &[Sig] = &[
    // Strings.
    sig("upper", Ret::Str, &[A::Str]),
    sig("lower", Ret::Str, &[A::Str]),
    sig("title", Ret::Str, &[A::Str]),
    sig("trimspace", Ret::Str, &[A::Str]),
    sig("chomp", Ret::Str, &[A::Str]),
    sig("strrev", Ret::Str, &[A::Str]),
    sig("trim", Ret::Str, &[A::Str, A::Str]),
    sig("trimprefix", Ret::Str, &[A::Str, A::Str]),
    sig("trimsuffix", Ret::Str, &[A::Str, A::Str]),
    sig("replace", Ret::Str, &[A::Str, A::Str, A::Str]),
    sig("substr", Ret::Str, &[A::Str, A::Small, A::Small]),
    sig("indent", Ret::Str, &[A::Small, A::Str]),
    var("format", Ret::Str, &[A::Str], A::Any),
    sig("join", Ret::Str, &[A::Str, A::ListStr]),
    sig("jsonencode", Ret::Str, &[A::Any]),
    sig("yamlencode", Ret::Str, &[A::Any]),
    sig("base64encode", Ret::Str, &[A::Str]),
    sig("base64decode", Ret::Str, &[A::Str]),
    sig("textencodebase64", Ret::Str, &[A::Str, A::Str]),
    sig("urlencode", Ret::Str, &[A::Str]),
    sig("md5", Ret::Str, &[A::Str]),
    sig("sha1", Ret::Str, &[A::Str]),
    sig("sha256", Ret::Str, &[A::Str]),
    sig("sha512", Ret::Str, &[A::Str]),
    sig("base64sha256", Ret::Str, &[A::Str]),
    sig("uuidv5", Ret::Str, &[A::Str, A::Str]),
    sig("tostring", Ret::Str, &[A::Any]),
    sig("templatestring", Ret::Str, &[A::Str, A::MapStr]),
    sig("cidrhost", Ret::Str, &[A::Str, A::Small]),
    sig("cidrnetmask", Ret::Str, &[A::Str]),
    sig("regex", Ret::Str, &[A::Str, A::Str]),
    // Numbers.
    sig("length", Ret::Num, &[A::Any]),
    var("max", Ret::Num, &[A::Num], A::Num),
    var("min", Ret::Num, &[A::Num], A::Num),
    sig("abs", Ret::Num, &[A::Num]),
    sig("ceil", Ret::Num, &[A::Num]),
    sig("floor", Ret::Num, &[A::Num]),
    sig("signum", Ret::Num, &[A::Num]),
    sig("log", Ret::Num, &[A::Num, A::Num]),
    sig("pow", Ret::Num, &[A::Num, A::Num]),
    sig("parseint", Ret::Num, &[A::Str, A::Small]),
    sig("sum", Ret::Num, &[A::ListNum]),
    sig("tonumber", Ret::Num, &[A::Any]),
    sig("index", Ret::Num, &[A::ListStr, A::Str]),
    // Booleans.
    sig("startswith", Ret::Bool, &[A::Str, A::Str]),
    sig("endswith", Ret::Bool, &[A::Str, A::Str]),
    sig("strcontains", Ret::Bool, &[A::Str, A::Str]),
    sig("contains", Ret::Bool, &[A::ListStr, A::Str]),
    sig("alltrue", Ret::Bool, &[A::Any]),
    sig("anytrue", Ret::Bool, &[A::Any]),
    sig("can", Ret::Bool, &[A::Any]),
    sig("issensitive", Ret::Bool, &[A::Any]),
    sig("tobool", Ret::Bool, &[A::Any]),
    // Collections of strings and numbers.
    sig("split", Ret::ListStr, &[A::Str, A::Str]),
    sig("compact", Ret::ListStr, &[A::ListStr]),
    sig("sort", Ret::ListStr, &[A::ListStr]),
    sig("keys", Ret::ListStr, &[A::MapStr]),
    sig("values", Ret::ListStr, &[A::MapStr]),
    sig("regexall", Ret::ListStr, &[A::Str, A::Str]),
    var("formatlist", Ret::ListStr, &[A::Str], A::ListStr),
    sig("range", Ret::ListNum, &[A::Small]),
    sig("csvdecode", Ret::Want, &[A::Str]),
    var("setunion", Ret::SetStr, &[A::SetStr], A::SetStr),
    var("setintersection", Ret::SetStr, &[A::SetStr], A::SetStr),
    sig("setsubtract", Ret::SetStr, &[A::SetStr, A::SetStr]),
    sig("toset", Ret::SetStr, &[A::ListStr]),
    sig("zipmap", Ret::MapStr, &[A::ListStr, A::ListStr]),
    sig("tomap", Ret::MapStr, &[A::MapStr]),
    sig("transpose", Ret::Want, &[A::Any]),
    // The wanted type in, the wanted type out.
    sig("sensitive", Ret::Want, &[A::Want]),
    sig("nonsensitive", Ret::Want, &[A::Want]),
    sig("try", Ret::Want, &[A::Want, A::Want]),
    var("coalesce", Ret::Want, &[A::Want], A::Want),
    sig("one", Ret::Want, &[A::ListOfWant]),
    sig("element", Ret::Want, &[A::ListOfWant, A::Small]),
    sig("lookup", Ret::Want, &[A::MapOfWant, A::Str, A::Want]),
    sig("jsondecode", Ret::Want, &[A::JsonText]),
    sig("yamldecode", Ret::Want, &[A::JsonText]),
    sig("distinct", Ret::Want, &[A::Want]),
    sig("reverse", Ret::Want, &[A::Want]),
    sig("flatten", Ret::Want, &[A::Want]),
    sig("slice", Ret::Want, &[A::Want, A::Small, A::Small]),
    sig("chunklist", Ret::Want, &[A::Any, A::Small]),
    var("concat", Ret::Want, &[A::Want], A::Want),
    var("merge", Ret::Want, &[A::Want], A::Want),
    var("coalescelist", Ret::Want, &[A::Want], A::Want),
    sig("tolist", Ret::Want, &[A::Want]),
    sig("setproduct", Ret::Want, &[A::Any, A::Any]),
    sig("matchkeys", Ret::Want, &[A::Want, A::ListStr, A::ListStr]),
    sig("ephemeralasnull", Ret::Want, &[A::Want]),
];

/// Whether a call returning `ret` can stand where `want` is wanted.
pub fn returns(ret: Ret, want: &Type) -> bool {
    match ret {
        Ret::Str => *want == Type::String,
        Ret::Num => *want == Type::Number,
        Ret::Bool => *want == Type::Bool,
        Ret::ListStr => matches!(want, Type::List(e) if **e == Type::String),
        Ret::ListNum => matches!(want, Type::List(e) if **e == Type::Number),
        Ret::SetStr => matches!(want, Type::Set(e) if **e == Type::String),
        Ret::MapStr => matches!(want, Type::Map(e) if **e == Type::String),
        Ret::Want => true,
    }
}

/// JSON documents for `jsondecode` and `yamldecode` (YAML reads JSON).
pub const JSON_TEXTS: &[&str] = &[
    "{}",
    "[]",
    "1",
    "\"a\"",
    "null",
    "true",
    "[1, \"a\", null]",
    "{\"a\": [1, 2], \"b\": {\"c\": false}}",
    "1e400",
    "-0",
    "\"\\ud83d\\ude00\"",
    "[[], {}]",
    "0.1",
];

/// Strings for the Terraform profile beyond the shared pools: characters
/// outside the Basic Multilingual Plane with case mappings, Unicode 15
/// and 16 additions (Terraform 1.15 is built with Unicode 15.0 tables),
/// and grapheme clusters whose boundaries changed between versions.
pub const TERRAFORM_STRINGS: &[&str] = &[
    "\u{10400}",
    "\u{10428}",
    "\u{1E922}",
    "\u{1FAE8}",
    "\u{11F00}",
    "\u{1C89}",
    "\u{1C8A}",
    "\u{915}\u{94D}\u{937}",
    "\u{1F469}\u{200D}\u{1F4BB}",
    "\u{1F44D}\u{1F3FD}",
    "a\u{10FFFF}",
    "\u{1D400}",
    "\u{FB00}",
    "10.0.0.0/8",
    "192.168.1.0/24",
    "%s-%d",
    "%v",
    "%#v",
    "a,b",
    "a\nb",
    "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    "dns",
    "\\w+",
    "(a)(b)?",
    "YQ==",
    "UTF-16LE",
    "a,b\n1,2\n",
    "ff",
];

#[cfg(test)]
mod tests {
    use super::*;
    use hclspec_reference::HclVersion;

    /// Every function the table names is one the reference's Terraform
    /// profile has.
    #[test]
    fn every_function_exists_in_terraform() {
        let names = hclspec_reference::functions::names_for(HclVersion::V2_24);
        for s in TERRAFORM_FUNCTIONS {
            assert!(names.contains(&s.name), "{}", s.name);
        }
    }
}
