//! Terraform's functions that the HCL 2.14 profile does not have: the
//! impure ones (`timestamp`, `plantimestamp`, `uuid`, `bcrypt`), whose
//! results the corpus checks by property, `ephemeralasnull`, and the
//! signatures of `templatestring`, `templatefile` and `convert`, which the
//! evaluator runs itself: `templatestring` looks at its first argument's
//! expression and both template functions evaluate a template; `convert`
//! reads its second argument as a type constraint.
//!
//! `timestamp` and `uuid` are as Terraform runs them when it applies: in a
//! plan they are unknown. `plantimestamp` is the time of this process's
//! first call, standing for the plan's fixed time.

use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use super::datetime::gotime::Time;
use super::{static_return_type, CallError, Function, Param};
use crate::functions::marks::Policy;
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// The names of functions the evaluator implements.
pub(crate) const TEMPLATE_STRING: &str = "templatestring";
pub(crate) const CONVERT: &str = "convert";

pub(super) fn functions() -> Vec<Function> {
    vec![
        timestamp("timestamp", now),
        timestamp("plantimestamp", plan_time),
        uuid(),
        bcrypt(),
        ephemeralasnull(),
        template_string(),
        template_file(),
        convert(),
    ]
}

const BCRYPT_DEFAULT_COST: i64 = 10;
const BCRYPT_MIN_COST: i64 = 4;
const BCRYPT_MAX_COST: i64 = 31;
const BCRYPT_MAX_PASSWORD: usize = 72;
const BCRYPT_ARGS: &str = "bcrypt() takes no more than two arguments";
const NOT_AN_INT: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";
const NO_RANDOMNESS: &str = "the system's random number generator failed";
const EVALUATOR_ONLY: &str = "this function is run by the expression evaluator";

/// The current time, whole seconds (Go's RFC 3339 format drops the rest).
fn now() -> Time {
    let secs = match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_secs()).unwrap_or(i64::MAX),
    };
    Time {
        secs,
        nanos: 0,
        offset: 0,
    }
}

/// The time of the first call in this process.
fn plan_time() -> Time {
    static PLAN: OnceLock<Time> = OnceLock::new();
    *PLAN.get_or_init(now)
}

/// `timestamp()` / `plantimestamp()`: a time in RFC 3339 format, UTC.
/// Mirrors Terraform's `funcs.TimestampFunc` and `MakeStaticTimestampFunc`.
fn timestamp(name: &'static str, clock: fn() -> Time) -> Function {
    Function {
        name,
        params: vec![],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(move |_, _| Ok(Value::string(clock().format_rfc3339()))),
    }
}

/// `uuid()`: 16 random bytes written as 8-4-4-4-12 hexadecimal digits,
/// without version or variant bits. Mirrors Terraform's `funcs.UUIDFunc`
/// (`go-uuid.GenerateUUID`).
fn uuid() -> Function {
    Function {
        name: "uuid",
        params: vec![],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|_, _| {
            let mut bytes = [0u8; 16];
            getrandom::fill(&mut bytes).map_err(|_| CallError::general(NO_RANDOMNESS))?;
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            Ok(Value::string(format!(
                "{}-{}-{}-{}-{}",
                &hex[0..8],
                &hex[8..12],
                &hex[12..16],
                &hex[16..20],
                &hex[20..32]
            )))
        }),
    }
}

