//! The `toolpath` command surface: every subcommand and exit code, and the
//! harness's handling of adapters that crash, hang, print garbage, answer the
//! wrong `seq` or support nothing. The fake adapter is
//! `tests/adapters/mutant.py`, which wraps `toolpath serve`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

const MINI: &str = "tests/data/mini";

fn toolpath() -> Command {
    let mut cmd = Command::cargo_bin("toolpath").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TOOLPATH_BIN", bin());
    cmd
}

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_toolpath"))
}

fn mutant(mode: &str, glob: &str) -> String {
    format!("python3 tests/adapters/mutant.py {mode} '{glob}'")
}

/// Runs and returns (exit code, JSON report).
fn run_json(args: &[&str]) -> (i32, Value) {
    let out = toolpath()
        .arg("run")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}); stderr:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), report)
}

fn status_of<'a>(report: &'a Value, id: &str) -> &'a str {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"))["status"]
        .as_str()
        .unwrap()
}

#[test]
fn run_passes_the_mini_suite_and_prints_the_closing_line() {
    toolpath()
        .args(["run", "--cases", MINI])
        .assert()
        .code(0)
        .stdout(predicate::str::is_match(r"(?m)^6 passed, 0 failed, 0 skipped").unwrap());
}

#[test]
fn run_without_cases_flag_runs_the_embedded_suite() {
    let (code, report) = run_json(&[]);
    assert_eq!(code, 0, "the reference passes its own suite");
    // Every instance of the embedded suite, no more, no fewer: counted
    // from the case files, not by the loader the binary runs.
    assert_eq!(report["summary"]["total"], instances_in_case_files());
    assert_eq!(report["summary"]["pass"], report["summary"]["total"]);
}

/// The instances of the suite in `cases/`, read from the files as plain
/// YAML: one per case file, two for `tool: search` (grep and ripgrep); a
/// matrix, as `cases/README.md` says it expands: each tool (two for
/// `search`) in each form (the absolute one only for a file tool), from
/// each root.
fn instances_in_case_files() -> usize {
    fn walk(dir: &Path, count: &mut (usize, usize)) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, count);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                let text = std::fs::read_to_string(&path).unwrap();
                let case: Value = serde_saphyr::from_str(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                count.0 += 1;
                let weight = |tool: &str| if tool == "search" { 2 } else { 1 };
                if let Some(matrix) = case.get("matrix") {
                    let listed = |v: &Value| v.as_array().map_or(0, Vec::len);
                    let forms = match listed(&matrix["forms"]) {
                        0 => 2,
                        n => n,
                    };
                    let relative = forms == 2 || matrix["forms"][0].as_str() == Some("relative");
                    let roots = match listed(&matrix["roots"]) {
                        0 => listed(&case["fixture"]["roots"]),
                        n => n,
                    };
                    for tool in matrix["tools"].as_array().unwrap() {
                        let tool = tool.as_str().unwrap();
                        let cells = if tool.ends_with("_file") || tool == "edit" {
                            forms - usize::from(relative)
                        } else {
                            forms
                        };
                        count.1 += weight(tool) * cells * roots;
                    }
                    continue;
                }
                let tool = case["call"]["tool"].as_str();
                let tool = tool.unwrap_or_else(|| panic!("{}: no call.tool", path.display()));
                count.1 += weight(tool);
            }
        }
    }
    let mut count = (0, 0);
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("cases"),
        &mut count,
    );
    assert!(count.0 > 100, "only {} case files in cases/", count.0);
    count.1
}

#[test]
fn invalid_cases_exit_2_naming_file_line_and_column() {
    toolpath()
        .args(["run", "--cases", "tests/data/invalid"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "tests/data/invalid/bad-field.yaml:10:3: unknown field `knd`",
        ))
        .stderr(predicate::str::contains(
            "tests/data/invalid/unknown-spec.yaml:3:15: spec: unknown requirement ID `RES-999`",
        ));
}

#[test]
fn hostile_fixtures_are_refused_and_write_nothing() {
    toolpath()
        .args(["lint", "--cases", "tests/data/hostile"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("absolute.yaml:6:11: fixture.files: `/tmp/toolpath-pwned-absolute` is absolute"))
        .stderr(predicate::str::contains("dotdot.yaml:6:11:"))
        .stderr(predicate::str::contains("through-link.yaml:8:11: fixture: `ws/out/toolpath-pwned-link` would be written through the symbolic link `ws/out`"))
        .stderr(predicate::str::contains("mode-through-link.yaml:8:11:"))
        .stderr(predicate::str::contains(
            "command.yaml:7:3: call.params.command: `touch /tmp/toolpath-pwned-command` would run on this machine",
        ));
    toolpath()
        .args(["run", "--cases", "tests/data/hostile"])
        .assert()
        .code(2);
    for name in [
        "toolpath-pwned-absolute",
        "toolpath-pwned-link",
        "toolpath-pwned-command",
    ] {
        assert!(!Path::new("/tmp").join(name).exists(), "{name} was written");
    }
    assert!(
        !Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../toolpath-pwned-dotdot")
            .exists()
    );
}

#[test]
fn lint_prints_coverage_of_the_embedded_suite() {
    toolpath()
        .arg("lint")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "every requirement is pinned through every tool it applies to",
        ))
        .stdout(
            predicate::str::is_match(
                r"(?m)^SEC-1 +\d+ +resolve:\d+ grep:\d+ ripgrep:\d+ shell:\d+ ",
            )
            .unwrap(),
        );
}

