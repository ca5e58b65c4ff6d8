//! `matrix`: one path sent to several tools, in both forms, from several
//! roots, with one expectation (`cases/README.md`, "Matrix cases").
//!
//! A rule such as "a link out of the workspace is refused" holds for every
//! tool, for a path written absolute or relative, and in any root; real
//! implementations broke it in exactly one of those cells (a second root
//! checked lexically, an absolute path used raw). A matrix states the rule
//! once and the loader makes one case per cell, each an ordinary [`Case`]
//! with an id of its own (`ID.TOOL.FORM.rN`), so everything after loading
//! (selection, running, reports, expectations files) sees plain cases.
//!
//! This module checks the matrix itself ([`check`]) and makes the cells
//! ([`Matrix::cells`]); the expectation is checked once, for every tool of
//! the matrix together, by [`super::super::expect`], and each cell keeps the
//! fields that concern its tool ([`crate::case::Expect::for_tools`]).

use serde_json::{Map, Value};
use serde_saphyr::{Location, Spanned};

use super::super::{FileProblems, spanned};
use super::{check_command, params as call_params};
use crate::case::error::quote;
use crate::case::path::FixturePath;
use crate::case::raw::{RawMatrix, SpannedMap, ToolSelector};
use crate::case::shape::{Form, RootPlace, Shape};
use crate::protocol::Tool;

/// A valid matrix: what its cells are made of.
pub struct Matrix {
    tools: Vec<ToolSelector>,
    forms: Vec<Form>,
    /// Indexes into the fixture's roots.
    roots: Vec<usize>,
    path: String,
    params: Vec<(ToolSelector, Map<String, Value>)>,
}

/// One cell: a tool selector, a form and a root, and the call it makes.
pub struct Cell {
    pub selector: ToolSelector,
    pub tools: Vec<Tool>,
    pub form: Form,
    /// Index into the fixture's roots: the cell's target directory.
    pub root: usize,
    pub params: Map<String, Value>,
}

impl Cell {
    /// `ID.TOOL.FORM.rN`: the case id and where in the matrix the cell is
    /// (`security.link-out.search.rel.r2`; its instances are then
    /// `...@grep` and `...@ripgrep`).
    pub fn id(&self, matrix_id: &str) -> String {
        format!(
            "{matrix_id}.{}.{}.r{}",
            self.selector.name(),
            self.form.short(),
            self.root + 1
        )
    }

    pub fn shape(&self) -> Shape {
        Shape {
            form: Some(self.form),
            root: Some(RootPlace::of_index(self.root)),
        }
    }
}

/// What a cell sends besides its path when the matrix gives nothing for its
/// tool: enough to make a valid call (`cases/README.md` lists them).
fn defaults(tool: Tool) -> Vec<(&'static str, &'static str)> {
    match tool {
        Tool::Grep | Tool::Ripgrep => vec![("pattern", ".")],
        Tool::Glob => vec![("pattern", "*")],
        Tool::WriteFile => vec![("content", "toolpath\n")],
        Tool::Edit => vec![("old_string", "toolpath"), ("new_string", "edited")],
        // The shell's `command: pwd` is the harness's own default.
        _ => Vec::new(),
    }
}

/// Checks a matrix against the fixture's `roots`; `target_given` is where
/// the fixture names a target of its own, which a matrix replaces.
pub fn check(
    findings: &mut FileProblems,
    raw: Spanned<RawMatrix>,
    roots: &[FixturePath],
    target_given: Option<Location>,
) -> Matrix {
    let at = raw.referenced;
    let raw = raw.value;
    if let Some(target) = target_given {
        findings.error(
            target,
            "fixture.target: a matrix takes each of its roots as the target in turn; leave `target` out",
        );
    }
    let tools = tools(findings, &raw.tools, at);
    let forms = forms(findings, &raw.forms);
    absolute_for_file_tools(findings, &raw.tools, &forms);
    let root_indexes = root_indexes(findings, &raw.roots, roots);
    let path = raw.path.value;
    if path.is_empty() || path.starts_with('/') || path.starts_with('{') {
        findings.error(
            raw.path.referenced,
            "matrix.path: write the path relative to the target directory (`lnk/../x`, `../outside`); the `absolute` form prefixes `{target}/` itself",
        );
    }
    let params = params(findings, raw.params, &tools);
    let matrix = Matrix {
        tools,
        forms,
        roots: root_indexes,
        path,
        params,
    };
    let cells = matrix.count_cells();
    if cells > crate::case::limits::MAX_MATRIX_CELLS {
        findings.error(
            at,
            format!(
                "matrix: it expands to {cells} cases (tools × forms × roots), more than {}: split it",
                crate::case::limits::MAX_MATRIX_CELLS
            ),
        );
    }
    matrix
}

/// The tool selectors: at least one, each once, and `search` not beside
/// the `grep` or `ripgrep` it stands for (a cell would be made twice).
fn tools(
    findings: &mut FileProblems,
    raw: &[Spanned<ToolSelector>],
    at: Location,
) -> Vec<ToolSelector> {
    if raw.is_empty() {
        findings.error(at, "matrix.tools: name at least one tool");
    }
    let names: Vec<(&str, Location)> = raw.iter().map(|t| (t.value.name(), t.referenced)).collect();
    findings.repeats("matrix.tools", names, "");
    let tools: Vec<ToolSelector> = raw.iter().map(|t| t.value).collect();
    let has = |s: ToolSelector| tools.contains(&s);
    if has(ToolSelector::Search) && (has(ToolSelector::Grep) || has(ToolSelector::Ripgrep)) {
        findings.error(
            at,
            "matrix.tools: `search` already stands for `grep` and `ripgrep`",
        );
    }
    tools
}

