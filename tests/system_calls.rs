//! `src/sys` is the one home of the program's system calls: outside it,
//! only the use of `rustix` that `src/sys/mod.rs` lists is allowed (the
//! descriptor-relative file operations of `rustix::fs`, imported by name;
//! `Errno`, `dup` and `fcntl_dupfd_cloexec` of `rustix::io`; `rustix::fd`).
//! Read from the source text (every `rustix::` path outside a comment, test
//! code included), as `tests/layers.rs` reads imports. What clippy can say
//! is its: the `rustix::fs` calls and types that stay in `sys` (`flock`,
//! `statfs`, `access`, ...) are `clippy.toml`'s disallowed methods and
//! types, and `unsafe` is denied outside `sys` (src/lib.rs).

use std::path::{Path, PathBuf};

/// The `rustix::io` items allowed.
const IO_ALLOWED: &[&str] = &["Errno", "dup", "fcntl_dupfd_cloexec"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn ident_len(text: &str) -> usize {
    text.find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len())
}

/// What is wrong with one `rustix::` path, given the text after
/// `rustix::`: `None` when it is allowed outside `sys`.
fn refuse(rest: &str) -> Option<String> {
    let module = &rest[..ident_len(rest)];
    let after = rest[module.len()..].trim_start();
    // The names taken from the module: `::name`, or `::{a, b}`.
    let names: Vec<&str> = match after.strip_prefix("::").map(str::trim_start) {
        Some(group) if group.starts_with('{') => {
            let end = group.find('}').unwrap_or(group.len());
            group[1..end]
                .split(',')
                .map(|n| n.trim().split([' ', ':']).next().unwrap_or(""))
                .filter(|n| !n.is_empty())
                .collect()
        }
        Some(path) => vec![&path[..ident_len(path)]],
        None => vec![],
    };
    let whole = || format!("rustix::{module} (import the names, not the module)");
    match module {
        "fd" => None,
        "fs" if names.is_empty() => Some(whole()),
        "fs" => names
            .iter()
            .find(|n| **n == "self" || **n == "*")
            .map(|n| format!("rustix::fs::{n}")),
        "io" if names.is_empty() => Some(whole()),
        "io" => names
            .iter()
            .find(|n| !IO_ALLOWED.contains(n))
            .map(|n| format!("rustix::io::{n}")),
        _ => Some(format!("rustix::{module}")),
    }
}

/// Every `rustix` use outside `src/sys` that is not allowed:
/// `file:line: path`.
fn refused(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        if file.starts_with(src.join("sys")) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        // An import's group may span lines: look at the code as one text,
        // comments blanked, and count lines to report where.
        let code: String = text
            .lines()
            .map(|line| match line.find("//") {
                Some(at) => format!("{}\n", &line[..at]),
                None => format!("{line}\n"),
            })
            .collect();
        for (at, _) in code.match_indices("rustix") {
            let before = &code[..at];
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = code[at + "rustix".len()..].trim_start();
            let why = match rest.strip_prefix("::") {
                Some(rest) => refuse(rest.trim_start()),
                // `use rustix;`, `rustix as r`: the whole crate.
                None => Some("rustix (the whole crate)".to_owned()),
            };
            if let Some(why) = why {
                let line = before.matches('\n').count() + 1;
                let name = file.strip_prefix(src).unwrap().display();
                found.push(format!("src/{name}:{line}: {why}"));
            }
        }
    }
    found
}

#[test]
fn system_calls_outside_sys_are_only_the_allowed_file_operations() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = refused(&src);
    assert!(
        found.is_empty(),
        "rustix used outside src/sys beyond what src/sys/mod.rs allows \
         (move the call into sys, named for what it is for):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_disallowed_system_call_is_reported_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("sys")).unwrap();
    std::fs::create_dir_all(src.join("session")).unwrap();
    std::fs::write(
        src.join("sys/linux.rs"),
        "use rustix::process::geteuid;\nfn f() { rustix::fs::flock(x, y); }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("session/run_dir.rs"),
        "use rustix::fs::{AtFlags, Mode, OFlags};\n\
         use rustix::io::Errno;\n\
         // rustix::process::getpid() in a comment\n\
         use rustix::fs::{\n    Mode,\n    self,\n};\n\
         fn f() {\n    let me = rustix::process::geteuid();\n\
         \x20   rustix::fs::flock(file, op);\n\
         \x20   rustix::io::read(fd, buf);\n\
         \x20   let d = rustix::io::dup(fd);\n}\n\
         use rustix::thread as t;\nuse rustix::fs;\n",
    )
    .unwrap();
    assert_eq!(
        refused(src),
        [
            "src/session/run_dir.rs:4: rustix::fs::self",
            "src/session/run_dir.rs:9: rustix::process",
            "src/session/run_dir.rs:11: rustix::io::read",
            "src/session/run_dir.rs:14: rustix::thread",
            "src/session/run_dir.rs:15: rustix::fs (import the names, not the module)",
        ]
    );
}
