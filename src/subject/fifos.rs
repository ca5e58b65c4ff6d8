//! A call that may block on a FIFO of its fixture (RES-10, FILE-6: a FIFO
//! MUST NOT be opened, and opening one blocks until its other end is
//! opened): its short bound, and how the harness, which owns the fixture,
//! releases a subject blocked on one instead of killing it.
//!
//! A conforming tool answers such a call at once, so the wait for it is
//! cut into steps of [`HangProne::bound`] (`--hang-timeout-ms`). After each
//! step without an answer, every FIFO of the fixture is released
//! ([`crate::sys::release_fifo`]): its other end opened without blocking
//! and closed, which gets a blocked reader to end of file and a blocked
//! writer past its `open`. The release is also the evidence: it says
//! whether anyone held the FIFO. Only then is the subject taken to be
//! blocked on it; it gets [`RELEASE_GRACE`] to answer, and fails the case
//! either way (an answer after the release is not judged). A subject that
//! holds no FIFO is merely slow, and waits on up to the call's own
//! timeout as any call does: a short bound cannot fail a conforming tool.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::subject::lines::{Next, Output};
use crate::sys::FifoHeld;
use toolpath_suite::protocol::Tool;

/// The default `--hang-timeout-ms`: the first release comes after 1 s.
/// The bound decides what a blocked call costs (the bound; and
/// [`RELEASE_GRACE`] and a restart more for a subject that does not answer
/// once released), never
/// whether a call fails: a release that finds nobody on the FIFO costs a
/// few system calls and the call waits on, up to `--timeout-ms`. So it is
/// short, but not so short that a conforming tool slow to answer (the
/// slowest healthy MCP call seen took 1.3 s on a machine at load 9) is
/// released over and over: about the time a healthy call takes on a busy
/// machine.
pub const DEFAULT_HANG_TIMEOUT: Duration = Duration::from_secs(1);

/// How long a subject found blocked on a FIFO has, once released, to
/// answer before it is ended: a released tool reads end of file (or its
/// write fails) and answers at once, so this is paid in full only by one
/// that does not answer even then; long enough that a loaded machine
/// does not turn a released tool's answer into a restart.
pub const RELEASE_GRACE: Duration = Duration::from_secs(2);

/// A call whose fixture holds FIFOs: where they are, and how long the
/// subject is waited for before they are released.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HangProne {
    /// The wait between releases.
    pub bound: Duration,
    /// The fixture's root directory.
    pub root: PathBuf,
    /// The FIFOs, relative to `root`, as the case names them.
    pub fifos: Vec<PathBuf>,
}

/// A subject found blocked on a FIFO.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    /// The FIFO, relative to the fixture's root.
    pub fifo: PathBuf,
    pub held: FifoHeld,
    /// The bound it was found past (`--hang-timeout-ms`): what the report
    /// says, never the time measured, so that two runs say the same.
    pub bound: Duration,
}

impl Blocked {
    /// What the failure says: which FIFO, how it was held, past which
    /// bound, and whether the subject answered once released.
    pub fn message(&self, answered: bool) -> String {
        let how = match (self.held.reader, self.held.writer) {
            (true, true) => "for reading and writing",
            (true, false) => "for reading",
            _ => "for writing",
        };
        let then = if answered {
            "it answered once the harness opened the FIFO's other end (not judged)"
        } else {
            "it still did not answer once the harness opened the FIFO's other end, and was ended"
        };
        format!(
            "blocked on the FIFO {} (opened {how}) past the {} ms bound of a call on a FIFO: \
             a FIFO must not be opened (RES-10, FILE-6); {then}",
            self.fifo.display(),
            self.bound.as_millis()
        )
    }
}

/// The rule a tool found blocked on a FIFO broke: a file tool's FILE-6,
/// every other tool's RES-10 (the shell's directory included). One answer
/// for a suite run's report and a fuzzing finding alike.
pub fn rule(tool: Tool) -> &'static str {
    match tool.is_file_tool() {
        true => "FILE-6",
        false => "RES-10",
    }
}

impl HangProne {
    /// Releases every FIFO; the first that someone held, if any. A FIFO
    /// that cannot be opened (the subject removed it, made it something
    /// else) is passed over.
    pub fn release(&self) -> Option<Blocked> {
        let mut found = None;
        for fifo in &self.fifos {
            if let Ok(held) = crate::sys::release_fifo(&self.root, fifo)
                && held.any()
                && found.is_none()
            {
                found = Some(Blocked {
                    fifo: fifo.clone(),
                    held,
                    bound: self.bound,
                });
            }
        }
        found
    }
}