#[test]
fn lint_fails_on_a_rule_pinned_through_one_tool_only() {
    // RES-8 applies to every tool; the one case pins it through `resolve`.
    toolpath()
        .args([
            "lint",
            "--require-coverage",
            "--cases",
            "tests/data/coverage",
        ])
        .assert()
        .code(2)
        .stdout(
            predicate::str::is_match(r"(?m)^RES-8 +1 +resolve:1 grep:0 ripgrep:0 shell:0 ")
                .unwrap(),
        )
        .stderr(predicate::str::contains(
            "RES-7, RES-8@grep, RES-8@ripgrep, RES-8@shell, RES-8@glob, RES-8@ls, RES-8@read_file, RES-8@edit, RES-9,",
        ));
}

#[test]
fn lint_of_a_valid_directory_passes_without_covering_the_spec() {
    // A user's own directory need not cover the spec: valid is exit 0, the
    // gaps are listed; an invalid case is still exit 2.
    toolpath()
        .args(["lint", "--cases", "tests/data/coverage"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "every case is valid; coverage is not enforced for --cases",
        ))
        .stderr(predicate::str::contains("RES-8@grep"));
    toolpath()
        .args(["lint", "--cases", "tests/data/invalid"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid case file(s)"));
}

#[test]
fn every_format_sent_to_files_still_prints_the_closing_lines() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let junit = dir.path().join("r.xml");
    toolpath()
        .args(["run", "--cases", MINI, "--format", "json", "--output"])
        .arg(&json)
        .args(["--format", "junit", "--output"])
        .arg(&junit)
        .assert()
        .code(0)
        .stdout(
            predicate::str::is_match(
                r"(?m)^toolpath: 6 passed \(6 pass\), 0 failed, 0 skipped in .*\n6 passed, 0 failed, 0 skipped\n\z",
            )
            .unwrap(),
        );
}

/// `toolpath run` does not hold its cases: it renders every report by
/// reading its event log back from disk. Each must be byte for byte what
/// the same report renders to in memory, cases in run order although
/// three workers finish them out of order.
#[test]
fn reports_read_back_from_the_event_log_equal_the_report_rendered_in_memory() {
    use toolpath::cli::Format;
    let dir = tempfile::tempdir().unwrap();
    let expectations = dir.path().join("exp.yaml");
    std::fs::write(
        &expectations,
        "\"search.file.*@grep\":\n  status: xfail\n  reason: known\n\
         \"resolve.*\":\n  status: skip\n  reason: later\n",
    )
    .unwrap();
    let formats = [
        (Format::Json, "json", "r.json"),
        (Format::Junit, "junit", "r.xml"),
        (Format::Markdown, "markdown", "r.md"),
        (Format::Human, "human", "r.txt"),
    ];
    let selection = [
        "--filter",
        "search.*",
        "--filter",
        "resolve.*",
        "--filter",
        "shell.*",
    ];
    let mut run = toolpath();
    run.args([
        "run",
        "--jobs",
        "3",
        "--adapter",
        &mutant("pre-change-search", "*"),
    ])
    .args(selection)
    .arg("--expectations")
    .arg(&expectations)
    .arg("--events")
    .arg(dir.path().join("e.jsonl"));
    for (_, name, file) in formats {
        run.args(["--format", name, "--output"])
            .arg(dir.path().join(file));
    }
    run.assert().code(1);

    let log = std::fs::read_to_string(dir.path().join("e.jsonl")).unwrap();
    let mut report = toolpath::report::events::read(&log).unwrap();
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    // Where fixtures were built is the one field the log does not carry.
    report.fixture_dir = json["fixture_dir"].as_str().map(str::to_owned);
    let statuses: std::collections::BTreeSet<_> =
        report.cases.iter().map(|c| c.status.name()).collect();
    assert!(
        ["pass", "fail", "xfail", "skip"]
            .iter()
            .all(|s| statuses.contains(s)),
        "a report worth comparing has every kind of block: {statuses:?}"
    );
    for (format, _, file) in formats {
        let written = std::fs::read_to_string(dir.path().join(file)).unwrap();
        let in_memory = toolpath::cli::render(&report, format, false);
        let first_difference = written
            .lines()
            .zip(in_memory.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b);
        assert!(
            written == in_memory,
            "{file} differs from the in-memory rendering, first at (line, (read back, in memory)) {first_difference:?}"
        );
    }

    let listed = toolpath()
        .args(["list", "--format", "json"])
        .args(selection)
        .output()
        .unwrap();
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let ids = |cases: &Value| -> Vec<String> {
        cases
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids(&json["cases"]), ids(&listed), "run order is list order");
}

/// An event log the user asked for that cannot be written (a full disk)
/// fails the run with exit 4, but the reports are whole: they are made
/// from the run's own log, not that one.
#[test]
fn an_event_log_that_cannot_be_written_is_exit_4_with_whole_reports() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let out = toolpath()
        .args([
            "run",
            "--cases",
            MINI,
            "--events",
            "/dev/full",
            "--format",
            "json",
            "--output",
        ])
        .arg(&json)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("cannot write /dev/full"), "{stderr}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["summary"]["pass"], 6);
    assert_eq!(report["cases"].as_array().unwrap().len(), 6);
}

