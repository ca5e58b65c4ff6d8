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
//!
//! And how the Python runners' setups install their pins
//! (runners/common-python/setup-lib.sh's `install_pins`), against an
//! index of wheels made here.
//!
//! And two pieces of scripts/test itself: how scripts/test-lanes runs the
//! test binaries, and what scripts/test-rustc, the compiler cargo runs for
//! the workspace's crates there, passes on.
//!
//! scripts/test-lanes: after the setup, which installs the uv
//! `install_pins` runs.
//!
//! scripts/test-lanes: waits. Most of its time is spent waiting on locks
//! held on purpose.

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

/// A wheel of the one-module project `demo` at `version`, written into
/// `dir`; its module says which version it is (`VERSION`).
fn demo_wheel(dir: &Path, version: &str) {
    let built = Command::new("python3")
        .arg("-c")
        .arg(
            "import sys, zipfile\n\
             v = sys.argv[2]\n\
             with zipfile.ZipFile(sys.argv[1], 'w') as w:\n\
             \x20   w.writestr('demo_mod.py', f'VERSION = {v!r}\\n')\n\
             \x20   w.writestr(f'demo-{v}.dist-info/METADATA', f'Metadata-Version: 2.1\\nName: demo\\nVersion: {v}\\n')\n\
             \x20   w.writestr(f'demo-{v}.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')\n\
             \x20   w.writestr(f'demo-{v}.dist-info/RECORD', '')\n",
        )
        .arg(dir.join(format!("demo-{version}-py3-none-any.whl")))
        .arg(version)
        .status()
        .unwrap();
    assert!(built.success());
}

/// Whether the uv runners/common-python/setup-lib.sh installs
/// (`ensure_uv`, at the lib's own `uv_home`) is there, as scripts/setup
/// leaves it; when it is not and the runners are not required
/// (`TOOLPATH_REQUIRE_RUNNERS`), false, said on stderr.
fn uv_installed() -> bool {
    let out = Command::new("bash")
        .arg("-c")
        .arg(". runners/common-python/setup-lib.sh && printf %s \"$uv_home/bin/uv\"")
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let uv = PathBuf::from(String::from_utf8(out.stdout).unwrap());
    if uv.is_file() {
        return true;
    }
    assert!(
        std::env::var_os("TOOLPATH_REQUIRE_RUNNERS").is_none(),
        "{} is missing: scripts/setup installs it",
        uv.display()
    );
    eprintln!(
        "SKIPPED: {} is missing (scripts/setup installs it)",
        uv.display()
    );
    false
}

/// `install_pins` (runners/common-python/setup-lib.sh), as every Python
/// runner's setup.sh calls it, against an index of two versions of one
/// project: the venv holds the pinned version alone, compiled to byte
/// code (the adapter's user could not write it), and no pip; a file the
/// venv held already stays (openhands-tools' copy of its interpreter); a
/// pin the index lacks fails the setup.
#[test]
fn install_pins_puts_exactly_the_pins_compiled_in_a_venv_without_pip() {
    if !uv_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let wheels = dir.path().join("wheels");
    std::fs::create_dir(&wheels).unwrap();
    demo_wheel(&wheels, "1.0");
    demo_wheel(&wheels, "2.0");
    let venv = dir.path().join("venv");
    std::fs::create_dir(&venv).unwrap();
    std::fs::write(venv.join("own.txt"), "the runner's").unwrap();
    let install = |pins: &str| {
        let requirements = dir.path().join("requirements.txt");
        std::fs::write(&requirements, pins).unwrap();
        Command::new("bash")
            .arg("-c")
            .arg(". runners/common-python/setup-lib.sh && install_pins python3 \"$1\" \"$2\"")
            .arg("install_pins")
            .arg(&venv)
            .arg(&requirements)
            .current_dir(ROOT)
            .env("UV_NO_INDEX", "1")
            .env("UV_FIND_LINKS", &wheels)
            .env("UV_CACHE_DIR", dir.path().join("cache"))
            .output()
            .unwrap()
    };
    let out = install("# the pin\ndemo==1.0\n");
    assert!(out.status.success(), "{out:?}");
    let imported = Command::new(venv.join("bin/python"))
        // -B: this import writes no byte code of its own.
        .args([
            "-B",
            "-c",
            "import demo_mod; print(demo_mod.VERSION, demo_mod.__cached__)",
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&imported.stdout).into_owned();
    let (version, cached) = said.trim().split_once(' ').expect("version and cache path");
    assert_eq!(version, "1.0", "{imported:?}");
    assert!(Path::new(cached).is_file(), "not compiled: {cached}");
    assert!(!venv.join("bin/pip").exists(), "a venv without pip");
    assert_eq!(
        std::fs::read_to_string(venv.join("own.txt")).unwrap(),
        "the runner's"
    );

    let missing = install("demo==3.0\n");
    assert!(!missing.status.success(), "{missing:?}");
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("demo==3.0"),
        "{missing:?}"
    );
}

