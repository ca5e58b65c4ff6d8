//! Where two complete results differ: the one place fuzzing compares the
//! reference's answer with the adapter's.
//!
//! This is not the harness's judgement of a result against a case
//! (`harness::judge`, which checks only what a case expects): here both
//! sides are whole answers to the same call, so every field is compared:
//! outcome, kind, path, parent, cwd, output, matches with their text, notes,
//! the error code, and what the spec requires of the error message and of
//! the model-facing text (that it names the resolved path, OUT-5).

use toolpath_suite::protocol::{ErrorCode, Match, Outcome, ToolResult};

/// A field of a result, as named in findings and their deduplication key.
pub type Field = &'static str;

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

fn sorted(matches: &Option<Vec<Match>>) -> Option<Vec<Match>> {
    matches.clone().map(|mut m| {
        m.sort();
        m.dedup();
        m
    })
}

fn notes(result: &ToolResult) -> Vec<String> {
    let mut n = result.notes.clone().unwrap_or_default();
    n.sort();
    n.dedup();
    n
}

/// The fields in which `actual` differs from `reference`, in a fixed
/// order; empty when they agree. Fields the adapter declared
/// `unobservable` are not compared; `parent` and `output` are compared
/// only when the adapter gives them (RES-11: optional to expose).
pub fn differing_fields(
    reference: &ToolResult,
    actual: &ToolResult,
    message_needles: &[String],
    unobservable: &[String],
) -> Vec<Field> {
    let observable = |f: &str| !unobservable.iter().any(|u| u == f);
    if reference.outcome != actual.outcome {
        return vec!["outcome"];
    }
    let mut fields = Vec::new();
    if reference.outcome == Some(Outcome::Error) {
        let code = |r: &ToolResult| r.error.as_ref().map(|e| e.code);
        if code(reference) != code(actual) && observable("error.code") {
            fields.push("error.code");
        } else if observable("error.message") {
            let message = actual.error.as_ref().map_or("", |e| e.message.as_str());
            if message_needles
                .iter()
                .any(|n| !message.contains(n.as_str()))
            {
                fields.push("error.message");
            }
        }
        return fields;
    }
    let checks: [(Field, bool); 5] = [
        ("kind", reference.kind != actual.kind),
        ("path", reference.path != actual.path),
        (
            "parent",
            actual.parent.is_some() && reference.parent != actual.parent,
        ),
        ("cwd", reference.cwd != actual.cwd),
        (
            "output",
            actual.output.is_some() && reference.output != actual.output,
        ),
    ];
    for (field, differs) in checks {
        if differs && observable(field) {
            fields.push(field);
        }
    }
    let matches = |r: &ToolResult| sorted(&named_matches(r, observable("matches.path")));
    if observable("matches") && matches(reference) != matches(actual) {
        fields.push("matches");
    }
    if observable("notes") && notes(reference) != notes(actual) {
        fields.push("notes");
    }
    if observable("model_text") && hides_the_resolved_path(reference, actual) {
        fields.push("model_text");
    }
    if observable("files") && files(reference) != files(actual) {
        fields.push("files");
    }
    let whole = observable("entries.path");
    if observable("entries") && entries(reference, whole) != entries(actual, whole) {
        fields.push("entries");
    }
    fields
}

/// OUT-5: where the reference shows the model a text, the adapter's must
/// name the resolved path too. The texts themselves are free to differ.
fn hides_the_resolved_path(reference: &ToolResult, actual: &ToolResult) -> bool {
    let Some(used) = reference.path.as_ref().or(reference.cwd.as_ref()) else {
        return false;
    };
    reference.model_text.is_some()
        && !actual
            .model_text
            .as_deref()
            .is_some_and(|text| text.contains(used.as_str()))
}

/// `glob`'s files as a sorted list, duplicates kept (GLOB-8: once each).
fn files(result: &ToolResult) -> Option<Vec<String>> {
    result.files.clone().map(|mut f| {
        f.sort();
        f
    })
}

/// `ls`'s entries as a sorted list (LS-6); by base name when the adapter
/// does not observe `entries.path` (`whole` false), as the judge compares
/// them.
fn entries(result: &ToolResult, whole: bool) -> Option<Vec<toolpath_suite::protocol::Entry>> {
    result.entries.clone().map(|mut e| {
        if !whole {
            e.iter_mut()
                .for_each(|e| e.path = base_name(&e.path).to_owned());
        }
        e.sort();
        e
    })
}

/// The matches, each path cut to its base name when `whole` is false
/// (`matches.path` not observed), as the judge compares them.
fn named_matches(result: &ToolResult, whole: bool) -> Option<Vec<Match>> {
    result.matches.clone().map(|mut m| {
        if !whole {
            m.iter_mut()
                .for_each(|m| m.path = base_name(&m.path).to_owned());
        }
        m
    })
}

fn base_name(path: &str) -> &str {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolpath_suite::protocol::Kind;

    fn ok(path: &str) -> ToolResult {
        ToolResult {
            outcome: Some(Outcome::Ok),
            kind: Some(Kind::File),
            path: Some(path.into()),
            matches: Some(vec![Match {
                path: path.into(),
                line: 1,
                text: "hello".into(),
            }]),
            notes: Some(vec![]),
            ..ToolResult::default()
        }
    }

    #[test]
    fn equal_results_do_not_differ_and_every_field_can() {
        let r = ok("/w/a");
        assert!(differing_fields(&r, &r.clone(), &[], &[]).is_empty());
        let mut a = r.clone();
        a.path = Some("/w/b".into());
        a.matches.as_mut().unwrap()[0].text = "hello\r".into();
        a.notes = Some(vec!["include_ignored".into()]);
        a.parent = Some("/w".into());
        assert_eq!(
            differing_fields(&r, &a, &[], &[]),
            ["path", "parent", "matches", "notes"]
        );
        assert_eq!(
            differing_fields(&r, &a, &[], &["matches".into(), "path".into()]),
            ["parent", "notes"]
        );
        let e = ToolResult::error(ErrorCode::NotFound, "x");
        assert_eq!(differing_fields(&r, &e, &[], &[]), ["outcome"]);
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
        let vague = ToolResult::error(ErrorCode::OutsideWorkspace, "not valid");
        assert_eq!(
            differing_fields(&reference, &vague, &needles, &[]),
            ["error.message"]
        );
        let code = ToolResult::error(ErrorCode::NotFound, "/t/out/x");
        assert_eq!(
            differing_fields(&reference, &code, &needles, &[]),
            ["error.code"]
        );
        let invalid = ToolResult::error(ErrorCode::InvalidParams, "/t/ws/x: bad");
        assert!(required_in_message(&invalid, Some("/t/ws/x"), &roots).is_empty());
    }
}
