//! `toolpath new-adapter --lang LANG DIR`: a skeleton adapter that runs
//! against the suite at once, for a maintainer starting one. The skeletons
//! are embedded at build time from `templates/`.

use std::path::PathBuf;

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
            println!(
                "Wrote a skeleton adapter to {}. Run the suite against it:",
                dir.display()
            );
            println!(
                "  cd {} && toolpath run --adapter '{command}'",
                dir.display()
            );
            ExitCode::Ok
        }
        Err(e) => usage(e),
    }
}

/// `--mcp`: the profile skeleton, and how to run it.
fn write_profile(dir: &std::path::Path) -> ExitCode {
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
            for tool in toolpath_suite::protocol::Tool::ALL {
                let quoted = [format!("\"{tool}\""), format!("'{tool}'")];
                assert!(
                    quoted.iter().any(|q| tools_line.contains(q.as_str())),
                    "{lang:?}: {tool} missing from {tools_line}"
                );
                let stub = [format!("def {tool}("), format!("function {tool}(")];
                let routed = tool == toolpath_suite::protocol::Tool::Ripgrep;
                assert!(
                    routed || stub.iter().any(|s| text.contains(s.as_str())),
                    "{lang:?}: no handler for {tool}"
                );
            }
        }
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
