//! The check of each result field once the outcome agrees, each against
//! the rule it enforces (GLOB-8, LS-5, FILE-5, OUT-2, SEARCH-2, ERR-4,
//! OUT-5, OUT-7 ...).

use std::collections::HashMap;

use super::checks::Checks;
use super::{MISSING, list, or_missing, quoted};
use crate::harness::expected::{Expected, ExpectedContent, ExpectedOutput, texts_by_line};
use crate::harness::path_fold::{base_name, folded};
use crate::report::{Check, OwnCheck};
use toolpath_suite::protocol::notes::BINARY;
use toolpath_suite::protocol::{EntryType, Field, Kind, ToolResult};

/// GLOB-8: `glob`'s files, a set compared sorted; a file reported twice
/// shows as a difference. When `files.path` is not observed (a glob that
/// names what it found relative to a directory it does not name), each is
/// compared by its base name, and `files.path` is reported unchecked.
pub(super) fn files(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    let by_name = expected.files.as_ref().is_some_and(|f| !f.is_empty())
        && !j.unobserved(Field::Files)
        && !j.observable(Field::FilesPath);
    let sorted = |files: &[String]| {
        let mut shown: Vec<String> = (files.iter())
            .map(|f| quoted(folded(f, !by_name)))
            .collect();
        shown.sort();
        list(shown)
    };
    j.equal(
        Field::Files,
        expected.files.as_deref().map(sorted),
        result.files.as_deref().map(sorted),
    );
}

/// LS-5, LS-6: `ls`'s entries, each `PATH TYPE`, a set compared sorted.
/// When `entries.path` is not observed (a listing names entries but not
/// the directory it listed), each is compared by base name and type, and
/// `entries.path` is reported unchecked.
pub(super) fn entries(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    let by_base_name = expected.entries.as_ref().is_some_and(|e| !e.is_empty())
        && !j.unobserved(Field::Entries)
        && !j.observable(Field::EntriesPath);
    // Each entry shown as `NAME TYPE`, NAME its base name or its path.
    let name: fn(&str) -> &str = match by_base_name {
        true => base_name,
        false => |path| path,
    };
    let shown = |entries: Vec<(&str, EntryType)>| {
        let mut shown: Vec<String> = entries
            .iter()
            .map(|(p, t)| quoted(&format!("{} {}", name(p), t.name())))
            .collect();
        shown.sort();
        list(shown)
    };
    j.equal(
        Field::Entries,
        expected
            .entries
            .as_ref()
            .map(|e| shown(e.iter().map(|(p, t)| (p.as_str(), *t)).collect())),
        result
            .entries
            .as_ref()
            .map(|e| shown(e.iter().map(|e| (e.path.as_str(), e.entry_type)).collect())),
    );
}

/// FILE-5: a read answers the file's text exactly, or for a binary file
/// no content at all.
pub(super) fn content(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    let Some(want) = &expected.content else {
        return;
    };
    const NONE: &str = "(none)";
    let want = match want {
        ExpectedContent::Text(text) => quoted(text),
        ExpectedContent::Binary => NONE.to_owned(),
    };
    let got = result
        .content
        .as_deref()
        .map_or_else(|| NONE.to_owned(), quoted);
    j.equal(Field::Content, Some(want), Some(got));
}

/// OUT-3: `notes`, a set compared sorted. SEARCH-8: a search of a
/// directory MAY say it skipped a binary file, so there the note is judged
/// only where the spec asks for it (a file target, or a case that names it).
pub(super) fn notes(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    let skipped_binary = |n: &&String| {
        n.as_str() == BINARY
            && matches!(expected.kind, Some(Kind::Directory | Kind::AllWorkspaces))
            && !expected
                .notes
                .as_ref()
                .is_some_and(|e| e.iter().any(|x| x == BINARY))
    };
    j.equal(
        Field::Notes,
        expected
            .notes
            .clone()
            .map(|n| list(n.iter().map(|s| quoted(s)).collect())),
        result.notes.as_ref().map(|n| {
            list(
                n.iter()
                    .filter(|n| !skipped_binary(n))
                    .map(|s| quoted(s))
                    .collect(),
            )
        }),
    );
}

