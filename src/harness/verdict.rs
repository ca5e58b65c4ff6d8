//! One call, sent and judged: the one path from a built fixture to a
//! verdict, which the worker (for a case) and the fuzzer (for a generated
//! input) both take, so that a fuzzing finding is always a failure a case
//! would give, and a check added here is made by both.
//!
//! Before the call: where the roots are, the fixture's snapshot (its own
//! `.git` directories and what the subject prepared left out), the paths
//! the call names in the subject's scratch directory and beyond the
//! fixture ([`Watched`]), and what the fixture says about the outside
//! ([`Outside`], SEC-12). The call is sent by the caller's `send`, which
//! owns the subject and what a protocol violation is charged to. After
//! it: the answer against the expectation ([`judge`]), what changed inside
//! the roots against the expected writes (SEC-11, FILE-11), what changed
//! outside every root (an escape, whatever the answer), and what the
//! answer carried out (SEC-12's read, list and exec channels).
//!
//! What is the caller's: building the fixture and the call, deriving the
//! expectation (a case's, or the reference's answer for the fuzzer), and
//! what the verdict becomes (a report with its containment class, or a
//! finding).

use std::path::{Path, PathBuf};

use crate::case::fixture::BuiltFixture;
use crate::harness::containment;
use crate::harness::expected::Expected;
use crate::harness::judge::{Verdict, judge};
use crate::harness::sight::Outside;
use crate::harness::snapshot::{self, Change};
use crate::harness::watch::Watched;
use crate::report::{Channel, OwnCheck};
use crate::subject::AdapterFailure;
use toolpath_suite::case::Fixture;
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::{Call, Outcome, ToolResult};

/// What one call is judged on besides its expectation.
pub struct Judging<'a> {
    /// The fixture as the case (or the sample) wrote it.
    pub fixture: &'a Fixture,
    /// The same fixture, built.
    pub built: &'a BuiltFixture,
    pub call: &'a Call,
    pub vars: &'a Placeholders,
    /// The fields the subject cannot observe for this call's tool.
    pub unobservable: Vec<String>,
    /// Directories the subject made before the call (`Subject::prepare`),
    /// below the fixture: bookkeeping the snapshot leaves out.
    pub prepared: &'a [PathBuf],
    /// The subject's own scratch directory (`{adapter-tmp}`), if any.
    pub scratch: Option<&'a Path>,
}

/// What became of one call that was answered.
#[derive(Debug)]
pub enum Judged {
    /// The subject declined the call (`unsupported`) and changed nothing:
    /// not comparable, with the subject's reason if it gave one.
    Declined(Option<String>),
    Answered(Box<Answer>),
}

/// An answer and its verdict.
#[derive(Debug)]
pub struct Answer {
    pub answer: ToolResult,
    /// Every check made, the changes to the fixture and SEC-12 included.
    pub verdict: Verdict,
    /// Every channel something got out through, with what showed it: the
    /// first change outside every root (write), then what the answer
    /// carried ([`Outside::escapes`]). Placeholders for machine paths.
    pub escapes: Vec<(Channel, String)>,
    /// The fields not observed in this answer: the subject's
    /// `unobservable` for the tool and the answer's own `derived`.
    pub unobserved: Vec<String>,
    /// Why the snapshot before the call stopped early, if it did: then no
    /// change to the fixture could be seen.
    pub unwatched: Option<String>,
}

