//! `toolpath fuzz`: its own request and entry point, apart from `run`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::cli::exit;
use crate::fuzz::finding::Finding;
use crate::fuzz::run::{Counts, FuzzConfig, Summary, fuzz as run_fuzz};
use crate::fuzz::shrink::Budget;
use crate::harness::baseline::Baseline;
use crate::harness::run::SubjectFactory;
use crate::subject::Subject;
use crate::subject::adapter::{Adapter, AdapterConfig, split_command};

/// Everything `toolpath fuzz` was asked to do.
#[derive(Debug, Clone)]
pub struct FuzzRequest {
    pub adapter: String,
    pub seed: u64,
    pub iterations: Option<u64>,
    pub time: Option<Duration>,
    pub jobs: Option<usize>,
    pub findings: PathBuf,
    pub expectations: Option<PathBuf>,
    pub max_findings: Option<usize>,
    pub shrink_time: Duration,
    pub timeout_ms: u64,
    pub hello_timeout_ms: u64,
}

/// Iterations when neither `--iterations` nor `--time` bounds the run.
pub const DEFAULT_ITERATIONS: u64 = 1_000;

/// Parses `60s`, `2m`, `500ms`, `1h` or a bare number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration like 60s, 2m or 500ms"))?;
    match unit {
        "ms" => Ok(Duration::from_millis(n)),
        "" | "s" => Ok(Duration::from_secs(n)),
        "m" => Ok(Duration::from_secs(n * 60)),
        "h" => Ok(Duration::from_secs(n * 3600)),
        _ => Err(format!("`{text}`: unknown unit `{unit}` (ms, s, m, h)")),
    }
}

fn usage(message: impl std::fmt::Display) -> i32 {
    eprintln!("toolpath: {message}");
    exit::USAGE
}

/// `toolpath fuzz`.
pub fn fuzz(request: FuzzRequest) -> i32 {
    let argv = match split_command(&request.adapter) {
        Ok(argv) => argv,
        Err(e) => return usage(e),
    };
    let known = match &request.expectations {
        Some(file) => match Baseline::load(file) {
            Ok(e) => e,
            Err(e) => return usage(e),
        },
        None => Baseline::default(),
    };
    let tmp = match tempfile::Builder::new()
        .prefix("toolpath-adapter-")
        .tempdir()
    {
        Ok(dir) => dir,
        Err(e) => return usage(format!("cannot create a temporary directory: {e}")),
    };
    let make_config = adapter_config(&request, argv, tmp.path());
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
                "{clear}finding (seed {}, iteration {}): {} differ [{}] -> {}",
                finding.seed,
                finding.iteration,
                finding.divergence.fields.join(", "),
                finding.divergence.rules[0],
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
            time: request.shrink_time,
            ..Budget::default()
        },
        fixtures: crate::fuzz::probe::ram_dir(),
        max_findings: request.max_findings,
        on_iteration: Some(&progress),
        on_finding: Some(&on_finding),
    };
    let summary = match run_fuzz(make, &config) {
        Ok(summary) => summary,
        Err(failure) => {
            eprintln!("toolpath: the adapter could not be started: {failure}");
            if !failure.stderr.is_empty() {
                eprintln!("--- adapter stderr ---\n{}", failure.stderr);
            }
            return exit::UNEXPECTED;
        }
    };
    if terminal {
        eprint!("\r\x1b[2K");
    }
    print_summary(&summary, &request);
    if summary.findings.is_empty() {
        exit::OK
    } else {
        exit::UNEXPECTED
    }
}

fn adapter_config(
    request: &FuzzRequest,
    argv: Vec<String>,
    tmp: &std::path::Path,
) -> AdapterConfig {
    AdapterConfig {
        argv,
        call_timeout: Duration::from_millis(request.timeout_ms),
        hello_timeout: Duration::from_millis(request.hello_timeout_ms),
        // A crash or hang is a finding, never the end of the run.
        max_restarts: usize::MAX,
        user: None,
        tmpdir: tmp.to_owned(),
        suite_version: crate::SUITE_VERSION.to_owned(),
        run_dir: None,
    }
}

fn print_summary(summary: &Summary, request: &FuzzRequest) {
    let c = &summary.counts;
    println!(
        "fuzz {} (seed {}): {} iterations in {:.1}s ({:.0}/s), {} diverged, {} known, {} skipped, {} new finding(s){}",
        summary.implementation,
        request.seed,
        c.iterations.load(Ordering::SeqCst),
        summary.elapsed.as_secs_f64(),
        c.iterations.load(Ordering::SeqCst) as f64 / summary.elapsed.as_secs_f64().max(1e-9),
        c.diverged.load(Ordering::SeqCst),
        c.known.load(Ordering::SeqCst),
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
        assert_eq!(parse_duration("7"), Ok(Duration::from_secs(7)));
        assert!(parse_duration("1d").is_err());
        assert!(parse_duration("s").is_err());
    }
}
