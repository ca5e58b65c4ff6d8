//! toolpath used the way another project's CI uses it: one binary, copied
//! into a directory of its own and run from a directory that is not this
//! checkout, with the suite embedded in it. Against the Python port, against
//! fresh `new-adapter` skeletons, and through `export`. And the npm
//! package's launcher, run by node from where npm puts it: it runs the
//! binary npm installed beside it, and nothing else.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

struct Installed {
    _dir: tempfile::TempDir,
    bin: PathBuf,
    work: PathBuf,
}

/// The built binary, alone in `TMP/bin`, with a working directory `TMP/work`.
///
/// A hard link where possible, else a copy made by `cp` in a process of its
/// own: a copy written by this process is a file open for writing, and a
/// process forked by a parallel test meanwhile inherits that descriptor
/// until it execs, which makes executing the copy fail with ETXTBSY. A
/// `cp` that has exited holds nothing open, so no retry (and no sleep) is
/// needed.
fn install() -> Installed {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin/toolpath");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    let built = env!("CARGO_BIN_EXE_toolpath");
    if std::fs::hard_link(built, &bin).is_err() {
        let copied = Command::new("cp").arg(built).arg(&bin).status().unwrap();
        assert!(copied.success(), "cp {built}: {copied}");
    }
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    Installed {
        _dir: dir,
        bin,
        work,
    }
}

impl Installed {
    fn run(&self, cwd: &Path, args: &[&str]) -> Output {
        Command::new(&self.bin)
            .current_dir(cwd)
            .args(args)
            .env_remove("TOOLPATH_BIN")
            .output()
            .unwrap()
    }

    fn report(&self, cwd: &Path, args: &[&str]) -> (i32, Value) {
        let out = self.run(cwd, &[&["run", "--format", "json"], args].concat());
        let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("no report ({e}): {}", String::from_utf8_lossy(&out.stderr))
        });
        (out.status.code().unwrap(), report)
    }
}

fn count(report: &Value, status: &str) -> u64 {
    report["summary"][status].as_u64().unwrap()
}

#[test]
fn the_installed_binary_certifies_the_python_port_from_elsewhere() {
    let installed = install();
    let adapter = Path::new(env!("CARGO_MANIFEST_DIR")).join("runners/python/adapter.py");
    let (code, report) = installed.report(
        &installed.work,
        &["--adapter", &format!("python3 '{}'", adapter.display())],
    );
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["suite"], env!("CARGO_PKG_VERSION"));
    assert_eq!(report["implementation"]["language"], "python");
    // Every instance of the embedded suite, no more, no fewer.
    let (cases, errors) = toolpath::case::embedded::load_embedded();
    assert!(errors.is_empty(), "{errors:?}");
    let instances = cases.iter().map(|c| c.instances().count()).sum::<usize>();
    assert_eq!(count(&report, "total"), instances as u64);
    assert_eq!(count(&report, "pass"), count(&report, "total"));
}

