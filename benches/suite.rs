//! `cargo bench --bench suite`: how close a run comes to the floor, the
//! syscalls that build and remove each instance's fixture.
//!
//! In one run, on each filesystem (tmpfs `/dev/shm` when present, and the
//! default temporary directory), with the suite's own fixtures:
//!
//! - the *floor*: every instance's fixture built and removed by the fewest
//!   calls that can make it (plain `std::fs`, no checks), nothing else. A
//!   git repository's floor is the files of its `.git` (objects, index,
//!   refs, `HEAD`, config) written as plain files, one `mkdir` or `write`
//!   each, their bytes computed before the clock starts: the I/O a
//!   repository physically needs, not the cost of any way of making one
//!   (the hashing and compressing are left to the builder's row);
//! - the harness's own fixture builder alone;
//! - the in-process run and the stdio run (`toolpath serve`), as library
//!   calls, jobs 1;
//! - the whole process (`toolpath run --jobs 1`, in-process and over stdio).
//!
//! Every figure is per *instance* (a case that runs against several tools is
//! several instances) and as a ratio to the floor on the same filesystem,
//! for wall time and for CPU time (this process's and its children's: on a
//! shared machine, wall time mostly measures the other processes).
//! Then the start-up cost of `toolpath list` and `toolpath lint`, and the
//! peak memory of a whole run over 1k, 10k and 30k generated cases (100k with
//! `TOOLPATH_BENCH_100K=1`; it takes a minute). Nothing here asserts on time
//! (timed tests are flaky); the numbers go into notes and docs.
//!
//! Then, on tmpfs, what a git instance costs against any other: the floor,
//! the builder and the in-process run over the instances whose fixture has
//! a git repository, and over the others, per instance, with the ratio.
//!
//! While iterating, `TOOLPATH_BENCH_ONLY=tmpfs,startup` (any of `tmpfs`,
//! `tmp`, `git`, `startup`, `adapter`, `memory`, `mcp`) runs only those
//! sections; `mcp` times the whole suite against each shipped MCP profile.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use toolpath::case::fixture;
use toolpath::harness::config::{RunConfig, SubjectFactory};
use toolpath::harness::run::run;
use toolpath::subject::adapter::{Adapter, AdapterConfig};
use toolpath::subject::{Reference, Subject};
use toolpath_suite::case::{Fixture, Instance};

const ROUNDS: usize = 7;
const BIN: &str = env!("CARGO_BIN_EXE_toolpath");

/// The best of several rounds: on a shared machine the other processes only
/// ever add time, so the minimum is the closest to the cost of the work itself.
fn best(samples: Vec<Duration>) -> Duration {
    samples.into_iter().min().expect("at least one round")
}

/// What some work cost: wall time, and the CPU time (user + system) of this
/// process and of the children it waited for (git, the shell, an adapter).
/// On a loaded machine wall time mostly measures the others; CPU time
/// hardly moves, so the ratios are given on both.
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Duration,
}

/// The CPU time this process and its waited-for children have used so far.
fn cpu_so_far() -> Duration {
    let mut total = Duration::ZERO;
    for who in [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN] {
        // SAFETY: rusage is plain data that getrusage fills in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        assert_eq!(unsafe { libc::getrusage(who, &mut usage) }, 0, "getrusage");
        total += cpu_time(&usage);
    }
    total
}

/// The best wall time and the best CPU time of several rounds (each its own minimum).
fn best_timing(samples: Vec<Timing>) -> Timing {
    Timing {
        wall: best(samples.iter().map(|t| t.wall).collect()),
        cpu: best(samples.iter().map(|t| t.cpu).collect()),
    }
}

fn timed(rounds: usize, mut f: impl FnMut()) -> Timing {
    best_timing(
        (0..rounds)
            .map(|_| {
                let (started, cpu) = (Instant::now(), cpu_so_far());
                f();
                Timing {
                    wall: started.elapsed(),
                    cpu: cpu_so_far() - cpu,
                }
            })
            .collect(),
    )
}

/// The entries of the `.git` directories of `fixture`, as the builder
/// writes them: (path in the fixture, the file's bytes or `None` for a
/// directory), each directory before what is in it. Empty without git.
type GitFiles = Vec<(PathBuf, Option<Vec<u8>>)>;

