//! `hclspec run` end to end: misbehaving engines (scripts under
//! `tests/engines/`), skip lists, exit codes and the JSON and JUnit
//! reports.
//!
//! The engines decide how to misbehave from the last digit of a case id,
//! so every case's outcome is known in advance.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hclspec_corpus::case::Corpus;
use hclspec_corpus::select::Selector;
use hclspec_protocol::Version;
use serde_json::Value as Json;

const BIN: &str = env!("CARGO_BIN_EXE_hclspec");

/// A small slice of the corpus over two case files.
const FILTERS: [&str; 2] = ["arith-0[0-2]?", "cmp-00?"];

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn corpus_dir() -> PathBuf {
    manifest().join("../spec-tests")
}

fn engine(script: &str) -> String {
    let path = manifest().join("tests/engines").join(script);
    shell_words::join(["python3", path.to_str().unwrap()])
}

/// The ids the filters select, in run order.
fn selected_ids() -> Vec<String> {
    let corpus = Corpus::load(&corpus_dir()).unwrap();
    let filters: Vec<String> = FILTERS.iter().map(|s| s.to_string()).collect();
    let (planned, _) =
        hclspec::run::plan(&corpus, &Selector::new(&filters).unwrap(), Version::V2_24);
    let ids: Vec<String> = planned.iter().map(|p| p.case.id.clone()).collect();
    assert!(ids.len() >= 30, "the filters select too little: {ids:?}");
    ids
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Run {
    fn json(&self) -> Json {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", self.stdout, self.stderr))
    }
}

fn hclspec(args: &[&str]) -> Run {
    let start = Instant::now();
    let out = Command::new(BIN)
        .args(args)
        .env_remove("HCLSPEC_CORPUS")
        .output()
        .unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: start.elapsed(),
    }
}

/// `hclspec run` on the filtered slice with a JSON report.
fn run_filtered(engine_cmd: Option<&str>, extra: &[&str]) -> Run {
    let corpus = corpus_dir();
    let mut args = vec![
        "run",
        "--corpus",
        corpus.to_str().unwrap(),
        "--format",
        "json",
    ];
    for f in FILTERS {
        args.extend(["--filter", f]);
    }
    if let Some(cmd) = engine_cmd {
        args.extend(["--engine", cmd]);
    }
    args.extend(extra);
    hclspec(&args)
}

/// One case of a report: (id, outcome, message, stderr).
fn cases(report: &Json) -> Vec<(String, String, String, String)> {
    report["cases"]
        .as_array()
        .expect("a cases array")
        .iter()
        .map(|c| {
            let s = |k: &str| {
                c[k].as_str()
                    .unwrap_or_else(|| panic!("{k} in {c}"))
                    .to_string()
            };
            (s("id"), s("outcome"), s("message"), s("stderr"))
        })
        .collect()
}

