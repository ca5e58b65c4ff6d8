//! The `glob` tool's pattern (spec GLOB-5, GLOB-6): matched against a file's
//! path relative to the searched directory, segment by segment. The
//! portable subset is small on purpose, so every port can implement it
//! without a library: `*`, `?`, `[...]`, `[!...]`, a whole-segment `**`,
//! and `{a,b}`.
//!
//! The matching itself is the suite's one wildcard engine
//! ([`toolpath_suite::wildcard::PathGlob`], linear time, GLOB-5 syntax);
//! this module is the tool's side of it: the error a climbing pattern gets.

use toolpath_suite::wildcard::PathGlob;

use super::ToolError;
use toolpath_suite::protocol::ErrorCode;

/// A validated pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPattern {
    glob: PathGlob,
}

impl PathPattern {
    /// Parses `pattern`. A pattern that could reach outside the searched
    /// directory, one beginning with `/` or with a `..` segment in any
    /// alternative, is `invalid_params` (GLOB-6): a matcher over relative
    /// paths would only ever answer "nothing" to it, which teaches a model
    /// nothing, while the error says to move the climb into the path.
    pub fn parse(pattern: &str) -> Result<PathPattern, ToolError> {
        let glob = PathGlob::parse(pattern).map_err(|_| {
            ToolError::new(
                ErrorCode::InvalidParams,
                format!(
                    "pattern `{pattern}` reaches outside the searched directory; \
                     give the directory as dir_path and a pattern relative to it"
                ),
            )
        })?;
        Ok(PathPattern { glob })
    }

    /// Whether the relative path `path` (`/`-separated) matches.
    pub fn matches(&self, path: &str) -> bool {
        self.glob.matches(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, path: &str) -> bool {
        PathPattern::parse(pattern).unwrap().matches(path)
    }

    #[test]
    fn stars_stay_in_their_segment() {
        assert!(m("*.ts", "a.ts"));
        assert!(m("*.ts", ".hidden.ts"));
        assert!(!m("*.ts", "src/a.ts"));
        assert!(m("src/*.ts", "src/a.ts"));
        assert!(!m("src/*.ts", "src/x/a.ts"));
        assert!(m("?.ts", "a.ts"));
        assert!(!m("?.ts", "ab.ts"));
        assert!(!m("*.ts", "a.TS"), "case-sensitive");
        assert!(m("a.ts", "a.ts"));
    }

    #[test]
    fn double_star_takes_whole_segments() {
        assert!(m("**/*.ts", "a.ts"));
        assert!(m("**/*.ts", "x/y/a.ts"));
        assert!(m("**", "x/y/a.ts"));
        assert!(m("src/**", "src/x/a.ts"));
        assert!(!m("src/**", "lib/a.ts"));
        assert!(
            !m("src/**", "src"),
            "a trailing ** takes at least one segment"
        );
        assert!(m("**", "src"));
        assert!(m("src/**/a.ts", "src/a.ts"));
        assert!(m("src/**/a.ts", "src/p/q/a.ts"));
        assert!(!m("src/**/a.ts", "src/p/q/b.ts"));
    }

    #[test]
    fn classes_and_braces() {
        assert!(m("[ab].ts", "a.ts"));
        assert!(!m("[ab].ts", "c.ts"));
        assert!(m("[a-c]1", "b1"));
        assert!(!m("[!a-c]1", "b1"));
        assert!(m("[!a-c]1", "d1"));
        assert!(m("{src,lib}/*.ts", "lib/a.ts"));
        assert!(!m("{src,lib}/*.ts", "doc/a.ts"));
        assert!(m("*.{ts,md}", "a.md"));
        assert!(m("a{b", "a{b"), "an unclosed brace is literal");
        assert!(m("[ab", "[ab"), "an unclosed class is literal");
    }

    #[test]
    fn patterns_that_climb_out_are_refused() {
        for bad in ["/etc/*", "../*", "src/../../x", "{src,..}/*", "**/.."] {
            let err = PathPattern::parse(bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{bad}");
        }
        assert!(PathPattern::parse("..foo/*").is_ok(), "`..foo` is a name");
    }
}