fn git_files(fixture: &Fixture) -> GitFiles {
    fn walk(root: &Path, dir: &Path, out: &mut GitFiles) {
        out.push((dir.strip_prefix(root).expect("below").to_owned(), None));
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("read .git")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let bytes = std::fs::read(&path).expect("read");
                out.push((
                    path.strip_prefix(root).expect("below").to_owned(),
                    Some(bytes),
                ));
            }
        }
    }
    let mut out = Vec::new();
    if fixture.git.is_empty() {
        return out;
    }
    let built = fixture::build(fixture, None).expect("fixture");
    for repo in &fixture.git {
        walk(
            &built.root,
            &built.root.join(repo.to_string()).join(".git"),
            &mut out,
        );
    }
    out
}

/// Builds `fixture` under `root` with no checks at all: the fewest calls
/// that make the same entries (the floor the real builder is measured
/// against), its repositories' files (`git`) given.
fn build_minimal(fixture: &Fixture, root: &Path, git: &GitFiles) {
    let at = |p: &dyn std::fmt::Display| root.join(p.to_string());
    std::fs::create_dir(root).expect("root");
    let is_link = |p: &&toolpath_suite::case::FixturePath| {
        fixture.symlinks.iter().any(|(link, _)| link == *p)
    };
    let dirs = fixture.roots.iter().chain([&fixture.target]);
    for path in dirs.filter(|p| !is_link(p)).chain(&fixture.dirs) {
        std::fs::create_dir_all(at(path)).expect("dir");
    }
    let parent = |p: &Path| std::fs::create_dir_all(p.parent().expect("parent")).expect("parent");
    for (path, bytes) in &fixture.files {
        let file = at(path);
        parent(&file);
        std::fs::write(file, bytes).expect("file");
    }
    let nodes = [
        (&fixture.fifos, libc::S_IFIFO | 0o644, 0),
        (&fixture.sockets, libc::S_IFSOCK | 0o644, 0),
        (&fixture.devices, libc::S_IFCHR | 0o666, libc::makedev(1, 3)),
    ];
    for (paths, mode, dev) in nodes {
        for path in paths {
            let file = at(path);
            parent(&file);
            let c = CString::new(file.as_os_str().as_bytes()).expect("path");
            // SAFETY: a valid C string that outlives the call.
            assert_eq!(unsafe { libc::mknod(c.as_ptr(), mode, dev) }, 0, "mknod");
        }
    }
    for (path, target) in &fixture.symlinks {
        let link = at(path);
        parent(&link);
        std::os::unix::fs::symlink(target, link).expect("symlink");
    }
    for (path, bytes) in git {
        match bytes {
            None => std::fs::create_dir(root.join(path)).expect("git dir"),
            Some(bytes) => std::fs::write(root.join(path), bytes).expect("git file"),
        }
    }
    for (path, mode) in &fixture.modes {
        std::fs::set_permissions(at(path), std::fs::Permissions::from_mode(*mode)).expect("mode");
    }
}

/// Removes what [`build_minimal`] made: access given back where a mode took
/// it away, then one recursive removal.
fn remove_minimal(fixture: &Fixture, root: &Path) {
    for (path, _) in &fixture.modes {
        let _ = std::fs::set_permissions(
            root.join(path.to_string()),
            std::fs::Permissions::from_mode(0o755),
        );
    }
    std::fs::remove_dir_all(root).expect("remove");
}

fn floor(instances: &[Instance], dir: &Path) -> Timing {
    let git: Vec<GitFiles> = instances
        .iter()
        .map(|i| git_files(&i.case.fixture))
        .collect();
    timed(ROUNDS, || {
        for (i, instance) in instances.iter().enumerate() {
            let root = dir.join(format!("f{i}"));
            build_minimal(&instance.case.fixture, &root, &git[i]);
            remove_minimal(&instance.case.fixture, &root);
        }
    })
}

fn builder(instances: &[Instance], dir: &Path) -> Timing {
    timed(ROUNDS, || {
        for instance in instances {
            drop(fixture::build(&instance.case.fixture, Some(dir)).expect("fixture"));
        }
    })
}

