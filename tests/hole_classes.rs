//! The hole classes of issue 32 are closed: for each, a wrong subject
//! (`tests/adapters/hole_classes.py`, the reference with one defect a
//! published agent tool had) fails the cases added for it.
//!
//! Each run takes only the cases of the rule it proves (`--spec`, or a
//! `--filter` where the rule is an old one with many cases), so each
//! run takes about a second.

use std::collections::BTreeSet;

use assert_cmd::Command;
use serde_json::Value;

mod wrong_subject;

/// The report of the cases `selection` picks, run through `mode`.
fn run(mode: &str, selection: &[&str]) -> Value {
    wrong_subject::report("hole_classes.py", mode, selection)
}

use wrong_subject::with_status;

/// `mode` fails every one of `cases`, run through `selection` alone.
fn caught(mode: &str, selection: &[&str], cases: &[&str]) {
    wrong_subject::caught("hole_classes.py", mode, selection, cases);
}

// Class 1: binary by the name, or by a first block.

#[test]
fn binary_by_extension_is_caught() {
    caught(
        "binary-by-extension",
        &["--spec", "FILE-12"],
        &[
            "file.read.text-php-name",
            "file.read.text-dat-name",
            "file.read.text-bin-name",
            "file.read.late-nul-after-4k-txt",
        ],
    );
}

#[test]
fn binary_by_the_first_4_kib_is_caught() {
    caught(
        "binary-first-4k",
        &["--spec", "FILE-12"],
        &[
            "file.read.late-nul-after-4k-txt",
            "file.read.late-nul-after-64k-txt",
        ],
    );
}

// Class 2: decoding.

#[test]
fn a_stripped_byte_order_mark_is_caught() {
    caught(
        "bom-stripped",
        &["--spec", "FILE-12"],
        &[
            "file.read.bom-kept",
            "file.edit.bom-kept",
            "file.edit.bom-first-line",
        ],
    );
}

#[test]
fn decoding_utf16_is_caught() {
    caught(
        "utf16-decoded",
        &["--spec", "FILE-12"],
        &["file.read.utf16-binary"],
    );
}

#[test]
fn an_edit_replacing_bytes_that_are_not_utf8_is_caught() {
    caught(
        "edit-replaces-invalid-bytes",
        &["--spec", "FILE-15"],
        &["file.edit.latin1-bytes-kept"],
    );
}

// Class 3: silent cuts, and cuts a small file does not allow.

#[test]
fn cutting_lines_and_files_silently_is_caught() {
    caught(
        "read-cuts-lines",
        &["--spec", "FILE-13"],
        &[
            "file.read.long-line-whole",
            "file.read.many-lines-whole",
            "file.read.large-cut-said",
        ],
    );
}

#[test]
fn cutting_a_small_file_saying_so_is_caught() {
    caught(
        "read-cuts-small-saying-so",
        &["--spec", "FILE-13"],
        &["file.read.many-lines-whole"],
    );
}

#[test]
fn cutting_below_64_kib_saying_so_is_caught() {
    caught(
        "read-cuts-to-budget",
        &["--spec", "FILE-13"],
        &["file.read.large-cut-said"],
    );
}

#[test]
fn a_cut_the_rule_allows_passes() {
    let report = run("read-cut-allowed", &["--spec", "FILE-13"]);
    assert_eq!(
        report["summary"]["pass"], report["summary"]["total"],
        "a read cut after 64 KiB that says so conforms"
    );
}

// Class 4: content rewritten on the way.

#[test]
fn dropping_emoji_is_caught() {
    caught(
        "drops-astral",
        &["--spec", "FILE-14"],
        &["file.write.emoji-kept", "file.edit.emoji-kept"],
    );
}

#[test]
fn interpreting_escapes_is_caught() {
    caught(
        "interprets-escapes",
        &["--spec", "FILE-14"],
        &["file.write.backslash-t-kept", "file.edit.backslash-t-kept"],
    );
}

#[test]
fn adding_a_final_newline_is_caught() {
    caught(
        "adds-final-newline",
        &["--spec", "FILE-14"],
        &[
            "file.write.trailing-spaces-kept",
            "file.edit.no-final-newline-added",
        ],
    );
}

#[test]
fn masking_secrets_is_caught() {
    caught(
        "masks-secrets",
        &["--spec", "FILE-14"],
        &["file.read.secret-lines-kept"],
    );
}

