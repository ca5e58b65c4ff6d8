//! Hostile input and a hostile machine. Hostile case files: every one is
//! refused by `toolpath lint` with its location, and a run over them writes
//! and reads nothing outside (issue 9, `tests/data/hostile/`). A hostile
//! adapter cannot forge its verdicts, another user cannot redirect what a
//! root harness does in a shared directory, and a run creates, cleans and
//! leaves behind nothing outside its own fixture directory (issue 21;
//! attackers in `tests/attackers/`).

use assert_cmd::Command;
use std::path::Path;
use std::time::Duration;

mod surroundings;
use surroundings::{Snapshot, Surroundings};

use toolpath::test_support::root_or_skip;

fn toolpath() -> Command {
    Command::cargo_bin("toolpath").unwrap()
}

#[test]
fn hostile_case_files_are_refused_where_they_go_wrong() {
    let out = toolpath()
        .args(["lint", "--cases", "tests/data/hostile"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    for expected in [
        "setuid.yaml:8:11: fixture.modes: `4755` sets the setuid bit",
        "link-etc.yaml:7:14: fixture.symlinks: `ws/etc`: the target `/etc` is outside the fixture directory",
        "root-link-kmsg.yaml:7:14: fixture.symlinks: `ws`: the target `/proc/kmsg` is outside",
        "link-climb.yaml:9:5: fixture.symlinks: `ws/up`: the target `top/../../..` climbs with `..` after the fixture's link `ws/top`",
        "file-is-root.yaml:6:11: fixture: `ws` is not a directory but is also a workspace root",
        "file-is-parent.yaml:7:5: fixture: `ws/a` is not a directory but is also the parent directory of `ws/a/b`",
        "newline-id.yaml:1:5: id: `hostile.newline\\nother.yaml:1:1: all good` is not dotted",
        "not-utf8.yaml:2:35: not UTF-8: byte 0xff",
        "yes-boolean.yaml:7:40: call.params.case_sensitive: `off` is a YAML 1.1 word read as the boolean false",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in\n{stderr}"
        );
    }
    // Every line of the output is one error of one file: nothing forged.
    for line in stderr.lines() {
        assert!(
            line.starts_with("tests/data/hostile/") || line.starts_with("toolpath: "),
            "a line no file wrote: {line:?}"
        );
    }
}

/// Files too large to be cases are refused from their size alone, at once,
/// with the whole message.
#[test]
fn oversized_case_files_are_refused_before_parsing() {
    let dir = tempfile::tempdir().unwrap();
    // 120,000 entries (the issue's slowest example: 26 s before).
    let entries: String = (0..120_000).map(|i| format!("    ws/f{i}: x\n")).collect();
    let text = format!(
        "id: a.b\nsummary: s\nspec: [RES-1]\nfixture:\n  roots: [ws]\n  files:\n{entries}call: {{tool: resolve}}\nexpect: {{outcome: ok}}\n"
    );
    std::fs::write(dir.path().join("big.yaml"), &text).unwrap();
    // A 16 MiB value.
    let value = format!(
        "id: a.b\nsummary: s\nspec: [RES-1]\nfixture: {{roots: [ws]}}\ncall: {{tool: shell, params: {{command: {}}}}}\nexpect: {{outcome: ok}}\n",
        "x".repeat(16 << 20)
    );
    std::fs::write(dir.path().join("value.yaml"), &value).unwrap();
    let out = toolpath()
        .args(["lint", "--cases"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.len() < 1000, "{} bytes of messages", stderr.len());
    for file in ["big.yaml", "value.yaml"] {
        assert!(
            stderr.contains(&format!(
                "{file}:1:1: the file is larger than 262144 bytes, the most a case file may be; nothing was parsed\n"
            )),
            "{stderr}"
        );
    }
}

/// Answers like the reference, except that a shell call never returns (a
/// call stuck reading something endless). Blocks on a channel nobody sends
/// on: no sleep.
fn hang_on_shell(
    workspace: &toolpath_suite::protocol::Workspace,
    tool: toolpath_suite::protocol::Tool,
    params: &serde_json::Map<String, serde_json::Value>,
) -> toolpath_suite::protocol::ToolResult {
    if tool == toolpath_suite::protocol::Tool::Shell {
        let (_keep, wait) = std::sync::mpsc::channel::<()>();
        let _ = wait.recv();
    }
    toolpath::reference::call(workspace, tool, params)
}

/// A hung in-process call fails its own case as a timeout; the run goes on
/// and judges the others. The hang is certain, so a short timeout cannot
/// flake; 5 s leaves the other calls ample room on a busy machine.
#[test]
fn a_hung_in_process_call_fails_its_case_and_the_run_goes_on() {
    use toolpath::harness::config::{RunConfig, SubjectFactory};
    use toolpath::harness::run::run;
    use toolpath::subject::{Reference, Subject};
    let (cases, errors) = toolpath_suite::case::load::load(&["tests/data/mini".into()]);
    assert!(errors.is_empty(), "{errors:?}");
    let instances: Vec<_> = cases.iter().flat_map(|c| c.instances()).collect();
    let make: &SubjectFactory = &|| {
        Ok(Box::new(Reference::answering_with(
            hang_on_shell,
            std::time::Duration::from_secs(5),
        )) as Box<dyn Subject + Send>)
    };
    let report = run(&instances, make, &RunConfig::default());
    let hung = |c: &&toolpath::report::CaseReport| c.id == "mini.shell.subpath";
    let shell: Vec<_> = report.cases.iter().filter(hung).collect();
    assert_eq!(shell.len(), 1);
    for case in &shell {
        assert_eq!(
            case.status,
            toolpath::report::Status::AdapterError,
            "{case:?}"
        );
        assert!(
            case.reason.as_deref().unwrap_or("").contains("timeout"),
            "{case:?}"
        );
    }
    let others = report.cases.len() - shell.len();
    assert!(others >= 3, "the run went on: {others} other cases");
    assert!(
        report
            .cases
            .iter()
            .filter(|c| !hung(c))
            .all(|c| c.status != toolpath::report::Status::AdapterError),
        "{:?}",
        report.cases
    );
}

/// The names in `dir`, sorted: a snapshot of a run's surroundings.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A private directory for one test, that `nobody` may pass through, with
/// a private TMPDIR and HOME inside (so a run's leftovers in TMPDIR, and
/// anything written to HOME, are seen).
struct Scene {
    dir: tempfile::TempDir,
}

impl Scene {
    fn new() -> Scene {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::Builder::new()
            .prefix("hostile-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let scene = Scene { dir };
        std::fs::create_dir(scene.tmp()).unwrap();
        std::fs::create_dir(scene.path("home")).unwrap();
        scene
    }

    /// The surroundings of this scene's runs (see `tests/surroundings`),
    /// with `skipped` (the fixture directory, the files the test expects
    /// to be written) left out, and their snapshot now.
    fn watch(&self, skipped: &[&Path]) -> (Surroundings, Snapshot) {
        let watch = Surroundings::of(self.dir.path(), skipped);
        let before = watch.snapshot();
        (watch, before)
    }

    fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.path().join(name)
    }

    fn tmp(&self) -> std::path::PathBuf {
        self.path("tmp")
    }

    fn toolpath(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_toolpath"));
        cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
            .env("TMPDIR", self.tmp())
            .env("HOME", self.path("home"))
            .env_remove("TOOLPATH_FIXTURE_DIR")
            .stdin(std::process::Stdio::null());
        cmd
    }
}

/// Issue 21 item 3: an adapter runs as the harness's user, so it can find
/// the run's event log (the run directory's name is no secret) and rewrite
/// it in place, every failure made a pass; the JSON report then listed
/// passes, and `toolpath certification` counted them. The run's log is
/// sealed now: the forged log is refused with exit 4, naming the first
/// line that does not verify, and no report counts a forged pass; the
/// user's live copy of the log, forged as well, is emptied. The control
/// (the same adapter, not forging) fails honestly, and the attacker's own
/// log proves it did rewrite the spool and the copy.
#[test]
fn an_adapter_that_rewrites_the_event_log_cannot_forge_its_verdicts() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let forge_log = scene.path("forged.txt");
    let report = scene.path("report.json");
    let events = scene.path("report.json.events.jsonl");
    let (watch, before) = scene.watch(&[&place, &forge_log, &report, &events]);
    let run = |forge: &str| {
        scene
            .toolpath()
            .args(["run", "--cases", "tests/data/mini", "--jobs", "1"])
            .args(["--adapter", "python3 tests/attackers/forge_spool.py"])
            .args(["--format", "json", "--output"])
            .arg(&report)
            .arg("--fixture-dir")
            .arg(&place)
            // As the harness's user (see `as_the_harness`).
            .args(as_the_harness())
            .env("TOOLPATH_FIXTURE_DIR", &place)
            .env("FORGE", forge)
            .env("FORGE_LOG", &forge_log)
            .env("FORGE_EVENTS", &events)
            .output()
            .unwrap()
    };
    let honest = run("0");
    assert_eq!(honest.status.code(), Some(1), "{honest:?}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    // Every call it answers fails; the one pass is the schema description
    // case, which sends no call.
    assert_eq!(
        json["summary"]["fail"], 5,
        "the adapter answers wrongly: {json}"
    );
    assert_eq!(json["summary"]["pass"], 1, "{json}");
    assert!(!forge_log.exists(), "the control forged");

    let forged = run("1");
    let stderr = String::from_utf8_lossy(&forged.stderr);
    let rewritten = std::fs::read_to_string(&forge_log).unwrap_or_default();
    assert!(
        rewritten.contains("/toolpath-run-") && rewritten.contains("report.json.events.jsonl"),
        "the attack was not made, so this test proves nothing: {stderr}"
    );
    assert_eq!(forged.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains("refusing to report: the run's event log")
            && stderr.contains("does not verify at line"),
        "{stderr}"
    );
    // No report stands for the forged run (claimed empty, never written),
    // nor does the live copy of its log (forged too, and emptied), so
    // nothing can certify it.
    for file in [&report, &events] {
        assert_eq!(
            std::fs::read_to_string(file).unwrap(),
            "",
            "{}",
            file.display()
        );
        let table = scene
            .toolpath()
            .arg("certification")
            .arg(file)
            .output()
            .unwrap();
        assert_eq!(
            table.status.code(),
            Some(2),
            "an empty report certifies nothing"
        );
    }
    // And the run cleaned up after itself all the same.
    assert_eq!(listing(&place), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// The passes in the total column of `toolpath certification`'s one row
/// of conformance (after its containment table).
fn total_passed(table: &str) -> u32 {
    let row = table
        .lines()
        .skip_while(|l| !l.starts_with("| implementation | suite |"))
        .nth(2)
        .unwrap_or_default();
    let total = row
        .trim_end_matches('|')
        .rsplit('|')
        .next()
        .unwrap_or_default();
    total
        .trim()
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{table}"))
}

/// Issue 21 item 3, the key: the spool's seal is only as good as its key's
/// secrecy, and an adapter runs as the harness's user (root in CI, every
/// capability). The audit's adapter read `/proc/$PPID/mem`, found the
/// 32-byte key and re-sealed a forged spool: the JSON report and
/// `toolpath certification` then showed passes. The harness is not
/// dumpable now and its children run without CAP_SYS_PTRACE (and with
/// no_new_privs), so `steal_key.py` is denied the harness's memory, its
/// open files and ptrace; the run fails honestly. Its log
/// proves each attempt was made, and was denied.
#[test]
fn an_adapter_that_steals_the_spool_key_from_memory_cannot_forge_its_verdicts() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let steal_log = scene.path("stolen.txt");
    let report = scene.path("report.json");
    let events = scene.path("report.json.events.jsonl");
    let (watch, before) = scene.watch(&[&place, &steal_log, &report, &events]);
    let out = scene
        .toolpath()
        .args(["run", "--cases", "tests/data/mini", "--jobs", "1"])
        .args(["--adapter", "python3 tests/attackers/steal_key.py"])
        .args(["--format", "json", "--output"])
        .arg(&report)
        .arg("--fixture-dir")
        .arg(&place)
        // As the harness's user (see `as_the_harness`).
        .args(as_the_harness())
        .env("STEAL_LOG", &steal_log)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let attempts = std::fs::read_to_string(&steal_log).unwrap_or_default();
    // `environ` is tried too, and stays readable to a root child that
    // keeps CAP_SYS_ADMIN or CAP_PERFMON (Linux lets those read another
    // process's /proc files in mode READ): it holds no secret.
    for what in ["ptrace", "fd", "mem"] {
        assert!(
            attempts.contains(&format!("{what}: denied (")),
            "{what} was not denied (or not tried):\n{attempts}\n{stderr}"
        );
    }
    assert!(attempts.contains("key found: False"), "{attempts}");
    assert!(!attempts.contains("re-sealed"), "{attempts}");
    // The run fails honestly: every call it answered fails; the one pass
    // is the schema description case, which sends no call.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["summary"]["fail"], 5, "{json}");
    assert_eq!(json["summary"]["pass"], 1, "{json}");
    let passes: Vec<&str> = json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "pass")
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(passes, ["mini.desc.shell"], "forged passes in {json}");
    let table = scene
        .toolpath()
        .arg("certification")
        .arg(&report)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&table.stdout);
    assert_eq!(total_passed(&table), 1, "{table}");
    assert_eq!(listing(&place), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// Issue 21 item 3, bypass 2: the user's copy of the event log (beside the
/// first `--output`, or `--events`) is plain JSON Lines, and an adapter
/// that learnt its path (the audit's read `--output` from
/// `/proc/$PPID/cmdline`; here the test tells it, so the attack does not
/// depend on what the harness hides) rewrote it while the run went on:
/// `toolpath certification LOG` then showed passes. The copy is written at
/// delivery now, from the verified spool, after every adapter ended, and
/// replaces whatever the file became meanwhile: certifying it shows the
/// run's own verdicts. The attacker's log proves the rewrite was made.
#[test]
fn an_adapter_that_rewrites_the_users_event_log_cannot_forge_its_verdicts() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let report = scene.path("report.json");
    let beside = scene.path("report.json.events.jsonl");
    let asked = scene.path("asked.jsonl");
    let forge_log = scene.path("forged.txt");
    let (watch, before) = scene.watch(&[&place, &report, &beside, &asked, &forge_log]);
    for (log, events) in [(&beside, None), (&asked, Some(&asked))] {
        let _ = std::fs::remove_file(&forge_log);
        let mut run = scene.toolpath();
        run.args(["run", "--cases", "tests/data/mini", "--jobs", "1"])
            .args(["--adapter", "python3 tests/attackers/forge_user.py"])
            .args(["--format", "json", "--output"])
            .arg(&report)
            .arg("--fixture-dir")
            .arg(&place)
            // As the harness's user (see `as_the_harness`).
            .args(as_the_harness())
            .env("FORGE_EVENTS", log)
            .env("FORGE_LOG", &forge_log);
        if let Some(events) = events {
            run.arg("--events").arg(events);
        }
        let out = run.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let rewritten = std::fs::read_to_string(&forge_log).unwrap_or_default();
        assert!(
            rewritten.contains(log.to_str().unwrap()),
            "{}: the attack was not made, so this proves nothing: {stderr}",
            log.display()
        );
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        let table = scene
            .toolpath()
            .arg("certification")
            .arg(log)
            .output()
            .unwrap();
        assert_eq!(table.status.code(), Some(0), "{table:?}");
        let table = String::from_utf8_lossy(&table.stdout);
        assert_eq!(total_passed(&table), 1, "{}: {table}", log.display());
        let text = std::fs::read_to_string(log).unwrap();
        assert_eq!(text.matches("\"status\":\"pass\"").count(), 1, "{text}");
        assert!(text.trim_end().ends_with('}'), "{text}");
        assert_eq!(listing(&place), Vec::<String>::new());
    }
    watch.assert_unchanged(&before);
}

/// Issue 21 item 6: with `--fixture-dir` on a directory another user can
/// write to (no sticky bit), that user swapped `toolpath-run-*` for a link
/// right after it was created, and root then chowned, chmodded and wrote
/// where the link pointed. Here the other user (`nobody`, through
/// `swap_run_dir.py`) races every run; a place it can rename entries in
/// (world-writable without the sticky bit, or its own) is refused before
/// anything is created, with the reason, and a sticky one is used: there it
/// cannot move a run's directory. Either way the victim (a root-only
/// directory and file) is untouched.
#[test]
fn a_fixture_directory_another_user_can_rename_entries_in_is_refused() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !root_or_skip("acting as a second user (`nobody`)") {
        return;
    }
    let scene = Scene::new();
    let victim = scene.path("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::write(victim.join("secret"), "root only\n").unwrap();
    std::fs::set_permissions(
        victim.join("secret"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    let snapshot = |path: &std::path::Path| {
        let meta = std::fs::symlink_metadata(path).unwrap();
        (meta.uid(), meta.gid(), meta.mode())
    };
    let before = (
        snapshot(&victim),
        snapshot(&victim.join("secret")),
        listing(&victim),
    );
    const NOBODY: u32 = 65534;
    let places: [(&str, u32, u32, bool); 3] = [
        ("world-writable", 0, 0o777, false),
        ("nobody's", NOBODY, 0o755, false),
        ("sticky", 0, 0o1777, true),
    ];
    // The places and the attacker's stop files are the test's; the victim,
    // and everything else around, must stay as it is.
    let skipped: Vec<std::path::PathBuf> = places
        .iter()
        .flat_map(|(what, ..)| [scene.path(what), scene.path(&format!("{what}.stop"))])
        .collect();
    let (watch, before_all) = scene.watch(&skipped.iter().map(|p| p.as_path()).collect::<Vec<_>>());
    for (what, owner, mode, accepted) in places {
        let place = scene.path(what);
        std::fs::create_dir(&place).unwrap();
        std::os::unix::fs::chown(&place, Some(owner), Some(owner)).unwrap();
        std::fs::set_permissions(&place, std::fs::Permissions::from_mode(mode)).unwrap();
        let stop = scene.path(&format!("{what}.stop"));
        let attacker = {
            use std::os::unix::process::CommandExt;
            std::process::Command::new("python3")
                .arg("tests/attackers/swap_run_dir.py")
                .args([&place, &victim, &stop])
                .arg("100000000")
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .uid(NOBODY)
                .gid(NOBODY)
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let out = scene
            .toolpath()
            .args(["run", "--cases", "tests/data/mini", "--fixture-dir"])
            .arg(&place)
            .output()
            .unwrap();
        std::fs::write(&stop, "").unwrap();
        let attacker = attacker.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if accepted {
            assert_eq!(out.status.code(), Some(0), "{what}: {stderr}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
            assert!(
                stderr.contains("refusing the fixture directory")
                    && stderr.contains("another user could replace the run's directory"),
                "{what}: {stderr}"
            );
        }
        let swaps = String::from_utf8_lossy(&attacker.stdout);
        assert_eq!(
            swaps.trim(),
            "0",
            "{what}: the attacker moved a run's directory"
        );
        assert_eq!(listing(&place), Vec::<String>::new(), "{what}: left behind");
        let after = (
            snapshot(&victim),
            snapshot(&victim.join("secret")),
            listing(&victim),
        );
        assert_eq!(after, before, "{what}: the victim was changed");
        assert_eq!(
            std::fs::read_to_string(victim.join("secret")).unwrap(),
            "root only\n"
        );
    }
    watch.assert_unchanged(&before_all);
}

/// Plants what a run that died leaves: its directory, with a lock file
/// nobody holds.
fn plant_dead_run(place: &std::path::Path, name: &str) {
    let dir = place.join(format!("toolpath-run-{name}"));
    std::fs::create_dir_all(dir.join("fixtures")).unwrap();
    std::fs::write(dir.join("owner.lock"), "").unwrap();
}

/// Issue 21 item 7: every run cleaned `/dev/shm` and `$TMPDIR` whatever
/// `--fixture-dir` said, and `toolpath clean` could not be pointed at the
/// directory a run used. Now a run cleans the place it uses and nothing
/// else, and `clean` cleans the place `--fixture-dir` (or the variable)
/// names. Shown by listing the surroundings before and after.
#[test]
fn runs_and_clean_touch_only_the_fixture_directory_they_are_given() {
    let scene = Scene::new();
    let place = scene.path("place");
    let other = scene.path("other");
    std::fs::create_dir(&place).unwrap();
    std::fs::create_dir(&other).unwrap();
    plant_dead_run(&place, "deadplace1");
    plant_dead_run(&scene.tmp(), "deadtmp1");
    plant_dead_run(&other, "deadother1");
    let tmp_before = listing(&scene.tmp());
    let other_before = listing(&other);
    let (watch, before) = scene.watch(&[&place]);
    let out = scene
        .toolpath()
        .args([
            "run",
            "--cases",
            "tests/data/mini",
            "--filter",
            "mini.resolve.outside",
        ])
        .arg("--fixture-dir")
        .arg(&place)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        listing(&place),
        Vec::<String>::new(),
        "the dead run in the place"
    );
    assert_eq!(listing(&scene.tmp()), tmp_before, "TMPDIR was touched");
    assert_eq!(listing(&other), other_before);

    plant_dead_run(&place, "deadplace2");
    let clean = scene
        .toolpath()
        .args(["clean", "--fixture-dir"])
        .arg(&place)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&clean.stderr);
    assert_eq!(clean.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("toolpath-run-deadplace2, left by a run that died"),
        "{stderr}"
    );
    assert_eq!(listing(&place), Vec::<String>::new());
    assert_eq!(listing(&scene.tmp()), tmp_before, "TMPDIR was touched");
    watch.assert_unchanged(&before);
    // The variable names the place as for `run`.
    let (watch, before) = scene.watch(&[&place, &other]);
    let clean = scene
        .toolpath()
        .arg("clean")
        .env("TOOLPATH_FIXTURE_DIR", &other)
        .output()
        .unwrap();
    assert_eq!(clean.status.code(), Some(0), "{clean:?}");
    assert_eq!(listing(&other), Vec::<String>::new());
    assert_eq!(listing(&scene.tmp()), tmp_before, "TMPDIR was touched");
    watch.assert_unchanged(&before);
}

/// Issue 21 item 7: a `--fixture-dir` that is a symbolic link leaked every
/// finished run's directory, and `clean` exited 1 on them. The place is
/// resolved once; the run removes its directory, `clean` through the link
/// succeeds.
#[test]
fn a_fixture_directory_given_as_a_link_leaves_nothing() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let link = scene.path("link");
    std::os::unix::fs::symlink(&place, &link).unwrap();
    let (watch, before) = scene.watch(&[&place]);
    for _ in 0..2 {
        let out = scene
            .toolpath()
            .args([
                "run",
                "--cases",
                "tests/data/mini",
                "--filter",
                "mini.resolve.*",
            ])
            .arg("--fixture-dir")
            .arg(&link)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert_eq!(
            listing(&place),
            Vec::<String>::new(),
            "a run's directory leaked"
        );
    }
    let clean = scene
        .toolpath()
        .args(["clean", "--fixture-dir"])
        .arg(&link)
        .output()
        .unwrap();
    assert_eq!(clean.status.code(), Some(0), "{clean:?}");
    assert_eq!(listing(&scene.tmp()), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// Starts `toolpath fuzz` in `place` against an adapter that hangs on its
/// first call; returns once it hangs (it says so through a FIFO: no
/// sleeping). As root the adapter runs as the run's own user, as in a
/// suite run: the FIFO is open to every user (the scene is `0755`).
fn start_hanging_fuzz(scene: &Scene, place: &std::path::Path) -> std::process::Child {
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    let fifo = scene.path("ready");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o666),
        0,
    )
    .unwrap();
    std::fs::set_permissions(&fifo, std::fs::Permissions::from_mode(0o666)).unwrap();
    let child = scene
        .toolpath()
        .args([
            "fuzz",
            "--adapter",
            "python3 tests/adapters/broken.py hang fuzz",
        ])
        .args(["--jobs", "1", "--iterations", "5", "--findings"])
        .arg(scene.path("findings"))
        .arg("--fixture-dir")
        .arg(place)
        .env("BROKEN_READY", &fifo)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A FIFO opens for reading once a writer comes: on a thread, so an
    // adapter that never comes fails the test instead of hanging it.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut ready = String::new();
        let read = std::fs::File::open(&fifo).and_then(|mut f| f.read_to_string(&mut ready));
        let _ = tx.send(read.map(|_| ready));
    });
    match rx.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(ready) => assert_eq!(ready.unwrap(), "ready\n"),
        Err(_) => {
            let _ = rustix::process::kill_process(
                rustix::process::Pid::from_child(&child),
                rustix::process::Signal::KILL,
            );
            panic!(
                "the fuzzed adapter never said it was ready: {:?}",
                child.wait_with_output()
            );
        }
    }
    child
}