#[test]
fn write_expectations_says_what_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("exp.yaml");
    toolpath()
        .args([
            "run",
            "--adapter",
            &mutant("pre-change-search", "*"),
            "--cases",
            MINI,
        ])
        .arg("--write-expectations")
        .arg(&file)
        .assert()
        .code(1)
        .stderr(
            predicate::str::is_match(r"toolpath: wrote [1-9]\d* xfail entr(y|ies) to ").unwrap(),
        );
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("status: xfail")
    );
}

/// A run whose adapter never started judged nothing: written as the
/// expectations, its (empty) failures would drop every entry and every
/// reason written by hand. The file is left as it was, as it is for a
/// cancelled run.
#[test]
fn write_expectations_leaves_the_file_when_the_run_is_partial() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("exp.yaml");
    let kept = "mini.resolve.outside:\n  status: xfail\n  reason: written by hand\n";
    std::fs::write(&file, kept).unwrap();
    toolpath()
        .args(["run", "--adapter", "/nonexistent/adapter", "--cases", MINI])
        .arg("--write-expectations")
        .arg(&file)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "left as it was: the run was partial",
        ));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), kept);
}

#[test]
fn the_stdio_path_gives_exactly_the_in_process_results() {
    // Every answer, field by field: the same call on the same fixture,
    // answered in-process and by `toolpath serve` over the protocol. (Equal
    // statuses alone would hold for any two implementations that both pass.)
    use toolpath::subject::adapter::{Adapter, AdapterConfig};
    use toolpath::subject::{Reference, Subject};
    use toolpath_suite::case::Action;
    use toolpath_suite::protocol::Call;

    let (cases, errors) = toolpath::case::embedded::load_embedded();
    assert!(errors.is_empty());
    let scratch = tempfile::tempdir().unwrap();
    let mut served = Adapter::start(AdapterConfig {
        argv: vec![bin().display().to_string(), "serve".into()],
        // A busy 2-core CI machine can stall a process for seconds.
        call_timeout: std::time::Duration::from_secs(60),
        hello_timeout: std::time::Duration::from_secs(60),
        max_restarts: 0,
        user: None,
        tmpdir: scratch.path().to_owned(),
        suite_version: toolpath::SUITE_VERSION.into(),
        run_id: None,
        silent_starts: Default::default(),
    })
    .unwrap();
    let mut in_process = Reference::default();
    assert_eq!(in_process.hello(), served.hello());
    // The fixtures go to RAM where there is some, as a run's do: on a
    // journaling disk each entry made costs about a millisecond, and the
    // suite's largest fixtures hold 5,001 (this test took 32 s there).
    let fixtures = toolpath::fuzz::probe::ram_dir()
        .map(|ram| {
            tempfile::Builder::new()
                .prefix("cli-stdio-")
                .tempdir_in(ram)
        })
        .unwrap_or_else(tempfile::tempdir)
        .unwrap();
    let place = Some(fixtures.path());
    let mut compared = 0;
    // Each fixture with the reference's own ignore files, as a run builds it.
    let ignore_files = in_process.hello().ignore_files.clone();
    for instance in cases.iter().flat_map(|c| c.instances()) {
        let Action::Invoke(params) = &instance.case.action else {
            continue;
        };
        if instance.case.fixture.devices.len() + instance.case.fixture.modes.len() > 0 {
            continue; // needs root or an unprivileged runner; covered by `run`
        }
        let fixture = (instance.case.fixture)
            .with_own_ignore_files(&ignore_files)
            .unwrap();
        let built = toolpath::case::fixture::build(&fixture, place).unwrap();
        let call = toolpath::harness::call::for_instance(&instance, params, &built.vars, &built);
        let mut here = in_process.call(&call).unwrap();
        if instance.tool.writes() {
            // The first call changed the fixture: the second gets a fresh
            // one (elsewhere), and the answers compare with each fixture's
            // paths written as placeholders.
            let again = toolpath::case::fixture::build(&fixture, place).unwrap();
            let call =
                toolpath::harness::call::for_instance(&instance, params, &again.vars, &again);
            let there = served.call(&Call { seq: 0, ..call }).unwrap();
            here.seq = there.seq;
            let shown =
                |r: &toolpath_suite::protocol::ToolResult,
                 vars: &toolpath_suite::placeholders::Placeholders| {
                    vars.collapse(&serde_json::to_string(r).unwrap())
                };
            assert_eq!(
                shown(&here, &built.vars),
                shown(&there, &again.vars),
                "{}",
                instance.id()
            );
            compared += 1;
            continue;
        }
        let there = served.call(&Call { seq: 0, ..call }).unwrap();
        here.seq = there.seq;
        assert_eq!(here, there, "{}", instance.id());
        compared += 1;
    }
    assert!(compared > 250, "only {compared} instances compared");
}

#[test]
fn a_crash_fails_its_case_and_the_run_goes_on() {
    let (code, report) = run_json(&[
        "--cases",
        MINI,
        "--adapter",
        &mutant("crash", "mini.shell.subpath"),
    ]);
    assert_eq!(code, 1);
    assert_eq!(status_of(&report, "mini.shell.subpath"), "adapter_error");
    let crash = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "mini.shell.subpath")
        .unwrap();
    assert!(
        crash["reason"]
            .as_str()
            .unwrap()
            .starts_with("crash: the adapter exited"),
        "{crash}"
    );
    assert!(
        crash["stderr"]
            .as_str()
            .unwrap()
            .contains("mutant.py: crash on mini.shell.subpath"),
        "{crash}"
    );
    assert_eq!(report["summary"]["pass"], 5);
    assert_eq!(report["partial"], false);
}

