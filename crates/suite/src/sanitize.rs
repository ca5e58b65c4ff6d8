//! One treatment for foreign text: everything toolpath shows that it did not
//! write itself (an adapter's stderr, messages and reasons, implementation
//! names and versions, case ids, file names, paths, fuzz findings).
//!
//! Such text reaches a terminal, Markdown, HTML, JUnit XML and the YAML of
//! generated case files. Each can be attacked through characters a reader
//! does not see: an escape sequence clears the screen, rewrites the title
//! or puts something on the clipboard (OSC 52); a lone carriage return
//! overwrites the start of its line, and in YAML it starts a new one, so a
//! key can be injected; a bidi override (U+202E) shows `txt.exe` as
//! `exe.txt`; a zero-width joiner makes two different ids look the same.
//!
//! So the characters are classified once, here, by [`classify`]:
//!
//! | [`Class`] | what | shown as |
//! |---|---|---|
//! | `Plain` | everything else | itself |
//! | `Layout` | tab, newline, and a CR right before a newline | itself (each kind decides) |
//! | `Control` | C0 controls, a lone CR, DEL | its control picture (`␛`, `␍`, `␀`, `␡`) |
//! | `Broken` | C1 controls, noncharacters (U+FFFE ...) | `�`: the debris of a wrong decoding |
//! | `Bidi` | U+061C, U+200E/F, U+202A–E, U+2066–9 | `‹U+202E›` |
//! | `Invisible` | default-ignorable characters (zero-width, word joiner, BOM, tags ...), U+2028/9, U+FFF9–B | `‹U+200D›` |
//!
//! and rendered per output kind, every kind with the same stand-ins:
//!
//! - [`visible`]: plain text for a person (a terminal, a DOM's
//!   `textContent`, a YAML comment); layout kept.
//! - [`one_line`] and [`indented`]: the same for a terminal, inside a line
//!   of toolpath's own or as lines under one. Stand-ins stop what a
//!   terminal would act on, but not a line that only reads as toolpath's:
//!   a subject's `9 passed, 0 failed` on a line of its own passes for a
//!   run's closing line. So foreign text either has no line breaks or has
//!   every line behind an indent that no line of toolpath's starts with.
//! - [`markdown`]: the same, quoted for Markdown prose, code spans and
//!   fenced blocks.
//! - [`html`]: the same, escaped for HTML text and quoted attributes.
//! - [`xml`]: the same, escaped for XML 1.0 text and attributes (XML 1.0
//!   forbids most controls, so the stand-ins are what makes it well formed).
//! - [`yaml`]: NOT stand-ins but a double-quoted scalar in which every
//!   character that is not `Plain` is a `\u` escape: a fuzz finding must
//!   reproduce, so the value read back is the value written, exactly, and
//!   it stays on one line, so nothing in it can start a key.
//! - [`escaped`]: one line for a diagnostic, every non-`Plain` character as
//!   a Rust escape (`\n`, `\u{202e}`), so a case author can find it in the
//!   file.
//!
//! Decisions (nobody else wrote them down):
//! - A stand-in may also occur literally in the text (an adapter can print
//!   `␛`); the rendering is for reading, and the JSON report keeps the exact
//!   value.
//! - Variation selectors 15 and 16 (U+FE0E, U+FE0F) are `Plain`: they pick
//!   text or emoji presentation (`⚠️`) and hide nothing. Every other
//!   default-ignorable character is `Invisible`, the zero-width joiner of
//!   emoji sequences included: an id is not the place for them.
//! - A CR before a newline is a Windows line ending, not an attack: it is
//!   layout, kept where layout is kept.
//!
//! Self-contained (no `crate::` import): it belongs with the suite model on
//! the bottom floor, where case-error quoting uses it too.

use std::fmt::Write as _;

/// What a character is, as far as showing it to a person goes. See the
/// module docs for the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Shown as itself.
    Plain,
    /// Tab, newline, and a carriage return directly before a newline.
    Layout,
    /// A C0 control other than the layout ones (a lone CR included), or DEL.
    Control,
    /// A C1 control or a noncharacter.
    Broken,
    /// A bidirectional formatting character: it reorders what follows.
    Bidi,
    /// A character that is drawn as nothing (zero-width, joiners, the BOM,
    /// tag characters) or breaks a line where a reader does not expect it.
    Invisible,
}

