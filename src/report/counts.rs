//! What a run's instances add up to, besides their statuses: the
//! containment verdict (did anything get out of the workspace?) and the
//! counts per rule.
//!
//! A status answers "did the answer match the case?". Two answers that
//! both fail can be very different news: a tool that let `../../etc`
//! through and one that refused it with a message lacking the root's name.
//! The [`Containment`] class of an instance tells them apart, on its own
//! axis:
//!
//! - an instance whose case expects `outside_workspace` is **refused**
//!   (error `outside_workspace`), **refused with another code** (any other
//!   error) or an **escape** (answered `ok`); whether the refusal's message
//!   names what ERR-4 asks is a separate *wording* flag, never an escape;
//! - an instance of a SEC case (one citing any `SEC-*`) that expects `ok` is
//!   **accepted** (`ok`) or a **false refusal** (an error); so is any other
//!   instance expecting `ok` that was refused as `outside_workspace` (the
//!   tool claimed an inside path is outside), which otherwise has no class;
//! - any instance after whose call the fixture changed outside every root,
//!   or whose answer carried something from outside or ran a command there
//!   (SEC-12), is an escape, whatever it answered; an escape names its
//!   [`Channel`]s (read, list, resolve, exec, write), counted per channel;
//! - an instance of either kind that was not judged (unsupported, skipped,
//!   not run, an adapter error) or whose outcome the adapter could not
//!   observe is **not observed**.
//!
//! The class is decided by the harness, which alone sees the case, the
//! answer and the fixture (`harness::containment`); here it is only
//! stored and counted.
//!
//! Per rule, an instance counts for every rule it cites, and for every rule
//! a check derived for all cases of its tool (OUT-5, SHELL-6, SEARCH-10,
//! SEC-11, SEC-12) failed on: a tool whose every listing fails OUT-5 shows as OUT-5
//! failing, while the rules its cases cite count what their own checks
//! found ([`rule_statuses`]).
//!
//! Conformance per rule ([`crate::report::conformance`]) is counted here
//! too, as instances are recorded ([`Counts`]).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::report::conformance::{
    NOT_EXERCISED_REASONS, RuleCount, RuleCounts, Tally, not_exercised, rule_statuses,
};
use crate::report::{CaseReport, Status, Summary};
use toolpath_suite::protocol::Tool;

/// Where an instance stands on containment (see the module doc).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ContainmentClass {
    /// Something got out: a path the case expects refused as
    /// `outside_workspace` was answered `ok`, or the call changed the
    /// fixture outside every root.
    Escape,
    /// Expected `outside_workspace`, refused with it.
    Refused,
    /// Expected `outside_workspace`, refused with another code
    /// (`not_found`, `permission_denied`, ...): contained, but the model
    /// is told something else.
    RefusedOtherCode,
    /// A path the case expects `ok` (a link whose real path is inside, a
    /// name beginning with `..`, a root reached through a link) was refused
    /// as `outside_workspace`: the tool claims an inside path is outside.
    FalseRefusal,
    /// A SEC case expecting `ok` was answered with an error other than
    /// `outside_workspace` (`not_found`, `invalid_params`, ...): a failure
    /// of the case, but no claim about the workspace, so not a false
    /// refusal.
    OtherError,
    /// A SEC case expecting `ok` was answered `ok`.
    Accepted,
    /// The instance is one of the above kinds, but its answer was not
    /// observed: unsupported, skipped, not run, an adapter error, or an
    /// outcome (or, for a refusal, an error code) the adapter declared
    /// unobservable or derived.
    NotObserved,
}

impl ContainmentClass {
    pub fn name(self) -> &'static str {
        // The wire name, from the serde attribute's twin: one spelling, no list.
        self.into()
    }

    /// How reports say it, in words.
    pub fn label(self) -> &'static str {
        match self {
            ContainmentClass::Escape => "escape",
            ContainmentClass::Refused => "refused",
            ContainmentClass::RefusedOtherCode => "refused with another code",
            ContainmentClass::FalseRefusal => "false refusal",
            ContainmentClass::OtherError => "other error",
            ContainmentClass::Accepted => "accepted",
            ContainmentClass::NotObserved => "not observed",
        }
    }
}

