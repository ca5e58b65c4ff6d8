//! What the harness's unit tests share: cases whose answer is known, the
//! answers a scripted subject gives them, and the machine and the
//! cancellation they run with. Fixtures are built on disk as in a real run.

use std::path::Path;

use crate::harness::route::Machine;
use toolpath_suite::case::Case;
use toolpath_suite::case::validate::parse_case;
use toolpath_suite::protocol::{AdapterHello, ErrorCode, Tool, ToolResult};

/// Case `t.{n}`: resolving a missing path is `not_found`.
pub fn case(n: usize, tool: &str, params: &str) -> Case {
    let text = format!(
        "id: t.c{n}\nsummary: s\nspec: [ERR-5]\nfixture: {{roots: [ws]}}\n\
         call: {{tool: {tool}, params: {params}}}\n\
         expect: {{outcome: error, error: {{code: not_found}}}}\n"
    );
    parse_case(Path::new(&format!("c{n}.yaml")), &text).unwrap()
}

pub fn cases(n: usize) -> Vec<Case> {
    (0..n)
        .map(|i| case(i, "resolve", "{path: missing}"))
        .collect()
}

pub fn right() -> ToolResult {
    ToolResult::error(ErrorCode::NotFound, "missing: does not exist")
}

pub fn wrong() -> ToolResult {
    ToolResult::error(ErrorCode::PermissionDenied, "missing: permission denied")
}

pub fn hello() -> AdapterHello {
    AdapterHello {
        protocol: 1,
        tools: vec![Tool::Resolve],
        ..AdapterHello::default()
    }
}

pub const MACHINE: Machine = Machine {
    root: false,
    unprivileged_runner: false,
};

pub fn never_cancelled() -> Option<i32> {
    None
}