/// The class of `c`, followed by `next` (which only matters to a CR: one
/// before a newline is a line ending, any other moves the cursor back).
pub fn classify(c: char, next: Option<char>) -> Class {
    match c {
        '\t' | '\n' => Class::Layout,
        '\r' if next == Some('\n') => Class::Layout,
        '\u{0}'..='\u{1f}' | '\u{7f}' => Class::Control,
        '\u{80}'..='\u{9f}' => Class::Broken,
        '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
            Class::Bidi
        }
        '\u{fe0e}' | '\u{fe0f}' => Class::Plain,
        c if is_noncharacter(c) => Class::Broken,
        c if is_invisible(c) => Class::Invisible,
        _ => Class::Plain,
    }
}

/// Unicode's default-ignorable code points (bidi ones are caught before),
/// plus the line and paragraph separators and the interlinear annotation
/// marks, which hide or move text too.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{34f}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
        | '\u{180b}'..='\u{180f}'
        | '\u{200b}'..='\u{200d}'
        | '\u{2028}' | '\u{2029}'
        | '\u{2060}'..='\u{206f}'
        | '\u{3164}'
        | '\u{fe00}'..='\u{fe0f}'
        | '\u{feff}' | '\u{ffa0}'
        | '\u{fff0}'..='\u{fffb}'
        | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0000}'..='\u{e0fff}')
}

/// U+FDD0–U+FDEF and the last two code points of every plane: never
/// characters of any text, and U+FFFE/U+FFFF are not even allowed in XML.
fn is_noncharacter(c: char) -> bool {
    let n = c as u32;
    (0xfdd0..=0xfdef).contains(&n) || n & 0xfffe == 0xfffe
}

/// Each character of `text` with its class.
pub fn classes(text: &str) -> impl Iterator<Item = (char, Class)> + '_ {
    let mut chars = text.chars().peekable();
    std::iter::from_fn(move || {
        let c = chars.next()?;
        Some((c, classify(c, chars.peek().copied())))
    })
}

/// The first character of `text` that is neither plain nor layout: what a
/// test asserts no rendering lets through.
pub fn first_hostile(text: &str) -> Option<char> {
    classes(text)
        .find(|(_, class)| !matches!(class, Class::Plain | Class::Layout))
        .map(|(c, _)| c)
}

/// Appends the visible stand-in of a character that is neither plain nor
/// layout. None of them contains a character any output kind quotes.
fn stand_in(out: &mut String, c: char, class: Class) {
    match class {
        Class::Plain | Class::Layout => out.push(c),
        // C0 controls have their own pictures, U+2400 to U+241F; DEL's is
        // U+2421.
        Class::Control if c == '\u{7f}' => out.push('\u{2421}'),
        Class::Control => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
        Class::Broken => out.push('\u{fffd}'),
        Class::Bidi | Class::Invisible => {
            let _ = write!(out, "‹U+{:04X}›", c as u32);
        }
    }
}

/// `text` for a person: layout kept, everything else that is not plain
/// replaced by its stand-in. What a terminal is given.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (c, class) in classes(text) {
        stand_in(&mut out, c, class);
    }
    out
}

/// `text` inside a line of toolpath's on a terminal: [`visible`], each line
/// break or tab a space (a CRLF one space), so none of it starts a line.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (c, class) in classes(text) {
        match (c, class) {
            ('\r', Class::Layout) => {}
            (_, Class::Layout) => out.push(' '),
            _ => stand_in(&mut out, c, class),
        }
    }
    out
}

