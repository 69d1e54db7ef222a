use hclspec_fuzzgen::{seeded_bytes, Mode, Runner};

#[test]
#[ignore]
fn explore() {
    let target = std::env::var("T").unwrap_or("hclrs".into());
    let n: u64 = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let start: u64 = std::env::var("S")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut r = Runner::new(Mode::Collect, None);
    let t = std::time::Instant::now();
    for seed in start..start + n {
        let data = seeded_bytes(seed, 700);
        match target.as_str() {
            "hclrs" => r.run_diff_hclrs(&data),
            "go" => r.run_diff_go(&data),
            "eval" => r.run_eval(&data),
            _ => r.run_parse(&data),
        }
    }
    for f in &r.found {
        println!(
            "=== {}\n{}\nMIN: {} {:?} scope={}\n",
            f.signature,
            f.divergence,
            f.request.kind.as_str(),
            f.request.source,
            serde_json::to_string(&f.request.scope).unwrap()
        );
    }
    println!("{:?}", r.stats);
    println!("elapsed {:?}", t.elapsed());
}

#[test]
#[ignore]
fn explore_min() {
    use hclspec_fuzzgen::runner::Target;
    let mut r = Runner::new(Mode::Collect, None);
    let req: hclspec::protocol::Request =
        serde_json::from_str(&std::env::var("REQ").unwrap()).unwrap();
    let d = r.recheck(Target::DiffHclRs, &req).expect("diverges");
    println!("{d}");
    let mut calls = 0;
    let min = hclspec_fuzzgen::minimize::minimize(&req, 3000, &mut |c| {
        calls += 1;
        r.recheck(Target::DiffHclRs, c)
            .is_some_and(|d2| d2.signature == d.signature)
    });
    println!(
        "calls {calls} -> {:?} {}",
        min.source,
        serde_json::to_string(&min.scope).unwrap()
    );
}
