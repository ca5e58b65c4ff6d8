//! `toolpath list`: the selected instances, one a line or as JSON.

use clap::{Args, ValueEnum};

use crate::cli::{SelectArgs, SourceArgs, load_or_usage, print_out};
use crate::report::ExitCode;
use toolpath_suite::case::CaseHead;

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
    let heads = match heads_or_usage(&request.select.source) {
        Ok(heads) => heads,
        Err(code) => return code,
    };
    let json = matches!(request.format, ListFormat::Json);
    let instances = request.select.selection().heads(&heads);
    let text = if json {
        let items: Vec<serde_json::Value> = instances
            .iter()
            .map(|(case, tool)| {
                serde_json::json!({
                    "id": case.instance_id(*tool), "case": case.id, "tool": tool, "file": case.file.display().to_string(),
                    "line": case.line, "spec": case.spec, "tags": case.tags, "summary": case.summary,
                })
            })
            .collect();
        serde_json::to_string_pretty(&items).expect("serialises") + "\n"
    } else {
        let lines = instances.iter().map(|(case, tool)| {
            format!(
                "{}\t{}:{}\t{}\n",
                case.instance_id(*tool),
                case.file.display(),
                case.line,
                case.spec.join(",")
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
        eprintln!("{} instance(s) of {} case(s)", instances.len(), heads.len());
    }
    ExitCode::Ok
}

/// What lists the cases: for the embedded suite alone, the heads the build
/// wrote (the whole cases are not decoded); else the heads of the cases
/// loaded, or the errors that stop them, as every subcommand says them.
fn heads_or_usage(source: &SourceArgs) -> Result<Vec<CaseHead>, ExitCode> {
    if source.cases.is_empty() && source.add_cases.is_empty() {
        return Ok(crate::case::embedded::embedded_heads());
    }
    let cases = load_or_usage(source)?;
    Ok(cases.iter().map(CaseHead::from).collect())
}
