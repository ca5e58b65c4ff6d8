//! The event log: the run written down as it goes, one JSON line per event,
//! so a run that is killed (even with SIGKILL) leaves a partial report.
//! `toolpath compare` and `toolpath certification` read an event log
//! wherever they read a JSON report.
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
//! `toolpath run` writes the log into its run directory as it goes (the
//! spool): the run holds only counts, and the reports are rendered by
//! reading the log back ([`Spool`]), so memory does not grow with the
//! number of cases.
//!
//! The spool is sealed ([`crate::report::seal`]): each line is followed by
//! a tab and an HMAC of its line number and bytes, under a key that exists
//! only in the harness process. Adapters run as the same user and can find
//! and rewrite files in the run directory; a spool they changed does not
//! verify and is refused, so no adapter can turn its failures into passes.
//!
//! The copy a user asks for (`--events`) is plain JSON Lines. It is written
//! as the run goes, so that a run killed even with SIGKILL leaves a usable
//! partial report, and replaced whole at delivery, after every adapter
//! ended, by a copy made from the verified spool ([`Spool::write_plain`]):
//! nothing an adapter wrote into it meanwhile survives a run that ends. A
//! copy left by a run that did not end is evidence of what it judged, no
//! more: an adapter, running as the user, could have written it, as it
//! could any of the user's files.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::report::seal::SpoolKey;
use crate::report::sink::Sink;
use crate::report::view::CaseSource;
use crate::report::{CaseReport, ContainmentCounts, Report, Summary};
use toolpath_suite::protocol::Implementation;

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
        /// The part of the suite selected (absent: the whole suite).
        #[serde(default, skip_serializing_if = "crate::report::Selected::is_whole")]
        selection: crate::report::Selected,
        /// What the run is made against (absent: not recorded).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        run_against: Option<crate::report::RunAgainst>,
    },
    /// One instance, judged.
    Case(Box<CaseEvent>),
    /// The run finished (also when cancelled: then `partial` is true).
    End {
        partial: bool,
        duration_ms: f64,
        /// `Report::waited_ms` (absent from logs written before it).
        #[serde(default)]
        waited_ms: f64,
        /// `Report::workers` (absent from logs written before it: 1).
        #[serde(default = "crate::report::one_worker")]
        workers: usize,
        summary: Summary,
        /// The run's findings (`Report::findings`); absent when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        findings: Vec<crate::report::findings::Finding>,
        /// An MCP profile's rule counts (`Report::profile_rules`); absent
        /// when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        profile_rules: Vec<crate::report::profile_rules::RuleUse>,
        /// The containment counts (absent from logs written before them).
        #[serde(default)]
        containment: ContainmentCounts,
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

/// An event log being written: the run's own spool, each line of which is
/// followed by a tab and its seal ([`SpoolKey`]), or the user's live copy
/// (`--events`, plain JSON Lines), replaced at delivery by one made from
/// the verified spool ([`Spool::write_plain`]).
pub struct EventLog {
    path: PathBuf,
    file: Mutex<Lines>,
    failed: AtomicBool,
    seal: Option<SpoolKey>,
}

/// The file, and how many lines were written to it whole.
struct Lines {
    file: File,
    written: u64,
}

impl EventLog {
    /// Creates (or truncates) a plain log at `path`: the user's live copy,
    /// which anyone who can write the file can change until the run
    /// replaces it.
    pub fn create(path: &Path) -> io::Result<EventLog> {
        Ok(EventLog::over(File::create(path)?, path, None))
    }

    /// The run's own spool, written to `file` (shown as `path`), each line
    /// sealed with `key`. Read it back with [`Spool::open`].
    pub fn sealed(file: File, path: &Path, key: SpoolKey) -> EventLog {
        EventLog::over(file, path, Some(key))
    }

    fn over(file: File, path: &Path, seal: Option<SpoolKey>) -> EventLog {
        EventLog {
            path: path.to_owned(),
            file: Mutex::new(Lines { file, written: 0 }),
            failed: AtomicBool::new(false),
            seal,
        }
    }

    /// Appends one event. A failure is reported once on stderr and the run
    /// goes on; [`EventLog::complete`] says whether it happened.
    pub fn write(&self, event: &Event) {
        let mut line = serde_json::to_string(event).expect("events serialise");
        let mut lines = self.file.lock().expect("event log");
        if let Some(key) = &self.seal {
            key.seal_line(lines.written, &mut line);
        }
        line.push('\n');
        match lines.file.write_all(line.as_bytes()) {
            Ok(()) => lines.written += 1,
            Err(e) => {
                if !self.failed.swap(true, Ordering::SeqCst) {
                    eprintln!("toolpath: cannot write {}: {e}", self.path.display());
                }
            }
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
            selection: head.selection.clone(),
            run_against: head.run_against.clone(),
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
            waited_ms: head.waited_ms,
            workers: head.workers,
            summary: head.summary,
            findings: head.findings.clone(),
            profile_rules: head.profile_rules.clone(),
            containment: head.containment,
        });
    }
}

