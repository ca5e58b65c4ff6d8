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
//! fuzzing run), [`progress`] (how far a run has got, on standard error),
//! [`tools`] (an MCP server started to list its tools or answer one call),
//! [`run_against`] (the digests of what a run is made against: its suite
//! and its runner's files).
//!
//! May import the floors below (ARCHITECTURE.md): `fuzz`, `harness`,
//! `mcp`, `subject`, `case`, `reference`, `report`, `sys` and the suite
//! model; never `cli` above it.

pub mod clean;
pub mod deliver;
pub mod fuzz;
pub mod place;
pub mod progress;
pub mod reach;
pub mod run;
pub mod run_against;
pub mod run_dir;
pub mod run_user;
pub mod tools;

use std::io;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use place::{FIXTURE_DIR_ENV, Place};
pub use run_dir::RunDir;
pub use run_user::RunUser;

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
    /// Who the run's subjects run as: the one place that decides it, for
    /// every command that starts one.
    subjects: SubjectUser,
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
    /// are released (`--hang-timeout-ms`; [`crate::subject::fifos`]).
    pub hang_timeout: Duration,
}

/// Who a run's subjects run as, decided once when the session starts.
#[derive(Debug)]
pub struct SubjectUser {
    /// The run's own user, claimed by a root harness ([`RunUser`]); why
    /// not, when a root harness could not claim one (its subjects are
    /// then `nobody`, as every other run's may be).
    claimed: Option<Result<RunUser, String>>,
    /// `--subject-as-root`: the subject itself runs as root (its
    /// unprivileged copy still as the run's user).
    as_root: bool,
}

impl SubjectUser {
    /// As root, claims a user for the run's subjects; otherwise they run
    /// as the harness's own user, which is all a harness that is not root
    /// can do.
    fn decide(as_root: bool) -> SubjectUser {
        let claimed = crate::sys::is_root()
            .then(|| RunUser::claim().map_err(|e| format!("no user of its own for the run: {e}")));
        SubjectUser { claimed, as_root }
    }

    /// The ids an unprivileged process of the run runs as: the run's
    /// user; `nobody` if none could be claimed; `None` when the harness
    /// is not root.
    fn unprivileged(&self) -> Option<(u32, u32)> {
        self.claimed.as_ref().map(|claimed| match claimed {
            Ok(user) => user.ids(),
            Err(_) => crate::sys::UNPRIVILEGED_USER,
        })
    }

    /// What the box of this run's subjects lacks, with why: `boxed`, a
    /// PID and an IPC namespace for each; `filtered`, the seccomp filter.
    fn gaps(&self, boxed: bool, filtered: bool) -> Vec<String> {
        let mut gaps = Vec::new();
        if !boxed {
            gaps.push("processes a subject starts may outlive it until the run ends, and it shares the machine's IPC namespace (its SysV objects are removed at the end, and it may make no POSIX queue): no PID or IPC namespace could be made for it (this needs CAP_SYS_ADMIN, which a container withholds by default)".to_owned());
        }
        if !filtered {
            gaps.push(format!(
                "a subject may make a user namespace and hold every capability in it: no seccomp filter for this architecture ({})",
                std::env::consts::ARCH
            ));
        }
        match &self.claimed {
            None => gaps.push("the subject runs as the harness's own user (the harness is not root): it can write whatever that user can, the reports among them".to_owned()),
            Some(Err(e)) => gaps.push(format!("{e}: subjects run as nobody, like every other such run's, whose processes they can read and change")),
            Some(Ok(_)) => {}
        }
        if self.as_root && self.claimed.is_some() {
            gaps.push("the subject runs as root (--subject-as-root): without capabilities, but owning every root-owned file, the run's directory and its reports among them, so nothing keeps what it writes from the verdict".to_owned());
        }
        gaps
    }

