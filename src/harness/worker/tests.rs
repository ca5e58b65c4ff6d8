//! The worker, driven alone by a scripted subject, as the run loop drives
//! it: each instance run and recorded, then the reports a late violation
//! amends. No process, no sleep; fixtures are built on disk as in a run.

use std::path::Path;

use super::*;
use crate::harness::baseline::Baseline;
use crate::harness::config::RunConfig;
use crate::harness::known_cases::{MACHINE, case, case_text, cases, hello, never_cancelled, right};
use crate::report::counts::Counts;
use crate::report::{OwnCheck, Status, Summary};
use crate::subject::scripted::{Scripted, Step};
use toolpath_suite::case::Case;
use toolpath_suite::case::validate::parse_case;
use toolpath_suite::protocol::{AdapterHello, Call, ErrorCode, Tool, ToolResult};

/// Everything one worker recorded: each report in order (position,
/// report, whether it amends one recorded before), as the run's sink
/// receives them.
struct Driven(Vec<(usize, CaseReport, bool)>);

impl Driven {
    /// The last report of each position.
    fn cases(&self) -> Vec<CaseReport> {
        let n = self.0.iter().map(|l| l.0 + 1).max().unwrap_or(0);
        (0..n)
            .map(|p| self.0.iter().rev().find(|l| l.0 == p).unwrap().1.clone())
            .collect()
    }

    /// The status and reason of the last report of each position.
    fn last(&self) -> Vec<(Status, Option<String>)> {
        self.cases()
            .into_iter()
            .map(|c| (c.status, c.reason))
            .collect()
    }

    /// The positions amended, in order.
    fn amended(&self) -> Vec<usize> {
        self.0.iter().filter(|l| l.2).map(|l| l.0).collect()
    }

    /// What the run's header would count of the last reports.
    fn counts(&self) -> Counts {
        Counts::of(&self.cases())
    }
}

/// Runs `cases` on one worker whose subject is `subject`, on a machine
/// that is not root, never cancelled; no fixture is left behind.
fn drive(cases: &[Case], subject: Scripted, baseline: Baseline) -> Driven {
    let instances: Vec<Instance> = cases.iter().flat_map(|c| c.instances()).collect();
    let fixtures = tempfile::tempdir().unwrap();
    let config = RunConfig {
        baseline,
        fixtures: Some(fixtures.path().to_owned()),
        ..RunConfig::default()
    };
    let env = Environment {
        machine: MACHINE,
        cancelled: &never_cancelled,
    };
    let mut worker = Worker::new(Box::new(subject), &config, &env);
    let mut driven = Vec::new();
    let amend = |driven: &mut Vec<_>, amended: Vec<Amended>| {
        driven.extend(amended.into_iter().map(|a| (a.position, a.report, true)));
    };
    for (position, instance) in instances.iter().enumerate() {
        let report = worker.run(position, instance);
        driven.push((position, report.clone(), false));
        let amended = worker.answered(position, report);
        amend(&mut driven, amended);
    }
    let amended = worker.finish();
    amend(&mut driven, amended);
    let left: Vec<_> = std::fs::read_dir(fixtures.path()).unwrap().collect();
    assert!(left.is_empty(), "fixtures left behind: {left:?}");
    Driven(driven)
}

fn status(n: usize, status: Status) -> Summary {
    let mut summary = Summary::default();
    (0..n).for_each(|_| summary.add(status));
    summary
}

#[test]
fn output_after_an_answer_is_charged_to_that_answer_not_the_next() {
    let steps = [
        Step::AnswerThenWrite(right(), "{\"type\":\"result\"}".into()),
        Step::Answer(right()),
        Step::Answer(right()),
    ];
    let driven = drive(
        &cases(3),
        Scripted::new(hello(), steps),
        Baseline::default(),
    );
    let last = driven.last();
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
    assert_eq!(driven.amended(), [0], "one amendment, of position 0");
    let mut want = status(2, Status::Pass);
    want.add(Status::AdapterError);
    assert_eq!(
        driven.counts().summary,
        want,
        "the amended pass is uncounted"
    );
}

