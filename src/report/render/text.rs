//! Small text helpers shared by the renderers: labels every format prints
//! the same way, truncation, and table cells of the spec's own Markdown.
//! Foreign text is made safe by [`toolpath_suite::sanitize`], not here.

use crate::report::findings::Finding;
use toolpath_suite::protocol::Implementation;

/// `name version (language)`: how every format names the implementation, so
/// a certification table and a step summary can be matched by eye.
pub fn implementation(implementation: &Implementation) -> String {
    let mut label = implementation.name.clone();
    if !implementation.version.is_empty() {
        label.push(' ');
        label.push_str(&implementation.version);
    }
    if !implementation.language.is_empty() {
        label.push_str(&format!(" ({})", implementation.language));
    }
    label
}

/// The adapter command, or a plain statement that none was used: a report
/// of the in-process reference must not look like one with a missing field.
pub fn adapter(adapter: Option<&str>) -> String {
    match adapter {
        Some(command) => command.to_owned(),
        None => "built-in reference".to_owned(),
    }
}

/// Who cannot show a case's unchecked fields, by what the report calls
/// its subject ([`crate::report::subject_noun`]): an adapter declares what
/// it cannot observe; an MCP server's text does not show them (or its
/// profile composed them).
pub fn cannot_show(subject: &str) -> &'static str {
    match subject {
        "server" => "the server cannot show them",
        _ => "the adapter cannot observe them",
    }
}

/// What every format says of a run its subject could have reached (one
/// with [`Report::unprotected`](crate::report::Report::unprotected)
/// reasons), before the reasons: said the same way everywhere, so a page,
/// a CI view and a terminal cannot be read as a protected verdict.
pub const NOT_PROTECTED: &str =
    "this run's verdict is not protected from its subject, for these reasons";

/// Milliseconds as seconds with two decimals: fine enough for a run, coarse
/// enough not to suggest precision that timing on a shared machine lacks.
pub fn seconds(ms: f64) -> String {
    format!("{:.2} s", ms.max(0.0) / 1000.0)
}

/// At most `max` lines of `text`, the first ones, with a note of how many
/// were left out. A diff is read from its top; the rest can be had from the
/// JSON report.
pub fn head_lines(text: &str, max: usize) -> (Vec<&str>, usize) {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= max {
        return (lines, 0);
    }
    let omitted = lines.len() - max;
    (lines[..max].to_vec(), omitted)
}

/// At most `max` lines of `text`, the last ones: for standard error, where
/// the cause of a crash is usually printed just before it.
pub fn tail_lines(text: &str, max: usize) -> (Vec<&str>, usize) {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= max {
        return (lines, 0);
    }
    let omitted = lines.len() - max;
    (lines[omitted..].to_vec(), omitted)
}

/// `text` cut to at most `max` characters, ending in `…` when cut.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Markdown that is already Markdown (spec summaries, with their code
/// spans) made safe for a table cell: only a `|` would end the cell early,
/// and GitHub honours `\|` even inside code spans.
pub fn md_cell(markdown: &str) -> String {
    markdown
        .replace('|', "\\|")
        .replace(['\n', '\r', '\t'], " ")
}

/// `kind ×N: what it means`: how every format heads one finding (its
/// example and instances follow, each format in its own way). Raw text:
/// the caller escapes it for its format.
pub fn finding(finding: &Finding) -> String {
    format!(
        "{} \u{d7}{}: {}",
        finding.kind.name(),
        finding.count,
        finding.kind.title()
    )
}

/// The instances a finding happened in (at most the first 20 in id order),
/// sorted: workers finish in any order, and a report must not; then how
/// many more it happened in, when some are not listed.
pub fn finding_cases(finding: &Finding) -> String {
    let mut cases = finding.cases.clone();
    cases.sort();
    let mut listed = cases.join(", ");
    if finding.more_cases > 0 {
        listed.push_str(&format!(" and {} more", finding.more_cases));
    }
    listed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implementation_label_leaves_out_empty_parts() {
        let imp = |name: &str, version: &str, language: &str| Implementation {
            name: name.into(),
            version: version.into(),
            language: language.into(),
        };
        assert_eq!(implementation(&imp("a", "1.0", "rust")), "a 1.0 (rust)");
        assert_eq!(implementation(&imp("a", "", "")), "a");
    }

    #[test]
    fn head_and_tail_report_what_they_left_out() {
        assert_eq!(head_lines("1\n2\n3\n", 2), (vec!["1", "2"], 1));
        assert_eq!(tail_lines("1\n2\n3\n", 2), (vec!["2", "3"], 1));
        assert_eq!(tail_lines("1\n", 2), (vec!["1"], 0));
    }

    #[test]
    fn shorten_counts_characters_not_bytes() {
        assert_eq!(shorten("ééééé", 5), "ééééé");
        assert_eq!(shorten("ééééé", 3), "éé…");
    }

    #[test]
    fn markdown_cells_keep_their_markdown() {
        assert_eq!(md_cell("`a|b`\nc"), "`a\\|b` c");
    }
}
