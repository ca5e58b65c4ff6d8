//! The `glob` tool's pattern (spec GLOB-5, GLOB-6): matched against a file's
//! path relative to the searched directory, segment by segment.
//!
//! Kept apart from [`super::glob`], the search tools' `include` glob, which
//! matches base names only and treats `[` as an ordinary character; the two
//! share only brace expansion. The portable subset is small on purpose, so
//! every port can implement it without a library: `*`, `?`, `[...]`,
//! `[!...]`, a whole-segment `**`, and `{a,b}`.

use super::ToolError;
use super::glob::expand_braces;
use crate::protocol::ErrorCode;

/// A validated pattern: its brace alternatives, each split into segments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPattern {
    alternatives: Vec<Vec<Segment>>,
}

/// One `/`-separated piece of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// `**`: zero or more whole segments.
    AnyDepth,
    /// Anything else, matched against exactly one name.
    Name(Vec<Token>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// `*`: any run of characters (a segment never holds `/`).
    Star,
    /// `?`: one character.
    One,
    /// `[...]` or `[!...]`: inclusive ranges; a lone member is a range of one.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    Literal(char),
}

impl PathPattern {
    /// Parses `pattern`. A pattern that could reach outside the searched
    /// directory, one beginning with `/` or with a `..` segment in any
    /// alternative, is `invalid_params` (GLOB-6): a matcher over relative
    /// paths would only ever answer "nothing" to it, which teaches a model
    /// nothing, while the error says to move the climb into the path.
    pub fn parse(pattern: &str) -> Result<PathPattern, ToolError> {
        let mut alternatives = Vec::new();
        for alternative in expand_braces(pattern) {
            if alternative.starts_with('/') || alternative.split('/').any(|s| s == "..") {
                return Err(ToolError::new(
                    ErrorCode::InvalidParams,
                    format!(
                        "pattern `{pattern}` reaches outside the searched directory; \
                         give the directory as dir_path and a pattern relative to it"
                    ),
                ));
            }
            alternatives.push(alternative.split('/').map(segment).collect());
        }
        Ok(PathPattern { alternatives })
    }

    /// Whether the relative path `path` (`/`-separated) matches.
    pub fn matches(&self, path: &str) -> bool {
        let names: Vec<&str> = path.split('/').collect();
        self.alternatives
            .iter()
            .any(|segments| match_segments(segments, &names))
    }
}

fn segment(text: &str) -> Segment {
    if text == "**" {
        return Segment::AnyDepth;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (token, used) = match chars[i] {
            '*' => (Token::Star, 1),
            '?' => (Token::One, 1),
            '[' => class(&chars[i..]).unwrap_or((Token::Literal('['), 1)),
            c => (Token::Literal(c), 1),
        };
        tokens.push(token);
        i += used;
    }
    Segment::Name(tokens)
}

/// A class at the start of `chars` (which begins with `[`) and how many
/// characters it takes; `None` when no `]` closes it (then `[` is literal,
/// outside the portable subset anyway).
fn class(chars: &[char]) -> Option<(Token, usize)> {
    let negated = chars.get(1) == Some(&'!');
    let start = if negated { 2 } else { 1 };
    let close = start + chars[start..].iter().position(|&c| c == ']')?;
    let members = &chars[start..close];
    let mut ranges = Vec::new();
    let mut j = 0;
    while j < members.len() {
        if j + 2 < members.len() && members[j + 1] == '-' {
            ranges.push((members[j], members[j + 2]));
            j += 3;
        } else {
            ranges.push((members[j], members[j]));
            j += 1;
        }
    }
    Some((Token::Class { negated, ranges }, close + 1))
}

/// Segments against names; `**` tries every number of names it could take:
/// zero or more, but at least one at the end of the pattern, so `src/**` is
/// what lies below `src` and never a file named `src` (GLOB-5).
fn match_segments(segments: &[Segment], names: &[&str]) -> bool {
    match segments.split_first() {
        None => names.is_empty(),
        Some((Segment::AnyDepth, rest)) => {
            let least = usize::from(rest.is_empty());
            (least..=names.len()).any(|skip| match_segments(rest, &names[skip..]))
        }
        Some((Segment::Name(tokens), rest)) => names.split_first().is_some_and(|(name, more)| {
            match_name(tokens, &name.chars().collect::<Vec<_>>()) && match_segments(rest, more)
        }),
    }
}

/// Tokens against one name, by dynamic programming over the name:
/// `reach[j]` says whether the tokens read so far can consume exactly the
/// first `j` characters.
fn match_name(tokens: &[Token], name: &[char]) -> bool {
    let mut reach = vec![false; name.len() + 1];
    reach[0] = true;
    for token in tokens {
        let mut next = vec![false; name.len() + 1];
        if *token == Token::Star {
            next[0] = reach[0];
            for j in 1..next.len() {
                next[j] = reach[j] || next[j - 1];
            }
        } else {
            for j in 0..name.len() {
                next[j + 1] = reach[j] && one(token, name[j]);
            }
        }
        reach = next;
    }
    reach[name.len()]
}

fn one(token: &Token, c: char) -> bool {
    match token {
        Token::Star => unreachable!("handled by match_name"),
        Token::One => true,
        Token::Literal(l) => *l == c,
        Token::Class { negated, ranges } => {
            ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
        }
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
