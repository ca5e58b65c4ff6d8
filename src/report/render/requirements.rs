//! The per-requirement view of reports, shared by the Markdown certification
//! report and the HTML matrix: which instances cite which requirement, and
//! which requirement rows a view shows.
//!
//! Every requirement of the spec gets a row, cited or not, so a filtered
//! run shows its gaps instead of a short, all-green table; an ID a report
//! cites that this build's spec lacks (a report from another suite version)
//! gets a row too, after them, so no verdict disappears.
//!
//! A requirement no instance exercised (nothing judged: every instance
//! unsupported, skipped or not run, or none cites it) is listed as *not
//! exercised* with the reason ([`unexercised`]): the reasons its instances
//! were not judged (a tool the adapter does not provide, a feature it
//! does not declare, a machine that cannot observe it), as the per-rule
//! counts keep them, or, when no selected instance cites it, the tools its
//! `Applies to:` line names.

use std::collections::{BTreeMap, BTreeSet};

use crate::report::conformance::RuleCount;
use crate::report::{CaseReport, Report};
use toolpath_suite::spec::Requirement;

/// One row of a per-requirement view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row<'a> {
    pub id: &'a str,
    pub area: &'a str,
    /// The requirement's first sentence; `None` when this build's spec
    /// does not have the ID.
    pub summary: Option<&'a str>,
    /// The tools its `Applies to:` line names (empty when not in the spec).
    pub tools: &'a [String],
}

/// Requirement ID -> the instances citing it, in report order. An instance
/// citing several requirements is listed under each.
pub fn cited(report: &Report) -> BTreeMap<&str, Vec<&CaseReport>> {
    let mut cited: BTreeMap<&str, Vec<&CaseReport>> = BTreeMap::new();
    for case in &report.cases {
        for id in &case.spec {
            cited.entry(id.as_str()).or_default().push(case);
        }
    }
    cited
}

/// The rows for the requirement IDs some instance cites (repeats allowed):
/// the spec's requirements in document order, then the cited IDs the spec
/// lacks, sorted. It takes IDs, not reports, so a renderer that reads its
/// cases in a pass (a streamed run) and one holding whole reports (the
/// HTML matrix, via [`cited_ids`]) share it.
pub fn rows<'a>(
    requirements: &'a [Requirement],
    cited: impl IntoIterator<Item = &'a str>,
) -> Vec<Row<'a>> {
    let mut rows: Vec<Row> = requirements
        .iter()
        .map(|r| Row {
            id: &r.id,
            area: &r.area,
            summary: Some(&r.summary),
            tools: &r.tools,
        })
        .collect();
    let known: BTreeSet<&str> = requirements.iter().map(|r| r.id.as_str()).collect();
    let unknown: BTreeSet<&str> = cited.into_iter().filter(|id| !known.contains(id)).collect();
    rows.extend(unknown.into_iter().map(|id| Row {
        id,
        area: id.split_once('-').map_or("", |(area, _)| area),
        summary: None,
        tools: &[],
    }));
    rows
}

/// Why `row` was not exercised, if it was not: `count` is its entry in
/// the per-rule counts (with the reasons its instances were not judged),
/// absent when no selected instance cites it.
pub fn unexercised(row: &Row, count: Option<&RuleCount>) -> Option<String> {
    match count {
        Some(count) => count.not_exercised.clone(),
        None if row.tools.is_empty() => Some("no selected instance cites it".to_owned()),
        None => Some(format!(
            "no selected instance cites it (it applies to {})",
            row.tools
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Every requirement ID the instances of `reports` cite, repeats included.
pub fn cited_ids(reports: &[Report]) -> impl Iterator<Item = &str> {
    reports
        .iter()
        .flat_map(|r| r.cases.iter().flat_map(|c| c.spec.iter()))
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;
    use crate::report::render::sample_reports::{case, report};
    use toolpath_suite::spec;

    #[test]
    fn spec_rows_first_then_unknown_ids_once() {
        let reqs = spec::parse_requirements("- **RES-1** One.\n- **SEC-1** Two.\n");
        let reports = [
            report("a", vec![case("x", Status::Pass, &["OLD-2", "RES-1"])]),
            report("b", vec![case("y", Status::Fail, &["OLD-2", "NEW-1"])]),
        ];
        let rows = rows(&reqs, cited_ids(&reports));
        let ids: Vec<&str> = rows.iter().map(|r| r.id).collect();
        assert_eq!(ids, ["RES-1", "SEC-1", "NEW-1", "OLD-2"]);
        assert_eq!(rows[1].summary, Some("Two."));
        assert_eq!((rows[3].area, rows[3].summary), ("OLD", None));
    }

    #[test]
    fn what_was_not_exercised_says_why() {
        use crate::report::counts::Counts;
        use crate::report::render::sample_reports::with_reason;
        let reqs = spec::parse_requirements(
            "Applies to: `shell`.\n- **SHELL-1** One.\n- **SHELL-2** Two.\n- **SHELL-3** Three.\n",
        );
        let cases = [
            with_reason(
                case("a", Status::Unsupported, &["SHELL-1"]),
                "the adapter does not provide the `shell` tool",
            ),
            with_reason(case("b", Status::Skip, &["SHELL-1"]), "needs root"),
            case("c", Status::Pass, &["SHELL-2"]),
        ];
        let counts = Counts::of(&cases);
        let rows = rows(&reqs, []);
        let why = |i: usize| unexercised(&rows[i], counts.rules.get(rows[i].id));
        assert_eq!(
            why(0).unwrap(),
            "needs root; the adapter does not provide the `shell` tool"
        );
        assert_eq!(why(1), None);
        assert_eq!(
            why(2).unwrap(),
            "no selected instance cites it (it applies to `shell`)"
        );
        let unknown = Row {
            id: "OLD-1",
            area: "OLD",
            summary: None,
            tools: &[],
        };
        assert_eq!(
            unexercised(&unknown, None).unwrap(),
            "no selected instance cites it"
        );
    }

    #[test]
    fn an_instance_is_listed_under_each_requirement_it_cites() {
        let r = report(
            "a",
            vec![
                case("x", Status::Pass, &["RES-1", "SEC-1"]),
                case("y", Status::Fail, &["RES-1"]),
            ],
        );
        let cited = cited(&r);
        let ids = |req: &str| -> Vec<&str> { cited[req].iter().map(|c| c.id.as_str()).collect() };
        assert_eq!(ids("RES-1"), ["x", "y"]);
        assert_eq!(ids("SEC-1"), ["x"]);
    }
}
