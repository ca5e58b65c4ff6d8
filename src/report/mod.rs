//! The canonical JSON report of a run. Every other format (human, JUnit,
//! Markdown) is rendered from it, and `toolpath compare` reads two of them.
//! Its schema is published in `spec/schemas/report.schema.json`.
//!
//! What lives here: the report types, what they add up to (containment
//! and per-rule counts, [`counts`]), what a mismatch is about
//! ([`check`]), what a subject found about itself
//! ([`findings`]), how often each rule of an MCP profile matched
//! ([`profile_rules`]), where judged instances go as they are judged
//! ([`sink`]), the event log and the run's authenticated spool
//! ([`events`]) and its seal ([`seal`]), the renderers ([`render`]), the
//! view renderers read through ([`view`]), how a run ends ([`exit`]) and
//! how a report of an earlier release is read ([`upgrade`]).
//!
//! May import `sys` and the suite model (the floors below,
//! ARCHITECTURE.md); never `case` or `reference` beside it on floor 2, nor
//! the harness, session or CLI above it.

pub mod check;
pub mod conformance;
pub mod counts;
pub mod events;
pub mod exit;
pub mod findings;
pub mod profile_rules;
pub mod render;
pub mod run_against;
pub mod seal;
pub mod sink;
pub mod upgrade;
pub mod view;

pub use check::{Check, OwnCheck};
pub use conformance::RuleCounts;
pub use counts::{Channel, ChannelCounts, Containment, ContainmentClass, ContainmentCounts};
pub use exit::ExitCode;
pub use run_against::RunAgainst;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use strum::VariantArray;

use toolpath_suite::protocol::{Implementation, Tool};

/// The report format version; raised when a field changes meaning.
pub const REPORT_FORMAT: u32 = 1;

/// How a report's `adapter` names an MCP server certified from its
/// profile: `--mcp FILE` (the session labels it so).
pub const MCP_LABEL_PREFIX: &str = "--mcp ";

/// What reasons and headings call the subject a report's `adapter` label
/// names: an MCP server is the implementation itself, `server`, never an
/// adapter (docs/mcp.md); anything else is an `adapter`.
pub fn subject_noun(label: Option<&str>) -> &'static str {
    match label {
        Some(label) if label.starts_with(MCP_LABEL_PREFIX) => "server",
        _ => "adapter",
    }
}

/// How one case instance ended.
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
pub enum Status {
    /// The answer matched every expectation, each one checked.
    Pass,
    /// The answer matched every expectation that could be checked, but the
    /// adapter cannot observe some field the case expects (`unchecked`
    /// says which): never shown as passed.
    Unobserved,
    /// A wrong answer; `diff` says how.
    Fail,
    /// Not run, for the reason given (expectations file, machine limits).
    Skip,
    /// The adapter lacks the tool or a feature the case needs; never sent,
    /// or the adapter itself answered `unsupported`.
    Unsupported,
    /// The adapter crashed, hung, or sent something that is not a valid answer.
    AdapterError,
    /// Failed, as the expectations file says it will.
    Xfail,
    /// Passed although the expectations file says it fails.
    Xpass,
    /// Not run because the adapter was given up on (the run is partial).
    NotRun,
    /// The case could not be run as written (its fixture could not be built).
    CaseError,
}

impl Status {
    /// Every status, in declaration order: strum's list (`VariantArray`)
    /// as an array, so a status added to the enum is in it with no list to
    /// keep by hand.
    pub const ALL: [Status; <Status as VariantArray>::VARIANTS.len()] =
        toolpath_suite::variant_array(<Status as VariantArray>::VARIANTS);

    pub fn name(self) -> &'static str {
        // The wire name, from the serde attribute's twin: one spelling, no list.
        self.into()
    }

    /// Whether an answer was compared with the expectation.
    pub fn is_judged(self) -> bool {
        matches!(
            self,
            Status::Pass | Status::Unobserved | Status::Fail | Status::Xfail | Status::Xpass
        )
    }

    /// Whether this status makes a run unsuccessful (exit code 1). An xpass
    /// counts only under `--strict`.
    pub fn is_unexpected(self, strict: bool) -> bool {
        matches!(
            self,
            Status::Fail | Status::AdapterError | Status::CaseError
        ) || (strict && self == Status::Xpass)
    }
}

