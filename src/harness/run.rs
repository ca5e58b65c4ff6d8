//! The loop over a run's instances: workers in parallel, each with its own
//! subject ([`worker`](crate::harness::worker)), taking instances one at a
//! time, and the counts they share.
//!
//! Memory does not grow with the number of instances: each instance is
//! fetched when its turn comes ([`Instances`]), each judged instance goes to
//! a [`Sink`] at once (the event log, so a killed run loses nothing), and
//! the run itself keeps only the counts. [`run`] is the in-memory form for
//! callers that want every case report back.
//!
//! Every instance ends up in the report, whatever happens: an adapter that
//! cannot start, is given up on, or a run cancelled by SIGINT/SIGTERM leaves
//! the rest `not_run` with the reason, and the report partial.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use crate::case::catalog::{Catalog, Unreadable};
use crate::case::model::{Case, Instance};
use crate::harness::baseline::Baseline;
use crate::harness::route::Machine;
use crate::harness::worker::{Worker, not_run};
use crate::protocol::{AdapterHello, PROTOCOL_VERSION, Tool};
use crate::report::{CaseReport, REPORT_FORMAT, Report, Status, Summary};
use crate::subject::adapter::AdapterConfig;
use crate::subject::{AdapterFailure, Subject};

/// The call builder, under its former name.
pub use crate::harness::call::for_instance as call_for;
/// Where results go; here for code written before it moved to `report`.
pub use crate::report::sink::{Sink, Tee};
/// Who permission cases run as, and whether the harness is root; here for
/// code written before they moved to `sys`.
pub use crate::sys::{UNPRIVILEGED_USER, is_root};

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
    /// How to start a copy of the subject as [`UNPRIVILEGED_USER`], so that
    /// `permissions` cases are observed even when the harness runs as root.
    pub unprivileged: Option<AdapterConfig>,
    /// The adapter command for the report; `None` in-process.
    pub adapter_label: Option<String>,
    /// Where fixtures are built (the run's own directory, so a dead run's
    /// are found by `toolpath clean`); the system temporary directory if `None`.
    pub fixtures: Option<PathBuf>,
    /// Where each judged instance goes as it is judged, besides the counts.
    pub sink: Option<&'a dyn Sink>,
}

