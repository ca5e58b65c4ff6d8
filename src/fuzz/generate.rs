//! The generator: proptest strategies for [`Sample`]s, biased to where path
//! handling breaks (see issue 11): `.`/`..`/`//`/trailing `/`, odd names,
//! symbolic links of every kind, special files, nested, prefix-sharing,
//! aliased and same-named roots, targets below roots, `\r\n`, missing final
//! newlines and NUL bytes, brace globs, aliases and wrong types.
//!
//! proptest rather than `arbitrary`: its strategies come with shrinking
//! built in (a value tree per input), which is exactly what a minimal case
//! needs, while `arbitrary` only maps bytes to values and leaves shrinking
//! to a coverage-guided fuzzer we do not want in the loop. proptest's
//! `TestRunner` also takes a seeded RNG, so `--seed` reproduces a run.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

use std::collections::BTreeSet;

use crate::fuzz::pools::*;
use crate::fuzz::sample::*;
use toolpath_suite::case::raw::Feature;
use toolpath_suite::protocol::Tool;

/// What the adapter under test can take: only its tools and the fixture
/// features it has (the cases' own [`Feature`]s) are generated, so every
/// sample can be answered.
#[derive(Debug, Clone)]
pub struct Capabilities {
    pub tools: Vec<Tool>,
    /// [`Feature::Permissions`] only where restrictive modes can be
    /// observed (not as root); [`Feature::Git`] where the harness makes
    /// repositories (always: they are written in-process).
    pub features: BTreeSet<Feature>,
}

impl Capabilities {
    fn has(&self, feature: Feature) -> bool {
        self.features.contains(&feature)
    }
}

fn index(pool: &[&str]) -> impl Strategy<Value = usize> + Clone + use<> {
    0..pool.len()
}

/// An index into a parameter pool: mostly a hand-picked value, one time in
/// five any value, the cases' own among them.
fn drawn(pool: &Pool) -> BoxedStrategy<usize> {
    if pool.count() == pool.hand() {
        return (0..pool.hand()).boxed();
    }
    prop_oneof![4 => 0..pool.hand(), 1 => 0..pool.count()].boxed()
}

/// Mostly the first few names (so paths meet entries, and root base
/// names meet the shell's fall-back), often a hostile one (`..foo`, `-x`,
/// `a\b`, non-ASCII, long), sometimes one that common tools exclude
/// (`node_modules`, `*.log`).
fn name() -> BoxedStrategy<usize> {
    prop_oneof![
        6 => 0..8usize,
        3 => 8..EXCLUDED_NAMES,
        1 => EXCLUDED_NAMES..DRAWN_NAMES,
    ]
    .boxed()
}

/// A file's content: pieces of text, line terminators and NUL bytes, and
/// sometimes a NUL after 8 KiB or more of text, past the first block that
/// many backends inspect for binary content (SEARCH-8), a line of 4 KiB,
/// 2,500 lines (FILE-13), or a line that is not UTF-8.
fn content() -> BoxedStrategy<Vec<usize>> {
    let pieces = || vec(index(PIECES), 0..6);
    let nul = PIECES.iter().position(|p| *p == "\0").expect("a NUL piece");
    prop_oneof![
        8 => pieces(),
        1 => (vec(index(PIECES), 0..3), 1..3usize, pieces()).prop_map(move |(before, pads, after)| {
            let mut all = before;
            all.extend(std::iter::repeat_n(PAD_PIECE, pads));
            all.push(nul);
            all.extend(after);
            all
        }),
        1 => (vec(index(PIECES), 0..3), pieces()).prop_map(|(before, after)| {
            let mut all = before;
            all.push(LONG_LINE_PIECE);
            all.extend(after);
            all
        }),
        1 => (vec(index(PIECES), 0..3), pieces()).prop_map(|(before, after)| {
            let mut all = before;
            all.push(MANY_LINES_PIECE);
            all.extend(after);
            all
        }),
        1 => (vec(index(PIECES), 0..3), pieces()).prop_map(|(before, after)| {
            let mut all = before;
            all.push(LATIN1_PIECE);
            all.extend(after);
            all
        }),
    ]
    .boxed()
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        4 => Just(Layout::Single),
        1 => Just(Layout::Siblings),
        1 => Just(Layout::PrefixSharing),
        1 => Just(Layout::Nested),
        1 => Just(Layout::NestedReversed),
        2 => Just(Layout::Aliased),
        2 => Just(Layout::SameBase),
    ]
}

