//! toolpath: a conformance suite and executable reference spec for how
//! AI coding-agent tools handle path parameters.
//!
//! The pieces, in the order data flows through them:
//!
//! - [`spec`]: requirement IDs read from the normative `spec/README.md`;
//! - [`case`] (raw YAML) and [`model`] (validated cases);
//! - [`fixture`]: each case's workspace, built in a temporary directory;
//! - [`subject`], [`reference`], [`adapter`]: who answers the calls;
//! - [`compare`], [`run`], [`expectations`]: judging the answers;
//! - [`report`]: the canonical JSON report everything else is rendered from.

pub mod adapter;
pub mod case;
pub mod cli;
pub mod compare;
pub mod exit;
pub mod expectations;
pub mod export;
pub mod fixture;
pub mod model;
pub mod protocol;
pub mod reference;
pub mod render;
pub mod report;
pub mod run;
pub mod schemas;
pub mod select;
pub mod serve;
pub mod spec;
pub mod subject;
pub mod suite;

/// The suite version: of the cases and spec this build carries.
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");
