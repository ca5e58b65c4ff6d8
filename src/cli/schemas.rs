//! The published JSON Schemas, generated from the Rust types so they cannot
//! disagree with what the harness accepts. `toolpath schemas spec` writes
//! them; a test fails when the committed files are stale.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

fn draft07<T: JsonSchema>() -> String {
    let schema = SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<T>();
    serde_json::to_string_pretty(&schema).expect("schemas serialise") + "\n"
}

/// Every schema as (path relative to `spec/`, contents).
pub fn all() -> Vec<(&'static str, String)> {
    vec![
        ("case.schema.json", draft07::<crate::case::raw::RawCase>()),
        (
            "schemas/harness-message.schema.json",
            draft07::<crate::protocol::HarnessMessage>(),
        ),
        (
            "schemas/adapter-message.schema.json",
            draft07::<crate::protocol::AdapterMessage>(),
        ),
        (
            "schemas/report.schema.json",
            draft07::<crate::report::Report>(),
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
