//! `hclspec serve` under hostile input: each request below, followed by an
//! ordinary one, gets an answer, no answer is a crash, and the ordinary
//! request after it is answered correctly. Small and fast; the inputs are
//! ones that once panicked, hung, took quadratic time or could exhaust
//! memory.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

fn request(id: &str, source: &str) -> String {
    json!({"id": id, "kind": "expression", "source": source}).to_string()
}

#[test]
fn hostile_requests_are_answered_and_the_next_one_too() {
    let many = (0..20_000)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let strings = (0..20_000)
        .map(|i| format!("\"{}\"", i % 7))
        .collect::<Vec<_>>()
        .join(",");
    let sources: Vec<(&str, String)> = vec![
        ("yaml-tag-panic", r#"yamldecode("[!,")"#.to_string()),
        ("yaml-tag-bracket", r#"yamldecode("[!a]")"#.to_string()),
        (
            "yaml-deep",
            format!(
                "yamldecode(\"{}{}\")",
                "[".repeat(50_000),
                "]".repeat(50_000)
            ),
        ),
        ("tuple-to-list", format!("length(tolist([{many}]))")),
        ("distinct", format!("length(distinct([{strings}]))")),
        (
            "deep-parens",
            format!("{}1{}", "(".repeat(5_000), ")".repeat(5_000)),
        ),
        ("huge-range", "range(1e9)".to_string()),
        ("bcrypt-cost-31", r#"bcrypt("a", 31)"#.to_string()),
        (
            "nested-for-bomb",
            "length([for a in range(1000) : [for b in range(1000) : [for c in range(100) : 1]]])"
                .to_string(),
        ),
        ("huge-pow", "pow(2, 1e9)".to_string()),
        ("huge-format", r#"format("%1000000000d", 1)"#.to_string()),
        (
            "deep-type",
            format!(
                "length(convert([], {}string{}))",
                "list(".repeat(3_000),
                ")".repeat(3_000)
            ),
        ),
        (
            "deep-conditionals",
            format!("{}1{}", "true ? ".repeat(10_000), " : 2".repeat(10_000)),
        ),
        (
            "deep-calls",
            format!("{}-1{}", "abs(".repeat(10_000), ")".repeat(10_000)),
        ),
        (
            "deep-brackets",
            format!("length({}1{})", "[".repeat(20_000), "]".repeat(20_000)),
        ),
        (
            "deep-equality",
            format!("{0}1{1} == {0}1{1}", "[".repeat(20_000), "]".repeat(20_000)),
        ),
    ];
    let mut input = String::new();
    for (id, source) in &sources {
        input.push_str(&request(id, source));
        input.push('\n');
        input.push_str(&request(&format!("{id}-next"), "1 + 1"));
        input.push('\n');
    }
    // Lines that are not requests at all.
    input.push_str("{\"id\":\"dup\",\"id\":\"dup\",\"kind\":\"expression\",\"source\":\"1\"}\n");
    input.push_str(&"x".repeat(300_000));
    input.push('\n');
    input.push_str(&request("last", "1 + 1"));
    input.push('\n');

    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hclspec"))
        .args(["serve", "--timeout", "20", "--max-line-bytes", "200000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(input.as_bytes()).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let elapsed = start.elapsed();
    assert!(out.status.success());
    let answers: Vec<Json> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2 * sources.len() + 3, "{answers:?}");
    for (i, (id, _)) in sources.iter().enumerate() {
        let hostile = &answers[2 * i];
        assert_eq!(hostile["id"], *id);
        assert!(
            hostile.get("result").is_some() || hostile.get("error").is_some(),
            "{id}: {hostile}"
        );
        let next = &answers[2 * i + 1];
        assert_eq!(next["id"], format!("{id}-next"));
        assert_eq!(next["result"]["value"], 2, "{id}: {next}");
    }
    let bomb = sources
        .iter()
        .position(|(id, _)| *id == "nested-for-bomb")
        .unwrap();
    assert_eq!(
        answers[2 * bomb]["error"]["summary"],
        "Evaluation budget exceeded",
        "{}",
        answers[2 * bomb]
    );
    let tail = &answers[2 * sources.len()..];
    assert_eq!(tail[0]["error"]["phase"], "request", "{}", tail[0]);
    assert_eq!(tail[1]["error"]["phase"], "request", "{}", tail[1]);
    assert_eq!(tail[2]["result"]["value"], 2);
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
}
