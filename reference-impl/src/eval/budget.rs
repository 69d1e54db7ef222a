//! How much work one evaluation may do: a budget of evaluation steps (one
//! per expression node evaluated, plus one per element of every value a
//! function returns) and of bytes (the strings functions and templates
//! return). An evaluation that runs out stops with an "Evaluation budget
//! exceeded" error instead of exhausting the machine, as
//! `length([for a in range(1000) : [for b in range(1000) : [for c in
//! range(100) : 1]]])` would. HCL has no such limit; the budget is this
//! implementation's, set by whoever runs an evaluation ([`with_budget`]);
//! without one an evaluation is unlimited.

use std::cell::Cell;

use crate::value::Value;

/// The summary of the error an evaluation that runs out of budget gives.
pub const BUDGET_EXCEEDED: &str = "Evaluation budget exceeded";

/// Limits for one evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Evaluation steps: nodes evaluated and elements of function results.
    pub steps: u64,
    /// Bytes of strings returned by functions and templates.
    pub bytes: u64,
}

impl Budget {
    /// No limit.
    pub const UNLIMITED: Budget = Budget {
        steps: u64::MAX,
        bytes: u64::MAX,
    };

    /// Generous for any configuration, small enough that running out takes
    /// about a second and a few hundred megabytes at most.
    pub const DEFAULT: Budget = Budget {
        steps: 5_000_000,
        bytes: 256 << 20,
    };
}

thread_local! {
    static LEFT: Cell<Budget> = const { Cell::new(Budget::UNLIMITED) };
    static LIMIT: Cell<Budget> = const { Cell::new(Budget::UNLIMITED) };
}

/// Runs `f` with `budget` for the evaluations it does on this thread.
pub fn with_budget<R>(budget: Budget, f: impl FnOnce() -> R) -> R {
    let saved = (LEFT.with(Cell::get), LIMIT.with(Cell::get));
    LEFT.with(|c| c.set(budget));
    LIMIT.with(|c| c.set(budget));
    let result = f();
    LEFT.with(|c| c.set(saved.0));
    LIMIT.with(|c| c.set(saved.1));
    result
}

/// The limit in force, for messages.
pub(super) fn limit() -> Budget {
    LIMIT.with(Cell::get)
}

/// Takes `steps` steps and `bytes` bytes; false once the budget is spent.
pub(super) fn take(steps: u64, bytes: u64) -> bool {
    LEFT.with(|c| {
        let left = c.get();
        if left.steps == u64::MAX && left.bytes == u64::MAX {
            return true;
        }
        let next = Budget {
            steps: left.steps.saturating_sub(steps),
            bytes: left.bytes.saturating_sub(bytes),
        };
        c.set(next);
        left.steps >= steps && left.bytes >= bytes
    })
}

/// Whether a function may build a string of `bytes` bytes. If not, the
/// budget is spent: the function may return anything cheap, and its call
/// ends in the budget error.
pub(crate) fn reserve_bytes(bytes: u64) -> bool {
    LEFT.with(|c| {
        let left = c.get();
        if bytes <= left.bytes {
            return true;
        }
        c.set(Budget { steps: 0, bytes: 0 });
        false
    })
}

/// Whether a function may do `steps` steps of work; if not, the budget is
/// spent as with [`reserve_bytes`].
pub(crate) fn reserve_steps(steps: u64) -> bool {
    LEFT.with(|c| {
        let left = c.get();
        if steps <= left.steps {
            c.set(Budget {
                steps: left.steps - steps,
                ..left
            });
            return true;
        }
        c.set(Budget { steps: 0, bytes: 0 });
        false
    })
}

/// Charges a value a function returned: a step per element, its strings'
/// bytes.
pub(super) fn take_value(value: &Value) -> bool {
    if LEFT.with(|c| c.get()) == Budget::UNLIMITED {
        return true;
    }
    let (mut steps, mut bytes) = (0u64, 0u64);
    let mut pending = vec![value];
    while let Some(v) = pending.pop() {
        steps += 1;
        match v {
            Value::String(s) => bytes += s.len() as u64,
            Value::Marked(inner) => pending.push(inner),
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                pending.extend(items.iter())
            }
            Value::Map { items, .. } | Value::Object(items) => {
                pending.extend(items.values());
                bytes += items.keys().map(|k| k.len() as u64).sum::<u64>();
            }
            _ => {}
        }
    }
    take(steps, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, Context};
    use std::collections::BTreeMap;
    use std::sync::Arc;

    fn run(source: &str) -> Result<Value, crate::Error> {
        let ctx = Context {
            variables: Arc::new(BTreeMap::new()),
            version: crate::HclVersion::V2_24,
            base_dir: None,
        };
        evaluate(&crate::parser::parse_expression(source).unwrap(), &ctx)
    }

    #[test]
    fn running_out_is_an_error_and_the_budget_is_per_evaluation() {
        let small = Budget {
            steps: 1_000,
            bytes: 1 << 20,
        };
        let heavy = "[for a in range(100) : [for b in range(100) : a * b]]";
        let e = with_budget(small, || run(heavy)).unwrap_err();
        assert_eq!(e.summary, BUDGET_EXCEEDED);
        // The next evaluation starts with the whole budget again.
        assert!(with_budget(small, || run("[for a in range(10) : a]")).is_ok());
        // Bytes: a function returning a long string.
        let e = with_budget(small, || run("format(\"%02000000d\", 1)")).unwrap_err();
        assert_eq!(e.summary, BUDGET_EXCEEDED);
        // Without a budget nothing is limited.
        assert!(run(heavy).is_ok());
    }
}