/// The way something got out of the workspace (SEC-12): what an escape
/// carried or did. An escape has one or more; each is counted once per
/// instance.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Channel {
    /// Content from outside reached the answer: a file's text, a match
    /// line, the model text, a command's output.
    Read,
    /// An entry, file, match or path reported below a link to the
    /// outside, or outside every root: the outside's names got out.
    List,
    /// A path outside every root resolved and handed back as one to act
    /// on (the `resolve` tool's `ok`, its `path` or `parent`): nothing was
    /// listed, and the names are the caller's own, but the tool vouched
    /// for a place outside. Apart from *list*, so that a `resolve` that
    /// checks nothing does not read as a listing that leaks names.
    Resolve,
    /// A command ran in a directory whose real path is outside.
    Exec,
    /// Something outside was created, changed or removed.
    Write,
}

impl Channel {
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The channel of a path `tool` reports (or of what its answer says
    /// about one) when that path leads outside: for `resolve`, the path
    /// it resolved ([`Channel::Resolve`]); for every other tool, a name
    /// it found and listed ([`Channel::List`]).
    pub fn of_reported(tool: Tool) -> Channel {
        match tool {
            Tool::Resolve => Channel::Resolve,
            _ => Channel::List,
        }
    }

    /// `read, list`: channels as reports list them, in their order.
    pub fn list(channels: &[Channel]) -> String {
        let names: Vec<&str> = channels.iter().map(|c| c.name()).collect();
        names.join(", ")
    }
}

/// One instance's containment verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Containment {
    pub class: ContainmentClass,
    /// For an escape, every channel it took (SEC-12), sorted, each once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub channels: Vec<Channel>,
    /// A refusal whose message lacks what the case requires it to name
    /// (ERR-4: the resolved path and the roots): a wording failure, which
    /// says nothing about containment.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wording_failed: bool,
    /// For an escape, what showed it, per channel: `list: answered ok`,
    /// `write: changed outside every root: ...` (machine paths as
    /// placeholders), `; `-joined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
}

impl Containment {
    pub fn of(class: ContainmentClass) -> Containment {
        Containment {
            class,
            channels: Vec::new(),
            wording_failed: false,
            evidence: None,
        }
    }

    /// An escape through `channels`, shown by `evidence`.
    pub fn escape(mut channels: Vec<Channel>, evidence: String) -> Containment {
        channels.sort();
        channels.dedup();
        Containment {
            channels,
            evidence: Some(evidence),
            ..Containment::of(ContainmentClass::Escape)
        }
    }

    pub fn is_escape(&self) -> bool {
        self.class == ContainmentClass::Escape
    }

    /// What an instance's block says of it, when there is news: the class
    /// and its evidence, and a wording failure. `None` for an accepted or
    /// a correctly worded refusal, and for what was not observed.
    pub fn news(&self) -> Option<String> {
        let mut line = match self.class {
            ContainmentClass::Accepted | ContainmentClass::NotObserved => None,
            ContainmentClass::Refused if !self.wording_failed => None,
            other => Some(other.label().to_owned()),
        }?;
        if let Some(evidence) = &self.evidence {
            line.push_str(&format!(" ({evidence})"));
        }
        if self.wording_failed {
            line.push_str("; wording fails ERR-4");
        }
        Some(line)
    }
}

/// The containment verdicts of a run, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ContainmentCounts {
    /// Instances through which something got out.
    pub escapes: usize,
    /// Of `escapes`, how many the expectations file lists (xfail): counted
    /// and shown all the same, never hidden.
    pub escapes_expected: usize,
    /// Of `escapes`, how many took each channel (an escape through two
    /// channels counts in both). Absent from reports of suites before
    /// 0.3.0, which did not record channels: then every escape is
    /// `unrecorded` ([`crate::report::upgrade`]).
    #[serde(default)]
    pub escapes_by_channel: ChannelCounts,
    pub refused: usize,
    pub refused_other_code: usize,
    /// Refusals (of either kind) whose message fails ERR-4's needles.
    pub wording: usize,
    pub false_refusals: usize,
    /// SEC cases expecting `ok` answered with another error code (absent
    /// from reports written before it: then 0).
    #[serde(default)]
    pub other_errors: usize,
    pub accepted: usize,
    /// Instances of the kinds above whose answer was not observed.
    pub not_observed: usize,
}

