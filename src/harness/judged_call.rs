//! One call on a subject, sent and judged: the one path from a built
//! fixture to a verdict, which the worker (for a case) and the fuzzer (for
//! a generated input) both take ([`call_on`]), so that a fuzzing finding is
//! always a failure a case would give, and a check added here is made by
//! both.
//!
//! On the subject, in this order: it is made ready (an adapter that
//! crashed is started again; a failure to start is the call's failure),
//! so that `{adapter-tmp}` names the scratch directory of the process the
//! call goes to; the call is made from what is asked on those
//! placeholders ([`plan`]), and the caller derives what it is judged
//! against on them; the fixture (built within its bound, [`build`]) is handed to
//! the user the subject runs as ([`Subject::user`]); the subject prepares
//! it; a fixture with FIFOs gets the short hang bound ([`HangProne`]);
//! the call is sent, and a protocol violation found on the way is handed
//! back for the caller to charge.
//!
//! Around the call, read before it is sent, in this order: where the
//! roots are, a canary of the call's in the subject's own temporary
//! directory, `HOME` and working directory ([`reach`]), the paths the call
//! names in the subject's scratch directory and beyond the fixture
//! ([`Watched`]), the fixture's snapshot (its own `.git` directories and
//! what the subject prepared left out), and what the fixture says about
//! the outside ([`Outside`], SEC-12). After it: what changed (a call
//! declined that changed nothing is not comparable), then the answer
//! against the expectation ([`judge`]), the changes inside the roots
//! against the expected writes (SEC-11, FILE-11), those outside every
//! root (an escape, whatever the answer), and what the answer carried out
//! (SEC-12's read, list and exec channels). Then, for a fixture with
//! anything outside every root and a call that writes nothing,
//! non-interference (SEC-12): the same call on the fixture's twin
//! ([`fixture::twin`]), and, only when the two
//! answers differ, once more on the fixture built again, to leave out
//! what differs between two answers of the same fixture
//! ([`interference`]); the twin's changes outside every root are judged
//! as the first call's are. Both are asked aside ([`Subject::aside`]): a
//! server kept for the place of the case file's next instance is not
//! ended for them.
//!
//! What is the caller's: building the fixture and the call, deriving the
//! expectation (a case's, or the reference's answer for the fuzzer), the
//! latitude it allows once the answer is known (the fuzzer's `relax`),
//! which subject answers (the worker's unprivileged copy), what a
//! violation is charged to, and what the verdict becomes (a report with
//! its containment class, or a finding).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::case::fixture::{self, BuiltFixture, Deadline, FixtureError};
use crate::harness::call;
use crate::harness::containment;
use crate::harness::expected::Expected;
use crate::harness::interference;
use crate::harness::judge::{Verdict, judge};
use crate::harness::outside::Outside;
use crate::harness::reach;
use crate::harness::snapshot::{self, Change, ExpectedWrite, Snapshot};
use crate::harness::watch::Watched;
use crate::report::{Channel, OwnCheck};
use crate::subject::fifos::HangProne;
use crate::subject::{AdapterFailure, FailureKind, Subject};
use toolpath_suite::case::Fixture;
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::{Call, Field, Outcome, Tool, ToolResult};

/// Where one call on a subject is made.
pub struct OnSubject<'a> {
    /// The case file the call comes from: a subject's restarts for the
    /// calls of one file count once ([`Subject::ready`]).
    pub file: &'a Path,
    /// The fixture as the case (or the sample) wrote it.
    pub fixture: &'a Fixture,
    /// The same fixture, built ([`build`]).
    pub built: &'a BuiltFixture,
    /// What the call asks.
    pub ask: Ask<'a>,
    /// How long a call on a fixture with FIFOs is waited for before they
    /// are released (`--hang-timeout-ms`, [`HangProne`]).
    pub hang_timeout: Duration,
    /// Whether the answer is compared with the answer on the fixture's
    /// twin (SEC-12's non-interference, [`interference`]), and the time
    /// the twin's build gets (the call's limit, as the fixture's). `None`
    /// for the fuzzer: its finding is a divergence from the reference,
    /// and a twin would double every probe.
    pub twin: Option<Duration>,
}

