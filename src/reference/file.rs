//! What the three file tools (spec FILE) share: their path parameter,
//! which must be absolute, and how the one file it names is examined and
//! opened.
//!
//! A file tool takes one file by its absolute path, on purpose: nothing
//! about which file is meant is left to a working directory. So a relative
//! path is refused (FILE-3), but the refusal shows the absolute path it
//! would have meant, joined onto the target directory as the other tools
//! join it (RES-2, RES-3), so a model corrects itself in one turn. An
//! absolute path then goes through the shared resolver like any other
//! (containment first, SEC-3), and is used as the lexical path it
//! normalises to (RES-4, SEC-8).

use std::fs::{self, File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;

use serde_json::{Map, Value};

use super::resolve::{self, lexical_resolve};
use super::{ToolError, params};
use toolpath_suite::protocol::{ErrorCode, Kind, Outcome, Tool, ToolResult, Workspace};

/// The lexical absolute path of the file a call names (FILE-2, FILE-3):
/// given, a string without NUL (ERR-7), one name only (FILE-1), and
/// absolute. Checked before any file system access (ERR-2). `tool`'s path
/// parameter is `file_path` (some published tools call it `absolute_path`,
/// its alias).
pub fn absolute_path(
    workspace: &Workspace,
    tool: Tool,
    params: &Map<String, Value>,
) -> Result<String, ToolError> {
    let Some(path) = params::path_of(params, tool)? else {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            "file_path is required: the absolute path of one file",
        ));
    };
    resolve::refuse_uri(&path)?;
    if !path.starts_with('/') {
        // Purely lexical: the meant path is computed from text, so the
        // message reveals nothing about the file system.
        let meant = lexical_resolve(&workspace.target, &path);
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!(
                "file_path must be an absolute path, and {path:?} is relative; relative to the \
                 target directory it means {meant}: give that path if it is the file you mean"
            ),
        ));
    }
    resolve::lexical_checked(workspace, &path)
}

/// What an absolute path names, once it is known to be inside.
pub enum Named {
    /// A regular file, or a link to one.
    File,
    /// Nothing: `ENOENT` on the way or at the end (a write may create it).
    Nothing(std::io::Error),
}

/// Containment first (SEC-3), then `stat`, following links (RES-7): a
/// directory or a FIFO, socket or device is `unsupported_file_type`
/// (FILE-6), never opened; `ENOENT` is left for the tool to decide (a read
/// says `not_found`, a write creates); any other error is `not_found` or
/// `permission_denied` (RES-8, RES-9).
pub fn examine(workspace: &Workspace, lexical: &str) -> Result<Named, ToolError> {
    resolve::contain(workspace, lexical)?;
    match fs::metadata(lexical) {
        Ok(meta) if meta.is_file() => Ok(Named::File),
        Ok(meta) if meta.is_dir() => Err(ToolError::new(
            ErrorCode::UnsupportedFileType,
            format!(
                "{lexical} is a directory, not a file: a file tool reads or writes one file \
                 (list a directory with ls)"
            ),
        )),
        Ok(_) => Err(not_a_regular_file(lexical)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Named::Nothing(err)),
        Err(err) => Err(resolve::io_error(lexical, &err)),
    }
}

/// An existing file, or `not_found` (for the tools that never create).
pub fn existing(workspace: &Workspace, lexical: &str) -> Result<(), ToolError> {
    match examine(workspace, lexical)? {
        Named::File => Ok(()),
        Named::Nothing(err) => Err(resolve::io_error(lexical, &err)),
    }
}

fn not_a_regular_file(lexical: &str) -> ToolError {
    ToolError::new(
        ErrorCode::UnsupportedFileType,
        format!("{lexical} is not a regular file (a FIFO, socket or device is never opened)"),
    )
}

/// Flags every open of a file tool carries: a FIFO swapped in after the
/// `stat` must not block the open (FILE-6), and no terminal may become
/// the process's.
fn flags() -> i32 {
    (rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY).bits() as i32
}

/// Checks that what was opened is still a regular file.
fn regular(lexical: &str, file: File) -> Result<File, ToolError> {
    match file.metadata() {
        Ok(meta) if meta.is_file() => Ok(file),
        Ok(_) => Err(not_a_regular_file(lexical)),
        Err(err) => Err(resolve::io_error(lexical, &err)),
    }
}

