//! One fuzzing run in a [`Session`]: start the run directory, start the
//! adapter's processes in it, run the fuzzer ([`crate::fuzz::run`]) with a
//! progress line on a terminal, write each finding as a case file as it is
//! made, print the summary, and end with the exit code.
//!
//! What to fuzz comes in a [`FuzzPlan`], checked by the CLI before anything
//! runs, as a suite run's [`RunPlan`](crate::session::run::RunPlan) is.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::fuzz::finding::FuzzFinding;
use crate::fuzz::run::{FuzzConfig, FuzzTally, Fuzzed};
use crate::fuzz::shrink::Budget;
use crate::harness::baseline::Baseline;
use crate::harness::config::SubjectFactory;
use crate::report::ExitCode;
use crate::session::{Session, Supervision};
use crate::subject::AdapterFailure;
use crate::subject::Subject;
use crate::subject::adapter::Adapter;

/// Everything a fuzzing run needs, checked.
pub struct FuzzPlan {
    /// The adapter command as given, for the findings and the summary.
    pub line: String,
    /// The adapter command, split.
    pub argv: Vec<String>,
    /// The seed: the same seed generates the same inputs.
    pub seed: u64,
    /// The iteration the run starts at (`--first-iteration`).
    pub first_iteration: u64,
    /// Stop after this many iterations (`None`: only `time` bounds the run).
    pub iterations: Option<u64>,
    pub time: Option<Duration>,
    pub jobs: usize,
    /// Where findings are written, one case file per distinct finding.
    pub findings: PathBuf,
    /// Expectations files: what they list is known, not reported.
    pub known: Vec<Baseline>,
    pub max_findings: Option<usize>,
    pub shrink: Budget,
    /// The adapter's timeouts. A crash or hang is a finding, never the end
    /// of the run: the adapter is always restarted.
    pub call_timeout: Duration,
    pub hello_timeout: Duration,
    /// Where the run directory goes (`--fixture-dir`).
    /// Only these tools (empty: every tool the adapter has).
    pub tools: Vec<toolpath_suite::protocol::Tool>,
    pub fixture_dir: Option<PathBuf>,
}

/// Runs `plan` in a session of its own; the exit code.
pub fn fuzz(plan: FuzzPlan) -> ExitCode {
    let session = match Session::start(plan.fixture_dir.as_deref(), false) {
        Ok(session) => session,
        Err(e) => {
            eprintln!("toolpath: {e}");
            return ExitCode::Usage;
        }
    };
    let code = fuzz_in(&session, &plan);
    session.end(code, "the findings so far are written")
}

/// The fuzzing run, everything it creates in `session`'s directory.
fn fuzz_in(session: &Session, plan: &FuzzPlan) -> ExitCode {
    let dirs = ["adapters", "fixtures", "reference"].map(|name| session.subdir(name));
    let [adapters, fixtures, reference] = match dirs {
        [Ok(a), Ok(f), Ok(r)] => [a, f, r],
        [Err(e), ..] | [_, Err(e), _] | [.., Err(e)] => {
            eprintln!("toolpath: {e}");
            return ExitCode::Usage;
        }
    };
    let supervision = Supervision {
        call_timeout: plan.call_timeout,
        hello_timeout: plan.hello_timeout,
        max_restarts: usize::MAX,
        hang_timeout: crate::subject::fifos::DEFAULT_HANG_TIMEOUT,
    };
    // As a run starts it: as root, as the run's own user (it ran as root,
    // and rewrote the JUnit file of the suite run before it: issue 41).
    let config = match session.adapter_config(plan.argv.clone(), &supervision, adapters) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("toolpath: {e}");
            return ExitCode::Usage;
        }
    };
    let make: &SubjectFactory =
        &|| Ok(Box::new(Adapter::start(config.clone())?) as Box<dyn Subject + Send>);
    let terminal = std::io::stderr().is_terminal();
    let progress = |counts: &FuzzTally| {
        if terminal {
            show_progress(counts, plan.iterations);
        }
    };
    let on_finding = |finding: &FuzzFinding| keep_finding(finding, plan, terminal);
    let config = FuzzConfig {
        seed: plan.seed,
        first_iteration: plan.first_iteration,
        iterations: plan.iterations,
        time: plan.time,
        tools: plan.tools.clone(),
        jobs: plan.jobs,
        known: plan.known.clone(),
        shrink: plan.shrink,
        fixtures: Some(fixtures),
        reference_scratch: Some(reference),
        hang_timeout: supervision.hang_timeout,
        fixture_timeout: plan.call_timeout,
        max_findings: plan.max_findings,
        on_iteration: Some(&progress),
        on_finding: Some(&on_finding),
        cancelled: session.cancellation(),
    };
    let summary = match crate::fuzz::run::fuzz(make, &config) {
        Ok(summary) => summary,
        Err(failure) => {
            say_not_started(&failure);
            return ExitCode::Unexpected;
        }
    };
    if terminal {
        eprint!("\r\x1b[2K");
    }
    print_summary(&summary, plan);
    if summary.findings.is_empty() {
        ExitCode::Ok
    } else {
        ExitCode::Unexpected
    }
}

