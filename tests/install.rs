//! toolpath used the way another project's CI uses it: one binary, copied
//! into a directory of its own and run from a directory that is not this
//! checkout, with the suite embedded in it. Against the Python port, against
//! fresh `new-adapter` skeletons, and through `export`.

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
            "{lang}: unimplemented tools fail their cases"
        );
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
