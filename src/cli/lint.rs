//! `toolpath lint`: the validity of every case (exit 2 on an invalid one)
//! and spec coverage (exit 2 on a gap, for the embedded suite only); with
//! `--mcp PROFILE`, the validity of an MCP profile instead, without
//! starting its server.

use std::fmt::Write as _;

use clap::Args;

use crate::case::coverage::RuleCoverage;
use crate::cli::{SourceArgs, load_or_usage, print_out};
use crate::report::ExitCode;

/// `toolpath lint`.
#[derive(Debug, Clone, Args)]
pub struct LintRequest {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Fail on a coverage gap also when --cases replaces the embedded suite.
    #[arg(long)]
    pub require_coverage: bool,
    /// Check this MCP profile (docs/mcp.md) instead of the cases: every
    /// mistake at its line and column; the server is not started.
    #[arg(long, value_name = "PROFILE", conflicts_with_all = ["cases", "add_cases", "require_coverage"])]
    pub mcp: Option<std::path::PathBuf>,
}

/// `toolpath lint`.
pub fn lint(request: LintRequest) -> ExitCode {
    if let Some(file) = &request.mcp {
        return lint_profile(file);
    }
    let source = &request.source;
    let cases = match load_or_usage(source) {
        Ok(cases) => cases,
        Err(code) => return code,
    };
    let requirements = toolpath_suite::spec::requirements();
    let coverage = crate::case::coverage::coverage(requirements, &cases);
    // Built whole and written once: a reader that stops early (`| head`)
    // is not an error.
    let mut out = String::new();
    per_tool(&mut out, &coverage);
    per_shape(&mut out, &coverage);
    let instances: usize = cases.iter().map(|c| c.tools.len()).sum();
    let _ = writeln!(
        out,
        "{} cases ({instances} instances), {} requirements",
        cases.len(),
        requirements.len()
    );
    let gaps = crate::case::coverage::gaps(&coverage);
    if gaps.is_empty() {
        out += "every requirement is pinned through every tool it applies to, in every shape it asks for\n";
    }
    let _ = print_out(&out);
    if gaps.is_empty() {
        return ExitCode::Ok;
    }
    // Coverage is a property of the suite, not of a case: it is enforced
    // when the embedded suite is linted (with or without --add-cases), or
    // when asked. A directory of one's own cases (`--cases DIR`) is valid
    // without covering the spec; its gaps are listed, not failed.
    gaps_found(&gaps, source.cases.is_empty() || request.require_coverage)
}

/// The table of every requirement: how many cases cite it and how many
/// instances pin it through each tool.
fn per_tool(out: &mut String, coverage: &[RuleCoverage]) {
    let _ = writeln!(
        out,
        "{:<10} {:>5}  {:<40} requirement",
        "id", "cases", "instances per tool"
    );
    for rule in coverage {
        let tools: Vec<String> = rule
            .per_tool
            .iter()
            .map(|(t, n)| format!("{t}:{n}"))
            .collect();
        let _ = writeln!(
            out,
            "{:<10} {:>5}  {:<40} {}",
            rule.requirement.id,
            rule.cases,
            tools.join(" "),
            rule.requirement.summary
        );
    }
}

/// The shapes of the rules that ask for them (spec "Which tools a rule
/// applies to": `Shapes:`): how many instances pin each form and root.
/// Nothing when no rule asks.
fn per_shape(out: &mut String, coverage: &[RuleCoverage]) {
    let shaped: Vec<_> = coverage
        .iter()
        .filter(|r| !r.requirement.shapes.is_empty())
        .collect();
    if shaped.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{:<10} instances per path shape", "id");
    for rule in shaped {
        let forms = rule
            .per_form
            .iter()
            .map(|(f, n)| format!("{}:{n}", f.name()));
        let roots = rule
            .per_root
            .iter()
            .map(|(p, n)| format!("{}:{n}", p.name().replace(' ', "-")));
        let counts: Vec<String> = forms.chain(roots).collect();
        let _ = writeln!(
            out,
            "{:<10} {}  (asks: {})",
            rule.requirement.id,
            counts.join(" "),
            rule.requirement.shapes.join(", ")
        );
    }
    out.push('\n');
}

/// The requirements without a case for a tool or shape they need: a
/// failure (exit 2) where coverage is `enforced`, else listed beside
/// the cases' validity.
fn gaps_found(gaps: &[String], enforced: bool) -> ExitCode {
    let gaps = gaps.join(", ");
    if enforced {
        eprintln!(
            "toolpath: requirements without a case for a tool they apply to or a shape they ask for (RULE@tool, RULE@tool.form.root): {gaps}"
        );
        ExitCode::Usage
    } else {
        eprintln!(
            "toolpath: every case is valid; coverage is not enforced for --cases \
             without --require-coverage (requirements these cases do not pin, RULE@tool: {gaps})"
        );
        ExitCode::Ok
    }
}

/// `toolpath lint --mcp PROFILE`: the profile checked as `run --mcp`
/// checks it, and what it maps, one suite tool a line.
fn lint_profile(file: &std::path::Path) -> ExitCode {
    use crate::mcp::profile::ToolMap;
    let loaded = match crate::cli::load_profile(file) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut out = String::new();
    for (tool, map) in &loaded.profile.tools {
        let _ = match map {
            ToolMap::Tool(server) => writeln!(out, "{:<11} {}", tool.name(), server.tool),
            ToolMap::None(why) => writeln!(out, "{:<11} none: {why}", tool.name()),
        };
    }
    let _ = writeln!(
        out,
        "{}: a valid MCP profile (format {})",
        file.display(),
        crate::mcp::profile::PROFILE_VERSION
    );
    let _ = print_out(&out);
    ExitCode::Ok
}
