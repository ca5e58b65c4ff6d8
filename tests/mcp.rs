//! `toolpath run --mcp`: a fake MCP server (`tests/mcp/fake_server.py`,
//! no SDK) certified from its profile (`tests/mcp/fake.profile.yaml`)
//! over the cases of `tests/data/mcp`. Read right, it passes; every
//! verdict an MCP run adds has a deliberately wrong profile or a
//! misbehaving server here that must trip it: non-JSON stdout, a request
//! never answered, a server that ignores its input closing, codes only a
//! default rule gave, roots swapped asynchronously, failures reported as
//! success text, an unknown protocol revision, and on the file tools a
//! write led outside by a dangling link, a read that rewrites line
//! endings and an argument template that swaps the edit's strings.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn base_profile() -> String {
    std::fs::read_to_string(root().join("tests/mcp/fake.profile.yaml")).unwrap()
}

/// The fake's profile, with `{profile}` pointing at the fake, after
/// `edits` (each a text replaced, which must be there), in `dir`.
fn profile(dir: &Path, modes: &str, edits: &[(&str, &str)]) -> PathBuf {
    let mut text = base_profile().replace(
        "{profile}/fake_server.py",
        &root()
            .join("tests/mcp/fake_server.py")
            .display()
            .to_string(),
    );
    text = text.replace("FAKE_MODES: \"\"", &format!("FAKE_MODES: \"{modes}\""));
    for (from, to) in edits {
        assert!(text.contains(from), "the profile has no `{from}`");
        text = text.replace(from, to);
    }
    let file = dir.join("p.profile.yaml");
    std::fs::write(&file, text).unwrap();
    file
}

/// Runs the mcp cases against `profile`, one worker (findings counted
/// deterministically); the exit code and the JSON report.
fn run(profile: &Path) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(root())
        .args(["run", "--jobs", "1", "--cases", "tests/data/mcp"])
        // A certain hang (mode `hang`) is the only wait that reaches it; a
        // loaded machine answers the fake's other calls well within.
        .args(["--timeout-ms", "5000", "--hello-timeout-ms", "60000"])
        .args(["--format", "json", "--mcp"])
        .arg(profile)
        .output()
        .expect("toolpath runs");
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}):\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().expect("an exit code"), report)
}

fn case<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

fn status<'a>(report: &'a Value, id: &str) -> &'a str {
    case(report, id)["status"].as_str().unwrap()
}

/// Instance id to status, for every instance.
fn statuses(report: &Value) -> Vec<(String, String)> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn findings(report: &Value) -> Vec<(String, u64)> {
    report["findings"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|f| {
                    (
                        f["kind"].as_str().unwrap().to_owned(),
                        f["count"].as_u64().unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn mismatched(report: &Value, id: &str) -> Vec<String> {
    case(report, id)["mismatches"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| m["field"].as_str().unwrap().to_owned())
        .collect()
}

/// The well-behaved fake, read right: everything it can show passes (its
/// `ls` shows no kind or path: not observable), no findings, and the
/// version comes from the profile's command, not `serverInfo` (0.0.1
/// from both here; the command's last word).
#[test]
fn a_profile_read_right_passes_and_says_why_it_cannot_take_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "", &[]));
    let want = [
        // kind composed from success: never passed.
        ("mcp.edit.file", "unobserved"),
        ("mcp.ls.dir", "unobserved"),
        ("mcp.read.text", "unobserved"),
        ("mcp.resolve.dir", "pass"),
        ("mcp.resolve.file", "pass"),
        ("mcp.resolve.hang", "pass"),
        ("mcp.resolve.missing", "pass"),
        ("mcp.resolve.second-root", "pass"),
        ("mcp.search.none@grep", "unsupported"),
        ("mcp.search.none@ripgrep", "unsupported"),
        ("mcp.write.dangling-out", "pass"),
    ];
    let got = statuses(&report);
    assert_eq!(
        got,
        want.map(|(i, s)| (i.to_owned(), s.to_owned())),
        "{report:#}"
    );
    assert_eq!(code, 0);
    assert_eq!(findings(&report), []);
    assert_eq!(report["implementation"]["name"], "fake-mcp");
    assert_eq!(report["implementation"]["version"], "0.0.1");
    assert_eq!(
        case(&report, "mcp.search.none@grep")["reason"],
        "no fitting server tool: the fake has no content search"
    );
    assert_eq!(
        case(&report, "mcp.search.none@ripgrep")["reason"],
        "the profile maps no server tool to `ripgrep`"
    );
}

/// Each field the verdict reads from a server's text, read wrong by the
/// profile, fails the cases that judge it.
#[test]
fn a_profile_that_reads_wrong_fails_on_the_field_it_reads_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let swapped_kinds = [(
        "{line: '^isDirectory: true$', kind: directory}",
        "{line: '^isDirectory: true$', kind: file}",
    )];
    let (code, report) = run(&profile(dir.path(), "", &swapped_kinds));
    assert_eq!(code, 1);
    assert_eq!(mismatched(&report, "mcp.resolve.dir"), ["kind"]);
    assert_eq!(status(&report, "mcp.resolve.file"), "pass");

    let wrong_path = [("'^path: (?P<path>.*)$'", "'^path: (?P<path>.*)/[^/]*$'")];
    let (_, report) = run(&profile(dir.path(), "", &wrong_path));
    assert_eq!(mismatched(&report, "mcp.resolve.file"), ["path"]);

    let wrong_types = [("{FILE: file, DIR: directory", "{FILE: directory, DIR: file")];
    let (_, report) = run(&profile(dir.path(), "", &wrong_types));
    assert_eq!(mismatched(&report, "mcp.ls.dir"), ["entries"]);

    let wrong_code = [(
        "{errno: ENOENT, code: not_found}",
        "{errno: ENOENT, code: permission_denied}",
    )];
    let (_, report) = run(&profile(dir.path(), "", &wrong_code));
    assert_eq!(mismatched(&report, "mcp.resolve.missing"), ["error.code"]);
    let shown = &case(&report, "mcp.resolve.missing")["mismatches"][0]["actual"];
    assert_eq!(
        shown,
        "permission_denied (rule: errors.codes[2]: errno ENOENT)"
    );

    // The roots to a server that takes them on the command line: a
    // process per set of roots; a server taking one root cannot take a
    // case of two, and says so.
    let argv = [(
        "via: mcp\n  ready: {tool: allowed}",
        "via: flag\n  flag: --root\n  max: 1",
    )];
    let (code, report) = run(&profile(dir.path(), "", &argv));
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(status(&report, "mcp.resolve.dir"), "pass");
    assert_eq!(
        case(&report, "mcp.resolve.second-root")["reason"],
        "the server takes at most 1 allowed directory and this case has 2 roots"
    );
}

