//! What the harness's unit tests share: cases whose answer is known, the
//! answers a scripted subject gives them, and the machine and the
//! cancellation they run with. Fixtures are built on disk as in a real run.

use std::path::Path;

use crate::harness::route::Machine;
use toolpath_suite::case::Case;
use toolpath_suite::case::validate::parse_case;
use toolpath_suite::protocol::{AdapterHello, ErrorCode, Tool, ToolResult};

/// The text of case `t.c{n}` (file `c{n}.yaml`): calling `tool` with
/// `params` on a workspace without that path is `not_found`.
pub fn case_text(n: usize, tool: &str, params: &str) -> String {
    format!(
        "id: t.c{n}\nsummary: s\nspec: [ERR-5]\nfixture: {{roots: [ws]}}\n\
         call: {{tool: {tool}, params: {params}}}\n\
         expect: {{outcome: error, error: {{code: not_found}}}}\n"
    )
}

/// Case `t.c{n}` (see [`case_text`]), validated.
pub fn case(n: usize, tool: &str, params: &str) -> Case {
    let text = case_text(n, tool, params);
    parse_case(Path::new(&format!("c{n}.yaml")), &text).unwrap()
}

/// `n` cases resolving a missing path: [`right`] answers each.
pub fn cases(n: usize) -> Vec<Case> {
    (0..n)
        .map(|i| case(i, "resolve", "{path: missing}"))
        .collect()
}

/// The right answer to [`cases`].
pub fn right() -> ToolResult {
    ToolResult::error(ErrorCode::NotFound, "missing: does not exist")
}

/// A wrong answer to [`cases`]: the wrong error code.
pub fn wrong() -> ToolResult {
    ToolResult::error(ErrorCode::PermissionDenied, "missing: permission denied")
}

/// The `hello` of a subject that takes `resolve` alone.
pub fn hello() -> AdapterHello {
    AdapterHello {
        protocol: 1,
        tools: vec![Tool::Resolve],
        ..AdapterHello::default()
    }
}

/// A machine that is not root, with no unprivileged runner.
pub const MACHINE: Machine = Machine {
    root: false,
    unprivileged_runner: false,
    subject_unprivileged: false,
};

/// A run no signal cancels.
pub fn never_cancelled() -> Option<i32> {
    None
}
