//! `toolpath certification REPORT...`: the implementation x area table, or
//! the requirement x implementation matrix as one HTML page; with
//! `--check-fresh`, whether pages made so are still those of today's suite
//! and runners, from what they recorded, with nothing run (issue 33).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::compare::read_report;
use crate::cli::{SourceArgs, print_out, usage};
use crate::report::{ExitCode, Report, RunAgainst};
use crate::session::run_against;

/// What `toolpath certification` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CertificationFormat {
    /// The implementation x area table, for a README.
    Markdown,
    /// The requirement x implementation matrix as one self-contained page.
    Html,
}

/// `toolpath certification`.
#[derive(Debug, Clone, Args)]
pub struct CertificationRequest {
    /// The JSON reports (or event logs) of the implementations, one each;
    /// with --check-fresh, the files to check: JSON reports, Markdown
    /// reports, certification tables.
    #[arg(value_name = "REPORT", required = true)]
    pub reports: Vec<PathBuf>,
    /// Write nothing: check that every record of what a report, page or
    /// table was run against (`--runner-dir` of `toolpath run`) is of
    /// today's suite and runner files; exit 1 naming each stale one and
    /// what changed. Nothing is run. The suite is the embedded one, or
    /// --cases and --add-cases as the runs were given them.
    #[arg(long)]
    pub check_fresh: bool,
    #[command(flatten)]
    pub source: SourceArgs,
    /// What to write.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "markdown")]
    pub format: CertificationFormat,
    /// Where to write it; default standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Put reports of different suite versions on one page (refused
    /// otherwise: their cells count different cases).
    #[arg(long)]
    pub mixed_versions: bool,
}

/// `toolpath certification REPORT...`.
pub fn certification(request: CertificationRequest) -> ExitCode {
    if request.reports.is_empty() {
        return usage("give at least one JSON report");
    }
    if request.check_fresh {
        return check_fresh(&request.reports, &request.source);
    }
    if !request.source.cases.is_empty() || !request.source.add_cases.is_empty() {
        return usage("--cases and --add-cases go with --check-fresh");
    }
    let mut loaded = Vec::new();
    for path in &request.reports {
        match read_report(path) {
            Ok(r) => loaded.push(r),
            Err(e) => return usage(e),
        }
    }
    if !request.mixed_versions
        && let Some(message) = mixed_versions(&request.reports, &loaded)
    {
        return usage(message);
    }
    let page = match request.format {
        CertificationFormat::Markdown => crate::report::render::certification::table(&loaded),
        CertificationFormat::Html => crate::report::render::html::render(&loaded),
    };
    match &request.output {
        Some(path) => match std::fs::write(path, page) {
            Ok(()) => ExitCode::Ok,
            Err(e) => {
                eprintln!("toolpath: cannot write {}: {e}", path.display());
                ExitCode::Report
            }
        },
        None => {
            let _ = print_out(&page);
            ExitCode::Ok
        }
    }
}

/// Why reports of more than one suite version cannot share a page
/// unchallenged: a cell of one counts other cases than the same cell of
/// another. `None` when every report has the same version.
fn mixed_versions(paths: &[PathBuf], reports: &[Report]) -> Option<String> {
    let mut versions: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (path, report) in paths.iter().zip(reports) {
        versions
            .entry(report.suite.as_str())
            .or_default()
            .push(path.display().to_string());
    }
    (versions.len() > 1).then(|| {
        let listed: Vec<String> = versions
            .iter()
            .map(|(version, files)| format!("suite {version}: {}", files.join(", ")))
            .collect();
        format!(
            "the reports are of different suite versions ({}); run them again with one \
             version, or pass --mixed-versions to compare them anyway",
            listed.join("; ")
        )
    })
}

/// The records of what `file` was run against, each with its label (an
/// implementation, or `Run against` on a report's page): a JSON report's
/// one, or every line of a Markdown page that holds one. A record `None`:
/// the report recorded nothing.
fn records(file: &Path) -> Result<Vec<(String, Option<RunAgainst>)>, String> {
    if file.extension().is_some_and(|e| e == "json") {
        let report = read_report(file)?;
        let label = crate::report::render::text::implementation(&report.implementation);
        return Ok(vec![(label, report.run_against)]);
    }
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    Ok(text
        .lines()
        .filter_map(RunAgainst::find)
        .map(|(label, record)| (label.to_owned(), record))
        .collect())
}

/// `toolpath certification --check-fresh FILE...`: each record against
/// the digests of today's files, computed as `toolpath run` computed them.
fn check_fresh(files: &[PathBuf], source: &SourceArgs) -> ExitCode {
    let suite = match run_against::suite_digest(&source.cases, &source.add_cases) {
        Ok(digest) => digest,
        Err(e) => return usage(e),
    };
    let mut runners: BTreeMap<Vec<String>, Result<String, String>> = BTreeMap::new();
    let mut stale = Vec::new();
    let mut fresh = 0;
    for file in files {
        let records = match records(file) {
            Ok(records) => records,
            Err(e) => return usage(e),
        };
        let shown = file.display();
        if records.is_empty() {
            stale.push(format!("{shown}: records nothing it was run against"));
        }
        for (label, record) in records {
            let what = match label.as_str() {
                "" | "Run against" => shown.to_string(),
                _ => format!("{shown} ({label})"),
            };
            let Some(record) = record else {
                stale.push(format!("{what}: records nothing it was run against"));
                continue;
            };
            let mut changed = Vec::new();
            if record.suite != suite {
                changed.push(format!(
                    "the suite changed (recorded {}, now {suite})",
                    record.suite
                ));
            }
            if let Some(runner) = &record.runner {
                let now = runners
                    .entry(runner.dirs.clone())
                    .or_insert_with(|| run_against::runner_digest(&runner.dirs));
                match now {
                    Ok(now) if *now == runner.digest => {}
                    Ok(now) => changed.push(format!(
                        "the runner changed ({}: recorded {}, now {now})",
                        runner.dirs.join(" + "),
                        runner.digest
                    )),
                    Err(e) => changed.push(format!("the runner cannot be read: {e}")),
                }
            }
            if changed.is_empty() {
                fresh += 1;
            } else {
                stale.push(format!("{what}: stale: {}", changed.join("; ")));
            }
        }
    }
    if stale.is_empty() {
        println!("toolpath: {fresh} records fresh, of today's suite and runners");
        return ExitCode::Ok;
    }
    for line in &stale {
        eprintln!("toolpath: {line}");
    }
    eprintln!(
        "toolpath: {} stale: make them again from fresh runs of today's suite and runners",
        stale.len()
    );
    ExitCode::Unexpected
}
