//! `toolpath run`: the request and its checks. Everything the request names
//! is loaded and checked here (cases, formats and outputs, expectations,
//! the adapter command), so a usage error is found before the first case
//! runs; the run itself is [`crate::session::run`].

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::case::catalog::Catalog;
use crate::cli::{SelectArgs, print_errors, usage};
use crate::harness::baseline::Baseline;
use crate::harness::containment::{self, Population};
use crate::report::ExitCode;
use crate::report::render::human::Detail;
use crate::session::Supervision;
use crate::session::deliver::{self, Format};
use crate::session::run::{RunPlan, Subjects};
use crate::session::run_against;
use crate::subject::adapter::split_command;
use toolpath_suite::case::Instance;

/// Everything `toolpath run` was asked to do.
#[derive(Debug, Clone, Args)]
pub struct RunRequest {
    #[command(flatten)]
    pub select: SelectArgs,
    /// The adapter command (split on white space, quotes group); without it, the built-in reference runs in-process.
    #[arg(long, value_name = "COMMAND", conflicts_with = "mcp")]
    pub adapter: Option<String>,
    /// An MCP server to certify, from its profile (YAML; see docs/mcp.md): no adapter code.
    #[arg(long, value_name = "PROFILE")]
    pub mcp: Option<PathBuf>,
    /// Parallel workers (each with its own adapter process); default: the number of CPUs.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// How long one call may take before the adapter counts as hung, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// How long the adapter may take to answer `hello`, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    pub hello_timeout_ms: u64,
    /// Restarts in a row (no call answered between them) after crashes or
    /// hangs before the run is given up as partial.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_restarts: usize,
    /// How long a call on a fixture with FIFOs (which a tool must not
    /// open) is waited for before the harness opens their other ends, in
    /// milliseconds; a subject found blocked on one fails the case.
    #[arg(long, value_name = "MS", default_value_t = crate::subject::fifos::DEFAULT_HANG_TIMEOUT.as_millis() as u64)]
    pub hang_timeout_ms: u64,
    /// Report format (repeatable; pair each with an --output, in order; one may go to stdout).
    #[arg(long = "format", value_name = "FORMAT", value_enum)]
    pub format: Vec<Format>,
    /// Where the format at the same position goes; `-` is stdout.
    #[arg(long = "output", value_name = "FILE")]
    pub output: Vec<PathBuf>,
    /// Leave the workspace of each case that did not pass on disk, and print where.
    #[arg(long)]
    pub keep_fixtures: bool,
    /// Expected failures and skips for this adapter (YAML).
    #[arg(long, value_name = "FILE")]
    pub expectations: Option<PathBuf>,
    /// Write an expectations file that marks every current failure xfail.
    #[arg(long, value_name = "FILE")]
    pub write_expectations: Option<PathBuf>,
    /// Fail the run when an expected failure passes (xpass) or, over the whole suite, an expectation matches nothing.
    #[arg(long)]
    pub strict: bool,
    /// Show every failing instance's block in the human report (default: the first failing instance of each rule, ten in all; the Markdown and JSON reports list every one).
    #[arg(long)]
    pub every_failure: bool,
    /// When root, skip permission cases instead of running them on a copy run as user `nobody` (the reference's, or a subject's under --subject-as-root; an adapter or server that runs as `nobody` itself, the default, takes them).
    #[arg(long)]
    pub no_unprivileged: bool,
    /// When root, run the adapter or MCP server as root (without capabilities) instead of as user `nobody`: for a subject that cannot run otherwise; the report then says its verdict is not protected.
    #[arg(long)]
    pub subject_as_root: bool,
    /// Write each judged case to this JSON Lines event log as the run goes (default: beside the first --output that is a regular file, as FILE.events.jsonl; none when every output is a device or FIFO).
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
    /// Build fixtures (and the run's temporary files) under DIR. Default:
    /// $TOOLPATH_FIXTURE_DIR, else /dev/shm when it is a writable tmpfs, else
    /// the system temporary directory. A tmpfs makes runs several times faster.
    #[arg(long, value_name = "DIR")]
    pub fixture_dir: Option<PathBuf>,
    /// The runner's directory (repeatable: an adapter's own and what it
    /// imports): the report records the digest of its files beside the
    /// suite's, so a page made from it shows stale once they change
    /// (`toolpath certification --check-fresh`).
    #[arg(long = "runner-dir", value_name = "DIR")]
    pub runner_dirs: Vec<String>,
    /// Record this implementation as a known-bad control, for REASON (a
    /// release from before a fix, certified to show what the suite
    /// catches): certification pages mark its row so.
    #[arg(long, value_name = "REASON")]
    pub control: Option<String>,
}

