//! Symbolic links of the fixture: each target stays inside the fixture
//! directory, judged on its text alone ([`check_link_target`], which the
//! fixture builder asks again before it makes a link), no entry is created
//! at or below one of the fixture's own links (it would be written through
//! it), and no mode is set on one (chmod follows links).

use std::collections::BTreeSet;

use super::{FileProblems, Spans};
use crate::case::Fixture;
use crate::case::error::quote;
use crate::case::limits::PATH_BUDGET;
use crate::case::path::FixturePath;

/// Every check of the fixture's links; `workspace` is its roots and target.
pub fn check(findings: &mut FileProblems, f: &Fixture, workspace: &[FixturePath], spans: &Spans) {
    let everything = workspace
        .iter()
        .chain(f.created())
        .chain(f.modes.iter().map(|(p, _)| p));
    let mut reported = BTreeSet::new();
    for path in everything {
        for (link, _) in &f.symlinks {
            if path != link && path.is_within(link) && reported.insert(path) {
                findings.error(
                    spans.of(path),
                    format!(
                        "fixture: `{}` would be written through the symbolic link `{}`",
                        quote(path.as_str()),
                        quote(link.as_str())
                    ),
                );
            }
        }
    }
    for (link, _) in f
        .symlinks
        .iter()
        .filter(|(l, _)| f.modes.iter().any(|(m, _)| m == l))
    {
        findings.error(
            spans.of(link),
            format!(
                "fixture: a mode on the symbolic link `{}` would change its target (chmod follows links)",
                quote(link.as_str())
            ),
        );
    }
    let links: BTreeSet<&str> = f.symlinks.iter().map(|(l, _)| l.as_str()).collect();
    for (link, target) in &f.symlinks {
        if let Err(message) = check_link_target(link, target, &links) {
            findings.error(
                spans.of(link),
                format!("fixture.symlinks: `{}`: {message}", quote(link.as_str())),
            );
        }
    }
}

/// A link target must lead to a place inside the fixture directory, decided
/// on the text alone (lexically), so that no case can make the harness, which
/// may be root, read `/etc` or `/proc` through a link.
///
/// Allowed: a relative target whose `..` segments never climb above the
/// fixture directory (`../outside` from `ws/x`), and an absolute target
/// written `{tmp}/...` (the builder puts the fixture directory there). A
/// `..` after a segment that is itself one of the fixture's links is refused:
/// the kernel would climb from wherever that link leads, not from where it
/// is written, so lexical containment would no longer hold.
pub fn check_link_target(
    link: &FixturePath,
    target: &str,
    links: &BTreeSet<&str>,
) -> Result<(), String> {
    if target.is_empty() {
        return Err("the target is empty".into());
    }
    if target.len() > PATH_BUDGET {
        return Err(format!(
            "the target `{}` is {} bytes long; a link target is at most {PATH_BUDGET} bytes, as a fixture path",
            quote(target),
            target.len()
        ));
    }
    if target.contains('\0') {
        return Err(format!(
            "the target `{}` contains a NUL byte",
            quote(target)
        ));
    }
    let (start, rest) = if let Some(rest) = target.strip_prefix("{tmp}") {
        if !(rest.is_empty() || rest.starts_with('/')) {
            return Err(format!(
                "the target `{}`: `{{tmp}}` must be followed by `/` or nothing",
                quote(target)
            ));
        }
        ("", rest)
    } else if target.starts_with('/') {
        return Err(format!(
            "the target `{}` is outside the fixture directory; an absolute target is written `{{tmp}}/...`",
            quote(target)
        ));
    } else {
        (
            link.as_str().rsplit_once('/').map_or("", |(p, _)| p),
            target,
        )
    };
    // Where the walk is, as a fixture path, with the length before each
    // segment so `..` is a truncation (linear in the target's length).
    let mut at = String::from(start);
    let mut lengths: Vec<usize> = start.match_indices('/').map(|(i, _)| i).collect();
    if !start.is_empty() {
        lengths.insert(0, 0);
    }
    let mut through: Option<String> = None;
    for segment in rest.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if let Some(other) = &through {
                    return Err(format!(
                        "the target `{}` climbs with `..` after the fixture's link `{other}`, from wherever that leads",
                        quote(target)
                    ));
                }
                let Some(len) = lengths.pop() else {
                    return Err(format!(
                        "the target `{}` climbs out of the fixture directory",
                        quote(target)
                    ));
                };
                at.truncate(len);
            }
            name => {
                lengths.push(at.len());
                if !at.is_empty() {
                    at.push('/');
                }
                at.push_str(name);
                if through.is_none() && links.contains(at.as_str()) {
                    through = Some(at.clone());
                }
            }
        }
    }
    Ok(())
}
