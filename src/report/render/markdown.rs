//! The Markdown certification report: what an implementation's repository
//! commits, and what a CI job writes to its step summary.
//!
//! The output depends on nothing but the report's verdicts: no dates, no
//! durations, no fixture paths or adapter stderr (which carry temporary
//! directories and timings). Re-running an unchanged implementation then
//! gives a byte-identical file, so a diff of the committed file is a diff
//! of conformance.
//!
//! Requirements are judged by [`Conformance`](crate::report::conformance::Conformance),
//! not by the exit code: an expected failure is a failure to conform here,
//! however green the run was.
//!
//! It opens, after the facts (and a block saying why the verdict is not
//! protected, for a run whose subject could reach it), with containment:
//! the counts and every escape by id, before any per-rule table. Each rule's row counts what
//! its own checks found ([`rule_statuses`]); a rule nothing exercised is
//! listed with the reason.
//!
//! [`rule_statuses`]: crate::report::conformance::rule_statuses

use std::io::{self, Write};

use super::{containment, requirements, text};
use crate::report::conformance::{Conformance, RuleCounts, Tally};
use crate::report::view::View;
use crate::report::{CaseReport, ContainmentCounts, Report};
use toolpath_suite::sanitize::markdown;
use toolpath_suite::spec::{self, Requirement};

/// Failing instances detailed in full; past this a certification is a
/// to-do list, and the JSON report has the rest.
const MAX_DETAILS: usize = 50;
/// Diff lines per instance, from the top, where the first difference is.
const DIFF_LINES: usize = 60;

/// The certification report, against the requirements of this build's spec.
pub fn render(report: &Report) -> String {
    render_with(report, spec::requirements())
}

/// The certification report against the given requirements, as a string:
/// [`write_with`] on a report whose cases are in memory.
pub fn render_with(report: &Report, requirements: &[Requirement]) -> String {
    super::written(|out| write_with(View::of(report), requirements, out))
        .expect("a report in memory cannot fail to render")
}

/// The certification report of `view`, against this build's spec, written
/// to `out`.
pub fn write(view: View, out: &mut dyn Write) -> io::Result<()> {
    write_with(view, spec::requirements(), out)
}

/// The certification report against the given requirements. Every
/// requirement gets a row, including those no instance cited, so a filtered
/// run shows the gaps instead of a short, all-green table.
///
/// The cases are read in up to three passes: one to count (per
/// requirement and in all), one to list the escapes (only when the header
/// counts some), one to detail the first failing instances (only when
/// something fails). Memory grows with the number of requirement IDs and
/// the text of one instance, not with the number of instances.
pub fn write_with(view: View, requirements: &[Requirement], out: &mut dyn Write) -> io::Result<()> {
    let counts = Counts::of(view)?;
    let head = view.head;
    let mut text = String::new();
    let imp = &head.implementation;
    let title = format!("{} {}", imp.name, imp.version);
    text.push_str(&format!(
        "# toolpath certification: {}\n\n",
        markdown::text(title.trim())
    ));
    facts(&mut text, head, &counts.all);
    if head.partial {
        text.push_str(&format!(
            "> ⚠️ **PARTIAL RUN**: {} of {} instances did not run; each says why. \
             This report certifies nothing.\n\n",
            head.summary.not_run, head.summary.total
        ));
    }
    not_protected(&mut text, head);
    containment_section(&mut text, view)?;
    findings(&mut text, head);
    out.write_all(text.as_bytes())?;
    drop(text);
    requirements_table(out, &counts, requirements, head.subject())?;
    failures(out, view, counts.failing)
}

/// What the first pass over the cases learns.
struct Counts {
    /// Conformance over every instance.
    all: Tally,
    /// Conformance per requirement ID, as [`rule_statuses`] attributes it
    /// (an instance citing several requirements counts under each), and
    /// why a requirement nothing judged was not exercised.
    cited: RuleCounts,
    /// Instances that fail to conform.
    failing: usize,
}

