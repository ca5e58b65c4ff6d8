//! Two reports side by side: what a change to an implementation (or to the
//! suite) fixed and what it broke, for a pull request.
//!
//! Instances are matched by id, which is permanent by design, so a renamed
//! file or a reordered case does not read as a change. Every status is read
//! under the *new* report's `--strict` setting, so flipping the flag alone
//! does not show up as a regression.
//!
//! Containment is compared on its own axis, since a status can hide it: a
//! server that fixed its symlink escape but names the link's target in its
//! refusal fails before and after. Any instance that escapes now and did
//! not before (a new instance included) is a **security regression**,
//! listed first and making `toolpath compare` exit 1, whatever the
//! expectations file says; one that escaped and is now contained (refused
//! with whatever code or wording) is a **security fix**; any other change
//! of class is listed as a containment change. An escape's channels
//! (SEC-12) are part of its class: one that now escapes through a channel
//! it did not take before is a security regression too; one that lost a
//! channel but still escapes is a containment change. An escape of a
//! report written before channels were recorded (suite 0.2.x) took
//! channels unknown, not none: against an escape of today it is
//! unchanged. The containment counts of both reports, counted from their
//! cases, head the comparison.

use std::collections::BTreeMap;

use super::text;
use crate::report::conformance::Conformance;
use crate::report::{CaseReport, Channel, ContainmentClass, ContainmentCounts, Report, Status};
use toolpath_suite::sanitize::markdown;

/// One instance whose status differs between the reports (or that is in
/// only one of them).
#[derive(Debug, Clone, PartialEq)]
pub struct StatusChange {
    pub id: String,
    /// Where the case is, from the newer report when it has the instance.
    pub file: String,
    pub line: u64,
    pub old: Option<Status>,
    pub new: Option<Status>,
    /// Why the new status (or, for a removed instance, the old one).
    pub reason: Option<String>,
    /// The new diff, when the new status has one.
    pub diff: Option<String>,
}

/// One instance whose containment class differs between the reports.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassChange {
    pub id: String,
    pub file: String,
    pub line: u64,
    /// `None`: the instance is not in that report, or has no class there.
    pub old: Option<ContainmentClass>,
    pub new: Option<ContainmentClass>,
    /// The channels of an escape on each side (SEC-12), empty otherwise.
    pub old_channels: Vec<Channel>,
    pub new_channels: Vec<Channel>,
    /// What showed the escape, on the side that escapes.
    pub evidence: Option<String>,
    /// The new refusal fails its wording (ERR-4): still a fix.
    pub wording_failed: bool,
}

/// The differences between two reports, each list sorted by instance id.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Comparison {
    /// `name version (language)` of each side, for the heading.
    pub old_label: String,
    pub new_label: String,
    /// Each report's containment counts, counted from its cases.
    pub old_containment: ContainmentCounts,
    pub new_containment: ContainmentCounts,
    /// Escapes now, not before: always listed first, and a regression.
    pub security_regressions: Vec<ClassChange>,
    /// Escaped before, contained now (refused with any code or wording,
    /// or answered without touching anything outside).
    pub security_fixes: Vec<ClassChange>,
    /// Every other change of containment class (refused to refused with
    /// another code, a false refusal that went away, an escape no longer
    /// observed).
    pub containment_changed: Vec<ClassChange>,
    /// Was not a pass and now is; or an expected failure that now passes.
    pub fixed: Vec<StatusChange>,
    /// Was fine for the run (not unexpected) and now makes it unsuccessful:
    /// a pass that now fails, errors or crashes, and also a skipped or
    /// unsupported instance that now runs and fails.
    pub broke: Vec<StatusChange>,
    /// Only in the new report.
    pub added: Vec<StatusChange>,
    /// Only in the old report.
    pub removed: Vec<StatusChange>,
    /// Every other change of status (say, pass to skip, or fail to adapter
    /// error): worth a look, not a regression.
    pub changed: Vec<StatusChange>,
    /// Instances with the same status and containment class in both.
    pub unchanged: usize,
}

impl Comparison {
    /// Whether the new report regressed: the exit code of `toolpath compare`.
    /// New instances that fail do not count (the new report's own exit code
    /// covers them), unless they escape: every new escape is a regression.
    pub fn broke_anything(&self) -> bool {
        !self.broke.is_empty() || !self.security_regressions.is_empty()
    }
}

