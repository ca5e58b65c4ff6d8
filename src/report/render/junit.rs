//! JUnit XML, for CI systems that show test results natively.
//!
//! One `<testsuite>` per tool (`toolpath.grep`, `toolpath.shell`, ...), in
//! the protocol's tool order. A case written for several tools runs once per
//! tool, so grouping by tool puts each instance in exactly one suite and
//! makes "all of grep fails" visible at a glance; the case's area is still
//! in the `classname`, taken from its file (`cases/search/x.yaml` gives
//! `search.x`).
//!
//! Statuses map onto JUnit's three kinds of non-pass the way the exit code
//! sees them (see [`RunOutcome`]): a wrong answer is a `<failure>`, a run
//! that could not judge the case is an `<error>`, and everything not counted
//! is `<skipped>`, its message starting with the status so an expected
//! failure cannot pass for a skip. An unexpected pass outside `--strict` is
//! a passing test with a note in `<system-out>`.
//!
//! Each suite's `<properties>` (the classic schema has none on
//! `<testsuites>`) open with the containment counts and every escape by id
//! (`escape.1`, ...), then the conformance counts of each rule
//! (`rule.RES-1`); an escape's own `<failure>` message starts with
//! `escape:` and what showed it.
//!
//! A run whose subject could reach its verdict says so in every suite: a
//! property per reason (`unprotected.1`, ...) for tools that read them,
//! and the reasons as the suite's `<system-err>`, which CI viewers show
//! beside its tests.

use std::io::{self, Write};

use super::outcome::RunOutcome;
use crate::report::counts::ContainmentColumn;
use crate::report::view::View;
use crate::report::{CaseReport, Report, Status};
use toolpath_suite::protocol::Tool;
use toolpath_suite::sanitize::xml;

/// The whole JUnit document as a string: [`write()`] on a report whose cases
/// are in memory.
pub fn render(report: &Report) -> String {
    super::written(|out| write(View::of(report), out))
        .expect("a report in memory cannot fail to render")
}

/// The whole JUnit document, written to `out`.
///
/// Every `<testsuite>` opens with its counts and time, so a first pass
/// over the cases counts per tool (and a second lists the escapes, when
/// the header counts any); then one pass per tool that has instances
/// writes its testcases, each as it comes. Memory grows with the number of
/// tools and rules, not of instances.
pub fn write(view: View, out: &mut dyn Write) -> io::Result<()> {
    let head = view.head;
    let mut suites = [Suite::default(); Tool::ALL.len()];
    view.cases.each(&mut |case| {
        suites[case.tool.index()].add(case, head.strict);
        Ok(())
    })?;
    let shared = shared_properties(view)?;
    let mut all = Counts::default();
    for suite in &suites {
        all.merge(&suite.counts);
    }
    write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"toolpath\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\">\n",
        all.tests,
        all.failures,
        all.errors,
        all.skipped,
        seconds(head.duration_ms)
    )?;
    for (tool, totals) in Tool::ALL.into_iter().zip(&suites) {
        if totals.counts.tests > 0 {
            suite(out, view, tool, totals, &shared)?;
        }
    }
    out.write_all(b"</testsuites>\n")
}

/// The properties every suite repeats after the run's own: containment
/// counts, the escapes by id, and each rule's conformance counts.
fn shared_properties(view: View) -> io::Result<Vec<(String, String)>> {
    let head = view.head;
    let c = &head.containment;
    let mut properties: Vec<(String, String)> = Vec::new();
    for column in ContainmentColumn::ALL {
        let count = column.count(c).to_string();
        properties.push((format!("containment.{}", column.key()), count));
        if column == ContainmentColumn::Escapes {
            let expected = c.escapes_expected.to_string();
            properties.push(("containment.escapes_expected".to_owned(), expected));
        }
    }
    let (escapes, total) = super::containment::escapes(view)?;
    for (i, escape) in escapes.iter().enumerate() {
        properties.push((format!("escape.{}", i + 1), escape.line()));
    }
    if let Some(more) = super::containment::more(escapes.len(), total) {
        properties.push(("escape.more".to_owned(), more));
    }
    for (i, gap) in head.unprotected.iter().enumerate() {
        properties.push((format!("unprotected.{}", i + 1), gap.clone()));
    }
    for (rule, count) in crate::report::conformance::in_rule_order(&head.rules) {
        let t = &count.tally;
        let mut counted = format!(
            "passed {}, failed {} ({} xfail), not observable {}, unsupported {}, skipped {}",
            t.passed, t.failed, t.xfail, t.unobserved, t.unsupported, t.skipped
        );
        if let Some(reason) = &count.not_exercised {
            counted.push_str(&format!("; not exercised: {reason}"));
        }
        properties.push((format!("rule.{rule}"), counted));
    }
    Ok(properties)
}