/// `kind`, `path`, `parent`, `cwd`: RES-4, OUT-1, OUT-2.
pub(super) fn echoed_fields(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    let path = |p: Option<&String>| p.map(|p| quoted(p));
    j.equal(
        Field::Kind,
        expected.kind.map(|k| k.name().to_owned()),
        result.kind.map(|k| k.name().to_owned()),
    );
    j.equal(
        Field::Path,
        path(expected.path.as_ref()),
        path(result.path.as_ref()),
    );
    // RES-11: `parent` is optional. A result that does not carry it did not
    // show it, which is not observed (never passed), as if declared so; one
    // that carries it must have it right.
    if expected.parent.is_some() && result.parent.is_none() {
        j.verdict.unchecked.push(Field::Parent.name().to_owned());
    } else {
        j.equal(
            Field::Parent,
            path(expected.parent.as_ref()),
            path(result.parent.as_ref()),
        );
    }
    j.equal(
        Field::Cwd,
        path(expected.cwd.as_ref()),
        path(result.cwd.as_ref()),
    );
}

/// SHELL-6: the command's output shows where it ran: `pwd` names the
/// directory, `ls` lists what is in it.
pub(super) fn output(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    let Some(want) = &expected.output else { return };
    if !j.observable(Field::Output) {
        return;
    }
    let printed = result
        .output
        .as_deref()
        .map(|o| o.strip_suffix('\n').unwrap_or(o));
    match want {
        ExpectedOutput::Directory(any) => {
            let agrees = printed.is_some_and(|p| any.iter().any(|a| a == p));
            let want = format!("pwd printed {}", quoted(&any[0]));
            let got = printed.map_or_else(
                || MISSING.to_owned(),
                |p| format!("pwd printed {}", quoted(p)),
            );
            j.check(Field::Output, &want, &got, agrees);
        }
        ExpectedOutput::Listing(names) => {
            // A set: `ls` sorts by the locale, which an adapter may not set.
            let mut lines: Vec<&str> = printed
                .map(|p| p.split('\n').filter(|l| !l.is_empty()).collect())
                .unwrap_or_default();
            lines.sort_unstable();
            let agrees =
                printed.is_some() && lines == names.iter().map(String::as_str).collect::<Vec<_>>();
            let show = |names: &[&str]| format!("ls printed {}", quoted(&names.join(" ")));
            let wanted: Vec<&str> = names.iter().map(String::as_str).collect();
            let got = match printed {
                None => MISSING.to_owned(),
                Some(_) => show(&lines),
            };
            j.check(Field::Output, &show(&wanted), &got, agrees);
        }
    }
}

/// SEARCH-10: which lines matched, and what each line says. When
/// `matches.path` is not observed (a tool that names matched files but
/// not where they are), each match is compared by its file's base name
/// and line, and `matches.path` is reported unchecked.
pub(super) fn matches(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    let Some(want) = &expected.matches else {
        return;
    };
    let at = |path: &str, line: u64| quoted(&format!("{path}:{line}"));
    // An empty list names no path: nothing goes unchecked.
    let whole_paths =
        want.is_empty() || j.unobserved(Field::Matches) || j.observable(Field::MatchesPath);
    if j.observable(Field::Matches) {
        let mut expected_at: Vec<_> = want
            .iter()
            .map(|m| (folded(&m.path, whole_paths), m.line))
            .collect();
        let mut actual_at: Vec<_> = result
            .matches
            .iter()
            .flatten()
            .map(|m| (folded(&m.path, whole_paths), m.line))
            .collect();
        expected_at.sort();
        actual_at.sort();
        let agrees = result.matches.is_some() && expected_at == actual_at;
        let show = |items: &[(&str, u64)]| list(items.iter().map(|(p, l)| at(p, *l)).collect());
        let actual = result.matches.as_ref().map(|_| show(&actual_at));
        j.check(
            Field::Matches,
            &show(&expected_at),
            &or_missing(actual),
            agrees,
        );
    }
    let texts = texts_by_line(want);
    if texts.is_empty() || !j.observable(Field::MatchesText) {
        return;
    }
    // Each answered line by where it is, the first of a repeated one, as a
    // scan would find it: one lookup per expected line, where a scan per
    // line made a 5,001-match answer quadratic.
    let mut answered_at = HashMap::new();
    for m in result.matches.iter().flatten() {
        answered_at
            .entry((folded(&m.path, whole_paths), m.line))
            .or_insert(m);
    }
    for ((path, line), text) in texts {
        let Some(answered) = answered_at.get(&(folded(path, whole_paths), line)) else {
            continue; // a missing line is the `matches` check's to report
        };
        let field = Field::MatchesText;
        j.check_as(
            Check::Item(field, at(&j.vars.collapse(path), line)),
            field.rule(),
            &quoted(text),
            &quoted(&answered.text),
            answered.text == text,
        );
    }
}

