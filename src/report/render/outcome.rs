//! The two questions every renderer asks of a status, answered once.
//!
//! *Did the run go as expected?* is what CI acts on: it follows the exit
//! code, so an expected failure is fine and an unexpected pass is a failure
//! only under `--strict`. *Does the implementation conform?* is what a
//! certification shows: an expected failure is still a failure to conform,
//! and a case that was not judged says nothing either way. Mixing the two
//! would let an expectations file turn a certification green. The second
//! question's answer ([`Conformance`](crate::report::conformance::Conformance))
//! is counted per rule in the header, so it lives with the counts.

use crate::report::Status;

/// What a status means for the run, in the categories JUnit and the plain
/// closing line of the human report use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOutcome {
    /// Judged and as required (pass; an xpass unless strict).
    Passed,
    /// A wrong answer that makes the run unsuccessful (fail; a strict xpass).
    Failed,
    /// The run could not judge the case (adapter error, case error); also
    /// unsuccessful, but a different kind of problem to chase.
    Errored,
    /// Not counted either way: skipped, unsupported, not run, or an
    /// expected failure.
    Skipped,
}

impl RunOutcome {
    pub fn of(status: Status, strict: bool) -> RunOutcome {
        match status {
            Status::Pass => RunOutcome::Passed,
            Status::Xpass if strict => RunOutcome::Failed,
            Status::Xpass => RunOutcome::Passed,
            Status::Fail => RunOutcome::Failed,
            Status::AdapterError | Status::CaseError => RunOutcome::Errored,
            // Agreeing on what could be seen is not a pass: JUnit and the
            // closing line count it with the skips, and say why.
            Status::Unobserved
            | Status::Skip
            | Status::Unsupported
            | Status::NotRun
            | Status::Xfail => RunOutcome::Skipped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_outcome_agrees_with_the_exit_code() {
        for strict in [false, true] {
            for status in Status::ALL {
                let unsuccessful = matches!(
                    RunOutcome::of(status, strict),
                    RunOutcome::Failed | RunOutcome::Errored
                );
                assert_eq!(
                    unsuccessful,
                    status.is_unexpected(strict),
                    "{status:?} strict={strict}"
                );
            }
        }
    }

    #[test]
    fn expected_failures_are_not_counted_for_the_run() {
        assert_eq!(RunOutcome::of(Status::Xfail, true), RunOutcome::Skipped);
    }
}
