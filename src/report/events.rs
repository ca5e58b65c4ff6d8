//! The event log: the run written down as it goes, one JSON line per event,
//! so a run that is killed (even with SIGKILL) leaves a usable partial
//! report. `toolpath compare` and `toolpath certification` read an event
//! log wherever they read a JSON report.
//!
//! Lines, in order: one `start` (who answers, what runs), one `case` per
//! judged instance (a later `case` line with the same `id` replaces an
//! earlier one: a protocol violation found after a case's answer is charged
//! to that case this way), and one `end` when the run finished. A log
//! without `end` is from a run that did not finish: it reads as partial.
//! Each line is written with one `write` call and is complete or absent,
//! except perhaps the last line of a killed run, which is ignored. Its
//! schema is published in `spec/schemas/event.schema.json`.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::protocol::Implementation;
use crate::report::{CaseReport, Report, Summary};

/// One line of the event log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The run started; the report's header fields.
    Start {
        format: u32,
        suite: String,
        protocol: u32,
        implementation: Implementation,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        adapter: Option<String>,
        strict: bool,
        /// Instances selected.
        total: usize,
    },
    /// One instance, judged.
    Case(Box<CaseReport>),
    /// The run finished (also when cancelled: then `partial` is true).
    End {
        partial: bool,
        duration_ms: f64,
        summary: Summary,
    },
}

/// An event log being written.
pub struct EventLog {
    path: PathBuf,
    file: Mutex<File>,
    failed: AtomicBool,
}

impl EventLog {
    /// Creates (or truncates) the log at `path`.
    pub fn create(path: &Path) -> io::Result<EventLog> {
        Ok(EventLog {
            path: path.to_owned(),
            file: Mutex::new(File::create(path)?),
            failed: AtomicBool::new(false),
        })
    }

    /// Appends one event. A failure is reported once on stderr and the run
    /// goes on: the final reports do not depend on the log.
    pub fn write(&self, event: &Event) {
        let mut line = serde_json::to_string(event).expect("events serialise");
        line.push('\n');
        let written = self
            .file
            .lock()
            .expect("event log")
            .write_all(line.as_bytes());
        if let Err(e) = written
            && !self.failed.swap(true, Ordering::SeqCst)
        {
            eprintln!("toolpath: cannot write {}: {e}", self.path.display());
        }
    }

    /// Whether every event was written.
    pub fn complete(&self) -> bool {
        !self.failed.load(Ordering::SeqCst)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Whether `text` looks like an event log rather than a JSON report.
pub fn is_event_log(text: &str) -> bool {
    text.trim_start().starts_with("{\"event\"")
}

/// The report an event log stands for. A log without `end` (a killed run)
/// gives a partial report of the cases judged so far.
pub fn read(text: &str) -> Result<Report, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut report: Option<Report> = None;
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
            (Event::Case(case), Some(r)) => match r.cases.iter_mut().find(|c| c.id == case.id) {
                Some(old) => *old = *case,
                None => r.cases.push(*case),
            },
            (
                Event::End {
                    partial,
                    duration_ms,
                    ..
                },
                Some(r),
            ) => {
                r.partial = partial;
                r.duration_ms = duration_ms;
                ended = true;
            }
            (_, _) => return Err(format!("line {}: out of order", i + 1)),
        }
    }
    let mut report = report.ok_or("no `start` event")?;
    report.partial |= !ended;
    report.summary = Summary::of(&report.cases);
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
        ..
    } = start
    else {
        unreachable!("called with a start event")
    };
    Report {
        format,
        suite,
        protocol,
        implementation,
        adapter,
        partial: true,
        strict,
        duration_ms: 0.0,
        fixture_dir: None,
        summary: Summary::default(),
        cases: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Tool;
    use crate::report::Status;

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
            duration_ms: 1.0,
        };
        serde_json::to_string(&Event::Case(Box::new(report))).unwrap()
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
            summary: Summary::default(),
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
