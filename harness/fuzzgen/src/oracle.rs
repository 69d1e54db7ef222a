//! The engines a differential run compares, behind one trait.
//!
//! An oracle answers a batch of requests with one [`Answer`] each. An
//! answer is either the engine's outcome (a result, an error, `unsupported`
//! or a crash it survived) or `Poisoned`: the engine itself failed (its
//! process died or timed out), so the answer says nothing about the case.
//! What a crash means depends on the engine: a panic in hcl-rs is a
//! divergence, a Go runtime crash is the oracle's own failure.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Once;
use std::time::Duration;

use hclspec::engine::{Child, Engine, Reference};
use hclspec_protocol::{panic_message, Outcome, Request, Version};

/// Which engine an oracle runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OracleKind {
    Reference,
    Go,
    HclRs,
    /// Real Terraform 1.15.5 (the Terraform oracle), for HCL 2.24.
    Terraform,
    /// Real Terraform 0.11.11, for the `hil-0.11` dialect.
    Terraform011,
}

impl OracleKind {
    pub fn name(self) -> &'static str {
        match self {
            OracleKind::Reference => "reference",
            OracleKind::Go => "go",
            OracleKind::HclRs => "hclrs",
            OracleKind::Terraform => "terraform",
            OracleKind::Terraform011 => "terraform-0.11",
        }
    }

    /// Whether the engine's `crash` answers are divergences (a library
    /// panicking on some input) rather than the oracle failing.
    /// A real Terraform's `crash` (a Go panic inside Terraform, or a
    /// Terraform run that hung) is Terraform's failure, as the Go oracle's is.
    pub fn crash_is_divergence(self) -> bool {
        !matches!(
            self,
            OracleKind::Go | OracleKind::Terraform | OracleKind::Terraform011
        )
    }

    /// Whether the engine is a separate process (its answers cost a round
    /// trip, so cases are sent to it in batches).
    pub fn is_process(self) -> bool {
        matches!(
            self,
            OracleKind::Go | OracleKind::Terraform | OracleKind::Terraform011
        )
    }
}

/// One answer from an oracle.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Outcome(Outcome),
    /// The engine could not answer (process died, timed out, broke the
    /// protocol); the case is inconclusive.
    Poisoned(String),
}

/// An engine that answers protocol requests.
pub trait Oracle {
    fn kind(&self) -> OracleKind;

    /// One answer per request, in order.
    fn evaluate(&mut self, requests: &[Request]) -> Vec<Answer>;

    /// Evaluates one request.
    fn evaluate_one(&mut self, request: &Request) -> Answer {
        self.evaluate(std::slice::from_ref(request))
            .pop()
            .unwrap_or_else(|| Answer::Poisoned(MSG_NO_ANSWER.into()))
    }
}

const MSG_NO_ANSWER: &str = "the oracle gave no answer";

/// The reference implementation, in process, on the caller's thread.
#[derive(Clone, Debug)]
pub struct ReferenceOracle {
    reference: Reference,
}

impl ReferenceOracle {
    /// Requests without a version are evaluated as `version`.
    pub fn new(version: Version) -> ReferenceOracle {
        ReferenceOracle {
            reference: Reference {
                default_version: version,
                large_stack: false,
                budget: hclspec_reference::eval::budget::Budget::DEFAULT,
            },
        }
    }

    pub fn outcome(&self, request: &Request) -> Outcome {
        install_panic_hook();
        self.reference.evaluate(request)
    }
}

impl Oracle for ReferenceOracle {
    fn kind(&self) -> OracleKind {
        OracleKind::Reference
    }

    fn evaluate(&mut self, requests: &[Request]) -> Vec<Answer> {
        requests
            .iter()
            .map(|r| Answer::Outcome(self.outcome(r)))
            .collect()
    }
}

/// hcl-rs through the adapter library, in process. Its panics are caught
/// (quietly) and answered as `crash`.
#[derive(Clone, Copy, Debug, Default)]
pub struct HclRsOracle;

impl HclRsOracle {
    pub fn outcome(&self, request: &Request) -> Outcome {
        install_panic_hook();
        let (result, location) = quietly(|| hclspec_adapter_hclrs::evaluate(request));
        match result {
            Ok(response) => match response.outcome {
                Outcome::Crash(text) if !text.contains(" (at ") => {
                    let at = location.map(|l| format!(" (at {l})")).unwrap_or_default();
                    Outcome::Crash(format!("{text}{at}"))
                }
                other => other,
            },
            Err(message) => Outcome::Crash(format!("hcl-rs panicked: {message}")),
        }
    }
}

impl Oracle for HclRsOracle {
    fn kind(&self) -> OracleKind {
        OracleKind::HclRs
    }

    fn evaluate(&mut self, requests: &[Request]) -> Vec<Answer> {
        requests
            .iter()
            .map(|r| Answer::Outcome(self.outcome(r)))
            .collect()
    }
}

/// Set to `off` to start no oracle process (the Go and Terraform ones):
/// the differential targets then run only the generator and the
/// reference's own checks, as `fuzz/ci` wants.
pub const ORACLES_ENV: &str = "HCLSPEC_FUZZ_ORACLES";

