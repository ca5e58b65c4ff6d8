//! From a parsed [`RawCase`] to a valid [`Case`]: everything a schema
//! cannot check, one module per concern, and every error of the file, not
//! only the first (a case author fixes them all in one pass, as with
//! ui_test). Each error names the file, line and column.
//!
//! - [`header`]: the id, the requirement IDs cited and the tags;
//! - [`fixture`]: fixture paths, contents, modes, repeats, and whether the
//!   fixture can be built at all;
//! - [`links`]: symbolic links stay inside the fixture directory, and no
//!   entry is written through one;
//! - [`repository`]: only `fixture.git` makes anything git would take for a
//!   repository;
//! - [`call`]: the tool, its parameters, and what the harness may run;
//! - [`expect`]: the expectation is consistent with itself and the call;
//! - [`requires`]: the declared features are exactly the ones used.
//!
//! A check that depends on a part another check refused runs on what was
//! valid of it (an invalid path is left out), so each error is one true
//! statement about the file and none is a consequence of another.
//!
//! May import the case model around it (`raw`, `path`, `error`, `yaml`,
//! `limits`, `generate`, the [`Case`] types), [`crate::protocol`], [`crate::spec`] and
//! [`crate::placeholders`]. The concern modules import only this module's
//! [`FileProblems`] and [`Spans`], never each other: [`parse_case`] runs them
//! in turn and hands each what an earlier one validated.

pub mod call;
pub mod expect;
pub mod fixture;
pub mod header;
pub mod links;
pub mod repository;
pub mod requires;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::Path;

use serde_saphyr::{Location, Spanned};

use crate::case::error::{CaseError, CaseErrors, quote};
use crate::case::limits::{MAX_CASE_BYTES, MAX_CASE_NODES};
use crate::case::path::FixturePath;
use crate::case::raw::RawCase;
use crate::case::yaml::yaml_lines;
use crate::case::{Action, Case, Shape, yaml};
use crate::protocol::Tool;

/// Reads and validates the case file at `file`: its case, or a matrix's
/// cells.
pub fn load_cases(file: &Path) -> Result<Vec<Case>, CaseErrors> {
    let bytes = read_bounded(file)?;
    parse_cases_bytes(file, &bytes)
}

/// Reads and validates a case file that holds one case (no matrix).
pub fn load_case(file: &Path) -> Result<Case, CaseErrors> {
    load_cases(file).and_then(|cases| one(file, cases))
}

/// The one case of a file read by a caller that takes one case only.
fn one(file: &Path, mut cases: Vec<Case>) -> Result<Case, CaseErrors> {
    if cases.len() == 1 {
        return Ok(cases.remove(0));
    }
    Err(CaseErrors::from(CaseError {
        file: file.to_owned(),
        line: cases.first().map_or(1, |c| c.line),
        column: 1,
        message: format!(
            "a matrix of {} cases where one case was expected",
            cases.len()
        ),
    }))
}

/// Reads at most one byte more than [`MAX_CASE_BYTES`], so a huge file is
/// refused without being read whole.
pub fn read_bounded(file: &Path) -> Result<Vec<u8>, CaseError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_CASE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| CaseError::unreadable(file, &e))?;
    Ok(bytes)
}

/// Validates case bytes: size, then UTF-8 (located), then YAML and meaning.
pub fn parse_cases_bytes(file: &Path, bytes: &[u8]) -> Result<Vec<Case>, CaseErrors> {
    check_size(file, bytes.len())?;
    let text = std::str::from_utf8(bytes).map_err(|e| not_utf8(file, bytes, e))?;
    parse_cases(file, text)
}

/// [`parse_cases_bytes`] for a file that holds one case (no matrix).
pub fn parse_case_bytes(file: &Path, bytes: &[u8]) -> Result<Case, CaseErrors> {
    parse_cases_bytes(file, bytes).and_then(|cases| one(file, cases))
}

/// Validates case text that holds one case (no matrix).
pub fn parse_case(file: &Path, text: &str) -> Result<Case, CaseErrors> {
    parse_cases(file, text).and_then(|cases| one(file, cases))
}

