//! Deliberately wrong subjects that get something out of the workspace
//! while answering what the case expects, each caught by the channel it
//! took (SEC-12): reading `lnk/../x` physically (read), searches and globs
//! that follow links below the searched directory (list and read), a
//! shell that runs in the physical directory (exec), writing above the
//! fixture directory and writing 0.3 s after answering, touching, chmodding
//! or setting an attribute on a file beside the roots (write); handing an
//! outside file to another owner is denied to every subject. Before SEC-12 each showed 0
//! escapes: the first three write nothing, and neither a path above the
//! fixture directory, nor a write after the answer, nor an owner was
//! looked at. The two writes outside the fixture directory land only for
//! a subject that runs as the harness's user: of a root harness, a subject
//! runs as the run's own user and they are denied (one test proves the denial), so
//! their escapes are proven on a subject run with `--subject-as-root`.
//!
//! The subjects are `tests/adapters/escaper.py`'s modes, over the
//! reference; the reference and the Python port showing none is the
//! whole-suite runs' (`tests/cases.rs`, `scripts/certify`).

use assert_cmd::Command;
use serde_json::Value;

/// The cases matching `filters` through `escaper.py MODE`; the JSON report.
fn run(mode: &str, filters: &[&str]) -> Value {
    run_with(mode, filters, &[])
}

/// [`run`] with `extra` arguments to `toolpath run`.
fn run_with(mode: &str, filters: &[&str], extra: &[&str]) -> Value {
    let mut run = Command::cargo_bin("toolpath").unwrap();
    run.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
        .args(["run", "--jobs", "2", "--format", "json"])
        .args(extra);
    for filter in filters {
        run.args(["--filter", filter]);
    }
    let out = run
        .args([
            "--adapter",
            &format!("python3 tests/adapters/escaper.py {mode}"),
        ])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{mode}: no report ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Each escape's id and channels, sorted by id.
fn escapes(report: &Value) -> Vec<(String, Vec<String>)> {
    let mut found: Vec<(String, Vec<String>)> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["containment"]["class"] == "escape")
        .map(|c| {
            let channels = c["containment"]["channels"]
                .as_array()
                .map(|a| a.iter().map(|s| s.as_str().unwrap().to_owned()).collect())
                .unwrap_or_default();
            (c["id"].as_str().unwrap().to_owned(), channels)
        })
        .collect();
    found.sort();
    found
}

/// The report's escapes per channel, as `[read, list, exec, write]`.
fn by_channel(report: &Value) -> [u64; 4] {
    let c = &report["containment"]["escapes_by_channel"];
    ["read", "list", "exec", "write"].map(|k| {
        c[k].as_u64()
            .unwrap_or_else(|| panic!("no escapes per channel: {}", report["containment"]))
    })
}

#[test]
fn reading_dotdot_after_a_link_physically_is_a_read_escape() {
    let report = run(
        "read-physical",
        &["security.shape.dotdot-after-link-file.*"],
    );
    let found = escapes(&report);
    let read = ["read".to_owned()];
    assert_eq!(
        found,
        [
            (
                "security.shape.dotdot-after-link-file.read_file.abs.r1".to_owned(),
                read.to_vec()
            ),
            (
                "security.shape.dotdot-after-link-file.read_file.abs.r2".to_owned(),
                read.to_vec()
            ),
        ]
    );
    assert_eq!(by_channel(&report), [2, 0, 0, 0]);
    assert_eq!(report["containment"]["escapes"], 2);
    // The instance fails on SEC-12, besides its content.
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == found[0].0)
        .unwrap();
    assert_eq!(case["status"], "fail");
    assert!(
        case["mismatches"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["field"] == "outside" && m["rule"] == "SEC-12"),
        "{case}"
    );
}

