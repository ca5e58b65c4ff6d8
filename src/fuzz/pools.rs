//! The fixed pools a [`Sample`](crate::fuzz::sample::Sample) indexes
//! into: names, content pieces, search patterns, `include` globs, unknown
//! keys, `glob` patterns and absolute link targets.
//!
//! A sample holds indices, never text, so that shrinking is moving an
//! index toward 0: each pool lists its simplest value first, and a minimal
//! case says `a` or `hello` unless the value itself matters. The pools
//! are the fuzzer's vocabulary; which of them a sample uses, and how, is
//! [`generate`](crate::fuzz::generate)'s.
//!
//! The parameter pools ([`PATTERNS`], [`INCLUDES`], [`GLOB_PATTERNS`]) are
//! a hand-picked list followed by every value the embedded cases give the
//! same parameter: the generator meets each syntax the cases pin (issue
//! 32) from the cases themselves, with no second list to keep in step.

use std::sync::LazyLock;

use serde_json::Value;
use toolpath_suite::case::{Action, Case};
use toolpath_suite::placeholders::RESERVED;
use toolpath_suite::protocol::Tool;

use crate::case::embedded::load_embedded;

/// Values of one parameter: the hand-picked ones first (simplest first, so
/// shrinking ends at them, and drawn most often), then those only the
/// cases use.
pub struct Pool {
    values: Vec<String>,
    hand: usize,
}

impl Pool {
    /// `hand`, then each value of `key` in an embedded case calling one of
    /// `tools` that `hand` lacks, in suite order. A value naming one of its
    /// case's placeholders (`{ws}/a`) is left out: it means a path only in
    /// that case's fixture.
    fn from_cases(hand: &[&str], tools: &[Tool], key: &str) -> Pool {
        // Decoded once for the three pools.
        static CASES: LazyLock<Vec<Case>> = LazyLock::new(|| load_embedded().0);
        let mut values: Vec<String> = hand.iter().map(|v| (*v).to_owned()).collect();
        for case in CASES
            .iter()
            .filter(|c| c.tools.iter().any(|t| tools.contains(t)))
        {
            let Action::Invoke(params) = &case.action else {
                continue;
            };
            let Some(Value::String(value)) = params.get(key) else {
                continue;
            };
            let names_a_place = RESERVED
                .iter()
                .copied()
                .chain(case.fixture.roots.iter().map(|r| r.as_str()))
                .any(|name| value.contains(&format!("{{{name}}}")));
            if !names_a_place && !values.contains(value) {
                values.push(value.clone());
            }
        }
        Pool {
            hand: hand.len(),
            values,
        }
    }

    pub fn count(&self) -> usize {
        self.values.len()
    }

    /// How many of the values were picked by hand: the first ones.
    pub fn hand(&self) -> usize {
        self.hand
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.values.iter().map(String::as_str)
    }
}

impl std::ops::Index<usize> for Pool {
    type Output = str;
    fn index(&self, i: usize) -> &str {
        &self.values[i]
    }
}

/// Search patterns (SEARCH-7).
pub static PATTERNS: LazyLock<Pool> =
    LazyLock::new(|| Pool::from_cases(HAND_PATTERNS, &[Tool::Grep, Tool::Ripgrep], "pattern"));

/// `include` globs (SEARCH-9).
pub static INCLUDES: LazyLock<Pool> =
    LazyLock::new(|| Pool::from_cases(HAND_INCLUDES, &[Tool::Grep, Tool::Ripgrep], "include"));

/// `glob` patterns (GLOB-5, GLOB-6).
pub static GLOB_PATTERNS: LazyLock<Pool> =
    LazyLock::new(|| Pool::from_cases(HAND_GLOB_PATTERNS, &[Tool::Glob], "pattern"));

/// A name that is as long as a path component usually gets in practice.
const LONG: &str = "a-rather-long-file-name-that-goes-on-and-on-and-on-to-test-buffers-and-truncation-in-path-handling.ts";

