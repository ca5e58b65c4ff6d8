//! Judges what an implementation answered against what the instance expects.
//!
//! Judging is on values, never on rendered text: the expectation is in
//! machine paths (placeholders expanded, [`Expected`]) and each field of the
//! typed [`ToolResult`] is compared with it exactly. Codes and enums are
//! compared, never free text; `message_contains` and the model-facing text
//! are substring containment; `matches` and `notes` are compared as sorted
//! lists (so a line reported twice is wrong); a field the case leaves out is
//! not looked at; a field the adapter declared unobservable is reported as
//! *not checked*, never as passed.
//!
//! Each check yields a [`Mismatch`] when it disagrees; the unified diff that
//! reports show is rendered from the same checks, with machine paths shown
//! as placeholders. Where that display would hide a difference (an answer
//! that is literally `{ws}/a.ts`), both sides are shown as they are.

use std::collections::HashMap;

use crate::harness::caps::{MAX_DIFF_BYTES, MAX_VALUE_BYTES, cap};
use crate::harness::expected::{Expected, ExpectedContent, ExpectedOutput, texts_by_line};
use crate::harness::path_fold::{base_name, folded};
use crate::harness::truncation::{self, Cut, FLOOR, READ_FLOOR};
use crate::report::{Check, Mismatch, OwnCheck};
use toolpath_suite::case::Expect;
use toolpath_suite::case::raw::ExpectedOutcome;
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::notes::BINARY;
use toolpath_suite::protocol::{EntryType, Field, Kind, Outcome, ToolResult};

/// The result of judging one answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verdict {
    /// Every checked field as `name: value`, expected side.
    expected_lines: Vec<String>,
    /// The same fields, actual side.
    actual_lines: Vec<String>,
    /// The checks that disagreed.
    pub mismatches: Vec<Mismatch>,
    /// Fields the case expects but the adapter cannot observe.
    pub unchecked: Vec<String>,
    /// How many fields were checked (the outcome included).
    pub checked: usize,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.mismatches.is_empty()
    }

    /// A unified diff of expected against actual; empty when they agree.
    pub fn diff(&self) -> String {
        if self.passed() {
            return String::new();
        }
        let expected = self.expected_lines.join("\n") + "\n";
        let actual = self.actual_lines.join("\n") + "\n";
        let diff = similar::TextDiff::from_lines(&expected, &actual)
            .unified_diff()
            .context_radius(3)
            .header("expected", "actual")
            .to_string();
        cap(diff, MAX_DIFF_BYTES)
    }

    /// SEC-11, FILE-11: the call changed the fixture exactly as expected.
    /// `field` is [`OwnCheck::Fixture`] for changes inside the roots and
    /// [`OwnCheck::Escape`] for
    /// changes outside every root (an escape is reported apart, whatever
    /// the tool answered); `expected` says what should have happened,
    /// `rule` is the one broken. `changes` describes the changes worth
    /// listing (at most a few are shown); `total` counts every change.
    pub fn check_changes(
        &mut self,
        (field, rule): (OwnCheck, &str),
        expected: &str,
        changes: &[String],
        total: usize,
    ) {
        self.checked += 1;
        if total == 0 {
            return;
        }
        const SHOWN: usize = 5;
        let mut actual = format!(
            "{total} change{}: {}",
            if total == 1 { "" } else { "s" },
            changes
                .iter()
                .take(SHOWN)
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join("; ")
        );
        let listed = changes.len().min(SHOWN);
        if total > listed {
            actual.push_str(&format!("; … {} more", total - listed));
        }
        let actual = cap(actual, MAX_VALUE_BYTES);
        let field = Check::Own(field);
        self.expected_lines.push(format!("{field}: {expected}"));
        self.actual_lines.push(format!("{field}: {actual}"));
        self.mismatches.push(Mismatch {
            field,
            expected: expected.to_owned(),
            actual,
            rule: Some(rule.to_owned()),
        });
    }
}

