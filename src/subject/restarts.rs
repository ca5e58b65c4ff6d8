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

use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests {
    use super::*;

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