    /// The ids the subject runs as: [`Self::unprivileged`], unless
    /// `--subject-as-root` keeps it the harness's (root's).
    fn subject(&self) -> Option<(u32, u32)> {
        self.unprivileged().filter(|_| !self.as_root)
    }
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
    ///
    /// As root, the session claims a user of its own for the run's
    /// subjects ([`RunUser`]); `subject_as_root` (`--subject-as-root`)
    /// keeps the subject itself root's.
    pub fn start(fixture_dir: Option<&Path>, subject_as_root: bool) -> Result<Session, String> {
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
            subjects: SubjectUser::decide(subject_as_root),
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
            subjects: SubjectUser {
                claimed: None,
                as_root: false,
            },
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

    /// Where `--keep-fixtures` keeps this run's fixtures: a directory of
    /// the harness's user beside the run directory (`toolpath-kept-` and
    /// the run's suffix), which outlives the run. Not the place itself:
    /// there, in a sticky directory, a subject that owns its fixture
    /// directory may rename it, swap it for a link (which root then
    /// followed to release a FIFO), or make it again after the run.
    pub fn kept_dir(&self) -> Result<PathBuf, String> {
        let suffix = (self.dir.id().strip_prefix(run_dir::PREFIX)).unwrap_or(self.dir.id());
        let kept = self.place.path().join(format!("toolpath-kept-{suffix}"));
        std::fs::DirBuilder::new()
            .mode(0o711)
            .create(&kept)
            .map_err(|e| format!("cannot create {}: {e}", kept.display()))?;
        Ok(kept)
    }

    /// The in-process reference, its scratch directory in the run's.
    pub fn reference(&self, timeout: Duration) -> Reference {
        Reference::with_scratch_in(self.dir.path(), timeout)
    }

    /// The ids the run's subject runs as (`None`: the harness's own).
    pub fn subject_user(&self) -> Option<(u32, u32)> {
        self.subjects.subject()
    }

    /// The ids of the run's unprivileged copy of its subject, which takes
    /// the permission cases as root (`None`: the harness is not root).
    pub fn unprivileged_user(&self) -> Option<(u32, u32)> {
        self.subjects.unprivileged()
    }

    /// What this session cannot protect a verdict from, each with why
    /// (every report format shows them): the parts of the box the kernel
    /// or the harness's privileges withheld, and `--subject-as-root`.
    pub fn unprotected(&self) -> Vec<String> {
        self.subjects.gaps(
            crate::sys::boxes_subjects(),
            crate::sys::refuses_user_namespaces(),
        )
    }

    /// How to start the adapter `argv` in this run, supervised so, as the
    /// run's subject ([`Self::subject_user`]): each of its processes gets
    /// a scratch directory of its own in `tmpdir` (below the run
    /// directory) and the run's id, by which `toolpath clean` finds what
    /// a killed run left running. An adapter that user could not start is
    /// refused here, naming the fix ([`reach::startable`]), for every
    /// command that starts one alike.
    pub fn adapter_config(
        &self,
        argv: Vec<String>,
        supervision: &Supervision,
        tmpdir: PathBuf,
    ) -> Result<AdapterConfig, String> {
        let user = self.subject_user();
        if let Some(user) = user {
            reach::startable(&argv, self.dir.path(), user)?;
        }
        Ok(self.adapter_config_as(argv, supervision, user, tmpdir))
    }

    /// [`Self::adapter_config`] for the run's unprivileged copy of its
    /// subject ([`Self::unprivileged_user`]).
    pub fn unprivileged_adapter_config(
        &self,
        argv: Vec<String>,
        supervision: &Supervision,
        tmpdir: PathBuf,
    ) -> AdapterConfig {
        self.adapter_config_as(argv, supervision, self.unprivileged_user(), tmpdir)
    }

    fn adapter_config_as(
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
    /// as the run's subject ([`Self::subject_user`]): its `HOME` and
    /// `TMPDIR` in the run directory's `servers`. A server that user could
    /// not start (its command, or the run directory, out of that user's
    /// reach) is refused here, naming the fix ([`reach::startable`]).
    pub fn mcp_config(
        &self,
        profile: Loaded,
        supervision: &Supervision,
    ) -> Result<McpConfig, String> {
        let user = self.subject_user();
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
    /// so is every process of the run's user, and what that user left in
    /// the places every user may write is removed ([`RunUser::sweep`]);
    /// the run directory is removed, and a SIGINT or SIGTERM received on
    /// the way turns `code` into [`ExitCode::Cancelled`] (said on stderr,
    /// with `partial`: what was kept of the run).
    pub fn end(self, code: ExitCode, partial: &str) -> ExitCode {
        self.end_orphans();
        if let Some(Ok(user)) = &self.subjects.claimed
            && let Err(e) = user.sweep()
        {
            eprintln!("toolpath: cannot remove what the subject's user left: {e}");
        }
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

    /// Kept fixtures live in a directory of the harness's own, beside the
    /// run and never in the place itself: in a sticky place (`/dev/shm`)
    /// a subject owning its kept fixture directory could rename it, swap
    /// it for a link or make it again after the run (issue 41).
    #[test]
    fn kept_fixtures_go_to_a_directory_no_subject_may_write() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let place = tempfile::tempdir().unwrap();
        std::fs::set_permissions(place.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
        let session = Session::in_place(Place::resolve(Some(place.path())).unwrap()).unwrap();
        let kept = session.kept_dir().unwrap();
        assert_eq!(kept.parent(), Some(session.place().path()));
        let meta = std::fs::symlink_metadata(&kept).unwrap();
        assert!(meta.is_dir());
        assert_eq!(meta.uid(), crate::sys::effective_ids().0);
        assert_eq!(meta.mode() & 0o7777, 0o711, "writable by its owner alone");
    }

    /// Each part of the box that is missing is named, and nothing when
    /// none is: a root harness that claimed its user, boxed and filtered.
    #[test]
    fn every_missing_part_of_the_box_is_said_with_why() {
        let user = |claimed, as_root| SubjectUser { claimed, as_root };
        let not_root = user(None, false);
        assert_eq!(not_root.gaps(true, true).len(), 1);
        assert!(not_root.gaps(true, true)[0].contains("the harness's own user"));
        let unclaimed = user(Some(Err("no user of its own for the run: x".into())), false);
        let gaps = unclaimed.gaps(false, false);
        assert_eq!(gaps.len(), 3, "{gaps:?}");
        assert!(gaps[0].contains("CAP_SYS_ADMIN"), "{gaps:?}");
        assert!(gaps[1].contains("seccomp"), "{gaps:?}");
        assert!(
            gaps[2].contains("no user of its own for the run: x"),
            "{gaps:?}"
        );
        assert_eq!(unclaimed.subject(), Some(crate::sys::UNPRIVILEGED_USER));
        let as_root = user(Some(Err("e".into())), true);
        assert!(as_root.gaps(true, true)[1].starts_with("the subject runs as root"));
        assert_eq!(as_root.subject(), None);
        assert_eq!(as_root.unprivileged(), Some(crate::sys::UNPRIVILEGED_USER));
        if crate::sys::is_root() {
            let claimed = user(Some(Ok(RunUser::claim().unwrap())), false);
            assert!(claimed.gaps(true, true).is_empty());
            let ids = claimed.subject().unwrap();
            assert!(run_user::IDS.contains(&ids.0), "{ids:?}");
        }
    }

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
