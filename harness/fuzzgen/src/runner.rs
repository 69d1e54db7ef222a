//! The fuzz targets' bodies and the state they keep between inputs: the
//! oracles (the Go oracle is one persistent process), the allow-list, the
//! triage folder and the counters.
//!
//! A divergence is minimized, written as a triage case when its signature
//! is new, and then, depending on the mode, fails from its class's
//! function (so that libFuzzer stops with a crash whose stack names the
//! class) or is only counted.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use hclspec_protocol::compare::compare;
use hclspec_protocol::{Dialect, Kind, Outcome, Request, TypedValue, Version};

use crate::allow::AllowList;
use crate::config::Profile;
use crate::diff::{
    compare_outcomes, expect_of, outcome_line, source_line, Class, DiffResult, Divergence,
};
use crate::gen::gen_batch_filled;
use crate::invariants::{
    check_range, check_unknown_consistency, check_value, unknown_scope, version_sensitive,
    with_version,
};
use crate::minimize::{minimize, minimize_batched};
use crate::oracle::{
    Answer, GoOracle, HclRsOracle, Oracle, OracleKind, ReferenceOracle, TerraformOracle,
};
use crate::triage::{fine_signature, Recorded, Triage, TriageCase};

/// The mode, from `HCLSPEC_FUZZ_MODE`.
pub const MODE_ENV: &str = "HCLSPEC_FUZZ_MODE";
/// Where to keep the counters (a JSON file rewritten as the run goes).
pub const STATS_ENV: &str = "HCLSPEC_FUZZ_STATS";
/// The triage folder, instead of the repository's `fuzz/triage`.
pub const TRIAGE_ENV: &str = "HCLSPEC_FUZZ_TRIAGE";

/// Cases generated from one fuzz input, per target (short inputs are
/// stretched, see [`gen_batch_filled`]). The Go cases of one input are sent
/// to the oracle pipelined; for the in-process targets, several cases per
/// input share libFuzzer's per-input cost (a scan of every coverage counter
/// of a large binary), which is as large as evaluating a few cases.
pub const GO_CASES_PER_INPUT: usize = 24;
pub const HCLRS_CASES_PER_INPUT: usize = 16;
pub const EVAL_CASES_PER_INPUT: usize = 8;
pub const TERRAFORM_CASES_PER_INPUT: usize = 8;
pub const HIL_CASES_PER_INPUT: usize = 8;

/// The stack of the thread the reference evaluates `diff_go`'s batches on:
/// the main thread's usual size (the reference grows its stack itself
/// where it recurses deeply).
const REFERENCE_STACK: usize = 8 << 20;

/// Cases kept from input to input until a Terraform oracle answers them
/// together: one `terraform plan` (or 0.11 `apply`) costs far more than a
/// case in it, so the cases of many fuzz inputs share one. A divergence
/// is therefore found a few inputs after the input that made it; its case
/// is minimized and triaged as usual.
pub const TERRAFORM_BATCH: usize = 256;
pub const HIL_BATCH: usize = 340;

/// Minimizing against a Terraform oracle offers each step's candidates
/// together (one Terraform run for all), so its budget counts candidates
/// considered, not runs.
pub const MINIMIZE_BUDGET_TERRAFORM: usize = 2000;

/// How many times a minimization may ask the engines again.
pub const MINIMIZE_BUDGET_GO: usize = 600;
pub const MINIMIZE_BUDGET_IN_PROCESS: usize = 3000;

/// Divergences with one fine signature (taken before minimization)
/// minimized per process; later ones are only counted.
pub const MINIMIZED_PER_SIGNATURE: u32 = 4;

/// The version the comparisons run as: the Go oracle's.
pub const COMPARE_VERSION: Version = Version::V2_14;

/// What happens after a divergence is triaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Fail (panic from the class's function) when the triage case is new.
    Panic,
    /// Fail on every divergence, known or not: for reproducing one.
    PanicAll,
    /// Only count; campaigns run this way so that one divergence does not
    /// end the run.
    Record,
    /// Only collect in memory (`Runner::found`), writing nothing: tests.
    Collect,
}

impl Mode {
    pub fn from_env() -> Mode {
        match std::env::var(MODE_ENV).as_deref() {
            Ok("record") => Mode::Record,
            Ok("panic-all") => Mode::PanicAll,
            _ => Mode::Panic,
        }
    }
}

/// Which target a case came from, which decides how it is checked again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Parse,
    Eval,
    DiffGo,
    DiffHclRs,
    /// The reference as HCL 2.24 against real Terraform 1.15.
    DiffTerraform,
    /// The reference's `hil-0.11` dialect against real Terraform 0.11.
    DiffHil,
}

impl Target {
    /// The oracle a differential target compares with.
    fn process_oracle(self) -> Option<OracleKind> {
        match self {
            Target::DiffTerraform => Some(OracleKind::Terraform),
            Target::DiffHil => Some(OracleKind::Terraform011),
            _ => None,
        }
    }
}

/// A triaged divergence.
#[derive(Clone, Debug)]
pub struct Found {
    pub divergence: Divergence,
    /// The minimized reproducer.
    pub request: Request,
    /// The fine signature (with the construct fingerprint).
    pub signature: String,
    /// The triage file written, if one was.
    pub path: Option<PathBuf>,
}