/// A finished run's spool, verified and read back in position order, as
/// often as a renderer needs: only where each position's latest line is
/// held (its offset and line number, 12 bytes an instance), never the
/// reports.
///
/// It is read through the descriptor the run wrote it with, so a file put
/// in its place (a link, a FIFO) is never read; what is read in it is
/// verified: every line's seal at [`Spool::open`], the number of lines
/// against the number written, every position present, and each line
/// again when a renderer reads it. A spool that does not verify is refused
/// with the first line that is wrong: nothing an adapter writes into the
/// run's directory can change a verdict.
pub struct Spool {
    path: PathBuf,
    file: File,
    key: SpoolKey,
    /// Where the latest line of each position starts.
    offsets: Vec<u64>,
    /// The line number of each position's latest line, its seal's sequence
    /// number (u32: a run has fewer lines than that).
    seqs: Vec<u32>,
    /// How many lines the run wrote, all verified.
    lines: u64,
}

/// Reads a file at positions of its own, leaving the descriptor's offset
/// to the writer that shares it.
struct At<'a> {
    file: &'a File,
    pos: u64,
}

impl io::Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = std::os::unix::fs::FileExt::read_at(self.file, buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl io::Seek for At<'_> {
    fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
        self.pos = match to {
            io::SeekFrom::Start(n) => n,
            io::SeekFrom::Current(d) => self.pos.checked_add_signed(d).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "seek before the start")
            })?,
            io::SeekFrom::End(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "the spool is read from positions it indexed",
                ));
            }
        };
        Ok(self.pos)
    }
}

impl Spool {
    const MISSING: u64 = u64::MAX;

    /// Verifies and indexes `log`, the spool of a run of `total` instances
    /// (written with [`EventLog::sealed`]).
    pub fn open(log: &EventLog, total: usize) -> io::Result<Spool> {
        /// Just enough of a line to index it.
        #[derive(Deserialize)]
        struct Peek {
            event: String,
            position: Option<usize>,
        }
        let path = log.path.clone();
        let (file, written) = {
            let lines = log.file.lock().expect("event log");
            (lines.file.try_clone()?, lines.written)
        };
        let key = log
            .seal
            .clone()
            .ok_or_else(|| io::Error::other(format!("{} is not a sealed spool", path.display())))?;
        let mut reader = BufReader::new(At {
            file: &file,
            pos: 0,
        });
        let mut offsets = vec![Spool::MISSING; total];
        let mut seqs = vec![0u32; total];
        let (mut offset, mut seq, mut line) = (0u64, 0u64, Vec::new());
        loop {
            line.clear();
            let read = reader.read_until(b'\n', &mut line)?;
            if read == 0 {
                break;
            }
            let json = key
                .unseal(seq, &line)
                .map_err(|e| tampered(&path, seq, &e))?;
            let peek: Peek = serde_json::from_slice(json).map_err(|e| tampered(&path, seq, &e))?;
            if peek.event == "case" {
                let position = peek
                    .position
                    .filter(|p| *p < total)
                    .ok_or_else(|| tampered(&path, seq, &"a case line without a valid position"))?;
                offsets[position] = offset;
                seqs[position] = u32::try_from(seq).map_err(|e| tampered(&path, seq, &e))?;
            }
            offset += read as u64;
            seq += 1;
        }
        if seq != written {
            return Err(tampered(
                &path,
                seq.min(written),
                &format!("the spool has {seq} lines, the run wrote {written}"),
            ));
        }
        if let Some(position) = offsets.iter().position(|o| *o == Spool::MISSING) {
            return Err(io::Error::other(format!(
                "{} has no report for instance {position} (the log could not be written whole)",
                path.display()
            )));
        }
        Ok(Spool {
            path,
            file,
            key,
            offsets,
            seqs,
            lines: written,
        })
    }

