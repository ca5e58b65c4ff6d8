//! Test support shared by the unit tests of every floor and by the tests
//! in `tests/` (public for them, hidden from the docs, as
//! [`crate::subject::scripted`] is).

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

/// Whether this process is root. A test that needs root (to act as a
/// second user, to hand files over, to route permission cases to the
/// unprivileged copy) asks first: when this process is not root, the test
/// is skipped, loudly (SKIPPED, and `what` needs root), unless
/// `TOOLPATH_REQUIRE_ROOT` is set (as `scripts/test` and CI, which run as
/// root, set it): then it fails, so a test can never pass by not running
/// where it must run.
pub fn root_or_skip(what: &str) -> bool {
    if is_root() {
        return true;
    }
    let message = format!("{what} needs root, and this test is not root");
    assert!(
        std::env::var_os("TOOLPATH_REQUIRE_ROOT").is_none(),
        "{message} (TOOLPATH_REQUIRE_ROOT is set)"
    );
    eprintln!("SKIPPED: {message}");
    false
}

/// Asserts that `output` (what a command printed) shows a subject's
/// attack on the terminal, as `tests/adapters/hostile_text.py` and the
/// fake MCP server's `hostile-stderr` mode make it, without letting it
/// act: the attack's text is there (so it was shown, not dropped), but no
/// escape character, no carriage return (a terminal draws what follows
/// over the line it is on) and no line that reads as a run's closing line
/// (`9 passed, 0 failed`), wherever a terminal would start one.
pub fn assert_shown_harmlessly(output: &str) {
    assert!(
        output.contains("9 passed, 0 failed"),
        "the attack is not shown at all:\n{output}"
    );
    assert!(!output.contains('\u{1b}'), "a raw escape:\n{output}");
    assert!(!output.contains('\r'), "a carriage return:\n{output}");
    let fake = output
        .split(['\n', '\r'])
        .find(|line| line.trim_start().starts_with("9 passed"));
    assert_eq!(fake, None, "a line reads as a closing line:\n{output}");
}
