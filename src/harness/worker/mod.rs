//! One worker: its own subject (for an adapter, its own process) and, when
//! permission cases need it (the subject runs as root: the reference, or
//! `--subject-as-root`), the subject's unprivileged copy; instances run
//! one at a time.
//!
//! Per instance: the baseline may skip it, [`route`] decides where it goes,
//! the fixture is built (for a subject that keeps its process for one set
//! of roots, the consecutive instances of one case file byte for byte in
//! one place: [`Subject::keeps_place`]), the call is built ([`call`]) and
//! everything it is judged on is derived *before* it is sent
//! ([`Expected::derive`]): the fixture belongs to the subject from then
//! on, and a subject that ran a command in the wrong directory and then
//! swapped the right one for a link to it must not be judged by that
//! link. The call is made on the subject and judged by [`call_on`], the
//! path the fuzzer takes too (the subject made ready, the fixture handed
//! to its user, prepared, the FIFO bound, the fixture snapshotted before
//! and after the call: any change fails the instance, SEC-11).
//!
//! A protocol violation found after an answer (output written while no call
//! was outstanding) belongs to the instance answered last on that subject:
//! the worker keeps the reports a violation can still reach and hands back
//! the amended ones ([`Amended`]) for the run to record again.
//!
//! May import the rest of `harness` that an instance goes through (route,
//! call, expected, judged_call, judge, containment, caps, baseline, config)
//! and the floors below; never [`run`](crate::harness::run), which drives
//! it. Its unit tests (`tests.rs`) drive a worker alone, as the run does.

use std::convert::Infallible;
use std::path::Path;
use std::time::Instant;

use serde_json::{Map, Value};

use crate::case::fixture::{self, BuiltFixture, Deadline};
use crate::harness::baseline::{self, BaselineStatus};
use crate::harness::call;
use crate::harness::caps::{MAX_VALUE_BYTES, cap};
use crate::harness::config::{Environment, RunConfig, cancelled};
use crate::harness::containment::{self, Answered};
use crate::harness::expected::Expected;
use crate::harness::judge::{Verdict, judge_description};
use crate::harness::judged_call::{Answer, Ask, Judged, OnSubject, call_on};
use crate::harness::route::{Refusal, Route, route};
use crate::report::findings::Finding;
use crate::report::profile_rules::RuleUse;
use crate::report::subject_noun;
use crate::report::{
    CaseReport, Channel, Containment, ContainmentClass, Mismatch, OwnCheck, Status,
};
use crate::subject::adapter::Adapter;
use crate::subject::fifos;
use crate::subject::{AdapterFailure, FailureKind, Subject};
use toolpath_suite::case::{Action, Case, Fixture, Instance};
use toolpath_suite::placeholders::{Placeholders, RUN_DIR};
use toolpath_suite::protocol::{AdapterHello, Call, Field};

/// A report replaced after it was recorded: a violation charged to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Amended {
    pub position: usize,
    pub report: CaseReport,
    /// The report it replaces (for the counts).
    pub replaces: CaseReport,
}

/// One worker and its subjects.
pub struct Worker<'a, 'b> {
    subject: Box<dyn Subject + Send>,
    unprivileged: Option<Result<Adapter, String>>,
    hello: AdapterHello,
    config: &'a RunConfig<'b>,
    env: &'a Environment<'a>,
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
    /// The fixture directory of the instance being run, once removed.
    removed: Option<std::path::PathBuf>,
    /// The last [`MAX_LATE`] instances whose fixture was removed, with
    /// their reports: a fixture directory that exists again was made by a
    /// write after the answer (SEC-12), charged to the one instance whose
    /// fixture it was. The watch of a place ends when the next fixture is
    /// built there ([`Worker::reclaim`]).
    late: std::collections::VecDeque<(usize, std::path::PathBuf, CaseReport)>,
    /// Where the last fixture was built, and its case file, for a subject
    /// that keeps its process there ([`Subject::keeps_place`]): the next
    /// instance of that file with the same tree is built there again.
    place: Option<(std::path::PathBuf, fixture::FixturePlace)>,
    /// Reports amended while an instance was run (a write after the answer
    /// found as its place was built again), returned with the next answer.
    pending: Vec<Amended>,
}

