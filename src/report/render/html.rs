//! The certification matrix as one self-contained HTML page: implementations
//! as columns, requirements as rows grouped by spec area, each cell coloured
//! by what its instances say and showing their counts; a click on a cell
//! lists that cell's failing instances with their diffs.
//!
//! Self-contained because it is committed next to the Markdown pages and
//! opened from disk or a CI artifact: styles and script are inline, nothing
//! is fetched, and the page's own Content-Security-Policy forbids fetching,
//! so a stray external reference is an error in the console, not a quiet
//! request to somebody's server.
//!
//! Everything in a report may come from an adapter or a case file (ids,
//! reasons, diffs, implementation names), so nothing from it is trusted as
//! markup: the table is escaped HTML, the details travel as JSON inside a
//! `<script type="application/json">` with every `<`, `>` and `&` written as
//! a `\u` escape (so no `</script>` can end it), and the script builds the
//! details with `textContent` only. Both carry the stand-ins of
//! [`toolpath_suite::sanitize`] for controls, bidi overrides and invisible
//! characters, as every other renderer does.
//!
//! Like the Markdown report, the page depends on nothing but verdicts (no
//! fixture paths or stderr), so regenerating it for unchanged
//! implementations gives the same bytes, but for each row's run: the day
//! it was certified and what it cost, on lines that end with the timing
//! words a comparison of pages leaves out.
//!
//! Above the matrix, the containment table: per implementation, its
//! escapes, refusals (of either code), wording failures and false
//! refusals, and every escape by id, with a command per channel that
//! reproduces one: the first thing a maintainer sees. Beside each name,
//! what its run covered, when it was made and what it cost, and whether
//! it is a known-bad control.
//! An implementation certified from a run whose subject could reach its
//! verdict is marked *not protected* there and in the matrix, and its
//! reasons are listed under the containment table.
//! A cell counts what the requirement's own checks found (see
//! [`rule_statuses`]); a requirement nothing exercised says why in its
//! cell.
//!
//! [`rule_statuses`]: crate::report::conformance::rule_statuses

use serde::Serialize;

use super::certification::{cites_any, sort_key};
use super::containment::{self, MAX_LISTED};
use super::requirements::{self, Row};
use super::text;
use crate::report::conformance::{Conformance, RuleCounts, Tally, rule_statuses};
use crate::report::counts::{ContainmentColumn, Counts};
use crate::report::{CaseReport, Report};
use toolpath_suite::sanitize;
use toolpath_suite::spec::{self, Requirement};

/// Diff lines kept per failing instance; the JSON report has the rest.
const DIFF_LINES: usize = 200;

/// The page for `reports`, against the requirements of this build's spec.
pub fn render(reports: &[Report]) -> String {
    render_with(reports, spec::requirements())
}

