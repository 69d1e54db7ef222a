//! Runs a target's body on a range of seeded inputs and prints every
//! divergence it finds (minimized), without writing triage files: a quick
//! look without cargo-fuzz.
//!
//! ```text
//! T=go N=2000 S=0 cargo test --release -p hclspec-fuzzgen --test explore -- --ignored --nocapture
//! ```
//!
//! `T` is `go`, `hclrs`, `eval`, `parse`, `terraform` or `hil` (default
//! `hclrs`); `N` inputs (default 300) starting at seed `S` (default 0).

use hclspec_fuzzgen::{seeded_bytes, Mode, Runner, Target};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore]
fn explore() {
    let target = std::env::var("T").unwrap_or_else(|_| "hclrs".into());
    let n = env_u64("N", 300);
    let start = env_u64("S", 0);
    let mut r = Runner::new(Mode::Collect, None);
    let t = std::time::Instant::now();
    for seed in start..start + n {
        let data = seeded_bytes(seed, 700);
        match target.as_str() {
            "go" => r.run_diff_go(&data),
            "eval" => r.run_eval(&data),
            "parse" => r.run_parse(&data),
            "terraform" => r.run_diff_terraform(&data),
            "hil" => r.run_diff_hil(&data),
            _ => r.run_diff_hclrs(&data),
        }
    }
    r.flush_pending(Target::DiffTerraform);
    r.flush_pending(Target::DiffHil);
    for f in &r.found {
        println!(
            "=== {}\n{}\nminimized: {} {:?} scope {}\n",
            f.signature,
            f.divergence,
            f.request.kind.as_str(),
            f.request.source,
            serde_json::to_string(&f.request.scope).unwrap_or_default()
        );
    }
    println!("{:?}", r.stats);
    println!("elapsed {:?}", t.elapsed());
}
