//! The runners under `runners/`: the Python port must pass the whole suite
//! with no expectations file, and each adapter over a published package must
//! fail exactly the cases its expectations file lists (`--strict`), so its
//! committed certification report stays true when the pin moves.
//!
//! Each implementation runs once: `scripts/certify --check --reports DIR`
//! runs every row (the whole suite each), checks the committed pages, and
//! keeps each row's JSON report and exit code in DIR; the tests of one
//! implementation assert on its report there.
//!
//! The npm packages and `rg` are installed by each runner's `setup.sh`
//! (`scripts/test` runs them). Without that setup these tests say so on
//! stderr and pass only when `TOOLPATH_REQUIRE_RUNNERS` is unset; CI sets it.
//! The rows that need no setup (the reference, the Python port) run anyway.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether a runner's setup has been done; if not, either fail (CI) or say
/// loudly that the test did not run.
fn ready(runner: &str, marker: &str) -> bool {
    if root().join("runners").join(runner).join(marker).exists() {
        return true;
    }
    let message =
        format!("runners/{runner} is not set up (run runners/{runner}/setup.sh or scripts/test)");
    assert!(
        std::env::var_os("TOOLPATH_REQUIRE_RUNNERS").is_none(),
        "{message}"
    );
    eprintln!("SKIPPED: {message}");
    false
}

/// The rows of `scripts/certify` and, for those over something installed,
/// the runner directory and the file its setup leaves.
const ROWS: [(&str, Option<&str>); 12] = [
    ("reference", None),
    ("python", None),
    (
        "gemini-cli-core",
        Some("node_modules/.toolpath-lock.sha256"),
    ),
    ("qwen-code-core", Some("node_modules/.toolpath-lock.sha256")),
    (
        "langchain-community",
        Some("venv/.toolpath-requirements.sha256"),
    ),
    (
        "mcp-server-filesystem",
        Some("node_modules/.toolpath-lock.sha256"),
    ),
    (
        "mcp-server-filesystem-0.6.2",
        Some("node_modules/.toolpath-lock.sha256"),
    ),
    ("mcp-server-git", Some("venv/.toolpath-requirements.sha256")),
    (
        "mcp-desktop-commander",
        Some("node_modules/.toolpath-lock.sha256"),
    ),
    (
        "mcp-agent-infra-filesystem",
        Some("node_modules/.toolpath-lock.sha256"),
    ),
    ("mcp-ripgrep", Some("node_modules/.toolpath-lock.sha256")),
    (
        "mcp-shell-server",
        Some("venv/.toolpath-requirements.sha256"),
    ),
];

/// One run of `scripts/certify --check` over every row that is set up
/// (all of them in CI), its reports kept in `target/tmp/certify` (the last
/// run's stay there to be read; each run starts it afresh).
struct Certification {
    reports: PathBuf,
    rows: Vec<&'static str>,
    output: Output,
}

impl Certification {
    /// The certification, run by whichever test asks first.
    fn get() -> &'static Certification {
        static CERTIFICATION: OnceLock<Certification> = OnceLock::new();
        CERTIFICATION.get_or_init(|| {
            let rows: Vec<&str> = ROWS
                .iter()
                .filter(|(row, marker)| marker.is_none_or(|m| ready(row, m)))
                .map(|(row, _)| *row)
                .collect();
            let reports = Path::new(env!("CARGO_TARGET_TMPDIR")).join("certify");
            match std::fs::remove_dir_all(&reports) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    panic!("{}: {e}", reports.display())
                }
                _ => {}
            }
            let mut certify = Command::new("bash");
            certify
                .current_dir(root())
                .args(["scripts/certify", "--check", "--reports"])
                .arg(&reports)
                .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"));
            // Every row: the README table and index.html are checked too.
            if rows.len() < ROWS.len() {
                certify.args(&rows);
            }
            let output = certify.output().expect("bash runs");
            Certification {
                reports,
                rows,
                output,
            }
        })
    }

    /// Row `row`'s (exit code, JSON report), or `None` when it is not set
    /// up (said on stderr; a failure under `TOOLPATH_REQUIRE_RUNNERS`).
    fn row(row: &str) -> Option<(i32, Value)> {
        let certification = Certification::get();
        if !certification.rows.contains(&row) {
            return None;
        }
        let file = |ext: &str| -> PathBuf { certification.reports.join(format!("{row}.{ext}")) };
        let read = |ext: &str| {
            std::fs::read_to_string(file(ext)).unwrap_or_else(|e| {
                panic!(
                    "{row}: no {ext} from scripts/certify ({e}):\n{}",
                    String::from_utf8_lossy(&certification.output.stderr)
                )
            })
        };
        let code = read("exit").trim().parse().expect("an exit code");
        let report = serde_json::from_str(&read("json"))
            .unwrap_or_else(|e| panic!("{row}: not a JSON report ({e}):\n{}", read("log")));
        Some((code, report))
    }
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

