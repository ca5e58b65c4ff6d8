//! Issue 41: the box, attacked through every command that starts a
//! subject (`run` and `fuzz` and `smoke` with an adapter, `run`,
//! `tools` and `call` with an MCP server), as root and as root without
//! `CAP_SYS_ADMIN` (a container's default: `setpriv` drops it from the
//! bounding set before toolpath starts).
//!
//! The subject is `tests/attackers/box.py`: it makes each attack before it
//! serves and logs what it got. Each attack is first made outside the box
//! (`box.py probe`, run by the test as root under the same terminal and
//! with the same inherited descriptor) and must do harm there: the attack
//! is real. Through every command it must then do none, judged by what is
//! left afterwards where the log alone cannot say (an IPC object or a file
//! in /tmp may be made inside the box, but must not outlive it). What the
//! box lacked (without `CAP_SYS_ADMIN`), every report of a run says: its
//! human, JSON, JUnit and Markdown reports, and the certification table
//! and page made from it.
//!
//! Root only: without root there is no other user to be.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The attacks every command is tried with.
const ATTACKS: &[&str] = &[
    "tty", "fds", "userns", "ipc", "tmp", "fill", "procs", "memory", "rootfile",
];

/// The attacks whose objects may be made inside the box but must not
/// outlive it: judged by what is left afterwards, not by the log. Every
/// other attack must be denied.
const JUDGED_BY_LEFTOVERS: &[&str] = &["ipc", "tmp"];

fn root_or_skip() -> bool {
    if toolpath::sys::is_root() {
        return true;
    }
    assert!(
        std::env::var_os("TOOLPATH_REQUIRE_ROOT").is_none(),
        "the box tests need root here"
    );
    eprintln!("skipped: the box tests need root");
    false
}

/// A scene: a directory every user may search, a log every user may
/// append to, a root-only secret and a root-owned file.
struct Scene {
    dir: tempfile::TempDir,
    mark: String,
}

impl Scene {
    fn new(name: &str) -> Scene {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::Builder::new()
            .prefix("box-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
        let scene = Scene {
            mark: format!(
                "toolpath-box-{name}-{}",
                dir.path().file_name().unwrap().to_string_lossy()
            ),
            dir,
        };
        // Files the subject writes, open to every user.
        for open in ["log", "peer"] {
            std::fs::write(scene.path(open), "").unwrap();
            std::fs::set_permissions(scene.path(open), std::fs::Permissions::from_mode(0o666))
                .unwrap();
        }
        std::fs::write(scene.path("secret"), "root's secret\n").unwrap();
        std::fs::set_permissions(scene.path("secret"), std::fs::Permissions::from_mode(0o600))
            .unwrap();
        std::fs::write(scene.path("root-file"), "root's\n").unwrap();
        std::fs::create_dir(scene.path("place")).unwrap();
        scene
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.path("log")).unwrap()
    }

    fn clear_log(&self) {
        std::fs::write(self.path("log"), "").unwrap();
    }

    /// `argv` run under a terminal of its own (a pty it leads, as a shell
    /// in a terminal would), holding the secret open on a descriptor
    /// without close-on-exec, with the attacker's environment; its output.
    fn under_a_terminal(&self, argv: &[String], without_sys_admin: bool) -> Output {
        let wrapper = r#"
import os, pty, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.set_inheritable(fd, True)
status = pty.spawn(sys.argv[2:])
sys.exit(os.waitstatus_to_exitcode(status))
"#;
        let mut command = Command::new("python3");
        command.args(["-c", wrapper]).arg(self.path("secret"));
        if without_sys_admin {
            command.args(["setpriv", "--bounding-set=-sys_admin", "--"]);
        }
        command
            .args(argv)
            .env("BOX_LOG", self.path("log"))
            .env("BOX_MARK", &self.mark)
            .env("BOX_ROOT_FILE", self.path("root-file"))
            .env("BOX_PEER", self.path("peer"))
            .env("BOX_GO", self.path("go"))
            .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// What is left of the attacks' traces once the subject is gone.
    fn leftovers(&self) -> Vec<String> {
        let mut left = Vec::new();
        for place in ["/tmp", "/var/tmp", "/dev/shm"] {
            let path = Path::new(place).join(&self.mark);
            if path.exists() {
                left.push(path.display().to_string());
            }
        }
        let check = format!(
            r#"
import ctypes, ctypes.util, os, sys
key = sum({mark:?}.encode()) * 7919 % (1 << 30) + 1
libc = ctypes.CDLL(None, use_errno=True)
rt = ctypes.CDLL(ctypes.util.find_library("rt"), use_errno=True)
for name, found in [("shm", libc.shmget(key, 0, 0)), ("msg", libc.msgget(key, 0)), ("sem", libc.semget(key, 0, 0)), ("mq", rt.mq_open({name:?}.encode(), os.O_RDONLY))]:
    if found >= 0:
        print(name)
"#,
            mark = self.mark,
            name = format!("/{}", self.mark),
        );
        let out = Command::new("python3")
            .args(["-c", &check])
            .output()
            .unwrap();
        left.extend(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_owned),
        );
        left
    }

