//! Terraform's functions for hcl-rs, which has none of its own.
//!
//! Each function is declared with hcl-rs's `FuncDef` (one variadic
//! parameter of any type) and implemented by the reference: the arguments
//! hcl-rs evaluated are handed to the reference's function of the same name,
//! and its result goes back as an hcl-rs value. hcl-rs thereby evaluates
//! every case that calls functions, and what is measured is its own part:
//! the call syntax, argument expansion (`...`), its value model on the way
//! in and out, and everything around the call.
//!
//! Left out are what a `FuncDef` can not express: `can` and `try` take
//! unevaluated expressions, and `templatestring` a reference to a template
//! rather than its value. A call that reaches one of them, or whose
//! arguments or result the value models do not share exactly (unknowns,
//! numbers beyond `f64`), makes the case `unsupported`.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

use hcl::eval::{Context, FuncArgs, FuncDef, ParamType};
use hcl::expr::FuncName;
use hclspec_reference::eval::Context as CtyContext;
use hclspec_reference::HclVersion;
use hclspec_reference::SourceKind;

use crate::{from_hcl, to_hcl, Refusal};

/// Functions that a `FuncDef` cannot express: they take an argument as an
/// expression (`convert`'s type constraint is never evaluated), or they are
/// about Terraform's sensitive marks, which hcl-rs values do not carry.
pub const NOT_EXPRESSIBLE: [&str; 7] = [
    "can",
    "convert",
    "issensitive",
    "nonsensitive",
    "sensitive",
    "templatestring",
    "try",
];

/// What the functions of the request being answered evaluate with, and why
/// the adapter gave up inside a call, if it did.
#[derive(Default)]
struct Call {
    version: HclVersion,
    base_dir: Option<std::path::PathBuf>,
    refused: Option<&'static str>,
}

thread_local! {
    static CALL: RefCell<Call> = RefCell::new(Call::default());
}

/// Sets up the functions' context for one request.
pub fn begin(version: HclVersion, base_dir: Option<std::path::PathBuf>) {
    CALL.with(|c| {
        *c.borrow_mut() = Call {
            version,
            base_dir,
            refused: None,
        }
    });
}

/// Why a function call made the adapter give up during this request.
pub fn refused() -> Option<&'static str> {
    CALL.with(|c| c.borrow().refused)
}

fn refuse(why: &'static str) -> String {
    CALL.with(|c| c.borrow_mut().refused.get_or_insert(why).to_string())
}

/// Declares every function of `version` that hcl-rs can express and that
/// `source` names, under its name and under `core::`. A function whose
/// name is not in the source text cannot be called; declaring the hundred
/// and more others for every request cost more than evaluating it.
pub fn declare(ctx: &mut Context, version: HclVersion, source: &str) {
    static BY_NAME: OnceLock<HashMap<&'static str, hcl::eval::Func>> = OnceLock::new();
    let by_name = BY_NAME.get_or_init(|| TRAMPOLINES.iter().copied().collect());
    // A call's name is a run of ASCII letters, digits and `_` with none of
    // them on either side (every function name is ASCII): each such run
    // of the source is looked up, once. Splitting at every other character
    // finds every name a call can have, and more, which costs nothing.
    let mut seen: Vec<&str> = Vec::new();
    let words = source
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty());
    for word in words {
        let Some((name, func)) = by_name.get_key_value(word) else {
            continue;
        };
        if seen.contains(name) {
            continue;
        }
        seen.push(name);
        let known = hclspec_reference::functions::lookup_for(name, version).is_some();
        if !known || NOT_EXPRESSIBLE.contains(name) {
            continue;
        }
        let def = || {
            FuncDef::builder()
                .variadic_param(ParamType::Any)
                .build(*func)
        };
        ctx.declare_func(*name, def());
        if version == HclVersion::V2_24 {
            ctx.declare_func(FuncName::new(*name).with_namespace(["core"]), def());
        }
    }
}

/// Calls the reference's function `name` with hcl-rs's arguments.
fn call(name: &str, args: FuncArgs) -> Result<hcl::Value, String> {
    let mut variables = BTreeMap::new();
    let mut params = Vec::with_capacity(args.len());
    for (i, arg) in args.iter().enumerate() {
        let typed = match from_hcl(arg, 0) {
            Ok(t) => t,
            Err(Refusal::Unsupported(why)) => return Err(refuse(why)),
            Err(_) => return Err(refuse(crate::UNSUPPORTED_NUMBER)),
        };
        let value = typed
            .decode()
            .map_err(|_| refuse(crate::UNSUPPORTED_NUMBER))?;
        let var = format!("a{i}");
        params.push(var.clone());
        variables.insert(var, value);
    }
    let (version, base_dir) = CALL.with(|c| {
        let c = c.borrow();
        (c.version, c.base_dir.clone())
    });
    let ctx = CtyContext {
        variables: Arc::new(variables),
        version,
        base_dir,
    };
    let source = format!("{name}({})", params.join(", "));
    match hclspec_reference::evaluate_source(SourceKind::Expression, &source, &ctx) {
        Ok(value) => to_hcl(&value).map_err(|r| match r {
            Refusal::Unsupported(why) => refuse(why),
            _ => refuse(crate::UNSUPPORTED_NUMBER),
        }),
        Err(e) => Err(if e.detail.is_empty() {
            e.summary
        } else {
            format!("{}: {}", e.summary, e.detail)
        }),
    }
}

macro_rules! trampolines {
    ($($name:ident)*) => {
        /// One plain function per name (a `FuncDef` holds a `fn`, not a
        /// closure), each calling the reference's function of that name.
        const TRAMPOLINES: &[(&str, hcl::eval::Func)] = &[
            $((stringify!($name), {
                fn $name(args: FuncArgs) -> Result<hcl::Value, String> {
                    call(stringify!($name), args)
                }
                $name
            }),)*
        ];
    };
}

trampolines! {
    abs abspath alltrue anytrue base64decode base64encode base64gzip base64sha256
    base64sha512 basename bcrypt ceil chomp chunklist cidrhost cidrnetmask cidrsubnet
    cidrsubnets coalesce coalescelist compact concat contains csvdecode dirname distinct
    element endswith ephemeralasnull file filebase64 filebase64sha256 filebase64sha512
    fileexists filemd5 fileset filesha1 filesha256 filesha512 flatten floor format
    formatdate formatlist indent index join jsondecode jsonencode keys length log lookup
    lower matchkeys max md5 merge min one parseint pathexpand plantimestamp pow range
    regex regexall replace reverse setintersection setproduct setsubtract setunion sha1
    sha256 sha512 signum slice sort split startswith strcontains strrev substr sum
    templatefile textdecodebase64 textencodebase64 timeadd timecmp timestamp title tobool
    tolist tomap tonumber toset tostring transpose trim trimprefix trimspace trimsuffix
    upper urlencode uuid uuidv5 values yamldecode yamlencode zipmap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_expressible_reference_function_is_declared() {
        let declared: Vec<&str> = TRAMPOLINES.iter().map(|(n, _)| *n).collect();
        for version in [HclVersion::V2_14, HclVersion::V2_24] {
            for name in hclspec_reference::functions::names_for(version) {
                assert!(
                    declared.contains(&name) || NOT_EXPRESSIBLE.contains(&name),
                    "{name} ({version:?}) is neither declared nor listed as inexpressible"
                );
            }
        }
    }
}
