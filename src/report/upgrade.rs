//! A JSON report written by an earlier release, read as today's report:
//! a project keeps its baseline report and compares its first run after
//! an upgrade with it (`toolpath compare`), or puts it on a certification
//! page. Every field a release added since 0.2.0 reads as what the older
//! report meant by leaving it out; what cannot be known is said to be
//! unknown, never made up. An event log needs none of this: it is read
//! back case by case and counted again ([`crate::report::events::read`]),
//! and the same defaults apply to its lines.
//!
//! What each release's report lacks, and how it is read (the stored
//! report of each, `tests/data/reports`, is read by a test):
//!
//! - **0.2.x** (no SEC-12 channels): `containment.escapes_by_channel` and
//!   each escape's `channels` are absent. Each escape is counted as one
//!   whose channel was not recorded (`escapes_by_channel.unrecorded`), not
//!   as an escape through none: [`channels_unrecorded`] below. `compare`
//!   does not read such an escape as taking a new channel when today's
//!   report names its channels.
//! - **0.3.x**: `other_errors` is absent (0; its `false_refusals` also
//!   counted SEC cases refused with another code, which 0.4.0 calls
//!   other errors: kept as written, the report does not say which
//!   code), and so are `selection` (the whole suite), `run_against` (not
//!   recorded) and `profile_rules` (none): serde defaults on the fields.
//! - **0.4.x** and **0.5.x**: `waited_ms` (0), `workers` (1) and
//!   `unprotected` (the run did not record whether its verdict was
//!   protected from its subject) are absent: serde defaults on the fields.
//! - **Before the resolve channel** (0.3.x to 0.5.x): an escape of the
//!   `resolve` tool was filed under *list*, and
//!   `escapes_by_channel.resolve` is absent. Each such escape reads as
//!   taken through *resolve* instead, its counts and evidence with it
//!   ([`resolve_filed_as_list`]): exact, not guessed, since nothing a
//!   `resolve` answers is a listing, and a report of today files none of
//!   them under *list*. So `compare` does not read a baseline's resolve
//!   escape as one through a new channel.

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::{CaseReport, Channel, Report};

/// Reads `text`, a JSON report of this release or an earlier one.
pub fn json(text: &str) -> Result<Report, serde_json::Error> {
    let mut report: Report = serde_json::from_str(text)?;
    if channels_unrecorded(text)? {
        report.containment.escapes_by_channel.unrecorded = report.containment.escapes;
    }
    let moved = report
        .cases
        .iter_mut()
        .map(resolve_filed_as_list)
        .filter(|moved| *moved)
        .count();
    let counts = &mut report.containment.escapes_by_channel;
    counts.list = counts.list.saturating_sub(moved);
    counts.resolve += moved;
    Ok(report)
}