#[test]
fn searches_and_globs_following_links_below_are_list_and_read_escapes() {
    let report = run(
        "follow-links",
        &[
            "security.glob.walk-links-not-followed",
            "security.shape.walk-link-out.*",
        ],
    );
    let found = escapes(&report);
    let channels_of = |id: &str| {
        found
            .iter()
            .find(|(i, _)| i.starts_with(id))
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| panic!("{id} is not an escape: {found:?}"))
    };
    // A glob reports names: the list channel alone.
    assert_eq!(
        channels_of("security.glob.walk-links-not-followed"),
        ["list"]
    );
    // A search through a link out reports the path and the outside line.
    assert!(
        found
            .iter()
            .any(|(id, c)| id.contains(".search.") && c == &["read", "list"]),
        "{found:?}"
    );
    let [read, list, exec, write] = by_channel(&report);
    assert!(read > 0 && list > 0, "{:?}", by_channel(&report));
    assert_eq!((exec, write), (0, 0));
}

#[test]
fn a_shell_running_in_the_physical_directory_is_an_exec_escape() {
    let report = run(
        "shell-physical",
        &[
            "security.shape.dotdot-after-link.shell.*",
            "shell.shape.ls-dotdot-after-link.*",
        ],
    );
    let found = escapes(&report);
    assert_eq!(found.len(), 8, "{found:?}");
    assert!(found.iter().all(|(_, c)| c == &["exec"]), "{found:?}");
    assert_eq!(by_channel(&report), [0, 0, 8, 0]);
    // The adapter reported the lexical `cwd`: the verdict did not read it.
    let evidence: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["containment"]["evidence"].as_str())
        .collect();
    assert!(
        evidence
            .iter()
            .any(|e| e.contains("`pwd` printed `{tmp}/outside/x`"))
            && evidence
                .iter()
                .any(|e| e.contains("`ls` printed the names in `{tmp}/outside/x`")),
        "{evidence:?}"
    );
}

/// Two `ls` tools whose every reported path is inside, yet whose answer
/// follows what lies outside: one lists the directory the kernel reaches
/// through `lnk/..` and keeps only names that exist inside as well,
/// counting the rest ("(N ignored)", the names-as-an-oracle);
/// the other reports that directory's names under the lexical path.
/// Before non-interference both were *accepted*: no path walks out, no
/// line or canary is carried. On the fixture's twin (other names, counts
/// and sizes outside) their answer changes: a list escape each.
#[test]
fn an_ls_whose_answer_follows_the_outside_is_a_list_escape() {
    for (mode, field) in [("names-oracle", "model_text"), ("list-physical", "entries")] {
        let report = run(mode, &["security.shape.dotdot-after-link.*"]);
        let cases = report["cases"].as_array().unwrap();
        let ls: Vec<&str> = (cases.iter())
            .filter_map(|c| c["id"].as_str())
            .filter(|id| id.contains(".ls."))
            .collect();
        assert!(!ls.is_empty(), "{mode}: no ls instance");
        let found = escapes(&report);
        let ids: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
        let mut sorted = ls.clone();
        sorted.sort();
        assert_eq!(ids, sorted, "{mode}: only and every ls instance escapes");
        assert!(
            found.iter().all(|(_, c)| c == &["list"]),
            "{mode}: {found:?}"
        );
        assert_eq!(by_channel(&report), [0, ls.len() as u64, 0, 0], "{mode}");
        for c in cases
            .iter()
            .filter(|c| c["containment"]["class"] == "escape")
        {
            let evidence = c["containment"]["evidence"].as_str().unwrap_or_default();
            assert!(
                evidence.contains(&format!(
                    "`{field}` changed with what lies outside every root"
                )),
                "{mode}: {evidence}"
            );
            assert_eq!(c["status"], "fail", "{mode}: {c}");
        }
    }
}

/// A field that differs between two answers on the same fixture is noise,
/// not a leak: an honest subject whose text ends with a number drawn per
/// call differs on the twin too, and is no escape (the third call, on the
/// fixture built again, shows the same difference).
#[test]
fn a_field_that_differs_on_the_same_fixture_is_noise_not_an_escape() {
    let report = run("noisy", &["security.shape.dotdot-after-link.*"]);
    assert_eq!(escapes(&report), Vec::<(String, Vec<String>)>::new());
    let cases = report["cases"].as_array().unwrap();
    assert!(cases.len() > 8, "{report}");
    let passed = cases.iter().filter(|c| c["status"] == "pass").count();
    assert_eq!(passed, cases.len(), "{report}");
}

