//! `toolpath new-adapter --lang LANG DIR`: a skeleton adapter that runs
//! against the suite at once, for a maintainer starting one. The skeletons
//! are embedded at build time from `templates/`.

use std::path::{Path, PathBuf};

use crate::cli::export::write_all;
use crate::cli::usage;
use crate::report::ExitCode;

const ADAPTER_README: &str = include_str!("../../templates/ADAPTER-README.md");
const PYTHON_SKELETON: &str = include_str!("../../templates/python/adapter.py");
const NODE_SKELETON: &str = include_str!("../../templates/node/adapter.mjs");
const MCP_SKELETON: &str = include_str!("../../templates/mcp/server.profile.yaml");

/// The languages `new-adapter` has a skeleton for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    Python,
    Node,
}

/// `toolpath new-adapter`.
#[derive(Debug, Clone, clap::Args)]
pub struct NewAdapterRequest {
    /// The language of the adapter skeleton.
    #[arg(
        long,
        value_enum,
        value_name = "LANG",
        required_unless_present = "mcp",
        conflicts_with = "mcp"
    )]
    lang: Option<Lang>,
    /// A profile skeleton for an MCP server instead (docs/mcp.md): no adapter code.
    #[arg(long)]
    mcp: bool,
    /// The directory to write (created; nothing in it is overwritten).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// `toolpath new-adapter --lang LANG DIR`.
pub fn new_adapter(request: NewAdapterRequest) -> ExitCode {
    let dir = &request.dir;
    let Some(lang) = request.lang.filter(|_| !request.mcp) else {
        return write_profile(dir);
    };
    let (files, command) = skeleton(lang);
    match write_all(dir, &files) {
        Ok(()) => {
            for line in hint(dir, lang, command, crate::sys::is_root()) {
                println!("{line}");
            }
            ExitCode::Ok
        }
        Err(e) => usage(e),
    }
}

/// What to run next. As root, a run starts the adapter as a user of its
/// own (`session::run_user`), which must be able to read the file
/// `command` runs in `dir`:
/// under `/root` (`0700`) it cannot, and the hint's run would only stop at
/// its start with that news. Then the hint says so at once and names a
/// place that user can read instead, rather than a command that fails.
fn hint(dir: &Path, lang: Lang, command: &str, root: bool) -> Vec<String> {
    let file = command.rsplit(' ').next().unwrap_or(command);
    let run = |at: &Path| {
        format!(
            "  cd {} && {} run --adapter '{command}'",
            at.display(),
            invocation(at)
        )
    };
    let first = *crate::session::run_user::IDS.start();
    let unreachable = root
        .then(|| {
            crate::session::reach::check(
                &dir.join(file),
                (first, first),
                crate::session::reach::READ,
            )
            .err()
        })
        .flatten();
    let Some(why) = unreachable else {
        return vec![
            format!(
                "Wrote a skeleton adapter to {}. Run the suite against it:",
                dir.display()
            ),
            run(dir),
        ];
    };
    let name = dir
        .file_name()
        .unwrap_or(std::ffi::OsStr::new("my-adapter"));
    let elsewhere = std::env::temp_dir().join(name);
    let lang = match lang {
        Lang::Python => "python",
        Lang::Node => "node",
    };
    vec![
        format!(
            "Wrote a skeleton adapter to {}. As root, a run starts the adapter as a user of \
             its own, which cannot read it there ({why}); write it where other users can read:",
            dir.display()
        ),
        format!(
            "  toolpath new-adapter --lang {lang} {}",
            elsewhere.display()
        ),
        run(&elsewhere),
    ]
}

/// How the hint calls toolpath from `dir`: `npx toolpath` when `dir` is in
/// an npm project that has toolpath installed (a `node_modules/.bin/toolpath`
/// in `dir` or above it), where `toolpath` alone is not on `PATH`; the bare
/// `toolpath` otherwise (cargo and pip put it on `PATH`). Never `npx` without
/// a local install: npx would then fetch whatever the registry holds under
/// that name.
fn invocation(dir: &Path) -> &'static str {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
    let installed = absolute
        .ancestors()
        .any(|d| d.join("node_modules/.bin/toolpath").exists());
    if installed {
        "npx toolpath"
    } else {
        "toolpath"
    }
}