/// `toolpath fuzz` had no SIGINT handler: a cancelled run left its
/// fixtures and its adapters' scratch directories. It runs in a session
/// now: SIGINT stops it, the call it cut short is no finding, everything
/// it created is removed, and it exits 130.
#[test]
fn a_cancelled_fuzz_run_removes_what_it_created_and_exits_130() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let (ready, findings) = (scene.path("ready"), scene.path("findings"));
    let (watch, before) = scene.watch(&[&place, &ready, &findings]);
    let child = start_hanging_fuzz(&scene, &place);
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::INT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("cancelled by SIGINT"), "{stderr}");
    assert!(
        !scene.path("findings").exists(),
        "a cancelled call became a finding"
    );
    assert_eq!(listing(&place), Vec::<String>::new());
    assert_eq!(listing(&scene.tmp()), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// Issue 21 item 7: after a SIGKILL, the reference's scratch directories,
/// the adapters' scratch directories and fuzz fixtures stayed in the
/// system's temporary directory, where `clean` never looked. All of them
/// are in the run's directory now: a `toolpath fuzz` killed while its
/// adapter hangs (it says so through a FIFO: no sleeping) leaves one
/// `toolpath-run-*` directory and nothing in TMPDIR, and `clean` removes it
/// (and the hanging adapter's child, which carries the run's id).
#[test]
fn a_killed_fuzz_run_leaves_everything_in_its_run_directory_for_clean() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let (ready, findings) = (scene.path("ready"), scene.path("findings"));
    let (watch, before) = scene.watch(&[&place, &ready, &findings]);
    let mut child = start_hanging_fuzz(&scene, &place);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        listing(&scene.tmp()),
        Vec::<String>::new(),
        "left in TMPDIR"
    );
    let runs = listing(&place);
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert!(runs[0].starts_with("toolpath-run-"), "{runs:?}");
    let run = place.join(&runs[0]);
    let inside = listing(&run);
    for expected in ["adapters", "fixtures", "owner.lock", "reference"] {
        assert!(
            inside.iter().any(|n| n == expected),
            "{expected} not in {inside:?}"
        );
    }
    for scratch in ["adapters", "fixtures", "reference"] {
        assert_eq!(
            listing(&run.join(scratch)).len(),
            1,
            "{scratch}: one in use"
        );
    }
    let clean = scene
        .toolpath()
        .args(["clean", "--fixture-dir"])
        .arg(&place)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&clean.stderr);
    assert_eq!(clean.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("left by a run that died"), "{stderr}");
    assert_eq!(listing(&place), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// An adapter that cannot start has its stderr shown by `run` and `fuzz`:
/// an escape sequence in it (here one that clears the screen) is shown as
/// its stand-in, never sent to the terminal.
#[test]
fn the_stderr_of_an_adapter_that_cannot_start_cannot_drive_the_terminal() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let (watch, before) = scene.watch(&[&place]);
    let adapter = r#"sh -c 'printf "\033[2Jcleared\n" >&2; exit 3'"#;
    for args in [
        &["run", "--cases", "tests/data/mini", "--adapter", adapter][..],
        &["fuzz", "--iterations", "1", "--adapter", adapter][..],
    ] {
        let out = scene
            .toolpath()
            .args(args)
            .arg("--fixture-dir")
            .arg(&place)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--- adapter stderr ---"),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("␛[2Jcleared"), "{args:?}: {stderr}");
        assert!(!stderr.contains('\u{1b}'), "{args:?}: {stderr:?}");
    }
    watch.assert_unchanged(&before);
}

/// Issue 21 item 8: two runs sharing a fixture directory failed at random
/// with exit 2, "cannot lock the run directory" (5 of 300): the cleanup of
/// a dead run opened a live run's lock between its creation and its
/// `flock`. 16 processes at a time, 8 runs each (128 runs, each cleaning
/// the place as it starts while others create and remove their
/// directories in it), all pass, and the place is empty after. The
/// audit's 1,000 runs took 65 s of CPU; these take a few seconds.
/// An adapter's `unsupported` reasons (listed in the terminal report) and
/// the stderr of one that dies before `hello` (said on stderr) are shown,
/// but cannot act on the terminal, and no line of theirs passes for the
/// run's closing line, which CI reads.
#[test]
fn an_adapter_s_reasons_and_stderr_cannot_fake_a_closing_line() {
    for mode in ["unsupported", "exit-before-hello"] {
        let adapter = format!("python3 tests/adapters/hostile_text.py {mode}");
        let out = toolpath()
            .args(["run", "--cases", "tests/data/mini", "--adapter", &adapter])
            .output()
            .unwrap();
        assert_ne!(out.status.code(), Some(0), "{mode}: {out:?}");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        toolpath::test_support::assert_shown_harmlessly(&text);
    }
}

#[test]
fn concurrent_runs_sharing_a_fixture_directory_all_pass_and_leave_nothing() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let (watch, before) = scene.watch(&[&place]);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|threads| {
        for _ in 0..16 {
            threads.spawn(|| {
                for _ in 0..8 {
                    let out = scene
                        .toolpath()
                        .args(["run", "--cases", "tests/data/mini", "--jobs", "1"])
                        .arg("--fixture-dir")
                        .arg(&place)
                        .output()
                        .unwrap();
                    if out.status.code() != Some(0) {
                        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
                        failures.lock().unwrap().push((out.status, stderr));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of 128 runs failed: {failures:#?}",
        failures.len()
    );
    assert_eq!(listing(&place), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// Issue 21 item 11, end to end: a valid case whose fixture is slow to
/// build (6,000 git repositories; `git: [ws]` 3,000 times took 190 s under
/// `--timeout-ms 1000` before builds had a deadline, and lint now refuses
/// duplicates) is a case error naming the entry it stopped at, within the
/// call's time limit, and what was built is removed. No build
/// can make 6,000 repositories in 20 ms (each is a dozen files and
/// directories), so the outcome does not depend on the machine's speed.
#[test]
fn a_fixture_too_slow_to_build_in_the_time_limit_is_a_case_error_with_its_reason() {
    let scene = Scene::new();
    let place = scene.path("place");
    let cases = scene.path("cases");
    let report = scene.path("report.json");
    std::fs::create_dir(&place).unwrap();
    std::fs::create_dir(&cases).unwrap();
    let repos: Vec<String> = (0..6000).map(|i| format!("r{i}")).collect();
    let list = repos.join(", ");
    std::fs::write(
        cases.join("slow.yaml"),
        format!(
            "id: hostile.slow\nsummary: many repositories\nspec: [SEARCH-4]\nrequires: [git]\n\
             fixture:\n  roots: [{list}]\n  files: {{r0/f.txt: \"needle\\n\"}}\n  git: [{list}]\n\
             call:\n  tool: grep\n  params: {{pattern: needle, dir_path: r0}}\n\
             expect:\n  outcome: ok\n"
        ),
    )
    .unwrap();
    let lint = scene
        .toolpath()
        .args(["lint", "--cases"])
        .arg(&cases)
        .output()
        .unwrap();
    assert_eq!(lint.status.code(), Some(0), "the case is valid: {lint:?}");
    let events = scene.path("report.json.events.jsonl");
    let (watch, before) = scene.watch(&[&place, &report, &events]);
    let out = scene
        .toolpath()
        .args(["run", "--cases"])
        .arg(&cases)
        .args(["--timeout-ms", "20", "--format", "json", "--output"])
        .arg(&report)
        .arg("--fixture-dir")
        .arg(&place)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["summary"]["case_error"], 1, "{json}");
    let reason = json["cases"][0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("slow.yaml: fixture entry `r")
            && reason.contains(
                "the fixture's time limit (the call's) passed before this entry was made"
            ),
        "{reason}"
    );
    assert_eq!(listing(&place), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// A forger re-sends the previous call's result with seq + 1 as the
/// answer to mini.search.file@ripgrep. With predictable seqs that was
/// judged as this case's answer; a random seq makes it a wrong seq, and
/// nothing around the run changes (a HOME and a fixture directory of the
/// scene's own). Here rather than in tests/supervision.rs, whose other
/// tests watch no surroundings: a watching binary runs alone
/// (scripts/test-lanes).
#[test]
fn a_stale_answer_under_a_guessed_seq_is_a_wrong_seq_never_an_answer() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    // The reports go to a directory of their own: the JSON report and the
    // event log written beside it are what the run is asked to write.
    let out_dir = scene.path("out");
    std::fs::create_dir(&out_dir).unwrap();
    let report = out_dir.join("report.json");
    let (watch, before) = scene.watch(&[&place, &out_dir]);
    let out = scene
        .toolpath()
        .args([
            "run",
            "--cases",
            "tests/data/mini",
            "--jobs",
            "1",
            "--adapter",
        ])
        .arg("python3 tests/adapters/forger.py stale-guess mini.search.file@ripgrep")
        // Answers that come get a minute: a loaded machine cannot turn a
        // slow one into a timeout.
        .args(["--timeout-ms", "60000", "--hello-timeout-ms", "60000"])
        .args(["--format", "json", "--output"])
        .arg(&report)
        .arg("--fixture-dir")
        .arg(&place)
        .output()
        .unwrap();
    watch.assert_unchanged(&before);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let stale = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "mini.search.file@ripgrep")
        .unwrap_or_else(|| panic!("no mini.search.file@ripgrep in {report}"));
    assert_eq!(stale["status"], "adapter_error", "{stale}");
    assert!(
        stale["reason"]
            .as_str()
            .unwrap()
            .starts_with("wrong seq: answered seq "),
        "{stale}"
    );
    assert_eq!(report["summary"]["pass"], 5, "{report}");
    assert_eq!(
        listing(&scene.tmp()),
        Vec::<String>::new(),
        "left in TMPDIR"
    );
}

/// The surroundings snapshot can fail: an adapter that writes a file into
/// the user's `HOME` (named to it: its own `HOME` is private to the run)
/// and takes a permission bit off a file of the test's scratch directory
/// (both outside the run's own directory) is caught, with the paths, while
/// the fixture directory it was given is left out.
#[test]
fn the_surroundings_snapshot_catches_an_adapter_writing_outside_the_run() {
    use std::os::unix::fs::PermissionsExt;
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let mine = scene.path("mine.txt");
    std::fs::write(&mine, "the test's\n").unwrap();
    std::fs::set_permissions(&mine, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (watch, before) = scene.watch(&[&place]);
    let adapter = r#"sh -c 'echo planted > "$USER_HOME/planted"; chmod 600 "$MINE"; exec "$TOOLPATH_BIN" serve'"#;
    let out = scene
        .toolpath()
        .args([
            "run",
            "--cases",
            "tests/data/mini",
            "--filter",
            "mini.resolve.outside",
        ])
        .args(["--adapter", adapter, "--fixture-dir"])
        .arg(&place)
        // As the harness's user (see `as_the_harness`).
        .args(as_the_harness())
        .env("MINE", &mine)
        .env("USER_HOME", scene.path("home"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let changes = watch.changes(&before);
    let home = scene.path("home").join("planted");
    assert!(
        changes
            .iter()
            .any(|c| c.starts_with(&format!("added {}:", home.display()))),
        "{changes:#?}"
    );
    assert!(
        changes
            .iter()
            .any(|c| c.starts_with(&format!("changed {}:", mine.display()))),
        "{changes:#?}"
    );
    assert_eq!(changes.len(), 2, "{changes:#?}");
}

/// Issue 30 item 1: an adapter that kept every capability but
/// CAP_SYS_PTRACE mounted tracefs in a mount namespace of its own, put a
/// uprobe on the function that seals spool lines and read the key; eBPF,
/// perf events and `/proc/kcore` are the same family. Every process the
/// harness starts holds no capability now, in no set (the bounding set
/// included), under no_new_privs: `escalate.py` tries each interface
/// (its log proves it did) and is denied every one; the run's verdicts
/// are the reference's it then becomes. (Run unconfined by root, the same
/// script is allowed mount, unshare, bpf and perf.)
#[test]
fn an_adapter_running_as_root_reaches_no_privileged_interface() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let log = scene.path("escalate.txt");
    let (watch, before) = scene.watch(&[&place, &log]);
    let out = scene
        .toolpath()
        .args(["run", "--cases", "tests/data/mini", "--jobs", "1"])
        .args(["--adapter", "python3 tests/attackers/escalate.py"])
        .arg("--fixture-dir")
        .arg(&place)
        // As the harness's user (see `as_the_harness`).
        .args(as_the_harness())
        .env("ESCALATE_LOG", &log)
        .output()
        .unwrap();
    let attempts = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(out.status.code(), Some(0), "{out:?}\n{attempts}");
    for what in ["mount", "unshare", "bpf", "perf"] {
        assert!(
            attempts.contains(&format!("\n{what}: denied ("))
                || attempts.starts_with(&format!("{what}: denied (")),
            "{what} was not denied (or not tried):\n{attempts}"
        );
    }
    assert!(attempts.contains("kcore: denied ("), "{attempts}");
    assert!(!attempts.contains(": allowed"), "{attempts}");
    for set in ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"] {
        assert!(
            attempts.contains(&format!("{set}: 0000000000000000\n")),
            "{set} is not empty:\n{attempts}"
        );
    }
    assert!(attempts.contains("NoNewPrivs: 1\n"), "{attempts}");
    assert_eq!(listing(&place), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// `--subject-as-root` when the harness is root, for the attacks a
/// subject makes as the harness's user: as root, the subject runs as
/// `nobody` by default and every one of them is denied at the first file
/// (a_subject_of_a_root_harness_owns_no_file_outside_its_fixture); run as
/// root, as when the harness is not root, the attack is made whole, and
/// what these tests prove (the seal, the outputs, the box) is what
/// stands between it and the verdict.
fn as_the_harness() -> Vec<&'static str> {
    match toolpath::sys::is_root() {
        true => vec!["--subject-as-root"],
        false => vec![],
    }
}

/// A file the subject of a root harness may write, for [`own_root_files`]:
/// `OWN_LOG`, open to every user.
fn open_log(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, "").unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666)).unwrap();
}

/// `tests/attackers/own_root_files.py ATTACKS` over the mini suite,
/// `extra` arguments after; the JSON report at `report`, the attacker's
/// log and the process's output.
fn own_root_files(
    scene: &Scene,
    attacks: &str,
    extra: &[&str],
) -> (std::process::Output, String, std::path::PathBuf) {
    let place = scene.path("place");
    let _ = std::fs::create_dir(&place);
    let log = scene.path(&format!("own-{attacks}-{}.log", extra.len()));
    open_log(&log);
    let report = scene.path(&format!("own-{attacks}-{}.json", extra.len()));
    let out = scene
        .toolpath()
        .args(["run", "--cases", "tests/data/mini", "--jobs", "1"])
        .args(["--format", "json", "--output"])
        .arg(&report)
        .arg("--adapter")
        .arg(format!(
            "python3 tests/attackers/own_root_files.py {attacks}"
        ))
        .arg("--fixture-dir")
        .arg(&place)
        .args(extra)
        .env("OWN_LOG", &log)
        .env("OWN_TARGET", scene.path("target.txt"))
        .output()
        .unwrap();
    (out, std::fs::read_to_string(&log).unwrap(), report)
}

/// Issue 30's design: a subject of a root harness without a capability
/// still owned every root-owned file, so it could overwrite one outside
/// the run (a file of the test's, mode 0644) and append to the run's own
/// event log. As root the subject runs as `nobody` now: both are denied,
/// the target is untouched, and the run (whose permission case the
/// subject now takes itself) reports as the reference would.
/// `--subject-as-root` brings the old behaviour back, and with it the
/// harm, which proves the attacks real: the target is overwritten and
/// the header says the verdict is not protected; a forged line appended
/// to the spool makes the run refuse to report (exit 4).
#[test]
fn a_subject_of_a_root_harness_owns_no_file_outside_its_fixture() {
    if !root_or_skip("running the subject as another user") {
        return;
    }
    let scene = Scene::new();
    let target = scene.path("target.txt");
    std::fs::write(&target, "root's\n").unwrap();
    let (out, log, report) = own_root_files(&scene, "overwrite append", &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}\n{log}");
    assert!(
        log.contains("overwrite: denied (Permission denied)"),
        "{log}"
    );
    assert!(log.contains("append: denied (Permission denied)"), "{log}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "root's\n");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["summary"]["fail"], 0, "{json}");
    assert!(json["unprotected"].is_null(), "{json}");
    let permission = (json["cases"].as_array().unwrap().iter())
        .find(|c| c["id"].as_str().unwrap().contains("permission"))
        .expect("the permission case");
    assert_eq!(permission["status"], "pass", "{permission}");

    let (out, log, report) = own_root_files(&scene, "overwrite", &["--subject-as-root"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}\n{log}");
    // (Its copy as `nobody`, which takes the permission case, is denied.)
    assert!(log.starts_with("overwrite: done\n"), "{log}");
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "owned by the subject\n"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let unprotected = json["unprotected"].as_array().unwrap();
    assert!(
        unprotected.iter().any(|u| u
            .as_str()
            .unwrap()
            .starts_with("the subject runs as root (--subject-as-root)")),
        "{json}"
    );

    let (out, log, _) = own_root_files(&scene, "append", &["--subject-as-root"]);
    assert!(log.starts_with("append: done\n"), "{log}");
    assert_eq!(out.status.code(), Some(4), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("refusing to report"), "{stderr}");
    assert_eq!(listing(&scene.path("place")), Vec::<String>::new());
}

/// As root, a subject `nobody` cannot start (its script in a directory
/// only root may search) fails the run at its start, exit 2, naming the
/// file and both fixes, before any case runs; it is never run as root
/// instead.
#[test]
fn a_subject_nobody_cannot_read_fails_the_run_at_its_start() {
    if !root_or_skip("running the subject as another user") {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let scene = Scene::new();
    let private = scene.path("private");
    std::fs::create_dir(&private).unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    let script = private.join("adapter.py");
    std::fs::copy("tests/attackers/own_root_files.py", &script).unwrap();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let out = scene
        .toolpath()
        .args(["run", "--cases", "tests/data/mini", "--adapter"])
        .arg(format!("python3 {}", script.display()))
        .arg("--fixture-dir")
        .arg(&place)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "`{}`: {} is not searchable by it",
            script.display(),
            private.display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("or pass --subject-as-root"), "{stderr}");
    assert!(stderr.contains("readable by other users"), "{stderr}");
    assert_eq!(listing(&place), Vec::<String>::new());
}

/// The output of `command`, which must end within `limit`: killed then,
/// and the test fails, rather than waiting on a hang.
fn output_within(mut command: std::process::Command, limit: Duration) -> std::process::Output {
    use std::process::Stdio;
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            toolpath::sys::kill(pid, toolpath::sys::Signal::KILL);
            panic!("{command:?} still running after {limit:?}: it hung");
        }
    }
}

/// Issue 41: the check that `nobody` can start the subject opened its
/// program to read a `#!` line, and a FIFO named as the program blocked
/// that open forever (SIGTERM too waited on it); a FIFO named as its
/// script passed the check, and the subject blocked on it instead. Both
/// are refused at the start, exit 2, naming the FIFO, none of it opened.
/// By every command that starts an adapter (`fuzz` did not check, and
/// its subject blocked on the FIFO script until its hello timed out).
/// (Within 10 s on a loaded machine: the refusal takes milliseconds.)
#[test]
fn a_fifo_named_by_the_subject_command_is_refused_at_once() {
    if !root_or_skip("running the subject as another user") {
        return;
    }
    let scene = Scene::new();
    let fifo = scene.path("adapter.py");
    toolpath::sys::mkfifo(&fifo, 0o755).unwrap();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let findings = scene.path("findings");
    let (place_arg, findings_arg) = (place.to_str().unwrap(), findings.to_str().unwrap());
    let commands: [&[&str]; 3] = [
        &[
            "run",
            "--cases",
            "tests/data/mini",
            "--fixture-dir",
            place_arg,
        ],
        &[
            "fuzz",
            "--iterations",
            "3",
            "--findings",
            findings_arg,
            "--fixture-dir",
            place_arg,
        ],
        &["smoke"],
    ];
    for command in commands {
        for adapter in [
            fifo.display().to_string(),
            format!("python3 {}", fifo.display()),
        ] {
            let mut start = scene.toolpath();
            start.args(command).args(["--adapter", &adapter]);
            let out = output_within(start, Duration::from_secs(10));
            let shown = format!("{command:?} {adapter}");
            assert_eq!(out.status.code(), Some(2), "{shown}: {out:?}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains(&format!("{} is a FIFO, not a regular file", fifo.display())),
                "{shown}: {stderr}"
            );
            assert_eq!(listing(&place), Vec::<String>::new(), "{shown}");
            assert!(!findings.exists(), "{shown}");
        }
    }
}

/// Issue 30 item 9: the fixture builder kept every directory it opened
/// open, one descriptor each, so 80 paths 60 levels deep in one lint-valid
/// git fixture ran out of descriptors ("Too many open files", a case
/// error) under the usual limit of 1,024. It keeps only the directories
/// on the way to the one in use now: under a limit of 256 (the harness's
/// own needs and a few dozen levels) the case is built and passes.
#[test]
fn a_fixture_of_many_deep_paths_is_built_within_a_few_descriptors() {
    let scene = Scene::new();
    let cases = scene.path("deep");
    std::fs::create_dir(&cases).unwrap();
    let deep = vec!["d"; 60].join("/");
    let files: String = (0..80)
        .map(|i| format!("    ws/p{i}/{deep}/f.txt: x\n"))
        .collect();
    std::fs::write(
        cases.join("deep-git.yaml"),
        format!(
            "id: t.deep.git\nsummary: Deep paths in a repository.\nspec: [SEC-4]\n\
             requires: [git]\nfixture:\n  roots: [ws]\n  git: [ws]\n  files:\n{files}\
             call:\n  tool: resolve\n  params: {{path: ../x}}\n\
             expect:\n  outcome: error\n  error: {{code: outside_workspace}}\n"
        ),
    )
    .unwrap();
    let lint = toolpath()
        .arg("lint")
        .arg("--cases")
        .arg(&cases)
        .output()
        .unwrap();
    assert_eq!(lint.status.code(), Some(0), "{lint:?}");
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let out = std::process::Command::new("/bin/sh")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TMPDIR", scene.tmp())
        .env("HOME", scene.path("home"))
        .stdin(std::process::Stdio::null())
        .args(["-c", r#"ulimit -n 256 && exec "$0" "$@""#])
        .arg(env!("CARGO_BIN_EXE_toolpath"))
        .args(["run", "--jobs", "1", "--format", "json", "--cases"])
        .arg(&cases)
        .arg("--fixture-dir")
        .arg(&place)
        .output()
        .unwrap();
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("no report ({e}): {out:?}"));
    let case = &report["cases"][0];
    assert_eq!(case["status"], "pass", "{case}");
    assert_eq!(listing(&place), Vec::<String>::new());
}

/// Issue 30 item 3: case files given with `--cases` were validated at the
/// start and read again at each case's turn, so an adapter rewrote the
/// expectations of the cases still to come (same ids, same tools) and
/// passed them (0/3 became 2/3). A case file is run only as the bytes
/// validated now: the rewritten ones are case errors that say so, and
/// none passes. The adapter's rewrite is proven by the files themselves.
#[test]
fn an_adapter_that_rewrites_the_case_files_still_to_come_passes_none() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let cases = scene.path("cases");
    std::fs::create_dir(&cases).unwrap();
    for name in ["one", "two", "three"] {
        std::fs::write(
            cases.join(format!("resolve-{name}.yaml")),
            format!(
                "id: t.resolve.{name}\nsummary: Wrongly expected.\nspec: [SEC-4]\n\
                 fixture:\n  roots: [ws]\ncall:\n  tool: resolve\n  params: {{path: ../x}}\n\
                 expect:\n  outcome: error\n  error: {{code: not_found}}\n"
            ),
        )
        .unwrap();
    }
    let report = scene.path("report.json");
    let events = scene.path("report.json.events.jsonl");
    let (watch, before) = scene.watch(&[&place, &cases, &report, &events]);
    let adapter = r#"sh -c 'sed -i s/not_found/outside_workspace/ "$CASES"/*.yaml; exec "$TOOLPATH_BIN" serve'"#;
    let out = scene
        .toolpath()
        .arg("run")
        .arg("--cases")
        .arg(&cases)
        .args([
            "--jobs",
            "1",
            "--adapter",
            adapter,
            "--format",
            "json",
            "--output",
        ])
        .arg(&report)
        .arg("--fixture-dir")
        .arg(&place)
        // As the harness's user (see `as_the_harness`).
        .args(as_the_harness())
        .env("CASES", &cases)
        .output()
        .unwrap();
    let rewritten = std::fs::read_to_string(cases.join("resolve-three.yaml")).unwrap();
    assert!(rewritten.contains("outside_workspace"), "{rewritten}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["summary"]["pass"], 0, "{json}\n{out:?}");
    for case in json["cases"].as_array().unwrap() {
        assert_ne!(case["status"], "pass", "{case}");
    }
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(listing(&place), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// Issue 30 item 4: `roots.config.file` took an absolute path or `..`,
/// and the harness made the directories and wrote JSON the profile chose
/// there as root, before the server started, even when its command did
/// not exist; `version.package_json` read any file whole (`/dev/zero`).
/// `lint --mcp` called such a profile valid. Now lint names each key at
/// its line, `run --mcp` refuses the profile (exit 2) before anything
/// starts, and nothing is written outside the run.
#[test]
fn a_profile_that_names_paths_outside_its_directories_is_refused() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let profile = scene.path("p.profile.yaml");
    let planted = scene.path("planted.json");
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/fake.profile.yaml");
    let text = std::fs::read_to_string(fake)
        .unwrap()
        .replace(
            "version: {command: [python3, -c, \"print('fake-mcp 0.0.1')\"]}",
            "version: {package_json: /dev/zero}",
        )
        .replace(
            "command: [python3, \"{profile}/fake_server.py\"]",
            "command: [/nonexistent/server]",
        )
        .replace(
            "  via: mcp\n  ready: {tool: allowed}",
            &format!(
                "  via: config\n  config:\n    file: ../../../../../../../../..{}\n    key: dirs",
                planted.display()
            ),
        );
    std::fs::write(&profile, text).unwrap();
    let (watch, before) = scene.watch(&[&place, &profile]);
    let lint = scene
        .toolpath()
        .args(["lint", "--mcp"])
        .arg(&profile)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&lint.stderr);
    assert_eq!(lint.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(":8:27: `version.package_json: /dev/zero` must be a relative path inside the profile's directory"), "{stderr}");
    assert!(
        stderr.contains(":15:11: `roots.config.file: ../"),
        "{stderr}"
    );
    assert!(
        stderr.contains("inside the server's private HOME"),
        "{stderr}"
    );
    let run = scene
        .toolpath()
        .args(["run", "--cases", "tests/data/mcp", "--mcp"])
        .arg(&profile)
        .arg("--fixture-dir")
        .arg(&place)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(!planted.exists());
    assert_eq!(listing(&place), Vec::<String>::new());
    watch.assert_unchanged(&before);
}

/// Whether `pid` is a live process (a zombie is dead).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Issue 30 item 2: a chain of 50 processes, each in a session of its
/// own, the bottom one replacing every link killed, outlasted the orphan
/// cleanup and rewrote the JSON report after the run. Each subject lives
/// in a PID namespace of its own now (when the harness may make one, as
/// root: the report says otherwise), killed whole when it ends, and the
/// harness reaps it before it reports: when `toolpath run` returns, no
/// link is alive to write anything. The log proves every link existed.
#[test]
fn processes_an_adapter_leaves_behind_do_not_outlive_the_run() {
    if !toolpath::test_support::root_or_skip("boxing subjects") {
        return;
    }
    assert!(
        toolpath::sys::boxes_subjects(),
        "root, yet subjects are not boxed"
    );
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let log = scene.path("outlive.txt");
    let go = scene.path("go");
    let report = scene.path("report.json");
    let events = scene.path("report.json.events.jsonl");
    let (watch, before) = scene.watch(&[&place, &log, &report, &events]);
    let out = scene
        .toolpath()
        .args(["run", "--cases", "tests/data/mini", "--jobs", "1"])
        .args(["--adapter", "python3 tests/attackers/outlive.py"])
        .args(["--format", "json", "--output"])
        .arg(&report)
        .arg("--fixture-dir")
        .arg(&place)
        // As the harness's user (see `as_the_harness`).
        .args(as_the_harness())
        .env("OUTLIVE_LOG", &log)
        .env("OUTLIVE_GO", &go)
        .env("OUTLIVE_REPORT", &report)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let pids: Vec<i32> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert!(pids.len() >= 50, "{pids:?}");
    let living: Vec<i32> = pids.iter().copied().filter(|p| alive(*p)).collect();
    assert_eq!(living, Vec::<i32>::new(), "links outlived the run");
    std::fs::write(&go, "").unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["summary"]["fail"], 0, "{json}");
    assert_eq!(listing(&place), Vec::<String>::new());
    std::fs::remove_file(&go).unwrap();
    watch.assert_unchanged(&before);
}

/// Issue 30 item 8: a report was written through a symbolic link at its
/// `--output`, without truncation, so a tail planted in the file the link
/// names survived under the run's own last line. An adapter that swaps
/// the claimed report for a link to its own file (a long tail in it) gets
/// nothing now: the report is created fresh and renamed onto its name
/// (the link itself is replaced), and the adapter's file is left as it
/// made it. A link given as `--output` is refused before anything runs.
#[test]
fn a_report_is_never_written_through_a_link() {
    let scene = Scene::new();
    let place = scene.path("place");
    std::fs::create_dir(&place).unwrap();
    let report = scene.path("report.md");
    let decoy = scene.path("decoy.md");
    let tail = format!("{}\n72 passed, 0 failed\n", "padding ".repeat(4096));
    let events = scene.path("report.md.events.jsonl");
    let (watch, before) = scene.watch(&[&place, &report, &decoy, &events]);
    let adapter = r#"sh -c 'rm -f "$OUT"; printf "%s" "$TAIL" > "$DECOY"; ln -s "$DECOY" "$OUT"; exec "$TOOLPATH_BIN" serve'"#;
    let out = scene
        .toolpath()
        .args(["run", "--cases", "tests/data/mini", "--jobs", "1"])
        .args(["--adapter", adapter, "--format", "markdown", "--output"])
        .arg(&report)
        .arg("--fixture-dir")
        .arg(&place)
        // As the harness's user (see `as_the_harness`).
        .args(as_the_harness())
        .env("OUT", &report)
        .env("DECOY", &decoy)
        .env("TAIL", &tail)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        std::fs::read_to_string(&decoy).unwrap() == tail,
        "the decoy was written"
    );
    let meta = std::fs::symlink_metadata(&report).unwrap();
    assert!(meta.is_file(), "{meta:?}");
    let written = std::fs::read_to_string(&report).unwrap();
    assert!(!written.contains("padding"), "the planted tail survived");
    assert!(!written.contains("72 passed"), "the planted tail survived");

    // A link given as the output: refused, its target untouched.
    let link = scene.path("link.md");
    std::os::unix::fs::symlink(&decoy, &link).unwrap();
    let out = scene
        .toolpath()
        .args([
            "run",
            "--cases",
            "tests/data/mini",
            "--format",
            "markdown",
            "--output",
        ])
        .arg(&link)
        .arg("--fixture-dir")
        .arg(&place)
        .output()
        .unwrap();
    // 4: a report that cannot be written, found before the first case.
    assert_eq!(out.status.code(), Some(4), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is a symbolic link"), "{stderr}");
    assert!(
        std::fs::read_to_string(&decoy).unwrap() == tail,
        "the decoy was written"
    );
    std::fs::remove_file(&link).unwrap();
    assert_eq!(listing(&place), Vec::<String>::new());
    watch.assert_unchanged(&before);
}