impl ContainmentCounts {
    /// Counts the containment verdict of `case`, if it has one.
    pub fn add(&mut self, case: &CaseReport) {
        self.step(case, 1);
    }

    /// Uncounts `case`, whose report was replaced.
    pub fn remove(&mut self, case: &CaseReport) {
        self.step(case, -1);
    }

    fn step(&mut self, case: &CaseReport, by: isize) {
        let Some(c) = &case.containment else { return };
        let add = |n: &mut usize| *n = n.checked_add_signed(by).expect("counts never go below 0");
        match c.class {
            ContainmentClass::Escape => {
                add(&mut self.escapes);
                if case.status == Status::Xfail {
                    add(&mut self.escapes_expected);
                }
                for channel in &c.channels {
                    add(self.escapes_by_channel.of_mut(*channel));
                }
                if c.channels.is_empty() {
                    add(&mut self.escapes_by_channel.unrecorded);
                }
            }
            ContainmentClass::Refused => add(&mut self.refused),
            ContainmentClass::RefusedOtherCode => add(&mut self.refused_other_code),
            ContainmentClass::FalseRefusal => add(&mut self.false_refusals),
            ContainmentClass::OtherError => add(&mut self.other_errors),
            ContainmentClass::Accepted => add(&mut self.accepted),
            ContainmentClass::NotObserved => add(&mut self.not_observed),
        }
        if c.wording_failed {
            add(&mut self.wording);
        }
    }

    /// How many instances have a containment verdict (observed or not).
    pub fn total(&self) -> usize {
        self.escapes
            + self.refused
            + self.refused_other_code
            + self.false_refusals
            + self.other_errors
            + self.accepted
            + self.not_observed
    }

    /// The counts as one line: `3 escapes (1 expected), 40 refused, ...`,
    /// every count named even when 0, so two lines compare at a glance.
    pub fn line(&self) -> String {
        let mut notes = Vec::new();
        if self.escapes > 0 {
            notes.push(self.escapes_by_channel.line());
        }
        if self.escapes_expected > 0 {
            notes.push(format!("{} expected", self.escapes_expected));
        }
        let mut escapes = plural(self.escapes, "escape", "escapes");
        if !notes.is_empty() {
            escapes.push_str(&format!(" ({})", notes.join("; ")));
        }
        let rest = ContainmentColumn::ALL
            .into_iter()
            .filter(|c| {
                !matches!(
                    c,
                    ContainmentColumn::Escapes | ContainmentColumn::Channel(_)
                )
            })
            .map(|c| plural(c.count(self), c.one(), c.label()));
        std::iter::once(escapes)
            .chain(rest)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One column of the containment counts. Every format shows the same
/// columns in the same order ([`ContainmentColumn::ALL`]) under the same
/// words: the human line, Markdown, JUnit's properties, the certification
/// page and its HTML table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainmentColumn {
    Escapes,
    /// The escapes that took one channel (shown within the escapes).
    Channel(Channel),
    Refused,
    RefusedOtherCode,
    Wording,
    FalseRefusals,
    OtherErrors,
    Accepted,
    NotObserved,
}

impl ContainmentColumn {
    /// Every column, in the order every format shows them.
    pub const ALL: [ContainmentColumn; 13] = [
        ContainmentColumn::Escapes,
        ContainmentColumn::Channel(Channel::Read),
        ContainmentColumn::Channel(Channel::List),
        ContainmentColumn::Channel(Channel::Resolve),
        ContainmentColumn::Channel(Channel::Exec),
        ContainmentColumn::Channel(Channel::Write),
        ContainmentColumn::Refused,
        ContainmentColumn::RefusedOtherCode,
        ContainmentColumn::Wording,
        ContainmentColumn::FalseRefusals,
        ContainmentColumn::OtherErrors,
        ContainmentColumn::Accepted,
        ContainmentColumn::NotObserved,
    ];