impl Verdict {
    /// SEC-12: nothing from outside every root reached the answer and no
    /// command ran outside. `seen` says, per channel, what showed
    /// otherwise (read, list or exec; a write is [`Self::check_changes`]'s).
    pub fn check_outside(&mut self, seen: &[String]) {
        self.checked += 1;
        if seen.is_empty() {
            return;
        }
        let expected = "nothing from outside every root";
        let actual = cap(seen.join("; "), MAX_VALUE_BYTES);
        let field = Check::Own(OwnCheck::Outside);
        self.expected_lines.push(format!("{field}: {expected}"));
        self.actual_lines.push(format!("{field}: {actual}"));
        self.mismatches.push(Mismatch {
            field,
            expected: expected.to_owned(),
            actual,
            rule: Some("SEC-12".to_owned()),
        });
    }
}

/// Builds a [`Verdict`] one field at a time.
struct Judging<'a> {
    verdict: Verdict,
    vars: &'a Placeholders,
    unobservable: &'a [Field],
    /// Every check and context line, raw, in order: rendered into the
    /// diff's lines (placeholders collapsed) only if the verdict fails.
    /// Collapsing every value of every passing instance was a fifth of a
    /// run's own work, for a diff no report shows.
    entries: Vec<Entry>,
}

/// One step of judging, kept until it is known whether a diff is needed.
enum Entry {
    Check {
        field: Check,
        expected: String,
        actual: String,
        agrees: bool,
    },
    /// Context lines for the diff only (no check): what the other side said.
    Context {
        expected: Vec<String>,
        actual: Vec<String>,
    },
}

impl<'a> Judging<'a> {
    fn new(vars: &'a Placeholders, unobservable: &'a [Field]) -> Self {
        Judging {
            verdict: Verdict::default(),
            vars,
            unobservable,
            entries: Vec::new(),
        }
    }

    /// Whether `field` is declared unobservable (or derived) for this answer.
    fn unobserved(&self, field: Field) -> bool {
        self.unobservable.contains(&field)
    }

    /// Whether `field` can be checked; records it as unchecked if not.
    fn observable(&mut self, field: Field) -> bool {
        let observable = !self.unobserved(field);
        if !observable {
            self.verdict.unchecked.push(field.name().to_owned());
        }
        observable
    }

    /// The values of a check as displayed: with placeholders, unless that
    /// would make a difference invisible.
    fn shown(&self, expected: &str, actual: &str, agrees: bool) -> (String, String) {
        let shown = (self.vars.collapse(expected), self.vars.collapse(actual));
        if !agrees && shown.0 == shown.1 {
            (expected.to_owned(), actual.to_owned())
        } else {
            shown
        }
    }

    /// Records one check of `field`, attributed to the rule it enforces on
    /// every case ([`Field::rule`]). `expected` and `actual` are raw values.
    fn check(&mut self, field: Field, expected: &str, actual: &str, agrees: bool) {
        self.check_as(field.into(), field.rule(), expected, actual, agrees);
    }

    /// Records one check (a field's, a containment, an item of a field,
    /// one of the judge's own), and the rule it enforces on every case, if
    /// any.
    fn check_as(
        &mut self,
        field: Check,
        rule: Option<&'static str>,
        expected: &str,
        actual: &str,
        agrees: bool,
    ) {
        self.verdict.checked += 1;
        // Judged on the full values (`agrees`); only what is kept is capped.
        let keep = |text: &str| cap(text.to_owned(), MAX_VALUE_BYTES);
        let (expected, actual) = (&keep(expected), &keep(actual));
        if !agrees {
            let (expected, actual) = self.shown(expected, actual, agrees);
            self.verdict.mismatches.push(Mismatch {
                field: field.clone(),
                expected,
                actual,
                rule: rule.map(str::to_owned),
            });
        }
        self.entries.push(Entry::Check {
            field,
            expected: expected.to_owned(),
            actual: actual.to_owned(),
            agrees,
        });
    }