/// A subject that keeps its process for one set of roots gets the
/// consecutive instances of one case file built in one place (the same
/// roots), another file a place of its own; a directory found standing
/// at the place when the next instance is built there was made by a write
/// after the answer of the one before: its escape, amending its report.
#[test]
fn one_case_files_instances_share_a_place_whose_rebuild_ends_the_late_watch() {
    let cases = [
        case(0, "resolve", "{path: missing}"),
        case(0, "resolve", "{path: missing}"),
        case(1, "resolve", "{path: missing}"),
    ];
    let instances: Vec<Instance> = cases.iter().flat_map(|c| c.instances()).collect();
    let subject = Scripted::new(hello(), (0..3).map(|_| Step::Answer(right()))).keeping_place();
    let calls = subject.calls();
    let fixtures = tempfile::tempdir().unwrap();
    let config = RunConfig {
        fixtures: Some(fixtures.path().to_owned()),
        ..RunConfig::default()
    };
    let env = Environment {
        machine: MACHINE,
        cancelled: &never_cancelled,
    };
    let mut worker = Worker::new(Box::new(subject), &config, &env);
    let first = worker.run(0, &instances[0]);
    assert_eq!(first.status, Status::Pass);
    assert!(worker.answered(0, first).is_empty());
    let place = worker.place.as_ref().expect("a place kept").1.root.clone();
    // Something the first call started writes after its answer.
    std::fs::create_dir(&place).unwrap();
    let second = worker.run(1, &instances[1]);
    assert_eq!(second.status, Status::Pass, "{second:?}");
    let amended = worker.answered(1, second);
    assert_eq!(amended.len(), 1, "{amended:?}");
    assert_eq!(amended[0].position, 0);
    assert_eq!(amended[0].report.status, Status::Fail);
    assert_eq!(
        amended[0].report.containment.as_ref().unwrap().class,
        crate::report::ContainmentClass::Escape
    );
    let third = worker.run(2, &instances[2]);
    assert!(worker.answered(2, third).is_empty());
    assert!(worker.finish().is_empty());
    let roots: Vec<Vec<String>> = (calls.lock().unwrap().iter())
        .map(|c| c.workspace.roots.clone())
        .collect();
    assert_eq!(roots[0], roots[1], "one place for one case file");
    assert_ne!(roots[1], roots[2], "another for the next file");
    let left: Vec<_> = std::fs::read_dir(fixtures.path()).unwrap().collect();
    assert!(left.is_empty(), "fixtures left behind: {left:?}");
}

#[test]
fn an_amended_report_goes_through_the_baseline() {
    let baseline = Baseline::parse(
        Path::new("b.yaml"),
        "t.c0:\n  status: xfail\n  reason: writes twice\n",
    )
    .unwrap();
    let steps = [
        Step::AnswerThenWrite(right(), "again".into()),
        Step::Answer(right()),
    ];
    let driven = drive(&cases(2), Scripted::new(hello(), steps), baseline);
    // First judged a pass, so an xpass; the violation makes it an xfail.
    let lines = &driven.0;
    assert_eq!((lines[0].1.status, lines[0].2), (Status::Xpass, false));
    assert_eq!(driven.last()[0].0, Status::Xfail);
    let summary = driven.counts().summary;
    assert_eq!((summary.xfail, summary.xpass), (1, 0));
}

#[test]
fn an_instance_the_adapter_cannot_take_is_never_sent() {
    let both = vec![
        case(0, "ls", "{path: missing}"),
        case(1, "resolve", "{path: missing}"),
    ];
    let script = Scripted::new(hello(), [Step::Answer(right())]);
    let calls = script.calls();
    let last = drive(&both, script, Baseline::default()).last();
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
    let scratch = tempfile::tempdir().unwrap();
    let with_tmp = [case(0, "resolve", "{path: \"{adapter-tmp}/x\"}")];
    let script = Scripted::new(hello(), [Step::Answer(right())]).scratch(scratch.path());
    let calls = script.calls();
    drive(&with_tmp, script, Baseline::default());
    let sent = calls.lock().unwrap();
    assert_eq!(
        sent[0].params["path"],
        format!("{}/x", scratch.path().display())
    );
}

