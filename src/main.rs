//! The `toolpath` command: argument parsing and dispatch only; each
//! subcommand is a request type and a function in `toolpath::cli`.

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};

use toolpath::cli;

/// Conformance suite for how AI coding-agent tools handle path parameters.
///
/// Exit codes of `run`: 0 every case as expected; 1 unexpected results
/// (fail, adapter error, unbuildable case, or an xfail that passed under
/// --strict); 2 bad usage or invalid cases; 3 partial run (the adapter could
/// not be started or was given up on); 4 a report could not be written; 5
/// nothing was judged (every instance unsupported, skipped or not run);
/// 130/143 cancelled by SIGINT/SIGTERM (reports written, marked partial).
#[derive(Parser)]
#[command(name = "toolpath", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the suite against the built-in reference, or an adapter with --adapter.
    Run(Box<cli::run::RunRequest>),
    /// A dozen chosen instances, in seconds: does the adapter or MCP server speak the protocol, and what to fix first.
    ///
    /// Exit 0 it speaks the protocol (wrong answers are listed; `toolpath
    /// run` judges conformance); 1 it does not, or declares none of the
    /// tools asked; 2 bad usage.
    Smoke(cli::smoke::SmokeRequest),
    /// Start an MCP server from its profile and print its tools, their parameters and the suite tool the profile maps to each.
    ///
    /// Exit 0 listed; 1 the server did not start or list its tools; 2 bad
    /// usage or an invalid profile.
    Tools(cli::tools::ToolsRequest),
    /// Start an MCP server from its profile, call one of its tools with the JSON arguments given, and print the answer as sent and the text the profile's result rules read.
    ///
    /// For writing a profile's result rules. Exit 0 it answered (an error
    /// answer too); 1 it did not start or answer; 2 bad usage, an invalid
    /// profile or a tool the server does not list.
    Call(cli::call::CallRequest),
    /// Serve the reference implementation as a stdio adapter.
    Serve,
    /// Random workspaces and calls against the reference and an adapter; each divergence is shrunk and written as a case file.
    Fuzz(cli::fuzz::FuzzRequest),
    /// Print the selected case instances.
    List(cli::list::ListRequest),
    /// Check every case (schema, ids, requirement IDs, tags, fixture paths) and print spec coverage.
    ///
    /// Exit 2 on an invalid case. A coverage gap (a requirement not pinned
    /// through every tool it applies to) is exit 2 for the embedded suite,
    /// and only listed for `--cases DIR` unless --require-coverage is given.
    Lint(cli::lint::LintRequest),
    /// Compare two JSON reports: what got fixed and what broke.
    Compare(cli::compare::CompareRequest),
    /// Write the certification table (implementation x requirement area) from JSON reports.
    ///
    /// `--format html` writes one self-contained page instead: requirements
    /// by implementation, each cell coloured and counted, its failing
    /// instances and their diffs shown on a click.
    Certification(cli::certification::CertificationRequest),
    /// Write the embedded suite (cases, spec, protocol, schemas, VERSION) into DIR, for ports that do not use Rust.
    Export(cli::export::ExportRequest),
    /// Write a skeleton adapter into DIR that runs against the suite at once.
    NewAdapter(cli::new_adapter::NewAdapterRequest),
    /// Remove the temporary directories and processes left by runs that died (never a live run's).
    Clean(cli::clean::CleanRequest),
    /// Write the JSON Schemas (case, protocol messages, report, expectations) into DIR, or check them.
    Schemas(cli::schemas::SchemasRequest),
}

fn main() -> std::process::ExitCode {
    let code = match Cli::parse().command {
        Command::Run(request) => cli::run::run(*request),
        Command::Smoke(request) => cli::smoke::smoke(request),
        Command::Tools(request) => cli::tools::tools(request),
        Command::Call(request) => cli::call::call(request),
        Command::Serve => cli::serve::serve(),
        Command::Fuzz(request) => cli::fuzz::fuzz(request),
        Command::List(request) => cli::list::list(request),
        Command::Lint(request) => cli::lint::lint(request),
        Command::Compare(request) => cli::compare::compare(request),
        Command::Certification(request) => cli::certification::certification(request),
        Command::Export(request) => cli::export::export(request),
        Command::NewAdapter(request) => cli::new_adapter::new_adapter(request),
        Command::Clean(request) => cli::clean::clean(request),
        Command::Schemas(request) => cli::schemas::schemas(request),
    };
    code.into()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// What a value may be called in `--help`: what it is, not the name of
    /// its option (clap's default, `--expectations <EXPECTATIONS>`).
    const VALUE_NAMES: &[&str] = &[
        "COMMAND", "DIR", "DURATION", "FILE", "FORMAT", "GLOB", "JSON", "K/N", "LANG", "MS", "N",
        "NEW", "OLD", "PROFILE", "REASON", "REPORT", "REQ", "TAG", "TOOL",
    ];

    /// Every option that takes a value names it by what it is
    /// (`--expectations <FILE>`), and every argument of every subcommand
    /// says what it is.
    #[test]
    fn every_option_names_its_value_and_every_argument_has_help() {
        let cli = super::Cli::command();
        for sub in cli.get_subcommands() {
            for arg in sub.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                assert!(
                    arg.get_help().is_some(),
                    "toolpath {} {id}: no help",
                    sub.get_name()
                );
                if arg.get_action().takes_values() {
                    let names = arg.get_value_names().unwrap_or_default();
                    assert!(
                        names.len() == 1 && VALUE_NAMES.contains(&names[0].as_str()),
                        "toolpath {} {id}: value named {names:?}, not one of {VALUE_NAMES:?}",
                        sub.get_name()
                    );
                }
            }
        }
    }

    /// `--tool search` selects both search tools, as `tool: search` does in
    /// a case file.
    #[test]
    fn tool_search_is_grep_and_ripgrep() {
        use clap::Parser;
        let cli =
            super::Cli::try_parse_from(["toolpath", "list", "--tool", "search", "--tool", "grep"])
                .unwrap();
        let super::Command::List(request) = cli.command else {
            panic!("not list")
        };
        assert_eq!(
            request.select.selection().tools,
            [
                toolpath_suite::protocol::Tool::Grep,
                toolpath_suite::protocol::Tool::Ripgrep
            ]
        );
    }
}
