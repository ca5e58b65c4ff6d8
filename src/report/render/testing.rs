//! Hand-built reports for the renderers' tests: small enough to read in
//! full, so a test shows exactly what it renders.

use crate::protocol::{Implementation, Tool};
use crate::report::{CaseReport, ExpectationNote, REPORT_FORMAT, Report, Status, Summary};

/// An instance of `id` with `status`, citing `spec`, from `cases/<id>.yaml`.
pub fn case(id: &str, status: Status, spec: &[&str]) -> CaseReport {
    CaseReport {
        id: id.to_owned(),
        case: id.split('@').next().unwrap_or(id).to_owned(),
        tool: Tool::Resolve,
        file: format!("cases/{}.yaml", id.split('@').next().unwrap_or(id)),
        line: 3,
        spec: spec.iter().map(|s| (*s).to_owned()).collect(),
        tags: Vec::new(),
        status,
        reason: None,
        mismatches: Vec::new(),
        diff: None,
        unchecked: Vec::new(),
        expectation: None,
        stderr: None,
        fixture: None,
        duration_ms: 1.5,
    }
}

/// A failing instance with a small diff.
pub fn failing(id: &str, spec: &[&str]) -> CaseReport {
    CaseReport {
        diff: Some(
            "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n outcome: error\n-code: not_found\n+code: permission_denied\n"
                .to_owned(),
        ),
        ..case(id, Status::Fail, spec)
    }
}

pub fn with_reason(mut case: CaseReport, reason: &str) -> CaseReport {
    case.reason = Some(reason.to_owned());
    case
}

pub fn expected(mut case: CaseReport, reason: &str) -> CaseReport {
    case.expectation = Some(ExpectationNote {
        reason: reason.to_owned(),
        spec: None,
        issue: Some("https://example.invalid/issues/7".to_owned()),
    });
    case
}

/// A report of `cases` by implementation `name`.
pub fn report(name: &str, cases: Vec<CaseReport>) -> Report {
    Report {
        format: REPORT_FORMAT,
        suite: "0.3.0".to_owned(),
        protocol: 1,
        implementation: Implementation {
            name: name.to_owned(),
            version: "1.2.3".to_owned(),
            language: "python".to_owned(),
        },
        adapter: Some("python3 adapter.py".to_owned()),
        partial: false,
        strict: false,
        duration_ms: 410.0,
        fixture_dir: None,
        summary: Summary::of(&cases),
        cases,
    }
}