/// A test binary of a made-up `cargo test --no-run` build in `dir`: a
/// shell script running `script`, built from a source whose text is
/// `source` (where scripts/test-lanes reads its marks). The build's JSON
/// line for it.
fn fake_binary(dir: &Path, name: &str, source: &str, script: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(dir.join(format!("{name}.rs")), source).unwrap();
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, format!("#!/bin/sh\ncd {}\n{script}", dir.display())).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    serde_json::json!({
        "reason": "compiler-artifact",
        "package_id": format!("path+file://{}#demo@1.0.0", dir.display()),
        "manifest_path": dir.join("Cargo.toml"),
        "target": {"kind": ["test"], "name": name, "src_path": dir.join(format!("{name}.rs"))},
        "profile": {"test": true},
        "executable": path,
    })
    .to_string()
}

/// scripts/test-lanes over the build `binaries` (lines of [`fake_binary`]),
/// with `env`: its exit code and what it printed.
fn run_lanes(binaries: &[String], env: &[(&str, &Path)]) -> (i32, String) {
    let mut lanes = Command::new(Path::new(ROOT).join("scripts/test-lanes"))
        .env_remove("TOOLPATH_SETUP_STATUS")
        .env_remove("TOOLPATH_SETUP_LOG")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    writeln!(lanes.stdin.take().unwrap(), "{}", binaries.join("\n")).unwrap();
    let out = lanes.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap(), said)
}

/// scripts/test-lanes over two test binaries while a setup runs: `early`
/// starts at once and, a moment in, ends the setup with `status` (as
/// scripts/test's background setup writes it); `late`, whose source says
/// it needs the setup, records whether the setup had ended when it
/// started. The lanes' exit code and output, and what `late` recorded
/// (`None`: it never started).
fn lanes_around_a_setup(status: &str) -> (i32, String, Option<String>) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let setup_status = d.join("setup.status");
    let setup_log = d.join("setup.log");
    std::fs::write(&setup_log, "the setup's own words\n").unwrap();
    let status_file = setup_status.display();
    let early = fake_binary(
        d,
        "early",
        "// needs nothing\n",
        &format!(
            "sleep 1\necho {status} > {status_file}.tmp && mv {status_file}.tmp {status_file}\n"
        ),
    );
    let late = fake_binary(
        d,
        "late",
        "//! scripts/test-lanes: after the setup\n",
        &format!("if [ -f {status_file} ]; then echo ended; else echo running; fi > late.saw\n"),
    );
    let (code, said) = run_lanes(
        &[early, late],
        &[
            ("TOOLPATH_SETUP_STATUS", &setup_status),
            ("TOOLPATH_SETUP_LOG", &setup_log),
        ],
    );
    let saw = std::fs::read_to_string(d.join("late.saw")).ok();
    (code, said, saw.map(|s| s.trim().to_owned()))
}

/// The binaries that need the setup start once it has ended, the others
/// at once; its output is shown, and a setup that failed fails the run
/// and starts nothing more.
#[test]
fn test_lanes_start_what_needs_the_setup_once_it_has_ended() {
    let (code, said, saw) = lanes_around_a_setup("0");
    assert_eq!(code, 0, "{said}");
    assert_eq!(saw.as_deref(), Some("ended"), "{said}");
    assert!(
        said.contains("== scripts/setup") && said.contains("the setup's own words"),
        "{said}"
    );

    let (code, said, saw) = lanes_around_a_setup("3");
    assert_eq!(code, 101, "{said}");
    assert_eq!(saw, None, "nothing starts after a failed setup: {said}");
    assert!(
        said.contains("scripts/setup: exit 3") && said.contains("the setup's own words"),
        "{said}"
    );
}

