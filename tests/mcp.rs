//! `toolpath run --mcp`: a fake MCP server (`tests/mcp/fake_server.py`,
//! no SDK) certified from its profile (`tests/mcp/fake.profile.yaml`)
//! over the cases of `tests/data/mcp`. Read right, it passes; every
//! verdict an MCP run adds has a deliberately wrong profile or a
//! misbehaving server here that must trip it: non-JSON stdout, a request
//! never answered, a server that ignores its input closing, codes only a
//! default rule gave, roots swapped asynchronously, failures reported as
//! success text, an unknown protocol revision, and on the file tools a
//! write led outside by a dangling link, a read that rewrites line
//! endings and an argument template that swaps the edit's strings; a
//! crash, a line past the cap, forged responses, a search answered in
//! sessions, roots on the command line and in a config file, commands that
//! never end.
//!
//! scripts/test-lanes: waits. Most of its time is spent waiting on what
//! the fake server does on purpose: requests never answered, servers
//! lingering until their SIGKILL.

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
    run_with(profile, &[])
}

/// [`run`] with more arguments; `--cases`, `--jobs`, `--timeout-ms` and
/// `--hello-timeout-ms` among them replace the defaults.
fn run_with(profile: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["run"];
    // A certain hang (mode `hang`) is the only wait that reaches the call
    // timeout; a loaded machine answers the fake's other calls well within.
    for (option, default) in [
        ("--cases", "tests/data/mcp"),
        ("--jobs", "1"),
        ("--timeout-ms", "5000"),
        ("--hello-timeout-ms", "60000"),
    ] {
        if !extra.contains(&option) {
            args.extend([option, default]);
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(root())
        .args(args)
        .args(["--format", "json", "--mcp"])
        .arg(profile)
        .args(extra)
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
/// `ls` shows no kind or path, its search neither: not observable), no
/// findings, and the version comes from the profile's command (0.0.1, its
/// last word), never `serverInfo` (0.2.0 here).
#[test]
fn a_profile_read_right_passes_and_says_why_it_cannot_take_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "", &[]));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);
    assert_eq!(findings(&report), []);
    assert_eq!(report["implementation"]["name"], "fake-mcp");
    assert_eq!(report["implementation"]["version"], "0.0.1");
    assert_eq!(
        case(&report, "mcp.search.hello@ripgrep")["reason"],
        "no fitting server tool: the fake's one content search stands for grep"
    );
    // The file tools read right (what `a_wrong_file_server_is_caught_
    // through_its_profile` holds its wrong servers against): no escape, the
    // write through a dangling link refused, the edit's kind unchecked.
    assert_eq!(report["containment"]["escapes"], 0, "{report:#}");
    assert_eq!(report["containment"]["refused"], 1);
    let written = case(&report, "mcp.edit.file");
    assert_eq!(
        written["unchecked"],
        serde_json::json!(["kind"]),
        "{written}"
    );
}

/// Every instance's status against the well-behaved fake read right.
fn well_behaved() -> Vec<(String, String)> {
    [
        // kind composed from success: never passed.
        ("mcp.edit.file", "unobserved"),
        ("mcp.ls.dir", "unobserved"),
        ("mcp.read.text", "unobserved"),
        ("mcp.resolve.dir", "pass"),
        ("mcp.resolve.file", "pass"),
        ("mcp.resolve.hang-again", "pass"),
        ("mcp.resolve.hang", "pass"),
        ("mcp.resolve.missing", "pass"),
        ("mcp.resolve.second-root", "pass"),
        // notes: no server text says them.
        ("mcp.search.hello@grep", "unobserved"),
        ("mcp.search.hello@ripgrep", "unsupported"),
        ("mcp.write.dangling-out", "pass"),
    ]
    .map(|(i, s)| (i.to_owned(), s.to_owned()))
    .to_vec()
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
/// answered by a fresh server. Those restarts are no unexplained deaths:
/// two hangs with `--max-restarts 1` leave the run whole (it was given up
/// as partial, exit 3, when every restart counted).
#[test]
fn a_request_never_answered_fails_its_case_and_is_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run_with(&profile(dir.path(), "hang", &[]), &["--max-restarts", "1"]);
    assert_eq!(code, 1, "{report:#}");
    for id in ["mcp.resolve.hang", "mcp.resolve.hang-again"] {
        let hung = case(&report, id);
        assert_eq!(hung["status"], "fail");
        assert_eq!(mismatched(&report, id), ["answer"]);
        // The call's whole limit, to the millisecond, every run: the
        // time the write took is not in it (a report said 4999 ms or
        // 5000 ms from run to run, and a committed page went stale).
        assert_eq!(
            hung["reason"], "server never answered: `tools/call info`: no response within 5000 ms",
            "{hung}"
        );
    }
    assert_eq!(findings(&report), [("never_answered".to_owned(), 2)]);
    assert_eq!(report["summary"]["adapter_error"], 0);
    assert_eq!(report["summary"]["not_run"], 0);
    assert_eq!(
        status(&report, "mcp.resolve.missing"),
        "pass",
        "after a restart"
    );
}

/// A server that crashes while a request is open fails that case (a
/// verdict on the server, with a `crashed` finding, never an adapter
/// error), and crashes do use up `--max-restarts`: after the second the
/// server is given up and the rest is not run.
#[test]
fn a_crash_fails_its_case_is_a_finding_and_uses_up_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run_with(&profile(dir.path(), "crash", &[]), &["--max-restarts", "1"]);
    assert_eq!(code, 3, "{report:#}");
    for id in ["mcp.resolve.hang", "mcp.resolve.hang-again"] {
        let crashed = case(&report, id);
        assert_eq!(crashed["status"], "fail", "{crashed}");
        assert_eq!(mismatched(&report, id), ["answer"]);
        assert_eq!(
            crashed["reason"],
            "server crashed: `tools/call info`: the server closed its standard output"
        );
    }
    assert_eq!(findings(&report), [("crashed".to_owned(), 2)]);
    assert_eq!(report["summary"]["adapter_error"], 0);
    let given_up = case(&report, "mcp.resolve.missing");
    assert_eq!(given_up["status"], "not_run");
    assert_eq!(
        given_up["reason"],
        "the server died unexplained (a crash or a failed start) and was restarted for 1 case file in a row; --max-restarts 1 allows no more: giving up"
    );
}

