//! A run's lifetime, for `toolpath run` and `toolpath fuzz` alike.
//!
//! A [`Session`] owns what outlives any one case: the run directory in its
//! [`Place`] (created, locked, removed; dead runs' leftovers cleaned first),
//! SIGINT and SIGTERM (its handlers installed, a signal turned into the
//! exit code), the orphans that escape an adapter's process group, the
//! sealed event spool, how an adapter of the run is started
//! ([`Session::adapter_config`]) and the [`ExitCode`]. [`run`] (a suite
//! run) and [`fuzz`] (a fuzzing run) are each one run on top of it, from a
//! plan the CLI checked: the subjects, the harness or the fuzzer, and what
//! the run delivers.
//!
//! What lives here: [`place`] (where run directories go, and whether that
//! place is safe), [`run_dir`] (one run's directory, used through its
//! descriptor), [`clean`] (removing what dead runs left), [`deliver`]
//! (report files, replaced whole), [`run`] (a suite run), [`fuzz`] (a
//! fuzzing run), [`tools`] (an MCP server started to list its tools),
//! [`provenance`] (the digests of what a run is made against: its suite
//! and its runner's files).
//!
//! May import the floors below (ARCHITECTURE.md): `fuzz`, `harness`,
//! `mcp`, `subject`, `case`, `reference`, `report`, `sys` and the suite
//! model; never `cli` above it.

pub mod clean;
pub mod deliver;
pub mod fuzz;
pub mod place;
pub mod provenance;
mod reach;
pub mod run;
pub mod run_dir;
pub mod tools;

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use place::{FIXTURE_DIR_ENV, Place};
pub use run_dir::RunDir;

use crate::mcp::profile::Loaded;
use crate::mcp::server::McpConfig;
use crate::report::ExitCode;
use crate::report::events::{EventLog, Spool};
use crate::report::seal::SpoolKey;
use crate::subject::Reference;
use crate::subject::adapter::AdapterConfig;

/// The name of the run's spool in its directory.
const SPOOL: &str = "events.jsonl";

/// A live run: its place and directory, whether orphans come back to it,
/// and what tells it that it was cancelled.
pub struct Session {
    place: Place,
    dir: RunDir,
    subreaper: bool,
    /// The signal that cancelled the run, if one did: the handlers'
    /// record, or a test's script ([`Session::cancelled_by`]).
    cancelled: Box<Cancelled>,
}

/// Which signal cancelled a run, if one did.
pub type Cancelled = dyn Fn() -> Option<i32> + Send + Sync;

/// How the adapters of a run are supervised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Supervision {
    /// How long one call may take before the adapter counts as hung.
    pub call_timeout: Duration,
    /// How long the adapter may take to answer `hello`.
    pub hello_timeout: Duration,
    /// Restarts after crashes or hangs before the adapter is given up on.
    pub max_restarts: usize,
    /// How long a call on a fixture with FIFOs is waited for before they
    /// are released (`--hang-timeout-ms`; [`crate::subject::hang`]).
    pub hang_timeout: Duration,
}

/// The user a subject the harness starts runs as: as root, the
/// unprivileged user unless `as_root` (`--subject-as-root`) says root;
/// otherwise the harness's own (`None`).
pub fn subject_user(as_root: bool) -> Option<(u32, u32)> {
    (crate::sys::is_root() && !as_root).then_some(crate::sys::UNPRIVILEGED_USER)
}

impl Session {
    /// Starts a run in the place `fixture_dir` names (or the default one):
    /// installs the SIGINT/SIGTERM handlers, makes this process the reaper
    /// of escaping orphans, removes what dead runs left in that place (and
    /// only there), closes this process's memory to every process it will
    /// start (not dumpable, no `CAP_SYS_PTRACE` for itself or its
    /// children: the spool's key lives there; [`crate::sys::keep_memory_private`]),
    /// and creates the run directory. The error is a usage error (exit 2)
    /// with its message.
    pub fn start(fixture_dir: Option<&Path>) -> Result<Session, String> {
        if let Err(e) = crate::sys::cancel::install() {
            eprintln!(
                "toolpath: cannot handle SIGINT/SIGTERM ({e}); a cancelled run may leave files"
            );
        }
        let place = Place::resolve(fixture_dir).map_err(|e| e.to_string())?;
        // Orphans that leave an adapter's process group come back here.
        let subreaper = crate::subject::process::become_subreaper().is_ok();
        clean::clean_and_say(&place, false);
        // After the cleaning (which reads the environment of other users'
        // processes a dead run left), before any key, thread or child.
        crate::sys::keep_memory_private().map_err(|e| {
            format!("cannot close this process's memory to the processes it starts: {e}")
        })?;
        let dir = RunDir::create(&place).map_err(|e| {
            format!(
                "cannot create the run directory in {} (--fixture-dir, {FIXTURE_DIR_ENV}): {e}",
                place.path().display()
            )
        })?;
        Ok(Session {
            place,
            dir,
            subreaper,
            cancelled: Box::new(crate::sys::cancel::signal),
        })
    }

    /// A session in `place` that installs no signal handler and does not
    /// become the reaper of orphans (both process-wide): for tests of the
    /// layers above, inside a test process that runs other tests.
    #[doc(hidden)]
    pub fn in_place(place: Place) -> io::Result<Session> {
        let dir = RunDir::create(&place)?;
        Ok(Session {
            place,
            dir,
            subreaper: false,
            cancelled: Box::new(crate::sys::cancel::signal),
        })
    }

    /// This session, cancelled when `cancelled` says so rather than by a
    /// signal: for tests of a whole run cancelled midway, without sending
    /// a signal to the process that runs them.
    #[doc(hidden)]
    pub fn cancelled_by(self, cancelled: impl Fn() -> Option<i32> + Send + Sync + 'static) -> Self {
        Session {
            cancelled: Box::new(cancelled),
            ..self
        }
    }

