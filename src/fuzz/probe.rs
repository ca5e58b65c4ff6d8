//! One probe: build a sample's fixture, ask the reference, turn its answer
//! into the expectation a case would hold ([`crate::fuzz::from_reference`]), and
//! make the same call on the adapter and judge it by the path a suite run
//! takes for a case ([`call_on`]: the adapter made ready, the fixture
//! handed to its user, the FIFO bound, the harness's own judge). The probe
//! is a finding only where that path fails the adapter: what a case would
//! accept, fuzzing accepts too, and an adapter a case would find blocked
//! or unable to start is found so here.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::case::fixture::BuiltFixture;
use crate::fuzz::failed::Failed;
use crate::fuzz::from_reference::{allow_hidden, expect_of, portable_needles, required_in_message};
use crate::fuzz::rules::{self, Exchange};
use crate::fuzz::sample::{Rendered, Sample};
use crate::fuzz::signature::Signature;
use crate::harness::expected::Expected;
use crate::harness::judge::Verdict;
use crate::harness::judged_call::{self, Ask, Judged, OnSubject, call_on};
use crate::harness::snapshot::{self, ChangeKind, State};
use crate::report::Mismatch;
use crate::subject::{AdapterFailure, Subject};
use toolpath_suite::case::{Expect, FixturePath};
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::{Call, Field, ToolResult};

/// One call the adapter got wrong, by the judge's verdict.
#[derive(Debug, Clone)]
pub struct Divergence {
    pub rendered: Rendered,
    /// What failed.
    pub failed: Failed,
    /// Requirement IDs, the finding's rule first.
    pub rules: Vec<String>,
    /// What the case written for it expects (placeholders, as in a case
    /// file): the reference's answer, with the latitude of
    /// [`crate::fuzz::from_reference`].
    pub expect: Expect,
    /// The judge's mismatches and diff (placeholders); none for a failure.
    pub mismatches: Vec<Mismatch>,
    pub diff: String,
    pub actual: Result<ToolResult, AdapterFailure>,
    /// The adapter's answer (or failure) with placeholders, for the finding.
    pub actual_text: String,
    /// What the input is made of.
    pub signature: Signature,
}

impl Divergence {
    /// What failed and its rule: a divergence that shrinks must keep
    /// both. An adapter failure is keyed by its kind alone: which rule the
    /// crashing call was about says nothing.
    pub fn check(&self) -> (Failed, String) {
        if self.adapter_failed() {
            return (self.failed.clone(), String::new());
        }
        (self.failed.clone(), self.rules[0].clone())
    }

    pub fn adapter_failed(&self) -> bool {
        self.actual.is_err()
    }
}

/// Where and how probes run.
#[derive(Debug, Clone)]
pub struct Env {
    /// Whether restrictive modes may be generated (not as root).
    pub permissions: bool,
    /// Where fixtures are built (the system temporary directory if `None`).
    pub fixtures: Option<std::path::PathBuf>,
    /// How long a call on a fixture with FIFOs is waited for before they
    /// are released, as in a suite run ([`crate::subject::fifos`]).
    pub hang_timeout: std::time::Duration,
    /// The call's time limit: what a fixture's build gets, as in a suite
    /// run ([`judged_call::build`]).
    pub fixture_timeout: std::time::Duration,
}

impl Default for Env {
    fn default() -> Self {
        Env {
            permissions: false,
            fixtures: None,
            hang_timeout: crate::subject::fifos::DEFAULT_HANG_TIMEOUT,
            fixture_timeout: crate::subject::DEFAULT_CALL_TIMEOUT,
        }
    }
}

/// Fixtures go to a RAM file system when there is one: a fuzzing run
/// builds thousands, and on a journaling disk each `mkdir` costs about a
/// millisecond, which made fixture building most of an iteration's time.
pub fn ram_dir() -> Option<PathBuf> {
    let shm = PathBuf::from("/dev/shm");
    let writable = tempfile::Builder::new()
        .prefix("toolpath-probe-")
        .tempdir_in(&shm)
        .is_ok();
    writable.then_some(shm)
}

