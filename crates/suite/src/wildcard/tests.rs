//! The engine against the matchers it replaced (differential, over random
//! patterns and texts from a fixed seed), and its work on the inputs that
//! made them exponential, bounded by counting, never by a clock.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use super::oracle;
use super::{PathGlob, Wildcard};

/// Deterministic: the same inputs on every run and machine.
fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x7001_9a7b),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Every character either syntax gives a meaning to, and a few that it
/// does not, so random strings hit every rule and their mixtures.
const PATTERN: &[char] = &[
    '*', '?', '{', '}', ',', '[', ']', '!', '-', '/', '.', 'a', 'b', 'c', '\\',
];
const TEXT: &[char] = &['a', 'b', 'c', '-', '.', '[', ']', '!', '{', '}', ',', '/'];

fn string(alphabet: &'static [char], max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(alphabet), 0..=max)
        .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(config(20_000))]

    /// SEARCH-9's `include`: the same answer as the brace-expanding matcher.
    #[test]
    fn include_agrees_with_the_old_matcher(
        pattern in string(PATTERN, 12),
        name in string(TEXT, 10),
    ) {
        prop_assert_eq!(
            Wildcard::new(&pattern).matches(&name),
            oracle::include::matches(&pattern, &name)
        );
    }

    /// GLOB-5: the same patterns refused, and the same answer on every path.
    #[test]
    fn path_patterns_agree_with_the_old_matcher(
        pattern in string(PATTERN, 12),
        paths in prop::collection::vec(string(TEXT, 10), 1..4),
    ) {
        let old = oracle::path::PathPattern::parse(&pattern);
        let new = PathGlob::parse(&pattern);
        prop_assert_eq!(old.is_ok(), new.is_ok(), "refused or not: {}", pattern);
        if let (Ok(old), Ok(new)) = (old, new) {
            for path in &paths {
                prop_assert_eq!(new.matches(path), old.matches(path), "{} on {}", pattern, path);
            }
        }
    }

    /// `--filter` and expectations keys: a pattern without braces means what
    /// the old `*`/`?` matcher meant (SEARCH-9 is a superset of it).
    #[test]
    fn star_patterns_agree_with_the_old_matcher(
        pattern in string(&['*', '?', 'a', 'b', '.', '@', '['], 10),
        text in string(&['a', 'b', '.', '@', '['], 10),
    ) {
        prop_assert_eq!(
            Wildcard::new(&pattern).matches(&text),
            oracle::star::glob_match(&pattern, &text)
        );
    }
}

/// Patterns written by hand to hit each rule of the two syntaxes, each
/// checked against the old matchers on hand-picked texts.
#[test]
fn chosen_patterns_agree_with_the_old_matchers() {
    let patterns = [
        "*.{ts,md}",
        "{a,b}{1,2}",
        "x{,y}",
        "{*.ts,README}",
        "a{b",
        "{a}",
        "{a,{b}}",
        "}{a,b",
        "[ab].ts",
        "[!a-c]1",
        "[a-]x",
        "[-a]x",
        "[a--]",
        "[]a]",
        "[!]a",
        "[!!]",
        "[a-c-e]",
        "[z-a]",
        "[a{b,]}",
        "[{a,b}]",
        "**",
        "**/*.ts",
        "src/**",
        "src/**/a.ts",
        "{*,x}*",
        "{**,a}/b",
        "*/",
        "/",
        "a//b",
        "{src,..}/*",
        "..foo/*",
        "{.,..}",
        "{.}.",
        "*[",
        "[[]",
        "[a/b]",
    ];
    let texts = [
        "",
        "a",
        "b",
        "ab",
        "a.ts",
        "a.md",
        "x",
        "xy",
        "b1",
        "README",
        "a{b",
        "{b}",
        "a}",
        "[ab].ts",
        "d1",
        "b1",
        "-x",
        "ax",
        "]a",
        "!",
        "]",
        "c",
        "src/a.ts",
        "src/x/a.ts",
        "src",
        "lib/a.ts",
        "a/b",
        "a//b",
        "x/y/z",
        "..foo/a",
        "*",
        "[",
        "{",
        "src/p/q/a.ts",
    ];
    for pattern in patterns {
        for text in texts {
            assert_eq!(
                Wildcard::new(pattern).matches(text),
                oracle::include::matches(pattern, text),
                "include {pattern:?} on {text:?}"
            );
        }
        let old = oracle::path::PathPattern::parse(pattern);
        let new = PathGlob::parse(pattern);
        assert_eq!(old.is_ok(), new.is_ok(), "refused: {pattern:?}");
        if let (Ok(old), Ok(new)) = (old, new) {
            for text in texts {
                assert_eq!(
                    new.matches(text),
                    old.matches(text),
                    "path {pattern:?} on {text:?}"
                );
            }
        }
    }
}

/// The inputs that took the old matchers seconds to forever: a run of
/// stars before a character the text lacks (`toolpath list --filter
/// '*****X'` took 6 s, one more star 31 s), a run of `**` segments, and
/// groups whose expansion has 2^40 alternatives. The engine's work is
/// counted (states it produced) and must stay within a small multiple of
/// pattern length × text length.
#[test]
fn pathological_patterns_cost_pattern_times_text() {
    let ids = "search.file.relative@grep".repeat(8);
    let path = format!("{}/file.ts", ["src", "a", "b", "c"].repeat(10).join("/"));
    let stars = format!("{}X", "*".repeat(64));
    let segments = format!("{}X", "**/".repeat(32));
    let braces = "{a,b}".repeat(40);
    let classes = "*[!a-z]".repeat(20);
    for (pattern, text) in [
        (stars.as_str(), ids.as_str()),
        (braces.as_str(), ids.as_str()),
        (classes.as_str(), ids.as_str()),
    ] {
        let glob = Wildcard::new(pattern);
        assert!(!glob.matches(text));
        let work = glob.work(text);
        let bound = 2 * (pattern.chars().count() as u64 + 1) * (text.chars().count() as u64 + 1);
        assert!(work <= bound, "{pattern}: {work} > {bound}");
    }
    for (pattern, text) in [
        (stars.as_str(), path.as_str()),
        (segments.as_str(), path.as_str()),
        (braces.as_str(), path.as_str()),
        (classes.as_str(), path.as_str()),
    ] {
        let glob = PathGlob::parse(pattern).unwrap();
        assert!(!glob.matches(text));
        let work = glob.work(text);
        let bound = 4 * (pattern.chars().count() as u64 + 1) * (text.chars().count() as u64 + 1);
        assert!(work <= bound, "{pattern}: {work} > {bound}");
    }
    // And they still match what they should.
    assert!(Wildcard::new(&stars).matches(&format!("{ids}X")));
    assert!(
        PathGlob::parse(&segments)
            .unwrap()
            .matches(&format!("{path}/X"))
    );
}

#[test]
fn climbing_patterns_are_refused_in_any_alternative() {
    for bad in [
        "/etc/*",
        "../*",
        "src/../../x",
        "{src,..}/*",
        "**/..",
        "{a,/b}",
        "{.,..}",
        "{x,.}./y",
    ] {
        assert!(PathGlob::parse(bad).is_err(), "{bad}");
    }
    for ok in ["..foo/*", "...", "a/.b", "{a,b}/..c", "{/b"] {
        assert!(PathGlob::parse(ok).is_ok(), "{ok}");
    }
}
