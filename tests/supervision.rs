//! How the harness supervises adapters that misbehave, and survives being
//! killed: every fault ends in bounded time with every requested report
//! written, every case classified with its reason, and nothing left behind
//! (no adapter process, no temporary directory).
//!
//! The adapters are `tests/adapters/broken.py MODE`. Each run gets a
//! private `TMPDIR`, so "nothing left behind" is "that directory is empty
//! but for the reports", and each adapter process writes its pid to a file
//! so the test can check none outlives the run.
//!
//! scripts/test-lanes: waits. Most of its time is spent waiting out
//! deliberate hangs and grace periods.
//!
//! Timeouts: a run is given [`RUN_LIMIT`] before the test calls it hung.
//! The runs take about a second; the limit is two orders of magnitude more
//! because these tests share a 2-core machine with other builds, where a
//! Python start-up alone has taken several seconds. It only turns a hang
//! (the bug) into a failure; it never decides a pass. Likewise every
//! healthy call and `hello` gets [`HEALTHY_MS`]: a short limit is given
//! only to a run whose every wait on it is a deliberate, certain hang (its
//! other instances filtered out), so a loaded machine cannot turn a slow
//! healthy answer into a timeout.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use toolpath::test_support::root_or_skip;

const MINI: &str = "tests/data/mini";
const RUN_LIMIT: Duration = Duration::from_secs(120);
/// `--timeout-ms` and `--hello-timeout-ms` for answers that come.
const HEALTHY_MS: &str = "60000";

/// Sets `path`'s permission bits to `mode`.
fn open(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
}

/// A private temporary directory for one run, with the pid file and the
/// reports inside it (under `out/`), and the run's `TMPDIR` (under `tmp/`).
struct Scene {
    dir: tempfile::TempDir,
}

impl Scene {
    fn new() -> Scene {
        let scene = Scene {
            dir: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir(scene.tmp()).unwrap();
        std::fs::create_dir(scene.out("")).unwrap();
        // As root the adapter runs as the run's own user (and so does the copy that
        // takes permission cases under --subject-as-root): the files it
        // writes are made for it, open to every user.
        for file in [scene.pids(), scene.grandchildren()] {
            scene.open_file(&file);
        }
        open(scene.dir.path(), 0o711);
        scene
    }

    fn tmp(&self) -> PathBuf {
        self.dir.path().join("tmp")
    }

    fn grandchildren(&self) -> PathBuf {
        self.dir.path().join("pids.grandchildren")
    }

    /// An empty file at `path`, open to every user (an adapter of a root
    /// harness, run as the run's own user, writes it).
    fn open_file(&self, path: &Path) {
        std::fs::write(path, "").unwrap();
        open(path, 0o666);
    }

    fn out(&self, name: &str) -> PathBuf {
        self.dir.path().join("out").join(name)
    }

    fn pids(&self) -> PathBuf {
        self.dir.path().join("pids")
    }

    fn toolpath(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolpath"));
        cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
            .env("TMPDIR", self.tmp())
            // The run directory goes here too, not to a shared tmpfs.
            .env("TOOLPATH_FIXTURE_DIR", self.tmp())
            .env("BROKEN_PIDS", self.pids())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// `toolpath run --cases MINI` with a broken adapter, JSON and JUnit
    /// reports to files; then `args` (`--jobs 1` and [`HEALTHY_MS`] for
    /// both limits unless they say otherwise).
    fn run(&self, mode: &str, glob: &str, args: &[&str]) -> Command {
        let mut cmd = self.toolpath();
        cmd.args(["run", "--cases", MINI, "--adapter"])
            .arg(format!("python3 tests/adapters/broken.py {mode} '{glob}'"))
            .args(["--format", "json", "--output"])
            .arg(self.out("report.json"))
            .args(["--format", "junit", "--output"])
            .arg(self.out("report.xml"))
            .args(args);
        for (option, default) in [
            ("--jobs", "1"),
            ("--timeout-ms", HEALTHY_MS),
            ("--hello-timeout-ms", HEALTHY_MS),
        ] {
            if !args.contains(&option) {
                cmd.args([option, default]);
            }
        }
        cmd
    }

    fn report(&self) -> Value {
        let text = std::fs::read_to_string(self.out("report.json")).expect("a JSON report");
        serde_json::from_str(&text).expect("a valid JSON report")
    }

    /// Adapter processes (and grandchildren) still running.
    fn alive(&self) -> Vec<i32> {
        let pids = std::fs::read_to_string(self.pids()).unwrap_or_default();
        pids.lines()
            .map(|l| l.parse().unwrap())
            .filter(|pid| running(*pid))
            .collect()
    }

    /// What is left in the run's TMPDIR.
    fn leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.tmp())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    /// Nothing left: no process, no temporary directory.
    fn assert_clean(&self) {
        assert_eq!(
            self.alive(),
            Vec::<i32>::new(),
            "processes outlived the run"
        );
        assert_eq!(self.leftovers(), Vec::<String>::new(), "left in TMPDIR");
    }
}

/// Whether `pid` is a live process (a zombie is dead).
fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat[stat.rfind(')').unwrap() + 1..]
                .split_whitespace()
                .next();
            state != Some("Z")
        }
        Err(_) => false,
    }
}