/// What a probe found.
#[derive(Debug)]
pub enum Probe {
    Agree,
    Diverge(Box<Divergence>),
    /// Not comparable: the fixture could not be built here, or the adapter
    /// answered `unsupported`.
    Skipped(String),
}

/// What the reference said about one call, kept for the finding.
struct Asked {
    answer: ToolResult,
    writes: Writes,
    /// The text an error message must hold, as placeholders (see
    /// [`portable_needles`]).
    written_needles: Vec<String>,
}

/// The adapter's side of one probe: the call as planned on its
/// placeholders, and its answer (with the judge's verdict) or its failure.
struct Reply {
    call: Call,
    vars: Placeholders,
    actual: Result<ToolResult, AdapterFailure>,
    /// The judge's verdict; `None` exactly when there is no answer.
    verdict: Option<Verdict>,
}

impl Reply {
    /// What the reply failed, or `None` when the judge found nothing: the
    /// probe is then no finding.
    fn failed(&self) -> Option<Failed> {
        match (&self.actual, &self.verdict) {
            (Err(failure), _) => Some(Failed::Subject(failure.kind)),
            (Ok(_), Some(v)) => Failed::of_mismatches(&v.mismatches),
            (Ok(_), None) => unreachable!("an answer is judged"),
        }
    }
}

/// Runs one sample against both subjects: on the adapter as a case's call
/// is made on a suite run's subject ([`call_on`]), the reference's answer
/// (on the adapter's placeholders) its expectation.
pub fn probe(
    sample: &Sample,
    env: &Env,
    reference: &mut dyn Subject,
    adapter: &mut dyn Subject,
) -> Probe {
    let rendered = sample.render(env.permissions);
    let fixtures = env.fixtures.as_deref();
    let built = match judged_call::build(&rendered.fixture, fixtures, env.fixture_timeout) {
        Ok(built) => built,
        Err(e) => return Probe::Skipped(format!("fixture: {e}")),
    };
    // Where `{adapter-tmp}` points when the adapter has no process to
    // name: the reference's own scratch directory, a directory outside
    // every root that the implementation owns all the same.
    let stand_in = reference.scratch_dir().map(Path::to_path_buf);
    let mut asked = None;
    // `{adapter-tmp}` is the adapter's scratch directory, for both
    // subjects: the same call goes to each. The sample's parameters go as
    // rendered (a shell call without `command` is one of its inputs).
    // Everything the answer is judged on is derived before the adapter is
    // called, as for a case (the fixture is the adapter's from then on).
    let mut expect = |call: &Call, vars: &mut Placeholders, scratch: Option<&Path>| {
        let (expected, said) =
            expectation(&rendered, env, reference, (&built, call, vars), scratch)?;
        asked = Some(said);
        Ok::<_, String>(expected)
    };
    let ask = Ask {
        name: "fuzz",
        tool: rendered.tool,
        params: &rendered.params,
    };
    let on = OnSubject {
        file: Path::new("fuzz"),
        fixture: &rendered.fixture,
        built: &built,
        ask,
        hang_timeout: env.hang_timeout,
        twin: None,
    };
    let roots = &built.workspace.roots;
    let relax = |expected: &mut Expected, actual: &ToolResult| latitude(expected, actual, roots);
    let called = match call_on(adapter, on, &mut expect, relax) {
        Ok(called) => called,
        Err(why) => return Probe::Skipped(why),
    };
    // An adapter that could not be made ready was sent nothing: the case
    // written for it expects what the reference answers.
    let (call, vars) = match called.planned {
        Some(planned) => planned,
        None => {
            let (call, mut vars) = judged_call::plan(ask, &built, stand_in.as_deref());
            match expect(&call, &mut vars, stand_in.as_deref()) {
                Ok(_) => (call, vars),
                Err(why) => return Probe::Skipped(why),
            }
        }
    };
    let asked = asked.expect("planned, so asked");
    let (actual, verdict) = match answered(called.judged, called.violation) {
        Ok(answered) => answered,
        Err(declined) => return Probe::Skipped(declined),
    };
    let reply = Reply {
        call,
        vars,
        actual,
        verdict,
    };
    match reply.failed() {
        None => Probe::Agree,
        Some(failed) => {
            Probe::Diverge(Box::new(divergence(sample, rendered, asked, reply, failed)))
        }
    }
}

