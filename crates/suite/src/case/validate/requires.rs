//! `requires`: the declared features must be exactly those the fixture and
//! the call use, so adapters are never sent a case they cannot build and
//! selection by feature is trustworthy.

use std::collections::BTreeSet;

use serde_saphyr::{Location, Spanned};

use super::FileProblems;
use crate::case::Action;
use crate::case::raw::Feature;

/// `fixture` is what the fixture uses (`fixture::features_used`); the
/// call adds `schemas` when it describes a parameter.
pub fn check(
    findings: &mut FileProblems,
    declared: &[Spanned<Feature>],
    fixture: BTreeSet<Feature>,
    action: &Action,
    id_at: Location,
) -> BTreeSet<Feature> {
    let mut used = fixture;
    if matches!(action, Action::Describe(_)) {
        used.insert(Feature::Schemas);
    }
    let declared_set: BTreeSet<Feature> = declared.iter().map(|f| f.value).collect();
    for missing in used.difference(&declared_set) {
        findings.error(
            id_at,
            format!(
                "requires: the case uses `{}` but does not declare it",
                missing.name()
            ),
        );
    }
    let mut seen = BTreeSet::new();
    for feature in declared {
        if !seen.insert(feature.value) {
            findings.error(
                feature.referenced,
                format!("requires: `{}` is given twice", feature.value.name()),
            );
        } else if !used.contains(&feature.value) {
            findings.error(
                feature.referenced,
                format!(
                    "requires: `{}` is declared but the case does not use it",
                    feature.value.name()
                ),
            );
        }
    }
    used
}
