//! The expectation: consistent with its outcome and with the call (an error
//! has no result fields, `files` belongs to `glob`), matches written
//! `PATH:LINE`, and no set with a repeat.

use serde_saphyr::{Location, Spanned};

use super::{Findings, spanned};
use crate::case::error::quote;
use crate::case::raw::{ExpectedOutcome, RawExpect};
use crate::case::{Action, ErrorExpect, Expect, ExpectedMatch};
use crate::protocol::Tool;

pub fn check(
    findings: &mut Findings,
    raw: Spanned<RawExpect>,
    action: &Action,
    tools: &[Tool],
) -> Expect {
    let at = raw.referenced;
    let raw = raw.value;
    let describing = matches!(action, Action::Describe(_));
    let has_result_fields = raw.kind.is_some()
        || raw.path.is_some()
        || raw.parent.is_some()
        || raw.cwd.is_some()
        || raw.matches.is_some()
        || raw.notes.is_some()
        || raw.files.is_some()
        || raw.entries.is_some();
    let has_describe_fields = raw.mentions.is_some() || raw.excludes.is_some();
    match raw.outcome {
        ExpectedOutcome::Ok if raw.error.is_some() => {
            findings.error(at, "expect: `error` goes with `outcome: error`");
        }
        ExpectedOutcome::Ok => {}
        ExpectedOutcome::Error => {
            if raw.error.is_none() {
                findings.error(at, "expect: `outcome: error` needs `error: {code: ...}`");
            }
            if has_result_fields {
                findings.error(
                    at,
                    "expect: an error result has no kind, path, parent, cwd, matches, notes, files or entries",
                );
            }
        }
    }
    if describing
        && (has_result_fields || !has_describe_fields || raw.outcome != ExpectedOutcome::Ok)
    {
        findings.error(
            at,
            "expect: a `describe` case expects `outcome: ok` with `mentions` or `excludes` only",
        );
    }
    if !describing && has_describe_fields {
        findings.error(
            at,
            "expect: `mentions` and `excludes` go with `call.describe`",
        );
    }
    tool_fields(findings, &raw, tools, at);
    for (field, list) in [
        ("expect.matches", &raw.matches),
        ("expect.notes", &raw.notes),
        ("expect.files", &raw.files),
        ("expect.mentions", &raw.mentions),
        ("expect.excludes", &raw.excludes),
    ] {
        if let Some(list) = list {
            findings.repeats(field, spanned(list), "; the list is a set");
        }
    }
    if let Some(error) = &raw.error {
        findings.repeats(
            "expect.error.message_contains",
            spanned(&error.message_contains),
            "; each needle should check something",
        );
    }
    let matches = raw.matches.map(|list| {
        list.iter()
            .filter_map(|m| {
                let parsed = parse_match(&m.value);
                if parsed.is_none() {
                    findings.error(
                        m.referenced,
                        format!("expect.matches: `{}` is not PATH:LINE", quote(&m.value)),
                    );
                }
                parsed
            })
            .collect()
    });
    let values = |list: Option<Vec<Spanned<String>>>| {
        list.map(|items| items.into_iter().map(|s| s.value).collect())
    };
    Expect {
        outcome: raw.outcome,
        kind: raw.kind,
        path: raw.path,
        parent: raw.parent,
        cwd: raw.cwd,
        matches,
        notes: values(raw.notes),
        files: values(raw.files),
        entries: raw
            .entries
            .map(|map| map.0.into_iter().map(|(k, t)| (k.value, t)).collect()),
        error: raw.error.map(|e| ErrorExpect {
            code: e.code,
            message_contains: e.message_contains.into_iter().map(|s| s.value).collect(),
        }),
        mentions: values(raw.mentions),
        excludes: values(raw.excludes),
    }
}

/// `files` belongs to `glob` and `entries` to `ls`: on any other tool the
/// expectation could never be met, so it is a mistake in the case.
fn tool_fields(findings: &mut Findings, raw: &RawExpect, tools: &[Tool], at: Location) {
    for (field, given, tool) in [
        ("files", raw.files.is_some(), Tool::Glob),
        ("entries", raw.entries.is_some(), Tool::Ls),
    ] {
        if given && tools != [tool] {
            findings.error(
                at,
                format!("expect.{field}: only a `{tool}` call has {field}"),
            );
        }
    }
}

/// `PATH:LINE`, split at the last colon so paths may contain colons.
fn parse_match(text: &str) -> Option<ExpectedMatch> {
    let (path, line) = text.rsplit_once(':')?;
    let line: u64 = line.parse().ok().filter(|&l| l > 0)?;
    (!path.is_empty()).then(|| ExpectedMatch {
        path: path.to_owned(),
        line,
    })
}