/// Sends `call` through `send` and judges the answer against `expected`
/// and against what the call did to the fixture and beyond it. `relax`
/// may loosen the expectation once the answer is known, by dropping what
/// the answer's own shape says is not owed (the fuzzer's latitude); it
/// never reads the disk. A failure to answer is returned as it is.
pub fn call_and_judge(
    judging: Judging,
    mut expected: Expected,
    relax: impl FnOnce(&mut Expected, &ToolResult),
    send: impl FnOnce(&Call) -> Result<ToolResult, AdapterFailure>,
) -> Result<Judged, AdapterFailure> {
    let Judging {
        fixture,
        built,
        call,
        vars,
        unobservable,
        prepared,
        scratch,
    } = judging;
    let git_dirs: Vec<Vec<u8>> = (fixture.git.iter())
        .map(|repo| format!("{}/.git", repo.as_str()).into_bytes())
        .chain(prepared.iter().filter_map(|dir| {
            let below = dir.strip_prefix(&built.root).ok()?;
            Some(below.as_os_str().as_encoded_bytes().to_vec())
        }))
        .collect();
    // Where the roots are, read before the call like everything else the
    // call is judged on.
    let roots = containment::root_places(&built.root, &call.workspace.roots);
    // What the call names in the subject's own scratch directory is
    // outside the fixture, so outside its snapshot: looked at apart.
    let named = Watched::before(call, scratch);
    // And what it names anywhere else outside the fixture directory
    // (`{ws}/../../x`, above it): outside every root as well.
    let beyond = Watched::beyond(call, &built.root, scratch);
    let before = snapshot::take(&built.root, &git_dirs);
    let sight = Outside::before(&built.root, &roots, fixture, &built.canaries, &before);
    let command = call.params.get("command").and_then(|c| c.as_str());

    let answer = send(call)?;

    let after = snapshot::take(&built.root, &git_dirs);
    let named_changes = named.changes();
    let beyond_changes = beyond.changes();
    // A write the case expects is judged with the answer: an answer that
    // is an error (or `unsupported`) writes nothing.
    let writes = match answer.outcome {
        Some(Outcome::Ok) => expected.writes.as_slice(),
        _ => &[],
    };
    let changes = snapshot::diff(&before, &after, writes);
    let root = built.root.as_path();
    let describe = |c: &Change| c.describe(root, |p| vars.collapse(p));
    let (outside, inside): (Vec<&Change>, Vec<&Change>) = changes
        .iter()
        .partition(|c| containment::is_outside(c, &roots));
    let shown = |changes: &[&Change]| -> Vec<String> {
        let listed = snapshot::topmost(changes);
        listed.into_iter().take(5).map(describe).collect()
    };
    // Changes to paths the call named in the subject's scratch directory
    // are outside every root too, listed after the fixture's.
    let named: Vec<String> = (named_changes.iter())
        .map(|c| c.describe(named.scratch(), |p| vars.collapse(p)))
        .chain((beyond_changes.iter()).map(|c| c.describe(Path::new("/"), |p| vars.collapse(p))))
        .collect();
    let mut shown_outside = shown(&outside);
    shown_outside.extend(named.iter().take(5).cloned());

    if answer.outcome == Some(Outcome::Unsupported) && changes.is_empty() && named.is_empty() {
        return Ok(Judged::Declined(answer.reason));
    }
    // Not observed in this answer: what the subject cannot observe for
    // this tool, and what it says it composed itself.
    let mut unobserved = unobservable;
    for field in &answer.derived {
        if !unobserved.contains(field) {
            unobserved.push(field.clone());
        }
    }
    // What the answer carried out (SEC-12), judged on the fixture as
    // built, whatever was expected.
    let seen: Vec<(Channel, String)> = sight
        .escapes(call.tool, command, &answer, &unobserved)
        .into_iter()
        .map(|(channel, seen)| (channel, vars.collapse(&seen)))
        .collect();
    let mut escapes: Vec<(Channel, String)> = shown_outside
        .first()
        .map(|change| {
            (
                Channel::Write,
                format!("changed outside every root: {change}"),
            )
        })
        .into_iter()
        .collect();
    escapes.extend(seen.iter().cloned());
    let mut verdict = match answer.outcome {
        // Declining the call does not excuse changing the fixture.
        Some(Outcome::Unsupported) => Verdict::default(),
        _ => {
            relax(&mut expected, &answer);
            judge(&expected, &answer, &unobserved, vars)
        }
    };
    // File tools answer to FILE-11 for what they write; every other tool
    // to SEC-11, which allows no change at all.
    let rule = match call.tool.is_file_tool() {
        true => "FILE-11",
        false => "SEC-11",
    };
    let unchanged = match (answer.outcome, expected.writes.as_slice()) {
        (Some(Outcome::Ok), [_, ..]) => "only the expected write",
        _ => "unchanged",
    };
    verdict.check_changes(
        (OwnCheck::Fixture, rule),
        unchanged,
        &shown(&inside),
        inside.len(),
    );
    verdict.check_changes(
        (OwnCheck::Escape, rule),
        "nothing outside the roots changed",
        &shown_outside,
        outside.len() + named.len(),
    );
    let seen: Vec<String> = seen
        .iter()
        .map(|(channel, seen)| format!("{}: {seen}", channel.name()))
        .collect();
    verdict.check_outside(&seen);
    // A fixture past the snapshot's bounds (lint refuses those) hides
    // every change: never clean, not observed, with the reason.
    let unwatched = before.overflow.clone();
    if let Some(why) = &unwatched {
        (verdict.unchecked).push(format!("fixture (the snapshot stopped: {why})"));
    }
    Ok(Judged::Answered(Box::new(Answer {
        answer,
        verdict,
        escapes,
        unobserved,
        unwatched,
    })))
}

/// What `answer` carried out of the workspace (SEC-12's read, list and exec
/// channels), judged on the fixture as it is now: for an answer taken as
/// the expectation (the fuzzer's reference), which must pass the judge it
/// sets, on a fixture no call has changed since it was built (or one the
/// answering call wrote inside its roots only).
pub fn carried_out(
    fixture: &Fixture,
    built: &BuiltFixture,
    call: &Call,
    answer: &ToolResult,
) -> Vec<(Channel, String)> {
    let git_dirs: Vec<Vec<u8>> = (fixture.git.iter())
        .map(|repo| format!("{}/.git", repo.as_str()).into_bytes())
        .collect();
    let roots = containment::root_places(&built.root, &call.workspace.roots);
    let now = snapshot::take(&built.root, &git_dirs);
    let sight = Outside::before(&built.root, &roots, fixture, &built.canaries, &now);
    let command = call.params.get("command").and_then(|c| c.as_str());
    sight.escapes(call.tool, command, answer, &[])
}