fn oracles_off() -> bool {
    std::env::var(ORACLES_ENV).as_deref() == Ok("off")
}

/// Names the Go oracle program.
pub const GO_ORACLE_ENV: &str = hclspec::locate::GO_ORACLE_ENV;

/// Set to `supervisor` to talk to the oracle through its supervisor (which
/// runs the worker as a child of its own, answers a crash or a slow request
/// itself and starts a new worker) instead of to its in-process worker
/// directly, whose crashes and timeouts are then handled here by starting
/// it again. The supervisor passes one request at a time to its worker:
/// in a seeded run of diff_go batches it doubled the oracle's time per
/// case (225 against 124 µs).
pub const GO_MODE_ENV: &str = "HCLSPEC_FUZZ_GO_MODE";

/// The oracle supervisor's limit per request (`-timeout`): a slower request
/// is a crash answer from it.
pub const GO_REQUEST_TIMEOUT: &str = "2s";

/// Our limit per request: the only one for a worker, a backstop above
/// the supervisor's own for a supervisor.
pub fn go_child_timeout(supervised: bool) -> Duration {
    Duration::from_secs(if supervised { 6 } else { 2 })
}

/// How many requests are written ahead of their answers.
pub const GO_WINDOW: usize = 128;

/// How many oracle processes share a batch, unless `HCLSPEC_FUZZ_GO_PROCS`
/// says otherwise. One is fastest on two cores: a second one competes with
/// the first for the same cores and splits the pipeline.
pub const GO_PROCS: usize = 1;

/// Names the number of oracle processes.
pub const GO_PROCS_ENV: &str = "HCLSPEC_FUZZ_GO_PROCS";

/// The Go oracle as persistent child processes, each restarted after a
/// crash or a timeout; a batch is split between them, and each part is
/// pipelined.
pub struct GoOracle {
    children: Vec<Child>,
}

impl GoOracle {
    /// Starts the oracle found by [`go_oracle_program`], or `None` when it
    /// is not built.
    pub fn start() -> Option<Result<GoOracle, String>> {
        if oracles_off() {
            return Some(Err(format!("turned off by {ORACLES_ENV}=off")));
        }
        let program = go_oracle_program()?;
        Some(GoOracle::spawn(program))
    }

    pub fn spawn(program: PathBuf) -> Result<GoOracle, String> {
        let mut command = vec![program.to_string_lossy().into_owned()];
        let supervised = std::env::var(GO_MODE_ENV).as_deref() == Ok("supervisor");
        if supervised {
            command.push("-timeout".into());
            command.push(GO_REQUEST_TIMEOUT.into());
        } else {
            command.push("-worker".into());
        }
        let procs = std::env::var(GO_PROCS_ENV)
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or(GO_PROCS)
            .clamp(1, 16);
        let mut children = Vec::with_capacity(procs);
        for _ in 0..procs {
            let child = Child::spawn(&command).map_err(|e| e.to_string())?;
            children.push(
                child
                    .with_timeout(go_child_timeout(supervised))
                    .with_window(GO_WINDOW),
            );
        }
        Ok(GoOracle { children })
    }

    /// How many times the processes were started again.
    pub fn restarts(&self) -> u32 {
        self.children.iter().map(Child::restarts).sum()
    }
}

/// Answers `requests` on one child, in order.
fn run_child(child: &mut Child, requests: &[Request]) -> Vec<Answer> {
    let mut out: Vec<Answer> = vec![Answer::Poisoned(MSG_NO_ANSWER.into()); requests.len()];
    child.run(requests, &mut |i, exchange| {
        out[i] = match exchange.result {
            Ok(response) => Answer::Outcome(response.outcome),
            Err(e) => Answer::Poisoned(e.headline()),
        };
    });
    out
}

impl Oracle for GoOracle {
    fn kind(&self) -> OracleKind {
        OracleKind::Go
    }

    fn evaluate(&mut self, requests: &[Request]) -> Vec<Answer> {
        // Small batches are not worth a thread.
        if requests.len() < 2 * self.children.len() || self.children.len() == 1 {
            return run_child(&mut self.children[0], requests);
        }
        let per = requests.len().div_ceil(self.children.len());
        std::thread::scope(|s| {
            let handles: Vec<_> = self
                .children
                .iter_mut()
                .zip(requests.chunks(per))
                .map(|(child, part)| s.spawn(move || run_child(child, part)))
                .collect();
            handles
                .into_iter()
                .flat_map(|h| {
                    h.join()
                        .unwrap_or_else(|_| vec![Answer::Poisoned(MSG_NO_ANSWER.into()); per])
                })
                .collect()
        })
    }
}

/// A Terraform oracle (1.15.5, or 0.11.11 for the `hil-0.11` dialect):
/// one persistent engine process that answers the requests it receives
/// together in one Terraform run, so a batch is written to it whole
/// (the window covers it) and its answers read back.
pub struct TerraformOracle {
    kind: OracleKind,
    child: Child,
}

