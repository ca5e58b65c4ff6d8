//! The documented recipes, run as written: every `sh` block of README.md
//! (packaging/README.md's quick starts install the built npm and PyPI
//! packages: tests/packages.rs builds those and runs them),
//! docs/ci.md and the skeleton README, the shell of every CI job in
//! docs/ci.md (GitHub Actions `run:` steps and the steps of toolpath's own
//! composite action where a job `uses:` it, GitLab `before_script` and
//! `script`), and every command written inline in their prose, each in a
//! fresh temporary directory, against a local clone of this repository. A
//! recipe that stops working fails here.
//!
//! Bounded in time by not building toolpath again: `cargo` is a shim that
//! answers the two forms the docs use. `cargo install` checks the
//! arguments the recipe gives (`--locked`; `--path` to a toolpath checkout,
//! or `--git` to a repository that has the `--rev` commit; `--root`) and
//! then puts the binary this test run already built where cargo would put
//! it. `cargo run --release -- ARGS` (the README's main command) checks it
//! is run in a toolpath checkout and runs that binary with ARGS. A real
//! build would compile the crate again in release mode, minutes on a shared
//! 2-core machine, to produce the same program from the same source.
//! `npx toolpath ARGS` and `pipx run [--spec toolpath==VERSION] toolpath
//! ARGS` (the packages' forms) run that binary too: tests/packages.rs
//! builds the packages and runs their binary on a path without cargo. The
//! steps that belong to the user's own project (`npm ci`, `pip install`,
//! `apt-get`) are shims that do nothing: there is no user project here,
//! only the adapter skeleton toolpath writes. GitHub's own actions
//! (`actions/checkout`, `actions/cache`, `actions/upload-artifact`) are not
//! run; the path an upload step names must exist when the job ends.
//!
//! The README's other main command, `scripts/test`, is the command that
//! runs this test: running it here would recurse. It is executed by CI
//! itself (`.ci/run` runs it on a clean clone), which is what the README
//! says it is. `text` blocks are output, not commands: the README's
//! closing-lines example is compared, numbers aside, with what the main
//! command printed. docs/ci.md's nextest lines (a `text` block, since they
//! need cargo-nextest, which CI does not install) are not run.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Fenced blocks of `lang` in `markdown`, as text.
fn blocks(markdown: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    // The block's text and its fence's indent (blocks in list items are
    // indented; the indent is not part of the text).
    let mut current: Option<(String, usize)> = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut current {
            None if trimmed == format!("```{lang}") => current = Some((String::new(), indent)),
            Some(_) if trimmed == "```" => out.push(current.take().unwrap().0),
            Some((text, fence)) => {
                text.push_str(&line[indent.min(*fence)..]);
                text.push('\n');
            }
            None => {}
        }
    }
    out
}

/// The commands of an `sh` block: one per line, `\` continuations joined.
fn commands(block: &str) -> Vec<String> {
    let joined = block.replace("\\\n", " ");
    joined
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// The shell of a CI job (a YAML block) and what it leaves behind.
#[derive(Default)]
struct JobShell {
    /// The job's environment (GitHub `env`, GitLab `variables`).
    env: Vec<(String, String)>,
    /// Shell lines in order: GitHub `run:` steps (toolpath's own action
    /// expanded into its steps), or GitLab `before_script` then `script`.
    lines: Vec<String>,
    /// Paths an upload step (`actions/upload-artifact`, GitLab
    /// `artifacts`) takes, relative to the project: they must exist.
    uploads: Vec<String>,
}

/// A step that runs toolpath's own action, `OWNER/toolpath@REF`.
fn is_toolpath_action(uses: &str) -> bool {
    regex::Regex::new(r"^[\w.-]+/toolpath@[\w.-]+$")
        .unwrap()
        .is_match(uses)
}

fn job_shell(yaml: &str, action_path: &Path) -> JobShell {
    let doc: Value = serde_saphyr::from_str(yaml).expect("the docs' YAML parses");
    let mut job_shell = JobShell::default();
    let strings = |v: &Value| -> Vec<(String, String)> {
        v.as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                    .collect()
            })
            .unwrap_or_default()
    };
    if let Some(jobs) = doc["jobs"].as_object() {
        for job in jobs.values() {
            job_shell.env.extend(strings(&job["env"]));
            for step in job["steps"].as_array().into_iter().flatten() {
                if let Some(run) = step["run"].as_str() {
                    job_shell.lines.push(run.trim().to_owned());
                }
                match step["uses"].as_str() {
                    Some(uses) if is_toolpath_action(uses) => {
                        action_steps(&mut job_shell, &strings(&step["with"]), action_path)
                    }
                    Some(uses) if uses.starts_with("actions/upload-artifact@") => job_shell
                        .uploads
                        .push(step["with"]["path"].as_str().unwrap().to_owned()),
                    _ => {}
                }
            }
        }
    } else {
        for job in doc.as_object().unwrap().values() {
            job_shell.env.extend(strings(&job["variables"]));
            for key in ["before_script", "script"] {
                for line in job[key].as_array().into_iter().flatten() {
                    job_shell
                        .lines
                        .push(line.as_str().unwrap().trim().to_owned());
                }
            }
            if let Some(path) = job["artifacts"]["reports"]["junit"].as_str() {
                job_shell.uploads.push(path.to_owned());
            }
        }
    }
    job_shell
}