    /// Removes what the control left (it runs as root, outside the box).
    fn clean_control(&self) {
        for place in ["/tmp", "/var/tmp", "/dev/shm"] {
            let _ = std::fs::remove_file(Path::new(place).join(&self.mark));
        }
        let clean = format!(
            r#"
import ctypes, ctypes.util
key = sum({mark:?}.encode()) * 7919 % (1 << 30) + 1
libc = ctypes.CDLL(None); rt = ctypes.CDLL(ctypes.util.find_library("rt"))
i = libc.shmget(key, 0, 0); i >= 0 and libc.shmctl(i, 0, None)
i = libc.msgget(key, 0); i >= 0 and libc.msgctl(i, 0, None)
i = libc.semget(key, 0, 0); i >= 0 and libc.semctl(i, 0, 0)
rt.mq_unlink({name:?}.encode())
"#,
            mark = self.mark,
            name = format!("/{}", self.mark),
        );
        Command::new("python3")
            .args(["-c", &clean])
            .status()
            .unwrap();
        std::fs::write(self.path("root-file"), "root's\n").unwrap();
    }
}

fn attacker(mode: &str) -> String {
    format!(
        "python3 {}/tests/attackers/box.py {mode} {}",
        env!("CARGO_MANIFEST_DIR"),
        ATTACKS.join(" ")
    )
}

