//! A set of cases loaded from directories: every `*.yaml` below them, in
//! sorted path order so runs, shards and reports are deterministic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::case::model::{Case, CaseError, load_case};

/// Every case file below `dir`, sorted.
pub fn case_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current)? {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
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
                    match load_case(&file) {
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

/// Ids are keys of expectations files and reports: two cases may not share one.
pub fn duplicate_ids(cases: &[Case]) -> Vec<CaseError> {
    let mut first: BTreeMap<&str, &Case> = BTreeMap::new();
    let mut errors = Vec::new();
    for case in cases {
        if let Some(earlier) = first.insert(&case.id, case) {
            errors.push(CaseError {
                file: case.file.clone(),
                line: case.line,
                column: 1,
                message: format!(
                    "id `{}` is already used by {}:{}",
                    case.id,
                    earlier.file.display(),
                    earlier.line
                ),
            });
            first.insert(&earlier.id, earlier);
        }
    }
    errors
}

include!(concat!(env!("OUT_DIR"), "/embedded_cases.rs"));

/// Loads the cases embedded at build time. Their `file` is the path in the
/// repository (`cases/search/file-relative.yaml`), the same on every machine.
pub fn load_embedded() -> (Vec<Case>, Vec<CaseError>) {
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for (path, text) in EMBEDDED_CASES {
        match crate::case::model::parse_case(Path::new(path), text) {
            Ok(case) => cases.push(case),
            Err(e) => errors.push(e),
        }
    }
    errors.extend(duplicate_ids(&cases));
    (cases, errors)
}
