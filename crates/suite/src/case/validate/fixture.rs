//! The fixture: every path safe to join and within the platform's limits
//! ([`FixturePath`]), file contents decoded, modes that are permission bits
//! only, no list with a repeat, no path created twice, and a shape that can
//! be built (an entry that is not a directory is neither a root nor a
//! parent). Links and repositories have modules of their own, which check
//! the [`Checked`] fixture this one returns.

use std::collections::{BTreeMap, BTreeSet};

use serde_saphyr::{Location, Spanned};

use super::{FileProblems, Spans, spanned};
use crate::case::Fixture;
use crate::case::error::quote;
use crate::case::generate::{Generated, parse_size};
use crate::case::limits::{MAX_GENERATED_TOTAL, SNAPSHOT_DEPTH};
use crate::case::path::FixturePath;
use crate::case::raw::{Feature, FileContent, RawFixture, RawGenerate, SpannedMap};

/// The features the fixture needs, read from what the file lists (an entry
/// refused for its path still says the case uses links or pipes).
pub fn features_used(raw: &RawFixture) -> BTreeSet<Feature> {
    [
        (Feature::Symlinks, !raw.symlinks.0.is_empty()),
        (Feature::Fifos, !raw.fifos.is_empty()),
        (Feature::Sockets, !raw.sockets.is_empty()),
        (Feature::Devices, !raw.devices.is_empty()),
        (Feature::Permissions, !raw.modes.0.is_empty()),
        (Feature::Git, !raw.git.is_empty()),
    ]
    .into_iter()
    .filter_map(|(feature, used)| used.then_some(feature))
    .collect()
}

/// A fixture as far as it is valid, and where its paths were written.
pub struct Checked {
    /// Only the valid paths, each once.
    pub fixture: Fixture,
    pub spans: Spans,
    /// The roots and the target, when the file gives a valid one.
    pub workspace: Vec<FixturePath>,
    /// The `git:` entries, each where it was written.
    pub git: Vec<(FixturePath, Location)>,
}

/// Validates the fixture's own parts (see the module docs).
pub fn check(findings: &mut FileProblems, raw: RawFixture, id_at: Location) -> Checked {
    let mut spans = Spans::new(id_at);
    let roots = roots(findings, &mut spans, &raw.roots, id_at);
    let target = target(findings, &mut spans, raw.target.as_ref(), &roots);
    let (files, generated) = files(findings, &mut spans, raw.files);
    let mut symlinks = Vec::new();
    for (key, target) in raw.symlinks.0 {
        if let Some(link) = path(findings, &mut spans, "fixture.symlinks", &key) {
            symlinks.push((link, target));
        }
    }
    let modes = modes(findings, &mut spans, raw.modes);
    let dirs = list(findings, &mut spans, "fixture.dirs", &raw.dirs);
    let fifos = list(findings, &mut spans, "fixture.fifos", &raw.fifos);
    let sockets = list(findings, &mut spans, "fixture.sockets", &raw.sockets);
    let devices = list(findings, &mut spans, "fixture.devices", &raw.devices);
    let (own_ignore_files, own_at) = own_ignore_files(findings, &mut spans, raw.own_ignore_files);
    // Parsed last, as before: a path also written elsewhere is located here.
    let git: Vec<(FixturePath, Location)> = raw
        .git
        .iter()
        .filter_map(|g| Some((path(findings, &mut spans, "fixture.git", g)?, g.referenced)))
        .collect();
    findings.repeats("fixture.git", spanned(&raw.git), "");
    let untracked = untracked(findings, &raw.untracked, &files, &git);
    let fixture = Fixture {
        roots,
        target: target.clone().unwrap_or_default(),
        files,
        generated,
        dirs,
        symlinks,
        fifos,
        sockets,
        devices,
        modes,
        git: dedup(git.iter().map(|(p, _)| p.clone()).collect()),
        untracked,
        own_ignore_files,
    };
    created_once(findings, &fixture, &spans);
    own_ignore_dirs(findings, &fixture, &own_at);
    let workspace: Vec<FixturePath> = fixture.roots.iter().chain(&target).cloned().collect();
    buildable(findings, &fixture, &workspace, &spans);
    within_snapshot(findings, &fixture, &workspace, &spans);
    Checked {
        fixture,
        spans,
        workspace,
        git,
    }
}

