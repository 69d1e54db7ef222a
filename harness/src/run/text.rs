//! The human-readable report: what went wrong per case, a table per area,
//! and a closing summary line.

use std::fmt::Write as _;

use super::{AreaTally, CaseReport, Numbers, Report, Status, Tally};

/// Which cases the text report shows one by one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Show {
    /// Failures in full; unsupported and skipped cases as counts per area.
    #[default]
    Failures,
    /// Failures and unsupported cases in full.
    Unsupported,
    /// Every case that did not pass, skipped ones included.
    All,
    /// No case: the table and the summary only.
    None,
}

impl std::str::FromStr for Show {
    type Err = String;
    fn from_str(s: &str) -> Result<Show, String> {
        match s {
            "failures" => Ok(Show::Failures),
            "unsupported" => Ok(Show::Unsupported),
            "all" => Ok(Show::All),
            "none" => Ok(Show::None),
            _ => Err(format!(
                "unknown --show {s:?} (expected failures, unsupported, all or none)"
            )),
        }
    }
}

/// The cases to look at, most important first: failures (wrong answers,
/// then crashes, timeouts and protocol errors), then, as `show` asks, the
/// unsupported and skipped cases in full or as counts per area, then the
/// skipped cases that passed.
pub fn details(report: &Report, show: Show) -> String {
    let mut out = String::new();
    if show == Show::None {
        return out;
    }
    for status in [
        Status::Fail,
        Status::ErrorMismatch,
        Status::Crash,
        Status::Timeout,
        Status::ProtocolError,
    ] {
        for r in report.cases.iter().filter(|r| r.outcome == status) {
            case_details(&mut out, r);
            out.push('\n');
        }
    }
    let in_full = |s: Status| match s {
        Status::Unsupported => matches!(show, Show::Unsupported | Show::All),
        Status::Skipped => show == Show::All,
        _ => false,
    };
    for status in [Status::Unsupported, Status::Skipped] {
        if in_full(status) {
            for r in report.cases.iter().filter(|r| r.outcome == status) {
                case_details(&mut out, r);
                out.push('\n');
            }
        } else {
            grouped(&mut out, report, status);
        }
    }
    let xpass: Vec<_> = report
        .cases
        .iter()
        .filter(|r| r.outcome == Status::UnexpectedPass)
        .collect();
    if !xpass.is_empty() {
        out.push_str("In the skip list, yet passing (their entries can go):\n");
        for r in xpass {
            let skip = r.skip.as_ref().expect("skipped cases have an entry");
            let _ = writeln!(
                out,
                "  {}::{}  ({}: {}  # {})",
                r.area,
                r.id,
                skip.origin,
                skip.pattern,
                visible(&skip.reason)
            );
        }
        out.push('\n');
    }
    out
}

/// The cases of one outcome as counts per area with their commonest
/// reasons (`--show all` lists them one by one).
fn grouped(out: &mut String, report: &Report, status: Status) {
    let mut areas: std::collections::BTreeMap<&str, Vec<&CaseReport>> = Default::default();
    for r in report.cases.iter().filter(|r| r.outcome == status) {
        areas.entry(&r.area).or_default().push(r);
    }
    if areas.is_empty() {
        return;
    }
    let total: usize = areas.values().map(Vec::len).sum();
    let _ = writeln!(
        out,
        "{} {status} cases, by area (`--show {}` lists them):",
        total,
        if status == Status::Unsupported {
            "unsupported"
        } else {
            "all"
        }
    );
    for (area, cases) in areas {
        let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
        for r in &cases {
            let why = match &r.skip {
                Some(skip) if status == Status::Skipped => skip.reason.clone(),
                _ => r.message.clone(),
            };
            *reasons.entry(why).or_default() += 1;
        }
        let mut reasons: Vec<(String, usize)> = reasons.into_iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let shown: Vec<String> = reasons
            .iter()
            .take(3)
            .map(|(why, n)| format!("{n} x {}", visible(why)))
            .collect();
        let more = if reasons.len() > 3 { ", ..." } else { "" };
        let _ = writeln!(
            out,
            "  {area}: {} ({}{more})",
            cases.len(),
            shown.join("; ")
        );
    }
    out.push('\n');
}

fn case_details(out: &mut String, r: &CaseReport) {
    let _ = writeln!(
        out,
        "{} {}::{}  ({})",
        r.outcome.as_str().to_uppercase(),
        r.area,
        r.id,
        r.path
    );
    let _ = writeln!(out, "  {}", visible(&r.message));
    let _ = writeln!(out, "  {}:", r.kind.as_str());
    for line in r.source.split('\n') {
        let _ = writeln!(out, "    {}", visible(line));
    }
    if let serde_json::Value::Object(vars) = &r.scope {
        if !vars.is_empty() {
            let _ = writeln!(out, "  scope:");
            for (name, tv) in vars {
                let _ = writeln!(
                    out,
                    "    {} = {}",
                    visible(name),
                    visible(&hclspec_corpus::format::compact(tv))
                );
            }
        }
    }
    for line in r.answers_shown().lines() {
        let _ = writeln!(out, "  {}", visible(line));
    }
    if !r.stderr.is_empty() {
        let _ = writeln!(out, "  stderr:");
        for line in r.stderr.lines() {
            let _ = writeln!(out, "    {}", visible(line));
        }
    }
}