/// The hung call fails as a timeout (its reason says so). Nothing here
/// reads a clock: the hang is certain, and the reason proves the timeout
/// ended it. The short limit is the hung call's alone (the run has no
/// other instance), so a loaded machine cannot time out a healthy answer;
/// the next instance going to a fresh process after one was ended is
/// `tests/supervision.rs`'s close-stdout test, which waits on no limit.
#[test]
fn a_hang_times_out_with_the_reason() {
    let (code, report) = run_json(&[
        "--cases",
        MINI,
        "--filter",
        "mini.search.file@grep",
        "--timeout-ms",
        "2000",
        "--adapter",
        &mutant("hang", "mini.search.file@grep"),
    ]);
    assert_eq!(code, 1);
    assert_eq!(report["summary"]["total"], 1);
    assert_eq!(status_of(&report, "mini.search.file@grep"), "adapter_error");
    let hung = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "mini.search.file@grep")
        .unwrap();
    assert_eq!(
        hung["reason"], "timeout: no answer within 2000 ms",
        "the hang stalled the run: {hung}"
    );
}

#[test]
fn garbage_noise_and_wrong_seq_are_adapter_errors() {
    for mode in ["garbage", "stdout-noise", "wrong-seq"] {
        let (code, report) = run_json(&[
            "--cases",
            MINI,
            "--adapter",
            &mutant(mode, "mini.resolve.outside"),
        ]);
        assert_eq!(code, 1, "{mode}");
        assert_eq!(
            status_of(&report, "mini.resolve.outside"),
            "adapter_error",
            "{mode}"
        );
        assert_eq!(
            report["summary"]["pass"], 5,
            "{mode}: the other cases still pass"
        );
    }
}

#[test]
fn unsupported_answers_and_missing_tools_are_unsupported_not_failed() {
    let (code, report) = run_json(&[
        "--cases",
        MINI,
        "--adapter",
        &mutant("unsupported", "mini.shell.*"),
    ]);
    assert_eq!(code, 0, "the other cases were judged and passed");
    assert_eq!(status_of(&report, "mini.shell.subpath"), "unsupported");
}

