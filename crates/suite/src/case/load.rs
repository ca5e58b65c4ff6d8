//! A set of cases loaded from directories: every `*.yaml` below them, in
//! sorted path order so runs, shards and reports are deterministic.
//!
//! A case file is named after its id: the id without its first word (the
//! area), dots written as dashes, and `.yaml` (`search.file.relative` is
//! `file-relative.yaml`). Ids are what reports and expectations files
//! name, so the file must be findable from the id; a rename that forgets
//! the id (or the other way round) is refused. `.yml` files are refused
//! with a message rather than silently skipped or accepted as a second
//! spelling.

use std::path::{Path, PathBuf};

use crate::case::{Case, CaseError, load_case};

/// Every case file below `dir`, sorted.
pub fn case_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    walk(dir, &mut |path| files.push(path))?;
    files.sort();
    Ok(files)
}

/// Calls `visit` on every case file below `dir`, in directory order (not
/// sorted: a caller of a hundred thousand files sorts what it keeps of
/// them, not a list of every path).
pub fn walk(dir: &Path, visit: &mut dyn FnMut(PathBuf)) -> std::io::Result<()> {
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current)? {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                visit(path);
            }
        }
    }
    Ok(())
}

/// One case file, validated, its name checked against its id.
pub fn load_file(file: &Path) -> Result<Case, CaseError> {
    load_case(file).and_then(check_file_name)
}

/// Loads every case below each directory. All problems are collected, not
/// just the first, so one run of `toolpath lint` shows them all.
pub fn load(dirs: &[PathBuf]) -> (Vec<Case>, Vec<CaseError>) {
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for dir in dirs {
        match case_files(dir) {
            Ok(files) => {
                for file in files {
                    match load_file(&file) {
                        Ok(case) => cases.push(case),
                        Err(e) => errors.push(e),
                    }
                }
            }
            Err(e) => errors.push(CaseError {
                file: dir.clone(),
                line: 0,
                column: 0,
                message: format!("cannot read the case directory: {e}"),
            }),
        }
    }
    errors.extend(duplicate_ids(&cases));
    (cases, errors)
}

/// The file name of the case `id` (see the module docs).
pub fn file_name(id: &str) -> String {
    let rest = id.split_once('.').map_or(id, |(_, rest)| rest);
    format!("{}.yaml", rest.replace('.', "-"))
}

/// Refuses a case whose file is not named after its id.
fn check_file_name(case: Case) -> Result<Case, CaseError> {
    let expected = file_name(&case.id);
    let actual = case
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    if actual.as_deref() == Some(expected.as_str()) {
        return Ok(case);
    }
    let message = if case.file.extension().is_some_and(|e| e == "yml") {
        format!("case files end in `.yaml`, not `.yml`: rename it to `{expected}`")
    } else {
        format!(
            "the file of `{}` must be named `{expected}` (the id without its area, dots as dashes)",
            case.id
        )
    };
    Err(CaseError {
        file: case.file.clone(),
        line: case.line,
        column: 1,
        message,
    })
}

/// Ids are keys of expectations files and reports: two cases may not share one.
pub fn duplicate_ids(cases: &[Case]) -> Vec<CaseError> {
    duplicates(
        cases.len(),
        |i| &cases[i as usize].id,
        |i| (cases[i as usize].file.clone(), cases[i as usize].line),
    )
}

/// Every case that reuses the id of an earlier one, as an error pointing at
/// the first, in case order; case `i` has the id `id(i)` and is at
/// `place(i)`, its file and line. Sorting the cases' numbers by id costs
/// four bytes a case, where a map of ids would copy them all: a run's
/// catalog of case files holds only places.
pub fn duplicates<'a>(
    count: usize,
    id: impl Fn(u32) -> &'a str,
    place: impl Fn(u32) -> (PathBuf, u64),
) -> Vec<CaseError> {
    let mut order: Vec<u32> = (0..count as u32).collect();
    order.sort_by(|&a, &b| id(a).cmp(id(b)).then(a.cmp(&b)));
    let mut errors = Vec::new();
    for pair in order.windows(2) {
        let later = pair[1];
        if id(pair[0]) != id(later) {
            continue;
        }
        let first = order[order.partition_point(|&i| id(i) < id(later))];
        let ((file, line), (earlier, earlier_line)) = (place(later), place(first));
        let error = CaseError {
            file,
            line,
            column: 1,
            message: format!(
                "id `{}` is already used by {}:{earlier_line}",
                id(later),
                earlier.display()
            ),
        };
        errors.push((later, error));
    }
    errors.sort_by_key(|(i, _)| *i);
    errors.into_iter().map(|(_, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = "id: resolve.a.b\nsummary: x\nspec: [RES-1]\ntags: [compat]\nfixture:\n  roots: [ws]\ncall:\n  tool: resolve\n  params: {path: a}\nexpect:\n  outcome: ok\n";

    fn load_one(name: &str) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(name), CASE).unwrap();
        let (_, errors) = load(&[dir.path().to_owned()]);
        errors.iter().map(|e| e.message.clone()).collect()
    }

    #[test]
    fn a_case_file_is_named_after_its_id() {
        assert_eq!(file_name("search.file.relative"), "file-relative.yaml");
        assert!(load_one("a-b.yaml").is_empty());
        assert_eq!(
            load_one("b.yaml"),
            [
                "the file of `resolve.a.b` must be named `a-b.yaml` (the id without its area, dots as dashes)"
            ]
        );
        assert_eq!(
            load_one("a-b.yml"),
            ["case files end in `.yaml`, not `.yml`: rename it to `a-b.yaml`"]
        );
    }
}
