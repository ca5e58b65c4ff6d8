//! `toolpath fuzz`: find what the hand-written cases miss, and write the
//! missing case.
//!
//! Random workspaces and calls go to the in-process reference and to an
//! adapter; the reference's answer becomes the expectation a case would
//! hold, and the adapter's answer is judged against it by the harness's own
//! judge. Where the judge fails the adapter, the input is shrunk to a
//! minimal one and written as a case file for a human to review.
//!
//! - [`sample`]: one generated input and its rendering into a valid fixture and call;
//! - [`pools`]: the names, contents, patterns and keys a sample picks from, by index;
//! - [`generate`]: the proptest strategies that make samples;
//! - [`signature`]: what an input is made of, which tells findings apart;
//! - [`from_reference`]: the reference's answer as a case's expectation, with the spec's latitude;
//! - [`failed`]: what a divergence failed, the judge's checks or the subject's failure;
//! - [`probe`]: one sample against both subjects, judged;
//! - [`rules`]: which requirement IDs a call exercises;
//! - [`shrink`]: toward the minimal sample that fails the same check;
//! - [`simplify`]: the one-step-simpler samples shrinking tries last;
//! - [`finding`]: a shrunk divergence as a case file;
//! - [`run`]: the loop over iterations, workers, in-order recording and known findings.
//!
//! A fuzzing run's lifetime (its run directory, signals, the adapter's
//! processes, the findings written) is [`crate::session::fuzz`]'s.
//!
//! May import the floors below (ARCHITECTURE.md, floor 5): `harness`,
//! `mcp`, `subject`, `case`, `reference`, `report`, `sys` and the suite
//! model; never `session` or `cli` above it.

pub mod failed;
pub mod finding;
pub mod from_reference;
pub mod generate;
pub mod pools;
pub mod probe;
pub mod rules;
pub mod run;
pub mod sample;
pub mod shrink;
pub mod signature;
pub mod simplify;
