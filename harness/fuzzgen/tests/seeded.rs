//! Every fuzz target's body on a fixed set of seeded inputs, through the
//! same generator, oracles, comparison and allow-list as the fuzzers.
//!
//! A divergence fails the test unless a triage case with its fine signature
//! (class, answers, constructs and value kinds) is recorded under
//! `fuzz/triage/` or among the promoted cases in `spec-tests/fuzz/` (a
//! known, reported divergence): a recorded case never hides a new kind. The Go
//! comparison is skipped, with a note, when the oracle is not built.

use hclspec_fuzzgen::runner::{default_triage_dir, promoted_dir, Found, Stats};
use hclspec_fuzzgen::triage::Triage;
use hclspec_fuzzgen::{seeded_bytes, Mode, Runner};

/// Inputs per target, and bytes per input.
const INPUTS: u64 = 300;
const INPUT_LEN: usize = 700;

/// Runs `body` on a thread with the stack the harness gives evaluations.
fn with_big_stack(body: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(hclspec::engine::EVAL_STACK_SIZE)
        .spawn(body)
        .expect("a test thread starts")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn run(each: fn(&mut Runner, &[u8])) -> Runner {
    let mut r = Runner::new(Mode::Collect, None);
    for seed in 0..INPUTS {
        each(&mut r, &seeded_bytes(seed, INPUT_LEN));
    }
    r
}

/// The divergences whose signature no triage case records.
fn unexplained(found: &[Found]) -> Vec<&Found> {
    let triage = Triage::open(default_triage_dir()).and_known_in(&promoted_dir());
    found
        .iter()
        .filter(|f| !triage.is_known(&f.signature))
        .collect()
}

fn assert_explained(r: &Runner) {
    let bad = unexplained(&r.found);
    let report: Vec<String> = bad
        .iter()
        .map(|f| {
            format!(
                "{}\nminimized: {:?} scope {}",
                f.divergence,
                f.request.source,
                serde_json::to_string(&f.request.scope).unwrap_or_default()
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} divergence(s) not recorded in fuzz/triage:\n\n{}",
        bad.len(),
        report.join("\n\n")
    );
}

fn share(part: u64, stats: &Stats) -> f64 {
    part as f64 / stats.cases.max(1) as f64
}

#[test]
fn diff_hclrs_on_fixed_seeds() {
    with_big_stack(|| {
        let r = run(Runner::run_diff_hclrs);
        let s = &r.stats;
        assert!(s.cases >= 2 * INPUTS, "{s:?}");
        // Most cases parse, and most are compared exactly rather than
        // skipped or explained away.
        assert!(share(s.parsed, s) >= 0.75, "{s:?}");
        assert!(share(s.same, s) >= 0.6, "{s:?}");
        assert_explained(&r);
    });
}

#[test]
fn diff_go_on_fixed_seeds() {
    with_big_stack(|| {
        let mut r = Runner::new(Mode::Collect, None);
        if let Some(why) = r.go_missing() {
            eprintln!("note: diff_go_on_fixed_seeds skipped: the Go oracle is {why}");
            return;
        }
        for seed in 0..INPUTS {
            r.run_diff_go(&seeded_bytes(seed, INPUT_LEN));
        }
        let s = &r.stats;
        assert!(s.cases >= 4 * INPUTS, "{s:?}");
        assert!(share(s.parsed, s) >= 0.75, "{s:?}");
        assert!(share(s.same, s) >= 0.9, "{s:?}");
        assert_eq!(s.poisoned, 0, "the Go oracle failed on generated cases");
        assert_explained(&r);
    });
}

#[test]
fn eval_on_fixed_seeds() {
    with_big_stack(|| {
        let r = run(Runner::run_eval);
        let s = &r.stats;
        assert!(s.cases >= INPUTS, "{s:?}");
        assert_explained(&r);
    });
}

#[test]
fn parse_on_fixed_seeds() {
    with_big_stack(|| {
        let r = run(Runner::run_parse);
        assert_eq!(r.stats.cases, 4 * INPUTS);
        assert_explained(&r);
    });
}

/// Deep nesting reaches the parser's own limit, not the end of the stack,
/// on the parse target's path.
#[test]
fn parse_survives_deep_nesting() {
    with_big_stack(|| {
        let mut r = Runner::new(Mode::Collect, None);
        for open in ["(", "[", "{a=", "\"${", "%{if ", "-", "!"] {
            let source = open.repeat(5000);
            r.run_parse(source.as_bytes());
        }
        assert!(
            r.found.is_empty(),
            "{:?}",
            r.found.first().map(|f| &f.divergence)
        );
    });
}

/// The minimizer and triage writer produce corpus cases that load, from a
/// real divergence (hcl-rs panics on `5 % 0`).
#[test]
fn divergences_become_loadable_corpus_cases() {
    with_big_stack(|| {
        let dir = std::env::temp_dir().join(format!("hclspec-seeded-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut r = Runner::new(Mode::Record, Some(dir.clone()));
        r.allow = hclspec_fuzzgen::allow::AllowList::empty();
        let req = hclspec_protocol::Request {
            id: "0".into(),
            kind: hclspec_protocol::Kind::Expression,
            source: "[1, 2, 5 % 0][2]".into(),
            scope: Default::default(),
            hcl_version: Some(hclspec_protocol::Version::V2_14),
            ..Default::default()
        };
        let d = r
            .recheck(hclspec_fuzzgen::Target::DiffHclRs, &req)
            .expect("hcl-rs panics on 5 % 0");
        assert_eq!(d.class, hclspec_fuzzgen::Class::OraclePanic);
        r.run_diff_hclrs(&[]);
        // Feed the divergence through the same path a fuzz input takes.
        let found = r.triage_divergence(hclspec_fuzzgen::Target::DiffHclRs, d, &req);
        let path = found.expect("a new triage case").path.expect("written");
        let text = std::fs::read_to_string(&path).unwrap();
        let file = hclspec_corpus::case::CaseFile::parse(&text, "t", "t.toml", &path)
            .unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        assert_eq!(file.cases.len(), 1);
        assert!(
            file.cases[0].source.len() < req.source.len(),
            "minimized: {text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}
