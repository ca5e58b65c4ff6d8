//! The expectation: consistent with its outcome and with the call (an error
//! has no result fields, `files` belongs to `glob`, a successful write says
//! what it writes, inside a root), matches written `PATH:LINE`, and no set
//! with a repeat.

use serde_saphyr::{Location, Spanned};

use super::{FileProblems, spanned};
use crate::case::error::quote;
use crate::case::path::FixturePath;
use crate::case::raw::{ExpectedOutcome, FileContent, RawExpect, SpannedMap};
use crate::case::{Action, ErrorExpect, Expect, ExpectedMatch, Fixture};
use crate::protocol::{Field, Tool};

/// Checks the expectation against its call and fixture, every finding
/// collected, and gives the validated [`Expect`]: the rules first, then
/// the conversion, which only reads what they checked.
pub fn check(
    findings: &mut FileProblems,
    raw: Spanned<RawExpect>,
    action: &Action,
    tools: &[Tool],
    fixture: &Fixture,
    matrix: bool,
) -> Expect {
    let at = raw.referenced;
    let mut raw = raw.value;
    let describing = matches!(action, Action::Describe(_));
    outcome_and_fields(findings, &raw, describing, at);
    if matrix {
        matrix_fields(findings, &raw, tools, at);
    } else {
        tool_fields(findings, &raw, tools, at);
    }
    let writing = writing(findings, &raw, tools, describing, matrix, at);
    let writes = match raw.writes.take() {
        Some(map) if writing => writes(findings, map, fixture, matrix, at),
        Some(_) => {
            findings.error(
                at,
                "expect.writes: only a `write_file` or `edit` call writes anything",
            );
            Vec::new()
        }
        None => Vec::new(),
    };
    no_repeats(findings, &raw);
    let matches = raw
        .matches
        .as_ref()
        .map(|list| parsed_matches(findings, list));
    expect_of(raw, matches, writes)
}

/// An error expects no result fields and an error code; a `describe` case
/// expects `outcome: ok` with `mentions` or `excludes` alone, and only it
/// expects those.
fn outcome_and_fields(
    findings: &mut FileProblems,
    raw: &RawExpect,
    describing: bool,
    at: Location,
) {
    let has_result_fields = raw.kind.is_some()
        || raw.path.is_some()
        || raw.parent.is_some()
        || raw.cwd.is_some()
        || raw.matches.is_some()
        || raw.notes.is_some()
        || raw.files.is_some()
        || raw.entries.is_some()
        || raw.writes.is_some();
    let has_describe_fields = raw.mentions.is_some() || raw.excludes.is_some();
    match raw.outcome {
        ExpectedOutcome::Ok if raw.error.is_some() => {
            findings.error(at, "expect: `error` goes with `outcome: error`");
        }
        ExpectedOutcome::Ok => {}
        ExpectedOutcome::Error => {
            if raw.error.is_none() {
                findings.error(at, "expect: `outcome: error` needs `error: {code: ...}`");
            }
            if has_result_fields {
                findings.error(
                    at,
                    "expect: an error result has no kind, path, parent, cwd, matches, notes, files, entries or writes: a call that fails changes nothing",
                );
            }
        }
    }
    if describing
        && (has_result_fields || !has_describe_fields || raw.outcome != ExpectedOutcome::Ok)
    {
        findings.error(
            at,
            "expect: a `describe` case expects `outcome: ok` with `mentions` or `excludes` only",
        );
    }
    if !describing && has_describe_fields {
        findings.error(
            at,
            "expect: `mentions` and `excludes` go with `call.describe`",
        );
    }
}

/// Whether the call writes (so the expectation may say what): a
/// successful one must.
fn writing(
    findings: &mut FileProblems,
    raw: &RawExpect,
    tools: &[Tool],
    describing: bool,
    matrix: bool,
    at: Location,
) -> bool {
    let writer = tools.iter().find(|t| t.writes());
    let writing = !describing && writer.is_some() && (matrix || tools.len() == 1);
    if let Some(writer) = writer
        && writing
        && raw.outcome == ExpectedOutcome::Ok
        && raw.writes.is_none()
    {
        findings.error(
            at,
            format!(
                "expect: a successful `{writer}` writes one file: say which and what it then holds in `writes`"
            ),
        );
    }
    writing
}

