//! `shell`: runs a command in a validated directory (SHELL).

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Map, Value};

use super::resolve::{self, Found, lexical_resolve};
use super::{ToolError, params};
use toolpath_suite::protocol::{ErrorCode, Outcome, Tool, ToolResult, Workspace};

/// Validates the parameters and the directory, then runs the command there.
pub fn run(workspace: &Workspace, params: &Map<String, Value>) -> ToolResult {
    let result = params::only_for(params, Tool::Shell)
        .and_then(|()| params::required(params, "command"))
        .and_then(|command| {
            if command.contains('\0') {
                return Err(ToolError::new(
                    ErrorCode::InvalidParams,
                    "command contains a NUL byte, which no shell can run",
                ));
            }
            let dir = params::path_of(params, Tool::Shell)?;
            let cwd = directory(workspace, dir.as_deref())?;
            execute(&command, &cwd)
        });
    result.unwrap_or_else(ToolError::into)
}

/// The lexical directory a command runs in (SHELL-2..5, SHELL-7).
///
/// - No directory: the target directory (SHELL-2).
/// - A path containing `/` (absolute, or relative like `src/utils` or even
///   `ws/`): resolved against the target and validated; never compared with
///   root names (SHELL-3, SHELL-4).
/// - A single segment: a directory of that name inside the workspace, resolved
///   against the target, wins; otherwise exactly one root with that base name
///   is chosen, several are `ambiguous_name`, and none gives the first
///   resolution's error back (SHELL-5, COMPAT-2). So a root's name still
///   selects it even when the same name resolved against the target is
///   outside the workspace or missing.
pub fn directory(workspace: &Workspace, dir: Option<&str>) -> Result<String, ToolError> {
    let Some(dir) = dir else {
        return Ok(lexical_resolve(&workspace.target, ""));
    };
    let lexical = resolve::lexical_checked(workspace, dir)?;
    let checked = check_directory(workspace, &lexical).map(|()| lexical);
    if checked.is_ok() || dir.contains('/') {
        return checked;
    }
    let roots: Vec<String> = workspace
        .roots
        .iter()
        .map(|root| lexical_resolve(root, ""))
        .filter(|root| Path::new(root).file_name().is_some_and(|name| name == dir))
        .collect();
    match roots.as_slice() {
        [] => checked,
        [root] => Ok(root.clone()),
        _ => Err(ToolError::new(
            ErrorCode::AmbiguousName,
            format!(
                "{dir} names several workspace roots: {}; give a path instead",
                roots.join(", ")
            ),
        )),
    }
}

/// Containment, existence, then type: anything but a directory (a regular
/// file, a FIFO, ...) is `not_a_directory` (SHELL-3, SHELL-7).
fn check_directory(workspace: &Workspace, lexical: &str) -> Result<(), ToolError> {
    match resolve::locate(workspace, lexical)? {
        Found::Directory => Ok(()),
        Found::File | Found::Other => Err(ToolError::new(
            ErrorCode::NotADirectory,
            format!("{lexical} is not a directory"),
        )),
    }
}