#[test]
fn trimming_match_lines_once_there_are_many_is_caught() {
    caught(
        "trims-many-matches",
        &["--filter", "search.text.trailing-spaces-many"],
        &["search.text.trailing-spaces-many"],
    );
}

// Class 9: roots told apart by name, matches capped per file.

#[test]
fn roots_told_apart_by_base_name_are_caught_in_every_tool() {
    caught(
        "roots-by-base-name",
        &["--filter", "*.none.same-named-roots"],
        &[
            "search.none.same-named-roots",
            "glob.none.same-named-roots",
            "ls.none.same-named-roots",
        ],
    );
}

#[test]
fn a_silent_cap_on_matches_per_file_is_caught() {
    caught(
        "caps-matches-per-file",
        &["--filter", "search.lines.many-*"],
        &[
            "search.lines.many-in-one-file",
            "search.lines.many-per-file-dir",
        ],
    );
}

// Classes 5 and 13: loose edits.

#[test]
fn a_trimmed_line_match_is_caught() {
    caught(
        "edit-trimmed-lines",
        &["--spec", "FILE-15"],
        &[
            "file.edit.indentation-not-tolerated",
            "file.edit.trailing-space-not-tolerated",
            "file.edit.trimmed-line-not-tolerated",
        ],
    );
}

#[test]
fn a_case_insensitive_match_is_caught() {
    caught(
        "edit-case-insensitive",
        &["--spec", "FILE-15"],
        &["file.edit.case-not-tolerated"],
    );
}

#[test]
fn a_line_ending_insensitive_match_is_caught() {
    caught(
        "edit-crlf-tolerant",
        &["--spec", "FILE-15"],
        &["file.edit.lf-old-string-crlf-file"],
    );
}

#[test]
fn an_empty_old_string_creating_the_file_is_caught() {
    caught(
        "edit-empty-creates",
        &["--spec", "FILE-15"],
        &["file.edit.empty-old-string-missing"],
    );
}

// Class 6: writes, and ignore files.

#[test]
fn reading_before_writing_is_caught() {
    caught(
        "write-reads-first",
        &["--spec", "FILE-16"],
        &["file.write.write-only"],
    );
}

#[test]
fn making_a_dangling_link_target_directory_is_caught() {
    caught(
        "makes-link-target-dirs",
        &["--spec", "FILE-16"],
        &["file.write.dangling-target-dir-missing"],
    );
}

#[test]
fn honouring_an_agent_ignore_file_is_caught_in_every_tool() {
    caught(
        "honours-tool-ignore",
        &["--spec", "FILE-17"],
        &[
            "file.read.tool-ignore-files",
            "file.write.tool-ignore-files",
            "file.edit.tool-ignore-files",
            "search.exclusions.tool-ignore-files-dir",
            "search.exclusions.tool-ignore-files-all",
            "glob.exclusions.tool-ignore-files",
            "ls.exclusions.tool-ignore-files",
        ],
    );
}

// Issue 45, item 8: an ignore file of the tool's own under a name no case
// knows (`.mytoolignore`), which the subject announces in `hello`.

/// Every instance of the cases of an implementation's own ignore file:
/// one per tool FILE-17 applies to.
const OWN_IGNORE_INSTANCES: [&str; 7] = [
    "file.read.own-ignore-file",
    "file.write.own-ignore-file",
    "file.edit.own-ignore-file",
    "search.exclusions.own-ignore-file@grep",
    "search.exclusions.own-ignore-file@ripgrep",
    "glob.exclusions.own-ignore-file",
    "ls.exclusions.own-ignore-file",
];

/// The instance ids (a search tool's `@grep` kept) with `status`, and
/// their reasons.
fn instances(report: &Value, status: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == status)
        .map(|c| {
            let reason = c["reason"].as_str().unwrap_or_default().to_owned();
            (c["id"].as_str().unwrap().to_owned(), reason)
        })
        .collect();
    found.sort();
    found
}

fn own_ignore_ids(report: &Value, status: &str) -> BTreeSet<String> {
    instances(report, status)
        .into_iter()
        .map(|(id, _)| id)
        .collect()
}

#[test]
fn honouring_an_announced_own_ignore_file_is_caught_in_every_tool() {
    let all: BTreeSet<String> = OWN_IGNORE_INSTANCES.map(str::to_owned).into();
    let report = run("honours-own-ignore", &["--filter", "*.own-ignore-file"]);
    assert_eq!(own_ignore_ids(&report, "fail"), all, "every instance fails");
    // The same subject passes the cases of the six ignore files a case
    // can name: its own is named in none of them.
    let named = run("honours-own-ignore", &["--filter", "*.tool-ignore-files*"]);
    assert_eq!(named["summary"]["pass"], named["summary"]["total"]);
    // The reference, which consults none, passes every one.
    let out = Command::cargo_bin("toolpath")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--jobs", "2", "--format", "json"])
        .args(["--filter", "*.own-ignore-file"])
        .output()
        .unwrap();
    let reference: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(own_ignore_ids(&reference, "pass"), all, "the reference");
}

