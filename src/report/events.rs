//! The event log: the run written down as it goes, one JSON line per event,
//! so a run that is killed (even with SIGKILL) leaves a usable partial
//! report. `toolpath compare` and `toolpath certification` read an event
//! log wherever they read a JSON report.
//!
//! Lines, in order: one `start` (who answers, what runs), one `case` per
//! judged instance, and one `end` when the run finished. A `case` line
//! carries the instance's `position` in the run's order, since instances
//! finish out of order when several run at once; a later `case` line with
//! the same position replaces an earlier one (a protocol violation found
//! after a case's answer is charged to that case this way). A log without
//! `end` is from a run that did not finish: it reads as partial. Each line
//! is written with one `write` call and is complete or absent, except
//! perhaps the last line of a killed run, which is ignored. Its schema is
//! published in `spec/schemas/event.schema.json`.
//!
//! The log is also where `toolpath run` keeps its case reports (every run
//! writes one in its run directory, besides any the user asked for): the
//! run holds only counts, and the reports are rendered by reading the log
//! back ([`Spool`]), so memory does not grow with the number of cases.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::protocol::Implementation;
use crate::report::sink::Sink;
use crate::report::view::CaseSource;
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
    Case(Box<CaseEvent>),
    /// The run finished (also when cancelled: then `partial` is true).
    End {
        partial: bool,
        duration_ms: f64,
        summary: Summary,
    },
}

/// One judged instance, and its place in the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CaseEvent {
    /// The instance's place in the run's order, from 0; absent in logs
    /// written before it was added (their cases are in the order written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<usize>,
    #[serde(flatten)]
    pub report: CaseReport,
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
    /// goes on; [`EventLog::complete`] says whether it happened.
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

impl Sink for EventLog {
    fn start(&self, head: &Report, total: usize) {
        self.write(&Event::Start {
            format: head.format,
            suite: head.suite.clone(),
            protocol: head.protocol,
            implementation: head.implementation.clone(),
            adapter: head.adapter.clone(),
            strict: head.strict,
            total,
        });
    }

    fn record(&self, position: usize, report: &CaseReport, _: bool) {
        self.write(&Event::Case(Box::new(CaseEvent {
            position: Some(position),
            report: report.clone(),
        })));
    }

    fn end(&self, head: &Report) {
        self.write(&Event::End {
            partial: head.partial,
            duration_ms: head.duration_ms,
            summary: head.summary,
        });
    }
}

/// A finished run's event log, read back in position order, as often as a
/// renderer needs: only where each position's latest line starts is held
/// (8 bytes an instance), never the reports.
pub struct Spool {
    path: PathBuf,
    /// Where the latest line of each position starts ([`Spool::MISSING`]
    /// if none: half the size of an `Option`).
    offsets: Vec<u64>,
}

impl Spool {
    const MISSING: u64 = u64::MAX;

    /// Indexes the log at `path`, of a run of `total` instances.
    pub fn open(path: &Path, total: usize) -> io::Result<Spool> {
        /// Just enough of a line to index it.
        #[derive(Deserialize)]
        struct Peek {
            event: String,
            position: Option<usize>,
        }
        let mut reader = BufReader::new(File::open(path)?);
        let mut offsets = vec![Spool::MISSING; total];
        let (mut offset, mut line) = (0u64, String::new());
        loop {
            line.clear();
            let read = reader.read_line(&mut line)?;
            if read == 0 {
                break;
            }
            let peek: Peek = serde_json::from_str(&line).map_err(|e| bad(path, offset, &e))?;
            if peek.event == "case" {
                let slot = peek
                    .position
                    .and_then(|p| offsets.get_mut(p))
                    .ok_or_else(|| bad(path, offset, &"a case line without a valid position"))?;
                *slot = offset;
            }
            offset += read as u64;
        }
        Ok(Spool {
            path: path.to_owned(),
            offsets,
        })
    }

    /// The report at `position`.
    pub fn case(&self, position: usize) -> io::Result<CaseReport> {
        let mut first = None;
        self.visit(position..position + 1, &mut |case| {
            first = Some(case.clone());
            Ok(())
        })?;
        Ok(first.expect("visited"))
    }

