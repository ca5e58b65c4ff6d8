//! The subcommands of `toolpath`, as library functions returning exit codes,
//! so they can be tested without a process and `main.rs` stays a parser.

pub mod exit;
pub mod export;
pub mod schemas;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ValueEnum;

use crate::case::model::{Case, CaseError};
use crate::case::select::Selection;
use crate::harness::expectations::{self, Expectations};
use crate::harness::run::{RunConfig, SubjectFactory, UNPRIVILEGED_USER, is_root};
use crate::report::{CaseReport, Report};
use crate::subject::adapter::{Adapter, AdapterConfig, split_command};
use crate::subject::{Reference, Subject};

/// Where cases come from: the embedded suite, or directories replacing or
/// extending it.
#[derive(Debug, Clone, Default)]
pub struct Source {
    pub replace: Vec<PathBuf>,
    pub add: Vec<PathBuf>,
}

/// Report formats of `toolpath run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
    Junit,
    Markdown,
}

/// Everything `toolpath run` was asked to do.
#[derive(Debug, Clone)]
pub struct RunRequest {
    pub source: Source,
    pub selection: Selection,
    pub adapter: Option<String>,
    pub jobs: Option<usize>,
    pub timeout_ms: u64,
    pub hello_timeout_ms: u64,
    pub max_restarts: usize,
    pub formats: Vec<Format>,
    pub outputs: Vec<PathBuf>,
    pub keep_fixtures: bool,
    pub expectations: Option<PathBuf>,
    pub write_expectations: Option<PathBuf>,
    pub strict: bool,
    pub unprivileged: bool,
}

fn print_errors(errors: &[CaseError]) {
    for e in errors {
        eprintln!("{e}");
    }
    eprintln!("toolpath: {} invalid case file(s)", errors.len());
}

