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

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::Report;

/// Reads `text`, a JSON report of this release or an earlier one.
pub fn json(text: &str) -> Result<Report, serde_json::Error> {
    let mut report: Report = serde_json::from_str(text)?;
    if channels_unrecorded(text)? {
        report.containment.escapes_by_channel.unrecorded = report.containment.escapes;
    }
    Ok(report)
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
        let mut today = crate::report::render::testing::report("x", Vec::new());
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
            read.containment
                .line()
                .starts_with("2 escapes (read 0, list 0, exec 0, write 0, channel not recorded 2)"),
            "{}",
            read.containment.line()
        );

        old.as_object_mut().unwrap().remove("containment");
        let read = json(&old.to_string()).unwrap();
        assert_eq!(read.containment, Default::default());
    }
}
