//! `toolpath certification REPORT...`: the implementation x area table, or
//! the requirement x implementation matrix as one HTML page.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use crate::cli::compare::read_report;
use crate::cli::{print_out, usage};
use crate::report::{ExitCode, Report};

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
    /// The JSON reports (or event logs) of the implementations, one each.
    #[arg(value_name = "REPORT", required = true)]
    pub reports: Vec<PathBuf>,
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