/// What one call asks: the tool, its parameters as the case (or the
/// sample) wrote them, placeholders and all, and the name it goes by in
/// the subject's logs (the instance id, or `fuzz`).
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    pub name: &'a str,
    pub tool: Tool,
    pub params: &'a Map<String, Value>,
}

/// A fixture built for one call, within the bound a run gives each build:
/// the call's time `limit`, and a little more for each entry
/// ([`Deadline::for_build`]). Every fixture a call is made on (a case's,
/// a probe's, the twin's) is built here.
pub fn build(
    fixture: &Fixture,
    parent: Option<&Path>,
    limit: Duration,
) -> Result<BuiltFixture, FixtureError> {
    let deadline = Deadline::for_build(limit, fixture.created().count());
    fixture::build_until(fixture, parent, &deadline)
}

/// The call `ask` makes on `built`, for a subject whose scratch directory
/// is `scratch` (`{adapter-tmp}`), and the placeholders it was made with:
/// the ones its answer is judged with.
pub fn plan(ask: Ask, built: &BuiltFixture, scratch: Option<&Path>) -> (Call, Placeholders) {
    let vars = call::placeholders(&built.vars, scratch);
    let call = call::build(
        ask.tool,
        ask.name.to_owned(),
        ask.params,
        &vars,
        &built.workspace,
    );
    (call, vars)
}

/// What became of one call on a subject.
#[derive(Debug)]
pub struct Called {
    /// The call and its placeholders, once planned: none when the subject
    /// could not be made ready.
    pub planned: Option<(Call, Placeholders)>,
    /// The answer judged, or why there is none (the subject not ready, the
    /// fixture not handed over, not prepared, or no answer).
    pub judged: Result<Judged, AdapterFailure>,
    /// Whether the call was sent: only a call sent can have been answered
    /// late, or be the one a later violation is charged to.
    pub sent: bool,
    /// Output the subject wrote while no call was outstanding, found when
    /// this call was sent: it belongs to the subject's previous answer
    /// when it has one, which is for the caller to say.
    pub violation: Option<AdapterFailure>,
}

impl Called {
    /// A call that ended before it was sent, with why: the subject not
    /// ready (nothing `planned`), or the fixture not handed over.
    fn unsent(planned: Option<(Call, Placeholders)>, failure: AdapterFailure) -> Called {
        Called {
            planned,
            judged: Err(failure),
            sent: false,
            violation: None,
        }
    }
}

/// One call on `subject`, from making it ready to the verdict, in the
/// order the module doc gives: the one path from what a case (or a
/// sample) asks to a judged answer. The call is made from `ask` on the
/// subject's placeholders ([`plan`]); `expect` derives what it is judged
/// against, on those placeholders (it may add some to show, as the worker
/// does the run directory) and the subject's scratch directory, before
/// anything is sent; its error ends the call there, and is returned as it
/// is. `relax` may loosen the expectation once the answer is known, by
/// dropping what the answer's own shape says is not owed (the fuzzer's
/// latitude); it never reads the disk.
pub fn call_on<E>(
    subject: &mut dyn Subject,
    on: OnSubject,
    expect: impl FnOnce(&Call, &mut Placeholders, Option<&Path>) -> Result<Expected, E>,
    relax: impl FnOnce(&mut Expected, &ToolResult),
) -> Result<Called, E> {
    let OnSubject { fixture, built, .. } = on;
    if let Err(failure) = subject.ready(on.file) {
        return Ok(Called::unsent(None, failure));
    }
    let scratch = subject.scratch_dir().map(Path::to_path_buf);
    let (call, mut vars) = plan(on.ask, built, scratch.as_deref());
    let expected = expect(&call, &mut vars, scratch.as_deref())?;
    let prepared = match hand_over(subject, built, &call) {
        Ok(prepared) => prepared,
        Err(failure) => return Ok(Called::unsent(Some((call, vars)), failure)),
    };
    let hang = hang_bound(fixture, built, on.hang_timeout);
    let twin = twin_asked(on.twin, &call, &expected);
    let judging = Judging {
        fixture,
        built,
        call: &call,
        vars: &vars,
        unobservable: subject.hello().unobservable_for(call.tool),
        prepared: &prepared,
        scratch: scratch.as_deref(),
        own: subject
            .homes()
            .into_iter()
            .chain(subject.workdir())
            .collect(),
    };
    let mut violation = None;
    let judged = call_and_judge(judging, expected, relax, |call| {
        let (answer, found) = send(subject, call, hang.as_ref());
        violation = found;
        answer
    });
    let judged = match (judged, twin) {
        (Ok(Judged::Answered(mut answered)), Some((limit, mentioned)))
            if answered.answer.outcome != Some(Outcome::Unsupported) =>
        {
            let first = First {
                file: on.file,
                fixture,
                built,
                call: &call,
                scratch: scratch.as_deref(),
                hang_timeout: on.hang_timeout,
                limit,
            };
            let escapes = first.interference(subject, &mentioned, &answered, &vars, &mut violation);
            answered.add_outside(escapes);
            Ok(Judged::Answered(answered))
        }
        (judged, _) => judged,
    };
    Ok(Called {
        planned: Some((call, vars)),
        judged,
        sent: true,
        violation,
    })
}