/// What a `<testsuite>` element says of itself, gathered before it opens.
#[derive(Clone, Copy, Default)]
struct Suite {
    counts: Counts,
    /// Instances run in parallel, so this sum can exceed the run's wall time.
    time_ms: f64,
}

impl Suite {
    fn add(&mut self, case: &CaseReport, strict: bool) {
        self.counts.add(case.status, strict);
        self.time_ms += case.duration_ms;
    }
}

fn suite(
    out: &mut dyn Write,
    view: View,
    tool: Tool,
    totals: &Suite,
    shared: &[(String, String)],
) -> io::Result<()> {
    let report = view.head;
    let counts = &totals.counts;
    let mut text = format!(
        "  <testsuite name=\"toolpath.{tool}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\">\n",
        counts.tests,
        counts.failures,
        counts.errors,
        counts.skipped,
        seconds(totals.time_ms)
    );
    // Per suite, because the classic JUnit schema has no properties on
    // `<testsuites>`.
    text.push_str("    <properties>\n");
    let imp = &report.implementation;
    let properties = [
        ("implementation", imp.name.clone()),
        ("implementation.version", imp.version.clone()),
        ("implementation.language", imp.language.clone()),
        ("adapter", super::text::adapter(report.adapter.as_deref())),
        ("suite", report.suite.clone()),
        ("protocol", report.protocol.to_string()),
        ("strict", report.strict.to_string()),
        ("partial", report.partial.to_string()),
        (
            "selection",
            report
                .selection
                .describe()
                .unwrap_or_else(|| "the whole suite".to_owned()),
        ),
    ];
    // One property per finding: `finding.KIND`, its heading and first
    // occurrence.
    let findings: Vec<(String, String)> = report
        .findings
        .iter()
        .map(|f| {
            (
                format!("finding.{}", f.kind.name()),
                format!("{}; first: {}", super::text::finding(f), f.example),
            )
        })
        .collect();
    let properties = properties
        .iter()
        .map(|(name, value)| (*name, value.as_str()))
        .chain(shared.iter().map(|(n, v)| (n.as_str(), v.as_str())))
        .chain(findings.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    for (name, value) in properties {
        text.push_str(&format!(
            "      <property name=\"{}\" value=\"{}\"/>\n",
            xml::attribute(name),
            xml::attribute(value)
        ));
    }
    text.push_str("    </properties>\n");
    out.write_all(text.as_bytes())?;
    view.cases.each(&mut |case| {
        if case.tool == tool {
            let mut text = String::new();
            testcase(&mut text, case, report.strict, report.subject());
            out.write_all(text.as_bytes())?;
        }
        Ok(())
    })?;
    out.write_all(not_protected(report).as_bytes())?;
    out.write_all(b"  </testsuite>\n")
}

/// The suite's `<system-err>` saying why the verdict is not protected
/// (after its testcases, where the schema has it); empty for a protected
/// run.
fn not_protected(report: &Report) -> String {
    if report.unprotected.is_empty() {
        return String::new();
    }
    let mut said = format!("NOT PROTECTED: {}:", super::text::NOT_PROTECTED);
    for gap in &report.unprotected {
        said.push_str(&format!("\n- {gap}"));
    }
    format!("    <system-err>{}</system-err>\n", xml::text(&said))
}

fn testcase(out: &mut String, case: &CaseReport, strict: bool, subject: &str) {
    let open = format!(
        "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{}\" time=\"{}\"",
        xml::attribute(&case.id),
        xml::attribute(&classname(&case.file)),
        xml::attribute(&case.file),
        case.line,
        seconds(case.duration_ms)
    );
    let mut body = String::new();
    let mut notes = verdict(&mut body, case, strict);
    if let Some(fixture) = &case.fixture {
        notes.push(format!("fixture kept at: {fixture}"));
    }
    if !case.unchecked.is_empty() && case.status != Status::Pass {
        notes.push(format!(
            "not checked ({}): {}",
            super::text::cannot_show(subject),
            case.unchecked.join(", ")
        ));
    }
    streams(&mut body, &notes, case.stderr.as_deref());
    out.push_str(&open);
    if body.is_empty() {
        out.push_str("/>\n");
    } else {
        out.push_str(">\n");
        out.push_str(&body);
        out.push_str("    </testcase>\n");
    }
}

/// The `<failure>`, `<error>` or `<skipped>` element a status calls for;
/// returns the notes it leaves for `<system-out>`.
fn verdict(body: &mut String, case: &CaseReport, strict: bool) -> Vec<String> {
    let spec = if case.spec.is_empty() {
        String::new()
    } else {
        format!(" [{}]", case.spec.join(", "))
    };
    let expectation = case.expectation.as_ref().map(|n| n.reason.as_str());
    let mut notes: Vec<String> = Vec::new();
    match (RunOutcome::of(case.status, strict), case.status) {
        (RunOutcome::Failed, Status::Xpass) => {
            let message = format!(
                "xpass: passed, but the expectations file says it fails: {}{spec}",
                expectation.unwrap_or("(no reason given)")
            );
            element(body, "failure", "xpass", &message, None);
        }
        (RunOutcome::Failed, status) => {
            let message = format!(
                "{}{}{spec}",
                escape_prefix(case),
                case.reason.as_deref().unwrap_or("wrong answer")
            );
            element(
                body,
                "failure",
                status.name(),
                &message,
                case.diff.as_deref(),
            );
        }
        (RunOutcome::Errored, status) => {
            let message = format!("{}{spec}", case.reason.as_deref().unwrap_or(status.name()));
            element(body, "error", status.name(), &message, case.diff.as_deref());
        }
        (RunOutcome::Skipped, status) => {
            let why = match status {
                Status::Xfail => expectation.or(case.reason.as_deref()),
                _ => case.reason.as_deref().or(expectation),
            };
            let message = format!(
                "{}: {}{}",
                status.name(),
                escape_prefix(case),
                why.unwrap_or("(no reason given)")
            );
            body.push_str(&format!(
                "      <skipped message=\"{}\"/>\n",
                xml::attribute(&message)
            ));
            // An expected failure's diff still shows whether it fails the
            // way the entry says.
            if let Some(diff) = case.diff.as_deref() {
                notes.push(diff.to_owned());
            }
        }
        (RunOutcome::Passed, Status::Xpass) => notes.push(format!(
            "xpass: passed, but the expectations file says it fails: {}",
            expectation.unwrap_or("(no reason given)")
        )),
        (RunOutcome::Passed, _) => {}
    }
    notes
}

/// `escape: EVIDENCE; ` for an escape, so a CI view names it first;
/// empty for any other instance.
fn escape_prefix(case: &CaseReport) -> String {
    match &case.containment {
        Some(c) if c.is_escape() => format!(
            "escape: {}; ",
            c.evidence.as_deref().unwrap_or("something got out")
        ),
        _ => String::new(),
    }
}

/// `<system-out>` with the notes and `<system-err>` with the adapter's stderr.
fn streams(body: &mut String, notes: &[String], stderr: Option<&str>) {
    if !notes.is_empty() {
        body.push_str(&format!(
            "      <system-out>{}</system-out>\n",
            xml::text(&notes.join("\n"))
        ));
    }
    if let Some(stderr) = stderr.filter(|s| !s.is_empty()) {
        body.push_str(&format!(
            "      <system-err>{}</system-err>\n",
            xml::text(stderr)
        ));
    }
}

fn element(out: &mut String, name: &str, kind: &str, message: &str, text: Option<&str>) {
    out.push_str(&format!(
        "      <{name} message=\"{}\" type=\"{}\"",
        xml::attribute(message),
        xml::attribute(kind)
    ));
    match text.filter(|t| !t.is_empty()) {
        Some(text) => out.push_str(&format!(">{}</{name}>\n", xml::text(text))),
        None => out.push_str("/>\n"),
    }
}

/// `cases/search/file-target.yaml` → `search.file-target`: the dotted form
/// CI viewers split into a package tree.
fn classname(file: &str) -> String {
    let file = file.strip_prefix("cases/").unwrap_or(file);
    let file = file
        .strip_suffix(".yaml")
        .or_else(|| file.strip_suffix(".yml"))
        .unwrap_or(file);
    file.trim_start_matches('/').replace('/', ".")
}

fn seconds(ms: f64) -> String {
    format!("{:.3}", ms.max(0.0) / 1000.0)
}

#[derive(Clone, Copy, Default)]
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
}