impl Counts {
    fn of(view: View) -> io::Result<Counts> {
        let mut all = Tally::default();
        let mut counted = crate::report::counts::Counts::default();
        let mut failing = 0;
        view.cases.each(&mut |case| {
            all.add(case.status);
            counted.add(case);
            if Conformance::of(case.status) == Conformance::Fails {
                failing += 1;
            }
            Ok(())
        })?;
        Ok(Counts {
            all,
            cited: counted.rules,
            failing,
        })
    }
}

fn facts(out: &mut String, report: &Report, tally: &Tally) {
    let summary = &report.summary;
    let adapter = match &report.adapter {
        Some(command) => markdown::code(command),
        None => "built-in reference".to_owned(),
    };
    let strict = if report.strict { ", strict" } else { "" };
    out.push_str(&format!(
        "- **Implementation:** {}\n",
        markdown::text(&text::implementation(&report.implementation))
    ));
    let subject = match report.subject() {
        "server" => "Server",
        _ => "Adapter",
    };
    out.push_str(&format!("- **{subject}:** {adapter}\n"));
    out.push_str(&format!(
        "- **Suite:** {} (protocol {}{strict})\n",
        markdown::text(&report.suite),
        report.protocol
    ));
    if let Some(record) = &report.run_against {
        out.push_str(&format!("- **Run against:** {}\n", record.markdown()));
    }
    if let Some(part) = report.selection.describe() {
        out.push_str(&format!(
            "- **Selection:** {} (part of the suite)\n",
            markdown::text(&part)
        ));
    }
    // Shown, never compared: it varies from run to run (a page compared
    // with a fresh one leaves out the line ending with TIMING_WORDS).
    out.push_str(&format!("- **Time:** {}\n", report.timing()));
    out.push_str(&format!(
        "- **Conformance:** {} of {} applicable instances pass\n",
        tally.passed,
        tally.applicable()
    ));
    out.push_str(&format!(
        "- **Instances:** {} passed, {} failed, {} not observable, {} skipped, {} unsupported, \
         {} adapter errors, {} case errors, {} xfailed, {} xpassed, {} not run ({} in all)\n\n",
        summary.pass,
        summary.fail,
        summary.unobserved,
        summary.skip,
        summary.unsupported,
        summary.adapter_error,
        summary.case_error,
        summary.xfail,
        summary.xpass,
        summary.not_run,
        summary.total
    ));
}

/// The server's findings: kind, count and the instances, sorted. The
/// first occurrence's text is left to the other formats: it names the
/// run's temporary directories, and this file must not change between
/// runs of an unchanged server.
fn findings(out: &mut String, report: &Report) {
    if report.findings.is_empty() {
        return;
    }
    out.push_str("## Server findings\n\n");
    for finding in &report.findings {
        out.push_str(&format!(
            "- **{}**",
            markdown::text(&text::finding(finding))
        ));
        if !finding.cases.is_empty() {
            out.push_str(&format!(
                ", during {}",
                markdown::text(&text::finding_cases(finding))
            ));
        }
        out.push('\n');
    }
    out.push('\n');
}

/// Why the verdict is not protected, when it is not, as a block near the
/// top that no reader of the page (or of a row certified from it) can
/// miss; nothing for a protected run.
fn not_protected(out: &mut String, report: &Report) {
    if report.unprotected.is_empty() {
        return;
    }
    out.push_str(&format!(
        "> ⚠️ **NOT PROTECTED**: {}:\n>\n",
        text::NOT_PROTECTED
    ));
    for gap in &report.unprotected {
        out.push_str(&format!("> - {}\n", markdown::text(gap)));
    }
    out.push('\n');
}

