//! The `ls` tool (spec LS): one level of a directory, or a file as the
//! single entry, through the shared resolver.

use std::fs;

use serde_json::{Map, Value};

use super::resolve::{self, Target};
use super::{ToolError, params};
use toolpath_suite::protocol::{Entry, EntryType, Kind, Outcome, Tool, ToolResult, Workspace};

/// Runs an ls: validate the parameter, resolve the path, list it.
pub fn run(workspace: &Workspace, params: &Map<String, Value>) -> ToolResult {
    match ls(workspace, params) {
        Ok(result) => result,
        Err(err) => err.into(),
    }
}

fn ls(workspace: &Workspace, params: &Map<String, Value>) -> Result<ToolResult, ToolError> {
    params::only_for(params, Tool::Ls)?;
    let path = params::path_of(params, Tool::Ls)?;
    let mut entries = Vec::new();
    let (kind, echoed, parent) = match resolve::resolve_target(workspace, path.as_deref())? {
        Target::AllWorkspaces => {
            // A root that cannot be listed is skipped silently (LS-7).
            for root in &workspace.roots {
                if let Ok(listing) = list(root) {
                    entries.extend(listing);
                }
            }
            (Kind::AllWorkspaces, None, None)
        }
        Target::Directory(dir) => {
            entries = list(&dir).map_err(|e| resolve::io_error(&dir, &e))?;
            (Kind::Directory, Some(dir), None)
        }
        Target::File { path, parent } => {
            // The file itself, never its siblings; nothing is opened (LS-4).
            entries.push(Entry {
                path: path.clone(),
                entry_type: EntryType::File,
            });
            (Kind::File, Some(path), Some(parent))
        }
    };
    entries.sort();
    entries.dedup();
    let place = resolve::place(workspace, echoed.as_deref());
    // What the model reads (OUT-5): the resolved place, then `TYPE PATH` lines.
    let mut shown = format!("Listing of {place}\n");
    for entry in &entries {
        shown.push_str(&format!("{} {}\n", entry.entry_type.name(), entry.path));
    }
    Ok(ToolResult {
        outcome: Some(Outcome::Ok),
        kind: Some(kind),
        path: echoed,
        parent,
        entries: Some(entries),
        model_text: Some(shown),
        description: Some(format!("list {place}")),
        ..ToolResult::default()
    })
}

/// The entries of `dir` under its lexical path (LS-5). The type comes from
/// `DirEntry::file_type`, which does not follow links (`lstat`), so a link
/// is a `symlink` whatever it points to. An entry whose type cannot be read
/// (it vanished meanwhile) is left out.
fn list(dir: &str) -> std::io::Result<Vec<Entry>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir)?.flatten() {
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let entry_type = if file_type.is_symlink() {
            EntryType::Symlink
        } else if file_type.is_dir() {
            EntryType::Directory
        } else if file_type.is_file() {
            EntryType::File
        } else {
            EntryType::Other
        };
        out.push(Entry {
            path: resolve::join(dir, &entry.file_name().to_string_lossy()),
            entry_type,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use serde_json::json;

    use super::*;
    use toolpath_suite::protocol::ErrorCode;

    #[test]
    fn listing_kinds_and_types() {
        let dir = tempfile::tempdir().unwrap();
        let tmp = fs::canonicalize(dir.path()).unwrap().display().to_string();
        fs::create_dir_all(format!("{tmp}/ws/src/deep")).unwrap();
        fs::create_dir_all(format!("{tmp}/outside")).unwrap();
        fs::write(format!("{tmp}/ws/src/a.ts"), "x\n").unwrap();
        symlink("../../outside", format!("{tmp}/ws/src/out")).unwrap();
        let ws = Workspace {
            roots: vec![format!("{tmp}/ws")],
            target: format!("{tmp}/ws"),
        };
        let call = |p: Value| run(&ws, p.as_object().unwrap());
        let r = call(json!({"dir_path": "src"}));
        assert_eq!(r.kind, Some(Kind::Directory));
        let shown: Vec<_> = r
            .entries
            .unwrap()
            .into_iter()
            .map(|e| (e.path, e.entry_type))
            .collect();
        assert_eq!(
            shown,
            [
                (format!("{tmp}/ws/src/a.ts"), EntryType::File),
                (format!("{tmp}/ws/src/deep"), EntryType::Directory),
                (format!("{tmp}/ws/src/out"), EntryType::Symlink),
            ]
        );
        let r = call(json!({"path": "src/a.ts"}));
        assert_eq!(
            (r.kind, r.parent),
            (Some(Kind::File), Some(format!("{tmp}/ws/src")))
        );
        assert_eq!(r.entries.unwrap().len(), 1);
        let r = call(json!({}));
        assert_eq!(r.kind, Some(Kind::AllWorkspaces));
        assert_eq!(r.entries.unwrap()[0].path, format!("{tmp}/ws/src"));
        assert_eq!(
            call(json!({"dir_path": "src/out"})).error.unwrap().code,
            ErrorCode::OutsideWorkspace
        );
    }
}
