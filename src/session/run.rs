//! One run of the suite in a [`Session`]: claim the outputs, start the run
//! directory, make the subjects, run the harness into the sealed spool (and
//! the user's live event log), end every process it started, read the
//! spool back verified, deliver every report (the user's event log replaced
//! by a copy of the spool) and the expectations file, and end with the
//! exit code.
//!
//! What to run comes in a [`RunPlan`], checked by the CLI before anything
//! runs (a usage error is found before the first case runs, never after).
//! Who answers is part of the plan ([`Subjects`]): the reference, an
//! adapter, an MCP server, or subjects a caller makes (the unit tests here
//! run whole sessions against a scripted subject, no process involved).

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::case::catalog::Catalog;
use crate::harness::baseline::{self, Baseline};
use crate::harness::config::{Environment, RunConfig, SubjectFactory};
use crate::mcp::profile::Loaded;
use crate::mcp::server::McpServer;
use crate::report::events::{EventLog, Spool};
use crate::report::render::human::Detail;
use crate::report::sink::{Sink, Tee};
use crate::report::view::View;
use crate::report::{ExitCode, MCP_LABEL_PREFIX, Report, Selected};
use crate::session::deliver::{self, ReportTarget};
use crate::session::progress::Progress;
use crate::session::{Session, Supervision};
use crate::subject::Subject;
use crate::subject::adapter::{Adapter, AdapterConfig};
use crate::sys::is_root;

/// Everything a suite run needs, checked.
pub struct RunPlan {
    /// The selected instances, by where their cases are.
    pub catalog: Catalog,
    pub baseline: Baseline,
    /// Who answers the calls.
    pub subjects: Subjects,
    /// Where each report goes.
    pub targets: Vec<ReportTarget>,
    /// The user's event log, if any.
    pub events: Option<PathBuf>,
    /// Where the run directory goes (`--fixture-dir`).
    pub fixture_dir: Option<PathBuf>,
    pub jobs: usize,
    /// The adapter's (or server's) timeouts and restarts; the call timeout
    /// bounds the reference's calls and the building of a fixture too.
    pub supervision: Supervision,
    pub keep_fixtures: bool,
    pub write_expectations: Option<PathBuf>,
    pub strict: bool,
    /// Whether, as root, permission cases go to a copy run as `nobody`
    /// (the reference's `toolpath serve`, or a subject run as root).
    pub unprivileged: bool,
    /// The part of the suite selected, for the report.
    pub selection: Selected,
    /// How many failing instances a human report shows.
    pub detail: Detail,
    /// Whether, as root, an adapter or MCP server runs as root (without
    /// capabilities) instead of as `nobody` (`--subject-as-root`): the
    /// report's header then says the verdict is not protected.
    pub subject_as_root: bool,
    /// Whether the selection is the whole suite: only then is an
    /// expectation that matches nothing fatal under `--strict`.
    pub whole_selection: bool,
    /// What the run is made against (its suite's and runner's digests),
    /// for the report; `None` for a run that records nothing.
    pub run_against: Option<crate::report::RunAgainst>,
}

/// Who answers a run's calls.
pub enum Subjects {
    /// The in-process reference (as root, permission cases go to
    /// `toolpath serve` run as the unprivileged user).
    Reference,
    /// An adapter process: its command line as given (for the report) and
    /// split.
    Adapter { line: String, argv: Vec<String> },
    /// An MCP server, from its profile.
    Mcp(Box<Loaded>),
    /// Subjects `make` makes, named `label` in the report: the caller's
    /// own (a scripted subject, in tests), with no unprivileged copy.
    Made {
        label: Option<String>,
        make: Box<SubjectFactory<'static>>,
    },
}

impl Subjects {
    /// How the report names who answered; `None` for the reference.
    fn label(&self) -> Option<String> {
        match self {
            Subjects::Reference => None,
            Subjects::Adapter { line, .. } => Some(line.clone()),
            Subjects::Mcp(profile) => Some(format!("{MCP_LABEL_PREFIX}{}", profile.file.display())),
            Subjects::Made { label, .. } => label.clone(),
        }
    }
}