/// Validates case text; `file` is used in error messages only. A matrix
/// gives one case per cell, in the matrix's order.
///
/// The YAML is parsed first, and a file that does not parse into the raw
/// shape has one error (the parser stops there); a file that does is
/// checked whole.
pub fn parse_cases(file: &Path, text: &str) -> Result<Vec<Case>, CaseErrors> {
    check_size(file, text.len())?;
    let raw: RawCase = yaml::parse(file, text, yaml_options())?;
    let mut findings = FileProblems {
        file,
        text,
        errors: Vec::new(),
    };
    let cases = case(&mut findings, raw);
    match CaseErrors::new(findings.errors) {
        Some(errors) => Err(errors),
        None => Ok(cases),
    }
}

fn check_size(file: &Path, len: usize) -> Result<(), CaseError> {
    if len <= MAX_CASE_BYTES {
        return Ok(());
    }
    Err(CaseError {
        file: file.to_owned(),
        line: 1,
        column: 1,
        message: format!(
            "the file is larger than {MAX_CASE_BYTES} bytes, the most a case file may be; nothing was parsed"
        ),
    })
}

/// Bytes that are not UTF-8, located at the first bad byte.
fn not_utf8(file: &Path, bytes: &[u8], error: std::str::Utf8Error) -> CaseError {
    // The prefix before the first bad byte is valid UTF-8.
    let good = std::str::from_utf8(&bytes[..error.valid_up_to()]).unwrap_or_default();
    let lines: Vec<&str> = yaml_lines(good).collect();
    let line = lines.len().max(1) as u64;
    // Columns count characters, as the parser's do.
    let column = 1 + lines.last().map_or(0, |l| l.chars().count());
    CaseError {
        file: file.to_owned(),
        line,
        column: column as u64,
        message: format!(
            "not UTF-8: byte 0x{:02x} cannot start or continue a character here",
            bytes[error.valid_up_to()]
        ),
    }
}

/// How case files are parsed: a node budget far above any real case, so a
/// hostile file stops early, and every other default of serde-saphyr.
fn yaml_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_nodes = MAX_CASE_NODES;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options
}

/// Every check, in the order of the file's sections. The cases returned
/// (one, or a matrix's cells) are only handed out when nothing was found.
fn case(findings: &mut FileProblems, raw: RawCase) -> Vec<Case> {
    let id_at = raw.id.referenced;
    header::check(findings, &raw.id, &raw.spec, &raw.tags);
    let used = fixture::features_used(&raw.fixture);
    let target_given = raw.fixture.target.as_ref().map(|t| t.referenced);
    let checked = fixture::check(findings, raw.fixture, id_at);
    links::check(
        findings,
        &checked.fixture,
        &checked.workspace,
        &checked.spans,
    );
    repository::check(findings, &checked.fixture, &checked.git, &checked.spans);
    let fixture = checked.fixture;
    let calls = match (raw.call, raw.matrix) {
        (Some(call), None) => Calls::One(call::check(findings, call)),
        (None, Some(matrix)) => Calls::Matrix(call::matrix::check(
            findings,
            matrix,
            &fixture.roots,
            target_given,
        )),
        (call, matrix) => {
            let both = call.is_some() && matrix.is_some();
            findings.error(
                id_at,
                if both {
                    "call: a case has `call` or `matrix`, not both"
                } else {
                    "call: a case needs `call` (one call) or `matrix` (one path for several tools)"
                },
            );
            Calls::One((Vec::new(), Action::Invoke(Default::default())))
        }
    };
    let (tools, action) = match &calls {
        Calls::One((tools, action)) => (tools.clone(), action.clone()),
        Calls::Matrix(matrix) => (matrix.all_tools(), Action::Invoke(Default::default())),
    };
    let is_matrix = matches!(calls, Calls::Matrix(_));
    let expect_at = raw.expect.referenced;
    let expect = expect::check(findings, raw.expect, &action, &tools, &fixture, is_matrix);
    let requires = requires::check(findings, &raw.requires, used, &action, id_at);
    let template = Case {
        id: raw.id.value,
        matrix: None,
        file: findings.file.to_owned(),
        line: id_at.line(),
        summary: raw.summary,
        spec: raw.spec.into_iter().map(|s| s.value).collect(),
        tags: raw.tags.into_iter().map(|s| s.value).collect(),
        requires,
        shape: match &action {
            Action::Invoke(params) => Shape::of_call(&fixture, params),
            Action::Describe(_) => Shape::default(),
        },
        fixture,
        tools,
        action,
        expect,
    };
    match calls {
        Calls::One(_) => vec![template],
        // Refused already (`matrix::check`): not expanded at all.
        Calls::Matrix(matrix) if matrix.count_cells() > crate::case::limits::MAX_MATRIX_CELLS => {
            Vec::new()
        }
        Calls::Matrix(matrix) => matrix
            .cells()
            .into_iter()
            .map(|cell| {
                let mut fixture = template.fixture.clone();
                fixture.target = fixture.roots[cell.root].clone();
                let mut expect = template.expect.for_tools(&cell.tools);
                // A matrix's write is written below `{target}`: the cell's root.
                for (file, _) in &mut expect.writes {
                    match fixture.target.join(file) {
                        Ok(joined) => {
                            expect::check_written(findings, &joined, &fixture, expect_at);
                            *file = joined;
                        }
                        Err(e) => findings.error(expect_at, format!("expect.writes: {e}")),
                    }
                }
                Case {
                    id: cell.id(&template.id),
                    matrix: Some(template.id.clone()),
                    expect,
                    shape: cell.shape(),
                    fixture,
                    tools: cell.tools,
                    action: Action::Invoke(cell.params),
                    ..template.clone()
                }
            })
            .collect(),
    }
}

