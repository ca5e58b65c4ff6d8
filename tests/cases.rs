//! Every case file is one test (datatest-stable): the case must be valid and
//! the reference implementation must pass it. A failure prints the case
//! file, its requirement IDs and a unified diff of expected against actual.
//!
//! Permission cases need a non-root observer; when the tests run as root the
//! reference is run for them as the run's own user through `toolpath serve`.
//! Anything that still cannot run here is printed as SKIPPED, never passed
//! silently; under `scripts/test` (TOOLPATH_REQUIRE_RUNNERS, as in CI) a
//! skip is a failure.

use std::path::Path;
use std::time::Duration;

use toolpath::harness::config::{RunConfig, SubjectFactory};
use toolpath::harness::run::run;
use toolpath::report::Status;
use toolpath::subject::adapter::AdapterConfig;
use toolpath::subject::{Reference, Subject};
use toolpath::sys::{UNPRIVILEGED_USER, is_root};
use toolpath_suite::case::validate::parse_cases;

fn unprivileged_runner() -> Option<AdapterConfig> {
    if !is_root() {
        return None;
    }
    Some(AdapterConfig {
        argv: vec![env!("CARGO_BIN_EXE_toolpath").into(), "serve".into()],
        // Healthy answers only: a hang guard, never what decides a case.
        call_timeout: Duration::from_secs(60),
        hello_timeout: Duration::from_secs(60),
        max_restarts: 2,
        user: Some(UNPRIVILEGED_USER),
        tmpdir: std::env::temp_dir(),
        suite_version: toolpath::SUITE_VERSION.into(),
        run_id: None,
        silent_starts: Default::default(),
    })
}

fn check_case(path: &Path, contents: String) -> datatest_stable::Result<()> {
    // A matrix file is its cells: each one runs.
    let cases = parse_cases(path, &contents)?;
    let instances: Vec<_> = cases.iter().flat_map(|c| c.instances()).collect();
    let make: &SubjectFactory = &|| Ok(Box::new(Reference::default()) as Box<dyn Subject + Send>);
    let config = RunConfig {
        unprivileged: unprivileged_runner(),
        ..RunConfig::default()
    };
    let report = run(&instances, make, &config);
    let mut problems = Vec::new();
    for r in &report.cases {
        match r.status {
            Status::Pass => {}
            // `scripts/test` (and so CI) can observe every case: there a
            // skip would be a case shown green that nobody judged.
            Status::Skip if std::env::var_os("TOOLPATH_REQUIRE_RUNNERS").is_some() => problems
                .push(format!(
                    "skipped {} although scripts/test must judge every case: {}",
                    r.id,
                    r.reason.as_deref().unwrap_or("")
                )),
            Status::Skip => eprintln!(
                "SKIPPED {} ({}): {}",
                r.id,
                r.file,
                r.reason.as_deref().unwrap_or("")
            ),
            _ => problems.push(format!(
                "{} {} at {}:{} [{}]\n{}{}",
                r.status.name(),
                r.id,
                r.file,
                r.line,
                r.spec.join(", "),
                r.reason
                    .as_deref()
                    .map(|s| format!("{s}\n"))
                    .unwrap_or_default(),
                r.diff.as_deref().unwrap_or(""),
            )),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

datatest_stable::harness! {
    { test = check_case, root = "cases", pattern = r"\.yaml$" },
}
