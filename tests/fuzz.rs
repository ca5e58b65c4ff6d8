//! `toolpath fuzz` finds wrong implementations and writes cases that pin them.
//!
//! For every result-level mutant of `tests/adapters/mutant.py` (read from
//! `mutant.py --list`, so mutants added later are covered too, and none can
//! be left out): fuzzing finds it within a bounded budget, and each
//! finding, put in a case directory, lints, passes the reference and fails
//! the mutant; each is fuzzed at the iteration where seed 1 first finds
//! it, run alone (an iteration's input depends on the seed and its number
//! alone). The identity wrapper must run clean over the whole budget, so a
//! finding is never noise. The file
//! tools are fuzzed like the others: wrong reads, writes and edits none of
//! which the generator names are each found, judged on what changed on
//! disk and what the answer says.
//!
//! An implementation with several bugs in one tool
//! (`tests/adapters/glob_bugs.py`: four independent `glob` bugs, each
//! showing only on inputs of its own shape, three of which no case
//! catches) gets one finding per bug, each a case that fails exactly that
//! bug; a finding the expectations know does not hide the others on its
//! field; the reference wrapped the same way gets none. The GitHub Action's
//! script fuzzes after the cases by default.
//!
//! Budgets are iterations, not time: a busy machine makes a run slower, not
//! different. Shrinking is bounded by a number of probes (`--shrink-steps`),
//! never by a clock, so the same seed writes the same findings on any
//! machine. `--jobs 1` keeps every run exactly reproducible.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn toolpath(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TOOLPATH_BIN", env!("CARGO_BIN_EXE_toolpath"))
        .args(args)
        .output()
        .expect("toolpath runs")
}

fn mutant(mode: &str) -> String {
    format!("python3 tests/adapters/mutant.py {mode}")
}

/// The multi-bug `glob` with the bugs named (`""`: all four).
fn glob_bugs(bugs: &str) -> String {
    format!("python3 tests/adapters/glob_bugs.py {bugs}")
}

/// `toolpath fuzz` with a fixed seed into `dir`; returns the exit code and
/// the finding files.
fn fuzz(adapter: &str, dir: &Path, extra: &[&str]) -> (i32, Vec<PathBuf>, String) {
    let dir_arg = dir.display().to_string();
    let mut args = vec!["fuzz", "--adapter", adapter, "--seed", "1"];
    args.extend(["--findings", &dir_arg]);
    if !extra.contains(&"--jobs") {
        args.extend(["--jobs", "1"]);
    }
    args.extend(extra);
    let out = toolpath(&args);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.sort();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().expect("exit code"), files, text)
}

fn mutants() -> Vec<String> {
    let out = Command::new("python3")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tests/adapters/mutant.py", "--list"])
        .output()
        .expect("python3 runs");
    let list: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(list.len() >= 8, "mutant.py --list lost mutants: {list:?}");
    list
}

/// Checks that a finding is a case that lints, passes the reference and
/// fails `adapter` (named `what` in messages).
fn check_case(adapter: &str, mode: &str, file: &Path) -> Result<(), String> {
    let cases = tempfile::tempdir().unwrap();
    std::fs::copy(file, cases.path().join(file.file_name().unwrap())).unwrap();
    let dir = cases.path().display().to_string();
    let text = std::fs::read_to_string(file).unwrap();
    let lint = toolpath(&["lint", "--add-cases", &dir]);
    if !lint.status.success() {
        return Err(format!(
            "{mode}: the finding does not lint:\n{}\n{text}",
            String::from_utf8_lossy(&lint.stderr)
        ));
    }
    let reference = toolpath(&["run", "--cases", &dir]);
    if reference.status.code() != Some(0) {
        return Err(format!(
            "{mode}: the finding fails the reference:\n{}\n{text}",
            String::from_utf8_lossy(&reference.stdout)
        ));
    }
    let wrong = toolpath(&["run", "--cases", &dir, "--adapter", adapter]);
    if wrong.status.code() != Some(1) {
        return Err(format!(
            "{mode}: the finding does not fail the mutant (exit {:?}):\n{}\n{text}",
            wrong.status.code(),
            String::from_utf8_lossy(&wrong.stdout)
        ));
    }
    Ok(())
}

/// Iterations each mutant may take to be found. Budgets are iterations, so
/// a busy machine makes the test slower, never different; the generator is
/// biased (git repositories, excluded names, late NUL bytes, chained links,
/// `{adapter-tmp}`, unknown keys) so that every mutant of seed 1 is found
/// inside it (the last, `colon-split`, at iteration 2,281: see
/// [`FIRST_FOUND`]).
const BUDGET: u64 = 3_000;

