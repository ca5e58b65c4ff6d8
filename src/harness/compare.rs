//! Compares what a case expects with what an implementation answered.
//!
//! Comparison is defined exactly, so every port counts the same way: codes
//! and enums are compared, never free text; `message_contains` is substring
//! containment; `matches` and `notes` are compared as sorted lists; a field
//! the case leaves out is not looked at; a field the adapter declared
//! unobservable is reported as *not checked*, never as passed.
//!
//! Both sides are rendered as the same `field: value` lines (machine paths
//! turned back into placeholders), so a failure reads as a unified diff.

use crate::case::fixture::Placeholders;
use crate::case::model::Expect;
use crate::case::raw::ExpectedOutcome;
use crate::protocol::{Outcome, ToolResult};

/// The result of one comparison.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Comparison {
    /// Expected lines, one per checked field.
    pub expected: Vec<String>,
    /// Actual lines in the same order.
    pub actual: Vec<String>,
    /// Fields the case checks but the adapter cannot observe.
    pub unchecked: Vec<String>,
}

impl Comparison {
    pub fn passed(&self) -> bool {
        self.expected == self.actual
    }

    /// A unified diff of expected against actual; empty when they agree.
    pub fn diff(&self) -> String {
        if self.passed() {
            return String::new();
        }
        let expected = self.expected.join("\n") + "\n";
        let actual = self.actual.join("\n") + "\n";
        similar::TextDiff::from_lines(&expected, &actual)
            .unified_diff()
            .context_radius(3)
            .header("expected", "actual")
            .to_string()
    }
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialise")
}

fn list(items: &[String]) -> String {
    format!(
        "[{}]",
        items
            .iter()
            .map(|s| quoted(s))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn outcome_name(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Ok) => "ok",
        Some(Outcome::Error) => "error",
        Some(Outcome::Unsupported) => "unsupported",
        None => "(missing)",
    }
}

/// Compares an expanded expectation (placeholders already replaced) with a
/// tool result. `vars` turns machine paths back into placeholders for display.
pub fn compare(
    expect: &Expect,
    result: &ToolResult,
    unobservable: &[String],
    vars: &Placeholders,
) -> Comparison {
    let mut c = Comparison::default();
    let show = |text: &str| vars.collapse(text);
    let expected_outcome = match expect.outcome {
        ExpectedOutcome::Ok => "ok",
        ExpectedOutcome::Error => "error",
    };
    c.expected.push(format!("outcome: {expected_outcome}"));
    c.actual
        .push(format!("outcome: {}", outcome_name(result.outcome)));
    if expected_outcome != outcome_name(result.outcome) {
        // Show what came instead, so the reader sees the error or the value.
        if let Some(error) = &result.error {
            c.actual.push(format!("error.code: {}", error.code.name()));
            c.actual
                .push(format!("error.message: {}", quoted(&show(&error.message))));
        }
        if let Some(path) = result.path.as_ref().or(result.cwd.as_ref()) {
            c.actual.push(format!("path: {}", quoted(&show(path))));
        }
        return c;
    }

    let mut field = |name: &str, expected: Option<String>, actual: Option<String>| {
        let Some(expected) = expected else { return };
        if unobservable.iter().any(|u| u == name) {
            c.unchecked.push(name.to_owned());
            return;
        }
        c.expected.push(format!("{name}: {expected}"));
        c.actual.push(format!(
            "{name}: {}",
            actual.unwrap_or_else(|| "(missing)".into())
        ));
    };

    let path = |p: Option<&str>| p.map(|p| quoted(&show(p)));
    // Matches and notes are sets: compared sorted, so order never matters.
    let sorted = |mut items: Vec<String>| {
        items.sort();
        list(&items)
    };
    let at = |path: &str, line: u64| format!("{}:{line}", show(path));
    field(
        "kind",
        expect.kind.map(|k| k.name().to_owned()),
        result.kind.map(|k| k.name().to_owned()),
    );
    field(
        "path",
        path(expect.path.as_deref()),
        path(result.path.as_deref()),
    );
    field(
        "parent",
        path(expect.parent.as_deref()),
        path(result.parent.as_deref()),
    );
    field(
        "cwd",
        path(expect.cwd.as_deref()),
        path(result.cwd.as_deref()),
    );
    field(
        "matches",
        expect
            .matches
            .as_ref()
            .map(|ms| sorted(ms.iter().map(|m| at(&m.path, m.line)).collect())),
        result
            .matches
            .as_ref()
            .map(|ms| sorted(ms.iter().map(|m| at(&m.path, m.line)).collect())),
    );
    field(
        "notes",
        expect.notes.clone().map(sorted),
        result.notes.clone().map(sorted),
    );
    if let Some(error) = &expect.error {
        let actual = result.error.as_ref();
        field(
            "error.code",
            Some(error.code.name().to_owned()),
            actual.map(|e| e.code.name().to_owned()),
        );
        for needle in &error.message_contains {
            let message = actual.map(|e| e.message.as_str()).unwrap_or_default();
            let verdict = if message.contains(needle.as_str()) {
                quoted(&show(needle))
            } else {
                format!("{} does not contain it", quoted(&show(message)))
            };
            field(
                "error.message contains",
                Some(quoted(&show(needle))),
                Some(verdict),
            );
        }
    }
    c
}