/// A line past the client's cap (16 MiB) fails its case and ends the
/// server (a finding), memory bounded; the next case is answered by a
/// fresh server.
#[test]
fn a_line_past_the_cap_fails_its_case_and_is_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "flood", &[]));
    assert_eq!(code, 1);
    let flooded = case(&report, "mcp.resolve.hang");
    assert_eq!(flooded["status"], "fail");
    assert_eq!(
        flooded["reason"],
        "server failed: `tools/call info`: a line longer than the limit of 16777216 bytes"
    );
    assert_eq!(findings(&report), [("protocol_error".to_owned(), 2)]);
    assert_eq!(status(&report, "mcp.resolve.missing"), "pass");
}

/// Peak resident memory, in KiB, of a run of the mcp case `id` against
/// `profile` (the harness and the descendants it waited for, the server
/// among them: libc's `wait4`, which rustix does not wrap with its usage),
/// with its exit code and JSON report.
fn peak_of_run(profile: &Path, id: &str) -> (i64, i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.json");
    let child = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(root())
        .args([
            "run",
            "--cases",
            "tests/data/mcp",
            "--jobs",
            "1",
            "--filter",
            id,
        ])
        .args(["--timeout-ms", "60000", "--hello-timeout-ms", "60000"])
        .args(["--format", "json", "--output"])
        .arg(&out)
        .arg("--mcp")
        .arg(profile)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (peak, code) = waited_peak(child);
    let report = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    (peak, code, report)
}

/// Waits for `child`: its peak resident memory in KiB, and exit code.
fn waited_peak(child: std::process::Child) -> (i64, i32) {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 on our own child, once.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    (usage.ru_maxrss, libc::WEXITSTATUS(status))
}

/// Issue 41 item 1: a 14 MiB `tools/call` answer of `{"a":0}` objects
/// cost the harness 947 MiB parsed (65 times the line; the line cap
/// bounds the bytes, not what they become). Its JSON is counted before it
/// is parsed: past the budget, the call fails as a line past the cap
/// does (a finding, the server ended), and the run costs less than four
/// times the line over the same run answered right.
#[test]
fn an_answer_of_millions_of_tiny_values_fails_its_case_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let line_kib: i64 = 14 * 1024;
    let (healthy, code, _) = peak_of_run(&profile(dir.path(), "", &[]), "mcp.resolve.hang");
    assert_eq!(code, 0, "the healthy run failed");
    let (peak, code, report) =
        peak_of_run(&profile(dir.path(), "tiny-values", &[]), "mcp.resolve.hang");
    eprintln!(
        "tiny values (a {} MiB line): peak RSS {} MiB, a healthy run {} MiB",
        line_kib / 1024,
        peak / 1024,
        healthy / 1024
    );
    assert_eq!(code, 1, "{report}");
    let flooded = case(&report, "mcp.resolve.hang");
    assert_eq!(flooded["status"], "fail", "{flooded}");
    let reason = flooded["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("server failed: `tools/call info`: a line of 14680")
            && reason.ends_with(
                "bytes holding more than 131072 JSON values and members, more than a message may"
            ),
        "{reason}"
    );
    assert_eq!(findings(&report), [("protocol_error".to_owned(), 1)]);
    assert!(
        peak - healthy < 4 * line_kib,
        "{} MiB over a healthy run, for a {} MiB line",
        (peak - healthy) / 1024,
        line_kib / 1024
    );
}

/// Issue 41 item 1, translation: each line of an answer may become an
/// entry or a match with its path composed, so a short text of many
/// short lines is counted before it is split, and refused past the budget.
#[test]
fn an_answer_of_too_many_lines_fails_its_case_unsplit() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run_with(
        &profile(dir.path(), "many-lines", &[]),
        &["--filter", "mcp.resolve.hang"],
    );
    assert_eq!(code, 1, "{report}");
    let answered = case(&report, "mcp.resolve.hang");
    assert_eq!(answered["status"], "fail", "{answered}");
    assert_eq!(
        answered["reason"],
        "server failed: `tools/call info`: an answer of more than 131072 lines, more than one may be read as"
    );
    assert_eq!(findings(&report), [("protocol_error".to_owned(), 1)]);
}

/// A server that keeps running after its input closed is ended by signal
/// at the end of the run and reported, with the bound it was given (5 s,
/// generous so the count does not depend on the machine's load); at two
/// workers, once per server exactly, and never for a server that exits.
#[test]
fn a_server_that_ignores_its_input_closing_is_killed_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run_with(&profile(dir.path(), "linger", &[]), &["--jobs", "2"]);
    assert_eq!(code, 0);
    assert_eq!(findings(&report), [("killed".to_owned(), 2)]);
    let example = report["findings"][0]["example"].as_str().unwrap();
    assert_eq!(
        example,
        "still running 5000 ms after its standard input closed; ended by signal (signal: 15 (SIGTERM))"
    );
    let (code, report) = run_with(&profile(dir.path(), "", &[]), &["--jobs", "2"]);
    assert_eq!(code, 0);
    assert_eq!(findings(&report), []);
}

/// A server that ignores SIGTERM as well is killed (SIGKILL), and the
/// finding says so.
#[test]
fn a_server_that_ignores_sigterm_is_killed_by_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "stubborn", &[]));
    assert_eq!(code, 0);
    assert_eq!(findings(&report), [("killed".to_owned(), 1)]);
    let example = report["findings"][0]["example"].as_str().unwrap();
    assert_eq!(
        example,
        "still running 5000 ms after its standard input closed; ended by signal (signal: 9 (SIGKILL))"
    );
}

/// Request ids cannot be guessed: a server that answers the next number
/// early (after each response, one to its id plus one) has every such
/// response refused as a protocol finding, never taken for the answer to
/// the request sent next (with ids counted 1, 2, 3 the forged `tools/list`
/// answer listed no tools and the forged calls answered every case).
#[test]
fn a_response_to_an_id_never_sent_is_a_finding_never_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "forge", &[]));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);
    let found = findings(&report);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "protocol_error");
    assert!(found[0].1 >= 10, "{found:?}");
    let example = report["findings"][0]["example"].as_str().unwrap();
    assert!(
        example.starts_with("a response to an id this client never sent"),
        "{example}"
    );
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