/// Whether `call` is asked again on the fixture's twin (SEC-12's
/// non-interference; `twin` is the time its build gets, none for the
/// fuzzer), and the text of the call and its expectation, whose names
/// keep their place in the twin. A call that writes is not asked again:
/// FILE-11 judges its write, and a twin of a write would judge a second.
fn twin_asked(
    twin: Option<Duration>,
    call: &Call,
    expected: &Expected,
) -> Option<(Duration, String)> {
    let writes = !expected.writes.is_empty() || matches!(call.tool, Tool::WriteFile | Tool::Edit);
    twin.filter(|_| !writes).map(|limit| {
        let mentioned = format!("{} {expected:?}", Value::Object(call.params.clone()));
        (limit, mentioned)
    })
}

/// The fixture handed to the user `subject` runs as ([`Subject::user`]):
/// a subject that runs as another user may then change its fixture and
/// nothing above it; then prepared by the subject for `call`. Returns the
/// directories it made below the fixture (bookkeeping the snapshot leaves
/// out), or the failure that ends the call unsent.
fn hand_over(
    subject: &mut dyn Subject,
    built: &BuiltFixture,
    call: &Call,
) -> Result<Vec<PathBuf>, AdapterFailure> {
    if let Some((uid, gid)) = subject.user()
        && let Err(e) = built.chown_all(uid, gid)
    {
        return Err(AdapterFailure {
            kind: FailureKind::Crash,
            message: format!("cannot hand the fixture to the subject's user: {e}"),
            stderr: String::new(),
        });
    }
    subject.prepare(call)
}

/// A FIFO blocks whoever opens it: a call on a fixture with one gets the
/// short bound, and the FIFOs are released when it passes.
fn hang_bound(fixture: &Fixture, built: &BuiltFixture, bound: Duration) -> Option<HangProne> {
    (!fixture.fifos.is_empty()).then(|| HangProne {
        bound,
        root: built.root.clone(),
        fifos: (fixture.fifos.iter())
            .map(|fifo| PathBuf::from(fifo.as_str()))
            .collect(),
    })
}

/// Sends `call` (under the hang bound, if any), and takes the output the
/// subject wrote while no call was outstanding, found on the way.
fn send(
    subject: &mut dyn Subject,
    call: &Call,
    hang: Option<&HangProne>,
) -> (Result<ToolResult, AdapterFailure>, Option<AdapterFailure>) {
    let answer = match hang {
        Some(hang) => subject.call_hang_prone(call, hang),
        None => subject.call(call),
    };
    (answer, subject.take_violation())
}

/// What one call is judged on besides its expectation.
struct Judging<'a> {
    /// The fixture as the case (or the sample) wrote it.
    fixture: &'a Fixture,
    /// The same fixture, built.
    built: &'a BuiltFixture,
    call: &'a Call,
    vars: &'a Placeholders,
    /// The fields the subject cannot observe for this call's tool.
    unobservable: Vec<Field>,
    /// Directories the subject made before the call (`Subject::prepare`),
    /// below the fixture: bookkeeping the snapshot leaves out.
    prepared: &'a [PathBuf],
    /// The subject's own scratch directory (`{adapter-tmp}`), if any.
    scratch: Option<&'a Path>,
    /// The private `HOME` directories and working directory the subject
    /// was given.
    own: Vec<PathBuf>,
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
    /// changes outside every root (write: those the escape check lists,
    /// and how many more), then what the answer
    /// carried ([`Outside::escapes`]). Placeholders for machine paths.
    pub escapes: Vec<(Channel, String)>,
    /// The fields not observed in this answer: the subject's
    /// `unobservable` for the tool and the answer's own `derived`.
    pub unobserved: Vec<Field>,
    /// Why the snapshot before the call stopped early, if it did: then no
    /// change to the fixture could be seen.
    pub unwatched: Option<String>,
}

