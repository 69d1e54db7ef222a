//! The report as JUnit XML: a test suite per area, a test case per case.
//!
//! `fail`, `error-mismatch` and `unsupported` are failures; `crash`,
//! `timeout` and `protocol-error` are errors (the engine, not its answer,
//! went wrong); `skipped` is skipped; passes of every kind are successes.

use std::collections::BTreeMap;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report as Junit, TestCase, TestCaseStatus, TestSuite};

use super::{Report, Status};

/// The XML document.
pub fn to_xml(report: &Report) -> Result<String, String> {
    let mut junit = Junit::new("hclspec");
    junit.set_time(Duration::from_secs_f64(report.elapsed_seconds));
    let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
    for r in &report.cases {
        let suite = suites.entry(&r.area).or_insert_with(|| {
            let mut s = TestSuite::new(r.area.as_str());
            s.add_property(Property::new("engine", report.engine.name.as_str()));
            s.add_property(Property::new("hcl_version", report.hcl_version.as_str()));
            s
        });
        let description = r.answers_shown();
        let status = match r.outcome {
            Status::Pass | Status::PassF64 | Status::UnexpectedPass => TestCaseStatus::success(),
            Status::Unsupported | Status::NotRun => {
                let mut s = TestCaseStatus::skipped();
                s.set_message(r.message.as_str());
                s.set_type(r.outcome.as_str());
                s
            }
            Status::Skipped => {
                let skip = r.skip.as_ref().expect("skipped cases have an entry");
                let mut s = TestCaseStatus::skipped();
                s.set_message(skip.reason.as_str());
                s.set_type(skip.outcome.as_str());
                s
            }
            other => {
                let kind = match other {
                    Status::Crash | Status::Timeout | Status::ProtocolError => {
                        NonSuccessKind::Error
                    }
                    _ => NonSuccessKind::Failure,
                };
                let mut s = TestCaseStatus::non_success(kind);
                s.set_message(r.message.as_str());
                s.set_type(other.as_str());
                s.set_description(description.as_str());
                s
            }
        };
        let mut case = TestCase::new(r.id.as_str(), status);
        case.set_classname(r.area.as_str());
        case.set_time(Duration::from_secs_f64(r.elapsed_ms / 1000.0));
        match r.outcome {
            Status::PassF64 => {
                case.set_system_out(r.message.as_str());
            }
            Status::UnexpectedPass => {
                let skip = r.skip.as_ref().expect("skipped cases have an entry");
                case.set_system_out(format!(
                    "in the skip list ({}: {}) but passed",
                    skip.origin, skip.reason
                ));
            }
            _ => {}
        }
        if !r.stderr.is_empty() {
            case.set_system_err(r.stderr.as_str());
        }
        suite.add_test_case(case);
    }
    junit.add_test_suites(suites.into_values());
    junit.to_string().map_err(|e| e.to_string())
}
