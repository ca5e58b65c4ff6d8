//! `toolpath schemas DIR [--check]`: the published JSON Schemas, generated
//! from the Rust types so they cannot disagree with what the harness
//! accepts. `toolpath schemas spec` writes them; a test fails when the
//! committed files are stale.

use std::path::PathBuf;

use clap::Args;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

use crate::cli::usage;
use crate::report::ExitCode;

/// `toolpath schemas`.
#[derive(Debug, Clone, Args)]
pub struct SchemasRequest {
    /// The directory of the schemas (spec/schemas in a checkout).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Fail if the files in DIR differ from what this build generates.
    #[arg(long)]
    pub check: bool,
}

/// `toolpath schemas DIR [--check]`: exit 1 when `--check` finds a stale file.
pub fn schemas(request: SchemasRequest) -> ExitCode {
    let dir = &request.dir;
    let mut stale = Vec::new();
    for (name, text) in all() {
        let path = dir.join(name);
        if request.check {
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(path.display().to_string());
            }
        } else {
            if let Some(parent) = path.parent()
                && let Err(e) = std::fs::create_dir_all(parent)
            {
                return usage(format!("cannot create {}: {e}", parent.display()));
            }
            if let Err(e) = std::fs::write(&path, text) {
                return usage(format!("cannot write {}: {e}", path.display()));
            }
        }
    }
    if stale.is_empty() {
        ExitCode::Ok
    } else {
        eprintln!(
            "toolpath: stale schemas (regenerate with `toolpath schemas {}`): {}",
            dir.display(),
            stale.join(", ")
        );
        ExitCode::Unexpected
    }
}

fn draft07<T: JsonSchema>() -> String {
    let schema = SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<T>();
    serde_json::to_string_pretty(&schema).expect("schemas serialise") + "\n"
}

/// Every schema as (path relative to `spec/`, contents).
pub fn all() -> Vec<(&'static str, String)> {
    vec![
        (
            "case.schema.json",
            draft07::<toolpath_suite::case::raw::RawCase>(),
        ),
        (
            "schemas/harness-message.schema.json",
            draft07::<toolpath_suite::protocol::HarnessMessage>(),
        ),
        (
            "schemas/adapter-message.schema.json",
            draft07::<toolpath_suite::protocol::AdapterMessage>(),
        ),
        (
            "schemas/report.schema.json",
            draft07::<crate::report::Report>(),
        ),
        (
            "schemas/mcp-profile.schema.json",
            draft07::<crate::mcp::profile::Profile>(),
        ),
        (
            "schemas/event.schema.json",
            draft07::<crate::report::events::Event>(),
        ),
        (
            "schemas/expectations.schema.json",
            draft07::<std::collections::BTreeMap<String, crate::harness::baseline::BaselineEntry>>(
            ),
        ),
    ]
}
