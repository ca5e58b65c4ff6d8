//! The event log: the run written down as it goes, one JSON line per event,
//! so a run that is killed (even with SIGKILL) leaves a partial report.
//! `toolpath compare` and `toolpath certification` read an event log
//! wherever they read a JSON report.
//!
//! Lines, in order: one `start` (who answers, what runs), one `case` per
//! judged instance, and one `end` when the run finished. A `case` line
//! carries the instance's `position` in the run's order, since instances
//! finish out of order when several run at once; a later `case` line with
//! the same position replaces an earlier one (a protocol violation found
//! after a case's answer is charged to that case this way). A log without
//! `end` is from a run that did not finish: it reads as partial. Each line
//! is written with one `write` call and is complete or absent, except
//! perhaps the last line of a killed run, which is ignored. Its schema is
//! published in `spec/schemas/event.schema.json`.
//!
//! `toolpath run` writes the log into its run directory as it goes (the
//! spool): the run holds only counts, and the reports are rendered by
//! reading the log back ([`Spool`]), so memory does not grow with the
//! number of cases.
//!
//! The spool is sealed ([`crate::report::seal`]): each line is followed by
//! a tab and an HMAC of its line number and bytes, under a key that exists
//! only in the harness process. Adapters run as the same user and can find
//! and rewrite files in the run directory; a spool they changed does not
//! verify and is refused, so no adapter can turn its failures into passes.
//!
//! The copy a user asks for (`--events`) is plain JSON Lines. It is written
//! as the run goes, so that a run killed even with SIGKILL leaves a usable
//! partial report, and replaced whole at delivery, after every adapter
//! ended, by a copy made from the verified spool ([`Spool::write_plain`]):
//! nothing an adapter wrote into it meanwhile survives a run that ends. A
//! copy left by a run that did not end is evidence of what it judged, no
//! more: an adapter, running as the user, could have written it, as it
//! could any of the user's files.

//!
//! One concept a module: [`Event`] (here) is a line of the log; [`log`]
//! writes one ([`EventLog`], the run's sink); [`spool`] reads the run's
//! sealed spool back, verified ([`Spool`]); [`read`](mod@read) turns a
//! plain log into the report it stands for ([`read()`](fn@read)).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::report::{CaseReport, ContainmentCounts, Summary};
use toolpath_suite::protocol::Implementation;

pub mod log;
pub mod read;
pub mod spool;

pub use log::EventLog;
pub use read::{is_event_log, read};
pub use spool::Spool;

/// One line of the event log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The run started; the report's header fields.
    Start {
        format: u32,
        suite: String,
        protocol: u32,
        implementation: Implementation,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        adapter: Option<String>,
        strict: bool,
        /// Instances selected.
        total: usize,
        /// The part of the suite selected (absent: the whole suite).
        #[serde(default, skip_serializing_if = "crate::report::Selected::is_whole")]
        selection: crate::report::Selected,
        /// What the run is made against (absent: not recorded).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        run_against: Option<crate::report::RunAgainst>,
        /// `Report::unprotected` (absent: the verdict was protected, or
        /// the log was written before it was recorded).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        unprotected: Vec<String>,
    },
    /// One instance, judged.
    Case(Box<CaseEvent>),
    /// The run finished (also when cancelled: then `partial` is true).
    End {
        partial: bool,
        duration_ms: f64,
        /// `Report::waited_ms` (absent from logs written before it).
        #[serde(default)]
        waited_ms: f64,
        /// `Report::workers` (absent from logs written before it: 1).
        #[serde(default = "crate::report::one_worker")]
        workers: usize,
        summary: Summary,
        /// The run's findings (`Report::findings`); absent when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        findings: Vec<crate::report::findings::Finding>,
        /// An MCP profile's rule counts (`Report::profile_rules`); absent
        /// when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        profile_rules: Vec<crate::report::profile_rules::RuleUse>,
        /// The containment counts (absent from logs written before them).
        #[serde(default)]
        containment: ContainmentCounts,
    },
}

/// One judged instance, and its place in the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CaseEvent {
    /// The instance's place in the run's order, from 0; absent in logs
    /// written before it was added (their cases are in the order written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<usize>,
    #[serde(flatten)]
    pub report: CaseReport,
}