/// The iteration at which seed 1 first finds each wrong subject of this
/// file (`mutant.py --list`, [`FILE_SUBJECTS`], [`DIMENSION_SUBJECTS`],
/// [`ISSUE_45_SUBJECTS`], `mutant.py --focused` on its own tool), measured 2026-11-29 by whole
/// runs stopped at their first finding, on the generator whose pools take
/// the cases' own values.
///
/// An iteration's input depends on the seed and its number alone, and the
/// subjects keep no state between calls, so that iteration run alone
/// (`--first-iteration N --iterations 1`) makes the finding the whole run
/// makes (`an_iteration_run_alone_makes_the_whole_run_s_finding`) for a
/// fraction of the cost: the whole runs were 200 of the 330 CPU seconds
/// this file took. Found at an iteration inside the budget, a subject is
/// found within the budget. What the whole runs showed besides, that no
/// input before a finding diverges, `a_faithful_adapter_runs_clean` shows
/// for every input of the budget at once.
///
/// A subject missing here, or whose iteration no longer finds it (the
/// generator changed), fails the test with the iteration a whole run
/// first finds it at, to write here.
const FIRST_FOUND: &[(&str, u64)] = &[
    // mutant.py --list
    ("report-real-path", 73),
    ("drop-include-note", 45),
    ("pre-change-search", 170),
    ("pre-change-shell", 132),
    ("inverted-enoent", 18),
    ("existence-first", 4),
    ("vague-messages", 1),
    ("parent-dir-include", 316),
    ("literal-placeholders", 0),
    ("ran-elsewhere", 81),
    ("trimmed-text", 169),
    ("raw-model-text", 0),
    ("option-injection", 1800),
    ("git-grep-ignore-case", 1973),
    ("loose-file-target", 868),
    ("builtin-exclusions", 663),
    ("resolve-only-right", 560),
    ("rootname-through-link", 1842),
    ("binary-first-block", 692),
    ("follow-inside-links", 135),
    ("scratch-inside", 50),
    ("ignore-unknown-keys", 21),
    ("match-per-root", 611),
    ("immediate-link-target", 626),
    ("pre-change-listing", 56),
    ("parent-dir-listing", 56),
    ("ls-follows-links", 25),
    ("glob-reports-links", 33),
    ("glob-unchecked-pattern", 533),
    ("writes-cache", 0),
    ("outside-answered-ok", 1),
    ("outside-vague", 1),
    ("outside-not-found", 1),
    ("refuses-inside-links", 73),
    ("entries-from-request", 96),
    ("writes-outside", 0),
    ("bang-negates", 171),
    ("include-fnmatch", 1448),
    ("colon-split", 2281),
    ("dash-names-dropped", 119),
    ("hidden-paths-skipped", 313),
    ("listing-builtin-exclusions", 26),
    ("long-lines-cut", 978),
    // FILE_SUBJECTS
    ("write-through-dangling-link", 95),
    ("backup-beside", 40),
    ("accepts-relative", 19),
    ("read-normalises-newlines", 141),
    ("read-cuts-lines", 240),
    ("adds-final-newline", 483),
    ("interprets-escapes", 73),
    ("drops-astral", 694),
    ("edit-case-insensitive", 153),
    ("write-follows-link-out", 292),
    ("edit-rewrites-line-endings", 396),
    // DIMENSION_SUBJECTS
    ("link-limit-8", 73),
    ("undecodable-lines-dropped", 169),
    ("edit-replaces-invalid-bytes", 2462),
    // ISSUE_45_SUBJECTS
    ("composes-names", 212),
    ("folds-case", 479),
    ("names-split-at-newlines", 1485),
    ("directory-as-pattern", 116),
    ("percent-decoded", 28),
    ("root-link-refused", 1067),
    // Fuzzed on glob alone (`--tool glob`)
    ("collapses-empty-segments", 156),
    // mutant.py --focused, each fuzzed on its own tool (`--tool`)
    ("question-optional", 42),
    ("braces-need-a-comma", 214),
    ("class-without-ranges", 1123),
    ("include-ignores-case", 3079),
    ("bytes-not-characters", 1457),
];

/// What an adapter says of itself (its implementation name, in the
/// closing summary) and what it writes to stderr when it dies before
/// `hello` reach the terminal through the sanitiser: shown, never acted
/// on, and no line of theirs reads as a closing line.
#[test]
fn an_adapter_s_text_is_shown_but_cannot_act_on_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, code) in [("unsupported", 0), ("exit-before-hello", 1)] {
        let adapter = format!("python3 tests/adapters/hostile_text.py {mode}");
        let (exit, _, text) = fuzz(&adapter, dir.path(), &["--iterations", "2"]);
        assert_eq!(exit, code, "{mode}:\n{text}");
        toolpath::test_support::assert_shown_harmlessly(&text);
    }
}

