//! The reference implementation's diagnostic details against an oracle's.
//!
//! Expectations record an error's phase, summary and range, which every
//! engine is judged on; the detail text is free-form and external engines
//! are never judged on it. The reference claims to say exactly what HCL
//! says, so `hclspec verify` also runs the reference on each case the oracle
//! answers with an error and counts how often the two details are equal.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{anyhow, Result};
use clap::Args;

use hclspec::engine::Reference;
use hclspec_corpus::Oracle;
use hclspec_protocol::{Outcome, Request};

/// Comparing the reference's error details with the oracles'.
#[derive(Args)]
pub struct DetailArgs {
    /// List every case where the reference's error detail differs from the
    /// oracle's.
    #[arg(long)]
    pub show_details: bool,
    /// Fail when fewer than PCT percent of the error details compared
    /// against ORACLE are equal (`go-hcl=95`; repeatable).
    #[arg(long, value_name = "ORACLE=PCT", value_parser = parse_floor)]
    min_detail_agreement: Vec<(String, u32)>,
}

fn parse_floor(text: &str) -> Result<(String, u32), String> {
    let (name, pct) = text
        .split_once('=')
        .ok_or_else(|| format!("expected ORACLE=PCT, got {text:?}"))?;
    let pct: u32 = pct
        .parse()
        .ok()
        .filter(|p| *p <= 100)
        .ok_or_else(|| format!("{pct:?} is not a percentage from 0 to 100"))?;
    Ok((name.to_string(), pct))
}

impl DetailArgs {
    /// The floors named for oracles, checked against the oracles known.
    pub fn floors(&self) -> Result<BTreeMap<Oracle, u32>> {
        self.min_detail_agreement
            .iter()
            .map(|(name, pct)| {
                Oracle::ALL
                    .into_iter()
                    .find(|o| o.as_str() == name)
                    .map(|o| (o, *pct))
                    .ok_or_else(|| anyhow!("--min-detail-agreement: unknown oracle {name:?}"))
            })
            .collect()
    }
}

/// The details compared for one oracle.
pub struct DetailTally {
    oracle: Oracle,
    compared: usize,
    equal: usize,
    /// Each case whose details differ: its name and the two texts.
    differing: Vec<String>,
}

impl DetailTally {
    pub fn new(oracle: Oracle) -> DetailTally {
        DetailTally {
            oracle,
            compared: 0,
            equal: 0,
            differing: Vec::new(),
        }
    }

    /// Compares the reference's answer to `request` with the oracle's, when
    /// both are errors. The Terraform oracle passes on the diagnostic
    /// Terraform printed, and a few (a plan that could not be read) carry
    /// no detail; those are not compared. `again` holds the oracle's later
    /// answers to the same request (`verify --repeat`): a detail that Go's
    /// map order varies is equal when it equals any detail the oracle gave.
    pub fn compare(
        &mut self,
        name: &str,
        request: &Request,
        oracle_outcome: &Outcome,
        again: &[Outcome],
    ) {
        let Outcome::Error(theirs) = oracle_outcome else {
            return;
        };
        if matches!(self.oracle, Oracle::Terraform(_)) && theirs.detail.is_empty() {
            return;
        }
        let version = request.hcl_version.unwrap_or_default();
        let Outcome::Error(ours) = Reference::new(version).evaluate(request) else {
            return;
        };
        self.compared += 1;
        let equal = std::iter::once(oracle_outcome).chain(again).any(
            |o| matches!(o, Outcome::Error(e) if ours.detail == without_stack_trace(&e.detail)),
        );
        if equal {
            self.equal += 1;
            return;
        }
        let mut text = format!("DETAIL {name} ({})\n", self.oracle.as_str());
        let _ = writeln!(text, "  summary:   {}", theirs.summary);
        if ours.summary != theirs.summary {
            let _ = writeln!(text, "  (reference summary: {})", ours.summary);
        }
        let _ = writeln!(text, "  oracle:    {}", one_line(&theirs.detail));
        let _ = writeln!(text, "  reference: {}", one_line(&ours.detail));
        self.differing.push(text);
    }

