use std::path::Path;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::engine::ChildError;
use hclspec_protocol::{ErrorBody, ErrorPhase, Request, Response, TypedValue};

const FILE: &str = r#"{
  "area": "demo",
  "cases": [
    {"id": "ok", "source": "1", "expect": {"result": {"type": "number", "value": 1}}},
    {"id": "wrong", "source": "2", "expect": {"result": {"type": "number", "value": 2}}},
    {"id": "phase", "source": "3", "expect": {"error": {"phase": "parse"}}},
    {"id": "unsup", "source": "4", "expect": {"result": {"type": "bool", "value": true}}},
    {"id": "crash", "source": "5", "expect": {"result": {"type": "bool", "value": true}}},
    {"id": "hang", "source": "6", "expect": {"result": {"type": "bool", "value": true}}},
    {"id": "garbage", "source": "7", "expect": {"result": {"type": "bool", "value": true}}},
    {"id": "reported-crash", "source": "8", "expect": {"result": {"type": "bool", "value": true}}},
    {"id": "double", "source": "9", "expect": {"result": {"type": "number", "value": 0.1000000000000000000001}}},
    {"id": "gave-up", "source": "10", "expect": {"result": {"type": "bool", "value": true}}},
    {"id": "pending", "source": "11"}
  ]
}"#;

fn corpus() -> Corpus {
    let file = CaseFile::parse(FILE, "demo", "spec-tests/demo.json", Path::new("demo.json"))
        .expect("the test file loads");
    Corpus {
        origin: hclspec_corpus::Origin::Dir("spec-tests".into()),
        files: vec![file],
    }
}

fn number(text: &str) -> Outcome {
    Outcome::Result(TypedValue {
        ty: json!("number"),
        value: serde_json::from_str(text).unwrap(),
        unknown: vec![],
        ..Default::default()
    })
}

/// Answers by id, as scripted; reports cases in reverse order to check
/// that the report keeps plan order.
struct Scripted;

impl Scripted {
    fn answer(req: &Request) -> Exchange {
        let ok = |outcome| Exchange {
            result: Ok(Response {
                id: Some(req.id.clone()),
                outcome,
            }),
            stderr: vec![],
            elapsed: Duration::from_millis(1),
        };
        let failed = |e| Exchange {
            result: Err(e),
            stderr: vec![format!("log for {}", req.id)],
            elapsed: Duration::from_millis(2),
        };
        match req.id.as_str() {
            "ok" => ok(number("1.0")),
            "wrong" => ok(number("3")),
            "phase" => ok(Outcome::Error(ErrorBody {
                phase: ErrorPhase::Eval,
                summary: "Nope".into(),
                detail: String::new(),
                range: None,
                library_panic: false,
            })),
            "unsup" => ok(Outcome::Unsupported("booleans".into())),
            "crash" => failed(ChildError::Crashed {
                status: None,
                stderr: String::new(),
            }),
            "hang" => failed(ChildError::TimedOut {
                after: Duration::from_secs(1),
                stderr: String::new(),
            }),
            "garbage" => failed(ChildError::Protocol {
                line: "junk".into(),
                reason: "invalid JSON".into(),
            }),
            "reported-crash" => ok(Outcome::Crash("segfault".into())),
            "double" => ok(number("0.1")),
            "gave-up" => failed(ChildError::GaveUp { restarts: 20 }),
            "wrapped" | "wrapped-phase" => ok(Outcome::Error(ErrorBody {
                phase: ErrorPhase::Parse,
                summary: "Unbalanced parentheses".into(),
                detail: String::new(),
                range: None,
                library_panic: false,
            })),
            "inexpressible" => ok(number("1")),
            other => panic!("unexpected request {other}"),
        }
    }
}

impl Engine for Scripted {
    fn run(&mut self, requests: &[Request], done: &mut dyn FnMut(usize, Exchange)) {
        for (i, req) in requests.iter().enumerate().rev() {
            done(i, Scripted::answer(req));
        }
    }

