//! `cargo bench --bench fuzz`: fuzzing speed in iterations per second,
//! against the in-process reference (generation, fixture, both calls, no
//! process boundary) and over stdio (`toolpath serve`, the Python port),
//! with fixtures on a RAM file system and on the system temporary
//! directory. Prints a table; nothing asserts on time (timed tests are
//! flaky), the numbers go into notes and docs.

use std::time::Duration;

use toolpath::fuzz::run::{FuzzConfig, fuzz};
use toolpath::fuzz::shrink::Budget;
use toolpath::harness::config::SubjectFactory;
use toolpath::subject::adapter::{Adapter, AdapterConfig};
use toolpath::subject::{Reference, Subject};

const ITERATIONS: u64 = 2_000;

fn adapter_config(argv: &[&str]) -> AdapterConfig {
    AdapterConfig {
        argv: argv.iter().map(|s| s.to_string()).collect(),
        call_timeout: Duration::from_secs(10),
        hello_timeout: Duration::from_secs(30),
        max_restarts: 0,
        user: None,
        tmpdir: std::env::temp_dir(),
        suite_version: toolpath::SUITE_VERSION.into(),
        run_id: None,
        silent_starts: Default::default(),
    }
}

fn rate(make: &SubjectFactory, jobs: usize, fixtures: Option<std::path::PathBuf>) -> f64 {
    let config = FuzzConfig {
        seed: 1,
        first_iteration: 0,
        iterations: Some(ITERATIONS),
        time: None,
        tools: Vec::new(),
        jobs,
        known: Default::default(),
        shrink: Budget::default(),
        fixtures,
        reference_scratch: None,
        hang_timeout: toolpath::subject::fifos::DEFAULT_HANG_TIMEOUT,
        fixture_timeout: toolpath::subject::DEFAULT_CALL_TIMEOUT,
        max_findings: None,
        on_iteration: None,
        on_finding: None,
        cancelled: &toolpath::sys::cancel::signal,
    };
    let summary = fuzz(make, &config).expect("fuzz runs");
    assert!(
        summary.findings.is_empty(),
        "the benchmark's subjects must agree with the reference"
    );
    ITERATIONS as f64 / summary.elapsed.as_secs_f64()
}

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let serve = adapter_config(&[env!("CARGO_BIN_EXE_toolpath"), "serve"]);
    let python_adapter = format!("{root}/runners/python/adapter.py");
    let python = adapter_config(&["python3", &python_adapter]);
    let in_process: &SubjectFactory =
        &|| Ok(Box::new(Reference::default()) as Box<dyn Subject + Send>);
    let stdio: &SubjectFactory =
        &|| Ok(Box::new(Adapter::start(serve.clone())?) as Box<dyn Subject + Send>);
    let port: &SubjectFactory =
        &|| Ok(Box::new(Adapter::start(python.clone())?) as Box<dyn Subject + Send>);
    let ram = toolpath::fuzz::probe::ram_dir();
    println!("toolpath fuzz benchmark: {ITERATIONS} iterations of seed 1 per row");
    println!("{:<60} {:>14}", "subject", "iterations/s");
    let mut places = vec![("system temp", None)];
    if let Some(dir) = ram {
        places.insert(0, ("/dev/shm", Some(dir)));
    }
    for (place, dir) in places {
        for jobs in [1, 2] {
            for (label, make) in [
                ("in-process reference", in_process),
                ("stdio `toolpath serve`", stdio),
                ("stdio Python port", port),
            ] {
                let r = rate(make, jobs, dir.clone());
                println!(
                    "{:<60} {r:>14.0}",
                    format!("{label}, --jobs {jobs}, fixtures in {place}")
                );
            }
        }
    }
}
