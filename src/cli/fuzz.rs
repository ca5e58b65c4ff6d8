//! `toolpath fuzz`: its request, and the run in a [`Session`] of its own
//! (run directory, SIGINT/SIGTERM, exit code), apart from `run`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::Args;

use crate::cli::usage;
use crate::fuzz::finding::Finding;
use crate::fuzz::run::{Counts, FuzzConfig, Summary, fuzz as run_fuzz};
use crate::fuzz::shrink::Budget;
use crate::harness::baseline::Baseline;
use crate::harness::config::SubjectFactory;
use crate::report::ExitCode;
use crate::session::Session;
use crate::subject::Subject;
use crate::subject::adapter::{Adapter, AdapterConfig, split_command};

/// Everything `toolpath fuzz` was asked to do.
#[derive(Debug, Clone, Args)]
pub struct FuzzRequest {
    /// The adapter command (split on white space, quotes group).
    #[arg(long)]
    pub adapter: String,
    /// Seed of the run: the same seed generates the same inputs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop after this many iterations (default 1000 unless --time is given).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Stop after this long (60s, 2m, 500ms).
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Parallel workers (each with its own adapter process); default: the number of CPUs.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Where findings are written, one case file per distinct finding.
    #[arg(long, default_value = "fuzz-findings")]
    pub findings: PathBuf,
    /// An expectations file: findings whose id it lists (`glob.fuzz.*`), or whose rule an xfail entry names as `spec:`, are known, not reported. May be given more than once (the file `run --strict` reads may not list what no case matches).
    #[arg(long)]
    pub expectations: Vec<PathBuf>,
    /// Stop once this many new findings are written.
    #[arg(long)]
    pub max_findings: Option<usize>,
    /// How many probes shrinking one finding may make: the bound that decides the shrunk case, the same on any machine.
    #[arg(long, default_value_t = Budget::default().probes)]
    pub shrink_steps: usize,
    /// How long shrinking one finding may take at most (an adapter that hangs costs a timeout per try); a shrink this cuts short depends on the machine's speed.
    #[arg(long, value_parser = parse_duration)]
    pub shrink_time: Option<Duration>,
    /// How long one call may take before the adapter counts as hung (a finding).
    #[arg(long, default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// How long the adapter may take to answer `hello`.
    #[arg(long, default_value_t = 30_000)]
    pub hello_timeout_ms: u64,
    /// Build fixtures (and the run's temporary files) under DIR. Default:
    /// $TOOLPATH_FIXTURE_DIR, else /dev/shm when it is a writable tmpfs, else
    /// the system temporary directory.
    #[arg(long, value_name = "DIR")]
    pub fixture_dir: Option<PathBuf>,
}

/// Iterations when neither `--iterations` nor `--time` bounds the run.
pub const DEFAULT_ITERATIONS: u64 = 1_000;

/// Parses a duration: humantime's (`60s`, `2m`, `500ms`, `1h`, `1h 30m`,
/// `2days`), or a bare number of seconds. Too large a number is an error,
/// never a wrapped-around one.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text
            .parse::<u64>()
            .map(Duration::from_secs)
            .map_err(|e| format!("`{text}`: {e}"));
    }
    humantime::parse_duration(text)
        .map_err(|e| format!("`{text}` is not a duration like 60s, 2m or 500ms ({e})"))
}

/// `toolpath fuzz`.
pub fn fuzz(request: FuzzRequest) -> ExitCode {
    let argv = match split_command(&request.adapter) {
        Ok(argv) => argv,
        Err(e) => return usage(e),
    };
    let mut known = Vec::new();
    for file in &request.expectations {
        match Baseline::load(file) {
            Ok(e) => known.push(e),
            Err(e) => return usage(e),
        }
    }
    let session = match Session::start(request.fixture_dir.as_deref()) {
        Ok(session) => session,
        Err(e) => return usage(e),
    };
    let code = fuzz_in(&session, &request, argv, known);
    session.end(code, "the findings so far are written")
}

