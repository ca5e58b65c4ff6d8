//! toolpath installed the way its users install things: the npm packages
//! and the PyPI wheel are built from this checkout (`scripts/package`),
//! installed from those files alone into a fresh npm project and a fresh
//! virtual environment, and run on the system's `PATH` (`/usr/local/bin`,
//! `/usr/bin`, `/bin`: node, python3 and the shell tools the suite's shell
//! cases run) without cargo, rustc or a toolpath on it (the test checks),
//! with a registry address that answers nothing: a
//! package that needed a download, a build, or a registry read of toolpath
//! itself fails here.
//!
//! The two quick starts of packaging/README.md ("Install the built
//! files": the `sh` blocks that begin `npm install --save-dev` and `pip
//! install`) are run as written, each line from the project's directory,
//! with `$DIST` and `$VERSION` the built files' directory and version;
//! the one addition is `--offline` on the npm install line (pip is kept
//! off any index by `PIP_NO_INDEX`). Then each installed `toolpath` prints its
//! version; the npm one runs the whole embedded suite against the built-in
//! reference and passes it, and the venv's is the same file, byte for byte
//! (one whole-suite run proves it for both).
//!
//! The packages hold a `dev` build (symbols stripped: maturin's `--strip`)
//! made in the test build's own target directory: maturin's
//! `cargo rustc --bin toolpath` finds every unit the test build compiled
//! (Cargo.toml enables the dev-dependencies' features on shared crates for
//! the binary too) and only compiles and links the binary again. A release build is what a release
//! ships (.github/workflows/release.yml), minutes more on a 2-core machine
//! to make the same program from the same source. The newcomer's clock (install, then the skeleton's first
//! report) and that report's line count are printed for the record, never
//! asserted (no test depends on wall-clock time).
//!
//! What a release would upload is checked from the same files, as the
//! registries would take them, with no upload and no login: `npm publish
//! --dry-run` of each npm tarball, the wheel's metadata, and the version
//! each carries; beside it, a fast test holds the version to one value
//! everywhere a release takes it from and lists what `cargo package`
//! would pack (no second packaging build: CI stays within its ten
//! minutes).
//!
//! scripts/test-lanes: alone. scripts/package builds through maturin, which
//! replaces target/debug/toolpath, the program every other integration
//! test binary starts: one running meanwhile finds it missing. (Unit tests,
//! which cannot start it, run beside this one.)

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const VERSION: &str = toolpath::SUITE_VERSION;

