//! What every format says first: the containment counts, and the escapes
//! by instance id. Read here once, so that the human report, JUnit,
//! Markdown and HTML list the same escapes in the same words.
//!
//! The escapes are read in a pass of their own, made only when the
//! header counts some, and at most [`MAX_LISTED`] are kept (the rest are
//! counted): an escape is the first thing a maintainer must see, and a
//! run with thousands of them must not hold them all.

use std::io;

use crate::report::counts::ContainmentColumn;
use crate::report::view::{CaseSource, View};
use crate::report::{CaseReport, Channel, ContainmentCounts, MCP_LABEL_PREFIX, Report, Status};

/// Escapes listed by id; past this the JSON report has them all.
pub const MAX_LISTED: usize = 50;

/// What an escape is (SEC-12), as every legend says it, in Markdown (`code`
/// in backticks; [`escape_definition_html`] for a page).
pub const ESCAPE_DEFINITION: &str = "An escape (SEC-12): a path the case expects refused as \
     `outside_workspace` was answered `ok`; or something from outside every root reached \
     the answer (read: its content; list: a path or entry below a link out); or a path \
     outside every root was resolved and handed back to act on (resolve); or a command \
     ran outside (exec); or something outside every root changed (write)";

/// What the other counts are, as every legend says it after
/// [`ESCAPE_DEFINITION`], in Markdown.
pub const REFUSALS_DEFINITION: &str = "A wording failure is a refusal whose message lacks what \
     ERR-4 asks, never an escape. A false refusal: a path the case expects `ok` refused as \
     `outside_workspace`. An other error: a SEC case expecting `ok` answered with another \
     error code, a failure that claims nothing about the workspace.";

/// What a channel's `?` means ([`crate::report::counts::ContainmentColumn::cell`]),
/// said after the definitions on a page with such a row.
pub const UNRECORDED_CHANNELS: &str = "A channel counted `?`: the report is of a suite \
     before 0.3.0, which did not record the channels an escape took.";

/// [`UNRECORDED_CHANNELS`] when one of `rows` has a count of escapes
/// whose channels were not recorded (with a space before it); else empty.
pub fn unrecorded_note<'a>(rows: impl IntoIterator<Item = &'a ContainmentCounts>) -> String {
    match rows
        .into_iter()
        .any(|c| c.escapes_by_channel.unrecorded > 0)
    {
        true => format!(" {UNRECORDED_CHANNELS}"),
        false => String::new(),
    }
}

/// [`unrecorded_note`] for an HTML page.
pub fn unrecorded_note_html<'a>(rows: impl IntoIterator<Item = &'a ContainmentCounts>) -> String {
    html_code(&unrecorded_note(rows))
}

/// [`ESCAPE_DEFINITION`] for an HTML page: its backticks as `<code>`.
pub fn escape_definition_html() -> String {
    html_code(ESCAPE_DEFINITION)
}

/// [`REFUSALS_DEFINITION`] for an HTML page.
pub fn refusals_definition_html() -> String {
    html_code(REFUSALS_DEFINITION)
}

/// Markdown's backticks as `<code>`: the definitions hold no other markup.
fn html_code(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| match i % 2 {
            1 => format!("<code>{part}</code>"),
            _ => part.to_owned(),
        })
        .collect()
}

/// One escape, as listed.
#[derive(Debug, Clone, PartialEq)]
pub struct Escape {
    pub id: String,
    pub file: String,
    pub line: u64,
    /// What showed it: `answered ok`, or the change outside every root.
    pub evidence: String,
    /// The expectations file lists it (the instance is an xfail), with its
    /// reason: counted and shown all the same.
    pub expected: Option<String>,
}

impl Escape {
    fn of(case: &CaseReport) -> Escape {
        let evidence = case
            .containment
            .as_ref()
            .and_then(|c| c.evidence.clone())
            .unwrap_or_else(|| "escape".to_owned());
        let expected = (case.status == Status::Xfail).then(|| {
            case.expectation
                .as_ref()
                .map_or_else(String::new, |n| n.reason.clone())
        });
        Escape {
            id: case.id.clone(),
            file: case.file.clone(),
            line: case.line,
            evidence,
            expected,
        }
    }

