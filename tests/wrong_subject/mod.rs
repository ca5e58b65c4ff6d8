//! A run of the suite through one deliberately wrong subject of
//! `tests/adapters/` (the reference, `$TOOLPATH_BIN serve`, with one
//! defect), for the test files that prove a hole class closed:
//! `hole_classes.rs`, `path_holes.rs`, `field_names.rs`. Each takes only
//! the cases of its class, so each run takes a second or two.
//!
//! Each test file uses the part it needs.
#![allow(dead_code)]

use std::collections::BTreeSet;

use assert_cmd::Command;
use serde_json::Value;

/// The JSON report of the cases `selection` (`toolpath run` selection
/// arguments) picks, run through `python3 tests/adapters/SCRIPT MODE`.
/// The wrapper itself must not misbehave: an adapter error fails the test.
pub fn report(script: &str, mode: &str, selection: &[&str]) -> Value {
    let out = Command::cargo_bin("toolpath")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
        .args(["run", "--jobs", "2", "--format", "json"])
        .args(selection)
        .args([
            "--adapter",
            &format!("python3 tests/adapters/{script} {mode}"),
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{mode}: no report ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(
        report["summary"]["adapter_error"], 0,
        "{mode}: the wrapper itself misbehaved"
    );
    report
}

/// `--filter F` for each of `filters`.
pub fn filters<'a>(filters: &[&'a str]) -> Vec<&'a str> {
    filters.iter().flat_map(|f| ["--filter", *f]).collect()
}

/// Case ids (without a search tool's `@grep`) with `status`.
pub fn with_status(report: &Value, status: &str) -> BTreeSet<String> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == status)
        .map(|c| {
            let id = c["id"].as_str().unwrap();
            id.split('@').next().unwrap().to_owned()
        })
        .collect()
}

/// `mode` of `script` fails every one of `cases`, run through `selection`
/// alone.
pub fn caught(script: &str, mode: &str, selection: &[&str], cases: &[&str]) {
    let failed = with_status(&report(script, mode, selection), "fail");
    for case in cases {
        assert!(
            failed.contains(*case),
            "{mode}: {case} did not fail (failed: {failed:?})"
        );
    }
}