/// Counters of a run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub inputs: u64,
    /// Cases evaluated and compared (several per input).
    pub cases: u64,
    pub same: u64,
    pub skipped: u64,
    pub poisoned: u64,
    pub accepted: HashMap<String, u64>,
    pub divergences: u64,
    /// Divergences not minimized because their signature was seen often.
    pub repeats: u64,
    /// Triage files written.
    pub triaged: u64,
    /// Generated expressions that parsed (of those checked).
    pub parsed: u64,
}

impl Stats {
    fn to_json(&self, seconds: f64, go_restarts: u32) -> serde_json::Value {
        let mut accepted: Vec<(&String, &u64)> = self.accepted.iter().collect();
        accepted.sort();
        serde_json::json!({
            "seconds": seconds,
            "inputs": self.inputs,
            "cases": self.cases,
            "same": self.same,
            "skipped": self.skipped,
            "poisoned": self.poisoned,
            "accepted": accepted.into_iter().map(|(k, v)| (k.clone(), serde_json::Value::from(*v))).collect::<serde_json::Map<String, serde_json::Value>>(),
            "divergences": self.divergences,
            "repeats": self.repeats,
            "triaged": self.triaged,
            "go_restarts": go_restarts,
        })
    }
}

enum GoState {
    NotStarted,
    Running(GoOracle),
    Missing(String),
}

/// A Terraform oracle, started on first use.
enum TfState {
    NotStarted,
    Running(TerraformOracle),
    Missing(String),
}

/// Cases evaluated by the reference and waiting for a Terraform oracle.
#[derive(Default)]
struct Pending {
    requests: Vec<Request>,
    outcomes: Vec<Outcome>,
}

/// The state of a fuzzing process (or a test).
pub struct Runner {
    pub mode: Mode,
    pub allow: AllowList,
    triage: Option<Triage>,
    reference: ReferenceOracle,
    hclrs: HclRsOracle,
    go: GoState,
    terraform: TfState,
    terraform_011: TfState,
    pending_terraform: Pending,
    pending_hil: Pending,
    pub stats: Stats,
    coarse: HashMap<String, u32>,
    pub found: Vec<Found>,
    started: Instant,
    stats_path: Option<PathBuf>,
    stats_written: Instant,
}

impl Runner {
    /// A runner; `triage` is where new triage cases go (none in
    /// [`Mode::Collect`]).
    pub fn new(mode: Mode, triage: Option<PathBuf>) -> Runner {
        let now = Instant::now();
        Runner {
            mode,
            allow: AllowList::shipped(),
            triage: triage.filter(|_| mode != Mode::Collect).map(Triage::open),
            reference: ReferenceOracle::new(COMPARE_VERSION),
            hclrs: HclRsOracle,
            go: GoState::NotStarted,
            terraform: TfState::NotStarted,
            terraform_011: TfState::NotStarted,
            pending_terraform: Pending::default(),
            pending_hil: Pending::default(),
            stats: Stats::default(),
            coarse: HashMap::new(),
            found: Vec::new(),
            started: now,
            stats_path: None,
            stats_written: now,
        }
    }

    /// What the fuzz targets use: mode, triage folder and stats file from
    /// the environment.
    pub fn from_env() -> Runner {
        let triage = std::env::var_os(TRIAGE_ENV)
            .map(PathBuf::from)
            .unwrap_or_else(default_triage_dir);
        let mut r = Runner::new(Mode::from_env(), Some(triage));
        r.stats_path = std::env::var_os(STATS_ENV).map(PathBuf::from);
        r
    }

    /// The Go oracle, started on first use; `None` when it is not built or
    /// does not start.
    pub fn go(&mut self) -> Option<&mut GoOracle> {
        if let GoState::NotStarted = self.go {
            self.go = match GoOracle::start() {
                Some(Ok(g)) => GoState::Running(g),
                Some(Err(e)) => GoState::Missing(e),
                None => GoState::Missing(MSG_GO_NOT_BUILT.into()),
            };
        }
        match &mut self.go {
            GoState::Running(g) => Some(g),
            _ => None,
        }
    }

    /// A Terraform oracle (`Terraform` or `Terraform011`), started on
    /// first use; `None` when it is not installed or does not start.
    pub fn terraform(&mut self, kind: OracleKind) -> Option<&mut TerraformOracle> {
        let (state, batch) = match kind {
            OracleKind::Terraform011 => (&mut self.terraform_011, HIL_BATCH),
            _ => (&mut self.terraform, TERRAFORM_BATCH),
        };
        if let TfState::NotStarted = state {
            *state = match TerraformOracle::start(kind, batch) {
                Ok(t) => TfState::Running(t),
                Err(e) => TfState::Missing(e),
            };
        }
        match state {
            TfState::Running(t) => Some(t),
            _ => None,
        }
    }

    /// Why a Terraform oracle is not available, if it is not.
    pub fn terraform_missing(&mut self, kind: OracleKind) -> Option<String> {
        self.terraform(kind);
        let state = match kind {
            OracleKind::Terraform011 => &self.terraform_011,
            _ => &self.terraform,
        };
        match state {
            TfState::Missing(why) => Some(why.clone()),
            _ => None,
        }
    }