/// The steps of toolpath's composite action (`action.yml` at
/// `action_path`), as a runner would run them: each `run:` in its
/// `working-directory` with its `env`, `${{ inputs.NAME }}` replaced by the
/// `with:` value or the input's default, `GITHUB_ACTION_PATH` set, and what
/// a step appends to `$GITHUB_PATH` put on `PATH` for the steps after it.
/// Its upload step's path is checked like a job's.
fn action_steps(job_shell: &mut JobShell, with: &[(String, String)], action_path: &Path) {
    let action: Value =
        serde_saphyr::from_str(&std::fs::read_to_string(action_path.join("action.yml")).unwrap())
            .expect("action.yml parses");
    let inputs = action["inputs"].as_object().unwrap();
    for (name, _) in with {
        assert!(
            inputs.contains_key(name),
            "the docs pass an unknown input {name}"
        );
    }
    let input = |name: &str| -> String {
        with.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .or_else(|| inputs[name]["default"].as_str().map(str::to_owned))
            .unwrap_or_else(|| panic!("input {name}: no value and no default"))
    };
    let expand = |text: &str| -> String {
        let re = regex::Regex::new(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}").unwrap();
        let out = re
            .replace_all(text, |c: &regex::Captures| input(&c[1]))
            .into_owned();
        assert!(
            !out.contains("${{"),
            "an expression this test does not know: {text}"
        );
        out
    };
    for (name, value) in with {
        assert!(!value.is_empty() || !inputs[name]["required"].as_bool().unwrap_or(false));
    }
    for step in action["runs"]["steps"].as_array().unwrap() {
        if let Some(uses) = step["uses"].as_str() {
            if uses.starts_with("actions/upload-artifact@") {
                job_shell
                    .uploads
                    .push(expand(step["with"]["path"].as_str().unwrap()));
            }
            continue;
        }
        let run = step["run"].as_str().expect("a run step");
        let mut line = format!(
            "( cd {} && env GITHUB_ACTION_PATH={}",
            quote(&expand(step["working-directory"].as_str().unwrap_or("."))),
            quote(action_path.to_str().unwrap())
        );
        for (k, v) in step["env"].as_object().into_iter().flatten() {
            line.push_str(&format!(" {k}={}", quote(&expand(v.as_str().unwrap()))));
        }
        line.push_str(&format!(
            " bash -c {} )\nwhile IFS= read -r dir; do PATH=\"$dir:$PATH\"; done < \"$GITHUB_PATH\"; : > \"$GITHUB_PATH\"",
            quote(&expand(run))
        ));
        job_shell.lines.push(line);
    }
}

/// `text` as one single-quoted shell word.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

struct Sandbox {
    _dir: tempfile::TempDir,
    root: PathBuf,
    clone: PathBuf,
    rev: String,
    path: String,
}

const CARGO_SHIM: &str = r#"#!/bin/sh
# cargo install / cargo run --release, answered with the binary already
# built (see tests/docs.rs).
set -e
if [ "$1" = run ]; then
  [ "$2" = --release ] && [ "$3" = -- ] || { echo "cargo shim: expected 'cargo run --release -- ARGS', got: $*" >&2; exit 97; }
  grep -q '^name = "toolpath"' Cargo.toml || { echo "cargo shim: cargo run outside a toolpath checkout" >&2; exit 97; }
  shift 3
  exec "$TOOLPATH_BUILT" "$@"
fi
[ "$1" = install ] || { echo "cargo shim: only 'cargo install' and 'cargo run' are expected, got: $*" >&2; exit 97; }
shift
locked=; src=; git=; rev=; name=; root="${CARGO_HOME:-$HOME/.cargo}"
while [ $# -gt 0 ]; do
  case "$1" in
    --locked) locked=1 ;;
    --path) src="$2"; git=; shift ;;
    --git) src="$2"; git=1; shift ;;
    --rev) rev="$2"; shift ;;
    --root) root="$2"; shift ;;
    -*) echo "cargo shim: unexpected option $1" >&2; exit 97 ;;
    *) name="$1" ;;
  esac
  shift
done
[ -n "$locked" ] || { echo "cargo shim: the docs must say --locked" >&2; exit 97; }
if [ -n "$git" ]; then
  [ -n "$rev" ] || { echo "cargo shim: --git without --rev" >&2; exit 97; }
  [ "$name" = toolpath ] || { echo "cargo shim: crate name missing" >&2; exit 97; }
  git -C "${src#file://}" cat-file -e "$rev^{commit}"
else
  grep -q '^name = "toolpath"' "$src/Cargo.toml"
fi
mkdir -p "$root/bin"
cp "$TOOLPATH_BUILT" "$root/bin/toolpath"
echo "cargo shim: installed toolpath from $src into $root/bin" >&2
"#;

