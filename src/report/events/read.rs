//! A plain event log read back into the report it stands for (what
//! `toolpath compare` and `toolpath certification` read wherever they read
//! a JSON report).

use super::{CaseEvent, Event};
use crate::report::{CaseReport, Report};

/// Whether `text` looks like an event log rather than a JSON report.
pub fn is_event_log(text: &str) -> bool {
    text.trim_start().starts_with("{\"event\"")
}

/// The report an event log stands for. A log without `end` (a killed run)
/// gives a partial report of the cases judged so far.
pub fn read(text: &str) -> Result<Report, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut report: Option<Report> = None;
    // Each case with its position (or, in older logs, its place in the log),
    // and where each position or id is in `cases`: a log of a big run is
    // read in linear time.
    let mut cases: Vec<(usize, CaseReport)> = Vec::new();
    let mut seen: std::collections::HashMap<Result<usize, String>, usize> =
        std::collections::HashMap::new();
    let mut ended = false;
    for (i, line) in lines.iter().enumerate() {
        let event: Event = match serde_json::from_str(line) {
            Ok(event) => event,
            // The last line of a killed run may be cut short.
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => break,
            Err(e) => return Err(format!("line {}: not an event ({e})", i + 1)),
        };
        match (event, report.as_mut()) {
            (start @ Event::Start { .. }, None) => report = Some(header(start)),
            (Event::Case(case), Some(_)) => {
                let CaseEvent {
                    position,
                    mut report,
                } = *case;
                crate::report::upgrade::resolve_filed_as_list(&mut report);
                let key = position.ok_or_else(|| report.id.clone());
                match seen.get(&key) {
                    Some(&at) => cases[at].1 = report,
                    None => {
                        seen.insert(key, cases.len());
                        cases.push((position.unwrap_or(cases.len()), report));
                    }
                }
            }
            (
                Event::End {
                    partial,
                    duration_ms,
                    waited_ms,
                    workers,
                    findings,
                    profile_rules,
                    ..
                },
                Some(r),
            ) => {
                r.partial = partial;
                r.duration_ms = duration_ms;
                r.waited_ms = waited_ms;
                r.workers = workers;
                r.findings = findings;
                r.profile_rules = profile_rules;
                ended = true;
            }
            (_, _) => return Err(format!("line {}: out of order", i + 1)),
        }
    }
    let mut report = report.ok_or("no `start` event")?;
    cases.sort_by_key(|(position, _)| *position);
    report.cases = cases.into_iter().map(|(_, case)| case).collect();
    report.partial |= !ended;
    report.recount();
    Ok(report)
}