    /// The heading, and the words after any count but 1 (`false refusals`).
    pub fn label(self) -> &'static str {
        match self {
            ContainmentColumn::Escapes => "escapes",
            ContainmentColumn::Channel(channel) => channel.name(),
            ContainmentColumn::Refused => "refused",
            ContainmentColumn::RefusedOtherCode => "refused with another code",
            ContainmentColumn::Wording => "wording failures",
            ContainmentColumn::FalseRefusals => "false refusals",
            ContainmentColumn::OtherErrors => "other errors",
            ContainmentColumn::Accepted => "accepted",
            ContainmentColumn::NotObserved => "not observed",
        }
    }

    /// The words after a count of 1 (`false refusal`).
    pub fn one(self) -> &'static str {
        match self {
            ContainmentColumn::Escapes => "escape",
            ContainmentColumn::Wording => "wording failure",
            ContainmentColumn::FalseRefusals => "false refusal",
            ContainmentColumn::OtherErrors => "other error",
            _ => self.label(),
        }
    }

    /// The name machine-read output gives it (JUnit's `containment.KEY`):
    /// the field of [`ContainmentCounts`], `escapes.CHANNEL` by channel.
    pub fn key(self) -> std::borrow::Cow<'static, str> {
        match self {
            ContainmentColumn::Escapes => "escapes".into(),
            ContainmentColumn::Channel(channel) => format!("escapes.{}", channel.name()).into(),
            ContainmentColumn::Refused => "refused".into(),
            ContainmentColumn::RefusedOtherCode => "refused_other_code".into(),
            ContainmentColumn::Wording => "wording".into(),
            ContainmentColumn::FalseRefusals => "false_refusals".into(),
            ContainmentColumn::OtherErrors => "other_errors".into(),
            ContainmentColumn::Accepted => "accepted".into(),
            ContainmentColumn::NotObserved => "not_observed".into(),
        }
    }

    /// Its count in `counts` as a table shows it: a channel's, in the
    /// counts of a report that did not record its escapes' channels
    /// (suite 0.2.x), is `?` (`N+?` beside recorded ones), never a 0 that
    /// would read as no escape through it.
    pub fn cell(self, counts: &ContainmentCounts) -> String {
        let n = self.count(counts);
        match self {
            ContainmentColumn::Channel(_) if counts.escapes_by_channel.unrecorded > 0 => match n {
                0 => "?".to_owned(),
                n => format!("{n}+?"),
            },
            _ => n.to_string(),
        }
    }

    /// Its count in `counts`.
    pub fn count(self, counts: &ContainmentCounts) -> usize {
        match self {
            ContainmentColumn::Escapes => counts.escapes,
            ContainmentColumn::Channel(channel) => counts.escapes_by_channel.of(channel),
            ContainmentColumn::Refused => counts.refused,
            ContainmentColumn::RefusedOtherCode => counts.refused_other_code,
            ContainmentColumn::Wording => counts.wording,
            ContainmentColumn::FalseRefusals => counts.false_refusals,
            ContainmentColumn::OtherErrors => counts.other_errors,
            ContainmentColumn::Accepted => counts.accepted,
            ContainmentColumn::NotObserved => counts.not_observed,
        }
    }
}

