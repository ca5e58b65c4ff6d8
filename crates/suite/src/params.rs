//! The parameters each tool takes (spec/README.md's tool table, ERR-8):
//! one table per tool, read by everything that needs a parameter's name,
//! whether it carries a path, whether it is required, or its description.
//! The case validator reads the path parameters off a call (`case::shape`),
//! the reference refuses every other key and publishes the descriptions in
//! its `hello` schemas (DESC), and an MCP profile's translation finds the
//! path a call asked for. One table, so a parameter added to a tool (or an
//! alias) reaches all of them at once.

use std::sync::LazyLock;

use crate::protocol::Tool;

/// One parameter of a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The name a call gives it by.
    pub name: &'static str,
    /// The parameter this one is another name for (`path` of `dir_path`):
    /// the two mean the same, and giving both as paths is refused (RES-1).
    pub alias_of: Option<&'static str>,
    /// Whether it names a path the tool resolves (RES, SEC): the shape of
    /// a case is read off it, and a matrix sets it itself.
    pub is_path: bool,
    /// Whether a call must give it (ERR-8).
    pub required: bool,
    /// The description the reference publishes in its schema (DESC). For
    /// an alias, the words that go before the description of the
    /// parameter it stands for (`Alias of dir_path.`).
    pub description: &'static str,
}

impl Param {
    const fn path(name: &'static str, description: &'static str) -> Param {
        Param {
            name,
            alias_of: None,
            is_path: true,
            required: false,
            description,
        }
    }

    const fn alias(name: &'static str, of: &'static str, description: &'static str) -> Param {
        Param {
            name,
            alias_of: Some(of),
            is_path: true,
            required: false,
            description,
        }
    }

    const fn text(name: &'static str, required: bool, description: &'static str) -> Param {
        Param {
            name,
            alias_of: None,
            is_path: false,
            required,
            description,
        }
    }

    const fn required(self) -> Param {
        Param {
            required: true,
            ..self
        }
    }
}

/// The search tools' path (DESC-1, DESC-3).
const SEARCH_PATH: &str = "Optional: the path to search within. It can be a directory (searched \
    recursively) or a file (only that file is searched), given as an absolute path or as a path \
    relative to the target directory. If omitted, all workspace directories are searched.";

/// The glob tool's path (DESC-4, DESC-3).
const GLOB_PATH: &str = "Optional: where to look. A directory is searched recursively for files \
    whose path below it matches the pattern; a file is matched alone, against its name. Give an \
    absolute path or a path relative to the target directory. If omitted, all workspace \
    directories are searched.";

/// The ls tool's path (DESC-4, DESC-3).
const LS_PATH: &str = "Optional: what to list. A directory lists its entries (one level); a \
    file is listed as its single entry. Give an absolute path or a path relative to the target \
    directory. If omitted, every workspace directory is listed.";

/// The shell's directory (DESC-2, DESC-3).
const SHELL_DIR: &str = "Optional: the directory to run the command in. Give a path relative to \
    the target directory (e.g. \"src/utils\"), a workspace directory name (e.g. \"packages\"), or \
    an absolute path inside the workspace. If omitted, the command runs in the target directory.";

/// The file tools' path (DESC-5, DESC-3): the one path the suite wants
/// absolute, and the description says so.
const FILE_PATH: &str = "The absolute path of the file, starting with / (for example \
    \"/home/user/project/src/a.ts\"). A relative path is refused, with the absolute path it \
    would have meant. The file must lie inside a workspace directory.";

const RESOLVE: &[Param] = &[Param::path(
    "path",
    "Optional: a file or directory, absolute or relative to the target directory.",
)];

const SEARCH: &[Param] = &[
    Param::text(
        "pattern",
        true,
        "The regular expression to search for, matched against each line.",
    ),
    Param::path("dir_path", SEARCH_PATH),
    Param::alias("path", "dir_path", "Alias of dir_path."),
    Param::text(
        "include",
        false,
        "Optional: a glob matched against file names, e.g. \"*.ts\" or \"*.{ts,md}\".",
    ),
];

const SHELL: &[Param] = &[
    Param::text("command", true, "The command to run with sh -c."),
    Param::path("dir_path", SHELL_DIR),
    Param::alias("directory", "dir_path", "Legacy alias of dir_path."),
];

const GLOB: &[Param] = &[
    Param::text(
        "pattern",
        true,
        "A glob matched against each file's path below the searched directory, \
         e.g. \"**/*.ts\" or \"src/*.{ts,md}\".",
    ),
    Param::path("dir_path", GLOB_PATH),
    Param::alias("path", "dir_path", "Alias of dir_path."),
];

const LS: &[Param] = &[
    Param::path("dir_path", LS_PATH),
    Param::alias("path", "dir_path", "Alias of dir_path."),
];

/// The file tools' path and its alias, first of each file tool's list.
const FILE: Param = Param::path("file_path", FILE_PATH).required();
const FILE_ALIAS: Param = Param::alias("absolute_path", "file_path", "Alias of file_path.");

const READ_FILE: &[Param] = &[FILE, FILE_ALIAS];