impl Answer {
    /// Escapes found after the verdict was made (SEC-12's
    /// non-interference), judged and kept: those through a channel the
    /// answer already got out by are left out, as that channel is charged.
    fn add_outside(&mut self, mut escapes: Vec<(Channel, String)>) {
        escapes.retain(|(c, _)| !self.escapes.iter().any(|(e, _)| e == c));
        self.verdict.check_outside(&shown(&escapes));
        self.escapes.extend(escapes);
    }
}

/// Sends `call` through `send` and judges the answer against `expected`
/// and against what the call did to the fixture and beyond it, `relax`
/// applied once the answer is known ([`call_on`]). A failure to answer is
/// returned as it is.
fn call_and_judge(
    judging: Judging,
    mut expected: Expected,
    relax: impl FnOnce(&mut Expected, &ToolResult),
    send: impl FnOnce(&Call) -> Result<ToolResult, AdapterFailure>,
) -> Result<Judged, AdapterFailure> {
    let watch = Watch::before(&judging);
    let Judging {
        built,
        call,
        vars,
        unobservable,
        ..
    } = judging;

    let answer = send(call)?;

    // A write the case expects is judged with the answer: an answer that
    // is an error (or `unsupported`) writes nothing.
    let writes = match answer.outcome {
        Some(Outcome::Ok) => expected.writes.as_slice(),
        _ => &[],
    };
    let changed = watch.after(&built.root, writes, vars);
    if answer.outcome == Some(Outcome::Unsupported) && changed.nothing {
        return Ok(Judged::Declined(answer.reason));
    }
    let unobserved = unobserved(unobservable, &answer);
    // What the answer carried out (SEC-12), judged on the fixture as
    // built, whatever was expected.
    let carried = watch.carried(call, &answer, &unobserved, vars);
    let mut verdict = match answer.outcome {
        // Declining the call does not excuse changing the fixture.
        Some(Outcome::Unsupported) => Verdict::default(),
        _ => {
            relax(&mut expected, &answer);
            judge(&expected, &answer, &unobserved, vars)
        }
    };
    let wrote = answer.outcome == Some(Outcome::Ok) && !expected.writes.is_empty();
    changed.check(&mut verdict, call.tool, wrote);
    verdict.check_outside(&shown(&carried));
    // A fixture past the snapshot's bounds (lint refuses those) hides
    // every change: never clean, not observed, with the reason.
    let unwatched = watch.before.overflow;
    if let Some(why) = &unwatched {
        (verdict.unchecked).push(format!("fixture (the snapshot stopped: {why})"));
    }
    Ok(Judged::Answered(Box::new(Answer {
        answer,
        verdict,
        escapes: changed.escape().into_iter().chain(carried).collect(),
        unobserved,
        unwatched,
    })))
}

/// The fields not observed in `answer`: what the subject cannot observe
/// for the call's tool (`unobservable`), and what the answer says it
/// composed itself (`derived`).
fn unobserved(mut unobservable: Vec<Field>, answer: &ToolResult) -> Vec<Field> {
    for &field in &answer.derived {
        if !unobservable.contains(&field) {
            unobservable.push(field);
        }
    }
    unobservable
}

/// Escapes as a report shows them, one `channel: what showed it` each.
fn shown(escapes: &[(Channel, String)]) -> Vec<String> {
    (escapes.iter())
        .map(|(channel, seen)| format!("{}: {seen}", channel.name()))
        .collect()
}

/// What a call is judged on besides its answer, read before it is sent
/// (nothing the subject does can change it then), in the order the
/// module doc gives.
struct Watch {
    /// What the fixture's snapshot leaves out ([`git_dirs`]).
    skip: Vec<Vec<u8>>,
    /// Where the roots are.
    roots: Vec<Vec<u8>>,
    /// The paths the call names in the subject's own scratch directory:
    /// outside the fixture, so outside its snapshot, looked at apart.
    named: Watched,
    /// The paths it names anywhere else outside the fixture directory
    /// (`{ws}/../../x`, above it): outside every root as well.
    beyond: Watched,
    /// The fixture's snapshot.
    before: Snapshot,
    /// What the fixture says about the outside, this call's canaries
    /// included (SEC-12): what an answer holding it carried out.
    outside: Outside,
}

