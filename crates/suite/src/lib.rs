//! The suite model of toolpath: everything that says what a case *is*,
//! with nothing that runs one.
//!
//! A case file, validated:
//!
//! ```
//! use std::path::Path;
//! use toolpath_suite::case::validate::parse_case;
//! use toolpath_suite::protocol::Tool;
//!
//! let case = parse_case(Path::new("file-target.yaml"), r#"
//! id: example.file.target
//! summary: A relative file path searches only that file.
//! spec: [SEARCH-5]
//! fixture:
//!   roots: [ws]
//!   files: {ws/src/a.ts: "hello\n"}
//! call:
//!   tool: search
//!   params: {pattern: hello, dir_path: src/a.ts}
//! expect:
//!   outcome: ok
//!   kind: file
//!   path: "{ws}/src/a.ts"
//! "#).unwrap();
//! assert_eq!(case.tools, [Tool::Grep, Tool::Ripgrep]);
//! ```
//!
//! - [`protocol`]: the messages every implementation answers in;
//! - [`spec`]: requirement IDs read from the normative `spec/README.md`;
//! - [`params`]: the parameters each tool takes, its path among them;
//! - [`placeholders`]: `{ws}`, `{tmp}`, ... and their values on one fixture;
//! - [`case`]: case files, from bytes on disk to validated cases, and the
//!   compact form the binary embeds;
//! - [`wildcard`]: the one wildcard matcher, linear time, in SEARCH-9's
//!   syntax (`include`, `--filter`, expectations keys) and GLOB-5's (the
//!   `glob` tool).
//!
//! This crate is the bottom floor of toolpath (`ARCHITECTURE.md`): it
//! imports nothing of the main crate, and both the main crate and its
//! `build.rs` (which validates and embeds `cases/`) depend on it.

#![forbid(unsafe_code)]

pub mod case;
pub mod params;
pub mod placeholders;
pub mod protocol;
pub mod sanitize;
pub mod spec;
pub mod wildcard;

/// An enum's variants as an array, from strum's list (`VariantArray`):
/// what `Tool::ALL` and `Status::ALL` are, so a variant added to the enum
/// is in them with no list to keep by hand, and per-variant tables can be
/// sized by the array's length.
pub const fn variant_array<T: Copy, const N: usize>(variants: &[T]) -> [T; N] {
    assert!(variants.len() == N, "one element per variant");
    let mut all = [variants[0]; N];
    let mut i = 0;
    while i < N {
        all[i] = variants[i];
        i += 1;
    }
    all
}