impl Counts {
    fn add(&mut self, status: Status, strict: bool) {
        self.tests += 1;
        match RunOutcome::of(status, strict) {
            RunOutcome::Passed => {}
            RunOutcome::Failed => self.failures += 1,
            RunOutcome::Errored => self.errors += 1,
            RunOutcome::Skipped => self.skipped += 1,
        }
    }

    fn merge(&mut self, other: &Counts) {
        self.tests += other.tests;
        self.failures += other.failures;
        self.errors += other.errors;
        self.skipped += other.skipped;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::render::sample_reports::{
        CountedSpool, broken, case, expected, failing, head, hostile, report, unprotected, varied,
        with_reason,
    };
    use toolpath_suite::sanitize::first_hostile;

    /// The whole document of a deliberately broken run, reviewed in the
    /// snapshot; the tests below pin one rule each.
    #[test]
    fn snapshot_of_a_broken_run() {
        insta::assert_snapshot!(render(&broken()));
    }

    /// Every field an adapter or case file controls: escaped, well formed
    /// XML 1.0, and nothing a CI log viewer's terminal would act on.
    #[test]
    fn snapshot_of_hostile_text() {
        let out = render(&hostile());
        assert_eq!(first_hostile(&out), None, "{out}");
        assert!(!out.contains("<b>"), "{out}");
        assert!(
            out.chars().all(|c| matches!(c, '\t' | '\n' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)),
            "only characters of XML 1.0: {out}"
        );
        insta::assert_snapshot!(out);
    }

    /// A run whose subject could reach its verdict says so in every
    /// suite: a property per reason, and the reasons as the suite's
    /// `<system-err>`, which CI viewers show beside its tests.
    #[test]
    fn snapshot_of_an_unprotected_run() {
        let out = render(&unprotected());
        assert_eq!(first_hostile(&out), None, "{out}");
        assert!(
            out.contains(
                "<property name=\"unprotected.1\" value=\"processes a subject starts could outlive the run"
            ),
            "{out}"
        );
        assert!(out.contains("<system-err>NOT PROTECTED: "), "{out}");
        insta::assert_snapshot!(out);
    }

    fn shell(mut case: CaseReport) -> CaseReport {
        case.tool = Tool::Shell;
        case
    }

    #[test]
    fn one_suite_per_tool_with_counts_and_properties() {
        let r = report(
            "fake",
            vec![
                case("a", Status::Pass, &[]),
                failing("b", &["RES-8"]),
                shell(with_reason(case("c", Status::Unsupported, &[]), "no shell")),
                shell(with_reason(case("d", Status::AdapterError, &[]), "crashed")),
            ],
        );
        let out = render(&r);
        assert!(
            !out.contains("toolpath.grep"),
            "no suite without instances: {out}"
        );
        assert_eq!(out.matches("<testsuite ").count(), 2);
        assert_eq!(out.matches("</testsuite>").count(), 2);
        insta::assert_snapshot!(out);
    }

    #[test]
    fn failure_carries_the_diff() {
        let out = render(&report("fake", vec![failing("b", &["RES-8", "ERR-5"])]));
        assert!(out.contains(
            "<failure message=\"wrong answer [RES-8, ERR-5]\" type=\"fail\">--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n outcome: error\n-code: not_found\n+code: permission_denied\n</failure>"
        ), "{out}");
    }

    #[test]
    fn xpass_fails_only_when_strict() {
        let mut r = report("fake", vec![expected(case("x", Status::Xpass, &[]), "bug")]);
        let out = render(&r);
        assert!(!out.contains("<failure"), "{out}");
        assert!(out.contains("<system-out>xpass: passed, but the expectations file says it fails: bug</system-out>"), "{out}");
        r.strict = true;
        let out = render(&r);
        assert!(out.contains("<failure message=\"xpass: passed, but the expectations file says it fails: bug\" type=\"xpass\"/>"), "{out}");
    }

    #[test]
    fn skipped_message_names_the_status() {
        let cases = vec![
            with_reason(case("s", Status::Skip, &[]), "needs root"),
            with_reason(case("n", Status::NotRun, &[]), "given up"),
            expected(failing("x", &[]), "known bug"),
        ];
        let mut cases = cases;
        cases[2].status = Status::Xfail;
        let out = render(&report("fake", cases));
        assert!(
            out.contains("<skipped message=\"skip: needs root\"/>"),
            "{out}"
        );
        assert!(
            out.contains("<skipped message=\"not_run: given up\"/>"),
            "{out}"
        );
        assert!(
            out.contains("<skipped message=\"xfail: known bug\"/>\n      <system-out>--- expected"),
            "{out}"
        );
    }

    #[test]
    fn everything_from_the_report_is_escaped() {
        let mut bad = with_reason(case("a<&>\"b", Status::CaseError, &[]), "bad \"x\" <y>\nz");
        bad.file = "cases/we&ird.yaml".into();
        bad.stderr = Some("nul\u{0} esc\u{1b}[31m ]]> </system-err>".into());
        let mut r = report("fa\"ke & co", vec![bad]);
        r.adapter = Some("sh -c 'a < b'".into());
        let out = render(&r);
        assert!(out.contains("name=\"a&lt;&amp;&gt;&quot;b\""), "{out}");
        assert!(out.contains("classname=\"we&amp;ird\""), "{out}");
        assert!(
            out.contains(
                "<error message=\"bad &quot;x&quot; &lt;y&gt;&#10;z\" type=\"case_error\"/>"
            ),
            "{out}"
        );
        assert!(out.contains("value=\"fa&quot;ke &amp; co\""), "{out}");
        assert!(out.contains("value=\"sh -c 'a &lt; b'\""), "{out}");
        assert!(
            out.contains(
                "<system-err>nul\u{2400} esc\u{241b}[31m ]]&gt; &lt;/system-err&gt;</system-err>"
            ),
            "{out}"
        );
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out}");
    }