/// `text` as lines under one of toolpath's on a terminal: each line
/// [`visible`], behind `indent` and ending in a newline, so that no line
/// of it starts where toolpath's own start (`indent` is the caller's and
/// must not be empty). Empty text gives nothing.
pub fn indented(text: &str, indent: &str) -> String {
    debug_assert!(!indent.is_empty(), "an indent is what sets the text apart");
    let shown = visible(text);
    let mut out = String::with_capacity(shown.len() + indent.len());
    for line in shown.lines() {
        out.push_str(indent);
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// `text` as HTML element content or a double-quoted attribute value:
/// `&`, `<`, `>` and `"` as references, layout as character references
/// (so a newline survives in an attribute), stand-ins for the rest. That
/// is exactly the escaping of an XML attribute, which is also correct HTML
/// in both places; one function keeps the two from drifting apart.
pub fn html(text: &str) -> String {
    xml::attribute(text)
}

/// A double-quoted YAML scalar that reads back as exactly `text`, on one
/// line: `"` and `\` escaped, every character that is not plain written as
/// `\t`, `\n`, `\r` or a `\u`/`\U` escape, so the file shows it too.
pub fn yaml(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for (c, class) in classes(text) {
        match (c, class) {
            ('"', _) => out.push_str("\\\""),
            ('\\', _) => out.push_str("\\\\"),
            (_, Class::Plain) => out.push(c),
            ('\t', _) => out.push_str("\\t"),
            ('\n', _) => out.push_str("\\n"),
            ('\r', _) => out.push_str("\\r"),
            (c, _) if (c as u32) <= 0xffff => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            (c, _) => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// `text` on one line for a diagnostic: every character that is not plain
/// (layout included) as a Rust escape (`\n`, `\u{1b}`, `\u{202e}`).
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (c, class) in classes(text) {
        match class {
            Class::Plain => out.push(c),
            _ => out.extend(c.escape_default()),
        }
    }
    out
}

/// Foreign text in Markdown: as prose or a table cell, a code span, a
/// fenced block. Stand-ins first, then Markdown's own quoting.
pub mod markdown {
    use super::{Class, classes, stand_in};

    /// Plain text made safe to embed in Markdown prose or a table cell: the
    /// characters that can start emphasis, code, links, HTML or a cell
    /// boundary are backslash-escaped (CommonMark allows that for any ASCII
    /// punctuation), and line breaks and tabs become spaces so a cell stays
    /// on its row.
    pub fn text(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for (c, class) in classes(text) {
            match (c, class) {
                ('\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&', _) => {
                    out.push('\\');
                    out.push(c);
                }
                // A CRLF is one line break, hence one space.
                ('\r', Class::Layout) => {}
                (_, Class::Layout) => out.push(' '),
                _ => stand_in(&mut out, c, class),
            }
        }
        out
    }

    /// `text` as an inline code span, whatever backticks it contains: the
    /// delimiter is one backtick longer than the longest run inside.
    pub fn code(text: &str) -> String {
        let mut inside = String::with_capacity(text.len());
        for (c, class) in classes(text) {
            match (c, class) {
                ('\r', Class::Layout) => {}
                (_, Class::Layout) => inside.push(' '),
                _ => stand_in(&mut inside, c, class),
            }
        }
        let ticks = "`".repeat(longest_run(&inside, '`') + 1);
        let pad = if inside.starts_with('`') || inside.ends_with('`') {
            " "
        } else {
            ""
        };
        format!("{ticks}{pad}{inside}{pad}{ticks}")
    }

    /// A fenced code block around `body`, with a fence no run of backticks
    /// in `body` can close early. `info` is the fence's own (trusted) info
    /// string, `diff` for instance.
    pub fn fence(info: &str, body: &str) -> String {
        let body = super::visible(body);
        let fence = "`".repeat(longest_run(&body, '`').max(2) + 1);
        let mut out = format!("{fence}{info}\n");
        for line in body.lines() {
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
}

/// Foreign text in XML 1.0, enough for the JUnit renderer to write correct
/// documents without an XML crate.
///
/// Beyond the five entities: XML 1.0 forbids most control characters, even
/// as character references, so the stand-ins are what keeps the document
/// well formed; and a parser normalises white space in attribute values and
/// a CR in text, so layout is written as character references where it
/// would otherwise not survive the round trip.
pub mod xml {
    use super::{Class, classes, stand_in};

    /// Text escaped for element content.
    pub fn text(raw: &str) -> String {
        escape(raw, false)
    }

    /// Text escaped for a double-quoted attribute value.
    pub fn attribute(raw: &str) -> String {
        escape(raw, true)
    }

    fn escape(raw: &str, in_attribute: bool) -> String {
        let mut out = String::with_capacity(raw.len());
        for (c, class) in classes(raw) {
            match (c, class) {
                ('&', _) => out.push_str("&amp;"),
                ('<', _) => out.push_str("&lt;"),
                ('>', _) => out.push_str("&gt;"),
                ('"', _) if in_attribute => out.push_str("&quot;"),
                ('\r', Class::Layout) => out.push_str("&#13;"),
                ('\n', _) if in_attribute => out.push_str("&#10;"),
                ('\t', _) if in_attribute => out.push_str("&#9;"),
                _ => stand_in(&mut out, c, class),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// The attacks the module exists for, each in a sentence.
    const HOSTILE: &[(&str, &str)] = &[
        ("clear screen", "a\u{1b}[2Jb"),
        (
            "OSC 8 link",
            "\u{1b}]8;;https://evil.invalid\u{1b}\\click\u{1b}]8;;\u{1b}\\",
        ),
        ("OSC 52 clipboard", "\u{1b}]52;c;cm0gLXJmIH4=\u{7}"),
        ("lone CR", "safe\rinjected: true"),
        ("right-to-left override", "report\u{202e}fdp.exe"),
        ("zero-width joiner in an id", "res\u{200d}.file"),
        ("NUL", "a\u{0}b"),
        ("CSI as C1", "a\u{9b}2Jb"),
        ("isolate", "\u{2067}x\u{2069}"),
        ("BOM and tag", "\u{feff}\u{e0041}"),
        ("line separator", "a\u{2028}b"),
        ("DEL", "a\u{7f}b"),
    ];

    #[test]
    fn characters_are_classified_once() {
        let class = |c: char| classify(c, None);
        assert_eq!(class('a'), Class::Plain);
        assert_eq!(class('é'), Class::Plain);
        assert_eq!(class('\u{fe0f}'), Class::Plain, "emoji presentation");
        assert_eq!(class('\t'), Class::Layout);
        assert_eq!(class('\n'), Class::Layout);
        assert_eq!(classify('\r', Some('\n')), Class::Layout);
        assert_eq!(classify('\r', Some('x')), Class::Control);
        assert_eq!(class('\r'), Class::Control);
        for c in ['\u{0}', '\u{1b}', '\u{1f}', '\u{7f}'] {
            assert_eq!(class(c), Class::Control, "{c:?}");
        }
        for c in [
            '\u{80}',
            '\u{85}',
            '\u{9b}',
            '\u{9f}',
            '\u{fdd0}',
            '\u{fffe}',
            '\u{10ffff}',
        ] {
            assert_eq!(class(c), Class::Broken, "{c:?}");
        }
        for c in [
            '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{200e}', '\u{61c}',
        ] {
            assert_eq!(class(c), Class::Bidi, "{c:?}");
        }
        for c in [
            '\u{200b}',
            '\u{200d}',
            '\u{2060}',
            '\u{feff}',
            '\u{ad}',
            '\u{e0041}',
            '\u{2028}',
            '\u{fe00}',
        ] {
            assert_eq!(class(c), Class::Invisible, "{c:?}");
        }
        for c in [
            '\u{a0}',
            '\u{fffd}',
            '\u{fffc}',
            '\u{1f600}',
            '\u{2400}',
            '‹',
        ] {
            assert_eq!(class(c), Class::Plain, "{c:?}");
        }
    }

    #[test]
    fn visible_keeps_layout_and_shows_the_rest() {
        assert_eq!(
            visible("a\tb\nc\u{1b}[31m\r\u{9b}"),
            "a\tb\nc\u{241b}[31m\u{240d}\u{fffd}"
        );
        assert_eq!(visible("a\r\nb\r"), "a\r\nb\u{240d}");
        assert_eq!(visible("x\u{7f}"), "x\u{2421}");
        assert_eq!(visible("a\u{202e}b\u{200d}c"), "a‹U+202E›b‹U+200D›c");
        assert_eq!(visible("\u{e0041}"), "‹U+E0041›");
        assert_eq!(visible("⚠️ ok"), "⚠️ ok");
    }

    #[test]
    fn one_line_and_indented_keep_foreign_lines_from_starting_a_line() {
        let fake = "ok\r\n9 passed, 0 failed\rX\n\tY";
        assert_eq!(one_line(fake), "ok 9 passed, 0 failed\u{240d}X  Y");
        assert_eq!(
            indented(fake, "  | "),
            "  | ok\n  | 9 passed, 0 failed\u{240d}X\n  | \tY\n"
        );
        assert_eq!(indented("", "  | "), "");
        assert_eq!(indented("a\n", "  | "), "  | a\n");
    }

    type Render = fn(&str) -> String;

    #[test]
    fn no_rendering_lets_an_attack_through() {
        let renderings: [(&str, Render); 10] = [
            ("visible", visible),
            ("one line", one_line),
            ("indented", |t| indented(t, "  | ")),
            ("html", html),
            ("xml text", xml::text),
            ("xml attribute", xml::attribute),
            ("markdown text", markdown::text),
            ("markdown code", markdown::code),
            ("markdown fence", |t| markdown::fence("diff", t)),
            ("escaped", escaped),
        ];
        for (attack, text) in HOSTILE {
            assert!(first_hostile(text).is_some(), "{attack} is an attack");
            for (kind, render) in renderings {
                let out = render(text);
                assert_eq!(
                    first_hostile(&out),
                    None,
                    "{attack} through {kind}: {out:?}"
                );
                assert!(!out.contains('\u{1b}'), "{attack} through {kind}");
            }
        }
    }

    #[test]
    fn stand_ins_are_the_same_in_every_kind() {
        let text = "\u{1b}\u{202e}\u{9b}";
        let shown = "\u{241b}‹U+202E›\u{fffd}";
        assert_eq!(visible(text), shown);
        assert_eq!(html(text), shown);
        assert_eq!(xml::text(text), shown);
        assert_eq!(xml::attribute(text), shown);
        assert_eq!(markdown::text(text), shown);
        assert_eq!(markdown::code(text), format!("`{shown}`"));
        assert_eq!(escaped(text), "\\u{1b}\\u{202e}\\u{9b}");
    }

    #[test]
    fn html_escapes_markup() {
        assert_eq!(
            html("<a href=\"x\" title='y'>&amp;</a>\n"),
            "&lt;a href=&quot;x&quot; title='y'&gt;&amp;amp;&lt;/a&gt;&#10;"
        );
    }

    #[test]
    fn xml_escapes_markup_characters() {
        assert_eq!(xml::text(r#"a<b>&"c'"#), r#"a&lt;b&gt;&amp;"c'"#);
        assert_eq!(xml::attribute(r#"a<b>&"c'"#), "a&lt;b&gt;&amp;&quot;c'");
    }

    #[test]
    fn xml_keeps_layout_in_text_and_encodes_it_in_attributes() {
        assert_eq!(xml::text("a\tb\nc\r\n"), "a\tb\nc&#13;\n");
        assert_eq!(xml::attribute("a\tb\nc\r\n"), "a&#9;b&#10;c&#13;&#10;");
        assert_eq!(
            xml::attribute("a\rb"),
            "a\u{240d}b",
            "a lone CR is no line ending"
        );
    }

    #[test]
    fn xml_replaces_characters_it_forbids() {
        let escaped =
            xml::text("nul\u{0} esc\u{1b}[1m ff\u{c} \u{fffe}\u{ffff} del\u{7f} c1\u{85}");
        assert_eq!(
            escaped,
            "nul\u{2400} esc\u{241b}[1m ff\u{240c} \u{fffd}\u{fffd} del\u{2421} c1\u{fffd}"
        );
        assert!(escaped.chars().all(is_xml_char));
        for (_, text) in HOSTILE {
            assert!(xml::attribute(text).chars().all(is_xml_char), "{text:?}");
        }
    }

    #[test]
    fn ordinary_unicode_is_left_alone() {
        for render in [
            visible,
            html,
            xml::text,
            xml::attribute,
            markdown::text,
            escaped,
        ] {
            assert_eq!(render("é ✅ 𝄞 ⚠️ 日本"), "é ✅ 𝄞 ⚠️ 日本");
        }
        assert_eq!(yaml("é ✅ 𝄞"), "\"é ✅ 𝄞\"");
    }

    /// The `Char` production of XML 1.0.
    fn is_xml_char(c: char) -> bool {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
    }

    #[test]
    fn markdown_quoting() {
        assert_eq!(
            markdown::text("a|b *c* <x>\nd\r\ne"),
            "a\\|b \\*c\\* \\<x\\> d e"
        );
        assert_eq!(markdown::code("a`b"), "``a`b``");
        assert_eq!(markdown::code("`a"), "`` `a ``");
        assert_eq!(markdown::code("a\r\nb\tc"), "`a b c`");
        assert_eq!(
            markdown::fence("diff", "x\n```\n"),
            "````diff\nx\n```\n````\n"
        );
        assert_eq!(
            markdown::fence("", "a\u{1b}[2J\r\nb\rc"),
            "```\na\u{241b}[2J\nb\u{240d}c\n```\n"
        );
    }

    #[test]
    fn escaped_is_one_line_with_rust_escapes() {
        assert_eq!(
            escaped("a\nb\t\u{1b}\u{202e}\u{200b}\r\n\\"),
            "a\\nb\\t\\u{1b}\\u{202e}\\u{200b}\\r\\n\\"
        );
    }

    fn read_back(scalar: &str) -> String {
        serde_saphyr::from_str::<String>(scalar).unwrap_or_else(|e| panic!("{scalar}: {e}"))
    }

    /// In a mapping between two keys: it must read back as itself and
    /// leave exactly those two keys.
    fn read_back_between_keys(scalar: &str) -> String {
        let text = format!("a: {scalar}\nz: 1\n");
        let map: BTreeMap<String, serde_json::Value> =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let keys: Vec<&str> = map.keys().map(String::as_str).collect();
        assert_eq!(keys, ["a", "z"], "{text}");
        map["a"].as_str().expect("a string").to_owned()
    }

    #[test]
    fn yaml_reads_back_exactly_and_injects_nothing() {
        let mut texts: Vec<String> = HOSTILE.iter().map(|(_, t)| (*t).to_owned()).collect();
        texts.extend(
            [
                "",
                " lead and trail ",
                "\"quoted\"",
                "back\\slash",
                "a: b",
                "- x",
                "# c",
                "'single'",
                "x\r\n",
                "\r",
                "\n",
                "\t",
                "{a: 1}",
                "&anchor *alias",
                "~",
                "null",
                "true",
                "0x10",
                "é𝄞",
                "\u{85}\u{2028}\u{2029}",
                "\u{fffe}\u{ffff}\u{10ffff}",
                "a\\u0041",
            ]
            .map(str::to_owned),
        );
        for text in &texts {
            let scalar = yaml(text);
            assert!(!scalar.contains(['\n', '\r']), "one line: {scalar}");
            assert_eq!(
                first_hostile(&scalar),
                None,
                "the file shows it: {scalar:?}"
            );
            assert_eq!(&read_back(&scalar), text, "{scalar}");
            assert_eq!(&read_back_between_keys(&scalar), text, "{scalar}");
        }
        assert_eq!(yaml("a\rb: c"), "\"a\\rb: c\"");
        assert_eq!(
            yaml("\u{202e}\u{1f600}\u{e0041}"),
            "\"\\u202e\u{1f600}\\U000e0041\""
        );
    }

    /// Every character there is, in runs of 64 (each run between two
    /// keys), reads back as itself: the escapes cover the whole of Unicode,
    /// not just the characters someone thought of.
    #[test]
    fn yaml_reads_back_every_character() {
        let all: Vec<char> = (0..=0x10ffff).filter_map(char::from_u32).collect();
        for run in all.chunks(64) {
            let text: String = run.iter().collect();
            let scalar = yaml(&text);
            assert_eq!(first_hostile(&scalar), None, "{scalar:?}");
            assert_eq!(read_back_between_keys(&scalar), text, "{scalar}");
        }
    }
}
