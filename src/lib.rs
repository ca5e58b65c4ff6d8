//! toolpath: a conformance suite and executable reference spec for how
//! AI coding-agent tools handle path parameters.
//!
//! A case, run against the built-in reference:
//!
//! ```
//! use std::path::Path;
//! use toolpath_suite::case::validate::parse_case;
//! use toolpath::report::Status;
//! use toolpath::harness::config::{RunConfig, SubjectFactory};
//! use toolpath::harness::run::run;
//! use toolpath::subject::{Reference, Subject};
//!
//! let case = parse_case(Path::new("example.yaml"), r#"
//! id: example.file.target
//! summary: A relative file path searches only that file.
//! spec: [SEARCH-5]
//! fixture:
//!   roots: [ws]
//!   files: {ws/src/a.ts: "hello\n", ws/src/b.ts: "hello\n"}
//! call:
//!   tool: search
//!   params: {pattern: hello, dir_path: src/a.ts}
//! expect:
//!   outcome: ok
//!   kind: file
//!   path: "{ws}/src/a.ts"
//!   matches: ["{ws}/src/a.ts:1"]
//! "#).unwrap();
//! let instances: Vec<_> = case.instances().collect(); // grep and ripgrep
//! let reference: &SubjectFactory = &|| Ok(Box::new(Reference::default()) as Box<dyn Subject + Send>);
//! let report = run(&instances, reference, &RunConfig::default());
//! assert!(report.cases.iter().all(|c| c.status == Status::Pass));
//! assert_eq!(report.summary.pass, 2);
//! ```
//!
//! The pieces, in the order data flows through them:
//!
//! - [`toolpath_suite`] (its own crate, the bottom floor): the protocol
//!   messages, the spec's requirement IDs, case files from bytes to
//!   validated cases, and the one wildcard matcher;
//! - [`case`]: the catalog of a run's cases, selection, coverage, and
//!   fixtures built on disk;
//! - [`subject`] (with [`reference`]): who answers the calls, in-process or
//!   an adapter over stdio;
//! - [`mcp`]: an MCP server as the subject, from a profile alone;
//! - [`harness`]: runs the instances and judges each answer;
//! - [`report`]: the canonical JSON report, and every view rendered from it;
//! - [`fuzz`]: random calls against the reference and an adapter, shrunk
//!   into case files where they disagree;
//! - [`session`]: a run's lifetime (its directory, signals, the sealed
//!   event spool, delivery of reports, the exit code), for `run` and `fuzz`;
//! - [`cli`]: the `toolpath` command's subcommands, one file each;
//! - [`sys`]: the Linux system calls, signals and the cancellation flag a
//!   session installs.
//!
//! Foreign text (adapter output, case values) is made safe for every place
//! it is shown by [`toolpath_suite::sanitize`].
//!
//! Which module may import which is in `ARCHITECTURE.md` (floors).
//! `unsafe` code is refused everywhere but `src/sys`, the one home of the
//! program's system calls (`tests/system_calls.rs` holds the rest of that
//! rule: which `rustix` items may be used outside it).

#![deny(unsafe_code)]

pub mod case;
pub mod cli;
pub mod fuzz;
pub mod harness;
pub mod mcp;
pub mod reference;
pub mod report;
pub mod session;
pub mod subject;
#[allow(unsafe_code, clippy::disallowed_methods, clippy::disallowed_types)]
pub mod sys;
#[doc(hidden)]
pub mod test_support;

/// The suite version: of the cases and spec this build carries.
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");
