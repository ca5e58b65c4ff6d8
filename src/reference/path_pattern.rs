//! The `glob` tool's pattern (spec GLOB-5, GLOB-6): matched against a file's
//! path relative to the searched directory, segment by segment. The
//! portable subset is small on purpose, so every port can implement it
//! without a library: `*`, `?`, `[...]`, `[!...]`, a whole-segment `**`,
//! and `{a,b}`.
//!
//! The matching itself is the suite's one wildcard engine
//! ([`toolpath_suite::wildcard::PathGlob`], linear time, GLOB-5 syntax);
//! this module is the tool's side of it: the error a pattern gets that
//! climbs out, or that has a `.` segment no path below a directory can
//! have (GLOB-6). The `.` check reads the pattern through the engine's
//! own brace structure ([`Braces`]), so it sees every alternative of a
//! group without expanding them.

use toolpath_suite::wildcard::{Automaton, Braces, PathGlob};

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
    ///
    /// A pattern with a `.` segment in any alternative (`./src/*.ts`,
    /// `{.,src}/a.ts`) is refused too: a relative path below a directory
    /// never has one, so it could only match nothing, and "no files" is
    /// an answer a model acts on; the error says what to write instead.
    pub fn parse(pattern: &str) -> Result<PathPattern, ToolError> {
        let message = match Refusal::of(pattern) {
            Ok(glob) => return Ok(PathPattern { glob }),
            Err(Refusal::Climbs) => format!(
                "pattern `{pattern}` reaches outside the searched directory; \
                 give the directory as dir_path and a pattern relative to it"
            ),
            Err(Refusal::DotSegment) => format!(
                "pattern `{pattern}` has a `.` segment, which no path below the searched \
                 directory has; write the pattern relative to it without `./` (`src/*.ts`)"
            ),
            Err(Refusal::EmptySegment) => format!(
                "pattern `{pattern}` has an empty segment (`//`, or a final `/`), which no \
                 path below the searched directory has; write one `/` between names and \
                 end with a name (`src/*.ts`)"
            ),
        };
        Err(ToolError::new(ErrorCode::InvalidParams, message))
    }

    /// Whether the relative path `path` (`/`-separated) matches.
    pub fn matches(&self, path: &str) -> bool {
        self.glob.matches(path)
    }
}

/// Why a pattern is refused, in the order [`PathPattern::parse`] checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// A leading `/` or a `..` segment (GLOB-6).
    Climbs,
    /// A `.` segment (GLOB-6).
    DotSegment,
    /// Two `/` in a row or a final `/` (GLOB-11).
    EmptySegment,
}

impl Refusal {
    fn of(pattern: &str) -> Result<PathGlob, Refusal> {
        let glob = PathGlob::parse(pattern).map_err(|_| Refusal::Climbs)?;
        if DotSegment::found(pattern) {
            return Err(Refusal::DotSegment);
        }
        if EmptySegment::found(pattern) {
            return Err(Refusal::EmptySegment);
        }
        Ok(glob)
    }

    fn rule(self) -> &'static str {
        match self {
            Refusal::Climbs | Refusal::DotSegment => "GLOB-6",
            Refusal::EmptySegment => "GLOB-11",
        }
    }
}

/// The requirement under which [`PathPattern::parse`] refuses `pattern`,
/// if it does: what the fuzzer credits a glob's `invalid_params` to
/// (`fuzz::rules`), decided by the same checks in the same order.
pub fn refusing_rule(pattern: &str) -> Option<&'static str> {
    Refusal::of(pattern).err().map(Refusal::rule)
}

/// Whether some alternative of a pattern has a segment that is exactly
/// `.`: an automaton over the pattern's characters whose state is what
/// the current segment is so far, run by [`Braces::run`] over every
/// alternative at once (linear in the pattern, whatever its groups).
struct DotSegment;

impl DotSegment {
    /// The segment so far is empty (the pattern's start, or after a `/`).
    const EMPTY: u8 = 1 << 0;
    /// The segment so far is `.`.
    const DOT: u8 = 1 << 1;
    /// The segment so far is anything else.
    const OTHER: u8 = 1 << 2;
    /// A `.` segment was closed by a `/`.
    const FOUND: u8 = 1 << 3;

    fn found(pattern: &str) -> bool {
        let end = Braces::parse(pattern).run(&DotSegment, DotSegment::EMPTY);
        // A last segment of `.` counts as much as one before a `/`.
        end & (DotSegment::FOUND | DotSegment::DOT) != 0
    }

    fn one(state: u8, c: char) -> u8 {
        match (state, c) {
            (DotSegment::FOUND, _) => DotSegment::FOUND,
            (DotSegment::DOT, '/') => DotSegment::FOUND,
            (_, '/') => DotSegment::EMPTY,
            (DotSegment::EMPTY, '.') => DotSegment::DOT,
            _ => DotSegment::OTHER,
        }
    }
}

