//! The suite embedded in the binary, validated when the binary was built.
//!
//! `build.rs` loads `cases/` with the same code as `--cases DIR`
//! ([`toolpath_suite::case::load::load`]: YAML, every check of the
//! validator, file names, duplicate ids; the suite crate is its build
//! dependency) and fails the build with the located errors if a case is
//! invalid. What it embeds is the validated cases in a compact binary form
//! (postcard, [`toolpath_suite::case::compact`]), so a start-up decodes them
//! instead of parsing and validating 400 KB of YAML each time (most of
//! `toolpath list`), and what lists and selects each case apart
//! ([`CaseHead`]), so `toolpath list` of the embedded suite decodes only
//! that. The YAML stays the source of truth and is embedded
//! beside them for `toolpath export`; a test checks that both say the same.

use toolpath_suite::case::{Case, CaseError, CaseHead};

include!(concat!(env!("OUT_DIR"), "/embedded_cases.rs"));

/// The validated cases in the compact form `build.rs` wrote.
static EMBEDDED_SUITE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded_suite.postcard"));

/// What lists and selects each embedded case, in the same order.
static EMBEDDED_HEADS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded_heads.postcard"));

/// What lists and selects each embedded case ([`CaseHead`]), decoded
/// without the rest of the cases: for `toolpath list`.
pub fn embedded_heads() -> Vec<CaseHead> {
    postcard::from_bytes(EMBEDDED_HEADS)
        .expect("the embedded heads decode: build.rs wrote them with these types")
}

/// The cases embedded at build time. Their `file` is the path in the
/// repository (`cases/search/file-relative.yaml`), the same on every machine.
///
/// The error list is always empty: an invalid embedded case fails the build,
/// so a binary holding one cannot exist. It is returned so callers treat
/// the embedded suite and `--cases` directories alike.
pub fn load_embedded() -> (Vec<Case>, Vec<CaseError>) {
    let cases = postcard::from_bytes(EMBEDDED_SUITE)
        .expect("the embedded suite decodes: build.rs wrote it with these types");
    (cases, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The pre-validated form says exactly what the YAML says: every case,
    /// in the same order, equal field by field to the same text validated now.
    #[test]
    fn the_embedded_form_equals_the_yaml_validated_now() {
        let (decoded, errors) = load_embedded();
        assert!(errors.is_empty());
        let parsed: Vec<Case> = EMBEDDED_CASES
            .iter()
            .flat_map(|(path, text)| {
                toolpath_suite::case::validate::parse_cases(Path::new(path), text).unwrap()
            })
            .collect();
        assert_eq!(decoded.len(), parsed.len());
        for (decoded, parsed) in decoded.iter().zip(&parsed) {
            assert_eq!(decoded, parsed);
        }
    }

    /// The heads `toolpath list` reads are the embedded cases' own.
    #[test]
    fn the_embedded_heads_are_the_embedded_cases_heads() {
        let (cases, _) = load_embedded();
        let heads: Vec<CaseHead> = cases.iter().map(CaseHead::from).collect();
        assert_eq!(embedded_heads(), heads);
    }

    #[test]
    fn every_embedded_case_is_named_after_its_id() {
        let (cases, errors) = load_embedded();
        assert!(errors.is_empty(), "{errors:?}");
        assert!(cases.len() > 100);
        for case in &cases {
            let name = case.file.file_name().unwrap().to_string_lossy();
            assert_eq!(name, toolpath_suite::case::load::file_name(case.file_id()));
        }
    }
}
