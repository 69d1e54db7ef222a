//! `hclspec report --html`: a directory of HTML over the JSON reports of
//! one or more runs (`hclspec run --format json`), for people to browse: a
//! summary per engine with the versions of hclspec, the corpus and each
//! engine, a table per area, a conformance badge per engine, and every case
//! of every run, searchable, each opening to its source, scope, expected
//! and actual answers and their diff.
//!
//! The directory reads nothing from anywhere else: it can be archived as a
//! CI artifact or opened from disk with no server. `index.html` holds the
//! style, the script, the tables (plain HTML that needs no script) and a
//! compact index of every case (area, id, kind, the start of its source,
//! and one character per run for its outcome), so that the page stays
//! small whatever the corpus. The rest of a case (its whole source, scope,
//! expectations, answers, messages, diffs, stderr and skip-list entries)
//! is in one file per area, `cases/AREA.js`, which the page loads with a
//! `<script src>` element the first time a case of that area is opened:
//! unlike `fetch`, that works from `file://`. `badges/ENGINE.svg` are the
//! badges, shields.io's flat style drawn by the `shields` crate.
//!
//! Every number of the language reaches the page as text: expectations and
//! answers are written as pretty JSON *strings* here, with the exact digits
//! that the reports hold, and the script only shows them. JavaScript never
//! parses a value of the language, so no number passes through a float.
//! Text from the corpus and the engines (sources with `<script>`, control
//! characters, lone surrogates escaped by JSON) is escaped by the template
//! (maud) in the tables, escaped for JavaScript in the data, and set with
//! `textContent` by the script; control characters are shown as `\u{..}`
//! escapes, as in the text report. File names are made from names of
//! areas and engines by keeping only letters, digits, `.`, `_` and `-`.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use maud::{html, Markup, PreEscaped, DOCTYPE};
use serde_json::{json, Value as Json};
use shields::builder::Badge;
use shields::BadgeStyle;

use super::matrix::ReleaseAgreement;
use super::text::visible;
use super::{Status, REPORT_VERSION, VERSION};

/// One run's JSON report, under the name the page gives its engine.
#[derive(Clone, Debug)]
pub struct Run {
    pub name: String,
    pub report: Json,
}

/// One file of the report directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// The path inside the directory, `/`-separated (`cases/splat.js`).
    pub path: String,
    pub text: String,
}

/// A report that is not a JSON run report of this revision.
const MSG_NOT_A_REPORT: &str = "is not an `hclspec run --format json` report";
/// A case whose outcome is none of `Status::ALL`.
const MSG_UNKNOWN_OUTCOME: &str = "has a case with an unknown outcome";

/// The outcomes that count as passed (as `Status::is_pass`).
const PASSED: [Status; 3] = [Status::Pass, Status::PassF64, Status::UnexpectedPass];

/// How much of each source the index holds (and the search sees), in
/// characters; an opened case shows all of it.
pub const SOURCE_IN_INDEX: usize = 400;

/// The page's file, and the folders of the per-area data and the badges.
pub const INDEX: &str = "index.html";
pub const CASES_DIR: &str = "cases";
pub const BADGES_DIR: &str = "badges";

/// The files of the report for `runs`, in their order: `index.html` first,
/// then `cases/*.js` and `badges/*.svg`. `command` is the command line
/// that wrote it, shown so that it can be run again.
pub fn render(runs: &[Run], command: Option<&str>) -> Result<Vec<File>, String> {
    for run in runs {
        check(run)?;
    }
    let index = CaseIndex::new(runs);
    let mut taken = HashSet::new();
    let badges: Vec<String> = runs
        .iter()
        .map(|r| format!("{BADGES_DIR}/{}.svg", file_name(&r.name, &mut taken)))
        .collect();
    let mut files = vec![File {
        path: INDEX.to_string(),
        text: page(runs, &index, &badges, command).into_string(),
    }];
    for (a, area) in index.areas.iter().enumerate() {
        files.push(File {
            path: area.file.clone(),
            text: format!(
                "hclspecCases({a}, {});\n",
                script_json(&index.area_details(runs, a).into_json())
            ),
        });
    }
    for (run, path) in runs.iter().zip(&badges) {
        files.push(File {
            path: path.clone(),
            text: badge(&run.report),
        });
    }
    Ok(files)
}

