//! OUT-6: a search, `glob` or `ls` may stop after [`FLOOR`] results or
//! more, and then says so with the note [`TRUNCATED`]; FILE-13: a read
//! may stop after [`READ_FLOOR`] bytes of a larger file, and says so too.
//!
//! Agent tools cap their answers to spare the model's context (a published
//! grep stops at 100 matches); what the spec rules out is stopping
//! silently, which a model reads as "there is nothing else", and stopping
//! so early that the answer is useless. So an answer that declares a cut
//! is judged on what it gave: every result one the full answer has, at
//! least [`FLOOR`] of them, and only where the full answer has more than
//! [`FLOOR`]. An answer that does not declare one is compared whole, as
//! before.

use std::borrow::Cow;

use crate::harness::expected::{Expected, ExpectedContent};
use crate::harness::path_fold::folded;
use toolpath_suite::protocol::{Field, ToolResult};

/// The fewest results a cut answer may give (OUT-6).
pub const FLOOR: usize = 100;

pub use toolpath_suite::protocol::notes::TRUNCATED;

/// How an answer's declared cut stands.
#[derive(Debug, PartialEq)]
pub enum Cut<'a> {
    /// The answer declares none, or one the spec allows: judge it against
    /// this expectation (the full one, or the part of it the answer gave,
    /// with the note expected too).
    Judge(Box<Cow<'a, Expected>>),
    /// The answer declares a cut the spec does not allow: why.
    Refused(String),
}

/// What `result` is to be judged against, given the cut it declares.
/// `observable` says which fields the answer shows: a list it cannot show
/// is not judged, and one whose items' directory it cannot show
/// (`matches.path`, `entries.path`) is kept by base name, as the judge
/// compares it, so such an answer can pass OUT-6 too.
pub fn judge<'a>(
    expected: &'a Expected,
    result: &ToolResult,
    observable: &dyn Fn(Field) -> bool,
) -> Cut<'a> {
    let declared = result
        .notes
        .as_ref()
        .is_some_and(|n| n.iter().any(|n| n == TRUNCATED));
    if !declared {
        return Cut::Judge(Box::new(Cow::Borrowed(expected)));
    }
    let mut cut = expected.clone();
    if let Some(notes) = &mut cut.notes
        && !notes.iter().any(|n| n == TRUNCATED)
    {
        notes.push(TRUNCATED.to_owned());
    }
    // The list the case expects, and which of its items the answer gave
    // (an item it does not have stays out of the cut expectation, so the
    // comparison shows it).
    let same_path = |field: Field, want: &str, got: &str| {
        folded(want, observable(field)) == folded(got, observable(field))
    };
    let (full, kept) = if let (Some(want), Some(got)) = (&mut cut.matches, &result.matches)
        && observable(Field::Matches)
    {
        let full = want.len();
        want.retain(|w| {
            (got.iter())
                .any(|g| same_path(Field::MatchesPath, &w.path, &g.path) && g.line == w.line)
        });
        (full, want.len())
    } else if let (Some(want), Some(got)) = (&mut cut.files, &result.files)
        && observable(Field::Files)
    {
        let full = want.len();
        want.retain(|w| got.iter().any(|g| same_path(Field::FilesPath, w, g)));
        (full, want.len())
    } else if let (Some(want), Some(got)) = (&mut cut.entries, &result.entries)
        && observable(Field::Entries)
    {
        let full = want.len();
        want.retain(|(p, t)| {
            (got.iter()).any(|g| same_path(Field::EntriesPath, p, &g.path) && g.entry_type == *t)
        });
        (full, want.len())
    } else if let (Some(ExpectedContent::Text(want)), Some(got)) =
        (&mut cut.content, &result.content)
    {
        return match read_cut(want, got) {
            Ok(()) => {
                // FILE-13: judged on the part it gave.
                got.clone_into(want);
                Cut::Judge(Box::new(Cow::Owned(cut)))
            }
            Err(why) => Cut::Refused(why),
        };
    } else {
        // No list is judged: the note is the answer's own business.
        return Cut::Judge(Box::new(Cow::Owned(cut)));
    };
    if full <= FLOOR {
        return Cut::Refused(format!(
            "the answer says it was truncated, but the full answer has {full} results and nothing \
             may be left out of {FLOOR} or fewer"
        ));
    }
    if kept < FLOOR {
        return Cut::Refused(format!(
            "the answer stops after {kept} of the {full} results; a truncated answer gives at \
             least {FLOOR}"
        ));
    }
    Cut::Judge(Box::new(Cow::Owned(cut)))
}

/// FILE-13: the fewest bytes of a file's text a cut read gives, and the
/// size of the largest file a read must answer whole.
pub const READ_FLOOR: usize = 64 * 1024;