/// `--mcp`: the profile skeleton, and how to run it.
fn write_profile(dir: &Path) -> ExitCode {
    let files = vec![(
        PathBuf::from("server.profile.yaml"),
        MCP_SKELETON.to_owned(),
    )];
    match write_all(dir, &files) {
        Ok(()) => {
            println!(
                "Wrote a profile skeleton to {}. Point `server.command` at your server, then:",
                dir.join("server.profile.yaml").display()
            );
            println!(
                "  toolpath run --mcp {}",
                dir.join("server.profile.yaml").display()
            );
            ExitCode::Ok
        }
        Err(e) => usage(e),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The quoted tool names of a skeleton's `NAME = [...]` line.
    fn listed(text: &str, name: &str) -> Vec<String> {
        let line = text
            .lines()
            .find(|l| l.contains(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("a {name} line"));
        let list = &line[line.find('[').unwrap() + 1..line.rfind(']').unwrap()];
        list.split(',')
            .map(|t| t.trim().trim_matches(['"', '\'']).to_owned())
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// A skeleton declares only what it implements (`resolve`), so its
    /// first report is about that tool, not a wall of one TODO; and a new
    /// tool must still reach the skeletons: every tool of the protocol is
    /// declared or listed as not yet implemented, once, with a handler stub.
    #[test]
    fn skeletons_declare_only_resolve_and_stub_every_tool() {
        for lang in [Lang::Python, Lang::Node] {
            let (files, _) = skeleton(lang);
            let text = &files[0].1;
            let declared = listed(text, "TOOLS");
            let not_yet = listed(text, "NOT_YET_IMPLEMENTED");
            assert_eq!(declared, ["resolve"], "{lang:?}");
            for tool in toolpath_suite::protocol::Tool::ALL {
                let name = tool.to_string();
                let places =
                    usize::from(declared.contains(&name)) + usize::from(not_yet.contains(&name));
                assert_eq!(places, 1, "{lang:?}: {tool} declared or not yet, once");
                let stub = [format!("def {tool}("), format!("function {tool}(")];
                let routed = tool == toolpath_suite::protocol::Tool::Ripgrep;
                assert!(
                    routed || stub.iter().any(|s| text.contains(s.as_str())),
                    "{lang:?}: no handler for {tool}"
                );
            }
        }
    }

    /// The hint names a command that runs where the skeleton was written:
    /// `npx toolpath` only inside an npm project with toolpath installed.
    #[test]
    fn the_hint_says_npx_only_in_an_npm_project_with_toolpath() {
        let project = tempfile::tempdir().unwrap();
        let adapter = project.path().join("my-adapter");
        assert_eq!(invocation(&adapter), "toolpath");
        let bin = project.path().join("node_modules/.bin");
        std::fs::create_dir_all(&bin).unwrap();
        assert_eq!(invocation(&adapter), "toolpath", "no toolpath installed");
        std::fs::write(bin.join("toolpath"), "").unwrap();
        assert_eq!(invocation(&adapter), "npx toolpath");
        assert_eq!(invocation(&adapter.join("deeper")), "npx toolpath");
    }

    /// As root, a skeleton written where the run's own user cannot read it
    /// (a `0700` directory, as `/root` is) gets a hint that says so and
    /// names a place it can read; written where it can, or by a harness
    /// that is not root, the hint runs it where it is.
    #[test]
    fn as_root_the_hint_names_a_place_the_run_user_can_read() {
        use std::os::unix::fs::PermissionsExt;
        let private = tempfile::tempdir().unwrap();
        std::fs::set_permissions(private.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        let dir = private.path().join("my-adapter");
        let (files, command) = skeleton(Lang::Python);
        write_all(&dir, &files).unwrap();
        let said = hint(&dir, Lang::Python, command, true);
        assert!(said[0].contains("is not searchable by it"), "{said:?}");
        let elsewhere = std::env::temp_dir().join("my-adapter");
        assert_eq!(
            said[1..],
            [
                format!(
                    "  toolpath new-adapter --lang python {}",
                    elsewhere.display()
                ),
                format!(
                    "  cd {} && toolpath run --adapter 'python3 adapter.py'",
                    elsewhere.display()
                ),
            ]
        );
        let plain = [format!(
            "  cd {} && toolpath run --adapter 'python3 adapter.py'",
            dir.display()
        )];
        assert_eq!(hint(&dir, Lang::Python, command, false)[1..], plain);
        std::fs::set_permissions(private.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(hint(&dir, Lang::Python, command, true)[1..], plain);
    }

    /// The MCP profile skeleton is a valid profile: a maintainer edits
    /// values, never fixes its form.
    #[test]
    fn the_profile_skeleton_is_a_valid_profile() {
        let profile = crate::mcp::profile::Loaded::parse(
            std::path::Path::new("server.profile.yaml"),
            MCP_SKELETON,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            profile.tools.len(),
            toolpath_suite::protocol::Tool::ALL.len()
        );
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
