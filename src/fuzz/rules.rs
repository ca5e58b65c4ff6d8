//! Which requirement IDs a generated call exercises: the `spec:` of a
//! finding and half of its deduplication key. Best effort, from the call,
//! the reference's answer and the fields that differ; a human reviews it
//! before the finding becomes a case.

use std::path::Path;

use serde_json::Value;

use crate::fuzz::failed::Failed;
use crate::reference::path_pattern::refusing_rule;
use crate::reference::resolve::lexical_resolve;
use crate::report::Check;
use crate::subject::FailureKind;
use toolpath_suite::params;
use toolpath_suite::protocol::{Call, ErrorCode, Field, Kind, Outcome, Tool, ToolResult};

/// What the rules are judged from: the call as sent, and the adapter's
/// answer, when it gave one.
pub struct Exchange<'a> {
    pub call: &'a Call,
    pub actual: Option<&'a ToolResult>,
}

impl Exchange<'_> {
    /// The path parameter's text when one is given (RES-1), by its name
    /// or its alias (the tool's table, [`params::path_names`]).
    pub fn path_given(&self) -> Option<&str> {
        params::path_names(self.call.tool)
            .filter_map(|n| self.given(n))
            .next()
    }

    /// A parameter's text, when it is a string that is not empty.
    fn given(&self, name: &str) -> Option<&str> {
        (self.call.params.get(name))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    }

    /// The resolved lexical path of the given path, if any.
    pub fn lexical(&self) -> Option<String> {
        self.path_given()
            .filter(|p| !p.contains('\0'))
            .map(|p| lexical_resolve(&self.call.workspace.target, p))
    }

    fn has_nul(&self) -> bool {
        (self.call.params.values()).any(|v| v.as_str().is_some_and(|s| s.contains('\0')))
    }

    /// Whether a path key is present but counts as absent: JSON `null` or
    /// the empty string (RES-1).
    fn path_present_not_given(&self) -> bool {
        params::path_names(self.call.tool).any(|n| {
            (self.call.params.get(n)).is_some_and(|v| v.is_null() || v.as_str() == Some(""))
        })
    }

    /// Whether a key the tool does not take was given (ERR-8).
    fn unknown_key(&self) -> bool {
        let known = params::names(self.call.tool);
        (self.call.params.keys()).any(|k| !known.contains(&k.as_str()))
    }

    /// Whether the adapter left out every match of a file the reference
    /// found matches in: a file skipped, not a line split differently.
    fn file_skipped(&self, reference: &ToolResult) -> bool {
        let files = |r: &ToolResult| -> std::collections::BTreeSet<String> {
            r.matches.iter().flatten().map(|m| m.path.clone()).collect()
        };
        self.actual
            .is_some_and(|a| !files(reference).is_subset(&files(a)))
    }

    /// Whether the path was given by its name and by an alias (RES-1,
    /// FILE-1).
    fn both_aliases(&self) -> bool {
        let mut names = params::path_names(self.call.tool);
        let main = names.next().is_some_and(|n| self.given(n).is_some());
        main && names.any(|n| self.given(n).is_some())
    }

    /// Whether a file target got matches from another file (SEARCH-5).
    fn match_outside_file_target(&self, reference: &ToolResult) -> bool {
        let (Some(Kind::File), Some(target)) = (reference.kind, &reference.path) else {
            return false;
        };
        self.actual
            .and_then(|a| a.matches.as_ref())
            .is_some_and(|ms| ms.iter().any(|m| &m.path != target))
    }

    /// Whether the adapter reported a match in a file with a NUL byte.
    fn binary_match(&self) -> bool {
        let is_binary = |path: &str| std::fs::read(path).is_ok_and(|bytes| bytes.contains(&0));
        self.actual
            .and_then(|a| a.matches.as_ref())
            .is_some_and(|ms| ms.iter().any(|m| is_binary(&m.path)))
    }

    /// Whether a FIFO lies anywhere below the roots: opening one blocks,
    /// the usual reason an implementation hangs (RES-10).
    fn fifo_in_workspace(&self) -> bool {
        fn walk(dir: &Path, depth: usize) -> bool {
            use std::os::unix::fs::FileTypeExt;
            let Ok(entries) = std::fs::read_dir(dir) else {
                return false;
            };
            entries.flatten().any(|e| match e.file_type() {
                Ok(t) if t.is_fifo() => true,
                Ok(t) if t.is_dir() && depth < 8 => walk(&e.path(), depth + 1),
                _ => false,
            })
        }
        (self.call.workspace.roots.iter()).any(|r| walk(Path::new(r), 0))
    }

    /// Whether the lexical path passes through a symbolic link on disk.
    fn through_link(&self) -> bool {
        let Some(lexical) = self.lexical() else {
            return false;
        };
        let mut at = std::path::PathBuf::from("/");
        Path::new(&lexical).components().skip(1).any(|c| {
            at.push(c);
            std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink())
        })
    }
}

