//! Where an instance goes. An instance the adapter cannot take is
//! `unsupported` (a tool or feature it does not declare); one this machine
//! cannot observe, or one of the subject's own ignore file when it names
//! none, is `skip`, with the reason, never passed silently; the
//! rest are sent to the subject, or, for a permission case when the harness
//! is root (root ignores permission bits), to the subject itself when it
//! already runs as an unprivileged user (an adapter or server, by
//! default: the run's own, `session::run_user`), else to a copy of it
//! running as that user (the in-process reference's `toolpath serve`, or any subject
//! run with `--subject-as-root`).
//!
//! The decision is a pure function of the adapter's `hello`, the case and
//! the [`Machine`], so every branch is tested without processes.

use crate::report::Status;
use toolpath_suite::case::Instance;
use toolpath_suite::case::raw::Feature;
use toolpath_suite::protocol::AdapterHello;

/// Why a case of the subject's own ignore file (`own_ignore_files`) is
/// skipped for a subject that names none: there is no name to put the
/// file under, and a case built without it would pass for nothing.
pub const NO_OWN_IGNORE_FILE: &str =
    "the implementation announces no ignore file of its own (hello `ignore_files`)";

/// Where a runnable instance is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// To the subject itself.
    Normal = 0,
    /// To the subject's copy running as the unprivileged user.
    Unprivileged = 1,
}

/// Why an instance is not sent: the status to report and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: Status,
    pub reason: String,
}

impl Refusal {
    fn new(status: Status, reason: impl Into<String>) -> Refusal {
        Refusal {
            status,
            reason: reason.into(),
        }
    }

    /// The unprivileged copy was needed and could not be started.
    pub fn unprivileged_failed(message: &str) -> Refusal {
        Refusal::new(
            Status::Skip,
            format!(
                "permission bits are not enforced for root, and the unprivileged runner failed: {message}"
            ),
        )
    }
}

/// What this machine can observe, found once per run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Machine {
    /// The harness runs as root: permission bits are not enforced for it,
    /// and only it can create device nodes.
    pub root: bool,
    /// A way to start the subject as the unprivileged user was given.
    pub unprivileged_runner: bool,
    /// The subject itself runs as the unprivileged user: permission bits
    /// hold for it, and no copy is needed.
    pub subject_unprivileged: bool,
}

impl Machine {
    /// This machine, with or without an unprivileged runner, its subject
    /// unprivileged itself or not.
    pub fn here(unprivileged_runner: bool, subject_unprivileged: bool) -> Machine {
        Machine {
            root: crate::sys::is_root(),
            unprivileged_runner,
            subject_unprivileged,
        }
    }
}