/// Waits (bounded) for a process that is not our child to exit, through a
/// pidfd: the kernel delivers the death signal asynchronously.
fn exits_within(pid: i32, limit: Duration) -> bool {
    use std::os::fd::AsRawFd;
    let Some(pid) = rustix::process::Pid::from_raw(pid) else {
        return true;
    };
    let Ok(fd) = rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()) else {
        return !running(pid.as_raw_pid());
    };
    let woke = toolpath::sys::poll_readable(&[Some(fd.as_raw_fd())], limit).unwrap();
    woke[0] || !running(pid.as_raw_pid())
}

struct Finished {
    code: Option<i32>,
    signal: Option<i32>,
    stderr: String,
    elapsed: Duration,
}

/// Waits for `child` at most [`RUN_LIMIT`] (see the module doc); kills it
/// and fails the test if it is still running then.
fn finish(mut child: Child, started: Instant) -> Finished {
    let mut stderr = child.stderr.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        let _ = std::io::copy(&mut stdout, &mut std::io::sink());
        let _ = tx.send(text);
    });
    let pid = child.id();
    let stderr = match rx.recv_timeout(RUN_LIMIT) {
        Ok(text) => text,
        Err(_) => {
            let _ = child.kill();
            panic!("toolpath (pid {pid}) still running after {RUN_LIMIT:?}: it hung");
        }
    };
    let status = child.wait().unwrap();
    Finished {
        code: status.code(),
        signal: status.signal(),
        stderr,
        elapsed: started.elapsed(),
    }
}

fn run_to_end(mut cmd: Command) -> Finished {
    let started = Instant::now();
    finish(cmd.spawn().unwrap(), started)
}

fn case<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {report}"))
}

fn statuses(report: &Value) -> Vec<(String, String)> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Prints a fault's figures, for the record (`cargo test -- --nocapture`).
fn figures(fault: &str, end: &Finished) {
    eprintln!(
        "FAULT {fault}: exit {:?} (signal {:?}), {:.2} s",
        end.code,
        end.signal,
        end.elapsed.as_secs_f64()
    );
}

#[test]
fn an_adapter_that_closes_stdout_and_keeps_running_is_ended() {
    let scene = Scene::new();
    let end = run_to_end(scene.run("close-stdout", "mini.search.file@grep", &[]));
    figures("close-stdout", &end);
    assert_eq!(end.code, Some(1), "{}", end.stderr);
    let report = scene.report();
    let broken = case(&report, "mini.search.file@grep");
    assert_eq!(broken["status"], "adapter_error");
    assert!(
        broken["reason"]
            .as_str()
            .unwrap()
            .contains("closed its standard output but was still running"),
        "{broken}"
    );
    // The others ran on a fresh adapter.
    assert_eq!(report["summary"]["pass"], 5, "{report}");
    scene.assert_clean();
}

/// The short limit is the hung call's alone: the run has no other
/// instance (the run going on with a fresh adapter after one was ended is
/// `an_adapter_that_closes_stdout_and_keeps_running_is_ended`, which waits
/// on no limit).
const ONLY_THE_HUNG: [&str; 4] = ["--timeout-ms", "2000", "--filter", "mini.search.file@grep"];

#[test]
fn a_hung_adapter_is_ended_with_its_whole_process_group() {
    let scene = Scene::new();
    let end = run_to_end(scene.run("hang", "mini.search.file@grep", &ONLY_THE_HUNG));
    figures("hang", &end);
    assert_eq!(end.code, Some(1), "{}", end.stderr);
    let report = scene.report();
    let hung = case(&report, "mini.search.file@grep");
    assert_eq!(hung["status"], "adapter_error");
    assert_eq!(hung["reason"], "timeout: no answer within 2000 ms");
    assert_eq!(report["summary"]["total"], 1, "{report}");
    let pids = std::fs::read_to_string(scene.pids()).unwrap();
    assert_eq!(pids.lines().count(), 2, "the adapter and its child: {pids}");
    scene.assert_clean();
}

