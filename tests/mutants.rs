//! The suite can tell a wrong implementation from a right one.
//!
//! Each mutant (`tests/adapters/mutant.py`) is the reference with one
//! deliberate defect, most of them a real-world bug the spec exists to rule
//! out. The whole suite runs against each; every mutant must be caught, and
//! caught by a case that cites the requirement the defect violates. The
//! identity mutant (no defect) proves the wrapper itself is faithful.

use assert_cmd::Command;
use serde_json::Value;

fn run_mutant(mode: &str) -> Value {
    let out = Command::cargo_bin("toolpath")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
        .args(["run", "--jobs", "2", "--format", "json", "--adapter"])
        .arg(format!("python3 tests/adapters/mutant.py {mode}"))
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{mode}: no report ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Requirement IDs cited by the cases that failed.
fn caught_by(report: &Value) -> Vec<String> {
    let mut ids: Vec<String> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] != "pass" && c["status"] != "skip" && c["status"] != "unsupported")
        .flat_map(|c| {
            c["spec"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_owned())
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

fn assert_caught(mode: &str, requirement: &str) {
    let report = run_mutant(mode);
    assert_eq!(
        report["summary"]["adapter_error"], 0,
        "{mode}: the wrapper itself misbehaved"
    );
    let ids = caught_by(&report);
    assert!(
        ids.iter().any(|id| id == requirement),
        "{mode} was not caught by a {requirement} case (caught by: {ids:?})"
    );
}

#[test]
fn identity_passes_everything() {
    let report = run_mutant("identity");
    assert_eq!(caught_by(&report), Vec::<String>::new());
    assert_eq!(report["summary"]["pass"], report["summary"]["total"]);
}

#[test]
fn reporting_the_real_path_is_caught() {
    assert_caught("report-real-path", "RES-4");
}

#[test]
fn dropping_the_include_note_is_caught() {
    assert_caught("drop-include-note", "SEARCH-6");
}

#[test]
fn rejecting_file_targets_is_caught() {
    assert_caught("pre-change-search", "SEARCH-5");
}

#[test]
fn searching_the_parent_directory_with_include_is_caught() {
    assert_caught("parent-dir-include", "SEARCH-5");
}

#[test]
fn rejecting_shell_sub_paths_is_caught() {
    assert_caught("pre-change-shell", "SHELL-4");
}

#[test]
fn the_inverted_enoent_bug_is_caught() {
    assert_caught("inverted-enoent", "ERR-5");
}

#[test]
fn checking_existence_before_containment_is_caught() {
    assert_caught("existence-first", "SEC-3");
}

#[test]
fn messages_without_the_path_are_caught() {
    assert_caught("vague-messages", "ERR-3");
}