    fn restarts(&self) -> u32 {
        3
    }
}

fn run_with(opts: &RunOptions) -> Report {
    let corpus = corpus();
    let (planned, without) = plan(&corpus, &Selector::default(), opts.version);
    let mut seen = 0;
    let info = EngineInfo {
        name: "scripted".into(),
        mode: "test".into(),
        version: None,
    };
    let report = run(&mut Scripted, info, &planned, opts, without, &mut |_| {
        seen += 1
    });
    assert_eq!(seen, planned.len());
    report
}

fn outcomes(report: &Report) -> Vec<(&str, Status)> {
    report
        .cases
        .iter()
        .map(|r| (r.id.as_str(), r.outcome))
        .collect()
}

#[test]
fn every_case_gets_one_outcome() {
    let report = run_with(&RunOptions::default());
    assert_eq!(
        outcomes(&report),
        [
            ("ok", Status::Pass),
            ("wrong", Status::Fail),
            ("phase", Status::ErrorMismatch),
            ("unsup", Status::Unsupported),
            ("crash", Status::Crash),
            ("hang", Status::Timeout),
            ("garbage", Status::ProtocolError),
            ("reported-crash", Status::Crash),
            ("double", Status::Fail),
            ("gave-up", Status::Crash),
        ]
    );
    assert_eq!(report.without_expectation, 1);
    assert_eq!(report.restarts, 3);
    assert_eq!(report.totals.cases, 10);
    assert_eq!(report.totals.passed, 1);
    assert_eq!(report.totals.pass_percent, 10.0);
    assert_eq!(report.areas.len(), 1);
    assert_eq!(report.areas[0].area, "demo");
    assert!(!report.is_success(false));

    let by_id = |id: &str| report.cases.iter().find(|r| r.id == id).unwrap();
    let wrong = by_id("wrong");
    assert_eq!(wrong.message, "result values differ");
    let diff = wrong.diff.as_deref().unwrap();
    assert!(
        diff.contains("-    \"value\": 2\n+    \"value\": 3\n"),
        "{diff}"
    );
    assert_eq!(wrong.actual.as_ref().unwrap()["result"]["value"], json!(3));
    assert_eq!(
        by_id("phase").message,
        "expected a parse error, got an eval error"
    );
    assert_eq!(by_id("unsup").message, "unsupported: booleans");
    assert_eq!(
        by_id("reported-crash").message,
        "the engine reported a crash: segfault"
    );
    let hang = by_id("hang");
    assert_eq!(hang.message, "the engine gave no answer within 1s");
    assert_eq!(hang.stderr, "log for hang");
    assert!(hang.actual.is_none() && hang.diff.is_none());
    assert!(by_id("gave-up")
        .message
        .starts_with("not run: the engine was restarted 20 times"));

    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["totals"]["outcomes"]["protocol-error"], json!(1));
    assert_eq!(json["cases"][1]["outcome"], json!("fail"));
    assert_eq!(json["cases"][0]["skip"], Json::Null);
    assert_eq!(json["hcl_version"], json!("2.24"));
}

#[test]
fn f64_profile_counts_rounded_passes_apart() {
    let opts = RunOptions {
        numbers: Numbers::F64,
        ..RunOptions::default()
    };
    let report = run_with(&opts);
    let double = report.cases.iter().find(|r| r.id == "double").unwrap();
    assert_eq!(double.outcome, Status::PassF64);
    // Still a wrong answer in exact terms: the diff stays.
    assert!(double.diff.is_some());
    let c = report.counts();
    assert_eq!((c.get(Status::Pass), c.get(Status::PassF64)), (1, 1));
    assert_eq!(c.get(Status::Fail), 1);
    assert_eq!(report.totals.passed, 2);
}