/// The progress line, rewritten in place on a terminal: iterations (of
/// how many, when bounded), findings, known and skipped.
fn show_progress(counts: &FuzzTally, iterations: Option<u64>) {
    let done = counts.iterations.load(Ordering::SeqCst);
    let of = iterations.map_or(String::new(), |n| format!("/{n}"));
    eprint!(
        "\r\x1b[2Kfuzz: {done}{of} iterations, {} finding(s), {} known, {} skipped",
        counts.findings.load(Ordering::SeqCst),
        counts.known.load(Ordering::SeqCst),
        counts.skipped.load(Ordering::SeqCst)
    );
}

/// Writes a finding's case file and says so (over the progress line on a
/// terminal), or says why it could not be written.
fn keep_finding(finding: &FuzzFinding, plan: &FuzzPlan, terminal: bool) {
    let clear = if terminal { "\r\x1b[2K" } else { "" };
    match finding.write(&plan.findings, &plan.line) {
        Ok(file) => eprintln!(
            "{clear}finding (seed {}, iteration {}): {} failed [{}] on {} -> {}",
            finding.seed,
            finding.iteration,
            finding.divergence.failed,
            finding.divergence.rules[0],
            finding.divergence.signature,
            file.display()
        ),
        Err(e) => eprintln!("{clear}toolpath: cannot write a finding: {e}"),
    }
}

/// Why the adapter could not be started: its own text, shown with
/// stand-ins for what would act on the terminal, its stderr a line behind
/// an indent per line, so none passes for a line of toolpath's.
fn say_not_started(failure: &AdapterFailure) {
    eprintln!(
        "toolpath: the adapter could not be started: {}",
        toolpath_suite::sanitize::one_line(&failure.to_string())
    );
    if !failure.stderr.is_empty() {
        eprint!(
            "--- adapter stderr ---\n{}",
            toolpath_suite::sanitize::indented(&failure.stderr, "  | ")
        );
    }
}

fn print_summary(summary: &Fuzzed, plan: &FuzzPlan) {
    let c = &summary.counts;
    println!(
        "fuzz {} (seed {}): {} iterations in {:.1}s ({:.0}/s), {} diverged, {} known, {} repeated a finding, {} skipped, {} new finding(s){}",
        // What the adapter calls itself: its text, on toolpath's line.
        toolpath_suite::sanitize::one_line(&summary.implementation),
        plan.seed,
        c.iterations.load(Ordering::SeqCst),
        summary.elapsed.as_secs_f64(),
        c.iterations.load(Ordering::SeqCst) as f64 / summary.elapsed.as_secs_f64().max(1e-9),
        c.diverged.load(Ordering::SeqCst),
        c.known.load(Ordering::SeqCst),
        c.repeated.load(Ordering::SeqCst),
        c.skipped.load(Ordering::SeqCst),
        summary.findings.len(),
        if summary.findings.is_empty() {
            String::new()
        } else {
            format!(" in {}", plan.findings.display())
        }
    );
}
