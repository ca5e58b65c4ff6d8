//! Hand-built reports for the renderers' tests: small enough to read in
//! full, so a test shows exactly what it renders.

use std::io;

use crate::protocol::{Implementation, Tool};
use crate::report::view::CaseSource;
use crate::report::{CaseReport, ExpectationNote, REPORT_FORMAT, Report, Status, Summary};

/// An instance of `id` with `status`, citing `spec`, from `cases/<id>.yaml`.
pub fn case(id: &str, status: Status, spec: &[&str]) -> CaseReport {
    let case = id.split('@').next().unwrap_or(id);
    CaseReport {
        spec: spec.iter().map(|s| (*s).to_owned()).collect(),
        duration_ms: 1.5,
        ..CaseReport::new(
            id.to_owned(),
            case.to_owned(),
            Tool::Resolve,
            format!("cases/{case}.yaml"),
            3,
            status,
            None,
        )
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

/// A report with something of everything a renderer treats differently:
/// passes, failures with diffs (more than the Markdown report details),
/// expected and unexpected passes and failures, skips for several reasons,
/// unsupported, not observable, not run, adapter and case errors, several
/// tools, requirement IDs no spec has, fixtures, stderr and unchecked
/// fields. `partial` and `fixture_dir` are set; callers unset what they
/// want to vary.
pub fn varied() -> Report {
    let tools = Tool::ALL;
    let mut cases = vec![
        case("pass-a", Status::Pass, &["RES-1", "SEC-1"]),
        with_reason(case("skip-a", Status::Skip, &["RES-1"]), "needs root"),
        with_reason(case("skip-b", Status::Skip, &["RES-2"]), "needs root"),
        with_reason(case("skip-c", Status::Skip, &[]), "no tmpfs"),
        case("skip-d", Status::Skip, &[]),
        with_reason(case("unsup", Status::Unsupported, &["SHELL-1"]), "no shell"),
        with_reason(case("notrun", Status::NotRun, &["RES-3"]), "given up"),
        expected(failing("xfail-a", &["RES-2", "ZZZ-9"]), "known bug"),
        expected(case("xpass-a", Status::Xpass, &["RES-2"]), "stale"),
        with_reason(case("adapter", Status::AdapterError, &["OLD-1"]), "crashed"),
        with_reason(case("caseerr", Status::CaseError, &[]), "no fixture"),
        case("unobs", Status::Unobserved, &["SEC-2"]),
    ];
    cases[7].status = Status::Xfail;
    cases[9].stderr = Some("line 1\ntraceback: boom\n".to_owned());
    cases[11].unchecked = vec!["parent".to_owned()];
    for i in 0..55 {
        let mut bad = failing(&format!("fail-{i}@x"), &["RES-1", "NEW-4"]);
        bad.tool = tools[i % tools.len()];
        bad.fixture = (i % 7 == 0).then(|| format!("/tmp/toolpath-{i}"));
        bad.duration_ms = 0.25 * i as f64;
        cases.push(bad);
        let mut ok = case(&format!("ok-{i}@x"), Status::Pass, &["SEC-1"]);
        ok.tool = tools[(i + 2) % tools.len()];
        ok.duration_ms = 0.1 * i as f64;
        cases.push(ok);
    }
    let mut report = report("varied", cases);
    report.partial = true;
    report.fixture_dir = Some("/dev/shm (tmpfs)".to_owned());
    report
}

/// `report`'s header alone, its cases gone: what a streamed run's renderer
/// is given, so a renderer that read `head.cases` would see none.
pub fn head(report: &Report) -> Report {
    Report {
        cases: Vec::new(),
        ..report.clone()
    }
}

/// Cases held where only [`CaseSource::each`] reaches them, counting how
/// often they are read, and failing like an unreadable spool when
/// `fail_at` says so.
pub struct Spool {
    cases: Vec<CaseReport>,
    pub passes: std::cell::Cell<usize>,
    /// (pass, case): the read fails on that pass (1 for the first) in
    /// place of that case (0 for the first).
    pub fail_at: Option<(usize, usize)>,
}

impl Spool {
    pub fn new(cases: Vec<CaseReport>) -> Spool {
        Spool {
            cases,
            passes: std::cell::Cell::new(0),
            fail_at: None,
        }
    }

    /// A spool whose `pass`th read fails after `n` cases.
    pub fn failing(cases: Vec<CaseReport>, pass: usize, n: usize) -> Spool {
        Spool {
            fail_at: Some((pass, n)),
            ..Spool::new(cases)
        }
    }
}

impl CaseSource for Spool {
    fn each(&self, visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>) -> io::Result<()> {
        let pass = self.passes.get() + 1;
        self.passes.set(pass);
        for (i, case) in self.cases.iter().enumerate() {
            if self.fail_at == Some((pass, i)) {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "spool cut short",
                ));
            }
            visit(case)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The renderers' streamed-equals-whole tests are only as good as the
    /// variety they render.
    #[test]
    fn varied_has_every_status_and_tool() {
        let report = varied();
        for status in Status::ALL {
            assert!(
                report.cases.iter().any(|c| c.status == status),
                "{status:?}"
            );
        }
        for tool in Tool::ALL {
            assert!(report.cases.iter().any(|c| c.tool == tool), "{tool:?}");
        }
        assert_eq!(report.summary, Summary::of(&report.cases));
    }
}