/// The rule a failed check is about, if the check alone says it: a
/// field's (the ones [`Field::rule`] gives, and those whose rule the
/// answer or the input tells), or a failure to answer on a fixture with a
/// FIFO.
fn rule_of(failed: &Failed, reference: &ToolResult, x: &Exchange) -> Option<&'static str> {
    let check = match failed {
        Failed::Subject(FailureKind::Timeout) if x.fifo_in_workspace() => return Some("RES-10"),
        Failed::Subject(FailureKind::Blocked) => {
            return Some(crate::subject::fifos::rule(x.call.tool));
        }
        Failed::Subject(_) => return None,
        Failed::Checks(checks) => checks,
    };
    check.iter().find_map(|c| rule_of_check(c, reference, x))
}

/// [`rule_of`] for one check the judge failed.
fn rule_of_check(check: &Check, reference: &ToolResult, x: &Exchange) -> Option<&'static str> {
    let Check::Field(field) = check else {
        return None;
    };
    let tool = x.call.tool;
    Some(match field {
        Field::Path if tool.is_file_tool() => "FILE-4",
        Field::Path if x.through_link() => "RES-4",
        Field::Path
            if x.path_given().is_some_and(|p| {
                p.ends_with('/')
                    || p.split('/').skip(1).any(|s| matches!(s, "" | "." | ".."))
                    || p.starts_with("./")
                    || p.starts_with("../")
            }) =>
        {
            "RES-3"
        }
        Field::Path => "RES-4",
        Field::Parent => "RES-11",
        Field::Kind => "RES-7",
        Field::Cwd => "SHELL-6",
        Field::Notes => "SEARCH-6",
        Field::Files if reference.kind == Some(Kind::File) => "GLOB-4",
        Field::Entries if reference.kind == Some(Kind::File) => "LS-4",
        Field::Files | Field::Entries => listing_rule(*field, reference, x),
        Field::Matches if x.binary_match() => "SEARCH-8",
        Field::Matches if x.match_outside_file_target(reference) => "SEARCH-5",
        Field::Matches if x.file_skipped(reference) => "SEARCH-4",
        // Same files, other lines: how lines are split and reported.
        Field::Matches => "SEARCH-10",
        Field::ErrorMessage => match reference.error.as_ref()?.code {
            ErrorCode::OutsideWorkspace => "ERR-4",
            ErrorCode::AmbiguousName => "ERR-6",
            _ => "ERR-3",
        },
        // `output` (SHELL-6), `matches.text` (SEARCH-10), `model_text`
        // (OUT-5); a read's `content` is left to the judge's rule.
        Field::Output | Field::MatchesText | Field::ModelText => field.rule()?,
        _ => return None,
    })
}