/// Lines on stdout that are not JSON-RPC are skipped (the answers still
/// pass) and reported as a finding, per instance they came during.
#[test]
fn stray_stdout_is_a_finding_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "noise", &[]));
    assert_eq!(code, 0);
    assert_eq!(status(&report, "mcp.resolve.file"), "pass");
    let found = &report["findings"][0];
    assert_eq!(found["kind"], "not_json_rpc");
    assert!(found["count"].as_u64().unwrap() >= 6, "{found}");
    assert!(
        found["example"].as_str().unwrap().starts_with("checking "),
        "{found}"
    );
    assert!(
        found["cases"]
            .as_array()
            .unwrap()
            .contains(&Value::from("mcp.resolve.file"))
    );
}

/// A request never answered fails that case (the server failed it: not an
/// adapter error), ends the server, and is a finding; the next cases are
/// answered by a fresh server.
#[test]
fn a_request_never_answered_fails_its_case_and_is_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "hang", &[]));
    assert_eq!(code, 1);
    let hung = case(&report, "mcp.resolve.hang");
    assert_eq!(hung["status"], "fail");
    assert_eq!(mismatched(&report, "mcp.resolve.hang"), ["answer"]);
    assert!(
        hung["reason"]
            .as_str()
            .unwrap()
            .starts_with("server never answered: `tools/call info`: no response within"),
        "{hung}"
    );
    assert_eq!(findings(&report), [("never_answered".to_owned(), 1)]);
    assert_eq!(report["summary"]["adapter_error"], 0);
    assert_eq!(
        status(&report, "mcp.resolve.missing"),
        "pass",
        "after a restart"
    );
}

/// A server that keeps running after its input closed is ended by signal
/// at the end of the run and reported.
#[test]
fn a_server_that_ignores_its_input_closing_is_killed_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "linger", &[]));
    assert_eq!(code, 0);
    assert_eq!(findings(&report), [("killed".to_owned(), 1)]);
    let example = report["findings"][0]["example"].as_str().unwrap();
    assert!(example.contains("SIGTERM"), "{example}");
}

/// A code that only the default rule gave is not an observation: the
/// case is unobserved for `error.code`, never passed.
#[test]
fn a_code_only_the_default_rule_gave_is_unobserved() {
    let dir = tempfile::tempdir().unwrap();
    let (_, report) = run(&profile(dir.path(), "vague", &[]));
    let missing = case(&report, "mcp.resolve.missing");
    assert_eq!(missing["status"], "unobserved", "{missing}");
    assert_eq!(missing["unchecked"], serde_json::json!(["error.code"]));
}

/// Failures reported as success text are errors when the profile says
/// which texts they are, and wrong answers when it does not.
#[test]
fn failures_reported_as_success_text_need_the_profiles_texts() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "text-errors", &[]));
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(status(&report, "mcp.resolve.missing"), "pass");
    let unsaid = [("  texts: ['^\\[NOT_FOUND\\]']\n", "")];
    let (_, report) = run(&profile(dir.path(), "text-errors", &unsaid));
    assert_eq!(mismatched(&report, "mcp.resolve.missing"), ["outcome"]);
}