/// Whether a read that says `truncated` and answered `got` may be judged
/// on it: the file is larger than [`READ_FLOOR`], and `got` is its text
/// from the start, at least [`READ_FLOOR`] bytes of it, not all of it.
fn read_cut(want: &str, got: &str) -> Result<(), String> {
    if want.len() <= READ_FLOOR {
        return Err(format!(
            "the read says it was truncated, but the file has {} bytes and one of {READ_FLOOR} \
             or fewer is read whole",
            want.len()
        ));
    }
    if got.len() >= want.len() || !want.starts_with(got) {
        return Err(
            "the read says it was truncated, but its content is not a part of the file's text \
             from its start"
                .to_owned(),
        );
    }
    if got.len() < READ_FLOOR {
        return Err(format!(
            "the read stops after {} of the file's {} bytes; a truncated read gives at least \
             the first {READ_FLOOR}",
            got.len(),
            want.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::expected::ExpectedLine;
    use toolpath_suite::case::raw::ExpectedOutcome;
    use toolpath_suite::protocol::{Match, Outcome};

    fn expected(n: usize) -> Expected {
        Expected {
            outcome: ExpectedOutcome::Ok,
            kind: None,
            path: None,
            parent: None,
            cwd: None,
            output: None,
            matches: Some(
                (0..n)
                    .map(|i| ExpectedLine {
                        path: format!("/w/f{i}"),
                        line: 1,
                        text: Some("x".into()),
                    })
                    .collect(),
            ),
            notes: Some(vec![]),
            files: None,
            entries: None,
            error: None,
            model_text_contains: vec![],
            content: None,
            writes: vec![],
        }
    }

    fn answer(n: usize, note: bool) -> ToolResult {
        ToolResult {
            outcome: Some(Outcome::Ok),
            matches: Some(
                (0..n)
                    .map(|i| Match {
                        path: format!("/w/f{i}"),
                        line: 1,
                        text: "x".into(),
                    })
                    .collect(),
            ),
            notes: Some(if note { vec![TRUNCATED.into()] } else { vec![] }),
            ..ToolResult::default()
        }
    }

    #[test]
    fn an_answer_without_the_note_is_judged_whole() {
        let e = expected(150);
        assert_eq!(
            judge(&e, &answer(100, false), &|_| true),
            Cut::Judge(Box::new(Cow::Borrowed(&e)))
        );
    }

    /// An answer that cannot show where its matches are (`matches.path`)
    /// is kept by base name and line, as the judge compares it, so its
    /// cut is judged on what it gave; one that cannot show its matches at
    /// all has no list judged here.
    #[test]
    fn a_cut_whose_paths_are_not_observed_is_kept_by_base_name() {
        let e = expected(150);
        let mut named = answer(120, true);
        for m in named.matches.as_mut().unwrap() {
            m.path = m.path.replace("/w/", "elsewhere/");
        }
        let by_name = |f: Field| f != Field::MatchesPath;
        let Cut::Judge(cut) = judge(&e, &named, &by_name) else {
            panic!("allowed")
        };
        assert_eq!(cut.matches.as_ref().unwrap().len(), 120);
        assert!(matches!(judge(&e, &named, &|_| true), Cut::Refused(_)));
        let unseen = |f: Field| f != Field::Matches;
        let Cut::Judge(cut) = judge(&e, &named, &unseen) else {
            panic!("nothing to judge")
        };
        assert_eq!(cut.matches.as_ref().unwrap().len(), 150, "left as expected");
    }

    #[test]
    fn a_declared_cut_past_the_floor_is_judged_on_what_it_gave() {
        let e = expected(150);
        let Cut::Judge(cut) = judge(&e, &answer(120, true), &|_| true) else {
            panic!("allowed")
        };
        assert_eq!(cut.matches.as_ref().unwrap().len(), 120);
        assert_eq!(cut.notes.as_deref(), Some(&[TRUNCATED.to_owned()][..]));
    }

    fn read(got: &str, note: bool) -> ToolResult {
        ToolResult {
            outcome: Some(Outcome::Ok),
            content: Some(got.to_owned()),
            notes: Some(if note { vec![TRUNCATED.into()] } else { vec![] }),
            ..ToolResult::default()
        }
    }

    fn file(text: &str) -> Expected {
        Expected {
            matches: None,
            content: Some(ExpectedContent::Text(text.to_owned())),
            ..expected(0)
        }
    }

    #[test]
    fn a_read_cut_past_the_floor_is_judged_on_its_prefix() {
        let text = "0123456789abcde\n".repeat(5000);
        let e = file(&text);
        let Cut::Judge(cut) = judge(&e, &read(&text[..READ_FLOOR + 3], true), &|_| true) else {
            panic!("allowed")
        };
        assert_eq!(
            cut.content,
            Some(ExpectedContent::Text(text[..READ_FLOOR + 3].to_owned()))
        );
        assert_eq!(cut.notes.as_deref(), Some(&[TRUNCATED.to_owned()][..]));
        // Without the note it is judged whole, and so fails on content.
        assert_eq!(
            judge(&e, &read(&text[..READ_FLOOR + 3], false), &|_| true),
            Cut::Judge(Box::new(Cow::Borrowed(&e)))
        );
    }

    #[test]
    fn a_read_cut_short_of_a_small_file_or_not_a_prefix_is_refused() {
        let big = "x".repeat(READ_FLOOR * 2);
        for (want, got, why) in [
            ("abc\n".repeat(3000), "abc\n".to_owned(), "read whole"),
            (big.clone(), big[..100].to_owned(), "stops after 100"),
            (
                big.clone(),
                format!("y{}", &big[..READ_FLOOR]),
                "not a part",
            ),
            (big.clone(), big.clone(), "not a part"),
        ] {
            match judge(&file(&want), &read(&got, true), &|_| true) {
                Cut::Refused(message) => assert!(message.contains(why), "{message}"),
                other => panic!("{why}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_cut_below_the_floor_or_of_a_short_answer_is_refused() {
        assert!(matches!(
            judge(&expected(150), &answer(99, true), &|_| true),
            Cut::Refused(why) if why.contains("stops after 99 of the 150")
        ));
        assert!(matches!(
            judge(&expected(100), &answer(100, true), &|_| true),
            Cut::Refused(why) if why.contains("has 100 results")
        ));
    }
}