/// The fuzzing run, everything it creates in `session`'s directory.
fn fuzz_in(
    session: &Session,
    request: &FuzzRequest,
    argv: Vec<String>,
    known: Vec<Baseline>,
) -> ExitCode {
    let dirs = ["adapters", "fixtures", "reference"].map(|name| session.subdir(name));
    let [adapters, fixtures, reference] = match dirs {
        [Ok(a), Ok(f), Ok(r)] => [a, f, r],
        [Err(e), ..] | [_, Err(e), _] | [.., Err(e)] => return usage(e),
    };
    let make_config = AdapterConfig {
        argv,
        call_timeout: Duration::from_millis(request.timeout_ms),
        hello_timeout: Duration::from_millis(request.hello_timeout_ms),
        // A crash or hang is a finding, never the end of the run.
        max_restarts: usize::MAX,
        user: None,
        tmpdir: adapters,
        suite_version: crate::SUITE_VERSION.to_owned(),
        run_id: Some(session.dir().id().to_owned()),
    };
    let make: &SubjectFactory =
        &|| Ok(Box::new(Adapter::start(make_config.clone())?) as Box<dyn Subject + Send>);
    let iterations = match (request.iterations, request.time) {
        (None, None) => Some(DEFAULT_ITERATIONS),
        (n, _) => n,
    };
    let terminal = std::io::stderr().is_terminal();
    let progress = |counts: &Counts| {
        if terminal {
            let done = counts.iterations.load(Ordering::SeqCst);
            let of = iterations.map_or(String::new(), |n| format!("/{n}"));
            eprint!(
                "\r\x1b[2Kfuzz: {done}{of} iterations, {} finding(s), {} known, {} skipped",
                counts.findings.load(Ordering::SeqCst),
                counts.known.load(Ordering::SeqCst),
                counts.skipped.load(Ordering::SeqCst)
            );
        }
    };
    let on_finding = |finding: &Finding| {
        let clear = if terminal { "\r\x1b[2K" } else { "" };
        match finding.write(&request.findings, &request.adapter) {
            Ok(file) => eprintln!(
                "{clear}finding (seed {}, iteration {}): {} failed [{}] on {} -> {}",
                finding.seed,
                finding.iteration,
                finding.divergence.fields.join(", "),
                finding.divergence.rules[0],
                finding.divergence.signature,
                file.display()
            ),
            Err(e) => eprintln!("{clear}toolpath: cannot write a finding: {e}"),
        }
    };
    let config = FuzzConfig {
        seed: request.seed,
        iterations,
        time: request.time,
        jobs: request
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        known,
        shrink: Budget {
            probes: request.shrink_steps,
            time: request.shrink_time,
        },
        fixtures: Some(fixtures),
        reference_scratch: Some(reference),
        max_findings: request.max_findings,
        on_iteration: Some(&progress),
        on_finding: Some(&on_finding),
    };
    let summary = match run_fuzz(make, &config) {
        Ok(summary) => summary,
        Err(failure) => {
            // The adapter's own text: shown with stand-ins for what would
            // act on the terminal.
            eprintln!(
                "toolpath: the adapter could not be started: {}",
                toolpath_suite::sanitize::visible(&failure.to_string())
            );
            if !failure.stderr.is_empty() {
                eprintln!(
                    "--- adapter stderr ---\n{}",
                    toolpath_suite::sanitize::visible(&failure.stderr)
                );
            }
            return ExitCode::Unexpected;
        }
    };
    if terminal {
        eprint!("\r\x1b[2K");
    }
    print_summary(&summary, request);
    if summary.findings.is_empty() {
        ExitCode::Ok
    } else {
        ExitCode::Unexpected
    }
}

fn print_summary(summary: &Summary, request: &FuzzRequest) {
    let c = &summary.counts;
    println!(
        "fuzz {} (seed {}): {} iterations in {:.1}s ({:.0}/s), {} diverged, {} known, {} repeated a finding, {} skipped, {} new finding(s){}",
        summary.implementation,
        request.seed,
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
            format!(" in {}", request.findings.display())
        }
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("60s"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("7"), Ok(Duration::from_secs(7)));
        assert_eq!(parse_duration("1h 30m"), Ok(Duration::from_secs(5400)));
        // humantime's days are accepted, and no unit is a mistake.
        assert_eq!(parse_duration("1d"), Ok(Duration::from_secs(86_400)));
        assert!(parse_duration("1fortnight").is_err());
        assert!(parse_duration("s").is_err());
        assert!(parse_duration("").is_err());
        // What once overflowed `n * 3600` is an error, not a short duration.
        assert!(parse_duration("18446744073709551615h").is_err());
        assert!(parse_duration("99999999999999999999").is_err());
    }
}