    /// Why the Go oracle is not available, if it is not.
    pub fn go_missing(&mut self) -> Option<String> {
        self.go();
        match &self.go {
            GoState::Missing(why) => Some(why.clone()),
            _ => None,
        }
    }

    /// `parse`: any bytes, as an expression and as a template, under both
    /// versions: no panic, and error ranges inside the source.
    pub fn run_parse(&mut self, data: &[u8]) {
        self.stats.inputs += 1;
        let source = String::from_utf8_lossy(data).into_owned();
        if huge_exponent(&source) {
            self.stats.skipped += 1;
            return;
        }
        for kind in [Kind::Expression, Kind::Template] {
            for version in Version::ALL {
                let req = Request {
                    id: "0".into(),
                    kind,
                    source: source.clone(),
                    scope: Default::default(),
                    hcl_version: Some(version),
                    ..Default::default()
                };
                self.check_case(Target::Parse, &req);
            }
        }
        self.flush_stats();
    }

    /// One case through the reference's own checks: a divergence is
    /// triaged, anything else counts as agreeing.
    fn check_case(&mut self, target: Target, req: &Request) {
        self.stats.cases += 1;
        match self.recheck(target, req) {
            Some(d) => self.on_divergence(target, d, req),
            None => self.stats.same += 1,
        }
    }

    /// `hil`: any bytes as a Terraform 0.11 string and as the inside of
    /// one `${...}`, with a scope of string, list and map variables: the
    /// reference never panics or overflows the stack, and its error ranges
    /// lie inside the source.
    pub fn run_hil(&mut self, data: &[u8]) {
        self.stats.inputs += 1;
        let source = String::from_utf8_lossy(data).into_owned();
        let scope = hil_scope();
        for kind in [Kind::Expression, Kind::Template] {
            let req = Request {
                id: "0".into(),
                kind,
                source: source.clone(),
                scope: scope.clone(),
                dialect: Dialect::Hil011,
                ..Default::default()
            };
            self.check_case(Target::Parse, &req);
        }
        self.flush_stats();
    }

    /// `eval`: generated cases, checked for panics, value invariants,
    /// error ranges, version consistency and types under unknowns.
    pub fn run_eval(&mut self, data: &[u8]) {
        self.stats.inputs += 1;
        let batch = gen_batch_filled(data, Profile::Eval, EVAL_CASES_PER_INPUT, COMPARE_VERSION);
        for req in &batch.requests {
            if huge_exponent(&req.source) {
                self.stats.skipped += 1;
                continue;
            }
            self.check_case(Target::Eval, req);
        }
        self.flush_stats();
    }

    /// `diff_go`: generated cases, the reference against the Go oracle.
    /// The reference evaluates the batch on a thread of its own while this
    /// one talks to the oracle, so that the two processes use both cores
    /// instead of taking turns. (The other way round, the thread that
    /// writes the requests was started on the core the reference kept busy
    /// and mostly ran only once the reference was done.) Without a built
    /// oracle the input only runs the reference.
    pub fn run_diff_go(&mut self, data: &[u8]) {
        self.stats.inputs += 1;
        let batch = gen_batch_filled(data, Profile::Go, GO_CASES_PER_INPUT, COMPARE_VERSION);
        let requests = &batch.requests;
        self.go();
        let reference = &self.reference;
        let evaluate =
            || -> Vec<Outcome> { requests.iter().map(|r| reference.outcome(r)).collect() };
        let (outcomes, answers): (Vec<Outcome>, Option<Vec<Answer>>) = match &mut self.go {
            GoState::Running(go) => std::thread::scope(|s| {
                let evaluating = std::thread::Builder::new()
                    .name("hclspec-reference".into())
                    .stack_size(REFERENCE_STACK)
                    .spawn_scoped(s, evaluate);
                let answers = go.evaluate(requests);
                let outcomes = match evaluating {
                    Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                    Err(_) => evaluate(),
                };
                (outcomes, Some(answers))
            }),
            _ => (evaluate(), None),
        };
        let Some(answers) = answers else {
            self.stats.cases += requests.len() as u64;
            self.stats.skipped += requests.len() as u64;
            return;
        };
        self.tally(
            Target::DiffGo,
            OracleKind::Go,
            requests,
            &outcomes,
            &answers,
        );
        self.flush_stats();
    }

    /// `diff_hclrs`: generated cases, the reference against hcl-rs.
    pub fn run_diff_hclrs(&mut self, data: &[u8]) {
        self.stats.inputs += 1;
        let batch = gen_batch_filled(data, Profile::HclRs, HCLRS_CASES_PER_INPUT, COMPARE_VERSION);
        let outcomes: Vec<Outcome> = batch
            .requests
            .iter()
            .map(|r| self.reference.outcome(r))
            .collect();
        let answers = self.hclrs.evaluate(&batch.requests);
        self.tally(
            Target::DiffHclRs,
            OracleKind::HclRs,
            &batch.requests,
            &outcomes,
            &answers,
        );
        self.flush_stats();
    }

