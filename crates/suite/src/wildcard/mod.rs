//! The one wildcard matcher: linear time, two syntaxes.
//!
//! ```
//! use toolpath_suite::wildcard::{PathGlob, Wildcard};
//!
//! // SEARCH-9: `*`, `?` and `{a,b}` over any text.
//! assert!(Wildcard::new("search.*@{grep,ripgrep}").matches("search.file.relative@grep"));
//! // GLOB-5: segments, `**`, `[...]` and `{a,b}` over a relative path.
//! let glob = PathGlob::parse("src/**/[!.]*.{ts,md}").unwrap();
//! assert!(glob.matches("src/a/b/x.ts") && !glob.matches("src/.x.ts"));
//! ```
//!
//! A pattern is read once into [`Braces`]: literal runs and `{a,b}` groups
//! in order. The two syntaxes are what a character of the pattern *does*:
//! [`text::Wildcard`] (SEARCH-9: `*`, `?`, everything else itself; the
//! search tools' `include`, `toolpath --filter` and the keys of an
//! expectations file) and [`path::PathGlob`] (GLOB-5: `/`-separated
//! segments, a whole-segment `**`, `*`, `?`, `[...]`, `[!...]`; the `glob`
//! tool). Each is an [`Automaton`] whose state set says where in the text
//! the pattern read so far can have got to; [`Braces::run`] feeds it the
//! pattern, running every alternative of a group from the same set and
//! joining what they reach. No alternative is ever expanded into a string,
//! so `{a,b}{c,d}{e,f}...` costs their sum, not their product, and nothing
//! backtracks: the work is O(pattern length × text length) for either
//! syntax (`toolpath list --filter '*****X'` ran exponentially before).
//!
//! Brace rules, shared by both syntaxes and kept exactly as the reference
//! always had them: the first `{` opens a group and the first `}` after it
//! closes it; groups do not nest (in `{a,{b}}` the first `}` closes, and
//! the `{` inside is a literal of the alternative `{b`); a `{` with no `}`
//! after it is literal, and so is everything after it.
//!
//! May import nothing of this crate: the wildcard is below the case model.

pub mod path;
pub mod text;

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod tests;

pub use path::{Climb, PathGlob};
pub use text::{Wildcard, matches};

/// A pattern's brace structure: what lies between the groups, and the
/// alternatives of each group, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Braces {
    pieces: Vec<Piece>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// Characters every alternative of the pattern holds here.
    Literal(Vec<char>),
    /// A `{a,b,...}` group: exactly one of these stands here.
    Group(Vec<Vec<char>>),
}

/// What one syntax does with the characters of a pattern, as a set of
/// states that a pattern character moves forward. Sets must be small
/// (bounded by the text's length times a constant), so running a pattern
/// costs O(pattern × text).
pub trait Automaton {
    type States: Clone;
    /// Where reading `c` from every state of `states` leads.
    fn step(&self, states: &Self::States, c: char) -> Self::States;
    /// Both sets as one (the join after a group's alternatives).
    fn union(&self, into: &mut Self::States, other: Self::States);
    /// Whether no state is left: the rest of the pattern cannot match.
    fn is_empty(&self, states: &Self::States) -> bool;
}

impl Braces {
    pub fn parse(pattern: &str) -> Braces {
        let mut pieces = Vec::new();
        let mut rest = pattern;
        while let Some(open) = rest.find('{') {
            let Some(len) = rest[open..].find('}') else {
                break;
            };
            if open > 0 {
                pieces.push(Piece::Literal(rest[..open].chars().collect()));
            }
            let group = &rest[open + 1..open + len];
            pieces.push(Piece::Group(
                group.split(',').map(|alt| alt.chars().collect()).collect(),
            ));
            rest = &rest[open + len + 1..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Literal(rest.chars().collect()));
        }
        Braces { pieces }
    }

    /// Reads the whole pattern into `automaton` from `start`.
    pub fn run<A: Automaton>(&self, automaton: &A, start: A::States) -> A::States {
        let read = |mut states: A::States, chars: &[char]| {
            for &c in chars {
                if automaton.is_empty(&states) {
                    break;
                }
                states = automaton.step(&states, c);
            }
            states
        };
        let mut states = start;
        for piece in &self.pieces {
            states = match piece {
                Piece::Literal(chars) => read(states, chars),
                Piece::Group(alternatives) => {
                    let mut joined: Option<A::States> = None;
                    for alternative in alternatives {
                        let reached = read(states.clone(), alternative);
                        match &mut joined {
                            None => joined = Some(reached),
                            Some(joined) => automaton.union(joined, reached),
                        }
                    }
                    joined.expect("a group has at least one alternative")
                }
            };
        }
        states
    }
}