/// The lists that are sets hold no repeat.
fn no_repeats(findings: &mut FileProblems, raw: &RawExpect) {
    for (field, list) in [
        ("expect.matches", &raw.matches),
        ("expect.notes", &raw.notes),
        ("expect.files", &raw.files),
        ("expect.mentions", &raw.mentions),
        ("expect.excludes", &raw.excludes),
    ] {
        if let Some(list) = list {
            findings.repeats(field, spanned(list), "; the list is a set");
        }
    }
    if let Some(error) = &raw.error {
        findings.repeats(
            "expect.error.message_contains",
            spanned(&error.message_contains),
            "; each needle should check something",
        );
    }
}

/// Every `PATH:LINE` of `matches` that parses; each one that does not is
/// a finding at its place.
fn parsed_matches(findings: &mut FileProblems, list: &[Spanned<String>]) -> Vec<ExpectedMatch> {
    list.iter()
        .filter_map(|m| {
            let parsed = parse_match(&m.value);
            if parsed.is_none() {
                findings.error(
                    m.referenced,
                    format!("expect.matches: `{}` is not PATH:LINE", quote(&m.value)),
                );
            }
            parsed
        })
        .collect()
}

/// The validated expectation: the raw one without its places, with its
/// matches parsed and its writes checked.
fn expect_of(
    raw: RawExpect,
    matches: Option<Vec<ExpectedMatch>>,
    writes: Vec<(FixturePath, Vec<u8>)>,
) -> Expect {
    let values = |list: Option<Vec<Spanned<String>>>| {
        list.map(|items| items.into_iter().map(|s| s.value).collect())
    };
    Expect {
        outcome: raw.outcome,
        kind: raw.kind,
        path: raw.path,
        parent: raw.parent,
        cwd: raw.cwd,
        matches,
        notes: values(raw.notes),
        files: values(raw.files),
        entries: raw
            .entries
            .map(|map| map.0.into_iter().map(|(k, t)| (k.value, t)).collect()),
        error: raw.error.map(|e| ErrorExpect {
            code: e.code,
            message_contains: e.message_contains.into_iter().map(|s| s.value).collect(),
        }),
        mentions: values(raw.mentions),
        excludes: values(raw.excludes),
        writes,
    }
}

/// `writes`: one file, a fixture path inside a root, where the fixture
/// has a file or nothing (a write through a link names the file the link
/// leads to; a directory, a pipe or a root is never written), with content
/// that decodes. In a matrix the path is written `{target}/PATH`, and each
/// cell's is checked when the cell is made ([`check_written`]); the
/// expectation then holds `PATH`, relative to the target.
fn writes(
    findings: &mut FileProblems,
    map: SpannedMap<FileContent>,
    fixture: &Fixture,
    matrix: bool,
    at: Location,
) -> Vec<(FixturePath, Vec<u8>)> {
    if map.0.len() != 1 {
        findings.error(
            at,
            format!("expect.writes: a call writes one file, not {}", map.0.len()),
        );
    }
    let mut out = Vec::new();
    for (key, content) in map.0 {
        let text = if matrix {
            match key.value.strip_prefix("{target}/") {
                Some(rest) => rest,
                None => {
                    findings.error(
                        key.referenced,
                        format!(
                            "expect.writes: a matrix writes below each cell's target: write `{{target}}/PATH`, not `{}`",
                            quote(&key.value)
                        ),
                    );
                    continue;
                }
            }
        } else {
            key.value.as_str()
        };
        let file = match FixturePath::parse(text) {
            Ok(file) => file,
            Err(e) => {
                findings.error(key.referenced, format!("expect.writes: {e}"));
                continue;
            }
        };
        if !matrix {
            check_written(findings, &file, fixture, key.referenced);
        }
        match content.into_bytes() {
            Ok(bytes) => out.push((file, bytes)),
            Err(e) => findings.error(
                key.referenced,
                format!("expect.writes: `{}`: {e}", quote(file.as_str())),
            ),
        }
    }
    out
}

