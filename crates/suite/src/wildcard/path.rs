//! GLOB-5's pattern over a relative path, `/`-separated, by characters,
//! case-sensitively: `*` any run of characters within a segment, `?` one
//! character, `[...]` and `[!...]` one character of (or not of) a class of
//! members and `a-z` ranges, a segment that is exactly `**` zero or more
//! whole segments (one or more at the end of the pattern, so `src/**` is
//! what lies below `src`), `{a,b}` one of its alternatives, and every other
//! character itself. A `[` that no `]` closes within its segment is
//! literal. A pattern that begins with `/` or has a `..` segment, in any
//! alternative of its braces, would reach outside the searched directory:
//! [`PathGlob::parse`] refuses it (GLOB-6).
//!
//! What a pattern character does depends on what comes after it (a `[` is
//! a class only if a `]` follows in its segment; a segment is `**` only if
//! nothing else follows in it), possibly in another alternative of a
//! group. So the automaton guesses, and a guess that turns out wrong dies:
//! a `[` is followed both as a literal that forbids any later `]` in the
//! segment and as a class that must be closed before it ends; a segment of
//! `**` so far is followed both as a name and as the segment `**`, and the
//! end of the segment keeps only the right one. A class carries what it has
//! decided about the text character it faces (matched so far, and of a
//! pending member or range start, whether it equals or is below that
//! character), never the members themselves, so a state is a text position
//! and a few flags.

use super::{Automaton, Braces};

/// A compiled GLOB-5 pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathGlob {
    braces: Braces,
}

/// A pattern that would reach outside the searched directory (GLOB-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Climb;

impl PathGlob {
    /// Refuses a pattern one of whose alternatives begins with `/` or has a
    /// `..` segment.
    pub fn parse(pattern: &str) -> Result<PathGlob, Climb> {
        let braces = Braces::parse(pattern);
        let end = braces.run(&Climbs, Climbs::START);
        if Climbs::climbs(end) {
            return Err(Climb);
        }
        Ok(PathGlob { braces })
    }

    /// Whether the relative path `path` (`/`-separated) matches.
    pub fn matches(&self, path: &str) -> bool {
        let text = Text::new(path);
        let automaton = Segments {
            text: &text,
            #[cfg(test)]
            work: Default::default(),
        };
        let end = self.braces.run(&automaton, vec![(Mode::SEGMENT_START, 0)]);
        automaton.accepts(&end)
    }

    /// The number of states produced matching `path`: what the linear-time
    /// tests bound, instead of a time.
    #[cfg(test)]
    pub(crate) fn work(&self, path: &str) -> u64 {
        let text = Text::new(path);
        let automaton = Segments {
            text: &text,
            work: Default::default(),
        };
        self.braces.run(&automaton, vec![(Mode::SEGMENT_START, 0)]);
        automaton.work.get()
    }
}

/// The path being matched, by characters, with where each name ends.
struct Text {
    chars: Vec<char>,
    /// For each position, the end of its name (the next `/`, or the end).
    name_end: Vec<usize>,
    /// For each position, the start of its name.
    name_start: Vec<usize>,
    /// The start of every name, in order.
    starts: Vec<usize>,
}

impl Text {
    fn new(path: &str) -> Text {
        let chars: Vec<char> = path.chars().collect();
        let len = chars.len();
        let mut name_start = vec![0; len + 1];
        let mut starts = vec![0];
        for p in 1..=len {
            name_start[p] = if chars[p - 1] == '/' {
                starts.push(p);
                p
            } else {
                name_start[p - 1]
            };
        }
        let mut name_end = vec![len; len + 1];
        for p in (0..len).rev() {
            name_end[p] = if chars[p] == '/' { p } else { name_end[p + 1] };
        }
        Text {
            chars,
            name_end,
            name_start,
            starts,
        }
    }

    /// The name character at `p`, if `p` is not at the end of its name.
    fn at(&self, p: usize) -> Option<char> {
        self.chars.get(p).copied().filter(|&c| c != '/')
    }
}

/// Where the pattern read so far stands in its current segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Shape {
    Empty,
    /// `*` so far.
    Star,
    /// `**` so far: the whole-segment `**` if the segment ends here.
    TwoStars,
    Other,
}