fn base() -> impl Strategy<Value = Base> {
    prop_oneof![6 => Just(Base::First), 1 => Just(Base::Second), 2 => Just(Base::Outside)]
}

fn link_target() -> impl Strategy<Value = LinkTarget> {
    prop_oneof![
        6 => (0..4usize, vec(name(), 0..3)).prop_map(|(up, names)| LinkTarget::Relative { up, names }),
        1 => index(ABSOLUTE_TARGETS).prop_map(LinkTarget::Absolute),
        4 => (0..8usize).prop_map(LinkTarget::Entry),
    ]
}

fn kind(caps: &Capabilities) -> BoxedStrategy<EntryKind> {
    let file = content().prop_map(EntryKind::File);
    let mut kinds: Vec<(u32, BoxedStrategy<EntryKind>)> =
        vec![(6, file.boxed()), (2, Just(EntryKind::Dir).boxed())];
    if caps.has(Feature::Symlinks) {
        kinds.push((4, link_target().prop_map(EntryKind::Link).boxed()));
    }
    if caps.has(Feature::Fifos) {
        kinds.push((1, Just(EntryKind::Fifo).boxed()));
    }
    if caps.has(Feature::Sockets) {
        kinds.push((1, Just(EntryKind::Socket).boxed()));
    }
    proptest::strategy::Union::new_weighted(kinds).boxed()
}

fn entry(caps: &Capabilities) -> BoxedStrategy<SampleEntry> {
    let locked = if caps.has(Feature::Permissions) {
        proptest::bool::weighted(0.1).boxed()
    } else {
        Just(false).boxed()
    };
    (base(), vec(name(), 0..3), name(), kind(caps), locked)
        .prop_map(|(base, dirs, name, kind, locked)| SampleEntry {
            base,
            dirs,
            name,
            kind,
            locked,
        })
        .boxed()
}

fn seg() -> impl Strategy<Value = Seg> {
    prop_oneof![
        6 => name().prop_map(Seg::Name),
        1 => Just(Seg::Dot),
        2 => Just(Seg::DotDot),
        1 => Just(Seg::Empty),
    ]
}

fn decoration() -> impl Strategy<Value = Decoration> {
    prop_oneof![
        6 => Just(Decoration::None),
        3 => Just(Decoration::Parent),
        1 => Just(Decoration::TrailingSlash),
        1 => Just(Decoration::DotPrefix),
        1 => Just(Decoration::DoubleSlash),
        1 => Just(Decoration::DotSuffix),
        1 => Just(Decoration::UpAndBack),
    ]
}

fn anchor() -> impl Strategy<Value = Anchor> {
    prop_oneof![
        8 => Just(Anchor::Relative),
        1 => Just(Anchor::Tmp),
        1 => Just(Anchor::Ws),
        1 => Just(Anchor::Target),
        1 => Just(Anchor::Slash),
        1 => Just(Anchor::AdapterTmp),
    ]
}

fn path_text() -> impl Strategy<Value = PathText> {
    prop_oneof![
        3 => (0..8usize, proptest::bool::weighted(0.2), decoration())
            .prop_map(|(k, absolute, decoration)| PathText::Entry { k, absolute, decoration }),
        2 => (anchor(), vec(seg(), 0..3), proptest::bool::weighted(0.1))
            .prop_map(|(anchor, segs, trailing_slash)| PathText::Free { anchor, segs, trailing_slash }),
        1 => (0..2usize).prop_map(PathText::RootName),
    ]
}

/// A file tool's path: mostly a fixture entry by its absolute path (a file
/// tool refuses a relative one, FILE-3, so relative paths are a few), and
/// free segments after an anchor.
fn file_path_text() -> impl Strategy<Value = PathText> {
    prop_oneof![
        6 => (0..8usize, proptest::bool::weighted(0.85), decoration())
            .prop_map(|(k, absolute, decoration)| PathText::Entry { k, absolute, decoration }),
        1 => (anchor(), vec(seg(), 0..3), proptest::bool::weighted(0.1))
            .prop_map(|(anchor, segs, trailing_slash)| PathText::Free { anchor, segs, trailing_slash }),
    ]
}

