//! Hand-built reports for the renderers' tests: small enough to read in
//! full, so a test shows exactly what it renders.

use std::io;

use crate::report::findings::{Finding, FindingKind};
use crate::report::view::CaseSource;
use crate::report::{
    CaseReport, Check, Containment, ContainmentClass, ExpectationNote, Mismatch, REPORT_FORMAT,
    Report, Status, Summary,
};
use toolpath_suite::protocol::{Field, Implementation, Tool};

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

/// A failing instance through which something got out, shown by
/// `evidence`: a SEC-4 case answered `ok`.
pub fn escape(id: &str, evidence: &str) -> CaseReport {
    let mut case = failing(id, &["SEC-4"]);
    // Evidence names its channel first, as the harness writes it.
    let channel = match evidence.starts_with("changed outside") {
        true => crate::report::Channel::Write,
        false => crate::report::Channel::Read,
    };
    case.containment = Some(Containment::escape(
        vec![channel],
        format!("{}: {evidence}", channel.name()),
    ));
    case.mismatches = vec![Mismatch {
        field: Field::Outcome.into(),
        expected: "error".to_owned(),
        actual: "ok".to_owned(),
        rule: None,
    }];
    case
}

/// `case` with the containment class `class`.
pub fn contained(mut case: CaseReport, class: ContainmentClass) -> CaseReport {
    case.containment = Some(Containment::of(class));
    case
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
    let mut report = Report {
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
        waited_ms: 0.0,
        workers: 1,
        fixture_dir: None,
        unprotected: Vec::new(),
        selection: Default::default(),
        run_against: None,
        summary: Summary::default(),
        findings: Vec::new(),
        profile_rules: Vec::new(),
        containment: Default::default(),
        rules: Default::default(),
        cases,
    };
    report.recount();
    report
}

/// A report with something of everything a renderer treats differently:
/// passes, failures with diffs (more than the Markdown report details),
/// expected and unexpected passes and failures, skips for several reasons,
/// unsupported, not observable, not run, adapter and case errors, several
/// tools, requirement IDs no spec has, fixtures, stderr and unchecked
/// fields. `partial` and `fixture_dir` are set; callers unset what they
/// want to vary.
pub fn varied() -> Report {
    varied_with(55)
}

/// A record of what a run was made against, with a runner of two
/// directories, as pages show it.
pub fn run_against() -> crate::report::RunAgainst {
    crate::report::RunAgainst {
        suite: format!("sha256:{}", "a1".repeat(32)),
        runner: Some(crate::report::run_against::Runner {
            dirs: vec!["runners/tool".into(), "runners/common-node".into()],
            digest: format!("sha256:{}", "b2".repeat(32)),
        }),
        certified: Some("2026-12-06".into()),
        control: None,
    }
}

/// [`report`] of a run that could not protect its verdict: the two gaps a
/// run names (as `toolpath run` words them), then an [`attack`], since a
/// report read back from disk is anybody's text.
pub fn unprotected() -> Report {
    let mut report = report("boxless", vec![case("a", Status::Pass, &["RES-1"])]);
    report.unprotected = vec![
        "processes a subject starts could outlive the run: no PID namespace could be made \
         for it (this needs CAP_SYS_ADMIN; run as root to have one)"
            .to_owned(),
        "the subject runs as root (--subject-as-root): without capabilities, but owning \
         every root-owned file, the run's directory and its reports among them, so nothing \
         keeps what it writes from the verdict"
            .to_owned(),
        attack("gap"),
    ];
    report
}

/// [`varied`] with one failure per tool (and one pass beside each): the
/// same variety in a size a person reviews whole, for snapshots.
pub fn broken() -> Report {
    varied_with(Tool::ALL.len())
}

/// [`varied`] with `failures` failing instances, spread over the tools.
fn varied_with(failures: usize) -> Report {
    let mut cases = every_status();
    cases.extend(containment());
    for i in 0..failures {
        cases.extend(numbered(i));
    }
    let mut report = report("varied", cases);
    report.findings = findings();
    report.partial = true;
    report.fixture_dir = Some("/dev/shm (tmpfs)".to_owned());
    report
}

/// One instance of each status, with what each may carry: reasons,
/// expectations, standard error, fields not checked.
fn every_status() -> Vec<CaseReport> {
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
    cases
}

/// Containment: an escape, one the expectations file lists, a refusal
/// worded wrong, one with another code, a false refusal, and a derived
/// rule failing where the cited one holds.
fn containment() -> Vec<CaseReport> {
    let mut known = expected(escape("escape-b@ls", "answered ok"), "follows links");
    known.status = Status::Xfail;
    let mut worded = contained(
        failing("worded@grep", &["ERR-4"]),
        ContainmentClass::Refused,
    );
    worded.containment.as_mut().unwrap().wording_failed = true;
    let mut out5 = failing("out5@ls", &["LS-4"]);
    out5.mismatches = vec![Mismatch {
        field: Check::Contains(Field::ModelText),
        expected: "\"{ws}\"".to_owned(),
        actual: "\"listed\" does not contain it".to_owned(),
        rule: Some("OUT-5".to_owned()),
    }];
    vec![
        escape(
            "escape-a@grep",
            "changed outside every root: + {tmp}/outside/x (file)",
        ),
        known,
        worded,
        contained(
            failing("other-code@shell", &["SEC-4"]),
            ContainmentClass::RefusedOtherCode,
        ),
        contained(
            failing("false-refusal@glob", &["SEC-5"]),
            ContainmentClass::FalseRefusal,
        ),
        contained(
            case("refused@resolve", Status::Pass, &["SEC-4"]),
            ContainmentClass::Refused,
        ),
        contained(
            with_reason(
                case("unseen@shell", Status::Unsupported, &["SEC-4"]),
                "no shell",
            ),
            ContainmentClass::NotObserved,
        ),
        out5,
    ]
}

