//! `toolpath smoke`: the ports that conform pass it (the Python port, the
//! reference served over stdio, a fake MCP server through its profile);
//! adapters that break the protocol fail it (exit 1) and the first advice
//! names what broke first: a `hello` of another protocol version, a second
//! answer to one call; a skeleton that speaks but implements little exits
//! 0 and is told its first wrong answer.

use std::path::Path;
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BIN: &str = env!("CARGO_BIN_EXE_toolpath");

fn smoke(cwd: &Path, args: &[&str]) -> (i32, String) {
    let out: Output = Command::new(BIN)
        .arg("smoke")
        .args(args)
        .current_dir(cwd)
        .env("TOOLPATH_BIN", BIN)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap(), text)
}

/// The verdict line.
fn last(text: &str) -> &str {
    text.lines()
        .rfind(|l| l.starts_with("smoke: "))
        .unwrap_or_else(|| panic!("no verdict:\n{text}"))
}

#[test]
fn conforming_subjects_speak_the_protocol_and_pass_every_chosen_instance() {
    let root = Path::new(ROOT);
    for adapter in [
        "python3 runners/python/adapter.py".to_owned(),
        format!("{BIN} serve"),
    ] {
        let (code, out) = smoke(root, &["--adapter", &adapter]);
        assert_eq!(code, 0, "{adapter}:\n{out}");
        assert_eq!(
            last(&out),
            format!(
                "smoke: speaks the protocol. No chosen instance it supports fails; next: the whole suite, toolpath run --adapter '{adapter}'."
            ),
            "{adapter}:\n{out}"
        );
        // A dozen instances, each a line of the table, each a pass.
        let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("  ")).collect();
        assert_eq!(rows.len(), toolpath::cli::smoke::INSTANCES.len(), "{out}");
        assert!(
            rows.iter().all(|r| r.trim_start().starts_with("pass ")),
            "{out}"
        );
    }
    let (code, out) = smoke(root, &["--mcp", "tests/mcp/fake.profile.yaml"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        last(&out).starts_with("smoke: speaks the protocol."),
        "{out}"
    );
}

#[test]
fn a_hello_of_another_protocol_is_the_first_thing_to_fix() {
    let (code, out) = smoke(
        Path::new(ROOT),
        &["--adapter", "python3 tests/adapters/broken.py protocol-2"],
    );
    assert_eq!(code, 1, "{out}");
    let verdict = last(&out);
    assert!(
        verdict
            .starts_with("smoke: does NOT speak the protocol. Fix first: it could not be started")
            && verdict.contains("adapter speaks protocol 2, this harness speaks 1"),
        "{out}"
    );
}

#[test]
fn a_broken_answer_names_the_first_instance_it_broke() {
    // Two answers to every search call: the first search asked is named,
    // not a later one and not a resolve (which it answers well).
    let (code, out) = smoke(
        Path::new(ROOT),
        &[
            "--adapter",
            "python3 tests/adapters/broken.py extra-result 'search.*'",
        ],
    );
    assert_eq!(code, 1, "{out}");
    let verdict = last(&out);
    assert!(
        verdict.starts_with(
            "smoke: does NOT speak the protocol. Fix first: on `search.file.relative@grep` (grep), unsolicited output"
        ),
        "{out}"
    );
}

#[test]
fn a_skeleton_speaks_and_is_told_its_first_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    let made = Command::new(BIN)
        .args(["new-adapter", "--lang", "python", "skeleton"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let (code, out) = smoke(
        &dir.path().join("skeleton"),
        &["--adapter", "python3 adapter.py"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        last(&out).starts_with(
            "smoke: speaks the protocol. Fix first: `security.dotdot.many` (SEC-4, RES-3; fail, cases/security/dotdot-many.yaml:2): outcome: expected error, got ok."
        ),
        "{out}"
    );
    // The next step runs the whole suite against this adapter, not
    // against the built-in reference (`toolpath run` alone).
    assert!(
        last(&out)
            .contains("Then run the whole suite: toolpath run --adapter 'python3 adapter.py'. "),
        "{out}"
    );
    // An npm or pip user has no cases/ or spec/ on disk: the advice says
    // how to get them.
    assert!(
        last(&out).ends_with("`toolpath export DIR` writes the case files and the spec into DIR."),
        "{out}"
    );
}

/// What an adapter writes (the reasons of its `unsupported` answers, its
/// stderr when it dies before `hello`) reaches the terminal through the
/// sanitiser: an OSC 52 escape is shown, not run, and a fake closing line
/// stays inside the line that quotes it.
#[test]
fn an_adapter_s_text_is_shown_but_cannot_act_on_the_terminal() {
    for mode in ["unsupported", "exit-before-hello"] {
        let adapter = format!("python3 tests/adapters/hostile_text.py {mode}");
        let (code, out) = smoke(Path::new(ROOT), &["--adapter", &adapter]);
        assert_eq!(code, 1, "{mode}:\n{out}");
        toolpath::test_support::assert_shown_harmlessly(&out);
    }
}

#[test]
fn smoke_needs_a_subject() {
    let (code, out) = smoke(Path::new(ROOT), &[]);
    assert_eq!(code, 2, "{out}");
}