/// Fenced `sh` blocks of `markdown`.
fn sh_blocks(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim()) {
            (None, "```sh") => current = Some(String::new()),
            (Some(_), "```") => out.push(current.take().unwrap()),
            (Some(text), _) => {
                text.push_str(line.trim());
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

/// The commands of a block: one a line, comments dropped.
fn commands(block: &str) -> Vec<String> {
    block
        .lines()
        .map(|l| l.split(" #").next().unwrap().trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

struct Machine {
    _dir: tempfile::TempDir,
    root: PathBuf,
    /// The machine's `PATH` after the project's own directory: python3
    /// (this machine's, which may live elsewhere), then the system's.
    path: String,
    dist: PathBuf,
}

/// The real program `name` resolves to on this machine (through pyenv's
/// shims, which need pyenv itself on PATH).
fn real(name: &str) -> PathBuf {
    if name == "python3" {
        let out = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .unwrap();
        assert!(out.status.success(), "python3: {out:?}");
        return PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    }
    let out = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{name} is not installed");
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

fn machine() -> Machine {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_owned();
    let dist = root.join("dist");
    let out = Command::new(Path::new(ROOT).join("scripts/package"))
        .args(["--profile", "dev", "--out"])
        .arg(&dist)
        .output()
        .unwrap();
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "scripts/package: {progress}");
    shows_its_progress(&progress);
    let tools = root.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    for name in ["node", "npm", "npx", "python3"] {
        std::os::unix::fs::symlink(real(name), tools.join(name)).unwrap();
    }
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", tools.display());
    std::fs::create_dir_all(root.join("home")).unwrap();
    Machine {
        _dir: dir,
        root,
        path,
        dist,
    }
}

impl Machine {
    fn built(&self, name: &str) -> PathBuf {
        let path = self.dist.join(name);
        assert!(path.is_file(), "scripts/package did not write {name}");
        path
    }

    /// Runs `script` with bash in `cwd`, `bin` first on PATH and then the
    /// machine's; (exit code, stdout, stderr).
    fn sh(&self, cwd: &Path, bin: &Path, script: &str) -> (i32, String, String) {
        let out = Command::new("/bin/bash")
            .args(["-c", script])
            .current_dir(cwd)
            .env_clear()
            .env("PATH", format!("{}:{}", bin.display(), self.path))
            .env("HOME", self.root.join("home"))
            .env("TMPDIR", std::env::temp_dir())
            // Nothing answers here: a registry read fails the install.
            .env("npm_config_registry", "http://127.0.0.1:9/")
            .env("npm_config_update_notifier", "false")
            .env("npm_config_fund", "false")
            .env("npm_config_audit", "false")
            // No retry of the registry that answers nothing (npm publish
            // --dry-run asks it, and would wait a minute for it).
            .env("npm_config_fetch_retries", "0")
            .env("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
            .env("PIP_NO_INDEX", "1")
            .env("PIP_FIND_LINKS", &self.dist)
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Runs the commands of a quick start from `project`; the last is the
    /// skeleton's first run, which exits 1 (a skeleton implements one tool)
    /// after its closing line. Returns that run's standard output.
    fn quick_start(&self, project: &Path, bin: &Path, block: &[String], what: &str) -> String {
        let (last, rest) = block.split_last().unwrap();
        for command in rest {
            let (code, out, err) = self.sh(project, bin, command);
            assert_eq!(code, 0, "{what}: `{command}`:\n{out}{err}");
        }
        let (code, out, err) = self.sh(project, bin, last);
        let closing =
            regex::Regex::new(r"\n\d+ passed, \d+ failed, \d+ skipped(, \d+ escapes)?\n\z")
                .unwrap();
        assert!(
            code == 1 && closing.is_match(&out),
            "{what}: `{last}` exited {code}:\n{out}{err}"
        );
        out
    }

    /// The installed `toolpath` (as `toolpath` or `npx toolpath`) prints
    /// its version.
    fn has_the_version(&self, cwd: &Path, bin: &Path, toolpath: &str) {
        let (code, out, err) = self.sh(cwd, bin, &format!("{toolpath} --version"));
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.trim(), format!("toolpath {VERSION}"), "{toolpath}");
    }

    /// The installed `toolpath` runs the whole embedded suite against the
    /// reference, and passes it.
    fn runs_the_suite(&self, cwd: &Path, bin: &Path, toolpath: &str) {
        let (code, out, err) = self.sh(cwd, bin, &format!("{toolpath} run --format json"));
        assert_eq!(code, 0, "{toolpath} run: {err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        let (cases, errors) = toolpath::case::embedded::load_embedded();
        assert!(errors.is_empty(), "{errors:?}");
        let instances = cases.iter().map(|c| c.instances().count()).sum::<usize>() as u64;
        assert_eq!(report["suite"], VERSION);
        assert_eq!(report["summary"]["total"].as_u64(), Some(instances));
        assert_eq!(report["summary"]["pass"].as_u64(), Some(instances));
    }
}

/// scripts/package announces each of its steps on stderr with the time
/// since it started (a first release build takes minutes, and once
/// printed nothing for 34 of them), and says when it is done.
fn shows_its_progress(stderr: &str) {
    let step = regex::Regex::new(r"^scripts/package: \[\d+ s\] ").unwrap();
    let steps: Vec<&str> = stderr.lines().filter(|l| step.is_match(l)).collect();
    for what in [
        "maturin",
        "the wheel",
        "the npm platform package",
        "the binary archive",
        "npm pack",
        "done",
    ] {
        assert!(
            steps.iter().any(|l| l.contains(what)),
            "no step `{what}` announced:\n{stderr}"
        );
    }
    assert!(steps.last().unwrap().contains("done"), "{stderr}");
}

/// The `package.json` of an npm tarball.
fn package_json(tarball: &Path) -> Value {
    let out = Command::new("tar")
        .arg("-xzOf")
        .arg(tarball)
        .arg("package/package.json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}: {out:?}", tarball.display());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The fields of the wheel's `METADATA`, in order (a field PyPI reads
/// once is checked to be there once).
fn wheel_metadata(wheel: &Path) -> Vec<(String, String)> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile\n\
             z = zipfile.ZipFile(sys.argv[1])\n\
             [name] = [n for n in z.namelist() if n.endswith('.dist-info/METADATA')]\n\
             sys.stdout.write(z.read(name).decode('utf-8'))\n",
        ])
        .arg(wheel)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    // The headers end at the first empty line (a description would follow).
    text.lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let (key, value) = l
                .split_once(": ")
                .unwrap_or_else(|| panic!("METADATA: {l:?}"));
            (key.to_owned(), value.to_owned())
        })
        .collect()
}

/// What a release uploads (.github/workflows/release.yml), checked here
/// from the files CI built, as the registries would take them, without
/// an upload or a login: `npm publish --dry-run` of each npm tarball (its
/// name, version and files as npm reads them, and nothing npm had to
/// correct in its `package.json`), and the wheel's metadata as PyPI reads
/// it (twine's check adds only the rendering of a long description,
/// which the wheel has none of, for twenty more packages to install).
fn a_release_would_upload_these(machine: &Machine, wheel: &Path, tarballs: &[(&Path, &str, &str)]) {
    for &(tarball, name, file) in tarballs {
        let json = package_json(tarball);
        assert_eq!(
            (json["name"].as_str(), json["version"].as_str()),
            (Some(name), Some(VERSION))
        );
        for (dependency, version) in json["optionalDependencies"]
            .as_object()
            .into_iter()
            .flatten()
        {
            assert_eq!(version, VERSION, "{name}'s {dependency}");
        }
        let (code, out, err) = machine.sh(
            &machine.root,
            &machine.root.join("nothing"),
            &format!(
                "npm publish --dry-run --access public '{}'",
                tarball.display()
            ),
        );
        assert_eq!(code, 0, "npm publish --dry-run {name}:\n{out}{err}");
        assert!(out.contains(&format!("+ {name}@{VERSION}")), "{out}{err}");
        assert!(
            err.lines()
                .any(|l| l.starts_with("npm notice") && l.ends_with(&format!(" {file}"))),
            "{name} does not ship {file}:\n{err}"
        );
        let warnings: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with("npm warn") && !l.contains("requires you to be logged in"))
            .collect();
        assert!(warnings.is_empty(), "npm publish --dry-run {name}:\n{err}");
    }

    let metadata = wheel_metadata(wheel);
    let field = |key: &str| {
        let values: Vec<&str> = metadata
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(values.len(), 1, "METADATA's {key}: {metadata:?}");
        values[0].to_owned()
    };
    let version: f64 = field("Metadata-Version").parse().unwrap();
    assert!(version >= 2.1, "Metadata-Version {version}");
    assert_eq!(field("Name"), "toolpath");
    assert_eq!(field("Version"), VERSION);
    assert!(!field("Summary").is_empty());
    assert!(field("Requires-Python").starts_with(">="));
    let file = wheel.file_name().unwrap().to_string_lossy();
    assert!(
        file.starts_with(&format!("{}-{}-", field("Name"), field("Version"))),
        "{file} is not named for its metadata"
    );
}

/// The quick start of packaging/README.md ("Install the built files")
/// whose first command begins with `first`, with `$DIST` and `$VERSION`
/// as this run built them.
fn quick_start_block(first: &str, dist: &Path) -> Vec<String> {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("packaging/README.md")).unwrap();
    let blocks: Vec<Vec<String>> = sh_blocks(&readme)
        .iter()
        .map(|b| commands(b))
        .filter(|c| c.first().is_some_and(|l| l.starts_with(first)))
        .map(|c| {
            c.iter()
                .map(|l| {
                    l.replace("$DIST", dist.to_str().unwrap())
                        .replace("$VERSION", VERSION)
                })
                .collect()
        })
        .collect();
    assert_eq!(
        blocks.len(),
        1,
        "packaging/README.md's quick start `{first}`"
    );
    let block = blocks.into_iter().next().unwrap();
    assert!(
        block.last().unwrap().contains("toolpath run --adapter"),
        "{block:?}"
    );
    block
}