/// Exactly one outcome per selected case, in order, each the one `want`
/// gives its id; the totals agree.
fn assert_outcomes(report: &Json, want: impl Fn(&str) -> &'static str) {
    let ids = selected_ids();
    let got = cases(report);
    let got_ids: Vec<&str> = got.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(got_ids, ids, "one entry per selected case, in order");
    for (id, outcome, message, _) in &got {
        assert_eq!(outcome, want(id), "{id}: {message}");
    }
    let totals = &report["totals"];
    assert_eq!(totals["cases"], ids.len());
    let sum: u64 = totals["outcomes"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(sum as usize, ids.len());
    let areas: Vec<&str> = report["areas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["area"].as_str().unwrap())
        .collect();
    assert_eq!(areas, ["arithmetic", "comparison"]);
}

fn last_digit(id: &str) -> char {
    id.chars().last().unwrap()
}

/// How many selected ids end in one of `digits`.
fn count_ending(digits: &str) -> usize {
    selected_ids()
        .iter()
        .filter(|id| digits.contains(last_digit(id)))
        .count()
}

#[test]
fn crashing_engine_is_restarted_and_each_crash_charged_to_its_case() {
    let run = run_filtered(Some(&engine("crashy.py")), &["--timeout", "1"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let report = run.json();
    assert_outcomes(&report, |id| {
        if "37".contains(last_digit(id)) {
            "crash"
        } else {
            "unsupported"
        }
    });
    for (id, outcome, message, stderr) in cases(&report) {
        if outcome == "crash" {
            assert!(message.contains("exit status: 3"), "{id}: {message}");
            assert_eq!(stderr, format!("crashing on {id}"));
        } else {
            assert_eq!(stderr, "", "{id}");
        }
    }
    assert_eq!(report["restarts"], count_ending("37"));
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);
}

#[test]
fn restarts_are_bounded_then_the_rest_is_given_up() {
    let run = run_filtered(
        Some(&engine("crashy.py")),
        &["--timeout", "1", "--max-restarts", "2"],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let report = run.json();
    let ids = selected_ids();
    // The third crash finds no restart left: it and everything after it
    // are crashes, the later ones not run at all.
    let third = ids
        .iter()
        .position(|id| "37".contains(last_digit(id)))
        .and_then(|first| {
            ids[first + 1..]
                .iter()
                .position(|id| "37".contains(last_digit(id)))
                .map(|i| first + 1 + i)
        })
        .and_then(|second| {
            ids[second + 1..]
                .iter()
                .position(|id| "37".contains(last_digit(id)))
                .map(|i| second + 1 + i)
        })
        .unwrap();
    let got = cases(&report);
    assert_eq!(got.len(), ids.len());
    for (i, (id, outcome, message, _)) in got.iter().enumerate() {
        if i <= third {
            let want = if "37".contains(last_digit(id)) {
                "crash"
            } else {
                "unsupported"
            };
            assert_eq!(outcome, want, "{id}");
        } else {
            assert_eq!(outcome, "crash", "{id}");
            assert!(
                message.starts_with("not run: the engine was restarted 2 times"),
                "{id}: {message}"
            );
        }
    }
    assert_eq!(report["restarts"], 2);
}

#[test]
fn hanging_engine_times_out_per_case() {
    let run = run_filtered(Some(&engine("hang.py")), &["--timeout", "1"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let report = run.json();
    assert_outcomes(&report, |id| {
        if id.ends_with('5') {
            "timeout"
        } else {
            "unsupported"
        }
    });
    let hangs = count_ending("5");
    assert_eq!(report["restarts"], hangs);
    for (id, outcome, message, _) in cases(&report) {
        if outcome == "timeout" {
            assert_eq!(message, "the engine gave no answer within 1s", "{id}");
        }
    }
    // Each hang costs one time limit; nothing else waits.
    let bound = Duration::from_secs(hangs as u64 + 4);
    assert!(run.elapsed < bound, "{:?} >= {bound:?}", run.elapsed);
    assert!(run.elapsed >= Duration::from_secs(hangs as u64));
}

#[test]
fn garbage_output_is_a_protocol_error() {
    let run = run_filtered(Some(&engine("garbage.py")), &["--timeout", "1"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let report = run.json();
    assert_outcomes(&report, |id| {
        if "24".contains(last_digit(id)) {
            "protocol-error"
        } else {
            "unsupported"
        }
    });
    for (id, _, message, _) in cases(&report) {
        match last_digit(&id) {
            '2' => assert!(
                message.starts_with("invalid response (invalid JSON")
                    && message.contains(&format!("evaluating {id}...")),
                "{id}: {message}"
            ),
            '4' => assert!(message.contains("unknown field `value`"), "{id}: {message}"),
            _ => {}
        }
    }
    assert_eq!(report["restarts"], count_ending("24"));
}

/// Runs `script`; the cases whose id ends in one of `digits` must be
/// protocol errors whose message `says` (given the id), the others
/// unsupported. Returns the report.
fn protocol_errors_for(
    script: &str,
    timeout: &str,
    digits: &str,
    says: impl Fn(&str) -> String,
) -> Json {
    let run = run_filtered(Some(&engine(script)), &["--timeout", timeout]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);
    let report = run.json();
    assert_outcomes(&report, |id| {
        if digits.contains(last_digit(id)) {
            "protocol-error"
        } else {
            "unsupported"
        }
    });
    for (id, outcome, message, _) in cases(&report) {
        if outcome == "protocol-error" {
            assert!(message.contains(&says(&id)), "{id}: {message}");
        }
    }
    report
}

#[test]
fn wrong_and_out_of_order_ids_are_protocol_errors() {
    protocol_errors_for("wrong_ids.py", "1", "68", |id| {
        format!("the id is not the request's \"{id}\"")
    });
}

#[test]
fn a_second_answer_is_charged_to_the_request_answered_twice() {
    let report = protocol_errors_for("twice.py", "5", "3", |_| {
        "the engine answered this request twice".to_string()
    });
    // Nothing was restarted: the stream stayed in step.
    assert_eq!(report["restarts"], 0);
}

#[test]
fn stderr_is_attributed_to_the_case_in_flight() {
    let want = |id: &str| {
        if id.ends_with('1') {
            format!("note for {id}")
        } else {
            String::new()
        }
    };
    // One request at a time: every line belongs to its case.
    // Every case is `unsupported`, which is never a failure: the run succeeds.
    let run = run_filtered(Some(&engine("chatty.py")), &["--window", "1"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let report = run.json();
    assert_outcomes(&report, |_| "unsupported");
    for (id, _, _, stderr) in cases(&report) {
        assert_eq!(stderr, want(&id), "{id}");
    }
    assert_eq!(report["restarts"], 0);

    // Pipelined, lines that arrive with several requests in flight can not
    // be told apart: each is kept exactly once, with its own case or one
    // before it (the oldest in flight when it arrived).
    let run = run_filtered(Some(&engine("chatty.py")), &[]);
    let report = run.json();
    assert_outcomes(&report, |_| "unsupported");
    let got = cases(&report);
    let position = |id: &str| got.iter().position(|c| c.0 == id).unwrap();
    let mut placed: Vec<String> = Vec::new();
    for (i, (_, _, _, stderr)) in got.iter().enumerate() {
        for line in stderr.lines() {
            let owner = line.strip_prefix("note for ").expect("a note");
            assert!(i <= position(owner), "{line} placed with {}", got[i].0);
            placed.push(line.to_string());
        }
    }
    placed.sort();
    let mut expected: Vec<String> = selected_ids()
        .iter()
        .map(|id| want(id))
        .filter(|l| !l.is_empty())
        .collect();
    expected.sort();
    assert_eq!(placed, expected);
}

#[test]
fn one_shot_engine_gets_a_process_per_case() {
    let run = run_filtered(
        Some(&engine("oneshot.py")),
        &["--one-shot", "--timeout", "1"],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["engine"]["mode"], "one-shot");
    assert_outcomes(&report, |id| match last_digit(id) {
        '3' => "crash",
        '4' => "protocol-error",
        '5' => "timeout",
        _ => "unsupported",
    });
    for (id, outcome, message, stderr) in cases(&report) {
        match outcome.as_str() {
            "crash" => {
                assert!(message.contains("exit status: 1"), "{id}: {message}");
                assert_eq!(stderr, format!("no answer for {id}"));
            }
            "protocol-error" => {
                assert!(
                    message.contains("more than one response line"),
                    "{id}: {message}"
                )
            }
            _ => {}
        }
    }
    // A process per case is slow, but the run stays within one time limit
    // per case.
    let bound = Duration::from_secs(selected_ids().len() as u64);
    assert!(run.elapsed < bound, "{:?}", run.elapsed);
}

/// A corpus of four cases: two right expectations and two wrong on
/// purpose, so that the built-in engine fails exactly those two whatever
/// else it gets right. The right ones were checked with HCL 2.14.1.
fn demo_corpus(dir: &Path) -> PathBuf {
    let root = dir.join("spec-tests");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("demo.json"),
        r#"{
  "area": "demo",
  "cases": [
    {"id": "d-1", "source": "1 + 1", "expect": {"result": {"type": "number", "value": 2}}},
    {"id": "d-2", "source": "1 + 1", "expect": {"result": {"type": "number", "value": 3}}, "note": "wrong on purpose"},
    {"id": "d-3", "source": "1 +", "expect": {"error": {"phase": "parse", "summary": "Missing expression"}}},
    {"id": "d-4", "source": "1 +", "expect": {"error": {"phase": "eval"}}, "note": "wrong on purpose"}
  ]
}
"#,
    )
    .unwrap();
    root
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hclspec-run-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn demo_run(root: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["run", "--corpus", root.to_str().unwrap()];
    args.extend(extra);
    hclspec(&args)
}

fn outcome_of(report: &Json, id: &str) -> String {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .map(|c| c["outcome"].as_str().unwrap().to_string())
        .unwrap()
}

#[test]
fn skip_lists_and_exit_codes() {
    let dir = temp_dir("skip");
    let root = demo_corpus(&dir);

    // Two failures outside any skip list: exit 1.
    let run = demo_run(&root, &["--format", "json"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let report = run.json();
    let outcomes: Vec<String> = ["d-1", "d-2", "d-3", "d-4"]
        .iter()
        .map(|id| outcome_of(&report, id))
        .collect();
    assert_eq!(outcomes, ["pass", "fail", "pass", "error-mismatch"]);
    assert_eq!(report["totals"]["pass_percent"], 50.0);

    // Both failures skipped: exit 0; the skip keeps what it would have been.
    let skip = dir.join("skip.txt");
    std::fs::write(
        &skip,
        "# known\nd-2   # wrong on purpose\ndemo::d-4 # wrong phase on purpose\n",
    )
    .unwrap();
    let run = demo_run(
        &root,
        &["--format", "json", "--skip", skip.to_str().unwrap()],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let report = run.json();
    let d2 = &report["cases"][1];
    assert_eq!(d2["outcome"], "skipped");
    assert_eq!(d2["skip"]["outcome"], "fail");
    assert_eq!(d2["skip"]["reason"], "wrong on purpose");
    assert_eq!(d2["skip"]["origin"], format!("{}:2", skip.display()));
    assert_eq!(report["cases"][3]["skip"]["outcome"], "error-mismatch");
    assert_eq!(report["totals"]["outcomes"]["skipped"], 2);

    // A skipped case that passes is an unexpected pass: fine, unless the
    // skips are strict.
    std::fs::write(&skip, "d-[124] # all suspicious\n").unwrap();
    let run = demo_run(
        &root,
        &["--format", "json", "--skip", skip.to_str().unwrap()],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(outcome_of(&run.json(), "d-1"), "unexpected-pass");
    let run = demo_run(&root, &["--skip", skip.to_str().unwrap(), "--strict-skips"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stdout.contains("In the skip list, yet passing"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("demo::d-1"), "{}", run.stdout);
    assert!(
        run.stdout
            .ends_with("hclspec: 2 passed, 0 failed, 0 unsupported, 2 skipped\n"),
        "{}",
        run.stdout
    );

    // An entry without a reason is refused; an entry that names nothing
    // is warned about.
    std::fs::write(&skip, "d-2\n").unwrap();
    let run = demo_run(&root, &["--skip", skip.to_str().unwrap()]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("an entry needs a reason"),
        "{}",
        run.stderr
    );
    std::fs::write(&skip, "nothing-* # typo\nd-2 # x\nd-4 # y\n").unwrap();
    let run = demo_run(&root, &["--skip", skip.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("`nothing-*` names no case"),
        "{}",
        run.stderr
    );

    // So is a filter that selects nothing.
    let run = demo_run(&root, &["--filter", "nothing-*"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("no case to run"), "{}", run.stderr);

    // An engine that does not start is an error of the run, not of cases.
    let run = demo_run(&root, &["--engine", "/nonexistent/engine --serve"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("could not start"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_report_and_junit() {
    let dir = temp_dir("junit");
    let root = demo_corpus(&dir);
    let junit = dir.join("report.xml");
    let run = demo_run(&root, &["--junit", junit.to_str().unwrap()]);
    assert_eq!(run.code, Some(1));
    let out = &run.stdout;
    assert!(
        out.contains("FAIL demo::d-2  (spec-tests/demo.json)\n  result values differ\n"),
        "{out}"
    );
    assert!(out.contains("ERROR-MISMATCH demo::d-4"), "{out}");
    assert!(
        out.contains("  -    \"value\": 3\n  +    \"value\": 2\n"),
        "{out}"
    );
    let table_row = out
        .lines()
        .find(|l| l.starts_with("demo "))
        .expect("a table row");
    assert_eq!(
        table_row.split_whitespace().collect::<Vec<_>>(),
        ["demo", "4", "2", "1", "1", "50.0"]
    );
    assert!(
        out.ends_with("hclspec: 2 passed, 2 failed, 0 unsupported, 0 skipped\n"),
        "{out}"
    );

    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.starts_with("<?xml"), "{xml}");
    let parsed = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!((parsed.tests, parsed.failures, parsed.errors), (4, 2, 0));
    let suite = &parsed.test_suites[0];
    assert_eq!(suite.name.as_str(), "demo");
    let names: Vec<&str> = suite.test_cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["d-1", "d-2", "d-3", "d-4"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn matrix_writes_markdown_and_json() {
    let dir = temp_dir("matrix");
    let root = demo_corpus(&dir);
    let md = dir.join("compat.md");
    let json = dir.join("compat.json");
    let serve = shell_words::join([BIN, "serve"]);
    let run = hclspec(&[
        "matrix",
        "--corpus",
        root.to_str().unwrap(),
        "--engine",
        "reference",
        "--engine",
        &format!("served={serve}"),
        "--engine",
        &format!("broken={}", engine("crashy.py")),
        "--out",
        md.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.contains("| area | cases | reference | served | broken |\n"),
        "{text}"
    );
    assert!(
        text.contains("| demo | 4 | 50.0% | 50.0% | 0.0% |\n"),
        "{text}"
    );
    assert!(
        text.contains("| **total** | **4** | **50.0%** | **50.0%** | **0.0%** |"),
        "{text}"
    );
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let engines = doc["engines"].as_array().unwrap();
    assert_eq!(engines.len(), 3);
    assert_eq!(engines[1]["mode"], "persistent");
    // `crashy.py` dies on `d-3` and answers the others `unsupported`.
    assert_eq!(engines[2]["totals"]["outcomes"]["unsupported"], 3);
    assert_eq!(engines[2]["totals"]["outcomes"]["crash"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether a process is still alive (a zombie counts as gone).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// SIGTERM (and SIGINT) during a run against a hung engine: the engine and
/// what it started are killed, the partial report is written (JSON on
/// stdout, JUnit on disk) with the unfinished cases `not-run`, and the
/// exit status is 128 + the signal.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_run_keeps_its_report_and_leaves_no_process() {
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let dir = temp_dir(&format!("interrupt-{signal}"));
        let pids = dir.join("pids");
        let junit = dir.join("report.xml");
        let child = Command::new(BIN)
            .args([
                "run",
                "--corpus",
                corpus_dir().to_str().unwrap(),
                "--filter",
                "arith-00?",
                "--engine",
                &engine("stuck.py"),
                "--timeout",
                "600",
                "--format",
                "json",
                "--junit",
                junit.to_str().unwrap(),
            ])
            .env("STUCK_PIDS", &pids)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while !pids.exists() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the engine never started"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(300));
        let status = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Json = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["interrupted"], format!("SIG{signal}"));
        let cases = report["cases"].as_array().unwrap();
        assert!(!cases.is_empty());
        assert!(cases.iter().all(|c| c["outcome"] == "not-run"), "{report}");
        assert_eq!(report["totals"]["outcomes"]["not-run"], cases.len());
        let xml = std::fs::read_to_string(&junit).unwrap();
        assert!(xml.contains("not-run"), "{xml}");
        let text = std::fs::read_to_string(&pids).unwrap();
        for pid in text.split_whitespace() {
            let pid: u32 = pid.parse().unwrap();
            let gone = Instant::now();
            while alive(pid) && gone.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(50));
            }
            assert!(!alive(pid), "process {pid} was left running");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Numbers the 64-bit float cannot hold, and -0: an engine that answers
/// them digit for digit passes; one that rounds them fails, and passes only
/// as `pass-f64` when asked for `--numbers f64`.
#[test]
fn the_judge_keeps_every_digit_and_the_sign_of_zero() {
    let dir = temp_dir("numbers");
    let root = dir.join("spec-tests");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("numbers.toml"),
        r#"area = "numbers"

[[cases]]
id = "n-1"
source = "x"
scope.x = { type = "number", value = "900719925474099.3" }
expect.result = { type = "number", value = "900719925474099.3" }

[[cases]]
id = "n-2"
source = "-0"
expect.result = { type = "number", value = "-0" }

[[cases]]
id = "n-3"
source = "18446744073709551616 + 1"
expect.result = { type = "number", value = "18446744073709551617" }
"#,
    )
    .unwrap();
    let numbers = |mode: &str, extra: &[&str]| {
        let cmd = shell_words::join([
            "python3",
            manifest()
                .join("tests/engines/numbers.py")
                .to_str()
                .unwrap(),
            mode,
        ]);
        let mut args = vec!["--engine", cmd.as_str(), "--format", "json"];
        args.extend(extra);
        demo_run(&root, &args)
    };

    // The built-in reference and the exact engine pass every case.
    let reference = demo_run(&root, &["--format", "json"]);
    assert_eq!(reference.code, Some(0), "{}", reference.stdout);
    let exact = numbers("exact", &[]);
    assert_eq!(exact.code, Some(0), "{}\n{}", exact.stdout, exact.stderr);
    let report = exact.json();
    for id in ["n-1", "n-2", "n-3"] {
        assert_eq!(outcome_of(&report, id), "pass", "{id}");
    }

    // The rounding engine fails all three.
    let rounded = numbers("rounded", &[]);
    assert_eq!(rounded.code, Some(1), "{}", rounded.stdout);
    let report = rounded.json();
    for id in ["n-1", "n-2", "n-3"] {
        assert_eq!(outcome_of(&report, id), "fail", "{id}");
    }
    let n1 = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "n-1")
        .unwrap();
    assert!(
        n1.to_string().contains("900719925474099.2"),
        "the report shows the rounded answer as given: {n1}"
    );

    // Judged as 64-bit floats, the rounded answers to n-1 and n-3 count as
    // `pass-f64`; the exact engine still passes outright.
    let loose = numbers("rounded", &["--numbers", "f64"]).json();
    assert_eq!(outcome_of(&loose, "n-1"), "pass-f64");
    assert_eq!(outcome_of(&loose, "n-3"), "pass-f64");
    let exact_loose = numbers("exact", &["--numbers", "f64"]).json();
    assert_eq!(outcome_of(&exact_loose, "n-1"), "pass");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The reference answers every case of the corpus as the corpus expects,
/// at each level and in both HCL profiles: a judge that is wrong at one
/// level (as the value level once was on sensitive values) fails here.
#[test]
fn the_reference_passes_the_whole_corpus_at_every_level() {
    let corpus = corpus_dir();
    for version in ["2.14", "2.24"] {
        for level in ["parse", "value", "full"] {
            let run = hclspec(&[
                "run",
                "--corpus",
                corpus.to_str().unwrap(),
                "--hcl-version",
                version,
                "--level",
                level,
                "--format",
                "json",
            ]);
            let report = run.json();
            let not_passed: Vec<String> = report["cases"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["outcome"] != "pass")
                .map(|c| format!("{} {}: {}", c["id"], c["outcome"], c["message"]))
                .collect();
            assert!(
                report["cases"].as_array().unwrap().len() > 8000,
                "the whole corpus runs"
            );
            assert!(
                not_passed.is_empty() && run.code == Some(0),
                "HCL {version} at the {level} level: {} cases did not pass (exit {:?}), first: {:?}",
                not_passed.len(),
                run.code,
                &not_passed[..not_passed.len().min(5)]
            );
        }
    }
}

/// `verify --repeat` asks an oracle several times and fails on an
/// expectation whose answer changed, naming it.
#[test]
fn verify_repeat_finds_answers_that_change() {
    let dir = temp_dir("repeat");
    let root = dir.join("spec-tests");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("demo.toml"),
        r#"area = "demo"

[[cases]]
id = "r-1"
source = "1 + 1"
expect.result = { type = "number", value = "2" }

[[cases]]
id = "r-2"
source = "1 +"
expect.error = { phase = "parse", summary = "Missing expression" }

[[cases]]
id = "r-3"
source = "nope"
expect.error = { phase = "eval", summary = "Unknown variable" }

[[cases]]
id = "r-4"
source = "nope_too"
expect.error = { phase = "eval", summary = "Unknown variable" }
detail_varies = ["go-hcl"]
note = "the name suggested changes"

[[cases]]
id = "r-5"
source = "stay"
expect.error = { phase = "eval", summary = "Unknown variable" }
detail_varies = ["go-hcl"]
note = "said to vary, but does not"
"#,
    )
    .unwrap();
    let oracle = format!("go-hcl={}", engine("flaky.py"));
    let verify = |repeat: &str, filter: &str| {
        hclspec(&[
            "verify",
            "--corpus",
            root.to_str().unwrap(),
            "--oracle",
            &oracle,
            "--repeat",
            repeat,
            "--filter",
            filter,
        ])
    };
    let once = verify("1", "*");
    assert_eq!(once.code, Some(0), "{}{}", once.stdout, once.stderr);
    assert!(
        once.stdout.contains("5 agree, 0 disagree"),
        "{}",
        once.stdout
    );
    let twice = verify("2", "*");
    assert_eq!(twice.code, Some(1), "{}{}", twice.stdout, twice.stderr);
    assert!(
        twice.stdout.contains("UNSTABLE demo::r-2 @2.14"),
        "{}",
        twice.stdout
    );
    assert!(
        twice.stdout.contains("DETAIL CHANGES demo::r-3 @2.14"),
        "{}",
        twice.stdout
    );
    assert!(
        twice.stdout.contains("detail stayed demo::r-5 @2.14"),
        "{}",
        twice.stdout
    );
    for quiet in ["r-1", "r-4"] {
        assert!(!twice.stdout.contains(quiet), "{quiet}: {}", twice.stdout);
    }
    assert!(
        twice.stdout.contains(
            "2 times for 5 expectations: 1 answers changed, 1 more error details changed; 1 of 2 details said to vary changed"
        ),
        "{}",
        twice.stdout
    );
    // A detail that the case says varies does not fail the run.
    let declared = verify("2", "demo::r-4");
    assert_eq!(
        declared.code,
        Some(0),
        "{}{}",
        declared.stdout,
        declared.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
