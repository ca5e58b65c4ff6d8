//! What one instance expects on its built fixture: the case's expectation
//! with its placeholders expanded to this fixture's paths, plus what the
//! spec implies for every case of the tool, derived here so that no case can
//! forget to ask for it:
//!
//! - SHELL-6: a successful shell call runs `pwd`, whose output names the
//!   directory the command really ran in: the expected `cwd` (the lexical
//!   path, as `pwd` prints it with `PWD` set) or the same directory by its
//!   real path (as `pwd -P` prints it). Anything else ran elsewhere. Or it
//!   runs `ls`, whose output is the names in that directory (read from the
//!   fixture before the call): a tool that only fakes `pwd`'s answer, or
//!   ran in another directory of the same name, lists other names.
//! - SEARCH-10: each expected match's text is that line of the file as the
//!   fixture wrote it, without its `\n` (a `\r` stays).
//! - OUT-5: the text shown to the model names the resolved path that was
//!   used: the searched `path`, or the shell's `cwd`.
//! - FILE-5: a successful `read_file` answers the file's bytes as the
//!   fixture wrote them (`content`, notes `[]`), or, for a binary file (a
//!   NUL anywhere, or not UTF-8), no content and the note `binary`.
//! - FILE-11: what a `write_file` or `edit` writes is the case's `writes`,
//!   as the fixture snapshot will be compared with it.
//!
//! The worker derives it before the call is sent: the links it resolves
//! (for SHELL-6's real path, and to find which fixture file a match path
//! names) are read from the fixture as built, never from a disk the
//! subject may have changed since (see [`crate::harness::worker`]).

use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::Path;

use crate::harness::snapshot::ExpectedWrite;
use toolpath_suite::case::raw::ExpectedOutcome;
use toolpath_suite::case::{ErrorExpect, Expect, ExpectedMatch, Fixture, FixturePath};
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::{EntryType, Kind, Tool};

use toolpath_suite::protocol::notes::BINARY;

/// What a successful `read_file` must answer as `content` (FILE-5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExpectedContent {
    /// The file's text, exactly.
    Text(String),
    /// A binary file: no content at all.
    Binary,
}

/// What a shell command the harness runs prints in the directory it must
/// run in (SHELL-6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExpectedOutput {
    /// `pwd`: one of these directories, without the final `\n`.
    Directory(Vec<String>),
    /// `ls`: exactly these names, one a line, in any order (no name that
    /// begins with `.`, as `ls` leaves them out).
    Listing(Vec<String>),
}

/// A match the instance expects: file and line, and the line's text when the
/// fixture defines that file (a match through a path the fixture does not
/// describe has no text to hold the answer to).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ExpectedLine {
    pub path: String,
    pub line: u64,
    pub text: Option<String>,
}

/// The expectation of one instance, in machine paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    pub outcome: ExpectedOutcome,
    pub kind: Option<Kind>,
    pub path: Option<String>,
    pub parent: Option<String>,
    pub cwd: Option<String>,
    /// SHELL-6: what the command prints where it must run.
    pub output: Option<ExpectedOutput>,
    pub matches: Option<Vec<ExpectedLine>>,
    pub notes: Option<Vec<String>>,
    /// `glob`'s files (GLOB-8).
    pub files: Option<Vec<String>>,
    /// `ls`'s entries: path and type (LS-5).
    pub entries: Option<Vec<(String, EntryType)>>,
    pub error: Option<ErrorExpect>,
    /// OUT-5: substrings the model-facing text must contain.
    pub model_text_contains: Vec<String>,
    /// FILE-5: what a successful `read_file` answers as `content`.
    pub content: Option<ExpectedContent>,
    /// FILE-11: the writes the fixture must show after the call, and
    /// nothing else.
    pub writes: Vec<ExpectedWrite>,
}

/// Stored files larger than this are not read back to find a match's text:
/// no case needs one, and a hostile fixture must not make judging slow.
/// (A case file is at most 256 KiB, so this only ever guards a change of
/// that limit. Generated files are bounded by lint instead, at 8 MiB: their
/// matches keep their text check whatever their size.)
const MAX_TEXT_SOURCE: usize = 1 << 20;

