//! The runners under `runners/`, in CI without running every row's whole
//! suite (issue 33: that was 200 s of a 17-minute CI run):
//!
//! - the Python port passes the whole suite with no expectations file
//!   (one run), and its own unit tests;
//! - every runner row of `scripts/certify` passes `toolpath smoke`
//!   (`scripts/certify --smoke`): its setup installed it, it starts, it
//!   speaks the protocol and its answers are judged;
//! - the committed certification pages are fresh: made against today's
//!   suite and runner files (`scripts/certify --check`, which runs
//!   nothing), and a page goes stale when a case or a runner file changes
//!   (proved on pages made here, in a directory of their own);
//! - what each page says of its row (server-filesystem 0.6.2 shows its
//!   escapes, langchain holds containment, each row fails exactly its
//!   expectations) is asserted on the committed page, which the freshness
//!   check keeps a page of today's suite and runner.
//!
//! The npm packages and `rg` are installed by each runner's `setup.sh`
//! (`scripts/test` runs them). Without that setup these tests say so on
//! stderr and pass only when `TOOLPATH_REQUIRE_RUNNERS` is unset; CI sets it.
//! The Python port needs no setup and runs anyway.
//!
//! scripts/test-lanes: after the setup. The rows' adapters and servers are
//! what scripts/setup installs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What a runner's `setup.sh` leaves once it has installed the runner.
const SETUP_MARKERS: [&str; 2] = [
    "node_modules/.toolpath-lock.sha256",
    "venv/.toolpath-requirements.sha256",
];

/// Whether a row's runner is set up (a row with no `setup.sh` needs
/// none); if not, either fail (CI) or say loudly that the test did not run.
fn ready(row: &str) -> bool {
    let dir = root().join("runners").join(row);
    if !dir.join("setup.sh").exists() || SETUP_MARKERS.iter().any(|m| dir.join(m).exists()) {
        return true;
    }
    let message =
        format!("runners/{row} is not set up (run runners/{row}/setup.sh or scripts/test)");
    assert!(
        std::env::var_os("TOOLPATH_REQUIRE_RUNNERS").is_none(),
        "{message}"
    );
    eprintln!("SKIPPED: {message}");
    false
}

/// `scripts/certify ARGS` in `dir` (a checkout, or a copy of what it needs),
/// with the toolpath these tests built.
fn certify(dir: &Path, args: &[&str]) -> Output {
    Command::new("bash")
        .current_dir(dir)
        .arg("scripts/certify")
        .args(args)
        .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
        .output()
        .expect("bash runs")
}

fn said(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The rows of `scripts/certify`, in page order: its one list.
fn rows() -> Vec<String> {
    let out = certify(root(), &["--rows"]);
    assert!(out.status.success(), "{}", said(&out));
    let rows: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(rows.len() >= 9, "{rows:?}");
    rows
}

/// A `toolpath run` in the checkout: (exit code, JSON report).
fn run(args: &[&str]) -> (i32, Value) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let json = dir.path().join("r.json");
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(root())
        .args(["run", "--format", "json", "--output"])
        .arg(&json)
        .args(args)
        .output()
        .expect("toolpath runs");
    let report = std::fs::read_to_string(&json)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| panic!("no JSON report from {args:?}:\n{}", said(&out)));
    (out.status.code().expect("an exit code"), report)
}

fn unexpected(report: &Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            !matches!(
                c["status"].as_str(),
                Some("pass" | "xfail" | "unsupported" | "skip")
            )
        })
        .map(|c| {
            format!(
                "{} {}: {}",
                c["status"],
                c["id"],
                c["reason"].as_str().or(c["diff"].as_str()).unwrap_or("")
            )
        })
        .collect()
}