impl Watch {
    /// Everything watched, before the call. A canary of this call's goes
    /// in the subject's own temporary directory, private `HOME` and
    /// working directory first, before anything the call is judged on is
    /// read (the paths the call names there included).
    fn before(judging: &Judging) -> Watch {
        let Judging {
            fixture,
            built,
            call,
            prepared,
            scratch,
            own,
            ..
        } = judging;
        let skip = git_dirs(fixture, built, prepared);
        let roots = containment::root_places(&built.root, &call.workspace.roots);
        let reached: Vec<String> = (scratch.iter().copied())
            .chain(own.iter().map(PathBuf::as_path))
            .filter_map(reach::plant)
            .collect();
        let named = Watched::before(call, *scratch);
        let beyond = Watched::beyond(call, &built.root, *scratch);
        let before = snapshot::take(&built.root, &skip);
        let outside = Outside::before(&built.root, &roots, fixture, &built.canaries, &before)
            .with_canaries(reached);
        Watch {
            skip,
            roots,
            named,
            beyond,
            before,
            outside,
        }
    }

    /// What the call changed, seen once it was answered: the fixture
    /// directory `root` against its snapshot, except the `writes` it was
    /// to make, and the paths it names outside it.
    fn after(&self, root: &Path, writes: &[ExpectedWrite], vars: &Placeholders) -> Changed {
        let after = snapshot::take(root, &self.skip);
        let named_changes = self.named.changes();
        let beyond_changes = self.beyond.changes();
        let changes = snapshot::diff(&self.before, &after, writes);
        let describe = |c: &Change| c.describe(root, |p| vars.collapse(p));
        let (outside, mut inside): (Vec<&Change>, Vec<&Change>) =
            (changes.iter()).partition(|c| containment::is_outside(c, &self.roots));
        // Inside a root, times move with every write and attributes are the
        // workspace's own business: only outside every root are they judged.
        inside.retain(|c| !c.kind.is_metadata());
        let shown = |changes: &[&Change]| -> Vec<String> {
            let listed = snapshot::topmost(changes);
            listed.into_iter().take(5).map(describe).collect()
        };
        // Changes to paths the call named in the subject's scratch directory
        // are outside every root too, listed after the fixture's.
        let named: Vec<String> = (named_changes.iter())
            .map(|c| c.describe(self.named.scratch(), |p| vars.collapse(p)))
            .chain(
                (beyond_changes.iter()).map(|c| c.describe(Path::new("/"), |p| vars.collapse(p))),
            )
            .collect();
        let mut outside_shown = shown(&outside);
        outside_shown.extend(named.iter().take(5).cloned());
        Changed {
            nothing: changes.is_empty() && named.is_empty(),
            inside: (shown(&inside), inside.len()),
            outside_listed: snapshot::topmost(&outside).len() + named.len(),
            outside: (outside_shown, outside.len() + named.len()),
        }
    }

    /// What `answer` carried out of the workspace (SEC-12's read, list and
    /// exec channels), placeholders for machine paths.
    fn carried(
        &self,
        call: &Call,
        answer: &ToolResult,
        unobserved: &[Field],
        vars: &Placeholders,
    ) -> Vec<(Channel, String)> {
        let command = call.params.get("command").and_then(|c| c.as_str());
        (self
            .outside
            .escapes(call.tool, command, answer, unobserved)
            .into_iter())
        .map(|(channel, seen)| (channel, vars.collapse(&seen)))
        .collect()
    }
}

/// What a call changed, as its verdict and its escapes show it: each side
/// as the changes worth listing (at most five, described with
/// placeholders) and how many there are in all.
struct Changed {
    /// Nothing changed, in the fixture or at a path the call names: a call
    /// declined that changed nothing is not comparable.
    nothing: bool,
    /// Inside the roots, times and attributes aside.
    inside: (Vec<String>, usize),
    /// Outside every root: the fixture's changes, then the named paths'.
    outside: (Vec<String>, usize),
    /// How many changes outside are worth listing, a new directory standing
    /// for what is below it: the escape's evidence counts the rest.
    outside_listed: usize,
}

