//! Properties of the suite as a whole: ids are unique, every requirement is
//! pinned by a case through every tool it applies to, no case cites an
//! unknown ID, and the committed schemas are what this build generates.

use toolpath::case::coverage::{coverage, gaps};
use toolpath::case::embedded::load_embedded;
use toolpath_suite::spec::requirements;

#[test]
fn every_case_is_valid_and_ids_are_unique() {
    let (cases, errors) = load_embedded();
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(errors.is_empty(), "invalid cases:\n{}", shown.join("\n"));
    assert!(!cases.is_empty(), "the suite has no cases");
}

#[test]
fn every_requirement_is_pinned_through_every_tool_it_applies_to() {
    let (cases, _) = load_embedded();
    let gaps = gaps(&coverage(requirements(), &cases));
    assert!(
        gaps.is_empty(),
        "requirements without a case for a tool they apply to: {}",
        gaps.join(", ")
    );
}

#[test]
fn security_requirements_are_pinned_by_several_cases() {
    let (cases, _) = load_embedded();
    for req in requirements().iter().filter(|r| r.area == "SEC") {
        let n = cases.iter().filter(|c| c.spec.contains(&req.id)).count();
        assert!(
            n >= 2,
            "{} is pinned by {n} case(s); security rules need several",
            req.id
        );
    }
}

#[test]
fn committed_schemas_are_current() {
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    for (name, generated) in toolpath::cli::schemas::all() {
        let committed = std::fs::read_to_string(spec.join(name)).unwrap_or_default();
        assert!(
            committed == generated,
            "spec/{name} is stale: run `cargo run -- schemas spec`"
        );
    }
}

/// A report status's `name()` comes from strum's attribute, the wire from
/// serde's: the two must spell every status alike, and `Status::ALL` list
/// them all (the protocol enums are checked in the suite crate).
#[test]
fn status_names_are_the_wire_names() {
    use strum::VariantArray;
    use toolpath::report::Status;
    for status in Status::VARIANTS {
        assert_eq!(serde_json::to_value(status).unwrap(), status.name());
    }
    assert_eq!(Status::ALL, Status::VARIANTS);
}