/// The next line of `output` by `deadline`, as [`Output::next_line`]; for
/// a hang-prone call, with the fixture's FIFOs released after every
/// `bound` without one, and what the release found. A subject found
/// blocked gets [`RELEASE_GRACE`] more (never past `deadline`).
pub fn next_line(
    output: &mut Output,
    deadline: Instant,
    limit: usize,
    hang: Option<&HangProne>,
) -> (Next, Option<Blocked>) {
    let Some(hang) = hang else {
        return (output.next_line(deadline, limit), None);
    };
    let mut deadline = deadline;
    let mut blocked: Option<Blocked> = None;
    loop {
        let step = deadline.min(Instant::now() + hang.bound);
        match output.next_line(step, limit) {
            Next::Timeout if Instant::now() < deadline => {
                let found = hang.release();
                if blocked.is_none()
                    && let Some(found) = found
                {
                    blocked = Some(found);
                    deadline = deadline.min(Instant::now() + RELEASE_GRACE);
                }
            }
            next => return (next, blocked),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory holding one FIFO, `pipe`, and the watch over it (a
    /// 10 ms bound).
    fn one_fifo() -> (tempfile::TempDir, HangProne) {
        let dir = tempfile::tempdir().unwrap();
        crate::sys::mkfifo(&dir.path().join("pipe"), 0o600).unwrap();
        let hang = HangProne {
            bound: Duration::from_millis(10),
            root: dir.path().to_owned(),
            fifos: vec!["pipe".into()],
        };
        (dir, hang)
    }

    /// A reader blocked opening a FIFO is found and released: its open
    /// returns and its read ends at once; nobody holding it is nobody.
    /// The blocked thread is certain to block (nothing else opens the
    /// FIFO), so no timing decides anything here.
    #[test]
    fn a_reader_blocked_on_a_fifo_is_found_and_released() {
        let (dir, hang) = one_fifo();
        assert_eq!(hang.release(), None, "nobody holds it yet");
        let path = dir.path().join("pipe");
        let reader = std::thread::spawn(move || {
            use std::io::Read;
            let mut file = std::fs::File::open(path).unwrap();
            let mut text = String::new();
            file.read_to_string(&mut text).unwrap();
            text
        });
        // Released until the reader is there (it blocks in `open`); each
        // release that finds nobody changes nothing.
        let found = loop {
            if let Some(found) = hang.release() {
                break found;
            }
            std::thread::yield_now();
        };
        assert_eq!(reader.join().unwrap(), "", "end of file, after the release");
        assert_eq!(
            found.held,
            FifoHeld {
                reader: true,
                writer: false
            }
        );
        assert!(found.message(true).starts_with(
            "blocked on the FIFO pipe (opened for reading) past the 10 ms bound of a call on a FIFO: \
             a FIFO must not be opened (RES-10, FILE-6); it answered"
        ));
    }

    /// A writer blocked opening a FIFO is released too, and what it wrote
    /// is read and dropped.
    #[test]
    fn a_writer_blocked_on_a_fifo_is_found_and_released() {
        let (dir, hang) = one_fifo();
        // A writer that opens while the release holds the read end, and
        // after it has looked, is let through unseen (and its write then
        // fails): tried again with a fresh one until one is found blocked.
        let found = (0..1000)
            .find_map(|_| {
                let path = dir.path().join("pipe");
                let writer = std::thread::spawn(move || {
                    use std::io::Write;
                    let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
                    let _ = file.write_all(b"x");
                });
                let found = loop {
                    if let Some(found) = hang.release() {
                        break Some(found);
                    }
                    if writer.is_finished() {
                        break None;
                    }
                    std::thread::yield_now();
                };
                writer.join().unwrap();
                found
            })
            .expect("a blocked writer found");
        assert!(found.held.writer && !found.held.reader, "{found:?}");
    }

    /// A path that is no longer a FIFO, or a link, is never opened
    /// through: nobody held it.
    #[test]
    fn what_is_not_a_fifo_beneath_the_root_is_nobody() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("file"), "x").unwrap();
        std::os::unix::fs::symlink("/dev/null", dir.path().join("link")).unwrap();
        let hang = HangProne {
            bound: Duration::from_millis(10),
            root: dir.path().to_owned(),
            fifos: vec!["file".into(), "link".into(), "gone".into()],
        };
        assert_eq!(hang.release(), None);
    }
}