/// A server that swaps its roots asynchronously is polled until the new
/// ones are in force; without the profile's `ready` its first answers
/// come from the old roots and fail.
#[test]
fn roots_swapped_asynchronously_are_awaited_only_when_the_profile_says_how() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "async-roots", &[]));
    assert_eq!(code, 0, "{report:#}");
    let unready = [("\n  ready: {tool: allowed}", "")];
    let (code, report) = run(&profile(dir.path(), "async-roots", &unready));
    assert_eq!(code, 1);
    assert_eq!(mismatched(&report, "mcp.ls.dir"), ["outcome"]);
}

/// Tools listed over two pages are all found, and the server's own
/// requests are answered (`ping` with `{}`, an unknown method with
/// -32601: the fake exits otherwise).
#[test]
fn paged_tools_and_the_servers_own_requests_are_handled() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "paged,ping", &[]));
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(status(&report, "mcp.ls.dir"), "unobserved");
}

/// A server that answers an unknown protocol revision cannot start: every
/// case is not run, with the reason, and the run is partial.
#[test]
fn an_unknown_protocol_revision_cannot_start() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "bad-protocol", &[]));
    assert_eq!(code, 3);
    let reason = case(&report, "mcp.resolve.dir")["reason"].as_str().unwrap();
    assert!(
        reason.contains("answered protocol revision `1999-01-01`"),
        "{reason}"
    );
}

/// A profile with a mistake is refused before anything runs, with its line.
#[test]
fn a_profile_with_a_mistake_is_a_usage_error_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = profile(
        dir.path(),
        "",
        &[("'^path: (?P<path>.*)$'", "'^path: (?P<path>.*$'")],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .args(["run", "--cases", "tests/data/mcp", "--mcp"])
        .arg(&file)
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("p.profile.yaml:") && stderr.contains("not a regular expression"),
        "{stderr}"
    );
}

/// A profile that prepares the fixture (`git init` in each root) does it
/// before the fixture is snapshotted, so the change is not charged to
/// the server (SEC-11), and the findings say it happened, per case.
#[test]
fn a_prepared_fixture_is_a_finding_not_a_change_by_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let prepare = [(
        "  env: {FAKE_MODES",
        "  prepare: [git_init]\n  env: {FAKE_MODES",
    )];
    let (code, report) = run(&profile(dir.path(), "", &prepare));
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(status(&report, "mcp.resolve.file"), "pass");
    // One per root of every instance sent (nine, one of them with two
    // roots; the two refused get no fixture).
    assert_eq!(findings(&report), [("fixture_prepared".to_owned(), 10)]);
}

/// The file tools, through a profile: a server whose write follows a
/// dangling link out of the workspace is an escape in the containment
/// counts (the harness saw the file appear outside, whatever the server
/// answered); a read that rewrites line endings fails `content`; and the
/// argument template is what puts the edit's strings where the server
/// reads them (swapped, the edit finds nothing to replace).
#[test]
fn a_wrong_file_server_is_caught_through_its_profile() {
    let dir = tempfile::tempdir().unwrap();
    let (_, report) = run(&profile(dir.path(), "", &[]));
    assert_eq!(report["containment"]["escapes"], 0, "{report:#}");
    assert_eq!(report["containment"]["refused"], 1);
    let written = case(&report, "mcp.edit.file");
    assert_eq!(
        written["unchecked"],
        serde_json::json!(["kind"]),
        "{written}"
    );

    let (code, report) = run(&profile(dir.path(), "follow-dangling", &[]));
    assert_eq!(code, 1);
    assert_eq!(report["containment"]["escapes"], 1, "{report:#}");
    assert_eq!(report["containment"]["refused"], 0);
    assert_eq!(
        mismatched(&report, "mcp.write.dangling-out"),
        ["outcome", "escape"]
    );
    assert_eq!(
        case(&report, "mcp.write.dangling-out")["containment"]["class"],
        "escape"
    );

    let (code, report) = run(&profile(dir.path(), "crlf", &[]));
    assert_eq!(code, 1);
    assert_eq!(mismatched(&report, "mcp.read.text"), ["content"]);
    let shown = &case(&report, "mcp.read.text")["mismatches"][0];
    assert_eq!(shown["expected"], "\"one\\r\\ntwo\\r\\n\"");
    assert_eq!(shown["actual"], "\"one\\ntwo\\n\"");

    let swapped = [(
        "[{old: \"{old_string}\", new: \"{new_string}\"}]",
        "[{old: \"{new_string}\", new: \"{old_string}\"}]",
    )];
    let (code, report) = run(&profile(dir.path(), "", &swapped));
    assert_eq!(code, 1);
    assert_eq!(mismatched(&report, "mcp.edit.file"), ["outcome"]);
    assert_eq!(status(&report, "mcp.read.text"), "unobserved");
}