#[test]
fn python_port_unit_tests_pass() {
    let out = Command::new("python3")
        .current_dir(root())
        .args([
            "-m",
            "unittest",
            "discover",
            "-s",
            "runners/python/tests",
            "-t",
            "runners/python",
        ])
        .output()
        .expect("python3 runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("\nOK"), "no unittest summary:\n{stderr}");
}

/// Its certification row's run (no expectations file), once: the whole
/// suite, every instance passes.
#[test]
fn python_port_passes_the_whole_suite_with_no_expectations() {
    let (code, report) = run(&[
        "--jobs",
        "2",
        "--adapter",
        "python3 runners/python/adapter.py",
    ]);
    assert_eq!(unexpected(&report), Vec::<String>::new());
    assert_eq!(code, 0);
    assert!(report["selection"].is_null(), "the whole suite: {report}");
    assert_eq!(
        report["summary"]["pass"], report["summary"]["total"],
        "every instance passes, none skipped"
    );
}

/// The Node runners' unit tests: common-node's shared translation, and
/// how the mastra-core and opencode adapters read their tools' answers
/// (pure functions and opencode's scripted model, no package needed).
#[test]
fn node_unit_tests_pass() {
    let out = Command::new("node")
        .current_dir(root())
        .args([
            "--test",
            "runners/common-node/",
            "runners/mastra-core/",
            "runners/opencode/",
        ])
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", said(&out));
    assert!(stdout.contains("# fail 0"), "{stdout}");
}

/// Every runner row of `scripts/certify` (all of them in CI), in a
/// `toolpath smoke` of its own subject: its setup installed it, it
/// starts, completes `hello`, answers each of the dozen instances with a
/// valid message and stays up (exit 0), and its answers are judged (the
/// table lists a judged status).
#[test]
fn every_runner_row_speaks_the_protocol_in_a_smoke() {
    let rows: Vec<String> = rows()
        .into_iter()
        .filter(|row| row != "reference" && ready(row))
        .collect();
    let reports = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut args = vec!["--smoke", "--reports", reports.path().to_str().unwrap()];
    args.extend(rows.iter().map(String::as_str));
    let out = certify(root(), &args);
    for row in &rows {
        let read = |ext: &str| {
            std::fs::read_to_string(reports.path().join(format!("{row}.smoke.{ext}")))
                .unwrap_or_else(|e| panic!("{row}: no smoke {ext} ({e}):\n{}", said(&out)))
        };
        let log = read("log");
        assert_eq!(read("exit").trim(), "0", "{row}:\n{log}");
        assert!(log.contains("smoke: speaks the protocol."), "{row}:\n{log}");
        let judged = log.lines().any(|line| {
            let status = line.split_whitespace().next().unwrap_or("");
            matches!(status, "pass" | "fail" | "unobserved")
        });
        assert!(judged, "{row}: no answer judged:\n{log}");
    }
    assert!(out.status.success(), "{}", said(&out));
}

/// The committed pages (every row's, the README table) were made against
/// today's suite and today's runner files: `scripts/certify --check`,
/// which runs nothing. A page left stale by a change to a case, the spec
/// or a runner fails here, naming the row and the command that
/// regenerates it.
#[test]
fn certification_pages_are_current() {
    let out = certify(root(), &["--check"]);
    assert!(out.status.success(), "{}", said(&out));
}

/// The README's first screen says how many implementations the page
/// holds, and shows the page's picture (scripts/page-picture, remade with
/// index.html): a row added to scripts/certify without the README's count
/// fails here.
#[test]
fn the_readme_counts_the_page_s_rows() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let count = regex::Regex::new(r"holds (\d+)\s+implementations")
        .unwrap()
        .captures(&readme)
        .expect("the README says how many implementations the page holds");
    assert_eq!(count[1].parse::<usize>().unwrap(), rows().len());
    assert!(readme.contains("(docs/certification/page.png)"));
    assert!(root().join("docs/certification/page.png").is_file());
}

/// Copies `from` (a directory of the checkout) to `to`, without what a
/// setup or a run leaves in it.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "__pycache__" || name == "node_modules" || name == "venv" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(&name));
        } else {
            std::fs::copy(entry.path(), to.join(&name)).unwrap();
        }
    }
}

/// Makes a page in `dir`: `toolpath run ARGS --format markdown --output PAGE`.
fn page(dir: &Path, page: &str, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(dir)
        .args(["run", "--format", "markdown", "--output", page])
        .args(args)
        .output()
        .expect("toolpath runs");
    assert!(out.status.success(), "{args:?}: {}", said(&out));
}

fn append(file: &Path, text: &str) {
    let mut all = std::fs::read_to_string(file).unwrap();
    all.push_str(text);
    std::fs::write(file, all).unwrap();
}

/// A directory of its own, as a checkout holds it: `scripts/certify`,
/// the Python port's runner, a page for the `python` and `reference` rows
/// made here (a few instances each: what is checked is the record, not
/// the verdicts), and two case files. The subject runs as the run's own user when
/// the tests run as root, so the directory is open to it.
fn scene() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::copy(
        root().join("scripts/certify"),
        dir.path().join("scripts/certify"),
    )
    .unwrap();
    copy_dir(
        &root().join("runners/python"),
        &dir.path().join("runners/python"),
    );
    for case in ["resolve/dir-relative.yaml", "resolve/file-relative.yaml"] {
        let to = dir.path().join("cases").join(case);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join("cases").join(case), to).unwrap();
    }
    std::fs::create_dir_all(dir.path().join("docs/certification")).unwrap();
    let python = [
        "--filter",
        "resolve.dir.*",
        "--adapter",
        "python3 runners/python/adapter.py",
        "--runner-dir",
        "runners/python",
    ];
    page(dir.path(), "docs/certification/python.md", &python);
    page(
        dir.path(),
        "docs/certification/reference.md",
        &["--filter", "resolve.dir.*"],
    );
    dir
}

