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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use crate::case::catalog::{Catalog, Unreadable};
use crate::harness::config::{Environment, RunConfig, SubjectFactory, cancelled};
use crate::harness::route::Machine;
use crate::harness::worker::{Worker, not_run};
use crate::report::counts::Counts;
use crate::report::findings::Findings;
use crate::report::sink::Sink;
use crate::report::{CaseReport, REPORT_FORMAT, Report, Status, Summary};
use crate::subject::AdapterFailure;
use toolpath_suite::case::{Case, Instance};
use toolpath_suite::protocol::{AdapterHello, PROTOCOL_VERSION, Tool};

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
    /// Statuses, containment and per-rule counts of what was recorded.
    counts: Mutex<Counts>,
    hello: OnceLock<AdapterHello>,
    start_failure: Mutex<Option<AdapterFailure>>,
    /// Every worker's subject's findings, merged as each worker ends.
    findings: Mutex<Findings>,
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

    /// Counts `report`, which replaces the report `replaces` if given,
    /// and passes it on.
    fn record(&self, position: usize, report: &CaseReport, replaces: Option<&CaseReport>) {
        {
            let mut counts = self.counts.lock().expect("counts");
            if let Some(old) = replaces {
                counts.remove(old);
            }
            counts.add(report);
        }
        if let Some(sink) = self.config.sink {
            sink.record(position, report, replaces.is_some());
        }
    }
}

/// A report's header fields for this run, with no cases and no counts yet.
fn head(config: &RunConfig, implementation: &toolpath_suite::protocol::Implementation) -> Report {
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
        findings: Vec::new(),
        containment: Default::default(),
        rules: Default::default(),
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
        cancelled: &crate::sys::cancel::signal,
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
        counts: Mutex::new(Counts::default()),
        hello: OnceLock::new(),
        start_failure: Mutex::new(None),
        findings: Mutex::new(Findings::default()),
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
    report.set_counts(shared.counts.into_inner().expect("counts"));
    report.findings = shared.findings.into_inner().expect("findings").into_vec();
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
            shared.record(a.position, &a.report, Some(&a.replaces));
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
    let findings = worker.findings();
    shared.findings.lock().expect("findings").merge(findings);
}

#[cfg(test)]
mod tests {
    //! The run loop and the worker, driven by a scripted subject: no
    //! process, no sleep; fixtures are built on disk as in a real run.

    use std::path::Path;
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::harness::baseline::Baseline;
    use crate::subject::scripted::{Scripted, Step};
    use crate::subject::{FailureKind, Subject};
    use toolpath_suite::case::validate::parse_case;
    use toolpath_suite::protocol::{Call, ErrorCode, Tool, ToolResult};

    /// Case `t.{n}`: resolving a missing path is `not_found`.
    fn case(n: usize, tool: &str, params: &str) -> Case {
        let text = format!(
            "id: t.c{n}\nsummary: s\nspec: [ERR-5]\nfixture: {{roots: [ws]}}\n\
             call: {{tool: {tool}, params: {params}}}\n\
             expect: {{outcome: error, error: {{code: not_found}}}}\n"
        );
        parse_case(Path::new(&format!("c{n}.yaml")), &text).unwrap()
    }

    fn cases(n: usize) -> Vec<Case> {
        (0..n)
            .map(|i| case(i, "resolve", "{path: missing}"))
            .collect()
    }

    fn right() -> ToolResult {
        ToolResult::error(ErrorCode::NotFound, "missing: does not exist")
    }

    fn wrong() -> ToolResult {
        ToolResult::error(ErrorCode::PermissionDenied, "missing: permission denied")
    }

    fn hello() -> AdapterHello {
        AdapterHello {
            protocol: 1,
            tools: vec![Tool::Resolve],
            ..AdapterHello::default()
        }
    }

    /// One record a sink received: position, status, reason, amended.
    type Line = (usize, Status, Option<String>, bool);