/// The reference's answer to `call` on the adapter's fixture as what the
/// adapter's answer is judged against (a case's expectation, with the
/// latitude of [`crate::fuzz::from_reference`]), and what the finding keeps of it.
fn expectation(
    rendered: &Rendered,
    env: &Env,
    reference: &mut dyn Subject,
    (built, call, vars): (&BuiltFixture, &Call, &Placeholders),
    scratch: Option<&Path>,
) -> Result<(Expected, Asked), String> {
    let (answer, writes) =
        reference_answer(rendered, env, reference, (built, call, vars), scratch)?;
    let lexical = Exchange { call, actual: None }.lexical();
    let needles = required_in_message(&answer, lexical.as_deref(), &call.workspace.roots);
    let (needles, written_needles): (Vec<String>, Vec<String>) =
        portable_needles(&needles, vars).into_iter().unzip();
    let expected = Expected::derive(
        &Expect {
            writes: writes.clone(),
            ..expect_of(&answer, &needles, true)
        },
        &rendered.fixture,
        rendered.tool,
        None,
        vars,
        &built.root,
    );
    let asked = Asked {
        answer,
        writes,
        written_needles,
    };
    Ok((expected, asked))
}

/// The fuzzer's latitude (`fuzz::from_reference`), once the answer is known:
/// what the answer's own shape says is not owed.
fn latitude(expected: &mut Expected, actual: &ToolResult, roots: &[String]) {
    // RES-11: `parent` is judged where the adapter exposes it.
    if actual.parent.is_none() {
        expected.parent = None;
    }
    allow_hidden(expected, actual, roots);
}

/// The adapter's answer and its verdict, or its failure; `Err` with the
/// adapter's reason when it declined the call (not comparable). Output
/// written while no call was outstanding is a failure too, charged to
/// this input: a probe has no earlier answer to amend.
fn answered(
    judged: Result<Judged, AdapterFailure>,
    violation: Option<AdapterFailure>,
) -> Result<(Result<ToolResult, AdapterFailure>, Option<Verdict>), String> {
    let judged = match (judged, violation) {
        (Ok(_), Some(violation)) => Err(violation),
        (judged, _) => judged,
    };
    match judged {
        Err(failure) => Ok((Err(failure), None)),
        Ok(Judged::Declined(reason)) => Err(reason.unwrap_or_default()),
        Ok(Judged::Answered(judged)) => Ok((Ok(judged.answer), Some(judged.verdict))),
    }
}

/// A failed probe as a finding: the rule it is attributed to, the case
/// written for it (the reference's answer, with placeholders), and the
/// adapter's answer beside the judge's diff.
fn divergence(
    sample: &Sample,
    rendered: Rendered,
    asked: Asked,
    reply: Reply,
    failed: Failed,
) -> Divergence {
    let Asked {
        answer,
        writes,
        written_needles,
    } = asked;
    let Reply {
        call,
        vars,
        actual,
        verdict,
    } = reply;
    let exchange = Exchange {
        call: &call,
        actual: actual.as_ref().ok(),
    };
    let judged = (verdict.as_ref())
        .and_then(|v| v.mismatches.first())
        .and_then(|m| m.rule.as_deref());
    let rules = rules::rules(&answer, &exchange, &failed, judged);
    let actual_text = describe(&actual, &vars);
    let signature = match &actual {
        Err(_) => Signature::of(sample, &rendered).without_tool(),
        Ok(_) => Signature::of(sample, &rendered),
    };
    let (mismatches, diff) = verdict.map_or_else(Default::default, |v| {
        let diff = v.diff();
        (v.mismatches, diff)
    });
    Divergence {
        expect: Expect {
            writes,
            ..expect_of(
                &collapse_result(&answer, &vars),
                &written_needles,
                failed.field(Field::Parent),
            )
        },
        rendered,
        failed,
        rules,
        mismatches,
        diff,
        actual: actual.map(|a| collapse_result(&a, &vars)),
        actual_text,
        signature,
    }
}