/// A row whose run does not end as expected (here an adapter that exits
/// before its hello) certifies nothing: `scripts/certify` exits 1, names
/// the row, and leaves its committed page as it was, however the row is
/// named (alone, or with `--all`).
#[test]
fn a_failed_row_leaves_its_committed_page_alone() {
    let scene = scene();
    let dir = scene.path();
    let page = dir.join("docs/certification/python.md");
    let before = std::fs::read_to_string(&page).unwrap();
    std::fs::write(
        dir.join("runners/python/adapter.py"),
        "import sys\nsys.exit(3)\n",
    )
    .unwrap();
    for args in [&["python"][..], &["--all", "python"]] {
        let out = certify(dir, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", said(&out));
        assert!(
            said(&out)
                .contains("python: the run did not end as expected; no page or table changed"),
            "{args:?}: {}",
            said(&out)
        );
        assert_eq!(std::fs::read_to_string(&page).unwrap(), before, "{args:?}");
    }
}

/// `scripts/certify --check` on pages made here: current, then stale
/// once a file of the Python port's runner changes (its code), naming the
/// row, what changed and the command; not when its README changes (prose,
/// no verdict), and not for the reference row (no runner). A page that
/// records other runner directories than the row's is stale too.
#[test]
fn a_page_goes_stale_when_its_runner_changes() {
    let scene = scene();
    let dir = scene.path();
    let check = || certify(dir, &["--check", "reference", "python"]);
    let out = check();
    assert!(out.status.success(), "{}", said(&out));

    append(&dir.join("runners/python/README.md"), "\nReworded.\n");
    let out = check();
    assert!(out.status.success(), "a README is prose: {}", said(&out));

    append(
        &dir.join("runners/python/toolpath_port/resolve.py"),
        "\n# changed\n",
    );
    let out = check();
    let text = said(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("docs/certification/python.md: stale: the runner changed (runners/python:"),
        "{text}"
    );
    assert!(
        text.contains("certify: stale: python; regenerate with: scripts/certify python"),
        "{text}"
    );
    assert!(!text.contains("reference.md"), "{text}");

    // The reference row's page, made with a runner it does not have.
    page(
        dir,
        "docs/certification/reference.md",
        &[
            "--filter",
            "resolve.dir.*",
            "--runner-dir",
            "runners/python",
        ],
    );
    let out = certify(dir, &["--check", "reference"]);
    let text = said(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("its runner directories are not row reference's (none)"),
        "{text}"
    );
}

/// `toolpath certification --check-fresh` on a page and a table made
/// here from a run of case files in a directory: current, then stale
/// once one case changes, naming the page, the table's row and that the
/// suite changed; a page that records nothing is stale.
#[test]
fn a_page_goes_stale_when_a_case_changes() {
    let scene = scene();
    let dir = scene.path();
    let python = [
        "--cases",
        "cases",
        "--adapter",
        "python3 runners/python/adapter.py",
        "--runner-dir",
        "runners/python",
    ];
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(dir)
        .args(["run", "--format", "markdown", "--output", "page.md"])
        .args(["--format", "json", "--output", "page.json"])
        .args(python)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", said(&out));
    let table = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(dir)
        .args(["certification", "page.json", "--output", "table.md"])
        .output()
        .unwrap();
    assert!(table.status.success(), "{}", said(&table));
    let check = |files: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_toolpath"))
            .current_dir(dir)
            .args(["certification", "--check-fresh", "--cases", "cases"])
            .args(files)
            .output()
            .unwrap()
    };
    let files = ["page.md", "page.json", "table.md"];
    let out = check(&files);
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("3 records fresh"), "{}", said(&out));

    append(&dir.join("cases/resolve/file-relative.yaml"), "# changed\n");
    let out = check(&files);
    let text = said(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("toolpath: page.md: stale: the suite changed (recorded sha256:"),
        "{text}"
    );
    assert!(
        text.contains("toolpath: table.md (toolpath-python-port 0.1.0 (python) *(only cases from cases)): stale: the suite changed"),
        "{text}"
    );
    assert!(text.contains("toolpath: 3 stale"), "{text}");
    assert!(!text.contains("runner changed"), "{text}");

    // The committed pages as they were before runs recorded anything.
    std::fs::write(dir.join("old.md"), "# toolpath certification: old\n").unwrap();
    let out = check(&["old.md"]);
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(
        said(&out).contains("old.md: records nothing it was run against"),
        "{}",
        said(&out)
    );
}