/// Each rule of a profile with the answers it applied to and those it
/// matched, from the JSON report: (rule, applied, matched).
fn rule_uses(report: &Value) -> Vec<(String, u64, u64)> {
    report["profile_rules"]
        .as_array()
        .unwrap_or_else(|| panic!("no profile_rules: {report:#}"))
        .iter()
        .map(|r| {
            (
                r["rule"].as_str().unwrap().to_owned(),
                r["applied"].as_u64().unwrap(),
                r["matched"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Issue 34 item 2: a rule that never matches said nothing (111 correct
/// refusals of one server became "not observed" silently). Every rule of
/// the profile is counted over the run, in the JSON report, and one that
/// applied to answers and matched none is a warning in the human output.
/// Here a code rule looks for a message the fake never says (it says
/// `ENOENT: no such file or directory`): the refusal falls to the default,
/// the case is not observable, and the warning names the rule. Read
/// right, the same rule matches and nothing about it is said.
#[test]
fn each_profile_rule_is_counted_and_one_that_never_matched_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    // The JSON report and the human one, of one run.
    let both = |profile: &Path| -> (Value, String) {
        let (json, human) = (dir.path().join("r.json"), dir.path().join("r.txt"));
        let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
            .current_dir(root())
            .args(["run", "--cases", "tests/data/mcp", "--jobs", "1"])
            .args(["--timeout-ms", "5000", "--hello-timeout-ms", "60000"])
            .args(["--format", "json", "--output"])
            .arg(&json)
            .args(["--format", "human", "--output"])
            .arg(&human)
            .arg("--mcp")
            .arg(profile)
            .output()
            .expect("toolpath runs");
        let read = |file: &Path| {
            std::fs::read_to_string(file)
                .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
        };
        (serde_json::from_str(&read(&json)).unwrap(), read(&human))
    };
    let (right, warned) = both(&profile(dir.path(), "", &[]));
    let counted = rule_uses(&right);
    let enoent = counted.iter().find(|r| r.0 == "errors.codes[2]").unwrap();
    assert!(enoent.1 > 0 && enoent.2 > 0, "{counted:?}");
    let kinds: Vec<_> = counted
        .iter()
        .filter(|r| r.0.starts_with("tools.resolve.result.kind.lines"))
        .collect();
    assert!(kinds.iter().all(|r| r.2 > 0), "{kinds:?}");
    assert!(!warned.contains("`errors.codes[2]`"), "{warned}");

    let unmatched = [(
        "{errno: ENOENT, code: not_found}",
        "{message: 'No such entry', code: not_found}",
    )];
    let (report, out) = both(&profile(dir.path(), "", &unmatched));
    assert_eq!(status(&report, "mcp.resolve.missing"), "unobserved");
    let counted = rule_uses(&report);
    let never = counted.iter().find(|r| r.0 == "errors.codes[2]").unwrap();
    assert!(never.1 > 0, "it applied to the refusals: {counted:?}");
    assert_eq!(never.2, 0, "{counted:?}");
    let default = counted.iter().find(|r| r.0 == "errors.default").unwrap();
    assert!(default.2 > 0, "the default took them: {counted:?}");
    let listed = &report["profile_rules"].as_array().unwrap();
    let fallback: Vec<&str> = listed
        .iter()
        .filter(|r| r["fallback"] == true)
        .map(|r| r["rule"].as_str().unwrap())
        .collect();
    assert_eq!(fallback, ["errors.default"]);
    let line = format!(
        "  WARNING profile rule `errors.codes[2]` (message /No such entry/ → not_found) matched none of the {} answer{} it applied to",
        never.1,
        if never.1 == 1 { "" } else { "s" }
    );
    assert!(out.lines().any(|l| l == line), "{line}\n{out}");
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

/// `toolpath lint --mcp` checks a profile without starting its server:
/// every mistake the checks find, each at the line and column of its
/// key's value (not the top of the file), the tools left out named; and a
/// valid profile's map, one suite tool a line. The shipped profiles, the
/// fake's and the skeleton are valid.
#[test]
fn lint_checks_a_profile_and_names_every_mistake_where_it_stands() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = [
        ("via: mcp\n  ready: {tool: allowed}", "via: flag"),
        (
            "    - {errno: EACCES, code: permission_denied}",
            "    - {errno: EACCES, message: denied, code: permission_denied}",
        ),
        ("features: [symlinks]", "features: [symlinks, fifo]"),
        (
            "(?P<type>FILE|DIR|OTHER)\\] (?P<name>.*)$'",
            "(?P<type>FILE|DIR|OTHER)\\] (.*)$'",
        ),
        ("  shell: {none: \"the fake runs no commands\"}\n", ""),
        (
            "  glob: {none: \"the fake has no search by name\"}",
            "  glob: {none: \"the fake has no search by name\", tool: list}",
        ),
    ];
    let file = profile(dir.path(), "", &wrong);
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .args(["lint", "--mcp"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown = file.display().to_string();
    let lines: Vec<String> = stderr.lines().map(|l| l.replace(&shown, "P")).collect();
    assert_eq!(
        lines,
        [
            "P:13:8: `roots.via: flag` needs `roots.flag`",
            "P:15:22: `features`: unknown feature `fifo` (known: symlinks, fifos, sockets, devices)",
            "P:22:7: `errors.codes[3]` needs exactly one of `message` and `errno`",
            "P:25:3: `tools` has no entry for `shell`: give each the server tool that stands for it, or `none` with the reason no tool fits",
            "P:39:15: `tools.ls.result.entries.line` needs a `name` or a `path` group",
            "P:58:56: `tools.glob`: `none` says no tool fits; `tool` cannot be given with it",
            "toolpath: 6 error(s) in the MCP profile P",
        ]
    );

    for valid in [
        "tests/mcp/fake.profile.yaml",
        "runners/mcp-server-filesystem/server-filesystem.profile.yaml",
        "runners/mcp-server-git/mcp-server-git.profile.yaml",
        "templates/mcp/server.profile.yaml",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
            .args(["lint", "--mcp", valid])
            .current_dir(root())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{valid}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.ends_with(&format!("{valid}: a valid MCP profile (format 1)\n")),
            "{stdout}"
        );
        assert_eq!(
            stdout.lines().count(),
            10,
            "nine tools and the verdict: {stdout}"
        );
    }
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
    // One per root of every instance sent (eleven, one of them with two
    // roots; the one refused gets no fixture).
    assert_eq!(findings(&report), [("fixture_prepared".to_owned(), 12)]);
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
    // The same server read right is held to the opposite (no escape, the
    // dangling write refused) by `a_profile_read_right_passes_and_says_why_
    // it_cannot_take_the_rest`, on the one run of it: a second run of the
    // same profile and cases would make the same report.
    let (code, report) = run(&profile(dir.path(), "follow-dangling", &[]));
    assert_eq!(code, 1);
    assert_eq!(report["containment"]["escapes"], 1, "{report:#}");
    assert_eq!(report["containment"]["refused"], 0);
    // `outside`: the write went through the path's last component, a
    // link that leads out (SEC-12 resolves it for the write channel).
    assert_eq!(
        mismatched(&report, "mcp.write.dangling-out"),
        ["outcome", "escape", "outside"]
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

/// The older protocol revisions servers are seen to answer are spoken:
/// the subset the client uses is the same in each.
#[test]
fn the_older_protocol_revisions_servers_answer_are_spoken() {
    let dir = tempfile::tempdir().unwrap();
    for revision in ["2024-11-05", "2025-03-26"] {
        let (code, report) = run(&profile(dir.path(), &format!("proto-{revision}"), &[]));
        assert_eq!(statuses(&report), well_behaved(), "{revision}: {report:#}");
        assert_eq!(code, 0, "{revision}");
    }
}

/// The `roots` capability is offered exactly when the profile gives the
/// roots over MCP (mode `strict-caps` exits at `initialize` otherwise, and
/// nothing would run).
#[test]
fn roots_are_offered_only_when_the_profile_gives_them_over_mcp() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "strict-caps", &[]));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);
    let flag = [(
        "via: mcp\n  ready: {tool: allowed}",
        "via: flag\n  flag: --root",
    )];
    let (code, report) = run(&profile(dir.path(), "strict-caps", &flag));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);
}

/// Roots on the command line (one argument each) and in a config file in
/// the private `HOME` (with the profile's other keys: the fake refuses to
/// start without `telemetry: false`) reach the server; a config under the
/// wrong key leaves it no allowed directory, and every call is refused.
#[test]
fn roots_on_the_command_line_and_in_a_config_file_reach_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = "via: mcp\n  ready: {tool: allowed}";
    let config = "via: config\n  config: {file: .fake-mcp/config.json, key: allowed, with: {telemetry: false}}";
    for via in ["via: argv", config] {
        let (code, report) = run(&profile(dir.path(), "", &[(mcp, via)]));
        assert_eq!(statuses(&report), well_behaved(), "{via}: {report:#}");
        assert_eq!(code, 0, "{via}");
    }
    let wrong_key = config.replace("key: allowed", "key: allowedDirectories");
    let (code, report) = run(&profile(dir.path(), "", &[(mcp, &wrong_key)]));
    assert_eq!(code, 1);
    assert_eq!(mismatched(&report, "mcp.resolve.file"), ["outcome"]);
    let no_telemetry = config.replace(", with: {telemetry: false}", "");
    let (code, report) = run(&profile(dir.path(), "", &[(mcp, &no_telemetry)]));
    assert_eq!(code, 3, "the server does not start: {report:#}");
}

/// A profile that says the wrong base for relative paths fails the
/// cases that send one: the server (mode `cwd-relative`) resolves them
/// against its working directory, and only `relative_paths: cwd` starts
/// it in the case's target directory. That process answers that one call:
/// the server kept for the run stays in a directory that outlives every
/// case (the fake, like Node, asks for its directory on every call, and
/// fails once it is gone).
#[test]
fn a_wrong_relative_paths_fails_the_relative_cases() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "cwd-relative", &[]));
    assert_eq!(code, 1);
    assert_eq!(mismatched(&report, "mcp.resolve.dir"), ["outcome"]);
    assert_eq!(status(&report, "mcp.resolve.file"), "pass", "absolute");
    let cwd = [("relative_paths: roots", "relative_paths: cwd")];
    let (code, report) = run(&profile(dir.path(), "cwd-relative", &cwd));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);
    // The process of one call has a HOME of its own: the kept server's
    // state there (mode `home-owner`) is never changed under it.
    let (code, report) = run(&profile(dir.path(), "cwd-relative,home-owner", &cwd));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);
}

