//! The hole classes of issue 45, items 6 to 12, are closed: for each, a
//! wrong subject (`tests/adapters/path_holes.py`, the reference with one
//! defect) fails the cases added for it. Each passed the whole suite
//! before those cases were written (`--cases` with the suite before
//! them, as the closing note shows).
//!
//! Each run takes only the cases of its class (`--filter`), so each
//! takes a second or two.

use std::collections::BTreeSet;

use serde_json::Value;

mod wrong_subject;

/// The report of the cases `filters` pick, run through `mode`.
fn run(mode: &str, filters: &[&str]) -> Value {
    wrong_subject::report("path_holes.py", mode, &wrong_subject::filters(filters))
}

use wrong_subject::with_status;

/// `mode` fails every one of `cases` (instance ids), run through `filters`.
fn caught(mode: &str, filters: &[&str], cases: &[&str]) {
    wrong_subject::caught(
        "path_holes.py",
        mode,
        &wrong_subject::filters(filters),
        cases,
    );
}

// Items 6 and 12: the path the kernel sees, and the empty glob segment.

#[test]
fn a_trailing_slash_handed_to_the_kernel_is_caught() {
    caught(
        "trailing-slash-raw",
        &[
            "resolve.shape.trailing-slash-on-file.*",
            "file.write.trailing-slash-new",
        ],
        &[
            "resolve.shape.trailing-slash-on-file.read_file.abs.r1",
            "resolve.shape.trailing-slash-on-file.write_file.abs.r2",
            "resolve.shape.trailing-slash-on-file.edit.abs.r1",
            "file.write.trailing-slash-new",
        ],
    );
}

#[test]
fn a_path_text_past_path_max_handed_to_the_kernel_is_caught_in_the_tools_it_was_not() {
    let report = run("long-text-raw", &["resolve.shape.long-text-*"]);
    let failed = with_status(&report, "fail");
    for tool in ["shell", "write_file", "edit"] {
        assert!(
            failed.iter().any(|id| id.contains(&format!(".{tool}."))),
            "{tool}: not caught ({failed:?})"
        );
    }
}

#[test]
fn an_empty_glob_segment_answered_with_nothing_is_caught() {
    caught(
        "empty-segments-match-nothing",
        &["glob.pattern.empty-segment-*"],
        &[
            "glob.pattern.empty-segment-middle",
            "glob.pattern.empty-segment-trailing",
            "glob.pattern.empty-segment-after-double-star",
            "glob.pattern.empty-segment-in-braces",
            "glob.pattern.empty-segment-file-target",
        ],
    );
}

// Item 7: the root itself is a link, for the file tools.

#[test]
fn writes_checked_against_the_roots_as_given_are_caught() {
    caught(
        "writes-roots-as-given",
        &["security.root-link.*"],
        &[
            "security.root-link.write-file",
            "security.root-link.edit",
            "security.root-link.real-path-inside-write-file",
            "security.root-link.real-path-inside-edit",
        ],
    );
}

#[test]
fn file_paths_asked_to_lie_under_a_root_as_written_are_caught() {
    caught(
        "file-roots-lexical",
        &["security.root-link.*"],
        &[
            "security.root-link.real-path-inside-read-file",
            "security.root-link.real-path-inside-write-file",
            "security.root-link.real-path-inside-edit",
        ],
    );
}

// Item 8: files git ignores, for the file tools.

#[test]
fn file_tools_honouring_gitignore_are_caught_in_every_file_tool() {
    let report = run(
        "file-tools-honour-gitignore",
        &["file.shape.git-ignored*", "file.write.git-ignored-new"],
    );
    assert_eq!(
        with_status(&report, "pass"),
        BTreeSet::new(),
        "every instance fails"
    );
    assert_eq!(report["summary"]["fail"], 19);
}

// Item 9: a read that adds a final newline.

#[test]
fn a_read_adding_a_final_newline_to_ascii_text_is_caught() {
    caught(
        "read-adds-final-newline",
        &["file.read.*final*"],
        &[
            "file.read.no-final-newline-one-line",
            "file.read.no-final-newline-lines",
            "file.read.no-final-newline-code",
            "file.read.final-carriage-return",
        ],
    );
}

// Item 10: /proc/self/root, where SEC-1 wins (SEC-13).

#[test]
fn refusing_a_path_through_proc_self_root_is_caught_in_every_tool() {
    let report = run("refuses-proc-root", &["security.proc-root.*"]);
    let failed = with_status(&report, "fail");
    for tool in [
        "resolve",
        "search",
        "shell",
        "glob",
        "ls",
        "read-file",
        "write-file",
        "edit",
    ] {
        assert!(
            failed.contains(&format!("security.proc-root.{tool}")),
            "{tool}: not caught ({failed:?})"
        );
    }
    assert!(
        with_status(&report, "pass").contains("security.proc-root.outside"),
        "a real path outside is refused all the same"
    );
}