/// The fake MCP server's profile with box.py as its server.
fn profile(scene: &Scene) -> PathBuf {
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/fake.profile.yaml");
    let mut words = vec![
        "python3".to_owned(),
        format!("{}/tests/attackers/box.py", env!("CARGO_MANIFEST_DIR")),
        "mcp".to_owned(),
    ];
    words.extend(ATTACKS.iter().map(|a| (*a).to_owned()));
    let command = format!(
        "command: [{}]",
        (words.iter().map(|w| format!("{w:?}")))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let text = std::fs::read_to_string(fake)
        .unwrap()
        .replace("command: [python3, \"{profile}/fake_server.py\"]", &command);
    let path = scene.path("box.profile.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Every command that starts a subject, as its arguments.
fn commands(scene: &Scene) -> Vec<(&'static str, Vec<String>)> {
    let bin = env!("CARGO_BIN_EXE_toolpath").to_owned();
    let place = scene.path("place").display().to_string();
    let profile = profile(scene).display().to_string();
    let words = |words: &[&str]| -> Vec<String> {
        let mut argv = vec![bin.clone()];
        argv.extend(words.iter().map(|w| (*w).to_owned()));
        argv
    };
    let adapter = attacker("adapter");
    let findings = scene.path("findings").display().to_string();
    vec![
        (
            "run --adapter",
            words(&[
                "run",
                "--cases",
                "tests/data/mini",
                "--jobs",
                "1",
                "--adapter",
                &adapter,
                "--fixture-dir",
                &place,
            ])
            .into_iter()
            .chain(reports(scene))
            .collect(),
        ),
        (
            "fuzz",
            words(&[
                "fuzz",
                "--adapter",
                &adapter,
                "--jobs",
                "1",
                "--iterations",
                "3",
                "--findings",
                &findings,
                "--fixture-dir",
                &place,
            ]),
        ),
        ("smoke --adapter", words(&["smoke", "--adapter", &adapter])),
        (
            "run --mcp",
            words(&[
                "run",
                "--cases",
                "tests/data/mcp",
                "--jobs",
                "1",
                "--mcp",
                &profile,
                "--fixture-dir",
                &place,
            ])
            .into_iter()
            .chain(reports(scene))
            .collect(),
        ),
        (
            "tools --mcp",
            words(&["tools", "--mcp", &profile, "--fixture-dir", &place]),
        ),
        (
            "call --mcp",
            words(&[
                "call",
                "--mcp",
                &profile,
                "--fixture-dir",
                &place,
                "info",
                "{\"path\": \"/\"}",
            ]),
        ),
    ]
}

/// Outside the box, each attack does harm: the test's control.
fn assert_attacks_are_real(scene: &Scene) {
    let argv: Vec<String> = [
        "python3",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/attackers/box.py"),
        "probe",
    ]
    .iter()
    .map(|w| (*w).to_owned())
    .chain(ATTACKS.iter().map(|a| (*a).to_owned()))
    .collect();
    let out = scene.under_a_terminal(&argv, false);
    let log = scene.log();
    let harmless = ["procs"]; // root has no process limit: judged inside only
    for attack in ATTACKS.iter().filter(|a| !harmless.contains(a)) {
        assert!(
            log.contains(&format!("{attack}: done")),
            "{attack} does no harm even outside the box, so proves nothing:\n{log}\n{out:?}"
        );
    }
    assert!(
        !scene.leftovers().is_empty(),
        "the control left nothing:\n{log}"
    );
    scene.clean_control();
    assert!(scene.leftovers().is_empty());
    scene.clear_log();
}

/// The report formats a run writes beside its human report on stdout,
/// as `--format` and `--output` arguments.
fn reports(scene: &Scene) -> Vec<String> {
    let mut argv = vec![
        "--format".to_owned(),
        "human".into(),
        "--output".into(),
        "-".into(),
    ];
    for format in ["json", "junit", "markdown"] {
        argv.extend(["--format".to_owned(), format.into(), "--output".into()]);
        argv.push(scene.path(format).display().to_string());
    }
    argv
}

/// What the box lacks without CAP_SYS_ADMIN, every report of the run
/// says, and the certification table and page made from it: a reader of
/// any one of them must not take the verdict for a protected one.
fn assert_reports_say_what_the_box_lacked(
    scene: &Scene,
    out: &Output,
    without_sys_admin: bool,
    shown: &str,
) {
    let read = |format: &str| std::fs::read_to_string(scene.path(format)).unwrap();
    let json = scene.path("json").display().to_string();
    let certify = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
            .args(["certification", "--format", format, &json])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let said = [
        (
            "human",
            String::from_utf8_lossy(&out.stdout).into_owned(),
            "NOT PROTECTED",
        ),
        ("junit", read("junit"), "NOT PROTECTED"),
        ("markdown", read("markdown"), "NOT PROTECTED"),
        (
            "certification table",
            certify("markdown"),
            "(not protected)",
        ),
        (
            "certification page",
            certify("html"),
            "not protected</strong>",
        ),
    ];
    for (report, text, mark) in said {
        // Markdown escapes the underscores.
        let unescaped = text.replace('\\', "");
        assert_eq!(
            text.contains(mark) && unescaped.contains("CAP_SYS_ADMIN"),
            without_sys_admin,
            "{report} of {shown}\n{text}"
        );
    }
    // The JSON report, through the report's own `unprotected` field.
    let report: toolpath::report::Report = serde_json::from_str(&read("json")).unwrap();
    assert_eq!(
        !report.unprotected.is_empty()
            && report
                .unprotected
                .iter()
                .any(|why| why.contains("CAP_SYS_ADMIN")),
        without_sys_admin,
        "json of {shown}\n{:?}",
        report.unprotected
    );
    for format in ["json", "junit", "markdown"] {
        std::fs::remove_file(scene.path(format)).unwrap();
    }
}

fn attack_every_command(without_sys_admin: bool) {
    let scene = Scene::new(if without_sys_admin { "nocap" } else { "root" });
    assert_attacks_are_real(&scene);
    for (name, argv) in commands(&scene) {
        let out = scene.under_a_terminal(&argv, without_sys_admin);
        let log = scene.log();
        let shown = format!("{name}:\n{log}\n{}", String::from_utf8_lossy(&out.stdout));
        for attack in ATTACKS.iter().filter(|a| !JUDGED_BY_LEFTOVERS.contains(a)) {
            assert!(
                log.contains(&format!("{attack}: denied")),
                "{attack} not tried or not denied through {shown}"
            );
            assert!(
                !log.contains(&format!("{attack}: done")),
                "{attack} did harm through {shown}"
            );
        }
        for attack in JUDGED_BY_LEFTOVERS {
            assert!(log.contains(&format!("{attack}: ")), "{shown}");
        }
        if name.starts_with("run ") {
            assert_reports_say_what_the_box_lacked(&scene, &out, without_sys_admin, &shown);
        }
        assert_eq!(
            scene.leftovers(),
            Vec::<String>::new(),
            "left behind by {shown}"
        );
        assert_eq!(
            std::fs::read_to_string(scene.path("root-file")).unwrap(),
            "root's\n",
            "{shown}"
        );
        assert!(
            std::fs::read_dir(scene.path("place"))
                .unwrap()
                .next()
                .is_none(),
            "{shown}"
        );
        scene.clear_log();
    }
}

#[test]
fn no_attack_on_the_box_does_harm_through_any_command_as_root() {
    if root_or_skip() {
        attack_every_command(false);
    }
}

#[test]
fn no_attack_on_the_box_does_harm_through_any_command_without_cap_sys_admin() {
    if root_or_skip() {
        attack_every_command(true);
    }
}

/// Two runs at once, as `scripts/certify` makes them: the subject of one
/// cannot read the other's memory, since each run's subjects are a user
/// of their own (they were both `nobody`, and one rewrote the other's).
#[test]
fn a_subject_cannot_reach_another_runs_subject() {
    if !root_or_skip() {
        return;
    }
    for without_sys_admin in [false, true] {
        let scene = Scene::new("peer");
        let bin = env!("CARGO_BIN_EXE_toolpath");
        let victim_place = scene.path("victim-place");
        std::fs::create_dir(&victim_place).unwrap();
        let mut victim = Command::new(bin)
            .args([
                "run",
                "--cases",
                "tests/data/mini",
                "--jobs",
                "1",
                "--adapter",
            ])
            .arg(format!(
                "python3 {}/tests/attackers/box.py adapter victim",
                env!("CARGO_MANIFEST_DIR")
            ))
            .arg("--fixture-dir")
            .arg(&victim_place)
            .env("BOX_LOG", scene.path("log"))
            .env("BOX_PEER", scene.path("peer"))
            .env("BOX_GO", scene.path("go"))
            .env("TOOLPATH_BIN", bin)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let attacker = vec![
            bin.to_owned(),
            "run".into(),
            "--cases".into(),
            "tests/data/mini".into(),
            "--jobs".into(),
            "1".into(),
            "--adapter".into(),
            format!(
                "python3 {}/tests/attackers/box.py adapter peer",
                env!("CARGO_MANIFEST_DIR")
            ),
            "--fixture-dir".into(),
            scene.path("place").display().to_string(),
        ];
        let out = scene.under_a_terminal(&attacker, without_sys_admin);
        // The control: a process of the victim's own user reads it, as
        // another run's subject could when every run's was `nobody`.
        let pid = std::fs::read_to_string(scene.path("peer")).unwrap();
        let status = std::fs::read_to_string(format!("/proc/{}/status", pid.trim())).unwrap();
        let uid = (status.lines())
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().next())
            .unwrap()
            .to_owned();
        let same_user = Command::new("setpriv")
            .args([
                "--reuid",
                &uid,
                "--regid",
                &uid,
                "--clear-groups",
                "/usr/bin/python3",
            ])
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/attackers/box.py"
            ))
            .args(["probe", "peer"])
            .env("BOX_LOG", scene.path("log"))
            .env("BOX_PEER", scene.path("peer"))
            .output()
            .unwrap();
        std::fs::write(scene.path("go"), "").unwrap();
        let victim_status = victim.wait().unwrap();
        let log = scene.log();
        let attacked = log.lines().next().unwrap_or_default();
        assert!(attacked.starts_with("peer: denied"), "{log}\n{out:?}");
        assert!(
            victim_status.success(),
            "the victim's run: {victim_status:?}"
        );
        assert!(
            log.contains("peer: done"),
            "the same user could not read it either, so the test proves nothing: {log}\n{same_user:?}"
        );
    }
}
