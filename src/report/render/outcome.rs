//! The two questions every renderer asks of a status, answered once.
//!
//! *Did the run go as expected?* is what CI acts on: it follows the exit
//! code, so an expected failure is fine and an unexpected pass is a failure
//! only under `--strict`. *Does the implementation conform?* is what a
//! certification shows: an expected failure is still a failure to conform,
//! and a case that was not judged says nothing either way. Mixing the two
//! would let an expectations file turn a certification green.

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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    /// Of `failed`, how many the expectations file already lists.
    pub xfail: usize,
    /// Agreed on what could be seen; some expected field unobservable.
    pub unobserved: usize,
    pub unsupported: usize,
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
        match Conformance::of(status) {
            Conformance::Conforms => self.passed += 1,
            Conformance::Fails => self.failed += 1,
            Conformance::NotObservable => self.unobserved += 1,
            Conformance::Unsupported => self.unsupported += 1,
            Conformance::NotJudged => self.skipped += 1,
        }
        if status == Status::Xfail {
            self.xfail += 1;
        }
    }

    /// Instances that say something about conformance; unsupported and
    /// unjudged ones do not, so they neither help nor hurt.
    pub fn applicable(&self) -> usize {
        self.passed + self.failed
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
    fn expected_failures_do_not_conform() {
        assert_eq!(Conformance::of(Status::Xfail), Conformance::Fails);
        assert_eq!(RunOutcome::of(Status::Xfail, true), RunOutcome::Skipped);
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
    }
}
