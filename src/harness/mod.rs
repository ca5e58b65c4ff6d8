//! Judging: runs case instances against a subject, compares each answer with
//! its expectation, and applies the implementation's expectations file.
//!
//! - [`run`]: the run loop (routing, fixtures, workers);
//! - [`compare`]: an answer against its expectation, field by field;
//! - [`expectations`]: known failures (`xfail`) and skips per implementation.

pub mod compare;
pub mod expectations;
pub mod run;
pub mod workdir;
