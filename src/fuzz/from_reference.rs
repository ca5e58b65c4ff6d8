//! The reference's answer turned into what a case would expect, so that
//! fuzzing judges an adapter exactly as a case does: the same
//! [`Expected::derive`] (SHELL-6's two directories, SEARCH-10's line texts
//! from the fixture, OUT-5's containment of the resolved path) and the
//! same [`crate::harness::judge`] (sets compared as sets, codes by value,
//! unobservable fields not checked). A difference the judge accepts is no
//! finding, and a finding's case fails the adapter for the same reason.
//!
//! Three things a hand-written case leaves to its author are decided here,
//! each from the spec:
//!
//! - the error message must name what the reference's message names of
//!   the resolved lexical path and the roots (ERR-3, ERR-4, ERR-6), as far
//!   as a case can write it ([`portable_needles`]);
//! - `parent` (RES-11) is expected only from an adapter that exposes it:
//!   "implementations that expose it MUST get it right";
//! - names beginning with `.` below a listed or globbed directory MAY be
//!   left out (LS-3, GLOB-3): such a file or entry the adapter did not
//!   report is not expected of it ([`allow_hidden`]). Hand-written cases
//!   stay exact ("cases do not depend on either", so a case that lists such
//!   a name pins it on purpose); the latitude is the fuzzer's, which
//!   derives its expectation from a reference that lists every name.

use toolpath_suite::case::raw::ExpectedOutcome;
use toolpath_suite::case::{ErrorExpect, Expect, ExpectedMatch};
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::{ErrorCode, Kind, Outcome, ToolResult};

use crate::harness::expected::Expected;

/// What the spec requires an error message to contain (ERR-3, ERR-4,
/// ERR-6), as far as the reference's own message shows it: each candidate
/// (the resolved lexical path, every root) that the reference's message
/// contains must be in the adapter's too. Other codes' messages are free.
pub fn required_in_message(
    reference: &ToolResult,
    lexical: Option<&str>,
    roots: &[String],
) -> Vec<String> {
    let Some(error) = &reference.error else {
        return Vec::new();
    };
    let constrained = matches!(
        error.code,
        ErrorCode::NotFound
            | ErrorCode::PermissionDenied
            | ErrorCode::NotADirectory
            | ErrorCode::UnsupportedFileType
            | ErrorCode::OutsideWorkspace
            | ErrorCode::AmbiguousName
    );
    if !constrained {
        return Vec::new();
    }
    let mut needles: Vec<String> = lexical
        .into_iter()
        .map(str::to_owned)
        .chain(roots.iter().cloned())
        .filter(|n| error.message.contains(n.as_str()))
        .collect();
    // A root that is a prefix of a required path adds nothing.
    let all = needles.clone();
    needles.retain(|n| {
        !all.iter()
            .any(|m| m != n && m.starts_with(&format!("{n}/")))
    });
    needles.sort();
    needles.dedup();
    needles
}

/// The message needles a case can require: those a written case can say
/// with placeholders. A needle beside the fixture directory rather than
/// below a placeholder (`{tmp}/../a` resolves to a sibling of `{tmp}`)
/// names a place that moves with every run, so no case can require it, and
/// the fuzzer does not either (its findings are what a case can pin). A
/// path the call wrote from `/` (`/a`) is the same everywhere and is kept.
/// Returned as machine paths (for judging) and collapsed (for the case).
pub fn portable_needles(needles: &[String], vars: &Placeholders) -> Vec<(String, String)> {
    let tmp = vars.expand("{tmp}");
    let top = |p: &str| p.split('/').nth(1).map(str::to_owned);
    needles
        .iter()
        .map(|n| (n.clone(), vars.collapse(n)))
        .filter(|(raw, collapsed)| collapsed.starts_with('{') || top(raw) != top(&tmp))
        .collect()
}