/// `npx toolpath ARGS`: the npm package's launcher runs the binary; here,
/// the binary this test run built (tests/packages.rs runs the package).
const NPX_SHIM: &str = r#"#!/bin/sh
[ "$1" = toolpath ] || { echo "npx shim: only 'npx toolpath ARGS' is expected, got: $*" >&2; exit 97; }
shift
exec "$TOOLPATH_BUILT" "$@"
"#;

/// `pipx run [--spec toolpath==VERSION] toolpath ARGS`: the wheel's binary;
/// here, the one this test run built, whose version a pin must name.
const PIPX_SHIM: &str = r#"#!/bin/sh
[ "$1" = run ] || { echo "pipx shim: only 'pipx run' is expected, got: $*" >&2; exit 97; }
shift
if [ "$1" = --spec ]; then
  [ "$2" = "toolpath==$TOOLPATH_VERSION" ] || { echo "pipx shim: --spec $2 is not toolpath==$TOOLPATH_VERSION" >&2; exit 97; }
  shift 2
fi
[ "$1" = toolpath ] || { echo "pipx shim: expected the app toolpath, got: $*" >&2; exit 97; }
shift
exec "$TOOLPATH_BUILT" "$@"
"#;

fn sandbox() -> Sandbox {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_owned();
    let clone = root.join("toolpath");
    let git = |args: &[&str]| {
        let out = Command::new("git").args(args).output().unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    git(&[
        "clone",
        "-q",
        "--no-hardlinks",
        ROOT,
        clone.to_str().unwrap(),
    ]);
    let rev = git(&["-C", clone.to_str().unwrap(), "rev-parse", "HEAD"]);
    let shims = root.join("shims");
    std::fs::create_dir_all(&shims).unwrap();
    let shim = |name: &str, text: &str| {
        let path = shims.join(name);
        std::fs::write(&path, text).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    shim("cargo", CARGO_SHIM);
    shim("npx", NPX_SHIM);
    shim("pipx", PIPX_SHIM);
    for name in ["npm", "pip", "apt-get"] {
        shim(name, "#!/bin/sh\nexit 0\n");
    }
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let path = format!(
        "{}:{}:/usr/local/bin:/usr/bin:/bin",
        home.join(".cargo/bin").display(),
        shims.display()
    );
    Sandbox {
        _dir: dir,
        root,
        clone,
        rev,
        path,
    }
}

impl Sandbox {
    /// The files a GitHub runner gives each job (`$GITHUB_OUTPUT` ...),
    /// emptied: a job starts with none.
    fn github_files(&self) -> Vec<(String, PathBuf)> {
        let dir = self.root.join("github");
        std::fs::create_dir_all(&dir).unwrap();
        let files: Vec<(String, PathBuf)> = ["OUTPUT", "PATH", "ENV", "STEP_SUMMARY"]
            .iter()
            .map(|name| (format!("GITHUB_{name}"), dir.join(name.to_lowercase())))
            .collect();
        for (_, file) in &files {
            std::fs::write(file, "").unwrap();
        }
        files
    }

    /// Runs `script` with bash in `cwd`; (exit code, stdout + stderr).
    fn sh(&self, cwd: &Path, script: &str, env: &[(String, String)]) -> (i32, String) {
        let github = self.root.join("github");
        let runner_temp = self.root.join("runner-temp");
        std::fs::create_dir_all(&runner_temp).unwrap();
        let out = Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(cwd)
            .env_clear()
            .env("PATH", &self.path)
            .env("HOME", self.root.join("home"))
            .env("TMPDIR", std::env::temp_dir())
            .env("TOOLPATH_BUILT", env!("CARGO_BIN_EXE_toolpath"))
            .env("TOOLPATH_VERSION", env!("CARGO_PKG_VERSION"))
            .env("TOOLPATH_GIT", format!("file://{}", self.clone.display()))
            .env("TOOLPATH_REV", &self.rev)
            .env("GITHUB_OUTPUT", github.join("output"))
            .env("GITHUB_PATH", github.join("path"))
            .env("GITHUB_ENV", github.join("env"))
            .env("GITHUB_STEP_SUMMARY", github.join("step_summary"))
            .env("GITHUB_WORKSPACE", cwd)
            .env("RUNNER_TEMP", &runner_temp)
            .env("CI_PROJECT_DIR", cwd)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code().unwrap_or(-1), text)
    }

    /// Runs each command of an `sh` block in `cwd`. A command must exit 0,
    /// except a `toolpath run` without `--strict`, which may exit 1 when
    /// cases fail (a fresh skeleton fails what it does not implement; the
    /// docs say so) as long as it ran to its closing line. Returns what
    /// the commands printed.
    fn run_block(&self, cwd: &Path, block: &str, what: &str) -> String {
        // The closing line, with the escapes a skeleton that checks nothing has.
        let closing =
            regex::Regex::new(r"(?m)^\d+ passed, \d+ failed, \d+ skipped(, \d+ escapes)?$")
                .unwrap();
        let mut printed = String::new();
        for command in commands(block) {
            let (code, out) = self.sh(cwd, &command, &[]);
            let may_fail = command.starts_with("toolpath run") && !command.contains("--strict")
                || command.contains("&& toolpath run");
            let ok = code == 0 || (may_fail && code == 1 && closing.is_match(&out));
            assert!(ok, "{what}: `{command}` exited {code}:\n{out}");
            printed.push_str(&out);
        }
        printed
    }

    /// Runs a CI job's shell in `cwd`, a fresh copy of the project its
    /// language's adapter steps made. A `toolpath fuzz` line word for word
    /// one an earlier job ran (`fuzzed`) is not run again: with a fixed seed
    /// and budget it is the same computation (the line names the adapter
    /// and the expectations file, the same bytes in every copy, and the
    /// binary is the same), and what it writes, its findings directory, is
    /// not what the job leaves for the checks below. The lines around it
    /// still run (the job's install puts the `toolpath` it would run on
    /// `PATH`), as written.
    fn run_job(&self, cwd: &Path, yaml: &str, what: &str, fuzzed: &mut Vec<String>) {
        self.github_files();
        let mut job = job_shell(yaml, &self.clone);
        assert!(!job.lines.is_empty(), "{what}: no shell lines found");
        job.lines.retain(|line| {
            if !line.starts_with("toolpath fuzz ") {
                return true;
            }
            let again = fuzzed.contains(line);
            fuzzed.push(line.clone());
            !again
        });
        // The job's variables may refer to each other and to CI variables.
        let env: Vec<(String, String)> = job
            .env
            .into_iter()
            .filter(|(k, _)| k != "TOOLPATH_GIT" && k != "TOOLPATH_REV")
            .map(|(k, v)| {
                let v = v.replace("$CI_PROJECT_DIR", &cwd.display().to_string());
                (k, v)
            })
            .collect();
        let script = format!("set -eo pipefail\n{}\n", job.lines.join("\n"));
        let (code, out) = self.sh(cwd, &script, &env);
        assert_eq!(code, 0, "{what} failed:\n{script}\n{out}");
        assert!(!job.uploads.is_empty(), "{what}: uploads no JUnit file");
        // Each upload is the JUnit file, as JUnit: a recipe that pairs a
        // --format with the wrong --output writes some other report there.
        for upload in job.uploads {
            let text = std::fs::read_to_string(cwd.join(&upload))
                .unwrap_or_else(|e| panic!("{what}: {upload}: {e}"));
            assert!(
                text.starts_with("<?xml") && text.contains("<testsuites"),
                "{what}: {upload} is not JUnit:\n{text}"
            );
        }
    }

    /// toolpath on PATH, as the README's install leaves it.
    fn install(&self) {
        let (code, out) = self.sh(&self.clone, "cargo install --locked --path .", &[]);
        assert_eq!(code, 0, "{out}");
    }
}

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap()
}

