//! [`Checks`]: a [`Verdict`] built one check at a time. Each check is
//! kept raw, and the diff's lines (placeholders collapsed) are rendered
//! only when the verdict fails: collapsing every value of every passing
//! instance was a fifth of a run's own work, for a diff no report shows.

use super::{Verdict, or_missing};
use crate::harness::caps::{MAX_VALUE_BYTES, cap};
use crate::report::{Check, Mismatch};
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::Field;

/// Builds a [`Verdict`] one field at a time.
pub(super) struct Checks<'a> {
    pub(super) verdict: Verdict,
    pub(super) vars: &'a Placeholders,
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

impl<'a> Checks<'a> {
    pub(super) fn new(vars: &'a Placeholders, unobservable: &'a [Field]) -> Self {
        Checks {
            verdict: Verdict::default(),
            vars,
            unobservable,
            entries: Vec::new(),
        }
    }

    /// Whether `field` is declared unobservable (or derived) for this answer.
    pub(super) fn unobserved(&self, field: Field) -> bool {
        self.unobservable.contains(&field)
    }

    /// Whether `field` can be checked; records it as unchecked if not.
    pub(super) fn observable(&mut self, field: Field) -> bool {
        let observable = !self.unobserved(field);
        if !observable {
            self.verdict.unchecked.push(field.name().to_owned());
        }
        observable
    }

    /// The values of a check as displayed: with placeholders, unless that
    /// would make a difference invisible.
    pub(super) fn shown(&self, expected: &str, actual: &str, agrees: bool) -> (String, String) {
        let shown = (self.vars.collapse(expected), self.vars.collapse(actual));
        if !agrees && shown.0 == shown.1 {
            (expected.to_owned(), actual.to_owned())
        } else {
            shown
        }
    }

    /// Records one check of `field`, attributed to the rule it enforces on
    /// every case ([`Field::rule`]). `expected` and `actual` are raw values.
    pub(super) fn check(&mut self, field: Field, expected: &str, actual: &str, agrees: bool) {
        self.check_as(field.into(), field.rule(), expected, actual, agrees);
    }

    /// Records one check (a field's, a containment, an item of a field,
    /// one of the judge's own), and the rule it enforces on every case, if
    /// any.
    pub(super) fn check_as(
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
    pub(super) fn equal(&mut self, field: Field, expected: Option<String>, actual: Option<String>) {
        let Some(expected) = expected else { return };
        if self.observable(field) {
            let agrees = actual.as_ref() == Some(&expected);
            self.check(field, &expected, &or_missing(actual), agrees);
        }
    }

    /// Context lines for the diff only (no check): what the other side said.
    pub(super) fn context(&mut self, expected: Vec<String>, actual: Vec<String>) {
        let keep = |lines: Vec<String>| -> Vec<String> {
            lines.into_iter().map(|l| cap(l, MAX_VALUE_BYTES)).collect()
        };
        let (expected, actual) = (keep(expected), keep(actual));
        self.entries.push(Entry::Context { expected, actual });
    }

    /// The verdict, with the diff's lines rendered if it failed.
    pub(super) fn finish(mut self) -> Verdict {
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
