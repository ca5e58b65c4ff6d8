//! The digests a run records of what it was run against
//! ([`RunAgainst`]): its suite and its runner's files, computed from the
//! files every time, by `toolpath run` as it records them and by
//! `toolpath certification --check-fresh` as it checks a page against
//! today's files. One computation for both, so a page can be stale only
//! because a file changed.
//!
//! The suite is what a verdict is judged against: the spec's requirement
//! table (`spec/README.md`, embedded in every build) and every case file
//! the run reads, the embedded suite or the `--cases` directories, then
//! the `--add-cases` ones. A case file is named by its path below its
//! directory, so the embedded suite and `--cases cases` of the checkout it
//! was built from have one digest.
//!
//! A runner is the directories of an adapter or MCP profile
//! (`--runner-dir`, repeatable: an npm adapter's own and the shared
//! `runners/common-node`). Its digest covers every file below them that
//! can change a verdict: the adapter's code, lock and requirements files,
//! the MCP profile, the expectations file, the setup script; links as
//! links. Not a `README.md` (prose about the runner, which changes no
//! verdict: a runner's page does not go stale when its README is
//! reworded) nor what a setup installs ([`INSTALLED`]), which its lock
//! file already pins.

use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::report::RunAgainst;
use crate::report::run_against::{Runner, plain_dir};

/// The directories a runner's setup makes (installed packages, compiled
/// bytecode), at any depth: what the repository's `.gitignore` leaves
/// untracked under `runners/`.
pub const INSTALLED: [&str; 3] = ["node_modules", "venv", "__pycache__"];

/// The file of a runner directory that describes it and changes no verdict.
pub const PROSE: &str = "README.md";

/// A digest over named pieces: each name and its bytes, length-prefixed,
/// so no two sequences of pieces hash alike.
#[derive(Default)]
struct Pieces(Sha256);

impl Pieces {
    fn add(&mut self, kind: &str, name: &str, bytes: &[u8]) {
        for part in [kind.as_bytes(), name.as_bytes(), bytes] {
            self.0.update((part.len() as u64).to_le_bytes());
            self.0.update(part);
        }
    }

    fn finish(self) -> String {
        format!("sha256:{:x}", self.0.finalize())
    }
}

/// The digest of the suite a run of these case directories reads (both
/// empty: the embedded suite).
pub fn suite_digest(cases: &[PathBuf], added: &[PathBuf]) -> Result<String, String> {
    let mut pieces = Pieces::default();
    pieces.add(
        "spec",
        "spec/README.md",
        toolpath_suite::spec::SPEC_TEXT.as_bytes(),
    );
    if cases.is_empty() {
        for (path, text) in crate::case::embedded::EMBEDDED_CASES {
            let name = path.strip_prefix("cases/").unwrap_or(path);
            pieces.add("case", name, text.as_bytes());
        }
    }
    for (kind, dirs) in [("case", cases), ("added case", added)] {
        for dir in dirs {
            let files = toolpath_suite::case::load::case_files(dir).map_err(|errors| {
                let first = errors.first().map(ToString::to_string).unwrap_or_default();
                format!("cannot read {} for its digest: {first}", dir.display())
            })?;
            for file in files {
                let bytes = std::fs::read(&file)
                    .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
                let name = file.strip_prefix(dir).unwrap_or(&file);
                pieces.add(kind, &name.to_string_lossy(), &bytes);
            }
        }
    }
    Ok(pieces.finish())
}

/// The files of a runner's directories its digest covers, as (directory
/// as given, path below it), sorted within each directory.
pub fn runner_files(dirs: &[String]) -> Result<Vec<(String, PathBuf)>, String> {
    let mut all = Vec::new();
    for dir in dirs {
        if !plain_dir(dir) {
            return Err(format!(
                "runner directory {dir:?}: a name a page can show and read back (no backquote, \
                 line break or ` + `)"
            ));
        }
        let root = Path::new(dir);
        if !root.is_dir() {
            return Err(format!("runner directory {dir}: not a directory"));
        }
        let mut files = Vec::new();
        let walk = walkdir::WalkDir::new(root)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|entry| {
                entry.depth() == 0 || !INSTALLED.iter().any(|name| entry.file_name() == *name)
            });
        for entry in walk {
            let entry = entry.map_err(|e| format!("runner directory {dir}: {e}"))?;
            let kind = entry.file_type();
            if (kind.is_file() || kind.is_symlink()) && entry.file_name() != PROSE {
                let below = entry.path().strip_prefix(root).unwrap_or(entry.path());
                files.push((dir.clone(), below.to_owned()));
            }
        }
        all.extend(files);
    }
    Ok(all)
}