/// What the automaton has guessed about `[`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Bracket {
    Normal,
    /// A `[` was read as a literal: no `]` may follow in this segment.
    NoClose,
    /// Inside a class, facing the text character at the state's position.
    Class(Class),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Class {
    /// Right after the `[`: a `!` here negates.
    opened: bool,
    negated: bool,
    /// A member or range read so far holds the character.
    matched: bool,
    pending: Pending,
}

/// The member read last, not yet known to be alone or a range's start, as
/// what it says about the character `t` faced: `eq` is `member == t`, `le`
/// is `member <= t`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Pending {
    None,
    One {
        eq: bool,
        le: bool,
    },
    /// The member, then `-`: a range if another member follows.
    Dash {
        eq: bool,
        le: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Mode {
    shape: Shape,
    bracket: Bracket,
}

impl Mode {
    const SEGMENT_START: Mode = Mode {
        shape: Shape::Empty,
        bracket: Bracket::Normal,
    };
}

/// A state: a mode and a position in the text (a `char` index; a `/` of
/// the text is the boundary between names). Sets are sorted and
/// deduplicated.
type State = (Mode, usize);

struct Segments<'t> {
    text: &'t Text,
    #[cfg(test)]
    work: std::cell::Cell<u64>,
}

impl Segments<'_> {
    /// Whether the pattern, read whole, matches: a name segment must be at
    /// the end of the last name; a final `**` takes at least one name,
    /// which it always has (an empty path is one empty name).
    fn accepts(&self, states: &[State]) -> bool {
        let len = self.text.chars.len();
        states.iter().any(|&(mode, p)| match mode.bracket {
            Bracket::Class(_) => false,
            _ if mode.shape == Shape::TwoStars => true,
            _ => p == len,
        })
    }

    /// A `/` of the pattern: a name segment must have consumed its name
    /// whole and goes on at the next; `**` goes on at the start of its own
    /// name or of any later one.
    fn next_segment(&self, states: &[State], out: &mut Vec<State>) {
        let text = self.text;
        let mut any_depth_from: Option<usize> = None;
        for &(mode, p) in states {
            if matches!(mode.bracket, Bracket::Class(_)) {
                continue;
            }
            if mode.shape == Shape::TwoStars {
                let start = text.name_start[p];
                any_depth_from = Some(any_depth_from.map_or(start, |s| s.min(start)));
            } else if p < text.chars.len() && text.chars[p] == '/' {
                out.push((Mode::SEGMENT_START, p + 1));
            }
        }
        if let Some(from) = any_depth_from {
            let first = text.starts.partition_point(|&s| s < from);
            out.extend(
                text.starts[first..]
                    .iter()
                    .map(|&s| (Mode::SEGMENT_START, s)),
            );
        }
    }

    /// One character of a class at `p`, facing the text character `t`.
    fn class(&self, class: Class, shape: Shape, p: usize, c: char, out: &mut Vec<State>) {
        let Some(t) = self.text.at(p) else {
            return;
        };
        if c == ']' {
            let matched = class.matched
                || match class.pending {
                    Pending::None => false,
                    Pending::One { eq, .. } => eq,
                    Pending::Dash { eq, .. } => eq || t == '-',
                };
            if matched != class.negated {
                let mode = Mode {
                    shape,
                    bracket: Bracket::Normal,
                };
                out.push((mode, p + 1));
            }
            return;
        }
        let mut next = Class {
            opened: false,
            ..class
        };
        if class.opened && c == '!' {
            next.negated = true;
        } else {
            let member = Pending::One {
                eq: c == t,
                le: c <= t,
            };
            next.pending = match class.pending {
                Pending::None => member,
                Pending::One { eq, le } if c == '-' => Pending::Dash { eq, le },
                Pending::One { eq, .. } => {
                    next.matched |= eq;
                    member
                }
                Pending::Dash { le, .. } => {
                    next.matched |= le && t <= c;
                    Pending::None
                }
            };
        }
        let mode = Mode {
            shape,
            bracket: Bracket::Class(next),
        };
        out.push((mode, p));
    }
}