/// The reference's answer as a case's `expect`, its paths as they are in
/// `reference` (machine paths to judge with, or placeholders to write).
/// `needles` become `message_contains`; `parent` is expected only when
/// `with_parent` (RES-11).
pub fn expect_of(reference: &ToolResult, needles: &[String], with_parent: bool) -> Expect {
    let error = reference.outcome == Some(Outcome::Error);
    let file = reference.kind == Some(Kind::File);
    Expect {
        outcome: if error {
            ExpectedOutcome::Error
        } else {
            ExpectedOutcome::Ok
        },
        kind: reference.kind,
        path: reference.path.clone(),
        parent: reference.parent.clone().filter(|_| file && with_parent),
        cwd: reference.cwd.clone(),
        matches: reference.matches.as_ref().map(|ms| {
            let mut v: Vec<ExpectedMatch> = ms
                .iter()
                .map(|m| ExpectedMatch {
                    path: m.path.clone(),
                    line: m.line,
                })
                .collect();
            v.sort();
            v.dedup();
            v
        }),
        notes: reference.notes.clone().filter(|_| !error),
        files: reference.files.clone().filter(|_| !error),
        entries: reference
            .entries
            .as_ref()
            .filter(|_| !error)
            .map(|es| es.iter().map(|e| (e.path.clone(), e.entry_type)).collect()),
        error: reference.error.as_ref().map(|e| ErrorExpect {
            code: e.code,
            message_contains: needles.to_vec(),
        }),
        // What a write left is read from the disk, not from the answer
        // (`fuzz::probe`).
        writes: Vec::new(),
        mentions: None,
        excludes: None,
    }
}