impl Expected {
    /// Expands `expect` with `vars` and derives the implied fields. `root` is
    /// the built fixture directory (`{tmp}`); it is only read to resolve the
    /// fixture's own links, never beyond it, and only before the call.
    pub fn derive(
        expect: &Expect,
        fixture: &Fixture,
        tool: Tool,
        command: Option<&str>,
        vars: &Placeholders,
        root: &Path,
    ) -> Expected {
        let expand = |field: &Option<String>| field.as_deref().map(|f| vars.expand_path(f));
        let path = expand(&expect.path);
        let cwd = expand(&expect.cwd);
        let ok = expect.outcome == ExpectedOutcome::Ok;
        let output = (cwd.as_deref())
            .filter(|_| tool == Tool::Shell && ok)
            .and_then(|cwd| shell_output(cwd, command, root));
        let texts = FixtureText {
            fixture,
            root,
            index: OnceCell::new(),
            made: vec![OnceCell::new(); fixture.generated.len()],
            lines_by_path: RefCell::default(),
        };
        let content = (path.as_deref())
            .filter(|_| tool == Tool::ReadFile && ok)
            .and_then(|path| read_content(&texts, path));
        let model_text_contains = named_to_the_model(tool, ok, &path, &cwd);
        let expand_all = |paths: &[String]| paths.iter().map(|p| vars.expand_path(p)).collect();
        Expected {
            outcome: expect.outcome,
            kind: expect.kind,
            path,
            parent: expand(&expect.parent),
            cwd,
            output,
            matches: (expect.matches.as_deref()).map(|m| matches_with_text(m, vars, &texts)),
            notes: read_notes(expect.notes.as_ref(), content.as_ref()),
            content,
            writes: writes(&expect.writes),
            files: expect.files.as_deref().map(expand_all),
            entries: expect.entries.as_ref().map(|entries| {
                (entries.iter())
                    .map(|(p, t)| (vars.expand_path(p), *t))
                    .collect()
            }),
            error: expect.error.as_ref().map(|e| ErrorExpect {
                code: e.code,
                message_contains: expand_all(&e.message_contains),
            }),
            model_text_contains,
        }
    }
}

/// SHELL-6: what a successful shell command run in `cwd` prints there:
/// `ls` the names in it (read now, before the call), anything else
/// (`pwd`) the directory.
fn shell_output(cwd: &str, command: Option<&str>, root: &Path) -> Option<ExpectedOutput> {
    match command {
        Some("ls") => listing(cwd, root).map(ExpectedOutput::Listing),
        _ => Some(ExpectedOutput::Directory(ran_in(cwd))),
    }
}

/// OUT-5: what the text shown to the model must name, for a successful
/// call: the resolved path and the shell's `cwd`. `resolve` is the
/// resolver alone: no model ever reads it.
fn named_to_the_model(
    tool: Tool,
    ok: bool,
    path: &Option<String>,
    cwd: &Option<String>,
) -> Vec<String> {
    if ok && tool != Tool::Resolve {
        path.iter().chain(cwd).cloned().collect()
    } else {
        Vec::new()
    }
}

/// FILE-5: what a successful read of `path` answers, from the case's own
/// bytes for the file the path reaches, read before the call; `None` for
/// a path that reaches no file of the case.
fn read_content(texts: &FixtureText, path: &str) -> Option<ExpectedContent> {
    texts.bytes(path).map(|bytes| match text_of(bytes) {
        Some(text) => ExpectedContent::Text(text.to_owned()),
        None => ExpectedContent::Binary,
    })
}

/// The notes expected: the case's when it names them, else, for a read
/// whose content is known (FILE-5), `binary` for a binary file and none
/// for a text; else not looked at.
fn read_notes(
    notes: Option<&Vec<String>>,
    content: Option<&ExpectedContent>,
) -> Option<Vec<String>> {
    match (notes, content) {
        (Some(notes), _) => Some(notes.clone()),
        (None, Some(ExpectedContent::Binary)) => Some(vec![BINARY.to_owned()]),
        (None, Some(ExpectedContent::Text(_))) => Some(Vec::new()),
        (None, None) => None,
    }
}