#[test]
fn a_run_that_judged_nothing_does_not_pass() {
    // An adapter that declares no tools proves nothing: a CI gate over it
    // must not be green.
    let out = toolpath()
        .args([
            "run",
            "--cases",
            MINI,
            "--adapter",
            &mutant("no-tools", "*"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("nothing was judged"), "{stdout}");
    let (code, report) = run_json(&["--cases", MINI, "--adapter", &mutant("no-tools", "*")]);
    assert_eq!(code, 5);
    assert_eq!(report["summary"]["unsupported"], report["summary"]["total"]);
}

#[test]
fn a_root_named_like_a_placeholder_is_refused() {
    // With a root named `tmp`, `{tmp}` would mean both the fixture directory
    // and that root, and `<fixture>/tmp/a.ts` would compare equal to
    // `<fixture>/a.ts`.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tmp-root.yaml"),
        "id: x.tmp-root\nsummary: s\nspec: [SEARCH-5]\nfixture:\n  roots: [tmp]\n  \
         files: {tmp/a.ts: \"hello\\n\"}\ncall:\n  tool: grep\n  params: {pattern: hello, \
         dir_path: a.ts}\nexpect:\n  outcome: ok\n  path: \"{tmp}/a.ts\"\n",
    )
    .unwrap();
    let out = toolpath()
        .args(["run", "--cases"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tmp-root.yaml:5:") && stderr.contains("`{tmp}` mean two directories"),
        "{stderr}"
    );
}

#[test]
fn too_many_restarts_make_a_partial_run_with_exit_3() {
    let (code, report) = run_json(&[
        "--cases",
        MINI,
        "--jobs",
        "1",
        "--max-restarts",
        "1",
        "--adapter",
        &mutant("crash", "*"),
    ]);
    assert_eq!(code, 3);
    assert_eq!(report["partial"], true);
    assert!(report["summary"]["not_run"].as_u64().unwrap() > 0);
    toolpath()
        .args([
            "run",
            "--cases",
            MINI,
            "--jobs",
            "1",
            "--max-restarts",
            "1",
            "--adapter",
            &mutant("crash", "*"),
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("PARTIAL"));
}

/// `--max-restarts` counts restarts in a row: an adapter that answers
/// between its crashes (on `resolve` and `ripgrep`, answering `grep`
/// between them) is judged on every case, each crash failing its own.
/// Counted over the whole run, the second crash used up the budget and
/// the shell's instance was given up on.
#[test]
fn crashes_with_answers_between_them_leave_the_run_whole() {
    let (code, report) = run_json(&[
        "--cases",
        MINI,
        "--jobs",
        "1",
        "--max-restarts",
        "1",
        "--tool",
        "resolve",
        "--tool",
        "grep",
        "--tool",
        "ripgrep",
        "--tool",
        "shell",
        "--adapter",
        &mutant("crash", "*[@o][ru][it]*"),
    ]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["partial"], false);
    let statuses: Vec<(&str, &str)> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_str().unwrap(), c["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        statuses,
        [
            ("mini.desc.shell", "pass"),
            ("mini.resolve.outside", "adapter_error"),
            ("mini.resolve.permission", "pass"),
            ("mini.search.file@grep", "pass"),
            ("mini.search.file@ripgrep", "adapter_error"),
            ("mini.shell.subpath", "pass")
        ]
    );
}

#[test]
fn an_adapter_that_cannot_start_is_reported() {
    toolpath()
        .args(["run", "--cases", MINI, "--adapter", "/nonexistent/adapter"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "the adapter could not be started: cannot start `/nonexistent/adapter`",
        ))
        .stderr(predicate::str::contains("crash").not())
        .stdout(predicate::str::contains("crash").not());
}

#[test]
fn expectations_turn_known_failures_into_xfail_and_strict_catches_xpass() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("expectations.yaml");
    let crash = mutant("crash", "mini.shell.subpath");
    toolpath()
        .args([
            "run",
            "--cases",
            MINI,
            "--adapter",
            &crash,
            "--write-expectations",
        ])
        .arg(&file)
        .assert()
        .code(1);
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(
        written.contains("mini.shell.subpath:\n  status: xfail\n"),
        "{written}"
    );
    let (code, report) = run_json(&[
        "--cases",
        MINI,
        "--adapter",
        &crash,
        "--expectations",
        file.to_str().unwrap(),
        "--strict",
    ]);
    assert_eq!(code, 0);
    assert_eq!(status_of(&report, "mini.shell.subpath"), "xfail");
    // The same expectations against a correct implementation: the xfail passes.
    let (code, report) = run_json(&["--cases", MINI, "--expectations", file.to_str().unwrap()]);
    assert_eq!(code, 0, "an xpass is only fatal under --strict");
    assert_eq!(status_of(&report, "mini.shell.subpath"), "xpass");
    let (code, _) = run_json(&[
        "--cases",
        MINI,
        "--expectations",
        file.to_str().unwrap(),
        "--strict",
    ]);
    assert_eq!(code, 1);
}

#[test]
fn skip_expectations_are_never_sent() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("e.yaml");
    std::fs::write(
        &file,
        "\"mini.search.*\":\n  status: skip\n  reason: not yet\n  spec: SEARCH-5\n",
    )
    .unwrap();
    let (code, report) = run_json(&[
        "--cases",
        MINI,
        "--adapter",
        &mutant("crash", "mini.search.*"),
        "--expectations",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "the crashing cases were not sent");
    assert_eq!(status_of(&report, "mini.search.file@grep"), "skip");
}

/// A call never sent can never show an escape: a `skip` entry that covers
/// an instance whose case expects `outside_workspace` is refused when the
/// file is loaded (exit 2, before anything runs), by its key's place and
/// with the instance it would hide, whether it names it or matches it as
/// a wildcard. The same instance as `xfail` is fine.
#[test]
fn a_skip_that_would_hide_an_escape_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("e.yaml");
    for (text, line) in [
        (
            "mini.resolve.outside:\n  status: skip\n  reason: hangs\n",
            1,
        ),
        (
            "mini.shell.subpath:\n  status: skip\n  reason: no\n\"mini.*\":\n  status: skip\n  reason: all\n",
            4,
        ),
    ] {
        std::fs::write(&file, text).unwrap();
        let out = toolpath()
            .args(["run", "--cases", MINI, "--adapter"])
            .arg(mutant("outside-answered-ok", "*"))
            .arg("--expectations")
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("{}:{line}:1: ", file.display()))
                && stderr.contains("`mini.resolve.outside`")
                && stderr.contains("outside_workspace")
                && stderr.contains("xfail"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty(), "nothing ran");
    }
    // As xfail the instance runs, and its escape is counted.
    std::fs::write(
        &file,
        "mini.resolve.outside:\n  status: xfail\n  reason: lets it through\n",
    )
    .unwrap();
    let (code, report) = run_json(&[
        "--cases",
        MINI,
        "--adapter",
        &mutant("outside-answered-ok", "*"),
        "--expectations",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(status_of(&report, "mini.resolve.outside"), "xfail");
    assert_eq!(report["containment"]["escapes_expected"], 1);
}

#[test]
fn list_filters_by_glob_spec_tool_and_shard() {
    let out = toolpath()
        .args(["list", "--cases", MINI, "--format", "json"])
        .output()
        .unwrap();
    let all: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 6);
    let out = toolpath()
        .args([
            "list", "--cases", MINI, "--tool", "grep", "--format", "json",
        ])
        .output()
        .unwrap();
    let grep: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(grep.as_array().unwrap().len(), 1);
    toolpath()
        .args([
            "list", "--cases", MINI, "--spec", "SHELL-4", "--filter", "mini.*",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "mini.shell.subpath\ttests/data/mini/shell-subpath.yaml:1\tSHELL-4,SHELL-6",
        ));
    let mut union = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let out = toolpath()
            .args(["list", "--format", "json", "--shard", shard])
            .output()
            .unwrap();
        let part: Value = serde_json::from_slice(&out.stdout).unwrap();
        union.extend(
            part.as_array()
                .unwrap()
                .iter()
                .map(|c| c["id"].as_str().unwrap().to_owned()),
        );
    }
    let out = toolpath()
        .args(["list", "--format", "json"])
        .output()
        .unwrap();
    let whole: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut whole: Vec<String> = whole
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect();
    union.sort();
    whole.sort();
    assert_eq!(union, whole, "shards partition the suite");
    toolpath().args(["list", "--shard", "4/3"]).assert().code(2);
}