/// `file_path` and its alias `absolute_path` (FILE-1): usually the first
/// alone, sometimes the alias alone or both.
fn file_path_and_alias() -> BoxedStrategy<(Arg<PathText>, Arg<PathText>)> {
    let alias = prop_oneof![14 => Just(Arg::Absent), 2 => param(file_path_text(), 0)];
    (param(file_path_text(), 1), alias)
        .prop_map(|(file_path, alias)| match alias {
            Arg::Given(p) if file_path == Arg::Absent => (Arg::Absent, Arg::Given(p)),
            other => (file_path, other),
        })
        .boxed()
}

/// A parameter that is mostly `given`, sometimes absent, empty or invalid.
fn param<T: std::fmt::Debug + Clone + 'static>(
    given: impl Strategy<Value = T> + 'static,
    absent: u32,
) -> BoxedStrategy<Arg<T>> {
    prop_oneof![
        absent => Just(Arg::Absent),
        24 => given.prop_map(Arg::Given),
        1 => Just(Arg::Empty),
        1 => Just(Arg::Nul),
        1 => (0..4usize).prop_map(Arg::WrongType),
    ]
    .boxed()
}

/// The alias of a path parameter: usually absent, so the main name is
/// exercised, sometimes given alone or together with it.
fn alias() -> BoxedStrategy<Arg<PathText>> {
    prop_oneof![14 => Just(Arg::Absent), 2 => param(path_text(), 0)].boxed()
}

/// A path and its alias, as for the search tools: half the time the alias
/// carries the path alone.
fn path_and_alias() -> BoxedStrategy<(Arg<PathText>, Arg<PathText>)> {
    (param(path_text(), 2), alias())
        .prop_map(|(dir_path, path)| match path {
            Arg::Given(p) if dir_path == Arg::Absent => (Arg::Absent, Arg::Given(p)),
            other => (dir_path, other),
        })
        .boxed()
}

/// A call of `tool`: its path parameters from the strategies above, its
/// other parameters from their pools, each mostly given.
fn call(tool: Tool) -> BoxedStrategy<CallSpec> {
    match tool {
        Tool::ReadFile => file_path_and_alias()
            .prop_map(|(file_path, absolute_path)| CallSpec::ReadFile {
                file_path,
                absolute_path,
            })
            .boxed(),
        Tool::WriteFile => write_file_call(),
        Tool::Edit => edit_call(),
        Tool::Glob => glob_call(),
        Tool::Ls => path_and_alias()
            .prop_map(|(dir_path, path)| CallSpec::Ls { dir_path, path })
            .boxed(),
        Tool::Resolve => param(path_text(), 2)
            .prop_map(|path| CallSpec::Resolve { path })
            .boxed(),
        Tool::Grep => search_call(false),
        Tool::Ripgrep => search_call(true),
        Tool::Shell => shell_call(),
    }
}

/// `write_file`: a file path and a content from the pool, rarely a
/// content that is absent, empty or of the wrong type.
fn write_file_call() -> BoxedStrategy<CallSpec> {
    let content = prop_oneof![
        12 => index(WRITE_CONTENTS).prop_map(Arg::Given),
        1 => param(index(WRITE_CONTENTS), 1),
    ];
    (file_path_and_alias(), content)
        .prop_map(
            |((file_path, absolute_path), content)| CallSpec::WriteFile {
                file_path,
                absolute_path,
                content,
            },
        )
        .boxed()
}

/// `edit`: a file path, an `old_string` weighted toward the first three
/// of its pool, and a `new_string`; each rarely absent, empty or of the
/// wrong type.
fn edit_call() -> BoxedStrategy<CallSpec> {
    let old = prop_oneof![
        12 => prop_oneof![3 => 0..3usize, 2 => index(OLD_STRINGS)].prop_map(Arg::Given),
        1 => param(index(OLD_STRINGS), 1),
    ];
    let new = prop_oneof![
        12 => index(NEW_STRINGS).prop_map(Arg::Given),
        1 => param(index(NEW_STRINGS), 1),
    ];
    (file_path_and_alias(), old, new)
        .prop_map(
            |((file_path, absolute_path), old_string, new_string)| CallSpec::Edit {
                file_path,
                absolute_path,
                old_string,
                new_string,
            },
        )
        .boxed()
}

