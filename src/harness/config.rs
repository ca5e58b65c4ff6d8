//! How a run is configured, and what it finds around it: shared by the run
//! loop ([`super::run`]) and each worker ([`super::worker`]), so neither
//! imports the other's internals.

use std::path::PathBuf;
use std::time::Duration;

use crate::harness::baseline::Baseline;
use crate::harness::route::Machine;
use crate::report::Selected;
use crate::report::sink::Sink;
use crate::subject::adapter::AdapterConfig;
use crate::subject::{AdapterFailure, Subject};

/// Makes a fresh subject for a worker.
pub type SubjectFactory<'a> =
    dyn Fn() -> Result<Box<dyn Subject + Send>, AdapterFailure> + Sync + 'a;

/// How to run.
#[derive(Clone)]
pub struct RunConfig<'a> {
    pub jobs: usize,
    pub keep_fixtures: bool,
    pub strict: bool,
    /// Known failures and skips (the `--expectations` file).
    pub baseline: Baseline,
    /// How to start a copy of the subject as an unprivileged user (the
    /// run's own, `session::run_user`), so that `permissions` cases are
    /// observed even when the harness runs as root.
    pub unprivileged: Option<AdapterConfig>,
    /// The user the subject itself runs as, when not the harness's own
    /// (as root, an adapter or MCP server runs as the run's own user by
    /// default): what the machine can observe ([`Machine`]). Fixtures are
    /// handed to the user each subject says it runs as ([`Subject::user`]),
    /// not to this one.
    pub subject_user: Option<(u32, u32)>,
    /// The adapter command for the report; `None` in-process.
    pub adapter_label: Option<String>,
    /// The part of the suite selected, for the report.
    pub selection: Selected,
    /// What the run is made against (its suite's and runner's digests),
    /// for the report.
    pub run_against: Option<crate::report::RunAgainst>,
    /// What the run cannot protect its verdict from, for the report's
    /// header: there from the start, so the event log's first line
    /// carries it and a report rebuilt from the log says it too.
    pub unprotected: Vec<String>,
    /// Where fixtures are built (the run's own directory, so a dead run's
    /// are found by `toolpath clean`); the system temporary directory if `None`.
    pub fixtures: Option<PathBuf>,
    /// Where each judged instance goes as it is judged, besides the counts.
    pub sink: Option<&'a dyn Sink>,
    /// How long building one fixture may take before the instance is a case
    /// error (a hostile fixture of thousands of entries must not stall a
    /// run): the same bound as one call, `--timeout-ms`.
    pub fixture_timeout: Duration,
    /// How long a call on a fixture with FIFOs is waited for before they
    /// are released (`--hang-timeout-ms`; see [`crate::subject::fifos`]).
    pub hang_timeout: Duration,
}

impl Default for RunConfig<'_> {
    fn default() -> Self {
        RunConfig {
            jobs: 1,
            keep_fixtures: false,
            strict: false,
            baseline: Baseline::default(),
            unprivileged: None,
            subject_user: None,
            adapter_label: None,
            selection: Selected::default(),
            run_against: None,
            unprotected: Vec::new(),
            fixtures: None,
            sink: None,
            fixture_timeout: crate::subject::DEFAULT_CALL_TIMEOUT,
            hang_timeout: crate::subject::fifos::DEFAULT_HANG_TIMEOUT,
        }
    }
}

/// What a run finds around it rather than in its configuration: what the
/// machine can observe, and whether (by which signal) it was cancelled.
/// Given in one place so that tests can script both.
pub struct Environment<'a> {
    pub machine: Machine,
    /// The signal that cancelled the run, if one did.
    pub cancelled: &'a (dyn Fn() -> Option<i32> + Sync),
}

impl<'a> Environment<'a> {
    /// This machine (with an unprivileged runner if `config` has one),
    /// cancelled when `cancelled` says so.
    pub fn here(config: &RunConfig, cancelled: &'a (dyn Fn() -> Option<i32> + Sync)) -> Self {
        Environment {
            machine: Machine::here(config.unprivileged.is_some(), config.subject_user.is_some()),
            cancelled,
        }
    }
}

/// Why the run stopped, for the reports of instances it did not run.
pub fn cancelled(signal: i32) -> String {
    format!(
        "the run was cancelled by {}",
        crate::sys::signal_name(signal)
    )
}
