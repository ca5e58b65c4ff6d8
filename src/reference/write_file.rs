//! The `write_file` tool (spec FILE-8, FILE-9): the whole content of one
//! file, by its absolute path, creating it and its missing directories.

use std::fs;

use serde_json::{Map, Value};

use super::file::{self, Named};
use super::resolve;
use super::{ToolError, params};
use toolpath_suite::protocol::{Tool, ToolResult, Workspace};

pub fn run(workspace: &Workspace, params: &Map<String, Value>) -> ToolResult {
    match write_file(workspace, params) {
        Ok(result) => result,
        Err(err) => err.into(),
    }
}

fn write_file(workspace: &Workspace, params: &Map<String, Value>) -> Result<ToolResult, ToolError> {
    params::only_for(params, Tool::WriteFile)?;
    let path = file::absolute_path(workspace, Tool::WriteFile, params)?;
    let content = params::string(params, "content")?;
    // Containment is decided on the real path of the whole path before
    // anything is created (SEC-1): a missing part keeps its place, and a
    // dangling link leads to its target, so neither a parent through a
    // link to the outside nor a dangling link out creates anything.
    let created = match file::examine(workspace, &path)? {
        Named::File => false,
        Named::Nothing(_) => {
            // The directories of the path as given, where nothing is
            // (FILE-8); a link met on the way is followed, as the kernel
            // would for the file itself, and its target is inside (above).
            fs::create_dir_all(resolve::lexical_parent(&path))
                .map_err(|e| resolve::io_error(&path, &e))?;
            true
        }
    };
    file::write(&path, content.as_bytes(), created)?;
    let verb = if created { "Created" } else { "Wrote" };
    Ok(file::done(
        path.clone(),
        format!("{verb} {path} ({} bytes)", content.len()),
        format!("write {path}"),
    ))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{PermissionsExt, symlink};

    use serde_json::json;

    use super::*;
    use toolpath_suite::protocol::{ErrorCode, Kind};

    fn setup() -> (tempfile::TempDir, String, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let tmp = fs::canonicalize(dir.path()).unwrap().display().to_string();
        fs::create_dir_all(format!("{tmp}/ws/src")).unwrap();
        fs::create_dir_all(format!("{tmp}/outside")).unwrap();
        let ws = Workspace {
            roots: vec![format!("{tmp}/ws")],
            target: format!("{tmp}/ws"),
        };
        (dir, tmp, ws)
    }

    fn write(ws: &Workspace, path: &str, content: &str) -> ToolResult {
        run(
            ws,
            json!({"file_path": path, "content": content})
                .as_object()
                .unwrap(),
        )
    }

    #[test]
    fn creates_replaces_and_keeps_bits() {
        let (_d, tmp, ws) = setup();
        let r = write(&ws, &format!("{tmp}/ws/new/deep/a.txt"), "x\n");
        assert_eq!(r.kind, Some(Kind::File), "{r:?}");
        assert_eq!(
            fs::read_to_string(format!("{tmp}/ws/new/deep/a.txt")).unwrap(),
            "x\n"
        );
        fs::set_permissions(
            format!("{tmp}/ws/new/deep/a.txt"),
            fs::Permissions::from_mode(0o600),
        )
        .unwrap();
        write(&ws, &format!("{tmp}/ws/new/deep/a.txt"), "");
        let meta = fs::metadata(format!("{tmp}/ws/new/deep/a.txt")).unwrap();
        assert_eq!((meta.len(), meta.permissions().mode() & 0o777), (0, 0o600));
    }

    #[test]
    fn links_are_written_through_and_never_out() {
        let (_d, tmp, ws) = setup();
        fs::write(format!("{tmp}/ws/src/real.txt"), "old").unwrap();
        symlink("src/real.txt", format!("{tmp}/ws/link.txt")).unwrap();
        symlink("../outside/made.txt", format!("{tmp}/ws/dangling-out")).unwrap();
        symlink("../outside", format!("{tmp}/ws/out")).unwrap();
        write(&ws, &format!("{tmp}/ws/link.txt"), "new");
        assert_eq!(
            fs::read_to_string(format!("{tmp}/ws/src/real.txt")).unwrap(),
            "new"
        );
        assert!(
            fs::symlink_metadata(format!("{tmp}/ws/link.txt"))
                .unwrap()
                .is_symlink()
        );
        for path in ["dangling-out", "out/x.txt", "out/new/x.txt"] {
            let r = write(&ws, &format!("{tmp}/ws/{path}"), "escape");
            assert_eq!(r.error.unwrap().code, ErrorCode::OutsideWorkspace, "{path}");
        }
        assert_eq!(fs::read_dir(format!("{tmp}/outside")).unwrap().count(), 0);
    }

    #[test]
    fn directories_files_on_the_way_and_relative_paths_are_refused() {
        let (_d, tmp, ws) = setup();
        fs::write(format!("{tmp}/ws/file"), "").unwrap();
        let code = |path: &str| write(&ws, path, "x").error.unwrap().code;
        assert_eq!(
            code(&format!("{tmp}/ws/src")),
            ErrorCode::UnsupportedFileType
        );
        assert_eq!(code(&format!("{tmp}/ws/file/x.txt")), ErrorCode::NotFound);
        assert_eq!(code("src/x.txt"), ErrorCode::InvalidParams);
        assert!(!std::path::Path::new(&format!("{tmp}/ws/src/x.txt")).exists());
        let r = run(
            &ws,
            json!({"file_path": format!("{tmp}/ws/a")})
                .as_object()
                .unwrap(),
        );
        assert_eq!(
            r.error.unwrap().code,
            ErrorCode::InvalidParams,
            "content is required"
        );
    }
}
