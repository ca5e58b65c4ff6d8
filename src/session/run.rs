//! One run of the suite in a [`Session`]: claim the outputs, start the run
//! directory, make the subjects, run the harness into the sealed spool (and
//! the user's live event log), end every process it started, read the
//! spool back verified, deliver every report (the user's event log replaced
//! by a copy of the spool) and the expectations file, and end with the
//! exit code.
//!
//! What to run comes in a [`RunPlan`], checked by the CLI before anything
//! runs (a usage error is found before the first case runs, never after).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use crate::case::catalog::Catalog;
use crate::harness::baseline::{self, Baseline};
use crate::harness::config::{RunConfig, SubjectFactory};
use crate::mcp::profile::Loaded;
use crate::mcp::server::{McpConfig, McpServer};
use crate::report::events::{EventLog, Spool};
use crate::report::sink::{Sink, Tee};
use crate::report::view::View;
use crate::report::{CaseReport, ExitCode, Report};
use crate::session::Session;
use crate::session::deliver::{self, Target};
use crate::subject::Subject;
use crate::subject::adapter::{Adapter, AdapterConfig};
use crate::sys::{UNPRIVILEGED_USER, is_root};

/// Everything a suite run needs, checked.
pub struct RunPlan {
    /// The selected instances, by where their cases are.
    pub catalog: Catalog,
    pub baseline: Baseline,
    /// The adapter: its command line as given (for the report) and split.
    pub adapter: Option<(String, Vec<String>)>,
    /// An MCP server's profile, instead of an adapter.
    pub mcp: Option<Loaded>,
    /// Where each report goes.
    pub targets: Vec<Target>,
    /// The user's event log, if any.
    pub events: Option<PathBuf>,
    /// Where the run directory goes (`--fixture-dir`).
    pub fixture_dir: Option<PathBuf>,
    pub jobs: usize,
    pub call_timeout: Duration,
    pub hello_timeout: Duration,
    pub max_restarts: usize,
    pub keep_fixtures: bool,
    pub write_expectations: Option<PathBuf>,
    pub strict: bool,
    /// Whether, as root, permission cases go to a copy run as `nobody`.
    pub unprivileged: bool,
    /// Whether the selection is the whole suite: only then is an
    /// expectation that matches nothing fatal under `--strict`.
    pub whole_selection: bool,
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
    let session = match Session::start(plan.fixture_dir.as_deref()) {
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
        Ok(cases) => deliver_all(plan, &head, &cases),
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

/// How to start the subject, and its unprivileged copy.
fn subjects<'r>(
    plan: &'r RunPlan,
    session: &'r Session,
) -> Result<(Box<SubjectFactory<'r>>, Option<AdapterConfig>), String> {
    let config_for = |argv: Vec<String>, user: Option<(u32, u32)>, tmpdir: PathBuf| AdapterConfig {
        argv,
        call_timeout: plan.call_timeout,
        hello_timeout: plan.hello_timeout,
        max_restarts: plan.max_restarts,
        user,
        tmpdir,
        suite_version: crate::SUITE_VERSION.to_owned(),
        run_id: Some(session.dir().id().to_owned()),
    };
    let unprivileged = if plan.unprivileged && is_root() {
        // Root's, not `nobody`'s: the unprivileged copy gets a scratch
        // directory of its own inside, handed to it there. Were this one
        // `nobody`'s, that copy (an adapter, as hostile as any) could swap
        // the scratch directory of its next restart for a link between its
        // creation and root's chown, and have root chown what it chose.
        let dir = session.subdir("unprivileged")?;
        let argv = match &plan.adapter {
            Some((_, argv)) => argv.clone(),
            None => vec![
                std::env::current_exe()
                    .map_err(|e| format!("cannot find this program: {e}"))?
                    .display()
                    .to_string(),
                "serve".into(),
            ],
        };
        Some(config_for(argv, Some(UNPRIVILEGED_USER), dir))
    } else {
        None
    };
    if let Some(profile) = &plan.mcp {
        let config = McpConfig {
            profile: profile.clone(),
            call_timeout: plan.call_timeout,
            hello_timeout: plan.hello_timeout,
            max_restarts: plan.max_restarts,
            tmpdir: session.subdir("servers")?,
            run_id: Some(session.dir().id().to_owned()),
            user: None,
        };
        // As root, permission cases are skipped with the reason: the
        // unprivileged copy is an adapter process, not yet a server.
        let make: Box<SubjectFactory> = Box::new(move || {
            Ok(Box::new(McpServer::start(config.clone())?) as Box<dyn Subject + Send>)
        });
        return Ok((make, None));
    }
    let make: Box<SubjectFactory> = match &plan.adapter {
        None => {
            let timeout = plan.call_timeout;
            Box::new(move || Ok(Box::new(session.reference(timeout)) as Box<dyn Subject + Send>))
        }
        Some((_, argv)) => {
            let config = config_for(argv.clone(), None, session.subdir("adapters")?);
            Box::new(move || {
                Ok(Box::new(Adapter::start(config.clone())?) as Box<dyn Subject + Send>)
            })
        }
    };
    Ok((make, unprivileged))
}

/// Runs the selected cases into the event logs, with a progress line on a
/// terminal; the report's header and counts.
fn execute(plan: &RunPlan, session: &Session, logs: &[&EventLog]) -> Result<Report, String> {
    let (make, unprivileged) = subjects(plan, session)?;
    let fixtures = if plan.keep_fixtures {
        // Kept fixtures are meant to outlive the run: beside it, not in it.
        Some(session.place().path().to_owned())
    } else {
        Some(session.subdir("fixtures")?)
    };
    let progress = Progress {
        total: plan.catalog.len(),
        done: std::sync::atomic::AtomicUsize::new(0),
        shown: std::io::stderr().is_terminal(),
    };
    let mut sinks: Vec<&dyn Sink> = logs.iter().map(|log| *log as &dyn Sink).collect();
    sinks.push(&progress);
    let sink = Tee(sinks);
    let config = RunConfig {
        jobs: plan.jobs,
        keep_fixtures: plan.keep_fixtures,
        strict: plan.strict,
        baseline: plan.baseline.clone(),
        unprivileged,
        adapter_label: match &plan.mcp {
            Some(profile) => Some(format!("--mcp {}", profile.file.display())),
            None => plan.adapter.as_ref().map(|(label, _)| label.clone()),
        },
        fixtures,
        sink: Some(&sink),
        fixture_timeout: plan.call_timeout,
    };
    Ok(crate::harness::run::run_into(
        &plan.catalog,
        make.as_ref(),
        &config,
    ))
}

/// The progress line on a terminal.
struct Progress {
    total: usize,
    done: std::sync::atomic::AtomicUsize,
    shown: bool,
}

impl Sink for Progress {
    fn start(&self, _: &Report, _: usize) {}

