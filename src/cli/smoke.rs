//! `toolpath smoke`: a dozen chosen instances of the embedded suite, run in
//! seconds before any conformance verdict, that say whether the subject
//! speaks the protocol (it completes `hello`, answers each call with a
//! valid message, stays up) and what to fix first.
//!
//! Nothing here judges: the instances are selected by id and run as
//! `toolpath run` runs them (the same request, session and harness, one
//! worker so the first broken answer is the first one asked), into a JSON
//! report in a temporary directory, and the advice is read from that
//! report. The exit code is about the protocol, not conformance: 0 the
//! subject speaks it (wrong answers are listed, they are for `toolpath
//! run`), 1 it does not (or declares none of the tools asked, so nothing
//! could be asked), and the run's own codes for what is not the subject's
//! doing (2 bad usage, 4 a report that could not be written, 130/143
//! cancelled).

use std::path::PathBuf;

use clap::Args;

use crate::cli::run::RunRequest;
use crate::cli::{SelectArgs, usage};
use crate::report::{CaseReport, ExitCode, Report, Status};
use crate::session::deliver::Format;
use toolpath_suite::sanitize;

/// The instances smoke runs, in the order their advice is given: the
/// resolution every tool builds on first, then a refusal, each tool's
/// simplest call (a search of a file, a shell in a sub-path, a read ...),
/// and a refusal of a directory as `unsupported_file_type`. A tool the
/// subject does not declare is reported unsupported, never sent.
pub const INSTANCES: [&str; 13] = [
    "resolve.dir.relative",
    "resolve.file.relative",
    "security.dotdot.many",
    "search.file.relative@grep",
    "search.file.relative@ripgrep",
    "security.dotdot.parent@grep",
    "file.read.directory",
    "shell.relative.sub-path",
    "glob.file.relative",
    "ls.dir.relative",
    "file.read.absolute",
    "file.write.absolute",
    "file.edit.absolute",
];

/// Everything `toolpath smoke` was asked to do.
#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("subject").required(true).args(["adapter", "mcp"])))]
pub struct SmokeRequest {
    /// The adapter command (split on white space, quotes group).
    #[arg(long, value_name = "COMMAND")]
    pub adapter: Option<String>,
    /// An MCP server, from its profile (YAML; see docs/mcp.md).
    #[arg(long, value_name = "PROFILE")]
    pub mcp: Option<PathBuf>,
    /// How long one call may take before the subject counts as hung, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// How long the subject may take to answer `hello`, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    pub hello_timeout_ms: u64,
}

/// What smoke concluded from the run.
#[derive(Debug, PartialEq, Eq)]
pub struct Conclusion {
    /// Whether the subject speaks the protocol.
    pub speaks: bool,
    /// The one thing to fix first, or the next step.
    pub first: String,
}

/// `toolpath smoke`.
pub fn smoke(request: SmokeRequest) -> ExitCode {
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return usage(format!("cannot make a temporary directory: {e}")),
    };
    let output = dir.path().join("smoke.json");
    let whole = whole_suite(request.adapter.as_deref(), request.mcp.as_deref());
    let run = RunRequest {
        select: SelectArgs {
            filter: INSTANCES.iter().map(|id| (*id).to_owned()).collect(),
            ..SelectArgs::default()
        },
        adapter: request.adapter,
        mcp: request.mcp,
        jobs: Some(1),
        timeout_ms: request.timeout_ms,
        hello_timeout_ms: request.hello_timeout_ms,
        max_restarts: 1,
        hang_timeout_ms: crate::subject::fifos::DEFAULT_HANG_TIMEOUT.as_millis() as u64,
        format: vec![Format::Json],
        output: vec![output.clone()],
        keep_fixtures: false,
        expectations: None,
        write_expectations: None,
        strict: false,
        every_failure: false,
        no_unprivileged: false,
        subject_as_root: false,
        events: None,
        fixture_dir: None,
        runner_dirs: Vec::new(),
        control: None,
    };
    let code = crate::cli::run::run(run);
    let report = match code {
        ExitCode::Usage | ExitCode::Report | ExitCode::Cancelled(_) => return code,
        _ => match crate::cli::compare::read_report(&output) {
            Ok(report) => report,
            Err(e) => {
                eprintln!("toolpath: smoke: cannot read the run's report: {e}");
                return ExitCode::Report;
            }
        },
    };
    // Reasons and answers are the subject's text: each shown on its own
    // line of the table or the verdict, never able to start one.
    print!("{}", table(&report));
    let verdict = verdict(&report, &whole);
    let said = if verdict.speaks {
        "speaks the protocol"
    } else {
        "does NOT speak the protocol"
    };
    println!("smoke: {said}. {}", sanitize::one_line(&verdict.first));
    if verdict.speaks {
        ExitCode::Ok
    } else {
        ExitCode::Unexpected
    }
}