/// What a call wrote, as a case's `writes`: each file and the bytes it holds.
type Writes = Vec<(FixturePath, Vec<u8>)>;

/// The reference's answer to `call` (on the adapter's fixture, in its
/// machine paths), and what it wrote, as a case's `writes`. A tool that
/// writes answers on a fixture of its own, built from the same sample, so
/// the adapter's is left as built: what the reference wrote there is the
/// write expected of the adapter (FILE-11), and its answer is moved onto
/// the adapter's fixture through placeholders.
fn reference_answer(
    rendered: &Rendered,
    env: &Env,
    reference: &mut dyn Subject,
    (built, call, vars): (&BuiltFixture, &Call, &Placeholders),
    scratch: Option<&Path>,
) -> Result<(ToolResult, Writes), String> {
    let answer = |reference: &mut dyn Subject, call: &Call, built: &BuiltFixture| {
        let answer = reference
            .call(call)
            .expect("the in-process reference always answers");
        // The reference's answer is the expectation: one the judge fails
        // (SEC-12) cannot be a case's, so the input is no finding but a
        // disagreement between the judge and the reference.
        let carried = judged_call::carried_out(&rendered.fixture, built, call, &answer);
        match carried.first() {
            None => Ok(answer),
            Some((channel, seen)) => Err(format!(
                "the reference's own answer fails SEC-12 ({}: {})",
                channel.name(),
                vars.collapse(seen)
            )),
        }
    };
    if !rendered.tool.writes() {
        return Ok((answer(reference, call, built)?, Vec::new()));
    }
    let own = judged_call::build(
        &rendered.fixture,
        env.fixtures.as_deref(),
        env.fixture_timeout,
    )
    .map_err(|e| format!("fixture: {e}"))?;
    let ask = Ask {
        name: &call.case,
        tool: rendered.tool,
        params: &rendered.params,
    };
    let (own_call, own_vars) = judged_call::plan(ask, &own, scratch);
    let git_dirs: Vec<Vec<u8>> = (rendered.fixture.git.iter())
        .map(|repo| format!("{}/.git", repo.as_str()).into_bytes())
        .collect();
    let before = snapshot::take(&own.root, &git_dirs);
    let own_answer = answer(reference, &own_call, &own)?;
    let after = snapshot::take(&own.root, &git_dirs);
    let mut writes = Vec::new();
    for change in snapshot::diff(&before, &after, &[]) {
        let written = match &change.kind {
            ChangeKind::Added(State::File { .. }) => true,
            ChangeKind::Changed { after, .. } => matches!(after, State::File { .. }),
            _ => false,
        };
        if !written {
            continue;
        }
        let path = String::from_utf8(change.path).map_err(|_| "a written name is not UTF-8")?;
        let bytes = std::fs::read(own.root.join(&path)).map_err(|e| format!("{path}: {e}"))?;
        let at = FixturePath::parse(&path).map_err(|e| format!("{path}: {e}"))?;
        writes.push((at, bytes));
    }
    let moved = vars.expand_json(
        &serde_json::to_value(collapse_result(&own_answer, &own_vars)).expect("results serialise"),
    );
    let answer = serde_json::from_value(moved).expect("expanding keeps the shape");
    Ok((answer, writes))
}