    /// An exactly equal value, when the case expects one.
    fn equal(&mut self, field: Field, expected: Option<String>, actual: Option<String>) {
        let Some(expected) = expected else { return };
        if self.observable(field) {
            let agrees = actual.as_ref() == Some(&expected);
            self.check(field, &expected, &or_missing(actual), agrees);
        }
    }

    /// Context lines for the diff only (no check): what the other side said.
    fn context(&mut self, expected: Vec<String>, actual: Vec<String>) {
        let keep = |lines: Vec<String>| -> Vec<String> {
            lines.into_iter().map(|l| cap(l, MAX_VALUE_BYTES)).collect()
        };
        let (expected, actual) = (keep(expected), keep(actual));
        self.entries.push(Entry::Context { expected, actual });
    }

    /// The verdict, with the diff's lines rendered if it failed.
    fn finish(mut self) -> Verdict {
        if self.verdict.passed() {
            return self.verdict;
        }
        for entry in std::mem::take(&mut self.entries) {
            match entry {
                Entry::Check {
                    field,
                    expected,
                    actual,
                    agrees,
                } => {
                    let (expected, actual) = self.shown(&expected, &actual, agrees);
                    let actual = if agrees { &expected } else { &actual };
                    let lines = &mut self.verdict;
                    lines.actual_lines.push(format!("{field}: {actual}"));
                    lines.expected_lines.push(format!("{field}: {expected}"));
                }
                Entry::Context { expected, actual } => {
                    let vars = self.vars;
                    let shown = |lines: Vec<String>| lines.into_iter().map(|l| vars.collapse(&l));
                    self.verdict.expected_lines.extend(shown(expected));
                    self.verdict.actual_lines.extend(shown(actual));
                }
            }
        }
        self.verdict
    }
}

const MISSING: &str = "(missing)";

fn or_missing(value: Option<String>) -> String {
    value.unwrap_or_else(|| MISSING.to_owned())
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialise")
}

fn list(items: Vec<String>) -> String {
    crate::harness::caps::list(items)
}

fn outcome_name(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Ok) => "ok",
        Some(Outcome::Error) => "error",
        Some(Outcome::Unsupported) => "unsupported",
        None => MISSING,
    }
}

fn expected_outcome_name(outcome: ExpectedOutcome) -> &'static str {
    match outcome {
        ExpectedOutcome::Ok => "ok",
        ExpectedOutcome::Error => "error",
    }
}

/// Judges `result` against `expected`. `vars` only turns machine paths back
/// into placeholders for display.
pub fn judge(
    expected: &Expected,
    result: &ToolResult,
    unobservable: &[Field],
    vars: &Placeholders,
) -> Verdict {
    let mut j = Judging::new(vars, unobservable);
    let want = expected_outcome_name(expected.outcome);
    let got = outcome_name(result.outcome);
    // An outcome the adapter cannot observe (or derived) is not compared;
    // every other field still is, as sent, so an answer that is wrong
    // where it can be seen still fails.
    if j.observable(Field::Outcome) {
        j.check(Field::Outcome, want, got, want == got);
        if want != got {
            // Nothing else can agree; show what was expected and what came.
            j.context(expected_fields(expected), actual_fields(result));
            return j.finish();
        }
    }
    // OUT-6: an answer that declares a cut is judged on what it gave.
    let cut = truncation::judge(expected, result, &|field| !j.unobserved(field));
    let expected: &Expected = match &cut {
        Cut::Judge(cut) => cut,
        Cut::Refused(why) if expected.content.is_some() => {
            // FILE-13: a read cut short of its floor.
            j.check_as(
                OwnCheck::TruncatedRead.into(),
                Some("FILE-13"),
                &format!("the whole file, or at least its first {READ_FLOOR} bytes"),
                why,
                false,
            );
            expected
        }
        Cut::Refused(why) => {
            // OUT-6: a search, glob or listing cut short of its floor.
            j.check_as(
                OwnCheck::Truncated.into(),
                Some("OUT-6"),
                &format!("nothing left out, or at least {FLOOR} results"),
                why,
                false,
            );
            expected
        }
    };
    echoed_fields(&mut j, expected, result);
    output(&mut j, expected, result);
    matches(&mut j, expected, result);
    // SEARCH-8: a search of a directory MAY say it skipped a binary file;
    // the note is judged only where the spec asks for it (a file target).
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
    files(&mut j, expected, result);
    entries(&mut j, expected, result);
    content(&mut j, expected, result);
    error(&mut j, expected, result);
    model_text(&mut j, expected, result);
    j.finish()
}