    /// `ID (FILE:LINE): EVIDENCE`, and `; expected (xfail): REASON` when
    /// the expectations file lists it. Raw text: each format escapes it.
    pub fn line(&self) -> String {
        let mut line = format!(
            "{} ({}:{}): {}",
            self.id, self.file, self.line, self.evidence
        );
        if let Some(reason) = &self.expected {
            line.push_str("; expected (xfail)");
            if !reason.is_empty() {
                line.push_str(": ");
                line.push_str(reason);
            }
        }
        line
    }
}

/// The first [`MAX_LISTED`] escapes of `view` in report order, and how many
/// there are in all; no pass over the cases when the header counts none.
pub fn escapes(view: View) -> io::Result<(Vec<Escape>, usize)> {
    if view.head.containment.escapes == 0 {
        return Ok((Vec::new(), 0));
    }
    escapes_in(view.cases)
}

/// The first [`MAX_LISTED`] escapes of `cases` and how many there are in
/// all, in one pass whatever the header says (for reports read whole).
pub fn escapes_in(cases: &dyn CaseSource) -> io::Result<(Vec<Escape>, usize)> {
    let (mut listed, mut total) = (Vec::new(), 0);
    cases.each(&mut |case| {
        if case.containment.as_ref().is_some_and(|c| c.is_escape()) {
            total += 1;
            if listed.len() < MAX_LISTED {
                listed.push(Escape::of(case));
            }
        }
        Ok(())
    })?;
    Ok((listed, total))
}

/// The containment counts of a whole report, counted from its cases (a
/// report written before the header had them reads as all 0 there): for
/// the pages that put several implementations side by side.
pub fn counted(report: &Report) -> ContainmentCounts {
    let mut counts = ContainmentCounts::default();
    report.cases.iter().for_each(|case| counts.add(case));
    counts
}

/// The head of a Markdown table of the containment columns, after the
/// `lead` columns (left-aligned; the counts are right-aligned).
pub fn markdown_head(lead: &[&str]) -> String {
    let labels: Vec<&str> = (lead.iter().copied())
        .chain(ContainmentColumn::ALL.iter().map(|c| c.label()))
        .collect();
    format!(
        "| {} |\n|{}{}\n",
        labels.join(" | "),
        "---|".repeat(lead.len()),
        "---:|".repeat(ContainmentColumn::ALL.len())
    )
}

/// A row of that table: the `lead` cells, then each column's count, the
/// escapes as `escapes` shows them (with how many were expected).
pub fn markdown_row(lead: &[&str], counts: &ContainmentCounts, escapes: &str) -> String {
    let cells: Vec<String> = (lead.iter().map(|s| s.to_string()))
        .chain(ContainmentColumn::ALL.iter().map(|column| match column {
            ContainmentColumn::Escapes => escapes.to_owned(),
            _ => column.cell(counts),
        }))
        .collect();
    format!("| {} |\n", cells.join(" | "))
}

/// A report's escapes as the pages that put implementations side by side
/// list them (certification Markdown and HTML).
pub struct Listing {
    /// `N escape(s)`.
    pub count: String,
    /// A line each ([`Escape::line`], raw text), then how many more the
    /// JSON report has when some were left out.
    pub lines: Vec<String>,
}

/// The escapes of a report read whole, as listed beside its counts;
/// `None` when it has none.
pub fn listing(report: &Report) -> Option<Listing> {
    let (escapes, total) = escapes_in(&report.cases).expect("cases in memory are always readable");
    if total == 0 {
        return None;
    }
    let mut lines: Vec<String> = escapes.iter().map(Escape::line).collect();
    lines.extend(more(escapes.len(), total));
    Some(Listing {
        count: format!("{total} escape{}", if total == 1 { "" } else { "s" }),
        lines,
    })
}