/// One field on which an answer disagreed with its expectation, as judged
/// on values; both sides are shown with machine paths as placeholders
/// (unless that would hide the difference).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Mismatch {
    /// The field: `outcome`, `kind`, `path`, `matches.text "PATH:LINE"`,
    /// `fixture` (the call changed the fixture, SEC-11), ...
    #[schemars(with = "String")]
    pub field: Check,
    /// At most 4 KiB is kept (judging used the whole value): a longer value
    /// ends with `… [cut: N bytes in all]`, and a list keeps its first 20
    /// items, sorted, and ends with `… K more (N in all)`.
    pub expected: String,
    /// Capped as `expected` is.
    pub actual: String,
    /// The rule a check derived for every case (SHELL-6, SEARCH-10, OUT-5)
    /// enforces, so a failure there is attributed to it, not only to the
    /// rules the case cites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// Why a case was expected to fail or skipped, from the expectations file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ExpectationNote {
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
}

/// One case instance in a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CaseReport {
    /// Instance id: the case id, with `@tool` for cases run against several tools.
    pub id: String,
    pub case: String,
    pub tool: Tool,
    pub file: String,
    pub line: u64,
    pub spec: Vec<String>,
    pub tags: Vec<String>,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The fields that disagreed, for `fail` and `xfail`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mismatches: Vec<Mismatch>,
    /// Unified diff of expected against actual, rendered from the same
    /// checks; values capped as in mismatches, the whole at most 32 KiB
    /// (then ending with `… [cut: N bytes in all]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Expected fields the adapter declared unobservable: not checked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unchecked: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expectation: Option<ExpectationNote>,
    /// The adapter's standard error around a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// Where the fixture was left, with `--keep-fixtures`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixture: Option<String>,
    /// The containment verdict, for an instance whose case expects
    /// `outside_workspace` or is a SEC case expecting `ok`, for one expecting
    /// `ok` that was refused as `outside_workspace`, and for any
    /// instance whose call changed the fixture outside every root
    /// ([`counts`] says what each class means).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containment: Option<Containment>,
    pub duration_ms: f64,
}

impl CaseReport {
    /// The report of an instance, `status` with `reason`, before anything
    /// else is known of it (no requirements, tags, diff or timing yet).
    pub fn new(
        id: String,
        case: String,
        tool: Tool,
        file: String,
        line: u64,
        status: Status,
        reason: Option<String>,
    ) -> CaseReport {
        CaseReport {
            id,
            case,
            tool,
            file,
            line,
            spec: Vec::new(),
            tags: Vec::new(),
            status,
            reason,
            mismatches: Vec::new(),
            diff: None,
            unchecked: Vec::new(),
            expectation: None,
            stderr: None,
            fixture: None,
            containment: None,
            duration_ms: 0.0,
        }
    }
}

/// Counts per status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    pub total: usize,
    pub pass: usize,
    #[serde(default)]
    pub unobserved: usize,
    pub fail: usize,
    pub skip: usize,
    pub unsupported: usize,
    pub adapter_error: usize,
    pub xfail: usize,
    pub xpass: usize,
    pub not_run: usize,
    pub case_error: usize,
}

impl Summary {
    pub fn of(cases: &[CaseReport]) -> Summary {
        let mut summary = Summary::default();
        for case in cases {
            summary.add(case.status);
        }
        summary
    }

    /// Counts one more instance of `status`.
    pub fn add(&mut self, status: Status) {
        self.total += 1;
        *self.count_mut(status) += 1;
    }

    /// Uncounts an instance of `status`, whose report was replaced.
    pub fn remove(&mut self, status: Status) {
        self.total -= 1;
        *self.count_mut(status) -= 1;
    }

    /// How many instances have `status`.
    pub fn count(&self, status: Status) -> usize {
        let mut copy = *self;
        *copy.count_mut(status)
    }

    fn count_mut(&mut self, status: Status) -> &mut usize {
        match status {
            Status::Pass => &mut self.pass,
            Status::Unobserved => &mut self.unobserved,
            Status::Fail => &mut self.fail,
            Status::Skip => &mut self.skip,
            Status::Unsupported => &mut self.unsupported,
            Status::AdapterError => &mut self.adapter_error,
            Status::Xfail => &mut self.xfail,
            Status::Xpass => &mut self.xpass,
            Status::NotRun => &mut self.not_run,
            Status::CaseError => &mut self.case_error,
        }
    }

    /// Whether any answer was compared with its expectation. A run that
    /// judged nothing (no tools declared, everything skipped or unsupported)
    /// proves nothing, so it must not pass a CI gate.
    pub fn judged_anything(&self) -> bool {
        Status::ALL
            .iter()
            .any(|&s| s.is_judged() && self.count(s) > 0)
    }