/// What showed `case` to be an escape, if it is one.
fn escape_evidence(case: Option<&CaseReport>) -> Option<String> {
    case.and_then(|c| c.containment.as_ref())
        .filter(|c| c.is_escape())
        .and_then(|c| c.evidence.clone())
}

/// The class of `case`, if any.
fn class(case: Option<&CaseReport>) -> Option<ContainmentClass> {
    case.and_then(|c| c.containment.as_ref()).map(|c| c.class)
}

/// The channels of `case`'s escape, if it is one.
fn channels(case: Option<&CaseReport>) -> Vec<Channel> {
    case.and_then(|c| c.containment.as_ref())
        .map(|c| c.channels.clone())
        .unwrap_or_default()
}

/// Files the containment change of an instance, if its class changed;
/// whether it did.
fn containment_change(
    c: &mut Comparison,
    before: Option<&CaseReport>,
    after: Option<&CaseReport>,
) -> bool {
    let (was, is) = (class(before), class(after));
    let (was_through, is_through) = (channels(before), channels(after));
    // An escape with no channels is one of a report written before they
    // were recorded (suite 0.2.x): its channels are unknown, not none.
    let unrecorded =
        |class, through: &[Channel]| class == Some(ContainmentClass::Escape) && through.is_empty();
    let channels_known = !unrecorded(was, &was_through) && !unrecorded(is, &is_through);
    if was == is && (was_through == is_through || !channels_known) {
        return false;
    }
    // An escape through a channel it did not take before is a new escape.
    let new_channel = channels_known && is_through.iter().any(|c| !was_through.contains(c));
    let shown = after
        .or(before)
        .expect("an instance is in at least one report");
    let change = ClassChange {
        id: shown.id.clone(),
        file: shown.file.clone(),
        line: shown.line,
        old: was,
        new: is,
        old_channels: was_through,
        new_channels: is_through,
        evidence: escape_evidence(after).or(escape_evidence(before)),
        wording_failed: after
            .and_then(|c| c.containment.as_ref())
            .is_some_and(|c| c.wording_failed),
    };
    use ContainmentClass::*;
    match (was, is) {
        (Some(Escape), Some(Escape)) if !new_channel => c.containment_changed.push(change),
        (_, Some(Escape)) => c.security_regressions.push(change),
        (Some(Escape), Some(Refused | RefusedOtherCode | Accepted | FalseRefusal | OtherError)) => {
            c.security_fixes.push(change)
        }
        _ => c.containment_changed.push(change),
    }
    true
}

/// Classifies every instance of either report.
pub fn compare(old: &Report, new: &Report) -> Comparison {
    let strict = new.strict;
    let (olds, news) = (index(old), index(new));
    let counted = |report: &Report| {
        let mut counts = ContainmentCounts::default();
        report.cases.iter().for_each(|case| counts.add(case));
        counts
    };
    let mut comparison = Comparison {
        old_label: text::implementation(&old.implementation),
        new_label: text::implementation(&new.implementation),
        old_containment: counted(old),
        new_containment: counted(new),
        ..Comparison::default()
    };

    for (id, after) in &news {
        let before = olds.get(id).copied();
        let class_changed = containment_change(&mut comparison, before, Some(after));
        let Some(before) = before else {
            comparison.added.push(change(None, Some(after)));
            continue;
        };
        let (was, is) = (before.status, after.status);
        if was == is {
            if !class_changed {
                comparison.unchanged += 1;
            }
            continue;
        }
        let entry = change(Some(before), Some(after));
        // Fixed is about conformance, not the run: anything that did not
        // conform (fail, xfail, an error) and now does (pass, xpass) is a
        // fix, whatever the expectations file says.
        let fixed = Conformance::of(is) == Conformance::Conforms
            && Conformance::of(was) != Conformance::Conforms;
        if fixed {
            comparison.fixed.push(entry);
        } else if !was.is_unexpected(strict) && is.is_unexpected(strict) {
            comparison.broke.push(entry);
        } else {
            comparison.changed.push(entry);
        }
    }
    for (id, before) in &olds {
        if !news.contains_key(id) {
            containment_change(&mut comparison, Some(before), None);
            comparison.removed.push(change(Some(before), None));
        }
    }
    comparison
}

