use super::fields::not_in;
use super::*;
use crate::harness::expected::ExpectedLine;
use crate::harness::expected::{ExpectedContent, ExpectedOutput};
use toolpath_suite::case::ErrorExpect;
use toolpath_suite::protocol::notes::BINARY;
use toolpath_suite::protocol::{EntryType, ErrorCode, Kind, Match};

/// OUT-7's search: a name inside another counts as named (`a` in
/// `ab`, as `str::contains` had it), a name nowhere is missing, in the
/// answer's order, an empty one never is; 5,001 names at once.
#[test]
fn names_missing_from_a_text_are_found_in_one_pass() {
    assert_eq!(
        not_in("ab c.ts", &["a", "b.ts", "ab", "", "c.ts", "d"]),
        ["b.ts", "d"]
    );
    let names: Vec<String> = (0..5001).map(|i| format!("{i:04}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let text = names[..5000].join("\n");
    assert_eq!(not_in(&text, &names), ["5000"]);
}

fn expected_ok() -> Expected {
    Expected {
        files: None,
        entries: None,
        outcome: ExpectedOutcome::Ok,
        kind: Some(Kind::File),
        path: Some("/t/ws/a.ts".into()),
        parent: None,
        cwd: None,
        output: None,
        matches: Some(vec![ExpectedLine {
            path: "/t/ws/a.ts".into(),
            line: 1,
            text: Some("hello".into()),
        }]),
        notes: Some(vec![]),
        error: None,
        model_text_contains: vec!["/t/ws/a.ts".into()],
        content: None,
        writes: vec![],
    }
}

fn result_ok() -> ToolResult {
    ToolResult {
        outcome: Some(Outcome::Ok),
        kind: Some(Kind::File),
        path: Some("/t/ws/a.ts".into()),
        matches: Some(vec![Match {
            path: "/t/ws/a.ts".into(),
            line: 1,
            text: "hello".into(),
        }]),
        notes: Some(vec![]),
        model_text: Some("1 match in /t/ws/a.ts".into()),
        ..ToolResult::default()
    }
}

fn vars() -> Placeholders {
    Placeholders::new("/t", "/t/ws", &[("ws".into(), "/t/ws".into())])
}

fn fields(v: &Verdict) -> Vec<String> {
    v.mismatches.iter().map(|m| m.field.to_string()).collect()
}

#[test]
fn equal_results_pass_with_no_diff() {
    let v = judge(&expected_ok(), &result_ok(), &[], &vars());
    assert!(v.passed(), "{:?}", v.mismatches);
    assert_eq!(v.diff(), "");
    assert_eq!(v.checked, 7);
}

#[test]
fn a_wrong_kind_fails_with_a_diff_in_placeholders() {
    let mut r = result_ok();
    r.kind = Some(Kind::Directory);
    r.path = Some("/t/ws".into());
    let v = judge(&expected_ok(), &r, &[], &vars());
    assert_eq!(fields(&v), ["kind", "path"]);
    let diff = v.diff();
    assert!(
        diff.contains("-kind: file\n") && diff.contains("+kind: directory\n"),
        "{diff}"
    );
    assert!(diff.contains("+path: \"{ws}\""), "{diff}");
}

#[test]
fn a_literal_placeholder_is_not_the_path_it_stands_for() {
    let mut r = result_ok();
    r.path = Some("{ws}/a.ts".into());
    let v = judge(&expected_ok(), &r, &[], &vars());
    assert_eq!(fields(&v), ["path"]);
    let m = &v.mismatches[0];
    assert_eq!(
        m.expected, "\"/t/ws/a.ts\"",
        "shown raw, so the difference shows"
    );
    assert_eq!(m.actual, "\"{ws}/a.ts\"");
}

#[test]
fn an_extra_duplicate_or_missing_match_or_note_fails() {
    let mut r = result_ok();
    let extra = Match {
        path: "/t/ws/b.ts".into(),
        line: 2,
        text: "x".into(),
    };
    r.matches.as_mut().unwrap().push(extra);
    assert_eq!(
        fields(&judge(&expected_ok(), &r, &[], &vars())),
        ["matches"]
    );
    let mut r = result_ok();
    let again = r.matches.as_ref().unwrap()[0].clone();
    r.matches.as_mut().unwrap().push(again);
    assert_eq!(
        fields(&judge(&expected_ok(), &r, &[], &vars())),
        ["matches"]
    );
    let mut r = result_ok();
    r.notes = Some(vec!["include_ignored".into()]);
    assert_eq!(fields(&judge(&expected_ok(), &r, &[], &vars())), ["notes"]);
    let mut r = result_ok();
    r.notes = None;
    assert_eq!(
        fields(&judge(&expected_ok(), &r, &[], &vars())),
        ["notes"],
        "missing notes are not an empty set"
    );
}

#[test]
fn rewritten_match_text_fails() {
    let mut r = result_ok();
    r.matches.as_mut().unwrap()[0].text = "hello ".into();
    let v = judge(&expected_ok(), &r, &[], &vars());
    assert_eq!(fields(&v), ["matches.text \"{ws}/a.ts:1\""]);
    let v = judge(&expected_ok(), &r, &[Field::MatchesText], &vars());
    assert!(v.passed());
    assert_eq!(v.unchecked, ["matches.text"]);
}

#[test]
fn glob_files_are_a_set_and_an_extra_duplicate_or_missing_one_fails() {
    let expected = Expected {
        matches: None,
        notes: None,
        files: Some(vec!["/t/ws/a.ts".into(), "/t/ws/b.ts".into()]),
        ..expected_ok()
    };
    let mut r = result_ok();
    r.files = Some(vec!["/t/ws/b.ts".into(), "/t/ws/a.ts".into()]);
    assert!(judge(&expected, &r, &[], &vars()).passed(), "order is free");
    for wrong in [
        Some(vec!["/t/ws/a.ts".into()]),
        Some(vec![
            "/t/ws/a.ts".into(),
            "/t/ws/a.ts".into(),
            "/t/ws/b.ts".into(),
        ]),
        None,
    ] {
        r.files = wrong;
        assert_eq!(fields(&judge(&expected, &r, &[], &vars())), ["files"]);
    }
}

#[test]
fn ls_entries_compare_paths_and_types() {
    use toolpath_suite::protocol::Entry;
    let expected = Expected {
        matches: None,
        notes: None,
        entries: Some(vec![
            ("/t/ws/a.ts".into(), EntryType::File),
            ("/t/ws/l".into(), EntryType::Symlink),
        ]),
        ..expected_ok()
    };
    let entry = |path: &str, entry_type| Entry {
        path: path.into(),
        entry_type,
    };
    let mut r = result_ok();
    r.model_text = Some("/t/ws/a.ts and l".into());
    r.entries = Some(vec![
        entry("/t/ws/l", EntryType::Symlink),
        entry("/t/ws/a.ts", EntryType::File),
    ]);
    assert!(judge(&expected, &r, &[], &vars()).passed(), "order is free");
    r.entries = Some(vec![
        entry("/t/ws/l", EntryType::File),
        entry("/t/ws/a.ts", EntryType::File),
    ]);
    let v = judge(&expected, &r, &[], &vars());
    assert!(v.diff().contains("{ws}/l file"), "{}", v.diff());
    r.entries = Some(vec![entry("/t/ws/a.ts", EntryType::File)]);
    assert_eq!(fields(&judge(&expected, &r, &[], &vars())), ["entries"]);
    let v = judge(&expected, &r, &[Field::Entries], &vars());
    assert_eq!(
        (v.passed(), v.unchecked),
        (true, vec!["entries".to_owned()])
    );
}

#[test]
fn entries_without_their_directory_compare_by_base_name_and_type() {
    use toolpath_suite::protocol::Entry;
    let expected = Expected {
        matches: None,
        notes: None,
        entries: Some(vec![
            ("/t/ws/a.ts".into(), EntryType::File),
            ("/t/ws/l".into(), EntryType::Symlink),
        ]),
        ..expected_ok()
    };
    let entry = |path: &str, entry_type| Entry {
        path: path.into(),
        entry_type,
    };
    let mut r = result_ok();
    r.model_text = Some("/t/ws/a.ts and l".into());
    // A listing that names entries relative to the directory it listed.
    r.entries = Some(vec![
        entry("l", EntryType::Symlink),
        entry("a.ts", EntryType::File),
    ]);
    let unobservable = [Field::EntriesPath];
    let v = judge(&expected, &r, &unobservable, &vars());
    assert!(v.passed(), "{:?}", v.mismatches);
    assert_eq!(v.unchecked, ["entries.path"], "never a pass");
    // The names and types are still judged.
    r.entries = Some(vec![
        entry("l", EntryType::File),
        entry("a.ts", EntryType::File),
    ]);
    assert_eq!(
        fields(&judge(&expected, &r, &unobservable, &vars())),
        ["entries"]
    );
    r.entries = Some(vec![entry("a.ts", EntryType::File)]);
    assert_eq!(
        fields(&judge(&expected, &r, &unobservable, &vars())),
        ["entries"]
    );
    // Observed, the same relative names are wrong.
    r.entries = Some(vec![
        entry("l", EntryType::Symlink),
        entry("a.ts", EntryType::File),
    ]);
    assert_eq!(fields(&judge(&expected, &r, &[], &vars())), ["entries"]);
}

/// A glob that names what it found relative to a directory it does
/// not name (`files.path` not observed): judged on the base names,
/// never passed on them alone, and still failed on a file it missed.
#[test]
fn files_without_their_directory_compare_by_base_name() {
    let expected = Expected {
        matches: None,
        notes: None,
        files: Some(vec!["/t/ws/src/a.ts".into(), "/t/ws/b.ts".into()]),
        ..expected_ok()
    };
    let mut r = result_ok();
    r.matches = None;
    r.notes = None;
    r.files = Some(vec!["b.ts".into(), "src/a.ts".into()]);
    let unobservable = [Field::FilesPath];
    let v = judge(&expected, &r, &unobservable, &vars());
    assert!(v.passed(), "{:?}", v.mismatches);
    assert_eq!(v.unchecked, ["files.path"], "never a pass");
    r.files = Some(vec!["b.ts".into()]);
    assert_eq!(
        fields(&judge(&expected, &r, &unobservable, &vars())),
        ["files"]
    );
    // Observed, the same relative names are wrong.
    r.files = Some(vec!["b.ts".into(), "src/a.ts".into()]);
    assert_eq!(fields(&judge(&expected, &r, &[], &vars())), ["files"]);
}

#[test]
fn matches_without_their_directory_compare_by_base_name_and_line() {
    let mut r = result_ok();
    r.matches.as_mut().unwrap()[0].path = "a.ts".into();
    let unobservable = [Field::MatchesPath];
    let v = judge(&expected_ok(), &r, &unobservable, &vars());
    assert!(v.passed(), "{:?}", v.mismatches);
    assert_eq!(v.unchecked, ["matches.path"]);
    // The line and its text are still judged.
    r.matches.as_mut().unwrap()[0].text = "hello ".into();
    assert_eq!(
        fields(&judge(&expected_ok(), &r, &unobservable, &vars())),
        ["matches.text \"{ws}/a.ts:1\""]
    );
    r.matches.as_mut().unwrap()[0].line = 2;
    assert_eq!(
        fields(&judge(&expected_ok(), &r, &unobservable, &vars())),
        ["matches"]
    );
    // Observed, a bare name is the wrong path.
    let mut r = result_ok();
    r.matches.as_mut().unwrap()[0].path = "a.ts".into();
    assert_eq!(
        fields(&judge(&expected_ok(), &r, &[], &vars())),
        ["matches"]
    );
}

#[test]
fn an_unobserved_outcome_is_unchecked_and_the_rest_still_judged() {
    let unobservable = [Field::Outcome];
    let v = judge(&expected_ok(), &result_ok(), &unobservable, &vars());
    assert!(v.passed());
    assert_eq!(v.unchecked, ["outcome"]);
    // An error where a file was expected is still wrong where it shows.
    let error = ToolResult::error(ErrorCode::NotFound, "no");
    let v = judge(&expected_ok(), &error, &unobservable, &vars());
    assert!(fields(&v).iter().any(|f| f == "kind"), "{:?}", fields(&v));
}

#[test]
fn a_derived_code_or_an_unobservable_message_is_unchecked() {
    let expect = expected_error();
    let vague = ToolResult::error(ErrorCode::NotFound, "no such path");
    let v = judge(&expect, &vague, &[Field::ErrorMessage], &vars());
    assert!(v.passed());
    assert_eq!(v.unchecked, ["error.message"]);
    let good = ToolResult::error(ErrorCode::PermissionDenied, "no such path: /t/ws/x");
    let v = judge(&expect, &good, &[Field::ErrorCode], &vars());
    assert!(v.passed());
    assert_eq!(v.unchecked, ["error.code"]);
}

#[test]
fn the_shell_must_have_run_where_it_says() {
    let e = Expected {
        kind: None,
        path: None,
        matches: None,
        notes: None,
        cwd: Some("/t/ws/sub".into()),
        output: Some(ExpectedOutput::Directory(vec![
            "/t/ws/sub".into(),
            "/real/sub".into(),
        ])),
        model_text_contains: vec![],
        ..expected_ok()
    };
    let ran = |output: Option<&str>| ToolResult {
        outcome: Some(Outcome::Ok),
        cwd: Some("/t/ws/sub".into()),
        output: output.map(str::to_owned),
        ..ToolResult::default()
    };
    assert!(judge(&e, &ran(Some("/t/ws/sub\n")), &[], &vars()).passed());
    assert!(judge(&e, &ran(Some("/real/sub")), &[], &vars()).passed());
    assert_eq!(
        fields(&judge(&e, &ran(Some("/t/ws\n")), &[], &vars())),
        ["output"]
    );
    assert_eq!(fields(&judge(&e, &ran(None), &[], &vars())), ["output"]);
    let v = judge(&e, &ran(None), &[Field::Output], &vars());
    assert!(v.passed());
    assert_eq!(v.unchecked, ["output"]);
    // `ls`: the same names in any order, nothing more or less.
    let e = Expected {
        output: Some(ExpectedOutput::Listing(vec!["a.txt".into(), "b".into()])),
        ..e
    };
    assert!(judge(&e, &ran(Some("b\na.txt\n")), &[], &vars()).passed());
    assert!(judge(&e, &ran(Some("a.txt\nb")), &[], &vars()).passed());
    for wrong in ["a.txt\n", "a.txt\nb\nc\n", "/t/ws/sub\n", ""] {
        assert_eq!(
            fields(&judge(&e, &ran(Some(wrong)), &[], &vars())),
            ["output"],
            "{wrong:?}"
        );
    }
}

/// OUT-5 for the shell: the text must name the directory besides the
/// output it carries, or `pwd` would pass it for any tool.
#[test]
fn the_shell_s_text_names_its_directory_apart_from_the_output() {
    let e = Expected {
        kind: None,
        path: None,
        matches: None,
        notes: None,
        cwd: Some("/t/ws/sub".into()),
        model_text_contains: vec!["/t/ws/sub".into()],
        ..expected_ok()
    };
    let said = |text: &str| ToolResult {
        outcome: Some(Outcome::Ok),
        cwd: Some("/t/ws/sub".into()),
        output: Some("/t/ws/sub\n".into()),
        model_text: Some(text.into()),
        ..ToolResult::default()
    };
    assert!(judge(&e, &said("Ran in /t/ws/sub:\n/t/ws/sub\n"), &[], &vars()).passed());
    assert_eq!(
        fields(&judge(&e, &said("Output: /t/ws/sub\n"), &[], &vars())),
        ["model_text contains"]
    );
}

/// OUT-7: an `ls` text names every entry it gives; a count is not
/// a listing.
#[test]
fn a_listing_s_text_names_every_entry() {
    use toolpath_suite::protocol::Entry;
    let entries = vec![("/t/ws/sub/a.ts".to_owned(), EntryType::File)];
    let e = Expected {
        kind: None,
        path: None,
        matches: None,
        notes: None,
        entries: Some(entries),
        model_text_contains: vec![],
        ..expected_ok()
    };
    let said = |text: &str| ToolResult {
        outcome: Some(Outcome::Ok),
        entries: Some(vec![Entry {
            path: "/t/ws/sub/a.ts".into(),
            entry_type: EntryType::File,
        }]),
        model_text: Some(text.into()),
        ..ToolResult::default()
    };
    assert!(judge(&e, &said("Listing:\nfile a.ts\n"), &[], &vars()).passed());
    let counted = judge(&e, &said("Listed /t/ws/sub (1 entry)"), &[], &vars());
    assert_eq!(fields(&counted), ["model_text-entries"]);
    assert!(judge(&e, &said("Listed (1 entry)"), &[Field::ModelText], &vars()).passed());
}

/// RES-11: a result without `parent` did not show it (not observed,
/// never passed); one with it must have it right.
#[test]
fn an_absent_parent_is_not_observed_and_a_wrong_one_fails() {
    let e = Expected {
        parent: Some("/t/ws".into()),
        ..expected_ok()
    };
    let mut r = result_ok();
    r.parent = None;
    let v = judge(&e, &r, &[], &vars());
    assert!(v.mismatches.is_empty(), "{:?}", v.mismatches);
    assert_eq!(v.unchecked, ["parent"]);
    r.parent = Some("/t".into());
    assert_eq!(fields(&judge(&e, &r, &[], &vars())), ["parent"]);
    r.parent = Some("/t/ws".into());
    assert!(judge(&e, &r, &[], &vars()).passed());
}

#[test]
fn the_model_must_be_shown_the_resolved_path() {
    let mut r = result_ok();
    r.model_text = Some("1 match in a.ts".into());
    assert_eq!(
        fields(&judge(&expected_ok(), &r, &[], &vars())),
        ["model_text contains"]
    );
    r.model_text = None;
    assert_eq!(
        fields(&judge(&expected_ok(), &r, &[], &vars())),
        ["model_text contains"]
    );
    let v = judge(&expected_ok(), &r, &[Field::ModelText], &vars());
    assert!(v.passed());
    assert_eq!(v.unchecked, ["model_text"]);
}

#[test]
fn a_read_must_answer_the_text_exactly_or_nothing_for_a_binary_file() {
    let text = Expected {
        matches: None,
        notes: None,
        content: Some(ExpectedContent::Text("one\r\ntwo".into())),
        ..expected_ok()
    };
    let mut r = result_ok();
    r.matches = None;
    r.content = Some("one\r\ntwo".into());
    assert!(judge(&text, &r, &[], &vars()).passed());
    for wrong in [Some("one\ntwo"), Some("1: one\r\n2: two"), None] {
        r.content = wrong.map(str::to_owned);
        let v = judge(&text, &r, &[], &vars());
        assert_eq!(fields(&v), ["content"], "{wrong:?}");
        assert_eq!(v.mismatches[0].rule.as_deref(), Some("FILE-5"));
    }
    let binary = Expected {
        content: Some(ExpectedContent::Binary),
        ..text
    };
    r.content = None;
    assert!(judge(&binary, &r, &[], &vars()).passed());
    r.content = Some("text\u{0}more".into());
    assert_eq!(fields(&judge(&binary, &r, &[], &vars())), ["content"]);
    let v = judge(&binary, &r, &[Field::Content], &vars());
    assert_eq!(
        (v.passed(), v.unchecked),
        (true, vec!["content".to_owned()])
    );
}

/// SEARCH-8: a search of a directory may say it skipped a binary file;
/// a search of a file may not, and a case that names the note has it
/// judged wherever the search went.
#[test]
fn a_directory_search_may_note_a_skipped_binary_file_a_file_search_may_not() {
    let directory = Expected {
        kind: Some(Kind::Directory),
        ..expected_ok()
    };
    let mut r = result_ok();
    r.kind = Some(Kind::Directory);
    r.notes = Some(vec![BINARY.to_owned()]);
    let v = judge(&directory, &r, &[], &vars());
    assert!(v.passed(), "{:?}", v.mismatches);
    r.kind = Some(Kind::File);
    assert_eq!(fields(&judge(&expected_ok(), &r, &[], &vars())), ["notes"]);
    let named = Expected {
        notes: Some(vec![BINARY.to_owned()]),
        ..directory
    };
    r.kind = Some(Kind::Directory);
    r.notes = Some(vec![]);
    assert_eq!(fields(&judge(&named, &r, &[], &vars())), ["notes"]);
}

#[test]
fn changes_inside_and_escapes_are_separate_mismatches_with_their_rule() {
    let mut v = judge(&expected_ok(), &result_ok(), &[], &vars());
    v.check_changes(
        (OwnCheck::Fixture, "FILE-11"),
        "only the expected write",
        &[],
        0,
    );
    v.check_changes(
        (OwnCheck::Escape, "FILE-11"),
        "nothing outside the roots changed",
        &["~ {tmp}/outside/secret.txt (content)".into()],
        1,
    );
    assert_eq!(fields(&v), ["escape"]);
    let m = &v.mismatches[0];
    assert_eq!(m.rule.as_deref(), Some("FILE-11"));
    assert_eq!(m.actual, "1 change: ~ {tmp}/outside/secret.txt (content)");
    assert!(v.diff().contains("+escape: 1 change"), "{}", v.diff());
}

#[test]
fn unobservable_fields_are_unchecked_not_passed() {
    let mut r = result_ok();
    r.kind = None;
    let v = judge(&expected_ok(), &r, &[Field::Kind], &vars());
    assert!(v.passed());
    assert_eq!(v.unchecked, ["kind"]);
}

fn expected_error() -> Expected {
    Expected {
        files: None,
        entries: None,
        outcome: ExpectedOutcome::Error,
        error: Some(ErrorExpect {
            code: ErrorCode::NotFound,
            message_contains: vec!["/t/ws/x".into()],
        }),
        kind: None,
        path: None,
        parent: None,
        cwd: None,
        output: None,
        matches: None,
        notes: None,
        model_text_contains: vec![],
        content: None,
        writes: vec![],
    }
}

#[test]
fn error_code_and_message_substrings_are_checked() {
    let expect = expected_error();
    let good = ToolResult::error(ErrorCode::NotFound, "no such path: /t/ws/x");
    assert!(judge(&expect, &good, &[], &vars()).passed());
    let wrong_code = ToolResult::error(ErrorCode::PermissionDenied, "denied: /t/ws/x");
    assert_eq!(
        fields(&judge(&expect, &wrong_code, &[], &vars())),
        ["error.code"]
    );
    let vague = ToolResult::error(ErrorCode::NotFound, "no such path");
    let v = judge(&expect, &vague, &[], &vars());
    assert!(v.diff().contains("does not contain it"), "{}", v.diff());
}

#[test]
fn the_rule_behind_a_code_is_shown_not_judged() {
    let mut r = ToolResult::error(ErrorCode::InvalidParams, "boom: /t/ws/x");
    r.error.as_mut().unwrap().rule = Some("errors.codes[2] (message 'boom')".into());
    let v = judge(&expected_error(), &r, &[], &vars());
    assert_eq!(
        v.mismatches[0].actual,
        "invalid_params (rule: errors.codes[2] (message 'boom'))"
    );
    r.error.as_mut().unwrap().code = ErrorCode::NotFound;
    assert!(judge(&expected_error(), &r, &[], &vars()).passed());
}

#[test]
fn a_different_outcome_still_shows_what_was_expected() {
    let v = judge(&expected_error(), &result_ok(), &[], &vars());
    assert_eq!(fields(&v), ["outcome"]);
    let diff = v.diff();
    assert!(diff.contains("-error.code: not_found\n"), "{diff}");
    assert!(
        diff.contains("-error.message contains: \"{ws}/x\"\n"),
        "{diff}"
    );
    assert!(diff.contains("+path: \"{ws}/a.ts\"\n"), "{diff}");
}

#[test]
fn descriptions_are_checked_case_insensitively() {
    let mut expect = toolpath_suite::case::Expect {
        outcome: ExpectedOutcome::Ok,
        files: None,
        entries: None,
        kind: None,
        path: None,
        parent: None,
        cwd: None,
        matches: None,
        notes: None,
        error: None,
        mentions: None,
        excludes: None,
        writes: vec![],
    };
    expect.mentions = Some(vec!["file".into(), "relative".into()]);
    expect.excludes = Some(vec!["absolute path to the directory".into()]);
    assert!(judge_description(&expect, Some("A File or directory, Relative or absolute")).passed());
    let v = judge_description(&expect, Some("The absolute path to the directory"));
    assert_eq!(fields(&v), ["mentions", "mentions", "excludes"]);
    assert!(!judge_description(&expect, None).passed());
}