/// The workspace's roots: at least one, and none named as a placeholder
/// is (a root `tmp` would make `{tmp}` mean two directories).
fn roots(
    findings: &mut FileProblems,
    spans: &mut Spans,
    raw: &[Spanned<String>],
    id_at: Location,
) -> Vec<FixturePath> {
    let roots = list(findings, spans, "fixture.roots", raw);
    for clash in raw
        .iter()
        .filter(|r| crate::placeholders::RESERVED.contains(&r.value.as_str()))
    {
        findings.error(
            clash.referenced,
            format!(
                "fixture.roots: a root named `{}` would make the placeholder `{{{}}}` mean two directories; rename the root",
                clash.value, clash.value
            ),
        );
    }
    if raw.is_empty() {
        findings.error(id_at, "fixture.roots: a workspace needs at least one root");
    }
    roots
}

/// The tool's target directory: the one given, which must be a root or
/// below one, else the first root. `None` when the file gives none that
/// is valid and has no root either: later checks then leave the target
/// out rather than invent one.
fn target(
    findings: &mut FileProblems,
    spans: &mut Spans,
    raw: Option<&Spanned<String>>,
    roots: &[FixturePath],
) -> Option<FixturePath> {
    let Some(t) = raw else {
        return roots.first().cloned();
    };
    path(findings, spans, "fixture.target", t).inspect(|target| {
        if !roots.is_empty() && !roots.iter().any(|r| target.is_within(r)) {
            findings.error(
                t.referenced,
                format!(
                    "fixture.target: `{}` is not a root or below one",
                    quote(target.as_str())
                ),
            );
        }
    })
}

/// The files with their bytes, and the generated ones by their
/// description, whose sizes together are bounded
/// ([`MAX_GENERATED_TOTAL`]): a case file a few lines long must not make
/// a build write gigabytes.
#[allow(
    clippy::type_complexity,
    reason = "the two lists as Fixture holds them, which check moves there"
)]
fn files(
    findings: &mut FileProblems,
    spans: &mut Spans,
    raw: SpannedMap<FileContent>,
) -> (Vec<(FixturePath, Vec<u8>)>, Vec<(FixturePath, Generated)>) {
    let mut files = Vec::new();
    let mut generated = Vec::new();
    let mut generated_total = 0u64;
    for (key, content) in raw.0 {
        let Some(file) = path(findings, spans, "fixture.files", &key) else {
            continue;
        };
        let generate = match content {
            FileContent::Generate { generate } => generate,
            other => {
                match other.into_bytes() {
                    Ok(bytes) => files.push((file, bytes)),
                    Err(e) => findings.error(
                        key.referenced,
                        format!("fixture.files: `{}`: {e}", quote(file.as_str())),
                    ),
                }
                continue;
            }
        };
        match generated_file(&generate) {
            Ok(g) => {
                generated_total += g.size;
                if generated_total > MAX_GENERATED_TOTAL {
                    findings.error(
                        generate.size.referenced,
                        format!(
                            "fixture.files: `{}`: the generated files of this fixture hold more than {MAX_GENERATED_TOTAL} bytes together (16 MiB)",
                            quote(file.as_str())
                        ),
                    );
                }
                generated.push((file, g));
            }
            Err((at, message)) => findings.error(
                at,
                format!("fixture.files: `{}`: {message}", quote(file.as_str())),
            ),
        }
    }
    (files, generated)
}

