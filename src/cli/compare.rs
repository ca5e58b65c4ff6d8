//! `toolpath compare OLD NEW`: what a change fixed and what it broke, from
//! two JSON reports (or event logs, which stand for their run's report).

use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::{print_out, usage};
use crate::report::{ExitCode, Report};

/// `toolpath compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareRequest {
    /// The report before the change (JSON, or a run's event log).
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The report after the change (JSON, or a run's event log).
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
}

/// Reads a JSON report, or an event log as the report of its run (partial
/// if the run did not finish), of this release or an earlier one.
pub fn read_report(path: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if crate::report::events::is_event_log(&text) {
        return crate::report::events::read(&text)
            .map_err(|e| format!("{}: not a toolpath event log: {e}", path.display()));
    }
    crate::report::upgrade::json(&text)
        .map_err(|e| format!("{}: not a toolpath JSON report: {e}", path.display()))
}

/// `toolpath compare OLD NEW`: exit 1 when something that passed broke, or
/// an instance escapes that did not (a security regression).
pub fn compare(request: CompareRequest) -> ExitCode {
    let (old, new) = match (read_report(&request.old), read_report(&request.new)) {
        (Ok(o), Ok(n)) => (o, n),
        (Err(e), _) | (_, Err(e)) => return usage(e),
    };
    let comparison = crate::report::render::compare::compare(&old, &new);
    let _ = print_out(&crate::report::render::compare::render(&comparison));
    if comparison.broke_anything() {
        ExitCode::Unexpected
    } else {
        ExitCode::Ok
    }
}
