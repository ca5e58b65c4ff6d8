//! A fuzz target for the case loader, run for a fixed number of inputs by
//! `cargo test`.
//!
//! Case files come from strangers, so the loader must take any bytes. This
//! mutates every case file of the suite and of `tests/data` (byte flips,
//! YAML tokens, hostile paths and link targets, invalid UTF-8, control
//! characters, splices of other files) with a seeded generator and checks,
//! for every input:
//!
//! - loading never panics;
//! - every error is located inside the file: 1 <= line <= lines + 1 and
//!   1 <= column <= that line's length + 1 (the end of the file counts;
//!   lines end at CR LF, CR or LF, as in YAML);
//! - the printed error holds no raw control character (nothing can forge a
//!   line of its own);
//! - an accepted case's fixture builds (or fails cleanly) without writing
//!   beside its own directory, every link in it resolves inside it, and
//!   dropping it leaves nothing behind.
//!
//! The budget is a number of inputs, not of seconds, so a loaded CI machine
//! checks the same inputs as an idle one, only slower, and a failure is
//! reproduced by the seed alone. `TOOLPATH_FUZZ_INPUTS` (default
//! [`DEFAULT_INPUTS`]) sets how many, `TOOLPATH_FUZZ_SEED` picks another
//! sequence (default fixed, so CI is reproducible). The figures are
//! printed at the end (`cargo test --test fuzz_loader -- --nocapture`).
//! An input that breaks a property is written to `target/tmp/fuzz-loader-failure.yaml`.

use std::path::{Path, PathBuf};

use toolpath::case::fixture::build;
use toolpath_suite::case::validate::parse_case_bytes;
use toolpath_suite::case::{Case, CaseError};

/// Inputs checked by a plain `cargo test`.
const DEFAULT_INPUTS: u64 = 8_000;