/// Files an escape of `case`, a `resolve` instance, under *resolve* where
/// a report written before that channel filed it under *list*; whether it
/// did. A case of today's report is left as it is. The event log's
/// reader calls it on every case, and counts them again afterwards.
pub fn resolve_filed_as_list(case: &mut CaseReport) -> bool {
    let Some(c) = case.containment.as_mut() else {
        return false;
    };
    if case.tool != toolpath_suite::protocol::Tool::Resolve || !c.channels.contains(&Channel::List)
    {
        return false;
    }
    c.channels.retain(|channel| *channel != Channel::List);
    c.channels.push(Channel::Resolve);
    c.channels.sort();
    c.channels.dedup();
    let list = format!("{}: ", Channel::List.name());
    if let Some(evidence) = c.evidence.as_mut() {
        *evidence = (evidence.split("; "))
            .map(|part| match part.strip_prefix(&list) {
                Some(seen) => format!("{}: {seen}", Channel::Resolve.name()),
                None => part.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("; ");
    }
    true
}

/// Whether the report's containment counts (present) have no
/// `escapes_by_channel`: a report of a suite before 0.3.0. Read apart
/// from the report itself (the cases skipped unread), since the report's
/// own type reads the absent counts as 0.
fn channels_unrecorded(text: &str) -> Result<bool, serde_json::Error> {
    #[derive(Deserialize)]
    struct Header {
        containment: Option<Counts>,
    }
    #[derive(Deserialize)]
    struct Counts {
        escapes_by_channel: Option<IgnoredAny>,
    }
    let header: Header = serde_json::from_str(text)?;
    Ok(header
        .containment
        .is_some_and(|c| c.escapes_by_channel.is_none()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report of suite 0.2.0 (its counts as that release wrote them)
    /// reads with its escapes' channels unrecorded; today's report reads
    /// as it was written.
    #[test]
    fn escapes_of_a_report_before_channels_read_as_unrecorded() {
        let mut today = crate::report::render::sample_reports::report("x", Vec::new());
        today.containment.escapes = 2;
        today.containment.escapes_by_channel.read = 2;
        let text = serde_json::to_string(&today).unwrap();
        assert_eq!(json(&text).unwrap(), today);

        let mut old: serde_json::Value = serde_json::from_str(&text).unwrap();
        let counts = old["containment"].as_object_mut().unwrap();
        counts.remove("escapes_by_channel");
        counts.remove("other_errors");
        let read = json(&old.to_string()).unwrap();
        let channels = read.containment.escapes_by_channel;
        assert_eq!((channels.read, channels.unrecorded), (0, 2));
        assert!(
            read.containment.line().starts_with(
                "2 escapes (read 0, list 0, resolve 0, exec 0, write 0, channel not recorded 2)"
            ),
            "{}",
            read.containment.line()
        );

        old.as_object_mut().unwrap().remove("containment");
        let read = json(&old.to_string()).unwrap();
        assert_eq!(read.containment, Default::default());
    }

    /// A report written before the resolve channel filed a `resolve`
    /// escape under *list*: it reads as a resolve escape, its counts and
    /// evidence moved with it; an escape of another tool through *list*
    /// stays there, and a report of today reads as it was written.
    #[test]
    fn a_resolve_escape_filed_under_list_reads_as_resolve() {
        use crate::report::render::sample_reports::{escape, report};
        use crate::report::{Containment, ContainmentCounts};
        use toolpath_suite::protocol::Tool;
        let listed = |id: &str, tool: Tool| {
            let mut case = escape(id, "x");
            case.tool = tool;
            case.containment = Some(Containment::escape(
                vec![Channel::List],
                "list: answered ok; list: reported a path outside the fixture directory".into(),
            ));
            case
        };
        let mut old = report(
            "x",
            vec![listed("r", Tool::Resolve), listed("g", Tool::Glob)],
        );
        old.containment = ContainmentCounts::default();
        for case in &old.cases {
            old.containment.add(case);
        }
        let mut text: serde_json::Value = serde_json::to_value(&old).unwrap();
        let counts = text["containment"]["escapes_by_channel"]
            .as_object_mut()
            .unwrap();
        assert_eq!(counts.remove("resolve"), Some(0.into()));
        assert_eq!(counts["list"], 2);

        let read = json(&text.to_string()).unwrap();
        let channels = read.containment.escapes_by_channel;
        assert_eq!((channels.list, channels.resolve), (1, 1));
        let r = read.cases[0].containment.as_ref().unwrap();
        assert_eq!(r.channels, [Channel::Resolve]);
        assert_eq!(
            r.evidence.as_deref(),
            Some("resolve: answered ok; resolve: reported a path outside the fixture directory")
        );
        assert_eq!(read.cases[1], old.cases[1]);

        let mut today = old.clone();
        for case in &mut today.cases {
            resolve_filed_as_list(case);
        }
        today.containment = ContainmentCounts::default();
        for case in &today.cases {
            today.containment.add(case);
        }
        assert_eq!(
            json(&serde_json::to_string(&today).unwrap()).unwrap(),
            today
        );
        assert_eq!(read, today);
    }
}
