//! Whether another user can reach a path, by its permission bits: checked
//! before a run whose subject runs as the unprivileged user (the default
//! as root), so that a program, a script its command names, or the run
//! directory's place that user cannot read fails the run at its start,
//! naming the fix, rather than every case with a subject that could not
//! start (`/root` is `0700`; so is a `tempfile::tempdir()`).
//!
//! What the command names must be a regular file (a directory may be an
//! argument), and nothing is opened in a way that could wait: a FIFO named
//! as the program would otherwise hold the run before it begins.
//!
//! Permission bits only (owner, group, others; no ACLs), as the kernel
//! reads them for a process of that user and that one group (the
//! unprivileged user gets no other: see [`crate::sys::confine`]).

use std::fs::Metadata;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Read permission.
pub const READ: u32 = 0o4;
/// Execute permission (search, for a directory).
pub const EXECUTE: u32 = 0o1;

/// Why `user` cannot reach `path` with `want` (bits of [`READ`] and
/// [`EXECUTE`]); `Ok` when it can, or when `path` does not exist (what
/// does not exist is not this check's to report).
pub fn check(path: &Path, (uid, gid): (u32, u32), want: u32) -> Result<(), String> {
    let Ok(real) = std::fs::canonicalize(path) else {
        return Ok(());
    };
    let allows = |at: &Path, want: u32| -> Result<bool, String> {
        let meta = std::fs::metadata(at).map_err(|e| format!("{}: {e}", at.display()))?;
        let shift = match (meta.uid() == uid, meta.gid() == gid) {
            (true, _) => 6,
            (false, true) => 3,
            (false, false) => 0,
        };
        Ok((meta.mode() >> shift) & want == want)
    };
    let ancestors: Vec<&Path> = real.ancestors().skip(1).collect();
    for dir in ancestors.into_iter().rev() {
        if !allows(dir, EXECUTE)? {
            return Err(format!("{} is not searchable by it", dir.display()));
        }
    }
    if !allows(&real, want)? {
        let what = match want {
            EXECUTE => "executable",
            READ => "readable",
            _ => "readable and executable",
        };
        return Err(format!("{} is not {what} by it", real.display()));
    }
    Ok(())
}

/// The program `name` as `execvp` run by `user` finds it on `path` (the
/// harness's `PATH`), passing over entries that user cannot reach (a
/// version manager's shims under `/root` do not shadow `/usr/bin` for
/// it). A script's interpreter (its `#!` line) must be reachable too: a
/// virtual environment's `bin/python` is a link into the interpreter it
/// was made with, under `/root` for a version manager's. `Err` names the
/// first candidate it could not reach when it reaches none; `Ok(None)`
/// when there is no candidate at all (the start says so).
pub fn program(name: &str, path: &str, user: (u32, u32)) -> Result<Option<PathBuf>, String> {
    let candidates: Vec<PathBuf> = match name.contains('/') {
        true => vec![PathBuf::from(name)],
        false => std::env::split_paths(path)
            .map(|dir| dir.join(name))
            .filter(|p| p.is_file())
            .collect(),
    };
    let mut first_refusal = None;
    for candidate in candidates {
        if !candidate.exists() {
            continue;
        }
        let start = match start_of(&candidate) {
            Ok(start) => start,
            Err(why) => {
                first_refusal.get_or_insert(why);
                continue;
            }
        };
        // A script is read by its interpreter, as the user.
        let want = match start.starts_with(b"#!") {
            true => READ | EXECUTE,
            false => EXECUTE,
        };
        let interpreter = interpreter(&start).map_or(Ok(()), |program| {
            check(&program, user, EXECUTE)
                .map_err(|why| format!("its interpreter {}: {why}", program.display()))
        });
        match check(&candidate, user, want).and(interpreter) {
            Ok(()) => return Ok(Some(candidate)),
            Err(why) => {
                first_refusal.get_or_insert(why);
            }
        }
    }
    first_refusal.map_or(Ok(None), Err)
}

/// How many bytes of a program are read for its `#!` line: as many as
/// the kernel reads itself to find the interpreter (`BINPRM_BUF_SIZE`,
/// Linux 5.1 and later); what lies beyond is never an interpreter it runs.
const SHEBANG_BYTES: u64 = 256;

/// The first [`SHEBANG_BYTES`] of `program`, where its `#!` line is.
/// Opened without waiting (`O_NONBLOCK`: a FIFO never blocks the open,
/// the program's name being anyone's choice) and read only if what was
/// opened is a regular file. Unreadable, nothing: the permission check
/// says why it cannot run.
fn start_of(program: &Path) -> Result<Vec<u8>, String> {
    let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(program);
    let Ok(file) = opened else {
        return Ok(Vec::new());
    };
    match file.metadata() {
        Ok(meta) => regular(program, &meta)?,
        Err(_) => return Ok(Vec::new()),
    }
    Ok(head(file))
}