    /// `diff_terraform`: generated cases in the Terraform profile, the
    /// reference as HCL 2.24 against real Terraform 1.15, answered in
    /// batches gathered across inputs ([`TERRAFORM_BATCH`]). Without the
    /// oracle the cases only go through the reference's own checks (no
    /// panic, error ranges inside the source).
    pub fn run_diff_terraform(&mut self, data: &[u8]) {
        self.stats.inputs += 1;
        let batch = gen_batch_filled(
            data,
            Profile::Terraform,
            TERRAFORM_CASES_PER_INPUT,
            Version::V2_24,
        );
        self.queue(Target::DiffTerraform, batch.requests);
        self.flush_stats();
    }

    /// `diff_hil`: generated Terraform 0.11 strings and interpolations
    /// (`crate::gen::hil`), the reference's `hil-0.11` dialect against
    /// real Terraform 0.11.11, batched as `diff_terraform` is.
    pub fn run_diff_hil(&mut self, data: &[u8]) {
        self.stats.inputs += 1;
        let requests = crate::gen::hil::gen_hil_batch(data, HIL_CASES_PER_INPUT);
        self.queue(Target::DiffHil, requests);
        self.flush_stats();
    }

    /// Evaluates `requests` with the reference and keeps them for the
    /// target's oracle; answers the kept cases once there are a batch's
    /// worth.
    fn queue(&mut self, target: Target, requests: Vec<Request>) {
        let (kind, size) = match target {
            Target::DiffHil => (OracleKind::Terraform011, HIL_BATCH),
            _ => (OracleKind::Terraform, TERRAFORM_BATCH),
        };
        if self.terraform(kind).is_none() {
            // No oracle: the reference's own checks only.
            for req in &requests {
                if huge_exponent(&req.source) {
                    self.stats.cases += 1;
                    self.stats.skipped += 1;
                    continue;
                }
                self.check_case(Target::Parse, req);
            }
            return;
        }
        for req in requests {
            if huge_exponent(&req.source) {
                self.stats.cases += 1;
                self.stats.skipped += 1;
                continue;
            }
            let outcome = self.reference.outcome(&req);
            let pending = self.pending_mut(target);
            pending.requests.push(req);
            pending.outcomes.push(outcome);
        }
        if self.pending_mut(target).requests.len() >= size {
            self.flush_pending(target);
        }
    }

    fn pending_mut(&mut self, target: Target) -> &mut Pending {
        match target {
            Target::DiffHil => &mut self.pending_hil,
            _ => &mut self.pending_terraform,
        }
    }

    /// Answers the kept cases of `target` with its oracle and compares
    /// them.
    pub fn flush_pending(&mut self, target: Target) {
        let Some(kind) = target.process_oracle() else {
            return;
        };
        let Pending { requests, outcomes } = std::mem::take(self.pending_mut(target));
        if requests.is_empty() {
            return;
        }
        let Some(oracle) = self.terraform(kind) else {
            return;
        };
        // A Terraform run with errors saves nothing: the oracle answers
        // the failing cases and runs the rest again. Cases the reference
        // expects to fail are sent apart from those it expects to succeed
        // (and parse errors apart from evaluation errors, which a
        // configuration that does not load hides), so that most runs
        // either succeed or fail as a whole and none is run twice.
        let mut groups: [Vec<usize>; 3] = Default::default();
        for (i, o) in outcomes.iter().enumerate() {
            let g = match o {
                Outcome::Error(e) if e.phase == hclspec_protocol::ErrorPhase::Parse => 0,
                Outcome::Error(_) => 1,
                _ => 2,
            };
            groups[g].push(i);
        }
        let mut answers: Vec<Option<Answer>> = vec![None; requests.len()];
        for group in groups.iter().filter(|g| !g.is_empty()) {
            let part: Vec<Request> = group.iter().map(|&i| requests[i].clone()).collect();
            for (&i, a) in group.iter().zip(oracle.evaluate(&part)) {
                answers[i] = Some(a);
            }
        }
        let answers: Vec<Answer> = answers
            .into_iter()
            .map(|a| a.unwrap_or_else(|| Answer::Poisoned("no answer".into())))
            .collect();
        self.tally(target, kind, &requests, &outcomes, &answers);
    }

    fn tally(
        &mut self,
        target: Target,
        oracle: OracleKind,
        requests: &[Request],
        outcomes: &[Outcome],
        answers: &[Answer],
    ) {
        for ((req, outcome), answer) in requests.iter().zip(outcomes).zip(answers) {
            self.stats.cases += 1;
            if !is_parse_error(outcome) {
                self.stats.parsed += 1;
            }
            match compare_outcomes(oracle, req, outcome, answer, &self.allow) {
                DiffResult::Same => self.stats.same += 1,
                DiffResult::Skipped(_) => self.stats.skipped += 1,
                DiffResult::Poisoned(why) => {
                    self.stats.poisoned += 1;
                    if let Some(t) = self.triage.as_mut() {
                        if let Err(e) = t.write_poisoned(oracle, req, &why) {
                            eprintln!("hclspec-fuzzgen: writing a triage case failed: {e}");
                        }
                    }
                }
                DiffResult::Accepted(id) => *self.stats.accepted.entry(id).or_insert(0) += 1,
                DiffResult::Diverged(d) => self.on_divergence(target, d, req),
            }
        }
    }

