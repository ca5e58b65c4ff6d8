//! The call: which tools a case runs against, the parameters it sends
//! (no YAML 1.1 word read as a boolean), a `describe` that has a schema to
//! describe, and no shell command other than `pwd`; or, for a matrix
//! case, the same for each of its cells ([`matrix`]).

pub mod matrix;

use serde_json::{Map, Value};
use serde_saphyr::Spanned;

use super::FileProblems;
use crate::case::Action;
use crate::case::error::quote;
use crate::case::raw::{RawCall, SpannedMap};
use crate::protocol::Tool;

/// The tools the case runs against and what it does with them; both are
/// returned whatever was wrong, so the expectation can still be checked
/// against them.
pub fn check(findings: &mut FileProblems, raw: Spanned<RawCall>) -> (Vec<Tool>, Action) {
    let at = raw.referenced;
    let raw = raw.value;
    let tools = raw.tool.tools();
    let params = params(findings, raw.params, "call.params");
    let action = match raw.describe {
        Some(param) => {
            if !params.is_empty() {
                findings.error(at, "call: `describe` and `params` exclude each other");
            }
            if tools == [Tool::Resolve] {
                findings.error(
                    at,
                    "call.describe: `resolve` is not shown to models and has no schema",
                );
            }
            Action::Describe(param)
        }
        None => {
            if tools == [Tool::Shell]
                && let Err(message) = check_command(&params)
            {
                findings.error(at, message);
            }
            Action::Invoke(params)
        }
    };
    (tools, action)
}

/// The parameters as sent, refusing a boolean spelt as a YAML 1.1 word.
///
/// YAML 1.1 reads `yes`, `no`, `on`, `off` (and more) as booleans, YAML
/// 1.2 as strings; a case author may mean either. Lint refuses the
/// ambiguity outright (an error, not a warning: a warning is easy to miss
/// and the fix is one word): write `true`/`false` for a boolean, or quote
/// the word for a string.
fn params(
    findings: &mut FileProblems,
    raw: SpannedMap<Spanned<Value>>,
    field: &str,
) -> Map<String, Value> {
    let mut params = Map::new();
    for (key, value) in raw.0 {
        if value.value.is_boolean() {
            let spelt = findings.scalar_at(value.referenced);
            if !spelt.eq_ignore_ascii_case("true") && !spelt.eq_ignore_ascii_case("false") {
                findings.error(
                    value.referenced,
                    format!(
                        "{field}.{}: `{}` is a YAML 1.1 word read as the boolean {}; write `{}` for a boolean or quote it for a string",
                        quote(&key.value),
                        quote(&spelt),
                        value.value,
                        value.value
                    ),
                );
            }
        }
        params.insert(key.value, value.value);
    }
    params
}

/// The harness only ever runs `pwd` or `ls` (SHELL-6 is about where, not
/// what: `pwd` names the directory, `ls` shows what is in it, so a tool
/// that fakes one cannot fake the other), so a case file from a stranger
/// cannot run anything else on the machine. A case may still give a
/// command the tool must refuse before running anything: one that is
/// empty, not a string, or contains a NUL byte.
fn check_command(params: &Map<String, Value>) -> Result<(), String> {
    match params.get("command") {
        Some(Value::String(c))
            if !(c.is_empty() || c.contains('\0') || SAFE_COMMANDS.contains(&c.as_str())) =>
        {
            Err(format!(
                "call.params.command: `{}` would run on this machine; the harness only runs `pwd` or `ls` \
             (a case may give an empty command, a non-string or one with a NUL byte)",
                quote(c)
            ))
        }
        _ => Ok(()),
    }
}

/// The commands a case may have the shell run (`cases/README.md`).
pub const SAFE_COMMANDS: &[&str] = &["pwd", "ls"];
