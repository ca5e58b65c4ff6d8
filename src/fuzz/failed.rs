//! What a divergence failed: the judge's checks or the subject's failure
//! to answer. Its own module because both sides read it: the probe makes
//! it from the judge's verdict ([`crate::fuzz::probe`]), the rules read
//! it to attribute the finding ([`crate::fuzz::rules`]), and the run keys
//! known findings by it ([`crate::fuzz::run`]).

use crate::report::{Check, Mismatch};
use crate::subject::FailureKind;
use toolpath_suite::protocol::Field;

/// What a divergence failed: the judge's checks of the answer, or the
/// subject's failure to give one. With the rule it is attributed to, it
/// is half of what tells findings apart (the other half is the input's
/// [`Signature`](crate::fuzz::signature::Signature)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failed {
    /// The checks the judge failed, each in its general form
    /// ([`Check::general`]: `matches.text` of any line), in the judge's
    /// order, each once.
    Checks(Vec<Check>),
    /// No answer: the subject crashed, timed out, blocked on a FIFO, ...
    Subject(FailureKind),
}

impl Failed {
    /// The checks behind the judge's `mismatches`, each in its general
    /// form and once, in the judge's order; `None` when there are none
    /// (the answer agrees).
    pub fn of_mismatches(mismatches: &[Mismatch]) -> Option<Failed> {
        let mut checks: Vec<Check> = Vec::new();
        for check in mismatches.iter().map(|m| m.field.general()) {
            if !checks.contains(&check) {
                checks.push(check);
            }
        }
        (!checks.is_empty()).then_some(Failed::Checks(checks))
    }

    /// The names findings and their ids give it: each check's head
    /// (`files`, `error.message`, `fixture`), or the failure's
    /// (`adapter.crash`, `adapter.timeout`, ...).
    pub fn names(&self) -> Vec<&'static str> {
        match self {
            Failed::Checks(checks) => checks.iter().map(Check::head).collect(),
            Failed::Subject(kind) => vec![failure_name(*kind)],
        }
    }

    /// Whether the judge failed `field`'s own check.
    pub fn field(&self, field: Field) -> bool {
        matches!(self, Failed::Checks(checks) if checks.contains(&Check::Field(field)))
    }
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.names().join(", "))
    }
}

/// The name a finding gives a subject's failure to answer: its id's
/// and its comment's, so stable across releases.
fn failure_name(kind: FailureKind) -> &'static str {
    match kind {
        FailureKind::Timeout => "adapter.timeout",
        FailureKind::NeverAnswered => "server.never-answered",
        FailureKind::Blocked => "subject.blocked-on-fifo",
        FailureKind::ServerCrashed => "server.crashed",
        FailureKind::ServerFailed => "server.failed",
        FailureKind::BadOutput => "adapter.bad-output",
        FailureKind::WrongSeq => "adapter.wrong-seq",
        FailureKind::Unsolicited => "adapter.unsolicited",
        FailureKind::Cancelled => "adapter.cancelled",
        FailureKind::Start => "adapter.start",
        FailureKind::Crash | FailureKind::GaveUp => "adapter.crash",
    }
}