    /// Writes the log as plain JSON Lines (the user's copy, `--events`):
    /// every line the run wrote, in the order written, each verified again
    /// and without its seal.
    pub fn write_plain(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut reader = BufReader::new(At {
            file: &self.file,
            pos: 0,
        });
        let mut line = Vec::new();
        for seq in 0..self.lines {
            line.clear();
            reader.read_until(b'\n', &mut line)?;
            let json = self
                .key
                .unseal(seq, &line)
                .map_err(|e| tampered(&self.path, seq, &e))?;
            out.write_all(json)?;
            out.write_all(b"\n")?;
        }
        Ok(())
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
        let mut reader = BufReader::new(At {
            file: &self.file,
            pos: 0,
        });
        let (mut at, mut line) = (0u64, Vec::new());
        for position in positions {
            let (offset, seq) = (self.offsets[position], u64::from(self.seqs[position]));
            // Relative seeks keep the buffer: lines written in order are read
            // with no system call each.
            reader.seek_relative(offset as i64 - at as i64)?;
            line.clear();
            at = offset + reader.read_until(b'\n', &mut line)? as u64;
            let json = self
                .key
                .unseal(seq, &line)
                .map_err(|e| tampered(&self.path, seq, &e))?;
            match serde_json::from_slice(json).map_err(|e| tampered(&self.path, seq, &e))? {
                Event::Case(case) => visit(&case.report)?,
                _ => return Err(tampered(&self.path, seq, &"not a case line")),
            }
        }
        Ok(())
    }
}

/// A spool that does not verify, naming the first wrong line (from 1).
fn tampered(path: &Path, seq: u64, error: &dyn std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "the run's event log {} does not verify at line {}: {error}",
            path.display(),
            seq + 1
        ),
    )
}