/// The containment counts and every escape by id (the second pass, made
/// only when the header counts escapes).
fn containment_section(out: &mut String, view: View) -> io::Result<()> {
    let c: &ContainmentCounts = &view.head.containment;
    out.push_str("## Containment\n\n");
    let expected = match c.escapes_expected {
        0 => String::new(),
        n => format!(" ({n} expected)"),
    };
    out.push_str(&containment::markdown_head(&[]));
    let escapes = format!("{}{expected}", c.escapes);
    out.push_str(&containment::markdown_row(&[], c, &escapes));
    out.push('\n');
    let (escapes, total) = containment::escapes(view)?;
    if total > 0 {
        out.push_str(&format!("### ⛔ Escapes ({total})\n\n"));
        for escape in &escapes {
            out.push_str(&format!(
                "- {} ({}): {}",
                markdown::code(&escape.id),
                markdown::code(&format!("{}:{}", escape.file, escape.line)),
                markdown::text(&escape.evidence)
            ));
            if let Some(reason) = &escape.expected {
                out.push_str(" — expected (xfail)");
                if !reason.is_empty() {
                    out.push_str(&format!(": {}", markdown::text(reason)));
                }
            }
            out.push('\n');
        }
        if let Some(more) = containment::more(escapes.len(), total) {
            out.push_str(&format!("- {}\n", markdown::text(&more)));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "{}. {}\n\n",
        super::containment::ESCAPE_DEFINITION,
        super::containment::REFUSALS_DEFINITION
    ));
    Ok(())
}

/// The table, a row at a time, then what was not exercised: written as
/// it goes, so what is held does not depend on how large the counts are.
fn requirements_table(
    out: &mut dyn Write,
    counts: &Counts,
    requirements: &[Requirement],
    subject: &str,
) -> io::Result<()> {
    let cited = &counts.cited;
    out.write_all(
        "## Requirements\n\n\
         | ID | area | requirement | passed | failed | not observable | unsupported | skipped | verdict |\n\
         |---|---|---|---:|---:|---:|---:|---:|:---:|\n"
            .as_bytes(),
    )?;
    let rows = requirements::rows(requirements, cited.keys().map(String::as_str));
    let mut unexercised = 0;
    for req in &rows {
        let count = cited.get(req.id);
        let tally = count.map(|c| c.tally).unwrap_or_default();
        let summary = match req.summary {
            Some(summary) => text::md_cell(summary),
            None => "*(not in this build's spec)*".to_owned(),
        };
        let mut line = String::new();
        row(&mut line, req.id, req.area, &summary, tally);
        out.write_all(line.as_bytes())?;
        unexercised += usize::from(requirements::unexercised(req, count).is_some());
    }
    out.write_all(
        format!(
            "\n✅ every applicable instance passes · ❌ at least one fails (expected failures \
             and adapter errors included) · 👁 not observable: every instance agreed only on \
             the fields the {subject} can {}, so the requirement is not shown as passed · \
             ➖ nothing applicable: no instance ran, or all were unsupported or skipped\n\n",
            if subject == "server" {
                "show"
            } else {
                "observe"
            }
        )
        .as_bytes(),
    )?;
    if unexercised == 0 {
        return Ok(());
    }
    writeln!(out, "## Not exercised ({unexercised})\n")?;
    for req in &rows {
        if let Some(reason) = requirements::unexercised(req, cited.get(req.id)) {
            writeln!(
                out,
                "- **{}**: {}",
                markdown::text(req.id),
                markdown::text(&reason)
            )?;
        }
    }
    out.write_all(b"\n")
}

fn row(out: &mut String, id: &str, area: &str, summary: &str, tally: Tally) {
    let failed = if tally.xfail > 0 {
        format!("{} ({} xfail)", tally.failed, tally.xfail)
    } else {
        tally.failed.to_string()
    };
    out.push_str(&format!(
        "| {} | {} | {summary} | {} | {failed} | {} | {} | {} | {} |\n",
        markdown::text(id),
        markdown::text(area),
        tally.passed,
        tally.unobserved,
        tally.unsupported,
        tally.skipped,
        tally.standing().symbol()
    ));
}

/// The first [`MAX_DETAILS`] of the `failing` instances in full, read in
/// a second pass (skipped when nothing fails).
fn failures(out: &mut dyn Write, view: View, failing: usize) -> io::Result<()> {
    if failing == 0 {
        return Ok(());
    }
    writeln!(out, "## Failing instances ({failing})")?;
    let mut shown = 0;
    view.cases.each(&mut |case| {
        if shown < MAX_DETAILS && Conformance::of(case.status) == Conformance::Fails {
            shown += 1;
            let mut text = String::new();
            detail(&mut text, case);
            out.write_all(text.as_bytes())?;
        }
        Ok(())
    })?;
    if failing > MAX_DETAILS {
        write!(
            out,
            "\n…and {} more failing instances; the JSON report has them all.\n",
            failing - MAX_DETAILS
        )?;
    }
    Ok(())
}