/// Failures answered as JSON-RPC errors are error answers, read by the
/// profile's rules like `isError` texts (anchored rules included).
#[test]
fn json_rpc_errors_are_error_answers() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "rpc-errors", &[]));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);
    let missing = &case(&report, "mcp.resolve.missing");
    assert_eq!(missing["status"], "pass");
    let unruled = [("    - {errno: ENOENT, code: not_found}\n", "")];
    let (_, report) = run(&profile(dir.path(), "rpc-errors", &unruled));
    let missing = case(&report, "mcp.resolve.missing");
    assert_eq!(
        missing["status"], "unobserved",
        "only the default: {missing}"
    );
}

/// A search answered in sessions: read whole only by polling it to its
/// end, with the suite's `pattern` and `include` swapped onto the server's
/// names. Unswapped, without the poll, or polled too few times, it fails;
/// the last is a finding too.
#[test]
fn a_search_in_sessions_is_polled_to_its_end_with_its_names_swapped() {
    let dir = tempfile::tempdir().unwrap();
    let unswapped = [(
        "rename: {pattern: query, include: pattern, dir_path: path}",
        "rename: {pattern: pattern, include: query, dir_path: path}",
    )];
    let (code, report) = run(&profile(dir.path(), "", &unswapped));
    assert_eq!(code, 1);
    assert_eq!(mismatched(&report, "mcp.search.hello@grep"), ["outcome"]);
    let unpolled = [(
        "      poll:\n        session: '^Session: (?P<session>\\S+)$'\n        tool: search_more\n        arguments: {session: \"{session}\"}\n        done: '^Status: COMPLETED$'\n",
        "",
    )];
    let (code, report) = run(&profile(dir.path(), "", &unpolled));
    assert_eq!(code, 1);
    assert_eq!(
        mismatched(&report, "mcp.search.hello@grep"),
        ["matches", "model_text contains"]
    );
    let too_few = [(
        "done: '^Status: COMPLETED$'",
        "done: '^Status: COMPLETED$'\n        max_polls: 1",
    )];
    let (code, report) = run(&profile(dir.path(), "", &too_few));
    assert_eq!(code, 1);
    let cut = case(&report, "mcp.search.hello@grep");
    assert_eq!(
        cut["reason"],
        "server failed: its search session was not done after 1 call of `search_more`"
    );
    assert_eq!(findings(&report), [("polls_exhausted".to_owned(), 1)]);
}

/// Issue 30 item 6: a search session's answers were joined without limit
/// (2.4 GB for one call at the default 50 polls). A session whose every
/// poll answers 4 MiB and never ends is cut once its answers come to more
/// than one line may hold (16 MiB: the fifth poll), not after 50 polls
/// and 200 MiB: the case fails with the cap's reason, a finding.
#[test]
fn a_search_session_past_its_cap_is_cut_at_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "endless-session", &[]));
    assert_eq!(code, 1, "{report:#}");
    let cut = case(&report, "mcp.search.hello@grep");
    assert_eq!(
        cut["reason"],
        "server failed: its search session's answers came to more than 16777216 bytes",
        "{cut}"
    );
    assert_eq!(findings(&report), [("polls_exhausted".to_owned(), 1)]);
}

