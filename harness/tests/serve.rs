//! `hclspec serve` as a subprocess, directly over pipes and through
//! `engine::Child`. Expected answers were produced by the Go oracle (HCL
//! 2.14.1, go-cty 1.12.1).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use hclspec::engine::{Child, ChildError, Engine};
use hclspec_protocol::compare::compare;
use hclspec_protocol::{ErrorPhase, Kind, Outcome, Request, Response, TypedValue, Version};
use hclspec_protocol::{Expect, ExpectedError, ExpectedPhase};
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_hclspec");

fn number(text: &str) -> Expect {
    Expect::Result(TypedValue {
        ty: json!("number"),
        value: serde_json::from_str(text).unwrap(),
        unknown: vec![],
        ..Default::default()
    })
}

#[test]
fn serve_answers_every_line_in_order() {
    let mut child = Command::new(BIN)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = concat!(
        r#"{"id":"a","kind":"expression","source":"x + 1","scope":{"x":{"type":"number","value":0.1}}}"#,
        "\n",
        "this is not json\n",
        "\n",
        r#"{"id":"b","kind":"expression","source":"1 +"}"#,
        "\n",
        r#"{"id":"c","source":"1"}"#,
        "\n",
        r#"{"id":"d","kind":"template","source":"a${\"b\"}c","hcl_version":"2.14"}"#,
        "\n",
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let responses: Vec<Response> = out
        .lines()
        .map(|l| Response::parse_line(&l.unwrap()).unwrap())
        .collect();
    assert!(child.wait().unwrap().success());

    let ids: Vec<_> = responses.iter().map(|r| r.id.as_deref()).collect();
    assert_eq!(ids, [Some("a"), None, Some("b"), Some("c"), Some("d")]);

    assert!(
        compare(&number("1.1"), &responses[0].outcome).is_pass(),
        "{:?}",
        responses[0]
    );
    let Outcome::Error(e) = &responses[1].outcome else {
        panic!("{:?}", responses[1])
    };
    assert_eq!(e.phase, ErrorPhase::Request);
    let parse_error = Expect::Error(ExpectedError {
        phase: ExpectedPhase::Parse,
        summary: Some("Missing expression".into()),
    });
    let v = compare(&parse_error, &responses[2].outcome);
    assert!(v.is_pass(), "{v}");
    let Outcome::Error(e) = &responses[3].outcome else {
        panic!("{:?}", responses[3])
    };
    assert_eq!(e.phase, ErrorPhase::Request);
    assert!(e.summary.contains("missing field `kind`"), "{}", e.summary);
    let abc = Expect::Result(TypedValue {
        ty: json!("string"),
        value: json!("abc"),
        unknown: vec![],
        ..Default::default()
    });
    let v = compare(&abc, &responses[4].outcome);
    assert!(v.is_pass(), "{v}");
}

fn request(id: &str, source: &str) -> Request {
    Request {
        id: id.into(),
        kind: Kind::Expression,
        source: source.into(),
        scope: Default::default(),
        hcl_version: Some(Version::V2_14),
        ..Default::default()
    }
}

fn sh(script: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script.into()]
}

#[test]
fn child_talks_to_serve() {
    let mut child = Child::spawn(&[BIN.to_string(), "serve".to_string()]).unwrap();
    for i in 0..3 {
        let resp = child.request(&request(&format!("r{i}"), "2 * 3")).unwrap();
        assert_eq!(resp.id.as_deref(), Some(format!("r{i}").as_str()));
        assert!(compare(&number("6"), &resp.outcome).is_pass(), "{resp:?}");
    }
    assert_eq!(child.restarts(), 0);
}

#[test]
fn pipelined_child_answers_every_request_in_order() {
    let mut child = Child::spawn(&[BIN.to_string(), "serve".to_string()])
        .unwrap()
        .with_window(16);
    let requests: Vec<Request> = (0..500)
        .map(|i| request(&format!("p{i}"), &format!("{i} * 2")))
        .collect();
    let mut got = Vec::new();
    child.run(&requests, &mut |i, x| got.push((i, x.result.unwrap())));
    assert_eq!(got.len(), requests.len());
    for (n, (i, resp)) in got.iter().enumerate() {
        assert_eq!(*i, n);
        assert_eq!(resp.id.as_deref(), Some(format!("p{n}").as_str()));
        let want = number(&(2 * n).to_string());
        assert!(compare(&want, &resp.outcome).is_pass(), "{resp:?}");
    }
    assert_eq!(child.restarts(), 0);
}

#[cfg(unix)]
#[test]
fn child_errors() {
    let err = Child::spawn(&["/nonexistent/engine".to_string()])
        .err()
        .unwrap();
    assert!(matches!(err, ChildError::Spawn { .. }), "{err}");

    let mut c = Child::spawn(&sh("echo dying >&2; exit 3")).unwrap();
    match c.request(&request("a", "1")).unwrap_err() {
        ChildError::Crashed { status, stderr } => {
            assert_eq!(status.and_then(|s| s.code()), Some(3));
            assert_eq!(stderr, "dying");
        }
        other => panic!("{other}"),
    }

    let mut c = Child::spawn(&sh("sleep 30"))
        .unwrap()
        .with_timeout(Duration::from_millis(200));
    let err = c.request(&request("a", "1")).unwrap_err();
    assert!(matches!(err, ChildError::TimedOut { .. }), "{err}");

    let mut c = Child::spawn(&sh("while read l; do echo garbage; done")).unwrap();
    match c.request(&request("a", "1")).unwrap_err() {
        ChildError::Protocol { line, reason } => {
            assert_eq!(line, "garbage");
            assert!(reason.starts_with("invalid JSON"), "{reason}");
        }
        other => panic!("{other}"),
    }
    // The next request starts the engine again.
    assert!(matches!(
        c.request(&request("b", "1")),
        Err(ChildError::Protocol { .. })
    ));
    assert_eq!(c.restarts(), 1);

    let mut c = Child::spawn(&sh(
        r#"while read l; do echo '{"id":"other","crash":"x"}'; done"#,
    ))
    .unwrap();
    match c.request(&request("a", "1")).unwrap_err() {
        ChildError::Protocol { reason, .. } => {
            assert!(reason.contains("not the request's"), "{reason}")
        }
        other => panic!("{other}"),
    }

    let mut c = Child::spawn(&sh(
        r#"while read l; do echo '{"id":"a","crash":"Go panic"}'; done"#,
    ))
    .unwrap();
    let resp = c.request(&request("a", "1")).unwrap();
    assert_eq!(resp.outcome, Outcome::Crash("Go panic".into()));
}