impl Changed {
    /// The escape the changes outside every root make (write): every one
    /// in the evidence, as far as the report's bound goes, with a count of
    /// the rest. None when nothing outside changed.
    fn escape(&self) -> Option<(Channel, String)> {
        let shown = &self.outside.0;
        if shown.is_empty() {
            return None;
        }
        let rest = match self.outside_listed.saturating_sub(shown.len()) {
            0 => String::new(),
            n => format!(" (and {n} more)"),
        };
        let seen = format!("changed outside every root: {}{rest}", shown.join(", "));
        Some((Channel::Write, seen))
    }

    /// The verdict's two checks of what changed: inside the roots against
    /// the expected write (`wrote`) or none, and outside every root, an
    /// escape whatever the answer. File tools answer to FILE-11 for what
    /// they write; every other tool to SEC-11, which allows no change.
    fn check(&self, verdict: &mut Verdict, tool: Tool, wrote: bool) {
        let rule = match tool.is_file_tool() {
            true => "FILE-11",
            false => "SEC-11",
        };
        let unchanged = match wrote {
            true => "only the expected write",
            false => "unchanged",
        };
        let (inside, count) = &self.inside;
        verdict.check_changes((OwnCheck::Fixture, rule), unchanged, inside, *count);
        let (outside, count) = &self.outside;
        verdict.check_changes(
            (OwnCheck::Escape, rule),
            "nothing outside the roots changed",
            outside,
            *count,
        );
    }
}

/// The first call, for asking it again on another build of its fixture
/// (SEC-12's non-interference).
struct First<'a> {
    file: &'a Path,
    /// The fixture as the case wrote it: its twin is made from it, and it
    /// is built again to tell the tool's noise.
    fixture: &'a Fixture,
    built: &'a BuiltFixture,
    call: &'a Call,
    scratch: Option<&'a Path>,
    hang_timeout: Duration,
    /// The time a build gets ([`Deadline::for_build`]).
    limit: Duration,
}

/// The answer to the first call asked again.
struct Again {
    answer: ToolResult,
    /// The placeholders of the fixture it was asked on.
    vars: Placeholders,
    /// The first change outside every root that call made, if any.
    changed: Option<String>,
    violation: Option<AdapterFailure>,
}