    /// Every record the sink received.
    #[derive(Default)]
    struct Recorded {
        lines: Mutex<Vec<Line>>,
        /// Set when the record for position 0 arrives (see `cancel`).
        first_seen: AtomicBool,
    }

    impl Sink for Recorded {
        fn start(&self, _: &Report, _: usize) {}
        fn record(&self, position: usize, report: &CaseReport, amended: bool) {
            if position == 0 {
                self.first_seen.store(true, Ordering::SeqCst);
            }
            self.lines.lock().unwrap().push((
                position,
                report.status,
                report.reason.clone(),
                amended,
            ));
        }
        fn end(&self, _: &Report) {}
    }

    impl Recorded {
        /// The last record of each position.
        fn last(&self) -> Vec<(Status, Option<String>)> {
            let lines = self.lines.lock().unwrap();
            let n = lines.iter().map(|l| l.0 + 1).max().unwrap_or(0);
            (0..n)
                .map(|p| {
                    let l = lines.iter().rev().find(|l| l.0 == p).unwrap();
                    (l.1, l.2.clone())
                })
                .collect()
        }

        fn amended(&self) -> Vec<usize> {
            let lines = self.lines.lock().unwrap();
            lines.iter().filter(|l| l.3).map(|l| l.0).collect()
        }
    }

    const MACHINE: Machine = Machine {
        root: false,
        unprivileged_runner: false,
    };

    fn never_cancelled() -> Option<i32> {
        None
    }

    /// Runs `cases` against a fresh script (one worker) into a recording sink.
    fn run_script(
        cases: &[Case],
        script: impl Fn() -> Scripted + Sync,
        baseline: Baseline,
        cancelled: &(dyn Fn() -> Option<i32> + Sync),
        sink: &Recorded,
    ) -> Report {
        let instances: Vec<Instance> = cases.iter().flat_map(|c| c.instances()).collect();
        let fixtures = tempfile::tempdir().unwrap();
        let config = RunConfig {
            baseline,
            fixtures: Some(fixtures.path().to_owned()),
            sink: Some(sink),
            ..RunConfig::default()
        };
        let env = Environment {
            machine: MACHINE,
            cancelled,
        };
        let make = || Ok(Box::new(script()) as Box<dyn Subject + Send>);
        let report = run_in(&Listed(&instances), &make, &config, &env);
        let left: Vec<_> = std::fs::read_dir(fixtures.path()).unwrap().collect();
        assert!(left.is_empty(), "fixtures left behind: {left:?}");
        report
    }

    fn plain(steps: Vec<Step>) -> impl Fn() -> Scripted + Sync {
        move || Scripted::new(hello(), steps.clone())
    }

    fn status(n: usize, status: Status) -> Summary {
        let mut summary = Summary::default();
        (0..n).for_each(|_| summary.add(status));
        summary
    }

    #[test]
    fn each_answer_is_judged_and_counted_once() {
        let sink = Recorded::default();
        let steps = vec![Step::Answer(right()), Step::Answer(wrong()), Step::Hang];
        let report = run_script(
            &cases(3),
            plain(steps),
            Baseline::default(),
            &never_cancelled,
            &sink,
        );
        let statuses: Vec<Status> = sink.last().into_iter().map(|(s, _)| s).collect();
        assert_eq!(statuses, [Status::Pass, Status::Fail, Status::AdapterError]);
        assert_eq!(sink.lines.lock().unwrap().len(), 3, "one record each");
        let mut want = Summary::default();
        [Status::Pass, Status::Fail, Status::AdapterError]
            .into_iter()
            .for_each(|s| want.add(s));
        assert_eq!(report.summary, want);
        assert!(!report.partial);
        assert_eq!(
            sink.last()[2].1.as_deref(),
            Some("timeout: no answer within the timeout")
        );
    }

