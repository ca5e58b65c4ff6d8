//! How a run ended, as the process exit code CI scripts read: one variant
//! per kind of outcome, so a wrong implementation is told apart from a
//! broken setup. The numbers are the command's interface (README, `toolpath
//! --help`); [`ExitCode::code`] is the one place they are written.

/// The outcome of a `toolpath` command, in the terms of its exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExitCode {
    /// 0: every case ended as expected (pass, xfail, skip, unsupported).
    Ok,
    /// 1: at least one unexpected result: a fail, an adapter error, a case
    /// that could not be built, or (with `--strict`) an xfail that passed.
    Unexpected,
    /// 2: bad usage or invalid cases: nothing was judged. Always found
    /// before the first case runs.
    Usage,
    /// 3: some cases did not run because of the adapter: it could not be
    /// started, or was given up on after too many restarts. The reports are
    /// written and marked partial.
    Partial,
    /// 4: a report, the event log or the expectations file could not be
    /// written, or the run's own event log did not verify when read back.
    /// A report file that cannot be created is found before any case runs.
    Report,
    /// 5: nothing was judged: every instance unsupported, skipped or not
    /// run (an adapter that declares no tools). Like pytest's "no tests
    /// collected", a gate that cannot fail is not a pass.
    NothingJudged,
    /// 128 + the signal (130 for SIGINT, 143 for SIGTERM), as a shell
    /// reports a process the signal killed: the run was cancelled after
    /// writing every requested report, marked partial.
    Cancelled(i32),
}

impl ExitCode {
    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            ExitCode::Ok => 0,
            ExitCode::Unexpected => 1,
            ExitCode::Usage => 2,
            ExitCode::Partial => 3,
            ExitCode::Report => 4,
            ExitCode::NothingJudged => 5,
            // Signal numbers are small; anything else is still a failure.
            ExitCode::Cancelled(signal) => u8::try_from(128 + signal).unwrap_or(1),
        }
    }

    /// Whether the command succeeded.
    pub fn is_ok(self) -> bool {
        self == ExitCode::Ok
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> Self {
        std::process::ExitCode::from(code.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_has_its_documented_number() {
        let codes = [
            (ExitCode::Ok, 0),
            (ExitCode::Unexpected, 1),
            (ExitCode::Usage, 2),
            (ExitCode::Partial, 3),
            (ExitCode::Report, 4),
            (ExitCode::NothingJudged, 5),
            (ExitCode::Cancelled(crate::sys::SIGINT), 130),
            (ExitCode::Cancelled(crate::sys::SIGTERM), 143),
        ];
        for (code, number) in codes {
            assert_eq!(code.code(), number, "{code:?}");
        }
    }
}