/// One line per instance: its status, id, and the reason or the first
/// requirement it broke.
fn table(report: &Report) -> String {
    let mut out = String::from("\nsmoke: the chosen instances\n");
    for case in ordered(report) {
        let why = why(case);
        out.push_str(&format!(
            "  {:<14} {:<34} {}\n",
            case.status.name(),
            sanitize::one_line(&case.id),
            sanitize::one_line(&why)
        ));
    }
    out
}

/// Why an instance ended as it did, in one line: the harness's reason, or
/// the first field that disagreed.
fn why(case: &CaseReport) -> String {
    let text = match (&case.reason, case.mismatches.first()) {
        (Some(reason), _) => reason.clone(),
        (None, Some(m)) => format!("{}: expected {}, got {}", m.field, m.expected, m.actual),
        (None, None) => String::new(),
    };
    text.lines().next().unwrap_or_default().to_owned()
}

/// The report's instances in the order of [`INSTANCES`].
fn ordered(report: &Report) -> Vec<&CaseReport> {
    let mut cases: Vec<&CaseReport> = report.cases.iter().collect();
    cases.sort_by_key(|c| INSTANCES.iter().position(|id| *id == c.id));
    cases
}

/// Where the case files and the spec the advice cites come from when they
/// are not on disk (an npm or pip install has no checkout).
const EXPORT: &str =
    "Not on disk? `toolpath export DIR` writes the case files and the spec into DIR.";

/// The command that runs the whole suite against the subject smoke ran:
/// `toolpath run` alone would run the built-in reference, which passes.
fn whole_suite(adapter: Option<&str>, mcp: Option<&std::path::Path>) -> String {
    let quoted = |text: &str| format!("'{}'", text.replace('\'', r"'\''"));
    match (adapter, mcp) {
        (Some(adapter), _) => format!("toolpath run --adapter {}", quoted(adapter)),
        (None, Some(profile)) => {
            format!("toolpath run --mcp {}", quoted(&profile.to_string_lossy()))
        }
        (None, None) => "toolpath run".to_owned(),
    }
}

/// Reads the advice off the report: a protocol breach first (the first
/// instance, in the order asked, on which the subject crashed, hung or
/// sent something that is not an answer, or that was not run because it
/// was given up on), then no tool to ask at all, then the first wrong
/// answer, else the next step, the whole suite run as `whole` says.
pub fn verdict(report: &Report, whole: &str) -> Conclusion {
    let cases = ordered(report);
    let reason = |c: &CaseReport| c.reason.clone().unwrap_or_else(|| "no reason given".into());
    let broken = cases
        .iter()
        .find(|c| matches!(c.status, Status::AdapterError | Status::NotRun));
    if let Some(case) = broken {
        let first = if case.status == Status::NotRun {
            format!(
                "Fix first: it could not be started or was given up on ({}): see spec/protocol.md, `hello` and the framing of lines. {EXPORT}",
                reason(case)
            )
        } else {
            format!(
                "Fix first: on `{}` ({}), {}; see spec/protocol.md. {EXPORT}",
                case.id,
                case.tool,
                reason(case)
            )
        };
        return Conclusion {
            speaks: false,
            first,
        };
    }
    let judged = cases
        .iter()
        .filter(|c| !matches!(c.status, Status::Unsupported | Status::Skip))
        .count();
    if judged == 0 {
        return Conclusion {
            speaks: false,
            first: "It answered `hello` but declares none of the tools these instances use \
                    (resolve, grep, ripgrep, shell, glob, ls, read_file, write_file, edit): \
                    list the tools it implements in `hello`."
                .into(),
        };
    }
    let wrong = cases
        .iter()
        .find(|c| matches!(c.status, Status::Fail | Status::CaseError));
    let first = match wrong {
        Some(case) => format!(
            "Fix first: `{}` ({}; {}, {}:{}): {}. Then run the whole suite: {whole}. {EXPORT}",
            case.id,
            case.spec.join(", "),
            case.status.name(),
            case.file,
            case.line,
            why(case)
        ),
        None => format!("No chosen instance it supports fails; next: the whole suite, {whole}."),
    };
    Conclusion {
        speaks: true,
        first,
    }
}