/// The report's instances by id. Ids are unique in a well-formed report;
/// if not, the first wins.
fn index(report: &Report) -> BTreeMap<&str, &CaseReport> {
    let mut map = BTreeMap::new();
    for case in &report.cases {
        map.entry(case.id.as_str()).or_insert(case);
    }
    map
}

fn change(old: Option<&CaseReport>, new: Option<&CaseReport>) -> StatusChange {
    let shown = new.or(old).expect("an instance is in at least one report");
    StatusChange {
        id: shown.id.clone(),
        file: shown.file.clone(),
        line: shown.line,
        old: old.map(|c| c.status),
        new: new.map(|c| c.status),
        reason: shown.reason.clone(),
        diff: new.and_then(|c| c.diff.clone()).filter(|d| !d.is_empty()),
    }
}

/// Diff lines shown per broken instance: enough to see the first
/// difference in a pull-request comment.
const DIFF_LINES: usize = 30;

/// The comparison as Markdown, for a pull-request comment or a terminal.
/// Broken instances come first, with their diffs; then fixed, added,
/// removed and changed ones, one line each.
pub fn render(comparison: &Comparison) -> String {
    let mut out = String::from("## toolpath compare\n\n");
    heading(&mut out, comparison);
    let c = comparison;
    section(
        &mut out,
        "⛔ Security regressions",
        &c.security_regressions,
        class_line,
    );
    section(&mut out, "Broke", &c.broke, broke_line);
    section(&mut out, "🛡 Security fixes", &c.security_fixes, class_line);
    section(
        &mut out,
        "Containment changed",
        &c.containment_changed,
        class_line,
    );
    section(&mut out, "Fixed", &c.fixed, line);
    section(&mut out, "New", &c.added, line);
    section(&mut out, "Removed", &c.removed, line);
    section(&mut out, "Changed", &c.changed, line);
    out.push_str(&summary(comparison));
    out
}

/// What is compared: both sides' labels (one, when they are the same) and
/// their containment counts.
fn heading(out: &mut String, comparison: &Comparison) {
    let label = |l: &str| markdown::text(if l.is_empty() { "(unnamed)" } else { l });
    if comparison.old_label == comparison.new_label {
        out.push_str(&format!("{}\n\n", label(&comparison.new_label)));
    } else {
        out.push_str(&format!(
            "{} → {}\n\n",
            label(&comparison.old_label),
            label(&comparison.new_label)
        ));
    }
    out.push_str(&format!(
        "Containment: {} → {}\n\n",
        comparison.old_containment.line(),
        comparison.new_containment.line()
    ));
}

/// One kind of change under its title and count, a line each; nothing
/// when there is none of that kind.
fn section<C>(out: &mut String, title: &str, changes: &[C], line: fn(&mut String, &C)) {
    if changes.is_empty() {
        return;
    }
    out.push_str(&format!("### {title} ({})\n\n", changes.len()));
    for change in changes {
        line(out, change);
    }
    out.push('\n');
}

/// A broken instance's line and the head of its diff, fenced and indented
/// under its bullet, so the list stays one list.
fn broke_line(out: &mut String, change: &StatusChange) {
    line(out, change);
    let Some(diff) = &change.diff else {
        return;
    };
    let (lines, omitted) = text::head_lines(diff, DIFF_LINES);
    let mut body = lines.join("\n");
    if omitted > 0 {
        body.push_str(&format!("\n… {omitted} more lines"));
    }
    for fenced in markdown::fence("diff", &body).lines() {
        out.push_str("  ");
        out.push_str(fenced);
        out.push('\n');
    }
}

/// The last line: what broke, bold, then every other count.
fn summary(comparison: &Comparison) -> String {
    let verdict = match (
        comparison.security_regressions.len(),
        comparison.broke.len(),
    ) {
        (0, 0) => "nothing broke".to_owned(),
        (0, broke) => format!("**{broke} broke**"),
        (escapes, broke) => format!("**{escapes} security regressions**, **{broke} broke**"),
    };
    format!(
        "{verdict}; {} security fixes, {} fixed, {} new, {} removed, {} changed, {} unchanged.\n",
        comparison.security_fixes.len(),
        comparison.fixed.len(),
        comparison.added.len(),
        comparison.removed.len(),
        comparison.changed.len(),
        comparison.unchanged
    )
}

