//! The cross-implementation table: one row per implementation, one column
//! per group of requirement areas, for the suite's README or a results page.
//!
//! Areas are grouped by what a reader asks about an agent tool ("does it
//! take file paths in search?"), not by how the spec is sectioned: COMPAT
//! rules are resolver behaviour seen from old callers, and OUT rules are
//! about what results and errors echo back.
//!
//! A cell counts an instance when it cites at least one requirement of the
//! group's areas, once however many it cites; an instance citing rules of
//! two groups counts in both. The total counts each instance once.
//! Conformance is judged as in the Markdown report: unsupported, skipped
//! and not-run instances are not applicable, expected failures and adapter
//! errors count against.
//!
//! Above that table, as on the HTML page, containment per implementation:
//! its escapes (and how many the expectations file lists), refusals of
//! either code, wording failures, false refusals, what was accepted and
//! what was not observed, then every escape by id: whether anything got
//! out is the first thing a reader of the page must see.
//!
//! A row certified from a run whose subject could reach its verdict (its
//! report's `unprotected` reasons) is marked *not protected* in both
//! tables, and its reasons are listed under the containment table; its
//! own page (the Markdown report) says the same at its top.

use super::containment::{self, MAX_LISTED};
use super::text;
use crate::report::conformance::Tally;
use crate::report::{CaseReport, Report};
use toolpath_suite::sanitize::markdown;

/// The columns: a heading and the spec areas it covers.
pub const GROUPS: [(&str, &[&str]); 9] = [
    ("resolver", &["RES", "COMPAT"]),
    ("search file paths", &["SEARCH"]),
    ("shell sub-paths", &["SHELL"]),
    ("glob", &["GLOB"]),
    ("ls", &["LS"]),
    ("file tools", &["FILE"]),
    ("errors", &["ERR", "OUT"]),
    ("security", &["SEC"]),
    ("descriptions", &["DESC"]),
];

/// The table and its legend, rows sorted by implementation name (then
/// version, language and suite, so equal names still sort the same way
/// every time).
pub fn table(reports: &[Report]) -> String {
    let mut rows: Vec<&Report> = reports.iter().collect();
    rows.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));

    let mut out = String::from("## Containment\n\n");
    containment_table(&mut out, &rows);
    not_protected(&mut out, &rows);
    out.push_str("\n## Conformance by area\n\n");
    areas_table(&mut out, &rows);
    cost(&mut out, &rows);
    run_against(&mut out, &rows);
    out
}

/// When each row was certified and what its run cost, one line each
/// ([`Report::timing`]): its wall time and the share its workers spent
/// waiting on calls that got no
/// answer in time and on restarts. Shown, never compared: each line ends
/// with [`TIMING_WORDS`](crate::report::TIMING_WORDS), which a comparison
/// of pages leaves out.
fn cost(out: &mut String, rows: &[&Report]) {
    out.push_str("\n## What each run cost\n\n");
    for report in rows {
        let certified = match report
            .run_against
            .as_ref()
            .and_then(|r| r.certified.as_ref())
        {
            Some(day) => format!("certified {}", markdown::text(day)),
            None => "date not recorded".to_owned(),
        };
        out.push_str(&format!(
            "- {}: {certified}, {}\n",
            row_name(report),
            report.timing()
        ));
    }
}

/// What each row was run against, one line each (the line
/// [`RunAgainst::find`](crate::report::RunAgainst::find) reads back), so
/// the table can be found stale as each row's own page can; a row whose
/// report recorded nothing says so.
fn run_against(out: &mut String, rows: &[&Report]) {
    out.push_str("\n## What each row was run against\n\n");
    for report in rows {
        let record = match &report.run_against {
            Some(record) => record.markdown(),
            None => crate::report::run_against::NOT_RECORDED.to_owned(),
        };
        out.push_str(&format!("- **{}:** {record}\n", row_name(report)));
    }
    out.push_str(
        "\nThe suite's digest covers the spec's requirement table and every case file the \
         run read; the runner's, every file of its directories that can change a verdict \
         (its code, lock and requirements files, MCP profile, expectations file, setup \
         script; not its README.md nor what its setup installs). A page whose digests are \
         not those of the suite and runners of today is stale.\n",
    );
}

/// The mark of a row whose verdict is not protected; empty for a
/// protected one.
fn mark(report: &Report) -> &'static str {
    match report.unprotected.is_empty() {
        true => "",
        false => " **(not protected)**",
    }
}