/// How many requests are written ahead of their answers to a Terraform
/// oracle: a whole batch, so that the engine gathers it into one run.
pub const TERRAFORM_WINDOW: usize = 1024;

/// Our limit for the oldest request in flight: a batch's first answer
/// comes when the whole Terraform run is done (the engine's own limit per
/// Terraform command is 120 s, and it may retry halves of a batch).
pub const TERRAFORM_CHILD_TIMEOUT: Duration = Duration::from_secs(900);

impl TerraformOracle {
    /// Starts the oracle of `kind` (Terraform or Terraform 0.11) as
    /// `hclspec` finds it (`$HCLSPEC_TERRAFORM_ORACLE`,
    /// `$HCLSPEC_TERRAFORM_0_11_ORACLE`, or the launcher `scripts/setup`
    /// installs); `Err` says why it is not there.
    pub fn start(kind: OracleKind, batch: usize) -> Result<TerraformOracle, String> {
        if oracles_off() {
            return Err(format!("turned off by {ORACLES_ENV}=off"));
        }
        let oracle = match kind {
            OracleKind::Terraform => hclspec_corpus::Oracle::TERRAFORM,
            OracleKind::Terraform011 => hclspec_corpus::Oracle::Terraform011,
            other => return Err(format!("{} is not a Terraform oracle", other.name())),
        };
        let mut command = hclspec::locate::oracle_command(oracle, None)?;
        command.extend(["--batch".to_string(), batch.max(1).to_string()]);
        let child = Child::spawn(&command).map_err(|e| e.to_string())?;
        Ok(TerraformOracle {
            kind,
            child: child
                .with_timeout(TERRAFORM_CHILD_TIMEOUT)
                .with_window(TERRAFORM_WINDOW),
        })
    }

    pub fn restarts(&self) -> u32 {
        self.child.restarts()
    }
}

impl Oracle for TerraformOracle {
    fn kind(&self) -> OracleKind {
        self.kind
    }

    fn evaluate(&mut self, requests: &[Request]) -> Vec<Answer> {
        run_child(&mut self.child, requests)
    }
}

/// The built Go oracle: `$HCLSPEC_GO_ORACLE`, else the repository's build
/// output, when it exists.
pub fn go_oracle_program() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(GO_ORACLE_ENV) {
        return Some(PathBuf::from(p));
    }
    let path = hclspec::locate::built_repo_root().join(hclspec::locate::GO_ORACLE_PATH);
    path.is_file().then_some(path)
}

thread_local! {
    /// Set while a library that may panic runs under [`quietly`].
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// Where the last quiet panic on this thread happened.
    static QUIET_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that keeps panics inside [`quietly`]
/// silent and non-fatal, and passes every other panic to the hook that was
/// there before: libFuzzer's, which aborts, or the default one.
pub fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let at = info.location().map(|l| short_location(l.file(), l.line()));
                QUIET_AT.with(|q| *q.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`, turning a panic into its message; also returns where the
/// panic happened.
pub fn quietly<T>(f: impl FnOnce() -> T) -> (Result<T, String>, Option<String>) {
    install_panic_hook();
    QUIET_AT.with(|q| q.borrow_mut().take());
    let was = QUIET.with(|q| q.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f)).map_err(|p| panic_message(&*p));
    QUIET.with(|q| q.set(was));
    let at = QUIET_AT.with(|q| q.borrow_mut().take());
    (result, at)
}

/// The last three components of a source path and the line: enough to
/// find the place without the machine's directories.
fn short_location(file: &str, line: u32) -> String {
    let parts: Vec<&str> = file.rsplit(['/', '\\']).take(3).collect();
    let short: Vec<&str> = parts.into_iter().rev().collect();
    format!("{}:{line}", short.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::req;

    #[test]
    fn in_process_oracles_answer() {
        let mut r = ReferenceOracle::new(Version::V2_14);
        let a = r.evaluate_one(&req("1 + 2"));
        let Answer::Outcome(Outcome::Result(tv)) = a else {
            panic!("{a:?}")
        };
        assert_eq!(tv.value.to_string(), "3");
        let mut h = HclRsOracle;
        assert!(matches!(
            h.evaluate_one(&req("1 +")),
            Answer::Outcome(Outcome::Error(_))
        ));
    }

    /// `5 % 0` panics inside hcl-rs 0.20; the oracle reports a crash and
    /// the process goes on.
    #[test]
    fn hclrs_panics_are_crash_answers() {
        let a = HclRsOracle.outcome(&req("5 % 0"));
        let Outcome::Crash(text) = &a else {
            panic!("{a:?}")
        };
        assert!(text.contains("panicked"), "{text}");
    }

    #[test]
    fn quietly_reports_the_panic_and_its_place() {
        let (r, at) = quietly(|| -> u32 { panic!("boom") });
        assert_eq!(r, Err("boom".to_string()));
        assert!(at.is_some_and(|l| l.contains("oracle.rs")));
        let (r, _) = quietly(|| 7);
        assert_eq!(r, Ok(7));
    }
}
