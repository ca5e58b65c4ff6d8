//! The `glob` tool (spec GLOB): which files below a path match a pattern.
//!
//! The path goes through the shared resolver like a search's, so a file is
//! accepted (matched alone against its base name, GLOB-4) and nothing about
//! the outside leaks. The walk is the search's: links below are neither
//! followed nor reported (GLOB-7, SEC-7).

use std::fs;

use serde_json::{Map, Value};

use super::path_pattern::PathPattern;
use super::resolve::{self, Target};
use super::{ToolError, params, walk};
use toolpath_suite::protocol::{Kind, Outcome, Tool, ToolResult, Workspace};

/// Runs a glob: validate the parameters, resolve the path, match below it.
pub fn run(workspace: &Workspace, params: &Map<String, Value>) -> ToolResult {
    match glob(workspace, params) {
        Ok(result) => result,
        Err(err) => err.into(),
    }
}

fn glob(workspace: &Workspace, params: &Map<String, Value>) -> Result<ToolResult, ToolError> {
    // Every parameter check comes before the file system is touched (ERR-2).
    params::only_for(params, Tool::Glob)?;
    let text = params::required(params, "pattern")?;
    params::no_nul("pattern", &text)?;
    let path = params::path_of(params, Tool::Glob)?;
    let pattern = PathPattern::parse(&text)?;
    let mut files = Vec::new();
    let (kind, echoed, parent) = match resolve::resolve_target(workspace, path.as_deref())? {
        Target::AllWorkspaces => {
            for root in &workspace.roots {
                glob_below(root, &pattern, &mut files);
            }
            (Kind::AllWorkspaces, None, None)
        }
        Target::Directory(dir) => {
            // Unlistable below is skipped; the directory asked for is not (GLOB-9).
            fs::read_dir(&dir).map_err(|e| resolve::io_error(&dir, &e))?;
            glob_below(&dir, &pattern, &mut files);
            (Kind::Directory, Some(dir), None)
        }
        Target::File { path, parent } => {
            // Its base name, as if its directory held only it (GLOB-4).
            let name = &path[parent.len()..].trim_start_matches('/');
            if pattern.matches(name) {
                files.push(path.clone());
            }
            (Kind::File, Some(path), Some(parent))
        }
    };
    // Nested roots, or two roots that are one directory through a link,
    // reach a file twice: it is reported once, under the first root in
    // the workspace's order, the walk's (GLOB-8, as SEARCH-10 for lines).
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(fs::canonicalize(f).unwrap_or_else(|_| f.into())));
    files.sort();
    let place = resolve::place(workspace, echoed.as_deref());
    // What the model reads (OUT-5): the resolved place, then one file a line.
    let mut shown = format!(
        "Found {} file(s) matching {text:?} in {place}\n",
        files.len()
    );
    for file in &files {
        shown.push_str(file);
        shown.push('\n');
    }
    Ok(ToolResult {
        outcome: Some(Outcome::Ok),
        kind: Some(kind),
        path: echoed,
        parent,
        files: Some(files),
        model_text: Some(shown),
        description: Some(format!("'{text}' in {place}")),
        ..ToolResult::default()
    })
}

/// Adds every regular file below `dir` whose path relative to it matches;
/// the walk is the search's (GLOB-7, GLOB-9: see [`walk::regular_files_below`]).
fn glob_below(dir: &str, pattern: &PathPattern, files: &mut Vec<String>) {
    walk::regular_files_below(dir, &mut |path, relative| {
        if pattern.matches(relative) {
            files.push(path.to_owned());
        }
    });
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use serde_json::json;

    use super::*;
    use toolpath_suite::protocol::ErrorCode;

    fn fixture() -> (tempfile::TempDir, String, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let tmp = fs::canonicalize(dir.path()).unwrap();
        for p in [
            "ws/src/a.ts",
            "ws/src/b.md",
            "ws/src/deep/c.ts",
            "other/o.ts",
            "outside/s.ts",
        ] {
            let p = tmp.join(p);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, "x\n").unwrap();
        }
        symlink("../outside", tmp.join("ws/out")).unwrap();
        symlink("../../outside/s.ts", tmp.join("ws/src/link.ts")).unwrap();
        let tmp = tmp.display().to_string();
        let ws = Workspace {
            roots: vec![format!("{tmp}/ws"), format!("{tmp}/other")],
            target: format!("{tmp}/ws"),
        };
        (dir, tmp, ws)
    }

    fn call(ws: &Workspace, p: Value) -> ToolResult {
        run(ws, p.as_object().unwrap())
    }

    #[test]
    fn directories_files_and_every_root() {
        let (_d, tmp, ws) = fixture();
        let r = call(&ws, json!({"pattern": "**/*.ts", "dir_path": "src"}));
        assert_eq!(r.kind, Some(Kind::Directory));
        assert_eq!(
            r.files.unwrap(),
            [
                format!("{tmp}/ws/src/a.ts"),
                format!("{tmp}/ws/src/deep/c.ts")
            ],
            "the link is not reported"
        );
        let r = call(&ws, json!({"pattern": "*.ts", "path": "src/a.ts"}));
        assert_eq!(r.kind, Some(Kind::File));
        assert_eq!(r.parent, Some(format!("{tmp}/ws/src")));
        assert_eq!(r.files.unwrap(), [format!("{tmp}/ws/src/a.ts")]);
        let r = call(&ws, json!({"pattern": "src/*.ts", "path": "src/a.ts"}));
        assert_eq!(r.files.unwrap(), Vec::<String>::new());
        let r = call(&ws, json!({"pattern": "*.ts"}));
        assert_eq!(r.kind, Some(Kind::AllWorkspaces));
        assert_eq!(r.files.unwrap(), [format!("{tmp}/other/o.ts")]);
    }

    #[test]
    fn errors_in_order() {
        let (_d, _tmp, ws) = fixture();
        let code = |p: Value| call(&ws, p).error.unwrap().code;
        assert_eq!(code(json!({"pattern": ""})), ErrorCode::InvalidParams);
        assert_eq!(
            code(json!({"pattern": "../*", "dir_path": "out"})),
            ErrorCode::InvalidParams
        );
        assert_eq!(
            code(json!({"pattern": "*", "dir_path": "out"})),
            ErrorCode::OutsideWorkspace
        );
        assert_eq!(
            code(json!({"pattern": "*", "dir_path": "nope"})),
            ErrorCode::NotFound
        );
    }
}
