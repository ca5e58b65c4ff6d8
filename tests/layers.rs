//! The floors of `ARCHITECTURE.md`, enforced: no module imports one on its
//! own floor or above it. Read from the source text (every `crate::name`
//! outside a comment, test code included), so a climb fails here before
//! anyone has to draw the tree to see it.

use std::path::{Path, PathBuf};

/// Each top-level module of `src/` and its floor (ARCHITECTURE.md). The
/// suite model (`toolpath_suite`, floor 0) is a crate of its own and cannot
/// import this one at all.
/// `testing` (the crate's `#[cfg(test)]` helpers) stands between `sys` and
/// floor 2: it uses `sys`, and tests on every floor use it.
const FLOORS: &[(&str, f32)] = &[
    ("sys", 1.0),
    ("testing", 1.5),
    ("case", 2.0),
    ("reference", 2.0),
    ("report", 2.0),
    ("subject", 3.0),
    ("mcp", 3.5),
    ("harness", 4.0),
    ("session", 5.0),
    ("fuzz", 6.0),
    ("cli", 7.0),
];

fn floor(module: &str) -> Option<f32> {
    FLOORS.iter().find(|(m, _)| *m == module).map(|(_, f)| *f)
}

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

/// The top-level modules `line` names as `crate::name`.
fn named(line: &str) -> Vec<&str> {
    line.match_indices("crate::")
        // `crate` itself, not a name ending in it (`my_crate::`).
        .filter(|(at, _)| !line[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(at, _)| {
            let rest = &line[at + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// Every import of `src/` that climbs: `file:line: from -> to`.
fn climbs(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let relative = file.strip_prefix(src).unwrap();
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        let top = top.strip_suffix(".rs").unwrap_or(top);
        let Some(own) = floor(top) else {
            assert!(
                matches!(top, "lib" | "main"),
                "{}: a top-level module that ARCHITECTURE.md (and FLOORS here) does not place",
                file.display()
            );
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for target in named(line) {
                match floor(target) {
                    Some(f) if target != top && f >= own => out.push(format!(
                        "{}:{}: {top} (floor {own}) imports {target} (floor {f})",
                        file.display(),
                        n + 1
                    )),
                    _ => {}
                }
            }
        }
    }
    out
}

#[test]
fn no_import_climbs_a_floor() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = climbs(&src);
    assert!(
        found.is_empty(),
        "imports that climb:\n{}",
        found.join("\n")
    );
}

/// The check itself can fail: a module that imports one above it, and one
/// on its own floor, are both reported.
#[test]
fn a_climbing_import_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("case")).unwrap();
    std::fs::write(
        src.join("case/mod.rs"),
        "use crate::harness::run;\nuse crate::report::Status;\n// crate::cli in a comment\nuse crate::sys::is_root;\nuse toolpath_suite::case::Case;\n",
    )
    .unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod case;\n").unwrap();
    let found = climbs(src);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].ends_with("case (floor 2) imports harness (floor 4)"),
        "{found:?}"
    );
    assert!(
        found[1].ends_with("case (floor 2) imports report (floor 2)"),
        "{found:?}"
    );
}