    /// A request a server never answered fails its case (the server is
    /// the implementation: not an adapter error), with the mismatch on the
    /// answer; an instance the subject refuses is unsupported with its
    /// reason and never sent; the subject's findings reach the report.
    #[test]
    fn never_answered_fails_refusals_are_unsupported_and_findings_are_kept() {
        use crate::report::findings::{Finding, FindingKind};
        let sink = Recorded::default();
        let finding = Finding {
            kind: FindingKind::NeverAnswered,
            count: 1,
            example: "tools/call never answered".into(),
            cases: vec!["t.c0".into()],
        };
        let script = {
            let finding = finding.clone();
            move || {
                let steps = [
                    Step::Fail(FailureKind::NeverAnswered, "no response in 10 ms".into()),
                    Step::Answer(right()),
                ];
                Scripted::new(hello(), steps)
                    .refusing("t.c1", "the profile: no fitting tool")
                    .with_findings(vec![finding.clone()])
            }
        };
        let report = run_script(
            &cases(3),
            script,
            Baseline::default(),
            &never_cancelled,
            &sink,
        );
        let last = sink.last();
        assert_eq!(
            last.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
            [Status::Fail, Status::Unsupported, Status::Pass]
        );
        assert_eq!(
            last[0].1.as_deref(),
            Some("server never answered: no response in 10 ms")
        );
        assert_eq!(last[1].1.as_deref(), Some("the profile: no fitting tool"));
        assert_eq!(report.findings, [finding]);
        assert_eq!(report.summary.adapter_error, 0);
    }

    #[test]
    fn output_after_an_answer_is_charged_to_that_answer_not_the_next() {
        let sink = Recorded::default();
        let steps = vec![
            Step::AnswerThenWrite(right(), "{\"type\":\"result\"}".into()),
            Step::Answer(right()),
            Step::Answer(right()),
        ];
        let report = run_script(
            &cases(3),
            plain(steps),
            Baseline::default(),
            &never_cancelled,
            &sink,
        );
        let last = sink.last();
        assert_eq!(last[0].0, Status::AdapterError);
        assert!(
            last[0]
                .1
                .as_deref()
                .unwrap()
                .starts_with("unsolicited output: wrote while no call was outstanding"),
            "{last:?}"
        );
        assert_eq!((last[1].0, last[2].0), (Status::Pass, Status::Pass));
        assert_eq!(sink.amended(), [0], "one amendment, of position 0");
        let mut want = status(2, Status::Pass);
        want.add(Status::AdapterError);
        assert_eq!(report.summary, want, "the amended pass is uncounted");
    }

    #[test]
    fn output_after_the_last_answer_is_charged_when_the_subject_ends() {
        let sink = Recorded::default();
        let steps = vec![
            Step::Answer(right()),
            Step::AnswerThenWrite(right(), "late".into()),
        ];
        let report = run_script(
            &cases(2),
            plain(steps),
            Baseline::default(),
            &never_cancelled,
            &sink,
        );
        assert_eq!(sink.amended(), [1]);
        assert_eq!(sink.last()[1].0, Status::AdapterError);
        assert_eq!((report.summary.pass, report.summary.adapter_error), (1, 1));
    }

    #[test]
    fn an_amended_report_goes_through_the_baseline() {
        let sink = Recorded::default();
        let baseline = Baseline::parse(
            Path::new("b.yaml"),
            "t.c0:\n  status: xfail\n  reason: writes twice\n",
        )
        .unwrap();
        let steps = vec![
            Step::AnswerThenWrite(right(), "again".into()),
            Step::Answer(right()),
        ];
        let report = run_script(&cases(2), plain(steps), baseline, &never_cancelled, &sink);
        // First judged a pass, so an xpass; the violation makes it an xfail.
        let lines = sink.lines.lock().unwrap().clone();
        assert_eq!((lines[0].1, lines[0].3), (Status::Xpass, false));
        assert_eq!(sink.last()[0].0, Status::Xfail);
        assert_eq!((report.summary.xfail, report.summary.xpass), (1, 0));
    }

