//! Runs case instances against a subject and collects the report.
//!
//! Per instance: decide whether it can run at all (expectations, declared
//! tools and features, what the machine can observe), build the fixture,
//! send the call, compare, and remove the fixture. Workers run in parallel,
//! each with its own subject (for an adapter: its own process).
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

use serde_json::Value;

use crate::case::catalog::{Catalog, Unreadable};
use crate::case::fixture::BuiltFixture;
use crate::case::model::{Action, Case, Instance};
use crate::case::raw::Feature;
use crate::harness::expectations::{self, Expectations, ExpectedStatus};
use crate::harness::expected::Expected;
use crate::harness::judge::{Verdict, judge, judge_description};
use crate::protocol::{AdapterHello, Call, Outcome, PROTOCOL_VERSION, Tool, ToolResult};
use crate::report::{CaseReport, REPORT_FORMAT, Report, Status, Summary};
use crate::subject::adapter::{Adapter, AdapterConfig};
use crate::subject::{AdapterFailure, FailureKind, Subject};

/// The user permission cases run as when the harness is root (`nobody`).
pub const UNPRIVILEGED_USER: (u32, u32) = (65534, 65534);

/// Makes a fresh subject for a worker.
pub type SubjectFactory<'a> =
    dyn Fn() -> Result<Box<dyn Subject + Send>, AdapterFailure> + Sync + 'a;

/// How to run.
#[derive(Clone)]
pub struct RunConfig<'a> {
    pub jobs: usize,
    pub keep_fixtures: bool,
    pub strict: bool,
    pub expectations: Expectations,
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

/// Where a run's results go as they happen: the event log, a progress
/// display, or a list kept in memory.
pub trait Sink: Sync {
    /// The run started; `head` has the header fields (no cases, no counts).
    fn start(&self, head: &Report, total: usize);
    /// The report of the instance at `position`. `amended` when it replaces
    /// an earlier report of the same position: a protocol violation found
    /// after an answer is charged to that answer's instance this way.
    fn record(&self, position: usize, report: &CaseReport, amended: bool);
    /// The run ended (finished or cancelled); `head` has the counts.
    fn end(&self, head: &Report);
}

/// Every sink in turn.
pub struct Tee<'a>(pub Vec<&'a dyn Sink>);

impl Sink for Tee<'_> {
    fn start(&self, head: &Report, total: usize) {
        self.0.iter().for_each(|sink| sink.start(head, total));
    }

    fn record(&self, position: usize, report: &CaseReport, amended: bool) {
        self.0
            .iter()
            .for_each(|sink| sink.record(position, report, amended));
    }

    fn end(&self, head: &Report) {
        self.0.iter().for_each(|sink| sink.end(head));
    }
}

impl Default for RunConfig<'_> {
    fn default() -> Self {
        RunConfig {
            jobs: 1,
            keep_fixtures: false,
            strict: false,
            expectations: Expectations::default(),
            unprivileged: None,
            adapter_label: None,
            fixtures: None,
            sink: None,
        }
    }
}

/// Whether `git` runs here, checked once per process.
fn git_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(crate::case::fixture::git_available)
}

