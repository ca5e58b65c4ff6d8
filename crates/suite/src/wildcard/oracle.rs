//! The matchers the engine replaced, kept word for word as the oracle of
//! the differential tests (`super::tests`): the reference is normative,
//! so the engine must answer exactly what they answered. They expand
//! braces into every alternative and backtrack, which is exponential on
//! patterns like `*****X`; the tests give them only small inputs.

/// `include` (SEARCH-9), as `reference::glob` had it.
pub mod include {
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
    pub fn expand_braces(pattern: &str) -> Vec<String> {
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
}

/// Expectations-file keys and `--filter`, as `harness::expectations::glob_match`
/// had them: `*` and `?` only, no braces.
pub mod star {
    /// `*` matches any run of characters, `?` one; everything else itself.
    pub fn glob_match(pattern: &str, text: &str) -> bool {
        fn go(p: &[char], t: &[char]) -> bool {
            match p.split_first() {
                None => t.is_empty(),
                Some(('*', rest)) => (0..=t.len()).any(|i| go(rest, &t[i..])),
                Some(('?', rest)) => !t.is_empty() && go(rest, &t[1..]),
                Some((c, rest)) => t.first() == Some(c) && go(rest, &t[1..]),
            }
        }
        let p: Vec<char> = pattern.chars().collect();
        let t: Vec<char> = text.chars().collect();
        go(&p, &t)
    }
}

/// The `glob` tool's pattern (GLOB-5), as `reference::path_pattern` had
/// it; a climbing pattern is `Err(())` here.
pub mod path {
    use super::include::expand_braces;

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
        pub fn parse(pattern: &str) -> Result<PathPattern, ()> {
            let mut alternatives = Vec::new();
            for alternative in expand_braces(pattern) {
                if alternative.starts_with('/') || alternative.split('/').any(|s| s == "..") {
                    return Err(());
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
            Some((Segment::Name(tokens), rest)) => {
                names.split_first().is_some_and(|(name, more)| {
                    match_name(tokens, &name.chars().collect::<Vec<_>>())
                        && match_segments(rest, more)
                })
            }
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
}
