//! `cargo bench --bench suite`: how long the harness takes, in-process and
//! over stdio, and proof that an adapter's start-up is paid once per worker,
//! not once per case. Prints a table; nothing here asserts on time (timed
//! tests are flaky), the numbers go into notes and docs.

use std::time::{Duration, Instant};

use toolpath::case::fixture;
use toolpath::case::model::Instance;
use toolpath::harness::run::{RunConfig, SubjectFactory, run};
use toolpath::subject::adapter::{Adapter, AdapterConfig};
use toolpath::subject::{Reference, Subject};

const ROUNDS: usize = 7;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn adapter_config(argv: Vec<String>) -> AdapterConfig {
    AdapterConfig {
        argv,
        call_timeout: Duration::from_secs(10),
        hello_timeout: Duration::from_secs(30),
        max_restarts: 0,
        user: None,
        tmpdir: std::env::temp_dir(),
        suite_version: toolpath::SUITE_VERSION.into(),
        run_dir: None,
    }
}

fn time_run(instances: &[Instance], make: &SubjectFactory, jobs: usize) -> Duration {
    let config = RunConfig {
        jobs,
        ..RunConfig::default()
    };
    median(
        (0..ROUNDS)
            .map(|_| {
                let started = Instant::now();
                let report = run(instances, make, &config);
                assert_eq!(
                    report.summary.fail + report.summary.adapter_error,
                    0,
                    "the reference must pass"
                );
                started.elapsed()
            })
            .collect(),
    )
}

fn peak_rss_kib() -> i64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss
}

fn main() {
    let (cases, errors) = toolpath::case::suite::load_embedded();
    assert!(errors.is_empty(), "invalid cases");
    let instances: Vec<Instance> = cases.iter().flat_map(|c| c.instances()).collect();
    let n = instances.len() as f64;
    let serve = vec![
        env!("CARGO_BIN_EXE_toolpath").to_owned(),
        "serve".to_owned(),
    ];
    let slow = vec![
        "sh".to_owned(),
        "-c".to_owned(),
        format!("sleep 1; exec {} serve", env!("CARGO_BIN_EXE_toolpath")),
    ];

    let fixture_only = median(
        (0..ROUNDS)
            .map(|_| {
                let started = Instant::now();
                for case in &cases {
                    drop(fixture::build(&case.fixture, None).expect("fixture"));
                }
                started.elapsed()
            })
            .collect(),
    );

    let reference: &SubjectFactory =
        &|| Ok(Box::new(Reference::default()) as Box<dyn Subject + Send>);
    let stdio_config = adapter_config(serve);
    let stdio: &SubjectFactory =
        &|| Ok(Box::new(Adapter::start(stdio_config.clone())?) as Box<dyn Subject + Send>);
    let slow_config = adapter_config(slow);
    let slow_start: &SubjectFactory =
        &|| Ok(Box::new(Adapter::start(slow_config.clone())?) as Box<dyn Subject + Send>);

    println!(
        "toolpath harness benchmark: {} cases, {} instances, median of {ROUNDS} runs",
        cases.len(),
        instances.len()
    );
    println!("{:<44} {:>10} {:>14}", "mode", "suite", "per instance");
    let row = |label: &str, d: Duration, per: f64| {
        println!(
            "{label:<44} {:>8.1}ms {:>12.3}ms",
            d.as_secs_f64() * 1e3,
            per * 1e3 / n
        );
    };
    row(
        "fixture build + removal only (1 thread)",
        fixture_only,
        fixture_only.as_secs_f64() * n / cases.len() as f64,
    );
    for jobs in [1, 2] {
        let d = time_run(&instances, reference, jobs);
        row(
            &format!("in-process reference, --jobs {jobs}"),
            d,
            d.as_secs_f64(),
        );
        let s = time_run(&instances, stdio, jobs);
        row(
            &format!("stdio `toolpath serve`, --jobs {jobs}"),
            s,
            s.as_secs_f64(),
        );
        println!(
            "{:<44} {:>23.3}ms",
            "  stdio cost per instance",
            (s.as_secs_f64() - d.as_secs_f64()) * 1e3 / n
        );
    }
    let started = Instant::now();
    run(
        &instances,
        slow_start,
        &RunConfig {
            jobs: 2,
            ..RunConfig::default()
        },
    );
    let d = started.elapsed();
    row(
        "stdio, adapter sleeps 1 s at start, --jobs 2",
        d,
        d.as_secs_f64(),
    );
    println!("peak RSS of this process: {} MiB", peak_rss_kib() / 1024);
}