impl First<'_> {
    /// SEC-12's non-interference for the first call's `answered`: the same
    /// call on the fixture's twin (the names in `mentioned` keep their
    /// place), and, only when the two answers differ, once more on the
    /// fixture built again, to leave out what differs between two answers
    /// of the same fixture; what the call changed outside every root on
    /// the twin is an escape too. Nothing is charged when the twin cannot
    /// be built or gets no answer. A violation found on the way goes to
    /// `violation` unless it holds one already.
    fn interference(
        &self,
        subject: &mut dyn Subject,
        mentioned: &str,
        answered: &Answer,
        vars: &Placeholders,
        violation: &mut Option<AdapterFailure>,
    ) -> Vec<(Channel, String)> {
        let mut seen = |found: Option<Again>| {
            let found = found?;
            if violation.is_none() {
                *violation = found.violation;
            }
            Some((found.answer, found.vars, found.changed))
        };
        let twin = fixture::twin(self.fixture, |name| mentioned.contains(name))
            .and_then(|twin| seen(self.again(subject, &twin, None)));
        let Some((answer, twin_vars, changed)) = twin else {
            return Vec::new();
        };
        let side = |answer, vars| interference::Side { answer, vars };
        let first = side(&answered.answer, vars);
        let (tool, unobserved) = (self.call.tool, &answered.unobserved);
        let differing = interference::differing(tool, first, side(&answer, &twin_vars), unobserved);
        let mut escapes = Vec::new();
        if !differing.is_empty() {
            let noise = match seen(self.again(subject, self.fixture, Some(self.built))) {
                Some((again, again_vars, _)) => {
                    let again = side(&again, &again_vars);
                    interference::differing(tool, first, again, unobserved)
                }
                // No answer to tell noise by: nothing is charged.
                None => differing.clone(),
            };
            escapes = interference::escapes(&differing, &noise);
        }
        if let Some(change) = changed {
            let change = format!("changed outside every root on the twin: {change}");
            escapes.push((Channel::Write, change));
        }
        escapes
    }

    /// The first call, asked on `fixture` (the twin) built anew, or, with
    /// `same`, on the first fixture built again byte for byte. `None` when
    /// it could not be built or got no answer: nothing can be compared.
    fn again(
        &self,
        subject: &mut dyn Subject,
        fixture: &Fixture,
        same: Option<&BuiltFixture>,
    ) -> Option<Again> {
        let built = match same {
            Some(like) => {
                let deadline = Deadline::for_build(self.limit, fixture.created().count());
                fixture::build_again(fixture, like, &deadline)
            }
            None => build(fixture, self.built.root.parent(), self.limit),
        }
        .ok()?;
        subject.ready(self.file).ok()?;
        let scratch = subject.scratch_dir().map(Path::to_path_buf);
        let vars = call::placeholders(&built.vars, scratch.as_deref());
        // The same call, with the other fixture's (and, should the subject
        // have started again, the other scratch directory's) paths.
        let mut moves = vec![(self.built.root.as_path(), built.root.as_path())];
        if let (Some(from), Some(to)) = (self.scratch, scratch.as_deref()) {
            moves.push((from, to));
        }
        let call = moved(self.call, &moves);
        let prepared = hand_over(subject, &built, &call).ok()?;
        let git_dirs = git_dirs(fixture, &built, &prepared);
        let roots = containment::root_places(&built.root, &call.workspace.roots);
        let before = snapshot::take(&built.root, &git_dirs);
        let hang = hang_bound(fixture, &built, self.hang_timeout);
        // The twin goes to a fresh server (`aside`): one kept across a
        // case file's instances could answer it from what it kept.
        subject.aside(true);
        let (answer, violation) = send(subject, &call, hang.as_ref());
        subject.aside(false);
        let answer = answer.ok()?;
        let after = snapshot::take(&built.root, &git_dirs);
        let changes = snapshot::diff(&before, &after, &[]);
        let outside: Vec<&Change> = (changes.iter())
            .filter(|c| containment::is_outside(c, &roots))
            .collect();
        let changed = (snapshot::topmost(&outside).first())
            .map(|c| c.describe(&built.root, |p| vars.collapse(p)));
        Some(Again {
            answer,
            vars,
            changed,
            violation,
        })
    }
}

/// `call` with every string of its parameters and workspace that holds a
/// path of `moves` holding the other path instead.
fn moved(call: &Call, moves: &[(&Path, &Path)]) -> Call {
    let text = |s: &str| {
        let mut s = s.to_owned();
        for (from, to) in moves {
            s = s.replace(&*from.to_string_lossy(), &to.to_string_lossy());
        }
        s
    };
    fn each(value: &mut Value, text: &dyn Fn(&str) -> String) {
        match value {
            Value::String(s) => *s = text(s),
            Value::Array(items) => items.iter_mut().for_each(|v| each(v, text)),
            Value::Object(map) => map.values_mut().for_each(|v| each(v, text)),
            _ => {}
        }
    }
    let mut call = call.clone();
    (call.params.values_mut()).for_each(|v| each(v, &text));
    call.workspace.roots = call.workspace.roots.iter().map(|r| text(r)).collect();
    call.workspace.target = text(&call.workspace.target);
    call
}

/// What the snapshot of `built` leaves out: its git repositories' `.git`
/// and what the subject prepared below it (bookkeeping).
fn git_dirs(fixture: &Fixture, built: &BuiltFixture, prepared: &[PathBuf]) -> Vec<Vec<u8>> {
    (fixture.git.iter())
        .map(|repo| format!("{}/.git", repo.as_str()).into_bytes())
        .chain(prepared.iter().filter_map(|dir| {
            let below = dir.strip_prefix(&built.root).ok()?;
            Some(below.as_os_str().as_encoded_bytes().to_vec())
        }))
        .collect()
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
    // Nothing prepared: no subject made this fixture ready.
    let skip = git_dirs(fixture, built, &[]);
    let roots = containment::root_places(&built.root, &call.workspace.roots);
    let now = snapshot::take(&built.root, &skip);
    let outside = Outside::before(&built.root, &roots, fixture, &built.canaries, &now);
    let command = call.params.get("command").and_then(|c| c.as_str());
    outside.escapes(call.tool, command, answer, &[])
}