/// A report does not depend on how many workers made it, which lets
/// `scripts/certify` run each row at two: the reference (in-process) and
/// the Python port (an adapter process per worker) give the same Markdown
/// byte for byte at `--jobs 1` and `--jobs 2`, and the same JSON but for
/// what is measured (durations), where fixtures were built, and what the
/// subject wrote on standard error (its own log).
///
/// On a third of the suite (`--shard 1/3`), not all of it: a shard takes
/// instances by a hash of their id, so it holds every folder and tool of
/// the suite, and two workers interleave its ~700 instances as they would
/// the whole; what is proved (order and content do not depend on the
/// workers) does not grow with the count, and four whole-suite runs did.
#[test]
fn reports_are_the_same_at_one_and_two_workers() {
    fn measured_removed(value: &mut Value) {
        match value {
            Value::Object(fields) => {
                // `workers` is what differs by construction; `waited_ms`
                // is measured.
                for field in [
                    "duration_ms",
                    "waited_ms",
                    "workers",
                    "fixture_dir",
                    "stderr",
                ] {
                    fields.remove(field);
                }
                fields.values_mut().for_each(measured_removed);
            }
            Value::Array(items) => items.iter_mut().for_each(measured_removed),
            _ => {}
        }
    }
    let python = ["--adapter", "python3 runners/python/adapter.py"];
    for (name, subject) in [("reference", &[][..]), ("python", &python[..])] {
        let at = |jobs: &str| -> (String, Value) {
            let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
            let (json, markdown) = (dir.path().join("r.json"), dir.path().join("r.md"));
            let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
                .current_dir(root())
                .args(["run", "--shard", "1/3", "--jobs", jobs])
                .args(["--format", "json", "--output"])
                .arg(&json)
                .args(["--format", "markdown", "--output"])
                .arg(&markdown)
                .args(subject)
                .output()
                .expect("toolpath runs");
            assert!(out.status.success(), "{name} at --jobs {jobs}: {out:?}");
            let mut report: Value =
                serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
            measured_removed(&mut report);
            // The page's one line of time is shown, never compared.
            let page = std::fs::read_to_string(&markdown).unwrap();
            (toolpath::report::without_timing(&page), report)
        };
        let (one, two) = (at("1"), at("2"));
        assert!(one.0 == two.0, "{name}: the Markdown reports differ");
        assert!(one.1 == two.1, "{name}: the JSON reports differ");
        assert!(one.0.contains("## Requirements"), "{name}: {}", one.0);
        let total = one.1["summary"]["total"].as_u64().unwrap();
        assert!(total > 500, "{name}: only {total} instances in the shard");
    }
}

/// Each npm adapter declares unobservable, per tool, only what that tool's
/// own output cannot show (`unobservable_by_tool`): their write and edit
/// tools name the file they wrote, so FILE-4's `kind` and `path` are
/// checked for them; a read names no file, so for it they are not. An
/// adapter declaring `kind` and `path` for every tool, as both did, leaves
/// FILE-4 unobserved 12 out of 12. A run of FILE-4's instances
/// (`--spec FILE-4`, a few dozen) with each one's expectations, `--strict`.
#[test]
fn npm_adapters_judge_what_each_file_tool_shows() {
    let (suite, _) = toolpath::case::embedded::load_embedded();
    let expects_an_error: std::collections::BTreeSet<&str> = (suite.iter())
        .filter(|c| c.expect.outcome == toolpath_suite::case::raw::ExpectedOutcome::Error)
        .map(|c| c.id.as_str())
        .collect();
    for runner in ["gemini-cli-core", "qwen-code-core"] {
        if !ready(runner) {
            return;
        }
        let adapter = format!("node runners/{runner}/adapter.mjs");
        let expectations = format!("runners/{runner}/expectations.yaml");
        let (code, report) = run(&[
            "--spec",
            "FILE-4",
            "--jobs",
            "2",
            "--hello-timeout-ms",
            "180000",
            "--timeout-ms",
            "60000",
            "--adapter",
            &adapter,
            "--expectations",
            &expectations,
            "--strict",
        ]);
        assert_eq!(unexpected(&report), Vec::<String>::new(), "{runner}");
        assert_eq!(code, 0, "{runner}");
        let cases = report["cases"].as_array().unwrap();
        for case in cases {
            // An answer refused shows no kind or path to leave unchecked:
            // issue 32's matrices add FILE-4 reads a tool refuses, and
            // issue 45's cases FILE-4 reads the case itself expects
            // refused (`security.root-link.outside-read-file`).
            let refused = (case["diff"].as_str()).is_some_and(|d| d.contains("+outcome: error"));
            if refused || expects_an_error.contains(case["case"].as_str().unwrap()) {
                continue;
            }
            let writes = matches!(case["tool"].as_str(), Some("write_file" | "edit"));
            let unchecked: Vec<&str> = case["unchecked"]
                .as_array()
                .map(|u| u.iter().map(|f| f.as_str().unwrap()).collect())
                .unwrap_or_default();
            let seen = !unchecked.contains(&"kind") && !unchecked.contains(&"path");
            assert_eq!(seen, writes, "{runner}: {case}");
        }
        let judged = cases.iter().filter(|c| c["status"] == "pass").count();
        assert!(judged >= 4, "{runner}: only {judged} FILE-4 instances pass");
    }
}

/// A row's committed page (`docs/certification/ROW.md`), which
/// [`certification_pages_are_current`] keeps a page of today's suite and
/// runner.
struct Page {
    text: String,
}

