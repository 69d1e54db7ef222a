//! `hclspec report --html`: one self-contained HTML page over the JSON
//! reports of one or more runs (`hclspec run --format json`), for people
//! to browse: a summary per engine, a table per area, and every case that
//! did not pass with its source, scope, expected and actual answers and
//! their diff.
//!
//! The page reads nothing from anywhere: style, script and data are inline,
//! so it can be mailed, archived as a CI artifact or opened from disk. The
//! tables are plain HTML and need no script. The cases are data, a JSON
//! document in a `<script type="application/json">` element, and the script
//! builds a case's details only when it is opened: a corpus of thousands of
//! cases over several engines stays a page that loads in a moment.
//!
//! Every number of the language reaches the page as text: expectations and
//! answers are written as pretty JSON *strings* here, with the exact digits
//! that the reports hold, and the script only shows them. JavaScript never
//! parses a value of the language, so no number passes through a float.
//! Text from the corpus and the engines (sources with `<script>`, control
//! characters, lone surrogates escaped by JSON) is escaped by the template
//! (maud) in the tables and set with `textContent` by the script; control
//! characters are shown as `\u{..}` escapes, as in the text report.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use maud::{html, Markup, PreEscaped, DOCTYPE};
use serde_json::{json, Value as Json};

use super::text::visible;
use super::{Status, REPORT_VERSION};

/// One run's JSON report, under the name the page gives its engine.
#[derive(Clone, Debug)]
pub struct Run {
    pub name: String,
    pub report: Json,
}

/// A report that is not a JSON run report of this revision.
const MSG_NOT_A_REPORT: &str = "is not an `hclspec run --format json` report";

/// The outcomes that count as passed (as `Status::is_pass`).
const PASSED: [Status; 3] = [Status::Pass, Status::PassF64, Status::UnexpectedPass];