#[test]
fn the_npm_and_pypi_packages_install_from_files_and_run_without_cargo() {
    let machine = machine();
    let wheel = std::fs::read_dir(&machine.dist)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.ends_with(".whl"))
        .expect("a wheel");
    assert!(
        wheel.starts_with(&format!("toolpath-{VERSION}-py3-none-"))
            && wheel.ends_with("_x86_64.whl"),
        "{wheel}"
    );
    let launcher = machine.built(&format!("toolpath-{VERSION}.tgz"));
    let platform = machine.built(&format!("toolpath-linux-x64-{VERSION}.tgz"));
    machine.built(&format!(
        "toolpath-{VERSION}-x86_64-unknown-linux-gnu.tar.gz"
    ));
    let nothing = machine.root.join("nothing");
    std::fs::create_dir_all(&nothing).unwrap();
    let clock = Instant::now();
    a_release_would_upload_these(
        &machine,
        &machine.dist.join(&wheel),
        &[
            (&platform, "@toolpath/linux-x64", "bin/toolpath"),
            (&launcher, "toolpath", "bin/toolpath.js"),
        ],
    );
    eprintln!(
        "what a release would upload, checked in {:.1} s",
        clock.elapsed().as_secs_f64()
    );
    for absent in ["cargo", "rustc", "toolpath"] {
        let (code, out, _) = machine.sh(&machine.root, &nothing, &format!("command -v {absent}"));
        assert_ne!(code, 0, "{absent} is on the test's PATH: {out}");
    }

    // npm: a fresh project; the launcher's optional dependency is met by
    // the platform package of the same version, installed beside it.
    let project = machine.root.join("node-project");
    std::fs::create_dir_all(&project).unwrap();
    let bin = project.join("node_modules/.bin");
    let (code, out, err) = machine.sh(&project, &bin, "npm init -y");
    assert_eq!(code, 0, "{out}{err}");
    let npm: Vec<String> = quick_start_block("npm install --save-dev ", &machine.dist)
        .iter()
        .map(|c| {
            c.replacen(
                "npm install --save-dev ",
                "npm install --save-dev --offline ",
                1,
            )
        })
        .collect();
    assert!(
        npm[0].contains(platform.to_str().unwrap()) && npm[0].contains(launcher.to_str().unwrap()),
        "both tarballs, in one install: {npm:?}"
    );
    let clock = Instant::now();
    let first = machine.quick_start(&project, &bin, &npm, "npm quick start");
    let npm_clock = clock.elapsed();
    machine.has_the_version(&project, &bin, "npx toolpath");
    machine.runs_the_suite(&project, &bin, "npx toolpath");
    let npm_binary = project.join("node_modules/@toolpath/linux-x64/bin/toolpath");

    // PyPI: a fresh virtual environment, activated as `PATH`.
    let venv = machine.root.join("venv");
    let (code, out, err) = machine.sh(
        &machine.root,
        &nothing,
        &format!("python3 -m venv {}", venv.display()),
    );
    assert_eq!(code, 0, "{out}{err}");
    let bin = venv.join("bin");
    let project = machine.root.join("python-project");
    std::fs::create_dir_all(&project).unwrap();
    let clock = Instant::now();
    let second = machine.quick_start(
        &project,
        &bin,
        &quick_start_block("pip install ", &machine.dist),
        "pip quick start",
    );
    let pip_clock = clock.elapsed();
    assert!(
        bin.join("toolpath").is_file(),
        "the wheel puts toolpath in the venv"
    );
    machine.has_the_version(&project, &bin, "toolpath");
    // The wheel's program is the npm package's, byte for byte (both are
    // the one binary scripts/package built), so the whole suite it passed
    // from npm above is not run a second time from the venv.
    assert!(
        std::fs::read(bin.join("toolpath")).unwrap() == std::fs::read(&npm_binary).unwrap(),
        "the venv's toolpath is not the npm package's binary"
    );
    the_action_uses_the_package_only_when_built_from_its_files(&machine, &platform);
    eprintln!(
        "newcomer's clock: npm {:.1} s, pip {:.1} s (install from the built package, new-adapter, \
         the skeleton's first run); those first human reports: node {} lines, python {} lines",
        npm_clock.as_secs_f64(),
        pip_clock.as_secs_f64(),
        first.lines().count(),
        second.lines().count()
    );
}

