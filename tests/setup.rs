//! What `scripts/setup` (and `scripts/test`, which runs it) does with
//! Debian's package manager: every `apt-get` goes through `apt_get`
//! (scripts/apt-lib.sh), which waits for a lock another process holds
//! instead of exiting 100 at once, as the first `scripts/test` on a fresh
//! machine did, and gives up after a bounded wait with a sentence saying
//! so.
//!
//! Run for real against the system's `apt-get`, with every directory it
//! locks or writes moved into a temporary one (`Dir::State::Lists`,
//! `Dir::Cache`, dpkg's directory through `Dir::State::status`) and no
//! package source, so no network is read and nothing of the machine's is
//! touched or locked. The lock is held the way apt holds it (a `fcntl`
//! lock, by a python3 child) for a moment, then released: a call that
//! did not wait fails. No wall-clock time is asserted.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A private apt: the `-o` options that move what apt-get locks and
/// writes into `dir`.
struct PrivateApt {
    dir: tempfile::TempDir,
}

impl PrivateApt {
    fn new() -> PrivateApt {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["lists/partial", "cache/archives/partial", "parts", "dpkg"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        std::fs::write(dir.path().join("dpkg/status"), "").unwrap();
        PrivateApt { dir }
    }

    fn path(&self, sub: &str) -> PathBuf {
        self.dir.path().join(sub)
    }

    fn options(&self) -> String {
        let p = |sub: &str| self.path(sub).display().to_string();
        format!(
            "-o Dir::State::Lists={} -o Dir::Cache={} -o Dir::State::status={} \
             -o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts={}",
            p("lists"),
            p("cache"),
            p("dpkg/status"),
            p("parts")
        )
    }

    /// Holds `lock` as apt does until `seconds` have passed (or for ever
    /// with `None`); returns once it is held.
    fn hold(&self, lock: &str, seconds: Option<u32>) -> Child {
        let sleep = seconds.map_or("while True: time.sleep(60)".to_owned(), |s| {
            format!("time.sleep({s})")
        });
        let script = format!(
            "import fcntl, os, sys, time\n\
             fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o640)\n\
             fcntl.lockf(fd, fcntl.LOCK_EX)\n\
             print('held', flush=True)\n\
             {sleep}\n"
        );
        let mut child = Command::new("python3")
            .args(["-c", &script])
            .arg(self.path(lock))
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "held\n");
        child
    }

    /// `apt_get ARGS` from scripts/apt-lib.sh with this apt's options;
    /// (exit code, stderr).
    fn apt_get(&self, args: &str, wait: Option<&str>) -> (i32, String) {
        let mut command = Command::new("bash");
        command.args([
            "-c",
            &format!(
                ". '{ROOT}/scripts/apt-lib.sh' && apt_get {} {args}",
                self.options()
            ),
        ]);
        if let Some(wait) = wait {
            command.env("TOOLPATH_APT_LOCK_WAIT", wait);
        }
        let out = command.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

#[test]
fn apt_get_waits_for_a_lock_another_process_holds() {
    let apt = PrivateApt::new();
    // `apt-get update` takes the lists' lock; `install`, dpkg's.
    for (lock, args) in [
        ("lists/lock", "update -qq"),
        ("dpkg/lock-frontend", "install -y -qq"),
    ] {
        let mut holder = apt.hold(lock, Some(3));
        let (code, err) = apt.apt_get(args, None);
        holder.wait().unwrap();
        assert_eq!(code, 0, "apt_get {args} with {lock} held a moment:\n{err}");
    }
}

#[test]
fn apt_get_gives_up_on_a_lock_held_for_ever_and_says_so() {
    let apt = PrivateApt::new();
    for (lock, args) in [
        ("lists/lock", "update -qq"),
        ("dpkg/lock-frontend", "install -y -qq"),
    ] {
        let mut holder = apt.hold(lock, None);
        let (code, err) = apt.apt_get(args, Some("2"));
        holder.kill().unwrap();
        holder.wait().unwrap();
        assert_eq!(code, 100, "apt_get {args}:\n{err}");
        assert!(
            err.contains("the package manager's lock was still held after 2 s"),
            "apt_get {args}:\n{err}"
        );
    }
    let (code, err) = apt.apt_get("update -qq", Some("soon"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("TOOLPATH_APT_LOCK_WAIT must be a number of seconds"),
        "{err}"
    );
}

/// Every `apt-get` the setup scripts run is `apt_get`'s.
#[test]
fn the_setup_scripts_run_apt_get_only_through_apt_get_waiting() {
    let scripts = [
        "scripts/setup",
        "scripts/setup-chromium",
        "runners/common-node/setup-lib.sh",
    ];
    let mut direct = Vec::new();
    for script in scripts {
        let text = std::fs::read_to_string(Path::new(ROOT).join(script)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split('#').next().unwrap();
            if code.contains("apt-get ") && !code.contains("command -v apt-get") {
                direct.push(format!("{script}:{}: {line}", n + 1));
            }
        }
        let sources = text.contains("apt-lib.sh") || text.contains("setup-lib.sh");
        assert!(
            !text.contains("apt_get ") || sources,
            "{script} calls apt_get without sourcing it"
        );
    }
    assert!(
        direct.is_empty(),
        "apt-get run directly:\n{}",
        direct.join("\n")
    );
}