/// Per channel its escapes took, in the channels' order, the id of the
/// first escape that took it: one instance a maintainer can run alone to
/// see that way out ([`reproduce`]).
pub fn first_per_channel(report: &Report) -> Vec<(Channel, String)> {
    let mut first: Vec<(Channel, String)> = Vec::new();
    for case in &report.cases {
        let Some(containment) = case.containment.as_ref().filter(|c| c.is_escape()) else {
            continue;
        };
        for channel in &containment.channels {
            if !first.iter().any(|(c, _)| c == channel) {
                first.push((*channel, case.id.clone()));
            }
        }
    }
    first.sort_by_key(|(channel, _)| *channel);
    first
}

/// The command that runs instance `id` alone against the report's
/// subject, from the checkout the run was made in: `toolpath run
/// --filter ID` for the reference, with `--adapter 'COMMAND'` or `--mcp
/// FILE` as the run was given them. Raw text, each word quoted for a POSIX
/// shell where it needs it.
pub fn reproduce(report: &Report, id: &str) -> String {
    let mut words = vec!["toolpath".to_owned(), "run".to_owned()];
    match report.adapter.as_deref() {
        None => {}
        Some(label) => match label.strip_prefix(MCP_LABEL_PREFIX) {
            Some(profile) => words.extend(["--mcp".to_owned(), shell_word(profile)]),
            None => words.extend(["--adapter".to_owned(), shell_word(label)]),
        },
    }
    words.extend(["--filter".to_owned(), shell_word(id)]);
    words.join(" ")
}

/// `word` as a POSIX shell reads it back: as it is when it holds only
/// characters no shell treats specially, else in single quotes (a quote
/// inside written `'\''`).
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./@:+=,-%".contains(c));
    match plain {
        true => word.to_owned(),
        false => format!("'{}'", word.replace('\'', "'\\''")),
    }
}

/// `… and N more escapes; the JSON report has them all.`, when some were
/// left out of the list.
pub fn more(listed: usize, total: usize) -> Option<String> {
    (total > listed).then(|| {
        format!(
            "… and {} more escapes; the JSON report has them all.",
            total - listed
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::render::sample_reports::{CountedSpool, case, escape, head, report};
    use crate::report::{Containment, ContainmentClass};

    #[test]
    fn escapes_are_listed_in_order_with_their_evidence_and_expectation() {
        let mut known = escape("b", "answered ok");
        known.status = Status::Xfail;
        known.expectation = Some(crate::report::ExpectationNote {
            reason: "follows links".into(),
            spec: None,
            issue: None,
        });
        let mut refused = case("c", Status::Pass, &[]);
        refused.containment = Some(Containment::of(ContainmentClass::Refused));
        let r = report(
            "x",
            vec![
                escape("a", "changed outside every root: + {tmp}/x (file)"),
                known,
                refused,
            ],
        );
        let (listed, total) = escapes(View::of(&r)).unwrap();
        assert_eq!(total, 2);
        let lines: Vec<String> = listed.iter().map(Escape::line).collect();
        assert_eq!(
            lines,
            [
                "a (cases/a.yaml:3): write: changed outside every root: + {tmp}/x (file)",
                "b (cases/b.yaml:3): read: answered ok; expected (xfail): follows links"
            ]
        );
    }

    #[test]
    fn no_escape_no_pass_and_a_long_list_is_cut() {
        let r = report("x", vec![case("a", Status::Pass, &[])]);
        let spool = CountedSpool::new(r.cases.clone());
        let header = head(&r);
        assert_eq!(escapes(View::streamed(&header, &spool)).unwrap().1, 0);
        assert_eq!(spool.passes.get(), 0);
        let many: Vec<_> = (0..MAX_LISTED + 3)
            .map(|i| escape(&format!("e{i}"), "answered ok"))
            .collect();
        let r = report("x", many);
        let (listed, total) = escapes(View::of(&r)).unwrap();
        assert_eq!((listed.len(), total), (MAX_LISTED, MAX_LISTED + 3));
        assert_eq!(
            more(listed.len(), total).unwrap(),
            "… and 3 more escapes; the JSON report has them all."
        );
        assert_eq!(more(3, 3), None);
    }
}