/// At most [`SHEBANG_BYTES`] of `reader`, however long its first line;
/// what a failed read leaves is what was read.
fn head(reader: impl Read) -> Vec<u8> {
    let mut start = Vec::new();
    let _ = reader.take(SHEBANG_BYTES).read_to_end(&mut start);
    start
}

/// The interpreter the `#!` line at the `start` of a script names, when
/// it names a path.
fn interpreter(start: &[u8]) -> Option<PathBuf> {
    let line = start.strip_prefix(b"#!")?.split(|&b| b == b'\n').next()?;
    let mut words = line
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty());
    let program = std::str::from_utf8(words.next()?).ok()?;
    program.starts_with('/').then(|| PathBuf::from(program))
}

/// `Err` naming `path` and what it is when `meta` (its metadata) is not a
/// regular file's: a FIFO or a character device blocks whoever opens it
/// to read a program or a script, a socket cannot be opened at all, and a
/// directory is no program.
fn regular(path: &Path, meta: &Metadata) -> Result<(), String> {
    let kind = meta.file_type();
    let what = match () {
        () if kind.is_file() => return Ok(()),
        () if kind.is_dir() => "a directory",
        () if kind.is_fifo() => "a FIFO",
        () if kind.is_socket() => "a socket",
        () if kind.is_char_device() || kind.is_block_device() => "a device",
        () => "of an unknown kind",
    };
    Err(format!("{} is {what}, not a regular file", path.display()))
}

/// Refuses the program of `argv` (when it names a path) and any file its
/// arguments name that is not a regular file, from their metadata alone:
/// nothing is opened. An argument may name a directory (`--directory
/// DIR`), never a FIFO, a socket or a device, which the subject would
/// block on or fail to read, as whichever user.
fn files_named(argv: &[String]) -> Result<(), String> {
    let named = argv.iter().enumerate();
    let refusals: Vec<String> = named
        .filter(|(i, word)| *i > 0 || word.contains('/'))
        .filter_map(|(i, word)| {
            let meta = std::fs::metadata(word).ok()?;
            match i > 0 && meta.is_dir() {
                true => None,
                false => regular(Path::new(word), &meta).err(),
            }
        })
        .collect();
    match refusals.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "the subject's command names what is not a regular file ({}): its program, \
             and any file its arguments name, must be one (an argument may also name a directory)",
            refusals.join("; ")
        )),
    }
}

