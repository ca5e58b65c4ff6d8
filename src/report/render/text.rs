//! Small text helpers shared by the renderers: labels every format prints
//! the same way, control-character hygiene, truncation, Markdown quoting.

use crate::protocol::Implementation;

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

/// Milliseconds as seconds with two decimals: fine enough for a run, coarse
/// enough not to suggest precision that timing on a shared machine lacks.
pub fn seconds(ms: f64) -> String {
    format!("{:.2} s", ms.max(0.0) / 1000.0)
}

/// Replaces control characters with visible stand-ins. Reports carry text
/// from adapters (stderr, messages); printed raw, an escape sequence in it
/// could rewrite the reader's terminal, and in XML most controls are not
/// even allowed. Tab and newline are kept: they are layout.
pub fn visible(text: &str) -> String {
    text.chars().map(visible_char).collect()
}

fn visible_char(c: char) -> char {
    match c {
        '\t' | '\n' => c,
        // C0 controls have their own pictures, U+2400 to U+241F.
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        // C1 controls: some terminals act on them (0x9B is a CSI).
        '\u{80}'..='\u{9f}' => '\u{fffd}',
        _ => c,
    }
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

/// Plain text made safe to embed in Markdown prose or a table cell: the
/// characters that can start emphasis, code, links, HTML or a cell boundary
/// are backslash-escaped (CommonMark allows that for any ASCII punctuation),
/// and line breaks become spaces so a cell stays on its row.
pub fn md_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in visible(text).chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\t' => out.push(' '),
            _ => out.push(c),
        }
    }
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

/// `text` as an inline code span, whatever backticks it contains: the
/// delimiter is one backtick longer than the longest run inside.
pub fn md_code(text: &str) -> String {
    let text = visible(text).replace(['\n', '\t'], " ");
    let ticks = "`".repeat(longest_run(&text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// A fenced code block around `body`, with a fence no run of backticks in
/// `body` can close early.
pub fn md_fence(info: &str, body: &str) -> String {
    let fence = "`".repeat(longest_run(body, '`').max(2) + 1);
    let mut out = format!("{fence}{info}\n");
    for line in visible(body).lines() {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
    out
}

fn longest_run(text: &str, of: char) -> usize {
    let (mut longest, mut current) = (0, 0);
    for c in text.chars() {
        current = if c == of { current + 1 } else { 0 };
        longest = longest.max(current);
    }
    longest
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
    fn visible_keeps_layout_and_pictures_controls() {
        assert_eq!(
            visible("a\tb\nc\u{1b}[31m\r\u{9b}"),
            "a\tb\nc\u{241b}[31m\u{240d}\u{fffd}"
        );
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
    fn markdown_quoting() {
        assert_eq!(md_text("a|b *c* <x>\nd"), "a\\|b \\*c\\* \\<x\\> d");
        assert_eq!(md_cell("`a|b`\nc"), "`a\\|b` c");
        assert_eq!(md_code("a`b"), "``a`b``");
        assert_eq!(md_code("`a"), "`` `a ``");
        assert_eq!(md_fence("diff", "x\n```\n"), "````diff\nx\n```\n````\n");
    }
}
