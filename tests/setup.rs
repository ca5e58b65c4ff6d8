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
//! And the index of pinned files the Python runners' pip installs read
//! (scripts/pip-index), from a JSON API written to files here: exactly the
//! pins' files, each with its digest, which pip installs from and refuses
//! when a digest differs.

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

/// A JSON API in files, as scripts/pip-index reads PyPI's
/// (`$TOOLPATH_PYPI_JSON/NAME/json`): `demo` with two releases of a
/// wheel built here, `other-name` with one file given by a relative
/// address and yanked. Its `file://` address, and the wheel's digest.
fn json_api(dir: &Path) -> (String, String) {
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    // A wheel pip installs: one module and its dist-info.
    let built = Command::new("python3")
        .arg("-c")
        .arg(
            "import sys, zipfile\n\
             with zipfile.ZipFile(sys.argv[1], 'w') as w:\n\
             \x20   w.writestr('demo_mod.py', 'VALUE = 1\\n')\n\
             \x20   w.writestr('demo-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: demo\\nVersion: 1.0\\n')\n\
             \x20   w.writestr('demo-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')\n\
             \x20   w.writestr('demo-1.0.dist-info/RECORD', '')\n",
        )
        .arg(files.join("demo-1.0-py3-none-any.whl"))
        .status()
        .unwrap();
    assert!(built.success());
    let wheel = std::fs::read(files.join("demo-1.0-py3-none-any.whl")).unwrap();
    let digest: String = {
        use sha2::Digest;
        sha2::Sha256::digest(&wheel)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let api = dir.join("api");
    let file = |name: &str, url: String, sha: &str, python: &str, yanked: bool| {
        serde_json::json!({
            "filename": name, "url": url, "digests": {"sha256": sha},
            "requires_python": python, "yanked": yanked,
            "yanked_reason": if yanked { Some("broken <build>") } else { None },
        })
    };
    let wheel_url = format!("file://{}/demo-1.0-py3-none-any.whl", files.display());
    let demo = serde_json::json!({"releases": {
        "1.0": [file("demo-1.0-py3-none-any.whl", wheel_url, &digest, ">=3.8", false)],
        "2.0": [file("demo-2.0-py3-none-any.whl", "file:///nowhere/demo-2.0.whl".into(), "00", "", false)],
    }});
    let other = serde_json::json!({"releases": {
        "2.0": [file("other_name-2.0.tar.gz", "../../files/other_name-2.0.tar.gz".into(), "ab", "", true)],
    }});
    for (name, project) in [("demo", demo), ("other-name", other)] {
        std::fs::create_dir_all(api.join(name)).unwrap();
        std::fs::write(api.join(name).join("json"), project.to_string()).unwrap();
    }
    (format!("file://{}", api.display()), digest)
}

/// scripts/pip-index over `requirements` (written to a file): exit
/// code, standard output, standard error.
fn pip_index(dir: &Path, api: &str, requirements: &str) -> (i32, String, String) {
    let file = dir.join("requirements.txt");
    std::fs::write(&file, requirements).unwrap();
    let _ = std::fs::remove_dir_all(dir.join("index"));
    let out = Command::new(Path::new(ROOT).join("scripts/pip-index"))
        .arg(dir.join("index"))
        .arg(&file)
        .env("TOOLPATH_PYPI_JSON", api)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap(),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// scripts/pip-index writes, for the pins of the requirements it is given,
/// an index of exactly those versions' files (each with its digest, its
/// `requires-python`, a yank), from which pip installs the pinned
/// version and refuses a file whose digest differs; a pin the API does not
/// list, or a line that is not a pin, fails it whole, naming which.
#[test]
fn the_pip_index_holds_the_pinned_files_alone_and_pip_installs_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let (api, digest) = json_api(dir.path());
    let (code, out, err) = pip_index(
        dir.path(),
        &api,
        "# the pins\ndemo==1.0\n\nOther_Name==2.0  # normalised\n",
    );
    assert_eq!(code, 0, "{err}");
    let index = dir.path().join("index");
    assert_eq!(out.trim(), format!("file://{}/", index.display()));
    let page = |name: &str| std::fs::read_to_string(index.join(name).join("index.html")).unwrap();
    let demo = page("demo");
    assert!(
        demo.contains(&format!(
            "-1.0-py3-none-any.whl#sha256={digest}\" data-requires-python=\"&gt;=3.8\">"
        )),
        "{demo}"
    );
    assert!(!demo.contains("2.0"), "only the pinned version: {demo}");
    let other = page("other-name");
    let relative_resolved = format!(
        "file://{}/files/other_name-2.0.tar.gz#sha256=ab",
        dir.path().display()
    );
    assert!(other.contains(&relative_resolved), "{other}");
    assert!(
        other.contains("data-yanked=\"broken &lt;build&gt;\""),
        "{other}"
    );

    // pip, kept to this index alone, installs the pinned wheel; with
    // another digest on its link, it refuses it.
    let venv = dir.path().join("venv");
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .unwrap();
    assert!(made.success());
    let install = |index: &str| {
        Command::new(venv.join("bin/pip"))
            .args([
                "install",
                "--no-deps",
                "--no-cache-dir",
                "--disable-pip-version-check",
            ])
            .arg("--target")
            .arg(dir.path().join("installed"))
            .arg("demo==1.0")
            .env("PIP_INDEX_URL", index)
            .env("PIP_CONFIG_FILE", "/dev/null")
            .env_remove("PIP_FIND_LINKS")
            .output()
            .unwrap()
    };
    let installed = install(out.trim());
    assert!(installed.status.success(), "{installed:?}");
    assert!(dir.path().join("installed/demo_mod.py").is_file());
    let _ = std::fs::remove_dir_all(dir.path().join("installed"));
    let page_file = index.join("demo/index.html");
    std::fs::write(&page_file, demo.replace(&digest, &"0".repeat(64))).unwrap();
    let refused = install(out.trim());
    assert!(!refused.status.success(), "a wrong digest must be refused");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("HASHES"),
        "{refused:?}"
    );

    // One pin not listed, or one line not a pin: nothing printed, the pin
    // or the line named.
    let (code, out, err) = pip_index(dir.path(), &api, "demo==1.0\ndemo==9.9\n");
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains("demo==9.9") && err.contains("lists no file of that version"),
        "{err}"
    );
    let (code, out, err) = pip_index(dir.path(), &api, "demo==1.0\ndemo>=1.0\n");
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("requirements.txt:2: not a pin"), "{err}");
}