/// Runs `plan`; the exit code.
pub fn run(plan: RunPlan) -> ExitCode {
    let user_log = match deliver::claim(&plan.targets, plan.events.as_deref()) {
        Ok(log) => log,
        Err(e) => {
            eprintln!("toolpath: {e}");
            return ExitCode::Report;
        }
    };
    let session = match Session::start(plan.fixture_dir.as_deref(), plan.subject_as_root) {
        Ok(session) => session,
        Err(e) => {
            eprintln!("toolpath: {e}");
            return ExitCode::Usage;
        }
    };
    run_in(session, &plan, user_log.as_ref())
}

/// Runs `plan` in `session`, into its spool and `user_log` (the live copy);
/// the exit code.
fn run_in(session: Session, plan: &RunPlan, user_log: Option<&EventLog>) -> ExitCode {
    // Every run keeps its case reports in a sealed event log of its own:
    // the reports, and the user's copy at the end, are made from it.
    let spool = match session.spool() {
        Ok(log) => log,
        Err(e) => {
            eprintln!("toolpath: cannot write the run's event log: {e}");
            return session.end(ExitCode::Report, "nothing was reported");
        }
    };
    let mut logs: Vec<&EventLog> = vec![&spool];
    logs.extend(user_log);
    let mut head = match execute(plan, &session, &logs) {
        Ok(head) => head,
        Err(e) => {
            eprintln!("toolpath: {e}");
            return session.end(ExitCode::Usage, "nothing was reported");
        }
    };
    head.fixture_dir = Some(session.place().describe());
    // Nothing the run started may still write while it reports.
    session.end_orphans();
    // Each log that failed said so when it did (once); the run's own one
    // is what the reports are made from.
    if !spool.complete() {
        eprintln!("toolpath: the reports lack what the run's event log lacks");
    }
    let code = match session.read_spool(&spool, plan.catalog.len()) {
        Ok(cases) => deliver_all(plan, &session, &head, &cases),
        Err(e) => {
            eprintln!("toolpath: refusing to report: {e}");
            // No report stands for this run: nor does the live copy of its
            // log, which adapters could write as well as the spool.
            if let Some(Err(e)) = plan.events.as_deref().map(deliver::withdraw_events) {
                eprintln!("toolpath: {e}");
            }
            ExitCode::Report
        }
    };
    let code = match logs.iter().all(|log| log.complete()) {
        true => code,
        false => ExitCode::Report,
    };
    session.end(code, "the reports are partial")
}

/// What this run cannot protect its verdict from (every report says it):
/// the session's gaps ([`Session::unprotected`]) where a subject process
/// runs at all. The in-process reference starts none but the shell
/// commands of cases, which it waits for.
fn unprotected(subjects: &Subjects, gaps: Vec<String>) -> Vec<String> {
    match subjects {
        Subjects::Reference => Vec::new(),
        _ => gaps,
    }
}

/// The user the subject runs as: the session's ([`Session::subject_user`])
/// for an adapter or MCP server; the harness's own (`None`) for the
/// in-process reference and subjects a caller makes, which start no
/// process of their own.
fn subject_user(plan: &RunPlan, session: &Session) -> Option<(u32, u32)> {
    let spawned = matches!(plan.subjects, Subjects::Adapter { .. } | Subjects::Mcp(_));
    spawned.then(|| session.subject_user()).flatten()
}

