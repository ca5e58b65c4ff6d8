//! The documented recipes, run as written: every `sh` block of README.md,
//! docs/ci.md and the skeleton README, and the shell of every CI job in
//! docs/ci.md (GitHub Actions `run:` steps, GitLab `before_script` and
//! `script`), each in a fresh temporary directory, against a local clone of
//! this repository. A recipe that stops working fails here.
//!
//! Bounded in time by not building toolpath again: `cargo install` (the only
//! `cargo` command a recipe may run) is answered by a shim that checks the
//! arguments the recipe gives (`--locked`; `--path` to a toolpath checkout,
//! or `--git` to a repository that has the `--rev` commit) and then puts the
//! binary this test run already built where cargo would put it
//! (`$CARGO_HOME/bin`). A real install would rebuild the crate in release
//! mode, minutes on a shared 2-core machine, to produce the same program.
//! The steps that belong to the user's own project (`npm ci`, `pip
//! install`, `apt-get`) are shims that do nothing: there is no user project
//! here, only the adapter skeleton toolpath writes.
//!
//! Not run: the README's "two commands" (`cargo run --release` builds in
//! release mode, and `scripts/test` is the command running this test), and
//! `text` blocks (output and the nextest lines, which need cargo-nextest).
//! Commands written inline in prose (`toolpath run --adapter '...'` in a
//! sentence) are not extracted; the recipes are the fenced blocks.

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

/// The shell of each CI job in a YAML block: GitHub `run:` steps in order,
/// or GitLab `before_script` then `script`. Returns (job env, lines).
fn job_shell(yaml: &str) -> (Vec<(String, String)>, Vec<String>) {
    let doc: Value = serde_saphyr::from_str(yaml).expect("the docs' YAML parses");
    let mut env = Vec::new();
    let mut lines = Vec::new();
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
            env.extend(strings(&job["env"]));
            for step in job["steps"].as_array().into_iter().flatten() {
                if let Some(run) = step["run"].as_str() {
                    lines.push(run.trim().to_owned());
                }
            }
        }
    } else {
        for job in doc.as_object().unwrap().values() {
            env.extend(strings(&job["variables"]));
            for key in ["before_script", "script"] {
                for line in job[key].as_array().into_iter().flatten() {
                    lines.push(line.as_str().unwrap().trim().to_owned());
                }
            }
        }
    }
    (env, lines)
}

struct Sandbox {
    _dir: tempfile::TempDir,
    root: PathBuf,
    clone: PathBuf,
    rev: String,
    path: String,
}

const CARGO_SHIM: &str = r#"#!/bin/sh
# cargo install, answered with the binary already built (see tests/docs.rs).
set -e
[ "$1" = install ] || { echo "cargo shim: only 'cargo install' is expected, got: $*" >&2; exit 97; }
shift
locked=; src=; rev=; name=
while [ $# -gt 0 ]; do
  case "$1" in
    --locked) locked=1 ;;
    --path) src="$2"; shift ;;
    --git) src="$2"; shift ;;
    --rev) rev="$2"; shift ;;
    -*) echo "cargo shim: unexpected option $1" >&2; exit 97 ;;
    *) name="$1" ;;
  esac
  shift
done
[ -n "$locked" ] || { echo "cargo shim: the docs must say --locked" >&2; exit 97; }
case "$src" in
  file://*|/*) repo="${src#file://}"
    [ -n "$rev" ] || { echo "cargo shim: --git without --rev" >&2; exit 97; }
    [ "$name" = toolpath ] || { echo "cargo shim: crate name missing" >&2; exit 97; }
    git -C "$repo" cat-file -e "$rev^{commit}" ;;
  .|*) grep -q '^name = "toolpath"' "$src/Cargo.toml" ;;