/// Issue 30 item 6: a 10 MB version landed in every report. A version
/// longer than 128 bytes, from any source (the profile's text, a
/// `package.json`, a command's output), keeps the server from starting,
/// and the run says why; a `package.json` past its read cap (1 MiB) is
/// not read at all.
#[test]
fn a_version_past_its_cap_keeps_the_server_from_starting() {
    let dir = tempfile::tempdir().unwrap();
    let long = "9".repeat(200);
    std::fs::write(
        dir.path().join("long.json"),
        format!("{{\"version\": \"{long}\"}}"),
    )
    .unwrap();
    let padding = " ".repeat(2 << 20);
    std::fs::write(
        dir.path().join("big.json"),
        format!("{{\"version\": \"1.0.0\"{padding}}}"),
    )
    .unwrap();
    let given = "version: {command: [python3, -c, \"print('fake-mcp 0.0.1')\"]}";
    let text = format!("version: {{text: \"{long}\"}}");
    let command = format!("version: {{command: [python3, -c, \"print('fake {long}')\"]}}");
    for (source, why) in [
        (
            text.as_str(),
            "it is 200 bytes long, more than 128".to_owned(),
        ),
        (
            "version: {package_json: long.json}",
            "it is 200 bytes long, more than 128".to_owned(),
        ),
        (
            command.as_str(),
            "it is 200 bytes long, more than 128".to_owned(),
        ),
        (
            "version: {package_json: big.json}",
            format!(
                "{}: larger than 1048576 bytes",
                dir.path().join("big.json").display()
            ),
        ),
    ] {
        let (code, report) = run(&profile(dir.path(), "", &[(given, source)]));
        assert_eq!(code, 3, "{source}: {report:#}");
        let reason = case(&report, "mcp.resolve.dir")["reason"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            reason.contains(&format!("cannot read the server's version: {why}")),
            "{source}: {reason}"
        );
        assert!(
            !report.to_string().contains(&long),
            "{source}: the version was kept"
        );
    }
}

/// A server whose new roots are never in force within the profile's
/// polls fails those cases, each a finding; the fresh server started for
/// the next case takes its roots at once (the fake defers only a change),
/// so every other instance sent passes.
#[test]
fn roots_never_in_force_within_the_polls_are_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let few = [(
        "ready: {tool: allowed}",
        "ready: {tool: allowed, max_polls: 2}",
    )];
    let (code, report) = run(&profile(dir.path(), "async-roots", &few));
    assert_eq!(code, 1);
    assert_eq!(findings(&report), [("polls_exhausted".to_owned(), 6)]);
    assert_eq!(
        case(&report, "mcp.edit.file")["reason"],
        "server failed: its new roots were still not in force after 2 calls of `allowed`"
    );
    assert_eq!(status(&report, "mcp.ls.dir"), "unobserved");
    assert_eq!(report["summary"]["adapter_error"], 0);
}

/// The version command and `git init` are bounded like the server's start
/// (`--hello-timeout-ms`): a command that never ends makes the server not
/// start, with the reason, instead of hanging the run.
#[test]
fn commands_that_never_end_are_ended_at_the_hello_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let slow_start = (
        "  env: {FAKE_MODES",
        "  start_timeout_ms: 120000\n  env: {FAKE_MODES",
    );
    let version = (
        "version: {command: [python3, -c, \"print('fake-mcp 0.0.1')\"]}",
        "version: {command: [sleep, \"120\"]}",
    );
    let file = profile(dir.path(), "", &[slow_start, version]);
    let (code, report) = run_with(&file, &["--hello-timeout-ms", "2000"]);
    assert_eq!(code, 3);
    let reason = case(&report, "mcp.resolve.dir")["reason"].as_str().unwrap();
    assert!(
        reason
            .contains("cannot read the server's version: `sleep 120`: did not end within 2000 ms"),
        "{reason}"
    );

    // A `git` that never ends, first on the PATH.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let git = bin.join("git");
    std::fs::write(&git, "#!/bin/sh\nexec sleep 120\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&git, std::fs::Permissions::from_mode(0o755)).unwrap();
    let prepare = (
        "  env: {FAKE_MODES",
        "  prepare: [git_init]\n  env: {FAKE_MODES",
    );
    let file = profile(dir.path(), "", &[slow_start, prepare]);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(root())
        .env("PATH", path)
        .args(["run", "--jobs", "1", "--cases", "tests/data/mcp"])
        .args(["--hello-timeout-ms", "2000", "--format", "json", "--mcp"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let reason = case(&report, "mcp.resolve.dir")["reason"].as_str().unwrap();
    assert!(
        reason.contains("`git init ") && reason.ends_with(": did not end within 2000 ms"),
        "{reason}"
    );
}

/// Reasons given for a server speak of the server and its profile, never
/// of an adapter: a field the profile composed, a feature it does not
/// declare.
#[test]
fn reasons_for_a_server_name_the_server_and_its_profile() {
    let dir = tempfile::tempdir().unwrap();
    let no_links = [("features: [symlinks]", "features: []")];
    let (code, report) = run(&profile(dir.path(), "", &no_links));
    assert_eq!(code, 0);
    assert_eq!(
        case(&report, "mcp.edit.file")["reason"],
        "agreed on every field that could be checked; not observable: kind (derived by the profile)"
    );
    assert_eq!(
        case(&report, "mcp.write.dangling-out")["reason"],
        "the profile does not declare the `symlinks` feature (the server's tools are not given such fixtures)"
    );
    let text = serde_json::to_string(&report["cases"]).unwrap();
    assert!(!text.contains("adapter"), "{report:#}");
}

/// Roots set by a server tool while the server runs (`via: tool`, with or
/// without a config file for the roots it starts with): one server for
/// the whole run, where roots on its command line take one per case (mode
/// `linger` counts the servers ended: each is killed once). A roots tool
/// given the wrong arguments refuses them, and the cases fail with what
/// it said.
#[test]
fn roots_set_by_a_tool_keep_one_server_for_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = "via: mcp\n  ready: {tool: allowed}";
    let tool = "via: tool\n  tool: {name: set_allowed, arguments: {dirs: \"{roots}\"}}";
    let with_config = format!(
        "{tool}\n  config: {{file: .fake-mcp/config.json, key: allowed, with: {{telemetry: false}}}}"
    );
    for via in [tool, &with_config] {
        let (code, report) = run(&profile(dir.path(), "linger", &[(mcp, via)]));
        assert_eq!(statuses(&report), well_behaved(), "{via}: {report:#}");
        assert_eq!(code, 0, "{via}");
        assert_eq!(findings(&report), [("killed".to_owned(), 1)], "{via}");
    }
    let (_, report) = run(&profile(dir.path(), "linger", &[(mcp, "via: argv")]));
    assert_eq!(
        findings(&report),
        [("killed".to_owned(), 12)],
        "a server per case"
    );

    let wrong = tool.replace("{dirs:", "{folders:");
    let (code, report) = run(&profile(dir.path(), "", &[(mcp, &wrong)]));
    assert_eq!(code, 1);
    assert_eq!(
        case(&report, "mcp.resolve.file")["reason"],
        "server failed: setting new roots (`set_allowed`): it answered an error: Invalid arguments: set_allowed takes dirs, a list of directories"
    );
}

/// The fake with its roots on its command line (`via: argv`), writing a
/// line per start to a file of `dir`'s (mode-less: every start counts);
/// that file.
fn counting_starts(dir: &Path, modes: &str) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    // The server runs as the run's own user: the file is open to it.
    let starts = dir.join("starts");
    std::fs::write(&starts, "").unwrap();
    std::fs::set_permissions(&starts, std::fs::Permissions::from_mode(0o666)).unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let env = format!(
        "env: {{FAKE_MODES: \"{modes}\", FAKE_STARTS: \"{}\"}}",
        starts.display()
    );
    let edits = [
        ("via: mcp\n  ready: {tool: allowed}", "via: argv"),
        (&*format!("env: {{FAKE_MODES: \"{modes}\"}}"), &*env),
    ];
    (profile(dir, modes, &edits), starts)
}