/// How to start the subject, and its unprivileged copy.
fn subjects<'r>(
    plan: &'r RunPlan,
    session: &'r Session,
) -> Result<(Box<SubjectFactory<'r>>, Option<AdapterConfig>), String> {
    let supervision = &plan.supervision;
    let user = subject_user(plan, session);
    // Root's, not `nobody`'s: the unprivileged copy gets a scratch
    // directory of its own inside, handed to it there. Were this one
    // `nobody`'s, that copy (an adapter, as hostile as any) could swap the
    // scratch directory of its next restart for a link between its
    // creation and root's chown, and have root chown what it chose.
    let copy = |argv| -> Result<Option<AdapterConfig>, String> {
        let dir = session.subdir("unprivileged")?;
        Ok(Some(session.unprivileged_adapter_config(
            argv,
            supervision,
            dir,
        )))
    };
    let unprivileged = match &plan.subjects {
        _ if !(plan.unprivileged && is_root()) => None,
        // The subject is unprivileged itself: it takes the permission cases.
        _ if user.is_some() => None,
        Subjects::Reference => copy(vec![
            std::env::current_exe()
                .map_err(|e| format!("cannot find this program: {e}"))?
                .display()
                .to_string(),
            "serve".into(),
        ])?,
        Subjects::Adapter { argv, .. } => copy(argv.clone())?,
        // With --subject-as-root, a server's permission cases are skipped
        // with the reason: the unprivileged copy is an adapter process.
        Subjects::Mcp(_) | Subjects::Made { .. } => None,
    };
    let make: Box<SubjectFactory> = match &plan.subjects {
        Subjects::Reference => {
            let timeout = supervision.call_timeout;
            Box::new(move || Ok(Box::new(session.reference(timeout)) as Box<dyn Subject + Send>))
        }
        Subjects::Adapter { argv, .. } => {
            let config =
                session.adapter_config(argv.clone(), supervision, session.subdir("adapters")?)?;
            Box::new(move || {
                Ok(Box::new(Adapter::start(config.clone())?) as Box<dyn Subject + Send>)
            })
        }
        Subjects::Mcp(profile) => {
            let config = session.mcp_config((**profile).clone(), supervision)?;
            Box::new(move || {
                Ok(Box::new(McpServer::start(config.clone())?) as Box<dyn Subject + Send>)
            })
        }
        Subjects::Made { make, .. } => Box::new(make),
    };
    Ok((make, unprivileged))
}

/// Runs the selected cases into the event logs, with progress on standard
/// error ([`Progress`]); the report's header and counts.
fn execute(plan: &RunPlan, session: &Session, logs: &[&EventLog]) -> Result<Report, String> {
    let (make, unprivileged) = subjects(plan, session)?;
    let fixtures = if plan.keep_fixtures {
        // Kept fixtures are meant to outlive the run: beside it, not in it.
        Some(session.kept_dir()?)
    } else {
        Some(session.subdir("fixtures")?)
    };
    let progress = Progress::on_stderr(plan.catalog.len(), std::io::stderr().is_terminal());
    let mut sinks: Vec<&dyn Sink> = logs.iter().map(|log| *log as &dyn Sink).collect();
    sinks.push(&progress);
    let sink = Tee(sinks);
    let config = RunConfig {
        jobs: plan.jobs,
        keep_fixtures: plan.keep_fixtures,
        strict: plan.strict,
        baseline: plan.baseline.clone(),
        unprivileged,
        subject_user: subject_user(plan, session),
        adapter_label: plan.subjects.label(),
        selection: plan.selection.clone(),
        run_against: plan.run_against.clone(),
        unprotected: unprotected(&plan.subjects, session.unprotected()),
        fixtures,
        sink: Some(&sink),
        fixture_timeout: plan.supervision.call_timeout,
        hang_timeout: plan.supervision.hang_timeout,
    };
    let env = Environment::here(&config, session.cancellation());
    Ok(crate::harness::run::run_in(
        &plan.catalog,
        make.as_ref(),
        &config,
        &env,
    ))
}

/// Writes every report and the expectations file, reading the run's cases
/// back from its spool; the exit code.
fn deliver_all(plan: &RunPlan, session: &Session, head: &Report, cases: &Spool) -> ExitCode {
    let view = View::streamed(head, cases);
    explain_if_nothing_ran(head, cases);
    // A user's log that cannot be written (a full disk) is exit 4, with
    // every other report whole: they do not come from it.
    let events = plan
        .events
        .as_deref()
        .map_or(Ok(()), |path| deliver::write_events(path, cases));
    if let Err(e) = &events {
        eprintln!("toolpath: {e}");
    }
    let code = deliver_reports(plan, session, head, cases, view);
    if events.is_err() {
        ExitCode::Report
    } else {
        code
    }
}