fn header(start: Event) -> Report {
    let Event::Start {
        format,
        suite,
        protocol,
        implementation,
        adapter,
        strict,
        selection,
        run_against,
        unprotected,
        ..
    } = start
    else {
        unreachable!("called with a start event")
    };
    // The log's own versions, whatever this build's are.
    Report {
        format,
        suite,
        protocol,
        partial: true,
        ..Report::head(
            implementation,
            adapter,
            strict,
            selection,
            run_against,
            unprotected,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{ContainmentCounts, Status, Summary};
    use toolpath_suite::protocol::{Implementation, Tool};

    fn case(id: &str, status: Status) -> String {
        let report = CaseReport {
            id: id.into(),
            case: id.into(),
            tool: Tool::Resolve,
            file: "a.yaml".into(),
            line: 1,
            spec: vec![],
            tags: vec![],
            status,
            reason: None,
            mismatches: vec![],
            diff: None,
            unchecked: vec![],
            expectation: None,
            stderr: None,
            fixture: None,
            containment: None,
            duration_ms: 1.0,
        };
        serde_json::to_string(&Event::Case(Box::new(CaseEvent {
            position: None,
            report,
        })))
        .unwrap()
    }

    fn start() -> String {
        serde_json::to_string(&Event::Start {
            format: 1,
            suite: "0.1.0".into(),
            protocol: 1,
            implementation: Implementation::default(),
            adapter: None,
            strict: false,
            total: 3,
            selection: Default::default(),
            run_against: None,
            unprotected: Vec::new(),
        })
        .unwrap()
    }

    #[test]
    fn a_killed_run_reads_as_partial_with_the_cases_judged_so_far() {
        // The last line was cut short by the kill.
        let text = format!(
            "{}\n{}\n{}\n{{\"event\":\"ca",
            start(),
            case("a", Status::Pass),
            case("b", Status::Fail)
        );
        let report = read(&text).unwrap();
        assert!(report.partial);
        assert_eq!(report.summary.pass, 1);
        assert_eq!(report.summary.fail, 1);
    }

    #[test]
    fn a_later_line_for_a_case_replaces_the_earlier_one() {
        let end = serde_json::to_string(&Event::End {
            partial: false,
            duration_ms: 5.0,
            waited_ms: 0.0,
            workers: 1,
            summary: Summary::default(),
            findings: Vec::new(),
            profile_rules: Vec::new(),
            containment: ContainmentCounts::default(),
        })
        .unwrap();
        let text = format!(
            "{}\n{}\n{}\n{end}\n",
            start(),
            case("a", Status::Pass),
            case("a", Status::AdapterError)
        );
        let report = read(&text).unwrap();
        assert!(!report.partial);
        assert_eq!(report.cases.len(), 1);
        assert_eq!(report.cases[0].status, Status::AdapterError);
    }

    /// A run's findings and profile rule counts travel in its `end` line
    /// and come back in the report.
    #[test]
    fn findings_are_read_back_from_the_end_line() {
        use crate::report::findings::{Finding, FindingKind};
        use crate::report::profile_rules::RuleUse;
        let rule = RuleUse {
            applied: 3,
            ..RuleUse::new("errors.codes[0]".into(), "errno ENOENT".into(), false)
        };
        let finding = Finding {
            kind: FindingKind::NeverAnswered,
            count: 2,
            example: "tools/call left open".into(),
            cases: vec!["a".into()],
            more_cases: 0,
        };
        let end = serde_json::to_string(&Event::End {
            partial: false,
            duration_ms: 5.0,
            waited_ms: 0.0,
            workers: 1,
            summary: Summary::default(),
            findings: vec![finding.clone()],
            profile_rules: vec![rule.clone()],
            containment: ContainmentCounts::default(),
        })
        .unwrap();
        let text = format!("{}\n{}\n{end}\n", start(), case("a", Status::Fail));
        let report = read(&text).unwrap();
        assert_eq!(report.findings, [finding]);
        assert_eq!(report.profile_rules, [rule]);
    }

    /// A log says whether the run's verdict was protected, as its JSON
    /// report does: a certification made from the log of an unprotected
    /// run must not read as protected.
    #[test]
    fn a_log_written_by_a_run_keeps_why_its_verdict_is_not_protected() {
        use crate::report::sink::Sink;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        let log = crate::report::events::EventLog::create(&path).unwrap();
        let mut head = crate::report::render::sample_reports::report("x", Vec::new());
        head.unprotected = vec!["no PID namespace".into(), "run as root".into()];
        log.start(&head, 0);
        log.end(&head);
        let report = read(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(report.unprotected, head.unprotected);
        // A protected run's log says nothing of it, as before.
        head.unprotected.clear();
        let log = crate::report::events::EventLog::create(&path).unwrap();
        log.start(&head, 0);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("unprotected"), "{text}");
    }

    #[test]
    fn a_broken_line_before_the_last_is_an_error_with_its_number() {
        let text = format!("{}\nnot json\n{}\n", start(), case("a", Status::Pass));
        assert!(read(&text).unwrap_err().starts_with("line 2:"));
        assert!(
            read(&case("a", Status::Pass))
                .unwrap_err()
                .contains("out of order")
        );
    }
}