impl Automaton for DotSegment {
    type States = u8;

    fn step(&self, states: &u8, c: char) -> u8 {
        (0..4)
            .map(|bit| 1u8 << bit)
            .filter(|state| states & state != 0)
            .fold(0, |next, state| next | DotSegment::one(state, c))
    }

    fn union(&self, into: &mut u8, other: u8) {
        *into |= other;
    }

    fn is_empty(&self, states: &u8) -> bool {
        *states == 0
    }
}

/// Whether some alternative of a pattern has an empty segment (GLOB-11):
/// a `/` right after another, or a `/` that ends it. A leading `/` is
/// GLOB-6's climb, refused before; the automaton's state is whether the
/// current segment is still empty, and whether it follows a `/`.
struct EmptySegment;

impl EmptySegment {
    /// The pattern's start: nothing read yet.
    const START: u8 = 1 << 0;
    /// Right after a `/`: the segment so far is empty.
    const AFTER_SLASH: u8 = 1 << 1;
    /// Inside a segment that has a character.
    const NAME: u8 = 1 << 2;
    /// An empty segment was closed by a `/`.
    const FOUND: u8 = 1 << 3;

    fn found(pattern: &str) -> bool {
        let end = Braces::parse(pattern).run(&EmptySegment, EmptySegment::START);
        // A pattern that ends right after a `/` ends with an empty segment.
        end & (EmptySegment::FOUND | EmptySegment::AFTER_SLASH) != 0
    }

    fn one(state: u8, c: char) -> u8 {
        match (state, c) {
            (EmptySegment::FOUND, _) => EmptySegment::FOUND,
            (EmptySegment::AFTER_SLASH, '/') => EmptySegment::FOUND,
            (_, '/') => EmptySegment::AFTER_SLASH,
            _ => EmptySegment::NAME,
        }
    }
}

impl Automaton for EmptySegment {
    type States = u8;

    fn step(&self, states: &u8, c: char) -> u8 {
        (0..4)
            .map(|bit| 1u8 << bit)
            .filter(|state| states & state != 0)
            .fold(0, |next, state| next | EmptySegment::one(state, c))
    }

    fn union(&self, into: &mut u8, other: u8) {
        *into |= other;
    }

    fn is_empty(&self, states: &u8) -> bool {
        *states == 0
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

    #[test]
    fn empty_segments_are_refused_in_every_alternative() {
        for bad in [
            "src//*.ts",
            "src/",
            "**//*.ts",
            "src/**/",
            "src/{lib,}/*.ts",
            "{src/,lib}/a.ts",
            "a{/,b}/c",
        ] {
            let err = PathPattern::parse(bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{bad}");
            assert!(
                err.message.contains("empty segment") && err.message.contains(bad),
                "{bad}: {}",
                err.message
            );
        }
        for good in [
            "src/*.ts",
            "{src,lib}/*.ts",
            "*.{ts,}",
            "src/{a/b,c}/*.ts",
            "**",
        ] {
            assert!(PathPattern::parse(good).is_ok(), "{good}");
        }
    }

    #[test]
    fn dot_segments_are_refused_in_every_alternative() {
        for bad in [
            "./*.ts",
            "src/./a.ts",
            "src/.",
            ".",
            "{.,src}/a.ts",
            "{a,./b}",
            "x{/.,}/y",
        ] {
            let err = PathPattern::parse(bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{bad}");
            assert!(
                err.message.contains("`.` segment"),
                "{bad}: {}",
                err.message
            );
        }
        for good in [
            ".env",
            "src/.hidden/*.ts",
            "*.ts",
            "{.a,b}/c",
            "a./b",
            ".{x,y}",
        ] {
            assert!(PathPattern::parse(good).is_ok(), "{good}");
        }
    }

    #[test]
    fn bang_is_literal_outside_a_class_and_braces_of_one_match_it() {
        assert!(m("!a.ts", "!a.ts"));
        assert!(!m("!a.ts", "a.ts") && !m("!a.ts", "b.ts"));
        assert!(m("!*.txt", "!notes.txt") && !m("!*.txt", "a.ts"));
        assert!(m("{a}.ts", "a.ts") && !m("{a}.ts", "{a}.ts"));
        assert!(m("?.ts", "é.ts") && !m("?.ts", ".ts") && !m("?.ts", "ab.ts"));
        assert!(m("[a-c].ts", "a.ts") && m("[a-c].ts", "c.ts") && !m("[a-c].ts", "-.ts"));
        assert!(m("[ab].ts", "a.ts") && !m("[ab].ts", "[ab].ts"));
    }
}