/// The README's "two commands": the first is run (through the cargo shim)
/// and what it prints is held to the README's example of the closing
/// lines; the second is what runs this test (see the module comment).
fn readme_main_command(sb: &Sandbox, readme: &str, block: &str) {
    let commands = commands(block);
    let commands: Vec<&str> = commands
        .iter()
        .map(|c| c.split(" #").next().unwrap().trim())
        .collect();
    assert_eq!(
        commands,
        ["cargo run --release -- run", "scripts/test"],
        "{block}"
    );
    let (code, out) = sb.sh(&sb.clone, commands[0], &[]);
    assert_eq!(code, 0, "`{}`:\n{out}", commands[0]);
    let example = blocks(readme, "text")
        .into_iter()
        .find(|b| b.starts_with("toolpath: "))
        .expect("the README shows the closing lines");
    // Numbers and the duration vary; the words and their order must not.
    let number = regex::Regex::new(r"\d+(\.\d+)?").unwrap();
    let shape = |text: &str| number.replace_all(text, "N").into_owned();
    // A run longer than half a minute also prints progress lines on
    // standard error (after the closing lines of standard output here,
    // which holds the two streams one after the other): how far a run got
    // is not how it ended.
    let progress = regex::Regex::new(r"^toolpath: \d+/\d+ instances ").unwrap();
    let printed: Vec<&str> = out.lines().filter(|l| !progress.is_match(l)).collect();
    let last_two = printed[printed.len().saturating_sub(2)..].join("\n");
    let example_shape = shape(example.trim_end());
    // The example lists the statuses its counts are made of; a run with
    // other statuses lists others, and a count of 0 lists none.
    let parts = regex::Regex::new(r" \([^)]*\)").unwrap();
    let without_parts = |text: &str| parts.replace_all(text, "").into_owned();
    assert_eq!(
        without_parts(&shape(&last_two)),
        without_parts(&example_shape),
        "the README's closing lines are not what the run prints:\n{out}"
    );
}