fn adapter_config(argv: Vec<String>, tmpdir: &Path) -> AdapterConfig {
    AdapterConfig {
        argv,
        call_timeout: Duration::from_secs(10),
        hello_timeout: Duration::from_secs(30),
        max_restarts: 0,
        user: None,
        tmpdir: tmpdir.to_owned(),
        suite_version: toolpath::SUITE_VERSION.into(),
        run_id: None,
        silent_starts: Default::default(),
    }
}

fn library_run(instances: &[Instance], make: &SubjectFactory, dir: &Path) -> Timing {
    let config = RunConfig {
        jobs: 1,
        fixtures: Some(dir.to_owned()),
        ..RunConfig::default()
    };
    timed(ROUNDS, || {
        let report = run(instances, make, &config);
        assert_eq!(
            report.summary.fail + report.summary.adapter_error,
            0,
            "the reference must pass"
        );
    })
}

/// What one whole process cost.
struct Cost {
    wall: Duration,
    /// User + system time of the process (and the children it waited for):
    /// unlike wall time, hardly moved by others on a shared machine.
    cpu: Duration,
}

fn cpu_time(usage: &libc::rusage) -> Duration {
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Waits for `child` by wait4, for its own resource usage.
fn reap(child: std::process::Child) -> (std::process::ExitStatus, libc::rusage) {
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in; the pid is our child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4");
    (std::process::ExitStatus::from_raw(status), usage)
}

/// `toolpath ARGS` as a whole process with its temporary directory and its
/// run directory (and so its fixtures) in `tmp`.
fn whole_process(args: &[&str], tmp: &Path) -> Cost {
    let started = Instant::now();
    let child = Command::new(BIN)
        .args(args)
        .env("TMPDIR", tmp)
        .env(toolpath::session::FIXTURE_DIR_ENV, tmp)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn toolpath");
    let (status, usage) = reap(child);
    let elapsed = started.elapsed();
    assert!(status.success(), "toolpath {args:?}: {status}");
    Cost {
        wall: elapsed,
        cpu: cpu_time(&usage),
    }
}

fn whole_process_best(args: &[&str], tmp: &Path, rounds: usize) -> Timing {
    best_timing(
        (0..rounds)
            .map(|_| {
                let cost = whole_process(args, tmp);
                Timing {
                    wall: cost.wall,
                    cpu: cost.cpu,
                }
            })
            .collect(),
    )
}

struct Table {
    instances: f64,
    floor: Timing,
}

impl Table {
    fn header() {
        println!(
            "  {:<40} {:>11} {:>11} {:>8} {:>11} {:>8}",
            "mode", "suite", "/instance", "/floor", "cpu/inst", "/floor"
        );
    }

    fn row(&self, label: &str, total: Timing) {
        let per = |d: Duration| d.as_secs_f64() / self.instances;
        let (wall, cpu) = (per(total.wall), per(total.cpu));
        println!(
            "  {label:<40} {:>9.1}ms {:>9.3}ms {:>7.2}x {:>9.3}ms {:>7.2}x",
            total.wall.as_secs_f64() * 1e3,
            wall * 1e3,
            wall / per(self.floor.wall),
            cpu * 1e3,
            cpu / per(self.floor.cpu),
        );
    }
}

/// Every row of one filesystem.
fn filesystem(label: &str, parent: &Path, instances: &[Instance]) {
    let dir = tempfile::Builder::new()
        .prefix("toolpath-bench-")
        .tempdir_in(parent)
        .expect("bench directory");
    let dir = dir.path().canonicalize().expect("canonical");
    let n = instances.len() as f64;
    let floor_total = floor(instances, &dir);
    let table = Table {
        instances: n,
        floor: floor_total,
    };
    println!("{label} ({}):", parent.display());
    Table::header();
    table.row("fixture floor (minimal build + remove)", floor_total);
    table.row("fixture builder (build + remove)", builder(instances, &dir));
    let reference: &SubjectFactory =
        &|| Ok(Box::new(Reference::default()) as Box<dyn Subject + Send>);
    table.row(
        "in-process run, jobs 1",
        library_run(instances, reference, &dir),
    );
    let stdio_config = adapter_config(vec![BIN.into(), "serve".into()], &dir);
    let stdio: &SubjectFactory =
        &|| Ok(Box::new(Adapter::start(stdio_config.clone())?) as Box<dyn Subject + Send>);
    table.row(
        "stdio run (toolpath serve), jobs 1",
        library_run(instances, stdio, &dir),
    );
    let serve = format!("{BIN} serve");
    let whole = [
        "run",
        "--jobs",
        "1",
        "--format",
        "json",
        "--output",
        "/dev/null",
    ];
    let whole_stdio = [&whole[..], &["--adapter", &serve]].concat();
    table.row(
        "whole process, in-process, jobs 1",
        whole_process_best(&whole, &dir, ROUNDS),
    );
    table.row(
        "whole process, stdio, jobs 1",
        whole_process_best(&whole_stdio, &dir, ROUNDS),
    );
}

/// A git instance against a plain one: the builder alone and the in-process
/// run, each over the instances with a git repository and over the others,
/// per instance. Both groups run in one measurement each, so the ratio is of
/// like with like on the same filesystem.
fn git_cost(parent: &Path, instances: &[Instance]) {
    let dir = tempfile::Builder::new()
        .prefix("toolpath-bench-")
        .tempdir_in(parent)
        .expect("bench directory");
    let dir = dir.path().canonicalize().expect("canonical");
    let (git, plain): (Vec<Instance>, Vec<Instance>) = instances
        .iter()
        .cloned()
        .partition(|i| !i.case.fixture.git.is_empty());
    // The git instances are few: each round goes over them as many times as
    // makes them as many as the others, so both groups take long enough for
    // the CPU clock's ticks not to matter.
    let rounds = (plain.len() / git.len().max(1)).max(1);
    let git: Vec<Instance> = (git.iter())
        .cycle()
        .take(git.len() * rounds)
        .cloned()
        .collect();
    let reference: &SubjectFactory =
        &|| Ok(Box::new(Reference::default()) as Box<dyn Subject + Send>);
    println!(
        "git instances against the others, tmpfs ({}), cpu per instance:",
        parent.display()
    );
    println!(
        "  {:<32} {:>16} {:>16} {:>7}",
        "mode",
        format!("{} git", git.len() / rounds),
        format!("{} others", plain.len()),
        "ratio"
    );
    type Measure<'a> = &'a dyn Fn(&[Instance]) -> Timing;
    let rows: [(&str, Measure); 3] = [
        ("fixture floor (minimal build + remove)", &|i| {
            floor(i, &dir)
        }),
        ("fixture builder (build + remove)", &|i| builder(i, &dir)),
        ("in-process run, jobs 1", &|i| {
            library_run(i, reference, &dir)
        }),
    ];
    for (label, measure) in rows {
        let per = |group: &[Instance]| measure(group).cpu.as_secs_f64() * 1e6 / group.len() as f64;
        let (g, p) = (per(&git), per(&plain));
        println!("  {label:<32} {:>14.1}us {:>14.1}us {:>6.2}x", g, p, g / p);
    }
}

/// Writes `n` valid cases (each with its own fixture) into a new directory.
fn generated_cases(n: usize, parent: &Path) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("toolpath-bench-cases-")
        .tempdir_in(parent)
        .expect("cases directory");
    for i in 0..n {
        let text = format!(
            "id: bench.generated.c{i}\nsummary: Generated case {i}.\nspec: [RES-2]\n\
             fixture:\n  roots: [ws]\n  files:\n    ws/src/f{i}.ts: \"hello\\n\"\n\
             call:\n  tool: resolve\n  params: {{path: src/f{i}.ts}}\n\
             expect:\n  outcome: ok\n  kind: file\n  path: \"{{ws}}/src/f{i}.ts\"\n"
        );
        // The file is named after the id (the id without its area).
        std::fs::write(dir.path().join(format!("generated-c{i}.yaml")), text).expect("case");
    }
    dir
}

