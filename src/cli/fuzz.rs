//! `toolpath fuzz`: the request and its checks. The adapter command and
//! the expectations files are checked here, before anything runs; the run
//! itself, in a session of its own, is [`crate::session::fuzz`].

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::cli::usage;
use crate::fuzz::shrink::Budget;
use crate::harness::baseline::Baseline;
use crate::report::ExitCode;
use crate::session::fuzz::FuzzPlan;
use crate::subject::adapter::split_command;
use toolpath_suite::case::raw::ToolSelector;

/// Everything `toolpath fuzz` was asked to do.
#[derive(Debug, Clone, Args)]
pub struct FuzzRequest {
    /// The adapter command (split on white space, quotes group).
    #[arg(long, value_name = "COMMAND")]
    pub adapter: String,
    /// Seed of the run: the same seed generates the same inputs.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Start at this iteration of the seed: each iteration's input depends on the seed and its number alone, so one finding's iteration runs again alone (`--first-iteration 44 --iterations 1`), and a long run splits into parts.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub first_iteration: u64,
    /// Stop after this many iterations (default 1000 unless --time is given).
    #[arg(long, value_name = "N")]
    pub iterations: Option<u64>,
    /// Stop after this long (60s, 2m, 500ms; a bare number is seconds).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Only calls of this tool (repeatable; `search` is grep and ripgrep, as
    /// in the case files): the adapter's other tools are not fuzzed.
    #[arg(long = "tool", value_name = "TOOL", value_parser = crate::cli::tool_selector())]
    pub tool: Vec<ToolSelector>,
    /// Parallel workers (each with its own adapter process); default: the number of CPUs.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Where findings are written, one case file per distinct finding.
    #[arg(long, value_name = "DIR", default_value = "fuzz-findings")]
    pub findings: PathBuf,
    /// An expectations file: findings whose id it lists (`glob.fuzz.*`), or whose rule an xfail entry names as `spec:`, are known, not reported. May be given more than once (the file `run --strict` reads may not list what no case matches).
    #[arg(long, value_name = "FILE")]
    pub expectations: Vec<PathBuf>,
    /// Stop once this many new findings are written.
    #[arg(long, value_name = "N")]
    pub max_findings: Option<usize>,
    /// How many probes shrinking one finding may make: the bound that decides the shrunk case, the same on any machine.
    #[arg(long, value_name = "N", default_value_t = Budget::default().probes)]
    pub shrink_steps: usize,
    /// How long shrinking one finding may take at most (an adapter that hangs costs a timeout per try); a shrink this cuts short depends on the machine's speed.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub shrink_time: Option<Duration>,
    /// How long one call may take before the adapter counts as hung (a finding), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// How long the adapter may take to answer `hello`, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
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
    match plan(request) {
        Ok(plan) => crate::session::fuzz::fuzz(plan),
        Err(code) => code,
    }
}

/// Checks the request and loads what it names.
fn plan(request: FuzzRequest) -> Result<FuzzPlan, ExitCode> {
    let argv = split_command(&request.adapter).map_err(usage)?;
    let known = request
        .expectations
        .iter()
        .map(|file| Baseline::load(file).map_err(usage))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(FuzzPlan {
        line: request.adapter,
        argv,
        seed: request.seed,
        first_iteration: request.first_iteration,
        iterations: match (request.iterations, request.time) {
            (None, None) => Some(DEFAULT_ITERATIONS),
            (n, _) => n,
        },
        time: request.time,
        tools: request.tool.iter().flat_map(|t| t.tools()).collect(),
        jobs: request
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        findings: request.findings,
        known,
        max_findings: request.max_findings,
        shrink: Budget {
            probes: request.shrink_steps,
            time: request.shrink_time,
        },
        call_timeout: Duration::from_millis(request.timeout_ms),
        hello_timeout: Duration::from_millis(request.hello_timeout_ms),
        fixture_dir: request.fixture_dir,
    })
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