/// The composite action's install step (scripts/action.sh install) with
/// the registry standing in: `npm view` answers the built platform
/// package's `toolpathSource`, `npm install` installs its file offline, and
/// `cargo` says it would build. Built from these very files: the packaged
/// binary is installed, no cargo. From other files (a key the package does
/// not record): built from source.
fn the_action_uses_the_package_only_when_built_from_its_files(machine: &Machine, platform: &Path) {
    let shims = machine.root.join("action-shims");
    std::fs::create_dir_all(&shims).unwrap();
    let npm = real("npm");
    let script = |name: &str, text: String| {
        use std::os::unix::fs::PermissionsExt;
        let path = shims.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    script(
        "npm",
        format!(
            "#!/bin/sh\n\
             case \"$1\" in\n\
             view) [ \"$2\" = \"@toolpath/linux-x64@{VERSION}\" ] && [ \"$3\" = toolpathSource ] || exit 97\n\
               tar -xzOf '{platform}' package/package.json | node -e 'let t=\"\";process.stdin.on(\"data\",d=>t+=d).on(\"end\",()=>console.log(JSON.parse(t).toolpathSource))' ;;\n\
             install) shift; args=; for a in \"$@\"; do case \"$a\" in @toolpath/linux-x64@*) a='{platform}' ;; esac; args=\"$args '$a'\"; done\n\
               eval exec '{npm}' install --offline $args ;;\n\
             *) exit 97 ;;\n\
             esac\n",
            platform = platform.display(),
            npm = npm.display(),
        ),
    );
    script(
        "cargo",
        "#!/bin/sh\necho \"cargo: would build toolpath from source: $*\" >&2\nexit 42\n".into(),
    );
    let action = Path::new(ROOT).join("scripts/action.sh");
    let install = |action_path: &Path, root: &Path| {
        let github_path = machine.root.join("github-path");
        std::fs::write(&github_path, "").unwrap();
        let script = format!(
            "GITHUB_ACTION_PATH='{}' GITHUB_PATH='{}' TOOLPATH_INSTALL_ROOT='{}' bash '{}' install",
            action_path.display(),
            github_path.display(),
            root.display(),
            action.display()
        );
        machine.sh(&machine.root, &shims, &script)
    };
    let root = machine.root.join("action-root");
    let (code, out, err) = install(Path::new(ROOT), &root);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("installed the packaged toolpath {VERSION}")),
        "{out}{err}"
    );
    let (code, version, _) = machine.sh(&machine.root, &root.join("bin"), "toolpath --version");
    assert_eq!(
        (code, version.trim()),
        (0, format!("toolpath {VERSION}").as_str())
    );

    // Other files: the checkout's tracked files with one changed.
    let other = machine.root.join("other-checkout");
    let copied = Command::new("git")
        .args(["clone", "-q", "--no-hardlinks", ROOT])
        .arg(&other)
        .status()
        .unwrap();
    assert!(copied.success());
    std::fs::write(other.join("README.md"), "changed\n").unwrap();
    let (code, out, err) = install(&other, &machine.root.join("action-root-2"));
    assert_eq!(code, 42, "built from source:\n{out}{err}");
    assert!(
        err.contains("cargo: would build toolpath from source: install --locked"),
        "{err}"
    );
}

