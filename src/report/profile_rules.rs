//! How often each rule of an MCP profile read something over a run, and
//! the rules that never did.
//!
//! A profile reads a server's text with its own rules: a code rule that
//! never matches leaves every refusal it was written for to `default`
//! (a code that is no observation, so the case is *not observable*), a
//! result rule that never matches leaves its field missing. Either way
//! nothing fails loudly: 111 correct refusals of one server became "not
//! observed" that way (issue 34). So a run counts, per rule, the answers
//! it applied to and those it matched, and warns on a rule that applied
//! to some and matched none.
//!
//! Counts are sums, so they are the same however the run was split
//! between workers (`--jobs`); rules keep the profile's order.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One rule of the profile, over the whole run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RuleUse {
    /// Where the rule stands in the profile, as an error's `rule` names it
    /// (`errors.codes[2]`, `tools.grep.result.matches.line`).
    pub rule: String,
    /// What it matches (`errno ENOENT`, `message /^Access denied/`,
    /// `line /^\[(?P<type>FILE|DIR)\] (?P<name>.*)$/`).
    pub what: String,
    /// The answers it applied to: every error answer of the tools it
    /// covers for an error rule, every successful answer of its tool for
    /// a result rule.
    pub applied: usize,
    /// The answers it matched (for a code rule: the answers whose code it
    /// gave, so a rule every answer meets an earlier one for matches none).
    pub matched: usize,
    /// A fallback (`errors.default`): what it gave is no observation, and
    /// giving nothing is what it should do, so it is never warned about.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fallback: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl RuleUse {
    /// A rule not yet applied to anything.
    pub fn new(rule: String, what: String, fallback: bool) -> RuleUse {
        RuleUse {
            rule,
            what,
            applied: 0,
            matched: 0,
            fallback,
        }
    }

    /// Whether the run says something about this rule a reader should
    /// see: it applied to answers and matched none of them.
    pub fn never_matched(&self) -> bool {
        !self.fallback && self.applied > 0 && self.matched == 0
    }
}

/// Rule uses being counted, in the profile's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleUses(Vec<RuleUse>);

impl RuleUses {
    /// Every rule of a profile, none applied yet.
    pub fn of(rules: Vec<RuleUse>) -> RuleUses {
        RuleUses(rules)
    }

    /// Counts one answer `rule` applied to, and whether it matched. A rule
    /// not listed is added at the end (listing comes from the same
    /// profile, so this happens only for a rule the listing missed).
    pub fn applied(&mut self, rule: &str, what: impl FnOnce() -> String, matched: bool) {
        let at = match self.0.iter().position(|r| r.rule == rule) {
            Some(at) => at,
            None => {
                self.0.push(RuleUse::new(rule.to_owned(), what(), false));
                self.0.len() - 1
            }
        };
        let counted = &mut self.0[at];
        counted.applied += 1;
        counted.matched += usize::from(matched);
    }

    /// Adds another collection's counts (another worker's) to these.
    pub fn merge(&mut self, other: Vec<RuleUse>) {
        for theirs in other {
            match self.0.iter_mut().find(|r| r.rule == theirs.rule) {
                Some(ours) => {
                    ours.applied += theirs.applied;
                    ours.matched += theirs.matched;
                }
                None => self.0.push(theirs),
            }
        }
    }

    pub fn into_vec(self) -> Vec<RuleUse> {
        self.0
    }
}

/// The warning a reader sees for a rule that never matched, or `None`.
pub fn warning(rule: &RuleUse) -> Option<String> {
    rule.never_matched().then(|| {
        format!(
            "profile rule `{}` ({}) matched none of the {} answer{} it applied to",
            rule.rule,
            rule.what,
            rule.applied,
            if rule.applied == 1 { "" } else { "s" }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed() -> RuleUses {
        RuleUses::of(vec![
            RuleUse::new("errors.codes[0]".into(), "errno ENOENT".into(), false),
            RuleUse::new("errors.codes[1]".into(), "errno EACCES".into(), false),
            RuleUse::new("errors.default".into(), "invalid_params".into(), true),
            RuleUse::new("tools.ls.result.entries".into(), "line /x/".into(), false),
        ])
    }

    /// Counts add up per rule in the profile's order, split between
    /// workers or not, and only a rule that applied and never matched is
    /// warned about (never the fallback, never one that applied to nothing).
    #[test]
    fn counts_merge_across_workers_and_only_a_rule_that_never_matched_warns() {
        let answers = [
            ("errors.codes[0]", true),
            ("errors.codes[1]", false),
            ("errors.default", false),
            ("errors.codes[0]", false),
            ("errors.codes[1]", false),
            ("errors.default", true),
        ];
        let mut one = listed();
        for (rule, matched) in answers {
            one.applied(rule, String::new, matched);
        }
        let mut parts = [listed(), listed()];
        for (i, (rule, matched)) in answers.into_iter().enumerate() {
            parts[i % 2].applied(rule, String::new, matched);
        }
        let [mut first, second] = parts;
        first.merge(second.into_vec());
        assert_eq!(first, one);
        let counted: Vec<(String, usize, usize)> = one
            .clone()
            .into_vec()
            .into_iter()
            .map(|r| (r.rule, r.applied, r.matched))
            .collect();
        assert_eq!(
            counted,
            [
                ("errors.codes[0]".to_owned(), 2, 1),
                ("errors.codes[1]".to_owned(), 2, 0),
                ("errors.default".to_owned(), 2, 1),
                ("tools.ls.result.entries".to_owned(), 0, 0),
            ]
        );
        let warned: Vec<String> = one.into_vec().iter().filter_map(warning).collect();
        assert_eq!(
            warned,
            [
                "profile rule `errors.codes[1]` (errno EACCES) matched none of the 2 answers it applied to"
            ]
        );
        let unused_default = RuleUse {
            applied: 5,
            ..RuleUse::new("errors.default".into(), "invalid_params".into(), true)
        };
        assert_eq!(warning(&unused_default), None, "a default unused is good");
    }

    /// The fallback flag is written only when set.
    #[test]
    fn only_a_fallback_says_so_in_json() {
        let rule = RuleUse::new("errors.codes[0]".into(), "errno ENOENT".into(), false);
        let json = serde_json::to_value(&rule).unwrap();
        assert!(json.get("fallback").is_none(), "{json}");
        let fallback = RuleUse::new("errors.default".into(), "invalid_params".into(), true);
        assert_eq!(serde_json::to_value(&fallback).unwrap()["fallback"], true);
    }
}