#[test]
fn an_empty_selection_is_a_usage_error() {
    toolpath()
        .args(["run", "--filter", "no.such.case"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no case matches"));
}

#[test]
fn compare_lists_what_broke_and_what_was_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.json");
    let bad = dir.path().join("bad.json");
    toolpath()
        .args(["run", "--cases", MINI, "--format", "json", "--output"])
        .arg(&good)
        .assert()
        .code(0);
    toolpath()
        .args([
            "run",
            "--cases",
            MINI,
            "--adapter",
            &mutant("pre-change-shell", "*"),
            "--format",
            "json",
            "--output",
        ])
        .arg(&bad)
        .assert()
        .code(1);
    toolpath()
        .arg("compare")
        .args([&good, &bad])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("mini.shell.subpath"));
    toolpath()
        .arg("compare")
        .args([&bad, &good])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("mini.shell.subpath"));
    toolpath()
        .arg("compare")
        .args([&good, Path::new("/nonexistent.json")])
        .assert()
        .code(2);
}

/// The selection and adapter every stored report of an earlier release
/// was run with (tests/data/reports/README.md).
const EARLIER_RUN: [&str; 8] = [
    "--filter",
    "security.link.*",
    "--filter",
    "security.outside.*",
    "--filter",
    "security.exec.*",
    "--adapter",
    "python3 tests/adapters/mutant.py outside-answered-ok",
];

/// A project's stored baseline still reads after an upgrade: the JSON
/// report and the event log each earlier release wrote
/// (tests/data/reports, made by that release's own binary) compare with
/// today's run of the same selection and adapter, and load in
/// `certification`. The same instances escape in both, so none is a
/// security regression; an escape a release before 0.3.0 wrote has no
/// channels (SEC-12 came later), and is not read as one through a new
/// channel.
#[test]
fn reports_of_every_earlier_release_compare_and_certify() {
    let dir = tempfile::tempdir().unwrap();
    let today = dir.path().join("today.json");
    toolpath()
        .arg("run")
        .args(EARLIER_RUN)
        .args(["--format", "json", "--output"])
        .arg(&today)
        .assert()
        .code(1);
    let stored = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reports");
    let mut releases = Vec::new();
    for version in ["0.2.0", "0.3.0", "0.4.0", "0.5.0"] {
        for file in [format!("{version}.json"), format!("{version}.events.jsonl")] {
            let old = stored.join(&file);
            assert!(old.is_file(), "no stored {file}");
            let out = toolpath()
                .arg("compare")
                .arg(&old)
                .arg(&today)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.code().is_some_and(|c| c <= 1),
                "compare {file} today: {out:?}"
            );
            assert!(
                !stdout.contains("Security regressions"),
                "compare {file} today:\n{stdout}"
            );
            let page = toolpath()
                .args(["certification", "--mixed-versions"])
                .arg(&old)
                .arg(&today)
                .output()
                .unwrap();
            assert!(page.status.success(), "certification {file}: {page:?}");
            let page = String::from_utf8_lossy(&page.stdout);
            assert!(page.contains(version), "certification {file}:\n{page}");
        }
        releases.push(stored.join(format!("{version}.json")));
    }
    for format in ["markdown", "html"] {
        toolpath()
            .args(["certification", "--mixed-versions", "--format", format])
            .args(&releases)
            .arg(&today)
            .assert()
            .success();
    }
}

#[test]
fn several_formats_go_to_their_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let (json, junit, md) = (
        dir.path().join("r.json"),
        dir.path().join("r.xml"),
        dir.path().join("r.md"),
    );
    toolpath()
        .args(["run", "--cases", MINI, "--format", "json", "--output"])
        .arg(&json)
        .args(["--format", "junit", "--output"])
        .arg(&junit)
        .args(["--format", "markdown", "--output"])
        .arg(&md)
        .args(["--format", "human"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("6 passed"));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["summary"]["pass"], 6);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.starts_with("<?xml")
            && xml.contains("<testsuite")
            && xml.contains("mini.shell.subpath"),
        "{xml}"
    );
    let markdown = std::fs::read_to_string(&md).unwrap();
    assert!(markdown.contains("SHELL-4"), "{markdown}");
    toolpath()
        .args([
            "run", "--cases", MINI, "--format", "json", "--format", "junit",
        ])
        .assert()
        .code(2);
}

#[test]
fn keep_fixtures_leaves_a_failing_workspace_on_disk() {
    let (_, report) = run_json(&[
        "--cases",
        MINI,
        "--keep-fixtures",
        "--adapter",
        &mutant("pre-change-shell", "mini.shell.subpath"),
    ]);
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "mini.shell.subpath")
        .unwrap();
    let kept = PathBuf::from(case["fixture"].as_str().expect("kept fixture path"));
    assert!(kept.join("ws/src/utils").is_dir());
    std::fs::remove_dir_all(kept).unwrap();
}

#[test]
fn permission_cases_are_observed_not_passed_silently() {
    let (_, report) = run_json(&["--cases", MINI, "--filter", "mini.resolve.permission"]);
    let status = status_of(&report, "mini.resolve.permission");
    // As root the case runs as the run's own user; otherwise it runs directly.
    assert_eq!(status, "pass");
    let (_, report) = run_json(&[
        "--cases",
        MINI,
        "--filter",
        "mini.resolve.permission",
        "--no-unprivileged",
    ]);
    let expected = if toolpath::sys::is_root() {
        "skip"
    } else {
        "pass"
    };
    assert_eq!(status_of(&report, "mini.resolve.permission"), expected);
}