#[test]
fn adapters_that_cannot_start_still_get_every_report() {
    for (mode, why) in [
        ("exit-before-hello", "exited (exit status: 5)"),
        ("protocol-2", "adapter speaks protocol 2"),
        ("silent", "no answer within 3000 ms"),
    ] {
        let scene = Scene::new();
        std::fs::write(scene.out("report.json"), "stale").unwrap();
        std::fs::write(scene.out("report.xml"), "stale").unwrap();
        // The short limit for the one that never answers; the others
        // must not depend on how fast Python starts.
        let hello = if mode == "silent" { "3000" } else { HEALTHY_MS };
        let end = run_to_end(scene.run(mode, "*", &["--hello-timeout-ms", hello]));
        figures(mode, &end);
        assert_eq!(end.code, Some(3), "{mode}: {}", end.stderr);
        let report = scene.report();
        assert_eq!(report["partial"], true);
        for (id, status) in statuses(&report) {
            assert_eq!(status, "not_run", "{mode}: {id}");
            let reason = case(&report, &id)["reason"].as_str().unwrap().to_owned();
            assert!(
                reason.starts_with("the adapter could not be started") && reason.contains(why),
                "{mode}: {reason}"
            );
        }
        assert_eq!(report["summary"]["not_run"], 6);
        let junit = std::fs::read_to_string(scene.out("report.xml")).unwrap();
        assert!(junit.starts_with("<?xml"), "{mode}: stale JUnit kept");
        if mode == "exit-before-hello" {
            let stderr = case(&report, "mini.desc.shell")["stderr"].as_str().unwrap();
            assert!(stderr.contains("exiting before hello"), "{stderr}");
        }
        scene.assert_clean();
    }
}

/// Issue 46: the names of `hello`'s lists and of a result's `derived`
/// are typed. A typo in any of them is refused, naming the typo and the
/// names it could have been, where it was once silently ignored (a field
/// misspelt in `unobservable` was judged as observed).
#[test]
fn a_typo_in_hello_s_lists_or_in_derived_is_refused_by_name() {
    for (mode, typo, known) in [
        ("typo-features", "`fifo`", "`fifos`"),
        ("typo-unobservable", "`parnet`", "`parent`"),
        ("typo-by-tool", "`entries.paht`", "`entries.path`"),
        ("typo-by-tool-name", "`read-file`", "`read_file`"),
    ] {
        let scene = Scene::new();
        let end = run_to_end(scene.run(mode, "*", &[]));
        assert_eq!(end.code, Some(3), "{mode}: {}", end.stderr);
        let report = scene.report();
        for (id, status) in statuses(&report) {
            assert_eq!(status, "not_run", "{mode}: {id}");
            let reason = case(&report, &id)["reason"].as_str().unwrap().to_owned();
            assert!(
                reason.starts_with("the adapter could not be started: bad output")
                    && reason.contains(typo)
                    && reason.contains(known),
                "{mode}: {reason}"
            );
        }
        scene.assert_clean();
    }
    let scene = Scene::new();
    let end = run_to_end(scene.run("typo-derived", "mini.resolve.outside", &[]));
    assert_eq!(end.code, Some(1), "{}", end.stderr);
    let report = scene.report();
    let broken = case(&report, "mini.resolve.outside");
    assert_eq!(broken["status"], "adapter_error", "{broken}");
    let reason = broken["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("bad output")
            && reason.contains("`error.cod`")
            && reason.contains("`error.code`"),
        "{reason}"
    );
    scene.assert_clean();
}

/// Issue 41 item 2: a subject whose restarts never answer `hello` cost a
/// hello timeout per instance, since restarts for one case file are free
/// (and `--max-restarts` files of them then). Starts that never got as far
/// as `hello` are budgeted over the whole run: after three in a row the
/// subject is given up on, whatever `--max-restarts` says.
#[test]
fn a_subject_whose_restarts_never_say_hello_is_given_up_on_after_three() {
    let scene = Scene::new();
    let mut cmd = scene.toolpath();
    cmd.args([
        "run",
        "--adapter",
        "python3 tests/adapters/broken.py silent-after-crash",
    ])
    .args(["--filter", "resolve.shape.same-base-name*"])
    .args(["--filter", "resolve.shape.in-both-roots*"])
    .args([
        "--jobs",
        "1",
        "--max-restarts",
        "100",
        "--timeout-ms",
        HEALTHY_MS,
    ])
    .args(["--hello-timeout-ms", "2000", "--format", "json", "--output"])
    .arg(scene.out("report.json"));
    let end = run_to_end(cmd);
    figures("silent-after-crash", &end);
    assert_eq!(end.code, Some(3), "a partial run: {}", end.stderr);
    let report = scene.report();
    assert_eq!(report["partial"], true);
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 16);
    let reason = |c: &Value| c["reason"].as_str().unwrap_or_default().to_owned();
    let silent: Vec<String> = (cases.iter())
        .filter(|c| reason(c).contains("no answer within 2000 ms"))
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        silent.len(),
        3,
        "three silent starts, then no more: {silent:?}"
    );
    let crashed = (cases.iter())
        .filter(|c| reason(c).contains("the adapter exited"))
        .count();
    assert_eq!(
        crashed,
        1,
        "{}",
        serde_json::to_string_pretty(&report["cases"]).unwrap()
    );
    let not_run: Vec<String> = (cases.iter())
        .filter(|c| c["status"] == "not_run")
        .map(reason)
        .collect();
    assert_eq!(
        not_run.len(),
        16 - 1 - 3,
        "all but the first four calls: {not_run:?}"
    );
    for why in &not_run {
        assert!(
            why.contains("hello"),
            "the reason names the silent starts: {why}"
        );
    }
    scene.assert_clean();
}