/// Set on the bench's own re-executed copy that measures one `toolpath`
/// run's peak memory ([`peak_rss`]).
const PEAK_OF_ENV: &str = "TOOLPATH_BENCH_PEAK_OF";

/// Peak RSS of `toolpath ARGS` alone, in KiB. Linux folds the memory
/// high-water mark of the process image an `exec` replaces into the new
/// image's `ru_maxrss`, and a child spawned straight from this process
/// replaces a (vfork) image of this whole bench: after the other sections
/// the bench held 27 MiB, and every run measured 26.8 MiB whatever its
/// size. So a fresh copy of the bench, small because it has loaded
/// nothing, spawns the run and reports its `ru_maxrss` ([`peak_child`]).
fn peak_rss(args: &[&str], tmp: &Path) -> i64 {
    let out = Command::new(std::env::current_exe().expect("the bench's own path"))
        .args(args)
        .env(PEAK_OF_ENV, BIN)
        .env("TMPDIR", tmp)
        .env(toolpath::session::FIXTURE_DIR_ENV, tmp)
        .stderr(Stdio::inherit())
        .output()
        .expect("spawn the measuring copy");
    assert!(out.status.success(), "toolpath {args:?}: {}", out.status);
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("a peak in KiB")
}

/// The measuring copy's whole work: run `BIN ARGS` (this process's
/// arguments), print its peak RSS in KiB, exit as it did.
fn peak_child(bin: std::ffi::OsString) -> ! {
    let child = Command::new(bin)
        .args(std::env::args_os().skip(1))
        .env_remove(PEAK_OF_ENV)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn toolpath");
    let (status, usage) = reap(child);
    println!("{}", usage.ru_maxrss);
    std::process::exit(if status.success() { 0 } else { 1 });
}