    /// Checks one case again as `target` does; the divergence, if any.
    pub fn recheck(&mut self, target: Target, req: &Request) -> Option<Divergence> {
        match target {
            Target::Parse => {
                let outcome = self.reference.outcome(req);
                self.reference_checks(req, &outcome)
            }
            Target::Eval => self.eval_checks(req),
            Target::DiffGo => {
                let outcome = self.reference.outcome(req);
                let answer = self.go()?.evaluate_one(req);
                diverged(compare_outcomes(
                    OracleKind::Go,
                    req,
                    &outcome,
                    &answer,
                    &self.allow,
                ))
            }
            Target::DiffHclRs => {
                let outcome = self.reference.outcome(req);
                let answer = self.hclrs.evaluate_one(req);
                diverged(compare_outcomes(
                    OracleKind::HclRs,
                    req,
                    &outcome,
                    &answer,
                    &self.allow,
                ))
            }
            Target::DiffTerraform | Target::DiffHil => self
                .recheck_many(target, std::slice::from_ref(req))
                .pop()
                .flatten(),
        }
    }

    /// Checks cases again against a Terraform oracle, all in one batch.
    fn recheck_many(&mut self, target: Target, reqs: &[Request]) -> Vec<Option<Divergence>> {
        let Some(kind) = target.process_oracle() else {
            return reqs.iter().map(|r| self.recheck(target, r)).collect();
        };
        let outcomes: Vec<Outcome> = reqs.iter().map(|r| self.reference.outcome(r)).collect();
        let Some(oracle) = self.terraform(kind) else {
            return vec![None; reqs.len()];
        };
        let answers = oracle.evaluate(reqs);
        reqs.iter()
            .zip(&outcomes)
            .zip(&answers)
            .map(|((req, outcome), answer)| {
                diverged(compare_outcomes(kind, req, outcome, answer, &self.allow))
            })
            .collect()
    }

    /// A panic, or an error range outside the source.
    fn reference_checks(&self, req: &Request, outcome: &Outcome) -> Option<Divergence> {
        let fail = |class: Class, headline: String| {
            Some(property_divergence(class, headline, req, outcome))
        };
        if let Outcome::Crash(msg) = outcome {
            return fail(Class::ReferencePanic, msg.clone());
        }
        if let Err(why) = check_range(req, outcome) {
            return fail(Class::Invariant, why);
        }
        None
    }

    fn eval_checks(&mut self, req: &Request) -> Option<Divergence> {
        let outcome = self.reference.outcome(req);
        if let Some(d) = self.reference_checks(req, &outcome) {
            return Some(d);
        }
        if let Outcome::Result(tv) = &outcome {
            let checked = tv
                .decode()
                .map_err(|e| format!("the result does not decode: {e}"))
                .and_then(|v| check_value(&v));
            if let Err(why) = checked {
                return Some(property_divergence(Class::Invariant, why, req, &outcome));
            }
        }
        let other_version = match req.hcl_version {
            Some(Version::V2_14) => Version::V2_24,
            _ => Version::V2_14,
        };
        let other = self.reference.outcome(&with_version(req, other_version));
        if !version_sensitive(&req.source) {
            let same = match expect_of(&outcome, true) {
                Some(e) => compare(&e, &other).is_pass(),
                None => matches!((&outcome, &other), (Outcome::Crash(_), Outcome::Crash(_))),
            };
            if !same {
                let why = format!(
                    "{}: {} / {}: {}",
                    req.hcl_version.unwrap_or_default(),
                    outcome_line(&outcome),
                    other_version,
                    outcome_line(&other)
                );
                return Some(property_divergence(
                    Class::VersionMismatch,
                    why,
                    req,
                    &outcome,
                ));
            }
        }
        if let Some(unknown_req) = unknown_scope(req) {
            if !req.scope.is_empty() {
                let unknown = self.reference.outcome(&unknown_req);
                if let Some(d) = self.reference_checks(&unknown_req, &unknown) {
                    return Some(d);
                }
                if let Err(why) = check_unknown_consistency(&outcome, &unknown) {
                    // Real HCL has such inconsistencies of its own; without
                    // the Go oracle (a fuzzing service's images) they cannot
                    // be told apart from the reference's, so they are only
                    // counted.
                    if self.go().is_none() {
                        *self
                            .stats
                            .accepted
                            .entry(UNKNOWN_TYPES_UNJUDGED.into())
                            .or_insert(0) += 1;
                        return None;
                    }
                    if self.go_shows_same_inconsistency(req, &unknown_req) {
                        *self
                            .stats
                            .accepted
                            .entry(HCL_UNKNOWN_TYPES.into())
                            .or_insert(0) += 1;
                        return None;
                    }
                    return Some(property_divergence(
                        Class::UnknownTypeInconsistency,
                        why,
                        req,
                        &outcome,
                    ));
                }
            }
        }
        None
    }

