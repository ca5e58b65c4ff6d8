//! What one answer may cost once it is read, counted before it is read.
//!
//! The line cap ([`MAX_LINE_BYTES`](super::lines::MAX_LINE_BYTES)) bounds
//! the bytes a subject sends, not what they become: parsed, every JSON
//! value is a node of tens of bytes and every object a map of hundreds,
//! so 14 MiB of `{"a":0}` objects in one MCP answer took the harness
//! 2.5 GiB (issue 41). Split into lines and translated, a text of
//! millions of two-byte lines becomes millions of entries, each with its
//! path composed. Both are counted here first, cheaply and without
//! allocating, against [`MAX_ITEMS`]; an answer past it is refused, the
//! way a line past the cap is.
//!
//! Adapter lines are not counted here: the protocol lets one carry
//! hundreds of thousands of matches (a flood of 15 MiB of them is judged
//! whole, `tests/supervision.rs`), which this budget would refuse. Their
//! messages are internally tagged, so serde buffers a line's whole tree
//! (unknown members too) before reading it into the protocol's types:
//! bounding that needs a budget of its own, per byte rather than per item.

/// The most JSON values and object members one message may hold, and the
/// most lines one answer may be read as. 131,072: twenty times what a
/// listing or search past OUT-6's floor of 5,000 results holds (a match
/// as a JSON object is about seven), and at a few hundred bytes each
/// once read, tens of MiB at most.
pub const MAX_ITEMS: usize = 1 << 17;

/// Counts the values and object members of the JSON text `line`, without
/// parsing it: every one but the first follows a `[`, `{`, `,` or `:`
/// outside a string (an empty `[]` or `{}` counts one more, which its
/// own allocation costs anyway). `Err` with the count as soon as it
/// passes `limit`; text that is not JSON is counted all the same, and
/// left to the parser to refuse.
pub fn json_items(line: &[u8], limit: usize) -> Result<usize, usize> {
    let mut count = 1;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in line {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' | b',' | b':' => {
                count += 1;
                if count > limit {
                    return Err(count);
                }
            }
            _ => {}
        }
    }
    Ok(count)
}

/// Counts the lines `text` is read as (`str::lines`), without splitting
/// it: `Err` with the count as soon as it passes `limit`.
pub fn text_lines(text: &str, limit: usize) -> Result<usize, usize> {
    let mut count = usize::from(!text.is_empty() && !text.ends_with('\n'));
    for _ in text.bytes().filter(|b| *b == b'\n') {
        count += 1;
        if count > limit {
            return Err(count);
        }
    }
    if count > limit {
        return Err(count);
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_counted_by_its_values_and_members_and_strings_hide_nothing() {
        assert_eq!(json_items(b"0", 10), Ok(1));
        assert_eq!(json_items(br#"[0,1,2]"#, 10), Ok(4));
        assert_eq!(json_items(br#"{"a":0,"b":[1]}"#, 10), Ok(6));
        // Structural bytes inside strings, escaped quotes among them,
        // are text.
        assert_eq!(json_items(br#"["[,{:\"]{,"]"#, 10), Ok(2));
        assert_eq!(json_items(br#"["\\",1]"#, 10), Ok(3));
        // Past the limit: refused at once, with the count so far.
        let many = format!("[{}0]", "0,".repeat(1000));
        assert_eq!(json_items(many.as_bytes(), 100), Err(101));
        assert_eq!(json_items(many.as_bytes(), 2000), Ok(1002));
    }

    #[test]
    fn lines_are_counted_as_str_lines_splits_them() {
        for text in ["", "a", "a\n", "a\nb", "a\r\nb\n", "\n\n", "a\n\nb"] {
            assert_eq!(text_lines(text, 10), Ok(text.lines().count()), "{text:?}");
        }
        assert_eq!(text_lines(&"x\n".repeat(50), 20), Err(21));
        assert_eq!(text_lines("a\nb\nc", 2), Err(3));
    }
}
