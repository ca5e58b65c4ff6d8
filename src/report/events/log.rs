//! Writing an event log: the run's sealed spool or the user's plain copy,
//! one line per event, as the run goes (the run's [`Sink`]).

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{CaseEvent, Event};
use crate::report::seal::SpoolKey;
use crate::report::sink::Sink;
use crate::report::{CaseReport, Report};

/// An event log being written: the run's own spool, each line of which is
/// followed by a tab and its seal ([`SpoolKey`]), or the user's live copy
/// (`--events`, plain JSON Lines), replaced at delivery by one made from
/// the verified spool ([`Spool::write_plain`](super::Spool::write_plain)).
pub struct EventLog {
    pub(super) path: PathBuf,
    pub(super) file: Mutex<Lines>,
    failed: AtomicBool,
    pub(super) seal: Option<SpoolKey>,
}

/// The file, and how many lines were written to it whole.
pub(super) struct Lines {
    pub(super) file: File,
    pub(super) written: u64,
}

impl EventLog {
    /// Creates (or truncates) a plain log at `path`: the user's live copy,
    /// which anyone who can write the file can change until the run
    /// replaces it.
    pub fn create(path: &Path) -> io::Result<EventLog> {
        Ok(EventLog::over(File::create(path)?, path, None))
    }

    /// The run's own spool, written to `file` (shown as `path`), each line
    /// sealed with `key`. Read it back with [`Spool::open`](super::Spool::open).
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
            unprotected: head.unprotected.clone(),
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
