//! Protocol throughput: the whole corpus through `hclspec serve` as a
//! persistent child (pipelined, then one request at a time) and as an
//! engine started once per case, with the in-process reference for scale.
//!
//! `cargo bench -p hclspec --bench protocol`

use std::path::PathBuf;
use std::time::{Duration, Instant};

use hclspec::engine::{Child, Engine, InProcess, OneShot, DEFAULT_WINDOW};
use hclspec::locate::{CORPUS_DIR, CORPUS_ENV};
use hclspec_corpus::case::Corpus;
use hclspec_protocol::{Request, Version};

/// Passes over the corpus for the fast modes; the best one counts.
const PASSES: usize = 5;
/// The goals: persistent cases per second, and persistent over one-shot.
const GOAL_RATE: f64 = 60_000.0;
const GOAL_RATIO: f64 = 25.0;
const TIMEOUT: Duration = Duration::from_secs(10);
/// A case that takes longer than this in process is slow by its nature (a
/// bcrypt hash at the default cost): it is timed on its own and left out of
/// the rates, which measure the protocol, not the function.
const SLOW: Duration = Duration::from_millis(5);

fn main() {
    let root = std::env::var_os(CORPUS_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(CORPUS_DIR)
        });
    let corpus = Corpus::load(&root).unwrap_or_else(|e| panic!("the corpus does not load:\n{e}"));
    let version = Version::V2_24;
    let all: Vec<(String, Request)> = corpus
        .cases()
        .filter(|(_, c)| c.expect_for(version).is_some())
        .map(|(file, c)| (format!("{}::{}", file.name, c.id), c.request(version)))
        .collect();
    let mut timer = InProcess::new(version, TIMEOUT, 0);
    let mut requests = Vec::new();
    let mut slow = Vec::new();
    for (name, request) in all {
        let one = std::slice::from_ref(&request);
        let start = Instant::now();
        timer.run(one, &mut |_, _| {});
        let took = start.elapsed();
        if took > SLOW {
            slow.push((name, took));
        } else {
            requests.push(request);
        }
    }
    let serve = vec![
        env!("CARGO_BIN_EXE_hclspec").to_string(),
        "serve".to_string(),
    ];
    println!(
        "protocol throughput over {} cases (`hclspec serve`)",
        requests.len()
    );
    for (name, took) in &slow {
        println!(
            "  left out, slower than {} ms in process: {name} ({:.1} ms)",
            SLOW.as_millis(),
            took.as_secs_f64() * 1000.0
        );
    }

    let mut reference = InProcess::new(version, TIMEOUT, 0);
    let in_process = best_of(PASSES, &mut reference, &requests);
    report(
        "in-process reference (no protocol)",
        &in_process,
        requests.len(),
    );

    let mut pipelined = Child::spawn(&serve)
        .expect("hclspec serve starts")
        .with_timeout(TIMEOUT)
        .with_window(DEFAULT_WINDOW);
    let persistent = best_of(PASSES, &mut pipelined, &requests);
    report(
        &format!("persistent, window {DEFAULT_WINDOW}"),
        &persistent,
        requests.len(),
    );

    let mut ping_pong = Child::spawn(&serve)
        .expect("hclspec serve starts")
        .with_timeout(TIMEOUT)
        .with_window(1);
    let lockstep = best_of(PASSES, &mut ping_pong, &requests);
    report("persistent, window 1", &lockstep, requests.len());

    let mut one_shot = OneShot::new(&serve, TIMEOUT);
    let once = best_of(1, &mut one_shot, &requests);
    report("one-shot (a process per case)", &once, requests.len());

    let rate = |r: &Pass| requests.len() as f64 / r.time.as_secs_f64();
    let ratio = rate(&persistent) / rate(&once);
    println!(
        "persistent / one-shot: {ratio:.1}x   persistent window {DEFAULT_WINDOW} / window 1: {:.1}x",
        rate(&persistent) / rate(&lockstep)
    );
    println!(
        "goals: persistent >= {GOAL_RATE:.0} cases/s: {}; >= {GOAL_RATIO:.0}x one-shot: {}",
        verdict(rate(&persistent) >= GOAL_RATE),
        verdict(ratio >= GOAL_RATIO)
    );
}

struct Pass {
    time: Duration,
    /// Requests that got no valid response.
    failed: usize,
}

fn best_of(passes: usize, engine: &mut dyn Engine, requests: &[Request]) -> Pass {
    let mut best: Option<Pass> = None;
    for _ in 0..passes {
        let mut failed = 0;
        let start = Instant::now();
        engine.run(requests, &mut |_, x| {
            failed += usize::from(x.result.is_err())
        });
        let pass = Pass {
            time: start.elapsed(),
            failed,
        };
        if best.as_ref().map_or(true, |b| pass.time < b.time) {
            best = Some(pass);
        }
    }
    best.expect("at least one pass")
}

fn report(name: &str, pass: &Pass, cases: usize) {
    let rate = cases as f64 / pass.time.as_secs_f64();
    let failed = if pass.failed > 0 {
        format!("   ({} without a valid response)", pass.failed)
    } else {
        String::new()
    };
    println!(
        "  {name:<36} {:>9.3} s {rate:>10.0} cases/s{failed}",
        pass.time.as_secs_f64()
    );
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "NOT met"
    }
}