/// A run's report must be a JSON run report of the revision this page
/// reads, with outcomes this page knows.
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
    let cases = r["cases"].as_array().into_iter().flatten();
    if let Some(c) = cases
        .into_iter()
        .find(|c| outcome_code(&text(&c["outcome"])).is_none())
    {
        return Err(format!(
            "{}: {MSG_UNKNOWN_OUTCOME} ({}: {})",
            run.name,
            visible(&text(&c["id"])),
            visible(&text(&c["outcome"]))
        ));
    }
    Ok(())
}

/// The page: header with versions, summary, area table, the case list's
/// controls, the index as data, and the script.
fn page(runs: &[Run], index: &CaseIndex, badges: &[String], command: Option<&str>) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "hclspec report" }
                // No request leaves the directory, not even for an icon.
                link rel="icon" href="data:,";
                style { (PreEscaped(STYLE)) }
            }
            body {
                header {
                    h1 { "hclspec report" }
                    p.meta {
                        (runs.len()) " run" @if runs.len() != 1 { "s" } " of the Terraform expression language corpus, "
                        (index.cases.len()) " cases. "
                        "Pass percentages are rounded down to a tenth; passes include "
                        code { "pass-f64" } " and " code { "unexpected-pass" } "."
                    }
                    (versions(runs))
                    @if let Some(cmd) = command {
                        p.meta { "Written by " code { (visible(cmd)) } }
                    }
                }
                h2 #summary { "Summary" }
                (summary_table(runs, badges))
                p.meta {
                    "Each engine's badge is " code { (BADGES_DIR) "/ENGINE.svg" } " next to this page, to show in a README."
                }
                (releases_section(runs))
                h2 #areas { "By area" }
                p.meta { "The share of each area's cases that passed; a cell opens its cases that did not pass." }
                (area_table(runs))
                h2 #cases { "Cases" }
                noscript { p { "The case list needs JavaScript; the tables above do not." } }
                div #controls {
                    label { "engine " select #f-run {} }
                    label { "outcome " select #f-outcome {} }
                    label { "area " select #f-area {} }
                    label { "search " input #f-text type="search" placeholder="id or source, every case"; }
                    span #f-count {}
                }
                ol #case-list {}
                button #more type="button" hidden { "Show more" }
                script #report-data type="application/json" { (PreEscaped(script_json(&index.page_data(runs, badges)))) }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    }
}

/// The versions of what made the runs: the hclspec that ran them, the
/// corpus, and each engine.
fn versions(runs: &[Run]) -> Markup {
    let generators: BTreeSet<String> = runs
        .iter()
        .map(|r| match &r.report["generator"] {
            Json::String(g) => visible(g),
            _ => MSG_NOT_RECORDED.to_string(),
        })
        .collect();
    let corpora: BTreeSet<String> = runs.iter().map(|r| corpus(&r.report)).collect();
    html! {
        dl.versions {
            dt { "hclspec" }
            dd { "this page: hclspec " (VERSION) "; the runs: " (join(&generators)) }
            dt { "corpus" }
            dd { (join(&corpora)) }
            dt { "engines" }
            dd {
                @for (i, run) in runs.iter().enumerate() {
                    @if i > 0 { " · " }
                    b { (visible(&run.name)) } ": " (engine_version(&run.report))
                }
            }
        }
    }
}

const MSG_NOT_RECORDED: &str = "not recorded";

fn join(set: &BTreeSet<String>) -> String {
    set.iter().cloned().collect::<Vec<_>>().join("; ")
}

/// `0.1.0, built-in`, or `0.1.0, directory at commit 4c59240...`.
fn corpus(report: &Json) -> String {
    let c = &report["corpus"];
    if !c.is_object() {
        return MSG_NOT_RECORDED.to_string();
    }
    let source = text(&c["source"]);
    let at = match (&c["commit"], source.as_str()) {
        (Json::String(commit), _) => format!(" at commit {commit}"),
        (_, "directory") => " (not a clean git checkout)".to_string(),
        _ => String::new(),
    };
    visible(&format!("{}, {source}{at}", text(&c["version"])))
}

fn engine_version(report: &Json) -> String {
    match &report["engine"]["version"] {
        Json::String(v) => visible(v),
        _ => MSG_NOT_RECORDED.to_string(),
    }
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

fn summary_table(runs: &[Run], badges: &[String]) -> Markup {
    let shown = shown_outcomes(runs);
    html! {
        table.summary {
            thead { tr {
                th { "engine, badge, how it ran" } th { "version" } th { "level" } th { "HCL" }
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
                        th scope="row" {
                            (visible(&run.name))
                            img.badge src=(badges[i]) alt=(badge_text(r));
                            div.cmd { (visible(&text(&r["engine"]["name"]))) " (" (text(&r["engine"]["mode"])) ")" }
                        }
                        td.version { (engine_version(r)) }
                        td { (text(&r["level"])) }
                        td { (text(&r["hcl_version"])) }
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

/// The runs that were also judged against each Terraform release
/// (`--closest-terraform`), with what their reports say of it.
fn release_rows(runs: &[Run]) -> Vec<(&Run, ReleaseAgreement)> {
    runs.iter()
        .filter_map(|run| {
            let r = run.report.get("terraform_releases")?;
            Some((run, serde_json::from_value(r.clone()).ok()?))
        })
        .collect()
}

/// "Closest Terraform release": for the runs judged against each release,
/// the cases passed as each release, the closest one marked. Nothing when
/// no run was.
fn releases_section(runs: &[Run]) -> Markup {
    let rows = release_rows(runs);
    let releases: Vec<String> = {
        let mut seen = Vec::new();
        for (_, r) in &rows {
            for (release, _) in &r.passed {
                if !seen.contains(release) {
                    seen.push(release.clone());
                }
            }
        }
        seen
    };
    html! {
        @if !rows.is_empty() {
            h2 #terraform-releases { "Closest Terraform release" }
            p.meta {
                "Each engine below was asked again the cases whose answer differs between "
                "Terraform releases, and its answers judged against each release's: the cases "
                "it passes as each release. The release it agrees with most (the newest of a tie) is in bold."
            }
            table.releases {
                thead { tr {
                    th { "engine" } th { "closest" } th.n { "cases" }
                    @for release in &releases { th.n { (release) } }
                } }
                tbody {
                    @for (run, r) in &rows {
                        @let closest = r.closest();
                        tr {
                            th scope="row" { (visible(&run.name)) }
                            td { @match closest { Some((v, _)) => b { "Terraform " (v) }, None => "–" } }
                            td.n { (r.cases) }
                            @for release in &releases {
                                @let n = r.passed.iter().find(|(v, _)| v == release).map(|(_, n)| *n as u64);
                                @match n {
                                    Some(n) => td.n.best[closest.is_some_and(|(v, _)| v == release)] {
                                        (n) " " span.c { (percent(n, r.cases as u64)) }
                                    },
                                    None => td.n { "–" },
                                }
                            }
                        }
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
                                            a.open href="#cases" data-run=(i) data-area=(shown(area)) { (percent(passed_of(t), cases_of(t))) }
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

/// The badge's label: `conformance`, with the level when it is not full
/// (a parser's 99% at `parse` is not 99% of the language).
fn badge_label(report: &Json) -> String {
    match text(&report["level"]).as_str() {
        "full" => "conformance".to_string(),
        level => format!("conformance ({})", visible(level)),
    }
}

/// `conformance: 97.3%`, as the badge reads.
fn badge_text(report: &Json) -> String {
    let t = &report["totals"];
    format!(
        "{}: {}",
        badge_label(report),
        percent(passed_of(t), cases_of(t))
    )
}

/// The badge's colour by its pass share, from the integers: shields.io's
/// colours from brightgreen (every case) to red (under half).
fn badge_colour(passed: u64, cases: u64) -> &'static str {
    match (passed, cases) {
        (_, 0) => "lightgrey",
        (p, c) if p == c => "brightgreen",
        (p, c) if p * 100 >= c * 95 => "green",
        (p, c) if p * 100 >= c * 80 => "yellowgreen",
        (p, c) if p * 2 >= c => "orange",
        _ => "red",
    }
}

/// A run's badge: an SVG in shields.io's flat style.
fn badge(report: &Json) -> String {
    let t = &report["totals"];
    let (passed, cases) = (passed_of(t), cases_of(t));
    Badge::style(BadgeStyle::Flat)
        .label(&badge_label(report))
        .message(&percent(passed, cases))
        .message_color(badge_colour(passed, cases))
        .build()
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

/// The start of a source as the index holds it: at most
/// [`SOURCE_IN_INDEX`] characters, `…` where it was cut.
fn source_start(source: &str) -> String {
    match source.char_indices().nth(SOURCE_IN_INDEX) {
        Some((at, _)) => format!("{}…", &source[..at]),
        None => source.to_string(),
    }
}

/// The outcome's one-character code in the index: `a` plus its place in
/// `Status::ALL`.
fn outcome_code(outcome: &str) -> Option<char> {
    Status::ALL
        .iter()
        .position(|s| s.as_str() == outcome)
        .map(|i| char::from(b'a' + i as u8))
}

/// Where a run did not have a case.
const ABSENT: char = '-';

/// A file name for `name`, unique among `taken`: letters, digits, `.`, `_`
/// and `-` kept, anything else `-`; never empty nor starting with `.`.
fn file_name(name: &str, taken: &mut HashSet<String>) -> String {
    let mut base: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if base.is_empty() || base.starts_with('.') {
        base.insert(0, '_');
    }
    let mut candidate = base.clone();
    let mut n = 1;
    while !taken.insert(candidate.to_ascii_lowercase()) {
        n += 1;
        candidate = format!("{base}-{n}");
    }
    candidate
}

/// An area of the index and the file that holds its cases' details.
struct Area {
    name: String,
    file: String,
}

/// One case of the index: the same case in every run that had it (a run
/// that ran another version of it, from another corpus, makes another).
struct IndexCase<'r> {
    area: usize,
    area_name: String,
    id: String,
    kind: String,
    path: String,
    source: String,
    scope: String,
    /// Per run, the run's report of the case.
    runs: Vec<Option<&'r Json>>,
}

/// Every case of every run, grouped by area.
struct CaseIndex<'r> {
    areas: Vec<Area>,
    cases: Vec<IndexCase<'r>>,
}

impl<'r> CaseIndex<'r> {
    fn new(runs: &'r [Run]) -> CaseIndex<'r> {
        let mut at: HashMap<[String; 6], usize> = HashMap::new();
        let mut cases: Vec<IndexCase> = Vec::new();
        let mut area_names: BTreeSet<String> = BTreeSet::new();
        for (r, run) in runs.iter().enumerate() {
            for c in run.report["cases"].as_array().into_iter().flatten() {
                let area = shown(&text(&c["area"]));
                let scope = match &c["scope"] {
                    Json::Object(m) if m.is_empty() => String::new(),
                    other => pretty(other),
                };
                let key = [
                    area.clone(),
                    shown(&text(&c["id"])),
                    shown(&text(&c["path"])),
                    text(&c["kind"]),
                    shown(&text(&c["source"])),
                    scope,
                ];
                let n = cases.len();
                let i = *at.entry(key.clone()).or_insert(n);
                if i == n {
                    area_names.insert(area);
                    let [area_name, id, path, kind, source, scope] = key;
                    cases.push(IndexCase {
                        area: 0,
                        area_name,
                        id,
                        kind,
                        path,
                        source,
                        scope,
                        runs: vec![None; runs.len()],
                    });
                }
                // A run with the same case twice keeps the first.
                cases[i].runs[r].get_or_insert(c);
            }
        }
        let mut taken = HashSet::new();
        let areas: Vec<Area> = area_names
            .into_iter()
            .map(|name| Area {
                file: format!("{CASES_DIR}/{}.js", file_name(&name, &mut taken)),
                name,
            })
            .collect();
        for c in &mut cases {
            c.area = areas
                .binary_search_by(|a| a.name.cmp(&c.area_name))
                .expect("every case's area is listed");
        }
        cases.sort_by_key(|c| c.area);
        CaseIndex { areas, cases }
    }

    /// The index the page holds: `areas` as `[name, file]`, `kinds`, and
    /// `cases` as `[area, id, kind, the start of the source]`; `runs` with
    /// each run's name, level, HCL version, engine version, badge and
    /// `outcomes`, one character per case ([`outcome_code`], or
    /// [`ABSENT`]).
    fn page_data(&self, runs: &[Run], badges: &[String]) -> Json {
        let kinds: BTreeSet<&str> = self.cases.iter().map(|c| c.kind.as_str()).collect();
        let kinds: Vec<&str> = kinds.into_iter().collect();
        let cases: Vec<Json> = self
            .cases
            .iter()
            .map(|c| {
                json!([
                    c.area,
                    c.id,
                    kinds.binary_search(&c.kind.as_str()).unwrap_or(0),
                    source_start(&c.source)
                ])
            })
            .collect();
        let out_runs: Vec<Json> = runs
            .iter()
            .enumerate()
            .map(|(r, run)| {
                let outcomes: String = self
                    .cases
                    .iter()
                    .map(|c| {
                        c.runs[r]
                            .and_then(|rc| outcome_code(&text(&rc["outcome"])))
                            .unwrap_or(ABSENT)
                    })
                    .collect();
                json!({
                    "name": shown(&run.name),
                    "level": text(&run.report["level"]),
                    "hcl": text(&run.report["hcl_version"]),
                    "version": engine_version(&run.report),
                    "badge": badges[r],
                    "outcomes": outcomes,
                })
            })
            .collect();
        json!({
            "outcomes": Status::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            "areas": self.areas.iter().map(|a| json!([a.name, a.file])).collect::<Vec<_>>(),
            "kinds": kinds,
            "cases": cases,
            "runs": out_runs,
        })
    }

    /// The details of area `a`'s cases, one row each: `[case index, file,
    /// whole source, scope, [expectations], [per run: 0 where the run did
    /// not have the case, else [expectation index, message, actual, diff,
    /// stderr, skip-list entry]]]`, every text given as its index in the
    /// area's list of distinct texts (a scope, a file, an expectation or an
    /// answer that many cases share is written once), and a run's trailing
    /// empty texts left out. An expectation shared by runs is listed once;
    /// a case's answer is kept unless it passed outright, and left to the
    /// diff when the diff holds all of it.
    fn area_details(&self, runs: &[Run], a: usize) -> Details {
        let mut texts = Texts::default();
        let rows: Vec<Json> = self
            .cases
            .iter()
            .enumerate()
            .filter(|(_, c)| c.area == a)
            .map(|(i, c)| {
                let file = texts.id(&c.path);
                let source = texts.id(&c.source);
                let scope = texts.id(&c.scope);
                let mut expected: Vec<usize> = Vec::new();
                let per_run: Vec<Json> = (0..runs.len())
                    .map(|r| match c.runs[r] {
                        None => json!(0),
                        Some(rc) => {
                            let e = texts.id(&pretty(&rc["expected"]));
                            let at = expected.iter().position(|x| *x == e).unwrap_or_else(|| {
                                expected.push(e);
                                expected.len() - 1
                            });
                            let diff = rc["diff"].as_str().map(shown).unwrap_or_default();
                            let outcome = text(&rc["outcome"]);
                            let mut actual = String::new();
                            if outcome != Status::Pass.as_str() {
                                actual = pretty(&rc["actual"]);
                                if diff_holds(&diff, &actual) {
                                    actual.clear();
                                }
                            }
                            let mut item = vec![
                                at,
                                texts.id(&shown(&text(&rc["message"]))),
                                texts.id(&actual),
                                texts.id(&diff),
                                texts.id(&shown(&text(&rc["stderr"]))),
                                texts.id(&skip_entry(&rc["skip"])),
                            ];
                            while item.len() > 1 && item.last() == Some(&0) {
                                item.pop();
                            }
                            json!(item)
                        }
                    })
                    .collect();
                json!([i, file, source, scope, expected, per_run])
            })
            .collect();
        Details {
            texts: texts.list,
            rows,
        }
    }
}

/// Whether a unified diff (`--- expected`, `+++ actual`, hunks) holds the
/// whole of `actual`: its context and added lines, in order, are exactly
/// `actual`'s lines, as when one hunk covers both texts.
fn diff_holds(diff: &str, actual: &str) -> bool {
    let mut lines = diff.lines();
    if lines.next() != Some("--- expected") || lines.next() != Some("+++ actual") {
        return false;
    }
    let mut rebuilt = Vec::new();
    for line in lines {
        match line.as_bytes().first() {
            Some(b'@') | Some(b'-') => {}
            Some(b' ') | Some(b'+') => rebuilt.push(&line[1..]),
            _ => return false,
        }
    }
    rebuilt.join("\n") == actual
}

/// How long a text of the details may be, in characters: longer ones (the
/// sources of the deep-nesting cases, and answers that quote them) are cut
/// there, with a note; the JSON run report keeps them whole.
pub const TEXT_IN_DETAILS: usize = 16_384;

/// `text` as the details hold it: cut after [`TEXT_IN_DETAILS`]
/// characters, with a note of what was left out.
fn cut(text: &str) -> String {
    match text.char_indices().nth(TEXT_IN_DETAILS) {
        Some((at, _)) => format!(
            "{}\n… ({} more characters; the JSON run report has them all)",
            &text[..at],
            text[at..].chars().count()
        ),
        None => text.to_string(),
    }
}

/// The distinct texts of an area's details, the empty one first.
struct Texts {
    list: Vec<String>,
    at: HashMap<String, usize>,
}

impl Default for Texts {
    fn default() -> Texts {
        Texts {
            list: vec![String::new()],
            at: HashMap::from([(String::new(), 0)]),
        }
    }
}

impl Texts {
    /// The index of `text` as the details hold it ([`cut`]), added at the
    /// end if it is new.
    fn id(&mut self, text: &str) -> usize {
        let text = cut(text);
        if let Some(&i) = self.at.get(&text) {
            return i;
        }
        self.list.push(text.clone());
        self.at.insert(text, self.list.len() - 1);
        self.list.len() - 1
    }
}

/// An area's details: its distinct texts and its cases' rows, which name
/// texts by their index.
struct Details {
    texts: Vec<String>,
    rows: Vec<Json>,
}

impl Details {
    /// As the area's file passes it to the page: `{"texts": [...], "rows": [...]}`.
    fn into_json(self) -> Json {
        json!({"texts": self.texts, "rows": self.rows})
    }
}

fn skip_entry(skip: &Json) -> String {
    match skip {
        Json::Object(s) => shown(&format!(
            "{} ({}: {})",
            text(&s["reason"]),
            text(&s["origin"]),
            text(&s["pattern"])
        )),
        _ => String::new(),
    }
}

/// JSON text safe inside a `<script>` element and as JavaScript: `<`, `>`
/// and `&` (which can only occur inside strings) and the two line
/// separators become `\u` escapes, so no `</script>` or `<!--` can end or
/// change the element.
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
            "generator": "hclspec 0.1.0",
            "engine": {"name": "python3 engine.py", "mode": "persistent", "version": "my-engine 1.2"},
            "corpus": {"version": "0.1.0", "source": "directory", "commit": "4c59240aa"},
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

    /// An area's details with every text index replaced by its text, as
    /// the page's script reads them.
    fn resolved(details: Details) -> Json {
        let t = |i: &Json| Json::String(details.texts[i.as_u64().unwrap() as usize].clone());
        let rows = details.rows.iter().map(|row| {
            let per_run = row[5].as_array().unwrap().iter().map(|item| match item {
                Json::Array(item) => {
                    // Trailing empty texts are left out.
                    let mut out = vec![item[0].clone()];
                    out.extend((1..6).map(|k| item.get(k).map_or(json!(""), t)));
                    Json::Array(out)
                }
                other => other.clone(),
            });
            json!([
                row[0],
                t(&row[1]),
                t(&row[2]),
                t(&row[3]),
                row[4].as_array().unwrap().iter().map(t).collect::<Vec<_>>(),
                per_run.collect::<Vec<_>>()
            ])
        });
        Json::Array(rows.collect())
    }

    fn file<'f>(files: &'f [File], path: &str) -> &'f str {
        &files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| {
                panic!(
                    "no {path} in {:?}",
                    files.iter().map(|f| &f.path).collect::<Vec<_>>()
                )
            })
            .text
    }

    #[test]
    fn hostile_text_stays_inside_its_element() {
        let files = render(
            &one_run("<img src=x onerror=alert(1)>"),
            Some("hclspec report --html out"),
        )
        .unwrap();
        let page = file(&files, INDEX);
        let details = file(&files, "cases/arithmetic.js");
        // The only script elements are the page's two.
        assert_eq!(page.matches("<script").count(), 2, "{page}");
        assert_eq!(page.matches("</script>").count(), 2, "{page}");
        assert!(!page.contains("<img src=x"), "{page}");
        assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(!details.contains('<'), "{details}");
        for text in [page, details] {
            assert!(!text.contains("<!--"), "{text}");
            assert!(!text.contains('\u{2028}'));
            assert!(!text.contains('\u{1b}'));
            // The control character is shown as an escape.
            assert!(text.contains("\\\\u{1b}[31m"), "{text}");
        }
        // The badge's file name keeps none of the markup, and its text is
        // escaped by the SVG writer.
        let badge = files
            .iter()
            .find(|f| f.path.starts_with("badges/"))
            .unwrap();
        assert_eq!(badge.path, "badges/-img-src-x-onerror-alert-1--.svg");
        // Numbers keep every digit and the sign of zero, as text, in the
        // details and not in the page.
        assert!(details.contains("0.1000000000000000000000000000000000001"));
        assert!(details.contains(r#"\"value\": -0"#), "{details}");
        assert!(!page.contains("0.1000000000000000000000000000000000001"));
    }

    #[test]
    fn the_page_indexes_every_case_and_the_details_are_per_area() {
        let files = render(&one_run("one"), None).unwrap();
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, [INDEX, "cases/arithmetic.js", "badges/one.svg"]);
        let runs = one_run("one");
        let index = CaseIndex::new(&runs);
        let data = index.page_data(&runs, &["badges/one.svg".into()]);
        // Both cases, the passing one too, each with its outcome.
        assert_eq!(data["cases"][0], json!([0, "arith-001", 0, "1"]));
        assert_eq!(data["runs"][0]["outcomes"], "ac");
        assert_eq!(
            data["areas"],
            json!([["arithmetic", "cases/arithmetic.js"]])
        );
        // The two cases' file is one text, named by both rows.
        let raw = index.area_details(&runs, 0);
        let file_texts = raw
            .texts
            .iter()
            .filter(|t| *t == "spec-tests/arithmetic.toml");
        assert_eq!(file_texts.count(), 1);
        assert_eq!(raw.rows[0][1], raw.rows[1][1]);
        assert_eq!(raw.texts[0], "");
        let details = resolved(raw);
        // The passing case keeps its expectation, not its answer; the
        // failing one both, with its diff.
        assert_eq!(details[0][5][0][2], "");
        assert!(details[0][4][0].as_str().unwrap().contains("\"value\": 1"));
        assert_eq!(details[1][5][0][1], "result values differ");
        assert!(details[1][5][0][3].as_str().unwrap().contains("+y"));
        let js = file(&files, "cases/arithmetic.js");
        assert!(js.starts_with(r#"hclspecCases(0, {"texts":["","#), "{js}");
    }

    #[test]
    fn details_leave_out_what_they_hold_elsewhere_and_cut_long_texts() {
        let runs = one_run("one");
        let index = CaseIndex::new(&runs);
        let raw = index.area_details(&runs, 0);
        // The passing case: expectation and message, then nothing.
        assert_eq!(raw.rows[0][5][0].as_array().unwrap().len(), 2);
        // A diff whose context and added lines are the whole answer holds it.
        let actual = "{\n  \"a\": 2,\n  \"b\": 3\n}";
        let diff = "--- expected\n+++ actual\n@@ -1,4 +1,4 @@\n {\n-  \"a\": 1,\n+  \"a\": 2,\n   \"b\": 3\n }\n";
        assert!(diff_holds(diff, actual));
        // Not when a hunk leaves lines out, nor for something else.
        let partial = "--- expected\n+++ actual\n@@ -2,1 +2,1 @@\n-  \"a\": 1,\n+  \"a\": 2,\n";
        assert!(!diff_holds(partial, actual));
        assert!(!diff_holds("", actual));
        assert!(!diff_holds(
            &format!("{diff}\\ No newline at end of file\n"),
            actual
        ));
        let mut failing = report(hostile_case());
        failing["cases"][1]["actual"] = json!({"a": 2, "b": 3});
        failing["cases"][1]["diff"] = json!(diff);
        let runs = vec![Run {
            name: "one".into(),
            report: failing,
        }];
        let index = CaseIndex::new(&runs);
        let details = resolved(index.area_details(&runs, 0));
        assert_eq!(details[1][5][0][2], "");
        assert_eq!(details[1][5][0][3], diff);
        // Long texts are cut, with a note.
        let long = "x".repeat(TEXT_IN_DETAILS + 7);
        let cut_text = cut(&long);
        assert!(cut_text.starts_with(&"x".repeat(TEXT_IN_DETAILS)));
        assert!(cut_text.ends_with("\n… (7 more characters; the JSON run report has them all)"));
        assert_eq!(cut("é€"), "é€");
    }

    #[test]
    fn the_closest_terraform_release_is_shown_for_the_runs_judged_against_each() {
        let mut runs = one_run("old-engine");
        runs[0].report["terraform_releases"] =
            json!({"cases": 40, "passed": [["1.6", 31], ["1.9", 31], ["1.15", 12]]});
        runs.push(Run {
            name: "plain".into(),
            report: report(hostile_case()),
        });
        let page = render(&runs, None).unwrap()[0].text.clone();
        assert!(page.contains("Closest Terraform release"), "{page}");
        // The newest of a tie, with its count and share.
        assert!(page.contains("<b>Terraform 1.9</b>"), "{page}");
        assert!(
            page.contains("<td class=\"n best\">31 <span class=\"c\">77.5%</span></td>"),
            "{page}"
        );
        assert!(page.contains("<td class=\"n\">12 <span class=\"c\">30.0%</span></td>"));
        // The run that was not judged so has no row.
        assert!(!page.contains("<th scope=\"row\">plain</th>"), "{page}");
        // No section when no run was.
        let page = render(&one_run("plain"), None).unwrap()[0].text.clone();
        assert!(!page.contains("Closest Terraform release"));
    }

    #[test]
    fn a_case_in_several_runs_is_indexed_once() {
        let mut runs = one_run("one");
        let mut other = report(hostile_case());
        other["cases"][0]["outcome"] = json!("unsupported");
        other["cases"].as_array_mut().unwrap().pop();
        other["hcl_version"] = json!("2.14");
        other["cases"][0]["expected"] = json!({"error": {"phase": "parse"}});
        runs.push(Run {
            name: "two".into(),
            report: other,
        });
        let index = CaseIndex::new(&runs);
        let data = index.page_data(&runs, &["a".into(), "b".into()]);
        assert_eq!(data["cases"].as_array().unwrap().len(), 2);
        assert_eq!(data["runs"][0]["outcomes"], "ac");
        assert_eq!(data["runs"][1]["outcomes"], "e-");
        // Two expectations (one per HCL version), each written once.
        let details = resolved(index.area_details(&runs, 0));
        assert_eq!(details[0][4].as_array().unwrap().len(), 2);
        assert_eq!(details[0][5][1][0], 1);
        assert_eq!(details[1][5][1], 0);
    }

    #[test]
    fn tables_count_and_percent_from_integers() {
        let files = render(&one_run("one"), None).unwrap();
        let page = file(&files, INDEX);
        assert!(page.contains("<b>50.0%</b>"), "{page}");
        assert!(page.contains(">0.15<"), "{page}");
        assert_eq!(percent(2, 3), "66.6%");
        assert_eq!(percent(0, 0), "–");
        assert_eq!(band(9, 10), "b-most");
        // The versions of hclspec, the corpus and the engine.
        assert!(page.contains("the runs: hclspec 0.1.0"), "{page}");
        assert!(
            page.contains("0.1.0, directory at commit 4c59240aa"),
            "{page}"
        );
        assert!(page.contains("<b>one</b>: my-engine 1.2"), "{page}");
        assert!(
            page.contains(r#"<img class="badge" src="badges/one.svg" alt="conformance: 50.0%">"#),
            "{page}"
        );
    }

    #[test]
    fn badges_read_the_share_rounded_down_and_colour_it_by_band() {
        let mut r = report(hostile_case());
        r["totals"] =
            json!({"cases": 1000, "outcomes": {"pass": 973, "pass-f64": 0, "unexpected-pass": 1}});
        let svg = badge(&r);
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("conformance: 97.4%"), "{svg}");
        assert!(svg.contains("#97ca00"), "{svg}");
        r["level"] = json!("parse");
        assert!(badge(&r).contains("conformance (parse): 97.4%"));
        assert_eq!(badge_colour(2, 3), "orange");
        assert_eq!(badge_colour(1, 3), "red");
        assert_eq!(badge_colour(3, 3), "brightgreen");
        assert_eq!(badge_colour(0, 0), "lightgrey");
        // 0.999 is not 100.0%: rounded down from the integers.
        r["totals"] = json!({"cases": 1000, "outcomes": {"pass": 999}});
        assert!(badge(&r).contains(": 99.9%"));
    }

    #[test]
    fn file_names_keep_safe_characters_and_stay_unique() {
        let mut taken = HashSet::new();
        assert_eq!(file_name("hil-0.11/after", &mut taken), "hil-0.11-after");
        assert_eq!(file_name("hil-0.11-after", &mut taken), "hil-0.11-after-2");
        assert_eq!(file_name("../x", &mut taken), "_..-x");
        assert_eq!(file_name("", &mut taken), "_");
        assert_eq!(file_name("Hil-0.11-After", &mut taken), "Hil-0.11-After-3");
    }

    #[test]
    fn sources_are_cut_in_the_index_only() {
        let long = "x".repeat(SOURCE_IN_INDEX + 5);
        let cut = source_start(&long);
        assert_eq!(cut.chars().count(), SOURCE_IN_INDEX + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(source_start("é€"), "é€");
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
        let mut r = report(hostile_case());
        r["cases"][0]["outcome"] = json!("<b>won</b>");
        let err = render(
            &[Run {
                name: "x".into(),
                report: r,
            }],
            None,
        )
        .unwrap_err();
        assert!(err.contains(MSG_UNKNOWN_OUTCOME), "{err}");
    }
}
