//! The `read_file` tool (spec FILE-5): one file's bytes, by its absolute
//! path, as text, or a note that it is binary.

use serde_json::{Map, Value};

use super::file;
use super::{ToolError, params};
use toolpath_suite::protocol::notes::BINARY;
use toolpath_suite::protocol::{Tool, ToolResult, Workspace};

pub fn run(workspace: &Workspace, params: &Map<String, Value>) -> ToolResult {
    match read_file(workspace, params) {
        Ok(result) => result,
        Err(err) => err.into(),
    }
}

fn read_file(workspace: &Workspace, params: &Map<String, Value>) -> Result<ToolResult, ToolError> {
    // Only the keys of its table (ERR-8): the paging parameters of
    // published read tools (`offset`, `limit`, `start_line`) are not part
    // of the suite's tool, which answers the whole file.
    params::only_for(params, Tool::ReadFile)?;
    let path = file::absolute_path(workspace, Tool::ReadFile, params)?;
    file::existing(workspace, &path)?;
    let bytes = file::read(&path)?;
    let (content, notes, shown) = match text_of(&bytes) {
        Some(text) => (
            Some(text.to_owned()),
            Vec::new(),
            format!("Content of {path} ({} bytes):\n{text}", bytes.len()),
        ),
        None => (
            None,
            vec![BINARY.to_owned()],
            format!(
                "{path} is a binary file ({} bytes); its content is not shown",
                bytes.len()
            ),
        ),
    };
    let description = format!("read {path}");
    Ok(ToolResult {
        content,
        notes: Some(notes),
        ..file::done(path, shown, description)
    })
}

/// A file's text: valid UTF-8 with no NUL byte anywhere (the same test as
/// SEARCH-8's, over the whole file); `None` for a binary file, whose bytes
/// would reach the model as noise or not at all.
fn text_of(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes)
        .ok()
        .filter(|t| !t.contains('\0'))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use serde_json::json;

    use super::*;
    use toolpath_suite::protocol::{ErrorCode, Kind};

    #[test]
    fn text_binary_and_not_utf8() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap().display().to_string();
        fs::write(format!("{root}/a.txt"), "one\r\ntwo").unwrap();
        fs::write(format!("{root}/nul.bin"), b"text\0more").unwrap();
        fs::write(format!("{root}/latin1.txt"), b"caf\xe9\n").unwrap();
        fs::create_dir(format!("{root}/dir")).unwrap();
        let ws = Workspace {
            roots: vec![root.clone()],
            target: root.clone(),
        };
        let read = |p: &str| run(&ws, json!({"file_path": p}).as_object().unwrap());
        let r = read(&format!("{root}/a.txt"));
        assert_eq!(r.content.as_deref(), Some("one\r\ntwo"));
        assert_eq!((r.kind, r.notes), (Some(Kind::File), Some(vec![])));
        assert!(r.model_text.unwrap().contains(&format!("{root}/a.txt")));
        for binary in ["nul.bin", "latin1.txt"] {
            let r = read(&format!("{root}/{binary}"));
            assert_eq!(r.content, None, "{binary}");
            assert_eq!(r.notes, Some(vec![BINARY.to_owned()]), "{binary}");
        }
        let err = read(&format!("{root}/dir")).error.unwrap();
        assert_eq!(err.code, ErrorCode::UnsupportedFileType);
        assert!(err.message.contains("directory"), "{}", err.message);
        assert_eq!(
            read(&format!("{root}/nope")).error.unwrap().code,
            ErrorCode::NotFound
        );
        assert_eq!(read("a.txt").error.unwrap().code, ErrorCode::InvalidParams);
    }

    #[test]
    fn a_fifo_is_never_opened() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        crate::sys::mkfifo(&root.join("pipe"), 0o644).unwrap();
        let root = root.display().to_string();
        let ws = Workspace {
            roots: vec![root.clone()],
            target: root.clone(),
        };
        // Were it opened for reading, this would block with no writer.
        let r = run(
            &ws,
            json!({"file_path": format!("{root}/pipe")})
                .as_object()
                .unwrap(),
        );
        assert_eq!(r.error.unwrap().code, ErrorCode::UnsupportedFileType);
    }
}