/// `glob`: a pattern from the pool and a directory by its name or alias.
fn glob_call() -> BoxedStrategy<CallSpec> {
    let pattern = prop_oneof![
        12 => drawn(&GLOB_PATTERNS).prop_map(Arg::Given),
        1 => param(drawn(&GLOB_PATTERNS), 1),
    ];
    (pattern, path_and_alias())
        .prop_map(|(pattern, (dir_path, path))| CallSpec::Glob {
            pattern,
            dir_path,
            path,
        })
        .boxed()
}

/// `grep` or `ripgrep`: a pattern weighted toward the first three of its
/// pool, a path absent more often than the other tools' paths, its alias,
/// and an `include` filter, often absent.
fn search_call(ripgrep: bool) -> BoxedStrategy<CallSpec> {
    let include = prop_oneof![
        3 => Just(Arg::Absent),
        2 => drawn(&INCLUDES).prop_map(Arg::Given),
        1 => param(drawn(&INCLUDES), 0),
    ];
    let pattern = prop_oneof![
        12 => prop_oneof![3 => 0..3usize, 2 => drawn(&PATTERNS)].prop_map(Arg::Given),
        1 => param(drawn(&PATTERNS), 1),
    ];
    (pattern, param(path_text(), 6), alias(), include)
        .prop_map(move |(pattern, dir_path, path, include)| {
            let (dir_path, path) = match path {
                // Half the time the alias carries the path alone.
                Arg::Given(p) if dir_path == Arg::Absent => (Arg::Absent, Arg::Given(p)),
                other => (dir_path, other),
            };
            CallSpec::Search {
                ripgrep,
                pattern,
                dir_path,
                path,
                include,
            }
        })
        .boxed()
}

/// `shell`: `pwd` in a directory named by `dir_path` or its alias.
fn shell_call() -> BoxedStrategy<CallSpec> {
    // Never absent: a case cannot leave `command` out (the harness
    // sends `pwd` then, cases/README.md), so a finding without one
    // would not reproduce as a case.
    let command = prop_oneof![
        20 => Just(Arg::Given(())),
        1 => Just(Arg::Empty),
        1 => Just(Arg::Nul),
        1 => (0..4usize).prop_map(Arg::WrongType),
    ];
    (command, param(path_text(), 2), alias())
        .prop_map(|(command, dir_path, directory)| CallSpec::Shell {
            command,
            dir_path,
            directory,
        })
        .boxed()
}

/// Structure that independent entries rarely make by chance, added to
/// them: the same name one directory deeper (a file target's namesake
/// below its directory), and a link out of the roots and one back in
/// (a chain whose first hop leaves and whose end is inside).
#[derive(Debug, Clone)]
enum Echo {
    None,
    Deeper {
        of: usize,
        dir: usize,
    },
    OutAndBack {
        to: usize,
        out: usize,
        back: usize,
    },
    /// Files `a` and `b` (each `hello`) at the top of each root and in
    /// every directory entry:
    /// the names a wrong pattern matcher takes or leaves (`a?` or `{a}`
    /// over `a`, `[a-c]*` over `b`), which independent entries rarely put
    /// where a glob looks.
    Witnesses,
    /// A chain of links in directory `dir`, each leading to the next and
    /// the last to entry `to`: longer than the 8 links a hand-written
    /// resolver may stop at (the kernel follows 40, RES-7).
    Chain {
        dir: usize,
        len: usize,
        to: usize,
    },
}

fn echo(caps: &Capabilities) -> BoxedStrategy<Echo> {
    let mut echoes: Vec<(u32, BoxedStrategy<Echo>)> = vec![
        (4, Just(Echo::None).boxed()),
        (1, Just(Echo::Witnesses).boxed()),
        (
            1,
            (0..8usize, name())
                .prop_map(|(of, dir)| Echo::Deeper { of, dir })
                .boxed(),
        ),
    ];
    if caps.has(Feature::Symlinks) {
        let chain = (0..8usize, name(), name()).prop_map(|(to, out, back)| Echo::OutAndBack {
            to,
            out,
            back,
        });
        echoes.push((1, chain.boxed()));
        let long =
            (name(), 9..14usize, 0..8usize).prop_map(|(dir, len, to)| Echo::Chain { dir, len, to });
        echoes.push((1, long.boxed()));
    }
    proptest::strategy::Union::new_weighted(echoes).boxed()
}