/// The page against the given requirements.
pub fn render_with(reports: &[Report], requirements: &[Requirement]) -> String {
    let mut columns: Vec<&Report> = reports.iter().collect();
    columns.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
    let rows = requirements::rows(requirements, requirements::cited_ids(reports));
    let mut out = String::from(HEAD);
    out.push_str("<body>\n<header>\n<h1>toolpath certification</h1>\n");
    out.push_str(&format!(
        "<p>{} implementations, {} requirements. Click a cell for its failing instances.</p>\n",
        columns.len(),
        rows.len()
    ));
    containment_table(&mut out, &columns);
    out.push_str(LEGEND);
    out.push_str("</header>\n<main>\n<div class=\"matrix\">\n");
    matrix(&mut out, &columns, &rows);
    out.push_str("</div>\n<aside id=\"detail\" aria-live=\"polite\">\n");
    out.push_str("<p class=\"hint\">Click a cell to see its failing instances.</p>\n");
    out.push_str("</aside>\n</main>\n");
    out.push_str("<script type=\"application/json\" id=\"toolpath-data\">");
    out.push_str(&script_json(&data(&columns)));
    out.push_str("</script>\n<script>");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// Per implementation, its containment counts and its escapes by id.
fn containment_table(out: &mut String, columns: &[&Report]) {
    out.push_str(
        "<section id=\"containment\"><h2>Containment</h2>\n<table>\n<thead><tr>\
         <th>implementation</th><th>run</th>",
    );
    for column in ContainmentColumn::ALL {
        out.push_str(&format!("<th>{}</th>", column.label()));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let mut listed = String::new();
    for report in columns {
        let c = containment::counted(report);
        let label = esc(&text::implementation(&report.implementation));
        let expected = match c.escapes_expected {
            0 => String::new(),
            n => format!(" <small>({n} expected)</small>"),
        };
        out.push_str(&format!(
            "<tr><th scope=\"row\">{label}{}{}</th>{}",
            mark(report),
            control_mark(report),
            run_cell(report)
        ));
        for column in ContainmentColumn::ALL {
            let n = column.count(&c);
            out.push_str(&match column {
                ContainmentColumn::Escapes => {
                    let class = if n > 0 { "fail" } else { "pass" };
                    format!("<td class=\"{class}\">{n}{expected}</td>")
                }
                ContainmentColumn::Channel(_) if n > 0 || c.escapes_by_channel.unrecorded > 0 => {
                    format!("<td class=\"fail\">{}</td>", column.cell(&c))
                }
                ContainmentColumn::FalseRefusals => {
                    let class = if n > 0 { "xfail" } else { "" };
                    format!("<td class=\"{class}\">{n}</td>")
                }
                _ => format!("<td>{n}</td>"),
            });
        }
        out.push_str("</tr>\n");
        if let Some(listing) = containment::listing(report) {
            listed.push_str(&format!(
                "<p class=\"escapes\"><b>{label}: {}</b></p>\n<ul class=\"escapes\">\n",
                listing.count
            ));
            for line in &listing.lines {
                listed.push_str(&format!("<li>{}</li>\n", esc(line)));
            }
            listed.push_str("</ul>\n");
            let commands: Vec<String> = containment::first_per_channel(report)
                .into_iter()
                .map(|(channel, id)| {
                    format!(
                        "{}: <code>{}</code>",
                        channel.name(),
                        esc(&containment::reproduce(report, &id))
                    )
                })
                .collect();
            listed.push_str(&format!(
                "<p class=\"repro\">Reproduce each channel: {}</p>\n",
                commands.join("; ")
            ));
        }
    }
    out.push_str("</tbody>\n</table>\n");
    out.push_str(&listed);
    not_protected(out, columns);
    controls(out, columns);
    let counts: Vec<_> = columns.iter().map(|r| containment::counted(r)).collect();
    out.push_str(&format!(
        "<p class=\"note\">{} (at most {MAX_LISTED} listed per implementation). {}{}</p>\n\
         </section>\n",
        containment::escape_definition_html(),
        containment::refusals_definition_html(),
        containment::unrecorded_note_html(&counts)
    ));
}

/// The mark of an implementation whose verdict is not protected; empty
/// for a protected one.
fn mark(report: &Report) -> &'static str {
    match report.unprotected.is_empty() {
        true => "",
        false => "<br><strong class=\"unprotected\">not protected</strong>",
    }
}

/// What a row's run was, in the cell beside its name: the part of the
/// suite it covers, the day it was certified, and what it cost (wall
/// time, and the workers' share spent waiting on calls that got no answer
/// and on restarts). The cost varies from run to run and the day from
/// day to day: both are a line of the page's source of their own, which
/// holds [`TIMING_WORDS`](crate::report::TIMING_WORDS) and nothing else
/// of the row, and which a comparison of pages leaves out.
fn run_cell(report: &Report) -> String {
    let covers = match report.selection.describe() {
        Some(part) => format!("only {}", esc(&part)),
        None => "whole suite".to_owned(),
    };
    let certified = match report
        .run_against
        .as_ref()
        .and_then(|r| r.certified.as_ref())
    {
        Some(day) => format!("certified {}", esc(day)),
        None => "date not recorded".to_owned(),
    };
    format!(
        "<td class=\"run\">{covers}<br>\n<small>{certified}:</small> <small>{}</small></td>\n",
        esc(&report.timing())
    )
}

/// The mark of a known-bad control (`toolpath run --control`), its
/// reason in the tooltip; empty for any other row.
fn control_mark(report: &Report) -> String {
    match control(report) {
        Some(reason) => format!(
            "<br><strong class=\"control\" title=\"{}\">known-bad control</strong>",
            esc(reason)
        ),
        None => String::new(),
    }
}

fn control(report: &Report) -> Option<&str> {
    report.run_against.as_ref()?.control.as_deref()
}

/// Each known-bad control with its reason, under the containment table,
/// where a touch screen or a printout shows it (a tooltip is not).
fn controls(out: &mut String, columns: &[&Report]) {
    for report in columns {
        if let Some(reason) = control(report) {
            out.push_str(&format!(
                "<p class=\"control\"><b>{}: known-bad control</b>: {}</p>\n",
                esc(&text::implementation(&report.implementation)),
                esc(reason)
            ));
        }
    }
}

/// Each implementation whose verdict is not protected, with its reasons;
/// nothing when every one is protected.
fn not_protected(out: &mut String, columns: &[&Report]) {
    for report in columns.iter().filter(|r| !r.unprotected.is_empty()) {
        out.push_str(&format!(
            "<p class=\"unprotected\"><b>{}: not protected</b>: {}:</p>\n<ul class=\"unprotected\">\n",
            esc(&text::implementation(&report.implementation)),
            esc(text::NOT_PROTECTED)
        ));
        for gap in &report.unprotected {
            out.push_str(&format!("<li>{}</li>\n", esc(gap)));
        }
        out.push_str("</ul>\n");
    }
}

/// Per requirement ID, the statuses its instances have for it (as
/// [`rule_statuses`] attributes them), and why what was not judged was not.
fn per_rule(report: &Report) -> RuleCounts {
    Counts::of(&report.cases).rules
}

fn matrix(out: &mut String, columns: &[&Report], rows: &[Row]) {
    out.push_str("<table id=\"matrix\">\n<thead><tr><th class=\"req\">requirement</th>");
    for (i, report) in columns.iter().enumerate() {
        let total = Tally::of(report.cases.iter().map(|c| c.status));
        let partial = if report.partial {
            "<br><strong class=\"partial\">partial run</strong>"
        } else {
            ""
        };
        let unprotected = mark(report);
        // A run over part of the suite says which part under its name:
        // its "—" cells mean "not selected", not "nothing applicable".
        let part = match report.selection.describe() {
            Some(part) => format!("<br><small class=\"part\">only {}</small>", esc(&part)),
            None => String::new(),
        };
        // Each finding of the server under its name, its first occurrence
        // in the tooltip.
        let findings: String = report
            .findings
            .iter()
            .map(|f| {
                // The kind and count in the column head; what it means and
                // an example in the tooltip, so that a server with
                // several kinds of findings does not make the head so
                // tall that it hides the first rows under it.
                format!(
                    "<br><small class=\"finding\" title=\"{}: {}\">{} \u{d7}{}</small>",
                    esc(f.kind.title()),
                    esc(&text::shorten(&f.example, 300)),
                    esc(f.kind.name()),
                    f.count
                )
            })
            .collect();
        // What the column was run against, in the suite line's tooltip.
        let against = match &report.run_against {
            Some(record) => format!(
                " title=\"run against: {}\"",
                esc(&record.markdown().replace('`', ""))
            ),
            None => String::new(),
        };
        out.push_str(&format!(
            "<th class=\"imp\" data-col=\"{i}\" scope=\"col\" title=\"{}\">{}{partial}{unprotected}{part}<br><small{against}>suite {} · {} pass</small>{findings}</th>",
            esc(&counts(&total)),
            esc(&text::implementation(&report.implementation)),
            esc(&report.suite),
            ratio(&total),
        ));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let cited: Vec<_> = columns.iter().map(|r| per_rule(r)).collect();
    let mut area = None;
    for row in rows {
        if area != Some(row.area) {
            area = Some(row.area);
            area_row(out, row.area, columns);
        }
        out.push_str(&format!(
            "<tr data-req=\"{}\"><th class=\"req\" scope=\"row\"><b>{}</b> {}</th>",
            esc(row.id),
            esc(row.id),
            row.summary
                .map_or("<em>(not in this build's spec)</em>".to_owned(), summary)
        ));
        for (i, rules) in cited.iter().enumerate() {
            let count = rules.get(row.id);
            let tally = count.map(|c| c.tally).unwrap_or_default();
            cell(out, i, row.id, tally, requirements::unexercised(row, count));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
}

/// An area's heading row, with each implementation's count over the
/// instances citing any requirement of the area (each counted once).
fn area_row(out: &mut String, area: &str, columns: &[&Report]) {
    let title = spec::area_title(area)
        .map(|t| format!(": {}", esc(t)))
        .unwrap_or_default();
    out.push_str(&format!(
        "<tr class=\"area\" data-area=\"{0}\"><th scope=\"rowgroup\">{0}{title}</th>",
        esc(area)
    ));
    for report in columns {
        let tally = Tally::of(
            report
                .cases
                .iter()
                .filter(|c| cites_any(c, &[area]))
                .map(|c| c.status),
        );
        out.push_str(&format!(
            "<td class=\"{}\" title=\"{}\">{}</td>",
            shade(&tally),
            esc(&counts(&tally)),
            ratio(&tally)
        ));
    }
    out.push_str("</tr>\n");
}

fn cell(out: &mut String, column: usize, id: &str, tally: Tally, unexercised: Option<String>) {
    let mut notes = Vec::new();
    let mut title = counts(&tally);
    // The reason is shown under the note, not only in a tooltip that a
    // touch screen or a printout never shows.
    let mut why = String::new();
    if let Some(reason) = &unexercised {
        notes.push("not exercised".to_owned());
        title = format!("not exercised: {reason}");
        why = format!("<small class=\"why\">{}</small>", esc(reason));
    }
    if tally.xfail > 0 {
        notes.push(format!("{} xfail", tally.xfail));
    }
    if tally.unobserved > 0 {
        notes.push(format!("{} unobserved", tally.unobserved));
    }
    if tally.unsupported > 0 {
        notes.push(format!("{} unsupported", tally.unsupported));
    }
    if tally.skipped > 0 {
        notes.push(format!("{} skipped", tally.skipped));
    }
    let mut notes = notes.iter().map(|n| format!("<small>{n}</small>"));
    let first = notes.next().unwrap_or_default();
    let notes: String = std::iter::once(first)
        .chain(std::iter::once(why))
        .chain(notes)
        .collect();
    out.push_str(&format!(
        "<td class=\"cell {}\" tabindex=\"0\" data-col=\"{column}\" data-req=\"{}\" \
         data-passed=\"{}\" data-failed=\"{}\" data-xfail=\"{}\" data-unobserved=\"{}\" \
         data-unsupported=\"{}\" data-skipped=\"{}\" title=\"{}\"><span class=\"n\">{}</span>{notes}</td>",
        shade(&tally),
        esc(id),
        tally.passed,
        tally.failed,
        tally.xfail,
        tally.unobserved,
        tally.unsupported,
        tally.skipped,
        esc(&title),
        ratio(&tally),
    ));
}

/// A cell's colour, by the most telling thing its instances say: a failure
/// the expectations file does not list, then an expected failure, then a
/// pass, then "not observable", then "unsupported"; `none` when nothing
/// applied. The order is the Markdown verdict's, with expected failures
/// told apart from new ones.
pub fn shade(tally: &Tally) -> &'static str {
    if tally.failed > tally.xfail {
        "fail"
    } else if tally.failed > 0 {
        "xfail"
    } else if tally.passed > 0 {
        "pass"
    } else if tally.unobserved > 0 {
        "unobserved"
    } else if tally.unsupported > 0 {
        "unsupported"
    } else {
        "none"
    }
}

/// `passed/applicable`, or `—` when nothing applicable ran.
fn ratio(tally: &Tally) -> String {
    if tally.applicable() == 0 {
        "—".to_owned()
    } else {
        format!("{}/{}", tally.passed, tally.applicable())
    }
}

/// Every count, in the Markdown report's words.
fn counts(tally: &Tally) -> String {
    format!(
        "{} passed, {} failed ({} xfail), {} not observable, {} unsupported, {} skipped",
        tally.passed, tally.failed, tally.xfail, tally.unobserved, tally.unsupported, tally.skipped
    )
}

/// A spec summary (Markdown with code spans) as HTML: escaped text, with
/// the backticked parts as `<code>`.
fn summary(markdown: &str) -> String {
    markdown
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", esc(part))
            } else {
                esc(part)
            }
        })
        .collect()
}

