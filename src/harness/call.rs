//! The one place a call is built: the case's parameters with this fixture's
//! paths in them, `{adapter-tmp}` naming the scratch directory of the
//! process the call goes to. `toolpath run` and `toolpath fuzz` both build
//! their calls here, and the placeholders a call was built with are the
//! ones its answer is judged with, so the two can never disagree.

use std::path::Path;

use serde_json::{Map, Value};

use crate::case::fixture::BuiltFixture;
use toolpath_suite::case::Instance;

use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::{Call, Tool, Workspace};

/// The placeholder naming the answering process's own temporary directory.
pub const ADAPTER_TMP: &str = "adapter-tmp";

/// The fixture's placeholders plus `{adapter-tmp}`, when the subject that
/// will answer has a scratch directory (`scratch`).
pub fn placeholders(fixture: &Placeholders, scratch: Option<&Path>) -> Placeholders {
    let mut vars = fixture.clone();
    if let Some(scratch) = scratch {
        vars.add(ADAPTER_TMP, &scratch.to_string_lossy());
    }
    vars
}

/// A call of `tool` with `params` as given, their placeholders expanded by
/// `vars`; `case` names it in the adapter's logs. `seq` is left 0: the
/// subject numbers its own calls.
pub fn build(
    tool: Tool,
    case: String,
    params: &Map<String, Value>,
    vars: &Placeholders,
    workspace: &Workspace,
) -> Call {
    let params = match vars.expand_json(&Value::Object(params.clone())) {
        Value::Object(map) => map,
        _ => unreachable!("an object expands to an object"),
    };
    Call {
        seq: 0,
        case,
        workspace: workspace.clone(),
        tool,
        params,
    }
}

/// The call for one case instance, as a run sends it: [`build`] with
/// the parameters [`with_command`] gives.
pub fn for_instance(
    instance: &Instance,
    params: &Map<String, Value>,
    vars: &Placeholders,
    built: &BuiltFixture,
) -> Call {
    let params = with_command(instance.tool, params);
    build(
        instance.tool,
        instance.id(),
        &params,
        vars,
        &built.workspace,
    )
}

/// A case's parameters as they are sent: a shell case that gives no
/// command runs `pwd` (SHELL-6 is judged on its output).
pub fn with_command(tool: Tool, params: &Map<String, Value>) -> Map<String, Value> {
    let mut params = params.clone();
    if tool == Tool::Shell && !params.contains_key("command") {
        params.insert("command".into(), Value::String("pwd".into()));
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Placeholders {
        Placeholders::new("/t", "/t/ws", &[("ws".into(), "/t/ws".into())])
    }

    #[test]
    fn adapter_tmp_is_added_once_and_expanded_in_parameters() {
        let vars = placeholders(&vars(), Some(Path::new("/run/a-1")));
        assert_eq!(vars.expand("{adapter-tmp}/x"), "/run/a-1/x");
        let params = serde_json::json!({"dir_path": "{adapter-tmp}", "n": ["{ws}/a"]});
        let workspace = Workspace {
            roots: vec!["/t/ws".into()],
            target: "/t/ws".into(),
        };
        let call = build(
            Tool::Ls,
            "c".into(),
            params.as_object().unwrap(),
            &vars,
            &workspace,
        );
        assert_eq!(call.params["dir_path"], "/run/a-1");
        assert_eq!(call.params["n"][0], "/t/ws/a");
        assert_eq!((call.seq, call.case.as_str()), (0, "c"));
        let without = placeholders(&self::vars(), None);
        assert_eq!(without.expand("{adapter-tmp}"), "{adapter-tmp}");
    }
}
