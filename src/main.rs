//! The `toolpath` command: argument parsing only; the work is in the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use toolpath::case::select::Shard;
use toolpath::cli;
use toolpath::protocol::Tool;

/// Conformance suite for how AI coding-agent tools handle path parameters.
///
/// Exit codes: 0 every case as expected; 1 unexpected results (fail, adapter
/// error, unbuildable case, or an xfail that passed under --strict); 2 bad
/// usage or invalid cases; 3 partial run (the adapter could not be started or
/// was given up on); 4 a report could not be written; 130/143 cancelled by
/// SIGINT/SIGTERM (reports written, marked partial); 5
/// nothing was judged (every instance unsupported, skipped or not run).
#[derive(Parser)]
#[command(name = "toolpath", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the suite against the built-in reference, or an adapter with --adapter.
    Run(Box<RunArgs>),
    /// Serve the reference implementation as a stdio adapter.
    Serve,
    /// Random workspaces and calls against the reference and an adapter; each divergence is shrunk and written as a case file.
    Fuzz(FuzzArgs),
    /// Print the selected case instances.
    List {
        #[command(flatten)]
        select: SelectArgs,
        #[arg(long, value_enum, default_value = "human")]
        format: ListFormat,
    },
    /// Check every case (schema, ids, requirement IDs, tags, fixture paths) and print spec coverage.
    ///
    /// Exit 2 on an invalid case. A coverage gap (a requirement not pinned
    /// through every tool it applies to) is exit 2 for the embedded suite,
    /// and only listed for `--cases DIR` unless --require-coverage is given.
    Lint {
        #[command(flatten)]
        source: SourceArgs,
        /// Fail on a coverage gap also when --cases replaces the embedded suite.
        #[arg(long)]
        require_coverage: bool,
    },
    /// Compare two JSON reports: what got fixed and what broke.
    Compare { old: PathBuf, new: PathBuf },
    /// Write the certification table (implementation x requirement area) from JSON reports.
    ///
    /// `--format html` writes one self-contained page instead: requirements
    /// by implementation, each cell coloured and counted, its failing
    /// instances and their diffs shown on a click.
    Certification {
        reports: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "markdown")]
        format: toolpath::cli::CertificationFormat,
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Write the embedded suite (cases, spec, protocol, schemas, VERSION) into DIR, for ports that do not use Rust.
    Export { dir: PathBuf },
    /// Write a skeleton adapter into DIR that runs against the suite at once.
    NewAdapter {
        #[arg(long, value_enum)]
        lang: toolpath::cli::export::Lang,
        dir: PathBuf,
    },
    /// Remove the temporary directories and processes left by runs that died (never a live run's).
    Clean,
    /// Write the JSON Schemas (case, protocol messages, report, expectations) into DIR, or check them.
    Schemas {
        dir: PathBuf,
        /// Fail if the files in DIR differ from what this build generates.
        #[arg(long)]
        check: bool,
    },
}

#[derive(Args, Clone, Default)]
struct SourceArgs {
    /// Case directory to use instead of the embedded suite (repeatable).
    #[arg(long = "cases", value_name = "DIR")]
    cases: Vec<PathBuf>,
    /// Case directory to use in addition to the embedded suite (repeatable).
    #[arg(long = "add-cases", value_name = "DIR")]
    add_cases: Vec<PathBuf>,
}

#[derive(Args, Clone, Default)]
struct SelectArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// Only instances whose id (or case id) matches this wildcard: `*`, `?`,
    /// `{a,b}` (spec SEARCH-9; repeatable).
    #[arg(long = "filter", value_name = "GLOB")]
    filter: Vec<String>,
    /// Only cases citing this requirement ID (repeatable).
    #[arg(long = "spec", value_name = "REQ")]
    spec: Vec<String>,
    /// Only cases with this tag (repeatable).
    #[arg(long = "tag")]
    tag: Vec<String>,
    /// Only instances for this tool (repeatable).
    #[arg(long = "tool", value_enum)]
    tool: Vec<ToolArg>,
    /// Only this machine's share: K/N, by a stable hash of the instance id.
    #[arg(long)]
    shard: Option<Shard>,
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    select: SelectArgs,
    /// The adapter command (split on white space, quotes group); without it, the built-in reference runs in-process.
    #[arg(long)]
    adapter: Option<String>,
    /// Parallel workers (each with its own adapter process); default: the number of CPUs.
    #[arg(long)]
    jobs: Option<usize>,
    /// How long one call may take before the adapter counts as hung.
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// How long the adapter may take to answer `hello`.
    #[arg(long, default_value_t = 30_000)]
    hello_timeout_ms: u64,
    /// Restarts after crashes or hangs before the run is given up as partial.
    #[arg(long, default_value_t = 5)]
    max_restarts: usize,
    /// Report format (repeatable; pair each with an --output, in order; one may go to stdout).
    #[arg(long = "format", value_enum)]
    format: Vec<cli::Format>,
    /// Where the format at the same position goes; `-` is stdout.
    #[arg(long = "output", value_name = "FILE")]
    output: Vec<PathBuf>,
    /// Leave the workspace of each case that did not pass on disk, and print where.
    #[arg(long)]
    keep_fixtures: bool,
    /// Expected failures and skips for this adapter (YAML).
    #[arg(long)]
    expectations: Option<PathBuf>,
    /// Write an expectations file that marks every current failure xfail.
    #[arg(long)]
    write_expectations: Option<PathBuf>,
    /// Fail the run when an expected failure passes (xpass) or an expectation matches nothing.
    #[arg(long)]
    strict: bool,
    /// When root, skip permission cases instead of running them as user `nobody`.
    #[arg(long)]
    no_unprivileged: bool,
    /// Write each judged case to this JSON Lines event log as the run goes (default: beside the first --output that is a regular file, as FILE.events.jsonl; none when every output is a device or FIFO).
    #[arg(long, value_name = "FILE")]
    events: Option<PathBuf>,
    /// Build fixtures (and the run's temporary files) under DIR. Default:
    /// $TOOLPATH_FIXTURE_DIR, else /dev/shm when it is a writable tmpfs, else
    /// the system temporary directory. A tmpfs makes runs several times faster.
    #[arg(long, value_name = "DIR")]
    fixture_dir: Option<PathBuf>,
}

