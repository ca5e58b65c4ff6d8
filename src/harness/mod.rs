//! Judging: runs case instances against a subject, compares each answer with
//! its expectation, and applies the implementation's expectations file.
//!
//! - [`run`]: the run loop (routing, fixtures, workers);
//! - [`expected`]: what one instance expects on its fixture, derived rules included;
//! - [`judge`]: an answer against its expectation, value by value;
//! - [`expectations`]: known failures (`xfail`) and skips per implementation.

pub mod expectations;
pub mod expected;
pub mod judge;
pub mod run;
