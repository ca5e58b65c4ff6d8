//! Only the `git:` form of a fixture may make a git repository.
//!
//! A repository's config can run commands: `core.fsmonitor` runs on `git
//! status`, `git grep` or `git ls-files` in it, and hooks on `git commit`.
//! A tool under test may well run git in the fixture (`git grep` is how some
//! agents search), and the harness may be root. So a case file, which comes
//! from strangers, may not make anything git would take for a repository;
//! `fixture.git` makes real ones, with the harness's own `git init` and no
//! template, config or hooks of the case's choosing. Refused, each where it
//! is written:
//!
//! - any fixture path with a segment named `.git` (in any letter case, for
//!   file systems that fold it): a `.git` directory, a `.git` file (whose
//!   `gitdir:` line points git elsewhere), a link, a pipe, anything, and
//!   anything inside one;
//! - a symbolic link whose target text has a `.git` segment;
//! - a directory that would hold `HEAD` beside any of `objects`, `refs`,
//!   `commondir` or `gitdir`, whatever each of them is (git's
//!   `is_git_directory` takes `HEAD` with `objects` and `refs` that it can
//!   enter, so a `refs` *file* with an execute bit will do, or `HEAD` with a
//!   `commondir` naming such a pair elsewhere; refusing `HEAD` beside any
//!   of the four leaves no combination to find): the shape of a bare
//!   repository or of a worktree's administrative directory, which git
//!   finds without any `.git` above it. The names of links count like any
//!   other entry's, and so do directories a path only implies.
//!
//! And the `git:` form itself names roots, or directories holding roots.

use std::collections::{BTreeMap, BTreeSet};

use serde_saphyr::Location;

use super::{FileProblems, Spans};
use crate::case::Fixture;
use crate::case::error::quote;
use crate::case::path::FixturePath;

/// The name git looks for when it walks up from a directory.
const DOT_GIT: &str = ".git";

/// The entries that make a directory holding `HEAD` a repository to git.
const BESIDE_HEAD: &[&str] = &["objects", "refs", "commondir", "gitdir"];

/// `git` is the fixture's `git:` entries, each with where it was written.
pub fn check(
    findings: &mut FileProblems,
    f: &Fixture,
    git: &[(FixturePath, Location)],
    spans: &Spans,
) {
    for (path, at) in git {
        if !f.roots.iter().any(|root| root.is_within(path)) {
            findings.error(
                *at,
                format!(
                    "fixture.git: `{}` is neither a root nor holds one",
                    quote(path.as_str())
                ),
            );
        }
    }
    dot_git_paths(findings, f, spans);
    dot_git_targets(findings, f, spans);
    repository_shapes(findings, f, spans);
}

fn is_dot_git(name: &str) -> bool {
    name.eq_ignore_ascii_case(DOT_GIT)
}

/// Whether git gives the file name `name` a meaning of its own: `.git`,
/// `HEAD` or a name that beside `HEAD` makes a repository (in any letter
/// case). For names that reach a fixture from elsewhere than a case (an
/// implementation's own ignore files, `hello`'s `ignore_files`): one of
/// these is refused, so no repository is made that way either.
pub fn git_gives_meaning(name: &str) -> bool {
    is_dot_git(name)
        || name.eq_ignore_ascii_case("HEAD")
        || BESIDE_HEAD.iter().any(|n| name.eq_ignore_ascii_case(n))
}

/// Every path the fixture names, with the field it is in.
fn every_path(f: &Fixture) -> impl Iterator<Item = &FixturePath> {
    f.roots
        .iter()
        .chain(std::iter::once(&f.target))
        .chain(f.created())
        .chain(f.modes.iter().map(|(p, _)| p))
        .chain(&f.git)
        .chain(f.own_ignore_files.iter().map(|(p, _)| p))
}

fn dot_git_paths(findings: &mut FileProblems, f: &Fixture, spans: &Spans) {
    let mut reported = BTreeSet::new();
    for path in every_path(f) {
        let Some(at) = path.as_str().split('/').position(is_dot_git) else {
            continue;
        };
        if !reported.insert(path) {
            continue;
        }
        let last = path.as_str().split('/').count() - 1;
        let what = if at == last {
            "is named `.git`"
        } else {
            "is inside a `.git` directory, which git itself writes"
        };
        findings.error(
            spans.of(path),
            format!(
                "fixture: `{}` {what}; only `fixture.git` may make a repository (git would run the config of one a case planted)",
                quote(path.as_str())
            ),
        );
    }
}

fn dot_git_targets(findings: &mut FileProblems, f: &Fixture, spans: &Spans) {
    for (link, target) in &f.symlinks {
        if target.split('/').any(is_dot_git) {
            findings.error(
                spans.of(link),
                format!(
                    "fixture.symlinks: `{}`: the target `{}` leads into a `.git`; only `fixture.git` may make a repository, and a link into one would make another",
                    quote(link.as_str()),
                    quote(target)
                ),
            );
        }
    }
}

/// Directories shaped like a repository (see the module docs), each
/// refused once, where the path that puts `HEAD` in it is written.
fn repository_shapes(findings: &mut FileProblems, f: &Fixture, spans: &Spans) {
    // Directory -> (lower-case name -> the first path that puts it there).
    let mut children: BTreeMap<&str, BTreeMap<String, &FixturePath>> = BTreeMap::new();
    for path in f
        .roots
        .iter()
        .chain(std::iter::once(&f.target))
        .chain(f.created())
        .chain(f.own_ignore_files.iter().map(|(p, _)| p))
    {
        let text = path.as_str();
        // The path itself and every directory it implies.
        let ends = text
            .match_indices('/')
            .map(|(i, _)| i)
            .chain(std::iter::once(text.len()));
        let mut start = 0;
        for end in ends {
            let parent = if start == 0 { "" } else { &text[..start - 1] };
            let name = text[start..end].to_ascii_lowercase();
            children
                .entry(parent)
                .or_default()
                .entry(name)
                .or_insert(path);
            start = end + 1;
        }
    }
    for (dir, names) in &children {
        let Some(head) = names.get("head") else {
            continue;
        };
        let beside: Vec<&str> = BESIDE_HEAD
            .iter()
            .copied()
            .filter(|n| names.contains_key(*n))
            .collect();
        if beside.is_empty() {
            continue;
        }
        let place = if dir.is_empty() {
            "the fixture directory".to_owned()
        } else {
            format!("`{}`", quote(dir))
        };
        findings.error(
            spans.of(head),
            format!(
                "fixture: {place} would hold `HEAD` beside `{}`, which git takes for a repository; only `fixture.git` may make one (git would run the config of one a case planted)",
                beside.join("`, `")
            ),
        );
    }
}
