//! Reading case and expectations files: serde-saphyr's errors, made to name
//! the field (`fixture.roots: ...`) and the place a mistake was made.
//!
//! Two gaps in the parser's own messages are closed here. A value of the
//! wrong type is reported where it stands but without the field it belongs
//! to (`expected sequence start`), so the path to it is tracked with
//! `serde_path_to_error` (the serde ecosystem's one crate for it) and put in
//! front. An unclosed `{` or `[` is reported where the parser gave up,
//! usually the next line, so the opening bracket is found and named instead:
//! that is where the fix goes.

use std::cell::RefCell;
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::case::error::{CaseError, QUOTE_LIMIT, quote};
use crate::case::limits::MAX_CASE_NODES;

/// Parses `text` as a `T` with `options`; `file` is used in error messages
/// only.
pub fn parse<T: DeserializeOwned>(
    file: &Path,
    text: &str,
    options: serde_saphyr::Options,
) -> Result<T, CaseError> {
    let path = RefCell::new(String::new());
    let parsed =
        serde_saphyr::with_deserializer_from_str_with_options(text, options.clone(), |de| {
            serde_path_to_error::deserialize(de).map_err(|e| {
                *path.borrow_mut() = e.path().to_string();
                e.into_inner()
            })
        });
    let error = match parsed {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    let mut case_error = located(file, &error);
    // Not YAML at all: a syntax error, which has no field to name.
    if serde_saphyr::from_str_with_options::<serde::de::IgnoredAny>(text, options).is_err() {
        if let Some((line, column, bracket)) = unclosed_bracket(text, &case_error) {
            case_error.line = line;
            case_error.column = column;
            case_error.message = format!("`{bracket}` is never closed ({})", case_error.message);
        }
        return Err(case_error);
    }
    let path = path.into_inner();
    // `.` is the root; a message that already quotes the field needs no more.
    if !path.is_empty() && path != "." && !case_error.message.contains("field `") {
        case_error.message = format!("{path}: {}", case_error.message);
    }
    Err(case_error)
}

/// A YAML or schema error, at the position serde-saphyr reports, in its
/// own words without the source snippet (our prefix names the place).
pub fn located(file: &Path, error: &serde_saphyr::Error) -> CaseError {
    let (line, column) = error.location().map_or((1, 1), |l| (l.line(), l.column()));
    let rendered = error.without_snippet().to_string();
    let first = rendered.lines().next().unwrap_or("invalid YAML").trim();
    CaseError {
        file: file.to_owned(),
        line,
        column,
        message: explain_budget(cap_quoted(
            strip_position(first).trim_end_matches(SAPHYR_DUPLICATE_HINT),
        )),
    }
}

/// Cuts every backtick-quoted span of a message written by someone else
/// (the YAML parser quotes input) to [`QUOTE_LIMIT`], and the whole to a
/// few times that.
fn cap_quoted(message: &str) -> String {
    let mut out = String::new();
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(&quote(part));
        } else {
            out.push_str(part);
        }
    }
    let limit = 4 * QUOTE_LIMIT;
    let total = out.chars().count();
    if total > limit {
        out = format!(
            "{}… ({total} characters)",
            out.chars().take(limit).collect::<String>()
        );
    }
    out
}

/// The lines of `text` as YAML counts them (and so the parser's locations):
/// a line ends at CR LF, CR or LF. A lone CR ends a line too, which
/// `str::lines` would not count.
pub fn yaml_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match current.find(['\r', '\n']) {
            Some(i) => {
                let skip = if current[i..].starts_with("\r\n") {
                    2
                } else {
                    1
                };
                rest = Some(&current[i + skip..]);
                Some(&current[..i])
            }
            None => {
                rest = None;
                Some(current)
            }
        }
    })
}

/// What serde-saphyr adds to a duplicate key error: advice for programmers
/// using the library, not for case authors.
const SAPHYR_DUPLICATE_HINT: &str = ", set DuplicateKeyPolicy in Options if acceptable";