/// The findings of a report: (kind, count).
fn findings(report: &Value) -> Vec<(String, u64)> {
    report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_owned(),
                f["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// What a run over a subject that cannot show every field may end with
/// besides a pass: the suite's *not observable* among them (a field the
/// profile composed, or an adapter declares unobservable, is never
/// passed). For the MCP servers and the framework adapters.
fn unexpected_but_unobserved(report: &Value) -> Vec<String> {
    unexpected(report)
        .into_iter()
        .filter(|line| !line.starts_with("\"unobserved\""))
        .collect()
}

/// @modelcontextprotocol/server-filesystem, certified from its profile
/// alone: it fails exactly what its expectations file lists. Its two FIFO
/// cases are never answered (it opens the FIFO and blocks) and nothing
/// else goes wrong outside its answers; it exits when its input closes
/// (no `killed`). Its certification row (the whole suite, its
/// expectations, `--strict`, one worker: see scripts/certify).
#[test]
fn mcp_server_filesystem_fails_exactly_its_expectations() {
    let Some((code, report)) = Certification::row("mcp-server-filesystem") else {
        return;
    };
    assert_eq!(unexpected_but_unobserved(&report), Vec::<String>::new());
    assert_eq!(code, 0);
    assert_eq!(
        report["implementation"]["name"],
        "@modelcontextprotocol/server-filesystem"
    );
    assert!(report["summary"]["pass"].as_u64().unwrap() > 0);
    assert_eq!(findings(&report), [("never_answered".to_owned(), 2)]);
}

/// mcp-server-git (Python), certified from its profile alone: a server
/// per case (its one `--repository` is fixed at start), each root made a
/// repository first, which the report's findings say.
#[test]
fn mcp_server_git_fails_exactly_its_expectations() {
    let Some((code, report)) = Certification::row("mcp-server-git") else {
        return;
    };
    assert_eq!(unexpected_but_unobserved(&report), Vec::<String>::new());
    assert_eq!(code, 0);
    assert_eq!(report["implementation"]["language"], "python");
    // It exits within the grace once its input closes: a server per case,
    // and not one killed (47 were, at a grace of one second).
    let found = findings(&report);
    let kinds: Vec<&str> = found.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(kinds, ["fixture_prepared"], "{found:?}");
}

/// @wonderwhy-er/desktop-commander, certified from its profile alone on
/// its file tools (every other tool's relative paths each need a server
/// started in the case's directory, seconds apiece: docs/mcp.md), offline
/// (telemetry off, feature flags from an empty set), its allowed
/// directories set through its own tool. Nothing goes wrong outside its
/// answers here (after a search it no longer exits when its input closes;
/// no file tool leaves it so). Its certification row (`--tool read_file
/// --tool write_file --tool edit`).
#[test]
fn mcp_desktop_commander_fails_exactly_its_expectations() {
    let Some((code, report)) = Certification::row("mcp-desktop-commander") else {
        return;
    };
    let tools: std::collections::BTreeSet<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        ["edit", "read_file", "write_file"].into(),
        "its file tools only"
    );
    assert_eq!(unexpected_but_unobserved(&report), Vec::<String>::new());
    assert_eq!(code, 0);
    assert_eq!(
        report["implementation"]["name"],
        "@wonderwhy-er/desktop-commander"
    );
    assert_eq!(findings(&report), []);
    assert_eq!(
        report["containment"]["escapes"], 9,
        "its write_file follows a dangling link out (3), and a root named \
         in another case is taken for the root (6: read, write, edit)"
    );
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

/// Its certification row: no expectations file.
#[test]
fn python_port_passes_the_whole_suite_with_no_expectations() {
    let (code, report) = Certification::row("python").expect("needs no setup");
    assert_eq!(unexpected(&report), Vec::<String>::new());
    assert_eq!(code, 0);
    assert_eq!(
        report["summary"]["pass"], report["summary"]["total"],
        "every instance passes, none skipped"
    );
}

#[test]
fn common_node_unit_tests_pass() {
    let out = Command::new("node")
        .current_dir(root())
        .args(["--test", "runners/common-node/"])
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("# fail 0"), "{stdout}");
}

/// Each npm adapter declares unobservable, per tool, only what that tool's
/// own output cannot show (`unobservable_by_tool`): their write and edit
/// tools name the file they wrote, so FILE-4's `kind` and `path` are
/// checked for them; a read names no file, so for it they are not. An
/// adapter declaring `kind` and `path` for every tool, as both did, leaves
/// FILE-4 unobserved 12 out of 12. Read from their certification rows
/// (the whole suite, their expectations, `--strict`): the instances whose
/// case cites FILE-4, what `--spec FILE-4` would run.
#[test]
fn npm_adapters_judge_what_each_file_tool_shows() {
    for runner in ["gemini-cli-core", "qwen-code-core"] {
        let Some((code, mut report)) = Certification::row(runner) else {
            return;
        };
        assert_eq!(code, 0, "{runner}");
        report["cases"]
            .as_array_mut()
            .unwrap()
            .retain(|c| c["spec"].as_array().unwrap().iter().any(|s| s == "FILE-4"));
        assert_eq!(unexpected(&report), Vec::<String>::new(), "{runner}");
        let cases = report["cases"].as_array().unwrap();
        for case in cases {
            // An answer refused shows no kind or path to leave unchecked
            // (issue 32's matrices add FILE-4 reads a tool refuses).
            if (case["diff"].as_str()).is_some_and(|d| d.contains("+outcome: error")) {
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

/// The npm adapters and the MCP servers fail exactly what their
/// expectations list (`--strict` inside `scripts/certify`), and the
/// committed certification pages are what fresh runs of every
/// implementation produce (of the rows set up, when not all are).
#[test]
fn certification_pages_are_current() {
    let out = &Certification::get().output;
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A report does not depend on how many workers made it, which lets
/// `scripts/certify` run each row at two: the reference (in-process) and
/// the Python port (an adapter process per worker) give the same Markdown
/// byte for byte at `--jobs 1` and `--jobs 2`, and the same JSON but for
/// what is measured (durations), where fixtures were built, and what the
/// subject wrote on standard error (its own log).
#[test]
fn reports_are_the_same_at_one_and_two_workers() {
    fn measured_removed(value: &mut Value) {
        match value {
            Value::Object(fields) => {
                for field in ["duration_ms", "fixture_dir", "stderr"] {
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
                .args(["run", "--jobs", jobs, "--format", "json", "--output"])
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
            (std::fs::read_to_string(&markdown).unwrap(), report)
        };
        let (one, two) = (at("1"), at("2"));
        assert!(one.0 == two.0, "{name}: the Markdown reports differ");
        assert!(one.1 == two.1, "{name}: the JSON reports differ");
        assert!(one.0.contains("## Requirements"), "{name}: {}", one.0);
    }
}

/// langchain-community's file management toolkit (its `list_directory`,
/// `file_search`, `read_file` and `write_file`, built per call as
/// `FileManagementToolkit(root_dir=TARGET)`): it fails exactly what its
/// expectations list, and nothing gets out (it checks every path's real
/// path against its one root). Its certification row.
#[test]
fn langchain_community_fails_exactly_its_expectations_and_holds_containment() {
    let Some((code, report)) = Certification::row("langchain-community") else {
        return;
    };
    assert_eq!(unexpected_but_unobserved(&report), Vec::<String>::new());
    assert_eq!(code, 0);
    assert_eq!(report["implementation"]["name"], "langchain-community");
    assert_eq!(
        report["containment"]["escapes"], 0,
        "{}",
        report["containment"]
    );
    assert!(report["containment"]["refused"].as_u64().unwrap() > 100);
    let answered: std::collections::BTreeSet<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] != "unsupported")
        .map(|c| c["tool"].as_str().unwrap())
        .collect();
    assert_eq!(answered, ["glob", "ls", "read_file", "write_file"].into());
}

/// @modelcontextprotocol/server-filesystem 0.6.2, the known-bad control:
/// the release before the 2025 fixes of its path check, certified from its
/// profile alone. Its page must show what gets out: escapes on the read,
/// list and write channels (a link out is followed once its target's
/// check fails over to its parent's; a sibling whose name starts with a
/// root's is taken for inside), every one listed in its expectations.
#[test]
fn mcp_server_filesystem_0_6_2_shows_its_escapes() {
    let Some((code, report)) = Certification::row("mcp-server-filesystem-0.6.2") else {
        return;
    };
    assert_eq!(unexpected_but_unobserved(&report), Vec::<String>::new());
    assert_eq!(code, 0);
    assert_eq!(report["implementation"]["version"], "0.6.2");
    let containment = &report["containment"];
    let escapes = containment["escapes"].as_u64().unwrap();
    assert!(escapes >= 50, "{containment}");
    assert_eq!(containment["escapes_expected"], escapes, "{containment}");
    for channel in ["read", "list", "write"] {
        let n = containment["escapes_by_channel"][channel].as_u64().unwrap();
        assert!(n > 0, "no {channel} escape: {containment}");
    }
}
