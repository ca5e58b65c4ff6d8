//! The subcommands of `toolpath`, as library functions returning exit codes,
//! so they can be tested without a process and `main.rs` stays a parser.

pub mod exit;
pub mod export;
pub mod fuzz;
pub mod schemas;

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ValueEnum;

use crate::case::catalog::Catalog;
use crate::case::model::{Case, CaseError};
use crate::case::select::Selection;
use crate::harness::baseline::{self, Baseline};
use crate::harness::run::{RunConfig, Sink, SubjectFactory, Tee, UNPRIVILEGED_USER, is_root};
use crate::harness::workdir::RunDir;
use crate::report::events::{EventLog, Spool};
use crate::report::view::View;
use crate::report::{CaseReport, Report};
use crate::subject::adapter::{Adapter, AdapterConfig, REAP_TIMEOUT, split_command};
use crate::subject::{Reference, Subject};

/// Where cases come from: the embedded suite, or directories replacing or
/// extending it.
#[derive(Debug, Clone, Default)]
pub struct Source {
    pub replace: Vec<PathBuf>,
    pub add: Vec<PathBuf>,
}

/// Report formats of `toolpath run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
    Junit,
    Markdown,
}

/// Everything `toolpath run` was asked to do.
#[derive(Debug, Clone)]
pub struct RunRequest {
    pub source: Source,
    pub selection: Selection,
    pub adapter: Option<String>,
    pub jobs: Option<usize>,
    pub timeout_ms: u64,
    pub hello_timeout_ms: u64,
    pub max_restarts: usize,
    pub formats: Vec<Format>,
    pub outputs: Vec<PathBuf>,
    pub keep_fixtures: bool,
    pub expectations: Option<PathBuf>,
    pub write_expectations: Option<PathBuf>,
    pub strict: bool,
    pub unprivileged: bool,
    /// Where the event log goes; beside the first report file when `None`.
    pub events: Option<PathBuf>,
    /// Where the run directory (and so every fixture) goes; see
    /// [`workdir::fixture_parent`](crate::harness::workdir::fixture_parent).
    pub fixture_dir: Option<PathBuf>,
}

fn print_errors(errors: &[CaseError]) {
    for e in errors {
        eprintln!("{e}");
    }
    eprintln!("toolpath: {} invalid case file(s)", errors.len());
}

