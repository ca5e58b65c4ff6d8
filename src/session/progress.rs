//! How far a run has got, on standard error while it runs: on a terminal
//! one line rewritten in place after every instance; elsewhere (a CI log,
//! output redirected to a file) a plain line every [`PLAIN_EVERY`], with no
//! escape codes. A whole run of an MCP server at one job took 11 to 19
//! minutes and said nothing when its output was redirected (issue 44);
//! a line per instance would fill a log with thousands.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::report::render::RunOutcome;
use crate::report::sink::Sink;
use crate::report::{CaseReport, Report};

/// How often a plain progress line is written: about forty lines for the
/// slowest whole run measured, none for a run of under half a minute.
pub const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// How progress is shown.
pub enum Shown {
    /// The line rewritten in place (`\r`, erase line), after every instance.
    Terminal,
    /// A plain line at most once per interval, as instances finish.
    Plain(Duration),
}

/// A run's progress, a [`Sink`] beside the event logs.
pub struct Progress {
    total: usize,
    done: AtomicUsize,
    /// Instances whose outcome fails the run, so far.
    failed: AtomicUsize,
    shown: Shown,
    started: Instant,
    /// When the last plain line was written (the start, before one is).
    last: Mutex<Instant>,
    out: Mutex<Box<dyn Write + Send>>,
}

impl Progress {
    /// Progress of `total` instances on standard error, as its kind of
    /// output calls for.
    pub fn on_stderr(total: usize, terminal: bool) -> Progress {
        let shown = match terminal {
            true => Shown::Terminal,
            false => Shown::Plain(PLAIN_EVERY),
        };
        Progress::new(total, shown, Box::new(std::io::stderr()))
    }

    pub fn new(total: usize, shown: Shown, out: Box<dyn Write + Send>) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            done: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            shown,
            started: now,
            last: Mutex::new(now),
            out: Mutex::new(out),
        }
    }

    /// `toolpath: 120/2150 instances (5%), 3 failing so far, 1m30s`.
    fn plain_line(&self, done: usize, elapsed: Duration) -> String {
        let percent = (done * 100).checked_div(self.total).unwrap_or(100);
        let secs = elapsed.as_secs();
        format!(
            "toolpath: {done}/{} instances ({percent}%), {} failing so far, {}m{:02}s\n",
            self.total,
            self.failed.load(Ordering::SeqCst),
            secs / 60,
            secs % 60
        )
    }
}

impl Sink for Progress {
    fn start(&self, _: &Report, _: usize) {}

    fn record(&self, _: usize, report: &CaseReport, amended: bool) {
        if amended {
            return;
        }
        let outcome = RunOutcome::of(report.status, false);
        if matches!(outcome, RunOutcome::Failed | RunOutcome::Errored) {
            self.failed.fetch_add(1, Ordering::SeqCst);
        }
        let n = self.done.fetch_add(1, Ordering::SeqCst) + 1;
        let Ok(mut out) = self.out.lock() else { return };
        match self.shown {
            Shown::Terminal => {
                let line = crate::report::render::human::progress_line(n, self.total, report);
                let _ = write!(out, "\r\x1b[2K{line}");
                if n == self.total {
                    let _ = write!(out, "\r\x1b[2K");
                }
            }
            Shown::Plain(every) => {
                let Ok(mut last) = self.last.lock() else {
                    return;
                };
                let now = Instant::now();
                // The last instance needs no line: the report follows.
                if now.duration_since(*last) >= every && n < self.total {
                    *last = now;
                    let _ = out.write_all(self.plain_line(n, now - self.started).as_bytes());
                }
            }
        }
        let _ = out.flush();
    }

    fn end(&self, _: &Report) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;
    use std::sync::Arc;

    /// A writer the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn report(status: Status) -> CaseReport {
        crate::report::render::sample_reports::case("a.b", status, &[])
    }

    /// Issue 44: output redirected showed nothing for minutes. A plain
    /// line, no escape codes, at most one per interval, none for the last
    /// instance (the report follows), amended reports not counted twice.
    #[test]
    fn redirected_output_gets_a_plain_line_per_interval() {
        let written = Shared::default();
        let every = Duration::from_millis(200);
        let progress = Progress::new(4, Shown::Plain(every), Box::new(written.clone()));
        progress.record(0, &report(Status::Fail), false);
        progress.record(0, &report(Status::Fail), true);
        assert!(written.0.lock().unwrap().is_empty(), "within the interval");
        std::thread::sleep(every);
        progress.record(1, &report(Status::Pass), false);
        progress.record(2, &report(Status::Pass), false);
        std::thread::sleep(every);
        progress.record(3, &report(Status::Pass), false);
        let text = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "{text:?}");
        assert!(
            lines[0].starts_with("toolpath: 2/4 instances (50%), 1 failing so far, 0m00s"),
            "{text:?}"
        );
        assert!(!text.contains(['\r', '\u{1b}']), "{text:?}");
    }

    /// On a terminal the line is rewritten after every instance, and
    /// erased after the last.
    #[test]
    fn a_terminal_gets_the_line_rewritten_in_place() {
        let written = Shared::default();
        let progress = Progress::new(2, Shown::Terminal, Box::new(written.clone()));
        progress.record(0, &report(Status::Pass), false);
        progress.record(1, &report(Status::Pass), false);
        let text = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text.matches("\r\x1b[2K[").count(), 2, "{text:?}");
        assert!(text.ends_with("\r\x1b[2K"), "{text:?}");
    }
}
