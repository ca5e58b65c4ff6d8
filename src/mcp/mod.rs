//! Certifying an MCP server from a profile, with no adapter code: the
//! server is the implementation under test, spoken to over MCP's stdio
//! transport, and the profile says how the suite's calls map onto its
//! tools and how its text answers read back.
//!
//! - [`profile`]: the profile file, its checks and JSON Schema;
//! - [`client`]: a synchronous MCP client over a [`transport`];
//! - [`transport`]: the line pipe it speaks over, a server process on the
//!   adapters' pipe supervision (bounded lines and waits, process groups);
//! - [`wire`]: the MCP messages it sends and reads, typed;
//! - [`command`]: the short commands a profile runs (its version, `git
//!   init`), bounded like the server;
//! - [`template`]: argument templates, for server tools that nest what
//!   the suite passes flat;
//! - [`translate`]: suite arguments to server arguments, server text to
//!   results, error codes by rule;
//! - [`server`]: the server as a [`crate::subject::Subject`].
//!
//! Floor 3½ (ARCHITECTURE.md): may import `sys`, `case`, `reference`,
//! `report`, `subject` and the suite model; `session` and `cli` import it,
//! the harness never does (it sees a `Subject`).

pub mod client;
pub mod command;
pub mod confined;
pub mod profile;
pub mod server;
pub mod template;
pub mod translate;
pub mod transport;
pub mod wire;
