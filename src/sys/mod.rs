//! The operating system: every Linux system call toolpath makes outside
//! the standard library, as safe functions, and the only home of `unsafe`
//! and `cfg(target_os)`.
//!
//! Everything goes through [`rustix`] (maintained, safe bindings; raw
//! system calls on Linux, so they are also safe to make between `fork` and
//! `exec`) rather than scattered `unsafe` `libc` calls. What a caller needs
//! is named for what it is for (`is_tmpfs`, [`tie_to_parent`]), not for the
//! call behind it, so a port to another system replaces this folder alone.
//!
//! Outside this folder, exactly this use of `rustix` is allowed
//! (`tests/system_calls.rs` fails on any other module or item; clippy, on
//! the calls and types `clippy.toml` lists; the compiler, on `unsafe`):
//!
//! 1. `rustix::fs`: the descriptor-relative file operations and their
//!    types (`openat`, `mkdirat`, `statat`, `fstat`, `readlinkat`,
//!    `symlinkat`, `mknodat`, `unlinkat`, `renameat_with`, `chmodat`,
//!    `fchmod`, `chownat`, `fchown`, `futimens`, `Dir`, `OFlags`, `Mode`,
//!    `AtFlags`, ...), imported by name. Building, walking, comparing and
//!    removing trees through open directories, never through a path a
//!    link could redirect, is what the fixture, snapshot, tree, run
//!    directory and cleaning code are about: these POSIX calls are their
//!    vocabulary, as `std::fs` is elsewhere, and wrapping each one here
//!    would only rename it. Not `flock`, `statfs`/`fstatfs`/`statvfs` or
//!    `access`: what they decide (a lock, tmpfs, permission) is asked of
//!    this folder.
//! 2. `rustix::io::{Errno, dup, fcntl_dupfd_cloexec}` and `rustix::fd`: the
//!    error and descriptor types those operations need.
//!
//! Everything else is here: processes and signals, capabilities and
//! `prctl`, polling, random numbers, locks and file-system types.
//!
//! Floor 1: imports nothing from the crate.

#[cfg(not(target_os = "linux"))]
compile_error!(
    "toolpath runs on Linux only: port src/sys/ (process groups, PR_SET_PDEATHSIG, \
     PR_SET_CHILD_SUBREAPER, statfs, flock, poll) to this platform first"
);

pub mod cancel;
#[cfg(target_os = "linux")]
mod confine;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use confine::*;
#[cfg(target_os = "linux")]
pub use linux::*;