/// Text escaped for HTML element content and quoted attributes alike,
/// with the stand-ins every renderer shows.
fn esc(raw: &str) -> String {
    sanitize::html(raw)
}

/// What the script needs to list a cell's failing instances.
#[derive(Serialize)]
struct Data {
    columns: Vec<Column>,
}

#[derive(Serialize)]
struct Column {
    label: String,
    failing: Vec<Failing>,
}

/// Every string the script shows is foreign: each carries the stand-ins
/// of [`sanitize::visible`], since `textContent` keeps markup out but shows
/// bidi overrides and zero-width characters as they are.
#[derive(Serialize)]
struct Failing {
    id: String,
    status: &'static str,
    file: String,
    line: u64,
    spec: Vec<String>,
    /// The rules it fails (its cited ones, and any derived rule a check
    /// failed on): the cells it is listed under.
    rules: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    containment: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
}

fn data(columns: &[&Report]) -> Data {
    Data {
        columns: columns
            .iter()
            .map(|report| Column {
                label: sanitize::visible(&text::implementation(&report.implementation)),
                failing: report
                    .cases
                    .iter()
                    .filter(|c| Conformance::of(c.status) == Conformance::Fails)
                    .map(failing)
                    .collect(),
            })
            .collect(),
    }
}

fn failing(case: &CaseReport) -> Failing {
    let expected = case.expectation.as_ref().map(|note| match &note.issue {
        Some(issue) => format!("{} ({issue})", note.reason),
        None => note.reason.clone(),
    });
    let diff = case.diff.as_deref().filter(|d| !d.is_empty()).map(|diff| {
        let (lines, omitted) = text::head_lines(diff, DIFF_LINES);
        let mut body = lines.join("\n");
        if omitted > 0 {
            body.push_str(&format!("\n… {omitted} more lines in the JSON report"));
        }
        sanitize::visible(&body)
    });
    Failing {
        id: sanitize::visible(&case.id),
        status: case.status.name(),
        file: sanitize::visible(&case.file),
        line: case.line,
        spec: case.spec.iter().map(|id| sanitize::visible(id)).collect(),
        rules: rule_statuses(case)
            .into_iter()
            .filter(|(_, status)| Conformance::of(*status) == Conformance::Fails)
            .map(|(id, _)| sanitize::visible(id))
            .collect(),
        containment: case
            .containment
            .as_ref()
            .filter(|c| c.class != crate::report::ContainmentClass::Accepted)
            .map(|c| c.class.label()),
        reason: case.reason.as_deref().map(sanitize::visible),
        expected: expected.as_deref().map(sanitize::visible),
        diff,
    }
}