#[test]
fn readme_install_and_ci_recipes_run_as_written() {
    let sb = sandbox();
    let readme = read("README.md");
    let ci = read("docs/ci.md");
    let sh: Vec<String> = blocks(&readme, "sh");
    // The install blocks run from a checkout (`--path .`): the quick
    // start (install, a skeleton, its first run) and the two of Install.
    let install: Vec<&String> = sh.iter().filter(|b| b.contains("cargo install")).collect();
    assert_eq!(install.len(), 3, "README install blocks: {sh:?}");
    for block in &install {
        sb.run_block(&sb.clone, block, "README install");
    }
    // The other blocks name `my_adapter.py`, the reader's adapter: here it
    // is the reference served over stdio, which any recipe must run clean
    // against.
    std::fs::write(
        sb.root.join("my_adapter.py"),
        "import os\nos.execvp('toolpath', ['toolpath', 'serve'])\n",
    )
    .unwrap();
    let mut ran = 0;
    for block in sh.iter().filter(|b| !b.contains("cargo install")) {
        if block.contains("cargo run --release") {
            readme_main_command(&sb, &readme, block);
        } else {
            sb.run_block(&sb.root, block, "README");
        }
        ran += 1;
    }
    assert_eq!(ran, sh.len() - install.len());
    assert!(ran >= 2, "README blocks besides install: {sh:?}");
    // The skeleton's README (templates/ADAPTER-README.md) has inline
    // commands too; its fenced ones run in `skeleton_readmes_run_as_written`.
    let skeleton = read("templates/ADAPTER-README.md");
    // The README's depth moved to docs/running.md and docs/fuzzing.md
    // (issue 34): their inline commands are held the same.
    let running = read("docs/running.md");
    let fuzzing = read("docs/fuzzing.md");
    inline_commands(&sb, &[&readme, &ci, &skeleton, &running, &fuzzing]);

    // docs/ci.md: the adapter steps, then each CI job, in a fresh project.
    let ci_sh = blocks(&ci, "sh");
    assert_eq!(ci_sh.len(), 2, "docs/ci.md sh blocks");
    // Whole jobs; the sharding section's fragments are not jobs.
    let jobs: Vec<String> = blocks(&ci, "yaml")
        .into_iter()
        .filter(|b| b.contains("jobs:") || b.contains("script:"))
        .collect();
    assert_eq!(
        jobs.len(),
        6,
        "docs/ci.md: npx, pipx, GitHub with the action, GitHub Node, GitHub Python, GitLab"
    );
    assert!(jobs[0].contains("npx toolpath run") && jobs[1].contains("pipx run --spec toolpath=="));
    assert!(
        jobs.iter().any(|j| j.contains("/toolpath@")),
        "the action's job"
    );
    // The steps of "Start an adapter" run once per language, in a project
    // of their own; each job gets a fresh copy of that project. Running
    // them again for the next job of the same language would be the same
    // commands on the same skeleton against the same suite, writing the
    // same skeleton and expectations file: two whole-suite runs that prove
    // nothing the first ones did not.
    let mut started: std::collections::BTreeMap<bool, PathBuf> = Default::default();
    let mut fuzzed = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        let python = job.contains("adapter.py");
        let steps = started.entry(python).or_insert_with(|| {
            let steps = sb
                .root
                .join(if python { "steps-python" } else { "steps-node" });
            std::fs::create_dir_all(&steps).unwrap();
            sb.install();
            // The command new-adapter prints (`cd DIR && toolpath run
            // --adapter '...'`) is the step after it, word for word: that
            // whole-suite run of a fresh skeleton is the one
            // `skeleton_readmes_run_as_written` runs from the message, on
            // a skeleton it shows to be the same wherever it is written.
            let mut message: Option<String> = None;
            let mut skipped = 0;
            for block in &ci_sh {
                let block = if python {
                    block
                        .replace("--lang node", "--lang python")
                        .replace("node adapter.mjs", "python3 adapter.py")
                        .replace(
                            "node tools/toolpath-adapter/adapter.mjs",
                            "python3 tools/toolpath-adapter/adapter.py",
                        )
                } else {
                    block.clone()
                };
                for command in commands(&block) {
                    if message.as_deref() == Some(command.as_str()) {
                        skipped += 1;
                        continue;
                    }
                    let out = sb.run_block(&steps, &command, "docs/ci.md adapter steps");
                    if command.starts_with("toolpath new-adapter ") {
                        message = out
                            .lines()
                            .find(|l| l.trim_start().starts_with("cd "))
                            .map(|l| l.trim().to_owned());
                    }
                }
            }
            assert_eq!(
                skipped, 1,
                "docs/ci.md's step after new-adapter is the command it printed, {message:?}"
            );
            steps
        });
        let project = sb.root.join(format!("project-{i}"));
        let copied = Command::new("cp")
            .arg("-a")
            .arg(&*steps)
            .arg(&project)
            .status()
            .unwrap();
        assert!(copied.success(), "copying {}", steps.display());
        assert!(
            project
                .join("tools/toolpath-adapter/expectations.yaml")
                .is_file()
        );
        // A fresh HOME each job: the install step must run, not a leftover.
        let _ = std::fs::remove_dir_all(sb.root.join("home/.cargo"));
        let _ = std::fs::remove_dir_all(sb.root.join("home/.toolpath"));
        sb.run_job(&project, job, &format!("docs/ci.md job {i}"), &mut fuzzed);
        if job.contains("GITHUB_STEP_SUMMARY") || job.contains("/toolpath@") {
            let summary = std::fs::read_to_string(sb.root.join("github/step_summary")).unwrap();
            assert!(
                summary.starts_with("# toolpath certification"),
                "job {i}: {summary}"
            );
        }
    }
}

