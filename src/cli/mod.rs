//! The subcommands of `toolpath`, one file each, so `main.rs` only parses
//! and dispatches. Each file holds its request type (clap's derive on the
//! type itself: the flags, defaults and help text are the request's
//! fields) and one function that carries it out and returns the
//! [`ExitCode`], so every subcommand can be tested without a process.
//!
//! - [`run`]: the suite against the reference, an adapter or an MCP server
//!   (a plan run by [`crate::session::run`]);
//! - [`fuzz`]: random calls against the reference and an adapter (a plan
//!   run by [`crate::session::fuzz`]);
//! - [`list`], [`lint`]: the selection, and the cases' validity and coverage;
//! - [`compare`], [`certification`]: reports read back and compared or tabled;
//! - [`export`], [`new_adapter`], [`schemas`]: what the binary carries,
//!   written out;
//! - [`smoke`]: a dozen chosen instances that say whether a subject speaks
//!   the protocol and what to fix first (a run of [`run`]'s, read back);
//! - [`tools`]: an MCP server's tools and what its profile maps to them;
//!   [`call`]: one call of one of them, its answer as sent;
//! - [`clean`]: what dead runs left; [`serve`]: the reference over stdio.
//!
//! This module holds what several subcommands share: where cases come from
//! ([`SourceArgs`]), which instances are selected ([`SelectArgs`]), and
//! printing. `cli` is the top floor (ARCHITECTURE.md): it may import every
//! module; nothing imports it but `main.rs`.

pub mod call;
pub mod certification;
pub mod clean;
pub mod compare;
pub mod export;
pub mod fuzz;
pub mod lint;
pub mod list;
pub mod new_adapter;
pub mod run;
pub mod schemas;
pub mod serve;
pub mod smoke;
pub mod tools;

use std::path::PathBuf;

use clap::Args;

use crate::case::select::{Selection, Shard};
use crate::report::{ExitCode, Selected};
use toolpath_suite::case::raw::ToolSelector;
use toolpath_suite::case::{Case, CaseError};
use toolpath_suite::protocol::Tool;

pub use crate::session::deliver::{Format, print_out, render};

/// Where cases come from: the embedded suite, or directories replacing or
/// extending it.
#[derive(Debug, Clone, Default, Args)]
pub struct SourceArgs {
    /// Case directory to use instead of the embedded suite (repeatable).
    #[arg(long = "cases", value_name = "DIR")]
    pub cases: Vec<PathBuf>,
    /// Case directory to use in addition to the embedded suite (repeatable).
    #[arg(long = "add-cases", value_name = "DIR")]
    pub add_cases: Vec<PathBuf>,
}

/// Which instances: the cases, then filters on them.
#[derive(Debug, Clone, Default, Args)]
pub struct SelectArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Only instances whose id (or case id) matches this wildcard: `*`, `?`,
    /// `{a,b}` (spec SEARCH-9; repeatable).
    #[arg(long = "filter", value_name = "GLOB")]
    pub filter: Vec<String>,
    /// Only cases citing this requirement ID (repeatable).
    #[arg(long = "spec", value_name = "REQ")]
    pub spec: Vec<String>,
    /// Only cases with this tag (repeatable).
    #[arg(long = "tag", value_name = "TAG")]
    pub tag: Vec<String>,
    /// Only instances for this tool (repeatable); `search` is grep and
    /// ripgrep, as in the case files.
    #[arg(long = "tool", value_name = "TOOL", value_parser = tool_selector())]
    pub tool: Vec<ToolSelector>,
    /// Only this machine's share: K/N, by a stable hash of the instance id.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// `--tool`: a tool by the name a case file gives it (`search` for both
/// search tools), from the suite's own list of those names.
pub(crate) fn tool_selector() -> impl clap::builder::TypedValueParser<Value = ToolSelector> {
    use clap::builder::TypedValueParser;
    use strum::VariantArray;
    let names: Vec<&'static str> = ToolSelector::VARIANTS.iter().map(|t| t.name()).collect();
    clap::builder::PossibleValuesParser::new(names).map(|name| {
        *ToolSelector::VARIANTS
            .iter()
            .find(|t| t.name() == name)
            .expect("one of the possible values")
    })
}

impl SelectArgs {
    /// The tools `--tool` names, each once, in the suite's order.
    fn tools(&self) -> Vec<Tool> {
        let named: std::collections::BTreeSet<Tool> =
            self.tool.iter().flat_map(|t| t.tools()).collect();
        named.into_iter().collect()
    }

    /// The selection these arguments describe.
    /// What the report records of this selection (see [`Selected`]).
    pub fn selected(&self) -> Selected {
        let paths = |paths: &[std::path::PathBuf]| -> Vec<String> {
            paths.iter().map(|p| p.display().to_string()).collect()
        };
        Selected {
            tools: self.tool.iter().map(|t| t.name().to_owned()).collect(),
            filters: self.filter.clone(),
            specs: self.spec.clone(),
            tags: self.tag.clone(),
            shard: self.shard.map(|s| format!("{}/{}", s.index, s.count)),
            cases: paths(&self.source.cases),
            added_cases: paths(&self.source.add_cases),
        }
    }

    pub fn selection(&self) -> Selection {
        Selection {
            ids: self.filter.clone(),
            specs: self.spec.clone(),
            tags: self.tag.clone(),
            tools: self.tools(),
            shard: self.shard,
        }
    }
}

fn print_errors(errors: &[CaseError]) {
    for e in errors {
        eprintln!("{e}");
    }
    // A file has all its errors listed (toolpath_suite::case::validate).
    let files: std::collections::BTreeSet<_> = errors.iter().map(|e| &e.file).collect();
    eprintln!(
        "toolpath: {} error(s) in {} invalid case file(s)",
        errors.len(),
        files.len()
    );
}

/// Loads the cases; invalid ones are printed and make the caller stop.
pub fn load(source: &SourceArgs) -> Result<Vec<Case>, Vec<CaseError>> {
    let (mut cases, mut errors) = if source.cases.is_empty() {
        crate::case::embedded::load_embedded()
    } else {
        toolpath_suite::case::load::load(&source.cases)
    };
    if !source.add_cases.is_empty() {
        let (more, more_errors) = toolpath_suite::case::load::load(&source.add_cases);
        cases.extend(more);
        errors.extend(more_errors);
        errors.extend(toolpath_suite::case::load::duplicate_ids(&cases));
        errors.dedup();
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

/// Loads the cases, or says why not: [`ExitCode::Usage`].
fn load_or_usage(source: &SourceArgs) -> Result<Vec<Case>, ExitCode> {
    load(source).map_err(|errors| {
        print_errors(&errors);
        ExitCode::Usage
    })
}

/// Loads an MCP profile, or prints every mistake in it, each at its line
/// and column, and says [`ExitCode::Usage`].
pub(crate) fn load_profile(
    file: &std::path::Path,
) -> Result<crate::mcp::profile::Loaded, ExitCode> {
    crate::mcp::profile::Loaded::load(file).map_err(|errors| {
        for e in errors.iter() {
            eprintln!("{e}");
        }
        eprintln!(
            "toolpath: {} error(s) in the MCP profile {}",
            errors.len(),
            file.display()
        );
        ExitCode::Usage
    })
}

/// Says `message` and returns [`ExitCode::Usage`].
fn usage(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("toolpath: {message}");
    ExitCode::Usage
}