#[test]
fn output_while_no_call_is_outstanding_is_charged_to_the_case_that_sent_it() {
    // The extra `result` carries the next call's seq: taken as an answer,
    // it would judge the next case on this one's answer.
    for (after, next) in [
        ("mini.resolve.outside", Some("mini.search.file@grep")),
        ("mini.shell.subpath", None),
    ] {
        let scene = Scene::new();
        let end = run_to_end(scene.run("extra-result", after, &[]));
        figures("extra-result", &end);
        assert_eq!(end.code, Some(1), "{}", end.stderr);
        let report = scene.report();
        let sender = case(&report, after);
        assert_eq!(sender["status"], "adapter_error", "{sender}");
        let reason = sender["reason"].as_str().unwrap();
        assert!(
            reason.starts_with("unsolicited output: wrote while no call was outstanding"),
            "{reason}"
        );
        if let Some(next) = next {
            assert_eq!(case(&report, next)["status"], "pass");
        }
        assert_eq!(report["summary"]["pass"], 5, "{report}");
        // The event log says the same: its last line for the sender (a
        // later line for a case replaces an earlier one) is the charge.
        let log = std::fs::read_to_string(scene.out("report.json.events.jsonl")).unwrap();
        let last = log
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .rfind(|e| e["id"] == after)
            .unwrap();
        assert_eq!(last["status"], "adapter_error", "{log}");
        scene.assert_clean();
    }
}

/// Peak resident memory of `child` and the descendants it waited for, in
/// KiB (libc: rustix has no `wait4` that returns the resource usage).
fn peak_rss_kib(child: Child) -> (i64, i32) {
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 on our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        let _ = tx.send((r, usage.ru_maxrss, status));
    });
    let (r, maxrss, status) = rx.recv_timeout(RUN_LIMIT).expect("toolpath hung");
    assert_eq!(r, pid);
    (maxrss, libc::WEXITSTATUS(status))
}

/// Peak resident memory of a healthy run of the same shape (the mini
/// cases, `broken.py` answering every call like the reference, two
/// workers): the baseline memory bounds are measured against, so what the
/// build, the allocator or the machine adds is in both and only what a
/// fault costs is compared with what the protocol allows.
fn healthy_peak_kib() -> i64 {
    let scene = Scene::new();
    let mut cmd = scene.run("long-line", "no-case-is-named-so", &["--jobs", "2"]);
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let (peak_kib, code) = peak_rss_kib(cmd.spawn().unwrap());
    assert_eq!(code, 0, "the healthy run failed");
    scene.assert_clean();
    peak_kib
}

/// What a fault may cost beyond the healthy run besides the lines the
/// protocol lets each worker hold: buffers and a report with its reasons.
const SLACK_KIB: i64 = 16 * 1024;

#[test]
fn a_500_mb_line_costs_bounded_memory_and_is_bad_output() {
    let scene = Scene::new();
    let mut cmd = scene.run("long-line", "mini.search.file@*", &["--jobs", "2"]);
    cmd.env("LONG_LINE_MB", "500")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let started = Instant::now();
    let (peak_kib, code) = peak_rss_kib(cmd.spawn().unwrap());
    eprintln!(
        "FAULT long-line (2 x 500 MB): exit {code}, {:.2} s, peak RSS {} MiB",
        started.elapsed().as_secs_f64(),
        peak_kib / 1024
    );
    assert_eq!(code, 1);
    let report = scene.report();
    for id in ["mini.search.file@grep", "mini.search.file@ripgrep"] {
        let broken = case(&report, id);
        assert_eq!(broken["status"], "adapter_error");
        assert!(
            broken["reason"].as_str().unwrap().starts_with(
                "bad output: a line longer than the protocol's limit of 16777216 bytes"
            ),
            "{broken}"
        );
    }
    // Two workers, each holding at most one line of 16 MiB, beyond what a
    // healthy run costs (measured: about 22 MiB, and 41 to 54 MiB here).
    let healthy = healthy_peak_kib();
    assert!(
        peak_kib < healthy + 2 * 16 * 1024 + SLACK_KIB,
        "peak RSS {peak_kib} KiB, a healthy run's {healthy} KiB"
    );
    scene.assert_clean();
}

#[test]
fn a_grandchild_that_leaves_the_process_group_is_ended() {
    let scene = Scene::new();
    let end = run_to_end(scene.run("grandchild", "mini.resolve.outside", &[]));
    figures("grandchild", &end);
    assert_eq!(end.code, Some(0), "{}", end.stderr);
    let started = std::fs::read_to_string(scene.grandchildren()).expect("no grandchild started");
    // One per call: the instance's fixture has a file outside every root,
    // so non-interference asks the call again on its twin (SEC-12).
    assert_eq!(started.lines().count(), 2, "{started}");
    scene.assert_clean();
}