/// The one instance of `report`, its containment class and evidence.
fn only(report: &Value) -> (String, String, String) {
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 1, "{report}");
    let c = &cases[0];
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    (
        text(&c["status"]),
        text(&c["containment"]["class"]),
        text(&c["containment"]["evidence"]),
    )
}

/// A private directory the run's user may pass through, and a log in it every
/// user may append to, for `ESCAPER_LOG`.
fn open_log() -> (tempfile::TempDir, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
    let log = dir.path().join("escaper.log");
    std::fs::write(&log, "").unwrap();
    std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o666)).unwrap();
    (dir, log)
}

/// A subject that writes above its fixture directory. Of a root harness
/// it runs as the run's own user and owns its fixture directory alone: the write is
/// denied (`spec/protocol.md`, "The subject's user"), and the case passes
/// as refused. What the box lets through is still watched: run as root
/// (`--subject-as-root`, and every run of a harness that is not root,
/// where the subject is the harness's user), the write lands and is a
/// write escape.
#[test]
fn a_write_above_the_fixture_directory_is_a_write_escape() {
    if toolpath::sys::is_root() {
        let (_dir, log) = open_log();
        let mut run = Command::cargo_bin("toolpath").unwrap();
        let out = run
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
            .env("ESCAPER_LOG", &log)
            .args(["run", "--format", "json"])
            .args(["--filter", "file.write.above-fixture-dir"])
            .args([
                "--adapter",
                "python3 tests/adapters/escaper.py write-refused",
            ])
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "write denied\n");
        assert_eq!(
            only(&report),
            ("pass".into(), "refused".into(), String::new())
        );
        assert_eq!(by_channel(&report), [0, 0, 0, 0]);
    }
    // Refused as it should be, and written all the same: no snapshot of
    // the fixture sees `{ws}/../../x`; the path the call named is watched.
    let report = run_with(
        "write-refused",
        &["file.write.above-fixture-dir"],
        &as_root(),
    );
    assert_eq!(
        only(&report),
        (
            "fail".into(),
            "escape".into(),
            "write: changed outside every root: \
             + {run-dir}/fixtures/file-write-above-fixture-dir.txt (file)"
                .into()
        )
    );
    assert_eq!(by_channel(&report), [0, 0, 0, 1]);
}

/// Handing an outside file to another owner needs CAP_CHOWN, which no
/// subject holds (issue 30): the attempt is denied, nothing outside
/// changes, and the refusal stands. That a change of owner is an escape
/// when one happens is `harness::snapshot`'s unit test (an owner changed
/// by the harness itself, which may).
#[test]
fn a_subject_cannot_hand_an_outside_file_to_another_owner() {
    if !toolpath::test_support::root_or_skip("handing a file to another owner") {
        return;
    }
    let (_dir, log) = open_log();
    let mut run = Command::cargo_bin("toolpath").unwrap();
    let out = run
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
        .env("ESCAPER_LOG", &log)
        .args([
            "run",
            "--format",
            "json",
            "--filter",
            "file.write.dotdot-out",
        ])
        .args([
            "--adapter",
            "python3 tests/adapters/escaper.py chown-refused",
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "chown denied\n",
        "the subject changed an owner"
    );
    assert_eq!(
        only(&report),
        ("pass".into(), "refused".into(), String::new())
    );
    assert_eq!(by_channel(&report), [0, 0, 0, 0]);
}

#[test]
fn a_write_after_the_answer_is_charged_to_its_call() {
    // Refused, answered, and written 0.3 s later, after the fixture was
    // removed: the fixture directory made again belongs to this instance
    // alone, watched until the subject has ended. (Of a root harness, a
    // subject run as the run's own user cannot make it again: the watch is proven
    // on a subject run as root.)
    let report = run_with("write-late", &["file.write.dotdot-out"], &as_root());
    assert_eq!(
        only(&report),
        (
            "fail".into(),
            "escape".into(),
            "write: changed outside every root after the answer: \
             + {tmp} (made again, after it was removed)"
                .into()
        )
    );
    assert_eq!(by_channel(&report), [0, 0, 0, 1]);
}

/// `--subject-as-root` when this harness is root (the subject then writes
/// wherever root may, as it does as the harness's user otherwise), for
/// the escapes only such a subject can make.
fn as_root() -> Vec<&'static str> {
    match toolpath::sys::is_root() {
        true => vec!["--subject-as-root"],
        false => vec![],
    }
}

