//! The human-readable report: what went wrong per case, a table per area,
//! and a closing summary line.

use std::fmt::Write as _;

use super::{AreaTally, CaseReport, Numbers, Report, Status, Tally};

/// Every case outside the skip list that did not pass, then the skipped
/// cases that passed, each with what to look at.
pub fn details(report: &Report) -> String {
    let mut out = String::new();
    for r in report.cases.iter().filter(|r| r.outcome.is_failure()) {
        case_details(&mut out, r);
        out.push('\n');
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
                r.area, r.id, skip.origin, skip.pattern, skip.reason
            );
        }
        out.push('\n');
    }
    out
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
    let _ = writeln!(out, "  {}", r.message);
    let _ = writeln!(out, "  {}:", r.kind.as_str());
    for line in r.source.split('\n') {
        let _ = writeln!(out, "    {line}");
    }
    match &r.diff {
        Some(diff) => {
            for line in diff.lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        None => {
            let expected = serde_json::to_string(&r.expected).unwrap_or_default();
            let _ = writeln!(out, "  expected: {expected}");
        }
    }
    if !r.stderr.is_empty() {
        let _ = writeln!(out, "  stderr:");
        for line in r.stderr.lines() {
            let _ = writeln!(out, "    {line}");
        }
    }
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
    let mut out = format!(
        "engine {} ({}), HCL {}, numbers {}\n",
        report.engine.name,
        report.engine.mode,
        report.hcl_version,
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
    let _ = writeln!(
        out,
        "hclspec: {} passed, {} failed, {} skipped",
        c.passed(),
        c.failures(),
        c.get(Status::Skipped)
    );
    out
}