    /// Whether the Go oracle answers `req` differently when asked again:
    /// go-cty compares objects holding unknowns in Go's random map order.
    /// Only asked for scopes with unknowns, where that happens.
    fn go_is_nondeterministic(&mut self, req: &Request) -> bool {
        if !req.scope.values().any(|tv| !tv.unknown.is_empty()) {
            return false;
        }
        let Some(go) = self.go() else {
            return false;
        };
        let answers = go.evaluate(&vec![req.clone(); NONDETERMINISM_ASKS]);
        answers.windows(2).any(|w| w[0] != w[1])
    }

    /// Whether real HCL (the Go oracle) answers both requests with the same
    /// inconsistency, which makes it HCL's behaviour rather than ours.
    fn go_shows_same_inconsistency(&mut self, known: &Request, unknown: &Request) -> bool {
        let Some(go) = self.go() else {
            return false;
        };
        let answers = go.evaluate(&[
            with_version(known, COMPARE_VERSION),
            with_version(unknown, COMPARE_VERSION),
        ]);
        match (&answers[0], &answers[1]) {
            (Answer::Outcome(k), Answer::Outcome(u)) => check_unknown_consistency(k, u).is_err(),
            _ => false,
        }
    }

    fn on_divergence(&mut self, target: Target, d: Divergence, req: &Request) {
        if target == Target::DiffGo && self.go_is_nondeterministic(req) {
            *self
                .stats
                .accepted
                .entry(GO_NONDETERMINISTIC.into())
                .or_insert(0) += 1;
            return;
        }
        self.stats.divergences += 1;
        // Repeats are counted by the unminimized case's fine signature: a
        // class seen often still gets new kinds of cases minimized.
        let seen = self
            .coarse
            .entry(fine_signature(&d.signature, req))
            .or_insert(0);
        *seen += 1;
        if *seen > MINIMIZED_PER_SIGNATURE && self.mode != Mode::PanicAll {
            self.stats.repeats += 1;
            return;
        }
        let (d_min, minimized, found) = self.minimize_and_record(target, d, req);
        self.flush_stats_now();
        let message = format!("{d_min}\nminimized: {}", source_line(&minimized));
        match (self.mode, found) {
            (Mode::PanicAll, _) => d_min.class.fail(&message),
            (Mode::Panic, Some(f)) => {
                let at = f
                    .path
                    .map(|p| format!("\ntriage case: {}", p.display()))
                    .unwrap_or_default();
                d_min.class.fail(&format!("{message}{at}"))
            }
            _ => {}
        }
    }

    /// Minimizes a divergence and records it (in [`Runner::found`], and as
    /// a triage case when there is a triage folder); the new finding, or
    /// `None` when its signature is already known.
    pub fn triage_divergence(
        &mut self,
        target: Target,
        d: Divergence,
        req: &Request,
    ) -> Option<Found> {
        self.minimize_and_record(target, d, req).2
    }

    fn minimize_and_record(
        &mut self,
        target: Target,
        d: Divergence,
        req: &Request,
    ) -> (Divergence, Request, Option<Found>) {
        let same = |d2: &Divergence| d2.class == d.class && d2.signature == d.signature;
        let minimized = match target {
            Target::DiffTerraform | Target::DiffHil => {
                minimize_batched(req, MINIMIZE_BUDGET_TERRAFORM, &mut |candidates| {
                    self.recheck_many(target, candidates)
                        .iter()
                        .position(|r| r.as_ref().is_some_and(same))
                })
            }
            _ => {
                let budget = match target {
                    Target::DiffGo => MINIMIZE_BUDGET_GO,
                    _ => MINIMIZE_BUDGET_IN_PROCESS,
                };
                minimize(req, budget, &mut |candidate| {
                    self.recheck(target, candidate).is_some_and(|d2| same(&d2))
                })
            }
        };
        let d_min = self.recheck(target, &minimized).unwrap_or(d);
        let signature = fine_signature(&d_min.signature, &minimized);
        let known = self.found.iter().any(|f| f.signature == signature)
            || self.triage.as_ref().is_some_and(|t| t.is_known(&signature));
        if known {
            return (d_min, minimized, None);
        }
        let mut path = None;
        if self.triage.is_some() {
            let case = self.triage_case(&d_min, &minimized, &signature);
            if let Some(t) = self.triage.as_mut() {
                match t.write(&case) {
                    Ok(p) => path = p,
                    Err(e) => eprintln!("hclspec-fuzzgen: writing a triage case failed: {e}"),
                }
            }
            if path.is_some() {
                self.stats.triaged += 1;
            }
        }
        let found = Found {
            divergence: d_min.clone(),
            request: minimized.clone(),
            signature,
            path,
        };
        self.found.push(found.clone());
        (d_min, minimized, Some(found))
    }

