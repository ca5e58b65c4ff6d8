//! The caps on what one instance keeps in the report. An adapter decides
//! how large its answers are: one that answers a search of a tiny file
//! with 16 MiB of matches once put about 8 MB per case into the report
//! (gigabytes for the suite). Judging compares the full values; only what
//! is *stored* afterwards is capped, each cut visibly, with the original
//! length (`spec/protocol.md`, "What a report keeps"):
//!
//! - a list shown in a mismatch or the diff keeps its first [`MAX_LISTED`]
//!   items (sorted) and says how many more there were;
//! - each side of a mismatch, each diff line's value and a reason keep
//!   their first [`MAX_VALUE_BYTES`]; the whole diff its first
//!   [`MAX_DIFF_BYTES`].

/// The most items of a list shown in a mismatch or diff.
pub const MAX_LISTED: usize = 20;
/// The most bytes kept of one value (a mismatch side, a reason).
pub const MAX_VALUE_BYTES: usize = 4 * 1024;
/// The most bytes kept of one instance's diff.
pub const MAX_DIFF_BYTES: usize = 32 * 1024;

/// `text` cut to at most `limit` bytes (at a character boundary) followed
/// by a marker with the original length; unchanged when it fits.
pub fn cap(text: String, limit: usize) -> String {
    if text.len() <= limit {
        return text;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [cut: {} bytes in all]", &text[..end], text.len())
}

/// `[a, b, …]` of `items`, sorted, with at most [`MAX_LISTED`] shown and
/// the rest counted.
pub fn list(mut items: Vec<String>) -> String {
    items.sort();
    let total = items.len();
    if total > MAX_LISTED {
        items.truncate(MAX_LISTED);
        items.push(format!("… {} more ({total} in all)", total - MAX_LISTED));
    }
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_visibly_with_their_length() {
        assert_eq!(cap("short".into(), 10), "short");
        assert_eq!(cap("abcdef".into(), 3), "abc… [cut: 6 bytes in all]");
        // Never inside a character: `é` is two bytes.
        assert_eq!(cap("aé".into(), 2), "a… [cut: 3 bytes in all]");
    }

    #[test]
    fn long_lists_keep_their_first_items_and_count_the_rest() {
        assert_eq!(list(vec!["b".into(), "a".into()]), "[a, b]");
        let many: Vec<String> = (0..MAX_LISTED + 7).map(|i| format!("{i:03}")).collect();
        let shown = list(many);
        assert!(shown.starts_with("[000, 001,"), "{shown}");
        assert!(shown.ends_with(", 019, … 7 more (27 in all)]"), "{shown}");
    }
}