/// LS-3, GLOB-3: the files and entries reached through a name beginning
/// with `.` below the listed directory (below the nearest root, for
/// `all-workspaces`) that `actual` left out are not expected of it. A file
/// given as the path itself (LS-4, GLOB-4) is always expected: the caller
/// named it. What `actual` did report stays expected, so a skipped name
/// may be absent but never wrong, and every other difference still shows.
pub fn allow_hidden(expected: &mut Expected, actual: &ToolResult, roots: &[String]) {
    let base = match expected.kind {
        Some(Kind::Directory) => expected.path.clone().map(|p| vec![p]),
        Some(Kind::AllWorkspaces) => Some(roots.to_vec()),
        _ => None,
    };
    let Some(bases) = base else { return };
    let hidden = |path: &str| {
        let nearest = bases
            .iter()
            .filter_map(|b| path.strip_prefix(b.as_str())?.strip_prefix('/'))
            .min_by_key(|rest| rest.len());
        nearest.is_some_and(|rest| rest.split('/').any(|name| name.starts_with('.')))
    };
    if let (Some(want), Some(got)) = (expected.files.as_mut(), actual.files.as_ref()) {
        want.retain(|f| !hidden(f) || got.contains(f));
    }
    if let (Some(want), Some(got)) = (expected.entries.as_mut(), actual.entries.as_ref()) {
        want.retain(|(p, _)| !hidden(p) || got.iter().any(|e| &e.path == p));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::judge::judge;
    use toolpath_suite::protocol::{Entry, EntryType};

    fn vars() -> Placeholders {
        Placeholders::new("/t", "/t/ws", &[("ws".into(), "/t/ws".into())])
    }

    #[test]
    fn needles_that_move_with_the_run_are_not_required() {
        let ws = ("ws".to_owned(), "/dev/shm/run-1/ws".to_owned());
        let vars = Placeholders::new("/dev/shm/run-1", "/dev/shm/run-1/ws", &[ws]);
        let needles = [
            "/dev/shm/run-1/ws/a".to_owned(),
            "/dev/shm/a".to_owned(),
            "/a".to_owned(),
            "/".to_owned(),
        ];
        let collapsed: Vec<String> = portable_needles(&needles, &vars)
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        assert_eq!(
            collapsed,
            ["{ws}/a", "/a", "/"],
            "a sibling of {{tmp}} is dropped, paths from `/` are kept"
        );
    }

    #[test]
    fn messages_must_keep_what_the_spec_requires() {
        let reference = ToolResult::error(
            ErrorCode::OutsideWorkspace,
            "/t/out/x is outside the workspace (/t/ws, /t/other)",
        );
        let roots = ["/t/ws".to_owned(), "/t/other".to_owned()];
        let needles = required_in_message(&reference, Some("/t/out/x"), &roots);
        assert_eq!(needles, ["/t/other", "/t/out/x", "/t/ws"]);
        let invalid = ToolResult::error(ErrorCode::InvalidParams, "/t/ws/x: bad");
        assert!(required_in_message(&invalid, Some("/t/ws/x"), &roots).is_empty());
    }

    fn listing(paths: &[&str]) -> ToolResult {
        ToolResult {
            outcome: Some(Outcome::Ok),
            kind: Some(Kind::Directory),
            path: Some("/t/ws".into()),
            entries: Some(
                paths
                    .iter()
                    .map(|p| Entry {
                        path: (*p).into(),
                        entry_type: EntryType::File,
                    })
                    .collect(),
            ),
            // OUT-7: a listing's text names its entries.
            model_text: Some(format!("/t/ws\n{}", paths.join("\n"))),
            ..ToolResult::default()
        }
    }

    fn judged(reference: &ToolResult, actual: &ToolResult) -> Vec<String> {
        let expect = expect_of(reference, &[], false);
        let root = std::path::Path::new("/nonexistent-toolpath-test");
        let fixture = toolpath_suite::case::Fixture::default();
        let tool = toolpath_suite::protocol::Tool::Ls;
        let mut expected = Expected::derive(&expect, &fixture, tool, None, &vars(), root);
        allow_hidden(&mut expected, actual, &["/t/ws".into()]);
        let verdict = judge(&expected, actual, &[], &vars());
        verdict
            .mismatches
            .iter()
            .map(|m| m.field.to_string())
            .collect()
    }

    /// LS-3: a dot name may be left out, never added, renamed or retyped;
    /// every other name is still required.
    #[test]
    fn dot_names_may_be_left_out_and_nothing_else() {
        let reference = listing(&["/t/ws/.env", "/t/ws/a", "/t/ws/..foo"]);
        assert!(judged(&reference, &listing(&["/t/ws/a"])).is_empty());
        assert!(judged(&reference, &reference).is_empty());
        assert_eq!(judged(&reference, &listing(&["/t/ws/.env"])), ["entries"]);
        let extra = listing(&["/t/ws/a", "/t/ws/.git"]);
        assert_eq!(judged(&reference, &extra), ["entries"]);
        let mut retyped = reference.clone();
        retyped.entries.as_mut().unwrap()[0].entry_type = EntryType::Directory;
        assert_eq!(judged(&reference, &retyped), ["entries"]);
        // A file named as the path is the caller's choice (LS-4).
        let mut file = listing(&["/t/ws/.env"]);
        file.kind = Some(Kind::File);
        file.path = Some("/t/ws/.env".into());
        file.model_text = file.path.clone();
        let mut none = file.clone();
        none.entries = Some(Vec::new());
        assert_eq!(judged(&file, &none), ["entries"]);
    }

    /// GLOB-3: a file below a directory whose name begins with `.` may be
    /// left out too; a `.` above the searched directory does not count.
    #[test]
    fn files_below_a_dot_directory_may_be_left_out() {
        let files = |fs: &[&str]| ToolResult {
            outcome: Some(Outcome::Ok),
            kind: Some(Kind::Directory),
            path: Some("/t/ws/.cfg".into()),
            files: Some(fs.iter().map(|f| (*f).to_owned()).collect()),
            model_text: Some("/t/ws/.cfg".into()),
            ..ToolResult::default()
        };
        let reference = files(&["/t/ws/.cfg/a", "/t/ws/.cfg/.d/b"]);
        let expect = expect_of(&reference, &[], false);
        let fixture = toolpath_suite::case::Fixture::default();
        let root = std::path::Path::new("/nonexistent-toolpath-test");
        let tool = toolpath_suite::protocol::Tool::Glob;
        let derive = || Expected::derive(&expect, &fixture, tool, None, &vars(), root);
        let verdict = |actual: &ToolResult| {
            let mut expected = derive();
            allow_hidden(&mut expected, actual, &["/t/ws".into()]);
            judge(&expected, actual, &[], &vars()).passed()
        };
        assert!(verdict(&files(&["/t/ws/.cfg/a"])));
        assert!(!verdict(&files(&["/t/ws/.cfg/.d/b"])));
    }
}
