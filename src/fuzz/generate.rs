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

use crate::fuzz::sample::*;
use crate::protocol::Tool;

/// What the adapter under test can take: only its tools and fixture
/// features are generated, so every sample can be answered.
#[derive(Debug, Clone)]
pub struct Capabilities {
    pub tools: Vec<Tool>,
    pub symlinks: bool,
    pub fifos: bool,
    pub sockets: bool,
    /// Restrictive modes; false as root, which ignores them.
    pub permissions: bool,
}

fn index(pool: &[&str]) -> impl Strategy<Value = usize> + Clone + use<> {
    0..pool.len()
}

/// Mostly the first few names (so paths meet entries), sometimes any.
fn name() -> BoxedStrategy<usize> {
    prop_oneof![3 => 0..5usize, 1 => index(NAMES)].boxed()
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        4 => Just(Layout::Single),
        1 => Just(Layout::Siblings),
        1 => Just(Layout::PrefixSharing),
        1 => Just(Layout::Nested),
        1 => Just(Layout::NestedReversed),
        1 => Just(Layout::Aliased),
        1 => Just(Layout::SameBase),
    ]
}

fn base() -> impl Strategy<Value = Base> {
    prop_oneof![6 => Just(Base::First), 1 => Just(Base::Second), 2 => Just(Base::Outside)]
}

fn link_target() -> impl Strategy<Value = LinkTarget> {
    prop_oneof![
        6 => (0..4usize, vec(name(), 0..3)).prop_map(|(up, names)| LinkTarget::Relative { up, names }),
        1 => index(ABSOLUTE_TARGETS).prop_map(LinkTarget::Absolute),
    ]
}

fn kind(caps: &Capabilities) -> BoxedStrategy<EntryKind> {
    let file = vec(index(PIECES), 0..6).prop_map(EntryKind::File);
    let mut kinds: Vec<(u32, BoxedStrategy<EntryKind>)> =
        vec![(6, file.boxed()), (2, Just(EntryKind::Dir).boxed())];
    if caps.symlinks {
        kinds.push((4, link_target().prop_map(EntryKind::Link).boxed()));
    }
    if caps.fifos {
        kinds.push((1, Just(EntryKind::Fifo).boxed()));
    }
    if caps.sockets {
        kinds.push((1, Just(EntryKind::Socket).boxed()));
    }
    proptest::strategy::Union::new_weighted(kinds).boxed()
}

fn entry(caps: &Capabilities) -> BoxedStrategy<Entry> {
    let locked = if caps.permissions {
        proptest::bool::weighted(0.1).boxed()
    } else {
        Just(false).boxed()
    };
    (base(), vec(name(), 0..3), name(), kind(caps), locked)
        .prop_map(|(base, dirs, name, kind, locked)| Entry {
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
    ]
}

fn path_text() -> impl Strategy<Value = PathText> {
    prop_oneof![
        3 => (0..8usize, proptest::bool::weighted(0.2), decoration())
            .prop_map(|(k, absolute, decoration)| PathText::Entry { k, absolute, decoration }),
        2 => (anchor(), vec(seg(), 0..4), proptest::bool::weighted(0.1))
            .prop_map(|(anchor, segs, trailing_slash)| PathText::Free { anchor, segs, trailing_slash }),
    ]
}

/// A parameter that is mostly `given`, sometimes absent, empty or invalid.
fn param<T: std::fmt::Debug + Clone + 'static>(
    given: impl Strategy<Value = T> + 'static,
    absent: u32,
) -> BoxedStrategy<Param<T>> {
    prop_oneof![
        absent => Just(Param::Absent),
        12 => given.prop_map(Param::Given),
        1 => Just(Param::Empty),
        1 => Just(Param::Nul),
        1 => (0..4usize).prop_map(Param::WrongType),
    ]
    .boxed()
}

/// The alias of a path parameter: usually absent, so the main name is
/// exercised, sometimes given alone or together with it.
fn alias() -> BoxedStrategy<Param<PathText>> {
    prop_oneof![12 => Just(Param::Absent), 3 => param(path_text(), 0)].boxed()
}

fn call(tool: Tool) -> BoxedStrategy<CallSpec> {
    match tool {
        Tool::Resolve => param(path_text(), 2)
            .prop_map(|path| CallSpec::Resolve { path })
            .boxed(),
        Tool::Grep | Tool::Ripgrep => {
            let include = prop_oneof![
                3 => Just(Param::Absent),
                2 => index(INCLUDES).prop_map(Param::Given),
                1 => param(index(INCLUDES), 0),
            ];
            let pattern = prop_oneof![
                12 => prop_oneof![3 => 0..3usize, 2 => index(PATTERNS)].prop_map(Param::Given),
                1 => param(index(PATTERNS), 1),
            ];
            (pattern, param(path_text(), 2), alias(), include)
                .prop_map(move |(pattern, dir_path, path, include)| {
                    let (dir_path, path) = match path {
                        // Half the time the alias carries the path alone.
                        Param::Given(p) if dir_path == Param::Absent => {
                            (Param::Absent, Param::Given(p))
                        }
                        other => (dir_path, other),
                    };
                    CallSpec::Search {
                        ripgrep: tool == Tool::Ripgrep,
                        pattern,
                        dir_path,
                        path,
                        include,
                    }
                })
                .boxed()
        }
        Tool::Shell => {
            let command = prop_oneof![
                20 => Just(Param::Given(())),
                1 => Just(Param::Absent),
                1 => Just(Param::Empty),
                1 => Just(Param::Nul),
                1 => (0..4usize).prop_map(Param::WrongType),
            ];
            (command, param(path_text(), 2), alias())
                .prop_map(|(command, dir_path, directory)| CallSpec::Shell {
                    command,
                    dir_path,
                    directory,
                })
                .boxed()
        }
    }
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
    (layout(), outside, target, vec(entry(caps), 0..8), call)
        .prop_map(|(layout, outside, target_below, entries, call)| Sample {
            layout,
            outside,
            target_below,
            entries,
            call,
        })
        .boxed()
}
