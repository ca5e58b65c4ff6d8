//! The `include` file-name glob of the search tools (SEARCH-9).
//!
//! Deliberately small: `*`, `?` and one level of `{a,b}`; every other
//! character, `[`, `\` and `/` included, matches itself. Matching is on the
//! file's base name only, by characters, case-sensitively.

/// Whether `name` (a base name) matches the glob `pattern`.
pub fn matches(pattern: &str, name: &str) -> bool {
    let name: Vec<char> = name.chars().collect();
    expand_braces(pattern)
        .iter()
        .any(|alt| wildcard(&alt.chars().collect::<Vec<_>>(), &name))
}

/// Expands every `{a,b,...}` group into its alternatives (their product when
/// there are several groups). A `{` without a later `}` is literal; groups do
/// not nest, so in `{a,{b}}` the first `}` closes the group.
pub(super) fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_owned()];
    };
    let Some(len) = pattern[open..].find('}') else {
        return vec![pattern.to_owned()];
    };
    let (head, group, tail) = (
        &pattern[..open],
        &pattern[open + 1..open + len],
        &pattern[open + len + 1..],
    );
    let tails = expand_braces(tail);
    group
        .split(',')
        .flat_map(|alt| tails.iter().map(move |t| format!("{head}{alt}{t}")))
        .collect()
}

/// `*` and `?` matching by dynamic programming over the name: `reach[j]` says
/// whether the pattern read so far can consume exactly the first `j` chars.
fn wildcard(pattern: &[char], name: &[char]) -> bool {
    let mut reach = vec![false; name.len() + 1];
    reach[0] = true;
    for &p in pattern {
        reach = match p {
            // `*` extends any reachable prefix by any run of characters.
            '*' => {
                let mut next = reach.clone();
                for j in 1..next.len() {
                    next[j] |= next[j - 1];
                }
                next
            }
            _ => {
                let mut next = vec![false; name.len() + 1];
                for j in 0..name.len() {
                    next[j + 1] = reach[j] && (p == '?' || p == name[j]);
                }
                next
            }
        };
    }
    reach[name.len()]
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
    }
}
