//! Cases as a run uses them: where they are, which of them run, and their
//! fixtures on disk. What a case *is* (raw and validated, loading,
//! placeholders) lives in the `toolpath_suite` crate, the floor below.
//!
//! - [`catalog`]: a run's cases by where they are, read again when they run;
//! - [`embedded`]: the suite in the binary, validated at build time;
//! - [`coverage`]: how each requirement is pinned, per tool it applies to;
//! - [`select`]: which instances a run covers (filters and shards);
//! - [`fixture`]: each case's workspace, built in a temporary directory by
//!   open handles, within a deadline; its git repositories are written
//!   in-process (`fixture/git/`: no `git` is run, nothing configured is read);
//! - [`write`]: a case back to file text (for tools that make cases);
//! - [`tree`]: never-follow walks over a built fixture (chown, unlock, remove).
//!
//! May import `toolpath_suite` and `crate::sys` (the floors below it,
//! `ARCHITECTURE.md`), nothing else of this crate.

pub mod catalog;
pub mod coverage;
pub mod embedded;
pub mod fixture;
pub mod select;
pub mod tree;
pub mod write;