/// Where a write lands must be a file or nothing, below a root and not
/// below a file of the fixture. A root that is one of the fixture's links
/// holds what lies below the place it leads to (SEC-1): a write through it
/// names that file, since a write through a link names where it leads.
pub fn check_written(
    findings: &mut FileProblems,
    file: &FixturePath,
    fixture: &Fixture,
    at: Location,
) {
    // Strictly below a root's place: the directory holding the file is
    // inside (a root, or a root's link target, is no file to write).
    let below_a_root = file
        .as_str()
        .rsplit_once('/')
        .and_then(|(dir, _)| FixturePath::parse(dir).ok())
        .is_some_and(|dir| !fixture.outside_every_root(&dir));
    if !below_a_root {
        findings.error(
            at,
            format!(
                "expect.writes: `{}` is not below a root; a file tool never writes outside the roots (FILE-11)",
                quote(file.as_str())
            ),
        );
    }
    let not_file = fixture
        .dirs
        .iter()
        .chain(fixture.symlinks.iter().map(|(p, _)| p))
        .chain(&fixture.fifos)
        .chain(&fixture.sockets)
        .chain(&fixture.devices)
        .chain(&fixture.roots)
        .any(|p| p == file);
    if not_file {
        findings.error(
            at,
            format!(
                "expect.writes: the fixture makes `{}` something other than a file; a write through a link names the file the link leads to",
                quote(file.as_str())
            ),
        );
    }
    if let Some((link, _)) = fixture
        .symlinks
        .iter()
        .find(|(l, _)| file.is_within(l) && l != file)
    {
        findings.error(
            at,
            format!(
                "expect.writes: `{}` lies below the link `{}`; a write through a link names the file the link leads to",
                quote(file.as_str()),
                quote(link.as_str())
            ),
        );
    }
    if let Some((parent, _)) = fixture
        .files
        .iter()
        .find(|(f, _)| file.is_within(f) && f != file)
    {
        findings.error(
            at,
            format!(
                "expect.writes: `{}` lies below the file `{}`",
                quote(file.as_str()),
                quote(parent.as_str())
            ),
        );
    }
}

/// `files` belongs to `glob` and `entries` to `ls`: on any other tool the
/// expectation could never be met, so it is a mistake in the case.
fn tool_fields(findings: &mut FileProblems, raw: &RawExpect, tools: &[Tool], at: Location) {
    for (field, given, tool) in [
        (Field::Files, raw.files.is_some(), Tool::Glob),
        (Field::Entries, raw.entries.is_some(), Tool::Ls),
    ] {
        if given && tools != [tool] {
            findings.error(
                at,
                format!("expect.{field}: only a `{tool}` call has {field}"),
            );
        }
    }
}

/// A matrix's expectation is written once for all its tools: each result
/// field must concern one of them.
fn matrix_fields(findings: &mut FileProblems, raw: &RawExpect, tools: &[Tool], at: Location) {
    let given = [
        (Field::Kind, raw.kind.is_some()),
        (Field::Path, raw.path.is_some()),
        (Field::Parent, raw.parent.is_some()),
        (Field::Cwd, raw.cwd.is_some()),
        (Field::Matches, raw.matches.is_some()),
        (Field::Notes, raw.notes.is_some()),
        (Field::Files, raw.files.is_some()),
        (Field::Entries, raw.entries.is_some()),
    ];
    for (field, _) in given.iter().filter(|(_, given)| *given) {
        if !field.answered_by_any(tools) {
            findings.error(
                at,
                format!("expect.{field}: no tool of the matrix answers with {field}"),
            );
        }
    }
    // What a search, glob or listing found is the one field that tells the
    // target root's answer from another root's when both hold the same
    // name (issue 41: six glob cells stated only `path`, and a glob naming
    // the first root's file passed in the second). A successful cell of
    // such a tool is judged on it, so the matrix must say it.
    if matches!(raw.outcome, ExpectedOutcome::Ok) {
        for (field, _) in given.iter().filter(|(field, given)| {
            !given && matches!(field, Field::Matches | Field::Files | Field::Entries)
        }) {
            let mut listing: Vec<String> = Vec::new();
            for tool in tools.iter().filter(|t| field.answered_by().contains(t)) {
                let name = format!("`{tool}`");
                if !listing.contains(&name) {
                    listing.push(name);
                }
            }
            if !listing.is_empty() {
                findings.error(
                    at,
                    format!(
                        "expect.{field}: a successful {} cell is judged on what it found: say it (an empty list when nothing)",
                        listing.join(", ")
                    ),
                );
            }
        }
    }
}

/// `PATH:LINE`, split at the last colon so paths may contain colons.
fn parse_match(text: &str) -> Option<ExpectedMatch> {
    let (path, line) = text.rsplit_once(':')?;
    let line: u64 = line.parse().ok().filter(|&l| l > 0)?;
    (!path.is_empty()).then(|| ExpectedMatch {
        path: path.to_owned(),
        line,
    })
}