impl Automaton for Segments<'_> {
    type States = Vec<State>;

    fn step(&self, states: &Vec<State>, c: char) -> Vec<State> {
        let text = self.text;
        let mut out = Vec::with_capacity(states.len());
        if c == '/' {
            self.next_segment(states, &mut out);
        } else {
            // States are sorted by mode, then position: a `*` from the
            // lowest position of a name covers every higher one of it.
            let mut covered: Option<(Mode, usize)> = None;
            for &(mode, p) in states {
                let shape = match (mode.shape, c) {
                    (Shape::Empty, '*') => Shape::Star,
                    (Shape::Star, '*') => Shape::TwoStars,
                    _ => Shape::Other,
                };
                let bracket = match mode.bracket {
                    Bracket::Class(class) => {
                        self.class(class, shape, p, c, &mut out);
                        continue;
                    }
                    other => other,
                };
                let to = |bracket| Mode { shape, bracket };
                match c {
                    '*' => {
                        let end = text.name_end[p];
                        if covered.is_some_and(|(m, e)| m == mode && p <= e) {
                            continue;
                        }
                        covered = Some((mode, end));
                        out.extend((p..=end).map(|q| (to(bracket), q)));
                    }
                    '?' => {
                        if text.at(p).is_some() {
                            out.push((to(bracket), p + 1));
                        }
                    }
                    '[' => {
                        if text.at(p) == Some('[') {
                            out.push((to(Bracket::NoClose), p + 1));
                        }
                        if bracket == Bracket::Normal && text.at(p).is_some() {
                            let class = Class {
                                opened: true,
                                negated: false,
                                matched: false,
                                pending: Pending::None,
                            };
                            out.push((to(Bracket::Class(class)), p));
                        }
                    }
                    ']' if bracket == Bracket::NoClose => {}
                    c => {
                        if text.at(p) == Some(c) {
                            out.push((to(bracket), p + 1));
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        #[cfg(test)]
        self.work.set(self.work.get() + out.len() as u64 + 1);
        out
    }

    fn union(&self, into: &mut Vec<State>, other: Vec<State>) {
        into.extend(other);
        into.sort_unstable();
        into.dedup();
    }

    fn is_empty(&self, states: &Vec<State>) -> bool {
        states.is_empty()
    }
}

/// Whether some alternative of a pattern begins with `/` or has a `..`
/// segment, read over the pattern alone. The state set is a bit per state.
struct Climbs;

impl Climbs {
    /// Nothing read yet: a `/` here begins the alternative.
    const AT_START: u8 = 1 << 0;
    /// Right after a `/`.
    const SEGMENT_START: u8 = 1 << 1;
    /// The segment so far is `.`.
    const ONE_DOT: u8 = 1 << 2;
    /// The segment so far is `..`.
    const TWO_DOTS: u8 = 1 << 3;
    /// Anything else.
    const OTHER: u8 = 1 << 4;
    /// A climb was found.
    const CLIMBS: u8 = 1 << 5;

    const START: u8 = Climbs::AT_START;

    /// Whether the pattern read whole climbs (a last segment `..` too).
    fn climbs(end: u8) -> bool {
        end & (Climbs::CLIMBS | Climbs::TWO_DOTS) != 0
    }

    fn one(state: u8, c: char) -> u8 {
        match (state, c) {
            (Climbs::CLIMBS, _) => Climbs::CLIMBS,
            (Climbs::AT_START | Climbs::TWO_DOTS, '/') => Climbs::CLIMBS,
            (_, '/') => Climbs::SEGMENT_START,
            (Climbs::AT_START | Climbs::SEGMENT_START, '.') => Climbs::ONE_DOT,
            (Climbs::ONE_DOT, '.') => Climbs::TWO_DOTS,
            _ => Climbs::OTHER,
        }
    }
}

impl Automaton for Climbs {
    type States = u8;

    fn step(&self, states: &u8, c: char) -> u8 {
        (0..6)
            .map(|bit| 1u8 << bit)
            .filter(|state| states & state != 0)
            .fold(0, |next, state| next | Climbs::one(state, c))
    }

    fn union(&self, into: &mut u8, other: u8) {
        *into |= other;
    }

    fn is_empty(&self, states: &u8) -> bool {
        *states == 0
    }
}