impl Default for RunConfig<'_> {
    fn default() -> Self {
        RunConfig {
            jobs: 1,
            keep_fixtures: false,
            strict: false,
            baseline: Baseline::default(),
            unprivileged: None,
            adapter_label: None,
            fixtures: None,
            sink: None,
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

/// The instances of a run, fetched one at a time when their turn comes, so
/// a run need not hold them all.
pub trait Instances: Sync {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The case of the instance at `position`, and its tool; or why it can
    /// no longer be read (reported as that instance's `case_error`).
    fn get(&self, position: usize) -> Result<(Cow<'_, Case>, Tool), Unreadable>;
}

/// Instances already in memory.
pub struct Listed<'a, 'c>(pub &'a [Instance<'c>]);

impl Instances for Listed<'_, '_> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn get(&self, position: usize) -> Result<(Cow<'_, Case>, Tool), Unreadable> {
        let instance = self.0[position];
        Ok((Cow::Borrowed(instance.case), instance.tool))
    }
}

impl Instances for Catalog {
    fn len(&self) -> usize {
        Catalog::len(self)
    }

    fn get(&self, position: usize) -> Result<(Cow<'_, Case>, Tool), Unreadable> {
        Catalog::get(self, position)
    }
}

/// What the workers share.
struct Shared<'r, 'c> {
    config: &'r RunConfig<'c>,
    env: &'r Environment<'r>,
    instances: &'r dyn Instances,
    total: usize,
    next: AtomicUsize,
    gave_up: AtomicBool,
    summary: Mutex<Summary>,
    hello: OnceLock<AdapterHello>,
    start_failure: Mutex<Option<AdapterFailure>>,
}

impl Shared<'_, '_> {
    /// The next instance to run, if any is left.
    fn claim(&self) -> Option<usize> {
        let index = self.next.fetch_add(1, Ordering::SeqCst);
        (index < self.total).then_some(index)
    }

    /// Why no more instances are sent, if they are not.
    fn stop_reason(&self) -> Option<String> {
        if let Some(signal) = (self.env.cancelled)() {
            Some(cancelled(signal))
        } else if self.gave_up.load(Ordering::SeqCst) {
            Some("the adapter was given up on after too many restarts".into())
        } else {
            None
        }
    }

    /// The first worker's hello starts the sink.
    fn started(&self, hello: &AdapterHello) {
        if self.hello.set(hello.clone()).is_ok()
            && let Some(sink) = self.config.sink
        {
            sink.start(&head(self.config, &hello.implementation), self.total);
        }
    }

    /// Counts `report`, which replaces one of status `replaces` if given,
    /// and passes it on.
    fn record(&self, position: usize, report: &CaseReport, replaces: Option<Status>) {
        {
            let mut summary = self.summary.lock().expect("summary");
            if let Some(old) = replaces {
                summary.remove(old);
            }
            summary.add(report.status);
        }
        if let Some(sink) = self.config.sink {
            sink.record(position, report, replaces.is_some());
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

/// A report's header fields for this run, with no cases and no counts yet.
fn head(config: &RunConfig, implementation: &crate::protocol::Implementation) -> Report {
    Report {
        format: REPORT_FORMAT,
        suite: crate::SUITE_VERSION.to_owned(),
        protocol: PROTOCOL_VERSION,
        implementation: implementation.clone(),
        adapter: config.adapter_label.clone(),
        partial: false,
        strict: config.strict,
        duration_ms: 0.0,
        fixture_dir: None,
        summary: Summary::default(),
        cases: Vec::new(),
    }
}

/// Runs `instances` and returns the report with every case in it, in the
/// order given, run or not (with the reason). Holds every case report; a
/// run of any size goes through [`run_into`] with a sink instead.
pub fn run(instances: &[Instance], make: &SubjectFactory, config: &RunConfig) -> Report {
    let kept = Keep(Mutex::new(vec![None; instances.len()]));
    let config = RunConfig {
        sink: Some(&kept),
        ..config.clone()
    };
    let mut report = run_into(&Listed(instances), make, &config);
    report.cases = kept
        .0
        .into_inner()
        .expect("kept")
        .into_iter()
        .map(|case| case.expect("every instance is recorded"))
        .collect();
    report
}

/// Keeps every case report, for [`run`].
struct Keep(Mutex<Vec<Option<CaseReport>>>);

impl Sink for Keep {
    fn start(&self, _: &Report, _: usize) {}
    fn record(&self, position: usize, report: &CaseReport, _: bool) {
        self.0.lock().expect("kept")[position] = Some(report.clone());
    }
    fn end(&self, _: &Report) {}
}

/// Runs `instances`, sending every one to `config.sink` (each position
/// exactly once, plus amendments), and returns the report's header and
/// counts, without cases.
pub fn run_into(instances: &dyn Instances, make: &SubjectFactory, config: &RunConfig) -> Report {
    let env = Environment {
        machine: Machine::here(config.unprivileged.is_some()),
        cancelled: &crate::cancel::signal,
    };
    run_in(instances, make, config, &env)
}

/// [`run_into`] in the given [`Environment`].
pub fn run_in(
    instances: &dyn Instances,
    make: &SubjectFactory,
    config: &RunConfig,
    env: &Environment,
) -> Report {
    let started = Instant::now();
    let shared = Shared {
        config,
        env,
        instances,
        total: instances.len(),
        next: AtomicUsize::new(0),
        gave_up: AtomicBool::new(false),
        summary: Mutex::new(Summary::default()),
        hello: OnceLock::new(),
        start_failure: Mutex::new(None),
    };
    let jobs = config.jobs.max(1).min(shared.total.max(1));
    // Every worker starts its own subject at once, so slow start-ups overlap
    // and are paid once per worker, never once per case.
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| work(make, &shared));
        }
    });
    let implementation = shared
        .hello
        .get()
        .map(|h| h.implementation.clone())
        .unwrap_or_default();
    if shared.hello.get().is_none()
        && let Some(sink) = config.sink
    {
        sink.start(&head(config, &implementation), shared.total);
    }
    let failure = shared.start_failure.lock().expect("start").take();
    while let Some(position) = shared.claim() {
        let report = match instances.get(position) {
            Ok((case, tool)) => never_run(
                &Instance { case: &case, tool },
                failure.as_ref(),
                (env.cancelled)(),
            ),
            Err(unreadable) => case_error(unreadable),
        };
        shared.record(position, &report, None);
    }
    let mut report = head(config, &implementation);
    report.summary = shared.summary.into_inner().expect("summary");
    report.partial = report.summary.not_run > 0;
    report.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    if let Some(sink) = config.sink {
        sink.end(&report);
    }
    report
}

/// The report of an instance whose case file could not be read again.
fn case_error(unreadable: Unreadable) -> CaseReport {
    CaseReport::new(
        unreadable.id,
        unreadable.case,
        unreadable.tool,
        unreadable.file.display().to_string(),
        unreadable.line,
        Status::CaseError,
        Some(unreadable.message),
    )
}

/// An instance no worker took: the subject never started (or the run was
/// cancelled first).
fn never_run(
    instance: &Instance,
    failure: Option<&AdapterFailure>,
    signal: Option<i32>,
) -> CaseReport {
    let reason = match (signal, failure) {
        (Some(signal), _) => cancelled(signal),
        (None, Some(f)) => format!("the adapter could not be started: {f}"),
        (None, None) => "not run".into(),
    };
    let mut report = not_run(instance, &reason);
    report.stderr = failure.map(|f| f.stderr.clone()).filter(|s| !s.is_empty());
    report
}

/// One worker thread: its own subject, instances taken one at a time.
fn work(make: &SubjectFactory, shared: &Shared) {
    if shared.stop_reason().is_some() {
        return;
    }
    let subject = match make() {
        Ok(subject) => subject,
        Err(failure) => {
            shared
                .start_failure
                .lock()
                .expect("start failure")
                .get_or_insert(failure);
            return;
        }
    };
    shared.started(subject.hello());
    let mut worker = Worker::new(subject, shared.config, shared.env);
    let record_amended = |amended: Vec<crate::harness::worker::Amended>| {
        for a in amended {
            shared.record(a.position, &a.report, Some(a.replaces));
        }
    };
    while let Some(position) = shared.claim() {
        let report = match shared.instances.get(position) {
            Err(unreadable) => case_error(unreadable),
            Ok((case, tool)) => {
                let instance = Instance { case: &case, tool };
                match shared.stop_reason() {
                    Some(reason) => not_run(&instance, &reason),
                    None => worker.run(position, &instance),
                }
            }
        };
        if report.status == Status::NotRun && (shared.env.cancelled)().is_none() {
            shared.gave_up.store(true, Ordering::SeqCst);
        }
        shared.record(position, &report, None);
        record_amended(worker.answered(position, report));
    }
    record_amended(worker.finish());
}