#[derive(Args)]
struct FuzzArgs {
    /// The adapter command (split on white space, quotes group).
    #[arg(long)]
    adapter: String,
    /// Seed of the run: the same seed generates the same inputs.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop after this many iterations (default 1000 unless --time is given).
    #[arg(long)]
    iterations: Option<u64>,
    /// Stop after this long (60s, 2m, 500ms).
    #[arg(long, value_parser = cli::fuzz::parse_duration)]
    time: Option<std::time::Duration>,
    /// Parallel workers (each with its own adapter process); default: the number of CPUs.
    #[arg(long)]
    jobs: Option<usize>,
    /// Where findings are written, one case file per distinct finding.
    #[arg(long, default_value = "fuzz-findings")]
    findings: PathBuf,
    /// The adapter's expectations file: divergences on the rules it lists are known, not reported.
    #[arg(long)]
    expectations: Option<PathBuf>,
    /// Stop once this many new findings are written.
    #[arg(long)]
    max_findings: Option<usize>,
    /// How long shrinking one finding may take (an adapter that hangs costs a timeout per try).
    #[arg(long, value_parser = cli::fuzz::parse_duration, default_value = "60s")]
    shrink_time: std::time::Duration,
    /// How long one call may take before the adapter counts as hung (a finding).
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// How long the adapter may take to answer `hello`.
    #[arg(long, default_value_t = 30_000)]
    hello_timeout_ms: u64,
}

#[derive(Clone, Copy, ValueEnum)]
enum ToolArg {
    Resolve,
    Grep,
    Ripgrep,
    Shell,
    Glob,
    Ls,
}

impl From<ToolArg> for Tool {
    fn from(t: ToolArg) -> Tool {
        match t {
            ToolArg::Resolve => Tool::Resolve,
            ToolArg::Grep => Tool::Grep,
            ToolArg::Ripgrep => Tool::Ripgrep,
            ToolArg::Shell => Tool::Shell,
            ToolArg::Glob => Tool::Glob,
            ToolArg::Ls => Tool::Ls,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum ListFormat {
    Human,
    Json,
}

impl SourceArgs {
    fn into_source(self) -> cli::Source {
        cli::Source {
            replace: self.cases,
            add: self.add_cases,
        }
    }
}

impl SelectArgs {
    fn split(self) -> (cli::Source, toolpath::case::select::Selection) {
        let selection = toolpath::case::select::Selection {
            ids: self.filter,
            specs: self.spec,
            tags: self.tag,
            tools: self.tool.into_iter().map(Tool::from).collect(),
            shard: self.shard,
        };
        (self.source.into_source(), selection)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Run(args) => {
            let (source, selection) = args.select.split();
            cli::run(cli::RunRequest {
                source,
                selection,
                adapter: args.adapter,
                jobs: args.jobs,
                timeout_ms: args.timeout_ms,
                hello_timeout_ms: args.hello_timeout_ms,
                max_restarts: args.max_restarts,
                formats: args.format,
                outputs: args.output,
                keep_fixtures: args.keep_fixtures,
                expectations: args.expectations,
                write_expectations: args.write_expectations,
                strict: args.strict,
                unprivileged: !args.no_unprivileged,
                events: args.events,
                fixture_dir: args.fixture_dir,
            })
        }
        Command::Serve => cli::serve(),
        Command::Fuzz(args) => cli::fuzz::fuzz(cli::fuzz::FuzzRequest {
            adapter: args.adapter,
            seed: args.seed,
            iterations: args.iterations,
            time: args.time,
            jobs: args.jobs,
            findings: args.findings,
            expectations: args.expectations,
            max_findings: args.max_findings,
            shrink_time: args.shrink_time,
            timeout_ms: args.timeout_ms,
            hello_timeout_ms: args.hello_timeout_ms,
        }),
        Command::List { select, format } => {
            let (source, selection) = select.split();
            cli::list(&source, &selection, matches!(format, ListFormat::Json))
        }
        Command::Lint {
            source,
            require_coverage,
        } => cli::lint(&source.into_source(), require_coverage),
        Command::Compare { old, new } => cli::compare(&old, &new),
        Command::Certification {
            reports,
            format,
            output,
        } => cli::certification(&reports, format, output.as_deref()),
        Command::Schemas { dir, check } => cli::schemas(&dir, check),
        Command::Clean => cli::clean(),
        Command::Export { dir } => cli::export(&dir),
        Command::NewAdapter { lang, dir } => cli::new_adapter(lang, &dir),
    };
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