/// `- ID: escape → refused (FILE:LINE): EVIDENCE`, one class change.
fn class_line(out: &mut String, change: &ClassChange) {
    let class = |c: Option<ContainmentClass>, channels: &[Channel]| match (c, channels) {
        (Some(ContainmentClass::Escape), [_, ..]) => {
            format!("escape ({})", Channel::list(channels))
        }
        (c, _) => c.map_or("—", ContainmentClass::label).to_owned(),
    };
    out.push_str(&format!(
        "- {}: {} → {} ({})",
        markdown::code(&change.id),
        class(change.old, &change.old_channels),
        class(change.new, &change.new_channels),
        markdown::code(&format!("{}:{}", change.file, change.line))
    ));
    if let Some(evidence) = &change.evidence {
        out.push_str(&format!(": {}", markdown::text(evidence)));
    }
    if change.wording_failed {
        out.push_str(" (the refusal's wording still fails ERR-4)");
    }
    out.push('\n');
}

fn line(out: &mut String, change: &StatusChange) {
    let status = |s: Option<Status>| s.map_or("—", Status::name);
    let transition = match (change.old, change.new) {
        (Some(_), Some(_)) => format!("{} → {}", status(change.old), status(change.new)),
        (None, new) => status(new).to_owned(),
        (old, None) => format!("was {}", status(old)),
    };
    out.push_str(&format!(
        "- {}: {transition} ({})",
        markdown::code(&change.id),
        markdown::code(&format!("{}:{}", change.file, change.line))
    ));
    if let Some(reason) = &change.reason {
        out.push_str(&format!(": {}", markdown::text(reason)));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::render::sample_reports::{
        attack, broken, case, contained, escape, failing, hostile, report, with_reason,
    };
    use toolpath_suite::sanitize::first_hostile;

    /// The whole comparison of two runs that differ in every way it
    /// lists (a security regression and fix, a containment change, broken
    /// with a diff, fixed, new, removed, changed), reviewed in the
    /// snapshot; the tests below pin one rule each.
    #[test]
    fn snapshot_of_every_kind_of_change() {
        let old = broken();
        let cases = (old.cases.iter())
            .filter(|c| c.id != "skip-d")
            .cloned()
            .map(|c| match c.id.as_str() {
                "pass-a" => failing("pass-a", &["RES-1"]),
                "fail-0@x" => case("fail-0@x", Status::Pass, &["RES-1"]),
                "notrun" => case("notrun", Status::Skip, &["RES-3"]),
                "escape-a@grep" => contained(
                    case("escape-a@grep", Status::Pass, &["SEC-4"]),
                    ContainmentClass::Refused,
                ),
                "refused@resolve" => escape("refused@resolve", "answered ok"),
                "false-refusal@glob" => contained(
                    case("false-refusal@glob", Status::Pass, &["SEC-5"]),
                    ContainmentClass::Accepted,
                ),
                _ => c,
            })
            .chain([failing("brand-new", &["RES-2"])])
            .collect();
        let new = report("varied", cases);
        insta::assert_snapshot!(render(&compare(&old, &new)));
    }

    /// Every string of both reports an attack: the comparison shows them
    /// all and acts on none.
    #[test]
    fn hostile_text_is_shown_not_acted_on() {
        let old = report(
            &attack("old name"),
            hostile()
                .cases
                .iter()
                .map(|c| {
                    let mut passed = c.clone();
                    passed.status = Status::Pass;
                    passed
                })
                .collect(),
        );
        let out = render(&compare(&old, &hostile()));
        assert_eq!(first_hostile(&out), None, "{out}");
        assert!(out.contains("### Broke"), "{out}");
        assert!(out.contains("‹U+202E›exe.txt"), "{out}");
    }

    fn ids(changes: &[StatusChange]) -> Vec<&str> {
        changes.iter().map(|c| c.id.as_str()).collect()
    }

    fn pair() -> (Report, Report) {
        let old = report(
            "fake",
            vec![
                case("same", Status::Pass, &[]),
                failing("fixed", &[]),
                case("xfixed", Status::Xfail, &[]),
                case("broke", Status::Pass, &[]),
                case("crashed", Status::Pass, &[]),
                case("ran-and-failed", Status::Skip, &[]),
                case("lost", Status::Pass, &[]),
                case("gone", Status::Pass, &[]),
            ],
        );
        let new = report(
            "fake",
            vec![
                case("same", Status::Pass, &[]),
                case("fixed", Status::Pass, &[]),
                case("xfixed", Status::Xpass, &[]),
                failing("broke", &[]),
                with_reason(case("crashed", Status::AdapterError, &[]), "timed out"),
                failing("ran-and-failed", &[]),
                case("lost", Status::Skip, &[]),
                failing("brand-new", &[]),
            ],
        );
        (old, new)
    }

    #[test]
    fn classifies_every_kind_of_change() {
        let (old, new) = pair();
        let c = compare(&old, &new);
        assert_eq!(ids(&c.fixed), ["fixed", "xfixed"]);
        assert_eq!(ids(&c.broke), ["broke", "crashed", "ran-and-failed"]);
        assert_eq!(ids(&c.added), ["brand-new"]);
        assert_eq!(ids(&c.removed), ["gone"]);
        assert_eq!(ids(&c.changed), ["lost"]);
        assert_eq!(c.unchanged, 1);
        assert!(c.broke_anything());
        assert_eq!(c.broke[1].old, Some(Status::Pass));
        assert_eq!(c.broke[1].new, Some(Status::AdapterError));
        assert_eq!(c.removed[0].new, None);
    }

    #[test]
    fn identical_reports_broke_nothing() {
        let (old, _) = pair();
        let c = compare(&old, &old);
        assert!(!c.broke_anything());
        assert_eq!(c.unchanged, old.cases.len());
        assert!(render(&c).ends_with(
            "nothing broke; 0 security fixes, 0 fixed, 0 new, 0 removed, 0 changed, 8 unchanged.\n"
        ));
    }

    #[test]
    fn strictness_is_read_from_the_new_report() {
        let old = report("fake", vec![case("x", Status::Xpass, &[])]);
        let mut new = old.clone();
        new.strict = true;
        assert!(
            !compare(&old, &new).broke_anything(),
            "same status, only the flag changed"
        );
        let mut old_fail = old.clone();
        old_fail.cases[0].status = Status::Xfail;
        let c = compare(&old_fail, &new);
        assert_eq!(
            ids(&c.fixed),
            ["x"],
            "xfail to xpass is a fix even when strict"
        );
    }

    #[test]
    fn fail_to_xpass_is_a_fix() {
        // A case that failed before an expectations entry was added, and
        // passes now that it is listed: fixed, not merely "changed".
        let old = report(
            "fake",
            vec![failing("x", &[]), case("e", Status::AdapterError, &[])],
        );
        let new = report(
            "fake",
            vec![case("x", Status::Xpass, &[]), case("e", Status::Pass, &[])],
        );
        let c = compare(&old, &new);
        assert_eq!(ids(&c.fixed), ["e", "x"]);
        assert!(c.changed.is_empty());
    }

    #[test]
    fn rendering_lists_broken_first_with_diffs() {
        let (old, new) = pair();
        let out = render(&compare(&old, &new));
        assert!(out.starts_with("## toolpath compare\n\nfake 1.2.3 (python)\n\nContainment: 0 escapes, 0 refused, 0 refused with another code, 0 wording failures, 0 false refusals, 0 other errors, 0 accepted, 0 not observed → 0 escapes, 0 refused, 0 refused with another code, 0 wording failures, 0 false refusals, 0 other errors, 0 accepted, 0 not observed\n\n### Broke (3)\n\n- `broke`: pass → fail (`cases/broke.yaml:3`)\n  ```diff\n  --- expected\n"), "{out}");
        assert!(
            out.contains("- `crashed`: pass → adapter_error (`cases/crashed.yaml:3`): timed out\n"),
            "{out}"
        );
        assert!(
            out.contains("### Fixed (2)\n\n- `fixed`: fail → pass"),
            "{out}"
        );
        assert!(
            out.contains("### New (1)\n\n- `brand-new`: fail (`cases/brand-new.yaml:3`)\n"),
            "{out}"
        );
        assert!(
            out.contains("### Removed (1)\n\n- `gone`: was pass"),
            "{out}"
        );
        assert!(
            out.contains("### Changed (1)\n\n- `lost`: pass → skip"),
            "{out}"
        );
        assert!(
            out.ends_with(
                "**3 broke**; 0 security fixes, 2 fixed, 1 new, 1 removed, 1 changed, 1 unchanged.\n"
            ),
            "{out}"
        );
    }

    /// The fix of issue 23: an escape now refused, with a message that
    /// still fails ERR-4, fails before and after, and is a security fix;
    /// the other way round is a regression, listed first, and compare
    /// exits 1 even when the expectations file lists it.
    #[test]
    fn an_escape_refused_is_a_fix_and_a_new_escape_a_regression() {
        use crate::report::render::sample_reports::{contained, escape, expected};
        let mut worded = contained(failing("link", &["SEC-5"]), ContainmentClass::Refused);
        worded.containment.as_mut().unwrap().wording_failed = true;
        let ok = || case("ok", Status::Pass, &[]);
        let escaped = report("fake", vec![escape("link", "answered ok"), ok()]);
        let refused = report("fake", vec![worded, ok()]);
        let fixed = compare(&escaped, &refused);
        assert_eq!(fixed.security_fixes.len(), 1);
        assert_eq!(fixed.security_fixes[0].id, "link");
        assert!(
            fixed.fixed.is_empty() && fixed.broke.is_empty(),
            "fail → fail"
        );
        assert_eq!(fixed.unchanged, 1, "the fix is not unchanged");
        assert!(!fixed.broke_anything());
        let out = render(&fixed);
        assert!(
            out.contains(
                "### 🛡 Security fixes (1)\n\n- `link`: escape (read) → refused (`cases/link.yaml:3`): \
                 read: answered ok (the refusal's wording still fails ERR-4)\n"
            ),
            "{out}"
        );
        assert!(
            out.contains(
                "Containment: 1 escape (read 1, list 0, resolve 0, exec 0, write 0), 0 refused"
            ),
            "{out}"
        );
        let regressed = compare(&refused, &escaped);
        assert_eq!(regressed.security_regressions.len(), 1);
        assert!(regressed.broke_anything());
        let out = render(&regressed);
        let first = out.find("### ").unwrap();
        assert!(
            out[first..].starts_with(
                "### ⛔ Security regressions (1)\n\n- `link`: refused → escape (read) (`cases/link.yaml:3`): read: answered ok\n"
            ),
            "{out}"
        );
        // An expected escape, or a new instance that escapes, still counts.
        let mut known = expected(escape("link", "answered ok"), "known");
        known.status = Status::Xfail;
        let listed = report("fake", vec![known, escape("new", "answered ok")]);
        let c = compare(&refused, &listed);
        let ids: Vec<&str> = c
            .security_regressions
            .iter()
            .map(|c| c.id.as_str())
            .collect();
        assert_eq!(ids, ["link", "new"]);
        assert!(c.broke.is_empty());
        assert!(c.broke_anything());
    }

    /// An escape of a report of suite 0.2.x has no channels: against
    /// today's escape of the same instance (through `read`) it is
    /// unchanged, either way round, and the counts say the channel was not
    /// recorded; a new instance that escapes is still a regression.
    #[test]
    fn an_escape_whose_channels_were_not_recorded_is_the_same_escape() {
        use crate::report::render::sample_reports::escape;
        let mut unrecorded = escape("link", "answered ok");
        let containment = unrecorded.containment.as_mut().unwrap();
        containment.channels.clear();
        containment.evidence = Some("answered ok".into());
        let old = report("fake", vec![unrecorded]);
        let today = report("fake", vec![escape("link", "answered ok")]);
        for c in [compare(&old, &today), compare(&today, &old)] {
            assert!(
                c.security_regressions.is_empty() && c.containment_changed.is_empty(),
                "{c:?}"
            );
            assert_eq!(c.unchanged, 1);
            assert!(!c.broke_anything());
        }
        let out = render(&compare(&old, &today));
        assert!(
            out.contains(
                "Containment: 1 escape (read 0, list 0, resolve 0, exec 0, write 0, channel not recorded 1), "
            ),
            "{out}"
        );
        let more = report(
            "fake",
            vec![escape("link", "answered ok"), escape("new", "answered ok")],
        );
        let c = compare(&old, &more);
        assert_eq!(c.security_regressions.len(), 1, "{c:?}");
        assert_eq!(c.security_regressions[0].id, "new");
    }

    #[test]
    fn labels_show_both_sides_when_they_differ() {
        let old = report("fake", vec![]);
        let mut new = old.clone();
        new.implementation.version = "2.0".into();
        let out = render(&compare(&old, &new));
        assert!(
            out.contains("fake 1.2.3 (python) → fake 2.0 (python)\n"),
            "{out}"
        );
    }
}