/// `bcrypt(str, cost...)`: a `$2a$` hash with a random salt; a cost below
/// 4 is the default 10, as Go's `bcrypt.GenerateFromPassword` has it.
/// Mirrors Terraform's `funcs.BcryptFunc`.
fn bcrypt() -> Function {
    Function {
        name: "bcrypt",
        params: vec![Param::new("str", Type::String)],
        var_param: Some(Param::new("cost", Type::Number)),
        return_type: static_return_type(Type::String),
        implementation: Box::new(|args, _| {
            let mut cost = BCRYPT_DEFAULT_COST;
            if let Some(c) = args.get(1) {
                cost = c
                    .as_number()
                    .and_then(Number::to_i64_exact)
                    .ok_or_else(|| CallError::general(NOT_AN_INT))?;
            }
            if args.len() > 2 {
                return Err(CallError::general(BCRYPT_ARGS));
            }
            let password = args[0].as_str().unwrap_or_default();
            let failed = |why: String| {
                CallError::general(format!("error occured generating password {why}"))
            };
            if password.len() > BCRYPT_MAX_PASSWORD {
                return Err(failed(
                    "bcrypt: password length exceeds 72 bytes".to_string(),
                ));
            }
            if cost > BCRYPT_MAX_COST {
                return Err(failed(format!(
                    "crypto/bcrypt: cost {cost} is outside allowed inclusive range {BCRYPT_MIN_COST}..{BCRYPT_MAX_COST}"
                )));
            }
            if cost < BCRYPT_MIN_COST {
                cost = BCRYPT_DEFAULT_COST;
            }
            let cost = u32::try_from(cost).unwrap_or(10);
            // 2^cost rounds of key expansion: at the top costs this takes
            // hours (in Go too), so it is charged to the evaluation's budget
            // first, 64 steps per round (a round costs about what 64
            // expression nodes do; cost 16 fits the default budget).
            if !crate::eval::budget::reserve_steps(64u64 << cost) {
                return Ok(Value::string(""));
            }
            let parts =
                ::bcrypt::hash_with_result(password, cost).map_err(|e| failed(e.to_string()))?;
            Ok(Value::string(
                parts.format_for_version(::bcrypt::Version::TwoA),
            ))
        }),
    }
}

/// `ephemeralasnull(value)`: ephemeral parts become null. No value here is
/// ephemeral (only ephemeral resources and variables make them), so the
/// value is returned as it is. Mirrors Terraform's
/// `funcs.EphemeralAsNullFunc`.
fn ephemeralasnull() -> Function {
    Function {
        name: "ephemeralasnull",
        params: vec![Param::new("value", Type::Dynamic)
            .allow_null()
            .allow_unknown()
            .allow_dynamic_type()
            .marks(Policy::Passed)],
        var_param: None,
        return_type: Box::new(|args| Ok(args[0].ty())),
        implementation: Box::new(|args, _| Ok(args[0].clone())),
    }
}

/// `templatefile(path, vars)`'s parameters; the evaluator runs the call
/// with its base directory (`eval::template_string`).
fn template_file() -> Function {
    Function {
        name: "templatefile",
        params: vec![
            Param::new("path", Type::String)
                .allow_unknown()
                .marks(Policy::Passed),
            Param::new("vars", Type::Dynamic).allow_unknown(),
        ],
        var_param: None,
        return_type: static_return_type(Type::Dynamic),
        implementation: Box::new(|_, _| Err(CallError::general(EVALUATOR_ONLY))),
    }
}

/// `convert(value, type)`'s parameters, for the arity checks; the
/// evaluator runs the call (`eval::call`), reading `type` as a type
/// constraint with defaults.
fn convert() -> Function {
    let mut value = Param::new("value", Type::Dynamic);
    value.allow_null = true;
    value.allow_dynamic_type = true;
    Function {
        name: CONVERT,
        params: vec![
            value,
            Param::new("type", Type::Dynamic).expression_closure(),
        ],
        var_param: None,
        return_type: static_return_type(Type::Dynamic),
        implementation: Box::new(|_, _| Err(CallError::general(EVALUATOR_ONLY))),
    }
}

/// `templatestring(template, vars)`'s parameters, for the arity checks;
/// the evaluator runs the call (`eval::template_string`).
fn template_string() -> Function {
    Function {
        name: TEMPLATE_STRING,
        params: vec![
            Param::new("template", Type::String).expression_closure(),
            Param::new("vars", Type::Dynamic),
        ],
        var_param: None,
        return_type: static_return_type(Type::String),
        implementation: Box::new(|_, _| Err(CallError::general(EVALUATOR_ONLY))),
    }
}