    /// The triage case for a minimized divergence, with the Go oracle's
    /// answer as its expectation.
    fn triage_case(&mut self, d: &Divergence, req: &Request, signature: &str) -> TriageCase {
        let mut req = req.clone();
        req.hcl_version = None;
        let expect = match d.oracle {
            OracleKind::Terraform | OracleKind::Terraform011 => {
                self.record_terraform_expectation(d.oracle, &req)
            }
            _ => self.record_expectation(&req),
        };
        let note = format!(
            "Found by fuzzing ({} against {}): {}. {}",
            d.oracle.name(),
            OracleKind::Reference.name(),
            d.class,
            d.detail.lines().skip(1).collect::<Vec<_>>().join("; ")
        );
        TriageCase {
            oracle: d.oracle,
            class: Some(d.class),
            signature: signature.to_string(),
            request: req,
            expect,
            note: format!("{note} {}", d.headline).trim().to_string(),
        }
    }

    /// For a Terraform divergence: Terraform 1.15's answer for 2.24 with
    /// the Go oracle's for 2.14, or Terraform 0.11's for a `hil-0.11`
    /// case.
    fn record_terraform_expectation(&mut self, kind: OracleKind, req: &Request) -> Recorded {
        let asked = match req.dialect {
            Dialect::Hil011 => req.clone(),
            Dialect::Hcl2 => with_version(req, Version::V2_24),
        };
        let answer = match self.terraform(kind) {
            Some(t) => t.evaluate_one(&asked),
            None => {
                let why = self.terraform_missing(kind).unwrap_or_default();
                return Recorded::Pending(format!("{} is not available ({why})", kind.name()));
            }
        };
        let terraform = match oracle_expectation(kind, answer) {
            Ok(e) => e,
            Err(why) => return Recorded::Pending(why),
        };
        if req.dialect == Dialect::Hil011 {
            return Recorded::Same(terraform);
        }
        let go = match self.go() {
            Some(go) => go.evaluate_one(&with_version(req, Version::V2_14)),
            None => {
                let why = self.go_missing().unwrap_or_default();
                return Recorded::Pending(format!("the Go oracle is not available ({why})"));
            }
        };
        match oracle_expectation(OracleKind::Go, go) {
            Ok(go) if go == terraform => Recorded::Same(go),
            Ok(go) => Recorded::Oracles {
                v2_14: go,
                v2_24: terraform,
            },
            Err(why) => Recorded::Pending(why),
        }
    }

    /// The Go oracle's answer (HCL 2.14); where the reference answers
    /// 2.14 and 2.24 differently, the 2.24 answer is the reference's.
    fn record_expectation(&mut self, req: &Request) -> Recorded {
        let answer = match self.go() {
            Some(go) => go.evaluate_one(&with_version(req, Version::V2_14)),
            None => {
                let why = self.go_missing().unwrap_or_default();
                return Recorded::Pending(format!("the Go oracle is not available ({why})"));
            }
        };
        let go = match answer {
            Answer::Outcome(o) => match expect_of(&o, true) {
                Some(e) => e,
                None => {
                    return Recorded::Pending(format!(
                        "the Go oracle answered {}",
                        outcome_line(&o)
                    ))
                }
            },
            Answer::Poisoned(why) => {
                return Recorded::Pending(format!("the Go oracle failed: {why}"))
            }
        };
        let r14 = self.reference.outcome(&with_version(req, Version::V2_14));
        let r24 = self.reference.outcome(&with_version(req, Version::V2_24));
        match expect_of(&r14, true) {
            Some(e14) if !compare(&e14, &r24).is_pass() => match expect_of(&r24, true) {
                Some(v2_24) => Recorded::PerVersion { v2_14: go, v2_24 },
                None => Recorded::Same(go),
            },
            _ => Recorded::Same(go),
        }
    }

    fn flush_stats(&mut self) {
        if self.stats_path.is_some() && self.stats_written.elapsed().as_millis() >= STATS_EVERY_MS {
            self.flush_stats_now();
        }
    }

    fn flush_stats_now(&mut self) {
        let Some(path) = &self.stats_path else {
            return;
        };
        self.stats_written = Instant::now();
        let mut restarts = match &self.go {
            GoState::Running(g) => g.restarts(),
            _ => 0,
        };
        for state in [&self.terraform, &self.terraform_011] {
            if let TfState::Running(t) = state {
                restarts += t.restarts();
            }
        }
        let doc = self
            .stats
            .to_json(self.started.elapsed().as_secs_f64(), restarts);
        let tmp = path.with_extension("tmp");
        if std::fs::write(&tmp, doc.to_string()).is_ok() {
            let _ = std::fs::rename(&tmp, path);
        }
    }
}

/// What an oracle's answer records as an expectation, or why it records
/// none.
fn oracle_expectation(
    kind: OracleKind,
    answer: Answer,
) -> Result<hclspec_protocol::Expect, String> {
    match answer {
        Answer::Outcome(o) => expect_of(&o, true)
            .ok_or_else(|| format!("the {} oracle answered {}", kind.name(), outcome_line(&o))),
        Answer::Poisoned(why) => Err(format!("the {} oracle failed: {why}", kind.name())),
    }
}

/// The largest decimal exponent a number literal may have for the
/// targets to evaluate it: the Go library (and the reference, which follows
/// its algorithm) needs seconds for `1e10000000` and minutes beyond.
pub const MAX_EXPONENT: u64 = 100_000;