/// The modes to set, each on a valid path and of permission bits only.
fn modes(
    findings: &mut FileProblems,
    spans: &mut Spans,
    raw: SpannedMap<String>,
) -> Vec<(FixturePath, u32)> {
    let mut modes = Vec::new();
    for (key, mode_text) in raw.0 {
        let file = path(findings, spans, "fixture.modes", &key);
        let bits = mode(findings, key.referenced, &mode_text);
        if let (Some(file), Some(bits)) = (file, bits) {
            modes.push((file, bits));
        }
    }
    modes
}

/// The directories that get the subject's own ignore files, with their
/// text, and where each was written (for [`own_ignore_dirs`]). Recorded
/// in the spans only where nothing else wrote the path: an error about
/// an entry at the same path points at the entry.
#[allow(
    clippy::type_complexity,
    reason = "Fixture's list, and where each was written beside it"
)]
fn own_ignore_files(
    findings: &mut FileProblems,
    spans: &mut Spans,
    raw: SpannedMap<String>,
) -> (Vec<(FixturePath, String)>, Vec<(FixturePath, Location)>) {
    let mut own_ignore_files = Vec::new();
    let mut own_at = Vec::new();
    for (key, text) in raw.0 {
        match FixturePath::parse(&key.value) {
            Ok(dir) => {
                spans.wrote_unless_written(&dir, key.referenced);
                own_at.push((dir.clone(), key.referenced));
                own_ignore_files.push((dir, text));
            }
            Err(e) => findings.error(key.referenced, format!("fixture.own_ignore_files: {e}")),
        }
    }
    (own_ignore_files, own_at)
}

/// `untracked`: each a file the fixture writes (as text or base64), below a
/// directory `git` makes a repository, given once: a repository's commit
/// leaves it out, so a backend that searches tracked files only misses it.
fn untracked(
    findings: &mut FileProblems,
    raw: &[Spanned<String>],
    files: &[(FixturePath, Vec<u8>)],
    git: &[(FixturePath, Location)],
) -> Vec<FixturePath> {
    findings.repeats("fixture.untracked", spanned(raw), "");
    let mut out = Vec::new();
    for item in raw {
        // Not recorded in the spans: the file is located where `files` has it.
        let file = match FixturePath::parse(&item.value) {
            Ok(file) => file,
            Err(e) => {
                findings.error(item.referenced, format!("fixture.untracked: {e}"));
                continue;
            }
        };
        if !files.iter().any(|(f, _)| f == &file) {
            findings.error(
                item.referenced,
                format!(
                    "fixture.untracked: `{}` is not one of `fixture.files`",
                    quote(file.as_str())
                ),
            );
        } else if !git
            .iter()
            .any(|(repo, _)| file.is_within(repo) && &file != repo)
        {
            findings.error(
                item.referenced,
                format!(
                    "fixture.untracked: `{}` is in no `fixture.git` repository",
                    quote(file.as_str())
                ),
            );
        } else if !out.contains(&file) {
            out.push(file);
        }
    }
    out
}

/// A generated file's description, checked: a size within the limit, a
/// fill to repeat, and runs that lie within the file and do not overlap.
/// A refusal carries the location of the value it is about.
fn generated_file(raw: &RawGenerate) -> Result<Generated, (Location, String)> {
    let size = parse_size(&raw.size.value.text())
        .map_err(|m| (raw.size.referenced, format!("generate.size: {m}")))?;
    if raw.fill.value.is_empty() {
        return Err((
            raw.fill.referenced,
            "generate.fill: empty; give the text to repeat (\"a\\n\")".into(),
        ));
    }
    let mut at = Vec::new();
    for (offset, text) in &raw.at.0 {
        let start = parse_size(&offset.value.text())
            .map_err(|m| (offset.referenced, format!("generate.at: {m}")))?;
        let end = start + text.len() as u64;
        if end > size {
            return Err((
                offset.referenced,
                format!("generate.at: the run at {start} ends at {end}, past the size {size}"),
            ));
        }
        at.push((start, text.clone().into_bytes(), offset.referenced));
    }
    at.sort_by_key(|(start, _, _)| *start);
    if let Some(w) = at
        .windows(2)
        .find(|w| w[0].0 + w[0].1.len() as u64 > w[1].0)
    {
        return Err((
            w[1].2,
            format!("generate.at: the runs at {} and {} overlap", w[0].0, w[1].0),
        ));
    }
    Ok(Generated {
        size,
        fill: raw.fill.value.clone().into_bytes(),
        at: at
            .into_iter()
            .map(|(start, bytes, _)| (start, bytes))
            .collect(),
    })
}

