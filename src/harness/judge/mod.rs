//! Judges what an implementation answered against what the instance expects.
//!
//! Checks is on values, never on rendered text: the expectation is in
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

//!
//! - here: [`Verdict`], [`judge`] (an answer against its expectation) and
//!   the diff lines shown when the outcome already differs;
//! - [`checks`]: [`checks::Checks`], which builds a verdict one check at a
//!   time and renders the diff only for a verdict that failed;
//! - [`fields`]: the check of each result field after the outcome;
//! - [`description`]: a parameter description against a DESC case's words.

mod checks;
mod description;
mod fields;

pub use description::judge_description;

use crate::harness::caps::{MAX_DIFF_BYTES, MAX_VALUE_BYTES, cap};
use crate::harness::expected::Expected;
use crate::harness::truncation::{self, Cut, FLOOR, READ_FLOOR};
use crate::report::{Check, Mismatch, OwnCheck};
use checks::Checks;
use toolpath_suite::case::raw::ExpectedOutcome;
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::{Field, Outcome, ToolResult};

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
    let mut j = Checks::new(vars, unobservable);
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
    let expected = judged_on(&mut j, expected, &cut);
    fields::echoed_fields(&mut j, expected, result);
    fields::output(&mut j, expected, result);
    fields::matches(&mut j, expected, result);
    fields::notes(&mut j, expected, result);
    fields::files(&mut j, expected, result);
    fields::entries(&mut j, expected, result);
    fields::content(&mut j, expected, result);
    fields::error(&mut j, expected, result);
    fields::model_text(&mut j, expected, result);
    j.finish()
}

/// What an answer is judged on once its cut is known (OUT-6): the
/// expectation cut where the answer says it stopped, or, for a cut short
/// of its floor, the whole expectation, with the cut itself failed
/// (FILE-13 for a read, OUT-6 for a search, glob or listing), so that the
/// fields it left out fail too rather than pass on a shorter list.
fn judged_on<'e>(j: &mut Checks, expected: &'e Expected, cut: &'e Cut<'e>) -> &'e Expected {
    match cut {
        Cut::Judge(cut) => cut,
        Cut::Refused(why) if expected.content.is_some() => {
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
            j.check_as(
                OwnCheck::Truncated.into(),
                Some("OUT-6"),
                &format!("nothing left out, or at least {FLOOR} results"),
                why,
                false,
            );
            expected
        }
    }
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

#[cfg(test)]
mod tests;
