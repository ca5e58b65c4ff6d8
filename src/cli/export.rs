//! `toolpath export DIR` and `toolpath new-adapter`: what the binary carries
//! for people who do not have (or want) a checkout of this repository.
//!
//! Everything is embedded at build time: the cases, the spec, the protocol,
//! the schemas (generated from the types) and the adapter skeletons. A port
//! in another language reads the exported files; a maintainer starting an
//! adapter gets a skeleton that runs against the suite at once.

use std::path::{Path, PathBuf};

use crate::case::suite::EMBEDDED_CASES;
use crate::cli::schemas;

const PROTOCOL_TEXT: &str = include_str!("../../spec/protocol.md");
const CASES_README: &str = include_str!("../../cases/README.md");
const ADAPTER_README: &str = include_str!("../../templates/ADAPTER-README.md");
const PYTHON_SKELETON: &str = include_str!("../../templates/python/adapter.py");
const NODE_SKELETON: &str = include_str!("../../templates/node/adapter.mjs");

/// The languages `new-adapter` has a skeleton for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    Python,
    Node,
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
            crate::spec::SPEC_TEXT.to_owned(),
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

/// The skeleton adapter's files for `lang`, and the command that runs it.
pub fn skeleton(lang: Lang) -> (Vec<(PathBuf, String)>, &'static str) {
    let (file, text, command) = match lang {
        Lang::Python => ("adapter.py", PYTHON_SKELETON, "python3 adapter.py"),
        Lang::Node => ("adapter.mjs", NODE_SKELETON, "node adapter.mjs"),
    };
    let readme = ADAPTER_README.replace("{COMMAND}", command);
    (
        vec![
            (PathBuf::from(file), text.to_owned()),
            (PathBuf::from("README.md"), readme),
        ],
        command,
    )
}

/// Writes `files` below `dir`. Refuses to overwrite anything, so pointing it
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

    /// A new tool must reach the skeletons: each declares every tool of the
    /// protocol in its `TOOLS` line and has a handler stub for it.
    #[test]
    fn skeletons_declare_and_stub_every_tool() {
        for lang in [Lang::Python, Lang::Node] {
            let (files, _) = skeleton(lang);
            let text = &files[0].1;
            let tools_line = text
                .lines()
                .find(|l| l.contains("TOOLS = "))
                .expect("a TOOLS line");
            for tool in crate::protocol::Tool::ALL {
                let quoted = [format!("\"{tool}\""), format!("'{tool}'")];
                assert!(
                    quoted.iter().any(|q| tools_line.contains(q.as_str())),
                    "{lang:?}: {tool} missing from {tools_line}"
                );
                let stub = [format!("def {tool}("), format!("function {tool}(")];
                let routed = tool == crate::protocol::Tool::Ripgrep;
                assert!(
                    routed || stub.iter().any(|s| text.contains(s.as_str())),
                    "{lang:?}: no handler for {tool}"
                );
            }
        }
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

    #[test]
    fn skeleton_readmes_name_their_command() {
        let (files, command) = skeleton(Lang::Node);
        assert_eq!(command, "node adapter.mjs");
        assert!(
            files[1]
                .1
                .contains("toolpath run --adapter 'node adapter.mjs'")
        );
    }
}
