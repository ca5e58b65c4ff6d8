//! What a subject can reach outside its fixture that the fixture does not
//! hold (SEC-9, SEC-12): its own temporary directory (`{adapter-tmp}`, its
//! `TMPDIR`, private to the process the call goes to), the private `HOME`
//! an adapter or an MCP server gets below it (`{adapter-tmp}/home`), and
//! the private working directory an adapter is started in
//! (`{adapter-tmp}/work`). A tool that allows these beside the roots on
//! its own, as one MCP file server allows `/tmp` and `$HOME` and many
//! tools their process's directory, shows nothing on a fixture alone: so
//! before each call the harness puts a file of its own in each,
//! [`CANARY_FILE`], holding a canary drawn for that call, which the cases
//! of `security.scratch` ask for. The canary anywhere in an answer is a
//! read escape ([`crate::harness::outside`]), as an outside file's is.
//!
//! The directory is the subject's, which may have put anything at that
//! name (a link to a file of the harness's user, a FIFO): the name is
//! removed, then made again as a new file (`O_EXCL`, no link followed),
//! through a handle on the directory opened without following a link.
//! A directory the harness cannot write to gets no canary.

use std::io::Write;
use std::path::Path;

use rustix::fs::{AtFlags, Mode, OFlags};

use crate::case::fixture::canary;
use crate::case::tree::DirHandle;

/// The name of the canary file in the subject's temporary directory, as
/// cases name it: `{adapter-tmp}/toolpath-canary.txt`.
pub const CANARY_FILE: &str = "toolpath-canary.txt";

/// Puts a fresh canary in `scratch` (the subject's temporary directory),
/// readable by every user, and returns it; `None` when it could not.
pub fn plant(scratch: &Path) -> Option<String> {
    let draw = crate::sys::random_u64().ok()?;
    let token = canary(draw, 0);
    let dir = DirHandle::open(scratch).ok()?;
    let name = c"toolpath-canary.txt";
    match rustix::fs::unlinkat(&dir, name, AtFlags::empty()) {
        Ok(()) | Err(rustix::io::Errno::NOENT) => {}
        Err(_) => return None,
    }
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = rustix::fs::openat(&dir, name, flags, Mode::from_raw_mode(0o644)).ok()?;
    // The bits are the file's whatever the harness's umask is.
    rustix::fs::fchmod(&fd, Mode::from_raw_mode(0o644)).ok()?;
    let mut file = std::fs::File::from(fd);
    file.write_all(format!("{token}\n").as_bytes()).ok()?;
    Some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_canary_is_made_anew_and_never_written_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let aside = dir.path().join("aside.txt");
        std::fs::write(&aside, "mine\n").unwrap();
        let scratch = dir.path().join("scratch");
        std::fs::create_dir(&scratch).unwrap();
        std::os::unix::fs::symlink(&aside, scratch.join(CANARY_FILE)).unwrap();
        let first = plant(&scratch).unwrap();
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), "mine\n");
        let planted = scratch.join(CANARY_FILE);
        assert!(!planted.is_symlink());
        assert_eq!(
            std::fs::read_to_string(&planted).unwrap(),
            format!("{first}\n")
        );
        let second = plant(&scratch).unwrap();
        assert_ne!(first, second, "drawn anew for every call");
        assert!(second.starts_with("toolpath-canary-"));
        assert_eq!(plant(&dir.path().join("missing")), None);
    }
}