/// SEARCH-10: each expected match in machine paths, with its line's text
/// as the fixture wrote it (when the fixture describes the file).
fn matches_with_text(
    matches: &[ExpectedMatch],
    vars: &Placeholders,
    texts: &FixtureText,
) -> Vec<ExpectedLine> {
    (matches.iter())
        .map(|m| {
            let path = vars.expand_path(&m.path);
            let text = texts.line(&path, m.line);
            ExpectedLine {
                path,
                line: m.line,
                text,
            }
        })
        .collect()
}

/// FILE-11: the case's writes, as the fixture's snapshot names paths.
fn writes(writes: &[(FixturePath, Vec<u8>)]) -> Vec<ExpectedWrite> {
    (writes.iter())
        .map(|(path, content)| ExpectedWrite {
            path: path.as_str().as_bytes().to_vec(),
            content: content.clone(),
        })
        .collect()
}

/// The directory `pwd` may print for a command run in `cwd`: its lexical
/// path, or its real path when that differs.
fn ran_in(cwd: &str) -> Vec<String> {
    let mut any = vec![cwd.to_owned()];
    if let Ok(real) = std::fs::canonicalize(cwd) {
        let real = real.to_string_lossy().into_owned();
        if real != cwd {
            any.push(real);
        }
    }
    any
}

/// The names `ls` prints in `cwd`, read now, before the call: every name
/// but those beginning with `.`, sorted as `LC_ALL=C` sorts them. Only a
/// directory inside the fixture is read (a case cannot have the harness
/// list the machine's directories); elsewhere there is nothing to expect.
fn listing(cwd: &str, root: &Path) -> Option<Vec<String>> {
    let real = std::fs::canonicalize(cwd).ok()?;
    if !real.starts_with(std::fs::canonicalize(root).ok()?) {
        return None;
    }
    let mut names: Vec<String> = std::fs::read_dir(&real)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    Some(names)
}

/// Reads expected line texts from the fixture's own description of its
/// files, after letting the file system resolve the fixture's links.
struct FixtureText<'a> {
    fixture: &'a Fixture,
    root: &'a Path,
    /// Which of the fixture's files each path names, indexed on first
    /// need: a search over a 5,001-file walk asks for every one of them,
    /// and a scan of the list per match made deriving it quadratic.
    index: OnceCell<HashMap<&'a FixturePath, Source>>,
    /// Each generated file's content, made on first need and at most once
    /// however many matches it has (`fixture.generated`'s order).
    made: Vec<OnceCell<Vec<u8>>>,
    /// Which file each match path reaches and where each of its lines is,
    /// found once per path: a file with thousands of matching lines is
    /// asked for each of them, and resolving its path and counting lines
    /// from its start for every one made deriving them quadratic (a fuzzed
    /// sample took 95 s). `None`: a path that reaches no text of the case.
    lines_by_path: RefCell<HashMap<String, Option<FileLines>>>,
}

/// The file a match path reaches, and where each of its lines is in its
/// bytes (as [`lines`] cuts them).
struct FileLines {
    source: Source,
    ranges: Vec<Range<usize>>,
}

/// Where a fixture file's bytes come from: the case's written files or its
/// generated ones, by position.
#[derive(Clone, Copy)]
enum Source {
    Written(usize),
    Generated(usize),
}

