//! `toolpath fuzz`: find what the hand-written cases miss, and write the
//! missing case.
//!
//! Random workspaces and calls go to the in-process reference and to an
//! adapter; where the complete answers differ, the input is shrunk to a
//! minimal one and written as a case file for a human to review.
//!
//! - [`sample`]: one generated input and its rendering into a valid fixture and call;
//! - [`generate`]: the proptest strategies that make samples;
//! - [`probe`]: one sample against both subjects;
//! - [`divergence`]: where two complete results differ (the one comparison);
//! - [`rules`]: which requirement IDs a call exercises;
//! - [`shrink`]: toward the minimal sample with the same divergence;
//! - [`simplify`]: the one-step-simpler samples shrinking tries last;
//! - [`finding`]: a shrunk divergence as a case file;
//! - [`run`]: the loop over iterations, workers, deduplication and known findings.

pub mod divergence;
pub mod finding;
pub mod generate;
pub mod probe;
pub mod rules;
pub mod run;
pub mod sample;
pub mod shrink;
pub mod simplify;