const WRITE_FILE: &[Param] = &[
    FILE,
    FILE_ALIAS,
    Param::text(
        "content",
        true,
        "The whole new content of the file, exactly as it should be on disk.",
    ),
];

const EDIT: &[Param] = &[
    FILE,
    FILE_ALIAS,
    Param::text(
        "old_string",
        true,
        "The exact text to replace; it must occur exactly once in the file.",
    ),
    Param::text(
        "new_string",
        true,
        "The text to put in its place (may be empty).",
    ),
];

/// Every parameter `tool` takes, in the order its schema lists them.
pub fn of(tool: Tool) -> &'static [Param] {
    match tool {
        Tool::Resolve => RESOLVE,
        Tool::Grep | Tool::Ripgrep => SEARCH,
        Tool::Shell => SHELL,
        Tool::Glob => GLOB,
        Tool::Ls => LS,
        Tool::ReadFile => READ_FILE,
        Tool::WriteFile => WRITE_FILE,
        Tool::Edit => EDIT,
    }
}

/// The names `tool` takes, in its table's order (what a call may give;
/// every other key is refused, ERR-8).
pub fn names(tool: Tool) -> &'static [&'static str] {
    static NAMES: LazyLock<Vec<Vec<&'static str>>> = LazyLock::new(|| {
        Tool::ALL
            .iter()
            .map(|&tool| of(tool).iter().map(|p| p.name).collect())
            .collect()
    });
    &NAMES[tool.index()]
}

/// The names that carry `tool`'s path: the parameter, then its alias.
pub fn path_names(tool: Tool) -> impl Iterator<Item = &'static str> {
    of(tool).iter().filter(|p| p.is_path).map(|p| p.name)
}

/// The parameter that carries `tool`'s path, not an alias: the name every
/// implementation must accept (a matrix sends its path there; the aliases
/// are pinned by cases of their own).
pub fn path_param(tool: Tool) -> &'static str {
    path_names(tool)
        .next()
        .expect("every tool takes a path (the spec's tool table)")
}

/// Every name that carries some tool's path, each once, in the order of
/// [`Tool::ALL`] and their tables.
pub fn all_path_names() -> &'static [&'static str] {
    static ALL: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let mut all = Vec::new();
        for name in Tool::ALL.into_iter().flat_map(path_names) {
            if !all.contains(&name) {
                all.push(name);
            }
        }
        all
    });
    &ALL
}

/// The description a schema gives `param` of `tool`: its own, or for an
/// alias its words before the description of the parameter it stands for.
pub fn description(tool: Tool, param: &Param) -> String {
    let aliased = param
        .alias_of
        .and_then(|of_name| of(tool).iter().find(|p| p.name == of_name));
    match aliased {
        Some(target) => format!("{} {}", param.description, target.description),
        None => param.description.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path parameters of each tool are the spec's tool table's: its
    /// parameter, then its alias (`| \`grep\` | ... | \`dir_path\` (alias
    /// \`path\`) |`), and a file tool's is absolute only.
    #[test]
    fn path_parameters_are_the_spec_s_tool_table() {
        let spec = include_str!("../../../spec/README.md");
        let mut rows = 0;
        for line in spec.lines() {
            let cells: Vec<&str> = line.split(" | ").collect();
            let [first, _, last] = cells.as_slice() else {
                continue;
            };
            let Some(tool) = first
                .strip_prefix("| `")
                .and_then(|t| t.strip_suffix('`'))
                .and_then(|t| Tool::ALL.into_iter().find(|tool| tool.name() == t))
            else {
                continue;
            };
            rows += 1;
            let ticked: Vec<&str> = last.split('`').skip(1).step_by(2).collect();
            assert_eq!(
                path_names(tool).collect::<Vec<_>>(),
                ticked,
                "{tool}: {line}"
            );
            assert_eq!(
                last.contains("absolute only"),
                tool.is_file_tool(),
                "{line}"
            );
            let params = of(tool);
            let first = params.iter().find(|p| p.is_path).unwrap();
            assert_eq!(first.alias_of, None, "{tool}");
            for alias in params.iter().filter(|p| p.alias_of.is_some()) {
                assert_eq!(alias.alias_of, Some(first.name), "{tool}");
            }
        }
        assert_eq!(rows, Tool::ALL.len(), "one row a tool");
    }

    #[test]
    fn names_and_descriptions_come_from_the_table() {
        for tool in Tool::ALL {
            let mut seen: Vec<&str> = names(tool).to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), of(tool).len(), "{tool}: a name once");
        }
        assert_eq!(names(Tool::Ls), ["dir_path", "path"]);
        assert_eq!(path_param(Tool::Resolve), "path");
        assert_eq!(path_param(Tool::Shell), "dir_path");
        assert_eq!(path_param(Tool::Edit), "file_path");
        assert_eq!(
            all_path_names(),
            [
                "path",
                "dir_path",
                "directory",
                "file_path",
                "absolute_path"
            ]
        );
        let directory = &of(Tool::Shell)[2];
        assert_eq!(
            description(Tool::Shell, directory),
            format!("Legacy alias of dir_path. {SHELL_DIR}")
        );
        assert_eq!(description(Tool::Shell, &of(Tool::Shell)[1]), SHELL_DIR);
    }
}