/// A server given its roots on its command line is started once for the
/// consecutive instances of one case file (a matrix's cells: tools and
/// roots), each built byte for byte in one place, where a fixture
/// directory new for every instance started it for each; every twin
/// (SEC-12's non-interference: this fixture has a file outside every
/// root) is asked on a process of its own, which leaves the kept one in
/// the case file's roots.
#[test]
fn a_server_given_its_roots_at_start_is_kept_across_one_case_files_instances() {
    let dir = tempfile::tempdir().unwrap();
    let (file, starts) = counting_starts(dir.path(), "");
    let (code, report) = run_with(&file, &["--cases", "tests/data/mcp-reuse/kept"]);
    assert_eq!(code, 0, "{report:#}");
    let instances = report["cases"].as_array().unwrap().len();
    assert_eq!(instances, 4, "two tools in two roots");
    assert_eq!(report["summary"]["fail"], 0, "{report:#}");
    let started = std::fs::read_to_string(&starts).unwrap();
    // The first start is in the subject's own start directory (one root);
    // then the case file's roots (two), once, and each twin's.
    let with_case_roots: Vec<&str> = started.lines().filter(|l| l.contains(' ')).collect();
    assert_eq!(
        with_case_roots.len(),
        1 + instances,
        "one for the case file, one per twin: {started}"
    );
    let kept = with_case_roots[0];
    assert_eq!(
        with_case_roots.iter().filter(|l| **l == kept).count(),
        1,
        "{started}"
    );
}

/// A server that answers every read with its first answer, kept across a
/// case file's instances, is still caught reading the outside in each:
/// the place is built again byte for byte, so the canary its stale answer
/// carries is the fixture's own (a new draw would have let it pass as a
/// difference between two answers of the same fixture).
#[test]
fn a_server_that_answers_from_what_it_read_once_still_escapes_in_every_instance() {
    let dir = tempfile::tempdir().unwrap();
    let (file, starts) = counting_starts(dir.path(), "open,cache");
    let (code, report) = run_with(&file, &["--cases", "tests/data/mcp-reuse/cached"]);
    assert_eq!(code, 1, "{report:#}");
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2, "one per root");
    for case in cases {
        assert_eq!(case["status"], "fail", "{case:#}");
        assert_eq!(case["containment"]["class"], "escape", "{case:#}");
    }
    assert_eq!(report["containment"]["escapes_by_channel"]["read"], 2);
    // Kept for both: the second answer came from the first one's read.
    let started = std::fs::read_to_string(&starts).unwrap();
    let kept = started.lines().find(|l| l.contains(' ')).unwrap();
    assert_eq!(
        started.lines().filter(|l| *l == kept).count(),
        1,
        "{started}"
    );
}

/// A session whose every poll answers the whole session so far is read
/// from its last answer alone (`answers: all`): read as new answers
/// joined, its matches come twice and fail.
#[test]
fn a_session_answered_whole_each_time_is_read_from_its_last_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "cumulative", &[]));
    assert_eq!(code, 1);
    assert_eq!(mismatched(&report, "mcp.search.hello@grep"), ["matches"]);
    let whole = [(
        "done: '^Status: COMPLETED$'",
        "done: '^Status: COMPLETED$'\n        answers: all",
    )];
    let (code, report) = run(&profile(dir.path(), "cumulative", &whole));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);
}

/// Issue 30 item 5: a server that floods `ping` requests and stops reading
/// its input held the harness in the write of an answer, far past
/// `--timeout-ms`. Every write to a server is non-blocking and bounded by
/// the deadline of the request it serves: the flooded case fails at its
/// deadline and the run goes on.
#[test]
fn a_server_that_floods_requests_and_stops_reading_ends_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run_with(
        &profile(dir.path(), "ping-flood", &[]),
        &["--max-restarts", "5"],
    );
    assert_eq!(code, 1, "{report:#}");
    for id in ["mcp.resolve.hang", "mcp.resolve.hang-again"] {
        let flooded = case(&report, id);
        assert_ne!(flooded["status"], "pass", "{flooded}");
        let reason = flooded["reason"].as_str().unwrap_or_default();
        assert!(
            reason.contains("did not read its input in time"),
            "{flooded}"
        );
    }
    assert_eq!(report["summary"]["not_run"], 0, "{report:#}");
}

/// Issue 30 item 6: `tools/list` pages were read up to 100 of them, each
/// up to 16 MiB (a 14 MiB page became 450 MiB parsed). All pages together
/// may hold 2 MiB now: a server that pages 1 MiB at a time for ever
/// cannot start, and says why.
#[test]
fn a_tool_list_larger_than_its_cap_cannot_start() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "huge-list", &[]));
    assert_eq!(code, 3, "{report:#}");
    let reason = case(&report, "mcp.resolve.dir")["reason"].as_str().unwrap();
    assert!(
        reason.contains("`tools/list`: its pages hold more than 2097152 bytes"),
        "{reason}"
    );
}