/// The page for `runs`, in their order. `command` is the command line that
/// wrote it, shown so that it can be run again.
pub fn render(runs: &[Run], command: Option<&str>) -> Result<String, String> {
    for run in runs {
        check(run)?;
    }
    let data = page_data(runs);
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "hclspec report" }
                // No request leaves the page, not even for an icon.
                link rel="icon" href="data:,";
                style { (PreEscaped(STYLE)) }
            }
            body {
                header {
                    h1 { "hclspec report" }
                    p.meta {
                        (runs.len()) " run" @if runs.len() != 1 { "s" } " of the Terraform expression language corpus. "
                        "Pass percentages are rounded down to a tenth; passes include "
                        code { "pass-f64" } " and " code { "unexpected-pass" } "."
                    }
                    @if let Some(cmd) = command {
                        p.meta { "Written by " code { (visible(cmd)) } }
                    }
                }
                h2 #summary { "Summary" }
                (summary_table(runs))
                h2 #areas { "By area" }
                p.meta { "The share of each area's cases that passed; a cell opens its cases that did not pass." }
                (area_table(runs))
                h2 #cases { "Cases that did not pass" }
                noscript { p { "The case list needs JavaScript; the tables above do not." } }
                div #controls {
                    label { "engine " select #f-run {} }
                    label { "outcome " select #f-outcome {} }
                    label { "area " select #f-area {} }
                    label { "search " input #f-text type="search" placeholder="area, id, file, source or message"; }
                    span #f-count {}
                }
                ol #case-list {}
                button #more type="button" hidden { "Show more" }
                script #report-data type="application/json" { (PreEscaped(script_json(&data))) }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    Ok(markup.into_string())
}

/// A run's report must be a JSON run report of the revision this page
/// reads.
fn check(run: &Run) -> Result<(), String> {
    let r = &run.report;
    if r.get("report_version").and_then(Json::as_u64) != Some(u64::from(REPORT_VERSION))
        || !r.get("cases").is_some_and(Json::is_array)
        || !r.get("areas").is_some_and(Json::is_array)
        || !r.get("totals").is_some_and(Json::is_object)
    {
        return Err(format!(
            "{}: {MSG_NOT_A_REPORT} (report_version {REPORT_VERSION})",
            run.name
        ));
    }
    Ok(())
}

fn count(tally: &Json, status: Status) -> u64 {
    tally["outcomes"][status.as_str()].as_u64().unwrap_or(0)
}

fn cases_of(tally: &Json) -> u64 {
    tally["cases"].as_u64().unwrap_or(0)
}

fn passed_of(tally: &Json) -> u64 {
    PASSED.iter().map(|s| count(tally, *s)).sum()
}

/// `n` of `total` in percent, rounded down to a tenth, from the integers
/// (as the run report's `pass_percent`).
fn percent(n: u64, total: u64) -> String {
    if total == 0 {
        return "–".to_string();
    }
    let tenths = n * 1000 / total;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// The outcome columns of the summary: the five the report always shows,
/// and the others some run had.
fn shown_outcomes(runs: &[Run]) -> Vec<Status> {
    const ALWAYS: [Status; 5] = [
        Status::Pass,
        Status::Fail,
        Status::ErrorMismatch,
        Status::Unsupported,
        Status::Crash,
    ];
    Status::ALL
        .into_iter()
        .filter(|s| ALWAYS.contains(s) || runs.iter().any(|r| count(&r.report["totals"], *s) > 0))
        .collect()
}

fn summary_table(runs: &[Run]) -> Markup {
    let shown = shown_outcomes(runs);
    html! {
        table.summary {
            thead { tr {
                th { "engine" } th { "level" } th { "HCL" } th { "how it ran" }
                th.n { "cases" } th.n { "passed" }
                @for s in &shown { th.n { (s.as_str()) } }
                th.n { "seconds" }
            } }
            tbody {
                @for (i, run) in runs.iter().enumerate() {
                    @let r = &run.report;
                    @let totals = &r["totals"];
                    @let cases = cases_of(totals);
                    tr data-run=(i) {
                        th scope="row" { (visible(&run.name)) }
                        td { (text(&r["level"])) }
                        td { (text(&r["hcl_version"])) }
                        td.cmd { (visible(&text(&r["engine"]["name"]))) " (" (text(&r["engine"]["mode"])) ")" }
                        td.n { (cases) }
                        td.n.pass { b { (percent(passed_of(totals), cases)) } " " span.c { (passed_of(totals)) } }
                        @for s in &shown {
                            @let n = count(totals, *s);
                            td.n.(s.as_str()).zero[n == 0] { (n) " " span.c { (percent(n, cases)) } }
                        }
                        td.n { (seconds(&r["elapsed_seconds"])) }
                    }
                }
            }
        }
    }
}

fn area_table(runs: &[Run]) -> Markup {
    let mut areas: BTreeMap<String, u64> = BTreeMap::new();
    let per_run: Vec<HashMap<String, &Json>> = runs
        .iter()
        .map(|r| {
            r.report["areas"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| (text(&a["area"]), a))
                .collect()
        })
        .collect();
    for tallies in &per_run {
        for (area, tally) in tallies {
            let n = areas.entry(area.clone()).or_default();
            *n = (*n).max(cases_of(tally));
        }
    }
    html! {
        table.areas {
            thead { tr {
                th { "area" } th.n { "cases" }
                @for run in runs { th.n { (visible(&run.name)) " " span.c { (text(&run.report["level"])) } } }
            } }
            tbody {
                @for (area, cases) in &areas {
                    tr {
                        th scope="row" { (visible(area)) }
                        td.n { (cases) }
                        @for (i, tallies) in per_run.iter().enumerate() {
                            @match tallies.get(area) {
                                Some(t) => {
                                    @let failing = cases_of(t) - passed_of(t);
                                    td.n.(band(passed_of(t), cases_of(t))) title=(area_title(t)) {
                                        @if failing > 0 {
                                            a.open href="#cases" data-run=(i) data-area=(visible(area)) { (percent(passed_of(t), cases_of(t))) }
                                        } @else {
                                            (percent(passed_of(t), cases_of(t)))
                                        }
                                    }
                                }
                                None => { td.n { "–" } }
                            }
                        }
                    }
                }
            }
            tfoot { tr {
                th scope="row" { "total" }
                td.n { (areas.values().sum::<u64>()) }
                @for run in runs {
                    @let t = &run.report["totals"];
                    td.n.(band(passed_of(t), cases_of(t))) { b { (percent(passed_of(t), cases_of(t))) } }
                }
            } }
        }
    }
}

/// A cell's colour class by its pass share, from the integers.
fn band(passed: u64, cases: u64) -> &'static str {
    match (passed, cases) {
        (_, 0) => "b-none",
        (p, c) if p == c => "b-all",
        (p, c) if p * 10 >= c * 9 => "b-most",
        (p, c) if p * 2 >= c => "b-half",
        _ => "b-few",
    }
}

/// A cell's tooltip: its outcome counts.
fn area_title(tally: &Json) -> String {
    Status::ALL
        .into_iter()
        .filter_map(|s| {
            let n = count(tally, s);
            (n > 0).then(|| format!("{s} {n}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Null => String::new(),
        other => other.to_string(),
    }
}

/// Seconds as the report wrote them, to two decimals by cutting the text
/// (no float arithmetic, though these are only times).
fn seconds(v: &Json) -> String {
    let t = v.to_string();
    match t.split_once('.') {
        Some((whole, frac)) if !t.contains(['e', 'E']) => {
            format!("{whole}.{}", &frac[..frac.len().min(2)])
        }
        _ => t,
    }
}

/// Text the page shows as is: each line with its control characters as
/// `\u{..}` escapes.
fn shown(text: &str) -> String {
    text.split('\n').map(visible).collect::<Vec<_>>().join("\n")
}

fn pretty(v: &Json) -> String {
    if v.is_null() {
        return String::new();
    }
    shown(&serde_json::to_string_pretty(v).expect("JSON values serialize"))
}

/// The data the script shows: the cases that did not pass in any run, each
/// once (`cases`), and per run its cases that did not pass (`runs`), with
/// the answers as text.
fn page_data(runs: &[Run]) -> Json {
    // A case is shared by the runs that did not pass it, unless they ran
    // different versions of it (saved reports from another corpus).
    let mut index: HashMap<[String; 8], usize> = HashMap::new();
    let mut cases: Vec<Json> = Vec::new();
    let mut areas: BTreeSet<String> = BTreeSet::new();
    let mut out_runs = Vec::new();
    for run in runs {
        let r = &run.report;
        let version = text(&r["hcl_version"]);
        let mut items = Vec::new();
        for c in r["cases"].as_array().into_iter().flatten() {
            let outcome = text(&c["outcome"]);
            if PASSED.iter().any(|s| s.as_str() == outcome) {
                continue;
            }
            let area = text(&c["area"]);
            areas.insert(area.clone());
            let scope = match &c["scope"] {
                Json::Object(m) if m.is_empty() => String::new(),
                other => pretty(other),
            };
            let case = [
                shown(&area),
                shown(&text(&c["id"])),
                shown(&text(&c["path"])),
                text(&c["kind"]),
                shown(&text(&c["source"])),
                scope,
                pretty(&c["expected"]),
                version.clone(),
            ];
            let n = cases.len();
            let at = *index.entry(case.clone()).or_insert(n);
            if at == n {
                cases.push(json!(case));
            }
            let skip = match &c["skip"] {
                Json::Object(s) => shown(&format!(
                    "{} ({}: {})",
                    text(&s["reason"]),
                    text(&s["origin"]),
                    text(&s["pattern"])
                )),
                _ => String::new(),
            };
            items.push(json!([
                at,
                outcome,
                shown(&text(&c["message"])),
                pretty(&c["actual"]),
                c["diff"].as_str().map(shown).unwrap_or_default(),
                shown(&text(&c["stderr"])),
                skip,
            ]));
        }
        out_runs
            .push(json!({"name": shown(&run.name), "level": text(&r["level"]), "items": items}));
    }
    json!({
        "outcomes": Status::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        "areas": areas.into_iter().map(|a| shown(&a)).collect::<Vec<_>>(),
        "cases": cases,
        "runs": out_runs,
    })
}

/// JSON text safe inside a `<script>` element: `<`, `>` and `&` (which can
/// only occur inside strings) and the two line separators become `\u`
/// escapes, so no `</script>` or `<!--` can end or change the element.
fn script_json(data: &Json) -> String {
    let text = data.to_string();
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = include_str!("html/report.css");
const SCRIPT: &str = include_str!("html/report.js");

#[cfg(test)]
mod tests {
    use super::*;

    fn report(cases: Json) -> Json {
        json!({
            "report_version": 1,
            "engine": {"name": "python3 engine.py", "mode": "persistent"},
            "hcl_version": "2.24", "level": "full", "numbers": "exact",
            "elapsed_seconds": 0.153456, "restarts": 0, "without_expectation": 0,
            "interrupted": null,
            "totals": {"cases": 2, "passed": 1, "pass_percent": 50.0,
                       "outcomes": {"pass": 1, "fail": 1}},
            "areas": [{"area": "arithmetic", "cases": 2, "passed": 1, "pass_percent": 50.0,
                       "outcomes": {"pass": 1, "fail": 1}}],
            "cases": cases,
        })
    }

    fn hostile_case() -> Json {
        let number: Json = serde_json::from_str("0.1000000000000000000000000000000000001").unwrap();
        let minus_zero: Json = serde_json::from_str("-0").unwrap();
        json!([
            {"id": "arith-001", "area": "arithmetic", "path": "spec-tests/arithmetic.toml",
             "kind": "expression", "source": "1", "scope": {}, "outcome": "pass",
             "message": "pass", "expected": {"result": {"type": "number", "value": 1}},
             "actual": {"result": {"type": "number", "value": 1}}, "diff": null,
             "stderr": "", "elapsed_ms": 0.1, "skip": null},
            {"id": "arith-</script><b>", "area": "arithmetic", "path": "spec-tests/arithmetic.toml",
             "kind": "expression", "source": "\"</script><script>alert(1)</script>\u{1b}[31m\u{2028}<!--",
             "scope": {}, "outcome": "fail", "message": "result values differ",
             "expected": {"result": {"type": "number", "value": number}},
             "actual": {"result": {"type": "number", "value": minus_zero}},
             "diff": "--- expected\n+++ actual\n-x\n+y\n", "stderr": "", "elapsed_ms": 0.1,
             "skip": null}
        ])
    }

    fn one_run(name: &str) -> Vec<Run> {
        vec![Run {
            name: name.into(),
            report: report(hostile_case()),
        }]
    }

    #[test]
    fn hostile_text_stays_inside_its_element() {
        let page = render(
            &one_run("<img src=x onerror=alert(1)>"),
            Some("hclspec report --html out"),
        )
        .unwrap();
        // The only script elements are the page's two.
        assert_eq!(page.matches("<script").count(), 2, "{page}");
        assert_eq!(page.matches("</script>").count(), 2, "{page}");
        assert!(!page.contains("<img"), "{page}");
        assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(!page.contains("<!--"));
        assert!(!page.contains('\u{2028}'));
        assert!(!page.contains('\u{1b}'));
        // The control character is shown as an escape.
        assert!(page.contains("\\\\u{1b}[31m"), "{page}");
        // Numbers keep every digit and the sign of zero, as text.
        assert!(page.contains("0.1000000000000000000000000000000000001"));
        assert!(page.contains(r#"\"value\": -0"#), "{page}");
    }

    #[test]
    fn tables_count_and_percent_from_integers() {
        let page = render(&one_run("one"), None).unwrap();
        assert!(page.contains("<b>50.0%</b>"), "{page}");
        assert!(page.contains(">0.15<"), "{page}");
        assert_eq!(percent(2, 3), "66.6%");
        assert_eq!(percent(0, 0), "–");
        assert_eq!(band(9, 10), "b-most");
        // Only the failing case is data; the passing one is not.
        let data = page_data(&one_run("one"));
        assert_eq!(data["cases"].as_array().unwrap().len(), 1);
        assert_eq!(data["runs"][0]["items"][0][1], "fail");
    }

    #[test]
    fn a_document_that_is_not_a_report_is_refused() {
        let err = render(
            &[Run {
                name: "x.json".into(),
                report: json!({"report_version": 1, "engines": []}),
            }],
            None,
        )
        .unwrap_err();
        assert!(err.contains(MSG_NOT_A_REPORT), "{err}");
    }
}
