//! Runs case instances against a subject and collects the report.
//!
//! Per instance: decide whether it can run at all (expectations, declared
//! tools and features, what the machine can observe), build the fixture,
//! send the call, compare, and remove the fixture. Workers run in parallel,
//! each with its own subject (for an adapter: its own process).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use serde_json::Value;

use crate::case::model::{Action, Instance};
use crate::case::raw::Feature;
use crate::harness::compare::{Comparison, compare, compare_description};
use crate::harness::expectations::{self, Expectations, ExpectedStatus};
use crate::protocol::{AdapterHello, Call, Outcome, PROTOCOL_VERSION, Tool};
use crate::report::{CaseReport, REPORT_FORMAT, Report, Status, Summary};
use crate::subject::adapter::{Adapter, AdapterConfig};
use crate::subject::{AdapterFailure, FailureKind, Subject};

/// The user permission cases run as when the harness is root (`nobody`).
pub const UNPRIVILEGED_USER: (u32, u32) = (65534, 65534);

/// Makes a fresh subject for a worker.
pub type SubjectFactory<'a> =
    dyn Fn() -> Result<Box<dyn Subject + Send>, AdapterFailure> + Sync + 'a;

/// How to run.
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
    /// Called after each instance (progress display).
    pub on_case: Option<&'a (dyn Fn(&CaseReport) + Sync)>,
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
            on_case: None,
        }
    }
}

/// Whether this process runs as root, which ignores permission bits.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Runs `instances` and returns the report, in the order given.
pub fn run(
    instances: &[Instance],
    make: &SubjectFactory,
    config: &RunConfig,
) -> Result<Report, AdapterFailure> {
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let gave_up = AtomicBool::new(false);
    let results: Mutex<Vec<Option<CaseReport>>> = Mutex::new(vec![None; instances.len()]);
    let hello: OnceLock<AdapterHello> = OnceLock::new();
    let start_failure: Mutex<Option<AdapterFailure>> = Mutex::new(None);
    let jobs = config.jobs.max(1).min(instances.len().max(1));

    // Every worker starts its own subject at once, so slow start-ups overlap
    // and are paid once per worker, never once per case.
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                let subject = match make() {
                    Ok(subject) => subject,
                    Err(failure) => {
                        start_failure
                            .lock()
                            .expect("start failure")
                            .get_or_insert(failure);
                        return;
                    }
                };
                let own_hello = subject.hello().clone();
                let _ = hello.set(own_hello.clone());
                let mut worker = Worker {
                    subject,
                    unprivileged: None,
                    hello: own_hello,
                    config,
                };
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(instance) = instances.get(index) else {
                        break;
                    };
                    let report = if gave_up.load(Ordering::SeqCst) {
                        not_run(
                            instance,
                            "the adapter was given up on after too many restarts",
                        )
                    } else {
                        let report = worker.run(instance);
                        if report.status == Status::NotRun {
                            gave_up.store(true, Ordering::SeqCst);
                        }
                        report
                    };
                    if let Some(callback) = config.on_case {
                        callback(&report);
                    }
                    results.lock().expect("results")[index] = Some(report);
                }
            });
        }
    });

    let Some(hello) = hello.into_inner() else {
        return Err(start_failure
            .into_inner()
            .expect("start failure")
            .expect("no worker started"));
    };
    let cases: Vec<CaseReport> = results
        .into_inner()
        .expect("results")
        .into_iter()
        .map(|r| r.expect("every instance ran"))
        .collect();
    Ok(Report {
        format: REPORT_FORMAT,
        suite: crate::SUITE_VERSION.to_owned(),
        protocol: PROTOCOL_VERSION,
        implementation: hello.implementation.clone(),
        adapter: config.adapter_label.clone(),
        partial: gave_up.load(Ordering::SeqCst),
        strict: config.strict,
        duration_ms: started.elapsed().as_secs_f64() * 1000.0,
        summary: Summary::of(&cases),
        cases,
    })
}