#[test]
fn skip_list_marks_skipped_and_unexpected_passes() {
    let skips = SkipList::parse(
        "ok  # thought broken\nwrong # known\ndemo::c* # engine dies\n",
        "skip.txt",
    )
    .unwrap();
    let opts = RunOptions {
        skips,
        ..RunOptions::default()
    };
    let report = run_with(&opts);
    let by_id = |id: &str| report.cases.iter().find(|r| r.id == id).unwrap();
    assert_eq!(by_id("ok").outcome, Status::UnexpectedPass);
    let wrong = by_id("wrong");
    assert_eq!(wrong.outcome, Status::Skipped);
    let skip = wrong.skip.as_ref().unwrap();
    assert_eq!(
        (skip.reason.as_str(), skip.origin.as_str(), skip.outcome),
        ("known", "skip.txt:2", Status::Fail)
    );
    assert_eq!(by_id("crash").outcome, Status::Skipped);
    let c = report.counts();
    assert_eq!(c.get(Status::Skipped), 2);
    assert_eq!(c.get(Status::UnexpectedPass), 1);
    assert_eq!(c.failures(), 6);
    assert_eq!(c.get(Status::Unsupported), 1);
    assert_eq!(c.cases(), 10);

    // With every failure skipped, the run succeeds unless skips are strict.
    let all = SkipList::parse(
        "wrong # a\nphase # b\nunsup # c\n*crash # d\nhang # e\ngarbage # f\ndouble # g\ngave-up # h\nok # i\n",
        "all.txt",
    )
    .unwrap();
    let report = run_with(&RunOptions {
        skips: all,
        ..RunOptions::default()
    });
    assert_eq!(report.counts().failures(), 0);
    assert!(report.is_success(false));
    assert!(!report.is_success(true));
}

#[test]
fn filter_and_version_plan() {
    let corpus = corpus();
    let sel = Selector::new(&["w*".into(), "demo::pend*".into()]).unwrap();
    let (planned, without) = plan(&corpus, &sel, Version::V2_14);
    let ids: Vec<_> = planned.iter().map(|p| p.case.id.as_str()).collect();
    assert_eq!(ids, ["wrong"]);
    assert_eq!(without, 1);
}

#[test]
fn text_report_shows_failures_table_and_closing_line() {
    let report = run_with(&RunOptions::default());
    let details = text::details(&report, text::Show::Failures);
    assert!(details.contains("FAIL demo::wrong  (spec-tests/demo.json)\n  result values differ\n  expression:\n    2\n"), "{details}");
    assert!(details.contains("TIMEOUT demo::hang"), "{details}");
    assert!(
        details.contains("  stderr:\n    log for hang\n"),
        "{details}"
    );
    assert!(!details.contains("demo::ok "), "{details}");
    // Failures come first; unsupported cases are counted by area.
    assert!(details.find("FAIL demo::wrong") < details.find("TIMEOUT demo::hang"));
    assert!(
        details.contains("1 unsupported cases, by area (`--show unsupported` lists them):\n  demo: 1 (1 x unsupported: booleans)\n"),
        "{details}"
    );
    assert!(!details.contains("UNSUPPORTED demo::unsup"), "{details}");
    let all = text::details(&report, text::Show::All);
    assert!(all.contains("UNSUPPORTED demo::unsup"), "{all}");
    assert!(text::details(&report, text::Show::None).is_empty());
    assert_eq!(
        text::visible("a\u{1b}[31mb\u{200b}\tc"),
        "a\\u{1b}[31mb\\u{200b}\tc"
    );

    let table = text::table(&report.areas, &report.totals, report.numbers);
    let lines: Vec<_> = table.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        [
            "area",
            "cases",
            "pass",
            "fail",
            "error-mismatch",
            "unsupported",
            "crash",
            "timeout",
            "protocol-error",
            "pass",
            "%"
        ]
    );
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["demo", "10", "1", "2", "1", "1", "3", "1", "1", "10.0"]
    );
    assert!(lines[4].starts_with("total"), "{table}");

    let summary = text::summary(&report);
    assert!(
        summary.ends_with("hclspec: 1 passed, 8 failed, 1 unsupported, 0 skipped\n"),
        "{summary}"
    );
    assert!(summary.contains("engine restarted 3 times"), "{summary}");
}

