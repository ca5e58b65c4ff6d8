//! The `--max-restarts` budget, one rule for every subject that runs as a
//! process (adapter, MCP server, and the scripted fake that stands in for
//! them): restarts in a row, with no call answered between them, counted
//! once per case file.
//!
//! Why per case file: one crash class fills adjacent instances of one file
//! (a matrix file's cells, a case's tools: a tool that crashes on a FIFO
//! or a link loop does so in every cell), and a count per instance gave a
//! run up two thirds of the way through although the subject answered
//! every other file. A subject that is dead on everything still fails
//! `max` files in a row and is given up on: what it costs is bounded by
//! those files' instances.
//!
//! Starts that never got as far as a `hello` answer (the process could not
//! be started, or said nothing within the hello timeout) are budgeted
//! apart, over the whole run ([`SilentStarts`]): a restart for a call of
//! the same file is free, so a subject that crashes once and then never
//! greets again cost a hello timeout per instance of that file, and of
//! `--max-restarts` files more (about 75 minutes of a default run). Such a
//! start proves nothing works, unlike a crash between answers, so three of
//! them in a row, across every worker, end the subject for the run.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many starts in a row, across the run, may end without a `hello`
/// answer before the subject is given up on. Three: one is a slow machine
/// or a crash at the wrong moment, two in a row can still be chance; the
/// third is a subject that no longer starts, and each more would cost a
/// whole hello timeout (30 s by default) for nothing.
pub const MAX_SILENT_STARTS: usize = 3;

/// Restarts in a row, by case file.
#[derive(Debug, Clone, Default)]
pub struct Restarts {
    max: usize,
    /// Restarts counted since the last answered call.
    spent: usize,
    /// The case file of the last restart counted.
    counted: Option<PathBuf>,
    /// The case file the next call comes from.
    file: Option<PathBuf>,
    /// The last process was ended for a reason the case's verdict already
    /// gives (found blocked on a FIFO): the next restart is free.
    excused: bool,
}

impl Restarts {
    pub fn new(max: usize) -> Restarts {
        Restarts {
            max,
            ..Restarts::default()
        }
    }

    /// The case file the next call (and any restart before it) is for.
    pub fn for_file(&mut self, file: &Path) {
        self.file = Some(file.to_owned());
    }

    /// The process is ended with its case's verdict given (it blocked on a
    /// FIFO and did not answer once released): the restart is not a death
    /// nothing explains, and does not count.
    pub fn excuse(&mut self) {
        self.excused = true;
    }

    /// A call was answered: the count starts again.
    pub fn answered(&mut self) {
        self.spent = 0;
        self.counted = None;
    }

    /// Takes one restart: free for a call of the file the last counted
    /// restart was for; else counted, or `Err` with the count when `max`
    /// are spent.
    pub fn take(&mut self) -> Result<(), usize> {
        if std::mem::take(&mut self.excused) || (self.file.is_some() && self.file == self.counted) {
            return Ok(());
        }
        if self.spent >= self.max {
            return Err(self.spent);
        }
        self.spent += 1;
        self.counted = self.file.clone();
        Ok(())
    }
}

/// The run's starts in a row that never got a `hello` answer, shared by
/// every worker's subject (a clone counts into the same budget): one
/// greeting anywhere starts the count again.
#[derive(Debug, Clone, Default)]
pub struct SilentStarts(Arc<AtomicUsize>);

impl SilentStarts {
    /// Whether one more start may be tried: `Err` with the count once
    /// [`MAX_SILENT_STARTS`] in a row went unanswered.
    pub fn allow(&self) -> Result<(), usize> {
        match self.0.load(Ordering::SeqCst) {
            spent if spent >= MAX_SILENT_STARTS => Err(spent),
            _ => Ok(()),
        }
    }

    /// A start ended before any `hello` answer.
    pub fn silent(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    /// A start was answered: the count starts again.
    pub fn greeted(&self) {
        self.0.store(0, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silent_starts_are_counted_across_clones_and_a_greeting_resets_them() {
        let run = SilentStarts::default();
        let other_worker = run.clone();
        run.silent();
        other_worker.silent();
        assert_eq!(run.allow(), Ok(()), "two in a row: one more may be tried");
        other_worker.greeted();
        for _ in 0..MAX_SILENT_STARTS - 1 {
            run.silent();
        }
        assert_eq!(
            other_worker.allow(),
            Ok(()),
            "counted again from the greeting"
        );
        run.silent();
        assert_eq!(
            other_worker.allow(),
            Err(MAX_SILENT_STARTS),
            "given up run-wide"
        );
    }

    #[test]
    fn restarts_of_one_file_count_once_and_an_answer_starts_the_count_again() {
        let mut restarts = Restarts::new(2);
        restarts.for_file(Path::new("a.yaml"));
        for _ in 0..10 {
            assert_eq!(restarts.take(), Ok(()), "one file's cells: one restart");
        }
        restarts.for_file(Path::new("b.yaml"));
        assert_eq!(restarts.take(), Ok(()));
        restarts.for_file(Path::new("c.yaml"));
        assert_eq!(restarts.take(), Err(2), "a third file in a row: given up");
        restarts.answered();
        assert_eq!(restarts.take(), Ok(()));
        // An excused restart is free.
        restarts.for_file(Path::new("d.yaml"));
        restarts.excuse();
        assert_eq!(restarts.take(), Ok(()));
        // Without a file (the fuzzer's calls), each restart counts.
        let mut bare = Restarts::new(1);
        assert_eq!(bare.take(), Ok(()));
        assert_eq!(bare.take(), Err(1));
    }
}
