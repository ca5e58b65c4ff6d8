//! `toolpath list`: the selected instances, one a line or as JSON.

use clap::{Args, ValueEnum};

use crate::cli::{SelectArgs, load_or_usage, print_out};
use crate::report::ExitCode;

/// How `toolpath list` prints.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ListFormat {
    Human,
    Json,
}

/// `toolpath list`.
#[derive(Debug, Clone, Args)]
pub struct ListRequest {
    #[command(flatten)]
    pub select: SelectArgs,
    /// How to print the selection.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "human")]
    pub format: ListFormat,
}

/// `toolpath list`.
pub fn list(request: ListRequest) -> ExitCode {
    let cases = match load_or_usage(&request.select.source) {
        Ok(cases) => cases,
        Err(code) => return code,
    };
    let json = matches!(request.format, ListFormat::Json);
    let instances = request.select.selection().instances(&cases);
    let text = if json {
        let items: Vec<serde_json::Value> = instances
            .iter()
            .map(|i| {
                serde_json::json!({
                    "id": i.id(), "case": i.case.id, "tool": i.tool, "file": i.case.file.display().to_string(),
                    "line": i.case.line, "spec": i.case.spec, "tags": i.case.tags, "summary": i.case.summary,
                })
            })
            .collect();
        serde_json::to_string_pretty(&items).expect("serialises") + "\n"
    } else {
        let lines = instances.iter().map(|i| {
            format!(
                "{}\t{}:{}\t{}\n",
                i.id(),
                i.case.file.display(),
                i.case.line,
                i.case.spec.join(",")
            )
        });
        lines.collect()
    };
    // A reader that stopped early (`toolpath list | head`) is not an error.
    if let Err(e) = print_out(&text) {
        eprintln!("toolpath: cannot write to stdout: {e}");
        return ExitCode::Report;
    }
    if !json {
        eprintln!("{} instance(s) of {} case(s)", instances.len(), cases.len());
    }
    ExitCode::Ok
}