/// A subject that announces no ignore file of its own has those cases
/// skipped with the reason: none is sent, none passes.
#[test]
fn an_own_ignore_file_case_is_skipped_for_a_subject_announcing_none() {
    let report = run(
        "announces-no-ignore-file",
        &["--filter", "*.own-ignore-file"],
    );
    let reason = "the implementation announces no ignore file of its own (hello `ignore_files`)";
    let expected: Vec<(String, String)> = OWN_IGNORE_INSTANCES
        .iter()
        .map(|id| ((*id).to_owned(), reason.to_owned()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(instances(&report, "skip"), expected);
    assert_eq!(report["summary"]["pass"], 0);
}

// Class 12: a file path taken for a pattern.

#[test]
fn expanding_a_file_path_as_a_pattern_is_caught_in_every_file_tool() {
    caught(
        "file-path-globbed",
        &["--spec", "FILE-18"],
        &[
            "file.read.brackets-name",
            "file.read.star-missing",
            "file.write.star-name",
            "file.write.brackets-name",
            "file.edit.brackets-name",
            "file.edit.star-missing",
        ],
    );
}

// Class 11: glob patterns with white space or non-ASCII directories.

#[test]
fn splitting_a_glob_pattern_on_spaces_is_caught() {
    caught(
        "glob-splits-on-space",
        &["--filter", "glob.pattern.space-*"],
        &["glob.pattern.space-directory", "glob.pattern.space-name"],
    );
}

#[test]
fn an_ascii_only_directory_segment_is_caught() {
    caught(
        "glob-ascii-directories",
        &["--filter", "glob.pattern.non-ascii-*"],
        &[
            "glob.pattern.non-ascii-directory",
            "glob.pattern.non-ascii-directory-deep",
        ],
    );
}

// Class 10: what an ls tells the model.

#[test]
fn an_ls_text_that_only_counts_entries_is_caught() {
    caught(
        "ls-counts-entries",
        &["--spec", "OUT-7"],
        &["ls.text.names-entries", "ls.text.names-entries-all"],
    );
}

// Class 8: a link out in a root that is not the target.

#[test]
fn checking_real_paths_below_the_target_only_is_caught_in_every_tool() {
    let report = run("target-only-real", &["--filter", "security.other-root.*"]);
    let failed = with_status(&report, "fail");
    assert_eq!(
        with_status(&report, "pass"),
        BTreeSet::new(),
        "every instance fails"
    );
    for tool in [
        "resolve",
        "search",
        "shell",
        "glob",
        "ls",
        "read_file",
        "write_file",
        "edit",
    ] {
        for root in ["first", "second"] {
            assert!(
                failed
                    .iter()
                    .any(|id| id.starts_with(&format!("security.other-root.{root}-{tool}-"))),
                "{tool}, link in the {root} root: not caught ({failed:?})"
            );
        }
    }
    // The existing matrices make the link's root the target: they cannot
    // tell this tool from a right one.
    let matrices = run("target-only-real", &["--filter", "security.shape.*"]);
    assert_eq!(
        matrices["summary"]["pass"], matrices["summary"]["total"],
        "the second-root cells make that root the target"
    );
}

// Class 14: walks far past the first truncation cases.

/// A glob, ls or search that stops at 5,000 results without a word fails
/// each walk of 5,001; one that stops there and says `truncated` passes
/// them (OUT-6 allows the cut, not the silence).
#[test]
fn stopping_at_5000_results_silently_is_caught_in_every_walk() {
    caught(
        "stops-at-5000-silently",
        &["--filter", "*.walk.past-5000*"],
        &[
            "glob.walk.past-5000",
            "ls.walk.past-5000",
            "search.walk.past-5000",
        ],
    );
    let said = run(
        "stops-at-5000-saying-so",
        &["--filter", "*.walk.past-5000*"],
    );
    assert_eq!(said["summary"]["total"], 4);
    assert_eq!(
        said["summary"]["pass"], said["summary"]["total"],
        "stopping at 5,000 and saying so conforms"
    );
}