/// Names, simplest first: shrinking moves an index toward 0, so a minimal
/// case says `a` unless the name itself matters. Root base names are in the
/// pool so the shell's root-name fall-back (SHELL-5) is exercised.
pub const NAMES: &[&str] = &[
    "a",
    "b",
    "src",
    "a.ts",
    "b.md",
    "ws",
    "other",
    "sub",
    "outside",
    "..foo",
    " ",
    "a\\b",
    "-x",
    ".hidden",
    "é",
    "日本.ts",
    "a b",
    "ws-evil",
    "*",
    "{a,b}",
    LONG,
    // Characters that mean something to some layer between the model and
    // the file system: a drive or URL scheme (`:`), negation in globs and
    // ignore files (`!`), a comment or URL fragment (`#`), the home
    // directory (`~`), a shell variable (`$x`), a shell quote (`'`), a
    // percent-encoded `.` (`%2e`).
    "a:b",
    "!a",
    "#a",
    "~",
    "$x",
    "a'b",
    "%2e",
    // Names common tools skip on their own (SEARCH-4 forbids it).
    "node_modules",
    "build",
    "dist",
    "target",
    "vendor",
    "a.log",
    // Past DRAWN_NAMES: names only the generator's twists put in a
    // fixture (issue 45), so the draws of every other name are as they
    // were. A name stored decomposed (NFD `é`, `e` and U+0301); the
    // upper-case forms of `a`, `a.ts` and `src`, for names that differ
    // only in case; characters a layer between the model and the disk
    // reads: a newline, a space written `%20`, a route group `(...)`, an
    // extended glob `@(...)` and its negation `!(...)`.
    "e\u{301}",
    "A",
    "A.ts",
    "SRC",
    "a\nb",
    "a%20b",
    "(dashboard)",
    "@(a|b)",
    "!(a)",
];

/// How many of [`NAMES`] the generator draws for any entry or segment;
/// the rest are the twists' ([`DECOMPOSED`], [`ODD_NAMES`], case siblings).
pub const DRAWN_NAMES: usize = 34;

/// The decomposed `é` of [`NAMES`].
pub const DECOMPOSED: usize = DRAWN_NAMES;

/// The names the odd-character twist puts in directory paths and names:
/// the drawn ones a layer reads (a space, a backslash, `~`, braces, `!`)
/// and the twists' own (a newline, `%20`, `(...)`, `@(...)`, `!(...)`).
pub const ODD_NAMES: &[usize] = &[10, 11, 16, 19, 22, 24, 38, 39, 40, 41, 42];

/// Where the names that common tools exclude begin in [`NAMES`]; the
/// generator picks from them on purpose, as they are rare by chance.
pub const EXCLUDED_NAMES: usize = 28;

/// File content is a sequence of these pieces: line terminators, NUL bytes
/// at any offset and text around them.
pub const PIECES: &[&str] = &[
    "hello",
    "\n",
    "world",
    "\r\n",
    "\0",
    "x",
    "hello world",
    "\r",
    // Case differs from the patterns: a backend that ignores case (git grep
    // with `-i`, a smart-case default) matches it.
    "Hello",
    "HELLO world",
    // A two-byte character: `h.llo` takes it only when a pattern matches
    // characters, `h..llo` only when it matches bytes (SEARCH-7).
    "héllo",
];

/// A piece past [`PIECES`]: 8 KiB of ordinary lines, so that a NUL after
/// it lies past the first block, where backends that look only at the
/// start of a file stop looking (SEARCH-8).
pub const PAD_PIECE: usize = PIECES.len();

/// A piece past the padding: one line of 4 KiB that ends in `hello`, for
/// tools that cut long lines (the text of a match is the whole line,
/// SEARCH-10) or read lines into a fixed buffer.
pub const LONG_LINE_PIECE: usize = PAD_PIECE + 1;

