//! SEARCH-9's wildcard over any text: `*` matches any run of characters,
//! `?` one character, `{a,b}` any one of its alternatives, and every other
//! character (`[`, `\`, `/` included) itself; by characters, case-sensitively.
//!
//! The search tools' `include` matches it against a file's base name;
//! `toolpath --filter` against instance and case ids; an expectations
//! file's keys against instance ids.

use super::{Automaton, Braces};

/// A compiled SEARCH-9 pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wildcard {
    braces: Braces,
}

/// Whether `text` matches the SEARCH-9 `pattern` (compiled for this one
/// call; keep a [`Wildcard`] to match many texts).
pub fn matches(pattern: &str, text: &str) -> bool {
    Wildcard::new(pattern).matches(text)
}

impl Wildcard {
    /// Every text is a pattern: there is nothing to refuse.
    pub fn new(pattern: &str) -> Wildcard {
        Wildcard {
            braces: Braces::parse(pattern),
        }
    }

    pub fn matches(&self, text: &str) -> bool {
        let text: Vec<char> = text.chars().collect();
        let automaton = Positions {
            text: &text,
            #[cfg(test)]
            work: Default::default(),
        };
        let mut start = vec![false; text.len() + 1];
        start[0] = true;
        self.braces.run(&automaton, start)[text.len()]
    }

    /// The number of state updates matching `text` takes: what the
    /// linear-time tests bound, instead of a time.
    #[cfg(test)]
    pub(crate) fn work(&self, text: &str) -> u64 {
        let text: Vec<char> = text.chars().collect();
        let automaton = Positions {
            text: &text,
            work: Default::default(),
        };
        let mut start = vec![false; text.len() + 1];
        start[0] = true;
        self.braces.run(&automaton, start);
        automaton.work.get()
    }
}

/// The state set is which prefixes of the text the pattern read so far can
/// have consumed exactly: `reach[j]` for the first `j` characters.
struct Positions<'t> {
    text: &'t [char],
    #[cfg(test)]
    work: std::cell::Cell<u64>,
}

impl Automaton for Positions<'_> {
    type States = Vec<bool>;

    fn step(&self, reach: &Vec<bool>, p: char) -> Vec<bool> {
        #[cfg(test)]
        self.work.set(self.work.get() + reach.len() as u64);
        let mut next = vec![false; reach.len()];
        match p {
            // `*` extends any reachable prefix by any run of characters.
            '*' => {
                let mut any = false;
                for (j, r) in reach.iter().enumerate() {
                    any |= r;
                    next[j] = any;
                }
            }
            _ => {
                for (j, &c) in self.text.iter().enumerate() {
                    next[j + 1] = reach[j] && (p == '?' || p == c);
                }
            }
        }
        next
    }

    fn union(&self, into: &mut Vec<bool>, other: Vec<bool>) {
        for (a, b) in into.iter_mut().zip(other) {
            *a |= b;
        }
    }

    fn is_empty(&self, reach: &Vec<bool>) -> bool {
        !reach.contains(&true)
    }
}
