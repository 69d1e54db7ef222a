//! `hclspec matrix`: several engines over the same cases, as a markdown
//! table of pass percentages per area and a JSON document.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::{Numbers, Report, Status, Tally};
use hclspec_protocol::{Level, Version};

/// The corpus folder of the `hil-0.11` dialect's case files: their areas
/// are named `hil-0.11/FILE`.
const DIALECT_FOLDER: &str = "hil-0.11/";

/// One engine's column.
#[derive(Clone, Debug, Serialize)]
pub struct Column {
    /// The name given on the command line.
    pub name: String,
    /// What this column judges.
    pub level: Level,
    /// `built-in reference implementation`, or the command line.
    pub command: String,
    pub mode: String,
    /// What the engine is (`--engine-version`, or a built-in engine's).
    pub version: Option<String>,
    pub elapsed_seconds: f64,
    pub restarts: u32,
    pub totals: Tally,
    pub areas: Vec<super::AreaTally>,
    /// With `--closest-terraform`: the engine run on the cases whose answer
    /// differs between Terraform releases, against each release's answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terraform_releases: Option<ReleaseAgreement>,
}

/// How many of the cases whose answer differs between Terraform releases
/// an engine answers as each release does.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReleaseAgreement {
    /// How many such cases were run against each release.
    pub cases: usize,
    /// `(release, cases passed)`, oldest first.
    pub passed: Vec<(String, usize)>,
}

impl ReleaseAgreement {
    /// The release the engine agrees with most (the newest of a tie), if
    /// it passes any case.
    pub fn closest(&self) -> Option<&(String, usize)> {
        // `max_by_key` gives the last of equal maxima: the newest.
        self.passed
            .iter()
            .max_by_key(|(_, n)| *n)
            .filter(|(_, n)| *n > 0)
    }
}

impl Column {
    pub fn new(name: &str, command: &str, report: &Report) -> Column {
        Column {
            name: name.to_string(),
            level: report.level,
            command: command.to_string(),
            mode: report.engine.mode.clone(),
            version: report.engine.version.clone(),
            elapsed_seconds: report.elapsed_seconds,
            restarts: report.restarts,
            totals: report.totals.clone(),
            areas: report.areas.clone(),
            terraform_releases: report.terraform_releases.clone(),
        }
    }

    /// The column's heading: the name, and the level unless it is full.
    pub fn heading(&self) -> String {
        if self.level == Level::Full {
            self.name.clone()
        } else {
            format!("{} ({})", self.name, self.level)
        }
    }

    fn area(&self, area: &str) -> Option<&Tally> {
        self.areas.iter().find(|a| a.area == area).map(|a| &a.tally)
    }
}

/// The whole matrix.
#[derive(Clone, Debug, Serialize)]
pub struct Matrix {
    pub report_version: u32,
    pub hcl_version: Version,
    pub numbers: Numbers,
    pub engines: Vec<Column>,
    /// The command that wrote the matrix, shown so it can be run again.
    #[serde(skip)]
    pub command_line: Option<String>,
}

impl Matrix {
    /// Every area any engine ran, sorted.
    fn areas(&self) -> Vec<&str> {
        let set: BTreeSet<&str> = self
            .engines
            .iter()
            .flat_map(|e| e.areas.iter().map(|a| a.area.as_str()))
            .collect();
        set.into_iter().collect()
    }

    /// The markdown document. It holds no times, so that running it again
    /// on unchanged engines changes nothing.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let cases = self.engines.first().map_or(0, |e| e.totals.cases);
        out.push_str("# Compatibility matrix\n\n");
        let _ = writeln!(
            out,
            "How closely each engine follows the Terraform expression language as HCL {} \
             evaluates it: the share of each area's cases (one area per case file of \
             `spec-tests/`, one per directory for the cases promoted from fuzzing) that the engine answers as HCL does, over {cases} cases. A column \
             marked `(parse)` judges only whether the engine accepts what HCL accepts and \
             rejects what it rejects; `(value)` judges values and error phases without \
             telling list from tuple or map from object; the others judge everything.{}",
            self.hcl_version,
            match self.numbers {
                Numbers::Exact => String::new(),
                Numbers::F64 => " Numbers are compared after rounding both sides to \
                                 64-bit floats where that makes a difference; such passes \
                                 are counted in the outcome table."
                    .to_string(),
            }
        );
        if self.areas().iter().any(|a| a.starts_with(DIALECT_FOLDER)) {
            let _ = writeln!(
                out,
                "\nThe `{DIALECT_FOLDER}` areas are the `hil-0.11` dialect, Terraform 0.11's \
                 interpolation language: their cases have one answer, Terraform 0.11.11's, \
                 whatever the HCL profile (the `terraform-0.11` oracle; engines without the \
                 dialect answer them `unsupported`)."
            );
        }
        match &self.command_line {
            Some(cmd) => {
                let _ = write!(out, "\nGenerated by `hclspec matrix`; do not edit. To update:\n\n```\n{cmd}\n```\n\n");
            }
            None => out.push_str("\nGenerated by `hclspec matrix`; do not edit.\n\n"),
        }