    /// How a run with these counts ends (see [`ExitCode`]).
    pub fn exit_code(&self, partial: bool, strict: bool) -> ExitCode {
        if partial {
            ExitCode::Partial
        } else if Status::ALL
            .iter()
            .any(|&s| s.is_unexpected(strict) && self.count(s) > 0)
        {
            ExitCode::Unexpected
        } else if !self.judged_anything() {
            ExitCode::NothingJudged
        } else {
            ExitCode::Ok
        }
    }
}

/// What a run selected of the suite (`--tool`, `--filter`, `--spec`,
/// `--tag`, `--shard`) and which case files it read instead of the
/// embedded suite (`--cases`) or besides it (`--add-cases`), as given on
/// the command line. Empty: the whole embedded suite of the report's
/// `suite` version, the only run two implementations can be compared on
/// cell by cell.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Selected {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub specs: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// `K/N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Case files or directories read instead of the embedded suite.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<String>,
    /// Case files or directories read besides the embedded suite.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added_cases: Vec<String>,
}

impl Selected {
    /// Whether this is the whole embedded suite.
    pub fn is_whole(&self) -> bool {
        *self == Selected::default()
    }

    /// One line for a reader: `None` for the whole suite, else what was
    /// selected (`tools read_file, write_file, edit; shard 1/2`).
    pub fn describe(&self) -> Option<String> {
        let list = |what: &str, items: &[String]| {
            (!items.is_empty()).then(|| format!("{what} {}", items.join(", ")))
        };
        let parts: Vec<String> = [
            list("tools", &self.tools),
            list("filter", &self.filters),
            list("spec", &self.specs),
            list("tag", &self.tags),
            self.shard.as_ref().map(|s| format!("shard {s}")),
            list("cases from", &self.cases),
            list("cases added from", &self.added_cases),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// A whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    pub format: u32,
    /// The suite version the cases belong to.
    pub suite: String,
    pub protocol: u32,
    pub implementation: Implementation,
    /// The adapter command, or `None` for the in-process reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapter: Option<String>,
    /// True when the adapter was given up on and some cases did not run.
    pub partial: bool,
    pub strict: bool,
    pub duration_ms: f64,
    /// Time the run's workers spent waiting on subjects that gave no
    /// answer in time (calls that timed out, calls blocked on a FIFO) and
    /// on starting them again, summed over the workers (issue 33): what a
    /// run cost beyond the subject's own calls. See [`Report::timing`].
    #[serde(default)]
    pub waited_ms: f64,
    /// How many workers the run had: `waited_ms` is shared among them.
    #[serde(default = "one_worker")]
    pub workers: usize,
    /// Where the fixtures were built, and whether that is a tmpfs
    /// (`/dev/shm (tmpfs)`); absent when the report was not made by
    /// `toolpath run` (a library run, or rebuilt from an event log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixture_dir: Option<String>,
    /// What this run could not protect its verdict from, one sentence
    /// each (a subject's processes could outlive it, where no PID
    /// namespace could be made): empty when the subjects ran boxed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unprotected: Vec<String>,
    /// The part of the suite this run covers; absent for the whole
    /// embedded suite. Certification pages show it beside the row, so that
    /// a three-tool run is not read as the whole suite.
    #[serde(default, skip_serializing_if = "Selected::is_whole")]
    pub selection: Selected,
    /// The digests of the suite and the runner this run was made against,
    /// so a page made from it can be found stale without running it
    /// again; absent when the report was not made by `toolpath run` (a
    /// library run, or rebuilt from an event log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_against: Option<RunAgainst>,
    pub summary: Summary,
    /// What the implementation did wrong as a server, outside any one
    /// answer (an MCP server's stray output, requests never answered, a
    /// kill at shutdown), by kind; empty for adapters and the reference
    /// (written as `[]`, never left out).
    #[serde(default)]
    pub findings: Vec<findings::Finding>,
    /// An MCP profile's rules, each with the answers it applied to and
    /// those it matched, in the profile's order; absent for adapters and
    /// the reference.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profile_rules: Vec<profile_rules::RuleUse>,
    /// The containment verdicts counted: escapes first of all. Absent from
    /// reports written before it was added (then all 0).
    #[serde(default)]
    pub containment: ContainmentCounts,
    /// Conformance per rule ID (every ID an instance cites, and every rule
    /// a derived check failed on; see [`conformance::rule_statuses`]).
    #[serde(default)]
    pub rules: RuleCounts,
    pub cases: Vec<CaseReport>,
}

/// A report read back from a log written before `workers` was recorded.
pub(crate) fn one_worker() -> usize {
    1
}

/// The words every report that shows a run's time ends its line with:
/// what `scripts/certify --compare` and the tests that compare pages
/// find that line by (shown, never compared: it varies run to run).
pub const TIMING_WORDS: &str = "waiting on timeouts and restarts";

/// `page` without the lines that show a run's time (those holding
/// [`TIMING_WORDS`]): what is compared of two pages of the same run.
pub fn without_timing(page: &str) -> String {
    page.split_inclusive('\n')
        .filter(|line| !line.contains(TIMING_WORDS))
        .collect()
}

impl Report {
    /// The header of a report of this build's suite and protocol: who
    /// answered, what was asked of it and what it was run against, with
    /// no case and no count yet. The one place a header is built, for a
    /// run and for a report read back from its event log alike.
    pub fn head(
        implementation: Implementation,
        adapter: Option<String>,
        strict: bool,
        selection: Selected,
        run_against: Option<RunAgainst>,
        unprotected: Vec<String>,
    ) -> Report {
        Report {
            format: REPORT_FORMAT,
            suite: crate::SUITE_VERSION.to_owned(),
            protocol: toolpath_suite::protocol::PROTOCOL_VERSION,
            implementation,
            adapter,
            partial: false,
            strict,
            duration_ms: 0.0,
            waited_ms: 0.0,
            workers: 1,
            fixture_dir: None,
            unprotected,
            selection,
            run_against,
            summary: Summary::default(),
            findings: Vec::new(),
            profile_rules: Vec::new(),
            containment: Default::default(),
            rules: Default::default(),
            cases: Vec::new(),
        }
    }

    /// The share of the workers' time spent waiting (`waited_ms` over
    /// `duration_ms` times `workers`), from 0 to 1.
    pub fn waiting_share(&self) -> f64 {
        let whole = self.duration_ms * self.workers.max(1) as f64;
        if whole <= 0.0 {
            return 0.0;
        }
        (self.waited_ms / whole).clamp(0.0, 1.0)
    }

    /// The run's time in one line: wall time, and how much of the
    /// workers' time went on waiting (`12.3 s, 9.1 s (74%) waiting on
    /// timeouts and restarts`), ending with [`TIMING_WORDS`].
    pub fn timing(&self) -> String {
        format!(
            "{:.1} s, {:.1} s ({:.0}%) {TIMING_WORDS}",
            self.duration_ms / 1000.0,
            self.waited_ms / 1000.0,
            self.waiting_share() * 100.0
        )
    }

    /// Sets every count of the header (`summary`, `containment`, `rules`)
    /// from `cases`: for a report read back from an event log or built
    /// whole, whose counts were not kept as it ran.
    pub fn recount(&mut self) {
        self.set_counts(counts::Counts::of(&self.cases));
    }

    /// Sets the header's counts.
    pub fn set_counts(&mut self, counts: counts::Counts) {
        self.summary = counts.summary;
        self.containment = counts.containment;
        self.rules = counts.rules;
    }

    /// Whether any answer was compared with its expectation (see
    /// [`Summary::judged_anything`]); `summary` agrees with `cases`.
    pub fn judged_anything(&self) -> bool {
        self.summary.judged_anything()
    }

    /// What this report calls its subject ([`subject_noun`]).
    pub fn subject(&self) -> &'static str {
        subject_noun(self.adapter.as_deref())
    }

    /// How this run ends (see [`ExitCode`]).
    pub fn exit_code(&self) -> ExitCode {
        self.summary.exit_code(self.partial, self.strict)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole suite is written as no `selection` at all (older readers
    /// and pages see nothing new), and anything selected is described.
    #[test]
    fn a_selection_is_written_only_when_it_is_part_of_the_suite() {
        let mut report = crate::report::render::sample_reports::report("x", Vec::new());
        let json = serde_json::to_value(&report).unwrap();
        assert!(json.get("selection").is_none(), "{json}");
        assert_eq!(report.selection.describe(), None);
        report.selection.tools = vec!["read_file".into(), "edit".into()];
        report.selection.shard = Some("2/3".into());
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(
            json["selection"],
            serde_json::json!({"tools": ["read_file", "edit"], "shard": "2/3"})
        );
        assert_eq!(
            report.selection.describe().as_deref(),
            Some("tools read_file, edit; shard 2/3")
        );
        let back: Report = serde_json::from_value(json).unwrap();
        assert_eq!(back.selection, report.selection);
    }
}