impl Echo {
    fn apply(self, mut entries: Vec<SampleEntry>) -> Vec<SampleEntry> {
        let n = entries.len();
        match self {
            Echo::None => {}
            Echo::Witnesses => {
                // At the top of both roots and in every directory entry:
                // wherever the call searches, it meets them.
                let mut places = vec![(Base::First, Vec::new()), (Base::Second, Vec::new())];
                for e in entries.iter().filter(|e| e.kind == EntryKind::Dir) {
                    let mut dirs = e.dirs.clone();
                    dirs.push(e.name);
                    places.push((e.base, dirs));
                }
                for (base, dirs) in places {
                    for name in [0, 1] {
                        entries.push(SampleEntry {
                            base,
                            dirs: dirs.clone(),
                            name,
                            kind: EntryKind::File(vec![0, 1]),
                            locked: false,
                        });
                    }
                }
            }
            Echo::Deeper { .. } | Echo::OutAndBack { .. } | Echo::Chain { .. } if n == 0 => {}
            Echo::Deeper { of, dir } => {
                let mut deeper = entries[of % n].clone();
                deeper.dirs.push(dir);
                entries.push(deeper);
            }
            Echo::OutAndBack { to, out, back } => {
                let link = |base, name, to| SampleEntry {
                    base,
                    dirs: Vec::new(),
                    name,
                    kind: EntryKind::Link(LinkTarget::Entry(to)),
                    locked: false,
                };
                entries.push(link(Base::Outside, out, to % n));
                entries.push(link(Base::First, back, n));
            }
            Echo::Chain { dir, len, to } => {
                // Named by the first names of the pool, so that no two
                // links of the chain collide.
                for i in 0..len {
                    let next = if i + 1 == len { to % n } else { n + i + 1 };
                    entries.push(SampleEntry {
                        base: Base::First,
                        dirs: vec![dir],
                        name: i,
                        kind: EntryKind::Link(LinkTarget::Entry(next)),
                        locked: false,
                    });
                }
            }
        }
        entries
    }
}

/// Issue 45's generative dimensions: what a sample becomes once
/// everything else is drawn. Drawn last, from the iteration's own RNG, so
/// a sample with no twist is the very sample the generator made before
/// them: the iterations earlier subjects are first found at keep their
/// inputs unless a twist falls there.
#[derive(Debug, Clone)]
enum Twist {
    None,
    /// A file named `é` stored decomposed (NFD) beside entry `of`: a tool
    /// that composes names (NFC) reports or asks another name.
    Decomposed {
        of: usize,
    },
    /// Entry `of` again under its name in upper case, when the pool has
    /// that form (`a` and `A`): names that differ only in case, which a
    /// tool that folds case takes for one another.
    CaseSibling {
        of: usize,
    },
    /// A file `file` in a directory `dir` below the first root, both of
    /// [`ODD_NAMES`]: a newline, `%20`, a route group, an extended glob
    /// in a name and in a directory path.
    Odd {
        dir: usize,
        file: usize,
    },
    /// The root is a link ([`Sample::linked_root`]).
    LinkedRoot,
}

fn twist(caps: &Capabilities) -> BoxedStrategy<Twist> {
    let odd = || proptest::sample::select(ODD_NAMES);
    let mut twists: Vec<(u32, BoxedStrategy<Twist>)> = vec![
        (12, Just(Twist::None).boxed()),
        (
            1,
            (0..8usize).prop_map(|of| Twist::Decomposed { of }).boxed(),
        ),
        (
            1,
            (0..8usize).prop_map(|of| Twist::CaseSibling { of }).boxed(),
        ),
        (
            1,
            (odd(), prop_oneof![Just(0usize), odd()])
                .prop_map(|(dir, file)| Twist::Odd { dir, file })
                .boxed(),
        ),
    ];
    if caps.has(Feature::Symlinks) {
        twists.push((1, Just(Twist::LinkedRoot).boxed()));
    }
    proptest::strategy::Union::new_weighted(twists).boxed()
}

impl Twist {
    fn apply(self, mut sample: Sample) -> Sample {
        let entries = &mut sample.entries;
        let file = |base, dirs, name| SampleEntry {
            base,
            dirs,
            name,
            kind: EntryKind::File(vec![0, 1]),
            locked: false,
        };
        let n = entries.len();
        match self {
            Twist::None => {}
            Twist::Decomposed { of } => {
                let (base, dirs) = match entries.get(of % n.max(1)) {
                    Some(e) => (e.base, e.dirs.clone()),
                    None => (Base::First, Vec::new()),
                };
                entries.push(file(base, dirs, DECOMPOSED));
            }
            Twist::CaseSibling { .. } if n == 0 => {
                entries.push(file(Base::First, Vec::new(), 0));
                entries.push(file(Base::First, Vec::new(), upper(0).expect("`A`")));
            }
            Twist::CaseSibling { of } => {
                let entry = entries[of % n].clone();
                if let Some(name) = upper(entry.name) {
                    entries.push(SampleEntry { name, ..entry });
                }
            }
            Twist::Odd { dir, file: name } => {
                entries.push(file(Base::First, vec![dir], name));
            }
            Twist::LinkedRoot => sample.linked_root = true,
        }
        sample
    }
}