/// Whether this process runs as root, which ignores permission bits.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// What the workers share.
struct Shared<'r, 'c> {
    config: &'r RunConfig<'c>,
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
        if let Some(signal) = crate::cancel::signal() {
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

    /// Charges a protocol violation found after its answer to `report`,
    /// the instance at `position`.
    fn amend(&self, position: usize, report: &mut CaseReport, violation: AdapterFailure) {
        let old = report.status;
        report.status = Status::AdapterError;
        report.reason = Some(violation.to_string());
        report.stderr = Some(violation.stderr).filter(|s| !s.is_empty());
        let entry = self.config.expectations.lookup(&report.id);
        expectations::apply(entry, report);
        self.record(position, report, Some(old));
    }
}

fn cancelled(signal: i32) -> String {
    format!(
        "the run was cancelled by {}",
        crate::cancel::signal_name(signal)
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
    let started = Instant::now();
    let shared = Shared {
        config,
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
            Ok((case, tool)) => never_run(&Instance { case: &case, tool }, failure.as_ref()),
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
fn never_run(instance: &Instance, failure: Option<&AdapterFailure>) -> CaseReport {
    let reason = match (crate::cancel::signal(), failure) {
        (Some(signal), _) => cancelled(signal),
        (None, Some(f)) => format!("the adapter could not be started: {f}"),
        (None, None) => "not run".into(),
    };
    let mut report = not_run(instance, &reason);
    report.stderr = failure.map(|f| f.stderr.clone()).filter(|s| !s.is_empty());
    report
}

/// One worker: its own subject, instances taken one at a time.
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
    let mut worker = Worker::new(subject, shared.config);
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
        if report.status == Status::NotRun && !crate::cancel::requested() {
            shared.gave_up.store(true, Ordering::SeqCst);
        }
        shared.record(position, &report, None);
        worker.recent.push((position, report));
        worker.charge(shared);
    }
    worker.finish();
    worker.charge(shared);
}

fn base_report(instance: &Instance, status: Status, reason: Option<String>) -> CaseReport {
    let case = instance.case;
    CaseReport {
        spec: case.spec.clone(),
        tags: case.tags.clone(),
        ..CaseReport::new(
            instance.id(),
            case.id.clone(),
            instance.tool,
            case.file.display().to_string(),
            case.line,
            status,
            reason,
        )
    }
}

fn not_run(instance: &Instance, reason: &str) -> CaseReport {
    base_report(instance, Status::NotRun, Some(reason.into()))
}

struct Worker<'a, 'b> {
    subject: Box<dyn Subject + Send>,
    unprivileged: Option<Result<Adapter, String>>,
    hello: AdapterHello,
    config: &'a RunConfig<'b>,
    /// The instance being run.
    current: usize,
    /// The instance each route answered last, which a violation found
    /// before the next call on that route is charged to.
    last_sent: [Option<usize>; 2],
    /// Violations found, with the instance each is charged to.
    violations: Vec<(usize, AdapterFailure)>,
    /// The reports a violation may still be charged to: the instances in
    /// `last_sent` (and the current one), never more than three.
    recent: Vec<(usize, CaseReport)>,
}

/// Where a runnable instance is sent.
#[derive(Clone, Copy)]
enum Route {
    Normal = 0,
    Unprivileged = 1,
}

/// Why an instance is not sent: the status to report and the reason.
type Refusal = (Status, String);

impl<'a, 'b> Worker<'a, 'b> {
    fn new(subject: Box<dyn Subject + Send>, config: &'a RunConfig<'b>) -> Self {
        Worker {
            hello: subject.hello().clone(),
            subject,
            unprivileged: None,
            config,
            current: 0,
            last_sent: [None, None],
            violations: Vec::new(),
            recent: Vec::new(),
        }
    }

    /// Charges each violation found to the report of its instance, then
    /// forgets the reports no violation can reach any more.
    fn charge(&mut self, shared: &Shared) {
        for (position, violation) in self.violations.drain(..) {
            if let Some((_, report)) = self.recent.iter_mut().find(|(p, _)| *p == position) {
                shared.amend(position, report, violation);
            }
        }
        let last_sent = self.last_sent;
        self.recent.retain(|(p, _)| last_sent.contains(&Some(*p)));
    }

    fn run(&mut self, index: usize, instance: &Instance) -> CaseReport {
        self.current = index;
        let started = Instant::now();
        let entry = self.config.expectations.lookup(&instance.id());
        let mut report = match entry.filter(|e| e.status == ExpectedStatus::Skip) {
            Some(skip) => {
                let mut r = base_report(instance, Status::Skip, Some(skip.reason.clone()));
                r.expectation = Some(skip.note());
                r
            }
            None => match self.route(instance) {
                Err((status, reason)) => base_report(instance, status, Some(reason)),
                Ok(route) => self.execute(instance, route),
            },
        };
        expectations::apply(entry, &mut report);
        report.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
        report
    }

    /// Ends the subjects; output written after their last answer is charged
    /// to that answer's instance.
    fn finish(&mut self) {
        let normal = self.subject.finish();
        let unprivileged = match self.unprivileged.as_mut() {
            Some(Ok(adapter)) => adapter.finish(),
            _ => None,
        };
        for (route, violation) in [(Route::Normal, normal), (Route::Unprivileged, unprivileged)] {
            if let (Some(v), Some(index)) = (violation, self.last_sent[route as usize]) {
                self.violations.push((index, v));
            }
        }
    }

    /// The subject a route goes to.
    fn subject(&mut self, route: Route) -> &mut dyn Subject {
        match (route, self.unprivileged.as_mut()) {
            (Route::Normal, _) => self.subject.as_mut(),
            (Route::Unprivileged, Some(Ok(adapter))) => adapter,
            _ => unreachable!("routed here only once the unprivileged runner started"),
        }
    }

    /// Decides whether the instance can be sent, and where. Cases the
    /// adapter cannot take are `unsupported`; cases this machine cannot
    /// observe are `skip`, with the reason, never passed silently.
    fn route(&mut self, instance: &Instance) -> Result<Route, Refusal> {
        let case = instance.case;
        let hello = &self.hello;
        if !hello.tools.contains(&instance.tool) {
            return Err((
                Status::Unsupported,
                format!("the adapter does not provide the `{}` tool", instance.tool),
            ));
        }
        for feature in &case.requires {
            let reason = match feature {
                Feature::Symlinks | Feature::Fifos | Feature::Sockets | Feature::Devices
                    if !hello.features.iter().any(|f| f == feature.name()) =>
                {
                    format!(
                        "the adapter does not declare the `{}` feature",
                        feature.name()
                    )
                }
                Feature::Schemas if !hello.schemas.contains_key(instance.tool.name()) => {
                    format!("the adapter publishes no schema for `{}`", instance.tool)
                }
                _ => continue,
            };
            return Err((Status::Unsupported, reason));
        }
        if case.requires.contains(&Feature::Git) && !git_available() {
            return Err((
                Status::Skip,
                "the case's roots are git repositories and `git` is not on PATH".into(),
            ));
        }
        if case.requires.contains(&Feature::Devices) && !is_root() {
            return Err((
                Status::Skip,
                "creating a device node needs root; this harness is not root".into(),
            ));
        }
        if !(case.requires.contains(&Feature::Permissions) && is_root()) {
            return Ok(Route::Normal);
        }
        let Some(config) = self.config.unprivileged.clone() else {
            return Err((
                Status::Skip,
                "permission bits are not enforced for root, and no unprivileged runner is available".into(),
            ));
        };
        match self
            .unprivileged
            .get_or_insert_with(|| Adapter::start(config).map_err(|e| e.to_string()))
        {
            Ok(_) => Ok(Route::Unprivileged),
            Err(message) => Err((
                Status::Skip,
                format!(
                    "permission bits are not enforced for root, and the unprivileged runner failed: {message}"
                ),
            )),
        }
    }

    fn execute(&mut self, instance: &Instance, route: Route) -> CaseReport {
        let case = instance.case;
        match &case.action {
            Action::Describe(param) => {
                let description = self
                    .hello
                    .schemas
                    .get(instance.tool.name())
                    .and_then(|schema| schema.pointer(&format!("/properties/{param}/description")))
                    .and_then(Value::as_str);
                self.judge(instance, judge_description(&case.expect, description), None)
            }
            Action::Invoke(params) => self.invoke(instance, params, route),
        }
    }

    /// Builds the fixture, sends the call where `route` says, and judges the answer.
    fn invoke(
        &mut self,
        instance: &Instance,
        params: &serde_json::Map<String, Value>,
        route: Route,
    ) -> CaseReport {
        let case = instance.case;
        let built =
            match crate::case::fixture::build(&case.fixture, self.config.fixtures.as_deref()) {
                Ok(built) => built,
                Err(e) => {
                    return base_report(
                        instance,
                        Status::CaseError,
                        Some(format!("{}: {e}", case.file.display())),
                    );
                }
            };
        // `{adapter-tmp}` names the scratch directory of the process the
        // call goes to, in the parameters as in the expectation.
        let vars = match self.placeholders(&built.vars, route) {
            Ok(vars) => vars,
            Err(failure) => return self.classify(instance, Err(failure), &built, route),
        };
        let call = call_for(instance, params, &vars, &built);
        let answer = match route {
            Route::Normal => self.send(route, &call),
            Route::Unprivileged => {
                match built.chown_all(UNPRIVILEGED_USER.0, UNPRIVILEGED_USER.1) {
                    Ok(()) => self.send(route, &call),
                    Err(e) => Err(AdapterFailure {
                        kind: FailureKind::Crash,
                        message: format!("cannot hand the fixture to the unprivileged user: {e}"),
                        stderr: String::new(),
                    }),
                }
            }
        };
        let mut report = self.classify(instance, answer, &built, route);
        if self.config.keep_fixtures && report.status != Status::Pass {
            report.fixture = Some(built.keep().display().to_string());
        }
        report
    }

    /// Sends `call` to the subject of `route`. Output that subject wrote
    /// after its previous answer is charged to the instance of that answer
    /// (or to this one, if it answered nothing before).
    fn send(&mut self, route: Route, call: &Call) -> Result<ToolResult, AdapterFailure> {
        let previous = self.last_sent[route as usize].replace(self.current);
        let subject = self.subject(route);
        let answer = subject.call(call);
        if let Some(violation) = subject.take_violation() {
            let charged = previous.unwrap_or(self.current);
            self.violations.push((charged, violation));
        }
        answer
    }

    /// The report for an answer (or a failure to get one).
    fn classify(
        &mut self,
        instance: &Instance,
        answer: Result<ToolResult, AdapterFailure>,
        built: &BuiltFixture,
        route: Route,
    ) -> CaseReport {
        match answer {
            Err(failure) if failure.kind == FailureKind::GaveUp => {
                not_run(instance, &failure.message)
            }
            Err(failure) if failure.kind == FailureKind::Cancelled => not_run(
                instance,
                &cancelled(crate::cancel::signal().unwrap_or(libc::SIGINT)),
            ),
            Err(failure) => {
                let mut r = base_report(instance, Status::AdapterError, Some(failure.to_string()));
                r.stderr = Some(failure.stderr).filter(|s| !s.is_empty());
                r
            }
            Ok(result) if result.outcome == Some(Outcome::Unsupported) => base_report(
                instance,
                Status::Unsupported,
                Some(
                    result
                        .reason
                        .unwrap_or_else(|| "the adapter answered `unsupported`".into()),
                ),
            ),
            Ok(result) => {
                // Placeholders and stderr come from the subject that answered
                // (the unprivileged copy for permission cases).
                let subject = self.subject(route);
                let mut vars = built.vars.clone();
                if let Some(scratch) = subject.scratch_dir() {
                    vars.add("adapter-tmp", &scratch.to_string_lossy());
                }
                let case = instance.case;
                let expected = Expected::derive(
                    &case.expect,
                    &case.fixture,
                    instance.tool,
                    &vars,
                    &built.root,
                );
                let verdict = judge(&expected, &result, &self.hello.unobservable, &vars);
                let stderr = Some(self.subject(route).stderr_tail()).filter(|s| !s.is_empty());
                self.judge(instance, verdict, stderr)
            }
        }
    }

    /// The fixture's placeholders plus `{adapter-tmp}`, the scratch
    /// directory of the subject `route` goes to (started first if it has to
    /// be, so the directory is the one the call will meet).
    fn placeholders(
        &mut self,
        fixture: &crate::case::placeholders::Placeholders,
        route: Route,
    ) -> Result<crate::case::placeholders::Placeholders, AdapterFailure> {
        let subject = self.subject(route);
        subject.ready()?;
        let mut vars = fixture.clone();
        if let Some(scratch) = subject.scratch_dir() {
            vars.add("adapter-tmp", &scratch.to_string_lossy());
        }
        Ok(vars)
    }

    fn judge(&self, instance: &Instance, verdict: Verdict, stderr: Option<String>) -> CaseReport {
        let passed = verdict.passed();
        let status = match (passed, verdict.unchecked.is_empty()) {
            (false, _) => Status::Fail,
            (true, true) => Status::Pass,
            // Agreeing on what could be seen is not passing what could not.
            (true, false) => Status::Unobserved,
        };
        let reason = (status == Status::Unobserved).then(|| {
            format!(
                "agreed on every field that could be checked; not observable: {}",
                verdict.unchecked.join(", ")
            )
        });
        let mut report = base_report(instance, status, reason);
        if !passed {
            report.diff = Some(verdict.diff());
            report.mismatches = verdict.mismatches;
            report.stderr = stderr;
        }
        report.unchecked = verdict.unchecked;
        report
    }
}

/// The call for one instance, with the fixture's paths in its parameters
/// (and `command: pwd` for a shell case that gives none).
pub fn call_for(
    instance: &Instance,
    params: &serde_json::Map<String, Value>,
    vars: &crate::case::placeholders::Placeholders,
    built: &BuiltFixture,
) -> Call {
    let mut params = match vars.expand_json(&Value::Object(params.clone())) {
        Value::Object(map) => map,
        _ => unreachable!("an object expands to an object"),
    };
    if instance.tool == Tool::Shell && !params.contains_key("command") {
        params.insert("command".into(), Value::String("pwd".into()));
    }
    Call {
        seq: 0,
        case: instance.id(),
        workspace: built.workspace.clone(),
        tool: instance.tool,
        params,
    }
}