/// Compares a parameter description with the words a DESC case requires.
pub fn compare_description(expect: &Expect, description: Option<&str>) -> Comparison {
    let mut c = Comparison::default();
    let lower = description.map(str::to_lowercase);
    for word in expect.mentions.iter().flatten() {
        c.expected.push(format!("mentions: {}", quoted(word)));
        c.actual.push(match &lower {
            None => "mentions: (no description)".to_owned(),
            Some(d) if d.contains(&word.to_lowercase()) => format!("mentions: {}", quoted(word)),
            Some(_) => format!(
                "mentions: (absent from {})",
                quoted(description.unwrap_or_default())
            ),
        });
    }
    for phrase in expect.excludes.iter().flatten() {
        c.expected.push(format!("excludes: {}", quoted(phrase)));
        c.actual.push(match &lower {
            Some(d) if d.contains(&phrase.to_lowercase()) => {
                format!(
                    "excludes: (present in {})",
                    quoted(description.unwrap_or_default())
                )
            }
            _ => format!("excludes: {}", quoted(phrase)),
        });
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::model::{ErrorExpect, ExpectedMatch};
    use crate::protocol::{ErrorCode, Kind, Match};

    fn expect_ok() -> Expect {
        Expect {
            outcome: ExpectedOutcome::Ok,
            kind: Some(Kind::File),
            path: Some("/t/ws/a.ts".into()),
            parent: None,
            cwd: None,
            matches: Some(vec![ExpectedMatch {
                path: "/t/ws/a.ts".into(),
                line: 1,
            }]),
            notes: Some(vec![]),
            error: None,
            mentions: None,
            excludes: None,
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
            ..ToolResult::default()
        }
    }

    fn vars() -> Placeholders {
        Placeholders::new("/t", "/t/ws", &[("ws".into(), "/t/ws".into())])
    }

    #[test]
    fn equal_results_pass_with_no_diff() {
        let c = compare(&expect_ok(), &result_ok(), &[], &vars());
        assert!(c.passed());
        assert_eq!(c.diff(), "");
    }

    #[test]
    fn a_wrong_kind_fails_with_a_diff_in_placeholders() {
        let mut r = result_ok();
        r.kind = Some(Kind::Directory);
        r.path = Some("/t/ws".into());
        let c = compare(&expect_ok(), &r, &[], &vars());
        assert!(!c.passed());
        let diff = c.diff();
        assert!(
            diff.contains("-kind: file\n") && diff.contains("+kind: directory\n"),
            "{diff}"
        );
        assert!(diff.contains("+path: \"{ws}\""), "{diff}");
    }

    #[test]
    fn an_extra_match_or_note_fails() {
        let mut r = result_ok();
        r.matches.as_mut().unwrap().push(Match {
            path: "/t/ws/b.ts".into(),
            line: 2,
            text: "x".into(),
        });
        assert!(!compare(&expect_ok(), &r, &[], &vars()).passed());
        let mut r = result_ok();
        r.notes = Some(vec!["include_ignored".into()]);
        assert!(!compare(&expect_ok(), &r, &[], &vars()).passed());
        let mut r = result_ok();
        r.notes = None;
        assert!(
            !compare(&expect_ok(), &r, &[], &vars()).passed(),
            "missing notes are not an empty set"
        );
    }

    #[test]
    fn unobservable_fields_are_unchecked_not_passed() {
        let mut r = result_ok();
        r.kind = None;
        let c = compare(&expect_ok(), &r, &["kind".into()], &vars());
        assert!(c.passed());
        assert_eq!(c.unchecked, ["kind"]);
    }

    #[test]
    fn error_code_and_message_substrings_are_checked() {
        let expect = Expect {
            outcome: ExpectedOutcome::Error,
            error: Some(ErrorExpect {
                code: ErrorCode::NotFound,
                message_contains: vec!["/t/ws/x".into()],
            }),
            kind: None,
            path: None,
            parent: None,
            cwd: None,
            matches: None,
            notes: None,
            mentions: None,
            excludes: None,
        };
        let good = ToolResult::error(ErrorCode::NotFound, "no such path: /t/ws/x");
        assert!(compare(&expect, &good, &[], &vars()).passed());
        let wrong_code = ToolResult::error(ErrorCode::PermissionDenied, "denied: /t/ws/x");
        assert!(!compare(&expect, &wrong_code, &[], &vars()).passed());
        let vague = ToolResult::error(ErrorCode::NotFound, "no such path");
        let c = compare(&expect, &vague, &[], &vars());
        assert!(c.diff().contains("does not contain it"), "{}", c.diff());
        let ok_instead = result_ok();
        assert!(!compare(&expect, &ok_instead, &[], &vars()).passed());
    }

    #[test]
    fn descriptions_are_checked_case_insensitively() {
        let mut expect = expect_ok();
        expect.mentions = Some(vec!["file".into(), "relative".into()]);
        expect.excludes = Some(vec!["absolute path to the directory".into()]);
        assert!(
            compare_description(&expect, Some("A File or directory, Relative or absolute"))
                .passed()
        );
        assert!(!compare_description(&expect, Some("The absolute path to the directory")).passed());
        assert!(!compare_description(&expect, None).passed());
    }
}