/// The `i`th failure and a pass beside it, on tools spread so that
/// every tool gets failures, some keep their fixture, and durations vary.
fn numbered(i: usize) -> [CaseReport; 2] {
    let tools = Tool::ALL;
    let mut bad = failing(&format!("fail-{i}@x"), &["RES-1", "NEW-4"]);
    bad.tool = tools[i % tools.len()];
    bad.fixture = i.is_multiple_of(7).then(|| format!("/tmp/toolpath-{i}"));
    bad.duration_ms = 0.25 * i as f64;
    let mut ok = case(&format!("ok-{i}@x"), Status::Pass, &["SEC-1"]);
    ok.tool = tools[(i + 2) % tools.len()];
    ok.duration_ms = 0.1 * i as f64;
    [bad, ok]
}

/// What the subject did besides answering: output that is not the
/// protocol, and a process killed at the end.
fn findings() -> Vec<Finding> {
    vec![
        Finding {
            kind: FindingKind::NotJsonRpc,
            count: 3,
            example: "checking path /tmp/x/ws".to_owned(),
            cases: vec!["ok-1@x".to_owned(), "fail-0@x".to_owned()],
            more_cases: 5,
        },
        Finding {
            kind: FindingKind::Killed,
            count: 1,
            example: "alive 1000 ms after its input closed; SIGTERM".to_owned(),
            cases: vec![],
            more_cases: 0,
        },
    ]
}

/// `label` followed by every attack on a reader seen so far, so a
/// rendering shows which field each came through: a screen clear, an OSC 8
/// hyperlink, an OSC 52 clipboard write, a lone CR, a right-to-left
/// override, a zero-width joiner, NUL, a C1 CSI, and markup.
pub fn attack(label: &str) -> String {
    format!(
        "{label}:\u{1b}[2J|\u{1b}]8;;https://evil.invalid\u{7}link\u{1b}]8;;\u{7}|\
         \u{1b}]52;c;cm0gLXJmIH4=\u{7}|lone\rCR|\u{202e}exe.txt|z\u{200d}wj|nul\u{0}|\u{9b}31m|<b>*_`|&amp;"
    )
}

/// A report whose every string an adapter or a case file controls is an
/// [`attack`]: what each renderer must show without acting on any of it.
pub fn hostile() -> Report {
    let mut bad = failing(&attack("id"), &[&attack("SPEC")]);
    bad.file = attack("file");
    bad.reason = Some(attack("reason"));
    bad.diff = Some(format!(
        "--- expected\n+++ actual\n-path: {}\r\n+path: {}\n",
        attack("old"),
        attack("new")
    ));
    bad.stderr = Some(format!(
        "{}\n{}\r\n",
        attack("stderr 1"),
        attack("stderr 2")
    ));
    bad.fixture = Some(attack("fixture"));
    bad.unchecked = vec![attack("unchecked")];
    let mut known = expected(failing("known@grep", &["RES-2"]), "");
    known.status = Status::Xfail;
    known.expectation = Some(ExpectationNote {
        reason: attack("expected reason"),
        spec: Some(attack("expected spec")),
        issue: Some(attack("issue")),
    });
    let mut stale = expected(case("stale@grep", Status::Xpass, &["RES-2"]), "");
    stale.expectation = known.expectation.clone();
    let mut crashed = with_reason(
        case("crashed@grep", Status::AdapterError, &[]),
        &attack("crash"),
    );
    crashed.stderr = Some(attack("crash stderr"));
    let skipped = with_reason(case("skipped@grep", Status::Skip, &[]), &attack("skip"));
    let mut report = report(&attack("name"), vec![bad, known, stale, crashed, skipped]);
    report.implementation.version = attack("version");
    report.implementation.language = attack("language");
    report.adapter = Some(attack("adapter"));
    report.suite = attack("suite");
    report.fixture_dir = Some(attack("fixtures"));
    report.findings = vec![Finding {
        kind: FindingKind::NotJsonRpc,
        count: 1,
        example: attack("finding"),
        cases: vec![attack("finding case")],
        more_cases: 0,
    }];
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
pub struct CountedSpool {
    cases: Vec<CaseReport>,
    pub passes: std::cell::Cell<usize>,
    /// (pass, case): the read fails on that pass (1 for the first) in
    /// place of that case (0 for the first).
    pub fail_at: Option<(usize, usize)>,
}

impl CountedSpool {
    pub fn new(cases: Vec<CaseReport>) -> CountedSpool {
        CountedSpool {
            cases,
            passes: std::cell::Cell::new(0),
            fail_at: None,
        }
    }

    /// A spool whose `pass`th read fails after `n` cases.
    pub fn failing(cases: Vec<CaseReport>, pass: usize, n: usize) -> CountedSpool {
        CountedSpool {
            fail_at: Some((pass, n)),
            ..CountedSpool::new(cases)
        }
    }
}

impl CaseSource for CountedSpool {
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

    #[test]
    fn every_attack_is_one_a_sanitiser_must_stop() {
        let text = attack("x");
        for c in ['\u{1b}', '\r', '\u{202e}', '\u{200d}', '\u{0}', '\u{9b}'] {
            assert!(text.contains(c), "{c:?}");
        }
        assert!(!text.contains("\r\n"), "the CR is a lone one");
    }
}