/// `toolpath run`.
pub fn run(request: RunRequest) -> ExitCode {
    match plan(request) {
        Ok(plan) => crate::session::run::run(plan),
        Err(code) => code,
    }
}

/// Refuses an expectations file with a `skip` entry that would keep an
/// instance whose case expects `outside_workspace` from being sent
/// ([`Baseline::hidden_escapes`]). The cases are read only when the file
/// has a skip at all.
fn refuse_hidden_escapes(
    baseline: &Baseline,
    file: &std::path::Path,
    catalog: &Catalog,
) -> Result<(), ExitCode> {
    if !baseline.has_skips() {
        return Ok(());
    }
    let outside = (0..catalog.len()).filter_map(|position| {
        // A case file that no longer reads is a case error when it runs.
        let (case, tool) = catalog.get(position).ok()?;
        let expects_outside = containment::population(&case) == Some(Population::Outside);
        expects_outside.then(|| Instance { case: &case, tool }.id())
    });
    let errors = baseline.hidden_escapes(file, outside);
    if errors.is_empty() {
        return Ok(());
    }
    for e in &errors {
        eprintln!("toolpath: {e}");
    }
    Err(ExitCode::Usage)
}

/// Checks the request and loads what it names.
fn plan(request: RunRequest) -> Result<RunPlan, ExitCode> {
    if request.jobs == Some(0) {
        return Err(usage("--jobs must be at least 1"));
    }
    let source = &request.select.source;
    let selection = request.select.selection();
    let catalog =
        Catalog::open(&source.cases, &source.add_cases, &selection).map_err(|errors| {
            print_errors(&errors);
            ExitCode::Usage
        })?;
    if catalog.is_empty() {
        return Err(usage("no case matches the selection"));
    }
    let targets = deliver::targets(&request.format, &request.output).map_err(usage)?;
    let baseline = match &request.expectations {
        Some(file) => {
            let baseline = Baseline::load(file).map_err(usage)?;
            refuse_hidden_escapes(&baseline, file, &catalog)?;
            baseline
        }
        None => Baseline::default(),
    };
    let subjects = match (request.adapter, &request.mcp) {
        (Some(line), _) => {
            let argv = split_command(&line).map_err(usage)?;
            Subjects::Adapter { line, argv }
        }
        (None, Some(file)) => Subjects::Mcp(Box::new(crate::cli::load_profile(file)?)),
        (None, None) => Subjects::Reference,
    };
    let events = deliver::events_path(request.events.as_deref(), &targets);
    let mut run_against =
        run_against::record(&source.cases, &source.add_cases, &request.runner_dirs)
            .map_err(usage)?;
    run_against.control = request.control.filter(|reason| !reason.trim().is_empty());
    Ok(RunPlan {
        catalog,
        baseline,
        subjects,
        targets,
        events,
        fixture_dir: request.fixture_dir,
        jobs: request
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        supervision: Supervision {
            call_timeout: Duration::from_millis(request.timeout_ms),
            hello_timeout: Duration::from_millis(request.hello_timeout_ms),
            max_restarts: request.max_restarts,
            hang_timeout: Duration::from_millis(request.hang_timeout_ms),
        },
        keep_fixtures: request.keep_fixtures,
        write_expectations: request.write_expectations,
        strict: request.strict,
        unprivileged: !request.no_unprivileged,
        selection: request.select.selected(),
        detail: match request.every_failure {
            true => Detail::Every,
            false => Detail::default(),
        },
        subject_as_root: request.subject_as_root,
        whole_selection: selection.is_everything(),
        run_against: Some(run_against),
    })
}