#[test]
fn permission_cases_report_the_unprivileged_copy_s_scratch_and_stderr() {
    if !root_or_skip("routing permission cases to the unprivileged copy (only for root)") {
        return;
    }
    let scene = Scene::new();
    let end = run_to_end(scene.run("report-uid", "mini.resolve.permission", &[]));
    assert_eq!(end.code, Some(1), "{}", end.stderr);
    let report = scene.report();
    let perm = case(&report, "mini.resolve.permission");
    assert_eq!(perm["status"], "fail", "{perm}");
    // The run's own user (session::run_user), not `nobody`.
    let stderr = perm["stderr"].as_str().unwrap_or("");
    let uid: u32 = (stderr.split("answering as uid ").nth(1))
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no uid said: {perm}"));
    assert!(toolpath::session::run_user::IDS.contains(&uid), "{perm}");
    let diff = perm["diff"].as_str().unwrap();
    assert!(
        diff.contains(&format!("uid {uid}, scratch {{adapter-tmp}}/x")),
        "{diff}"
    );
    scene.assert_clean();
}

/// Starts a run whose adapter hangs on `mini.search.file@grep`; returns
/// once the adapter is hanging (it says so through a FIFO: no sleeping).
fn start_hanging_run(scene: &Scene, extra: &[&str]) -> (Child, Instant) {
    let fifo = scene.dir.path().join("ready");
    // Open to the adapter, which runs as the run's own user when the
    // harness is root.
    toolpath::sys::mkfifo(&fifo, 0o600).unwrap();
    open(&fifo, 0o666);
    let mut args = vec!["--timeout-ms", "600000"];
    args.extend(extra);
    let mut cmd = scene.run("hang", "mini.search.file@grep", &args);
    cmd.env("BROKEN_READY", &fifo);
    let started = Instant::now();
    let child = cmd.spawn().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::fs::File::open(&fifo).and_then(|mut f| f.read_to_string(&mut line));
        let _ = tx.send(line);
    });
    assert_eq!(
        rx.recv_timeout(RUN_LIMIT).expect("the adapter never hung"),
        "ready\n"
    );
    (child, started)
}

fn run_dirs(scene: &Scene) -> Vec<String> {
    scene
        .leftovers()
        .into_iter()
        .filter(|n| n.starts_with("toolpath-run-"))
        .collect()
}

#[test]
fn sigint_and_sigterm_clean_up_and_write_partial_reports() {
    use toolpath::sys::Signal;
    for (signal, code) in [(Signal::INT, 130), (Signal::TERM, 143)] {
        let scene = Scene::new();
        // Expectations written by hand, which a cancelled run saw only
        // part of the suite for: they must stay as they were.
        let expectations = scene.out("expectations.yaml");
        let written = "mini.shell.subpath:\n  status: xfail\n  reason: by hand\n";
        std::fs::write(&expectations, written).unwrap();
        let file = expectations.to_str().unwrap();
        let (child, started) = start_hanging_run(
            &scene,
            &["--expectations", file, "--write-expectations", file],
        );
        // `toolpath clean` never touches a live run's directory.
        let clean = run_to_end({
            let mut c = scene.toolpath();
            c.arg("clean");
            c
        });
        assert_eq!(clean.code, Some(0), "{}", clean.stderr);
        assert_eq!(run_dirs(&scene).len(), 1, "clean removed a live run");
        toolpath::sys::kill(child.id(), signal);
        let end = finish(child, started);
        figures(&format!("signal {}", signal.as_raw()), &end);
        assert_eq!(end.code, Some(code), "{}", end.stderr);
        let report = scene.report();
        assert_eq!(report["partial"], true);
        let hung = case(&report, "mini.search.file@grep");
        assert_eq!(hung["status"], "not_run");
        assert!(
            hung["reason"]
                .as_str()
                .unwrap()
                .starts_with("the run was cancelled by SIG")
        );
        assert_eq!(case(&report, "mini.resolve.outside")["status"], "pass");
        assert_eq!(case(&report, "mini.shell.subpath")["status"], "not_run");
        let junit = std::fs::read_to_string(scene.out("report.xml")).unwrap();
        assert!(junit.contains("not_run"), "{junit}");
        assert_eq!(std::fs::read_to_string(&expectations).unwrap(), written);
        assert!(end.stderr.contains("left as it was"), "{}", end.stderr);
        scene.assert_clean();
    }
}

#[test]
fn after_sigkill_the_event_log_is_a_partial_report_and_clean_removes_the_rest() {
    let scene = Scene::new();
    let (mut child, _) = start_hanging_run(&scene, &[]);
    child.kill().unwrap();
    child.wait().unwrap();
    // The adapter dies with the harness (PR_SET_PDEATHSIG)...
    let pids = std::fs::read_to_string(scene.pids()).unwrap();
    let adapter: i32 = pids.lines().next().unwrap().parse().unwrap();
    assert!(
        exits_within(adapter, RUN_LIMIT),
        "the adapter outlived the harness"
    );
    // ...the event log holds what was judged before the kill...
    let events = scene.out("report.json.events.jsonl");
    let table = scene
        .toolpath()
        .arg("certification")
        .arg(&events)
        .output()
        .unwrap();
    assert_eq!(
        table.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&table.stderr)
    );
    let log = std::fs::read_to_string(&events).unwrap();
    assert!(
        log.lines()
            .next()
            .unwrap()
            .starts_with("{\"event\":\"start\"")
    );
    assert!(log.contains("\"id\":\"mini.resolve.outside\""), "{log}");
    assert!(!log.contains("\"event\":\"end\""));
    // ...and the run directory is left, until `toolpath clean`.
    assert_eq!(run_dirs(&scene).len(), 1);
    let clean = run_to_end({
        let mut c = scene.toolpath();
        c.arg("clean");
        c
    });
    assert_eq!(clean.code, Some(0), "{}", clean.stderr);
    assert!(
        clean.stderr.contains("left by a run that died"),
        "{}",
        clean.stderr
    );
    scene.assert_clean();
}