fn memory(tmp: &Path) {
    // 10k and 30k: issue 46's measure of a flat run (within 5 MB).
    let mut sizes = vec![1_000, 10_000, 30_000];
    if std::env::var_os("TOOLPATH_BENCH_100K").is_some() {
        sizes.push(100_000);
    }
    println!("peak memory, whole process `toolpath run --jobs 1`, generated cases:");
    for n in sizes {
        let cases = generated_cases(n, tmp);
        let path = cases.path().to_str().expect("utf-8").to_owned();
        let args = [
            "run",
            "--cases",
            &path,
            "--jobs",
            "1",
            "--format",
            "json",
            "--output",
            "/dev/null",
        ];
        let started = Instant::now();
        let rss = peak_rss(&args, tmp);
        // One process more than the run (the measuring copy): about a
        // millisecond, against a second and more.
        let elapsed = started.elapsed();
        println!(
            "  {n:>7} cases: peak RSS {:>7.1} MiB, {:>8.1}ms ({:.3}ms per case)",
            rss as f64 / 1024.0,
            elapsed.as_secs_f64() * 1e3,
            elapsed.as_secs_f64() * 1e3 / n as f64
        );
    }
}

fn start_up(tmp: &Path) {
    println!("start-up, whole process (best of {}):", ROUNDS * 3);
    for command in ["list", "lint"] {
        let costs: Vec<Cost> = (0..ROUNDS * 3)
            .map(|_| whole_process(&[command], tmp))
            .collect();
        let wall = costs.iter().map(|c| c.wall).min().expect("rounds");
        let cpu = costs.iter().map(|c| c.cpu).min().expect("rounds");
        println!(
            "  toolpath {command:<6} {:>8.1}ms wall {:>8.1}ms cpu",
            wall.as_secs_f64() * 1e3,
            cpu.as_secs_f64() * 1e3
        );
    }
}

/// One adapter's whole life: start, `hello`, `bye`, exit. Its exit is
/// waited for, never slept for, so this is close to a process's start-up.
fn adapter_lifecycle(tmp: &Path) {
    let config = adapter_config(vec![BIN.into(), "serve".into()], tmp);
    let d = best(
        (0..ROUNDS * 3)
            .map(|_| {
                let started = Instant::now();
                Adapter::start(config.clone()).expect("adapter").shutdown();
                started.elapsed()
            })
            .collect(),
    );
    println!(
        "adapter start + hello + bye + exit (best of {}): {:.1}ms",
        ROUNDS * 3,
        d.as_secs_f64() * 1e3
    );
}