impl Page {
    fn of(row: &str) -> Page {
        let file = root().join(format!("docs/certification/{row}.md"));
        Page {
            text: std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display())),
        }
    }

    /// The header line `- **NAME:** VALUE`'s value.
    fn fact(&self, name: &str) -> &str {
        let label = format!("- **{name}:** ");
        self.text
            .lines()
            .find_map(|line| line.strip_prefix(label.as_str()))
            .unwrap_or_else(|| panic!("no {name} line:\n{}", self.text))
    }

    /// The instance counts of its header, by name (`failed`, `adapter errors`).
    fn instances(&self) -> BTreeMap<String, u64> {
        let line = self.fact("Instances");
        let line = line.split(" (").next().unwrap();
        line.split(", ")
            .map(|part| {
                let (n, name) = part.split_once(' ').unwrap();
                (name.to_owned(), n.parse().unwrap())
            })
            .collect()
    }

    /// What a run under `--strict` ends with exit 0 on, as the page shows
    /// it: held to its expectations (strict), nothing failed, no adapter
    /// or case error, no expected failure passed, nothing left unrun, and
    /// something passed. Not observable is allowed (a field the profile
    /// composed, or the adapter declares unobservable, is never passed).
    fn assert_fails_exactly_its_expectations(&self) {
        let name = self.fact("Implementation");
        assert!(
            self.fact("Suite").contains(", strict)"),
            "{name}: not strict"
        );
        let counts = self.instances();
        for status in [
            "failed",
            "adapter errors",
            "case errors",
            "xpassed",
            "not run",
        ] {
            assert_eq!(counts[status], 0, "{name}: {status}: {counts:?}");
        }
        assert!(counts["passed"] > 0, "{name}: {counts:?}");
    }

    /// The escape count, after asserting that every escape is one its
    /// expectations list (the cell reads `N (N expected)`).
    fn escapes_all_expected(&self) -> u64 {
        let escapes = self.count("escapes");
        assert_eq!(
            self.containment()["escapes"],
            format!("{escapes} ({escapes} expected)"),
            "{}: every escape listed in its expectations",
            self.fact("Implementation")
        );
        escapes
    }

    /// Asserts at least one escape on each of `channels`.
    fn assert_escapes_on(&self, channels: &[&str]) {
        for channel in channels {
            assert!(
                self.count(channel) > 0,
                "{}: no {channel} escape: {:?}",
                self.fact("Implementation"),
                self.containment()
            );
        }
    }

    /// Whether the page says its adapter does not provide `tool`.
    fn lacks(&self, tool: &str) -> bool {
        self.text.contains(&format!(
            "the adapter does not provide the \\`{tool}\\` tool"
        ))
    }

    /// The containment row: each column's cell.
    fn containment(&self) -> BTreeMap<String, String> {
        let at = self
            .text
            .find("## Containment\n\n")
            .expect("a containment table");
        let mut lines = self.text[at..].lines().skip(2);
        let cells = |line: &str| -> Vec<String> {
            line.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        };
        let heads = cells(lines.next().unwrap());
        let values = cells(lines.nth(1).unwrap());
        heads.into_iter().zip(values).collect()
    }

    /// A containment count: the number its cell starts with.
    fn count(&self, column: &str) -> u64 {
        let cell = &self.containment()[column];
        cell.split(' ').next().unwrap().parse().unwrap()
    }

    /// The kinds of its server findings, with their counts (`never_answered ×2`).
    fn findings(&self) -> Vec<String> {
        let Some(at) = self.text.find("## Server findings\n\n") else {
            return Vec::new();
        };
        self.text[at..]
            .lines()
            .skip(2)
            .take_while(|line| line.starts_with("- **"))
            .map(|line| {
                let kind = line.trim_start_matches("- **").split(':').next().unwrap();
                kind.replace('\\', "")
            })
            .collect()
    }
}

/// Every row's committed page shows a run that ended as expected: a row
/// with an expectations file held to it under `--strict` (nothing failed
/// that it does not list, no expected failure passed), the others (the
/// reference, the Python port) with nothing failed at all; no adapter or
/// case error, nothing left unrun. With the pages' freshness, what a
/// whole-suite run of every row in CI asserted before (issue 33).
#[test]
fn every_committed_page_shows_its_run_ended_as_expected() {
    for row in rows() {
        let page = Page::of(&row);
        if root()
            .join(format!("runners/{row}/expectations.yaml"))
            .exists()
        {
            page.assert_fails_exactly_its_expectations();
        } else {
            let counts = page.instances();
            assert_eq!(counts["xfailed"], 0, "{row}: no expectations: {counts:?}");
            for status in ["failed", "adapter errors", "case errors", "not run"] {
                assert_eq!(counts[status], 0, "{row}: {status}: {counts:?}");
            }
        }
    }
}

/// @modelcontextprotocol/server-filesystem, certified from its profile
/// alone: its page shows a run that fails exactly what its expectations
/// file lists. It opens the FIFO of its two FIFO cases and blocks: the
/// harness releases it (spec/protocol.md) and it answers, so those cases
/// fail as blocked and leave no server finding; nothing else goes wrong
/// outside its answers, and it exits when its input closes (no `killed`).
#[test]
fn mcp_server_filesystem_fails_exactly_its_expectations() {
    let page = Page::of("mcp-server-filesystem");
    page.assert_fails_exactly_its_expectations();
    assert!(
        (page.fact("Implementation")).starts_with("@modelcontextprotocol/server-filesystem "),
        "{}",
        page.text
    );
    assert_eq!(page.findings(), Vec::<String>::new());
}