/// The parser's budget messages name an internal counter; say what the
/// limit is and that nothing beyond it was read.
fn explain_budget(message: String) -> String {
    if message.starts_with("budget breached") {
        format!(
            "the file is too large to be a case: {message} (at most {MAX_CASE_NODES} YAML nodes; parsing stopped here)"
        )
    } else {
        message
    }
}

/// Drops the parser's own trailing " at line X, column Y" (our prefix says
/// it), and only that: "(used at line 3, column 7)" in the middle of a
/// budget message stays whole.
pub(crate) fn strip_position(message: &str) -> &str {
    let Some(cut) = message.rfind(" at line ") else {
        return message;
    };
    let tail = &message[cut + " at line ".len()..];
    let is_position = tail.split_once(", column ").is_some_and(|(l, c)| {
        !l.is_empty() && !c.is_empty() && l.bytes().chain(c.bytes()).all(|b| b.is_ascii_digit())
    });
    if is_position {
        &message[..cut]
    } else {
        message
    }
}

/// For a syntax error: the line, column and character of the innermost `{`
/// or `[` still open at the error's position, if it was opened on an
/// earlier line (a flow collection left open runs into the next lines,
/// where the parser stops; an error on the bracket's own line is placed
/// right by the parser).
fn unclosed_bracket(text: &str, error: &CaseError) -> Option<(u64, u64, char)> {
    let mut open: Vec<(u64, u64, char)> = Vec::new();
    for (index, line) in yaml_lines(text).enumerate() {
        let number = index as u64 + 1;
        if number > error.line {
            break;
        }
        let mut quote: Option<char> = None;
        let mut previous = ' ';
        for (col, c) in (1..).zip(line.chars()) {
            if number == error.line && col >= error.column {
                break;
            }
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '#') if previous.is_whitespace() => break,
                (None, '{' | '[') => open.push((number, col, c)),
                (None, '}' | ']') => {
                    open.pop();
                }
                _ => {}
            }
            previous = c;
        }
    }
    open.pop().filter(|(line, _, _)| *line < error.line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::raw::RawCase;

    fn error(text: &str) -> String {
        parse::<RawCase>(Path::new("c.yaml"), text, serde_saphyr::Options::default())
            .map(|_| ())
            .unwrap_err()
            .to_string()
    }

    const HEAD: &str = "id: resolve.x\nsummary: x\nspec: [RES-1]\ntags: [compat]\n";

    #[test]
    fn a_value_of_the_wrong_type_names_its_field() {
        let text = format!(
            "{HEAD}fixture:\n  roots: 42\ncall:\n  tool: resolve\n  params: {{path: a}}\nexpect:\n  outcome: ok\n"
        );
        let err = error(&text);
        assert!(err.starts_with("c.yaml:6:10: fixture.roots: "), "{err}");
    }

    #[test]
    fn an_unclosed_brace_is_reported_where_it_was_opened() {
        let text = format!(
            "{HEAD}fixture:\n  roots: [ws]\ncall:\n  tool: resolve\n  params: {{path: a\nexpect:\n  outcome: ok\n"
        );
        let err = error(&text);
        assert!(
            err.starts_with("c.yaml:9:11: `{` is never closed ("),
            "{err}"
        );
        let text = format!(
            "{HEAD}fixture:\n  roots: [ws, \"[x\"\ncall:\n  tool: resolve\n  params: {{path: a}}\nexpect:\n  outcome: ok\n"
        );
        let err = error(&text);
        assert!(
            err.starts_with("c.yaml:6:10: `[` is never closed ("),
            "{err}"
        );
    }

    #[test]
    fn an_unknown_field_is_not_named_twice() {
        let text = format!(
            "{HEAD}fixture:\n  roots: [ws]\ncall:\n  tool: resolve\n  params: {{path: a}}\nexpect:\n  outcome: ok\n  knd: file\n"
        );
        let err = error(&text);
        assert!(err.contains("unknown field `knd`"), "{err}");
        assert!(!err.contains("expect.knd: unknown"), "{err}");
    }
}
