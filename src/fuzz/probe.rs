//! One probe: build a sample's fixture, ask the reference and the adapter
//! the same call, and say where their answers differ.

use std::path::PathBuf;

use serde_json::Value;

use crate::case::fixture;
use crate::fuzz::divergence::{Field, differing_fields, required_in_message};
use crate::fuzz::rules::{self, Call as RuleCall};
use crate::fuzz::sample::{Rendered, Sample};
use crate::harness::call;
use crate::harness::snapshot;
use crate::subject::{AdapterFailure, FailureKind, Subject};
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::{Outcome, ToolResult};

/// The two answers to one call, and where they differ.
#[derive(Debug, Clone)]
pub struct Divergence {
    pub rendered: Rendered,
    /// The differing fields; `adapter.crash`, `adapter.timeout`, ... when
    /// the adapter failed instead of answering.
    pub fields: Vec<Field>,
    /// Requirement IDs, the finding's rule first.
    pub rules: Vec<String>,
    pub reference: ToolResult,
    pub actual: Result<ToolResult, AdapterFailure>,
    /// What the error message must contain, with placeholders (`{ws}`).
    pub message_needles: Vec<String>,
    /// The adapter's answer (or failure) with placeholders, for the finding.
    pub actual_text: String,
}

impl Divergence {
    /// Deduplication key: the set of differing fields and the rule. An
    /// adapter failure is keyed by its kind alone: an adapter that crashes
    /// on every call is one finding, not one per rule the calls touch.
    pub fn key(&self) -> (Vec<Field>, String) {
        if self.adapter_failed() {
            return (self.fields.clone(), String::new());
        }
        (self.fields.clone(), self.rules[0].clone())
    }

    pub fn adapter_failed(&self) -> bool {
        self.actual.is_err()
    }
}

/// Where and how probes run.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// Whether restrictive modes may be generated (not as root).
    pub permissions: bool,
    /// Where fixtures are built (the system temporary directory if `None`).
    pub fixtures: Option<std::path::PathBuf>,
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

/// Runs one sample against both subjects.
pub fn probe(
    sample: &Sample,
    env: &Env,
    reference: &mut dyn Subject,
    adapter: &mut dyn Subject,
) -> Probe {
    let rendered = sample.render(env.permissions);
    let built = match fixture::build(&rendered.fixture, env.fixtures.as_deref()) {
        Ok(built) => built,
        Err(e) => return Probe::Skipped(format!("fixture: {e}")),
    };
    // `{adapter-tmp}` is the adapter's scratch directory, for both
    // subjects: the same call goes to each. The sample's parameters go as
    // rendered (a shell call without `command` is one of its inputs).
    let _ = adapter.ready();
    let vars = call::placeholders(&built.vars, adapter.scratch_dir());
    let call = call::build(
        rendered.tool,
        "fuzz".into(),
        &rendered.params,
        &vars,
        &built.workspace,
    );
    let expected = reference
        .call(&call)
        .expect("the in-process reference always answers");
    // SEC-11, as for every case: the adapter's call must leave the fixture
    // as it was (the reference's was checked by its own cases).
    let git_dirs: Vec<Vec<u8>> = (rendered.fixture.git.iter())
        .map(|repo| format!("{}/.git", repo.as_str()).into_bytes())
        .collect();
    let before = snapshot::take(&built.root, &git_dirs);
    let actual = adapter.call(&call).and_then(|result| {
        // Output written while no call was outstanding is a finding too.
        adapter.take_violation().map_or(Ok(result), Err)
    });
    let changed = !snapshot::diff(&before, &snapshot::take(&built.root, &git_dirs), &[]).is_empty();
    let rule_call = RuleCall {
        tool: call.tool,
        params: &call.params,
        workspace: &call.workspace,
        actual: actual.as_ref().ok(),
    };
    let needles = required_in_message(
        &expected,
        rule_call.lexical().as_deref(),
        &call.workspace.roots,
    );
    let fields = match &actual {
        Err(failure) => vec![match failure.kind {
            FailureKind::Timeout => "adapter.timeout",
            FailureKind::NeverAnswered => "server.never-answered",
            FailureKind::BadOutput => "adapter.bad-output",
            FailureKind::WrongSeq => "adapter.wrong-seq",
            FailureKind::Unsolicited => "adapter.unsolicited",
            FailureKind::Cancelled => "adapter.cancelled",
            FailureKind::Start => "adapter.start",
            FailureKind::Crash | FailureKind::GaveUp => "adapter.crash",
        }],
        Ok(a) if a.outcome == Some(Outcome::Unsupported) => {
            return Probe::Skipped(a.reason.clone().unwrap_or_default());
        }
        Ok(a) => {
            // Not observed: what the adapter declared for this tool, and
            // what it says it derived in this answer.
            let mut unobserved = adapter.hello().unobservable_for(call.tool);
            unobserved.extend(a.derived.iter().cloned());
            let mut fields = differing_fields(&expected, a, &needles, &unobserved);
            if changed {
                fields.push("fixture");
            }
            fields
        }
    };
    if fields.is_empty() {
        return Probe::Agree;
    }
    let rules = rules::rules(&expected, &rule_call, &fields);
    let actual_text = describe(&actual, &vars);
    Probe::Diverge(Box::new(Divergence {
        rendered,
        fields,
        rules,
        reference: collapse_result(&expected, &vars),
        actual: actual.map(|a| collapse_result(&a, &vars)),
        message_needles: portable_needles(&needles, &vars),
        actual_text,
    }))
}

/// The message needles a written case can require, with placeholders. A
/// needle beside the fixture directory rather than below a placeholder
/// (`{tmp}/../a` resolves to a sibling of `{tmp}`) names a place that moves
/// with every run, so the case cannot require it; the probe judged it all
/// the same. A path the call wrote from `/` (`/a`) is the same everywhere
/// and is kept.
fn portable_needles(needles: &[String], vars: &Placeholders) -> Vec<String> {
    let tmp = vars.expand("{tmp}");
    let top = |p: &str| p.split('/').nth(1).map(str::to_owned);
    needles
        .iter()
        .map(|n| (n, vars.collapse(n)))
        .filter(|(raw, collapsed)| collapsed.starts_with('{') || top(raw) != top(&tmp))
        .map(|(_, collapsed)| collapsed)
        .collect()
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

    #[test]
    fn needles_that_move_with_the_run_are_not_written() {
        let ws = ("ws".to_owned(), "/dev/shm/run-1/ws".to_owned());
        let vars = Placeholders::new("/dev/shm/run-1", "/dev/shm/run-1/ws", &[ws]);
        let needles = [
            "/dev/shm/run-1/ws/a".to_owned(),
            "/dev/shm/a".to_owned(),
            "/a".to_owned(),
            "/".to_owned(),
        ];
        assert_eq!(
            portable_needles(&needles, &vars),
            ["{ws}/a", "/a", "/"],
            "a sibling of {{tmp}} is dropped, paths from `/` are kept"
        );
    }
}