impl<'a> FixtureText<'a> {
    /// Each path's file, written files first: a path both written and
    /// generated (lint refuses it) would read as written, as it is built.
    fn index(&self) -> &HashMap<&'a FixturePath, Source> {
        self.index.get_or_init(|| {
            let mut index = HashMap::new();
            for (i, (path, _)) in self.fixture.files.iter().enumerate() {
                index.entry(path).or_insert(Source::Written(i));
            }
            for (i, (path, _)) in self.fixture.generated.iter().enumerate() {
                index.entry(path).or_insert(Source::Generated(i));
            }
            index
        })
    }

    /// Which fixture file `path` reaches. The real path says which; the
    /// content comes from the case, not from the disk an adapter could
    /// have written to.
    fn source(&self, path: &str) -> Option<Source> {
        let real = std::fs::canonicalize(path).ok()?;
        let relative = real.strip_prefix(self.root).ok()?.to_str()?;
        let wanted = FixturePath::parse(relative).ok()?;
        self.index().get(&wanted).copied()
    }

    /// The bytes the case wrote for `source`.
    fn content(&self, source: Source) -> Option<&[u8]> {
        match source {
            Source::Written(i) => {
                let bytes = &self.fixture.files[i].1;
                (bytes.len() <= MAX_TEXT_SOURCE).then_some(bytes.as_slice())
            }
            // Generated content is made here as the builder made it (lint
            // bounds it at 8 MiB a file), once however often it is asked for.
            Source::Generated(i) => {
                Some(self.made[i].get_or_init(|| self.fixture.generated[i].1.bytes()))
            }
        }
    }

    /// The bytes the case wrote for the fixture file `path` reaches.
    fn bytes(&self, path: &str) -> Option<&[u8]> {
        self.content(self.source(path)?)
    }

    fn line(&self, path: &str, line: u64) -> Option<String> {
        let index = usize::try_from(line).ok()?.checked_sub(1)?;
        let mut by_path = self.lines_by_path.borrow_mut();
        let found = by_path.entry(path.to_owned()).or_insert_with(|| {
            let source = self.source(path)?;
            let bytes = self.content(source)?;
            let ranges = lines(bytes)
                .map(|l| {
                    let start = l.as_ptr() as usize - bytes.as_ptr() as usize;
                    start..start + l.len()
                })
                .collect();
            Some(FileLines { source, ranges })
        });
        let file = found.as_ref()?;
        let range = file.ranges.get(index)?.clone();
        Some(String::from_utf8_lossy(&self.content(file.source)?[range]).into_owned())
    }
}

/// A file's text (FILE-5): valid UTF-8 with no NUL byte anywhere; `None`
/// for a binary file. Stated here apart from the reference, so the harness
/// does not take the implementation's word for what is binary.
pub fn text_of(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes)
        .ok()
        .filter(|t| !t.contains('\0'))
}

/// SEARCH-10's lines: split on `\n` alone; a final `\n` ends the last line
/// rather than starting an empty one.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let empty = bytes.is_empty();
    body.split(|&b| b == b'\n').filter(move |_| !empty)
}