/// Refuses, before anything runs, a subject `user` could not start: its
/// program or a file its command names (`argv`, words naming no file are
/// passed over) that is not a regular file ([`files_named`]), or one of
/// them or the run directory it must reach (`run_dir`, where its
/// fixtures are) that this user cannot read. Every case would otherwise
/// fail with a subject that did not start; the message names the fix.
pub fn startable(argv: &[String], run_dir: &Path, user: (u32, u32)) -> Result<(), String> {
    let Some((name, args)) = argv.split_first() else {
        return Ok(());
    };
    files_named(argv)?;
    let path = std::env::var("PATH").unwrap_or_default();
    let mut refusals: Vec<String> = Vec::new();
    if let Err(why) = program(name, &path, user) {
        refusals.push(format!("`{name}`: {why}"));
    }
    for arg in args.iter().filter(|a| Path::new(a).exists()) {
        if let Err(why) = check(Path::new(arg), user, READ) {
            refusals.push(format!("`{arg}`: {why}"));
        }
    }
    if let Err(why) = check(run_dir, user, EXECUTE) {
        refusals.push(format!("the run directory: {why}"));
    }
    match refusals.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "as root, the subject runs as the unprivileged user (uid {}), which cannot reach what it needs: {}; \
             make these readable by other users (and every directory above them searchable), \
             or pass --subject-as-root to run the subject as root, unprotected",
            user.0,
            refusals.join("; ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    const OTHER: (u32, u32) = (65534, 65534);

    fn mode(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    /// Another user reaches a file only through directories it may search,
    /// and reads it only when its bits say so; the owner's bits are not
    /// another user's.
    #[test]
    fn a_path_is_reached_through_searchable_directories_only() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("adapter.py");
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        mode(&file, 0o644);
        mode(dir.path(), 0o700);
        let why = check(&file, OTHER, READ).unwrap_err();
        assert!(why.contains("is not searchable"), "{why}");
        mode(dir.path(), 0o711);
        assert_eq!(check(&file, OTHER, READ), Ok(()));
        mode(&file, 0o600);
        let why = check(&file, OTHER, READ).unwrap_err();
        assert!(why.ends_with("adapter.py is not readable by it"), "{why}");
        // What does not exist is not this check's to report.
        assert_eq!(check(&dir.path().join("none"), OTHER, READ), Ok(()));
    }

    /// `execvp` as another user passes over a `PATH` entry it cannot
    /// search, as the shims under `/root` are passed over for `python3`.
    #[test]
    fn a_program_is_found_where_the_user_can_reach_it() {
        let shadowing = tempfile::tempdir().unwrap();
        let reachable = tempfile::tempdir().unwrap();
        for dir in [&shadowing, &reachable] {
            let program = dir.path().join("tool");
            std::fs::write(&program, "#!/bin/sh\n").unwrap();
            mode(&program, 0o755);
        }
        mode(shadowing.path(), 0o700);
        mode(reachable.path(), 0o755);
        let both = std::env::join_paths([shadowing.path(), reachable.path()]).unwrap();
        let found = program("tool", both.to_str().unwrap(), OTHER).unwrap();
        assert_eq!(found, Some(reachable.path().join("tool")));
        let shadowed = shadowing.path().to_str().unwrap();
        let why = program("tool", shadowed, OTHER).unwrap_err();
        assert!(why.contains("is not searchable"), "{why}");
        assert_eq!(program("no-such-tool", shadowed, OTHER), Ok(None));
    }

    /// A script whose interpreter the user cannot reach (a virtual
    /// environment made with a Python under `/root`) cannot start as that
    /// user, however readable the script is.
    #[test]
    fn a_script_needs_an_interpreter_the_user_can_reach() {
        let private = tempfile::tempdir().unwrap();
        let open = tempfile::tempdir().unwrap();
        mode(private.path(), 0o700);
        mode(open.path(), 0o755);
        let python = private.path().join("python");
        std::fs::write(&python, "").unwrap();
        mode(&python, 0o755);
        let script = open.path().join("server");
        std::fs::write(&script, format!("#!{} -u\n", python.display())).unwrap();
        mode(&script, 0o755);
        let why = program(script.to_str().unwrap(), "", OTHER).unwrap_err();
        assert!(why.starts_with("its interpreter "), "{why}");
        assert!(why.contains("is not searchable by it"), "{why}");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        assert_eq!(
            program(script.to_str().unwrap(), "", OTHER),
            Ok(Some(script.clone()))
        );
    }

    /// Issue 41: a FIFO named as the program blocked the open that reads
    /// its `#!` line, forever; named as its script, it passed, and the
    /// subject blocked on it. What is not a regular file is refused,
    /// named, without waiting; an argument may still name a directory.
    #[test]
    fn what_is_not_a_regular_file_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        mode(dir.path(), 0o755);
        let fifo = dir.path().join("adapter.py");
        crate::sys::mkfifo(&fifo, 0o755).unwrap();
        let named = |argv: &[&Path]| -> Result<(), String> {
            let argv: Vec<String> = argv.iter().map(|p| p.display().to_string()).collect();
            startable(&argv, dir.path(), OTHER)
        };
        let a_fifo = format!("{} is a FIFO, not a regular file", fifo.display());
        for argv in [vec![fifo.as_path()], vec![Path::new("/bin/sh"), &fifo]] {
            let why = named(&argv).unwrap_err();
            assert!(why.contains(&a_fifo), "{why}");
        }
        // Checked alone, the program is opened without waiting.
        let why = program(fifo.to_str().unwrap(), "", OTHER).unwrap_err();
        assert_eq!(why, a_fifo);
        let why = named(&[dir.path()]).unwrap_err();
        assert!(why.contains("is a directory, not a regular file"), "{why}");
        let why = named(&[Path::new("/bin/sh"), Path::new("/dev/null")]).unwrap_err();
        assert!(
            why.contains("/dev/null is a device, not a regular file"),
            "{why}"
        );
        assert_eq!(named(&[Path::new("/bin/sh"), dir.path()]), Ok(()));
    }

    /// The `#!` line is read within the kernel's own bound, however long
    /// the first line (here, an endless one).
    #[test]
    fn a_shebang_line_is_read_within_a_bound() {
        let endless = b"#!/usr/bin/".chain(std::io::repeat(b'x'));
        let start = head(endless);
        assert_eq!(start.len() as u64, SHEBANG_BYTES);
        let named = interpreter(&start).unwrap();
        assert!(named.starts_with("/usr/bin"), "{}", named.display());
        let script = b"#!/usr/bin/env python3 -u\nprint()\n";
        assert_eq!(interpreter(script), Some(PathBuf::from("/usr/bin/env")));
        assert_eq!(interpreter(b"#! python3\n"), None);
    }
}
