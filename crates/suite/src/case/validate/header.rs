//! The case's header: its id, the requirement IDs it cites, its tags.

use serde_saphyr::Spanned;

use super::{FileProblems, spanned};
use crate::case::error::quote;
use crate::case::raw::KNOWN_TAGS;

pub fn check(
    findings: &mut FileProblems,
    id: &Spanned<String>,
    spec: &[Spanned<String>],
    tags: &[Spanned<String>],
) {
    if let Err(message) = check_id(&id.value) {
        findings.error(id.referenced, format!("id: {message}"));
    }
    if spec.is_empty() {
        findings.error(
            id.referenced,
            "spec: a case must cite at least one requirement ID",
        );
    }
    for req in spec {
        if !crate::spec::is_known(&req.value) {
            findings.error(
                req.referenced,
                format!("spec: unknown requirement ID `{}`", quote(&req.value)),
            );
        }
    }
    findings.repeats("spec", spanned(spec), "");
    for tag in tags {
        if !KNOWN_TAGS.contains(&tag.value.as_str()) {
            findings.error(
                tag.referenced,
                format!(
                    "tags: unknown tag `{}` (known: {})",
                    quote(&tag.value),
                    KNOWN_TAGS.join(", ")
                ),
            );
        }
    }
    findings.repeats("tags", spanned(tags), "");
}

/// Ids are dotted lower-case words (`search.file.relative`), so they sort,
/// glob and survive as file names.
pub fn check_id(id: &str) -> Result<(), String> {
    let words: Vec<&str> = id.split('.').collect();
    let word_ok = |w: &&str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
            && !w.starts_with('-')
    };
    if words.len() < 2 || !words.iter().all(word_ok) {
        return Err(format!(
            "`{}` is not dotted lower-case words like `search.file.relative`",
            quote(id)
        ));
    }
    Ok(())
}