/// `toolpath tools --mcp`: the fake started as a run starts it, its nine
/// tools listed with their parameters (`*` required) and the suite tool
/// each stands for, then what the profile maps to a tool the server does
/// not list and what it says has none; a server that cannot start is
/// exit 1 with why.
#[test]
fn tools_lists_the_servers_tools_and_what_the_profile_maps_to_them() {
    let dir = tempfile::tempdir().unwrap();
    let tools = |profile: &Path| {
        Command::new(env!("CARGO_BIN_EXE_toolpath"))
            .args(["tools", "--mcp"])
            .arg(profile)
            .output()
            .unwrap()
    };
    let out = tools(&profile(
        dir.path(),
        "",
        &[("tool: write\n", "tool: put\n")],
    ));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for line in [
        "fake-mcp 0.0.1 (python): 9 tools listed\n",
        "  info(path*: string)  as resolve\n",
        "  search_start(query*: string, pattern*: string, path: string)  as grep\n",
        "  write(path*: string, content*: string)  not mapped\n",
        "  allowed()  not mapped\n",
        "The profile maps to tools the server does not list:\n  write_file -> put: the server lists no such tool\n",
        "The profile says no tool fits:\n",
        "  shell: the fake runs no commands\n",
    ] {
        assert!(stdout.contains(line), "no {line:?} in:\n{stdout}");
    }
    let out = tools(&profile(dir.path(), "strict-caps,bad-protocol", &[]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stderr.contains("the server did not start"), "{stderr}");
    assert!(out.stdout.is_empty(), "{out:?}");
    // What a server that did not start wrote is shown, and cannot act on
    // the terminal: no clipboard write, no fake closing line.
    let out = tools(&profile(dir.path(), "hostile-stderr", &[]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stderr.contains("the server did not start"), "{stderr}");
    toolpath::test_support::assert_shown_harmlessly(&stderr);
}

/// Issue 44: a server that answers in JSON text (the fake in mode
/// `json-list`) cannot be read by a line rule (its listing fails on
/// `entries`); the `json` form reads each entry's name and type from one
/// object, and the listing is judged right (unobserved only for the kind
/// and path this profile says the fake cannot show).
#[test]
fn a_listing_in_json_text_is_read_by_pointer_per_field() {
    let dir = tempfile::tempdir().unwrap();
    let (_, report) = run(&profile(dir.path(), "json-list", &[]));
    assert_eq!(mismatched(&report, "mcp.ls.dir"), ["entries"], "{report:#}");
    let json = profile(
        dir.path(),
        "json-list",
        &[(
            "        line: '^\\[(?P<type>FILE|DIR|OTHER)\\] (?P<name>.*)$'\n        types: {FILE: file, DIR: directory, OTHER: other}",
            "        json: {items: /entries, name: /name, type: /kind}\n        types: {FILE: file, DIR: directory, OTHER: other}",
        )],
    );
    let (_, report) = run(&json);
    assert_eq!(status(&report, "mcp.ls.dir"), "unobserved", "{report:#}");
    assert!(mismatched(&report, "mcp.ls.dir").is_empty(), "{report:#}");
}

/// Issue 44: `toolpath call --mcp`: one call of a server's tool, the
/// server started as a run starts it and given `--root` as a case's roots
/// (over MCP here, awaited with the profile's ready tool), the arguments
/// sent as given; the answer printed as the server sent it, then the text
/// the result rules read, the server's text harmless on a terminal. An
/// error answer is an answer (exit 0); a tool the server does not list,
/// arguments that are no JSON object, are usage errors.
#[test]
fn call_prints_one_answer_as_sent_and_the_text_the_rules_read() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join("src")).unwrap();
    std::fs::write(ws.join("a.txt"), "one\n").unwrap();
    // Readable by the user a run's server runs as.
    for path in [dir.path(), &ws, &ws.join("src")] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let ws = ws.canonicalize().unwrap();
    let file = profile(dir.path(), "", &[]);
    let call = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_toolpath"))
            .args(["call", "--mcp"])
            .arg(&file)
            .args(args)
            .output()
            .unwrap()
    };
    let root = ws.display().to_string();
    let arguments = format!("{{\"path\": \"{root}\"}}");
    let out = call(&["--root", &root, "list", &arguments]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for line in [
        format!("fake-mcp 0.0.1: tools/call list {{\"path\":\"{root}\"}}\n"),
        "  \"content\": [\n".to_owned(),
        format!("      \"text\": \"Contents of {root}:\\n[FILE] a.txt\\n[DIR] src\",\n"),
        "The text the result rules read, line by line:\n".to_owned(),
        format!("  | Contents of {root}:\n  | [FILE] a.txt\n  | [DIR] src\n"),
    ] {
        assert!(stdout.contains(&line), "no {line:?} in:\n{stdout}");
    }
    // Outside its one root: an error answer, shown as such.
    let out = call(&["--root", &root, "info", r#"{"path": "/etc"}"#]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        stdout.contains("line by line, flagged isError:\n  | Access denied - path outside allowed directories: /etc\n"),
        "{stdout}"
    );
    // The server's text, echoed from hostile arguments, cannot act on the
    // terminal: no escape, no bidi control, in the JSON or the text.
    let hostile = r#"{"path": "/x\u001b]52;c;aGk=\u0007\u202e\u009b2J\r9 passed, 0 failed\n9 passed, 0 failed"}"#;
    let out = call(&["info", hostile]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stdout.contains("Access denied"), "{stdout}");
    toolpath::test_support::assert_shown_harmlessly(&stdout);
    for bad in ['\u{1b}', '\u{7}', '\u{202e}', '\u{9b}'] {
        assert!(!stdout.contains(bad), "{bad:?} in {stdout:?}");
    }
    let out = call(&["put", "{}"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr.contains("the server lists no tool `put` (it lists `info`, `list`,"),
        "{stderr}"
    );
    let out = call(&["info", "[1]"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("the arguments must be a JSON object"));
}

/// `roots: {via: none}`: a server with no allowed directories (the fake in
/// mode `open`, every path inside) is described, started once, given no
/// roots, and what it lets out is counted: its write through a dangling
/// link lands outside, an escape on the write channel (before `none`
/// such a server could not be described at all).
#[test]
fn a_server_with_no_allowed_directories_is_described_and_its_escapes_counted() {
    let dir = tempfile::tempdir().unwrap();
    let file = profile(
        dir.path(),
        "open,cwd-relative",
        &[
            (
                "roots:\n  via: mcp\n  ready: {tool: allowed}\n",
                "roots:\n  via: none\n",
            ),
            ("relative_paths: roots", "relative_paths: cwd"),
        ],
    );
    let lint = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .args(["lint", "--mcp"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(lint.status.success(), "{lint:?}");
    let (code, report) = run(&file);
    assert_eq!(code, 1, "{report}");
    assert_eq!(
        report["containment"]["escapes"], 1,
        "{}",
        report["containment"]
    );
    assert_eq!(report["containment"]["escapes_by_channel"]["write"], 1);
    assert_eq!(status(&report, "mcp.write.dangling-out"), "fail");
    let escaped = case(&report, "mcp.write.dangling-out");
    assert_eq!(escaped["containment"]["class"], "escape", "{escaped}");
    // Everything else it answered as the cases expect: no roots were
    // needed to reach the fixture.
    assert_eq!(report["summary"]["fail"], 1, "{}", report["summary"]);
}

/// A server that opens a FIFO a call names (RES-10: it must not) is found
/// blocked on it past `--hang-timeout-ms` and released by the harness,
/// not waited out to the call timeout (which the test's run could not
/// outlast): the case fails as blocked, under RES-10; released, the server
/// answers and runs on, so no restart (none allowed) and no finding.
#[test]
fn a_server_blocked_on_a_fifo_is_released_and_fails_the_case() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("fifo");
    std::fs::create_dir(&cases).unwrap();
    std::fs::copy(
        root().join("cases/resolve/type-fifo.yaml"),
        cases.join("type-fifo.yaml"),
    )
    .unwrap();
    let fifos = [("features: [symlinks]", "features: [symlinks, fifos]")];
    let profile = profile(dir.path(), "open-fifo", &fifos);
    let cases = cases.display().to_string();
    let (code, report) = run_with(
        &profile,
        &[
            "--cases",
            "tests/data/mcp",
            "--cases",
            &cases,
            "--hang-timeout-ms",
            "200",
            "--timeout-ms",
            "600000",
            "--max-restarts",
            "0",
        ],
    );
    assert_eq!(code, 1, "{report:#}");
    let blocked = case(&report, "resolve.type.fifo");
    assert_eq!(blocked["status"], "fail", "{blocked}");
    assert_eq!(blocked["mismatches"][0]["rule"], "RES-10", "{blocked}");
    let reason = blocked["reason"].as_str().unwrap();
    // Released, it answers at once; whether within the grace is the
    // machine's load, not the verdict, so the reason's end is not held.
    assert!(
        reason.starts_with(
            "`tools/call info`: blocked on the FIFO ws/pipe (opened for reading) past the 200 ms \
             bound of a call on a FIFO: a FIFO must not be opened (RES-10, FILE-6); "
        ),
        "{reason}"
    );
    assert_eq!(report["partial"], false);
    assert_eq!(report["summary"]["not_run"], 0);
    assert!(report["waited_ms"].as_f64().unwrap() > 0.0, "{report:#}");
    // Every other case (the well-behaved fake's) still passes after it.
    assert_eq!(status(&report, "mcp.resolve.missing"), "pass");
}

/// A server that returns a file as an embedded `resource` block (its text
/// and a URI, no text block) is read for the text it carries: every case
/// passes as against the fake answering in text blocks.
#[test]
fn a_file_returned_as_an_embedded_resource_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let (code, report) = run(&profile(dir.path(), "resource-read", &[]));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);
    assert_eq!(findings(&report), []);
}

/// A server that answers in `structuredContent` (its content that
/// object's JSON, as MCP asks) is read where the profile points
/// (`structured: /report`); without the pointer its rules read the JSON
/// text and the answers fail, and a pointer to nothing fails the call
/// and says where it looked. An error answer is read from its content.
#[test]
fn structured_content_is_read_where_the_profile_points() {
    let dir = tempfile::tempdir().unwrap();
    let line = "      path: {line: '^path: (?P<path>.*)$'}";
    let pointed = format!("{line}\n      structured: /report");
    let (code, report) = run(&profile(dir.path(), "structured", &[(line, &pointed)]));
    assert_eq!(statuses(&report), well_behaved(), "{report:#}");
    assert_eq!(code, 0);

    let (code, report) = run(&profile(dir.path(), "structured", &[]));
    assert_eq!(code, 1);
    assert_eq!(status(&report, "mcp.resolve.file"), "fail");
    assert_eq!(status(&report, "mcp.resolve.missing"), "pass");

    let nowhere = format!("{line}\n      structured: /nope");
    let (_, report) = run(&profile(dir.path(), "structured", &[(line, &nowhere)]));
    let reason = case(&report, "mcp.resolve.file")["reason"]
        .as_str()
        .unwrap();
    assert!(reason.contains("no value at `/nope`"), "{reason}");
}

/// A server that allows its own `HOME`, `TMPDIR` or working directory
/// beside its roots, as one published file server does the first two and
/// many tools the last: all are private to the run (below
/// `{adapter-tmp}`), and the harness puts a canary in each before every
/// call, which cases ask for. The file read there is an escape, the
/// canary it held in the evidence; the well-behaved fake refuses it. The
/// working directory is the one a kept server starts in,
/// `{adapter-tmp}/work`, as an adapter's.
#[test]
fn a_server_that_allows_its_own_home_or_directory_reads_the_canary_there_out() {
    let dir = tempfile::tempdir().unwrap();
    let canary_cases = |modes: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
            .current_dir(root())
            .args(["run", "--jobs", "1", "--format", "json"])
            .args(["--filter", "security.scratch.adapter-tmp-home-canary"])
            .args(["--filter", "security.scratch.adapter-tmp-canary-read_file"])
            .args([
                "--filter",
                "security.scratch.adapter-tmp-cwd-canary-read_file",
            ])
            .arg("--mcp")
            .arg(profile(dir.path(), modes, &[]))
            .output()
            .expect("toolpath runs");
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut found: Vec<(String, String)> = (report["cases"].as_array().unwrap())
            .iter()
            .map(|c| {
                let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
                let class = text(&c["containment"]["class"]);
                if class == "escape" {
                    let evidence = text(&c["containment"]["evidence"]);
                    assert!(
                        evidence.contains("read: content holds an outside file's canary"),
                        "{}: {evidence}",
                        c["id"]
                    );
                }
                (text(&c["id"]), class)
            })
            .collect();
        found.sort();
        found
    };
    let (tmp, home, cwd) = (
        "security.scratch.adapter-tmp-canary-read_file",
        "security.scratch.adapter-tmp-home-canary",
        "security.scratch.adapter-tmp-cwd-canary-read_file",
    );
    let classes = |of: [(&str, &str); 3]| {
        let mut of = of.map(|(id, class)| (id.to_owned(), class.to_owned()));
        of.sort();
        of.to_vec()
    };
    assert_eq!(
        canary_cases(""),
        classes([(tmp, "refused"), (home, "refused"), (cwd, "refused")])
    );
    // Its working directory is below its `TMPDIR`.
    assert_eq!(
        canary_cases("allow-home"),
        classes([(tmp, "escape"), (home, "escape"), (cwd, "escape")])
    );
    assert_eq!(
        canary_cases("allow-cwd"),
        classes([(tmp, "refused"), (home, "refused"), (cwd, "escape")])
    );
}