#[test]
fn usage_errors_and_unwritable_reports_are_found_before_any_case_runs() {
    let scene = Scene::new();
    let adapter = "python3 tests/adapters/broken.py hang";
    let cases: [(&[&str], i32); 3] = [
        (&["--format", "json", "--format", "junit"], 2),
        (&["--jobs", "0"], 2),
        (
            &["--format", "json", "--output", "/nonexistent/dir/r.json"],
            4,
        ),
    ];
    for (args, code) in cases {
        let end = run_to_end({
            let mut c = scene.toolpath();
            c.args(["run", "--cases", MINI, "--adapter", adapter])
                .args(args);
            c
        });
        assert_eq!(end.code, Some(code), "{args:?}: {}", end.stderr);
        let pids = std::fs::read_to_string(scene.pids()).unwrap();
        assert_eq!(pids, "", "{args:?}: an adapter was started");
    }
    scene.assert_clean();
}

#[test]
fn list_and_lint_into_a_closed_pipe_exit_quietly() {
    for command in ["list", "lint"] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
            .arg(command)
            .stdout(writer)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{command}: {stderr}");
        assert!(!stderr.contains("panicked"), "{command}: {stderr}");
    }
}

#[test]
fn the_event_log_is_the_report_streamed() {
    let scene = Scene::new();
    let end = run_to_end(scene.run("extra-result", "none", &[]));
    assert_eq!(end.code, Some(0), "{}", end.stderr);
    let log = std::fs::read_to_string(scene.out("report.json.events.jsonl")).unwrap();
    let kinds: Vec<String> = log
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["event"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "start", "case", "case", "case", "case", "case", "case", "end"
        ]
    );
    scene.assert_clean();
}

#[test]
fn a_hello_past_the_protocol_s_bounds_cannot_start_and_costs_bounded_memory() {
    let healthy = healthy_peak_kib();
    for (mode, why) in [
        (
            "huge-hello",
            "bad output: a line longer than the protocol's limit of 1048576 bytes",
        ),
        (
            "many-features",
            "bad output: its hello has 1000 `features` entries; the protocol allows at most 64",
        ),
    ] {
        let scene = Scene::new();
        let mut cmd = scene.run(mode, "*", &["--jobs", "2"]);
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
        let started = Instant::now();
        let (peak_kib, code) = peak_rss_kib(cmd.spawn().unwrap());
        eprintln!(
            "FAULT {mode}: exit {code}, {:.2} s, peak RSS {} MiB",
            started.elapsed().as_secs_f64(),
            peak_kib / 1024
        );
        assert_eq!(code, 3, "{mode}");
        let report = scene.report();
        for (id, status) in statuses(&report) {
            assert_eq!(status, "not_run", "{mode}: {id}");
            let reason = case(&report, &id)["reason"].as_str().unwrap().to_owned();
            assert_eq!(
                reason,
                format!("the adapter could not be started: {why}"),
                "{mode}"
            );
        }
        // A 16 MiB hello of millions of features cost gigabytes when it
        // was parsed; now at most a 1 MiB line per worker is ever held
        // beyond what a healthy run costs.
        assert!(
            peak_kib < healthy + 2 * 1024 + SLACK_KIB,
            "{mode}: peak RSS {peak_kib} KiB, a healthy run's {healthy} KiB"
        );
        scene.assert_clean();
    }
}

