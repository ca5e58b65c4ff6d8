//! The search tools' `include` filter (SEARCH-9): a file-name wildcard
//! with `*`, `?` and one level of `{a,b}`; every other character, `[`, `\`
//! and `/` included, matches itself. Matching is on the file's base name
//! only, by characters, case-sensitively.
//!
//! The matching itself is the suite's one wildcard engine
//! ([`toolpath_suite::wildcard::Wildcard`], linear time, SEARCH-9 syntax),
//! the same that `--filter` and expectations keys use; this module says
//! what the reference matches it against.

use toolpath_suite::wildcard::Wildcard;

/// Whether `name` (a base name) matches the `include` glob `pattern`.
pub fn matches(pattern: &str, name: &str) -> bool {
    Wildcard::new(pattern).matches(name)
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn wildcards() {
        assert!(matches("*.ts", "a.ts"));
        assert!(matches("*.ts", ".ts"));
        assert!(!matches("*.ts", "a.tsx"));
        assert!(!matches("*.ts", "a.TS"));
        assert!(matches("a?c", "abc"));
        assert!(!matches("a?c", "ac"));
        assert!(matches("?", "é"));
        assert!(matches("*", ""));
        assert!(matches("**x*", "abxcd"));
        assert!(matches("a.ts", "a.ts"));
        assert!(!matches("a.ts", "b.ts"));
    }

    #[test]
    fn braces() {
        assert!(matches("*.{ts,md}", "a.md"));
        assert!(matches("*.{ts,md}", "a.ts"));
        assert!(!matches("*.{ts,md}", "a.js"));
        assert!(matches("{a,b}{1,2}", "b1"));
        assert!(matches("x{,y}", "x"));
        assert!(matches("{*.ts,README}", "README"));
        // An unclosed brace is literal.
        assert!(matches("a{b", "a{b"));
        assert!(matches("{a}", "a"));
    }

    #[test]
    fn literals() {
        assert!(matches("[ab].ts", "[ab].ts"));
        assert!(!matches("[ab].ts", "a.ts"));
        assert!(matches("a\\b", "a\\b"));
        assert!(matches("a+b(c)", "a+b(c)"));
        // A leading `!` is part of the name, never a negation.
        assert!(matches("!a.ts", "!a.ts") && !matches("!a.ts", "a.ts"));
        assert!(matches("!*.txt", "!x.txt") && !matches("!*.txt", "a.ts"));
        // Case-sensitive, and `?` is one character, never none.
        assert!(!matches("*.ts", "A.TS") && !matches("*.TS", "a.ts"));
        assert!(!matches("?.ts", ".ts"));
    }
}