/// A piece past the long line: 2,500 short lines (37 KiB), more than the
/// 2,000 lines some read tools stop at, silently (FILE-13: a file of
/// 64 KiB or less is answered whole).
pub const MANY_LINES_PIECE: usize = LONG_LINE_PIECE + 1;

/// A piece past the many lines: a line that is not UTF-8 (a Latin-1 `é`),
/// which a search must still search (SEARCH-10 matches bytes) and a read
/// answers as binary (FILE-5); a tool that decodes lines drops it.
pub const LATIN1_PIECE: usize = MANY_LINES_PIECE + 1;

/// The bytes of piece `i`: one of [`PIECES`], the padding, the long line,
/// the many lines or the Latin-1 line.
pub fn piece(i: usize) -> &'static [u8] {
    match i {
        LATIN1_PIECE => b"caf\xe9 hello\n",
        _ => text_piece(i).as_bytes(),
    }
}

fn text_piece(i: usize) -> &'static str {
    static PAD: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| "filler line of ordinary text\n".repeat(8192 / 29 + 1));
    static LONG_LINE: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| format!("{}hello\n", "-".repeat(4096)));
    static MANY_LINES: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| "a line of text\n".repeat(2500));
    match i {
        PAD_PIECE => PAD.as_str(),
        LONG_LINE_PIECE => LONG_LINE.as_str(),
        MANY_LINES_PIECE => MANY_LINES.as_str(),
        _ => PIECES.get(i).copied().unwrap_or(PAD.as_str()),
    }
}

/// Patterns from the portable subset (SEARCH-7), plus an empty one and one
/// that does not compile.
const HAND_PATTERNS: &[&str] = &[
    "hello",
    "o",
    "^hello$",
    "h.llo",
    // Two pattern characters that only two bytes of one character match:
    // over a line holding `héllo` (and nothing else `h.llo` would take,
    // as `hello` beside it), a matcher that reads bytes (SEARCH-7, issue
    // 32) reports a match and one that reads characters none.
    "h..llo",
    "l+",
    "[a-h]ello",
    "[^x]llo",
    "wor|hel",
    "(he)llo",
    "lo$",
    "^$",
    "x{2}",
    "l{1,2}",
    "\\.",
    "é",
    "^",
    "",
    "(",
];

/// `include` globs (SEARCH-9), braces included.
const HAND_INCLUDES: &[&str] = &[
    "*",
    "*.ts",
    "a*",
    "*.{ts,md}",
    "{a,b}",
    "?",
    "a.ts",
    "{*.ts,b.md}",
    "{",
    "}",
    "a,b",
    "",
    // Syntax a matcher gets wrong (issue 32): case (`*.TS` takes no
    // `a.ts`), `?` as exactly one character (`a?` takes no `a`), a group
    // of one alternative (`{a}` takes `a`).
    "*.TS",
    "a?",
    "{a}",
];

/// `write_file`'s `content` (FILE-8, FILE-14): simplest first, then what
/// a tool may rewrite on the way: line endings, no final newline,
/// characters outside the Basic Multilingual Plane, an escape written as
/// two characters, trailing spaces.
pub const WRITE_CONTENTS: &[&str] = &[
    "hello\n",
    "",
    "a\r\nb\r\n",
    "no final newline",
    "é 日本 😀\n",
    "a\\tb\n",
    "trailing  \n",
];

/// `edit`'s `old_string` (FILE-10, FILE-15): text the content pieces hold
/// once or more, across a line end of either kind, in another case, and
/// an empty one (`invalid_params`).
pub const OLD_STRINGS: &[&str] = &[
    "hello",
    "world",
    "o",
    "hello\nworld",
    "hello\r\nworld",
    "hello world",
    "Hello",
    " hello",
    "",
];