#[test]
fn committed_schemas_match_the_schemas_command() {
    toolpath()
        .args(["schemas", "spec", "--check"])
        .assert()
        .code(0);
}

#[test]
fn serve_answers_hello_and_calls_and_stops_at_bye() {
    toolpath()
        .arg("serve")
        .write_stdin("{\"type\":\"hello\",\"protocol\":1,\"suite\":\"0\"}\nnot json\n{\"type\":\"bye\"}\n{\"type\":\"hello\",\"protocol\":1,\"suite\":\"0\"}\n")
        .assert()
        .code(0)
        .stdout(predicate::str::is_match("^\\{\"type\":\"hello\",\"protocol\":1,[^\n]*\n$").unwrap())
        .stderr(predicate::str::contains("not a protocol message"));
}

#[test]
fn strict_runs_of_the_whole_selection_reject_stale_expectations() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("e.yaml");
    std::fs::write(
        &file,
        "mini.renamed.case:\n  status: xfail\n  reason: the case was renamed\n",
    )
    .unwrap();
    let exp = file.to_str().unwrap();
    toolpath()
        .args(["run", "--cases", MINI, "--expectations", exp, "--strict"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "1 expectations entry matches no case: mini.renamed.case",
        ));
    toolpath()
        .args(["run", "--cases", MINI, "--expectations", exp])
        .assert()
        .code(0);
    toolpath()
        .args([
            "run",
            "--cases",
            MINI,
            "--expectations",
            exp,
            "--strict",
            "--filter",
            "mini.shell.*",
        ])
        .assert()
        .code(0)
        // Under a selection a count, not the ids.
        .stderr(predicate::str::contains(
            "1 expectations entry matches no selected case (this run selects part of the suite;",
        ))
        .stderr(predicate::str::contains("mini.renamed.case").not());
}

/// Fixtures go where `--fixture-dir` (or `TOOLPATH_FIXTURE_DIR`) says, the
/// report header names the place, and permission cases still run there (as
/// the run's own user when the harness is root). Fails if the option or the variable is
/// ignored (the kept fixture or the header would name the default).
#[test]
fn fixtures_go_where_fixture_dir_says_and_the_header_names_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new()
        .prefix("fixture-dir-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    // The run's user must pass through to reach its fixtures.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let dir_path = dir.path().canonicalize().unwrap();
    let d = dir_path.to_str().unwrap();
    let (_, report) = run_json(&[
        "--cases",
        MINI,
        "--fixture-dir",
        d,
        "--keep-fixtures",
        "--filter",
        "mini.shell.subpath",
        "--adapter",
        &mutant("pre-change-shell", "mini.shell.subpath"),
    ]);
    let kept = report["cases"][0]["fixture"]
        .as_str()
        .expect("kept fixture");
    assert!(Path::new(kept).starts_with(&dir_path), "{kept} not in {d}");
    assert!(
        report["fixture_dir"].as_str().unwrap().starts_with(d),
        "{report}"
    );
    // The variable, with the permission case: exit 0 means it was judged
    // and passed (a skip judges nothing, a failure is unexpected).
    toolpath()
        .env(toolpath::session::FIXTURE_DIR_ENV, d)
        .args([
            "run",
            "--cases",
            MINI,
            "--filter",
            "mini.resolve.permission",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "fixtures:       {d} (not tmpfs)"
        )));
    // Nothing of the runs is left but the kept fixture.
    let left: Vec<_> = std::fs::read_dir(&dir_path).unwrap().flatten().collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn a_fixture_dir_that_cannot_hold_the_run_is_a_usage_error() {
    toolpath()
        .args([
            "run",
            "--cases",
            MINI,
            "--fixture-dir",
            "/nonexistent/toolpath",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot create the run directory in /nonexistent/toolpath",
        ));
}