/// A line as a terminal should show it: control characters (and other
/// characters a terminal would act on or hide) as `\u{..}` escapes.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if (c.is_control() && c != '\t')
            || matches!(c as u32, 0x200B..=0x200F | 0x2028..=0x202E | 0x2066..=0x2069 | 0xFEFF)
        {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Outcome columns shown even when empty; the others only when some case
/// has them.
const ALWAYS: [Status; 3] = [Status::Pass, Status::Fail, Status::ErrorMismatch];

/// The per-area table with a total row.
pub fn table(areas: &[AreaTally], totals: &Tally, numbers: Numbers) -> String {
    let shown: Vec<Status> = Status::ALL
        .into_iter()
        .filter(|s| {
            ALWAYS.contains(s)
                || (*s == Status::PassF64 && numbers == Numbers::F64)
                || totals.outcomes.get(*s) > 0
        })
        .collect();
    let mut header = vec!["area".to_string(), "cases".to_string()];
    header.extend(shown.iter().map(|s| s.as_str().to_string()));
    header.push("pass %".to_string());
    let row = |name: &str, t: &Tally| {
        let mut cells = vec![name.to_string(), t.cases.to_string()];
        cells.extend(shown.iter().map(|s| t.outcomes.get(*s).to_string()));
        cells.push(format!("{:.1}", t.pass_percent));
        cells
    };
    let mut rows = vec![header];
    rows.extend(areas.iter().map(|a| row(&a.area, &a.tally)));
    rows.push(row("total", totals));
    render(&rows)
}

/// Columns padded to their widest cell; the first left-aligned, the others
/// right-aligned; a rule under the header and above the last row.
fn render(rows: &[Vec<String>]) -> String {
    let cols = rows[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let line = |out: &mut String, cells: &[String]| {
        for (c, cell) in cells.iter().enumerate() {
            let w = widths[c];
            if c == 0 {
                let _ = write!(out, "{cell:<w$}");
            } else {
                let _ = write!(out, "  {cell:>w$}");
            }
        }
        out.push('\n');
    };
    let rule: String = "-".repeat(widths.iter().sum::<usize>() + 2 * (cols - 1));
    let mut out = String::new();
    for (i, r) in rows.iter().enumerate() {
        if i == rows.len() - 1 && rows.len() > 2 {
            out.push_str(&rule);
            out.push('\n');
        }
        line(&mut out, r);
        if i == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
    }
    out
}

/// The closing lines: what ran, how fast, and the counts.
pub fn summary(report: &Report) -> String {
    let c = report.counts();
    let cases = c.cases();
    let rate = if report.elapsed_seconds > 0.0 {
        cases as f64 / report.elapsed_seconds
    } else {
        0.0
    };
    let profile = match report.terraform_version {
        Some(t) => format!("Terraform {t}"),
        None => format!("HCL {}", report.hcl_version),
    };
    let mut out = format!(
        "engine {} ({}), {profile}, level {}, numbers {}\n",
        report.engine.name,
        report.engine.mode,
        report.level,
        match report.numbers {
            Numbers::Exact => "exact",
            Numbers::F64 => "f64",
        }
    );
    let _ = write!(
        out,
        "{cases} cases in {:.2} s ({rate:.0} cases/s)",
        report.elapsed_seconds
    );
    if report.restarts > 0 {
        let _ = write!(out, ", engine restarted {} times", report.restarts);
    }
    if let Some(signal) = &report.interrupted {
        let _ = write!(
            out,
            "; INTERRUPTED by {signal}: {} cases not run",
            c.get(Status::NotRun)
        );
    }
    if report.without_expectation > 0 {
        let _ = write!(
            out,
            "; {} selected cases have no {} expectation and were not run",
            report.without_expectation, report.hcl_version
        );
    }
    out.push('\n');
    let mut kinds: Vec<String> = Status::ALL
        .into_iter()
        .filter(|s| s.is_failure() && c.get(*s) > 0)
        .map(|s| format!("{} {}", c.get(s), s))
        .collect();
    if c.get(Status::PassF64) > 0 {
        kinds.insert(
            0,
            format!(
                "{} of the passes only with f64 numbers",
                c.get(Status::PassF64)
            ),
        );
    }
    if c.get(Status::UnexpectedPass) > 0 {
        kinds.push(format!(
            "{} unexpected passes",
            c.get(Status::UnexpectedPass)
        ));
    }
    if !kinds.is_empty() {
        let _ = writeln!(out, "({})", kinds.join(", "));
    }
    if let Some(releases) = &report.terraform_releases {
        let closest = releases
            .closest()
            .map_or("none".to_string(), |(v, _)| format!("Terraform {v}"));
        let per_release: Vec<String> = releases
            .passed
            .iter()
            .map(|(v, n)| format!("{v}: {n}"))
            .collect();
        let _ = writeln!(
            out,
            "closest release: {closest} (of {} cases that differ between Terraform releases, passed as {})",
            releases.cases,
            per_release.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "hclspec: {} passed, {} failed, {} unsupported, {} skipped",
        c.passed(),
        c.failures(),
        c.get(Status::Unsupported),
        c.get(Status::Skipped)
    );
    out
}
