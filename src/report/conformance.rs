//! Conformance: what a status says about a requirement ([`Conformance`]),
//! a requirement's counts ([`Tally`], [`RuleCount`]) and the one mark a
//! report shows for it ([`Standing`]), and which rules an instance bears
//! on ([`rule_statuses`]). [`crate::report::counts::Counts`] counts them as
//! instances are recorded.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::report::{CaseReport, Status};

/// What a status says about conformance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conformance {
    /// The answer met the requirement (pass, xpass).
    Conforms,
    /// It did not, or could not be obtained: fail, xfail, and adapter and
    /// case errors, which a certification must not count as passed.
    Fails,
    /// Everything observable agreed, but some expected field could not be
    /// observed: the requirement is neither met nor failed as far as we know.
    NotObservable,
    /// The implementation does not offer what the case needs.
    Unsupported,
    /// Not judged on this machine or in this run (skip, not run).
    NotJudged,
}

impl Conformance {
    pub fn of(status: Status) -> Conformance {
        match status {
            Status::Pass | Status::Xpass => Conformance::Conforms,
            Status::Fail | Status::Xfail | Status::AdapterError | Status::CaseError => {
                Conformance::Fails
            }
            Status::Unobserved => Conformance::NotObservable,
            Status::Unsupported => Conformance::Unsupported,
            Status::Skip | Status::NotRun => Conformance::NotJudged,
        }
    }
}

/// Conformance counts over a set of instances.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    /// Of `failed`, how many the expectations file already lists.
    pub xfail: usize,
    /// Agreed on what could be seen; some expected field unobservable.
    pub unobserved: usize,
    pub unsupported: usize,
    /// Skipped or not run.
    pub skipped: usize,
}

impl Tally {
    pub fn of(statuses: impl IntoIterator<Item = Status>) -> Tally {
        let mut tally = Tally::default();
        for status in statuses {
            tally.add(status);
        }
        tally
    }

    pub fn add(&mut self, status: Status) {
        self.step(status, 1);
    }

    pub fn remove(&mut self, status: Status) {
        self.step(status, -1);
    }

    fn step(&mut self, status: Status, by: isize) {
        let add = |n: &mut usize| *n = n.checked_add_signed(by).expect("counts never go below 0");
        match Conformance::of(status) {
            Conformance::Conforms => add(&mut self.passed),
            Conformance::Fails => add(&mut self.failed),
            Conformance::NotObservable => add(&mut self.unobserved),
            Conformance::Unsupported => add(&mut self.unsupported),
            Conformance::NotJudged => add(&mut self.skipped),
        }
        if status == Status::Xfail {
            add(&mut self.xfail);
        }
    }

    /// Instances that say something about conformance; unsupported and
    /// unjudged ones do not, so they neither help nor hurt.
    pub fn applicable(&self) -> usize {
        self.passed + self.failed
    }

    /// Every instance counted.
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.unobserved + self.unsupported + self.skipped
    }

    pub fn standing(&self) -> Standing {
        if self.failed > 0 {
            Standing::Fails
        } else if self.passed > 0 {
            Standing::Conforms
        } else if self.unobserved > 0 {
            Standing::NotObservable
        } else {
            Standing::NotApplicable
        }
    }
}

/// Where a requirement stands over its instances: the one-glance answer
/// (a symbol in the Markdown table's last column). Not the judge's
/// `harness::judge::Verdict`, which is about one answer to one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Conforms,
    Fails,
    /// Every instance agreed only on what could be seen: not shown as passed.
    NotObservable,
    NotApplicable,
}

impl Standing {
    pub fn symbol(self) -> &'static str {
        match self {
            Standing::Conforms => "✅",
            Standing::Fails => "❌",
            Standing::NotObservable => "👁",
            Standing::NotApplicable => "➖",
        }
    }
}

/// The status `case` has for each rule it bears on: every rule it cites,
/// and every rule a derived check that failed is attributed to
/// ([`Mismatch::rule`](crate::report::Mismatch::rule)).
///
/// A failed (or expected-to-fail) instance fails a rule only when one of
/// the rule's own checks disagreed: a mismatch attributed to it, or one
/// attributed to no derived rule (which belongs to every rule the case
/// cites). A cited rule whose checks all agreed, while a derived rule's
/// did not, counts as passed (or not observable, if some field went
/// unchecked): one rule failing across a whole tool does not hide what the
/// rest of the tool's cases show. Every other status counts as it is for
/// every cited rule.
pub fn rule_statuses(case: &CaseReport) -> Vec<(&str, Status)> {
    let mut rules: Vec<&str> = case.spec.iter().map(String::as_str).collect();
    let judged_wrong =
        matches!(case.status, Status::Fail | Status::Xfail) && !case.mismatches.is_empty();
    if !judged_wrong {
        rules.sort_unstable();
        rules.dedup();
        return rules.into_iter().map(|r| (r, case.status)).collect();
    }
    rules.extend(case.mismatches.iter().filter_map(|m| m.rule.as_deref()));
    rules.sort_unstable();
    rules.dedup();
    let cited = |rule: &str| case.spec.iter().any(|s| s == rule);
    rules
        .into_iter()
        .map(|rule| {
            let own = case.mismatches.iter().any(|m| match m.rule.as_deref() {
                Some(derived) => derived == rule,
                None => cited(rule),
            });
            let status = if own {
                case.status
            } else if case.unchecked.is_empty() {
                Status::Pass
            } else {
                Status::Unobserved
            };
            (rule, status)
        })
        .collect()
}

/// One rule's conformance, and why nothing exercised it, if nothing did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RuleCount {
    #[serde(flatten)]
    pub tally: Tally,
    /// Present when no instance of the rule was judged (each unsupported,
    /// skipped or not run): the reasons they were not, at most
    /// [`NOT_EXERCISED_REASONS`] distinct ones, joined with `; ` (`the
    /// adapter does not provide the `shell` tool`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_exercised: Option<String>,
}

/// Conformance per rule ID, counted as [`rule_statuses`] attributes it.
pub type RuleCounts = BTreeMap<String, RuleCount>;

/// `rules` in the order reports list them: by area, then by number as a
/// number (`RES-2` before `RES-11`; [`toolpath_suite::spec::order_key`]).
/// The map itself stays keyed by text: a lookup by ID needs no order.
pub fn in_rule_order(rules: &RuleCounts) -> Vec<(&String, &RuleCount)> {
    let mut listed: Vec<_> = rules.iter().collect();
    listed.sort_by(|(a, _), (b, _)| {
        toolpath_suite::spec::order_key(a).cmp(&toolpath_suite::spec::order_key(b))
    });
    listed
}

/// Distinct reasons kept per rule for why it was not exercised: enough to
/// say why, few enough to read.
pub const NOT_EXERCISED_REASONS: usize = 3;

/// Whether `tally` counts no instance that was judged: every one
/// unsupported, skipped or not run.
pub fn not_exercised(tally: &Tally) -> bool {
    tally.applicable() == 0 && tally.unobserved == 0
}
