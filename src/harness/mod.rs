//! Judging: runs case instances against a subject, compares each answer
//! with its expectation, and applies the implementation's baseline of
//! known failures.
//!
//! The flow of one instance, module by module:
//!
//! - [`run`]: the loop over instances: workers in parallel, the shared
//!   counts, instances no worker could take (`not_run`, with the reason);
//! - [`worker`]: one worker and its subjects: builds the fixture, sends the
//!   call, judges the answer, and charges a protocol violation found late
//!   to the report it belongs to;
//! - [`route`]: where an instance goes: unsupported, skipped (with the
//!   reason), or sent to the subject or to its unprivileged copy;
//! - [`call`]: the one place a call is built from an instance and a fixture;
//! - [`expected`]: what one instance expects on its fixture, derived rules
//!   included, computed before the call;
//! - [`snapshot`]: the fixture's state before and after a call, and what
//!   changed (SEC-11);
//! - [`watch`]: the paths a call names in the subject's own scratch
//!   directory (`{adapter-tmp}`), outside the fixture, before and after it
//!   (owner, times and attributes included);
//! - [`reach`]: a canary in the subject's own temporary directory, `HOME`
//!   and working directory, which the fixture does not hold, for cases
//!   that ask for it;
//! - [`judge`]: an answer against its expectation, value by value;
//! - [`truncation`]: what an answer that says it stopped early is judged
//!   against (OUT-6);
//! - [`containment`]: whether anything got out of the workspace (escape,
//!   refusal, false refusal), apart from how the answer was worded;
//! - [`outside`]: what an answer carried out of the workspace, judged on
//!   the fixture as built (SEC-12's read, list and exec channels);
//! - [`interference`]: an answer against the answer on the fixture's
//!   twin, which differs only outside every root (SEC-12's
//!   non-interference), noise left out;
//! - [`judged_call`]: one call on a subject, from making it ready to its
//!   verdict (the fixture handed to the subject's user, the FIFO bound,
//!   the fixture's changes and SEC-12 included): the one path the worker
//!   and the fuzzer both take;
//! - [`caps`]: the caps on what one instance keeps in the report;
//! - [`baseline`]: known failures (`xfail`) and skips per implementation;
//! - [`config`]: how a run is configured and what it finds around it
//!   (the machine, whether it was cancelled), shared by run and worker;
//! - `known_cases` (unit tests only): the cases and scripted answers the tests
//!   of `run`, `worker` and the session share.
//!
//! May import the floors below (ARCHITECTURE.md): `sys`, `case`,
//! `reference`, `report`, `subject` and the suite model; not `mcp`, whose
//! servers it sees only as a `Subject`. Nothing below imports it.

pub mod baseline;
pub mod call;
pub mod caps;
pub mod config;
pub mod containment;
pub mod expected;
pub mod interference;
pub mod judge;
pub mod judged_call;
#[cfg(test)]
pub(crate) mod known_cases;
pub mod outside;
pub mod path_fold;
pub mod reach;
pub mod route;
pub mod run;
pub mod snapshot;
pub mod truncation;
pub mod watch;
pub mod worker;