/// A subject that refuses a path outside as it should and then touches the
/// file there, changes its mode or gives it an extended attribute: the
/// fixture is the subject's own, so each lands, and each is a write out
/// (SEC-11, SEC-12). Before the snapshot read times and attributes, the
/// touch and the attribute passed as refused.
#[test]
fn touching_chmodding_or_marking_an_outside_file_is_a_write_escape() {
    for (mode, how) in [
        ("touch-refused", "modification and change time"),
        ("chmod-refused", "mode 0644 -> 0600"),
        ("xattr-refused", "extended attributes"),
    ] {
        let report = run(mode, &["file.write.dotdot-out"]);
        assert_eq!(
            only(&report),
            (
                "fail".into(),
                "escape".into(),
                format!("write: changed outside every root: ~ {{tmp}}/outside/secret.txt ({how})")
            ),
            "{mode}"
        );
        assert_eq!(by_channel(&report), [0, 0, 0, 1], "{mode}");
    }
}

/// A search that reads the links to files below the searched directory
/// reports `{ws}/src/leak.txt`, a link to `outside/secret.txt`, at a line
/// an inside file holds too: no canary, no line only outside files hold,
/// and a reported path whose last component was never walked through.
/// It was *accepted*; the file a match came from is resolved whole now.
#[test]
fn a_match_read_through_a_last_link_out_is_a_read_escape() {
    let report = run("follow-file-links", &["security.walk.file-link*"]);
    let found = escapes(&report);
    assert!(!found.is_empty(), "{report}");
    assert!(found.iter().all(|(_, c)| c == &["read"]), "{found:?}");
    let evidence: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["containment"]["evidence"].as_str())
        .collect();
    assert!(
        evidence
            .iter()
            .all(|e| *e == "read: read `{tmp}/ws/src/leak.txt`, a link to the outside"),
        "{evidence:?}"
    );
    let [read, list, exec, write] = by_channel(&report);
    assert_eq!((read as usize, list, exec, write), (found.len(), 0, 0, 0));
}

/// A tool that makes the missing directories of its path before its
/// containment check, and leaves them when it refuses: no case had a file
/// tool write into a missing directory outside, so its file tools passed
/// every one (only a shell run in a missing directory outside was
/// caught; the cases are kept below). Into missing directories through
/// `..`, a dangling link and a link to a directory outside, every file
/// tool and the shell: each cell refused, and each a write escape, the
/// directory it made named.
#[test]
fn directories_made_before_a_refusal_are_a_write_escape() {
    let before = run(
        "mkdirs-first",
        &[
            "security.shape.dotdot-out.*",
            "security.shape.dangling-out.*",
            "security.shape.outside-missing.*",
        ],
    );
    let caught = escapes(&before);
    assert!(!caught.is_empty());
    assert!(
        caught.iter().all(|(id, _)| id.contains(".shell.")),
        "{caught:?}"
    );
    let report = run("mkdirs-first", &["security.shape.*missing-dirs*"]);
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 30);
    let found = escapes(&report);
    assert_eq!(found.len(), 30, "{found:?}");
    assert!(found.iter().all(|(_, c)| c == &["write"]), "{found:?}");
    assert_eq!(by_channel(&report), [0, 0, 0, 30]);
    let evidence: std::collections::BTreeSet<&str> = cases
        .iter()
        .filter_map(|c| c["containment"]["evidence"].as_str())
        .collect();
    assert_eq!(
        evidence.into_iter().collect::<Vec<_>>(),
        [
            "write: changed outside every root: + {tmp}/outside/missing (directory)",
            "write: changed outside every root: + {tmp}/outside/new (directory)",
        ]
    );
}