        out.push_str("| area | cases |");
        for e in &self.engines {
            let _ = write!(out, " {} |", e.heading());
        }
        out.push_str("\n| :--- | ---: |");
        for _ in &self.engines {
            out.push_str(" ---: |");
        }
        out.push('\n');
        for area in self.areas() {
            let cases = self
                .engines
                .iter()
                .find_map(|e| e.area(area))
                .map_or(0, |t| t.cases);
            let _ = write!(out, "| {area} | {cases} |");
            for e in &self.engines {
                match e.area(area) {
                    Some(t) => {
                        let _ = write!(out, " {} |", percent(t));
                    }
                    None => out.push_str(" – |"),
                }
            }
            out.push('\n');
        }
        let _ = write!(out, "| **total** | **{cases}** |");
        for e in &self.engines {
            let _ = write!(out, " **{}** |", percent(&e.totals));
        }
        out.push_str("\n\n## Outcomes\n\n");

        let shown: Vec<Status> = Status::ALL
            .into_iter()
            .filter(|s| {
                *s == Status::Pass
                    || (*s == Status::PassF64 && self.numbers == Numbers::F64)
                    || self.engines.iter().any(|e| e.totals.outcomes.get(*s) > 0)
            })
            .collect();
        out.push_str("| engine | how it runs |");
        for s in &shown {
            let _ = write!(out, " {s} |");
        }
        out.push_str("\n| :--- | :--- |");
        for _ in &shown {
            out.push_str(" ---: |");
        }
        out.push('\n');
        for e in &self.engines {
            let _ = write!(out, "| {} | {} |", e.heading(), how(e));
            for s in &shown {
                let _ = write!(out, " {} |", e.totals.outcomes.get(*s));
            }
            out.push('\n');
        }
        out.push_str(
            "\nOutcomes are those of `hclspec run` (see `docs/protocol.md`): \
             `fail` is a wrong value, `error-mismatch` an error of the wrong phase \
             or summary.\n",
        );
        self.releases_markdown(&mut out);
        out
    }

    /// The `--closest-terraform` section: per engine, how many of the
    /// cases whose answer differs between releases it answers as each
    /// release does, and the release it agrees with most.
    fn releases_markdown(&self, out: &mut String) {
        let rows: Vec<(&Column, &ReleaseAgreement)> = self
            .engines
            .iter()
            .filter_map(|e| e.terraform_releases.as_ref().map(|r| (e, r)))
            .collect();
        let Some((_, first)) = rows.first() else {
            return;
        };
        let _ = write!(
            out,
            "\n## Closest Terraform release\n\nEach engine asked again, as above, the {} \
             cases whose answer differs between Terraform releases, and its answers judged \
             against each release's: the cases it passes as each release, and the release \
             it agrees with most (the newest of a tie).\n\n\
             | engine | closest |",
            first.cases
        );
        for (release, _) in &first.passed {
            let _ = write!(out, " {release} |");
        }
        out.push_str("\n| :--- | :--- |");
        for _ in &first.passed {
            out.push_str(" ---: |");
        }
        out.push('\n');
        for (e, r) in rows {
            let closest = r.closest().map_or("–".to_string(), |(v, _)| v.clone());
            let _ = write!(out, "| {} | {closest} |", e.heading());
            for (_, n) in &r.passed {
                let _ = write!(out, " {n} |");
            }
            out.push('\n');
        }
    }
}

fn how(e: &Column) -> String {
    if e.mode == "in-process" {
        e.command.clone()
    } else {
        format!("`{}` ({})", e.command.replace('|', "\\|"), e.mode)
    }
}