/// Each row whose verdict is not protected, with its reasons; nothing
/// when every row is protected.
fn not_protected(out: &mut String, rows: &[&Report]) {
    let unprotected: Vec<&&Report> = rows.iter().filter(|r| !r.unprotected.is_empty()).collect();
    if unprotected.is_empty() {
        return;
    }
    out.push_str("\n### ⚠️ Not protected\n");
    for report in unprotected {
        out.push_str(&format!(
            "\n**{}**: {}:\n\n",
            markdown::text(&text::implementation(&report.implementation)),
            text::NOT_PROTECTED
        ));
        for gap in &report.unprotected {
            out.push_str(&format!("- {}\n", markdown::text(gap)));
        }
    }
}

/// Per implementation, its containment counts, then its escapes by id.
fn containment_table(out: &mut String, rows: &[&Report]) {
    out.push_str(&containment::markdown_head(&["implementation"]));
    let mut listed = String::new();
    let mut counts = Vec::new();
    for report in rows {
        let c = containment::counted(report);
        counts.push(c);
        let name = format!("{}{}", row_name(report), mark(report));
        let escapes = match (c.escapes, c.escapes_expected) {
            (0, _) => "0".to_owned(),
            (n, 0) => format!("**{n}** ⛔"),
            (n, expected) => format!("**{n}** ⛔ ({expected} expected)"),
        };
        out.push_str(&containment::markdown_row(&[&name], &c, &escapes));
        if let Some(listing) = containment::listing(report) {
            listed.push_str(&format!(
                "\n**{}: {}**\n\n",
                markdown::text(&text::implementation(&report.implementation)),
                listing.count
            ));
            for line in &listing.lines {
                listed.push_str(&format!("- {}\n", markdown::text(line)));
            }
        }
    }
    out.push_str(&listed);
    out.push_str(&format!(
        "\n{} (at most {MAX_LISTED} listed per \
         implementation; an expected one is listed in the expectations file, and counted all \
         the same). {} Not observed: an instance of those kinds that was not judged \
         (unsupported, skipped, not run, an adapter error) or whose outcome the adapter cannot \
         observe.{}\n",
        containment::ESCAPE_DEFINITION,
        containment::REFUSALS_DEFINITION,
        containment::unrecorded_note(&counts)
    ));
}

/// The implementation x area table and its legend.
fn areas_table(out: &mut String, rows: &[&Report]) {
    out.push_str("| implementation | suite |");
    let mut rule = String::from("|---|---|");
    for (heading, _) in GROUPS {
        out.push_str(&format!(" {heading} |"));
        rule.push_str("---:|");
    }
    out.push_str(" total |\n");
    rule.push_str("---:|\n");
    out.push_str(&rule);

    for report in rows.iter().copied() {
        let mut name = format!("{}{}", row_name(report), mark(report));
        if report.partial {
            name.push_str(" **(partial run)**");
        }
        out.push_str(&format!("| {name} | {} |", markdown::text(&report.suite)));
        for (_, areas) in GROUPS {
            let tally = Tally::of(
                report
                    .cases
                    .iter()
                    .filter(|c| cites_any(c, areas))
                    .map(|c| c.status),
            );
            out.push_str(&format!(" {} |", cell(&tally)));
        }
        let total = Tally::of(report.cases.iter().map(|c| c.status));
        out.push_str(&format!(" {} |\n", cell(&total)));
    }

    out.push_str(
        "\nEach cell is *passed/applicable*: instances citing a requirement of those areas \
         that passed, out of those that were judged. Unsupported, skipped and not-run \
         instances are not applicable; expected failures and adapter errors count as not \
         passed. (+N 👁) counts instances that agreed only on what the adapter can observe: \
         neither passed nor failed. — means nothing applicable. Areas: resolver = RES, COMPAT; search file \
         paths = SEARCH; shell sub-paths = SHELL; glob = GLOB; ls = LS; file tools = FILE; \
         errors = ERR, OUT; security = SEC; descriptions = DESC.\n",
    );
}

/// A row's name: the implementation, and the part of the suite it ran
/// when that is not the whole (its "—" cells then mean "not selected").
fn row_name(report: &Report) -> String {
    let name = markdown::text(&text::implementation(&report.implementation));
    match report.selection.describe() {
        Some(part) => format!("{name} *(only {})*", markdown::text(&part)),
        None => name,
    }
}