/// Escapes per channel (SEC-12).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChannelCounts {
    pub read: usize,
    pub list: usize,
    /// Absent from reports written before the channel existed, whose
    /// `resolve` escapes are under `list` ([`crate::report::upgrade`]
    /// moves them).
    #[serde(default)]
    pub resolve: usize,
    pub exec: usize,
    pub write: usize,
    /// Escapes whose channels the report does not say: those of a report
    /// of a suite before 0.3.0, written before escapes had channels (today
    /// every escape has at least one, and this is absent). Shown as such,
    /// never as escapes through no channel.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unrecorded: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl ChannelCounts {
    pub fn of(&self, channel: Channel) -> usize {
        match channel {
            Channel::Read => self.read,
            Channel::List => self.list,
            Channel::Resolve => self.resolve,
            Channel::Exec => self.exec,
            Channel::Write => self.write,
        }
    }

    fn of_mut(&mut self, channel: Channel) -> &mut usize {
        match channel {
            Channel::Read => &mut self.read,
            Channel::List => &mut self.list,
            Channel::Resolve => &mut self.resolve,
            Channel::Exec => &mut self.exec,
            Channel::Write => &mut self.write,
        }
    }

    /// `read 2, list 0, resolve 0, exec 0, write 1`: every channel named, in order;
    /// then `channel not recorded N` for escapes of a report that did not
    /// record them.
    pub fn line(&self) -> String {
        use strum::VariantArray;
        let counts: Vec<String> = Channel::VARIANTS
            .iter()
            .map(|c| format!("{} {}", c.name(), self.of(*c)))
            .collect();
        let mut line = counts.join(", ");
        if self.unrecorded > 0 {
            line.push_str(&format!(", channel not recorded {}", self.unrecorded));
        }
        line
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Everything a run's header counts, kept as instances are recorded (and
/// replaced), so that no renderer needs a pass over the cases to know them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    pub summary: Summary,
    pub containment: ContainmentCounts,
    pub rules: RuleCounts,
    /// Per rule, the distinct reasons its instances were not judged (the
    /// first [`NOT_EXERCISED_REASONS`]). Kept when such an instance's
    /// report is replaced: only a judged report replaces another, and a
    /// rule with a judged instance shows no reason.
    reasons: BTreeMap<String, std::collections::BTreeSet<String>>,
}