/// The bytes of the file at `lexical` (examined already), through links.
pub fn read(lexical: &str) -> Result<Vec<u8>, ToolError> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(flags())
        .open(lexical)
        .map_err(|e| resolve::io_error(lexical, &e))?;
    let mut bytes = Vec::new();
    regular(lexical, file)?
        .read_to_end(&mut bytes)
        .map_err(|e| resolve::io_error(lexical, &e))?;
    Ok(bytes)
}

/// Writes `bytes` as the whole content of the file at `lexical`, through
/// links, creating it when `create` (its directory must exist). An
/// existing file keeps its permission bits (FILE-8).
pub fn write(lexical: &str, bytes: &[u8], create: bool) -> Result<(), ToolError> {
    use std::io::Write;
    let file = OpenOptions::new()
        .write(true)
        .truncate(true)
        .create(create)
        .custom_flags(flags())
        .open(lexical)
        .map_err(|e| resolve::io_error(lexical, &e))?;
    regular(lexical, file)?
        .write_all(bytes)
        .map_err(|e| resolve::io_error(lexical, &e))
}

/// A successful file tool's result: kind `file`, the lexical path (FILE-4),
/// and the text the model reads, which names that path (OUT-5).
pub fn done(path: String, model_text: String, description: String) -> ToolResult {
    ToolResult {
        outcome: Some(Outcome::Ok),
        kind: Some(Kind::File),
        parent: Some(resolve::lexical_parent(&path)),
        path: Some(path),
        model_text: Some(model_text),
        description: Some(description),
        ..ToolResult::default()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn workspace() -> Workspace {
        Workspace {
            roots: vec!["/w/ws".into()],
            target: "/w/ws/src".into(),
        }
    }

    fn path_of(params: Value) -> Result<String, ToolError> {
        absolute_path(&workspace(), Tool::ReadFile, params.as_object().unwrap())
    }

    #[test]
    fn an_absolute_path_is_normalised_lexically() {
        assert_eq!(
            path_of(json!({"file_path": "/w/ws//a/../b.txt"})),
            Ok("/w/ws/b.txt".into())
        );
        assert_eq!(
            path_of(json!({"absolute_path": "/w/ws/./b.txt"})),
            Ok("/w/ws/b.txt".into())
        );
    }

    #[test]
    fn a_relative_path_is_refused_with_the_path_it_would_have_meant() {
        for (given, meant) in [
            ("a.txt", "/w/ws/src/a.txt"),
            ("./a.txt", "/w/ws/src/a.txt"),
            ("../a.txt", "/w/ws/a.txt"),
            (" /w/ws/a.txt", "/w/ws/src/ /w/ws/a.txt"),
            ("~/a.txt", "/w/ws/src/~/a.txt"),
        ] {
            let err = path_of(json!({"file_path": given})).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{given}");
            assert!(err.message.contains("absolute"), "{}", err.message);
            assert!(err.message.contains(meant), "{given}: {}", err.message);
        }
    }

    /// RES-16: a `file:` URI is refused as what it is, not joined onto
    /// the target as a relative name (`/w/ws/src/file:/w/ws/a.txt`).
    #[test]
    fn a_file_uri_is_refused_as_a_uri() {
        let uri = "file:///w/ws/a%20b.txt";
        let err = path_of(json!({"file_path": uri})).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidParams);
        assert!(err.message.contains(uri), "{}", err.message);
        assert!(err.message.contains("URI"), "{}", err.message);
        assert!(!err.message.contains("/w/ws/src/file:"), "{}", err.message);
    }

    #[test]
    fn a_missing_empty_doubled_or_odd_path_is_invalid() {
        for params in [
            json!({}),
            json!({"file_path": ""}),
            json!({"file_path": null}),
            json!({"file_path": 3}),
            json!({"file_path": "/w/ws/a\u{0}"}),
            json!({"file_path": "/w/ws/a", "absolute_path": "/w/ws/a"}),
        ] {
            assert_eq!(
                path_of(params.clone()).unwrap_err().code,
                ErrorCode::InvalidParams,
                "{params}"
            );
        }
    }
}