/// Loads the cases; invalid ones are printed and make the caller stop.
pub fn load(source: &Source) -> Result<Vec<Case>, Vec<CaseError>> {
    let (mut cases, mut errors) = if source.replace.is_empty() {
        crate::case::suite::load_embedded()
    } else {
        crate::case::suite::load(&source.replace)
    };
    if !source.add.is_empty() {
        let (more, more_errors) = crate::case::suite::load(&source.add);
        cases.extend(more);
        errors.extend(more_errors);
        errors.extend(crate::case::suite::duplicate_ids(&cases));
        errors.dedup();
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

fn usage(message: impl std::fmt::Display) -> i32 {
    eprintln!("toolpath: {message}");
    exit::USAGE
}

/// What `toolpath run` checked before running anything: a usage error is
/// found before the first case runs, never after.
struct Plan {
    /// The selected instances, by where their cases are.
    catalog: Catalog,
    expectations: Baseline,
    adapter_argv: Option<Vec<String>>,
    targets: Vec<Target>,
    events: Option<PathBuf>,
}

/// Where one report goes: a file, or stdout when `path` is `None`.
struct Target {
    format: Format,
    path: Option<PathBuf>,
}

/// `toolpath run`. Exit codes: see [`exit`].
pub fn run(request: RunRequest) -> i32 {
    let plan = match plan(&request) {
        Ok(plan) => plan,
        Err(code) => return code,
    };
    let events = match claim_outputs(&plan) {
        Ok(events) => events,
        Err(e) => {
            eprintln!("toolpath: {e}");
            return exit::REPORT;
        }
    };
    if let Err(e) = crate::cancel::install() {
        eprintln!("toolpath: cannot handle SIGINT/SIGTERM ({e}); a cancelled run may leave files");
    }
    // Orphans that leave an adapter's process group come back here.
    let subreaper = crate::subject::process::become_subreaper().is_ok();
    clean_dead_runs(false, request.fixture_dir.as_deref());
    let parent = crate::harness::workdir::fixture_parent(request.fixture_dir.as_deref());
    let run_dir = match RunDir::create(&parent) {
        Ok(dir) => dir,
        Err(e) => {
            return usage(format!(
                "cannot create the run directory in {} (--fixture-dir, {}): {e}",
                parent.display(),
                crate::harness::workdir::FIXTURE_DIR_ENV
            ));
        }
    };
    // Every run keeps its case reports in an event log of its own (the
    // reports are rendered from it), whether or not the user asked for one.
    let spool_path = run_dir.path().join("events.jsonl");
    let spool = match EventLog::create(&spool_path) {
        Ok(log) => log,
        Err(e) => {
            eprintln!("toolpath: cannot write {}: {e}", spool_path.display());
            return exit::REPORT;
        }
    };
    let mut logs: Vec<&EventLog> = vec![&spool];
    logs.extend(events.as_ref());
    let mut head = match execute(&request, &plan, &run_dir, &logs) {
        Ok(head) => head,
        Err(e) => return usage(e),
    };
    head.fixture_dir = Some(crate::harness::workdir::describe(&parent));
    if subreaper {
        crate::subject::process::end_orphans(REAP_TIMEOUT);
    }
    // Each log that failed said so when it did (once); the run's own one
    // is what the reports are made from.
    if !spool.complete() {
        eprintln!("toolpath: the reports lack what the run's event log lacks");
    }
    let code = match Spool::open(&spool_path, plan.catalog.len()) {
        Ok(cases) => deliver(&request, &plan, &head, &cases),
        Err(e) => {
            eprintln!("toolpath: cannot read the run's event log back: {e}");
            exit::REPORT
        }
    };
    let code = match logs.iter().all(|log| log.complete()) {
        true => code,
        false => exit::REPORT,
    };
    drop(run_dir);
    code
}

/// Checks the request and loads what it names.
fn plan(request: &RunRequest) -> Result<Plan, i32> {
    if request.jobs == Some(0) {
        return Err(usage("--jobs must be at least 1"));
    }
    let source = &request.source;
    let catalog =
        Catalog::open(&source.replace, &source.add, &request.selection).map_err(|errors| {
            print_errors(&errors);
            exit::USAGE
        })?;
    if catalog.is_empty() {
        return Err(usage("no case matches the selection"));
    }
    let targets = targets(&request.formats, &request.outputs).map_err(usage)?;
    let expectations = match &request.expectations {
        Some(file) => Baseline::load(file).map_err(usage)?,
        None => Baseline::default(),
    };
    let adapter_argv = request
        .adapter
        .as_deref()
        .map(split_command)
        .transpose()
        .map_err(usage)?;
    // The event log goes where asked, or beside the first report that is a
    // file (or not there yet): never beside a device, a FIFO or a link to
    // one (`--output /dev/null` would put it in /dev).
    let events = request.events.clone().or_else(|| {
        let first = targets
            .iter()
            .filter_map(|t| t.path.as_ref())
            .find(|p| std::fs::metadata(p).map_or(true, |m| m.is_file()))?;
        let mut name = first.as_os_str().to_owned();
        name.push(".events.jsonl");
        Some(PathBuf::from(name))
    });
    Ok(Plan {
        catalog,
        expectations,
        adapter_argv,
        targets,
        events,
    })
}

/// Pairs formats with outputs; at most one may go to stdout.
fn targets(formats: &[Format], outputs: &[PathBuf]) -> Result<Vec<Target>, String> {
    if outputs.len() > formats.len().max(1) {
        return Err("more --output than --format".into());
    }
    let formats = if formats.is_empty() {
        &[Format::Human][..]
    } else {
        formats
    };
    let targets: Vec<Target> = formats
        .iter()
        .enumerate()
        .map(|(i, format)| Target {
            format: *format,
            path: outputs.get(i).filter(|p| p.as_os_str() != "-").cloned(),
        })
        .collect();
    if targets.iter().filter(|t| t.path.is_none()).count() > 1 {
        return Err("only one --format may go to stdout; give the others an --output".into());
    }
    Ok(targets)
}

/// Empties every report file (so an old report never stands for this run,
/// even if it is killed) and starts the event log: a report that cannot be
/// written is found before any case runs.
fn claim_outputs(plan: &Plan) -> Result<Option<EventLog>, String> {
    for path in plan.targets.iter().filter_map(|t| t.path.as_ref()) {
        std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    plan.events
        .as_deref()
        .map(|path| {
            EventLog::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))
        })
        .transpose()
}

/// Removes what dead runs left; says so when it found anything (or always,
/// when `verbose`). Returns whether everything could be removed.
fn clean_dead_runs(verbose: bool, fixture_dir: Option<&std::path::Path>) -> bool {
    let mut cleaned = crate::harness::workdir::Cleaned::default();
    for parent in crate::harness::workdir::run_parents(fixture_dir) {
        let found = crate::harness::workdir::clean(&parent);
        cleaned.removed.extend(found.removed);
        cleaned.processes += found.processes;
        cleaned.live += found.live;
        cleaned.errors.extend(found.errors);
    }
    for dir in &cleaned.removed {
        eprintln!(
            "toolpath: removed {}, left by a run that died",
            dir.display()
        );
    }
    if cleaned.processes > 0 {
        eprintln!(
            "toolpath: killed {} process(es) left by runs that died",
            cleaned.processes
        );
    }
    for error in &cleaned.errors {
        eprintln!("toolpath: cannot remove {error}");
    }
    if verbose {
        eprintln!(
            "toolpath: {} director(ies) removed, {} live run(s) left alone",
            cleaned.removed.len(),
            cleaned.live
        );
    }
    cleaned.errors.is_empty()
}

/// `toolpath clean`: removes the temporary directories and processes of
/// runs that died (SIGKILL, a crash); never a live run's.
pub fn clean() -> i32 {
    if clean_dead_runs(true, None) {
        exit::OK
    } else {
        exit::UNEXPECTED
    }
}

/// How to start the subject, and its unprivileged copy.
fn subjects<'r>(
    request: &'r RunRequest,
    plan: &Plan,
    run_dir: &RunDir,
) -> Result<(Box<SubjectFactory<'r>>, Option<AdapterConfig>), String> {
    let tmp = |name: &str| {
        run_dir
            .subdir(name)
            .map_err(|e| format!("cannot create a temporary directory: {e}"))
    };
    let config_for = |argv: Vec<String>, user: Option<(u32, u32)>, tmpdir: PathBuf| AdapterConfig {
        argv,
        call_timeout: Duration::from_millis(request.timeout_ms),
        hello_timeout: Duration::from_millis(request.hello_timeout_ms),
        max_restarts: request.max_restarts,
        user,
        tmpdir,
        suite_version: crate::SUITE_VERSION.to_owned(),
        run_dir: Some(run_dir.path().to_owned()),
    };
    let unprivileged = if request.unprivileged && is_root() {
        let dir = tmp("unprivileged")?;
        std::os::unix::fs::chown(&dir, Some(UNPRIVILEGED_USER.0), Some(UNPRIVILEGED_USER.1))
            .map_err(|e| {
                format!(
                    "cannot hand {} to the unprivileged user: {e}",
                    dir.display()
                )
            })?;
        let argv = match &plan.adapter_argv {
            Some(argv) => argv.clone(),
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
    let make: Box<SubjectFactory> = match &plan.adapter_argv {
        None => {
            let timeout = Duration::from_millis(request.timeout_ms);
            Box::new(move || {
                Ok(Box::new(Reference::with_timeout(timeout)) as Box<dyn Subject + Send>)
            })
        }
        Some(argv) => {
            let config = config_for(argv.clone(), None, tmp("adapters")?);
            Box::new(move || {
                Ok(Box::new(Adapter::start(config.clone())?) as Box<dyn Subject + Send>)
            })
        }
    };
    Ok((make, unprivileged))
}

/// Runs the selected cases into the event logs, with a progress line on a
/// terminal; the report's header and counts.
fn execute(
    request: &RunRequest,
    plan: &Plan,
    run_dir: &RunDir,
    logs: &[&EventLog],
) -> Result<Report, String> {
    let (make, unprivileged) = subjects(request, plan, run_dir)?;
    let fixtures = if request.keep_fixtures {
        // Kept fixtures are meant to outlive the run: beside it, not in it.
        run_dir.path().parent().map(std::path::Path::to_owned)
    } else {
        Some(run_dir.subdir("fixtures").map_err(|e| e.to_string())?)
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
        jobs: request
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        keep_fixtures: request.keep_fixtures,
        strict: request.strict,
        baseline: plan.expectations.clone(),
        unprivileged,
        adapter_label: request.adapter.clone(),
        fixtures,
        sink: Some(&sink),
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
/// back from its event log; the exit code.
fn deliver(request: &RunRequest, plan: &Plan, head: &Report, cases: &Spool) -> i32 {
    let view = View::streamed(head, cases);
    explain_if_nothing_ran(head, cases);
    if let Err(e) = write_reports(view, &plan.targets) {
        eprintln!("toolpath: {e}");
        return exit::REPORT;
    }
    // With every report sent to files, the terminal (and a CI log that
    // parses the closing line) still sees how the run went.
    if plan.targets.iter().all(|t| t.path.is_some()) {
        let _ = print_out(&crate::report::render::human::closing_lines(head));
    }
    if let Some(file) = &request.write_expectations {
        let written = baseline::write_from(cases, &plan.expectations)
            .and_then(|text| std::fs::write(file, &text).map(|()| text));
        let text = match written {
            Ok(text) => text,
            Err(e) => {
                eprintln!("toolpath: cannot write {}: {e}", file.display());
                return exit::REPORT;
            }
        };
        let entries = text.lines().filter(|l| l.starts_with("  status:")).count();
        eprintln!(
            "toolpath: wrote {entries} xfail entr{} to {}",
            if entries == 1 { "y" } else { "ies" },
            file.display()
        );
    }
    if let Some(signal) = crate::cancel::signal() {
        eprintln!(
            "toolpath: cancelled by {}; the reports are partial",
            crate::cancel::signal_name(signal)
        );
        return 128 + signal;
    }
    let mut code = head.exit_code();
    let unused = match plan.expectations.unused(cases) {
        Ok(unused) => unused,
        Err(e) => {
            eprintln!("toolpath: cannot read the run's event log back: {e}");
            return exit::REPORT;
        }
    };
    if !unused.is_empty() {
        eprintln!(
            "toolpath: expectations that match no selected case: {}",
            unused.join(", ")
        );
        if request.strict && code == exit::OK && request.selection.is_everything() {
            code = exit::UNEXPECTED;
        }
    }
    code
}

/// When no case ran (the adapter never started), says why on stderr too.
fn explain_if_nothing_ran(head: &Report, cases: &Spool) {
    if head.summary.not_run != head.summary.total || head.summary.total == 0 {
        return;
    }
    if let Ok(first) = cases.case(0) {
        eprintln!(
            "toolpath: {}",
            first.reason.as_deref().unwrap_or("no case ran")
        );
        if let Some(stderr) = &first.stderr {
            eprintln!("--- adapter stderr ---\n{stderr}");
        }
    }
}

/// Renders `report` in one format.
pub fn render(report: &Report, format: Format, color: bool) -> String {
    crate::report::render::written(|out| write_format(View::of(report), format, color, out))
        .expect("a report in memory cannot fail to render")
}

/// Renders a report in one format into `out`, straight from wherever its
/// cases are.
fn write_format(
    view: View,
    format: Format,
    color: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    use crate::report::render::{human, json, junit, markdown};
    match format {
        Format::Json => json::write(view, out),
        Format::Human => human::write(view, color, out),
        Format::Junit => junit::write(view, out),
        Format::Markdown => markdown::write(view, out),
    }
}

/// Writes each report; a file is replaced whole (written beside it, then
/// renamed), so it is never seen half-written.
fn write_reports(view: View, targets: &[Target]) -> Result<(), String> {
    for target in targets {
        match &target.path {
            Some(path) => replace_file(path, &mut |out| {
                write_format(view, target.format, false, out)
            })
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            None => {
                let color = target.format == Format::Human && std::io::stdout().is_terminal();
                let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
                let written = write_format(view, target.format, color, &mut stdout)
                    .and_then(|()| stdout.flush());
                match written {
                    // A reader that stopped reading is not an error.
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                    other => {
                        other.map_err(|e| format!("cannot write the report to stdout: {e}"))?
                    }
                }
            }
        }
    }
    Ok(())
}

fn replace_file(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    // Renaming over a device, a FIFO or a link (`--output /dev/null`) would
    // replace it with a regular file, for every process on the machine in
    // the case of /dev/null: write into it instead.
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        let mut out = std::io::BufWriter::new(std::fs::OpenOptions::new().write(true).open(path)?);
        write(&mut out)?;
        return out.flush();
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let file = tempfile::NamedTempFile::new_in(dir)?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)?;
    out.into_inner()
        .map_err(|e| e.into_error())?
        .persist(path)
        .map_err(|e| e.error)?;
    Ok(())
}

/// Writes to stdout. A reader that stopped reading (`toolpath list | head`)
/// is not an error: the rest is dropped quietly.
pub fn print_out(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// `toolpath serve`.
pub fn serve() -> i32 {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match crate::subject::serve::serve(stdin, stdout) {
        Ok(()) => exit::OK,
        Err(e) => {
            eprintln!("toolpath serve: {e}");
            exit::UNEXPECTED
        }
    }
}

/// `toolpath list`.
pub fn list(source: &Source, selection: &Selection, json: bool) -> i32 {
    let cases = match load(source) {
        Ok(cases) => cases,
        Err(errors) => {
            print_errors(&errors);
            return exit::USAGE;
        }
    };
    let instances = selection.instances(&cases);
    let text = if json {
        let items: Vec<serde_json::Value> = instances
            .iter()
            .map(|i| {
                serde_json::json!({
                    "id": i.id(), "case": i.case.id, "tool": i.tool, "file": i.case.file.display().to_string(),
                    "line": i.case.line, "spec": i.case.spec, "tags": i.case.tags, "summary": i.case.summary,
                })
            })
            .collect();
        serde_json::to_string_pretty(&items).expect("serialises") + "\n"
    } else {
        let lines = instances.iter().map(|i| {
            format!(
                "{}\t{}:{}\t{}\n",
                i.id(),
                i.case.file.display(),
                i.case.line,
                i.case.spec.join(",")
            )
        });
        lines.collect()
    };
    // A reader that stopped early (`toolpath list | head`) is not an error.
    if let Err(e) = print_out(&text) {
        eprintln!("toolpath: cannot write to stdout: {e}");
        return exit::REPORT;
    }
    if !json {
        eprintln!("{} instance(s) of {} case(s)", instances.len(), cases.len());
    }
    exit::OK
}

/// `toolpath lint`: validity of every case (exit 2 on an invalid one) and
/// spec coverage (exit 2 on a gap, for the embedded suite only).
pub fn lint(source: &Source, require_coverage: bool) -> i32 {
    let cases = match load(source) {
        Ok(cases) => cases,
        Err(errors) => {
            print_errors(&errors);
            return exit::USAGE;
        }
    };
    let requirements = crate::spec::requirements();
    let coverage = crate::case::coverage::coverage(requirements, &cases);
    // Built whole and written once: a reader that stops early (`| head`)
    // is not an error.
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<10} {:>5}  {:<40} requirement",
        "id", "cases", "instances per tool"
    );
    for rule in &coverage {
        let tools: Vec<String> = rule
            .per_tool
            .iter()
            .map(|(t, n)| format!("{t}:{n}"))
            .collect();
        let _ = writeln!(
            out,
            "{:<10} {:>5}  {:<40} {}",
            rule.requirement.id,
            rule.cases,
            tools.join(" "),
            rule.requirement.summary
        );
    }
    let instances: usize = cases.iter().map(|c| c.tools.len()).sum();
    let _ = writeln!(
        out,
        "{} cases ({instances} instances), {} requirements",
        cases.len(),
        requirements.len()
    );
    let gaps = crate::case::coverage::gaps(&coverage);
    if gaps.is_empty() {
        out += "every requirement is pinned through every tool it applies to\n";
    }
    let _ = print_out(&out);
    if gaps.is_empty() {
        return exit::OK;
    }
    let gaps = gaps.join(", ");
    // Coverage is a property of the suite, not of a case: it is enforced
    // when the embedded suite is linted (with or without --add-cases), or
    // when asked. A directory of one's own cases (`--cases DIR`) is valid
    // without covering the spec; its gaps are listed, not failed.
    if source.replace.is_empty() || require_coverage {
        eprintln!(
            "toolpath: requirements without a case for a tool they apply to (RULE@tool): {gaps}"
        );
        exit::USAGE
    } else {
        eprintln!(
            "toolpath: every case is valid; coverage is not enforced for --cases \
             without --require-coverage (requirements these cases do not pin, RULE@tool: {gaps})"
        );
        exit::OK
    }
}

fn read_report(path: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    // An event log stands for the report of its run (partial if the run
    // did not finish).
    if crate::report::events::is_event_log(&text) {
        return crate::report::events::read(&text)
            .map_err(|e| format!("{}: not a toolpath event log: {e}", path.display()));
    }
    serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a toolpath JSON report: {e}", path.display()))
}

/// `toolpath compare OLD NEW`: exit 1 when something that passed broke.
pub fn compare(old: &Path, new: &Path) -> i32 {
    let (old, new) = match (read_report(old), read_report(new)) {
        (Ok(o), Ok(n)) => (o, n),
        (Err(e), _) | (_, Err(e)) => return usage(e),
    };
    let comparison = crate::report::render::compare::compare(&old, &new);
    let _ = print_out(&crate::report::render::compare::render(&comparison));
    if comparison.broke_anything() {
        exit::UNEXPECTED
    } else {
        exit::OK
    }
}

/// What `toolpath certification` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CertificationFormat {
    /// The implementation x area table, for a README.
    Markdown,
    /// The requirement x implementation matrix as one self-contained page.
    Html,
}

/// `toolpath certification REPORT...`: the implementation x area table, or
/// the HTML matrix.
pub fn certification(
    reports: &[PathBuf],
    format: CertificationFormat,
    output: Option<&Path>,
) -> i32 {
    if reports.is_empty() {
        return usage("give at least one JSON report");
    }
    let mut loaded = Vec::new();
    for path in reports {
        match read_report(path) {
            Ok(r) => loaded.push(r),
            Err(e) => return usage(e),
        }
    }
    let page = match format {
        CertificationFormat::Markdown => crate::report::render::certification::table(&loaded),
        CertificationFormat::Html => crate::report::render::html::render(&loaded),
    };
    match output {
        Some(path) => match std::fs::write(path, page) {
            Ok(()) => exit::OK,
            Err(e) => {
                eprintln!("toolpath: cannot write {}: {e}", path.display());
                exit::REPORT
            }
        },
        None => {
            let _ = print_out(&page);
            exit::OK
        }
    }
}

/// `toolpath schemas DIR [--check]`.
pub fn schemas(dir: &Path, check: bool) -> i32 {
    let mut stale = Vec::new();
    for (name, text) in crate::cli::schemas::all() {
        let path = dir.join(name);
        if check {
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(path.display().to_string());
            }
        } else {
            if let Some(parent) = path.parent()
                && let Err(e) = std::fs::create_dir_all(parent)
            {
                return usage(format!("cannot create {}: {e}", parent.display()));
            }
            if let Err(e) = std::fs::write(&path, text) {
                return usage(format!("cannot write {}: {e}", path.display()));
            }
        }
    }
    if stale.is_empty() {
        exit::OK
    } else {
        eprintln!(
            "toolpath: stale schemas (regenerate with `toolpath schemas {}`): {}",
            dir.display(),
            stale.join(", ")
        );
        exit::UNEXPECTED
    }
}

/// `toolpath export DIR`.
pub fn export(dir: &Path) -> i32 {
    let files = crate::cli::export::suite_files();
    match crate::cli::export::write_all(dir, &files) {
        Ok(()) => {
            eprintln!(
                "toolpath: wrote suite {} ({} files) to {}",
                crate::SUITE_VERSION,
                files.len(),
                dir.display()
            );
            exit::OK
        }
        Err(e) => usage(e),
    }
}

/// `toolpath new-adapter --lang LANG DIR`.
pub fn new_adapter(lang: crate::cli::export::Lang, dir: &Path) -> i32 {
    let (files, command) = crate::cli::export::skeleton(lang);
    match crate::cli::export::write_all(dir, &files) {
        Ok(()) => {
            println!(
                "Wrote a skeleton adapter to {}. Run the suite against it:",
                dir.display()
            );
            println!(
                "  cd {} && toolpath run --adapter '{command}'",
                dir.display()
            );
            exit::OK
        }
        Err(e) => usage(e),
    }
}
