//! `toolpath export DIR`: the suite the binary carries, written out for
//! ports that do not use Rust (or people without a checkout).
//!
//! Everything is embedded at build time: the cases, the spec, the protocol
//! and the schemas (generated from the types). A port in another language
//! reads the exported files.

use std::path::{Path, PathBuf};

use crate::case::embedded::EMBEDDED_CASES;
use crate::cli::{schemas, usage};
use crate::report::ExitCode;

const PROTOCOL_TEXT: &str = include_str!("../../spec/protocol.md");
const CASES_README: &str = include_str!("../../cases/README.md");

/// `toolpath export DIR`.
#[derive(Debug, Clone, clap::Args)]
pub struct ExportRequest {
    /// The directory to write (created; nothing in it is overwritten).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// `toolpath export DIR`.
pub fn export(request: ExportRequest) -> ExitCode {
    let dir = &request.dir;
    let files = suite_files();
    match write_all(dir, &files) {
        Ok(()) => {
            eprintln!(
                "toolpath: wrote suite {} ({} files) to {}",
                crate::SUITE_VERSION,
                files.len(),
                dir.display()
            );
            ExitCode::Ok
        }
        Err(e) => usage(e),
    }
}

/// Every exported file as (path relative to the export directory, contents).
pub fn suite_files() -> Vec<(PathBuf, String)> {
    let mut files = vec![
        (
            PathBuf::from("VERSION"),
            format!("{}\n", crate::SUITE_VERSION),
        ),
        (
            PathBuf::from("spec/README.md"),
            toolpath_suite::spec::SPEC_TEXT.to_owned(),
        ),
        (PathBuf::from("spec/protocol.md"), PROTOCOL_TEXT.to_owned()),
        (PathBuf::from("cases/README.md"), CASES_README.to_owned()),
    ];
    files.extend(
        schemas::all()
            .into_iter()
            .map(|(name, text)| (Path::new("spec").join(name), text)),
    );
    files.extend(
        EMBEDDED_CASES
            .iter()
            .map(|(path, text)| (PathBuf::from(path), (*text).to_owned())),
    );
    files
}

/// Writes `files` below `dir` (also the skeletons of `new-adapter`). Refuses to overwrite anything, so pointing it
/// at the wrong directory costs nothing.
pub fn write_all(dir: &Path, files: &[(PathBuf, String)]) -> Result<(), String> {
    if let Some((existing, _)) = files.iter().find(|(p, _)| dir.join(p).exists()) {
        return Err(format!(
            "{} already exists; nothing was written",
            dir.join(existing).display()
        ));
    }
    for (relative, text) in files {
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_carries_version_spec_schemas_and_every_case() {
        let files = suite_files();
        let names: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
        for expected in [
            "VERSION",
            "spec/README.md",
            "spec/protocol.md",
            "spec/case.schema.json",
            "spec/schemas/report.schema.json",
        ] {
            assert!(names.iter().any(|n| n == expected), "{expected} missing");
        }
        let cases = names
            .iter()
            .filter(|n| n.starts_with("cases/") && n.ends_with(".yaml"))
            .count();
        assert_eq!(cases, EMBEDDED_CASES.len());
    }

    #[test]
    fn write_all_refuses_to_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let files = vec![(PathBuf::from("a/b.txt"), "x".to_owned())];
        write_all(dir.path(), &files).unwrap();
        let err = write_all(dir.path(), &files).unwrap_err();
        assert!(err.contains("already exists"), "{err}");
    }

    #[test]
    fn export_carries_the_glob_and_ls_cases() {
        let files = suite_files();
        for area in ["cases/glob/", "cases/ls/"] {
            assert!(
                files
                    .iter()
                    .any(|(p, _)| p.to_string_lossy().starts_with(area)),
                "{area} missing"
            );
        }
    }
}