#[test]
fn a_flood_of_matches_is_judged_whole_and_stored_capped() {
    let scene = Scene::new();
    let end = run_to_end(scene.run("flood-matches", "mini.search.file@grep", &[]));
    figures("flood-matches", &end);
    assert_eq!(end.code, Some(1), "{}", end.stderr);
    let report = scene.report();
    let flooded = case(&report, "mini.search.file@grep");
    assert_eq!(flooded["status"], "fail", "{flooded}");
    let stored = flooded.to_string().len();
    // 15 MiB of matches came in; what the report keeps of the instance is
    // a few kilobytes, every cut marked.
    assert!(stored < 64 * 1024, "{stored} bytes kept for one instance");
    let matches = flooded["mismatches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["field"] == "matches")
        .expect("judged on its matches");
    let actual = matches["actual"].as_str().unwrap();
    assert!(actual.contains(" more ("), "{actual}");
    assert!(actual.ends_with(" in all)]"), "{actual}");
    scene.assert_clean();
}

#[test]
fn a_hung_adapter_gets_sigterm_and_a_grace_period_before_sigkill() {
    // One that handles SIGTERM says so on its way out (its stderr is in the
    // report); one that ignores it is killed all the same. Both end.
    for (mode, said) in [("hang-term", true), ("hang-ignore-term", false)] {
        let scene = Scene::new();
        let end = run_to_end(scene.run(mode, "mini.search.file@grep", &ONLY_THE_HUNG));
        figures(mode, &end);
        assert_eq!(end.code, Some(1), "{mode}: {}", end.stderr);
        let report = scene.report();
        let hung = case(&report, "mini.search.file@grep");
        assert_eq!(
            hung["reason"], "timeout: no answer within 2000 ms",
            "{mode}"
        );
        let stderr = hung["stderr"].as_str().unwrap_or("");
        assert_eq!(
            stderr.contains("got SIGTERM, exiting"),
            said,
            "{mode}: {stderr}"
        );
        scene.assert_clean();
    }
}

#[test]
fn adapters_get_no_git_variable_and_no_git_configuration_of_the_harness() {
    let scene = Scene::new();
    let seen = scene.dir.path().join("env.json");
    scene.open_file(&seen);
    let mut cmd = scene.run("report-env", "mini.resolve.outside", &[]);
    // What a pre-commit hook and a hostile environment hand a harness.
    cmd.env("BROKEN_ENV", &seen)
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "core.fsmonitor")
        .env("GIT_CONFIG_VALUE_0", "touch /tmp/toolpath-pwned")
        .env("GIT_CONFIG_PARAMETERS", "'alias.x'='!false'")
        .env("GIT_INDEX_FILE", "/nonexistent/toolpath/index")
        .env("GIT_DIR", "/nonexistent/toolpath/git");
    let end = run_to_end(cmd);
    assert_eq!(end.code, Some(0), "{}", end.stderr);
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    let git_vars: Vec<(&String, &Value)> = seen["env"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| k.starts_with("GIT_"))
        .collect();
    assert_eq!(
        git_vars,
        [
            (&"GIT_CONFIG_GLOBAL".to_owned(), &Value::from("/dev/null")),
            (&"GIT_CONFIG_NOSYSTEM".to_owned(), &Value::from("1")),
        ]
    );
    let config = seen["git_config"].as_str().unwrap();
    assert!(
        !config.contains("fsmonitor") && !config.contains("command line:"),
        "{config}"
    );
    scene.assert_clean();
}

/// Issue 42: an adapter ran in the directory `toolpath` was started in,
/// with the harness's `HOME`: places of the user's, where no canary may
/// be put, so a tool that allows them beside the roots showed nothing.
/// Each process gets a working directory and a `HOME` of its own now,
/// below its `TMPDIR`; the command's relative words that name files
/// (`tests/adapters/broken.py`) are taken from where `toolpath` was
/// started, so the adapter still runs and finds itself by its own path,
/// and a word naming nothing (the mode) is passed as it is.
#[test]
fn an_adapter_runs_in_a_working_directory_and_home_of_its_own() {
    let scene = Scene::new();
    let seen = scene.dir.path().join("env.json");
    scene.open_file(&seen);
    let mut cmd = scene.run("report-env", "mini.resolve.outside", &[]);
    cmd.env("BROKEN_ENV", &seen).env("HOME", scene.dir.path());
    let end = run_to_end(cmd);
    assert_eq!(end.code, Some(0), "{}", end.stderr);
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    let tmp = seen["env"]["TMPDIR"].as_str().unwrap();
    assert!(Path::new(tmp).starts_with(scene.tmp()), "{tmp}");
    assert_eq!(seen["env"]["HOME"], format!("{tmp}/home"));
    assert_eq!(seen["cwd"], format!("{tmp}/work"));
    assert_eq!(seen["env"]["PWD"], format!("{tmp}/work"));
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adapters/broken.py");
    assert_eq!(seen["file"], own.display().to_string());
    scene.assert_clean();
}