/// Decides whether `instance` can be sent to the adapter that said `hello`,
/// and where.
pub fn route(
    hello: &AdapterHello,
    instance: &Instance,
    machine: &Machine,
    subject: &str,
) -> Result<Route, Refusal> {
    let case = instance.case;
    if !hello.tools.contains(&instance.tool) {
        return Err(Refusal::new(
            Status::Unsupported,
            format!(
                "the {subject} does not provide the `{}` tool",
                instance.tool
            ),
        ));
    }
    for feature in &case.requires {
        let reason = match feature {
            &declared if Feature::DECLARED.contains(&declared) && !hello.declares(declared) => {
                format!(
                    "the {subject} does not declare the `{}` feature",
                    feature.name()
                )
            }
            Feature::Schemas if !hello.schemas.contains_key(instance.tool.name()) => {
                format!("the {subject} publishes no schema for `{}`", instance.tool)
            }
            _ => continue,
        };
        return Err(Refusal::new(Status::Unsupported, reason));
    }
    if !case.fixture.own_ignore_files.is_empty() && hello.ignore_files.is_empty() {
        return Err(Refusal::new(Status::Skip, NO_OWN_IGNORE_FILE));
    }
    if case.requires.contains(&Feature::Devices) && !machine.root {
        return Err(Refusal::new(
            Status::Skip,
            "creating a device node needs root; this harness is not root",
        ));
    }
    let permissions = case.requires.contains(&Feature::Permissions);
    if !(permissions && machine.root) || machine.subject_unprivileged {
        return Ok(Route::Normal);
    }
    if !machine.unprivileged_runner {
        return Err(Refusal::new(
            Status::Skip,
            "permission bits are not enforced for root, and no unprivileged runner is available",
        ));
    }
    Ok(Route::Unprivileged)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use strum::VariantArray;
    use toolpath_suite::case::Case;
    use toolpath_suite::case::validate::parse_case;
    use toolpath_suite::protocol::Tool;

    /// A plain case, said to require `requires` (routing reads only the
    /// declaration; validation would want a fixture that uses it).
    fn case(requires: &str, tool: &str) -> Case {
        let text = format!(
            "id: r.x\nsummary: s\nspec: [RES-1]\n\
             fixture: {{roots: [ws], files: {{ws/a: x}}}}\n\
             call: {{tool: {tool}, params: {{path: a}}}}\nexpect: {{outcome: ok}}\n"
        );
        let mut case = parse_case(Path::new("r.yaml"), &text).unwrap();
        let named = |name: &str| {
            *Feature::VARIANTS
                .iter()
                .find(|f| f.name() == name)
                .expect("a feature")
        };
        case.requires = requires
            .split(',')
            .filter(|r| !r.is_empty())
            .map(named)
            .collect();
        case
    }

    fn hello(tools: &[Tool], features: &[Feature]) -> AdapterHello {
        AdapterHello {
            protocol: 1,
            tools: tools.to_vec(),
            features: features.to_vec(),
            ..AdapterHello::default()
        }
    }

    const PLAIN: Machine = Machine {
        root: false,
        unprivileged_runner: false,
        subject_unprivileged: false,
    };

    fn decide(requires: &str, hello: &AdapterHello, machine: &Machine) -> Result<Route, Refusal> {
        let case = case(requires, "resolve");
        let instance = case.instances().next().unwrap();
        route(hello, &instance, machine, "adapter")
    }

    #[test]
    fn a_tool_or_feature_not_declared_is_unsupported_with_the_reason() {
        let none = hello(&[Tool::Grep], &[]);
        let refused = decide("", &none, &PLAIN).unwrap_err();
        assert_eq!(refused.status, Status::Unsupported);
        assert_eq!(
            refused.reason,
            "the adapter does not provide the `resolve` tool"
        );
        let resolve = hello(&[Tool::Resolve], &[]);
        let refused = decide("symlinks", &resolve, &PLAIN).unwrap_err();
        assert_eq!(
            refused,
            Refusal::new(
                Status::Unsupported,
                "the adapter does not declare the `symlinks` feature"
            )
        );
        let linked = hello(&[Tool::Resolve], &[Feature::Symlinks]);
        assert_eq!(decide("symlinks", &linked, &PLAIN), Ok(Route::Normal));
        let refused = decide("schemas", &resolve, &PLAIN).unwrap_err();
        assert_eq!(
            refused.reason,
            "the adapter publishes no schema for `resolve`"
        );
        // An MCP server is the implementation: the reason says so.
        let instance = case("schemas", "resolve");
        let instance = instance.instances().next().unwrap();
        let refused = route(&resolve, &instance, &PLAIN, "server").unwrap_err();
        assert_eq!(
            refused.reason,
            "the server publishes no schema for `resolve`"
        );
    }

    #[test]
    fn what_this_machine_cannot_observe_is_skipped_with_the_reason() {
        let h = hello(&[Tool::Resolve], &[Feature::Devices]);
        // Fixture repositories are written in-process: no `git` is needed.
        assert_eq!(decide("git", &h, &PLAIN), Ok(Route::Normal));
        let refused = decide("devices", &h, &PLAIN).unwrap_err();
        assert_eq!(refused.status, Status::Skip);
        assert!(refused.reason.contains("needs root"), "{}", refused.reason);
        let root = Machine {
            root: true,
            ..PLAIN
        };
        assert_eq!(decide("devices", &h, &root), Ok(Route::Normal));
    }

    /// A case of the subject's own ignore file needs its name: a subject
    /// that announces none has it skipped (never passed), with the reason.
    #[test]
    fn an_own_ignore_file_case_is_skipped_for_a_subject_announcing_none() {
        let text = "id: r.x\nsummary: s\nspec: [RES-1]\n\
             fixture: {roots: [ws], own_ignore_files: {ws: \"a\\n\"}}\n\
             call: {tool: resolve, params: {path: a}}\nexpect: {outcome: ok}\n";
        let case = parse_case(Path::new("r.yaml"), text).unwrap();
        let instance = case.instances().next().unwrap();
        let silent = hello(&[Tool::Resolve], &[]);
        let refused = route(&silent, &instance, &PLAIN, "adapter").unwrap_err();
        assert_eq!(
            refused,
            Refusal::new(
                Status::Skip,
                "the implementation announces no ignore file of its own (hello `ignore_files`)"
            )
        );
        let announcing = AdapterHello {
            ignore_files: vec![".mytoolignore".into()],
            ..silent.clone()
        };
        assert_eq!(
            route(&announcing, &instance, &PLAIN, "adapter"),
            Ok(Route::Normal)
        );
        // A tool the subject lacks is still that, first.
        let other = hello(&[Tool::Grep], &[]);
        let refused = route(&other, &instance, &PLAIN, "adapter").unwrap_err();
        assert_eq!(refused.status, Status::Unsupported);
        // A case without one does not ask.
        assert_eq!(decide("", &silent, &PLAIN), Ok(Route::Normal));
    }

    #[test]
    fn permission_cases_go_to_the_unprivileged_copy_only_for_root() {
        let h = hello(&[Tool::Resolve], &[]);
        assert_eq!(decide("permissions", &h, &PLAIN), Ok(Route::Normal));
        let root = Machine {
            root: true,
            ..PLAIN
        };
        let refused = decide("permissions", &h, &root).unwrap_err();
        assert_eq!(refused.status, Status::Skip);
        assert!(
            refused.reason.contains("no unprivileged runner"),
            "{}",
            refused.reason
        );
        let runner = Machine {
            unprivileged_runner: true,
            ..root
        };
        assert_eq!(decide("permissions", &h, &runner), Ok(Route::Unprivileged));
        assert_eq!(decide("", &h, &runner), Ok(Route::Normal));
    }

    /// A subject that runs as the unprivileged user itself (an adapter as
    /// root, by default) takes the permission cases: no copy, runner or not.
    #[test]
    fn permission_cases_go_to_a_subject_that_is_unprivileged_itself() {
        let h = hello(&[Tool::Resolve], &[]);
        let boxed = Machine {
            root: true,
            subject_unprivileged: true,
            ..PLAIN
        };
        assert_eq!(decide("permissions", &h, &boxed), Ok(Route::Normal));
        let with_runner = Machine {
            unprivileged_runner: true,
            ..boxed
        };
        assert_eq!(decide("permissions", &h, &with_runner), Ok(Route::Normal));
    }
}