/// The pool's name that is `name` in upper case, if there is one.
fn upper(name: usize) -> Option<usize> {
    let folded = NAMES[name].to_uppercase();
    (NAMES.iter()).position(|n| *n != NAMES[name] && n.to_uppercase() == folded)
}

/// Samples for an adapter with these capabilities.
pub fn samples(caps: &Capabilities) -> BoxedStrategy<Sample> {
    let calls: Vec<(u32, BoxedStrategy<CallSpec>)> = caps
        .tools
        .iter()
        .map(|&t| (if t == Tool::Shell { 2 } else { 3 }, call(t)))
        .collect();
    assert!(
        !calls.is_empty(),
        "an adapter with no tools cannot be fuzzed"
    );
    let call = proptest::strategy::Union::new_weighted(calls);
    let target = prop_oneof![4 => Just(None), 1 => name().prop_map(Some)];
    let outside = proptest::bool::weighted(0.8);
    // `git init` and a commit cost a few processes: not every sample.
    let git = proptest::bool::weighted(if caps.has(Feature::Git) { 0.1 } else { 0.0 });
    let extra = prop_oneof![
        20 => Just(None),
        1 => (index(UNKNOWN_KEYS), param(path_text(), 0)).prop_map(Some),
    ];
    // A directory of many files, now and then: a tool that stops after 50
    // or 100 results is wrong only past them, and fixtures that large are
    // slow to build and compare, so not every sample has one.
    let bulk = prop_oneof![
        19 => Just(None),
        1 => (name(), BULK_MIN..BULK_MIN * 4).prop_map(Some),
    ];
    let entries = (vec(entry(caps), 0..8), echo(caps), bulk).prop_map(|(e, echo, bulk)| {
        let mut entries = echo.apply(e);
        if let Some((name, count)) = bulk {
            entries.push(SampleEntry {
                base: Base::First,
                dirs: Vec::new(),
                name,
                kind: EntryKind::Bulk(count),
                locked: false,
            });
        }
        entries
    });
    let sample = (layout(), outside, target, entries, git, call, extra).prop_map(
        |(layout, outside, target_below, entries, git, call, extra)| Sample {
            layout,
            outside,
            target_below,
            entries,
            git,
            call,
            linked_root: false,
            extra,
        },
    );
    (sample, twist(caps))
        .prop_map(|(sample, twist)| twist.apply(sample))
        .boxed()
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    use serde_json::Value;

    use super::*;
    use crate::subject::{Reference, Subject};
    use toolpath_suite::case::FixturePath;
    use toolpath_suite::protocol::{Kind, Outcome};

    /// What the reference answered, as a class: the error code, or the
    /// tool and kind with whether there were matches and notes.
    fn class(tool: Tool, r: &toolpath_suite::protocol::ToolResult) -> String {
        match (&r.outcome, &r.error) {
            (_, Some(e)) => e.code.name().to_owned(),
            (Some(Outcome::Ok), None) => format!(
                "{tool} {} matches:{} notes:{}",
                r.kind.map_or("-", Kind::name),
                r.matches.as_ref().is_some_and(|m| !m.is_empty()),
                r.notes.as_ref().is_some_and(|n| !n.is_empty()),
            ),
            _ => "other".into(),
        }
    }

    /// Every tool and kind of entry; modes off, since tests may run as root,
    /// which ignores them.
    fn every_kind_but_modes(git: bool) -> Capabilities {
        let mut features = BTreeSet::from([Feature::Symlinks, Feature::Fifos, Feature::Sockets]);
        if git {
            features.insert(Feature::Git);
        }
        Capabilities {
            tools: Tool::ALL
                .into_iter()
                .filter(|t| !t.is_file_tool())
                .collect(),
            features,
        }
    }

    /// The generator reaches every answer the spec defines that this
    /// machine can observe, so a clean run means something.
    #[test]
    fn samples_reach_every_kind_of_answer() {
        let strategy = samples(&every_kind_but_modes(false));
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
        );
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut reference = Reference::default();
        let ram = crate::fuzz::probe::ram_dir();
        // Six tools share the samples.
        for _ in 0..3000 {
            let sample = strategy.new_tree(&mut runner).unwrap().current();
            let r = sample.render(false);
            let built = crate::case::fixture::build(&r.fixture, ram.as_deref()).unwrap();
            let Value::Object(params) = built.vars.expand_json(&Value::Object(r.params)) else {
                unreachable!()
            };
            let call = toolpath_suite::protocol::Call {
                seq: 1,
                case: "t".into(),
                workspace: built.workspace.clone(),
                tool: r.tool,
                params,
            };
            let answer = reference.call(&call).unwrap();
            *seen.entry(class(r.tool, &answer)).or_default() += 1;
        }
        let wanted = [
            "invalid_params",
            "outside_workspace",
            "not_found",
            "not_a_directory",
            "unsupported_file_type",
            "ambiguous_name",
            "resolve file matches:false notes:false",
            "resolve directory matches:false notes:false",
            "grep file matches:true notes:false",
            "grep file matches:true notes:true",
            "grep directory matches:true notes:false",
            "grep all-workspaces matches:true notes:false",
            "ripgrep file matches:true notes:true",
            "shell - matches:false notes:false",
            "glob file matches:false notes:false",
            "glob directory matches:false notes:false",
            "glob all-workspaces matches:false notes:false",
            "ls file matches:false notes:false",
            "ls directory matches:false notes:false",
            "ls all-workspaces matches:false notes:false",
        ];
        let missing: Vec<_> = wanted.iter().filter(|w| !seen.contains_key(**w)).collect();
        assert!(missing.is_empty(), "never reached: {missing:?}\n{seen:#?}");
    }

    /// The inputs beyond path text that implementations get wrong (issue
    /// 11) are all generated, each often enough to be met in a short run.
    #[test]
    fn samples_reach_the_inputs_tools_get_wrong() {
        let strategy = samples(&every_kind_but_modes(true));
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for i in 0..2000 {
            let mut runner =
                TestRunner::new_with_rng(Config::default(), crate::fuzz::run::rng(1, i));
            let r = strategy
                .new_tree(&mut runner)
                .unwrap()
                .current()
                .render(false);
            let f = &r.fixture;
            let all: Vec<&str> = (f.files.iter().map(|(p, _)| p.as_str()))
                .chain(f.dirs.iter().map(|d| d.as_str()))
                .collect();
            let paths_of = |_| all.iter().copied();
            let excluded = &NAMES[EXCLUDED_NAMES..DRAWN_NAMES];
            let paths = f.files.iter().map(|(p, _)| p).chain(&f.dirs);
            let links: BTreeSet<&str> = f.symlinks.iter().map(|(p, _)| p.as_str()).collect();
            let late_nul = |t: &[u8]| t.iter().position(|b| *b == 0).is_some_and(|at| at >= 8192);
            let known = crate::reference::keys(r.tool);
            let text = serde_json::to_string(&r.params).unwrap();
            for (what, hit) in [
                ("git repository", !f.git.is_empty()),
                (
                    "excluded name",
                    paths
                        .into_iter()
                        .any(|p| p.as_str().split('/').any(|s| excluded.contains(&s))),
                ),
                ("NUL past 8 KiB", f.files.iter().any(|(_, t)| late_nul(t))),
                ("{adapter-tmp}", text.contains("{adapter-tmp}")),
                (
                    "unknown key",
                    r.params.keys().any(|k| !known.contains(&k.as_str())),
                ),
                (
                    "link to a link",
                    f.symlinks.iter().any(|(p, to)| {
                        let dir = p.as_str().rsplit_once('/').map_or("", |(d, _)| d);
                        links.contains(
                            crate::reference::resolve::lexical_resolve(&format!("/{dir}"), to)
                                .trim_start_matches('/'),
                        )
                    }),
                ),
                (
                    "name with `:`",
                    f.files.iter().any(|(p, _)| p.as_str().contains(':')),
                ),
                (
                    "glob pattern beginning with `!`",
                    r.tool == Tool::Glob
                        && (r.params.get("pattern"))
                            .and_then(Value::as_str)
                            .is_some_and(|p| p.starts_with('!')),
                ),
                (
                    "more than 50 files in a directory",
                    f.dirs.iter().any(|d| {
                        let below = |(p, _): &&(FixturePath, Vec<u8>)| {
                            p.as_str()
                                .rsplit_once('/')
                                .is_some_and(|(dir, _)| dir == d.as_str())
                        };
                        f.files.iter().filter(below).count() > 50
                    }),
                ),
                (
                    "a line of 4 KiB",
                    f.files
                        .iter()
                        .any(|(_, t)| t.split(|b| *b == b'\n').any(|l| l.len() >= 4096)),
                ),
                (
                    "more than 2,000 lines",
                    f.files
                        .iter()
                        .any(|(_, t)| t.iter().filter(|b| **b == b'\n').count() > 2000),
                ),
                (
                    "a file that is not UTF-8",
                    f.files.iter().any(|(_, t)| std::str::from_utf8(t).is_err()),
                ),
                ("more than 8 links", f.symlinks.len() > 8),
                (
                    "`a?` or `{a}` over a file named `a`",
                    ["a?", "{a}"].iter().any(|g| {
                        let key = if r.tool == Tool::Glob {
                            "pattern"
                        } else {
                            "include"
                        };
                        r.params.get(key).and_then(Value::as_str) == Some(g)
                    }) && f
                        .files
                        .iter()
                        .any(|(p, _)| p.as_str().rsplit('/').next() == Some("a")),
                ),
                (
                    "`h.llo` or `h..llo` over a two-byte `héllo`",
                    ["h.llo", "h..llo"]
                        .map(Some)
                        .contains(&r.params.get("pattern").and_then(Value::as_str))
                        && f.files.iter().any(|(_, t)| {
                            t.windows("héllo".len()).any(|w| w == "héllo".as_bytes())
                        }),
                ),
                (
                    "a name stored decomposed",
                    paths_of(f).any(|p| p.contains("e\u{301}")),
                ),
                (
                    "names that differ only in case",
                    paths_of(f).any(|p| {
                        paths_of(f).any(|q| q != p && q.to_lowercase() == p.to_lowercase())
                    }),
                ),
                ("a newline in a name", paths_of(f).any(|p| p.contains('\n'))),
                (
                    "a route group or extended glob as a directory",
                    f.files.iter().any(|(p, _)| {
                        let dirs = p.as_str().rsplit_once('/').map_or("", |(d, _)| d);
                        dirs.contains('(')
                    }),
                ),
                ("`%20` in a name", paths_of(f).any(|p| p.contains("%20"))),
                (
                    "a root that is a link",
                    f.symlinks.iter().any(|(p, _)| f.roots.contains(p)) && f.roots.len() == 1,
                ),
                (
                    "a glob class range over `b`",
                    r.tool == Tool::Glob
                        && r.params.get("pattern").and_then(Value::as_str) == Some("[a-c]*")
                        && f.files
                            .iter()
                            .any(|(p, _)| p.as_str().rsplit('/').next() == Some("b")),
                ),
            ] {
                if hit {
                    *seen.entry(what).or_default() += 1;
                }
            }
        }
        for what in [
            "git repository",
            "excluded name",
            "NUL past 8 KiB",
            "{adapter-tmp}",
            "unknown key",
            "link to a link",
            "name with `:`",
            "glob pattern beginning with `!`",
            "more than 50 files in a directory",
            "a line of 4 KiB",
            "more than 2,000 lines",
            "a file that is not UTF-8",
            "more than 8 links",
            "a name stored decomposed",
            "names that differ only in case",
            "a route group or extended glob as a directory",
            "a root that is a link",
        ] {
            assert!(seen.get(what).is_some_and(|n| *n >= 20), "{what}: {seen:?}");
        }
        // One odd name of eleven each, in a directory or as the file.
        for what in ["a newline in a name", "`%20` in a name"] {
            assert!(seen.get(what).is_some_and(|n| *n >= 5), "{what}: {seen:?}");
        }
        eprintln!("{seen:?}");
        for what in [
            "`a?` or `{a}` over a file named `a`",
            "`h.llo` or `h..llo` over a two-byte `héllo`",
            "a glob class range over `b`",
        ] {
            assert!(seen.get(what).is_some_and(|n| *n >= 2), "{what}: {seen:?}");
        }
    }
}