#[test]
fn fresh_skeletons_run_at_once_and_fail_honestly() {
    let installed = install();
    for (lang, command) in [
        ("python", "python3 adapter.py"),
        ("node", "node adapter.mjs"),
    ] {
        let dir = installed.work.join(format!("my-{lang}-adapter"));
        let out = installed.run(
            &installed.work,
            &["new-adapter", "--lang", lang, dir.to_str().unwrap()],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (code, report) = installed.report(&dir, &["--adapter", command]);
        assert_eq!(code, 1, "{lang}: a skeleton is not conforming");
        assert!(
            count(&report, "pass") > 0,
            "{lang}: the wired resolve passes some cases"
        );
        assert!(
            count(&report, "fail") > 100,
            "{lang}: the naive resolve fails what it does not check"
        );
        // Issue 44: it declares only what it implements, so no case of
        // another tool is sent and no failure is its TODO.
        let cases = report["cases"].as_array().unwrap();
        for case in cases {
            let sent = !["unsupported", "skip"].contains(&case["status"].as_str().unwrap());
            assert!(
                !sent || case["tool"] == "resolve",
                "{lang}: {} was sent",
                case["id"]
            );
            assert!(
                !case.to_string().contains("not implemented"),
                "{lang}: {case}"
            );
        }
        assert_eq!(
            count(&report, "adapter_error"),
            0,
            "{lang}: the skeleton never crashes"
        );
        let again = installed.run(
            &installed.work,
            &["new-adapter", "--lang", lang, dir.to_str().unwrap()],
        );
        assert_eq!(again.status.code(), Some(2), "{lang}: it never overwrites");
    }
}

#[test]
fn export_writes_the_suite_that_runs_as_a_case_directory() {
    let installed = install();
    let out = installed.run(&installed.work, &["export", "suite"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let suite = installed.work.join("suite");
    assert_eq!(
        std::fs::read_to_string(suite.join("VERSION"))
            .unwrap()
            .trim(),
        env!("CARGO_PKG_VERSION")
    );
    for file in [
        "spec/README.md",
        "spec/protocol.md",
        "spec/case.schema.json",
        "spec/schemas/adapter-message.schema.json",
    ] {
        assert!(suite.join(file).is_file(), "{file} missing");
    }
    let (_, embedded) = installed.report(&installed.work, &[]);
    let (code, exported) = installed.report(&installed.work, &["--cases", "suite/cases"]);
    assert_eq!(code, 0);
    assert_eq!(
        embedded["summary"], exported["summary"],
        "the exported cases are the embedded ones"
    );
    let lint = installed.run(&installed.work, &["lint"]);
    assert!(lint.status.success());
}

/// A `toolpath` binary of the platform package at `node_modules` (a
/// script saying it ran, and with what), mode `mode`.
fn platform_package(node_modules: &Path, mode: u32, says: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let package = node_modules.join("@toolpath/linux-x64");
    std::fs::create_dir_all(package.join("bin")).unwrap();
    std::fs::write(
        package.join("package.json"),
        r#"{"name": "@toolpath/linux-x64", "version": "0.0.0"}"#,
    )
    .unwrap();
    let binary = package.join("bin/toolpath");
    std::fs::write(&binary, format!("#!/bin/sh\necho \"{says} $*\"\n")).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(mode)).unwrap();
    binary
}

/// The launcher package as npm installs it into `project`
/// (`node_modules/toolpath`, linked from `node_modules/.bin`), without
/// its platform package; `node_modules/.bin/toolpath`.
fn npm_launcher(project: &Path) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/npm/toolpath");
    let package = project.join("node_modules/toolpath");
    std::fs::create_dir_all(package.join("bin")).unwrap();
    for file in ["package.json", "bin/toolpath.js"] {
        std::fs::copy(source.join(file), package.join(file)).unwrap();
    }
    let bin = project.join("node_modules/.bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink("../toolpath/bin/toolpath.js", bin.join("toolpath")).unwrap();
    bin.join("toolpath")
}

/// `node LAUNCHER ARGS` from `cwd`: (exit code, stdout, stderr).
fn node(cwd: &Path, launcher: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new("node")
        .arg(launcher)
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("node 18 or newer on PATH");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 41: the launcher found its platform package with
/// `require.resolve`, which searches the `node_modules` of every directory
/// above it: with the package absent (`--omit=optional`), it ran whatever
/// `@toolpath/linux-x64` anyone had planted in a `node_modules` further
/// up (`/tmp`, a shared home), as whoever ran `npx toolpath`, root too. It
/// runs only a package npm put beside it: in its own `node_modules`
/// (nested, as a global install does) or in the `node_modules` it is in
/// itself (hoisted, as a project's install does), and only a regular file
/// owned by its installer or root that no other user may write. Missing,
/// it names the two ways to get a binary that work for this project.
#[test]
fn the_npm_launcher_runs_only_the_binary_installed_beside_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let planted = platform_package(&dir.path().join("node_modules"), 0o755, "planted");
    let project = dir.path().join("project");
    let launcher = npm_launcher(&project);

    let (code, out, err) = node(&project, &launcher, &["--version"]);
    assert!(
        !out.contains("planted"),
        "it ran {}: {out}",
        planted.display()
    );
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("@toolpath/linux-x64, which carries the binary, is not installed")
            && err.contains("install toolpath again without --omit=optional")
            && err.contains("cargo install --locked --path ."),
        "{err}"
    );

    // Hoisted: beside the launcher's package, in the same node_modules.
    let hoisted = platform_package(&project.join("node_modules"), 0o755, "hoisted");
    let (code, out, err) = node(&project, &launcher, &["--version"]);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "hoisted --version\n"),
        "{err}"
    );

    // One any user may write is refused, naming it.
    std::fs::set_permissions(&hoisted, std::fs::Permissions::from_mode(0o757)).unwrap();
    let (code, out, err) = node(&project, &launcher, &["--version"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains(&format!("{} is writable by other users", hoisted.display())),
        "{err}"
    );
    std::fs::set_permissions(&hoisted, std::fs::Permissions::from_mode(0o755)).unwrap();

    // So is one owned by another user (only root can make one here).
    if toolpath::sys::is_root() {
        std::os::unix::fs::chown(&hoisted, Some(65534), None).unwrap();
        let (code, out, err) = node(&project, &launcher, &["--version"]);
        assert_eq!(code, Some(2), "{out}{err}");
        assert!(
            err.contains(&format!("{} is owned by uid 65534", hoisted.display())),
            "{err}"
        );
    }

    // Nested: in the launcher package's own node_modules, the nearer one.
    let nested = project.join("node_modules/toolpath/node_modules");
    platform_package(&nested, 0o755, "nested");
    let (code, out, err) = node(&project, &launcher, &["run", "--jobs", "1"]);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "nested run --jobs 1\n"),
        "{err}"
    );
}