/// Which rule a wrong `glob` or `ls` listing of a directory breaks, from
/// how it differs: an extra name reached through a link below was found
/// by following it (GLOB-7, LS-5's types without following); another
/// extra file matched a pattern it should not (GLOB-5), another extra or
/// retyped entry is not what `lstat` sees (LS-5); a missing name was
/// skipped (GLOB-3, LS-3); the same names, some twice: once each (GLOB-8,
/// LS-6).
fn listing_rule(field: Field, reference: &ToolResult, x: &Exchange) -> &'static str {
    let glob = field == Field::Files;
    let names = |r: &ToolResult| -> Vec<String> {
        if glob {
            r.files.clone().unwrap_or_default()
        } else {
            let entries = r.entries.iter().flatten();
            entries
                .map(|e| format!("{} {}", e.path, e.entry_type.name()))
                .collect()
        }
    };
    let want = names(reference);
    let got = x.actual.map(names).unwrap_or_default();
    let extra: Vec<&String> = got.iter().filter(|n| !want.contains(n)).collect();
    let path_of = |n: &str| -> String {
        if glob {
            n.to_owned()
        } else {
            n.rsplit_once(' ').map_or(n, |(p, _)| p).to_owned()
        }
    };
    let below = reference.path.as_deref();
    let through_link = extra
        .iter()
        .any(|n| link_between(below, &path_of(n), &x.call.workspace.roots, glob));
    match (glob, extra.is_empty(), want.iter().all(|n| got.contains(n))) {
        (true, false, _) if through_link => "GLOB-7",
        (true, false, _) => "GLOB-5",
        (false, false, _) if through_link => "SEC-7",
        (false, false, _) => "LS-5",
        (true, true, false) => "GLOB-3",
        (false, true, false) => "LS-3",
        (true, true, true) => "GLOB-8",
        (false, true, true) => "LS-6",
    }
}

/// Whether `path` passes through a symbolic link below `base` (or below
/// a root, with no base): a name reached by following a link; with
/// `itself`, also whether it is a link (`glob` never reports one, GLOB-7;
/// `ls` lists it, as a link).
fn link_between(base: Option<&str>, path: &str, roots: &[String], itself: bool) -> bool {
    let bases: Vec<&str> = match base {
        Some(b) => vec![b],
        None => roots.iter().map(String::as_str).collect(),
    };
    let Some(rest) = bases
        .iter()
        .filter_map(|b| path.strip_prefix(b)?.strip_prefix('/').map(|r| (b, r)))
        .min_by_key(|(_, r)| r.len())
    else {
        return false;
    };
    let (base, rest) = rest;
    let mut at = std::path::PathBuf::from(base);
    let segments: Vec<&str> = rest.split('/').collect();
    let through = if itself {
        segments.len()
    } else {
        segments.len().saturating_sub(1)
    };
    segments[..through].iter().any(|s| {
        at.push(s);
        std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink())
    })
}

/// The rules the reference's answer to this call shows: RES-1 first when a
/// path key is present but counts as absent, since that is what an
/// implementation most often gets wrong about such a call.
fn rules_of_answer(reference: &ToolResult, x: &Exchange) -> Vec<&'static str> {
    let mut rules = answer_rules(reference, x);
    if reference.outcome == Some(Outcome::Ok) && x.path_present_not_given() {
        rules.insert(0, "RES-1");
    }
    rules
}

