//! What is wrong with a case file, where, and how a message quotes it.
//!
//! A [`CaseError`] is one finding at `file:line:column`; [`CaseErrors`] is
//! every finding of one file, in the order they stand in it, so one run of
//! `toolpath lint` shows a case author all of them (as ui_test does), not
//! one per run. Everything a message quotes from a case file goes through
//! [`quote`]: control characters escaped, long values cut.

use crate::sanitize;
use std::fmt;
use std::path::{Path, PathBuf};

/// A case file that could not be read or is not a valid case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseError {
    pub file: PathBuf,
    /// 1-based; 0 when the problem has no position (an unreadable file).
    pub line: u64,
    pub column: u64,
    pub message: String,
}

impl fmt::Display for CaseError {
    /// Control characters in the file name or message are escaped here, on
    /// the way out, so no text from a case file can start a line of its own
    /// (an id holding `\nother.yaml:1:1: ...` would forge another error).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = sanitize::escaped(&self.file.to_string_lossy());
        let message = sanitize::escaped(&self.message);
        if self.line == 0 {
            write!(f, "{file}: {message}")
        } else {
            write!(f, "{file}:{}:{}: {message}", self.line, self.column)
        }
    }
}

impl std::error::Error for CaseError {}

impl CaseError {
    /// A file that could not be read at all (no position).
    pub fn unreadable(file: &Path, error: &std::io::Error) -> CaseError {
        CaseError {
            file: file.to_owned(),
            line: 0,
            column: 0,
            message: format!("cannot read: {error}"),
        }
    }
}

/// Every error found in one case file, sorted by where it stands; never
/// empty. Displayed one error a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseErrors(Vec<CaseError>);

impl CaseErrors {
    /// The errors in file order; `None` when there are none.
    pub fn new(mut errors: Vec<CaseError>) -> Option<CaseErrors> {
        // Stable: two findings at one place keep the order they were found in.
        errors.sort_by_key(|e| (e.line, e.column));
        (!errors.is_empty()).then_some(CaseErrors(errors))
    }

    /// The error that stands first in the file.
    pub fn first(&self) -> &CaseError {
        &self.0[0]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, CaseError> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true; here because clippy asks every `len` for a twin.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_vec(self) -> Vec<CaseError> {
        self.0
    }
}

impl From<CaseError> for CaseErrors {
    fn from(error: CaseError) -> CaseErrors {
        CaseErrors(vec![error])
    }
}

impl IntoIterator for CaseErrors {
    type Item = CaseError;
    type IntoIter = std::vec::IntoIter<CaseError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a CaseErrors {
    type Item = &'a CaseError;
    type IntoIter = std::slice::Iter<'a, CaseError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for CaseErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CaseErrors {}

/// The most characters of one value from a case file that a message quotes.
pub const QUOTE_LIMIT: usize = 200;

/// A value from a case file as a message quotes it: control characters
/// escaped, and cut at [`QUOTE_LIMIT`] characters with the full length, so a
/// 16 MiB value costs a line, not 16 MiB of terminal.
pub fn quote(text: &str) -> String {
    let total = text.chars().count();
    if total <= QUOTE_LIMIT {
        return sanitize::escaped(text);
    }
    let head: String = text.chars().take(QUOTE_LIMIT).collect();
    format!("{}… ({total} characters)", sanitize::escaped(&head))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u64, message: &str) -> CaseError {
        CaseError {
            file: PathBuf::from("x.yaml"),
            line,
            column: 1,
            message: message.into(),
        }
    }

    #[test]
    fn errors_are_shown_in_file_order_one_a_line() {
        let errors = CaseErrors::new(vec![at(9, "late"), at(2, "early"), at(2, "also")]).unwrap();
        assert_eq!(
            errors.to_string(),
            "x.yaml:2:1: early\nx.yaml:2:1: also\nx.yaml:9:1: late"
        );
        assert_eq!(errors.first().message, "early");
        assert!(CaseErrors::new(Vec::new()).is_none());
    }

    #[test]
    fn control_characters_in_a_file_name_or_message_are_escaped() {
        let e = CaseError {
            file: PathBuf::from("x\ny.yaml"),
            line: 1,
            column: 1,
            message: "bad\r".into(),
        };
        assert_eq!(e.to_string(), "x\\ny.yaml:1:1: bad\\r");
    }
}