impl Counts {
    pub fn of<'a>(cases: impl IntoIterator<Item = &'a CaseReport>) -> Counts {
        let mut counts = Counts::default();
        for case in cases {
            counts.add(case);
        }
        counts
    }

    pub fn add(&mut self, case: &CaseReport) {
        self.summary.add(case.status);
        self.containment.add(case);
        let unjudged = matches!(
            case.status,
            Status::Unsupported | Status::Skip | Status::NotRun
        );
        for (rule, status) in rule_statuses(case) {
            if unjudged {
                let reason = case.reason.as_deref().unwrap_or(case.status.name());
                let reasons = match self.reasons.get_mut(rule) {
                    Some(reasons) => reasons,
                    None => self.reasons.entry(rule.to_owned()).or_default(),
                };
                if reasons.len() < NOT_EXERCISED_REASONS && !reasons.contains(reason) {
                    reasons.insert(reason.to_owned());
                }
            }
            // Looked up before inserting so a known ID costs no allocation.
            match self.rules.get_mut(rule) {
                Some(count) => count.tally.add(status),
                None => {
                    self.rules.insert(
                        rule.to_owned(),
                        RuleCount {
                            tally: Tally::of([status]),
                            not_exercised: None,
                        },
                    );
                }
            }
            self.explain(rule);
        }
    }

    /// Uncounts `case`, whose report was replaced by another.
    pub fn remove(&mut self, case: &CaseReport) {
        self.summary.remove(case.status);
        self.containment.remove(case);
        for (rule, status) in rule_statuses(case) {
            if let Some(count) = self.rules.get_mut(rule) {
                count.tally.remove(status);
                if count.tally.total() == 0 {
                    self.rules.remove(rule);
                } else {
                    self.explain(rule);
                }
            }
        }
    }

    /// Sets `rule`'s reason for not being exercised from its counts.
    fn explain(&mut self, rule: &str) {
        let Some(count) = self.rules.get_mut(rule) else {
            return;
        };
        count.not_exercised = not_exercised(&count.tally).then(|| {
            let reasons = self.reasons.get(rule).into_iter().flatten();
            reasons.cloned().collect::<Vec<_>>().join("; ")
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Mismatch;
    use crate::report::conformance::{Conformance, Standing};
    use crate::report::render::sample_reports::{case, failing};

    /// Every count of [`ContainmentCounts`] is one column, under its own
    /// field's name (by channel, `escapes.CHANNEL`), channels in their
    /// order, and each column reads its own count.
    #[test]
    fn the_columns_are_the_counts_fields() {
        use strum::VariantArray;
        let mut counts = ContainmentCounts::default();
        let json = serde_json::to_value(counts).unwrap();
        let mut fields: Vec<String> = json
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(name, value)| match value.as_object() {
                Some(by) => by.keys().map(|c| format!("escapes.{c}")).collect(),
                None => vec![name.clone()],
            })
            .filter(|name| name != "escapes_expected")
            .collect();
        fields.sort();
        let mut keys: Vec<String> = ContainmentColumn::ALL
            .iter()
            .map(|c| c.key().into_owned())
            .collect();
        keys.sort();
        assert_eq!(keys, fields);
        let channels: Vec<Channel> = ContainmentColumn::ALL
            .iter()
            .filter_map(|c| match c {
                ContainmentColumn::Channel(channel) => Some(*channel),
                _ => None,
            })
            .collect();
        assert_eq!(channels, Channel::VARIANTS);
        // Each column reads its own count: set one at a time through JSON.
        for (i, column) in ContainmentColumn::ALL.into_iter().enumerate() {
            let mut json = serde_json::to_value(ContainmentCounts::default()).unwrap();
            let key = column.key();
            match key.split_once('.') {
                Some((_, channel)) => json["escapes_by_channel"][channel] = (i + 1).into(),
                None => json[key.as_ref()] = (i + 1).into(),
            }
            counts = serde_json::from_value(json).unwrap();
            assert_eq!(column.count(&counts), i + 1, "{key}");
        }
    }

    fn mismatch(field: &str, rule: Option<&str>) -> Mismatch {
        Mismatch {
            field: field.parse().unwrap(),
            expected: "x".into(),
            actual: "y".into(),
            rule: rule.map(str::to_owned),
        }
    }

    #[test]
    fn expected_failures_do_not_conform() {
        assert_eq!(Conformance::of(Status::Xfail), Conformance::Fails);
    }

    #[test]
    fn tally_and_standing() {
        let t = Tally::of([
            Status::Pass,
            Status::Xfail,
            Status::Skip,
            Status::Unsupported,
            Status::NotRun,
        ]);
        assert_eq!(
            t,
            Tally {
                passed: 1,
                failed: 1,
                xfail: 1,
                unobserved: 0,
                unsupported: 1,
                skipped: 2
            }
        );
        assert_eq!(t.applicable(), 2);
        assert_eq!(t.total(), 5);
        assert_eq!(t.standing(), Standing::Fails);
        assert_eq!(
            Tally::of([Status::Pass, Status::Xpass]).standing(),
            Standing::Conforms
        );
        assert_eq!(
            Tally::of([Status::Skip]).standing(),
            Standing::NotApplicable
        );
        assert_eq!(
            Tally::of([Status::Unobserved, Status::Skip]).standing(),
            Standing::NotObservable,
            "a requirement nothing observed is never shown as passed"
        );
        assert_eq!(
            Tally::of([Status::Unobserved, Status::Pass]).standing(),
            Standing::Conforms
        );
        assert_eq!(Tally::default().standing(), Standing::NotApplicable);
        let mut t = Tally::of([Status::Xfail, Status::Pass]);
        t.remove(Status::Xfail);
        assert_eq!(t, Tally::of([Status::Pass]));
    }

    #[test]
    fn a_derived_rule_failing_does_not_fail_the_cited_ones() {
        let mut c = failing("ls.x@ls", &["LS-4", "RES-3"]);
        c.mismatches = vec![mismatch("model_text contains", Some("OUT-5"))];
        assert_eq!(
            rule_statuses(&c),
            [
                ("LS-4", Status::Pass),
                ("OUT-5", Status::Fail),
                ("RES-3", Status::Pass)
            ]
        );
        // With a field unchecked, the cited rules are not observable.
        c.unchecked = vec!["entries.path".into()];
        assert_eq!(rule_statuses(&c)[0], ("LS-4", Status::Unobserved));
        // A check of the case's own fails every rule it cites.
        c.mismatches.push(mismatch("path", None));
        c.status = Status::Xfail;
        assert_eq!(
            rule_statuses(&c),
            [
                ("LS-4", Status::Xfail),
                ("OUT-5", Status::Xfail),
                ("RES-3", Status::Xfail)
            ]
        );
        // A derived rule the case cites itself is the case's own.
        let mut c = failing("sec.x", &["SEC-11"]);
        c.mismatches = vec![mismatch("fixture", Some("SEC-11"))];
        assert_eq!(rule_statuses(&c), [("SEC-11", Status::Fail)]);
        // Other statuses count as they are, once per cited rule.
        let c = case("x", Status::Unsupported, &["SEC-1", "SEC-1", "RES-1"]);
        assert_eq!(
            rule_statuses(&c),
            [
                ("RES-1", Status::Unsupported),
                ("SEC-1", Status::Unsupported)
            ]
        );
    }

    #[test]
    fn a_rule_nothing_judged_says_why() {
        use crate::report::render::sample_reports::with_reason;
        let shell = "the adapter does not provide the `shell` tool";
        let cases = [
            with_reason(case("a", Status::Unsupported, &["SHELL-1"]), shell),
            with_reason(case("b", Status::Skip, &["SHELL-1", "RES-1"]), "needs root"),
            with_reason(case("c", Status::Unsupported, &["SHELL-1"]), shell),
            case("d", Status::NotRun, &["SHELL-2"]),
            case("e", Status::Pass, &["RES-1"]),
        ];
        let counts = Counts::of(&cases);
        assert_eq!(
            counts.rules["SHELL-1"].not_exercised.as_deref(),
            Some("needs root; the adapter does not provide the `shell` tool")
        );
        assert_eq!(
            counts.rules["SHELL-2"].not_exercised.as_deref(),
            Some("not_run"),
            "no reason given: the status says it"
        );
        assert_eq!(counts.rules["RES-1"].not_exercised, None, "one judged");
        // Replaced by a judged report, the rule is exercised after all.
        let mut counts = counts;
        let mut answered = cases[3].clone();
        answered.status = Status::AdapterError;
        counts.remove(&cases[3]);
        counts.add(&answered);
        assert_eq!(counts.rules["SHELL-2"].not_exercised, None);
        // In the JSON entry, beside the counts.
        let json = serde_json::to_value(&counts.rules["SHELL-1"]).unwrap();
        assert_eq!(json["unsupported"], 2);
        assert_eq!(
            json["not_exercised"],
            "needs root; the adapter does not provide the `shell` tool"
        );
        let back: RuleCount = serde_json::from_value(json).unwrap();
        assert_eq!(back, counts.rules["SHELL-1"]);
    }

    #[test]
    fn counts_add_and_remove_every_dimension() {
        let mut escape = failing("e", &["SEC-4"]);
        escape.containment = Some(Containment::escape(
            vec![Channel::Write, Channel::Read, Channel::Write],
            "seen".into(),
        ));
        let mut worded = failing("w", &["ERR-4"]);
        worded.containment = Some(Containment {
            wording_failed: true,
            ..Containment::of(ContainmentClass::Refused)
        });
        let mut counts = Counts::of([&escape, &worded]);
        assert_eq!(counts.containment.escapes, 1);
        assert_eq!(
            counts.containment.escapes_by_channel,
            ChannelCounts {
                read: 1,
                write: 1,
                ..ChannelCounts::default()
            },
            "each channel once per instance"
        );
        assert_eq!(counts.containment.refused, 1);
        assert_eq!(counts.containment.wording, 1);
        assert_eq!(counts.containment.total(), 2);
        assert_eq!(counts.rules["SEC-4"].tally.failed, 1);
        assert_eq!(counts.rules["SEC-4"].not_exercised, None);
        // A protocol violation found later replaces the report.
        let mut amended = escape.clone();
        amended.status = Status::Xfail;
        counts.remove(&escape);
        counts.add(&amended);
        assert_eq!(counts.containment.escapes_expected, 1);
        assert_eq!(counts, Counts::of([&amended, &worded]));
        counts.remove(&worded);
        assert!(!counts.rules.contains_key("ERR-4"), "emptied rules go");
        assert_eq!(
            counts.containment.line(),
            "1 escape (read 1, list 0, resolve 0, exec 0, write 1; 1 expected), 0 refused, \
             0 refused with another code, \
             0 wording failures, 0 false refusals, 0 other errors, 0 accepted, 0 not observed"
        );
    }
}