    #[test]
    fn escapes_and_rule_counts_are_properties_and_an_escape_says_so() {
        use crate::report::render::sample_reports::escape;
        let out = render(&report("x", vec![escape("e@grep", "answered ok")]));
        assert!(
            out.contains("<property name=\"containment.escapes\" value=\"1\"/>"),
            "{out}"
        );
        assert!(
            out.contains(
                "<property name=\"escape.1\" value=\"e@grep (cases/e.yaml:3): read: answered ok\"/>"
            ),
            "{out}"
        );
        assert!(
            out.contains("<property name=\"rule.SEC-4\" value=\"passed 0, failed 1 (0 xfail), "),
            "{out}"
        );
        assert!(
            out.contains("<failure message=\"escape: read: answered ok; wrong answer [SEC-4]\""),
            "{out}"
        );
    }

    #[test]
    fn classnames_follow_case_files() {
        assert_eq!(
            classname("cases/search/file-target.yaml"),
            "search.file-target"
        );
        assert_eq!(classname("other/x.yml"), "other.x");
        assert_eq!(classname("/abs/x.yaml"), "abs.x");
    }

    fn written(view: View) -> io::Result<String> {
        super::super::written(|out| write(view, out))
    }

    #[test]
    fn streamed_cases_render_as_in_memory_ones_in_a_pass_per_tool() {
        let mut strict = varied();
        strict.strict = true;
        strict.adapter = None;
        let one_tool = report("one", vec![failing("a", &[]), case("b", Status::Pass, &[])]);
        // varied (and strict, made from it) has escapes: one more pass
        // lists them.
        for (report, passes) in [
            (varied(), 2 + Tool::ALL.len()),
            (strict, 2 + Tool::ALL.len()),
            (one_tool, 2),
        ] {
            let spool = CountedSpool::new(report.cases.clone());
            let header = head(&report);
            let streamed = written(View::streamed(&header, &spool)).unwrap();
            assert_eq!(streamed, render(&report), "{}", report.implementation.name);
            assert_eq!(
                spool.passes.get(),
                passes,
                "a count, the escapes if any, then one per tool used"
            );
        }
        let empty = report("empty", Vec::new());
        assert_eq!(
            written(View::streamed(
                &head(&empty),
                &CountedSpool::new(Vec::new())
            ))
            .unwrap(),
            render(&empty)
        );
    }

    #[test]
    fn a_spool_that_cannot_be_read_is_an_error_in_any_pass() {
        let report = varied();
        let header = head(&report);
        for pass in [1, 2, 4] {
            let spool = CountedSpool::failing(report.cases.clone(), pass, 30);
            let err = written(View::streamed(&header, &spool)).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "pass {pass}");
        }
    }
}