    fn record(&self, _: usize, report: &CaseReport, amended: bool) {
        if amended || !self.shown {
            return;
        }
        let n = self.done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        eprint!(
            "\r\x1b[2K{}",
            crate::report::render::human::progress_line(n, self.total, report)
        );
        if n == self.total {
            eprint!("\r\x1b[2K");
        }
    }

    fn end(&self, _: &Report) {}
}

/// Writes every report and the expectations file, reading the run's cases
/// back from its spool; the exit code.
fn deliver_all(plan: &RunPlan, head: &Report, cases: &Spool) -> ExitCode {
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
    let code = deliver_reports(plan, head, cases, view);
    if events.is_err() {
        ExitCode::Report
    } else {
        code
    }
}

/// Writes every report and the expectations file; the exit code.
fn deliver_reports(plan: &RunPlan, head: &Report, cases: &Spool, view: View) -> ExitCode {
    if let Err(e) = deliver::write_reports(view, &plan.targets) {
        eprintln!("toolpath: {e}");
        return ExitCode::Report;
    }
    // With every report sent to files, the terminal (and a CI log that
    // parses the closing line) still sees how the run went.
    if plan.targets.iter().all(|t| t.path.is_some()) {
        let _ = deliver::print_out(&crate::report::render::human::closing_lines(head));
    }
    if let Some(file) = &plan.write_expectations {
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
    if crate::sys::cancel::requested() {
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
    if !unused.is_empty() {
        eprintln!(
            "toolpath: expectations that match no selected case: {}",
            unused.join(", ")
        );
        if plan.strict && code == ExitCode::Ok && plan.whole_selection {
            code = ExitCode::Unexpected;
        }
    }
    code
}

/// When no case ran (the adapter never started), says why on stderr too.
fn explain_if_nothing_ran(head: &Report, cases: &Spool) {
    if head.summary.not_run != head.summary.total || head.summary.total == 0 {
        return;
    }
    // The reason and the stderr are the adapter's text: shown with
    // stand-ins for what would act on the terminal.
    if let Ok(first) = cases.case(0) {
        eprintln!(
            "toolpath: {}",
            toolpath_suite::sanitize::visible(first.reason.as_deref().unwrap_or("no case ran"))
        );
        if let Some(stderr) = &first.stderr {
            eprintln!(
                "--- adapter stderr ---\n{}",
                toolpath_suite::sanitize::visible(stderr)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::select::Selection;
    use crate::session::deliver::Format;
    use crate::session::place::Place;

    fn plan(dir: &std::path::Path, filter: &[&str]) -> RunPlan {
        let selection = Selection {
            ids: filter.iter().map(|f| (*f).to_owned()).collect(),
            ..Selection::default()
        };
        RunPlan {
            catalog: Catalog::open(&["tests/data/mini".into()], &[], &selection).unwrap(),
            baseline: Baseline::default(),
            adapter: None,
            mcp: None,
            targets: vec![Target {
                format: Format::Json,
                path: Some(dir.join("r.json")),
            }],
            events: None,
            fixture_dir: None,
            jobs: 2,
            call_timeout: Duration::from_secs(60),
            hello_timeout: Duration::from_secs(60),
            max_restarts: 0,
            keep_fixtures: false,
            write_expectations: Some(dir.join("exp.yaml")),
            strict: false,
            unprivileged: false,
            whole_selection: filter.is_empty(),
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
}