/// How many binaries scripts/test-lanes ran at once, as each of
/// `binaries` (name, its source) saw it: each, once started, waits up to
/// `bound` tenths of a second for three to run (itself among them), then
/// records how many it saw. With `leave`, each removes its mark when it
/// ends, so that one started later does not count it (a binary that has
/// seen three must not leave while another may not have looked yet:
/// without `leave`, all are expected to run at once).
fn at_once(binaries: &[(&str, &str)], bound: u32, leave: bool) -> Vec<(String, usize)> {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("running")).unwrap();
    let build: Vec<String> = binaries
        .iter()
        .map(|(name, source)| {
            let script = format!(
                "touch running/{name}\nn=0\nwhile seen=$(ls running | wc -l); [ $seen -lt 3 ] && [ $n -lt {bound} ]; do sleep 0.1; n=$((n+1)); done\necho $seen > {name}.saw\n{}",
                if leave { format!("rm running/{name}\n") } else { String::new() }
            );
            fake_binary(d, name, source, &script)
        })
        .collect();
    let (code, said) = run_lanes(&build, &[]);
    assert_eq!(code, 0, "{said}");
    binaries
        .iter()
        .map(|(name, _)| {
            let saw = std::fs::read_to_string(d.join(format!("{name}.saw")))
                .unwrap_or_else(|e| panic!("{name} did not run ({e}): {said}"));
            (name.to_string(), saw.trim().parse().unwrap())
        })
        .collect()
}

/// A binary whose source says it mostly waits runs beside the two lanes,
/// three at once; binaries that do not are never three at once.
#[test]
fn test_lanes_run_a_waiting_binary_beside_the_two_lanes_and_no_third_other() {
    let waiting = "//! scripts/test-lanes: waits\n";
    let beside = at_once(&[("one", ""), ("two", ""), ("waits", waiting)], 600, false);
    assert_eq!(
        beside,
        [("one", 3), ("two", 3), ("waits", 3)].map(|(n, c)| (n.to_owned(), c)),
        "all three at once"
    );
    let others = at_once(&[("one", ""), ("two", ""), ("three", "")], 20, true);
    assert!(others.iter().all(|(_, seen)| *seen <= 2), "{others:?}");
}

/// scripts/test-rustc (cargo's wrapper under scripts/test) hands every
/// compilation to the clippy driver as cargo gave it, and adds `-C
/// opt-level=1` to the `toolpath` library's alone: not to its unit tests,
/// its binary, another crate or cargo's version probe.
#[test]
fn test_rustc_optimises_the_toolpath_library_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let driver = dir.path().join("driver");
    std::fs::write(&driver, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n").unwrap();
    std::fs::set_permissions(&driver, std::fs::Permissions::from_mode(0o755)).unwrap();
    let compile = |args: &[&str]| -> Vec<String> {
        let out = Command::new(Path::new(ROOT).join("scripts/test-rustc"))
            .env("TOOLPATH_CLIPPY_DRIVER", &driver)
            .arg("rustc")
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let given = |args: &[&str]| -> Vec<String> {
        std::iter::once("rustc")
            .chain(args.iter().copied())
            .map(str::to_owned)
            .collect()
    };
    let library = [
        "--crate-name",
        "toolpath",
        "--edition=2024",
        "src/lib.rs",
        "--crate-type",
        "lib",
        "-C",
        "overflow-checks=on",
    ];
    let mut optimised = given(&library);
    optimised.extend(["-C".to_owned(), "opt-level=1".to_owned()]);
    assert_eq!(compile(&library), optimised);
    let unit_tests = [&library[..], &["--test"]].concat();
    let others: [&[&str]; 5] = [
        &unit_tests,
        &[
            "--crate-name",
            "toolpath",
            "src/main.rs",
            "--crate-type",
            "bin",
        ],
        &[
            "--crate-name",
            "toolpath_suite",
            "crates/suite/src/lib.rs",
            "--crate-type",
            "lib",
        ],
        &["--crate-name", "mutants", "tests/mutants.rs", "--test"],
        &["-vV"],
    ];
    for args in others {
        assert_eq!(compile(args), given(args));
    }
}