/// Proof that an adapter's start-up is paid once per worker, not per case.
fn slow_start(instances: &[Instance], tmp: &Path) {
    let argv = vec![
        "sh".to_owned(),
        "-c".to_owned(),
        format!("sleep 1; exec {BIN} serve"),
    ];
    let config = adapter_config(argv, tmp);
    let make: &SubjectFactory =
        &|| Ok(Box::new(Adapter::start(config.clone())?) as Box<dyn Subject + Send>);
    let started = Instant::now();
    run(
        instances,
        make,
        &RunConfig {
            jobs: 2,
            ..RunConfig::default()
        },
    );
    println!(
        "stdio, adapter sleeps 1 s at start, jobs 2: {:.1}ms for the suite",
        started.elapsed().as_secs_f64() * 1e3
    );
}

/// Whether the section `name` runs (all of them unless `TOOLPATH_BENCH_ONLY` lists some).
fn wanted(name: &str) -> bool {
    std::env::var("TOOLPATH_BENCH_ONLY").map_or(true, |only| only.split(',').any(|s| s == name))
}

fn main() {
    if let Some(bin) = std::env::var_os(PEAK_OF_ENV) {
        peak_child(bin);
    }
    let (cases, errors) = toolpath::case::embedded::load_embedded();
    assert!(errors.is_empty(), "invalid cases");
    let instances: Vec<Instance> = cases.iter().flat_map(|c| c.instances()).collect();
    println!(
        "toolpath benchmark: {} cases, {} instances, best of {ROUNDS} runs",
        cases.len(),
        instances.len()
    );
    let shm = PathBuf::from("/dev/shm");
    if shm.is_dir() && wanted("tmpfs") {
        filesystem("tmpfs", &shm, &instances);
    }
    if shm.is_dir() && wanted("git") {
        git_cost(&shm, &instances);
    }
    let tmp = std::env::temp_dir();
    if wanted("tmp") {
        filesystem("default temporary directory", &tmp, &instances);
    }
    if wanted("startup") {
        start_up(&tmp);
    }
    if wanted("adapter") {
        adapter_lifecycle(&tmp);
        slow_start(&instances, &tmp);
    }
    if wanted("memory") {
        memory(if shm.is_dir() { &shm } else { &tmp });
    }
    if wanted("mcp") {
        mcp_profiles(if shm.is_dir() { &shm } else { &tmp });
    }
}

/// Each shipped MCP profile (`runners/mcp-*/*.profile.yaml`) whose setup
/// was done: the whole suite as one `toolpath run --mcp` process, jobs 1
/// and 2, with its expectations under `--strict` (so it must succeed).
/// Its servers are started once per worker (MCP roots) or once per case
/// (roots on the command line); this row says what that costs.
fn mcp_profiles(tmp: &Path) {
    let runners = Path::new(env!("CARGO_MANIFEST_DIR")).join("runners");
    let mut profiles: Vec<PathBuf> = std::fs::read_dir(&runners)
        .expect("runners/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|d| {
            d.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("mcp-"))
        })
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten())
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.to_string_lossy().ends_with(".profile.yaml"))
        .collect();
    profiles.sort();
    for profile in profiles {
        let dir = profile.parent().expect("in a runner");
        if !dir.join("node_modules").exists() && !dir.join("venv").exists() {
            println!(
                "mcp {}: not set up (its setup.sh), skipped",
                profile.display()
            );
            continue;
        }
        let expectations = dir.join("expectations.yaml");
        for jobs in ["1", "2"] {
            let args = [
                "run",
                "--jobs",
                jobs,
                "--mcp",
                profile.to_str().expect("a UTF-8 path"),
                "--expectations",
                expectations.to_str().expect("a UTF-8 path"),
                "--strict",
            ];
            let t = whole_process_best(&args, tmp, 3);
            println!(
                "mcp {} (whole suite, jobs {jobs}, best of 3): {:.2} s wall, {:.2} s CPU",
                profile.strip_prefix(&runners).unwrap_or(&profile).display(),
                t.wall.as_secs_f64(),
                t.cpu.as_secs_f64()
            );
        }
    }
}
