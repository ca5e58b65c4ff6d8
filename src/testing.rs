//! Test support shared by unit tests.

use std::os::unix::process::CommandExt;
use std::process::Command;

use crate::sys::{UNPRIVILEGED_USER, is_root};

/// Permission bits are not enforced for root, so a permission test run as
/// root would observe nothing and prove nothing. As root, this runs the
/// named test again, alone, in a child process of this test binary as
/// `nobody`, asserts that it ran and passed there, and returns `false` (the
/// caller returns). Unprivileged, it returns `true`: run the body here.
///
/// The child needs to read and execute the test binary; as everywhere in
/// toolpath, a checkout `nobody` cannot read is an error, never a skip.
pub fn unprivileged_or_rerun(test: &str) -> bool {
    if !is_root() {
        return true;
    }
    let binary = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(&binary)
        .args([test, "--exact", "--test-threads=1", "--nocapture"])
        .uid(UNPRIVILEGED_USER.0)
        .gid(UNPRIVILEGED_USER.1)
        .current_dir("/")
        .env("TMPDIR", std::env::temp_dir())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} as nobody: {e}", binary.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{test} as nobody: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    false
}