/// What a case calls: one call, or a matrix of them.
enum Calls {
    One((Vec<Tool>, Action)),
    Matrix(call::matrix::Matrix),
}

/// What the checks of one file have found, and the file they read.
pub struct FileProblems<'a> {
    file: &'a Path,
    /// The file's text, to read how a value was spelt (`yes` or `true`).
    text: &'a str,
    errors: Vec<CaseError>,
}

impl FileProblems<'_> {
    /// Records an error at `at`.
    pub fn error(&mut self, at: Location, message: impl Into<String>) {
        self.errors.push(CaseError {
            file: self.file.to_owned(),
            line: at.line(),
            column: at.column(),
            message: message.into(),
        });
    }

    /// The plain scalar written at `at` (up to the next delimiter).
    pub fn scalar_at(&self, at: Location) -> String {
        let line = yaml_lines(self.text)
            .nth((at.line() as usize).saturating_sub(1))
            .unwrap_or("");
        line.chars()
            .skip((at.column() as usize).saturating_sub(1))
            .take_while(|c| !matches!(c, ',' | '}' | ']' | '#') && !c.is_whitespace())
            .collect()
    }

    /// Records an error at every item of `items` (a value and where it was
    /// written) that repeats an earlier one: lists in a case are sets, and
    /// a repeat is a mistake (a second root of the same name, a tag given
    /// twice). `why` ends the message.
    pub fn repeats<'t>(
        &mut self,
        field: &str,
        items: impl IntoIterator<Item = (&'t str, Location)>,
        why: &str,
    ) {
        let mut seen = std::collections::HashSet::new();
        for (item, at) in items {
            if !seen.insert(item) {
                self.error(
                    at,
                    format!("{field}: `{}` is given twice{why}", quote(item)),
                );
            }
        }
    }
}

/// The items of a list of spanned strings as [`FileProblems::repeats`] reads them.
pub fn spanned(items: &[Spanned<String>]) -> impl Iterator<Item = (&str, Location)> {
    items.iter().map(|s| (s.value.as_str(), s.referenced))
}

/// Where each fixture path was written in the file, for errors found after
/// parsing (the last place a path was written, which for a repeat is the
/// repeat).
pub struct Spans {
    at: HashMap<FixturePath, Location>,
    /// Where to point when a path was written nowhere (the case's `id`).
    fallback: Location,
}

impl Spans {
    fn new(fallback: Location) -> Spans {
        Spans {
            at: HashMap::new(),
            fallback,
        }
    }

    fn wrote(&mut self, path: &FixturePath, at: Location) {
        self.at.insert(path.clone(), at);
    }

    /// Records `at` for `path` unless it was written elsewhere: for a
    /// place that is not an entry (a directory `own_ignore_files` names),
    /// whose errors an entry at the same path should keep.
    fn wrote_unless_written(&mut self, path: &FixturePath, at: Location) {
        self.at.entry(path.clone()).or_insert(at);
    }

    /// Where `path` was written.
    pub fn of(&self, path: &FixturePath) -> Location {
        self.at.get(path).copied().unwrap_or(self.fallback)
    }
}