/// splitmix64: small, fast, and the same everywhere for a given seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces an attacker (or a careless author) would type.
const TOKENS: &[&str] = &[
    "\n",
    ": ",
    "- ",
    "{",
    "}",
    "[",
    "]",
    ", ",
    "\"",
    "'",
    "&a ",
    "*a",
    "!!binary ",
    "!!bool ",
    "<<: *a",
    "yes",
    "off",
    "y",
    "~",
    "null",
    "..",
    "../",
    "../../..",
    "/etc",
    "/proc/kmsg",
    "{tmp}",
    "{tmp}/..",
    "{tmp}x",
    "/",
    "\t",
    "\0",
    "\x1b[2J",
    "\r",
    "\u{2028}",
    "\u{202e}",
    "\u{85}",
    "0777",
    "4755",
    "1777",
    "ws/",
    "ws/a/b",
    "---\n",
    "...\n",
    "%YAML 1.1\n",
    "? ",
    "|\n",
    ">-\n",
    "#",
    "\\u0000",
    "\\n",
    "{base64: AAE}",
    "  symlinks: {ws/l: ../.., ws/m: l/../..}\n",
    "  modes: {ws: \"0000\"}\n",
    "  files: {ws: x, ws/a: y, ws/a/b: z}\n",
    "requires: [symlinks, permissions, fifos, sockets, devices]\n",
];

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, corpus: &[Vec<u8>]) {
    let at = rng.below(input.len() + 1);
    match rng.below(9) {
        0 if !input.is_empty() => {
            let i = rng.below(input.len());
            input[i] = rng.next() as u8;
        }
        1 | 2 => {
            let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
            input.splice(at..at, token.iter().copied());
        }
        3 => {
            let end = (at + rng.below(24)).min(input.len());
            input.drain(at..end);
        }
        4 => {
            let end = (at + rng.below(64)).min(input.len());
            let copy = input[at..end].to_vec();
            input.splice(at..at, copy);
        }
        5 | 6 => {
            // A line of another file in place of one of ours.
            let other = &corpus[rng.below(corpus.len())];
            let lines: Vec<&[u8]> = other.split_inclusive(|&b| b == b'\n').collect();
            let line = lines[rng.below(lines.len())];
            let start = input[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let end = input[at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(input.len(), |i| at + i + 1);
            input.splice(start..end, line.iter().copied());
        }
        7 => input.truncate(at),
        _ => {
            let bad: &[u8] =
                [&[0xff][..], &[0xc3], &[0xed, 0xa0, 0x80], &[0xe2, 0x80]][rng.below(4)];
            input.splice(at..at, bad.iter().copied());
        }
    }
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

fn corpus() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    yaml_files(&root.join("cases"), &mut files);
    yaml_files(&root.join("tests/data"), &mut files);
    files.sort();
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// The lines of `input` as YAML counts them: CR LF, CR and LF each end one.
fn lines_of(input: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < input.len() {
        if input[i] == b'\r' || input[i] == b'\n' {
            lines.push(&input[start..i]);
            i += if input[i..].starts_with(b"\r\n") {
                2
            } else {
                1
            };
            start = i;
        } else {
            i += 1;
        }
    }
    lines.push(&input[start..]);
    lines
}

/// The bounds an error's location must keep.
fn check_location(input: &[u8], error: &CaseError) -> Result<(), String> {
    let lines = lines_of(input);
    let (line, column) = (error.line as usize, error.column as usize);
    if line == 0 || line > lines.len() + 1 {
        return Err(format!("line {line} of {} lines", lines.len()));
    }
    // Columns count characters; a line's byte length bounds them from above.
    let width = lines.get(line - 1).map_or(0, |l| l.len());
    if column == 0 || column > width + 1 {
        return Err(format!("column {column} of a {width}-byte line {line}"));
    }
    Ok(())
}

#[derive(Default)]
struct Figures {
    inputs: u64,
    /// Errors reported, over every refused input (a file has all of its).
    errors: u64,
    accepted: u64,
    built: u64,
    links_checked: u64,
}

/// Builds an accepted case's fixture in a directory of its own and checks
/// that nothing lands beside it, nothing points outside it, and nothing is
/// left once it is dropped.
fn build_and_check(case: &Case, figures: &mut Figures) -> Result<(), String> {
    let sandbox = tempfile::tempdir().unwrap();
    let Ok(built) = build(&case.fixture, Some(sandbox.path())) else {
        return check_empty(sandbox.path(), "after a failed build");
    };
    figures.built += 1;
    let beside = std::fs::read_dir(sandbox.path()).unwrap().count();
    if beside != 1 {
        return Err(format!("{beside} entries beside the fixture"));
    }
    for (link, _) in &case.fixture.symlinks {
        figures.links_checked += 1;
        let resolved = std::fs::canonicalize(built.root.join(link.as_str()));
        if let Some(real) = resolved.ok().filter(|r| !r.starts_with(&built.root)) {
            return Err(format!(
                "link {link} resolves outside, to {}",
                real.display()
            ));
        }
    }
    drop(built);
    check_empty(sandbox.path(), "after the fixture was dropped")
}

fn check_empty(dir: &Path, when: &str) -> Result<(), String> {
    let left = std::fs::read_dir(dir).unwrap().count();
    if left == 0 {
        Ok(())
    } else {
        Err(format!("{left} entries left {when}"))
    }
}

/// One input: every property above; `Err` names the broken one.
fn check_one(input: &[u8], figures: &mut Figures) -> Result<(), String> {
    figures.inputs += 1;
    match parse_case_bytes(Path::new("fuzz.yaml"), input) {
        Err(errors) => {
            figures.errors += errors.len() as u64;
            for error in &errors {
                check_location(input, error).map_err(|m| format!("{m}: {error}"))?;
                let shown = error.to_string();
                if let Some(c) = shown.chars().find(|c| c.is_control()) {
                    return Err(format!(
                        "raw control character {c:?} in: {}",
                        shown.escape_debug()
                    ));
                }
            }
            Ok(())
        }
        Ok(case) => {
            figures.accepted += 1;
            build_and_check(&case, figures)
        }
    }
}

#[test]
fn the_case_loader_survives_fuzzed_case_files() {
    let inputs: u64 = std::env::var("TOOLPATH_FUZZ_INPUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_INPUTS);
    let seed = std::env::var("TOOLPATH_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(9);
    let corpus = corpus();
    let mut rng = Rng(seed);
    let mut figures = Figures::default();
    for _ in 0..inputs {
        let mut input = corpus[rng.below(corpus.len())].clone();
        for _ in 0..=rng.below(4) {
            mutate(&mut rng, &mut input, &corpus);
        }
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_one(&input, &mut figures)
        }));
        let failure = match outcome {
            Ok(Ok(())) => continue,
            Ok(Err(broken)) => broken,
            Err(_) => "the loader panicked".to_owned(),
        };
        let saved = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-loader-failure.yaml");
        std::fs::write(&saved, &input).unwrap();
        panic!(
            "{failure}\ninput saved to {} (seed {seed}, input {})",
            saved.display(),
            figures.inputs
        );
    }
    eprintln!(
        "fuzz_loader: {} fuzzed case files (seed {seed}), 0 panics; {} accepted, {} errors in \
         the others, {} fixtures built, {} links checked, none resolving outside, nothing \
         written beside or left behind",
        figures.inputs, figures.accepted, figures.errors, figures.built, figures.links_checked
    );
    assert_eq!(figures.inputs, inputs, "every input was checked");
    // The fuzzing means something only if it reaches both sides of the loader.
    assert!(
        figures.accepted > 0 && figures.errors > 0,
        "{} accepted, {} errors: the mutations never reach one side",
        figures.accepted,
        figures.errors
    );
}