/// mcp-server-git (Python), certified from its profile alone: a server
/// per case (its one `--repository` is fixed at start), each root made a
/// repository first, which the page's findings say; it exits within the
/// grace once its input closes (not one killed: 47 were, at a grace of
/// one second).
#[test]
fn mcp_server_git_fails_exactly_its_expectations() {
    let page = Page::of("mcp-server-git");
    page.assert_fails_exactly_its_expectations();
    assert!(page.fact("Implementation").ends_with(" (python)"));
    let kinds: Vec<String> = page
        .findings()
        .iter()
        .map(|f| f.split(' ').next().unwrap().to_owned())
        .collect();
    assert_eq!(kinds, ["fixture_prepared"], "{}", page.text);
}

/// @wonderwhy-er/desktop-commander, certified from its profile alone on
/// its file tools (every other tool's relative paths each need a server
/// started in the case's directory, seconds apiece: docs/mcp.md), offline
/// (telemetry off, feature flags from an empty set), its allowed
/// directories set through its own tool. Nothing goes wrong outside its
/// answers (after a search it no longer exits when its input closes; no
/// file tool leaves it so).
#[test]
fn mcp_desktop_commander_fails_exactly_its_expectations() {
    let page = Page::of("mcp-desktop-commander");
    assert_eq!(
        page.fact("Selection"),
        "tools read\\_file, write\\_file, edit (part of the suite)",
        "its file tools only"
    );
    page.assert_fails_exactly_its_expectations();
    assert!(
        page.fact("Implementation")
            .starts_with("@wonderwhy-er/desktop-commander ")
    );
    assert_eq!(page.findings(), Vec::<String>::new());
    assert_eq!(
        page.count("escapes"),
        9,
        "its write_file follows a dangling link out (3), and a root named \
         in another case is taken for the root (6: read, write, edit)"
    );
}

/// langchain-community's file management toolkit (its `list_directory`,
/// `file_search`, `read_file` and `write_file`, built per call as
/// `FileManagementToolkit(root_dir=TARGET)`): its page fails exactly what
/// its expectations list, and nothing gets out (it checks every path's
/// real path against its one root). It answers the glob, ls, read and
/// write tools and no other (the page's "not exercised" rules say which
/// tools it lacks).
#[test]
fn langchain_community_fails_exactly_its_expectations_and_holds_containment() {
    let page = Page::of("langchain-community");
    page.assert_fails_exactly_its_expectations();
    assert!(
        page.fact("Implementation")
            .starts_with("langchain-community ")
    );
    assert_eq!(page.count("escapes"), 0, "{:?}", page.containment());
    assert!(page.count("refused") > 100, "{:?}", page.containment());
    for tool in ["grep", "ripgrep", "shell", "edit"] {
        assert!(page.lacks(tool), "{tool}");
    }
    for tool in ["glob", "ls", "read_file", "write_file"] {
        assert!(!page.lacks(tool), "{tool}");
    }
}

/// agno's CodingTools (built per call as `CodingTools(base_dir=TARGET,
/// all=True)`, restricted to its base directory by default): its page
/// fails exactly what its expectations list, and nothing gets out (every
/// path's real path is checked against its one base directory). It
/// answers grep, glob, ls and the file tools, and no shell (its
/// `run_shell` takes no directory).
#[test]
fn agno_coding_tools_fail_exactly_their_expectations_and_hold_containment() {
    let page = Page::of("agno");
    page.assert_fails_exactly_its_expectations();
    assert!(page.fact("Implementation").starts_with("agno "));
    assert_eq!(page.count("escapes"), 0, "{:?}", page.containment());
    assert!(page.count("refused") > 100, "{:?}", page.containment());
    assert!(page.lacks("shell"), "its run_shell takes no directory");
    for tool in ["grep", "glob", "ls", "read_file", "write_file", "edit"] {
        assert!(!page.lacks(tool), "{tool}");
    }
}

/// crewai-tools' file tools (`FileReadTool`, `FileWriterTool`,
/// `DirectoryReadTool`, built with their defaults in the case's target and
/// called as crewAI's agent executor calls a native tool call): its page
/// fails exactly what its expectations list, and nothing gets out (every
/// path's real path is checked against the working directory). Their one
/// sandbox is that directory, so a second root is refused (false
/// refusals), and they answer ls and the read and write tools, nothing
/// else (the package's search tools need an embedding model).
#[test]
fn crewai_tools_fail_exactly_their_expectations_and_hold_containment() {
    let page = Page::of("crewai-tools");
    page.assert_fails_exactly_its_expectations();
    assert!(page.fact("Implementation").starts_with("crewai-tools "));
    assert_eq!(page.count("escapes"), 0, "{:?}", page.containment());
    assert!(page.count("refused") > 100, "{:?}", page.containment());
    assert!(page.count("false refusals") > 0, "{:?}", page.containment());
    for tool in ["grep", "ripgrep", "glob", "shell", "edit"] {
        assert!(page.lacks(tool), "{tool}");
    }
    for tool in ["ls", "read_file", "write_file"] {
        assert!(!page.lacks(tool), "{tool}");
    }
}