/// Fails the call unless its workspace belongs to the unprivileged user.
fn owned_by_the_unprivileged_user(call: &Call) {
    use std::os::unix::fs::MetadataExt;
    let root = Path::new(&call.workspace.roots[0]);
    let owner = std::fs::metadata(root).unwrap();
    let user = crate::sys::UNPRIVILEGED_USER;
    assert_eq!((owner.uid(), owner.gid()), user, "{}", root.display());
}

/// The fixture goes to the user the subject says it runs as
/// ([`Subject::user`]), whatever the run's configuration says: one source
/// of truth for the worker and the fuzzer alike.
#[test]
fn the_fixture_is_handed_to_the_user_the_subject_runs_as() {
    if !crate::test_support::root_or_skip("handing a fixture to another user") {
        return;
    }
    let script = Scripted::new(
        hello(),
        [Step::Touch(owned_by_the_unprivileged_user, right())],
    )
    .as_user(crate::sys::UNPRIVILEGED_USER);
    let last = drive(&cases(1), script, Baseline::default()).last();
    assert_eq!(last, [(Status::Pass, None)]);
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

/// Runs `cases` against one script saying `hello`; what the run's header
/// would count, and every case report.
fn run_kept(cases: &[Case], hello: AdapterHello, steps: Vec<Step>) -> (Counts, Vec<CaseReport>) {
    let driven = drive(cases, Scripted::new(hello, steps), Baseline::default());
    (driven.counts(), driven.cases())
}

fn class(case: &CaseReport) -> Option<crate::report::ContainmentClass> {
    case.containment.as_ref().map(|c| c.class)
}

/// Writes a file beside the roots: outside every one of them.
fn write_beside_the_roots(call: &Call) {
    let beside = Path::new(&call.workspace.roots[0]).parent().unwrap();
    std::fs::write(beside.join("escaped"), "x").unwrap();
}

/// Writes seven files beside the roots.
fn write_seven_beside_the_roots(call: &Call) {
    let beside = Path::new(&call.workspace.roots[0]).parent().unwrap();
    for n in 0..7 {
        std::fs::write(beside.join(format!("escaped-{n}")), "x").unwrap();
    }
}

/// Gives the directory beside the roots an extended attribute, and moves
/// the times of a file inside the root.
fn mark_beside_and_touch_inside(call: &Call) {
    let root = Path::new(&call.workspace.roots[0]);
    let beside = std::fs::File::open(root.parent().unwrap()).unwrap();
    let flags = rustix::fs::XattrFlags::empty();
    rustix::fs::fsetxattr(&beside, "user.toolpath", b"out", flags).unwrap();
    std::fs::write(root.join("a"), "x").unwrap();
}

#[test]
fn every_change_outside_is_evidence_and_metadata_counts_outside_only() {
    use crate::report::ContainmentClass::*;
    let right = || ToolResult {
        outcome: Some(toolpath_suite::protocol::Outcome::Ok),
        kind: Some(toolpath_suite::protocol::Kind::File),
        ..ToolResult::default()
    };
    let (_, cases) = run_kept(
        &containment_cases()[1..],
        hello(),
        vec![Step::Touch(write_seven_beside_the_roots, right())],
    );
    let evidence = cases[0].containment.as_ref().unwrap().evidence.clone();
    assert_eq!(
        evidence.as_deref(),
        Some(
            "write: changed outside every root: + {tmp}/escaped-0 (file), \
             + {tmp}/escaped-1 (file), + {tmp}/escaped-2 (file), \
             + {tmp}/escaped-3 (file), + {tmp}/escaped-4 (file) (and 2 more)"
        )
    );
    // An attribute set beside the roots is a write out; the same bytes
    // written again inside one (its times moved) are nobody's business.
    let (_, cases) = run_kept(
        &containment_cases()[1..],
        hello(),
        vec![Step::Touch(mark_beside_and_touch_inside, right())],
    );
    assert_eq!(class(&cases[0]), Some(Escape));
    assert_eq!(
        cases[0].containment.as_ref().unwrap().evidence.as_deref(),
        Some("write: changed outside every root: ~ {tmp} (extended attributes)")
    );
    let fixture: Vec<_> = (cases[0].mismatches.iter())
        .filter(|m| m.field == crate::report::OwnCheck::Fixture.into())
        .collect();
    assert!(fixture.is_empty(), "{fixture:?}");
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
        .insert(Tool::Resolve, vec![Field::Path]);
    let (report, cases) = run_kept(
        &containment_cases(),
        by_tool,
        vec![Step::Answer(ok("/anywhere")), Step::Answer(ok("/nowhere"))],
    );
    assert_eq!(
        (cases[0].status, class(&cases[0])),
        (Status::Fail, Some(Escape))
    );
    // An `ok` to a path the case refuses: `resolve` resolves (SEC-12);
    // the path it reported is not observed, so not judged besides.
    let escaped = cases[0].containment.as_ref().unwrap();
    assert_eq!(escaped.channels, [crate::report::Channel::Resolve]);
    assert_eq!(escaped.evidence.as_deref(), Some("resolve: answered ok"));
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
    derived_code.derived = vec![Field::ErrorCode];
    let mut derived_path = ok("/nowhere");
    derived_path.derived = vec![Field::Path];
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
        Some(
            "write: changed outside every root: + {tmp}/escaped (file); \
             resolve: reported a path outside the fixture directory"
        )
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
    let driven = drive(
        &cases(2),
        Scripted::new(hello(), steps),
        Baseline::default(),
    );
    let report = driven.counts();
    assert_eq!(report.summary.fail, 2, "declining the call excuses nothing");
    for case in driven.cases() {
        let fixture = case
            .mismatches
            .iter()
            .find(|m| m.field == OwnCheck::Fixture.into())
            .unwrap();
        assert_eq!(fixture.rule.as_deref(), Some("SEC-11"));
        assert_eq!(fixture.actual, "1 change: + {ws}/cache.db (file)");
        assert!(case.diff.unwrap().contains("+fixture: 1 change"));
    }
}

/// Fails the call unless the announced ignore file stands in the root,
/// holding the case's text.
fn own_ignore_file_in_the_root(call: &Call) {
    let file = Path::new(&call.workspace.roots[0]).join(".mytoolignore");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "missing\n");
}