/// Whether `source` has a number, as a literal or inside a string (which
/// converts as slowly), whose exponent exceeds [`MAX_EXPONENT`]: such
/// inputs are skipped, not evaluated.
pub fn huge_exponent(source: &str) -> bool {
    crate::tokens::tokenize(source).iter().any(|t| {
        let Some(at) = t.find(['e', 'E']) else {
            return false;
        };
        if !t.starts_with(|c: char| c.is_ascii_digit()) {
            return false;
        }
        let digits = t[at + 1..].trim_start_matches(['+', '-']);
        digits.len() > 7 || digits.parse::<u64>().is_ok_and(|e| e > MAX_EXPONENT)
    })
}

/// How often the stats file is rewritten.
const STATS_EVERY_MS: u128 = 250;

const MSG_GO_NOT_BUILT: &str = "not built (harness/oracles/go-hcl/build.sh)";

/// How many times a diverging case with unknowns is asked again to see
/// whether the oracle's answer is stable; a coin flip per ask is missed
/// with odds of 1 in 2^(asks-1).
pub const NONDETERMINISM_ASKS: usize = 10;

/// The accepted-count key for cases the Go oracle answers differently
/// each time.
pub const GO_NONDETERMINISTIC: &str = "go-nondeterministic";

/// The accepted-count key for type inconsistencies real HCL shares.
pub const HCL_UNKNOWN_TYPES: &str = "hcl-unknown-type-inconsistency";

/// The accepted-count key for type inconsistencies left unjudged because
/// the Go oracle is not there to say whether real HCL shares them.
pub const UNKNOWN_TYPES_UNJUDGED: &str = "unknown-type-inconsistency-unjudged";

fn is_parse_error(o: &Outcome) -> bool {
    matches!(o, Outcome::Error(e) if e.phase == hclspec_protocol::ErrorPhase::Parse)
}

fn diverged(r: DiffResult) -> Option<Divergence> {
    match r {
        DiffResult::Diverged(d) => Some(d),
        _ => None,
    }
}

/// A divergence found by a property of the reference alone. Its signature
/// names the property (and, for a panic, where it happened), not the
/// particulars, so that minimization keeps the property broken.
fn property_divergence(
    class: Class,
    headline: String,
    req: &Request,
    outcome: &Outcome,
) -> Divergence {
    let kind = match class {
        Class::ReferencePanic => panic_place(&headline),
        Class::Invariant => invariant_kind(&headline).to_string(),
        _ => String::new(),
    };
    Divergence {
        class,
        oracle: OracleKind::Reference,
        signature: format!("reference/{class}/{kind}"),
        detail: format!("{}\nreference: {}", source_line(req), outcome_line(outcome)),
        headline,
    }
}

/// `file:line` of a panic message (`... panicked at file:line: text`).
fn panic_place(message: &str) -> String {
    match message.split_once(" at ") {
        Some((_, rest)) => rest.split(": ").next().unwrap_or(rest).to_string(),
        None => message.chars().take(60).collect(),
    }
}

/// The invariant a message reports.
fn invariant_kind(message: &str) -> &'static str {
    const KINDS: &[(&str, &str)] = &[
        ("NFC", "nfc"),
        ("in a collection of", "element-type"),
        ("duplicates or is out of", "set-order"),
        ("changes through its JSON", "json-round-trip"),
        ("does not decode", "json-decode"),
        ("error range", "error-range"),
        ("error position", "error-range"),
    ];
    KINDS
        .iter()
        .find(|(needle, _)| message.contains(needle))
        .map_or("other", |(_, kind)| kind)
}

/// The repository's `fuzz/triage` folder.
/// Where triage cases go once promoted into the corpus.
pub fn promoted_dir() -> PathBuf {
    hclspec::locate::built_repo_root()
        .join("spec-tests")
        .join("fuzz")
}

pub fn default_triage_dir() -> PathBuf {
    hclspec::locate::built_repo_root()
        .join("fuzz")
        .join("triage")
}

/// The `hil` target's scope: one `var` object with a string, a number
/// string, lists (one empty) and maps (one empty).
fn hil_scope() -> std::collections::BTreeMap<String, TypedValue> {
    use hclspec_reference::{Type, Value};
    let s = |v: &str| Value::string(v);
    let list = |items: &[&str]| Value::list(Type::String, items.iter().map(|v| s(v)).collect());
    let map = |items: &[(&str, &str)]| {
        Value::map(
            Type::String,
            items.iter().map(|(k, v)| (k.to_string(), s(v))).collect(),
        )
    };
    let var = Value::object(
        [
            ("s", s("hello")),
            ("n", s("5")),
            ("l", list(&["a", "b", "c"])),
            ("e", list(&[])),
            ("m", map(&[("a", "x"), ("b", "y")])),
            ("em", map(&[])),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
    );
    std::collections::BTreeMap::from([("var".to_string(), TypedValue::encode(&var))])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_exponents_are_recognised() {
        let table = [
            ("1e99999999", true),
            ("1e+100001", true),
            ("x + 2E-9999999", true),
            ("1e400", false),
            ("1e100000", false),
            // A string converts to a number as slowly.
            ("\"1e99999999\"", true),
            ("a1e99999999", false),
        ];
        for (src, want) in table {
            assert_eq!(huge_exponent(src), want, "{src}");
        }
    }
}