fn answer_rules(reference: &ToolResult, x: &Exchange) -> Vec<&'static str> {
    if x.call.tool.is_file_tool() {
        return file_rules(reference, x);
    }
    let relative = x
        .path_given()
        .is_some_and(|p| !p.starts_with('/') && !p.starts_with('{'));
    if reference.outcome == Some(Outcome::Error) {
        let code = reference.error.as_ref().map(|e| e.code);
        return match code {
            Some(ErrorCode::InvalidParams) if x.both_aliases() => match x.call.tool {
                Tool::Shell => vec!["SHELL-1", "ERR-2"],
                Tool::Glob => vec!["GLOB-1", "ERR-2"],
                Tool::Ls => vec!["LS-1", "ERR-2"],
                _ => vec!["SEARCH-1", "ERR-2"],
            },
            Some(ErrorCode::InvalidParams) if x.unknown_key() => vec!["ERR-8", "ERR-2"],
            Some(ErrorCode::InvalidParams) if x.has_nul() => vec!["ERR-7", "ERR-2"],
            Some(ErrorCode::InvalidParams) => match x.call.tool {
                Tool::Shell => vec!["SHELL-1", "RES-1"],
                Tool::Resolve => vec!["RES-1"],
                Tool::Glob => match x.given("pattern").and_then(refusing_rule) {
                    Some(rule @ "GLOB-11") => vec![rule, "ERR-2"],
                    _ => vec!["GLOB-6", "GLOB-1", "RES-1"],
                },
                Tool::Ls => vec!["LS-1", "RES-1"],
                _ => vec!["SEARCH-1", "SEARCH-7", "RES-1"],
            },
            Some(ErrorCode::OutsideWorkspace) if x.through_link() => {
                vec!["SEC-5", "SEC-1", "SEC-3"]
            }
            Some(ErrorCode::OutsideWorkspace)
                if relative
                    && x.path_given()
                        .is_some_and(|p| p.split('/').any(|s| s == "..")) =>
            {
                vec!["SEC-4", "SEC-3"]
            }
            Some(ErrorCode::OutsideWorkspace) if !relative => vec!["SEC-9", "SEC-2", "SEC-3"],
            Some(ErrorCode::OutsideWorkspace) => vec!["SEC-3", "SEC-2"],
            Some(ErrorCode::NotFound) if x.call.tool == Tool::Shell => {
                vec!["SHELL-5", "RES-8", "ERR-5"]
            }
            Some(ErrorCode::NotFound) => vec!["RES-8", "ERR-5"],
            Some(ErrorCode::PermissionDenied) => match x.call.tool {
                Tool::Shell => vec!["SHELL-6", "RES-9", "ERR-5"],
                Tool::Resolve => vec!["RES-9", "ERR-5"],
                Tool::Glob => vec!["GLOB-9", "RES-9", "ERR-5"],
                Tool::Ls => vec!["LS-7", "RES-9", "ERR-5"],
                _ => vec!["SEARCH-11", "RES-9", "ERR-5"],
            },
            Some(ErrorCode::NotADirectory) => vec!["SHELL-7", "ERR-2"],
            Some(ErrorCode::UnsupportedFileType) => vec!["RES-10", "ERR-2"],
            Some(ErrorCode::AmbiguousName) => vec!["SHELL-5", "ERR-6"],
            None => vec!["ERR-1"],
        };
    }
    let include = x.given("include").is_some();
    match (x.call.tool, reference.kind) {
        (Tool::Shell, _) => match x.path_given() {
            None => vec!["SHELL-2", "OUT-2"],
            Some(_) if !relative => vec!["SHELL-3", "SHELL-6"],
            Some(p) if p.contains('/') => vec!["SHELL-4", "SHELL-6"],
            Some(_) => vec!["SHELL-5", "SHELL-6"],
        },
        (Tool::Resolve, Some(Kind::AllWorkspaces)) => vec!["RES-1"],
        (Tool::Resolve, _) => vec!["RES-7", "RES-2"],
        (Tool::Glob, Some(Kind::AllWorkspaces)) => vec!["GLOB-2", "GLOB-8"],
        (Tool::Glob, Some(Kind::File)) => vec!["GLOB-4", "GLOB-5"],
        (Tool::Glob, _) => vec!["GLOB-3", "GLOB-5", "GLOB-7", "SEC-7"],
        (Tool::Ls, Some(Kind::AllWorkspaces)) => vec!["LS-2", "LS-6"],
        (Tool::Ls, Some(Kind::File)) => vec!["LS-4"],
        (Tool::Ls, _) => vec!["LS-3", "LS-5", "SEC-7"],
        (_, Some(Kind::AllWorkspaces)) => vec!["SEARCH-3", "SEARCH-10"],
        (_, Some(Kind::File)) if include => vec!["SEARCH-6", "SEARCH-5"],
        (_, Some(Kind::File)) => vec!["SEARCH-5", "SEARCH-8", "SEARCH-10"],
        (_, _) if include => vec!["SEARCH-9", "SEARCH-4"],
        (_, _) => vec!["SEARCH-4", "SEC-7", "SEARCH-10"],
    }
}