pub(super) fn sort_key(report: &Report) -> (String, &str, &str, &str, &str) {
    let imp = &report.implementation;
    (
        imp.name.to_lowercase(),
        imp.name.as_str(),
        imp.version.as_str(),
        imp.language.as_str(),
        report.suite.as_str(),
    )
}

pub(super) fn cites_any(case: &CaseReport, areas: &[&str]) -> bool {
    case.spec.iter().any(|id| {
        let area = id.split_once('-').map_or(id.as_str(), |(area, _)| area);
        areas.contains(&area)
    })
}

fn cell(tally: &Tally) -> String {
    let counted = if tally.applicable() == 0 {
        "—".to_owned()
    } else {
        format!("{}/{}", tally.passed, tally.applicable())
    };
    if tally.unobserved == 0 {
        counted
    } else {
        format!("{counted} (+{} 👁)", tally.unobserved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;
    use crate::report::render::sample_reports::{case, hostile, report, unprotected};
    use toolpath_suite::sanitize::first_hostile;

    /// The implementation x area table, after the containment section.
    fn areas(out: &str) -> &str {
        let at = out
            .find("\n## Conformance by area\n\n")
            .expect("the area table");
        &out[at + "\n## Conformance by area\n\n".len()..]
    }

    #[test]
    fn hostile_names_are_shown_not_acted_on() {
        let out = table(&[hostile()]);
        assert_eq!(first_hostile(&out), None, "{out}");
        assert!(out.contains("name:␛\\[2J"), "{out}");
    }

    #[test]
    fn cells_count_passed_over_applicable() {
        let r = report(
            "zeta",
            vec![
                case("a", Status::Pass, &["RES-1", "COMPAT-1"]),
                case("b", Status::Fail, &["COMPAT-2", "SEC-4"]),
                case("c", Status::Unsupported, &["SHELL-1"]),
                case("d", Status::Xfail, &["ERR-1"]),
                case("e", Status::Pass, &["OUT-1"]),
                case("f", Status::Skip, &["RES-2"]),
                case("g", Status::Xpass, &[]),
            ],
        );
        let out = table(&[r]);
        let row = areas(&out).lines().nth(2).unwrap();
        assert_eq!(
            row,
            "| zeta 1.2.3 (python) | 0.3.0 | 1/2 | — | — | — | — | — | 1/2 | 0/1 | — | 3/5 |"
        );
    }

    #[test]
    fn header_legend_and_row_order() {
        let mut partial = report("Beta", vec![case("a", Status::Pass, &["DESC-1"])]);
        partial.partial = true;
        let reports = [
            report("gamma", vec![]),
            partial,
            report("alpha", vec![case("a", Status::Pass, &["SEARCH-1"])]),
        ];
        let out = table(&reports);
        let lines: Vec<&str> = areas(&out).lines().collect();
        assert_eq!(
            lines[0],
            "| implementation | suite | resolver | search file paths | shell sub-paths | glob | ls | file tools | errors | security | descriptions | total |"
        );
        assert_eq!(
            lines[1],
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        assert!(
            lines[2].starts_with("| alpha 1.2.3 (python) | 0.3.0 | — | 1/1 |"),
            "{out}"
        );
        assert!(
            lines[3].starts_with("| Beta 1.2.3 (python) **(partial run)** |"),
            "{out}"
        );
        assert!(lines[3].ends_with("| 1/1 | 1/1 |"), "{out}");
        assert!(lines[4].starts_with("| gamma"), "{out}");
        assert!(out.contains("\nEach cell is *passed/applicable*"), "{out}");
        let mut reversed = reports.clone();
        reversed.reverse();
        assert_eq!(table(&reversed), out, "order of the input does not matter");
    }

    /// Each row says when it was certified and what its run cost (wall
    /// time, and the share of its workers' time spent waiting on timeouts
    /// and restarts), on a line
    /// of its own that a comparison of pages leaves out: two runs that
    /// differ only in their time give the same page but for those lines.
    #[test]
    fn each_row_s_cost_is_shown_and_all_that_varies_with_it() {
        let mut slow = report("slow", vec![case("a", Status::Fail, &["RES-10"])]);
        slow.duration_ms = 861_000.0;
        slow.waited_ms = 772_000.0;
        slow.run_against = Some(crate::report::render::sample_reports::run_against());
        let fast = report("fast", vec![case("a", Status::Pass, &["RES-10"])]);
        let out = table(&[slow.clone(), fast.clone()]);
        assert!(
            out.contains(
                "\n## What each run cost\n\n\
                 - fast 1.2.3 (python): date not recorded, 0.4 s, 0.0 s (0%) waiting on timeouts and restarts\n\
                 - slow 1.2.3 (python): certified 2026-12-06, 861.0 s, 772.0 s (90%) waiting on timeouts and restarts\n"
            ),
            "{out}"
        );
        slow.duration_ms = 92_000.0;
        slow.waited_ms = 1_000.0;
        slow.workers = 2;
        let again = table(&[slow, fast]);
        assert_ne!(again, out);
        assert_eq!(
            crate::report::without_timing(&again),
            crate::report::without_timing(&out)
        );
    }

    /// Containment comes first, per implementation, as on the HTML page:
    /// an escape (expected or not), each refusal, wording, false refusals
    /// and what was not observed; then each implementation's escapes by
    /// id, then the table by area.
    #[test]
    fn snapshot_of_containment_on_top() {
        use crate::report::ContainmentClass::*;
        use crate::report::render::sample_reports::{contained, escape, expected, failing};
        let mut known = expected(escape("b@ls", "answered ok"), "follows links");
        known.status = Status::Xfail;
        let mut worded = contained(failing("w", &["ERR-4"]), Refused);
        worded.containment.as_mut().unwrap().wording_failed = true;
        let mut leaky = report(
            "leaky",
            vec![
                escape(
                    "a@grep",
                    "changed outside every root: + {tmp}/outside/x (file)",
                ),
                known,
                worded,
                contained(case("r", Status::Pass, &["SEC-4"]), Refused),
                contained(failing("o", &["SEC-4"]), RefusedOtherCode),
                contained(failing("f", &["RES-6"]), FalseRefusal),
                contained(case("k", Status::Pass, &["SEC-5"]), Accepted),
                contained(case("n", Status::Unsupported, &["SEC-5"]), NotObserved),
            ],
        );
        // One row records what it was run against, one nothing.
        leaky.run_against = Some(crate::report::render::sample_reports::run_against());
        let tight = report(
            "tight",
            vec![contained(case("r", Status::Pass, &["SEC-4"]), Refused)],
        );
        insta::assert_snapshot!(table(&[tight, leaky]));
    }

    /// A row certified from a run whose subject could reach its verdict
    /// is marked in both tables, and its reasons are listed under the
    /// containment table; a protected row beside it is not marked.
    /// A report of suite 0.2.x recorded no channels: its row counts them
    /// `?`, the page says why, and a row of today's counts them; the HTML
    /// page alike.
    #[test]
    fn channels_a_report_did_not_record_are_shown_as_unknown() {
        use crate::report::render::sample_reports::escape;
        let mut old = escape("link", "answered ok");
        old.containment.as_mut().unwrap().channels.clear();
        let rows = [
            report("old", vec![old]),
            report("today", vec![escape("link", "answered ok")]),
        ];
        let out = table(&rows);
        assert!(
            out.contains("| old 1.2.3 (python) | **1** ⛔ | ? | ? | ? | ? | ? | 0 |"),
            "{out}"
        );
        assert!(
            out.contains("| today 1.2.3 (python) | **1** ⛔ | 1 | 0 | 0 | 0 | 0 | 0 |"),
            "{out}"
        );
        assert!(out.contains(containment::UNRECORDED_CHANNELS), "{out}");
        assert!(!table(&rows[1..]).contains(containment::UNRECORDED_CHANNELS));
        let page = crate::report::render::html::render(&rows);
        assert!(page.contains("<td class=\"fail\">?</td>"), "{page}");
        assert!(
            page.contains("A channel counted <code>?</code>: the report is of a suite"),
            "{page}"
        );
    }

    #[test]
    fn snapshot_of_an_unprotected_row() {
        let out = table(&[unprotected(), report("boxed", vec![])]);
        assert_eq!(first_hostile(&out), None, "{out}");
        assert_eq!(out.matches("**(not protected)**").count(), 2, "{out}");
        assert!(!out.contains("boxed 1.2.3 (python) **(not"), "{out}");
        assert!(
            out.contains("- processes a subject starts could outlive the run"),
            "{out}"
        );
        insta::assert_snapshot!(out);
    }

    #[test]
    fn groups_cover_every_spec_area() {
        for requirement in toolpath_suite::spec::requirements() {
            assert!(
                GROUPS
                    .iter()
                    .any(|(_, areas)| areas.contains(&requirement.area.as_str())),
                "{} is in no column",
                requirement.area
            );
        }
    }
}