/// `edit`'s `new_string` (FILE-10, FILE-14): replacements a tool may
/// rewrite on the way.
pub const NEW_STRINGS: &[&str] = &["bye", "", "a\r\nb", "😀", "a\\tb", "hello\n"];

/// Keys the generator adds as unknown: misspellings and other tools'
/// parameters. One a tool does take is not added (see
/// [`CallSpec::render`](crate::fuzz::sample::CallSpec::render)).
pub const UNKNOWN_KEYS: &[&str] = &[
    "dir",
    "dirpath",
    "file_path",
    "cwd",
    "directory",
    "path",
    "dir_path",
    "include",
    "pattern",
    "command",
    "content",
    "old_string",
];

/// `glob` patterns (GLOB-5): the portable subset over the names above, an
/// empty one, and ones that climb out (GLOB-6).
const HAND_GLOB_PATTERNS: &[&str] = &[
    "**",
    "*",
    "*.ts",
    "**/*.ts",
    "*/*",
    "src/**",
    "{a,src}/*",
    "[ab]*",
    "[!a]*",
    "?",
    "a.ts",
    "**/a",
    "",
    "../*",
    "/*",
    // `!` is an ordinary character (GLOB-5), not a negation.
    "!a*",
    "!*",
    // As in `include`, plus a class with a range (`[a-c]*` takes `b`).
    "*.TS",
    "a?",
    "{a}",
    "[a-c]*",
];

/// Link targets that are absolute: outside every root, whatever the machine.
/// Written from `{tmp}` (the fixture directory, as an absolute path), since
/// a link may not lead outside the fixture directory (cases/README.md): the
/// top of the fixture plays `/`, a missing and a present-looking name there
/// play `/nonexistent` and `/etc`.
pub const ABSOLUTE_TARGETS: &[&str] = &["{tmp}", "{tmp}/nonexistent-toolpath-fuzz", "{tmp}/etc"];

#[cfg(test)]
mod tests {
    use super::*;

    /// The twists' names come after the drawn ones, and say what they are.
    #[test]
    fn the_twists_names_follow_the_drawn_ones() {
        assert_eq!(NAMES[DRAWN_NAMES - 1], "a.log");
        assert_eq!(NAMES[DECOMPOSED], "e\u{301}");
        assert_ne!(NAMES[DECOMPOSED], "\u{e9}");
        let odd: Vec<&str> = ODD_NAMES.iter().map(|&i| NAMES[i]).collect();
        assert_eq!(
            odd,
            [
                " ",
                "a\\b",
                "a b",
                "{a,b}",
                "!a",
                "~",
                "a\nb",
                "a%20b",
                "(dashboard)",
                "@(a|b)",
                "!(a)"
            ]
        );
    }

    /// Each pool is its hand-picked values, then the cases' own: syntax
    /// only a case uses (a one-alternative group in a name, a range
    /// class, a `?` before an extension, a NUL) reaches the fuzzer, and
    /// nothing that names one case's fixture does.
    #[test]
    fn the_pools_take_what_the_cases_give_their_parameter() {
        for (pool, hand, from_cases) in [
            (&*INCLUDES, HAND_INCLUDES, ["{a}.ts", "a?.ts", "*.ts\0"]),
            (
                &*GLOB_PATTERNS,
                HAND_GLOB_PATTERNS,
                ["[a-c].ts", "[!a-b].ts", "./src/*.ts"],
            ),
            (&*PATTERNS, HAND_PATTERNS, ["^.{4}$", "--files", "hel\0lo"]),
        ] {
            let values: Vec<&str> = pool.iter().collect();
            assert_eq!(&values[..pool.hand()], hand);
            for value in from_cases {
                assert!(values.contains(&value), "{value:?} is not in {values:?}");
            }
            let mut unique = values.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), values.len(), "a value twice: {values:?}");
            assert!(
                !values
                    .iter()
                    .any(|v| v.contains("{ws}") || v.contains("{tmp}")),
                "{values:?}"
            );
        }
    }
}