#[test]
fn git_cases_run_without_git_on_path() {
    let (code, report) = run_json(&["--cases", "tests/data/git"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["summary"]["pass"], 2, "{report}");
    // Fixture repositories are written in-process: without any git on PATH
    // (and so none that could read a planted configuration) they still
    // run, and pass.
    let out = toolpath()
        .env("PATH", "/nonexistent")
        .args(["run", "--cases", "tests/data/git", "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert_eq!(report["summary"]["pass"], 2, "{report}");
}

#[test]
fn a_report_written_to_a_device_leaves_the_device_in_place() {
    use std::os::unix::fs::FileTypeExt;
    // `--output /dev/null` once renamed a temporary file over /dev/null:
    // a device is written into, never replaced. A link given as an output
    // is refused (issue 30: a report was written through one, and a tail
    // planted in its target survived), and left as it is.
    toolpath()
        .args(["run", "--cases", MINI, "--filter", "mini.resolve.outside"])
        .args(["--format", "json", "--output", "/dev/null"])
        .assert()
        .code(0);
    assert!(
        std::fs::symlink_metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("null");
    std::fs::write(dir.path().join("sink"), "").unwrap();
    std::os::unix::fs::symlink(dir.path().join("sink"), &link).unwrap();
    toolpath()
        .args(["run", "--cases", MINI, "--filter", "mini.resolve.outside"])
        .args(["--format", "json", "--output"])
        .arg(&link)
        .assert()
        .code(4);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(dir.path().join("sink")).unwrap(), b"");
}

#[test]
fn no_event_log_is_put_beside_a_device() {
    // `--output /dev/null` once left `/dev/null.events.jsonl`, a file in
    // /dev: the default log goes beside the first report that is a file, and
    // with none, a run writes no log unless `--events` asks for one.
    let dir = tempfile::tempdir().unwrap();
    toolpath()
        .args(["run", "--cases", MINI, "--filter", "mini.resolve.outside"])
        .args(["--format", "json", "--output", "/dev/null"])
        .assert()
        .code(0);
    assert!(!Path::new("/dev/null.events.jsonl").exists());
    let report = dir.path().join("report.xml");
    toolpath()
        .args(["run", "--cases", MINI, "--filter", "mini.resolve.outside"])
        .args(["--format", "json", "--output", "/dev/null"])
        .args(["--format", "junit", "--output"])
        .arg(&report)
        .assert()
        .code(0);
    assert!(!Path::new("/dev/null.events.jsonl").exists());
    assert!(dir.path().join("report.xml.events.jsonl").is_file());
}

/// A report records the part of the suite it ran (`selection`; a unit
/// test of `Selected` shows it absent for the whole suite), its event log
/// keeps it, and the certification page
/// says *only* which part beside the row in both tables; reports of two
/// suite versions are refused on one page unless `--mixed-versions`.
#[test]
fn reports_record_their_selection_and_certification_compares_like_with_like() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).display().to_string();
    let (_, all) = run_json(&["--cases", MINI]);
    assert_eq!(all["selection"], serde_json::json!({"cases": [MINI]}));
    let out = toolpath()
        .args(["run", "--cases", MINI, "--tool", "shell", "--shard", "1/1"])
        .args(["--format", "json", "--output", &at("part.json")])
        .args(["--events", &at("part.jsonl")])
        .output()
        .unwrap();
    assert!(out.status.code().unwrap() <= 1, "{out:?}");
    let part: Value =
        serde_json::from_str(&std::fs::read_to_string(at("part.json")).unwrap()).unwrap();
    assert_eq!(part["selection"]["tools"], serde_json::json!(["shell"]));
    assert_eq!(part["selection"]["shard"], "1/1");
    assert_eq!(part["selection"]["cases"], serde_json::json!([MINI]));
    for source in [at("part.json"), at("part.jsonl")] {
        let page = toolpath()
            .args(["certification", &source])
            .output()
            .unwrap();
        assert!(page.status.success(), "{page:?}");
        let page = String::from_utf8(page.stdout).unwrap();
        let only = format!("*(only tools shell; shard 1/1; cases from {MINI})*");
        // In both tables, and in the lists of what each row's run cost
        // and what it was run against.
        assert_eq!(page.matches(&only).count(), 4, "{source}:\n{page}");
    }
    // The same report under another suite version: refused, then allowed.
    let mut older = part.clone();
    older["suite"] = "0.0.1".into();
    std::fs::write(at("older.json"), older.to_string()).unwrap();
    toolpath()
        .args(["certification", &at("part.json"), &at("older.json")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("different suite versions").and(
            predicate::str::contains(format!("suite 0.0.1: {}", at("older.json"))),
        ));
    toolpath()
        .args(["certification", "--mixed-versions"])
        .args([at("part.json"), at("older.json")])
        .assert()
        .success();
}

/// The human report reads top-down and stays short: against a fresh
/// skeleton (its resolve checks nothing), the rules come before any
/// failing instance, at most ten instances get a block and a line counts
/// the rest and points to `--every-failure`, which shows every one.
#[test]
fn the_human_report_shows_a_few_failures_and_points_to_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let skeleton = dir.path().join("skeleton");
    toolpath()
        .args(["new-adapter", "--lang", "python"])
        .arg(&skeleton)
        .assert()
        .success();
    let run = |extra: &[&str]| -> String {
        let out = toolpath()
            .current_dir(&skeleton)
            .args([
                "run",
                "--tool",
                "resolve",
                "--adapter",
                "python3 adapter.py",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let blocks = |out: &str| out.lines().filter(|l| l.contains(": FAIL ")).count();
    let short = run(&[]);
    let rules_at = short.find("\nrules: ").expect("a rules summary");
    let first_block = short.find(": FAIL ").expect("a failing instance");
    assert!(rules_at < first_block, "{short}");
    assert_eq!(blocks(&short), 10, "{short}");
    let pointer = short
        .lines()
        .find(|l| l.contains("more failing instances not shown: `--every-failure`"))
        .expect("the rest counted");
    let hidden: usize = pointer.split(' ').next().unwrap().parse().unwrap();
    let every = run(&["--every-failure"]);
    assert_eq!(blocks(&every), 10 + hidden, "{every}");
    assert!(!every.contains("not shown: `--every-failure`"));
}

/// A run records the day it was made and, when asked (`--control`), that
/// it certifies a known-bad control and why: what the certification page
/// shows beside the row.
#[test]
fn a_run_records_its_day_and_a_control_s_reason() {
    let (code, report) = run_json(&["--cases", MINI, "--control", "the release before the fix"]);
    assert_eq!(code, 0, "{report}");
    let record = &report["run_against"];
    assert_eq!(record["control"], "the release before the fix", "{record}");
    let day = record["certified"].as_str().expect("a date");
    assert_eq!(day.len(), 10, "{day}");
    let (_, report) = run_json(&["--cases", MINI]);
    assert_eq!(
        report["run_against"].get("control"),
        None,
        "none unless asked"
    );
}