/// strands-agents-tools' file_read, file_write, editor and shell (tools
/// with no workspace: a path is opened where it points, a relative one in
/// the target, the process's working directory). Its page fails exactly
/// what its expectations list, and shows what gets out: escapes on the
/// read, write and exec channels, every one listed in its expectations.
/// It answers grep and glob through file_read's modes, and has no ls.
#[test]
fn strands_agents_tools_show_their_escapes_on_every_channel_they_have() {
    let page = Page::of("strands-agents-tools");
    page.assert_fails_exactly_its_expectations();
    assert!(
        page.fact("Implementation")
            .starts_with("strands-agents-tools ")
    );
    let containment = page.containment();
    let escapes = page.escapes_all_expected();
    assert!(escapes >= 50, "{containment:?}");
    page.assert_escapes_on(&["read", "list", "exec", "write"]);
    assert!(page.lacks("ls"));
    for tool in ["grep", "glob", "shell", "read_file", "write_file", "edit"] {
        assert!(!page.lacks(tool), "{tool}");
    }
}

/// opencode-ai's own tools (grep, glob, bash, read, write, edit), run in
/// its agent loop through one long-lived `opencode serve` and a scripted
/// model: its page fails exactly what its expectations list, and shows
/// what gets out (its rule refuses `..` and absolute paths outside its
/// project directory, but a path through a link out is followed): escapes
/// on the read, list, exec and write channels, every one listed in its
/// expectations. It has no ls.
#[test]
fn opencode_shows_its_escapes_and_fails_exactly_its_expectations() {
    let page = Page::of("opencode");
    page.assert_fails_exactly_its_expectations();
    assert!(page.fact("Implementation").starts_with("opencode-ai "));
    let containment = page.containment();
    let escapes = page.escapes_all_expected();
    assert!(escapes >= 50, "{containment:?}");
    page.assert_escapes_on(&["read", "list", "exec", "write"]);
    assert!(page.count("refused") > 100, "{containment:?}");
    assert!(page.lacks("ls"));
    for tool in ["grep", "glob", "shell", "read_file", "write_file", "edit"] {
        assert!(!page.lacks(tool), "{tool}");
    }
}

/// @modelcontextprotocol/server-filesystem 0.6.2, the known-bad control:
/// the release before the 2025 fixes of its path check, certified from its
/// profile alone. Its page must show what gets out: escapes on the read,
/// list and write channels (a link out is followed once its target's
/// check fails over to its parent's; a sibling whose name starts with a
/// root's is taken for inside), every one listed in its expectations.
#[test]
fn mcp_server_filesystem_0_6_2_shows_its_escapes() {
    let page = Page::of("mcp-server-filesystem-0.6.2");
    page.assert_fails_exactly_its_expectations();
    assert!(page.fact("Implementation").contains(" 0.6.2 "));
    let containment = page.containment();
    let escapes = page.escapes_all_expected();
    assert!(escapes >= 50, "{containment:?}");
    page.assert_escapes_on(&["read", "list", "write"]);
}

/// The two agent frameworks with no containment (issue 33): @mastra/core's
/// workspace tools (its shell runs anywhere; other roots are never checked
/// for links) and hermes-agent's registry (every tool takes any path).
/// Their pages must show escapes on every channel, read, list, exec and
/// write, each listed in the row's expectations.
#[test]
fn the_frameworks_without_containment_show_escapes_on_every_channel() {
    for (row, implementation) in [
        ("mastra-core", "@mastra/core "),
        ("hermes-agent", "hermes-agent "),
    ] {
        let page = Page::of(row);
        page.assert_fails_exactly_its_expectations();
        assert!(
            page.fact("Implementation").starts_with(implementation),
            "{row}: {}",
            page.fact("Implementation")
        );
        let containment = page.containment();
        let escapes = page.count("escapes");
        assert_eq!(
            containment["escapes"],
            format!("{escapes} ({escapes} expected)"),
            "{row}: every escape listed in its expectations"
        );
        for channel in ["read", "list", "exec", "write"] {
            assert!(
                page.count(channel) > 0,
                "{row}: no {channel} escape: {containment:?}"
            );
        }
    }
}

/// OpenHands' tools (openhands-tools: grep, glob and the gemini file
/// tools, each executor built for the case's target) have no workspace
/// boundary: its page shows escapes on the read, list and write channels,
/// each listed in its expectations. It has no shell tool with a
/// directory, so nothing escapes by exec.
#[test]
fn openhands_tools_show_escapes_on_read_list_and_write() {
    let page = Page::of("openhands-tools");
    page.assert_fails_exactly_its_expectations();
    assert!(page.fact("Implementation").starts_with("openhands-tools "));
    page.escapes_all_expected();
    page.assert_escapes_on(&["read", "list", "write"]);
}

