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
//!
//! A case folder is walked without following symbolic links (walkdir,
//! `follow_links(false)`): a link inside it is an error with its path,
//! never followed, so a link to `..` cannot load every case again (or a
//! link to `/` read the machine). The directory given itself may be a
//! link. A `*.yaml` that is not a regular file (a pipe would block the
//! read) is an error too; anything else that is not a case file is left
//! alone (`README.md`).

use std::path::{Path, PathBuf};

use crate::case::validate::{parse_cases_bytes, read_bounded};
use crate::case::{Case, CaseError, CaseErrors};

/// Every case file below `dir`, sorted; or every problem of the folder.
pub fn case_files(dir: &Path) -> Result<Vec<PathBuf>, Vec<CaseError>> {
    let mut files = Vec::new();
    walk(dir, &mut |path| files.push(path))?;
    files.sort();
    Ok(files)
}

/// Calls `visit` on every case file below `dir`, in directory order (not
/// sorted: a caller of a hundred thousand files sorts what it keeps of
/// them, not a list of every path). Returns the problems of the folder
/// itself, each with its path: a symbolic link in it, an entry that cannot
/// be read, a `*.yaml` that is not a regular file. The walk goes on past
/// each, so all of them are reported at once.
pub fn walk(dir: &Path, visit: &mut dyn FnMut(PathBuf)) -> Result<(), Vec<CaseError>> {
    let problem = |file: &Path, message: String| CaseError {
        file: file.to_owned(),
        line: 0,
        column: 0,
        message,
    };
    let unreadable = |file: &Path, e: &dyn std::fmt::Display| {
        problem(file, format!("cannot read the case directory: {e}"))
    };
    // The walk would take a file given as the folder for a case file.
    if let Err(e) = std::fs::read_dir(dir) {
        return Err(vec![unreadable(dir, &e)]);
    }
    let mut errors = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let at = e.path().unwrap_or(dir).to_owned();
                match e.io_error() {
                    Some(io) => errors.push(unreadable(&at, io)),
                    None => errors.push(unreadable(&at, &e)),
                }
                continue;
            }
        };
        let kind = entry.file_type();
        let case_file = entry
            .path()
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml");
        // The directory given (depth 0) may be a link; walkdir follows it.
        if kind.is_symlink() && entry.depth() > 0 {
            errors.push(problem(
                entry.path(),
                "a symbolic link in a case folder; case folders hold case files and directories, \
                 and a link is never followed (it could load cases twice, or from anywhere)"
                    .into(),
            ));
        } else if kind.is_file() && case_file {
            visit(entry.into_path());
        } else if !kind.is_file() && !kind.is_dir() && case_file {
            errors.push(problem(
                entry.path(),
                "not a regular file; a case file is read whole, and this could block or never end"
                    .into(),
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// One case file, validated, its name checked against its id: its case,
/// or a matrix's cells in the matrix's order.
pub fn load_file(file: &Path) -> Result<Vec<Case>, CaseErrors> {
    let bytes = read_bounded(file)?;
    load_bytes(file, &bytes)
}

/// The bytes of the case file `file`, read once (at most one byte more
/// than the limit): a caller that runs the file later keeps them and
/// validates them with [`load_bytes`], never the file as it is by then.
pub fn read_file(file: &Path) -> Result<Vec<u8>, CaseErrors> {
    Ok(read_bounded(file)?)
}

/// [`load_file`] of bytes already read from `file`.
pub fn load_bytes(file: &Path, bytes: &[u8]) -> Result<Vec<Case>, CaseErrors> {
    let cases = parse_cases_bytes(file, bytes)?;
    if let Some(first) = cases.first() {
        check_file_name(first).map_err(CaseErrors::from)?;
    }
    Ok(cases)
}

/// Loads every case below each directory. All problems are collected, every
/// error of every file, so one run of `toolpath lint` shows them all.
pub fn load(dirs: &[PathBuf]) -> (Vec<Case>, Vec<CaseError>) {
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for dir in dirs {
        // The case files of a folder with a problem (a link in it) are
        // still loaded, so their errors are shown too.
        let mut files = Vec::new();
        if let Err(mut problems) = walk(dir, &mut |file| files.push(file)) {
            errors.append(&mut problems);
        }
        files.sort();
        for file in files {
            match load_file(&file) {
                Ok(mut found) => cases.append(&mut found),
                Err(e) => errors.extend(e),
            }
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
fn check_file_name(case: &Case) -> Result<(), CaseError> {
    let expected = file_name(case.file_id());
    let actual = case
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    if actual.as_deref() == Some(expected.as_str()) {
        return Ok(());
    }
    let message = if case.file.extension().is_some_and(|e| e == "yml") {
        format!("case files end in `.yaml`, not `.yml`: rename it to `{expected}`")
    } else {
        format!(
            "the file of `{}` must be named `{expected}` (the id without its area, dots as dashes)",
            case.file_id()
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

    #[test]
    fn links_in_a_case_folder_are_errors_with_their_path_and_never_followed() {
        use std::os::unix::fs::symlink;
        let top = tempfile::tempdir().unwrap();
        let cases = top.path().join("cases");
        let area = cases.join("resolve");
        std::fs::create_dir_all(&area).unwrap();
        std::fs::write(area.join("a-b.yaml"), CASE).unwrap();
        // A loop back up (which loaded every case again, once per level the
        // kernel would follow) and a second name for the case file.
        symlink("..", area.join("up")).unwrap();
        symlink("a-b.yaml", area.join("c-d.yaml")).unwrap();
        let links_in = |errors: &[CaseError]| -> Vec<(PathBuf, u64)> {
            for e in errors {
                assert!(
                    e.message.starts_with("a symbolic link in a case folder"),
                    "{e}"
                );
            }
            let mut found: Vec<(PathBuf, u64)> =
                errors.iter().map(|e| (e.file.clone(), e.line)).collect();
            found.sort();
            found
        };
        let (loaded, errors) = load(std::slice::from_ref(&cases));
        assert_eq!(loaded.len(), 1, "the case is loaded once");
        assert_eq!(
            links_in(&errors),
            [(area.join("c-d.yaml"), 0), (area.join("up"), 0)]
        );
        // The directory given may itself be a link; what is below it is walked
        // as it is, links refused alike.
        let given = top.path().join("given");
        symlink(&cases, &given).unwrap();
        let (loaded, errors) = load(std::slice::from_ref(&given));
        assert_eq!(loaded.len(), 1);
        let inner = given.join("resolve");
        assert_eq!(
            links_in(&errors),
            [(inner.join("c-d.yaml"), 0), (inner.join("up"), 0)]
        );
        assert_eq!(case_files(&given).unwrap_err().len(), 2);
    }

    #[test]
    fn a_case_file_that_is_not_a_regular_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a-b.yaml"), CASE).unwrap();
        // A socket named like a case: opening it to read would fail or block.
        let _socket = std::os::unix::net::UnixListener::bind(dir.path().join("x.yaml")).unwrap();
        std::os::unix::net::UnixListener::bind(dir.path().join("not-a-case")).unwrap();
        let (loaded, errors) = load(&[dir.path().to_owned()]);
        assert_eq!(loaded.len(), 1);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].file, dir.path().join("x.yaml"));
        assert!(
            errors[0].message.starts_with("not a regular file"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn a_folder_that_cannot_be_read_is_one_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing");
        let (_, errors) = load(std::slice::from_ref(&missing));
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].file, missing);
        assert!(
            errors[0]
                .message
                .starts_with("cannot read the case directory: "),
            "{}",
            errors[0]
        );
        let file = dir.path().join("a-b.yaml");
        std::fs::write(&file, CASE).unwrap();
        assert_eq!(
            load(std::slice::from_ref(&file)).1.len(),
            1,
            "a file is not a folder"
        );
    }
}