/// Runs `sh -c command` in exactly the validated directory and echoes it
/// (SHELL-6, SEC-8). `PWD` is set to it too, so that `pwd` prints the lexical
/// path even when a symbolic link leads there. Standard input is closed: the
/// command must not read the adapter protocol's input. Standard error is
/// captured and dropped; the exit status does not change the outcome, which
/// is about the directory, not the command. The shell is `/bin/sh` by its
/// absolute path (POSIX puts it there): no `PATH` search, which tried and
/// failed an `execve` in every earlier `PATH` directory on every call.
fn execute(command: &str, cwd: &str) -> Result<ToolResult, ToolError> {
    let mut sh = Command::new("/bin/sh");
    // The command is the case's: it runs as the harness's user, and must
    // not reach into the harness (whose memory holds the spool's key).
    crate::sys::confine(&mut sh, None);
    let output = sh
        .arg("-c")
        .arg(command)
        .current_dir(cwd)
        .env("PWD", cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(|err| {
            // A directory that exists but cannot be entered is EACCES here
            // (ERR-5); one that went away since validation is ENOENT.
            let code = resolve::io_error(cwd, &err).code;
            ToolError::new(code, format!("could not run the command in {cwd}: {err}"))
        })?;
    Ok(ToolResult {
        outcome: Some(Outcome::Ok),
        cwd: Some(cwd.to_owned()),
        output: Some(String::from_utf8_lossy(&output.stdout).into_owned()),
        // What the model reads (OUT-5): the directory used, then the output.
        model_text: Some(format!(
            "Ran `{command}` in {cwd}\n{}",
            String::from_utf8_lossy(&output.stdout)
        )),
        description: Some(format!("{command} (in {cwd})")),
        ..ToolResult::default()
    })
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::symlink;

    use serde_json::json;

    use super::*;

    fn fixture() -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().unwrap();
        let tmp = fs::canonicalize(dir.path()).unwrap();
        for d in [
            "a/ws/src/utils",
            "a/ws/packages",
            "b/ws",
            "other",
            "packages",
            "outside",
        ] {
            fs::create_dir_all(tmp.join(d)).unwrap();
        }
        fs::write(tmp.join("a/ws/file.txt"), "x").unwrap();
        symlink("src", tmp.join("a/ws/link")).unwrap();
        symlink("../../outside", tmp.join("a/ws/out")).unwrap();
        (dir, tmp.display().to_string())
    }

    fn ws(tmp: &str, roots: &[&str]) -> Workspace {
        Workspace {
            roots: roots.iter().map(|r| format!("{tmp}/{r}")).collect(),
            target: format!("{tmp}/a/ws"),
        }
    }

    fn cwd(ws: &Workspace, dir: &str) -> Result<String, ErrorCode> {
        directory(ws, Some(dir)).map_err(|e| e.code)
    }

    #[test]
    fn directories() {
        let (_d, tmp) = fixture();
        let w = ws(&tmp, &["a/ws", "other", "packages"]);
        let t = &w.target;
        assert_eq!(directory(&w, None), Ok(t.clone()));
        assert_eq!(cwd(&w, "src/utils"), Ok(format!("{t}/src/utils")));
        assert_eq!(cwd(&w, "src/utils/"), Ok(format!("{t}/src/utils")));
        assert_eq!(cwd(&w, "."), Ok(t.clone()));
        assert_eq!(cwd(&w, &format!("{tmp}/other")), Ok(format!("{tmp}/other")));
        // A subdirectory of the target wins over a root of the same name.
        assert_eq!(cwd(&w, "packages"), Ok(format!("{t}/packages")));
        // A root's base name, when nothing of that name is below the target.
        assert_eq!(cwd(&w, "other"), Ok(format!("{tmp}/other")));
        // But never for paths with a `/`.
        assert_eq!(cwd(&w, "other/"), Err(ErrorCode::NotFound));
        assert_eq!(cwd(&w, "./other"), Err(ErrorCode::NotFound));
        // Links are echoed lexically.
        assert_eq!(cwd(&w, "link"), Ok(format!("{t}/link")));
    }

    #[test]
    fn errors() {
        let (_d, tmp) = fixture();
        let w = ws(&tmp, &["a/ws", "other"]);
        assert_eq!(cwd(&w, "nope"), Err(ErrorCode::NotFound));
        assert_eq!(cwd(&w, "src/nope"), Err(ErrorCode::NotFound));
        assert_eq!(cwd(&w, "file.txt"), Err(ErrorCode::NotADirectory));
        assert_eq!(cwd(&w, "../../outside"), Err(ErrorCode::OutsideWorkspace));
        assert_eq!(cwd(&w, ".."), Err(ErrorCode::OutsideWorkspace));
        assert_eq!(cwd(&w, "out"), Err(ErrorCode::OutsideWorkspace));
        assert_eq!(cwd(&w, "/"), Err(ErrorCode::OutsideWorkspace));
        let two = ws(&tmp, &["a/ws", "b/ws", "other"]);
        let err = directory(&two, Some("ws")).unwrap_err();
        assert_eq!(err.code, ErrorCode::AmbiguousName);
        assert!(
            err.message.contains(&format!("{tmp}/a/ws"))
                && err.message.contains(&format!("{tmp}/b/ws"))
        );
        // A root name beats the outside_workspace of the first resolution.
        symlink("../../../outside", format!("{tmp}/a/ws/src/other")).unwrap();
        let w = Workspace {
            target: format!("{tmp}/a/ws/src"),
            ..ws(&tmp, &["a/ws/src", "other"])
        };
        assert_eq!(cwd(&w, "other/"), Err(ErrorCode::OutsideWorkspace));
        assert_eq!(cwd(&w, "other"), Ok(format!("{tmp}/other")));
    }

    #[test]
    fn runs_in_the_lexical_directory() {
        let (_d, tmp) = fixture();
        let w = ws(&tmp, &["a/ws"]);
        let params = json!({"command": "pwd", "dir_path": "link"});
        let r = run(&w, params.as_object().unwrap());
        assert_eq!(r.outcome, Some(Outcome::Ok));
        assert_eq!(r.cwd, Some(format!("{tmp}/a/ws/link")));
        assert_eq!(r.output, Some(format!("{tmp}/a/ws/link\n")));
        let params = json!({"command": "pwd", "directory": "src", "dir_path": "src"});
        assert_eq!(
            run(&w, params.as_object().unwrap()).error.unwrap().code,
            ErrorCode::InvalidParams
        );
        let params = json!({"command": "", "dir_path": "src"});
        assert_eq!(
            run(&w, params.as_object().unwrap()).error.unwrap().code,
            ErrorCode::InvalidParams
        );
    }
}