/// Writes every report and the expectations file; the exit code.
fn deliver_reports(
    plan: &RunPlan,
    session: &Session,
    head: &Report,
    cases: &Spool,
    view: View,
) -> ExitCode {
    if let Err(e) = deliver::write_reports(view, &plan.targets, plan.detail) {
        eprintln!("toolpath: {e}");
        return ExitCode::Report;
    }
    // With every report sent to files, the terminal (and a CI log that
    // parses the closing line) still sees how the run went.
    if plan.targets.iter().all(|t| t.path.is_some()) {
        let _ = deliver::print_out(&crate::report::render::human::closing_lines(head));
    }
    // A cancelled run saw only part of the suite, and a partial one (an
    // adapter that never started, or was given up on) did not judge part
    // of it: their failures written as the expectations would drop every
    // entry of the part never judged (and their reasons, written by hand).
    // The file is left as it was.
    let unjudged = match (session.cancelled(), head.partial) {
        (Some(_), _) => Some("the run was cancelled"),
        (None, true) => Some("the run was partial (instances did not run)"),
        (None, false) => None,
    };
    if let (Some(file), Some(why)) = (&plan.write_expectations, unjudged) {
        eprintln!("toolpath: {} left as it was: {why}", file.display());
    } else if let Some(file) = &plan.write_expectations {
        let written = baseline::write_from(cases, &plan.baseline)
            .and_then(|text| std::fs::write(file, &text).map(|()| text));
        let text = match written {
            Ok(text) => text,
            Err(e) => {
                eprintln!("toolpath: cannot write {}: {e}", file.display());
                return ExitCode::Report;
            }
        };
        let entries = text.lines().filter(|l| l.starts_with("  status:")).count();
        eprintln!(
            "toolpath: wrote {entries} xfail entr{} to {}",
            if entries == 1 { "y" } else { "ies" },
            file.display()
        );
    }
    if session.cancelled().is_some() {
        // Session::end says so and turns this into the signal's code.
        return ExitCode::Ok;
    }
    let mut code = head.exit_code();
    let unused = match plan.baseline.unused(cases) {
        Ok(unused) => unused,
        Err(e) => {
            eprintln!("toolpath: cannot read the run's event log back: {e}");
            return ExitCode::Report;
        }
    };
    if let Some(line) = unused_line(&unused, plan.whole_selection) {
        eprintln!("toolpath: {line}");
        if plan.strict && code == ExitCode::Ok && plan.whole_selection {
            code = ExitCode::Unexpected;
        }
    }
    code
}

/// How many expectations listed no case shown, at most this many by id.
const UNUSED_SHOWN: usize = 10;

/// What to say of the expectations that matched no selected case. Under a
/// selection (`--filter`, `--spec`, `--tag`, `--tool`, `--shard`) most of
/// a file is about cases not selected, which is no news: a count and where
/// to look. Over the whole suite each one is stale (and fails `--strict`):
/// the first few by id, and how many more.
fn unused_line<S: AsRef<str>>(unused: &[S], whole_selection: bool) -> Option<String> {
    if unused.is_empty() {
        return None;
    }
    let n = unused.len();
    let (entries, match_) = if n == 1 {
        ("entry", "matches")
    } else {
        ("entries", "match")
    };
    if !whole_selection {
        return Some(format!(
            "{n} expectations {entries} {match_} no selected case (this run selects part of \
             the suite; a run of the whole suite names any that match no case at all)"
        ));
    }
    let shown: Vec<&str> = unused[..n.min(UNUSED_SHOWN)]
        .iter()
        .map(AsRef::as_ref)
        .collect();
    let shown = shown.join(", ");
    let more = match n.saturating_sub(UNUSED_SHOWN) {
        0 => String::new(),
        k => format!(" and {k} more"),
    };
    Some(format!(
        "{n} expectations {entries} {match_} no case: {shown}{more}"
    ))
}