    fn visit(
        &self,
        positions: std::ops::Range<usize>,
        visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut reader = BufReader::new(File::open(&self.path)?);
        let (mut at, mut line) = (0u64, String::new());
        for position in positions {
            let offset = self.offsets[position];
            if offset == Spool::MISSING {
                return Err(io::Error::other(format!(
                    "{} has no report for instance {position} (the log could not be written whole)",
                    self.path.display()
                )));
            }
            // Relative seeks keep the buffer: lines written in order are read
            // with no system call each.
            reader.seek_relative(offset as i64 - at as i64)?;
            line.clear();
            at = offset + reader.read_line(&mut line)? as u64;
            match serde_json::from_str(&line).map_err(|e| bad(&self.path, offset, &e))? {
                Event::Case(case) => visit(&case.report)?,
                _ => return Err(bad(&self.path, offset, &"not a case line")),
            }
        }
        Ok(())
    }
}

impl CaseSource for Spool {
    fn each(&self, visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>) -> io::Result<()> {
        self.visit(0..self.offsets.len(), visit)
    }
}

fn bad(path: &Path, offset: u64, error: &dyn std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{} at byte {offset}: {error}", path.display()),
    )
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
                let CaseEvent { position, report } = *case;
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
    cases.sort_by_key(|(position, _)| *position);
    report.cases = cases.into_iter().map(|(_, case)| case).collect();
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

    /// A log written through the sink: instances finishing out of order,
    /// one amended after the fact.
    fn spooled(dir: &Path, skip: Option<usize>) -> PathBuf {
        let path = dir.join("events.jsonl");
        let log = EventLog::create(&path).unwrap();
        let head = crate::report::render::testing::report("x", Vec::new());
        log.start(&head, 3);
        for (position, id, status) in [
            (2, "c", Status::Pass),
            (0, "a", Status::Pass),
            (1, "b", Status::Fail),
        ] {
            if Some(position) != skip {
                let mut case = crate::report::render::testing::case(id, status, &[]);
                case.duration_ms = 1271.7055921705467;
                log.record(position, &case, false);
            }
        }
        let amended = crate::report::render::testing::case("a", Status::AdapterError, &[]);
        log.record(0, &amended, true);
        log.end(&head);
        assert!(log.complete());
        path
    }

    fn statuses(source: &dyn CaseSource) -> io::Result<Vec<(String, Status)>> {
        let mut seen = Vec::new();
        source.each(&mut |c| {
            seen.push((c.id.clone(), c.status));
            Ok(())
        })?;
        Ok(seen)
    }

    #[test]
    fn a_spool_reads_cases_in_position_order_with_the_latest_line_of_each() {
        let dir = tempfile::tempdir().unwrap();
        let spool = Spool::open(&spooled(dir.path(), None), 3).unwrap();
        let expected = [
            ("a".to_owned(), Status::AdapterError),
            ("b".to_owned(), Status::Fail),
            ("c".to_owned(), Status::Pass),
        ];
        // Every pass reads the same, as a renderer needs.
        assert_eq!(statuses(&spool).unwrap(), expected);
        assert_eq!(statuses(&spool).unwrap(), expected);
        assert_eq!(spool.case(1).unwrap().id, "b");
        // Reports rendered from the log must show the numbers the run had,
        // to the last bit (without exact float parsing, this one reads
        // back as 1271.7055921705469).
        assert_eq!(spool.case(2).unwrap().duration_ms, 1271.7055921705467);
        // The log read whole (`toolpath compare`) agrees.
        let text = std::fs::read_to_string(dir.path().join("events.jsonl")).unwrap();
        assert_eq!(statuses(&read(&text).unwrap().cases).unwrap(), expected);
    }

    #[test]
    fn a_spool_missing_an_instance_or_a_reader_that_stops_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let spool = Spool::open(&spooled(dir.path(), Some(1)), 3).unwrap();
        let err = statuses(&spool).unwrap_err().to_string();
        assert!(err.contains("no report for instance 1"), "{err}");
        let spool = Spool::open(&spooled(dir.path(), None), 3).unwrap();
        let stopped = spool.each(&mut |_| Err(io::Error::other("reader stopped")));
        assert_eq!(stopped.unwrap_err().to_string(), "reader stopped");
        // A position past the run's instances is a broken log, not a panic.
        assert!(Spool::open(&spooled(dir.path(), None), 2).is_err());
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