esac
bin="${CARGO_HOME:-$HOME/.cargo}/bin"
mkdir -p "$bin"
cp "$TOOLPATH_BUILT" "$bin/toolpath"
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
    /// Runs `script` with bash in `cwd`; (exit code, stdout + stderr).
    fn sh(&self, cwd: &Path, script: &str, env: &[(String, String)]) -> (i32, String) {
        let out = Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(cwd)
            .env_clear()
            .env("PATH", &self.path)
            .env("HOME", self.root.join("home"))
            .env("TMPDIR", std::env::temp_dir())
            .env("TOOLPATH_BUILT", env!("CARGO_BIN_EXE_toolpath"))
            .env("TOOLPATH_GIT", format!("file://{}", self.clone.display()))
            .env("TOOLPATH_REV", &self.rev)
            .env("GITHUB_STEP_SUMMARY", self.root.join("step-summary.md"))
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
    /// docs say so) as long as it ran to its closing line.
    fn run_block(&self, cwd: &Path, block: &str, what: &str) {
        let closing = regex::Regex::new(r"(?m)^\d+ passed, \d+ failed, \d+ skipped$").unwrap();
        for command in commands(block) {
            let (code, out) = self.sh(cwd, &command, &[]);
            let may_fail = command.starts_with("toolpath run") && !command.contains("--strict")
                || command.contains("&& toolpath run");
            let ok = code == 0 || (may_fail && code == 1 && closing.is_match(&out));
            assert!(ok, "{what}: `{command}` exited {code}:\n{out}");
        }
    }

    fn run_job(&self, cwd: &Path, yaml: &str, what: &str) {
        let (env, lines) = job_shell(yaml);
        assert!(!lines.is_empty(), "{what}: no shell lines found");
        // The job's variables may refer to each other and to CI variables.
        let env: Vec<(String, String)> = env
            .into_iter()
            .filter(|(k, _)| k != "TOOLPATH_GIT" && k != "TOOLPATH_REV")
            .map(|(k, v)| {
                let v = v.replace("$CI_PROJECT_DIR", &cwd.display().to_string());
                (k, v)
            })
            .collect();
        let script = format!("set -eo pipefail\n{}\n", lines.join("\n"));
        let (code, out) = self.sh(cwd, &script, &env);
        assert_eq!(code, 0, "{what} failed:\n{script}\n{out}");
    }
}

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap()
}

#[test]
fn readme_install_and_ci_recipes_run_as_written() {
    let sb = sandbox();
    let readme = read("README.md");
    let ci = read("docs/ci.md");
    let sh: Vec<String> = blocks(&readme, "sh");
    // The install blocks run from a checkout (`--path .`).
    let install: Vec<&String> = sh.iter().filter(|b| b.contains("cargo install")).collect();
    assert_eq!(install.len(), 2, "README install blocks: {sh:?}");
    for block in &install {
        sb.run_block(&sb.clone, block, "README install");
    }
    // The other blocks name `my_adapter.py`, the reader's adapter: here it
    // is the reference served over stdio, which any recipe must run clean
    // against. Only the "two commands" block is not run (see above).
    std::fs::write(
        sb.root.join("my_adapter.py"),
        "import os\nos.execvp('toolpath', ['toolpath', 'serve'])\n",
    )
    .unwrap();
    let two_commands = "cargo run --release -- run";
    let mut ran = 0;
    for block in sh.iter().filter(|b| !b.contains("cargo install")) {
        if block.contains(two_commands) {
            continue;
        }
        sb.run_block(&sb.root, block, "README");
        ran += 1;
    }
    assert!(ran >= 1, "README blocks besides install: {sh:?}");
    let (code, out) = sb.sh(&sb.root, "toolpath --version", &[]);
    assert_eq!(code, 0, "{out}");

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
        3,
        "docs/ci.md: GitHub Node, GitHub Python, GitLab"
    );
    for (i, job) in jobs.iter().enumerate() {
        let python = job.contains("adapter.py");
        let project = sb.root.join(format!("project-{i}"));
        std::fs::create_dir_all(&project).unwrap();
        // toolpath installed as the README says, for the adapter steps.
        let (code, out) = sb.sh(&sb.clone, "cargo install --locked --path .", &[]);
        assert_eq!(code, 0, "{out}");
        // The steps of "Start an adapter", for the job's language.
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
            sb.run_block(&project, &block, "docs/ci.md adapter steps");
        }
        // A fresh HOME each job: the install step must run, not a leftover.
        let _ = std::fs::remove_dir_all(sb.root.join("home/.cargo"));
        sb.run_job(&project, job, &format!("docs/ci.md job {i}"));
        if job.contains("GITHUB_STEP_SUMMARY") {
            let summary = std::fs::read_to_string(sb.root.join("step-summary.md")).unwrap();
            assert!(summary.contains("toolpath"), "{summary}");
        }
        assert!(project.join("toolpath-junit.xml").is_file(), "job {i}");
    }
}

#[test]
fn skeleton_readmes_run_as_written() {
    let sb = sandbox();
    // toolpath on PATH, as the README's install leaves it.
    let (code, out) = sb.sh(&sb.clone, "cargo install --locked --path .", &[]);
    assert_eq!(code, 0, "{out}");
    for lang in ["node", "python"] {
        let dir = sb.root.join(format!("skeleton-{lang}"));
        let (code, out) = sb.sh(
            &sb.root,
            &format!("toolpath new-adapter --lang {lang} {}", dir.display()),
            &[],
        );
        assert_eq!(code, 0, "{out}");
        // The printed next step: `cd DIR && toolpath run --adapter '...'`.
        let next = out
            .lines()
            .find(|l| l.trim_start().starts_with("cd "))
            .expect("new-adapter prints the command to run");
        sb.run_block(&sb.root, next, "new-adapter's message");
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        let sh = blocks(&readme, "sh");
        assert!(sh.len() >= 2, "{readme}");
        for block in sh {
            sb.run_block(&dir, &block, &format!("{lang} skeleton README"));
        }
    }
}