/// How many removed fixtures a worker watches for writes made after the
/// answer, until its subject has ended ([`Worker::finish`]).
pub const MAX_LATE: usize = 256;

/// How many of them are looked at after each answer (the newest); all are
/// once the subject has ended.
const LATE_PER_ANSWER: usize = 16;

impl<'a, 'b> Worker<'a, 'b> {
    pub fn new(
        subject: Box<dyn Subject + Send>,
        config: &'a RunConfig<'b>,
        env: &'a Environment<'a>,
    ) -> Self {
        Worker {
            hello: subject.hello().clone(),
            subject,
            unprivileged: None,
            config,
            env,
            current: 0,
            last_sent: [None, None],
            violations: Vec::new(),
            recent: Vec::new(),
            removed: None,
            late: std::collections::VecDeque::new(),
            place: None,
            pending: Vec::new(),
        }
    }

    /// Runs the instance at `position` and reports it, the baseline applied.
    pub fn run(&mut self, position: usize, instance: &Instance) -> CaseReport {
        self.current = position;
        let started = Instant::now();
        let entry = self.config.baseline.lookup(&instance.id());
        let mut report = match entry.filter(|e| e.status == BaselineStatus::Skip) {
            Some(skip) => {
                let mut r = base_report(instance, Status::Skip, Some(skip.reason.clone()));
                r.expectation = Some(skip.note());
                r
            }
            None => match self.subject.refuse(instance) {
                Some(reason) => base_report(instance, Status::Unsupported, Some(reason)),
                None => match self.route(instance) {
                    Err(Refusal { status, reason }) => base_report(instance, status, Some(reason)),
                    Ok(route) => self.execute(instance, route),
                },
            },
        };
        baseline::apply(entry, &mut report);
        report.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
        report
    }

    /// Keeps the report just recorded for `position` within reach of a
    /// late violation, and returns the reports that violations found so far
    /// amend.
    pub fn answered(&mut self, position: usize, report: CaseReport) -> Vec<Amended> {
        if let Some(root) = self.removed.take() {
            if self.late.len() >= MAX_LATE {
                self.late.pop_front();
            }
            self.late.push_back((position, root, report.clone()));
        }
        self.recent.push((position, report));
        let mut amended = std::mem::take(&mut self.pending);
        amended.extend(self.charge());
        amended.extend(self.written_late(LATE_PER_ANSWER));
        amended
    }

    /// The reports of instances, among the `newest` watched, whose removed
    /// fixture directory exists again: something the call started wrote
    /// there after its answer. Each becomes an escape (write), and the tree
    /// is removed again.
    fn written_late(&mut self, newest: usize) -> Vec<Amended> {
        let mut amended = Vec::new();
        let config = self.config;
        let older = self.late.len().saturating_sub(newest);
        let mut index = 0;
        self.late.retain_mut(|(position, root, report)| {
            index += 1;
            if index <= older || std::fs::symlink_metadata(&*root).is_err() {
                return true;
            }
            let _ = crate::case::tree::remove_tree(root);
            amended.push(written_after(config, *position, report));
            false
        });
        amended
    }

    /// Ends the watch of the instances whose fixture stood at `root`, the
    /// place about to be built again: a directory there now was made by a
    /// write after the answer (what ends the watch is the next build in
    /// that place, not the subject's end), an escape amending that
    /// instance's report at the next answer. What stands there is removed,
    /// never through a link.
    fn reclaim(&mut self, root: &Path) {
        let mut kept = std::collections::VecDeque::with_capacity(self.late.len());
        for (position, there, mut report) in std::mem::take(&mut self.late) {
            if there != root {
                kept.push_back((position, there, report));
            } else if std::fs::symlink_metadata(&there).is_ok() {
                let _ = crate::case::tree::remove_tree(&there);
                let amended = written_after(self.config, position, &mut report);
                self.pending.push(amended);
            }
        }
        self.late = kept;
    }

    /// Ends the subjects; output written after their last answer amends
    /// that answer's report, returned here.
    pub fn finish(&mut self) -> Vec<Amended> {
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
        let mut amended = std::mem::take(&mut self.pending);
        amended.extend(self.charge());
        amended.extend(self.written_late(MAX_LATE));
        amended
    }