fn detail(out: &mut String, case: &CaseReport) {
    out.push_str(&format!(
        "\n### {} ({})\n\n",
        markdown::code(&case.id),
        case.status.name()
    ));
    out.push_str(&format!(
        "- **Case:** {}\n",
        markdown::code(&format!("{}:{}", case.file, case.line))
    ));
    if !case.spec.is_empty() {
        out.push_str(&format!(
            "- **Spec:** {}\n",
            markdown::text(&case.spec.join(", "))
        ));
    }
    if let Some(reason) = &case.reason {
        out.push_str(&format!("- **Reason:** {}\n", markdown::text(reason)));
    }
    if let Some(news) = case.containment.as_ref().and_then(|c| c.news()) {
        out.push_str(&format!("- **Containment:** {}\n", markdown::text(&news)));
    }
    if let Some(note) = &case.expectation {
        let mut line = markdown::text(&note.reason);
        if let Some(issue) = &note.issue {
            line.push_str(&format!(" ({})", markdown::text(issue)));
        }
        out.push_str(&format!("- **Expected to fail:** {line}\n"));
    }
    if let Some(diff) = case.diff.as_deref().filter(|d| !d.is_empty()) {
        let (lines, omitted) = text::head_lines(diff, DIFF_LINES);
        let mut body = lines.join("\n");
        if omitted > 0 {
            body.push_str(&format!("\n… {omitted} more lines in the JSON report"));
        }
        out.push('\n');
        out.push_str(&markdown::fence("diff", &body));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;
    use crate::report::render::sample_reports::{
        CountedSpool, broken, case, expected, failing, head, hostile, report, unprotected, varied,
        with_reason,
    };
    use toolpath_suite::sanitize::first_hostile;

    fn reqs() -> Vec<Requirement> {
        spec::parse_requirements(
            "- **RES-1** Empty means none. More.\n- **RES-2** Joined `a|b`.\n- **SEC-1** Real paths.\n",
        )
    }

    /// The whole certification report of a deliberately broken run,
    /// reviewed in the snapshot; the tests below pin one rule each.
    #[test]
    fn snapshot_of_a_broken_run() {
        let mut report = broken();
        report.run_against = Some(crate::report::render::sample_reports::run_against());
        insta::assert_snapshot!(render_with(&report, &reqs()));
    }

    /// Every field an adapter or case file controls: shown, quoted, and
    /// never acted on by a Markdown viewer or a terminal.
    #[test]
    fn snapshot_of_hostile_text() {
        let out = render_with(&hostile(), &reqs());
        assert_eq!(first_hostile(&out), None, "{out}");
        // Markup is quoted in prose; in code spans and fences it is inert.
        assert!(out.contains("- **Reason:** reason:␛\\[2J\\|"), "{out}");
        assert!(out.contains("\\<b\\>\\*\\_\\`\\|\\&amp;"), "{out}");
        insta::assert_snapshot!(out);
    }

    #[test]
    fn header_names_everything_and_its_one_line_of_time_is_all_that_varies() {
        let r = report("fake", vec![case("a", Status::Pass, &["RES-1"])]);
        let out = render_with(&r, &reqs());
        assert!(
            out.starts_with("# toolpath certification: fake 1.2.3\n\n"),
            "{out}"
        );
        assert!(
            out.contains("- **Adapter:** `python3 adapter.py`\n"),
            "{out}"
        );
        assert!(out.contains("- **Suite:** 0.3.0 (protocol 1)\n"), "{out}");
        assert!(
            out.contains("- **Conformance:** 1 of 1 applicable instances pass\n"),
            "{out}"
        );
        assert!(
            out.contains("- **Time:** 0.4 s, 0.0 s (0%) waiting on timeouts and restarts\n"),
            "{out}"
        );
        let mut other = r.clone();
        other.duration_ms = 9999.0;
        other.waited_ms = 4000.0;
        other.workers = 2;
        other.cases[0].duration_ms = 77.0;
        other.cases[0].fixture = Some("/tmp/x".into());
        let varied = render_with(&other, &reqs());
        assert!(
            varied.contains("- **Time:** 10.0 s, 4.0 s (20%) waiting on timeouts and restarts\n"),
            "{varied}"
        );
        assert_eq!(
            crate::report::without_timing(&varied),
            crate::report::without_timing(&out),
            "deterministic but for its time"
        );
        assert_eq!(
            crate::report::without_timing(&out).lines().count() + 1,
            out.lines().count(),
            "one line of time"
        );
    }

    #[test]
    fn one_row_per_requirement_with_verdicts() {
        let cases = vec![
            case("a", Status::Pass, &["RES-1"]),
            case("b", Status::Pass, &["RES-1", "RES-2"]),
            expected(case("c", Status::Xfail, &["RES-2"]), "bug"),
            with_reason(case("d", Status::Unsupported, &["RES-2"]), "no"),
            case("e", Status::Skip, &["SEC-1"]),
            case("f", Status::Pass, &["OLD-9"]),
            case("g", Status::Unobserved, &["SEC-2"]),
            case("h", Status::Unobserved, &["SEC-1"]),
        ];
        let out = render_with(&report("fake", cases), &reqs());
        assert!(
            out.contains("| RES-1 | RES | Empty means none. | 2 | 0 | 0 | 0 | 0 | ✅ |\n"),
            "{out}"
        );
        assert!(
            out.contains("| RES-2 | RES | Joined `a\\|b`. | 1 | 1 (1 xfail) | 0 | 1 | 0 | ❌ |\n"),
            "{out}"
        );
        assert!(
            out.contains("| SEC-1 | SEC | Real paths. | 0 | 0 | 1 | 0 | 1 | 👁 |\n"),
            "a requirement nothing observed is not shown as passed: {out}"
        );
        assert!(
            out.contains(
                "| OLD-9 | OLD | *(not in this build's spec)* | 1 | 0 | 0 | 0 | 0 | ✅ |\n"
            ),
            "{out}"
        );
    }

    #[test]
    fn containment_comes_before_the_requirements_and_escapes_are_listed() {
        use crate::report::render::sample_reports::escape;
        let mut known = expected(escape("b@ls", "answered ok"), "known");
        known.status = Status::Xfail;
        let r = report(
            "fake",
            vec![
                escape("a@grep", "changed outside every root: + {tmp}/x (file)"),
                known,
                case("c", Status::Pass, &["RES-1"]),
            ],
        );
        let out = render_with(&r, &reqs());
        let containment = out.find("## Containment\n").unwrap();
        assert!(
            containment < out.find("## Requirements\n").unwrap(),
            "{out}"
        );
        assert!(
            out.contains("| 2 (1 expected) | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |\n"),
            "{out}"
        );
        assert!(
            out.contains(
                "### ⛔ Escapes (2)\n\n- `a@grep` (`cases/a.yaml:3`): write: changed outside every root: \
                 + {tmp}/x (file)\n- `b@ls` (`cases/b.yaml:3`): read: answered ok — expected (xfail): known\n"
            ),
            "{out}"
        );
    }

    #[test]
    fn rules_nothing_exercised_are_listed_with_the_reason() {
        let cases = vec![
            case("a", Status::Pass, &["RES-1"]),
            with_reason(
                case("b", Status::Unsupported, &["SEC-1"]),
                "the adapter does not declare the `symlinks` feature",
            ),
        ];
        let out = render_with(&report("fake", cases), &reqs());
        assert!(
            out.contains(
                "## Not exercised (2)\n\n- **RES-2**: no selected instance cites it\n\
                 - **SEC-1**: the adapter does not declare the \\`symlinks\\` feature\n"
            ),
            "{out}"
        );
    }

    #[test]
    fn failing_instances_are_detailed_with_their_diff() {
        let mut bad = failing("search-x@grep", &["SEARCH-5"]);
        bad.stderr = Some("secret /tmp/path".into());
        let out = render_with(
            &report("fake", vec![bad, case("ok", Status::Pass, &[])]),
            &reqs(),
        );
        assert!(
            !out.contains("/tmp/path"),
            "stderr is machine-specific: {out}"
        );
        insta::assert_snapshot!(out);
    }

    #[test]
    fn long_diffs_and_long_lists_are_cut() {
        let mut cases = Vec::new();
        for i in 0..(MAX_DETAILS + 2) {
            let mut c = failing(&format!("c{i}"), &[]);
            c.diff = Some((0..100).map(|n| format!("-{n}\n")).collect());
            cases.push(c);
        }
        let out = render_with(&report("fake", cases), &reqs());
        assert!(
            out.contains("… 40 more lines in the JSON report\n```"),
            "{out}"
        );
        assert!(out.contains("…and 2 more failing instances"), "{out}");
        assert_eq!(out.matches("\n### ").count(), MAX_DETAILS);
    }

    #[test]
    fn markup_in_report_text_is_neutralised() {
        let mut bad = with_reason(
            case("a", Status::AdapterError, &[]),
            "<img src=x> *boom* | ```",
        );
        bad.diff = Some("-```\n+x\n".into());
        let out = render_with(&report("fa*ke", vec![bad]), &reqs());
        assert!(
            out.contains("# toolpath certification: fa\\*ke 1.2.3"),
            "{out}"
        );
        assert!(
            out.contains("- **Reason:** \\<img src=x\\> \\*boom\\* \\| \\`\\`\\`\n"),
            "{out}"
        );
        assert!(out.contains("````diff\n-```\n+x\n````\n"), "{out}");
    }

    /// A run whose subject could reach its verdict says so near the top,
    /// each reason quoted as foreign text, before anything is counted.
    #[test]
    fn snapshot_of_an_unprotected_run() {
        let out = render_with(&unprotected(), &reqs());
        assert_eq!(first_hostile(&out), None, "{out}");
        let block = out
            .find("> ⚠️ **NOT PROTECTED**")
            .unwrap_or_else(|| panic!("no block: {out}"));
        assert!(block < out.find("## Containment").unwrap(), "{out}");
        assert!(
            out.contains("> - processes a subject starts could outlive the run"),
            "{out}"
        );
        insta::assert_snapshot!(out);
    }

    #[test]
    fn partial_run_is_flagged() {
        let mut r = report("fake", vec![case("a", Status::NotRun, &[])]);
        r.partial = true;
        let out = render_with(&r, &reqs());
        assert!(
            out.contains("> ⚠️ **PARTIAL RUN**: 1 of 1 instances did not run; each says why."),
            "{out}"
        );
    }

    #[test]
    fn renders_against_the_embedded_spec() {
        let out = render(&report("fake", vec![case("a", Status::Pass, &["RES-1"])]));
        for requirement in spec::requirements() {
            assert!(
                out.contains(&format!("| {} |", requirement.id)),
                "{}",
                requirement.id
            );
        }
    }

    fn written(view: View) -> io::Result<String> {
        super::super::written(|out| write_with(view, &reqs(), out))
    }

    #[test]
    fn streamed_cases_render_as_in_memory_ones_in_two_passes() {
        for partial in [true, false] {
            let mut report = varied();
            report.partial = partial;
            let spool = CountedSpool::new(report.cases.clone());
            let header = head(&report);
            let streamed = written(View::streamed(&header, &spool)).unwrap();
            assert_eq!(streamed, render_with(&report, &reqs()));
            assert_eq!(spool.passes.get(), 3, "count, escapes, then detail");
            assert!(streamed.contains("| ZZZ-9 | ZZZ |"), "{streamed}");
            assert!(
                streamed.contains("…and 14 more failing instances"),
                "{streamed}"
            );
        }
        let passing = report("fake", vec![case("a", Status::Pass, &["RES-1"])]);
        let spool = CountedSpool::new(passing.cases.clone());
        let header = head(&passing);
        let streamed = written(View::streamed(&header, &spool)).unwrap();
        assert_eq!(streamed, render_with(&passing, &reqs()));
        assert_eq!(spool.passes.get(), 1, "nothing fails, nothing to detail");
    }

    #[test]
    fn a_spool_that_cannot_be_read_is_an_error_in_either_pass() {
        let report = varied();
        let header = head(&report);
        for pass in [1, 2] {
            let spool = CountedSpool::failing(report.cases.clone(), pass, 3);
            let err = written(View::streamed(&header, &spool)).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "pass {pass}");
        }
    }
}