fn percent(t: &Tally) -> String {
    format!("{:.1}%", t.pass_percent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{AreaTally, Counts};

    fn tally(pass: usize, fail: usize) -> Tally {
        let mut c = Counts::default();
        (0..pass).for_each(|_| c.add(Status::Pass));
        (0..fail).for_each(|_| c.add(Status::Fail));
        Tally::from(&c)
    }

    #[test]
    fn markdown_lists_areas_engines_and_totals() {
        let column = |name: &str, a: (usize, usize), b: (usize, usize)| Column {
            name: name.into(),
            level: Level::Full,
            command: format!("{name}-engine --serve"),
            mode: "persistent".into(),
            version: None,
            elapsed_seconds: 1.0,
            restarts: 0,
            totals: tally(a.0 + b.0, a.1 + b.1),
            areas: vec![
                AreaTally {
                    area: "alpha".into(),
                    tally: tally(a.0, a.1),
                },
                AreaTally {
                    area: "beta".into(),
                    tally: tally(b.0, b.1),
                },
            ],
            terraform_releases: None,
        };
        let m = Matrix {
            report_version: 1,
            hcl_version: Version::V2_24,
            numbers: Numbers::Exact,
            engines: vec![column("one", (3, 0), (1, 2)), column("two", (2, 1), (0, 3))],
            command_line: Some("hclspec matrix --engine one=x".into()),
        };
        let md = m.to_markdown();
        assert!(
            md.contains("To update:\n\n```\nhclspec matrix --engine one=x\n```\n"),
            "{md}"
        );
        assert!(md.contains("| area | cases | one | two |\n"), "{md}");
        assert!(md.contains("| alpha | 3 | 100.0% | 66.6% |\n"), "{md}");
        assert!(md.contains("| beta | 3 | 33.3% | 0.0% |\n"), "{md}");
        assert!(
            md.contains("| **total** | **6** | **66.6%** | **33.3%** |"),
            "{md}"
        );
        assert!(
            md.contains("| one | `one-engine --serve` (persistent) | 4 | 2 |"),
            "{md}"
        );
        assert!(!md.contains("hil-0.11"), "{md}");
        assert!(!md.contains("Closest Terraform release"), "{md}");

        let mut m = m;
        m.engines[1].terraform_releases = Some(ReleaseAgreement {
            cases: 5,
            passed: vec![("1.6".into(), 4), ("1.15".into(), 1)],
        });
        let md = m.to_markdown();
        assert!(md.contains("the 5 cases whose answer differs"), "{md}");
        assert!(md.contains("| engine | closest | 1.6 | 1.15 |\n"), "{md}");
        assert!(md.contains("| two | 1.6 | 4 | 1 |\n"), "{md}");
        assert!(!md.contains("| one | 1."), "{md}");
    }

    #[test]
    fn the_closest_release_is_the_one_passing_most_newest_first() {
        let agreement = |passed: &[(&str, usize)]| ReleaseAgreement {
            cases: 10,
            passed: passed.iter().map(|(v, n)| (v.to_string(), *n)).collect(),
        };
        let tie = agreement(&[("1.6", 3), ("1.9", 7), ("1.15", 7)]);
        assert_eq!(tie.closest(), Some(&("1.15".to_string(), 7)));
        let old = agreement(&[("1.6", 9), ("1.9", 7), ("1.15", 2)]);
        assert_eq!(old.closest(), Some(&("1.6".to_string(), 9)));
        assert_eq!(agreement(&[("1.6", 0), ("1.15", 0)]).closest(), None);
    }

    #[test]
    fn markdown_names_the_dialect_when_its_areas_are_there() {
        let mut c = Counts::default();
        c.add(Status::Unsupported);
        let m = Matrix {
            report_version: 1,
            hcl_version: Version::V2_24,
            numbers: Numbers::Exact,
            engines: vec![Column {
                name: "reference".into(),
                level: Level::Full,
                command: "built-in reference implementation".into(),
                mode: "in-process".into(),
                version: Some("hclspec 0.1.0".into()),
                elapsed_seconds: 0.0,
                restarts: 0,
                totals: Tally::from(&c),
                areas: vec![AreaTally {
                    area: "hil-0.11/literals".into(),
                    tally: Tally::from(&c),
                }],
                terraform_releases: None,
            }],
            command_line: None,
        };
        let md = m.to_markdown();
        assert!(
            md.contains("The `hil-0.11/` areas are the `hil-0.11` dialect"),
            "{md}"
        );
        assert!(md.contains("| hil-0.11/literals | 1 | 0.0% |\n"), "{md}");
    }
}
