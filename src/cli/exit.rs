//! Exit codes of the `toolpath` command, one per kind of outcome, so CI
//! scripts can tell a wrong implementation from a broken setup.

/// Every case ended as expected (pass, xfail, skip, unsupported).
pub const OK: i32 = 0;
/// At least one unexpected result: fail, adapter error, a case that could not
/// be built, or (with `--strict`) an xfail that passed.
pub const UNEXPECTED: i32 = 1;
/// Bad usage or invalid cases: nothing was judged.
pub const USAGE: i32 = 2;
/// The adapter was given up on after too many restarts; some cases did not run.
pub const PARTIAL: i32 = 3;