/// One fixture path, recorded where it was written; `None` (and an error)
/// when it is not a valid [`FixturePath`].
fn path(
    findings: &mut FileProblems,
    spans: &mut Spans,
    field: &str,
    spanned: &Spanned<String>,
) -> Option<FixturePath> {
    match FixturePath::parse(&spanned.value) {
        Ok(path) => {
            spans.wrote(&path, spanned.referenced);
            Some(path)
        }
        Err(message) => {
            findings.error(spanned.referenced, format!("{field}: {message}"));
            None
        }
    }
}

/// A list of paths: each valid one, once; a repeat is an error at the repeat.
fn list(
    findings: &mut FileProblems,
    spans: &mut Spans,
    field: &str,
    items: &[Spanned<String>],
) -> Vec<FixturePath> {
    let paths = items
        .iter()
        .filter_map(|item| path(findings, spans, field, item))
        .collect();
    findings.repeats(field, spanned(items), "");
    dedup(paths)
}

/// `paths` without repeats, in first-seen order.
fn dedup(paths: Vec<FixturePath>) -> Vec<FixturePath> {
    let mut seen = BTreeSet::new();
    paths
        .into_iter()
        .filter(|p| seen.insert(p.clone()))
        .collect()
}

/// An octal mode of permission bits only. Setuid, setgid and sticky are
/// refused: no path-handling case needs them, and a setuid-root file in
/// a fixture built by root would hand root to whoever runs it.
fn mode(findings: &mut FileProblems, at: Location, mode: &str) -> Option<u32> {
    let Some(bits) = u32::from_str_radix(mode, 8)
        .ok()
        .filter(|m| *m <= 0o7777 && !mode.is_empty())
    else {
        findings.error(
            at,
            format!(
                "fixture.modes: `{}` is not an octal mode like \"0755\"",
                quote(mode)
            ),
        );
        return None;
    };
    let special: Vec<&str> = [(0o4000, "setuid"), (0o2000, "setgid"), (0o1000, "sticky")]
        .into_iter()
        .filter(|(bit, _)| bits & bit != 0)
        .map(|(_, name)| name)
        .collect();
    if !special.is_empty() {
        findings.error(
            at,
            format!(
                "fixture.modes: `{}` sets the {} bit; only permission bits (at most 0777) are allowed",
                quote(mode),
                special.join(" and ")
            ),
        );
        return None;
    }
    Some(bits)
}

/// Two entries that create the same path would make the fixture depend on
/// creation order: each such path is refused once, where it was last written.
fn created_once(findings: &mut FileProblems, f: &Fixture, spans: &Spans) {
    let mut seen = BTreeSet::new();
    let mut reported = BTreeSet::new();
    for path in f.created() {
        if !seen.insert(path) && reported.insert(path) {
            findings.error(
                spans.of(path),
                format!("fixture: `{}` is created twice", quote(path.as_str())),
            );
        }
    }
}

/// `own_ignore_files`: each a directory files can be put in, not an entry
/// the fixture makes as something else, nor at or below one of its links
/// (the files would be written through it).
fn own_ignore_dirs(findings: &mut FileProblems, f: &Fixture, own: &[(FixturePath, Location)]) {
    let files = (f.files.iter().map(|(p, _)| (p, "a file")))
        .chain(f.generated.iter().map(|(p, _)| (p, "a file")))
        .chain(f.fifos.iter().map(|p| (p, "a named pipe")))
        .chain(f.sockets.iter().map(|p| (p, "a socket")))
        .chain(f.devices.iter().map(|p| (p, "a device")))
        .chain(f.symlinks.iter().map(|(p, _)| (p, "a symbolic link")));
    let not_dirs: Vec<(&FixturePath, &str)> = files.collect();
    for (dir, at) in own {
        let Some((entry, what)) = not_dirs.iter().find(|(entry, _)| dir.is_within(entry)) else {
            continue;
        };
        let place = if *entry == dir {
            "it is".to_owned()
        } else {
            format!("`{}` is", quote(entry.as_str()))
        };
        findings.error(
            *at,
            format!(
                "fixture.own_ignore_files: `{}` cannot hold files: {place} {what}",
                quote(dir.as_str())
            ),
        );
    }
}