/// GLOB-8: `glob`'s files, a set compared sorted; a file reported twice
/// shows as a difference. When `files.path` is not observed (a glob that
/// names what it found relative to a directory it does not name), each is
/// compared by its base name, and `files.path` is reported unchecked.
fn files(j: &mut Judging, expected: &Expected, result: &ToolResult) {
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
fn entries(j: &mut Judging, expected: &Expected, result: &ToolResult) {
    if expected.entries.as_ref().is_some_and(|e| !e.is_empty())
        && !j.unobserved(Field::Entries)
        && !j.observable(Field::EntriesPath)
    {
        let by_name = |entries: Vec<(&str, EntryType)>| {
            let mut shown: Vec<String> = entries
                .iter()
                .map(|(p, t)| quoted(&format!("{} {}", base_name(p), t.name())))
                .collect();
            shown.sort();
            list(shown)
        };
        j.equal(
            Field::Entries,
            expected
                .entries
                .as_ref()
                .map(|e| by_name(e.iter().map(|(p, t)| (p.as_str(), *t)).collect())),
            result
                .entries
                .as_ref()
                .map(|e| by_name(e.iter().map(|e| (e.path.as_str(), e.entry_type)).collect())),
        );
        return;
    }
    let sorted = |entries: Vec<(&str, EntryType)>| {
        let mut shown: Vec<String> = entries
            .iter()
            .map(|(p, t)| quoted(&format!("{p} {}", t.name())))
            .collect();
        shown.sort();
        list(shown)
    };
    j.equal(
        Field::Entries,
        expected
            .entries
            .as_ref()
            .map(|e| sorted(e.iter().map(|(p, t)| (p.as_str(), *t)).collect())),
        result
            .entries
            .as_ref()
            .map(|e| sorted(e.iter().map(|e| (e.path.as_str(), e.entry_type)).collect())),
    );
}

/// FILE-5: a read answers the file's text exactly, or for a binary file
/// no content at all.
fn content(j: &mut Judging, expected: &Expected, result: &ToolResult) {
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

/// `kind`, `path`, `parent`, `cwd`: RES-4, OUT-1, OUT-2.
fn echoed_fields(j: &mut Judging, expected: &Expected, result: &ToolResult) {
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
fn output(j: &mut Judging, expected: &Expected, result: &ToolResult) {
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
fn matches(j: &mut Judging, expected: &Expected, result: &ToolResult) {
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
fn error(j: &mut Judging, expected: &Expected, result: &ToolResult) {
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
fn model_text(j: &mut Judging, expected: &Expected, result: &ToolResult) {
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
fn entries_named(j: &mut Judging, expected: &Expected, result: &ToolResult) {
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
fn not_in<'a>(text: &str, names: &[&'a str]) -> Vec<&'a str> {
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

fn contains(j: &mut Judging, field: Field, needle: &str, haystack: &str, shown: &str) {
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

/// Diff lines `name: value`, for the fields that have a value.
#[derive(Default)]
struct Lines(Vec<String>);

impl Lines {
    fn push(&mut self, name: impl std::fmt::Display, value: Option<String>) {
        if let Some(value) = value {
            self.0.push(format!("{name}: {value}"));
        }
    }

    /// `kind`, `path`, `cwd` and the `PATH:LINE` list, as both sides show them.
    fn common<'m>(
        &mut self,
        kind: Option<toolpath_suite::protocol::Kind>,
        path: Option<&str>,
        cwd: Option<&str>,
        matches: Option<impl Iterator<Item = (&'m str, u64)>>,
    ) {
        self.push(Field::Kind, kind.map(|k| k.name().to_owned()));
        self.push(Field::Path, path.map(quoted));
        self.push(Field::Cwd, cwd.map(quoted));
        let at = |(path, line): (&str, u64)| quoted(&format!("{path}:{line}"));
        self.push(Field::Matches, matches.map(|ms| list(ms.map(at).collect())));
    }
}

/// What the case expected, as diff lines, when the outcome already differs.
fn expected_fields(e: &Expected) -> Vec<String> {
    let mut lines = Lines::default();
    let matches = e
        .matches
        .as_ref()
        .map(|ms| ms.iter().map(|m| (m.path.as_str(), m.line)));
    lines.common(e.kind, e.path.as_deref(), e.cwd.as_deref(), matches);
    lines.push(Field::Parent, e.parent.as_deref().map(quoted));
    let notes = e.notes.as_ref();
    lines.push(
        Field::Notes,
        notes.map(|n| list(n.iter().map(|s| quoted(s)).collect())),
    );
    if let Some(error) = &e.error {
        lines.push(Field::ErrorCode, Some(error.code.name().to_owned()));
        for needle in &error.message_contains {
            lines.push(Check::Contains(Field::ErrorMessage), Some(quoted(needle)));
        }
    }
    lines.0
}

/// What came instead, as diff lines, when the outcome differs.
fn actual_fields(r: &ToolResult) -> Vec<String> {
    let mut lines = Lines::default();
    let matches = r
        .matches
        .as_ref()
        .map(|ms| ms.iter().map(|m| (m.path.as_str(), m.line)));
    lines.common(r.kind, r.path.as_deref(), r.cwd.as_deref(), matches);
    if let Some(error) = &r.error {
        lines.push(Field::ErrorCode, Some(error.code.name().to_owned()));
        lines.push(Field::ErrorMessage, Some(quoted(&error.message)));
    }
    lines.push("reason", r.reason.as_deref().map(quoted));
    lines.0
}

/// Judges a parameter description against the words a DESC case requires.
pub fn judge_description(expect: &Expect, description: Option<&str>) -> Verdict {
    let vars = Placeholders::default();
    let mut j = Judging::new(&vars, &[]);
    let lower = description.map(str::to_lowercase);
    let shown = || description.map_or_else(|| "(no description)".to_owned(), quoted);
    for word in expect.mentions.iter().flatten() {
        let agrees = lower
            .as_ref()
            .is_some_and(|d| d.contains(&word.to_lowercase()));
        let actual = if agrees {
            quoted(word)
        } else {
            format!("absent from {}", shown())
        };
        j.check_as(
            OwnCheck::Mentions.into(),
            None,
            &quoted(word),
            &actual,
            agrees,
        );
    }
    for phrase in expect.excludes.iter().flatten() {
        let agrees = !lower
            .as_ref()
            .is_some_and(|d| d.contains(&phrase.to_lowercase()));
        let actual = if agrees {
            quoted(phrase)
        } else {
            format!("present in {}", shown())
        };
        j.check_as(
            OwnCheck::Excludes.into(),
            None,
            &quoted(phrase),
            &actual,
            agrees,
        );
    }
    j.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::expected::ExpectedLine;
    use toolpath_suite::case::ErrorExpect;
    use toolpath_suite::protocol::{ErrorCode, Kind, Match};

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
        assert!(
            judge_description(&expect, Some("A File or directory, Relative or absolute")).passed()
        );
        let v = judge_description(&expect, Some("The absolute path to the directory"));
        assert_eq!(fields(&v), ["mentions", "mentions", "excludes"]);
        assert!(!judge_description(&expect, None).passed());
    }
}
