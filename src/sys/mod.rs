//! The operating system: every Linux system call toolpath makes outside
//! the standard library, as safe functions, and the only home of `unsafe`
//! and `cfg(target_os)`.
//!
//! Everything goes through [`rustix`] (maintained, safe bindings; raw
//! system calls on Linux, so they are also safe to make between `fork` and
//! `exec`) rather than scattered `unsafe` `libc` calls. What a caller needs
//! is named for what it is for (`is_tmpfs`, [`die_with_parent`]), not for the
//! call behind it, so a port to another system replaces this folder alone.
//!
//! Floor 1: imports nothing from the crate.

#[cfg(not(target_os = "linux"))]
compile_error!(
    "toolpath runs on Linux only: port src/sys/ (process groups, PR_SET_PDEATHSIG, \
     PR_SET_CHILD_SUBREAPER, statfs, flock, poll) to this platform first"
);

pub mod cancel;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::*;