#[test]
fn junit_maps_outcomes() {
    let skips = SkipList::parse("wrong # known\nok # stale\n", "s").unwrap();
    let report = run_with(&RunOptions {
        skips,
        ..RunOptions::default()
    });
    let xml = junit::to_xml(&report).unwrap();
    let back = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(back.tests, 10);
    assert_eq!(back.failures, 2, "{xml}"); // phase, double
    assert_eq!(back.errors, 5, "{xml}"); // crash, hang, garbage, reported-crash, gave-up
    let suite = &back.test_suites[0];
    assert_eq!(suite.name.as_str(), "demo");
    let status = |id: &str| {
        &suite
            .test_cases
            .iter()
            .find(|c| c.name.as_str() == id)
            .unwrap()
            .status
    };
    assert!(matches!(
        status("wrong"),
        quick_junit::TestCaseStatus::Skipped { .. }
    ));
    assert!(matches!(
        status("ok"),
        quick_junit::TestCaseStatus::Success { .. }
    ));
    assert!(xml.contains("log for hang"), "{xml}");
}

#[test]
fn pass_percent_rounds_down() {
    let mut c = Counts::default();
    for _ in 0..2418 {
        c.add(Status::Pass);
    }
    c.add(Status::Fail);
    assert_eq!(c.pass_percent(), 99.9);
    assert_eq!(Counts::default().pass_percent(), 0.0);
}

/// A column for an oracle judges the cases it can judge only in part as
/// `hclspec verify` does.
#[test]
fn oracle_engines_are_judged_as_verify_judges_them() {
    let text = r#"{"area": "wrapped", "cases": [
    {"id": "wrapped", "source": "1", "expect": {"error": {"phase": "parse", "summary": "Missing expression"}}, "verify": {"terraform": "phase"}, "note": "n"},
    {"id": "wrapped-phase", "source": "1", "expect": {"error": {"phase": "eval"}}, "verify": {"terraform": "phase"}, "note": "n"},
    {"id": "inexpressible", "source": "1", "expect": {"result": {"type": "number", "value": 1}}, "verify": {"terraform": "none"}, "note": "n"}
  ]}"#;
    let file = CaseFile::parse(text, "wrapped", "wrapped.json", Path::new("wrapped.json")).unwrap();
    let corpus = Corpus {
        origin: hclspec_corpus::Origin::Dir("spec-tests".into()),
        files: vec![file],
    };
    let statuses = |oracle: Option<Oracle>| {
        let opts = RunOptions {
            oracle,
            ..RunOptions::default()
        };
        let (planned, without) = plan(&corpus, &Selector::default(), opts.version);
        let info = EngineInfo {
            name: "scripted".into(),
            mode: "test".into(),
            version: None,
        };
        let report = run(&mut Scripted, info, &planned, &opts, without, &mut |_| {});
        outcomes(&report)
            .into_iter()
            .map(|(id, s)| (id.to_string(), s))
            .collect::<Vec<_>>()
    };
    let owned = |rows: &[(&str, Status)]| {
        rows.iter()
            .map(|(id, s)| (id.to_string(), *s))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        statuses(Some(Oracle::TERRAFORM)),
        owned(&[
            ("wrapped", Status::Pass),
            ("wrapped-phase", Status::ErrorMismatch),
            ("inexpressible", Status::Unsupported),
        ])
    );
    assert_eq!(
        statuses(None),
        owned(&[
            ("wrapped", Status::ErrorMismatch),
            ("wrapped-phase", Status::ErrorMismatch),
            ("inexpressible", Status::Pass),
        ])
    );
}

#[test]
fn promoted_fuzz_cases_count_under_their_directory() {
    assert_eq!(
        super::report_area("fuzz/go/error_vs_value-5189302d"),
        "fuzz/go"
    );
    assert_eq!(super::report_area("functions/string"), "functions/string");
    assert_eq!(super::report_area("literals"), "literals");
}