impl CaseSource for Spool {
    fn each(&self, visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>) -> io::Result<()> {
        self.visit(0..self.offsets.len(), visit)
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
        waited_ms: 0.0,
        workers: 1,
        fixture_dir: None,
        unprotected: Vec::new(),
        selection,
        run_against,
        summary: Summary::default(),
        findings: Vec::new(),
        profile_rules: Vec::new(),
        containment: Default::default(),
        rules: Default::default(),
        cases: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;
    use toolpath_suite::protocol::Tool;

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

    /// A spool written through the sink: instances finishing out of order,
    /// one amended after the fact.
    fn spooled(dir: &Path, skip: Option<usize>) -> EventLog {
        let path = dir.join(format!("events-{}.jsonl", skip.map_or(9, |s| s)));
        let file = std::fs::OpenOptions::new()
            .create_new(true)
            .read(true)
            .append(true)
            .open(&path)
            .unwrap();
        let log = EventLog::sealed(file, &path, SpoolKey::generate().unwrap());
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
        log
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
        let log = spooled(dir.path(), None);
        let spool = Spool::open(&log, 3).unwrap();
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
        // The plain copy (`--events`), read whole as `toolpath compare`
        // reads it, agrees; it has every line the run wrote, unsealed.
        let mut copy = Vec::new();
        spool.write_plain(&mut copy).unwrap();
        let text = String::from_utf8(copy).unwrap();
        assert_eq!(statuses(&read(&text).unwrap().cases).unwrap(), expected);
        assert_eq!(text.lines().count(), 6);
        assert!(!text.contains('\t'), "{text}");
    }

    #[test]
    fn a_spool_missing_an_instance_or_a_reader_that_stops_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = Spool::open(&spooled(dir.path(), Some(1)), 3)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("no report for instance 1"), "{err}");
        let log = spooled(dir.path(), None);
        let spool = Spool::open(&log, 3).unwrap();
        let stopped = spool.each(&mut |_| Err(io::Error::other("reader stopped")));
        assert_eq!(stopped.unwrap_err().to_string(), "reader stopped");
        // A position past the run's instances is a broken log, not a panic.
        assert!(Spool::open(&log, 2).is_err());
    }

    /// Rewrites the spool's file with `edit` applied to its lines, in place
    /// (same inode, as an adapter that found the file would).
    fn forge(log: &EventLog, edit: impl FnOnce(&mut Vec<String>)) {
        let text = std::fs::read_to_string(log.path()).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        edit(&mut lines);
        let mut forged = lines.join("\n");
        forged.push('\n');
        let file = std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(log.path())
            .unwrap();
        std::os::unix::fs::FileExt::write_all_at(&file, forged.as_bytes(), 0).unwrap();
    }

    /// Item 3 of issue 21: an adapter that rewrote the spool in place made
    /// the report list passes for failures. Every way of forging it is
    /// refused with the first wrong line: a status changed (line 4 is the
    /// `fail` of `b`), lines swapped, a line dropped from the end, a line
    /// replayed in another place, and a line sealed with another key.
    #[test]
    fn a_spool_changed_after_it_was_written_is_refused_naming_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let refused = |edit: &dyn Fn(&mut Vec<String>)| -> String {
            // A fresh directory per forgery: the names repeat.
            let sub = tempfile::tempdir_in(dir.path()).unwrap().keep();
            let log = spooled(&sub, None);
            forge(&log, edit);
            match Spool::open(&log, 3) {
                Ok(spool) => panic!("a forged spool was accepted: {:?}", statuses(&spool)),
                Err(e) => e.to_string(),
            }
        };
        let status = refused(&|lines| lines[3] = lines[3].replace("\"fail\"", "\"pass\""));
        assert!(
            status.contains("does not verify at line 4: its seal"),
            "{status}"
        );
        let swapped = refused(&|lines| lines.swap(1, 2));
        assert!(swapped.contains("at line 2:"), "{swapped}");
        let dropped = refused(&|lines| {
            lines.pop();
        });
        assert!(
            dropped.contains("the spool has 5 lines, the run wrote 6"),
            "{dropped}"
        );
        let replayed = refused(&|lines| {
            let first = lines[1].clone();
            lines.push(first);
        });
        assert!(replayed.contains("at line 7:"), "{replayed}");
        let other_key = {
            let sub = tempfile::tempdir_in(dir.path()).unwrap().keep();
            std::fs::read_to_string(spooled(&sub, None).path()).unwrap()
        };
        let foreign = refused(&|lines| {
            *lines = other_key.lines().map(str::to_owned).collect();
        });
        assert!(foreign.contains("at line 1:"), "{foreign}");
    }

    /// The plain copy is made from the spool at delivery: a spool changed
    /// after it was verified gives no copy, but the error.
    #[test]
    fn no_plain_copy_is_made_of_a_spool_changed_after_it_was_verified() {
        let dir = tempfile::tempdir().unwrap();
        let log = spooled(dir.path(), None);
        let spool = Spool::open(&log, 3).unwrap();
        forge(&log, |lines: &mut Vec<String>| {
            lines[3] = lines[3].replace("\"fail\"", "\"pass\"")
        });
        let mut copy = Vec::new();
        let err = spool.write_plain(&mut copy).unwrap_err().to_string();
        assert!(err.contains("does not verify at line 4"), "{err}");
        assert!(!String::from_utf8_lossy(&copy).contains("\"b\""));
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