    #[test]
    fn given_up_after_its_restarts_the_rest_is_not_run_and_the_run_partial() {
        let sink = Recorded::default();
        let crash = || Step::Fail(FailureKind::Crash, "the adapter exited".into());
        let script = move || Scripted::new(hello(), [crash(), crash()]).max_restarts(1);
        let report = run_script(
            &cases(4),
            script,
            Baseline::default(),
            &never_cancelled,
            &sink,
        );
        let last = sink.last();
        assert_eq!(
            (last[0].0, last[1].0),
            (Status::AdapterError, Status::AdapterError)
        );
        assert_eq!(last[2].0, Status::NotRun);
        assert_eq!(
            last[2].1.as_deref(),
            Some("the adapter was restarted 1 times; giving up")
        );
        assert_eq!(
            last[3],
            (
                Status::NotRun,
                Some("the adapter was given up on after too many restarts".into())
            )
        );
        assert!(report.partial);
        assert_eq!(report.summary.not_run, 2);
    }

    #[test]
    fn a_cancelled_run_reports_what_it_did_not_run_with_the_signal() {
        let sink = Recorded::default();
        let cancel = || {
            sink.first_seen
                .load(Ordering::SeqCst)
                .then_some(crate::sys::SIGTERM)
        };
        let steps = vec![Step::Answer(right())];
        let report = run_script(&cases(3), plain(steps), Baseline::default(), &cancel, &sink);
        let last = sink.last();
        assert_eq!(last[0].0, Status::Pass);
        for later in &last[1..] {
            assert_eq!(
                later,
                &(
                    Status::NotRun,
                    Some("the run was cancelled by SIGTERM".into())
                )
            );
        }
        assert!(report.partial);
        // A call cut short by the cancellation is not run either, not an
        // adapter error.
        let sink = Recorded::default();
        let steps = vec![Step::Fail(FailureKind::Cancelled, "cancelled".into())];
        run_script(
            &cases(1),
            plain(steps),
            Baseline::default(),
            &never_cancelled,
            &sink,
        );
        assert_eq!(
            sink.last()[0],
            (
                Status::NotRun,
                Some("the run was cancelled by SIGINT".into())
            )
        );
    }

    #[test]
    fn an_instance_the_adapter_cannot_take_is_never_sent() {
        let sink = Recorded::default();
        let both = vec![
            case(0, "ls", "{path: missing}"),
            case(1, "resolve", "{path: missing}"),
        ];
        let script = Scripted::new(hello(), [Step::Answer(right())]);
        let calls = script.calls();
        let script = Mutex::new(Some(script));
        let once = || script.lock().unwrap().take().expect("one worker");
        run_script(&both, once, Baseline::default(), &never_cancelled, &sink);
        let last = sink.last();
        assert_eq!(
            last[0],
            (
                Status::Unsupported,
                Some("the adapter does not provide the `ls` tool".into())
            )
        );
        let sent: Vec<String> = calls
            .lock()
            .unwrap()
            .iter()
            .map(|c| c.case.clone())
            .collect();
        assert_eq!(sent, ["t.c1"]);
    }

    #[test]
    fn adapter_tmp_in_a_call_names_the_answering_subject_s_scratch_directory() {
        let sink = Recorded::default();
        let scratch = tempfile::tempdir().unwrap();
        let with_tmp = [case(0, "resolve", "{path: \"{adapter-tmp}/x\"}")];
        let script = Scripted::new(hello(), [Step::Answer(right())]).scratch(scratch.path());
        let calls = script.calls();
        let script = Mutex::new(Some(script));
        let once = || script.lock().unwrap().take().expect("one worker");
        run_script(
            &with_tmp,
            once,
            Baseline::default(),
            &never_cancelled,
            &sink,
        );
        let sent = calls.lock().unwrap();
        assert_eq!(
            sent[0].params["path"],
            format!("{}/x", scratch.path().display())
        );
    }