#[test]
fn every_mutant_is_found_and_its_case_fails_it() {
    // Two mutants at a time: each fuzz run is one process on one core,
    // and the runs are independent (a directory each, seed 1 each).
    let modes = mutants();
    let outcomes: Vec<(Option<String>, Vec<String>)> = std::thread::scope(|scope| {
        let halves: Vec<_> = (0..2)
            .map(|half| {
                let modes: Vec<&String> = modes.iter().skip(half).step_by(2).collect();
                scope.spawn(move || {
                    modes
                        .into_iter()
                        .map(|m| find(&mutant(m), m, BUDGET, &[], None))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("a fuzzing thread panicked"))
            .collect()
    });
    let found: Vec<String> = outcomes.iter().filter_map(|(f, _)| f.clone()).collect();
    let problems: Vec<String> = outcomes.into_iter().flat_map(|(_, p)| p).collect();
    // Shown with `--nocapture`: how far each mutant is from the budget.
    eprintln!("{}", found.join("\n"));
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Fuzzes `adapter` (`mode` in messages) with seed 1 for its first
/// finding: the iteration [`FIRST_FOUND`] gives, run alone, inside
/// `budget`. Where it was found (`MODE: iteration N`), and what is wrong
/// (not found there, its case does not fail it, or, when `rule` is given,
/// the finding is not that rule's).
fn find(
    adapter: &str,
    mode: &str,
    budget: u64,
    only: &[&str],
    rule: Option<&str>,
) -> (Option<String>, Vec<String>) {
    let Some(&(_, first)) = FIRST_FOUND.iter().find(|(m, _)| *m == mode) else {
        let whole = whole_run(adapter, budget, only);
        return (None, vec![format!("{mode}: not in FIRST_FOUND; {whole}")]);
    };
    if first >= budget {
        return (
            None,
            vec![format!(
                "{mode}: FIRST_FOUND says iteration {first}, past the budget of {budget}"
            )],
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let first_arg = first.to_string();
    let mut alone = vec![
        "--first-iteration",
        &first_arg,
        "--iterations",
        "1",
        "--max-findings",
        "1",
    ];
    alone.extend(only);
    let (code, files, out) = fuzz(adapter, dir.path(), &alone);
    if code != 1 || files.len() != 1 {
        let whole = whole_run(adapter, budget, only);
        return (
            None,
            vec![format!(
                "{mode}: iteration {first} no longer finds it (exit {code}); {whole}\n{out}"
            )],
        );
    }
    let mut problems = Vec::new();
    if !out.contains(&format!("(seed 1, iteration {first})")) {
        problems.push(format!(
            "{mode}: the seed and iteration are not printed:\n{out}"
        ));
    }
    if let Err(e) = check_case(adapter, mode, &files[0]) {
        problems.push(e);
    }
    let case = std::fs::read_to_string(&files[0]).unwrap();
    if let Some(rule) = rule
        && !case.contains(&format!("spec: [\"{rule}\""))
    {
        problems.push(format!("{mode}: the finding is not {rule}'s:\n{case}"));
    }
    (Some(format!("{mode}: iteration {first}")), problems)
}

/// Where a whole run of seed 1 first finds `adapter` within `budget`
/// iterations: what [`FIRST_FOUND`] should say.
fn whole_run(adapter: &str, budget: u64, only: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let budget_arg = budget.to_string();
    let mut whole = vec!["--iterations", &budget_arg, "--max-findings", "1"];
    whole.extend(only);
    let (code, files, out) = fuzz(adapter, dir.path(), &whole);
    match out.split("seed 1, iteration ").nth(1) {
        Some(rest) if code == 1 && files.len() == 1 => format!(
            "a whole run first finds it at iteration {}: write that in FIRST_FOUND",
            rest.split(')').next().unwrap_or(rest)
        ),
        _ => format!("a whole run does not find it in {budget} iterations (exit {code}):\n{out}"),
    }
}

/// What [`FIRST_FOUND`] rests on: an iteration run alone makes the finding
/// the whole run makes there, the same file, byte for byte.
#[test]
fn an_iteration_run_alone_makes_the_whole_run_s_finding() {
    let mode = "pre-change-shell";
    let (_, first) = FIRST_FOUND.iter().find(|(m, _)| *m == mode).unwrap();
    let (whole, alone) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let budget = BUDGET.to_string();
    let (_, whole_files, out) = fuzz(
        &mutant(mode),
        whole.path(),
        &["--iterations", &budget, "--max-findings", "1"],
    );
    assert!(
        out.contains(&format!("(seed 1, iteration {first})")),
        "{out}"
    );
    let first = first.to_string();
    let (_, alone_files, out) = fuzz(
        &mutant(mode),
        alone.path(),
        &["--first-iteration", &first, "--iterations", "1"],
    );
    assert!(out.contains(" 1 iterations in "), "{out}");
    assert_eq!(texts(&whole_files).len(), 1, "{out}");
    assert_eq!(texts(&whole_files), texts(&alone_files));
}

/// A run may start at the last iteration there is: bounded by iterations
/// it makes none past it, bounded by time it stops there, never wrapping
/// around to iteration 0. (The time only bounds a run that would wrap:
/// the one iteration is made however slow the machine.)
#[test]
fn the_last_iteration_there_is_ends_the_run() {
    let last = u64::MAX.to_string();
    for (bound, value, ran) in [("--iterations", "1", 0), ("--time", "120", 1)] {
        let dir = tempfile::tempdir().unwrap();
        let args = ["--first-iteration", &last, bound, value];
        let (code, files, out) = fuzz(&mutant("identity"), dir.path(), &args);
        assert_eq!((code, files.len()), (0, 0), "{bound}: {out}");
        assert!(
            out.contains(&format!(": {ran} iterations in ")),
            "{bound}: {out}"
        );
    }
}

/// Every name in [`FIRST_FOUND`] is a subject the tests here fuzz.
#[test]
fn first_found_names_only_subjects_fuzzed_here() {
    let mut subjects = mutants();
    subjects.extend(
        FILE_SUBJECTS
            .iter()
            .chain(&DIMENSION_SUBJECTS)
            .chain(&ISSUE_45_SUBJECTS)
            .chain([&EMPTY_SEGMENT_SUBJECT])
            .map(|(_, mode)| mode.to_string()),
    );
    subjects.extend(focused().into_iter().map(|(mode, _)| mode));
    let stale: Vec<&str> = FIRST_FOUND
        .iter()
        .map(|(mode, _)| *mode)
        .filter(|mode| !subjects.iter().any(|s| s == mode))
        .collect();
    assert!(stale.is_empty(), "no longer fuzzed: {stale:?}");
}

/// The faithful wrapper over every input of the budget the subjects above
/// are found within: nothing diverges, so no finding is noise, and none of
/// the iterations the subjects' own runs skip (`--first-iteration`) hides
/// a false divergence.
#[test]
fn a_faithful_adapter_runs_clean() {
    let dir = tempfile::tempdir().unwrap();
    let budget = BUDGET.to_string();
    let (code, files, out) = fuzz(
        &mutant("identity"),
        dir.path(),
        &["--iterations", &budget, "--jobs", "2"],
    );
    assert_eq!((code, files.len()), (0, 0), "{out}");
    assert!(
        out.contains(&format!("{BUDGET} iterations in ")) && out.contains(" 0 diverged,"),
        "{out}"
    );
}

#[test]
fn the_same_seed_writes_the_same_findings() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let args = ["--iterations", "300"];
    let (_, first, _) = fuzz(&mutant("vague-messages"), a.path(), &args);
    let (_, second, _) = fuzz(&mutant("vague-messages"), b.path(), &args);
    assert!(!first.is_empty());
    assert_eq!(texts(&first), texts(&second));
}

#[test]
fn a_crashing_adapter_is_a_finding_not_the_end_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let (code, files, out) = fuzz(
        &mutant("crash"),
        dir.path(),
        &["--iterations", "20", "--shrink-steps", "20"],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("20 iterations"), "the run went on: {out}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("adapter failure: crash"), "{text}");
}

#[test]
fn a_hanging_adapter_is_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    // Every call hangs, so even a slow machine cannot make this pass wrongly;
    // the short timeout only bounds how long the test takes.
    let (code, files, out) = fuzz(
        &mutant("hang"),
        dir.path(),
        &[
            "--iterations",
            "2",
            "--timeout-ms",
            "500",
            "--shrink-steps",
            "2",
        ],
    );
    assert_eq!(code, 1, "{out}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("adapter failure: timeout"), "{text}");
}

/// A call on a fixture with a FIFO is bounded as a suite run bounds it
/// (`subject::fifos`, issue 41): an adapter that opens the FIFO is released
/// after the short hang bound and found blocked on it (RES-10, FILE-6),
/// not waited for up to its call timeout and called hung. Its finding is
/// a case that passes the reference and fails the adapter so.
#[test]
fn an_adapter_blocked_on_a_fifo_is_released_and_found_blocked() {
    let dir = tempfile::tempdir().unwrap();
    // Seed 1's iteration 2 is a file tool's call with a FIFO below its
    // roots. The call timeout is far past the hang bound (1 s), so what
    // ended the call is certain on a loaded machine too.
    let args = [
        "--first-iteration",
        "2",
        "--iterations",
        "1",
        "--shrink-steps",
        "0",
        "--timeout-ms",
        "30000",
    ];
    let (code, files, out) = fuzz(&mutant("open-fifo"), dir.path(), &args);
    assert_eq!((code, files.len()), (1, 1), "{out}");
    assert!(
        out.contains("subject.blocked-on-fifo failed [FILE-6]"),
        "{out}"
    );
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(
        text.contains("it answered once the harness opened the FIFO's other end"),
        "{text}"
    );
    check_case(&mutant("open-fifo"), "open-fifo", &files[0]).unwrap();
}

/// A restart that fails before a call (`tests/adapters/restart_refused.py`:
/// its second process answers `hello` with another protocol) is that
/// call's failure, a finding with the reason: never ignored, with the call
/// then sent to whatever the next start makes.
#[test]
fn a_refused_restart_is_a_finding_with_its_reason() {
    let (state, dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // Whoever the adapter runs as counts its starts there.
    let anyone = <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o777);
    std::fs::set_permissions(state.path(), anyone).unwrap();
    let adapter = format!(
        "python3 tests/adapters/restart_refused.py {}",
        state.path().display()
    );
    // Iteration 0 crashes the first process; iteration 1's restart is
    // refused.
    let args = ["--iterations", "2", "--shrink-steps", "0"];
    let (code, files, out) = fuzz(&adapter, dir.path(), &args);
    assert_eq!((code, files.len()), (1, 2), "{out}");
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert!(
        texts[0].contains("Failed: adapter.bad-output."),
        "{}",
        texts[0]
    );
    assert!(
        texts[0].contains("adapter failure: bad output: adapter speaks protocol 999"),
        "{}",
        texts[0]
    );
    assert!(texts[1].contains("Failed: adapter.crash."), "{}", texts[1]);
}

#[test]
fn known_divergences_are_not_reported_again() {
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("expectations.yaml");
    std::fs::write(
        &known,
        "some.case:\n  status: xfail\n  reason: drops the note\n  spec: SEARCH-6\n",
    )
    .unwrap();
    let findings = dir.path().join("findings");
    let args = ["--iterations", "300"];
    let (code, files, out) = fuzz(&mutant("drop-include-note"), &findings, &args);
    // One finding per shape of input (grep and ripgrep are two), every one
    // of them the note this mutant drops.
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(
        code == 1
            && !names.is_empty()
            && names.iter().all(|n| n.starts_with("fuzz-search-6-notes-")),
        "found without expectations: {names:?}\n{out}"
    );
    std::fs::remove_dir_all(&findings).unwrap();
    let known_arg = known.display().to_string();
    let with: Vec<&str> = args
        .iter()
        .copied()
        .chain(["--expectations", &known_arg])
        .collect();
    let (code, files, out) = fuzz(&mutant("drop-include-note"), &findings, &with);
    assert_eq!((code, files.len()), (0, 0), "{out}");
    assert!(!out.contains(" 0 known"), "counted as known: {out}");
}

#[test]
fn bad_usage_exits_2() {
    // Durations are humantime's (`1d` is a day), or a bare number of
    // seconds; anything else, and a number too large, is bad usage.
    for time in ["1fortnight", "soon", "18446744073709551615h"] {
        let out = toolpath(&["fuzz", "--adapter", "x", "--time", time]);
        assert_eq!(out.status.code(), Some(2), "{time}");
    }
    let out = toolpath(&["fuzz", "--adapter", "'unbalanced"]);
    assert_eq!(out.status.code(), Some(2));
}

/// CI's bounded run of the Python port against the reference: any
/// divergence is a bug in one of them or a gap in the spec.
#[test]
fn the_python_port_agrees_with_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let out = toolpath(&[
        "fuzz",
        "--adapter",
        "python3 runners/python/adapter.py",
        "--seed",
        "1",
        "--iterations",
        "3000",
        "--jobs",
        "2",
        "--findings",
        &dir.path().display().to_string(),
    ]);
    let mut findings = String::new();
    for entry in std::fs::read_dir(dir.path()).into_iter().flatten() {
        findings.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}\n{findings}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The four bugs of `tests/adapters/glob_bugs.py`.
const GLOB_BUGS: [&str; 4] = ["links", "colon", "bang", "fifty"];

/// Iterations the multi-bug `glob` is fuzzed for. Seed 1 meets its bugs at
/// iterations 2 (fifty), 107 (bang), 717 (colon) and 1,284 (links), its
/// last finding of the first 3,000 iterations (measured 2026-11-29, on
/// the generator whose pools take the cases' values): the budget covers
/// every input that finds something, with a margin, and no more, since
/// both tests below pay for every iteration of it.
const GLOB_BUDGET: &str = "1500";

/// Iterations of the shorter multi-bug run the worker and known-finding
/// tests read: past 1,284, where seed 1 first meets the link bug, so that
/// it holds a finding of each of GLOB-3, GLOB-5 and GLOB-7.
const GLOB_SHORT: &str = "1300";

/// The status of each case file in `dir` against `adapter` (the reference
/// when `None`), by file name: one run judges them all, each as it would be
/// judged alone (every case has a fixture of its own, and the adapters keep
/// no state between calls).
fn statuses(dir: &Path, adapter: Option<&str>) -> BTreeMap<String, String> {
    let dir_arg = dir.display().to_string();
    let mut args = vec!["run", "--cases", &dir_arg, "--format", "json"];
    if let Some(adapter) = adapter {
        args.extend(["--adapter", adapter]);
    }
    let out = toolpath(&args);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{adapter:?}: no report ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let file = Path::new(c["file"].as_str().unwrap());
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            (name, c["status"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn names(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// Each finding's file name and text: what two runs that must write the
/// same findings are compared on.
fn texts(files: &[PathBuf]) -> Vec<(String, String)> {
    names(files)
        .into_iter()
        .zip(files.iter().map(|f| std::fs::read_to_string(f).unwrap()))
        .collect()
}

/// Four independent bugs in one tool, all on `glob`'s `files`: each is
/// reported, by a case that fails the adapter with that bug alone (and
/// passes the reference). Deduplicating by field and rule reported one.
#[test]
fn several_bugs_in_one_tool_are_each_found() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--iterations", GLOB_BUDGET, "--jobs", "2"];
    let (code, files, out) = fuzz(&glob_bugs(""), dir.path(), &args);
    assert_eq!(code, 1, "{out}");
    // Every finding in one directory: it lints, and each adapter judges
    // them all in one run (with one bug, each of the four in turn).
    let cases = tempfile::tempdir().unwrap();
    for file in &files {
        std::fs::copy(file, cases.path().join(file.file_name().unwrap())).unwrap();
    }
    let lint = toolpath(&["lint", "--add-cases", &cases.path().display().to_string()]);
    assert!(
        lint.status.success(),
        "the findings do not lint:\n{}",
        String::from_utf8_lossy(&lint.stderr)
    );
    let reference = statuses(cases.path(), None);
    let all_bugs = statuses(cases.path(), Some(&glob_bugs("")));
    let one_bug: Vec<(&str, BTreeMap<String, String>)> = GLOB_BUGS
        .into_iter()
        .map(|bug| (bug, statuses(cases.path(), Some(&glob_bugs(bug)))))
        .collect();
    let status = |of: &BTreeMap<String, String>, name: &str| of.get(name).cloned();
    let mut caught: BTreeMap<&str, Vec<String>> = Default::default();
    let mut problems = Vec::new();
    for name in names(&files) {
        if status(&reference, &name).as_deref() != Some("pass") {
            problems.push(format!(
                "{name}: the finding does not pass the reference: {:?}",
                status(&reference, &name)
            ));
            continue;
        }
        if status(&all_bugs, &name).as_deref() != Some("fail") {
            problems.push(format!(
                "{name}: the finding does not fail glob_bugs.py: {:?}",
                status(&all_bugs, &name)
            ));
            continue;
        }
        let alone: Vec<&str> = one_bug
            .iter()
            .filter(|(_, statuses)| status(statuses, &name).as_deref() == Some("fail"))
            .map(|(bug, _)| *bug)
            .collect();
        if alone.is_empty() {
            problems.push(format!("{name} fails no bug alone"));
        }
        for bug in alone {
            caught.entry(bug).or_default().push(name.clone());
        }
    }
    // Shown with `--nocapture`: the findings each bug got.
    for bug in GLOB_BUGS {
        let found = caught.get(bug).map_or(&[][..], Vec::as_slice);
        eprintln!("{bug}: {} finding(s) {found:?}", found.len());
    }
    assert!(problems.is_empty(), "{}\n{out}", problems.join("\n"));
    assert!(
        caught.len() >= 3,
        "only {:?} of {GLOB_BUGS:?} found in {GLOB_BUDGET} iterations:\n{out}",
        caught.keys()
    );
}

/// The same reference, wrapped the same way with no bug: nothing to find,
/// on exactly the inputs that found the four bugs.
#[test]
fn the_reference_wrapped_as_the_multi_bug_adapter_has_no_finding() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--iterations", GLOB_BUDGET, "--jobs", "2"];
    let (code, files, out) = fuzz(&glob_bugs("none"), dir.path(), &args);
    assert_eq!((code, names(&files)), (0, Vec::<String>::new()), "{out}");
    assert!(out.contains(&format!("{GLOB_BUDGET} iterations")), "{out}");
}

/// The multi-bug adapter fuzzed for [`GLOB_SHORT`] iterations from seed 1
/// with `jobs` workers: each finding's file name and text, and what it
/// printed.
fn glob_bugs_short(jobs: &str) -> (Vec<(String, String)>, String) {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--iterations", GLOB_SHORT, "--jobs", jobs];
    let (_, files, out) = fuzz(&glob_bugs(""), dir.path(), &args);
    (texts(&files), out)
}

/// [`glob_bugs_short`] with one worker, run once for the two tests that read
/// it: a second run of the same command would write the same findings.
fn glob_bugs_short_one_worker() -> &'static (Vec<(String, String)>, String) {
    static RUN: std::sync::OnceLock<(Vec<(String, String)>, String)> = std::sync::OnceLock::new();
    RUN.get_or_init(|| glob_bugs_short("1"))
}

/// Divergences are recorded in iteration order, so two workers make the
/// same findings as one, written the same.
#[test]
fn findings_do_not_depend_on_the_number_of_workers() {
    let (one, out) = glob_bugs_short_one_worker();
    assert!(one.len() >= 3, "{out}");
    let (two, out) = glob_bugs_short("2");
    assert_eq!(*one, two, "{out}");
}

/// A finding the expectations know, by its id or by its rule, is not
/// reported, and does not stop the search on its field: the other bugs of
/// the same tool on the same field are still found.
#[test]
fn a_known_finding_does_not_hide_the_others_on_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let (found, out) = glob_bugs_short_one_worker();
    let all: Vec<String> = found.iter().map(|(name, _)| name.clone()).collect();
    let has = |names: &[String], prefix: &str| names.iter().any(|n| n.starts_with(prefix));
    for rule in ["glob-3", "glob-5", "glob-7"] {
        assert!(
            has(&all, &format!("fuzz-{rule}-files-")),
            "{rule}: {all:?}\n{out}"
        );
    }
    for (name, entry, hidden) in [
        (
            "by-id",
            "\"glob.fuzz.glob-7.*\":\n  status: xfail\n  reason: follows links\n",
            "fuzz-glob-7-",
        ),
        (
            "by-rule",
            "glob.some.case:\n  status: xfail\n  reason: negates\n  spec: GLOB-5\n",
            "fuzz-glob-5-",
        ),
    ] {
        let known = dir.path().join(format!("{name}.yaml"));
        std::fs::write(&known, entry).unwrap();
        let known = known.display().to_string();
        let with = ["--iterations", GLOB_SHORT, "--expectations", &known];
        let (code, files, out) = fuzz(&glob_bugs(""), &dir.path().join(name), &with);
        let found = names(&files);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(!has(&found, hidden), "{name}: {found:?}\n{out}");
        assert!(!out.contains(" 0 known"), "{name}: counted as known: {out}");
        let others: Vec<&String> = all.iter().filter(|n| !n.starts_with(hidden)).collect();
        for other in others {
            assert!(
                found.contains(other),
                "{name}: lost {other}: {found:?}\n{out}"
            );
        }
    }
}

/// `scripts/action.sh run` (what `action.yml` runs), with the runner's
/// files pointed at temporary ones, against an adapter whose one bug (a
/// glob that stops at 50 files, silently) the cases catch (OUT-6's
/// `output.shape.hundred*` and `glob.walk.past-5000`) and its expectations file lists as known, so
/// the cases step passes: by default the fuzzer runs after the cases, its
/// findings (ids of their own, which no case entry matches) fail the step
/// and are shown whole in the job summary; `fuzz: false` turns it off;
/// findings listed in the fuzz expectations are known and pass.
#[test]
fn the_action_fuzzes_after_the_cases_by_default() {
    let root = tempfile::tempdir().unwrap();
    let work = root.path().join("work");
    let github = root.path().join("github");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&github).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_toolpath"));
    let adapter = format!(
        "python3 {}/tests/adapters/glob_bugs.py fifty",
        env!("CARGO_MANIFEST_DIR")
    );
    let known = root.path().join("expectations.yaml");
    std::fs::write(
        &known,
        "output.shape.hundred*.glob.*:\n  status: xfail\n  reason: stops after 50 files\n\
         glob.walk.past-5000:\n  status: xfail\n  reason: stops after 50 files\n",
    )
    .unwrap();
    let action = |env: &[(&str, &str)]| {
        for name in ["output", "step_summary"] {
            std::fs::write(github.join(name), "").unwrap();
        }
        let _ = std::fs::remove_dir_all(work.join("toolpath-findings"));
        let out = Command::new("bash")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/action.sh"))
            .arg("run")
            .current_dir(&work)
            .env_clear()
            .env(
                "PATH",
                format!(
                    "{}:/usr/local/bin:/usr/bin:/bin",
                    bin.parent().unwrap().display()
                ),
            )
            .env("HOME", root.path())
            .env("TMPDIR", std::env::temp_dir())
            .env("TOOLPATH_BIN", bin)
            .env("GITHUB_ACTION_PATH", env!("CARGO_MANIFEST_DIR"))
            .env("GITHUB_OUTPUT", github.join("output"))
            .env("GITHUB_STEP_SUMMARY", github.join("step_summary"))
            .env("TOOLPATH_ADAPTER", &adapter)
            .env("TOOLPATH_EXPECTATIONS", &known)
            .env("TOOLPATH_FUZZ_ITERATIONS", "300")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let read = |name: &str| std::fs::read_to_string(github.join(name)).unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (
            out.status.code(),
            read("output"),
            read("step_summary"),
            text,
        )
    };

    let (code, outputs, summary, out) = action(&[]);
    assert_eq!(code, Some(1), "the findings fail the step: {out}");
    assert!(
        out.contains(" passed, 0 failed, "),
        "every case passed: {out}"
    );
    assert!(
        outputs.starts_with("exit-code=1\nfuzz-exit-code=1\n"),
        "{outputs}"
    );
    let findings = work.join("toolpath-findings");
    assert!(
        outputs.contains(&format!("findings={}\n", findings.display())),
        "{outputs}"
    );
    let written: Vec<PathBuf> = std::fs::read_dir(&findings)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!written.is_empty(), "{out}");
    let cases_then_fuzz = summary
        .find("# toolpath certification")
        .unwrap_or(usize::MAX)
        < summary.find("## toolpath fuzz").unwrap_or(0);
    assert!(cases_then_fuzz, "{summary}");
    assert!(summary.contains("(seed 1): 300 iterations"), "{summary}");
    for file in &written {
        let name = file.file_name().unwrap().to_string_lossy();
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            summary.contains(&format!("<code>{name}</code>"))
                && summary.contains(&format!("```yaml\n{text}")),
            "{name} is shown whole: {summary}"
        );
    }

    // The runs below are about the fuzz step alone: the whole suite passed
    // above, so the cases step runs only the cases the expectations name
    // (through the action's `args` input), and passes as it did.
    let only_known = ("TOOLPATH_ARGS", "--filter output.shape.hundred*");
    let (code, outputs, summary, out) = action(&[("TOOLPATH_FUZZ", "false"), only_known]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        outputs.starts_with("exit-code=0\nfuzz-exit-code=\n"),
        "{outputs}"
    );
    assert!(!summary.contains("## toolpath fuzz"), "{summary}");
    assert!(!findings.exists());

    let known = root.path().join("fuzz-expectations.yaml");
    std::fs::write(
        &known,
        "\"glob.fuzz.*\":\n  status: xfail\n  reason: negates and stops at 50\n",
    )
    .unwrap();
    let known = known.display().to_string();
    let (code, outputs, summary, out) =
        action(&[("TOOLPATH_FUZZ_EXPECTATIONS", &known), only_known]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        outputs.starts_with("exit-code=0\nfuzz-exit-code=0\n"),
        "{outputs}"
    );
    assert!(summary.contains("0 new finding(s)"), "{summary}");
}

/// Wrong file tools none of which the generator names, by adapter and
/// mode: a write through a dangling link (`mutant.py`), a backup left
/// beside the file, a relative path taken, line endings normalised on a
/// read; reads cut at 2,000 lines or characters, a newline added, `\t`
/// written as a tab, emoji dropped, an edit that ignores case
/// (`hole_classes.py`); a write that follows a link out, an edit that
/// rewrites the whole file's line endings (`file_bugs.py`). Judged on
/// what changed on disk (`fixture`, `escape`) and what the answer says.
const FILE_SUBJECTS: [(&str, &str); 11] = [
    ("mutant.py", "write-through-dangling-link"),
    ("mutant.py", "backup-beside"),
    ("mutant.py", "accepts-relative"),
    ("mutant.py", "read-normalises-newlines"),
    ("hole_classes.py", "read-cuts-lines"),
    ("hole_classes.py", "adds-final-newline"),
    ("hole_classes.py", "interprets-escapes"),
    ("hole_classes.py", "drops-astral"),
    ("hole_classes.py", "edit-case-insensitive"),
    ("file_bugs.py", "write-follows-link-out"),
    ("file_bugs.py", "edit-rewrites-line-endings"),
];

/// Iterations each wrong file tool (and each subject of a generated
/// dimension) may take. Seed 1 finds the slowest (an edit that writes the
/// file back through a lossy decoding) at iteration 2,462 ([`FIRST_FOUND`]).
const FILE_BUDGET: u64 = 3_000;

/// `toolpath fuzz` covers the file tools: each wrong one is found within
/// the budget, and its finding is a case that lints, passes the reference
/// and fails it.
#[test]
fn every_wrong_file_tool_is_found_and_its_case_fails_it() {
    found_within(&FILE_SUBJECTS, FILE_BUDGET);
}

/// Fuzzes each wrong subject (script in `tests/adapters`, mode) with seed 1
/// ([`find`]), and checks that each is found within `budget` and that its
/// finding is a case that lints, passes the reference and fails it.
fn found_within(subjects: &[(&str, &str)], budget: u64) {
    let subjects: Vec<(&str, &str, Option<&str>)> =
        subjects.iter().map(|(s, m)| (*s, *m, None)).collect();
    found_within_tools(&subjects, budget);
}

/// [`found_within`], each subject fuzzed on one tool when it names one
/// (`--tool`).
fn found_within_tools(subjects: &[(&str, &str, Option<&str>)], budget: u64) {
    let mut problems = Vec::new();
    let mut found = Vec::new();
    for (script, mode, tool) in subjects {
        let adapter = format!("python3 tests/adapters/{script} {mode}");
        let only: Vec<&str> = tool.iter().flat_map(|t| ["--tool", *t]).collect();
        let (at, wrong) = find(&adapter, mode, budget, &only, None);
        found.extend(at);
        problems.extend(wrong);
    }
    // Shown with `--nocapture`: how far each is from the budget.
    eprintln!("{}", found.join("\n"));
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Syntax and content dimensions of issue 32 the generator now makes,
/// each shown by a wrong subject it finds: a chain of more than 8 links
/// (a resolver that gives up after 8, `link-limit-8`), a line that is not
/// UTF-8 (a search that drops it and numbers the lines after it wrongly,
/// `undecodable-lines-dropped`; an edit that writes the file back through
/// a lossy decoding, `edit-replaces-invalid-bytes`).
const DIMENSION_SUBJECTS: [(&str, &str); 3] = [
    ("mutant.py", "link-limit-8"),
    ("mutant.py", "undecodable-lines-dropped"),
    ("hole_classes.py", "edit-replaces-invalid-bytes"),
];

#[test]
fn every_generated_dimension_finds_its_wrong_subject() {
    found_within(&DIMENSION_SUBJECTS, FILE_BUDGET);
}

/// Issue 45's generated dimensions, each shown by the obvious bug of a
/// tool that meets it (`tests/adapters/dimensions.py`): names composed
/// (NFC) from a name stored decomposed (`composes-names`); a file tool
/// that looks names up without case, beside a name that differs only in
/// case (`folds-case`); names read back from lines, a name with a newline
/// (`names-split-at-newlines`); a glob whose pattern is built from a
/// directory named with glob syntax, `(dashboard)` or `@(a|b)`
/// (`directory-as-pattern`); paths read as URLs, `a%20b`
/// (`percent-decoded`); a file tool that compares a file's real path with
/// a root that is a link (`root-link-refused`).
const ISSUE_45_SUBJECTS: [(&str, &str); 6] = [
    ("dimensions.py", "composes-names"),
    ("dimensions.py", "folds-case"),
    ("dimensions.py", "names-split-at-newlines"),
    ("dimensions.py", "directory-as-pattern"),
    ("dimensions.py", "percent-decoded"),
    ("dimensions.py", "root-link-refused"),
];

#[test]
fn every_issue_45_dimension_finds_its_wrong_subject() {
    found_within(&ISSUE_45_SUBJECTS, FILE_BUDGET);
}

/// A pattern with an empty segment (GLOB-11, issue 45), a dimension of
/// glob's alone, so fuzzed on glob: a glob that tidies `src//*.ts` into
/// `src/*.ts` (`collapses-empty-segments`) is found, and the finding is
/// GLOB-11's, the rule the reference refused the pattern under, not
/// GLOB-6's (a climb or a `.` segment).
const EMPTY_SEGMENT_SUBJECT: (&str, &str) = ("dimensions.py", "collapses-empty-segments");

#[test]
fn an_empty_pattern_segment_is_found_as_glob_11s() {
    let (script, mode) = EMPTY_SEGMENT_SUBJECT;
    let adapter = format!("python3 tests/adapters/{script} {mode}");
    let (at, problems) = find(
        &adapter,
        mode,
        FOCUSED_BUDGET,
        &["--tool", "glob"],
        Some("GLOB-11"),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    assert!(at.is_some(), "{mode}: not found");
}

/// Iterations a pattern-syntax mutant may take, fuzzed on its own tool.
/// Seed 1 finds the slowest (`include-ignores-case`, search only) at
/// iteration 3,079 ([`FIRST_FOUND`]).
const FOCUSED_BUDGET: u64 = 4_000;

/// The pattern syntax of issue 32, each dimension shown by a wrong
/// matcher `toolpath fuzz --tool TOOL` finds (`mutant.py --focused`, so
/// mutants added later are covered too): `?` taken as optional, a group
/// of one alternative taken literally, a class whose `-` is no range
/// (glob), `include` compared without case (search). (Patterns matched
/// as bytes, `bytes-not-characters`, are left to the cases: see
/// mutant.py's CASES_ONLY.) The generator meets each from its pools, which take every
/// value the cases give the parameter (src/fuzz/pools.rs).
#[test]
fn every_pattern_syntax_dimension_finds_its_wrong_matcher() {
    let focused = focused();
    let subjects: Vec<(&str, &str, Option<&str>)> = focused
        .iter()
        .map(|(mode, tool)| ("mutant.py", mode.as_str(), Some(tool.as_str())))
        .collect();
    found_within_tools(&subjects, FOCUSED_BUDGET);
}

/// `mutant.py --focused`: each pattern-syntax mutant and the tool it is
/// fuzzed on.
fn focused() -> Vec<(String, String)> {
    let out = Command::new("python3")
        .args(["tests/adapters/mutant.py", "--focused"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let focused: Vec<(String, String)> = text
        .lines()
        .map(|l| {
            let (mode, tool) = l.split_once(' ').expect("MODE TOOL");
            (mode.to_owned(), tool.to_owned())
        })
        .collect();
    assert!(
        focused.len() >= 4,
        "mutant.py --focused lost mutants: {text}"
    );
    focused
}