/// The rules a file tool's answer shows (FILE-1 to FILE-16).
fn file_rules(reference: &ToolResult, x: &Exchange) -> Vec<&'static str> {
    if reference.outcome == Some(Outcome::Error) {
        let code = reference.error.as_ref().map(|e| e.code);
        return match code {
            Some(ErrorCode::InvalidParams) if x.both_aliases() => vec!["FILE-1", "ERR-2"],
            Some(ErrorCode::InvalidParams) if x.unknown_key() => vec!["ERR-8", "ERR-2"],
            Some(ErrorCode::InvalidParams) if x.has_nul() => vec!["ERR-7", "ERR-2"],
            Some(ErrorCode::InvalidParams) => match x.path_given() {
                None => vec!["FILE-2", "FILE-1"],
                Some(p) if !p.starts_with('/') => vec!["FILE-3", "ERR-2"],
                Some(_) if x.call.tool == Tool::Edit => vec!["FILE-10", "FILE-15", "FILE-1"],
                Some(_) => vec!["FILE-1"],
            },
            Some(ErrorCode::OutsideWorkspace) if x.through_link() => {
                vec!["FILE-9", "SEC-5", "FILE-4"]
            }
            Some(ErrorCode::OutsideWorkspace) => vec!["FILE-4", "SEC-3", "SEC-2"],
            Some(ErrorCode::NotFound) => vec!["FILE-8", "RES-8", "ERR-5"],
            Some(ErrorCode::PermissionDenied) => vec!["FILE-7", "RES-9", "ERR-5"],
            Some(ErrorCode::UnsupportedFileType) => vec!["FILE-6", "RES-10"],
            Some(ErrorCode::NotADirectory | ErrorCode::AmbiguousName) => vec!["FILE-4"],
            None => vec!["ERR-1"],
        };
    }
    match x.call.tool {
        Tool::ReadFile => vec!["FILE-5", "FILE-13", "FILE-14", "FILE-12"],
        Tool::WriteFile if x.through_link() => vec!["FILE-9", "FILE-8", "FILE-11"],
        Tool::WriteFile => vec!["FILE-8", "FILE-14", "FILE-11"],
        _ => vec!["FILE-10", "FILE-15", "FILE-14", "FILE-11"],
    }
}

/// The requirement IDs, the primary one (the finding's rule) first.
/// `judged` is the rule the judge gave the first check that failed: the
/// finding's rule where no field says more (what changed on disk is
/// SEC-11's or FILE-11's, what got out SEC-12's).
pub fn rules(
    reference: &ToolResult,
    x: &Exchange,
    failed: &Failed,
    judged: Option<&str>,
) -> Vec<String> {
    let mut out: Vec<&str> = Vec::new();
    out.extend(rule_of(failed, reference, x).or(judged));
    out.extend(rules_of_answer(reference, x));
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|r| seen.insert(*r));
    out.into_iter().map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolpath_suite::protocol::{ErrorBody, Workspace};

    fn refused_glob(pattern: &str) -> Vec<&'static str> {
        let call = Call {
            seq: 1,
            case: "fuzz".into(),
            workspace: Workspace {
                roots: vec!["/w".into()],
                target: "/w".into(),
            },
            tool: Tool::Glob,
            params: serde_json::json!({"pattern": pattern})
                .as_object()
                .unwrap()
                .clone(),
        };
        let reference = ToolResult {
            outcome: Some(Outcome::Error),
            error: Some(ErrorBody {
                code: ErrorCode::InvalidParams,
                message: "refused".into(),
                rule: None,
            }),
            ..ToolResult::default()
        };
        let x = Exchange {
            call: &call,
            actual: None,
        };
        rules_of_answer(&reference, &x)
    }

    /// A glob refused for an empty segment is GLOB-11's finding, one that
    /// climbs or has a `.` segment GLOB-6's: the rule the reference
    /// refused it under.
    #[test]
    fn a_refused_glob_is_credited_to_the_rule_that_refuses_its_pattern() {
        for empty in ["src//*.ts", "**//*.ts", "src/", "src/{lib,}/*.ts"] {
            assert_eq!(refused_glob(empty)[0], "GLOB-11", "{empty}");
        }
        for climbs in ["../*", "/*", "./src/*.ts", "{.,src}/a.ts"] {
            assert_eq!(refused_glob(climbs)[0], "GLOB-6", "{climbs}");
        }
    }
}