    /// Charges each violation found to the report of its instance, then
    /// forgets the reports no violation can reach any more.
    fn charge(&mut self) -> Vec<Amended> {
        let mut amended = Vec::new();
        for (position, violation) in std::mem::take(&mut self.violations) {
            if let Some((_, report)) = self.recent.iter_mut().find(|(p, _)| *p == position) {
                let replaces = report.clone();
                report.status = Status::AdapterError;
                containment::amend(report);
                report.reason = Some(violation.to_string());
                report.stderr = Some(violation.stderr).filter(|s| !s.is_empty());
                baseline::apply(self.config.baseline.lookup(&report.id), report);
                amended.push(Amended {
                    position,
                    report: report.clone(),
                    replaces,
                });
            }
        }
        let last_sent = self.last_sent;
        self.recent.retain(|(p, _)| last_sent.contains(&Some(*p)));
        amended
    }

    /// The subject a route goes to.
    fn subject(&mut self, route: Route) -> &mut dyn Subject {
        match (route, self.unprivileged.as_mut()) {
            (Route::Normal, _) => self.subject.as_mut(),
            (Route::Unprivileged, Some(Ok(adapter))) => adapter,
            _ => unreachable!("routed here only once the unprivileged runner started"),
        }
    }

    /// [`route`], starting the unprivileged copy the first time it is needed.
    fn route(&mut self, instance: &Instance) -> Result<Route, Refusal> {
        let subject = subject_noun(self.config.adapter_label.as_deref());
        let route = route(&self.hello, instance, &self.env.machine, subject)?;
        if route == Route::Unprivileged {
            let config = self
                .config
                .unprivileged
                .clone()
                .expect("routed unprivileged only with a runner");
            let started = self
                .unprivileged
                .get_or_insert_with(|| Adapter::start(config).map_err(|e| e.to_string()));
            if let Err(message) = started {
                return Err(Refusal::unprivileged_failed(message));
            }
        }
        Ok(route)
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
                self.verdict_report(
                    instance,
                    judge_description(&case.expect, description),
                    None,
                    &[],
                )
            }
            Action::Invoke(params) => self.invoke(instance, params, route),
        }
    }

    /// Builds the fixture, derives the expectation, sends the call where
    /// `route` says, and judges the answer and the fixture after it.
    fn invoke(
        &mut self,
        instance: &Instance,
        params: &Map<String, Value>,
        route: Route,
    ) -> CaseReport {
        let case = instance.case;
        // The one place the subject's own ignore files join the fixture:
        // from here on it is an ordinary one, for the build, the twin and
        // every check after the call.
        let fixture = match case.fixture.with_own_ignore_files(&self.hello.ignore_files) {
            Ok(fixture) => fixture,
            Err(reason) => {
                return base_report(instance, Status::Skip, Some(cap(reason, MAX_VALUE_BYTES)));
            }
        };
        let deadline = Deadline::for_build(self.config.fixture_timeout, fixture.created().count());
        let built = match self.build(case, &fixture, route, &deadline) {
            Ok(built) => built,
            Err(e) => {
                return base_report(
                    instance,
                    Status::CaseError,
                    Some(format!("{}: {e}", case.file.display())),
                );
            }
        };
        let report = self.judge_instance(instance, &fixture, params, route, &built);
        if self.config.keep_fixtures && report.status != Status::Pass {
            // Kept where it stands: the next one is built elsewhere.
            self.place = None;
            let mut report = report;
            report.fixture = Some(built.keep().display().to_string());
            return report;
        }
        self.removed = Some(built.root.clone());
        report
    }

    /// `fixture` (`case`'s, with the subject's own ignore files): built
    /// again in the place of the last one when the subject keeps its
    /// process there ([`Subject::keeps_place`]), the case file is the same
    /// and so is the tree; else (or when the place cannot be built again)
    /// in a new directory, which becomes the place.
    fn build(
        &mut self,
        case: &Case,
        fixture: &Fixture,
        route: Route,
        deadline: &Deadline,
    ) -> Result<BuiltFixture, fixture::FixtureError> {
        let keeps = route == Route::Normal && self.subject.keeps_place();
        let again = (self.place.take())
            .filter(|(file, place)| keeps && *file == case.file && place.fits(fixture));
        if let Some((_, place)) = &again {
            self.reclaim(&place.root);
            if let Ok(built) = fixture::build_in_place(fixture, place, deadline) {
                self.place = again;
                return Ok(built);
            }
        }
        let built = fixture::build_until(fixture, self.config.fixtures.as_deref(), deadline)?;
        if keeps {
            self.place = Some((case.file.clone(), built.place(fixture)));
        }
        Ok(built)
    }

    /// One instance on its built fixture: its call (the command a shell
    /// case names added) sent through the one path from a call to a
    /// judged answer ([`call_on`], the fuzzer's too), and its report.
    fn judge_instance(
        &mut self,
        instance: &Instance,
        fixture: &Fixture,
        params: &Map<String, Value>,
        route: Route,
        built: &BuiltFixture,
    ) -> CaseReport {
        let case = instance.case;
        let id = instance.id();
        let params = call::with_command(instance.tool, params);
        let on = OnSubject {
            file: &case.file,
            fixture,
            built,
            ask: Ask {
                name: &id,
                tool: instance.tool,
                params: &params,
            },
            hang_timeout: self.config.hang_timeout,
            twin: Some(self.config.fixture_timeout),
        };
        // The run directory's random name, where a tool that took an
        // absolute path for a relative one made directories, is shown as
        // a placeholder: a report must not differ between two runs.
        let run_dir = self.config.fixtures.as_deref().and_then(Path::parent);
        let expect = |call: &Call, vars: &mut Placeholders, _: Option<&Path>| {
            if let Some(run_dir) = run_dir {
                vars.add_shown(RUN_DIR, &run_dir.to_string_lossy());
            }
            let command = call.params.get("command").and_then(|c| c.as_str());
            Ok::<_, Infallible>(Expected::derive(
                &case.expect,
                fixture,
                instance.tool,
                command,
                vars,
                &built.root,
            ))
        };
        let Ok(called) = call_on(self.subject(route), on, expect, |_, _| {});
        // Output the subject wrote after its previous answer is charged to
        // the instance of that answer (or to this one, if it answered
        // nothing before).
        if called.sent {
            let previous = self.last_sent[route as usize].replace(self.current);
            if let Some(violation) = called.violation {
                let charged = previous.unwrap_or(self.current);
                self.violations.push((charged, violation));
            }
        }
        match called.judged {
            Err(failure) => self.failed(instance, failure),
            Ok(Judged::Declined(reason)) => {
                let reason = reason.unwrap_or_else(|| {
                    let subject = subject_noun(self.config.adapter_label.as_deref());
                    format!("the {subject} answered `unsupported`")
                });
                base_report(
                    instance,
                    Status::Unsupported,
                    Some(cap(reason, MAX_VALUE_BYTES)),
                )
            }
            Ok(Judged::Answered(answer)) => self.judged(instance, *answer, route),
        }
    }

    /// The report for a call that got no answer.
    fn failed(&self, instance: &Instance, failure: AdapterFailure) -> CaseReport {
        match failure.kind {
            FailureKind::GaveUp => not_run(instance, &failure.message),
            FailureKind::Cancelled => not_run(
                instance,
                &cancelled((self.env.cancelled)().unwrap_or(crate::sys::SIGINT)),
            ),
            // The implementation failed the case; no adapter is to blame.
            kind if kind.fails_the_case() => {
                let mismatch = Mismatch {
                    field: OwnCheck::Answer.into(),
                    expected: "an answer".to_owned(),
                    actual: cap(failure.message.clone(), MAX_VALUE_BYTES),
                    rule: (kind == FailureKind::Blocked)
                        .then(|| fifos::rule(instance.tool).to_owned()),
                };
                let mut r = base_report(instance, Status::Fail, Some(failure.to_string()));
                r.diff = Some(format!(
                    "--- expected\n+++ actual\n@@ -1 +1 @@\n-{0}: {1}\n+{0}: {2}\n",
                    mismatch.field, mismatch.expected, mismatch.actual
                ));
                r.mismatches = vec![mismatch];
                r.stderr = Some(failure.stderr).filter(|s| !s.is_empty());
                r
            }
            _ => {
                let mut r = base_report(instance, Status::AdapterError, Some(failure.to_string()));
                r.stderr = Some(failure.stderr).filter(|s| !s.is_empty());
                r
            }
        }
    }

    /// The subject's findings, once it was ended ([`Worker::finish`]).
    pub fn findings(&mut self) -> Vec<Finding> {
        self.subject.findings()
    }

    /// Time its subjects spent on calls that got no answer in time and on
    /// restarts ([`Subject::waited`]), the unprivileged copy's included.
    pub fn waited(&self) -> std::time::Duration {
        let unprivileged = match &self.unprivileged {
            Some(Ok(adapter)) => adapter.waited(),
            _ => std::time::Duration::ZERO,
        };
        self.subject.waited() + unprivileged
    }

    /// How often each rule of the subject's profile matched, once it was
    /// ended ([`Worker::finish`]).
    pub fn rule_uses(&mut self) -> Vec<RuleUse> {
        self.subject.rule_uses()
    }

    /// The report for an answer judged ([`call_on`]), with its
    /// containment class.
    fn judged(&mut self, instance: &Instance, judged: Answer, route: Route) -> CaseReport {
        let Answer {
            answer,
            verdict,
            escapes,
            unobserved,
            unwatched,
        } = judged;
        let containment = containment::classify(&Answered {
            case: instance.case,
            tool: instance.tool,
            answer: &answer,
            unobserved: &unobserved,
            mismatches: &verdict.mismatches,
            escapes,
        });
        // Standard error comes from the subject that answered (the
        // unprivileged copy for permission cases).
        let stderr = Some(self.subject(route).stderr_tail()).filter(|s| !s.is_empty());
        let mut report = self.verdict_report(instance, verdict, stderr, &answer.derived);
        report.containment = match (containment, unwatched) {
            (Some(c), _) if c.is_escape() => Some(c),
            (_, Some(_)) => Some(Containment::of(ContainmentClass::NotObserved)),
            (c, None) => c,
        };
        report
    }

    /// The report of a judged instance. `derived` names the fields the
    /// answer said it composed, so the reason tells them from fields the
    /// adapter can never observe.
    fn verdict_report(
        &self,
        instance: &Instance,
        verdict: Verdict,
        stderr: Option<String>,
        derived: &[Field],
    ) -> CaseReport {
        let passed = verdict.passed();
        let status = match (passed, verdict.unchecked.is_empty()) {
            (false, _) => Status::Fail,
            (true, true) => Status::Pass,
            // Agreeing on what could be seen is not passing what could not.
            (true, false) => Status::Unobserved,
        };
        let composer = self.subject.composer();
        let reason = (status == Status::Unobserved).then(|| {
            let named: Vec<String> = verdict
                .unchecked
                .iter()
                .map(|f| match derived.iter().any(|d| d.name() == f) {
                    true => format!("{f} (derived by {composer})"),
                    false => f.clone(),
                })
                .collect();
            format!(
                "agreed on every field that could be checked; not observable: {}",
                named.join(", ")
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

/// `report` amended for a write after its answer that made its removed
/// fixture directory again (SEC-12).
fn written_after(config: &RunConfig, position: usize, report: &mut CaseReport) -> Amended {
    let replaces = report.clone();
    let evidence = "changed outside every root after the answer: \
                    + {tmp} (made again, after it was removed)";
    report.status = Status::Fail;
    report.mismatches.push(Mismatch {
        field: OwnCheck::Escape.into(),
        expected: "nothing written after the answer".to_owned(),
        actual: evidence.to_owned(),
        rule: Some("SEC-12".to_owned()),
    });
    report.containment = Some(Containment::escape(
        vec![Channel::Write],
        format!("write: {evidence}"),
    ));
    baseline::apply(config.baseline.lookup(&report.id), report);
    Amended {
        position,
        report: report.clone(),
        replaces,
    }
}

/// The report of an instance with what its case says, `status` and `reason`.
pub fn base_report(instance: &Instance, status: Status, reason: Option<String>) -> CaseReport {
    let case = instance.case;
    CaseReport {
        spec: case.spec.clone(),
        tags: case.tags.clone(),
        // Judged instances get their class from what they answered; until
        // then, one that should have one was not observed.
        containment: containment::unobserved(case),
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

/// The report of an instance that was not run, and why.
pub fn not_run(instance: &Instance, reason: &str) -> CaseReport {
    base_report(instance, Status::NotRun, Some(reason.into()))
}

#[cfg(test)]
mod tests;
