//! Hostile case files: every one is refused by `toolpath lint` with its
//! location, and a run over them writes and reads nothing outside.
//! (Written as an attacker would: see issue 9 and `tests/data/hostile/`.)

use assert_cmd::Command;

fn toolpath() -> Command {
    Command::cargo_bin("toolpath").unwrap()
}

#[test]
fn hostile_case_files_are_refused_where_they_go_wrong() {
    let out = toolpath()
        .args(["lint", "--cases", "tests/data/hostile"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    for expected in [
        "setuid.yaml:8:11: fixture.modes: `4755` sets the setuid bit",
        "link-etc.yaml:7:14: fixture.symlinks: `ws/etc`: the target `/etc` is outside the fixture directory",
        "root-link-kmsg.yaml:7:14: fixture.symlinks: `ws`: the target `/proc/kmsg` is outside",
        "link-climb.yaml:9:5: fixture.symlinks: `ws/up`: the target `top/../../..` climbs with `..` after the fixture's link `ws/top`",
        "file-is-root.yaml:6:11: fixture: `ws` is not a directory but is also a workspace root",
        "file-is-parent.yaml:7:5: fixture: `ws/a` is not a directory but is also the parent directory of `ws/a/b`",
        "newline-id.yaml:1:5: id: `hostile.newline\\nother.yaml:1:1: all good` is not dotted",
        "not-utf8.yaml:2:35: not UTF-8: byte 0xff",
        "yes-boolean.yaml:7:40: call.params.case_sensitive: `off` is a YAML 1.1 word read as the boolean false",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in\n{stderr}"
        );
    }
    // Every line of the output is one error of one file: nothing forged.
    for line in stderr.lines() {
        assert!(
            line.starts_with("tests/data/hostile/") || line.starts_with("toolpath: "),
            "a line no file wrote: {line:?}"
        );
    }
}

/// Files too large to be cases are refused from their size alone, at once,
/// with the whole message.
#[test]
fn oversized_case_files_are_refused_before_parsing() {
    let dir = tempfile::tempdir().unwrap();
    // 120,000 entries (the slowest example: 26 s before).
    let entries: String = (0..120_000).map(|i| format!("    ws/f{i}: x\n")).collect();
    let text = format!(
        "id: a.b\nsummary: s\nspec: [RES-1]\nfixture:\n  roots: [ws]\n  files:\n{entries}call: {{tool: resolve}}\nexpect: {{outcome: ok}}\n"
    );
    std::fs::write(dir.path().join("big.yaml"), &text).unwrap();
    // A 16 MiB value.
    let value = format!(
        "id: a.b\nsummary: s\nspec: [RES-1]\nfixture: {{roots: [ws]}}\ncall: {{tool: shell, params: {{command: {}}}}}\nexpect: {{outcome: ok}}\n",
        "x".repeat(16 << 20)
    );
    std::fs::write(dir.path().join("value.yaml"), &value).unwrap();
    let out = toolpath()
        .args(["lint", "--cases"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.len() < 1000, "{} bytes of messages", stderr.len());
    for file in ["big.yaml", "value.yaml"] {
        assert!(
            stderr.contains(&format!(
                "{file}:1:1: the file is larger than 262144 bytes, the most a case file may be; nothing was parsed\n"
            )),
            "{stderr}"
        );
    }
}

/// Answers like the reference, except that a shell call never returns (a
/// call stuck reading something endless). Blocks on a channel nobody sends
/// on: no sleep.
fn hang_on_shell(
    workspace: &toolpath::protocol::Workspace,
    tool: toolpath::protocol::Tool,
    params: &serde_json::Map<String, serde_json::Value>,
) -> toolpath::protocol::ToolResult {
    if tool == toolpath::protocol::Tool::Shell {
        let (_keep, wait) = std::sync::mpsc::channel::<()>();
        let _ = wait.recv();
    }
    toolpath::reference::call(workspace, tool, params)
}

/// A hung in-process call fails its own case as a timeout; the run goes on
/// and judges the others. The hang is certain, so a short timeout cannot
/// flake; 5 s leaves the other calls ample room on a busy machine.
#[test]
fn a_hung_in_process_call_fails_its_case_and_the_run_goes_on() {
    use toolpath::harness::run::{RunConfig, SubjectFactory, run};
    use toolpath::subject::{Reference, Subject};
    let (cases, errors) = toolpath::case::suite::load(&["tests/data/mini".into()]);
    assert!(errors.is_empty(), "{errors:?}");
    let instances: Vec<_> = cases.iter().flat_map(|c| c.instances()).collect();
    let make: &SubjectFactory = &|| {
        Ok(Box::new(Reference::answering_with(
            hang_on_shell,
            std::time::Duration::from_secs(5),
        )) as Box<dyn Subject + Send>)
    };
    let report = run(&instances, make, &RunConfig::default());
    let hung = |c: &&toolpath::report::CaseReport| c.id == "mini.shell.subpath";
    let shell: Vec<_> = report.cases.iter().filter(hung).collect();
    assert_eq!(shell.len(), 1);
    for case in &shell {
        assert_eq!(
            case.status,
            toolpath::report::Status::AdapterError,
            "{case:?}"
        );
        assert!(
            case.reason.as_deref().unwrap_or("").contains("timeout"),
            "{case:?}"
        );
    }
    let others = report.cases.len() - shell.len();
    assert!(others >= 3, "the run went on: {others} other cases");
    assert!(
        report
            .cases
            .iter()
            .filter(|c| !hung(c))
            .all(|c| c.status != toolpath::report::Status::AdapterError),
        "{:?}",
        report.cases
    );
}
