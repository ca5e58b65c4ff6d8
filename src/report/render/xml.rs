//! Escaping for XML 1.0, enough for the JUnit renderer to write correct
//! documents without an XML crate.
//!
//! Two things go beyond the five entities. XML 1.0 forbids most control
//! characters outright, even as character references, and adapter output
//! can contain them (colour codes in stderr, a NUL in a diff); they are
//! replaced by visible stand-ins rather than dropped, so the reader still
//! sees that something was there. And a parser normalises white space in
//! attribute values and `\r` in text, so those are written as character
//! references to survive the round trip.

/// Text escaped for element content.
pub fn text(raw: &str) -> String {
    escape(raw, false)
}

/// Text escaped for a double-quoted attribute value.
pub fn attr(raw: &str) -> String {
    escape(raw, true)
}

fn escape(raw: &str, in_attribute: bool) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if in_attribute => out.push_str("&quot;"),
            '\r' => out.push_str("&#13;"),
            '\n' if in_attribute => out.push_str("&#10;"),
            '\t' if in_attribute => out.push_str("&#9;"),
            '\t' | '\n' => out.push(c),
            // Not characters of XML 1.0 at all: pictured, as everywhere else.
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
            '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            // Allowed, but "discouraged" and acted on by some terminals that
            // end up showing CI logs.
            '\u{7f}'..='\u{9f}' => out.push('\u{fffd}'),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_characters() {
        assert_eq!(text(r#"a<b>&"c'"#), r#"a&lt;b&gt;&amp;"c'"#);
        assert_eq!(attr(r#"a<b>&"c'"#), "a&lt;b&gt;&amp;&quot;c'");
    }

    #[test]
    fn keeps_layout_in_text_and_encodes_it_in_attributes() {
        assert_eq!(text("a\tb\nc\r\n"), "a\tb\nc&#13;\n");
        assert_eq!(attr("a\tb\nc\r"), "a&#9;b&#10;c&#13;");
    }

    #[test]
    fn replaces_characters_xml_forbids() {
        let escaped = text("nul\u{0} esc\u{1b}[1m ff\u{c} \u{fffe}\u{ffff} del\u{7f}");
        assert_eq!(
            escaped,
            "nul\u{2400} esc\u{241b}[1m ff\u{240c} \u{fffd}\u{fffd} del\u{fffd}"
        );
        assert!(escaped.chars().all(is_xml_char));
    }

    #[test]
    fn keeps_ordinary_unicode() {
        assert_eq!(text("é ✅ 𝄞"), "é ✅ 𝄞");
    }

    /// The `Char` production of XML 1.0.
    fn is_xml_char(c: char) -> bool {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
    }
}