    /// What tells the run whether (by which signal) it was cancelled.
    pub fn cancellation(&self) -> &Cancelled {
        &*self.cancelled
    }

    /// The signal that cancelled the run, if one did.
    pub fn cancelled(&self) -> Option<i32> {
        (self.cancelled)()
    }

    pub fn place(&self) -> &Place {
        &self.place
    }

    pub fn dir(&self) -> &RunDir {
        &self.dir
    }

    /// A subdirectory of the run directory, for fixtures or scratch space.
    pub fn subdir(&self, name: &str) -> Result<PathBuf, String> {
        self.dir
            .subdir(name)
            .map_err(|e| format!("cannot create a temporary directory: {e}"))
    }

    /// The in-process reference, its scratch directory in the run's.
    pub fn reference(&self, timeout: Duration) -> Reference {
        Reference::with_scratch_in(self.dir.path(), timeout)
    }

    /// How to start the adapter `argv` in this run, supervised so, as
    /// `user` if given: each of its processes gets a scratch directory of
    /// its own in `tmpdir` (below the run directory) and the run's id, by
    /// which `toolpath clean` finds what a killed run left running.
    pub fn adapter_config(
        &self,
        argv: Vec<String>,
        supervision: &Supervision,
        user: Option<(u32, u32)>,
        tmpdir: PathBuf,
    ) -> AdapterConfig {
        AdapterConfig {
            argv,
            call_timeout: supervision.call_timeout,
            hello_timeout: supervision.hello_timeout,
            max_restarts: supervision.max_restarts,
            user,
            tmpdir,
            suite_version: crate::SUITE_VERSION.to_owned(),
            run_id: Some(self.dir.id().to_owned()),
            silent_starts: Default::default(),
        }
    }

    /// How to start the MCP server of `profile` in this run, supervised so,
    /// as `user` if given: its `HOME` and `TMPDIR` in the run directory's
    /// `servers`. A server `user` could not start (its command, or the run
    /// directory, out of that user's reach) is refused here, naming the
    /// fix ([`reach::startable`]).
    pub fn mcp_config(
        &self,
        profile: Loaded,
        supervision: &Supervision,
        user: Option<(u32, u32)>,
    ) -> Result<McpConfig, String> {
        if let Some(user) = user {
            let dir = profile.dir.display().to_string();
            let argv: Vec<String> = (profile.profile.server.command.iter())
                .map(|word| word.replace("{profile}", &dir))
                .collect();
            reach::startable(&argv, self.dir.path(), user)?;
        }
        Ok(McpConfig {
            profile,
            call_timeout: supervision.call_timeout,
            hello_timeout: supervision.hello_timeout,
            max_restarts: supervision.max_restarts,
            tmpdir: self.subdir("servers")?,
            run_id: Some(self.dir.id().to_owned()),
            user,
            silent_starts: Default::default(),
        })
    }

    /// The run's own event log, sealed with a key only this process holds
    /// (see [`crate::report::events`]).
    pub fn spool(&self) -> io::Result<EventLog> {
        let file = self.dir.create_file(SPOOL)?;
        Ok(EventLog::sealed(
            file,
            &self.dir.path().join(SPOOL),
            SpoolKey::generate()?,
        ))
    }

    /// The spool read back and verified, for a run of `total` instances.
    pub fn read_spool(&self, spool: &EventLog, total: usize) -> io::Result<Spool> {
        Spool::open(spool, total)
    }

    /// Kills the orphans that escaped their adapter's process group (and
    /// were re-parented here): once every subject ended, nothing the run
    /// started is left to write while the run reports.
    pub fn end_orphans(&self) {
        if self.subreaper {
            crate::subject::process::end_orphans(crate::subject::adapter::REAP_TIMEOUT);
        }
    }

    /// Ends the run: orphans that escaped their process group are killed,
    /// the run directory is removed, and a SIGINT or SIGTERM received on
    /// the way turns `code` into [`ExitCode::Cancelled`] (said on stderr,
    /// with `partial`: what was kept of the run).
    pub fn end(self, code: ExitCode, partial: &str) -> ExitCode {
        self.end_orphans();
        drop(self.dir);
        let code = cancelled(code, (self.cancelled)());
        if let ExitCode::Cancelled(signal) = code {
            eprintln!(
                "toolpath: cancelled by {}; {partial}",
                crate::sys::cancel::signal_name(signal)
            );
        }
        code
    }
}

/// How a run that would end with `code` ends when `signal` (if any)
/// cancelled it: [`ExitCode::Cancelled`], unless the run could not be used
/// or its reports not written (2, 4): that failure is what the user must
/// see, and a cancelled run's reports were meant to be written whole.
fn cancelled(code: ExitCode, signal: Option<i32>) -> ExitCode {
    match signal {
        Some(signal) if !matches!(code, ExitCode::Usage | ExitCode::Report) => {
            ExitCode::Cancelled(signal)
        }
        _ => code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_turns_every_verdict_into_cancelled_but_not_a_broken_run() {
        for code in [
            ExitCode::Ok,
            ExitCode::Unexpected,
            ExitCode::Partial,
            ExitCode::NothingJudged,
        ] {
            assert_eq!(cancelled(code, None), code);
            assert_eq!(
                cancelled(code, Some(crate::sys::SIGINT)),
                ExitCode::Cancelled(crate::sys::SIGINT)
            );
            assert_eq!(cancelled(code, Some(crate::sys::SIGTERM)).code(), 143);
        }
        for code in [ExitCode::Usage, ExitCode::Report] {
            assert_eq!(cancelled(code, Some(crate::sys::SIGINT)), code);
        }
    }
}