/// One version everywhere a release takes it from: the two crates of the
/// workspace and their lock entries are the suite version; the npm
/// packages' committed `package.json` files carry only the placeholder
/// `0.0.0`, which scripts/package replaces with that version (the test
/// above reads the version of what it built), and the wheel's comes from
/// Cargo.toml (`dynamic`); a version pinned in the docs is it too. And
/// each crate cargo would publish packages (`cargo package --list`),
/// with the case files and the spec its build script embeds. Fast: no
/// build.
#[test]
fn one_version_everywhere_and_the_crates_package() {
    let root = Path::new(ROOT);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(&cargo)
        .args([
            "metadata",
            "--offline",
            "--no-deps",
            "--format-version",
            "1",
        ])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo metadata: {out:?}");
    let metadata: Value = serde_json::from_slice(&out.stdout).unwrap();
    let crates = metadata["packages"].as_array().unwrap();
    assert_eq!(crates.len(), 2, "the workspace's crates: {crates:?}");
    let mut mismatches = Vec::new();
    let check = |mismatches: &mut Vec<String>, what: String, version: &str| {
        if version != VERSION {
            mismatches.push(format!("{what}: {version}"));
        }
    };
    for krate in crates {
        let name = krate["name"].as_str().unwrap();
        check(
            &mut mismatches,
            format!("crate {name}"),
            krate["version"].as_str().unwrap(),
        );
    }
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
    for entry in lock.split("[[package]]\n").skip(1) {
        let field = |key: &str| {
            entry
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key} = \"")))
                .map(|v| v.trim_end_matches('"'))
        };
        if field("source").is_none()
            && let (Some(name), Some(version)) = (field("name"), field("version"))
        {
            check(&mut mismatches, format!("Cargo.lock's {name}"), version);
        }
    }
    for package in ["toolpath", "linux-x64"] {
        let file = format!("packaging/npm/{package}/package.json");
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(root.join(&file)).unwrap()).unwrap();
        let mut versions = vec![(file.clone(), json["version"].as_str().unwrap().to_owned())];
        for (name, version) in json["optionalDependencies"]
            .as_object()
            .into_iter()
            .flatten()
        {
            versions.push((
                format!("{file}'s {name}"),
                version.as_str().unwrap().to_owned(),
            ));
        }
        for (what, version) in versions {
            if version != "0.0.0" {
                mismatches.push(format!(
                    "{what}: {version} (the placeholder 0.0.0, which scripts/package fills)"
                ));
            }
        }
    }
    let pyproject = std::fs::read_to_string(root.join("packaging/pypi/pyproject.toml")).unwrap();
    if !pyproject.lines().any(|l| l == "dynamic = [\"version\"]")
        || pyproject.lines().any(|l| l.starts_with("version"))
    {
        mismatches.push("packaging/pypi/pyproject.toml: a version of its own".to_owned());
    }
    let pinned = regex::Regex::new(r"toolpath==([0-9][0-9A-Za-z.+-]*)").unwrap();
    for doc in [
        "README.md",
        "docs/ci.md",
        "docs/mcp.md",
        "packaging/README.md",
    ] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        for pin in pinned.captures_iter(&text) {
            check(&mut mismatches, format!("{doc}'s pin"), &pin[1]);
        }
    }
    assert!(
        mismatches.is_empty(),
        "not the suite version {VERSION}:\n{}",
        mismatches.join("\n")
    );

    for krate in crates {
        let name = krate["name"].as_str().unwrap();
        if krate["publish"].as_array().is_some_and(Vec::is_empty) {
            continue; // `publish = false`: never uploaded
        }
        let out = Command::new(&cargo)
            .args([
                "package",
                "--list",
                "--offline",
                "--allow-dirty",
                "-p",
                name,
            ])
            .current_dir(root)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "cargo package --list -p {name}: {out:?}"
        );
        let files = String::from_utf8(out.stdout).unwrap();
        for needed in [
            "Cargo.toml",
            "Cargo.lock",
            "build.rs",
            "spec/README.md",
            "cases/",
        ] {
            assert!(
                files.lines().any(|f| f.starts_with(needed)),
                "the {name} crate would not ship {needed}"
            );
        }
        for never in ["target/", "packaging/venv/", "node_modules/", "dist/"] {
            assert!(
                !files
                    .lines()
                    .any(|f| f.starts_with(never) || f.contains(&format!("/{never}"))),
                "the {name} crate would ship {never}"
            );
        }
    }
}
