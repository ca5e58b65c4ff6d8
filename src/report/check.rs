//! What a [`Mismatch`](super::Mismatch) is about: a result field (by its
//! one wire name, [`Field`]), a containment check of one, one item of one,
//! or one of the judge's own checks that no result field names.
//!
//! Reports carry it as the text they always did (`matches.path`,
//! `error.message contains`, `matches.text "{ws}/a.ts:3"`, `fixture`), so
//! every format renders it the same; the field's part of that text is
//! [`Field::name`], never spelled again here, and reading a report back
//! gives the same typed value or a clear error.

use std::fmt;

use toolpath_suite::protocol::Field;

/// The check a mismatch failed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Check {
    /// A field's value (`outcome`, `kind`, `matches`).
    Field(Field),
    /// That a field's text contains a needle (`error.message contains`,
    /// ERR-3; `model_text contains`, OUT-5).
    Contains(Field),
    /// One item of a field, shown after the field's name (`matches.text`
    /// of one `"PATH:LINE"`, SEARCH-10).
    Item(Field, String),
    /// A check of the judge's own, about no single result field.
    Own(OwnCheck),
}

/// The judge's checks that are not about a result field, by the names
/// reports give them.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[strum(serialize_all = "kebab-case")]
pub enum OwnCheck {
    /// The call changed the fixture inside the roots (SEC-11, FILE-11).
    Fixture,
    /// The call changed something outside every root (SEC-11, SEC-12).
    Escape,
    /// Something from outside every root reached the answer (SEC-12).
    Outside,
    /// No answer came: the implementation failed the case itself.
    Answer,
    /// A search, glob or listing cut short of its floor (OUT-6).
    Truncated,
    /// A read cut short of its floor (FILE-13).
    TruncatedRead,
    /// An `ls` text names every entry its answer gives (OUT-7).
    #[strum(serialize = "model_text-entries")]
    EntriesNamed,
    /// A description names a word a DESC case requires.
    Mentions,
    /// A description leaves out a phrase a DESC case forbids.
    Excludes,
}

impl Check {
    /// The check without what it says about one instance: the field's wire
    /// name (for its value, a containment or an item of it), else the
    /// judge's own check's name. What tells checks apart across instances.
    pub fn head(&self) -> &'static str {
        match self {
            Check::Field(field) | Check::Contains(field) | Check::Item(field, _) => field.name(),
            Check::Own(own) => own.into(),
        }
    }

    /// The check without what it says about one instance, as a check:
    /// a containment or an item of a field is that field's check. Its
    /// name is [`Check::head`].
    pub fn general(&self) -> Check {
        match self {
            Check::Contains(field) | Check::Item(field, _) => Check::Field(*field),
            other => other.clone(),
        }
    }
}

impl From<Field> for Check {
    fn from(field: Field) -> Check {
        Check::Field(field)
    }
}

impl From<OwnCheck> for Check {
    fn from(own: OwnCheck) -> Check {
        Check::Own(own)
    }
}

/// What follows a field's name in a containment check's name.
const CONTAINS: &str = "contains";

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = self.head();
        match self {
            Check::Field(_) | Check::Own(_) => f.write_str(head),
            Check::Contains(_) => write!(f, "{head} {CONTAINS}"),
            Check::Item(_, item) => write!(f, "{head} {item}"),
        }
    }
}

impl std::str::FromStr for Check {
    type Err = String;

    fn from_str(text: &str) -> Result<Check, String> {
        let (head, rest) = text.split_once(' ').unwrap_or((text, ""));
        let check = match (Field::from_wire(head), rest) {
            (Some(field), "") => Check::Field(field),
            (Some(field), CONTAINS) => Check::Contains(field),
            (Some(field), item) => Check::Item(field, item.to_owned()),
            (None, "") => head
                .parse()
                .map(Check::Own)
                .ok()
                .ok_or_else(|| unknown(text))?,
            (None, _) => return Err(unknown(text)),
        };
        Ok(check)
    }
}

fn unknown(text: &str) -> String {
    format!("`{text}` names no result field and no check of the judge")
}

impl From<Check> for String {
    fn from(check: Check) -> String {
        check.to_string()
    }
}

impl TryFrom<String> for Check {
    type Error = String;

    fn try_from(text: String) -> Result<Check, String> {
        text.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    /// Every check reads back as itself from the text a report carries.
    #[test]
    fn every_check_reads_back_from_its_name() {
        let mut checks: Vec<Check> = Vec::new();
        for &field in Field::VARIANTS {
            checks.push(Check::Field(field));
            checks.push(Check::Contains(field));
            checks.push(Check::Item(field, "\"{ws}/a b.ts:3\"".to_owned()));
        }
        checks.extend(OwnCheck::VARIANTS.iter().map(|&own| Check::Own(own)));
        for check in checks {
            let text = check.to_string();
            assert_eq!(text.parse::<Check>(), Ok(check.clone()), "{text}");
            let json = serde_json::to_string(&check).unwrap();
            assert_eq!(json, serde_json::to_string(&text).unwrap());
            assert_eq!(serde_json::from_str::<Check>(&json).unwrap(), check);
        }
    }

    /// The names reports have always shown, spelled out once here.
    #[test]
    fn names_are_the_reports_names() {
        let shown = [
            (Check::Field(Field::MatchesPath), "matches.path"),
            (
                Check::Contains(Field::ErrorMessage),
                "error.message contains",
            ),
            (
                Check::Item(Field::MatchesText, "\"{ws}/a.ts:1\"".into()),
                "matches.text \"{ws}/a.ts:1\"",
            ),
            (Check::Own(OwnCheck::TruncatedRead), "truncated-read"),
            (Check::Own(OwnCheck::EntriesNamed), "model_text-entries"),
            (Check::Own(OwnCheck::Fixture), "fixture"),
        ];
        for (check, name) in shown {
            assert_eq!(check.to_string(), name);
        }
    }

    /// A check's general form is named by its head, and is general.
    #[test]
    fn the_general_check_is_named_by_the_head() {
        let item = Check::Item(Field::MatchesText, "\"{ws}/a:1\"".into());
        let contains = Check::Contains(Field::ErrorMessage);
        let own = Check::Own(OwnCheck::Escape);
        for check in [item, contains, own] {
            let general = check.general();
            assert_eq!(general.to_string(), check.head());
            assert_eq!(general.general(), general);
        }
    }

    /// A name that is no check is an error that quotes it, not a guess.
    #[test]
    fn an_unknown_name_is_refused() {
        for text in ["fixtures", "frobnicate contains", ""] {
            let err = text.parse::<Check>().unwrap_err();
            assert!(err.contains(&format!("`{text}`")), "{err}");
        }
        assert!(serde_json::from_str::<Check>("\"nope\"").is_err());
    }
}
