//! Exit codes of the `toolpath` command, one per kind of outcome, so CI
//! scripts can tell a wrong implementation from a broken setup.
//!
//! A run cancelled by SIGINT or SIGTERM exits with 128 + the signal number
//! (130, 143), as a shell reports a process killed by it, after writing
//! every requested report marked partial.

/// Every case ended as expected (pass, xfail, skip, unsupported).
pub const OK: i32 = 0;
/// At least one unexpected result: fail, adapter error, a case that could not
/// be built, or (with `--strict`) an xfail that passed.
pub const UNEXPECTED: i32 = 1;
/// Bad usage or invalid cases: nothing was judged. Always found before the
/// first case runs.
pub const USAGE: i32 = 2;
/// Some cases did not run, because of the adapter: it could not be started
/// (no case ran; each says why), or it was given up on after too many
/// restarts. The reports are written and marked partial.
pub const PARTIAL: i32 = 3;
/// A report, the event log or the expectations file could not be written.
/// A report file that cannot be created is found before any case runs.
pub const REPORT: i32 = 4;
/// Nothing was judged: every instance was unsupported, skipped or not run
/// (for example an adapter that declares no tools). Like pytest's "no tests
/// collected", a gate that cannot fail is not a pass.
pub const NOTHING_JUDGED: i32 = 5;
