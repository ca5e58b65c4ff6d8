//! DESC cases: a parameter description as a model reads it, judged on
//! the words it must mention and the phrases it must not hold.

use super::checks::Checks;
use super::{Verdict, quoted};
use crate::report::OwnCheck;
use toolpath_suite::case::Expect;
use toolpath_suite::placeholders::Placeholders;

/// Judges a parameter description against the words a DESC case requires.
pub fn judge_description(expect: &Expect, description: Option<&str>) -> Verdict {
    let vars = Placeholders::default();
    let mut j = Checks::new(&vars, &[]);
    let lower = description.map(str::to_lowercase);
    let shown = || description.map_or_else(|| "(no description)".to_owned(), quoted);
    for word in expect.mentions.iter().flatten() {
        let agrees = lower
            .as_ref()
            .is_some_and(|d| d.contains(&word.to_lowercase()));
        let actual = if agrees {
            quoted(word)
        } else {
            format!("absent from {}", shown())
        };
        j.check_as(
            OwnCheck::Mentions.into(),
            None,
            &quoted(word),
            &actual,
            agrees,
        );
    }
    for phrase in expect.excludes.iter().flatten() {
        let agrees = !lower
            .as_ref()
            .is_some_and(|d| d.contains(&phrase.to_lowercase()));
        let actual = if agrees {
            quoted(phrase)
        } else {
            format!("present in {}", shown())
        };
        j.check_as(
            OwnCheck::Excludes.into(),
            None,
            &quoted(phrase),
            &actual,
            agrees,
        );
    }
    j.finish()
}