fn base_report(instance: &Instance, status: Status, reason: Option<String>) -> CaseReport {
    let case = instance.case;
    CaseReport {
        id: instance.id(),
        case: case.id.clone(),
        tool: instance.tool,
        file: case.file.display().to_string(),
        line: case.line,
        spec: case.spec.clone(),
        tags: case.tags.clone(),
        status,
        reason,
        diff: None,
        unchecked: Vec::new(),
        expectation: None,
        stderr: None,
        fixture: None,
        duration_ms: 0.0,
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
}

/// Where a runnable instance is sent.
enum Route {
    Normal,
    Unprivileged,
}

/// Why an instance is not sent: the status to report and the reason.
type Refusal = (Status, String);

impl Worker<'_, '_> {
    fn run(&mut self, instance: &Instance) -> CaseReport {
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
        if let Action::Describe(param) = &case.action {
            let description = self
                .hello
                .schemas
                .get(instance.tool.name())
                .and_then(|schema| schema.pointer(&format!("/properties/{param}/description")))
                .and_then(Value::as_str);
            return self.judge(
                instance,
                compare_description(&case.expect, description),
                None,
            );
        }
        let Action::Invoke(params) = &case.action else {
            unreachable!("describe handled above")
        };

        let built = match crate::case::fixture::build(&case.fixture, None) {
            Ok(built) => built,
            Err(e) => {
                return base_report(
                    instance,
                    Status::CaseError,
                    Some(format!("{}: {e}", case.file.display())),
                );
            }
        };
        let mut params = match built.vars.expand_json(&Value::Object(params.clone())) {
            Value::Object(map) => map,
            _ => unreachable!("an object expands to an object"),
        };
        if instance.tool == Tool::Shell && !params.contains_key("command") {
            params.insert("command".into(), Value::String("pwd".into()));
        }
        let call = Call {
            seq: 0,
            case: instance.id(),
            workspace: built.workspace.clone(),
            tool: instance.tool,
            params,
        };
        let answer = match route {
            Route::Normal => self.send(&call),
            Route::Unprivileged => {
                match built.chown_all(UNPRIVILEGED_USER.0, UNPRIVILEGED_USER.1) {
                    Ok(()) => self.send_unprivileged(&call),
                    Err(e) => Err(AdapterFailure {
                        kind: FailureKind::Crash,
                        message: format!("cannot hand the fixture to the unprivileged user: {e}"),
                        stderr: String::new(),
                    }),
                }
            }
        };
        let mut report = match answer {
            Err(failure) if failure.kind == FailureKind::GaveUp => {
                not_run(instance, &failure.message)
            }
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
                let mut vars = built.vars.clone();
                if let Some(scratch) = self.subject.scratch_dir() {
                    vars.add("adapter-tmp", &scratch.to_string_lossy());
                }
                let expect = expand_expect(&case.expect, &vars);
                let unobservable = &self.hello.unobservable;
                let comparison = compare(&expect, &result, unobservable, &vars);
                let stderr = Some(self.subject.stderr_tail()).filter(|s| !s.is_empty());
                self.judge(instance, comparison, stderr)
            }
        };
        if self.config.keep_fixtures && report.status != Status::Pass {
            report.fixture = Some(built.keep().display().to_string());
        }
        report
    }

    fn judge(
        &self,
        instance: &Instance,
        comparison: Comparison,
        stderr: Option<String>,
    ) -> CaseReport {
        let passed = comparison.passed();
        let mut report = base_report(
            instance,
            if passed { Status::Pass } else { Status::Fail },
            None,
        );
        if !passed {
            report.diff = Some(comparison.diff());
            report.stderr = stderr;
        }
        report.unchecked = comparison.unchecked;
        report
    }

    fn send(&mut self, call: &Call) -> Result<crate::protocol::ToolResult, AdapterFailure> {
        self.subject.call(call)
    }

    fn send_unprivileged(
        &mut self,
        call: &Call,
    ) -> Result<crate::protocol::ToolResult, AdapterFailure> {
        match self.unprivileged.as_mut() {
            Some(Ok(adapter)) => adapter.call(call),
            _ => unreachable!("routed here only once the unprivileged runner started"),
        }
    }
}

/// The expectation with placeholders replaced by this fixture's paths.
fn expand_expect(
    expect: &crate::case::model::Expect,
    vars: &crate::case::fixture::Placeholders,
) -> crate::case::model::Expect {
    let mut e = expect.clone();
    for field in [&mut e.path, &mut e.parent, &mut e.cwd]
        .into_iter()
        .flatten()
    {
        *field = vars.expand(field);
    }
    for m in e.matches.iter_mut().flatten() {
        m.path = vars.expand(&m.path);
    }
    for error in e.error.iter_mut() {
        for needle in &mut error.message_contains {
            *needle = vars.expand(needle);
        }
    }
    e
}