/// Loads the cases; invalid ones are printed and make the caller stop.
pub fn load(source: &Source) -> Result<Vec<Case>, Vec<CaseError>> {
    let (mut cases, mut errors) = if source.replace.is_empty() {
        crate::case::suite::load_embedded()
    } else {
        crate::case::suite::load(&source.replace)
    };
    if !source.add.is_empty() {
        let (more, more_errors) = crate::case::suite::load(&source.add);
        cases.extend(more);
        errors.extend(more_errors);
        errors.extend(crate::case::suite::duplicate_ids(&cases));
        errors.dedup();
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

fn usage(message: impl std::fmt::Display) -> i32 {
    eprintln!("toolpath: {message}");
    exit::USAGE
}

/// `toolpath run`.
pub fn run(request: RunRequest) -> i32 {
    let cases = match load(&request.source) {
        Ok(cases) => cases,
        Err(errors) => {
            print_errors(&errors);
            return exit::USAGE;
        }
    };
    let instances = request.selection.instances(&cases);
    if instances.is_empty() {
        return usage("no case matches the selection");
    }
    if request.outputs.len() > request.formats.len().max(1) {
        return usage("more --output than --format");
    }
    let expectations = match &request.expectations {
        Some(file) => match Expectations::load(file) {
            Ok(e) => e,
            Err(e) => return usage(e),
        },
        None => Expectations::default(),
    };
    let adapter_argv = match request.adapter.as_deref().map(split_command).transpose() {
        Ok(argv) => argv,
        Err(e) => return usage(e),
    };
    let adapter_tmp = match tempfile::Builder::new()
        .prefix("toolpath-adapter-")
        .tempdir()
    {
        Ok(dir) => dir,
        Err(e) => return usage(format!("cannot create a temporary directory: {e}")),
    };
    let config_for = |argv: Vec<String>, user: Option<(u32, u32)>, tmpdir: PathBuf| AdapterConfig {
        argv,
        call_timeout: Duration::from_millis(request.timeout_ms),
        hello_timeout: Duration::from_millis(request.hello_timeout_ms),
        max_restarts: request.max_restarts,
        user,
        tmpdir,
        suite_version: crate::SUITE_VERSION.to_owned(),
    };
    let unprivileged = if request.unprivileged && is_root() {
        unprivileged_tmpdir(adapter_tmp.path())
            .ok()
            .and_then(|tmp| {
                let argv = match &adapter_argv {
                    Some(argv) => argv.clone(),
                    None => vec![
                        std::env::current_exe().ok()?.display().to_string(),
                        "serve".into(),
                    ],
                };
                Some(config_for(argv, Some(UNPRIVILEGED_USER), tmp))
            })
    } else {
        None
    };
    let make: Box<SubjectFactory> = match &adapter_argv {
        None => Box::new(|| Ok(Box::new(Reference::default()) as Box<dyn Subject + Send>)),
        Some(argv) => {
            let config = config_for(argv.clone(), None, adapter_tmp.path().to_owned());
            Box::new(move || {
                Ok(Box::new(Adapter::start(config.clone())?) as Box<dyn Subject + Send>)
            })
        }
    };

    let total = instances.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let show_progress = std::io::stderr().is_terminal();
    let progress = |report: &CaseReport| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        if show_progress {
            eprint!(
                "\r\x1b[2K{}",
                crate::report::render::human::progress_line(n, total, report)
            );
            if n == total {
                eprint!("\r\x1b[2K");
            }
        }
    };
    let config = RunConfig {
        jobs: request
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        keep_fixtures: request.keep_fixtures,
        strict: request.strict,
        expectations,
        unprivileged,
        adapter_label: request.adapter.clone(),
        on_case: Some(&progress),
    };
    let report = match crate::harness::run::run(&instances, make.as_ref(), &config) {
        Ok(report) => report,
        Err(failure) => {
            eprintln!("toolpath: the adapter could not be started: {failure}");
            if !failure.stderr.is_empty() {
                eprintln!("--- adapter stderr ---\n{}", failure.stderr);
            }
            return exit::UNEXPECTED;
        }
    };

    if let Err(e) = write_reports(&report, &request.formats, &request.outputs) {
        return usage(e);
    }
    if let Some(file) = &request.write_expectations {
        let text = expectations::write_from(&report.cases, &config.expectations);
        if let Err(e) = std::fs::write(file, text) {
            return usage(format!("cannot write {}: {e}", file.display()));
        }
    }
    let mut code = report.exit_code();
    let ids: Vec<String> = report.cases.iter().map(|c| c.id.clone()).collect();
    let unused = config.expectations.unused(&ids);
    if !unused.is_empty() {
        eprintln!(
            "toolpath: expectations that match no selected case: {}",
            unused.join(", ")
        );
        if request.strict && code == exit::OK && request.selection.is_everything() {
            code = exit::UNEXPECTED;
        }
    }
    code
}

/// A temporary directory the unprivileged runner can write to.
fn unprivileged_tmpdir(parent: &Path) -> std::io::Result<PathBuf> {
    let dir = parent.join("unprivileged");
    std::fs::create_dir_all(&dir)?;
    std::os::unix::fs::chown(&dir, Some(UNPRIVILEGED_USER.0), Some(UNPRIVILEGED_USER.1))?;
    // The parent is private to root; let others through to reach `dir`.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o711))?;
    Ok(dir)
}

/// Renders `report` in one format.
pub fn render(report: &Report, format: Format, color: bool) -> String {
    match format {
        Format::Json => serde_json::to_string_pretty(report).expect("reports serialise") + "\n",
        Format::Human => crate::report::render::human::render(report, color),
        Format::Junit => crate::report::render::junit::render(report),
        Format::Markdown => crate::report::render::markdown::render(report),
    }
}

fn write_reports(report: &Report, formats: &[Format], outputs: &[PathBuf]) -> Result<(), String> {
    let formats = if formats.is_empty() {
        &[Format::Human][..]
    } else {
        formats
    };
    let mut to_stdout = 0;
    for (i, format) in formats.iter().enumerate() {
        let target = outputs.get(i).filter(|p| p.as_os_str() != "-");
        match target {
            Some(path) => {
                let text = render(report, *format, false);
                std::fs::write(path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            None => {
                to_stdout += 1;
                if to_stdout > 1 {
                    return Err(
                        "only one --format may go to stdout; give the others an --output".into(),
                    );
                }
                let color = *format == Format::Human && std::io::stdout().is_terminal();
                let text = render(report, *format, color);
                let mut stdout = std::io::stdout().lock();
                stdout
                    .write_all(text.as_bytes())
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

/// `toolpath serve`.
pub fn serve() -> i32 {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match crate::subject::serve::serve(stdin, stdout) {
        Ok(()) => exit::OK,
        Err(e) => {
            eprintln!("toolpath serve: {e}");
            exit::UNEXPECTED
        }
    }
}

/// `toolpath list`.
pub fn list(source: &Source, selection: &Selection, json: bool) -> i32 {
    let cases = match load(source) {
        Ok(cases) => cases,
        Err(errors) => {
            print_errors(&errors);
            return exit::USAGE;
        }
    };
    let instances = selection.instances(&cases);
    if json {
        let items: Vec<serde_json::Value> = instances
            .iter()
            .map(|i| {
                serde_json::json!({
                    "id": i.id(), "case": i.case.id, "tool": i.tool, "file": i.case.file.display().to_string(),
                    "line": i.case.line, "spec": i.case.spec, "tags": i.case.tags, "summary": i.case.summary,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&items).expect("serialises")
        );
    } else {
        for i in &instances {
            println!(
                "{}\t{}:{}\t{}",
                i.id(),
                i.case.file.display(),
                i.case.line,
                i.case.spec.join(",")
            );
        }
        eprintln!("{} instance(s) of {} case(s)", instances.len(), cases.len());
    }
    exit::OK
}

/// `toolpath lint`: validity of every case and spec coverage.
pub fn lint(source: &Source) -> i32 {
    let cases = match load(source) {
        Ok(cases) => cases,
        Err(errors) => {
            print_errors(&errors);
            return exit::USAGE;
        }
    };
    let requirements = crate::spec::requirements();
    let coverage = crate::case::coverage::coverage(&requirements, &cases);
    println!(
        "{:<10} {:>5}  {:<40} requirement",
        "id", "cases", "instances per tool"
    );
    for rule in &coverage {
        let tools: Vec<String> = rule
            .per_tool
            .iter()
            .map(|(t, n)| format!("{t}:{n}"))
            .collect();
        println!(
            "{:<10} {:>5}  {:<40} {}",
            rule.requirement.id,
            rule.cases,
            tools.join(" "),
            rule.requirement.summary
        );
    }
    let instances: usize = cases.iter().map(|c| c.tools.len()).sum();
    println!(
        "{} cases ({instances} instances), {} requirements",
        cases.len(),
        requirements.len()
    );
    let gaps = crate::case::coverage::gaps(&coverage);
    if gaps.is_empty() {
        println!("every requirement is pinned through every tool it applies to");
        exit::OK
    } else {
        eprintln!(
            "toolpath: requirements without a case for a tool they apply to (RULE@tool): {}",
            gaps.join(", ")
        );
        exit::USAGE
    }
}

fn read_report(path: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a toolpath JSON report: {e}", path.display()))
}

/// `toolpath compare OLD NEW`: exit 1 when something that passed broke.
pub fn compare(old: &Path, new: &Path) -> i32 {
    let (old, new) = match (read_report(old), read_report(new)) {
        (Ok(o), Ok(n)) => (o, n),
        (Err(e), _) | (_, Err(e)) => return usage(e),
    };
    let comparison = crate::report::render::compare::compare(&old, &new);
    print!("{}", crate::report::render::compare::render(&comparison));
    if comparison.broke_anything() {
        exit::UNEXPECTED
    } else {
        exit::OK
    }
}

/// `toolpath certification REPORT...`: the implementation x area table.
pub fn certification(reports: &[PathBuf], output: Option<&Path>) -> i32 {
    if reports.is_empty() {
        return usage("give at least one JSON report");
    }
    let mut loaded = Vec::new();
    for path in reports {
        match read_report(path) {
            Ok(r) => loaded.push(r),
            Err(e) => return usage(e),
        }
    }
    let table = crate::report::render::certification::table(&loaded);
    match output {
        Some(path) => match std::fs::write(path, table) {
            Ok(()) => exit::OK,
            Err(e) => usage(format!("cannot write {}: {e}", path.display())),
        },
        None => {
            print!("{table}");
            exit::OK
        }
    }
}

/// `toolpath schemas DIR [--check]`.
pub fn schemas(dir: &Path, check: bool) -> i32 {
    let mut stale = Vec::new();
    for (name, text) in crate::cli::schemas::all() {
        let path = dir.join(name);
        if check {
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
        exit::OK
    } else {
        eprintln!(
            "toolpath: stale schemas (regenerate with `toolpath schemas {}`): {}",
            dir.display(),
            stale.join(", ")
        );
        exit::UNEXPECTED
    }
}

/// `toolpath export DIR`.
pub fn export(dir: &Path) -> i32 {
    let files = crate::cli::export::suite_files();
    match crate::cli::export::write_all(dir, &files) {
        Ok(()) => {
            eprintln!(
                "toolpath: wrote suite {} ({} files) to {}",
                crate::SUITE_VERSION,
                files.len(),
                dir.display()
            );
            exit::OK
        }
        Err(e) => usage(e),
    }
}

/// `toolpath new-adapter --lang LANG DIR`.
pub fn new_adapter(lang: crate::cli::export::Lang, dir: &Path) -> i32 {
    let (files, command) = crate::cli::export::skeleton(lang);
    match crate::cli::export::write_all(dir, &files) {
        Ok(()) => {
            println!(
                "Wrote a skeleton adapter to {}. Run the suite against it:",
                dir.display()
            );
            println!(
                "  cd {} && toolpath run --adapter '{command}'",
                dir.display()
            );
            exit::OK
        }
        Err(e) => usage(e),
    }
}