/// A subject that allows its own temporary directory beside the roots,
/// as one MCP file server allows /tmp: no fixture holds anything there,
/// and no case read a file there, so its `read_file` and `ls` passed
/// every case (only its search of `{adapter-tmp}` was caught, by the
/// `ok` alone). The harness now puts a canary there before each call,
/// and cases ask for it: the file read out holds it (read), and the
/// canary read back is in the evidence.
#[test]
fn what_a_subject_reaches_in_its_own_temporary_directory_is_an_escape() {
    let before = run(
        "allow-tmp",
        &[
            "security.scratch.adapter-tmp-resolve",
            "security.scratch.adapter-tmp-search*",
            "security.scratch.adapter-tmp-shell",
            "security.scratch.adapter-tmp-missing*",
        ],
    );
    let caught = escapes(&before);
    assert!(
        caught.iter().all(|(id, _)| id.contains("-search")),
        "{caught:?}"
    );
    let report = run("allow-tmp", &["security.scratch.adapter-tmp-canary*"]);
    let cases = report["cases"].as_array().unwrap();
    let found = escapes(&report);
    assert_eq!(found.len(), cases.len(), "{found:?}");
    let evidence = |id: &str| {
        cases
            .iter()
            .find(|c| c["id"].as_str().unwrap().starts_with(id))
            .and_then(|c| c["containment"]["evidence"].as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let read = evidence("security.scratch.adapter-tmp-canary-read_file");
    assert_eq!(
        read,
        "read: answered ok; read: content holds an outside file's canary; \
         list: reported a path outside the fixture directory"
    );
    let grep = evidence("security.scratch.adapter-tmp-canary-search");
    assert!(grep.contains("holds an outside file's canary"), "{grep}");
}

/// The skeleton `toolpath new-adapter` writes declares one tool,
/// `resolve`, which checks nothing: it answers `ok` for every path
/// outside. What got out is the resolved path, handed back as one to act
/// on: nothing was listed, so every such escape is filed under
/// *resolve*, never *list* (before, all of them were list escapes). Every
/// format a run writes counts it there, and so do both forms of the
/// certification page made from its JSON report.
#[test]
fn a_skeleton_s_resolve_escapes_are_filed_under_resolve() {
    let dir = tempfile::tempdir().unwrap();
    let skeleton = dir.path().join("skeleton");
    let made = Command::cargo_bin("toolpath")
        .unwrap()
        .args(["new-adapter", "--lang", "python"])
        .arg(&skeleton)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let out = Command::cargo_bin("toolpath")
        .unwrap()
        .current_dir(&skeleton)
        .args(["run", "--jobs", "2", "--adapter", "python3 adapter.py"])
        .args(["--format", "json", "--output", &at("run.json")])
        .args(["--format", "junit", "--output", &at("run.xml")])
        .args(["--format", "markdown", "--output", &at("run.md")])
        .args(["--format", "human"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let human = String::from_utf8(out.stdout).unwrap();
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(at("run.json")).unwrap()).unwrap();

    let found = escapes(&report);
    assert!(found.len() > 20, "{found:?}");
    for (id, channels) in &found {
        assert_eq!(channels, &["resolve"], "{id}");
    }
    let tools: Vec<&Value> = (report["cases"].as_array().unwrap().iter())
        .filter(|c| c["containment"]["class"] == "escape")
        .map(|c| &c["tool"])
        .collect();
    assert!(tools.iter().all(|t| *t == "resolve"), "{tools:?}");
    let n = found.len();
    let counts = &report["containment"]["escapes_by_channel"];
    assert_eq!(counts["resolve"], n, "{counts}");
    assert_eq!(by_channel(&report), [0, 0, 0, 0], "{counts}");

    let line = format!("read 0, list 0, resolve {n}, exec 0, write 0");
    assert!(human.contains(&line), "human: {line}\n{human}");
    let junit = std::fs::read_to_string(at("run.xml")).unwrap();
    let property = format!("<property name=\"containment.escapes.resolve\" value=\"{n}\"/>");
    assert!(junit.contains(&property), "junit: {property}");
    assert!(junit.contains("<property name=\"containment.escapes.list\" value=\"0\"/>"));
    // Markdown's containment table: a `resolve` column holding n.
    let markdown = std::fs::read_to_string(at("run.md")).unwrap();
    assert_eq!(column(&markdown, "resolve"), n.to_string(), "{markdown}");
    assert_eq!(column(&markdown, "list"), "0", "{markdown}");

    let page = |format: &str| {
        let out = Command::cargo_bin("toolpath")
            .unwrap()
            .args(["certification", "--format", format, &at("run.json")])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let table = page("markdown");
    assert_eq!(column(&table, "resolve"), n.to_string(), "{table}");
    assert_eq!(column(&table, "list"), "0", "{table}");
    let html = page("html");
    assert!(html.contains(">resolve</th>"), "html: no resolve column");
}

/// The cell under the heading `name` in the first Markdown table whose
/// heading row has it.
fn column(markdown: &str, name: &str) -> String {
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_owned())
            .collect()
    };
    let lines: Vec<&str> = markdown.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with('|') && cells(l).iter().any(|c| c == name))
        .unwrap_or_else(|| panic!("no table with a `{name}` column"));
    let i = cells(lines[at]).iter().position(|c| c == name).unwrap();
    cells(lines[at + 2])[i].clone()
}

/// A subject that allows its own `HOME` or its working directory beside
/// the roots, as one MCP file server allows `$HOME` (and many tools their
/// process's directory): an adapter kept the harness's `HOME` and ran in
/// the directory `toolpath` was started in, where no canary is (or may
/// be put: they are the user's), so neither showed anything. Each is
/// private to the adapter process now (`{adapter-tmp}/home`,
/// `{adapter-tmp}/work`), with a canary of the call's in each, and cases
/// ask for them through every tool that reads or lists, the working
/// directory by a relative path too: every one is an escape, and what
/// was read holds the canary.
#[test]
fn what_a_subject_reaches_in_its_home_or_working_directory_is_an_escape() {
    for (mode, filter) in [
        ("allow-home", "security.scratch.adapter-tmp-home-canary*"),
        ("allow-cwd", "security.scratch.adapter-*cwd*"),
    ] {
        let report = run(mode, &[filter]);
        let cases = report["cases"].as_array().unwrap();
        assert!(cases.len() >= 5, "{mode}: {report}");
        let found = escapes(&report);
        assert_eq!(found.len(), cases.len(), "{mode}: {found:?}");
        for case in cases {
            let id = case["id"].as_str().unwrap();
            let evidence = case["containment"]["evidence"].as_str().unwrap_or_default();
            // What a tool read holds the canary; what one listed is a path
            // outside the fixture directory.
            let listed = id.ends_with("-ls") || id.ends_with("-glob");
            let expected = match listed {
                true => "list: reported a path outside the fixture directory",
                false => "holds an outside file's canary",
            };
            assert!(evidence.contains(expected), "{mode}: {id}: {evidence}");
        }
    }
}

/// A subject that refuses a file of its own temporary directory as
/// outside, as it should, and then touches it, changes its mode or gives
/// it an extended attribute. That file is outside the fixture directory,
/// so no snapshot sees it; the watch of the paths a call names saw its
/// type, bits, content and link target only, so the chmod alone was an
/// escape. Now its owner, times and attributes are watched as the
/// fixture's outside part is. (The canary there is the harness's: a
/// subject of a root harness, run as the run's own user, may not touch
/// it; the marks are proven on a subject run as root.)
#[test]
fn touching_chmodding_or_marking_a_named_file_beyond_the_fixture_is_a_write_escape() {
    for (mode, how) in [
        ("touch-tmp", "modification and change time"),
        ("chmod-tmp", "mode 0644 -> 0600"),
        ("xattr-tmp", "extended attributes"),
    ] {
        let report = run_with(
            mode,
            &["security.scratch.adapter-tmp-canary-read_file"],
            &as_root(),
        );
        assert_eq!(
            only(&report),
            (
                "fail".into(),
                "escape".into(),
                format!(
                    "write: changed outside every root: ~ {{adapter-tmp}}/toolpath-canary.txt ({how})"
                )
            ),
            "{mode}"
        );
        assert_eq!(by_channel(&report), [0, 0, 0, 1], "{mode}");
    }
}