    /// A case expecting `outside_workspace` (c0) and a SEC case expecting
    /// `ok` (c1), as containment classes them.
    fn containment_cases() -> Vec<Case> {
        let outside = "id: t.out\nsummary: s\nspec: [SEC-4]\nfixture: {roots: [ws]}\n\
             call: {tool: resolve, params: {path: ../x}}\n\
             expect: {outcome: error, error: {code: outside_workspace, message_contains: ['{ws}']}}\n";
        let inside = "id: t.in\nsummary: s\nspec: [SEC-5]\n\
             fixture: {roots: [ws], files: {ws/a: x}}\n\
             call: {tool: resolve, params: {path: a}}\n\
             expect: {outcome: ok, kind: file, path: '{ws}/a'}\n";
        vec![
            parse_case(Path::new("out.yaml"), outside).unwrap(),
            parse_case(Path::new("in.yaml"), inside).unwrap(),
        ]
    }

    /// Runs `cases` against one script saying `hello`; the report and
    /// every case report.
    fn run_kept(
        cases: &[Case],
        hello: AdapterHello,
        steps: Vec<Step>,
    ) -> (Report, Vec<CaseReport>) {
        let kept = Keep(Mutex::new(vec![None; cases.len()]));
        let all: Vec<Instance> = cases.iter().flat_map(|c| c.instances()).collect();
        let fixtures = tempfile::tempdir().unwrap();
        let config = RunConfig {
            fixtures: Some(fixtures.path().to_owned()),
            sink: Some(&kept),
            ..RunConfig::default()
        };
        let env = Environment {
            machine: MACHINE,
            cancelled: &never_cancelled,
        };
        let make =
            || Ok(Box::new(Scripted::new(hello.clone(), steps.clone())) as Box<dyn Subject + Send>);
        let report = run_in(&Listed(&all), &make, &config, &env);
        let cases = kept.0.into_inner().unwrap().into_iter().flatten().collect();
        (report, cases)
    }

    fn class(case: &CaseReport) -> Option<crate::report::ContainmentClass> {
        case.containment.as_ref().map(|c| c.class)
    }

    /// Writes a file beside the roots: outside every one of them.
    fn write_beside_the_roots(call: &Call) {
        let beside = Path::new(&call.workspace.roots[0]).parent().unwrap();
        std::fs::write(beside.join("escaped"), "x").unwrap();
    }

