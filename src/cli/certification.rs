//! `toolpath certification REPORT...`: the implementation x area table, or
//! the requirement x implementation matrix as one HTML page.

use std::path::PathBuf;

use clap::Args;

use crate::cli::compare::read_report;
use crate::cli::{print_out, usage};
use crate::report::ExitCode;

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