/// The subject's own ignore file is in the fixture it is called on, and a
/// name that would stand where the case makes something skips the case,
/// with the reason, unsent.
#[test]
fn the_subjects_own_ignore_file_is_built_into_the_fixture() {
    let text = case_text(0, "resolve", "{path: missing}").replace(
        "fixture: {roots: [ws]}",
        "fixture: {roots: [ws], files: {ws/a: x}, own_ignore_files: {ws: \"missing\\n\"}}",
    );
    let own = [parse_case(Path::new("c0.yaml"), &text).unwrap()];
    let announcing = |name: &str| AdapterHello {
        ignore_files: vec![name.to_owned()],
        ..hello()
    };
    let script = Scripted::new(
        announcing(".mytoolignore"),
        [Step::Touch(own_ignore_file_in_the_root, right())],
    );
    let last = drive(&own, script, Baseline::default()).last();
    assert_eq!(last, [(Status::Pass, None)]);
    let script = Scripted::new(announcing("a"), [Step::Answer(right())]);
    let calls = script.calls();
    let last = drive(&own, script, Baseline::default()).last();
    assert_eq!(
        last,
        [(
            Status::Skip,
            Some(
                "the announced ignore file `a` would be `ws/a`, where the fixture already makes `ws/a`"
                    .into()
            )
        )]
    );
    assert!(calls.lock().unwrap().is_empty(), "never sent");
}
