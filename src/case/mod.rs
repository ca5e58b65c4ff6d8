//! Cases: from YAML text to validated cases, their fixtures on disk, and the
//! selection a run covers.
//!
//! - [`raw`]: the YAML shape exactly as written (what the editor schema describes);
//! - [`model`]: validated cases, every error located at file:line:column;
//! - [`suite`]: case directories, file names and ids;
//! - [`catalog`]: a run's cases by where they are, read again when they run;
//! - [`embedded`]: the suite in the binary, validated at build time;
//! - [`compact`]: how the embedded form writes parameters and file contents;
//! - [`coverage`]: how each requirement is pinned, per tool it applies to;
//! - [`select`]: which instances a run covers (filters and shards);
//! - [`fixture`]: each case's workspace, built in a temporary directory by
//!   open handles, within a deadline; its git repositories are written
//!   in-process (`fixture/git/`: no `git` is run, nothing configured is read);
//! - [`placeholders`]: `{ws}`, `{tmp}`, ... and their values on one fixture;
//! - [`write`]: a case back to file text (for tools that make cases);
//! - [`tree`]: never-follow walks over a built fixture (chown, unlock, remove).

pub mod catalog;
pub mod compact;
pub mod coverage;
pub mod embedded;
pub mod fixture;
pub mod model;
pub mod placeholders;
pub mod raw;
pub mod select;
pub mod suite;
pub mod tree;
pub mod write;
pub mod yaml;