    #[test]
    fn containment_is_classed_on_what_was_observed() {
        use crate::report::ContainmentClass::*;
        use toolpath_suite::protocol::{Kind, Outcome};
        let ok = |path: &str| ToolResult {
            outcome: Some(Outcome::Ok),
            kind: Some(Kind::File),
            path: Some(path.to_owned()),
            ..ToolResult::default()
        };
        // An outside path answered ok is an escape; a SEC case's path that
        // the adapter cannot observe for `resolve` is accepted, unobserved.
        let mut by_tool = hello();
        by_tool
            .unobservable_by_tool
            .insert("resolve".into(), vec!["path".into()]);
        let (report, cases) = run_kept(
            &containment_cases(),
            by_tool,
            vec![Step::Answer(ok("/anywhere")), Step::Answer(ok("/nowhere"))],
        );
        assert_eq!(
            (cases[0].status, class(&cases[0])),
            (Status::Fail, Some(Escape))
        );
        assert_eq!(
            cases[0].containment.as_ref().unwrap().evidence.as_deref(),
            Some("answered ok")
        );
        assert_eq!(
            (cases[1].status, class(&cases[1])),
            (Status::Unobserved, Some(Accepted))
        );
        assert_eq!(cases[1].unchecked, ["path"]);
        assert_eq!(
            (report.containment.escapes, report.containment.accepted),
            (1, 1)
        );
        assert_eq!(report.rules["SEC-4"].tally.failed, 1);

        // A code the adapter says it derived: no class; the SEC case's
        // answer names its derived path: unobserved, and the reason says so.
        let mut derived_code = ToolResult::error(ErrorCode::NotFound, "{ws} no");
        derived_code.derived = vec!["error.code".into()];
        let mut derived_path = ok("/nowhere");
        derived_path.derived = vec!["path".into()];
        let (report, cases) = run_kept(
            &containment_cases(),
            hello(),
            vec![Step::Answer(derived_code), Step::Answer(derived_path)],
        );
        assert_eq!(class(&cases[0]), Some(NotObserved));
        assert_eq!(cases[1].status, Status::Unobserved);
        assert!(
            cases[1]
                .reason
                .as_deref()
                .unwrap()
                .ends_with("path (derived by the adapter)"),
            "{:?}",
            cases[1].reason
        );
        assert_eq!(report.containment.not_observed, 1);

        // A right refusal and a right answer that wrote beside the roots:
        // refused, and an escape whatever it answered. A refusal of the
        // SEC case: a false refusal.
        let refused = ToolResult::error(ErrorCode::OutsideWorkspace, "../x is outside {ws}");
        let (_, cases) = run_kept(
            &containment_cases(),
            hello(),
            vec![
                Step::Answer(refused.clone()),
                Step::Touch(write_beside_the_roots, ok("/x")),
            ],
        );
        assert_eq!(class(&cases[0]), Some(Refused));
        assert_eq!(class(&cases[1]), Some(Escape));
        let evidence = cases[1].containment.as_ref().unwrap().evidence.clone();
        assert_eq!(
            evidence.as_deref(),
            Some("changed outside every root: + {tmp}/escaped (file)")
        );
        let (_, cases) = run_kept(
            &containment_cases(),
            hello(),
            vec![
                Step::Answer(ToolResult::error(ErrorCode::NotFound, "no")),
                Step::Answer(refused),
            ],
        );
        assert_eq!(class(&cases[0]), Some(RefusedOtherCode));
        assert!(
            cases[0].containment.as_ref().unwrap().wording_failed,
            "no {{ws}}"
        );
        assert_eq!(class(&cases[1]), Some(FalseRefusal));
        // Never sent (the tool is not declared): not observed.
        let (_, cases) = run_kept(&containment_cases(), AdapterHello::default(), vec![]);
        assert_eq!(cases[0].status, Status::Unsupported);
        assert_eq!(class(&cases[0]), Some(NotObserved));
    }

    /// Writes a file into the call's first root: what SEC-11 forbids.
    fn write_into_the_workspace(call: &Call) {
        std::fs::write(format!("{}/cache.db", call.workspace.roots[0]), "x").unwrap();
    }

    #[test]
    fn a_right_answer_that_changed_the_fixture_fails_on_sec_11() {
        let steps = vec![
            Step::Touch(write_into_the_workspace, right()),
            Step::Touch(
                write_into_the_workspace,
                ToolResult {
                    outcome: Some(toolpath_suite::protocol::Outcome::Unsupported),
                    ..ToolResult::default()
                },
            ),
        ];
        let instances: Vec<Case> = cases(2);
        let kept = Keep(Mutex::new(vec![None; 2]));
        let all: Vec<Instance> = instances.iter().flat_map(|c| c.instances()).collect();
        let fixtures = tempfile::tempdir().unwrap();
        let config = RunConfig {
            fixtures: Some(fixtures.path().to_owned()),
            sink: Some(&kept),
            ..RunConfig::default()
        };
        let env = Environment {
            machine: MACHINE,
            cancelled: &never_cancelled,
        };
        let script = plain(steps);
        let make = || Ok(Box::new(script()) as Box<dyn Subject + Send>);
        let report = run_in(&Listed(&all), &make, &config, &env);
        assert_eq!(report.summary.fail, 2, "declining the call excuses nothing");
        for case in kept.0.into_inner().unwrap().into_iter().flatten() {
            let fixture = case
                .mismatches
                .iter()
                .find(|m| m.field == "fixture")
                .unwrap();
            assert_eq!(fixture.rule.as_deref(), Some("SEC-11"));
            assert_eq!(fixture.actual, "1 change: + {ws}/cache.db (file)");
            assert!(case.diff.unwrap().contains("+fixture: 1 change"));
        }
    }
}