/// Refuses fixtures the harness's snapshot cannot hold: a directory
/// [`SNAPSHOT_DEPTH`] levels deep or deeper (an entry's every proper
/// ancestor is a directory, and so is an entry of `dirs`, a root, the
/// target or a repository) would stop it, and with it every check of what
/// a call changed.
fn within_snapshot(
    findings: &mut FileProblems,
    f: &Fixture,
    workspace: &[FixturePath],
    spans: &Spans,
) {
    let levels = |p: &FixturePath| p.as_str().split('/').count();
    let dirs = (workspace.iter())
        .chain(&f.dirs)
        .chain(&f.git)
        .chain(f.own_ignore_files.iter().map(|(p, _)| p))
        .map(|p| (p, levels(p)));
    let parents = f.created().map(|p| (p, levels(p) - 1));
    if let Some((path, level)) = dirs.chain(parents).find(|(_, l)| *l >= SNAPSHOT_DEPTH) {
        findings.error(
            spans.of(path),
            format!(
                "fixture: `{}` needs a directory {level} levels deep; the harness's snapshot \
                 stops at {SNAPSHOT_DEPTH}, and could not see what a call changes",
                quote(path.as_str())
            ),
        );
    }
}

/// Refuses fixtures that cannot be built: an entry that is not a
/// directory (a file, pipe, socket or device) but is also a root, the
/// target, or the parent of another entry; and a mode on a path the
/// fixture does not create. `workspace` is the roots and the target.
fn buildable(findings: &mut FileProblems, f: &Fixture, workspace: &[FixturePath], spans: &Spans) {
    let all = workspace
        .iter()
        .chain(f.created())
        .chain(f.modes.iter().map(|(p, _)| p));
    // Every proper ancestor, with the first entry that needs it.
    let mut parents: BTreeMap<&str, &FixturePath> = BTreeMap::new();
    for path in all {
        let text = path.as_str();
        for (cut, _) in text.match_indices('/') {
            parents.entry(&text[..cut]).or_insert(path);
        }
    }
    let workspace: BTreeSet<&str> = workspace.iter().map(|p| p.as_str()).collect();
    let not_dirs = f
        .files
        .iter()
        .map(|(p, _)| p)
        .chain(f.generated.iter().map(|(p, _)| p))
        .chain(&f.fifos)
        .chain(&f.sockets)
        .chain(&f.devices);
    for entry in not_dirs {
        let why = if workspace.contains(entry.as_str()) {
            "a workspace root or the target, which is a directory".to_owned()
        } else if let Some(child) = parents.get(entry.as_str()) {
            format!("the parent directory of `{}`", quote(child.as_str()))
        } else {
            continue;
        };
        findings.error(
            spans.of(entry),
            format!(
                "fixture: `{}` is not a directory but is also {why}; the fixture cannot be built",
                quote(entry.as_str())
            ),
        );
    }
    let made: BTreeSet<&str> = f
        .created()
        .map(FixturePath::as_str)
        .chain(workspace.iter().copied())
        .collect();
    for (path, _) in &f.modes {
        if !made.contains(path.as_str()) && !parents.contains_key(path.as_str()) {
            findings.error(
                spans.of(path),
                format!(
                    "fixture.modes: `{}` is not created by the fixture",
                    quote(path.as_str())
                ),
            );
        }
    }
}