/// Issue 30 item 5: a call of 200 KiB (a lint-valid `write_file` case; 100
/// KiB here, more than a pipe's buffer) to
/// an adapter that stopped reading its input held the harness in the
/// write, past `--timeout-ms`, until SIGKILL. The write is non-blocking
/// now and bounded by the call's deadline: the case is an adapter error
/// that says the adapter did not read its input, and the run ends and
/// leaves nothing behind. (Only the hang guard of `finish` is a clock.)
#[test]
fn a_call_to_an_adapter_that_stopped_reading_ends_at_its_deadline() {
    let scene = Scene::new();
    let cases = scene.dir.path().join("cases");
    std::fs::create_dir(&cases).unwrap();
    let content = "x".repeat(100 * 1024);
    std::fs::write(
        cases.join("write-big.yaml"),
        format!(
            "id: t.write.big\nsummary: A big write.\nspec: [FILE-8]\nfixture:\n  roots: [ws]\n\
             call:\n  tool: write_file\n  params: {{file_path: \"{{ws}}/a.txt\", content: \"{content}\"}}\n\
             expect:\n  outcome: ok\n  kind: file\n  path: \"{{ws}}/a.txt\"\n  writes:\n    ws/a.txt: \"{content}\"\n"
        ),
    )
    .unwrap();
    let mut cmd = scene.toolpath();
    cmd.arg("run")
        .arg("--cases")
        .arg(&cases)
        .args(["--adapter", "python3 tests/adapters/broken.py deaf"])
        .args(["--format", "json", "--output"])
        .arg(scene.out("report.json"))
        .args(["--timeout-ms", "2000", "--hello-timeout-ms", HEALTHY_MS]);
    let done = run_to_end(cmd);
    assert_eq!(done.code, Some(1), "{}", done.stderr);
    let report = scene.report();
    let case = case(&report, "t.write.big");
    assert_eq!(case["status"], "adapter_error", "{case}");
    let message = case["reason"].as_str().unwrap_or_default();
    assert!(
        message.contains("did not read its input within 2000 ms"),
        "{case}"
    );
    scene.assert_clean();
}

/// `toolpath run` of the FIFO cases of the embedded suite against
/// `mutant.py MODE` (a tool that opens the call's FIFO), with a short
/// hang bound, a call timeout the run could never wait out within
/// [`RUN_LIMIT`] (so a run that ends was never waiting on it), and no
/// restart allowed but the free one after a FIFO block.
fn fifo_run(scene: &Scene, mode: &str) -> (Finished, Value) {
    let mut cmd = scene.toolpath();
    cmd.args(["run", "--adapter"])
        .arg(format!("python3 tests/adapters/mutant.py {mode}"))
        .args(["--filter", "file.read.fifo", "--filter", "file.write.fifo"])
        .args([
            "--filter",
            "resolve.type.fifo",
            "--filter",
            "search.type.fifo@grep",
        ])
        .args(["--jobs", "1", "--hello-timeout-ms", HEALTHY_MS])
        .args(["--timeout-ms", "600000", "--hang-timeout-ms", "200"])
        .args(["--max-restarts", "0", "--format", "json", "--output"])
        .arg(scene.out("report.json"));
    let end = run_to_end(cmd);
    figures(mode, &end);
    (end, scene.report())
}

/// The reasons of a FIFO run, each checked to be a failure under the
/// FIFO's rule, and its header to say the run was whole.
fn blocked_reasons(end: &Finished, report: &Value) -> Vec<String> {
    assert_eq!(
        end.code,
        Some(1),
        "failures, not a partial run: {}",
        end.stderr
    );
    assert_eq!(report["partial"], false, "{report}");
    assert_eq!(report["summary"]["total"], 4, "{report}");
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(c["status"], "fail", "{c}");
            let rule = &c["mismatches"][0]["rule"];
            let want = if c["tool"].as_str().unwrap().ends_with("_file") {
                "FILE-6"
            } else {
                "RES-10"
            };
            assert_eq!(rule, want, "{c}");
            c["reason"].as_str().unwrap().to_owned()
        })
        .collect()
}

/// A tool that blocks opening a FIFO of its fixture (reading, or writing
/// from `write_file`) fails each such case as blocked, past the hang
/// bound (never the call timeout, which the run could not have waited
/// out), and, released by the harness, answers and goes on: no restart
/// (none is allowed). The report carries the time waited and the workers.
#[test]
fn a_tool_blocked_on_a_fifo_is_released_past_the_hang_bound_and_fails_the_case() {
    let scene = Scene::new();
    let (end, report) = fifo_run(&scene, "open-fifo");
    for reason in blocked_reasons(&end, &report) {
        assert!(
            reason.starts_with(
                "blocked on the FIFO ws/pipe (opened for reading) past the 200 ms bound"
            ) || reason.starts_with(
                "blocked on the FIFO ws/pipe (opened for writing) past the 200 ms bound"
            ),
            "{reason}"
        );
        assert!(
            reason.contains("a FIFO must not be opened (RES-10, FILE-6)"),
            "{reason}"
        );
    }
    assert!(report["waited_ms"].as_f64().unwrap() > 0.0, "{report}");
    assert_eq!(report["workers"], 1);
    scene.assert_clean();
}

/// One that blocks and, released, still does not answer is ended after
/// the grace and restarted for the next case: that restart has its
/// verdict (the case failed) and uses none of `--max-restarts 0`.
#[test]
fn a_tool_stuck_on_a_fifo_after_its_release_is_ended_and_its_restarts_are_free() {
    let scene = Scene::new();
    let (end, report) = fifo_run(&scene, "open-fifo-stuck");
    for reason in blocked_reasons(&end, &report) {
        assert!(
            reason.starts_with("blocked on the FIFO ws/pipe"),
            "{reason}"
        );
        assert!(
            reason.ends_with("it still did not answer once the harness opened the FIFO's other end, and was ended"),
            "{reason}"
        );
    }
    scene.assert_clean();
}