/// A result with machine paths replaced by placeholders, so it can go into
/// a case file and compare across runs.
fn collapse_result(result: &ToolResult, vars: &Placeholders) -> ToolResult {
    let json = serde_json::to_value(result).expect("results serialise");
    let collapsed = collapse_json(&json, vars);
    serde_json::from_value(collapsed).expect("collapsing keeps the shape")
}

fn collapse_json(value: &Value, vars: &Placeholders) -> Value {
    match value {
        Value::String(s) => Value::String(vars.collapse(s)),
        Value::Array(items) => Value::Array(items.iter().map(|v| collapse_json(v, vars)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), collapse_json(v, vars)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn describe(actual: &Result<ToolResult, AdapterFailure>, vars: &Placeholders) -> String {
    match actual {
        Ok(result) => {
            let mut json = serde_json::to_value(result).expect("results serialise");
            if let Value::Object(map) = &mut json {
                map.remove("seq");
                map.remove("description");
            }
            collapse_json(&json, vars).to_string()
        }
        Err(failure) => {
            let mut text = format!("adapter failure: {failure}");
            if !failure.stderr.is_empty() {
                let tail: Vec<&str> = failure.stderr.lines().rev().take(5).collect();
                text.push_str("\nstderr (last lines):");
                for line in tail.into_iter().rev() {
                    text.push_str("\n  ");
                    text.push_str(&vars.collapse(line));
                }
            }
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::pools::NAMES;
    use crate::fuzz::sample::{Arg, Base, CallSpec, EntryKind, Layout, PathText, SampleEntry};
    use crate::subject::{FailureKind, Reference};
    use toolpath_suite::protocol::{AdapterHello, Outcome};

    /// The reference with its answers bent by a function: an adapter that
    /// differs from it in one known way.
    struct Bent {
        reference: Reference,
        bend: fn(&Call, ToolResult) -> ToolResult,
    }

    impl Subject for Bent {
        fn hello(&self) -> &AdapterHello {
            self.reference.hello()
        }

        fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
            let answer = self.reference.call(call)?;
            Ok((self.bend)(call, answer))
        }

        fn scratch_dir(&self) -> Option<&std::path::Path> {
            self.reference.scratch_dir()
        }

        fn user(&self) -> Option<(u32, u32)> {
            self.reference.user()
        }
    }

    /// The reference, saying it runs as the unprivileged user, noting who
    /// owned the workspace when each call came (`None` before any).
    #[derive(Default)]
    struct AsNobody {
        reference: Reference,
        owner: Option<(u32, u32)>,
    }

    impl Subject for AsNobody {
        fn hello(&self) -> &AdapterHello {
            self.reference.hello()
        }

        fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
            use std::os::unix::fs::MetadataExt;
            let root = std::fs::metadata(&call.workspace.roots[0]).unwrap();
            self.owner = Some((root.uid(), root.gid()));
            self.reference.call(call)
        }

        fn scratch_dir(&self) -> Option<&std::path::Path> {
            self.reference.scratch_dir()
        }

        fn user(&self) -> Option<(u32, u32)> {
            Some(crate::sys::UNPRIVILEGED_USER)
        }
    }

    /// The reference, but never ready: a restart refused.
    struct NeverReady(Reference);

    impl Subject for NeverReady {
        fn hello(&self) -> &AdapterHello {
            self.0.hello()
        }

        fn ready(&mut self, _: &Path) -> Result<(), AdapterFailure> {
            Err(AdapterFailure {
                kind: FailureKind::BadOutput,
                message: "its hello was refused".into(),
                stderr: "starting again\n".into(),
            })
        }

        fn call(&mut self, _: &Call) -> Result<ToolResult, AdapterFailure> {
            panic!("called, though not ready")
        }

        fn user(&self) -> Option<(u32, u32)> {
            None
        }
    }

    fn sample(layout: Layout, names: &[&str], call: CallSpec) -> Sample {
        let at = |n: &str| NAMES.iter().position(|x| *x == n).unwrap();
        Sample {
            layout,
            outside: false,
            target_below: None,
            entries: (names.iter())
                .map(|n| SampleEntry {
                    base: Base::First,
                    dirs: Vec::new(),
                    name: at(n),
                    kind: EntryKind::File(vec![0]),
                    locked: false,
                })
                .collect(),
            git: false,
            call,
            linked_root: false,
            extra: None,
        }
    }

    fn run(sample: &Sample, bend: fn(&Call, ToolResult) -> ToolResult) -> Option<Divergence> {
        let mut adapter = Bent {
            reference: Reference::default(),
            bend,
        };
        match probe(sample, &env(), &mut Reference::default(), &mut adapter) {
            Probe::Agree => None,
            Probe::Diverge(d) => Some(*d),
            Probe::Skipped(why) => panic!("skipped: {why}"),
        }
    }

    fn ls() -> CallSpec {
        CallSpec::Ls {
            dir_path: Arg::Absent,
            path: Arg::Absent,
        }
    }

    fn env() -> Env {
        Env {
            fixtures: ram_dir(),
            ..Env::default()
        }
    }

    /// An adapter running as another user gets its fixture handed to that
    /// user before the call, as a suite run's does ([`Subject::user`]).
    #[test]
    fn the_fixture_is_handed_to_the_user_the_adapter_runs_as() {
        if !crate::test_support::root_or_skip("handing a fixture to another user") {
            return;
        }
        let sample = sample(Layout::Single, &["a"], ls());
        let mut adapter = AsNobody::default();
        let probed = probe(&sample, &env(), &mut Reference::default(), &mut adapter);
        assert!(matches!(probed, Probe::Agree), "{probed:?}");
        assert_eq!(adapter.owner, Some(crate::sys::UNPRIVILEGED_USER));
    }

    /// A subject that cannot be made ready is that probe's failure, with
    /// its reason and standard error: a finding, and nothing is sent.
    #[test]
    fn a_subject_never_ready_is_a_finding_with_the_reason() {
        let sample = sample(Layout::Single, &["a"], ls());
        let mut adapter = NeverReady(Reference::default());
        let d = match probe(&sample, &env(), &mut Reference::default(), &mut adapter) {
            Probe::Diverge(d) => d,
            other => panic!("{other:?}"),
        };
        assert_eq!(d.failed, Failed::Subject(FailureKind::BadOutput));
        assert_eq!(d.failed.names(), ["adapter.bad-output"]);
        assert!(d.adapter_failed());
        assert_eq!(
            d.actual_text,
            "adapter failure: bad output: its hello was refused\n\
             stderr (last lines):\n  starting again"
        );
        // The case written for it expects the reference's answer.
        let entries = d.expect.entries.as_deref().unwrap_or_default();
        assert!(entries.iter().any(|(p, _)| p == "{ws}/a"), "{entries:?}");
    }

    /// SHELL-6 as the judge reads it: `pwd` may print the directory by its
    /// real path and without a final newline; another directory is wrong.
    #[test]
    fn a_shell_that_prints_the_real_path_is_no_finding() {
        let shell = CallSpec::Shell {
            command: Arg::Given(()),
            dir_path: Arg::Given(PathText::Literal("{tmp}/alias".into())),
            directory: Arg::Absent,
        };
        let sample = sample(Layout::Aliased, &[], shell);
        let real = |_: &Call, mut r: ToolResult| {
            let cwd = r.cwd.clone().unwrap();
            let real = std::fs::canonicalize(&cwd).unwrap();
            assert_ne!(real.to_str().unwrap(), cwd, "the alias is a link");
            r.output = Some(real.to_string_lossy().into_owned());
            r
        };
        assert!(run(&sample, real).is_none());
        let elsewhere = |_: &Call, mut r: ToolResult| {
            r.output = Some("/\n".into());
            r
        };
        let d = run(&sample, elsewhere).expect("ran elsewhere");
        assert_eq!(d.rules[0], "SHELL-6");
        // And, as the worker judges it, a command that saw `/` saw
        // outside every root (SEC-12's exec channel).
        assert_eq!(judged(&d), [("output", "SHELL-6"), ("outside", "SEC-12")]);
    }

    /// The judge's checks that failed, by field and rule.
    fn judged(d: &Divergence) -> Vec<(&str, &str)> {
        (d.mismatches.iter())
            .map(|m| (m.field.head(), m.rule.as_deref().unwrap_or_default()))
            .collect()
    }

    /// LS-3: leaving out a name beginning with `.` is no finding; leaving
    /// out another name is, and says so.
    #[test]
    fn an_ls_that_skips_dot_names_is_no_finding() {
        let ls = CallSpec::Ls {
            dir_path: Arg::Absent,
            path: Arg::Absent,
        };
        let sample = sample(Layout::Single, &[".hidden", "a"], ls);
        let skip = |_: &Call, mut r: ToolResult| {
            let entries = r.entries.as_mut().unwrap();
            assert_eq!(entries.len(), 2);
            entries.retain(|e| !e.path.ends_with("/.hidden"));
            r
        };
        assert!(run(&sample, skip).is_none());
        let drop_a = |_: &Call, mut r: ToolResult| {
            r.entries
                .as_mut()
                .unwrap()
                .retain(|e| !e.path.ends_with("/a"));
            r
        };
        let d = run(&sample, drop_a).expect("a name left out");
        assert_eq!(
            (d.failed.names(), d.rules[0].as_str()),
            (vec!["entries"], "LS-3")
        );
        assert!(d.diff.contains("{ws}/a file"), "{}", d.diff);
    }

    /// SEC-12's read channel, as the worker judges it: an answer that
    /// carries an outside file's text is a finding, though every field a
    /// case compares (the `model_text` only has to contain the path) is
    /// right.
    #[test]
    fn an_answer_that_carries_an_outside_file_is_a_finding() {
        let ls = CallSpec::Ls {
            dir_path: Arg::Absent,
            path: Arg::Absent,
        };
        let mut sample = sample(Layout::Single, &["a"], ls);
        sample.outside = true;
        sample.entries[0].base = Base::Outside;
        let leak = |call: &Call, mut r: ToolResult| {
            let outside = Path::new(&call.workspace.roots[0]).join("../outside/a");
            let text = std::fs::read_to_string(outside).unwrap();
            r.model_text = Some(format!("{}\n{text}", r.model_text.unwrap()));
            r
        };
        let d = run(&sample, leak).expect("read outside");
        assert_eq!(judged(&d), [("outside", "SEC-12")]);
        assert_eq!(d.rules[0], "SEC-12");
        assert!(d.diff.contains("read: "), "{}", d.diff);
    }

    /// SEC-9 and SEC-11: a path the call names in the adapter's own
    /// scratch directory, refused as outside and made all the same, is a
    /// change outside every root (an escape, as the worker judges it),
    /// though it is not in the fixture.
    #[test]
    fn a_refused_path_made_in_the_adapter_s_own_directory_is_a_finding() {
        let resolve = CallSpec::Resolve {
            path: Arg::Given(PathText::Literal("{adapter-tmp}/made/here".into())),
        };
        let sample = sample(Layout::Single, &[], resolve);
        assert!(run(&sample, |_, r| r).is_none(), "refused, nothing made");
        let made = |call: &Call, r: ToolResult| {
            assert_eq!(r.outcome, Some(Outcome::Error));
            let path = call.params["path"].as_str().unwrap();
            std::fs::create_dir_all(path).unwrap();
            r
        };
        let d = run(&sample, made).expect("made where it refused");
        assert_eq!(judged(&d), [("escape", "SEC-11")]);
        assert_eq!(d.rules[0], "SEC-11");
        assert!(
            d.diff.contains("+ {adapter-tmp}/made (directory)"),
            "{}",
            d.diff
        );
    }
}