/// Every `toolpath ...` command written inline in the prose of README.md,
/// docs/ci.md, docs/running.md, docs/fuzzing.md and the skeleton's README, and how it is run here: as written, with its
/// placeholders filled in (`DIR`, `old.json`, `K/N`, `python|node`), or,
/// for a bare subcommand name used as a noun, not at all (its fenced
/// recipes and the commands above run it). A new inline command fails
/// this test until it is added to the list, so none goes untried.
fn inline_commands(sb: &Sandbox, docs: &[&str]) {
    let span = regex::Regex::new(r"`(toolpath [^`]*)`").unwrap();
    let found: std::collections::BTreeSet<String> = span
        .captures_iter(&docs.join("\n"))
        .map(|c| c[1].split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let names = [
        "toolpath run",
        "toolpath compare",
        "toolpath certification",
        "toolpath fuzz",
        "toolpath lint",
        "toolpath list",
        "toolpath serve",
        "toolpath clean",
        "toolpath new-adapter",
        "toolpath smoke",
    ];
    let run: [(&str, &[&str]); 11] = [
        (
            "toolpath certification --format html --output page.html REPORT.json...",
            &[
                "toolpath run --format json --output report.json",
                "toolpath certification --format html --output page.html report.json",
            ],
        ),
        // The report just written, and a Markdown page of the same run:
        // both of today's suite, so fresh (exit 0).
        (
            "toolpath certification --check-fresh PAGE...",
            &[
                "toolpath run --format markdown --output report.md --filter 'resolve.*'",
                "toolpath certification --check-fresh report.json report.md",
            ],
        ),
        ("toolpath --version", &["toolpath --version"]),
        // In the skeleton the quick start wrote, under the name it has.
        (
            "toolpath smoke --adapter 'python3 adapter.py'",
            &[
                "toolpath new-adapter --lang python my-adapter",
                "cd my-adapter && toolpath smoke --adapter 'python3 adapter.py'",
            ],
        ),
        (
            "toolpath run --adapter 'python3 my_adapter.py'",
            &["toolpath run --adapter 'python3 my_adapter.py'"],
        ),
        // The new report is the whole-suite one the certification line
        // wrote (the same command but its file name, in this directory):
        // another whole-suite run would make the same report.
        (
            "toolpath compare old.json new.json",
            &[
                "toolpath run --format json --output old.json --filter 'resolve.*'",
                "toolpath compare old.json report.json",
            ],
        ),
        ("toolpath export DIR", &["toolpath export exported"]),
        (
            "toolpath new-adapter --lang python|node DIR",
            &[
                "toolpath new-adapter --lang python skeleton-python",
                "toolpath new-adapter --lang node skeleton-node",
            ],
        ),
        (
            "toolpath run … --filter ID",
            &["toolpath run --filter resolve.file.relative"],
        ),
        (
            "toolpath run --shard K/N",
            &["toolpath run --shard 1/2", "toolpath run --shard 2/2"],
        ),
        (
            "toolpath lint",
            &["toolpath lint", "toolpath list", "toolpath clean"],
        ),
    ];
    // An MCP server certified from its profile alone: the clone's fake
    // server (tests/mcp) stands in for a real one, with its own cases.
    let mcp = "toolpath run --mcp PROFILE";
    let known: std::collections::BTreeSet<String> = names
        .iter()
        .copied()
        .chain(run.iter().map(|(c, _)| *c))
        .chain([mcp])
        .map(str::to_owned)
        .collect();
    assert_eq!(found, known, "inline commands in the docs vs. this test");
    let dir = sb.root.join("inline");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(sb.root.join("my_adapter.py"), dir.join("my_adapter.py")).unwrap();
    for (written, commands) in run {
        let block = commands.join("\n");
        sb.run_block(&dir, &block, &format!("inline `{written}`"));
    }
    let fake = sb.clone.join("tests/mcp");
    let block = format!(
        "toolpath run --mcp {} --cases {}",
        fake.join("fake.profile.yaml").display(),
        sb.clone.join("tests/data/mcp").display()
    );
    sb.run_block(&dir, &block, &format!("inline `{mcp}`"));
    assert!(dir.join("exported/cases").is_dir());
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(dir.join("skeleton-node/adapter.mjs").is_file());
}

/// Issue 44: nothing is on a registry yet, so the README installs nothing
/// from one: no `npm install`, `pip install`, `pipx`, `uvx` or `npx`
/// (npx fetches what it does not find installed) in a command it shows,
/// and `cargo install` only from a checkout or a repository (crates.io's
/// `toolpath` is another project's). It says so, and points to where the
/// built files' install commands and the registry names are.
#[test]
fn the_readme_installs_nothing_from_a_registry() {
    let readme = read("README.md");
    let span = regex::Regex::new(r"`([^`\n]+)`").unwrap();
    let shown: Vec<String> = blocks(&readme, "sh")
        .iter()
        .flat_map(|b| commands(b))
        .chain(span.captures_iter(&readme).map(|c| c[1].to_owned()))
        .collect();
    let registry = regex::Regex::new(
        r"^(npm (i|install|add)\b|pip3? install\b|python3? -m pip install\b|pipx\b|uvx\b|npx\b|yarn add\b|pnpm add\b)",
    )
    .unwrap();
    for command in &shown {
        assert!(
            !registry.is_match(command.trim()),
            "the README installs from a registry: {command}"
        );
        if command.starts_with("cargo install") && command.contains("--locked") {
            assert!(
                command.contains("--path") || command.contains("--git"),
                "crates.io's toolpath is not this project: {command}"
            );
        }
    }
    assert!(readme.contains("Nothing is published on npm, PyPI or crates.io yet"));
    assert!(readme.contains("(packaging/README.md#install-the-built-files)"));
    let packaging = read("packaging/README.md");
    for heading in ["## Install the built files", "## Registry names"] {
        assert!(packaging.contains(heading), "{heading}");
    }
}

#[test]
fn skeleton_readmes_run_as_written() {
    let sb = sandbox();
    sb.install();
    for lang in ["node", "python"] {
        let dir = sb.root.join(format!("skeleton-{lang}"));
        let (code, out) = sb.sh(
            &sb.root,
            &format!("toolpath new-adapter --lang {lang} {}", dir.display()),
            &[],
        );
        assert_eq!(code, 0, "{out}");
        // The skeleton is the same wherever it is written, so this run of
        // the message's command stands for docs/ci.md's identical step in
        // `tools/toolpath-adapter` (readme_install_and_ci_recipes_run_as_written).
        let elsewhere = sb
            .root
            .join(format!("elsewhere/tools/toolpath-adapter-{lang}"));
        let (code, out2) = sb.sh(
            &sb.root,
            &format!("toolpath new-adapter --lang {lang} {}", elsewhere.display()),
            &[],
        );
        assert_eq!(code, 0, "{out2}");
        let same = Command::new("diff")
            .arg("-r")
            .args([&dir, &elsewhere])
            .output()
            .unwrap();
        assert!(
            same.status.success(),
            "the skeleton depends on its directory: {same:?}"
        );
        // The printed next step: `cd DIR && toolpath run --adapter '...'`.
        let next = out
            .lines()
            .find(|l| l.trim_start().starts_with("cd "))
            .expect("new-adapter prints the command to run");
        sb.run_block(&sb.root, next, "new-adapter's message");
        // What the message ran after its `cd DIR && `, in DIR.
        let ran = next
            .trim()
            .strip_prefix(&format!("cd {} && ", dir.display()))
            .expect("the message's command runs in the skeleton's directory");
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        let sh = blocks(&readme, "sh");
        assert!(sh.len() >= 2, "{readme}");
        let mut skipped = 0;
        for block in sh {
            // The README's first command is the message's, in the same
            // untouched skeleton: it has just run as written there, and a
            // second whole-suite run of it would prove nothing new.
            let rest: Vec<String> = commands(&block)
                .into_iter()
                .filter(|c| {
                    let same = c.split(" #").next().unwrap().trim() == ran;
                    skipped += usize::from(same);
                    !same
                })
                .collect();
            sb.run_block(&dir, &rest.join("\n"), &format!("{lang} skeleton README"));
        }
        assert_eq!(
            skipped, 1,
            "the README runs what new-adapter printed: {readme}"
        );
    }
}

/// The action's script (`scripts/action.sh`, what `action.yml` runs), with
/// the runner's files pointed at temporary ones: against the Python port
/// it passes, installs where its cache looks, and writes the JUnit file,
/// the outputs and the job summary; against a failing adapter (a fresh
/// skeleton) its exit status is toolpath's, 1, and the summary is written
/// all the same; arguments that cannot be split are refused before any
/// case runs, and the summary says the run wrote no report.
#[test]
fn the_action_script_passes_fails_and_always_writes_the_summary() {
    let sb = sandbox();
    let action = |step: &str, cwd: &Path, env: &[(&str, &str)]| {
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .chain([(
                "GITHUB_ACTION_PATH".to_owned(),
                sb.clone.display().to_string(),
            )])
            .collect();
        let script = format!("bash {}/scripts/action.sh {step}", sb.clone.display());
        sb.sh(cwd, &script, &env)
    };
    let file = |name: &str| std::fs::read_to_string(sb.root.join("github").join(name)).unwrap();
    let github = sb.github_files();
    assert_eq!(github.len(), 4);

    // The cache key: the same for the same files, another for a ref.
    let (code, out) = action("key", &sb.clone, &[]);
    assert_eq!(code, 0, "{out}");
    let (_, _) = action("key", &sb.clone, &[]);
    let (_, _) = action("key", &sb.clone, &[("TOOLPATH_REF", &sb.rev)]);
    let keys: Vec<String> = file("output").lines().map(str::to_owned).collect();
    assert_eq!(keys.len(), 3, "{keys:?}");
    assert!(
        keys[0].starts_with("key=src-") && keys[0] == keys[1],
        "{keys:?}"
    );
    assert_eq!(keys[2], format!("key=rev-{}", sb.rev));

    // Install: from the action's checkout, or from a pinned commit.
    let (code, out) = action("install", &sb.clone, &[("TOOLPATH_REF", &sb.rev)]);
    assert_eq!(code, 0, "{out}");
    let from_git = format!("installed toolpath from file://{}", sb.clone.display());
    assert!(out.contains(&from_git), "{out}");
    let bin = sb.root.join("home/.toolpath/bin");
    assert!(bin.join("toolpath").is_file());
    assert_eq!(file("path").trim(), bin.display().to_string());
    std::fs::remove_dir_all(sb.root.join("home/.toolpath")).unwrap();
    let (code, out) = action("install", &sb.clone, &[]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = action("install", &sb.clone, &[]);
    assert!(
        code == 0 && out.contains("using the cached toolpath"),
        "{out}"
    );

    // The Python port: exit 0, JUnit, outputs, the Markdown in the summary.
    sb.github_files();
    let port = [("TOOLPATH_ADAPTER", "python3 runners/python/adapter.py")];
    let (code, out) = action("run", &sb.clone, &port);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" passed, 0 failed, "), "{out}");
    let summary = file("step_summary");
    assert!(
        summary.starts_with("# toolpath certification: toolpath-python-port"),
        "{summary}"
    );
    let outputs = file("output");
    assert!(outputs.starts_with("exit-code=0\n"), "{outputs}");
    let junit = sb.clone.join("toolpath-junit.xml");
    assert!(
        outputs.contains(&format!("junit={}\n", junit.display())),
        "{outputs}"
    );
    assert!(
        std::fs::read_to_string(&junit)
            .unwrap()
            .contains("<testsuite")
    );

    // A failing adapter, with extra arguments as a user quotes them.
    sb.github_files();
    let dir = sb.root.join("failing");
    let (code, out) = sb.sh(
        &sb.root,
        &format!(
            "{} new-adapter --lang python {}",
            bin.join("toolpath").display(),
            dir.display()
        ),
        &[],
    );
    assert_eq!(code, 0, "{out}");
    let failing = [
        ("TOOLPATH_ADAPTER", "python3 adapter.py"),
        (
            "TOOLPATH_ARGS",
            "--filter 'resolve.*' --timeout-ms \"60000\"",
        ),
        ("TOOLPATH_JUNIT", "out/junit.xml"),
    ];
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let (code, out) = action("run", &dir, &failing);
    assert_eq!(code, 1, "toolpath's exit status: {out}");
    let summary = file("step_summary");
    assert!(summary.starts_with("# toolpath certification"), "{summary}");
    assert!(summary.contains("## Failing instances"), "{summary}");
    // One heading per failing instance (`### `ID` (status)`); the
    // containment headings (`### ⛔ Escapes (N)`: the skeleton echoes
    // paths it never checked) stand beside them.
    let details: Vec<&str> = summary.lines().filter(|l| l.starts_with("### `")).collect();
    assert!(
        !details.is_empty() && details.iter().all(|l| l.starts_with("### `resolve.")),
        "only resolve.* ran: {details:?}"
    );
    assert!(file("output").starts_with("exit-code=1\n"));
    assert!(dir.join("out/junit.xml").is_file());

    // Arguments that do not split: refused, and the summary says so.
    sb.github_files();
    let bad = [
        ("TOOLPATH_ADAPTER", "python3 adapter.py"),
        ("TOOLPATH_ARGS", "--filter 'unclosed"),
    ];
    let (code, out) = action("run", &dir, &bad);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("cannot split the args input"), "{out}");
    assert!(file("step_summary").contains("The run wrote no report (exit code 2)"));
}

/// Issue 44: docs/mcp.md counted today's suite as 2,004 instances when it
/// held 2,150. The count it gives as today's (`N instances today`) is the
/// embedded suite's, as `toolpath list` counts it: a case added or taken
/// away fails here until the guide says so.
#[test]
fn the_mcp_guide_counts_todays_instances() {
    let out = Command::new(env!("CARGO_BIN_EXE_toolpath"))
        .args(["list", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let listed: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let guide = read("docs/mcp.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let today = regex::Regex::new(r"([0-9][0-9,]*) instances today").unwrap();
    let stated: Vec<usize> = today
        .captures_iter(&guide)
        .map(|c| c[1].replace(',', "").parse().unwrap())
        .collect();
    assert_eq!(
        stated,
        [listed.len()],
        "docs/mcp.md's count of today's instances"
    );
}