/// When no case ran (the adapter never started), says why on stderr too.
fn explain_if_nothing_ran(head: &Report, cases: &Spool) {
    if head.summary.not_run != head.summary.total || head.summary.total == 0 {
        return;
    }
    // The reason and the stderr are the adapter's text: shown with
    // stand-ins for what would act on the terminal, the stderr a line
    // behind an indent per line, so none passes for a line of toolpath's.
    if let Ok(first) = cases.case(0) {
        eprintln!(
            "toolpath: {}",
            toolpath_suite::sanitize::one_line(first.reason.as_deref().unwrap_or("no case ran"))
        );
        if let Some(stderr) = &first.stderr {
            eprint!(
                "--- {} stderr ---\n{}",
                head.subject(),
                toolpath_suite::sanitize::indented(stderr, "  | ")
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use serde_json::Value;

    use super::*;
    use crate::case::select::Selection;
    use crate::harness::known_cases::{case_text, hello, never_cancelled, right, wrong};
    use crate::session::deliver::Format;
    use crate::session::place::Place;
    use crate::subject::FailureKind;
    use crate::subject::scripted::{Scripted, Step};
    use crate::sys::SIGINT;

    #[test]
    fn unused_expectations_are_counted_under_a_selection_and_named_over_the_suite() {
        let ids: Vec<String> = (0..300).map(|i| format!("some.case.{i}")).collect();
        let selected = super::unused_line(&ids, false).unwrap();
        assert_eq!(
            selected,
            "300 expectations entries match no selected case (this run selects part of the \
             suite; a run of the whole suite names any that match no case at all)"
        );
        let whole = super::unused_line(&ids, true).unwrap();
        assert!(
            whole.starts_with("300 expectations entries match no case: some.case.0, some.case.1, ")
                && whole.ends_with("some.case.9 and 290 more"),
            "{whole}"
        );
        assert_eq!(
            super::unused_line(&ids[..1], true).unwrap(),
            "1 expectations entry matches no case: some.case.0"
        );
        assert_eq!(super::unused_line::<&str>(&[], true), None);
    }
    use toolpath_suite::protocol::Call;

    /// A plan that runs `catalog` against `subjects` on `jobs` workers, the
    /// JSON report to `dir/r.json`.
    fn plan_of(dir: &Path, catalog: Catalog, subjects: Subjects, jobs: usize) -> RunPlan {
        RunPlan {
            catalog,
            baseline: Baseline::default(),
            subjects,
            targets: vec![ReportTarget {
                format: Format::Json,
                path: Some(dir.join("r.json")),
            }],
            events: None,
            fixture_dir: None,
            jobs,
            supervision: Supervision {
                call_timeout: Duration::from_secs(60),
                hello_timeout: Duration::from_secs(60),
                max_restarts: 0,
                hang_timeout: crate::subject::fifos::DEFAULT_HANG_TIMEOUT,
            },
            keep_fixtures: false,
            write_expectations: None,
            strict: false,
            unprivileged: false,
            selection: Selected::default(),
            detail: Detail::default(),
            subject_as_root: false,
            whole_selection: true,
            run_against: None,
        }
    }

    /// The mini suite's instances `filter` selects, against the reference,
    /// writing an expectations file to `dir/exp.yaml`.
    /// A run whose subjects could not be boxed says so in its header,
    /// human and JSON alike; the in-process reference (which starts no
    /// subject) says nothing.
    #[test]
    fn a_run_without_boxes_says_processes_could_outlive_it() {
        let adapter = Subjects::Adapter {
            line: "a".into(),
            argv: vec!["a".into()],
        };
        let gap = "processes a subject starts could outlive the run".to_owned();
        assert!(unprotected(&Subjects::Reference, vec![gap.clone()]).is_empty());
        let gaps = unprotected(&adapter, vec![gap]);
        assert_eq!(gaps.len(), 1);
        let mut report = crate::report::render::sample_reports::report("x", Vec::new());
        report.unprotected = gaps;
        let human = deliver::render(&report, Format::Human, false);
        assert!(
            human.contains("NOT PROTECTED:  processes a subject starts could outlive the run"),
            "{human}"
        );
        let json: Value =
            serde_json::from_str(&deliver::render(&report, Format::Json, false)).unwrap();
        assert_eq!(json["unprotected"][0], report.unprotected[0].as_str());
    }

    fn plan(dir: &Path, filter: &[&str]) -> RunPlan {
        let selection = Selection {
            ids: filter.iter().map(|f| (*f).to_owned()).collect(),
            ..Selection::default()
        };
        let catalog = Catalog::open(&["tests/data/mini".into()], &[], &selection).unwrap();
        RunPlan {
            write_expectations: Some(dir.join("exp.yaml")),
            selection: Selected::default(),
            detail: Detail::default(),
            whole_selection: filter.is_empty(),
            ..plan_of(dir, catalog, Subjects::Reference, 2)
        }
    }

    /// A whole run in a session, the in-process reference answering: the
    /// report is rendered from the verified spool, the expectations file is
    /// written, the exit code says how it went, and the run directory with
    /// everything in it (the reference's scratch, the fixtures, the spool)
    /// is gone afterwards.
    #[test]
    fn a_session_runs_the_reference_reports_from_its_spool_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let place = dir.path().join("place");
        std::fs::create_dir(&place).unwrap();
        let place = Place::resolve(Some(&place)).unwrap();
        let plan = plan(dir.path(), &["mini.resolve.outside", "mini.search.*"]);
        let session = Session::in_place(place.clone()).unwrap();
        assert_eq!(std::fs::read_dir(place.path()).unwrap().count(), 1);
        let code = run_in(session, &plan, None);
        assert_eq!(code, ExitCode::Ok);
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap())
                .unwrap();
        assert_eq!(report["summary"]["pass"], 3, "{report}");
        assert_eq!(report["cases"][0]["id"], "mini.resolve.outside");
        assert!(
            report["fixture_dir"]
                .as_str()
                .unwrap()
                .starts_with(place.path().to_str().unwrap())
        );
        assert!(dir.path().join("exp.yaml").is_file());
        assert_eq!(std::fs::read_dir(place.path()).unwrap().count(), 0);
    }

    /// A plan over `n` cases written into `dir` (`t.c0` ..., each
    /// resolving a missing path), answered by the subjects `make` makes,
    /// on one worker; the JSON report goes to `dir/r.json`.
    fn scripted_plan(
        dir: &Path,
        n: usize,
        make: impl Fn() -> Scripted + Send + Sync + 'static,
    ) -> RunPlan {
        let cases = dir.join("cases");
        std::fs::create_dir(&cases).unwrap();
        for i in 0..n {
            let text = case_text(i, "resolve", "{path: missing}");
            std::fs::write(cases.join(format!("c{i}.yaml")), text).unwrap();
        }
        let catalog = Catalog::open(&[cases], &[], &Selection::default()).unwrap();
        let subjects = Subjects::Made {
            label: Some("scripted".into()),
            make: Box::new(move || Ok(Box::new(make()) as Box<dyn Subject + Send>)),
        };
        plan_of(dir, catalog, subjects, 1)
    }

    /// A subject that follows `steps`, made once (for the only worker),
    /// and where the calls it receives are recorded.
    fn once(
        steps: Vec<Step>,
    ) -> (
        impl Fn() -> Scripted + Send + Sync + 'static,
        Arc<Mutex<Vec<Call>>>,
    ) {
        let script = Scripted::new(hello(), steps);
        let calls = script.calls();
        let script = Mutex::new(Some(script));
        (
            move || script.lock().unwrap().take().expect("one worker"),
            calls,
        )
    }

    /// Runs `plan` in a session in a fresh place below `dir`, cancelled when
    /// `cancelled` says so, into `user_log` if given: the exit code and the
    /// JSON report (`null` when none was written). Nothing is left in the
    /// place afterwards, whatever happened.
    fn run_session(
        dir: &Path,
        plan: &RunPlan,
        cancelled: impl Fn() -> Option<i32> + Send + Sync + 'static,
        user_log: Option<&EventLog>,
    ) -> (ExitCode, Value) {
        let place = dir.join("place");
        std::fs::create_dir(&place).unwrap();
        let place = Place::resolve(Some(&place)).unwrap();
        let session = Session::in_place(place.clone())
            .unwrap()
            .cancelled_by(cancelled);
        let code = run_in(session, plan, user_log);
        let left: Vec<_> = std::fs::read_dir(place.path()).unwrap().collect();
        assert!(left.is_empty(), "left in the place: {left:?}");
        let text = std::fs::read_to_string(dir.join("r.json")).unwrap_or_default();
        let report = serde_json::from_str(&text).unwrap_or(Value::Null);
        (code, report)
    }

    /// Each case's status, in the report's order.
    fn statuses(report: &Value) -> Vec<&str> {
        let cases = report["cases"].as_array().unwrap();
        cases
            .iter()
            .map(|c| c["status"].as_str().unwrap())
            .collect()
    }

    /// Cancelled after its first call, with no signal sent: the report is
    /// written, partial, with the rest not run for the signal, and the run
    /// ends with 128 + the signal (130).
    #[test]
    fn a_cancelled_session_reports_what_it_ran_and_ends_with_the_signal() {
        let dir = tempfile::tempdir().unwrap();
        let (make, calls) = once(vec![Step::Answer(right()); 3]);
        let plan = scripted_plan(dir.path(), 3, make);
        let after_one_call = move || (!calls.lock().unwrap().is_empty()).then_some(SIGINT);
        let (code, report) = run_session(dir.path(), &plan, after_one_call, None);
        assert_eq!((code, code.code()), (ExitCode::Cancelled(SIGINT), 130));
        assert_eq!(report["partial"], true, "{report}");
        assert_eq!(statuses(&report), ["pass", "not_run", "not_run"]);
        assert_eq!(
            report["cases"][2]["reason"],
            "the run was cancelled by SIGINT"
        );
        assert_eq!(report["summary"]["not_run"], 2);
    }

    /// An adapter that crashes past its restarts: the rest is not run, the
    /// report is written, partial, and the run ends with 3.
    #[test]
    fn a_session_whose_adapter_is_given_up_on_ends_partial() {
        let dir = tempfile::tempdir().unwrap();
        let crash = || Step::Fail(FailureKind::Crash, "the adapter exited".into());
        let plan = scripted_plan(dir.path(), 4, move || {
            Scripted::new(hello(), [crash(), crash()]).max_restarts(1)
        });
        let (code, report) = run_session(dir.path(), &plan, never_cancelled, None);
        assert_eq!((code, code.code()), (ExitCode::Partial, 3));
        assert_eq!(report["partial"], true, "{report}");
        assert_eq!(
            statuses(&report),
            ["adapter_error", "adapter_error", "not_run", "not_run"]
        );
        assert_eq!(
            report["cases"][3]["reason"],
            "the adapter was restarted for 1 case files in a row without answering a call; giving up"
        );
    }

    /// Every case goes through the run's sealed spool and the report is
    /// rendered from it read back: it holds what the subject answered, in
    /// order, as does the user's own event log.
    #[test]
    fn the_report_is_the_spool_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let steps = vec![Step::Answer(right()), Step::Answer(wrong()), Step::Hang];
        let (make, _) = once(steps);
        let mut plan = scripted_plan(dir.path(), 3, make);
        plan.events = Some(dir.path().join("events.jsonl"));
        let user_log = deliver::claim(&plan.targets, plan.events.as_deref()).unwrap();
        let (code, report) = run_session(dir.path(), &plan, never_cancelled, user_log.as_ref());
        assert_eq!(code, ExitCode::Unexpected);
        assert_eq!(statuses(&report), ["pass", "fail", "adapter_error"]);
        assert_eq!(report["adapter"], "scripted");
        let logged = std::fs::read_to_string(dir.path().join("events.jsonl")).unwrap();
        let logged = serde_json::to_value(crate::report::events::read(&logged).unwrap()).unwrap();
        assert_eq!(logged["cases"], report["cases"]);
        assert_eq!(logged["summary"], report["summary"]);
    }

    /// Appends a copy of the spool's first line to it: what a subject
    /// running as the harness's user can do to the run directory.
    fn replay_the_spool(call: &Call) {
        let root = Path::new(&call.workspace.roots[0]);
        let spool = root
            .ancestors()
            .map(|dir| dir.join(crate::session::SPOOL))
            .find(|spool| spool.is_file())
            .expect("the spool above the fixture");
        let text = std::fs::read_to_string(&spool).unwrap();
        let first = text.lines().next().expect("the start line");
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&spool)
            .unwrap();
        std::io::Write::write_all(&mut file, format!("{first}\n").as_bytes()).unwrap();
    }

    /// A spool the subject wrote to does not verify when read back: no
    /// report is written from it, and the run ends with 4.
    #[test]
    fn a_spool_the_subject_wrote_to_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let steps = vec![
            Step::Touch(replay_the_spool, right()),
            Step::Answer(right()),
        ];
        let (make, _) = once(steps);
        let plan = scripted_plan(dir.path(), 2, make);
        let (code, report) = run_session(dir.path(), &plan, never_cancelled, None);
        assert_eq!((code, code.code()), (ExitCode::Report, 4));
        assert_eq!(report, Value::Null, "no report from a forged spool");
    }
}