/// JSON that can sit inside a `<script>` element: `<`, `>` and `&` only
/// occur inside JSON strings, where their `\u` escapes mean the same, so no
/// `</script>` or `<!--` survives; U+2028/9 are escaped for old parsers.
fn script_json(data: &Data) -> String {
    let json = serde_json::to_string(data).expect("plain data serialises");
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
    }
    out
}

const HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>toolpath certification</title>
<style>
:root { --pass: #c8ecd0; --fail: #f6c3c0; --xfail: #fbe3b4; --unobserved: #d6e4f5; --unsupported: #e4e4e4; --none: #fafafa; }
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1b1b1b; background: #fff; height: 100vh; display: flex; flex-direction: column; }
header { padding: 12px 20px 4px; border-bottom: 1px solid #ddd; flex: none; max-height: 45vh; overflow: auto; }
h1 { font-size: 20px; margin: 0 0 4px; }
header p { margin: 2px 0 8px; }
.legend span { display: inline-block; padding: 1px 8px; margin: 0 6px 4px 0; border: 1px solid #bbb; border-radius: 3px; }
main { flex: 1; min-height: 0; display: grid; grid-template-columns: minmax(0, 3fr) minmax(320px, 2fr); }
.matrix { overflow: auto; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d0d0; padding: 3px 6px; }
thead th { position: sticky; top: 0; background: #f3f3f3; z-index: 1; vertical-align: bottom; }
th.req { text-align: left; font-weight: normal; max-width: 30em; font-size: 13px; }
th.imp { min-width: 8em; }
tr.area th { text-align: left; background: #eef0f4; font-weight: 600; }
tr.area td { text-align: center; font-weight: 600; }
td.cell { text-align: center; cursor: pointer; white-space: nowrap; }
td small { display: block; font-size: 11px; color: #444; }
td small.why { white-space: normal; max-width: 16em; margin: 0 auto; font-style: italic; }
td.cell:hover, td.cell:focus { outline: 2px solid #333; outline-offset: -2px; }
td.selected { outline: 3px solid #1a4fd0 !important; outline-offset: -3px; }
.pass { background: var(--pass); } .fail { background: var(--fail); } .xfail { background: var(--xfail); }
.unobserved { background: var(--unobserved); } .unsupported { background: var(--unsupported); } .none { background: var(--none); color: #888; }
.partial, .unprotected { color: #a00; }
.control { color: #6a3fb5; }
#containment td.run { text-align: left; white-space: nowrap; font-size: 12px; }
p.repro { margin: 0 0 6px; font-size: 12px; } p.repro code { font-size: 11px; }
body.picture header { max-height: none; }
.finding { color: #850; }
#containment h2 { font-size: 15px; margin: 8px 0 4px; }
#containment td { text-align: right; }
ul.escapes { margin: 2px 0 6px; font-family: ui-monospace, monospace; font-size: 12px; color: #900; }
p.escapes { margin: 6px 0 0; color: #900; } p.note { font-size: 12px; color: #555; }
#detail { overflow: auto; border-left: 1px solid #ddd; padding: 0 16px 16px; }
#detail h2 { font-size: 16px; }
#detail h3 { font-size: 14px; margin: 14px 0 2px; font-family: ui-monospace, monospace; }
#detail p { margin: 2px 0; }
.where { color: #555; font-family: ui-monospace, monospace; font-size: 12px; }
pre.diff { background: #f7f7f7; border: 1px solid #e0e0e0; padding: 6px; font-size: 12px; overflow: auto; }
pre.diff .add { background: #dff5e3; } pre.diff .del { background: #fbe1df; } pre.diff .hunk { color: #6a3fb5; } pre.diff .meta { color: #777; }
</style>
</head>
"#;

const LEGEND: &str = "<p class=\"legend\">\
<span class=\"pass\">pass</span>\
<span class=\"fail\">fail</span>\
<span class=\"xfail\">expected failure (xfail)</span>\
<span class=\"unobserved\">not observable</span>\
<span class=\"unsupported\">unsupported</span>\
<span class=\"none\">nothing applicable</span>\
Cells count instances citing the requirement, and any instance that failed a check every case of \
its tool gets for it (OUT-5, SHELL-6, SEARCH-10, SEC-11, SEC-12): passed/applicable (expected failures and \
adapter errors count as not passed; unsupported and skipped ones are not applicable).</p>\n";

/// Lists a clicked (or Enter-pressed) cell's failing instances in the
/// side panel, from the JSON data, with `textContent` only.
const SCRIPT: &str = r#"
(function () {
  "use strict";
  // The README's picture (scripts/page-picture) draws the page as
  // `index.html#picture`: the whole containment table, uncapped.
  if (location.hash.slice(1) === "picture") document.body.classList.add("picture");
  var data = JSON.parse(document.getElementById("toolpath-data").textContent);
  var detail = document.getElementById("detail");
  var selected = null;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function diffBlock(diff) {
    var pre = el("pre", "diff");
    diff.split("\n").forEach(function (line) {
      var kind = /^(\+\+\+|---)/.test(line) ? "meta" : line[0] === "+" ? "add"
        : line[0] === "-" ? "del" : line.indexOf("@@") === 0 ? "hunk" : "";
      pre.appendChild(el("span", kind, line + "\n"));
    });
    return pre;
  }
  function instance(c) {
    var art = el("article", "case " + c.status);
    art.appendChild(el("h3", null, c.id + " (" + c.status + (c.containment ? ", " + c.containment : "") + ")"));
    art.appendChild(el("p", "where", c.file + ":" + c.line + " · " + c.spec.join(", ")));
    if (c.reason) art.appendChild(el("p", "reason", c.reason));
    if (c.expected) art.appendChild(el("p", "expected", "Expected to fail: " + c.expected));
    if (c.diff) art.appendChild(diffBlock(c.diff));
    return art;
  }
  function show(cell) {
    if (selected) selected.classList.remove("selected");
    selected = cell;
    cell.classList.add("selected");
    var column = data.columns[Number(cell.dataset.col)];
    var req = cell.dataset.req;
    var failing = column.failing.filter(function (c) { return c.rules.indexOf(req) >= 0; });
    detail.replaceChildren(el("h2", null, req + " · " + column.label), el("p", "counts", cell.title));
    if (failing.length === 0) detail.appendChild(el("p", "none-failing", "No failing instances."));
    failing.forEach(function (c) { detail.appendChild(instance(c)); });
    detail.scrollTop = 0;
  }
  var matrix = document.getElementById("matrix");
  matrix.addEventListener("click", function (e) {
    var cell = e.target.closest("td.cell");
    if (cell) show(cell);
  });
  matrix.addEventListener("keydown", function (e) {
    var cell = e.target.closest("td.cell");
    if (cell && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); show(cell); }
  });
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;
    use crate::report::render::sample_reports::{
        broken, case, expected, failing as failing_case, hostile, report, unprotected,
    };
    use toolpath_suite::sanitize::first_hostile;

    /// What of a page depends on its reports, for a snapshot a person can
    /// read: the markup from `<body>` to the data, and the data as indented
    /// JSON. The style and script are constants of this file.
    fn reviewable(page: &str) -> String {
        let body = page.find("<body>").expect("a body");
        let marker = "<script type=\"application/json\" id=\"toolpath-data\">";
        let data = page.find(marker).expect("the data");
        let end = data + page[data..].find("</script>").expect("its end");
        let json: serde_json::Value =
            serde_json::from_str(&page[data + marker.len()..end]).expect("JSON data");
        format!(
            "{}\n--- data ---\n{}\n",
            &page[body..data],
            serde_json::to_string_pretty(&json).unwrap()
        )
    }

    /// The matrix and details of a deliberately broken run beside a
    /// hostile one, reviewed in the snapshot.
    #[test]
    fn snapshot_of_a_broken_and_a_hostile_run() {
        let page = render_with(&[broken(), hostile()], &reqs());
        assert_eq!(first_hostile(&page), None, "{page}");
        assert!(!page.contains("<b>*"), "{page}");
        insta::assert_snapshot!(reviewable(&page));
    }

    /// A column certified from a run whose subject could reach its
    /// verdict is marked in the containment table and the matrix, and its
    /// reasons are listed under the containment table; a protected column
    /// beside it is not marked.
    #[test]
    fn snapshot_of_an_unprotected_column() {
        let page = render_with(&[unprotected(), report("boxed", vec![])], &reqs());
        assert_eq!(first_hostile(&page), None, "{page}");
        assert_eq!(
            page.matches("<strong class=\"unprotected\">not protected</strong>")
                .count(),
            2,
            "{page}"
        );
        assert!(
            page.contains("<li>processes a subject starts could outlive the run"),
            "{page}"
        );
        insta::assert_snapshot!(reviewable(&page));
    }

    fn reqs() -> Vec<Requirement> {
        spec::parse_requirements("- **RES-1** Empty `a<b`.\n- **SEC-1** Real paths.\n")
    }

    /// A column says what it was run against in its suite line's
    /// tooltip; one that recorded nothing has none.
    #[test]
    fn a_column_shows_what_it_was_run_against() {
        let mut recorded = broken();
        recorded.run_against = Some(crate::report::render::sample_reports::run_against());
        let page = render_with(&[recorded], &reqs());
        let record = "<small title=\"run against: suite sha256:a1a1";
        assert!(page.contains(record), "{page}");
        assert!(page.contains("runner runners/tool + runners/common-node sha256:b2b2"));
        assert!(!render_with(&[broken()], &reqs()).contains("run against:"));
    }

    #[test]
    fn cells_are_shaded_and_counted_per_requirement() {
        let r = report(
            "zeta",
            vec![
                case("a", Status::Pass, &["RES-1"]),
                expected(case("b", Status::Xfail, &["RES-1"]), "known"),
                case("c", Status::Unsupported, &["SEC-1"]),
                case("d", Status::Unobserved, &["SEC-1"]),
            ],
        );
        let out = render_with(&[r], &reqs());
        assert!(out.contains("<td class=\"cell xfail\" tabindex=\"0\" data-col=\"0\" data-req=\"RES-1\" data-passed=\"1\" data-failed=\"1\" data-xfail=\"1\""), "{out}");
        assert!(
            out.contains("<span class=\"n\">1/2</span><small>1 xfail</small></td>"),
            "{out}"
        );
        assert!(out.contains("class=\"cell unobserved\""), "{out}");
        assert!(
            out.contains("<small>1 unobserved</small><small>1 unsupported</small>"),
            "{out}"
        );
        assert!(
            out.contains("<b>RES-1</b> Empty <code>a&lt;b</code>.</th>"),
            "{out}"
        );
        assert!(
            out.contains("<tr class=\"area\" data-area=\"RES\"><th scope=\"rowgroup\">RES: the shared resolver</th><td class=\"xfail\""),
            "{out}"
        );
    }

    #[test]
    fn containment_is_on_top_and_what_was_not_exercised_says_why() {
        use crate::report::render::sample_reports::{escape, with_reason};
        let r = report(
            "zeta",
            vec![
                escape("e@grep", "answered ok"),
                with_reason(
                    case("c", Status::Unsupported, &["SEC-1"]),
                    "the adapter does not provide the `shell` tool",
                ),
            ],
        );
        let out = render_with(&[r], &reqs());
        let table = out.find("<section id=\"containment\">").unwrap();
        assert!(table < out.find("<table id=\"matrix\">").unwrap(), "{out}");
        assert!(
            out.contains("<small>0.4 s, 0.0 s (0%) waiting on timeouts and restarts</small></td>\n<td class=\"fail\">1</td>"),
            "{out}"
        );
        assert!(
            out.contains("<li>e@grep (cases/e.yaml:3): read: answered ok</li>"),
            "{out}"
        );
        assert!(
            out.contains(
                "title=\"not exercised: the adapter does not provide the `shell` tool\"><span class=\"n\">—</span><small>not exercised</small>\
                 <small class=\"why\">the adapter does not provide the `shell` tool</small>\
                 <small>1 unsupported</small></td>"
            ),
            "{out}"
        );
    }

    /// Each row of the containment table says what its run was: the
    /// part of the suite it covers, the day it was certified, its wall
    /// time and waiting share (on a line of its own that ends with the
    /// timing words, so a comparison of pages leaves it out), and, for a
    /// known-bad control, that it is one and why; a report that recorded
    /// no date says so.
    #[test]
    fn each_row_says_what_its_run_covered_when_and_at_what_cost() {
        use crate::report::render::sample_reports::run_against;
        let mut control = report("old", vec![case("a", Status::Pass, &["RES-1"])]);
        control.duration_ms = 118_000.0;
        control.waited_ms = 19_400.0;
        control.run_against = Some(crate::report::RunAgainst {
            control: Some("the release before the <fix>".into()),
            ..run_against()
        });
        let mut part = report("new", vec![case("b", Status::Pass, &["RES-1"])]);
        part.selection.tools = vec!["read_file".into()];
        let page = render_with(&[control, part], &reqs());
        assert!(
            page.contains(
                "<th scope=\"row\">old 1.2.3 (python)<br><strong class=\"control\" \
                 title=\"the release before the &lt;fix&gt;\">known-bad control</strong></th>\
                 <td class=\"run\">whole suite<br>\n<small>certified 2026-12-06:</small> \
                 <small>118.0 s, 19.4 s (16%) waiting on timeouts and restarts</small></td>\n"
            ),
            "{page}"
        );
        assert!(
            page.contains(
                "<th scope=\"row\">new 1.2.3 (python)</th><td class=\"run\">only tools read_file\
                 <br>\n<small>date not recorded:</small> \
                 <small>0.4 s, 0.0 s (0%) waiting on timeouts and restarts</small></td>\n"
            ),
            "{page}"
        );
        assert!(
            page.contains("<p class=\"control\"><b>old 1.2.3 (python): known-bad control</b>: the release before the &lt;fix&gt;</p>"),
            "{page}"
        );
        assert!(
            page.contains("<th>implementation</th><th>run</th>"),
            "{page}"
        );
    }

    /// Each channel an implementation's escapes took names one command
    /// that reproduces it: the first escape of that channel, run alone
    /// against the same subject (the adapter command quoted for a shell).
    #[test]
    fn each_escape_channel_names_a_command_that_reproduces_it() {
        use crate::report::render::sample_reports::escape;
        let mut r = report(
            "leaky",
            vec![
                escape("a@grep", "answered ok"),
                escape("b", "changed outside every root: x"),
                escape("c", "answered ok"),
            ],
        );
        r.adapter = Some("node it's/adapter.mjs".into());
        let mut mcp = report("served", vec![escape("d", "answered ok")]);
        mcp.adapter = Some("--mcp runners/s/p.yaml".into());
        let page = render_with(&[r, mcp], &reqs());
        assert!(
            page.contains(
                "<p class=\"repro\">Reproduce each channel: \
                 read: <code>toolpath run --adapter 'node it'\\''s/adapter.mjs' --filter a@grep</code>; \
                 write: <code>toolpath run --adapter 'node it'\\''s/adapter.mjs' --filter b</code></p>"
            ),
            "{page}"
        );
        assert!(
            page.contains("read: <code>toolpath run --mcp runners/s/p.yaml --filter d</code></p>"),
            "{page}"
        );
    }

    #[test]
    fn shades_follow_the_most_telling_status() {
        let shade_of = |statuses: &[Status]| shade(&Tally::of(statuses.iter().copied()));
        assert_eq!(
            shade_of(&[Status::Pass, Status::Xfail, Status::Fail]),
            "fail"
        );
        assert_eq!(shade_of(&[Status::Pass, Status::AdapterError]), "fail");
        assert_eq!(shade_of(&[Status::Pass, Status::Xfail]), "xfail");
        assert_eq!(shade_of(&[Status::Pass, Status::Unobserved]), "pass");
        assert_eq!(
            shade_of(&[Status::Unobserved, Status::Unsupported]),
            "unobserved"
        );
        assert_eq!(
            shade_of(&[Status::Unsupported, Status::Skip]),
            "unsupported"
        );
        assert_eq!(shade_of(&[Status::Skip]), "none");
        assert_eq!(shade_of(&[]), "none");
    }

    #[test]
    fn columns_are_sorted_and_carry_their_failures() {
        let a = report("alpha", vec![failing_case("x@grep", &["RES-1"])]);
        let b = report("beta", vec![case("y", Status::Pass, &["RES-1"])]);
        let out = render_with(&[b.clone(), a.clone()], &reqs());
        assert_eq!(
            out,
            render_with(&[a, b], &reqs()),
            "input order does not matter"
        );
        let alpha = out.find("alpha 1.2.3 (python)").unwrap();
        assert!(alpha < out.find("beta 1.2.3 (python)").unwrap(), "{out}");
        assert!(out.contains(r#"{"columns":[{"label":"alpha 1.2.3 (python)","failing":[{"id":"x@grep","status":"fail","file":"cases/x.yaml","line":3,"spec":["RES-1"],"rules":["RES-1"],"diff":"--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n outcome: error\n-code: not_found\n+code: permission_denied"}]},{"label":"beta 1.2.3 (python)","failing":[]}]}"#), "{out}");
    }

    #[test]
    fn nothing_from_a_report_is_markup() {
        let mut bad = failing_case("</script><script>alert(1)</script>", &["RES-1", "<b>X-1"]);
        bad.diff = Some("-</script><!--\n+<img src=x onerror=alert(1)>&amp;\u{2028}".into());
        bad.reason = Some("</SCRIPT>".into());
        let out = render_with(&[report("<i>evil</i>", vec![bad])], &reqs());
        assert_eq!(
            out.matches("<script").count(),
            2,
            "only the page's own: {out}"
        );
        assert_eq!(out.matches("</script>").count(), 2, "{out}");
        assert!(
            !out.to_lowercase().contains("</script><script>alert"),
            "{out}"
        );
        assert!(!out.contains("<img"), "{out}");
        assert!(!out.contains("<i>evil"), "{out}");
        assert!(out.contains("&lt;i&gt;evil&lt;/i&gt;"), "{out}");
        assert!(out.contains("data-req=\"&lt;b&gt;X-1\""), "{out}");
        // The embedded JSON still says exactly what the report said, but
        // for the characters every renderer shows by a stand-in (U+2028
        // among them, which old JavaScript parsers also took for a line
        // break); none of them is left in the page.
        assert!(!out.contains('\u{2028}'), "{out}");
        let start = out.find("id=\"toolpath-data\">").unwrap() + "id=\"toolpath-data\">".len();
        let end = start + out[start..].find("</script>").unwrap();
        let data: serde_json::Value = serde_json::from_str(&out[start..end]).unwrap();
        let case = &data["columns"][0]["failing"][0];
        assert_eq!(case["id"], "</script><script>alert(1)</script>");
        assert_eq!(case["reason"], "</SCRIPT>");
        assert_eq!(
            case["diff"],
            "-</script><!--\n+<img src=x onerror=alert(1)>&amp;‹U+2028›"
        );
    }

    #[test]
    fn nothing_is_fetched_and_nothing_varies() {
        let r = report("fake", vec![failing_case("a", &["RES-1"])]);
        let out = render(std::slice::from_ref(&r));
        for external in ["http://", "https://", "src=", "href=", "@import", "url("] {
            assert!(!out.contains(external), "{external} in the page");
        }
        assert!(out.contains("default-src 'none'"), "{out}");
        let mut other = r;
        other.duration_ms = 1.0;
        other.cases[0].duration_ms = 99.0;
        other.cases[0].stderr = Some("/tmp/secret".into());
        other.cases[0].fixture = Some("/tmp/fixture".into());
        let again = render(&[other]);
        assert_ne!(again, out, "the run's time is shown");
        assert_eq!(
            crate::report::without_timing(&again),
            crate::report::without_timing(&out),
            "nothing else varies"
        );
    }

    #[test]
    fn every_requirement_of_the_spec_has_a_row() {
        let out = render(&[report("fake", vec![])]);
        for requirement in spec::requirements() {
            assert!(
                out.contains(&format!("<tr data-req=\"{}\">", requirement.id)),
                "{}",
                requirement.id
            );
        }
    }
}
