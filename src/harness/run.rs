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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use crate::case::catalog::{Catalog, Unreadable};
use crate::harness::config::{Environment, RunConfig, SubjectFactory, cancelled};
use crate::harness::worker::{Worker, not_run};
use crate::report::counts::Counts;
use crate::report::findings::Findings;
use crate::report::profile_rules::RuleUses;
use crate::report::sink::Sink;
use crate::report::subject_noun;
use crate::report::{CaseReport, Report, Status};
use crate::subject::AdapterFailure;
use toolpath_suite::case::{Case, Instance};
use toolpath_suite::protocol::{AdapterHello, Tool};

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
    /// Why the subject was given up on, once it was: every instance not
    /// sent after that says the same.
    gave_up: OnceLock<String>,
    /// Statuses, containment and per-rule counts of what was recorded.
    counts: Mutex<Counts>,
    hello: OnceLock<AdapterHello>,
    start_failure: Mutex<Option<AdapterFailure>>,
    /// Every worker's subject's findings, merged as each worker ends.
    findings: Mutex<Findings>,
    /// Every worker's subject's profile rule counts, merged likewise.
    rule_uses: Mutex<RuleUses>,
    /// Every worker's time spent waiting ([`Worker::waited`]), added up.
    waited: Mutex<std::time::Duration>,
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
        } else {
            self.gave_up.get().cloned()
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
    Report::head(
        implementation.clone(),
        config.adapter_label.clone(),
        config.strict,
        config.selection.clone(),
        config.run_against.clone(),
        config.unprotected.clone(),
    )
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
    run_in(
        instances,
        make,
        config,
        &Environment::here(config, &crate::sys::cancel::signal),
    )
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
        gave_up: OnceLock::new(),
        counts: Mutex::new(Counts::default()),
        hello: OnceLock::new(),
        start_failure: Mutex::new(None),
        findings: Mutex::new(Findings::default()),
        rule_uses: Mutex::new(RuleUses::default()),
        waited: Mutex::new(std::time::Duration::ZERO),
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
                subject_noun(config.adapter_label.as_deref()),
            ),
            Err(unreadable) => case_error(unreadable),
        };
        shared.record(position, &report, None);
    }
    let mut report = head(config, &implementation);
    report.set_counts(shared.counts.into_inner().expect("counts"));
    report.findings = shared.findings.into_inner().expect("findings").into_vec();
    report.profile_rules = shared.rule_uses.into_inner().expect("rules").into_vec();
    report.partial = report.summary.not_run > 0;
    report.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    report.waited_ms = shared.waited.into_inner().expect("waited").as_secs_f64() * 1000.0;
    report.workers = jobs;
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
    subject: &str,
) -> CaseReport {
    let reason = match (signal, failure) {
        (Some(signal), _) => cancelled(signal),
        (None, Some(f)) => format!("the {subject} could not be started: {f}"),
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
            let why = report
                .reason
                .clone()
                .unwrap_or_else(|| "given up on".into());
            let _ = shared.gave_up.set(why);
        }
        shared.record(position, &report, None);
        record_amended(worker.answered(position, report));
    }
    record_amended(worker.finish());
    *shared.waited.lock().expect("waited") += worker.waited();
    let findings = worker.findings();
    shared.findings.lock().expect("findings").merge(findings);
    let rule_uses = worker.rule_uses();
    shared.rule_uses.lock().expect("rules").merge(rule_uses);
}

#[cfg(test)]
mod tests {
    //! The run loop, driven by a scripted subject: what it counts, what it
    //! records when a worker's subject is given up on or the run is
    //! cancelled, and what it keeps of the workers. No process, no sleep;
    //! the worker's own tests are in `worker/tests.rs`.

    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::harness::baseline::Baseline;
    use crate::harness::known_cases::{MACHINE, cases, hello, never_cancelled, right, wrong};
    use crate::report::Summary;
    use crate::subject::scripted::{Scripted, Step};
    use crate::subject::{FailureKind, Subject};

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
            more_cases: 0,
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
            Some(
                "the adapter was restarted for 1 case files in a row without answering a call; giving up"
            )
        );
        assert_eq!(
            last[3],
            (
                Status::NotRun,
                Some(
                    "the adapter was restarted for 1 case files in a row without answering a call; giving up"
                        .into()
                )
            )
        );
        assert!(report.partial);
        assert_eq!(report.summary.not_run, 2);
    }

    /// An adapter that answers between its crashes is still working: each
    /// crash fails its own case and the budget starts again, so a tool
    /// that ends itself on every FIFO cell is judged on every case.
    #[test]
    fn crashes_with_answers_between_them_never_give_the_run_up() {
        let sink = Recorded::default();
        let crash = || Step::Fail(FailureKind::Crash, "the adapter exited".into());
        let script = move || {
            Scripted::new(
                hello(),
                [
                    crash(),
                    Step::Answer(right()),
                    crash(),
                    Step::Answer(right()),
                    crash(),
                    Step::Answer(right()),
                ],
            )
            .max_restarts(1)
        };
        let report = run_script(
            &cases(6),
            script,
            Baseline::default(),
            &never_cancelled,
            &sink,
        );
        let statuses: Vec<Status> = sink.last().iter().map(|(status, _)| *status).collect();
        assert_eq!(
            statuses,
            [
                Status::AdapterError,
                Status::Pass,
                Status::AdapterError,
                Status::Pass,
                Status::AdapterError,
                Status::Pass
            ]
        );
        assert!(!report.partial);
        assert_eq!(report.summary.not_run, 0);
    }

    /// A crash class that fills adjacent instances of one case file (a
    /// matrix file's cells, each crashing the tool) uses one restart of
    /// the budget, not one per instance: the run goes on to the files the
    /// subject answers (issue 33: five in a row ended a run two thirds of
    /// the way through). Its restarts are waited time.
    #[test]
    fn a_crash_class_over_one_file_s_adjacent_cells_does_not_end_the_run() {
        use crate::harness::known_cases::{case, case_text};
        use toolpath_suite::case::validate::parse_case;
        let sink = Recorded::default();
        let mut all: Vec<Case> = (0..6)
            .map(|i| {
                let text = case_text(i, "resolve", "{path: missing}");
                parse_case(std::path::Path::new("matrix.yaml"), &text).unwrap()
            })
            .collect();
        all.extend((10..12).map(|i| case(i, "resolve", "{path: missing}")));
        let crash = || Step::Fail(FailureKind::Crash, "the adapter exited".into());
        let script = move || {
            let mut steps: Vec<Step> = (0..6).map(|_| crash()).collect();
            steps.extend([Step::Answer(right()), Step::Answer(right())]);
            // One restart for the matrix file, one to start on the next
            // file: two files in a row. Per instance it was given up on
            // at the third crash.
            Scripted::new(hello(), steps).max_restarts(2)
        };
        let report = run_script(&all, script, Baseline::default(), &never_cancelled, &sink);
        let statuses: Vec<Status> = sink.last().iter().map(|(status, _)| *status).collect();
        assert_eq!(
            statuses,
            [[Status::AdapterError; 6].as_slice(), &[Status::Pass; 2]].concat()
        );
        assert!(!report.partial);
        assert_eq!(report.workers, 1);
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
}