/// Where each expected match's text is: for judging, by (path, line).
pub fn texts_by_line(matches: &[ExpectedLine]) -> BTreeMap<(&str, u64), &str> {
    matches
        .iter()
        .filter_map(|m| Some(((m.path.as_str(), m.line), m.text.as_deref()?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolpath_suite::case::ExpectedMatch;

    #[test]
    fn lines_follow_search_10() {
        let split = |b: &[u8]| lines(b).map(|l| l.to_vec()).collect::<Vec<_>>();
        assert_eq!(split(b"a\r\nb\n"), [b"a\r".to_vec(), b"b".to_vec()]);
        assert_eq!(
            split(b"a\n\nc"),
            [b"a".to_vec(), b"".to_vec(), b"c".to_vec()]
        );
        assert!(split(b"").is_empty());
        assert_eq!(split(b"\n"), [b"".to_vec()]);
    }

    fn fixture_with_a_link() -> (tempfile::TempDir, Fixture, Placeholders) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("ws/real")).unwrap();
        std::fs::write(root.join("ws/real/a.ts"), "one\r\ntwo\n").unwrap();
        std::os::unix::fs::symlink("real", root.join("ws/via")).unwrap();
        let fixture = Fixture {
            files: vec![(
                FixturePath::parse("ws/real/a.ts").unwrap(),
                b"one\r\ntwo\n".to_vec(),
            )],
            ..Fixture::default()
        };
        let ws = root.join("ws").to_string_lossy().into_owned();
        let vars = Placeholders::new(&root.to_string_lossy(), &ws, &[("ws".into(), ws.clone())]);
        (dir, fixture, vars)
    }

    fn expect_matches(matches: &[(&str, u64)]) -> Expect {
        Expect {
            outcome: ExpectedOutcome::Ok,
            files: None,
            entries: None,
            kind: None,
            path: Some("{ws}".into()),
            parent: None,
            cwd: None,
            matches: Some(
                matches
                    .iter()
                    .map(|(p, l)| ExpectedMatch {
                        path: (*p).into(),
                        line: *l,
                    })
                    .collect(),
            ),
            notes: None,
            error: None,
            mentions: None,
            excludes: None,
            writes: vec![],
        }
    }

    #[test]
    fn match_text_comes_from_the_fixture_through_its_links() {
        let (dir, fixture, vars) = fixture_with_a_link();
        let root = dir.path().canonicalize().unwrap();
        let expect = expect_matches(&[
            ("{ws}/real/a.ts", 1),
            ("{ws}/via/a.ts", 2),
            ("{ws}/nowhere.ts", 1),
            ("{ws}/real/a.ts", 9),
        ]);
        let e = Expected::derive(&expect, &fixture, Tool::Grep, None, &vars, &root);
        let texts: Vec<_> = e.matches.unwrap().into_iter().map(|m| m.text).collect();
        assert_eq!(
            texts,
            [Some("one\r".into()), Some("two".into()), None, None]
        );
        assert_eq!(e.model_text_contains, [vars.expand("{ws}")]);
        assert_eq!(e.output, None, "only the shell has output");
    }

    #[test]
    fn match_text_comes_from_generated_content_past_the_first_mib() {
        let (dir, mut fixture, vars) = fixture_with_a_link();
        let root = dir.path().canonicalize().unwrap();
        fixture.generated.push((
            FixturePath::parse("ws/real/big.txt").unwrap(),
            toolpath_suite::case::Generated {
                size: (2 << 20) + 4,
                fill: b"ab\n".to_vec(),
                at: vec![(2 << 20, b"end\n".to_vec())],
            },
        ));
        std::fs::write(root.join("ws/real/big.txt"), "not read").unwrap();
        // 2 MiB of "ab\n" is 699050 lines and two bytes ("ab"), which the
        // run at 2 MiB continues: line 699051 is "abend".
        let expect = expect_matches(&[
            ("{ws}/real/big.txt", 1),
            ("{ws}/via/big.txt", 699051),
            ("{ws}/real/big.txt", 699052),
        ]);
        let e = Expected::derive(&expect, &fixture, Tool::Grep, None, &vars, &root);
        let texts: Vec<_> = e.matches.unwrap().into_iter().map(|m| m.text).collect();
        assert_eq!(texts, [Some("ab".into()), Some("abend".into()), None]);
    }

    #[test]
    fn a_read_expects_the_bytes_the_case_wrote_through_its_links() {
        let (dir, mut fixture, vars) = fixture_with_a_link();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("ws/real/b.bin"), b"x\0y").unwrap();
        fixture.files.push((
            FixturePath::parse("ws/real/b.bin").unwrap(),
            b"x\0y".to_vec(),
        ));
        let mut expect = expect_matches(&[]);
        expect.matches = None;
        let read = |path: &str, expect: &mut Expect| {
            expect.path = Some(path.into());
            Expected::derive(expect, &fixture, Tool::ReadFile, None, &vars, &root)
        };
        let e = read("{ws}/via/a.ts", &mut expect);
        assert_eq!(
            e.content,
            Some(ExpectedContent::Text("one\r\ntwo\n".into()))
        );
        assert_eq!(e.notes, Some(vec![]));
        assert_eq!(e.model_text_contains, [vars.expand("{ws}/via/a.ts")]);
        let e = read("{ws}/real/b.bin", &mut expect);
        assert_eq!(e.content, Some(ExpectedContent::Binary));
        assert_eq!(e.notes, Some(vec![BINARY.to_owned()]));
        // Another tool, or an error, expects no content.
        expect.path = Some("{ws}/real/a.ts".into());
        let e = Expected::derive(&expect, &fixture, Tool::Grep, None, &vars, &root);
        assert_eq!(e.content, None);
        assert_eq!(text_of(b"caf\xe9"), None);
    }

    #[test]
    fn a_shell_expects_pwd_to_name_the_lexical_or_the_real_directory() {
        let (dir, fixture, vars) = fixture_with_a_link();
        let root = dir.path().canonicalize().unwrap();
        let mut expect = expect_matches(&[]);
        expect.matches = None;
        expect.path = None;
        expect.cwd = Some("{ws}/via".into());
        let e = Expected::derive(&expect, &fixture, Tool::Shell, None, &vars, &root);
        assert_eq!(
            e.output.unwrap(),
            ExpectedOutput::Directory(vec![vars.expand("{ws}/via"), vars.expand("{ws}/real")])
        );
        // `ls` lists the directory's names as the fixture made them, dot
        // names left out, read before the call.
        let e = Expected::derive(&expect, &fixture, Tool::Shell, Some("ls"), &vars, &root);
        let names = std::fs::read_dir(root.join("ws/real"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with('.'))
            .collect::<std::collections::BTreeSet<_>>();
        assert!(!names.is_empty());
        assert_eq!(
            e.output.unwrap(),
            ExpectedOutput::Listing(names.into_iter().collect())
        );
        // Nothing is read outside the fixture directory.
        expect.cwd = Some("/etc".into());
        let e = Expected::derive(&expect, &fixture, Tool::Shell, Some("ls"), &vars, &root);
        assert_eq!(e.output, None);
        expect.cwd = Some("{ws}/via".into());
        expect.outcome = ExpectedOutcome::Error;
        expect.cwd = None;
        let e = Expected::derive(&expect, &fixture, Tool::Shell, None, &vars, &root);
        assert_eq!(e.output, None);
        assert!(e.model_text_contains.is_empty());
    }

    /// OUT-5 names the path and the shell's `cwd` to the model, except for
    /// `resolve` (no model reads it); a read's notes are the case's when it
    /// names them; an error and the writes keep the case's values, in
    /// machine paths.
    #[test]
    fn what_the_spec_implies_follows_the_tool_and_what_the_case_names() {
        let (dir, fixture, vars) = fixture_with_a_link();
        let root = dir.path().canonicalize().unwrap();
        let mut expect = expect_matches(&[]);
        expect.matches = None;
        expect.path = Some("{ws}/real/a.ts".into());
        let derive =
            |expect: &Expect, tool| Expected::derive(expect, &fixture, tool, None, &vars, &root);
        assert!(
            derive(&expect, Tool::Resolve)
                .model_text_contains
                .is_empty()
        );
        expect.cwd = Some("{ws}/via".into());
        assert_eq!(
            derive(&expect, Tool::Shell).model_text_contains,
            [vars.expand("{ws}/real/a.ts"), vars.expand("{ws}/via")]
        );
        expect.cwd = None;
        expect.notes = Some(vec!["truncated".into()]);
        let read = derive(&expect, Tool::ReadFile);
        assert_eq!(read.notes, Some(vec!["truncated".to_owned()]));
        assert!(read.content.is_some());
        expect.notes = None;
        let path = FixturePath::parse("ws/new.txt").unwrap();
        expect.writes = vec![(path, b"new".to_vec())];
        let written = derive(&expect, Tool::WriteFile);
        assert_eq!(
            written.writes,
            [ExpectedWrite {
                path: b"ws/new.txt".to_vec(),
                content: b"new".to_vec()
            }]
        );
        expect.outcome = ExpectedOutcome::Error;
        expect.error = Some(ErrorExpect {
            code: toolpath_suite::protocol::ErrorCode::NotFound,
            message_contains: vec!["{ws}/real".into()],
        });
        let failed = derive(&expect, Tool::ReadFile);
        assert_eq!(
            failed.error.unwrap().message_contains,
            [vars.expand("{ws}/real")]
        );
        assert_eq!((failed.content, failed.notes), (None, None));
        assert!(failed.model_text_contains.is_empty());
    }
}