/// fast-filesystem-mcp, certified from its profile alone: its `--allow`
/// directories are matched as string prefixes of the path as given, links
/// never resolved, so its page shows escapes on the read, list and write
/// channels (a sibling named like a root, a link out), each listed in its
/// expectations. Its built-in `$HOME` and `/tmp` are allowed too, which
/// the page shows only where they hold a case's files: the run's fixtures
/// are in `/dev/shm`, its `HOME` in the run's own directory.
#[test]
fn mcp_fast_filesystem_shows_its_escapes() {
    let page = Page::of("mcp-fast-filesystem");
    page.assert_fails_exactly_its_expectations();
    assert!(
        page.fact("Implementation")
            .starts_with("fast-filesystem-mcp ")
    );
    page.escapes_all_expected();
    page.assert_escapes_on(&["read", "list", "write"]);
    assert!(page.count("refused") > 0, "{:?}", page.containment());
}

/// mcp-server-commands, certified from its profile alone: its one tool
/// runs a command line in any working directory it is given, so its page
/// shows escapes on the exec channel alone (it has no other tool), each
/// listed in its expectations.
#[test]
fn mcp_server_commands_shows_its_escapes_on_exec() {
    let page = Page::of("mcp-server-commands");
    page.assert_fails_exactly_its_expectations();
    assert!(
        page.fact("Implementation")
            .starts_with("mcp-server-commands ")
    );
    let containment = page.containment();
    let escapes = page.escapes_all_expected();
    assert!(escapes > 0, "{containment:?}");
    assert_eq!(page.count("exec"), escapes, "{containment:?}");
    for channel in ["read", "list", "write"] {
        assert_eq!(page.count(channel), 0, "{channel}: {containment:?}");
    }
}

/// The files under `runners/` the repository tracks, one path a line.
fn tracked_runner_files() -> String {
    let out = Command::new("git")
        .current_dir(root())
        .args(["ls-files", "runners"])
        .output()
        .expect("git runs");
    assert!(out.status.success(), "{}", said(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// The runner digest covers exactly the files of a runner directory the
/// repository tracks, but its README: what setup installs (the
/// repository ignores it) is never in it, and a file added to a runner
/// is. For every runner directory a row records.
#[test]
fn a_runner_digest_covers_its_tracked_files() {
    let tracked = tracked_runner_files();
    let mut dirs: Vec<String> = rows()
        .into_iter()
        .filter(|row| row != "reference")
        .map(|row| format!("runners/{row}"))
        .collect();
    dirs.extend(["runners/common-node", "runners/common-python"].map(str::to_owned));
    for dir in dirs {
        let mut want: Vec<PathBuf> = tracked
            .lines()
            .filter_map(|f| f.strip_prefix(&format!("{dir}/")))
            .filter(|f| Path::new(f).file_name().unwrap() != "README.md")
            .map(PathBuf::from)
            .collect();
        want.sort();
        let absolute = root().join(&dir).to_string_lossy().into_owned();
        let mut got: Vec<PathBuf> = toolpath::session::run_against::runner_files(&[absolute])
            .unwrap()
            .into_iter()
            .map(|(_, f)| f)
            .collect();
        got.sort();
        assert_eq!(got, want, "{dir}");
    }
}

/// A row's page records among its runner directories every shared one
/// (`runners/common-*`) that a tracked file of the row's own directory
/// uses (`../common-NAME/`: a setup script sourcing its helpers, an
/// adapter importing shared code), so that a change there stales the page
/// as a change to the row's own files does. For every row.
#[test]
fn every_page_records_the_shared_runner_directories_its_runner_uses() {
    let tracked = tracked_runner_files();
    let shared: std::collections::BTreeSet<&str> = tracked
        .lines()
        .filter_map(|f| f.strip_prefix("runners/")?.split('/').next())
        .filter(|d| d.starts_with("common-"))
        .collect();
    assert!(shared.contains(&"common-node") && shared.contains(&"common-python"));
    let mut missing = Vec::new();
    for row in rows().into_iter().filter(|row| row != "reference") {
        let page = std::fs::read_to_string(root().join(format!("docs/certification/{row}.md")))
            .unwrap_or_else(|e| panic!("{row}'s page: {e}"));
        let recorded = page
            .lines()
            .find(|l| l.starts_with("- **Run against:**"))
            .unwrap_or_else(|| panic!("{row}'s page records no run against"));
        let files = tracked
            .lines()
            .filter(|f| f.starts_with(&format!("runners/{row}/")))
            .filter(|f| Path::new(f).file_name().unwrap() != "README.md");
        for file in files {
            let text = std::fs::read(root().join(file)).unwrap();
            let text = String::from_utf8_lossy(&text);
            for dir in &shared {
                if text.contains(&format!("../{dir}/"))
                    && !recorded.contains(&format!("`runners/{dir}`"))
                {
                    missing.push(format!("{row}: {file} uses runners/{dir}: {recorded}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// `scripts/certify --compare` leaves out of the pages it compares the
/// lines that show a run's time, found by the words the reports end them
/// with (`TIMING_WORDS`, one definition): times vary from run to run.
#[test]
fn certify_compares_pages_without_their_lines_of_time() {
    let script = std::fs::read_to_string(root().join("scripts/certify")).unwrap();
    let rule = format!("-e '/{}$/d'", toolpath::report::TIMING_WORDS);
    assert!(script.contains(&rule), "scripts/certify lacks {rule}");
}