/// ERR-1 (the code) and ERR-3 (what the message names).
pub(super) fn error(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    let Some(want) = &expected.error else { return };
    let got = result.error.as_ref();
    if j.observable(Field::ErrorCode) {
        // The code is judged alone; the rule that gave it is only shown.
        let agrees = got.is_some_and(|e| e.code == want.code);
        let shown = got.map(|e| match &e.rule {
            Some(rule) => format!("{} (rule: {rule})", e.code.name()),
            None => e.code.name().to_owned(),
        });
        j.check(
            Field::ErrorCode,
            want.code.name(),
            &or_missing(shown),
            agrees,
        );
    }
    if want.message_contains.is_empty() || !j.observable(Field::ErrorMessage) {
        return;
    }
    let message = got.map(|e| e.message.as_str()).unwrap_or_default();
    for needle in &want.message_contains {
        contains(j, Field::ErrorMessage, needle, message, &quoted(message));
    }
}

/// OUT-5: the text the model is shown names the resolved path; OUT-7:
/// an `ls` text names every entry the answer gives.
pub(super) fn model_text(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    if !j.observable(Field::ModelText) {
        return;
    }
    entries_named(j, expected, result);
    if expected.model_text_contains.is_empty() {
        return;
    }
    let Some(text) = result.model_text.as_deref() else {
        let field = Field::ModelText;
        j.check_as(
            Check::Contains(field),
            field.rule(),
            &quoted(&expected.model_text_contains[0]),
            MISSING,
            false,
        );
        return;
    };
    // The shell's text is judged without one copy of the command's output: a
    // text that only carries what `pwd` printed names the directory
    // whatever the tool calls it, so OUT-5 could not fail there.
    let without_output;
    let text = match (&expected.cwd, result.output.as_deref()) {
        (Some(_), Some(out)) if !out.trim_end_matches('\n').is_empty() => {
            without_output = text.replacen(out.trim_end_matches('\n'), "", 1);
            without_output.as_str()
        }
        _ => text,
    };
    // Only the first line is shown: the rest lists matches in whatever
    // order the tool walked, which would make reports differ run to run.
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let shown = match rest.lines().count() {
        0 => quoted(first),
        n => format!("{} (+{n} more lines)", quoted(first)),
    };
    for needle in &expected.model_text_contains {
        contains(j, Field::ModelText, needle, text, &shown);
    }
}

/// OUT-7: a listing's text names each entry the answer gives (its name,
/// the last segment of its path), so "Listed X (3 entries)" does not pass:
/// the model reads the text, not the structured entries. One check for the
/// whole list, naming the first entries missing.
pub(super) fn entries_named(j: &mut Checks, expected: &Expected, result: &ToolResult) {
    let (Some(_), Some(entries)) = (&expected.entries, &result.entries) else {
        return;
    };
    let text = result.model_text.as_deref().unwrap_or_default();
    let names: Vec<&str> = entries.iter().map(|e| base_name(&e.path)).collect();
    let missing = not_in(text, &names);
    let actual = match missing.as_slice() {
        [] => "every entry's name".to_owned(),
        [first, ..] if missing.len() > 3 => {
            format!(
                "{} and {} more are missing",
                quoted(first),
                missing.len() - 1
            )
        }
        names => format!(
            "{} missing",
            names
                .iter()
                .map(|n| quoted(n))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    j.check_as(
        OwnCheck::EntriesNamed.into(),
        Some("OUT-7"),
        "every entry's name",
        &actual,
        missing.is_empty(),
    );
}

/// The `names` that do not occur in `text`, in order: every occurrence of
/// every name found in one pass over the text (overlapping, so `a` is
/// found inside `ab`), not a search of the text per name, which a listing
/// of 5,001 entries made quadratic.
pub(super) fn not_in<'a>(text: &str, names: &[&'a str]) -> Vec<&'a str> {
    let searched: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
    let mut found = vec![false; searched.len()];
    let automaton = aho_corasick::AhoCorasick::new(&searched).expect("names fit an automaton");
    for hit in automaton.find_overlapping_iter(text) {
        found[hit.pattern().as_usize()] = true;
    }
    let found: std::collections::HashSet<&str> = searched
        .iter()
        .zip(found)
        .filter_map(|(name, seen)| seen.then_some(*name))
        .collect();
    names
        .iter()
        .copied()
        .filter(|n| !n.is_empty() && !found.contains(n))
        .collect()
}

pub(super) fn contains(j: &mut Checks, field: Field, needle: &str, haystack: &str, shown: &str) {
    let agrees = haystack.contains(needle);
    let actual = if agrees {
        quoted(needle)
    } else {
        format!("{shown} does not contain it")
    };
    j.check_as(
        Check::Contains(field),
        field.rule(),
        &quoted(needle),
        &actual,
        agrees,
    );
}