    /// Writes the figure (and with `show`, every difference); false when
    /// the agreement is under `floor` percent.
    pub fn report(&self, show: bool, floor: Option<u32>, out: &mut String) -> bool {
        if self.compared == 0 && floor.is_none() {
            // An oracle of a dialect the reference does not implement.
            return true;
        }
        if show {
            for text in &self.differing {
                let _ = writeln!(out, "{text}");
            }
        }
        let tenths = (self.equal * 1000)
            .checked_div(self.compared)
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "reference error details: {} of {} equal the {} oracle's ({}.{}%)",
            self.equal,
            self.compared,
            self.oracle.as_str(),
            tenths / 10,
            tenths % 10
        );
        let Some(floor) = floor else {
            return true;
        };
        let enough = self.compared > 0 && self.equal * 100 >= floor as usize * self.compared;
        if !enough {
            let _ = writeln!(
            out,
                "the reference's error details agree with the {} oracle's less often than the required {floor}%",
                self.oracle.as_str()
            );
        }
        enough
    }
}

/// A detail on one line: its line breaks written as `\n`.
fn one_line(detail: &str) -> String {
    detail.replace('\n', "\\n")
}

/// A detail without the Go stack trace go-cty 1.18 appends to the message
/// of a panic inside a function (`panic in function implementation: MSG`,
/// a newline, `goroutine N [running]:` and the frames), which HCL then
/// ends with a period: the trace names goroutines and addresses of one
/// run, which no other engine can give, so it is not compared.
fn without_stack_trace(detail: &str) -> std::borrow::Cow<'_, str> {
    match detail.find("\ngoroutine ") {
        Some(at) if detail.ends_with('.') => format!("{}.", &detail[..at]).into(),
        _ => detail.into(),
    }
}

/// What of an oracle's detail is the implementation's, for comparing the
/// details of two runs: without a stack trace (above), and, from the
/// Terraform oracle, with the names it gives each case's files (`c12.tf`,
/// `c12_scope.tf`, numbered by the case's place in a batch) written as
/// `c.tf` and `c_scope.tf`.
pub fn comparable_detail(oracle: Oracle, detail: &str) -> String {
    let detail = without_stack_trace(detail);
    if !matches!(oracle, Oracle::Terraform(_)) {
        return detail.into_owned();
    }
    let bytes = detail.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = String::with_capacity(detail.len());
    let (mut i, mut copied) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'c' && (i == 0 || !is_word(bytes[i - 1])) {
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let tail = &detail[i + 1 + digits..];
            if digits > 0 && (tail.starts_with(".tf") || tail.starts_with("_scope.tf")) {
                out.push_str(&detail[copied..=i]);
                copied = i + 1 + digits;
                i = copied;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&detail[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::{comparable_detail, without_stack_trace};
    use hclspec_corpus::Oracle;

    #[test]
    fn terraform_file_names_are_not_compared() {
        let table = [
            (
                "The if directive at c83.tf:4,2-12 is missing its endif.",
                "The if directive at c.tf:4,2-12 is missing its endif.",
            ),
            ("c7_scope.tf:1,1: x", "c_scope.tf:1,1: x"),
            (
                "abc12.tf and c.tf and c12.tfx",
                "abc12.tf and c.tf and c.tfx",
            ),
            ("cc1.tf", "cc1.tf"),
        ];
        for (detail, want) in table {
            assert_eq!(comparable_detail(Oracle::TERRAFORM, detail), want);
            assert_eq!(comparable_detail(Oracle::GoHcl, detail), detail);
        }
    }

    #[test]
    fn stack_traces_are_cut_and_the_period_kept() {
        let go = "Call to function \"pow\" failed: panic in function implementation: Float.SetFloat64(NaN)\ngoroutine 7 [running]:\nruntime/debug.Stack()\n\t/x/stack.go:26 +0x5e\n.";
        assert_eq!(
            without_stack_trace(go),
            "Call to function \"pow\" failed: panic in function implementation: Float.SetFloat64(NaN)."
        );
        let plain = "Call to function \"f\" failed: goroutine is a word here.";
        assert_eq!(without_stack_trace(plain), plain);
    }
}
