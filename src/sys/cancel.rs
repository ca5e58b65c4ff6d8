//! Stopping a run early on SIGINT or SIGTERM without losing anything: the
//! low-level flag and wake-up descriptor. A [`crate::session::Session`]
//! installs the handlers when a run (or a fuzzing run) starts and turns the
//! signal into the exit code when it ends (128 + the signal); the harness
//! and the adapters' readers only ask whether it came.
//!
//! The handlers come from signal-hook: what a signal handler may do is narrow
//! (async-signal-safe calls only), and that crate is the well-kept, widely
//! used home of handlers that only set atomics and write to a pipe, which is
//! all this needs. A signal records which one came and writes a byte to one
//! end of a socket pair whose other end is never read, so that end stays
//! readable: every thread that waits on an adapter's output polls it too and
//! sees the cancellation at once, with no polling loop and no sleep. The run
//! then stops sending cases, ends its adapters, removes its temporary
//! directories and writes its reports marked partial.
//!
//! A second SIGINT or SIGTERM ends the process with the default action, for
//! when the clean-up itself is stuck; what it leaves, `toolpath clean` (or
//! the next run) removes.

use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The first signal received, 0 while none.
static SIGNAL: AtomicUsize = AtomicUsize::new(0);
/// Set by the first signal; a second one then takes the default action.
static SEEN: AtomicBool = AtomicBool::new(false);
/// The end of the wake-up pair that becomes readable on a signal.
static WAKE: OnceLock<UnixStream> = OnceLock::new();

/// Installs the handlers (once per process; later calls do nothing).
pub fn install() -> io::Result<()> {
    if WAKE.get().is_some() {
        return Ok(());
    }
    let (read, write) = UnixStream::pair()?;
    for signal in [super::SIGINT, super::SIGTERM] {
        // Registration order is the order the actions run in: the default
        // action is taken only if an earlier signal already set SEEN.
        signal_hook::flag::register_conditional_default(signal, &SEEN)?;
        signal_hook::flag::register_usize(signal, &SIGNAL, signal as usize)?;
        signal_hook::flag::register(signal, &SEEN)?;
        signal_hook::low_level::pipe::register(signal, write.try_clone()?)?;
    }
    let _ = WAKE.set(read);
    Ok(())
}

/// The signal that cancelled the run, if one did.
pub fn signal() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        n => Some(n as i32),
    }
}

/// Whether the run was cancelled.
pub fn requested() -> bool {
    signal().is_some()
}

/// A descriptor that becomes readable (and stays so) when the run is
/// cancelled; `None` until [`install`] ran.
pub fn wake_fd() -> Option<RawFd> {
    WAKE.get().map(|s| s.as_raw_fd())
}

/// The signal's name, for reasons in reports.
pub use super::signal_name;
