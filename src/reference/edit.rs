//! The `edit` tool (spec FILE-10): one occurrence of `old_string` in one
//! existing file, by its absolute path, replaced by `new_string`.

use serde_json::{Map, Value};

use super::file;
use super::{ToolError, params};
use toolpath_suite::protocol::{ErrorCode, Tool, ToolResult, Workspace};

pub fn run(workspace: &Workspace, params: &Map<String, Value>) -> ToolResult {
    match edit(workspace, params) {
        Ok(result) => result,
        Err(err) => err.into(),
    }
}

fn edit(workspace: &Workspace, params: &Map<String, Value>) -> Result<ToolResult, ToolError> {
    params::only_for(params, Tool::Edit)?;
    let path = file::absolute_path(workspace, Tool::Edit, params)?;
    // An empty `old_string` would mean "anywhere"; creating a file is
    // `write_file`'s business, so it is refused, not taken as "create".
    let old = params::required(params, "old_string")?;
    let new = params::string(params, "new_string")?;
    // Never creates: a missing file (or a dangling link) is `not_found`,
    // and no directory is made on the way.
    file::existing(workspace, &path)?;
    let bytes = file::read(&path)?;
    let at = match occurrences(&bytes, old.as_bytes()).as_slice() {
        [at] => *at,
        found => {
            return Err(ToolError::new(
                ErrorCode::InvalidParams,
                format!(
                    "old_string occurs {} times in {path}; it must occur exactly once, so \
                     that the edit is unambiguous (give more of the text around it)",
                    found.len()
                ),
            ));
        }
    };
    // Every byte outside the occurrence is kept: no line ending or
    // encoding is touched.
    let mut edited = Vec::with_capacity(bytes.len() - old.len() + new.len());
    edited.extend_from_slice(&bytes[..at]);
    edited.extend_from_slice(new.as_bytes());
    edited.extend_from_slice(&bytes[at + old.len()..]);
    file::write(&path, &edited, false)?;
    Ok(file::done(
        path.clone(),
        format!("Replaced 1 occurrence in {path}"),
        format!("edit {path}"),
    ))
}

/// Every position where `needle` starts in `haystack`, overlapping ones
/// included (`aa` occurs twice in `aaa`): an edit must be unambiguous.
fn occurrences(haystack: &[u8], needle: &[u8]) -> Vec<usize> {
    if needle.is_empty() || needle.len() > haystack.len() {
        return Vec::new();
    }
    haystack
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use std::fs;

    use serde_json::json;

    use super::*;

    #[test]
    fn occurrences_overlap() {
        assert_eq!(occurrences(b"aaa", b"aa"), [0, 1]);
        assert_eq!(occurrences(b"abc", b"c"), [2]);
        assert!(occurrences(b"ab", b"abc").is_empty());
    }

    #[test]
    fn exactly_one_occurrence_is_replaced_and_nothing_else_moves() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap().display().to_string();
        let file = format!("{root}/a.txt");
        fs::write(&file, "one\r\ntwo\r\ntwo\r\n").unwrap();
        let ws = Workspace {
            roots: vec![root.clone()],
            target: root.clone(),
        };
        let edit = |old: &str, new: &str| {
            run(
                &ws,
                json!({"file_path": file, "old_string": old, "new_string": new})
                    .as_object()
                    .unwrap(),
            )
        };
        let err = edit("two", "2").error.unwrap();
        assert_eq!(err.code, ErrorCode::InvalidParams);
        assert!(
            err.message.contains("2 times") && err.message.contains(&file),
            "{}",
            err.message
        );
        let err = edit("three", "3").error.unwrap();
        assert!(err.message.contains("0 times"), "{}", err.message);
        assert_eq!(fs::read_to_string(&file).unwrap(), "one\r\ntwo\r\ntwo\r\n");
        assert_eq!(edit("", "x").error.unwrap().code, ErrorCode::InvalidParams);
        let r = edit("one", "");
        assert!(r.error.is_none(), "{r:?}");
        assert_eq!(fs::read_to_string(&file).unwrap(), "\r\ntwo\r\ntwo\r\n");
        let r = run(
            &ws,
            json!({"file_path": format!("{root}/missing"), "old_string": "a", "new_string": "b"})
                .as_object()
                .unwrap(),
        );
        assert_eq!(r.error.unwrap().code, ErrorCode::NotFound);
    }
}
