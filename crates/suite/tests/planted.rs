//! The attacker's case files of issue 21, item 1 (`tests/data/hostile/
//! planted-*.yaml`): each plants something git would take for a repository,
//! with a config whose `core.fsmonitor` runs a command on `git status`,
//! `git grep` or `git ls-files`. Before the repository rule all five passed
//! `toolpath lint`; each must now be refused where the planting is written.

use std::path::Path;

use toolpath_suite::case::load::load_file;

fn errors_of(name: &str) -> Vec<String> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/hostile")
        .join(name);
    let errors = load_file(&file).expect_err("an attacker's case must be refused");
    errors
        .iter()
        .map(|e| {
            // Located in the file, shown from its name on.
            let shown = e.to_string();
            shown[shown.find(name).expect("names the file")..].to_owned()
        })
        .collect()
}

fn assert_has(errors: &[String], expected: &str) {
    assert!(
        errors.iter().any(|e| e.starts_with(expected)),
        "missing {expected:?} in\n{}",
        errors.join("\n")
    );
}

#[test]
fn a_planted_dot_git_without_a_git_fixture_is_refused() {
    let errors = errors_of("planted-dot-git.yaml");
    assert_has(
        &errors,
        "planted-dot-git.yaml:8:5: fixture: `ws/.git/HEAD` is inside a `.git` directory",
    );
    assert_has(
        &errors,
        "planted-dot-git.yaml:9:5: fixture: `ws/.git/config` is inside a `.git` directory",
    );
    assert_has(
        &errors,
        "planted-dot-git.yaml:10:10: fixture: `ws/.git/objects` is inside a `.git` directory",
    );
    assert_has(
        &errors,
        "planted-dot-git.yaml:8:5: fixture: `ws/.git` would hold `HEAD` beside `objects`, `refs`",
    );
}

#[test]
fn a_bare_repository_shape_inside_a_git_fixture_is_refused() {
    let errors = errors_of("planted-bare.yaml");
    assert_eq!(
        errors,
        [
            "planted-bare.yaml:9:5: fixture: `ws/sub` would hold `HEAD` beside `objects`, `refs`, which git takes for a repository; only `fixture.git` may make one (git would run the config of one a case planted)"
        ]
    );
}

#[test]
fn a_worktree_shape_with_a_commondir_is_refused() {
    let errors = errors_of("planted-commondir.yaml");
    assert_eq!(
        errors,
        [
            "planted-commondir.yaml:8:5: fixture: `ws/wt` would hold `HEAD` beside `commondir`, which git takes for a repository; only `fixture.git` may make one (git would run the config of one a case planted)"
        ]
    );
}

#[test]
fn links_named_dot_git_or_leading_into_one_are_refused() {
    let errors = errors_of("planted-link.yaml");
    assert_has(
        &errors,
        "planted-link.yaml:10:14: fixture: `ws/.git` is named `.git`",
    );
    assert_has(
        &errors,
        "planted-link.yaml:10:35: fixture.symlinks: `ws/sub`: the target `../elsewhere/.git` leads into a `.git`",
    );
}

#[test]
fn a_dot_git_file_pointing_elsewhere_is_refused() {
    let errors = errors_of("planted-gitfile.yaml");
    assert_has(
        &errors,
        "planted-gitfile.yaml:8:5: fixture: `ws/.git` is named `.git`",
    );
    assert_has(
        &errors,
        "planted-gitfile.yaml:9:5: fixture: `outside` would hold `HEAD` beside `objects`, `refs`",
    );
}