/// The digest of a runner's directories: every file [`runner_files`]
/// lists, its contents (a link: where it points).
pub fn runner_digest(dirs: &[String]) -> Result<String, String> {
    let mut pieces = Pieces::default();
    for (dir, below) in runner_files(dirs)? {
        let path = Path::new(&dir).join(&below);
        let name = format!("{dir}/{}", below.to_string_lossy());
        let read = |e: io::Error| format!("cannot read {}: {e}", path.display());
        let meta = std::fs::symlink_metadata(&path).map_err(read)?;
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path).map_err(read)?;
            pieces.add("link", &name, target.to_string_lossy().as_bytes());
        } else {
            pieces.add("file", &name, &std::fs::read(&path).map_err(read)?);
        }
    }
    Ok(pieces.finish())
}

/// What a run of these case directories and runner directories is made
/// against.
pub fn record(
    cases: &[PathBuf],
    added: &[PathBuf],
    runner_dirs: &[String],
) -> Result<RunAgainst, String> {
    let runner = match runner_dirs.is_empty() {
        true => None,
        false => Some(Runner {
            dirs: runner_dirs.to_vec(),
            digest: runner_digest(runner_dirs)?,
        }),
    };
    Ok(RunAgainst {
        suite: suite_digest(cases, added)?,
        runner,
        certified: Some(today()),
        control: None,
    })
}

/// Today's date, UTC, as `YYYY-MM-DD`: the day a run was made.
fn today() -> String {
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    now[..10].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run records the day it was made, as a page shows it
    /// (`YYYY-MM-DD`, UTC), and no control unless asked.
    #[test]
    fn a_run_records_the_day_it_was_made() {
        let record = record(&[], &[], &[]).unwrap();
        let day = record.certified.expect("a date");
        let shape: Vec<usize> = day.split('-').map(str::len).collect();
        assert_eq!(shape, [4, 2, 2], "{day}");
        assert!(day.chars().all(|c| c.is_ascii_digit() || c == '-'), "{day}");
        assert!(day.as_str() >= "2026-01-01", "{day}");
        assert_eq!(record.control, None);
    }

    /// The embedded suite and `--cases` over the directory it was built
    /// from are one suite: one digest. A case changed, added, or added
    /// besides is another.
    #[test]
    fn the_suite_digest_is_of_the_case_files_read() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
        let embedded = suite_digest(&[], &[]).unwrap();
        assert!(embedded.starts_with("sha256:"), "{embedded}");
        assert_eq!(
            suite_digest(std::slice::from_ref(&checkout), &[]).unwrap(),
            embedded
        );

        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join("cases");
        std::fs::create_dir_all(copy.join("resolve")).unwrap();
        let text = crate::case::embedded::EMBEDDED_CASES[0].1;
        std::fs::write(copy.join("resolve/one.yaml"), text).unwrap();
        let one = suite_digest(std::slice::from_ref(&copy), &[]).unwrap();
        assert_ne!(one, embedded);
        std::fs::write(copy.join("resolve/one.yaml"), format!("{text}# changed\n")).unwrap();
        let changed = suite_digest(std::slice::from_ref(&copy), &[]).unwrap();
        assert_ne!(changed, one);
        assert_ne!(suite_digest(&[], &[copy]).unwrap(), embedded);
    }

    /// A runner's code, lock file, profile or setup changed is another
    /// runner; its README or what its setup installed is not.
    #[test]
    fn the_runner_digest_is_of_what_can_change_a_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let runner = dir.path().join("r");
        std::fs::create_dir_all(runner.join("node_modules/pkg")).unwrap();
        std::fs::create_dir_all(runner.join("lib/__pycache__")).unwrap();
        std::fs::write(runner.join("adapter.py"), "print(1)\n").unwrap();
        std::fs::write(runner.join("lib/tools.py"), "x = 1\n").unwrap();
        std::fs::write(runner.join("README.md"), "# r\n").unwrap();
        let dirs = [runner.to_string_lossy().into_owned()];
        let listed: Vec<PathBuf> = runner_files(&dirs)
            .unwrap()
            .into_iter()
            .map(|f| f.1)
            .collect();
        assert_eq!(listed, [PathBuf::from("adapter.py"), "lib/tools.py".into()]);
        let before = runner_digest(&dirs).unwrap();

        std::fs::write(runner.join("README.md"), "# r, reworded\n").unwrap();
        std::fs::write(runner.join("node_modules/pkg/index.js"), "1\n").unwrap();
        std::fs::write(runner.join("lib/__pycache__/tools.pyc"), "1\n").unwrap();
        assert_eq!(runner_digest(&dirs).unwrap(), before);

        std::fs::write(runner.join("lib/tools.py"), "x = 2\n").unwrap();
        let changed = runner_digest(&dirs).unwrap();
        assert_ne!(changed, before);
        std::os::unix::fs::symlink("tools.py", runner.join("lib/link.py")).unwrap();
        assert_ne!(runner_digest(&dirs).unwrap(), changed);
    }

    #[test]
    fn a_runner_directory_must_exist_and_be_plain() {
        assert!(runner_digest(&["/nonexistent/toolpath-runner".into()]).is_err());
        assert!(runner_digest(&["a`b".into()]).is_err());
    }
}