/// The forms the path is sent in: both when the matrix names none, else
/// each it names, once.
fn forms(findings: &mut FileProblems, raw: &[Spanned<Form>]) -> Vec<Form> {
    if raw.is_empty() {
        return Form::BOTH.to_vec();
    }
    let names: Vec<(&str, Location)> = raw.iter().map(|f| (f.value.name(), f.referenced)).collect();
    findings.repeats("matrix.forms", names, "");
    raw.iter().map(|f| f.value).collect()
}

/// A file tool takes an absolute path only: a matrix of one must have the
/// `absolute` form, or it would make no cell for that tool.
fn absolute_for_file_tools(
    findings: &mut FileProblems,
    tools: &[Spanned<ToolSelector>],
    forms: &[Form],
) {
    for selector in tools {
        let file_tool = selector.value.tools().iter().all(|t| t.is_file_tool());
        if file_tool && !forms.contains(&Form::Absolute) {
            findings.error(
                selector.referenced,
                format!(
                    "matrix.tools: `{}` takes an absolute path only, and the matrix has no `absolute` form (a relative path is FILE-3's refusal, pinned on its own)",
                    selector.value.name()
                ),
            );
        }
    }
}

/// The roots taken in turn as the target, as indexes into the fixture's
/// `roots`: every root when the matrix names none, else each it names
/// that is one.
fn root_indexes(
    findings: &mut FileProblems,
    raw: &[Spanned<String>],
    roots: &[FixturePath],
) -> Vec<usize> {
    if raw.is_empty() {
        return (0..roots.len()).collect();
    }
    findings.repeats("matrix.roots", spanned(raw), "");
    raw.iter()
        .filter_map(|name| {
            let found = roots.iter().position(|r| r.as_str() == name.value);
            if found.is_none() {
                findings.error(
                    name.referenced,
                    format!(
                        "matrix.roots: `{}` is not one of `fixture.roots`",
                        quote(&name.value)
                    ),
                );
            }
            found
        })
        .collect()
}

/// The other parameters of each tool of the matrix: never a path (the
/// matrix sends that itself), and for the shell a command it can run.
fn params(
    findings: &mut FileProblems,
    raw: SpannedMap<SpannedMap<Spanned<Value>>>,
    tools: &[ToolSelector],
) -> Vec<(ToolSelector, Map<String, Value>)> {
    let mut params = Vec::new();
    for (key, value) in raw.0 {
        let Some(selector) = tools.iter().copied().find(|t| t.name() == key.value) else {
            findings.error(
                key.referenced,
                format!(
                    "matrix.params: `{}` is not one of `matrix.tools`",
                    quote(&key.value)
                ),
            );
            continue;
        };
        for (param, _) in &value.0 {
            // Any tool's path, under any of its names: the matrix sets it.
            if crate::params::all_path_names().contains(&param.value.as_str()) {
                findings.error(
                    param.referenced,
                    format!(
                        "matrix.params.{}.{}: the matrix sends the path itself (`matrix.path`)",
                        key.value,
                        quote(&param.value)
                    ),
                );
            }
        }
        let given = call_params(findings, value, &format!("matrix.params.{}", key.value));
        if selector == ToolSelector::Shell
            && let Err(message) = check_command(&given)
        {
            findings.error(key.referenced, message);
        }
        params.push((selector, given));
    }
    params
}

impl Matrix {
    /// How many cells [`Matrix::cells`] makes, without making them.
    pub fn count_cells(&self) -> usize {
        self.tools
            .iter()
            .map(|s| {
                let forms = match s.tools()[0].is_file_tool() {
                    true => self.forms.iter().filter(|f| **f != Form::Relative).count(),
                    false => self.forms.len(),
                };
                forms * self.roots.len()
            })
            .sum()
    }

    /// Every tool a cell calls.
    pub fn all_tools(&self) -> Vec<Tool> {
        self.tools.iter().flat_map(|s| s.tools()).collect()
    }

    /// Whether a tool of the matrix writes (`write_file`, `edit`).
    pub fn writes(&self) -> bool {
        self.all_tools().iter().any(|t| t.writes())
    }

    /// The cells, tool by tool, then form, then root; a file tool has no
    /// relative cell.
    pub fn cells(&self) -> Vec<Cell> {
        let mut cells = Vec::new();
        for &selector in &self.tools {
            let tools = selector.tools();
            let tool = tools[0];
            for &form in &self.forms {
                if tool.is_file_tool() && form == Form::Relative {
                    continue;
                }
                for &root in &self.roots {
                    let mut params: Map<String, Value> = defaults(tool)
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), Value::String(v.to_owned())))
                        .collect();
                    if let Some((_, given)) = self.params.iter().find(|(s, _)| *s == selector) {
                        params.extend(given.clone());
                    }
                    let path = match form {
                        Form::Absolute => format!("{{target}}/{}", self.path),
                        Form::Relative => self.path.clone(),
                    };
                    params.insert(
                        crate::params::path_param(tool).to_owned(),
                        Value::String(path),
                    );
                    cells.push(Cell {
                        selector,
                        tools: tools.clone(),
                        form,
                        root,
                        params,
                    });
                }
            }
        }
        cells
    }
}
