//! One step simpler: the candidates shrinking tries after proptest's own
//! pass. proptest shrinks each part of a sample on its own, but a path
//! parameter that names a fixture entry by index changes meaning when an
//! entry before it goes; so the paths are first pinned as text, then
//! entries are dropped, parameters made absent and contents emptied one at
//! a time.

use serde_json::Value;

use crate::fuzz::pools::UNKNOWN_KEYS;
use crate::fuzz::sample::{Arg, CallSpec, EntryKind, Layout, PathText, Sample};

impl Sample {
    /// The same sample with every path parameter fixed as text, so entries
    /// can be removed without changing what the call names.
    pub fn pin(&self, permissions: bool) -> Sample {
        let rendered = self.render(permissions);
        let text = |name: &str, p: &Arg<PathText>| match (p, rendered.params.get(name)) {
            (Arg::Given(_), Some(Value::String(s))) => Arg::Given(PathText::Literal(s.clone())),
            (other, _) => other.clone(),
        };
        let mut call = self.call.clone();
        for (name, slot) in call.paths_mut() {
            *slot = text(name, slot);
        }
        let extra = self
            .extra
            .as_ref()
            .map(|(key, value)| (*key, text(UNKNOWN_KEYS[*key], value)));
        Sample {
            call,
            extra,
            ..self.pin_links()
        }
    }

    /// The simplest sample of the same tool: one root, nothing in it, every
    /// optional parameter absent, the first pattern of its pool. Shrinking
    /// tries it first: a bug every call shows (a crash on anything) is
    /// then minimal after one probe instead of a whole walk.
    pub fn simplest(&self) -> Sample {
        let call = match &self.call {
            CallSpec::Resolve { .. } => CallSpec::Resolve { path: Arg::Absent },
            CallSpec::Search { ripgrep, .. } => CallSpec::Search {
                ripgrep: *ripgrep,
                pattern: Arg::Given(0),
                dir_path: Arg::Absent,
                path: Arg::Absent,
                include: Arg::Absent,
            },
            CallSpec::Shell { .. } => CallSpec::Shell {
                command: Arg::Given(()),
                dir_path: Arg::Absent,
                directory: Arg::Absent,
            },
            CallSpec::Glob { .. } => CallSpec::Glob {
                pattern: Arg::Given(0),
                dir_path: Arg::Absent,
                path: Arg::Absent,
            },
            CallSpec::Ls { .. } => CallSpec::Ls {
                dir_path: Arg::Absent,
                path: Arg::Absent,
            },
            // A file tool's path is required (FILE-2): the simplest call
            // is the one refused for it.
            CallSpec::ReadFile { .. } => CallSpec::ReadFile {
                file_path: Arg::Absent,
                absolute_path: Arg::Absent,
            },
            CallSpec::WriteFile { .. } => CallSpec::WriteFile {
                file_path: Arg::Absent,
                absolute_path: Arg::Absent,
                content: Arg::Given(0),
            },
            CallSpec::Edit { .. } => CallSpec::Edit {
                file_path: Arg::Absent,
                absolute_path: Arg::Absent,
                old_string: Arg::Given(0),
                new_string: Arg::Given(0),
            },
        };
        Sample {
            layout: Layout::Single,
            outside: false,
            target_below: None,
            entries: Vec::new(),
            git: false,
            call,
            linked_root: false,
            extra: None,
        }
    }

    /// Samples one step simpler than this (pinned) one: an entry fewer,
    /// one parameter absent, a simpler layout, empty content, a simpler
    /// pattern. Shrinking tries them greedily after proptest's own pass.
    pub fn simpler(&self) -> Vec<Sample> {
        let mut out = Vec::new();
        let with = |f: &dyn Fn(&mut Sample)| {
            let mut s = self.clone();
            f(&mut s);
            s
        };
        for j in 0..self.entries.len() {
            out.push(with(&|s| {
                s.entries.remove(j);
            }));
        }
        if self.outside {
            out.push(with(&|s| s.outside = false));
        }
        if self.layout != Layout::Single {
            out.push(with(&|s| {
                s.layout = Layout::Single;
                s.linked_root = false;
            }));
        }
        if self.linked_root {
            out.push(with(&|s| s.linked_root = false));
        }
        if self.target_below.is_some() {
            out.push(with(&|s| s.target_below = None));
        }
        if self.git {
            out.push(with(&|s| s.git = false));
        }
        if self.extra.is_some() {
            out.push(with(&|s| s.extra = None));
        }
        for j in 0..self.entries.len() {
            match &self.entries[j].kind {
                EntryKind::File(p) if !p.is_empty() => {
                    out.push(with(&|s| s.entries[j].kind = EntryKind::File(Vec::new())));
                    out.push(with(&|s| s.entries[j].kind = EntryKind::File(vec![0])));
                    // One piece fewer: keeps what matters (a NUL past the
                    // padding, the line that matches) and drops the rest.
                    for k in 0..p.len() {
                        let mut fewer = p.clone();
                        fewer.remove(k);
                        out.push(with(&|s| {
                            s.entries[j].kind = EntryKind::File(fewer.clone())
                        }));
                    }
                }
                _ => {}
            }
            if self.entries[j].locked {
                out.push(with(&|s| s.entries[j].locked = false));
            }
        }
        out.extend(self.call.simpler().into_iter().map(|call| Sample {
            call,
            ..self.clone()
        }));
        // A step that changes nothing (`[0]` made `[0]`) would count as a
        // success forever.
        out.retain(|s| s != self);
        out
    }
}

impl CallSpec {
    /// Each optional parameter's slot, type-erased to "absent or not":
    /// the path parameters ([`CallSpec::paths_mut`]), and a search's
    /// `include`.
    fn slots(&mut self) -> Vec<&mut dyn Clearable> {
        match self {
            CallSpec::Search {
                dir_path,
                path,
                include,
                ..
            } => vec![dir_path, path, include],
            other => (other.paths_mut().into_iter())
                .map(|(_, arg)| arg as &mut dyn Clearable)
                .collect(),
        }
    }

    fn simpler(&self) -> Vec<CallSpec> {
        let mut out = Vec::new();
        let slots = self.clone().slots().len();
        for i in 0..slots {
            let mut c = self.clone();
            if c.slots()[i].clear() {
                out.push(c);
            }
        }
        let mut c = self.clone();
        let changed = match &mut c {
            CallSpec::Search { pattern, .. } => {
                std::mem::replace(pattern, Arg::Given(0)) != Arg::Given(0)
            }
            CallSpec::Shell { command, .. } => {
                std::mem::replace(command, Arg::Given(())) != Arg::Given(())
            }
            CallSpec::Glob { pattern, .. } => {
                std::mem::replace(pattern, Arg::Given(0)) != Arg::Given(0)
            }
            CallSpec::WriteFile { content, .. } => {
                std::mem::replace(content, Arg::Given(0)) != Arg::Given(0)
            }
            CallSpec::Edit { new_string, .. } => {
                std::mem::replace(new_string, Arg::Given(0)) != Arg::Given(0)
            }
            CallSpec::Resolve { .. } | CallSpec::Ls { .. } | CallSpec::ReadFile { .. } => false,
        };
        if changed {
            out.push(c);
        }
        out
    }
}

/// A parameter that can be made absent.
trait Clearable {
    /// Makes it absent; false if it already was.
    fn clear(&mut self) -> bool;
}

impl<T> Clearable for Arg<T> {
    fn clear(&mut self) -> bool {
        !matches!(std::mem::replace(self, Arg::Absent), Arg::Absent)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    use super::*;
    use crate::fuzz::generate::{Capabilities, samples};
    use crate::fuzz::sample::{Base, SampleEntry};
    use toolpath_suite::protocol::Tool;

    /// Pinning changes how a sample names its paths, never what it names:
    /// for every tool, the pinned sample renders the call and the fixture
    /// the sample did, each path parameter (an alias or an unknown key
    /// too) fixed at its own text.
    #[test]
    fn a_pinned_sample_renders_the_same_call() {
        let every_tool = Capabilities {
            tools: Tool::ALL.to_vec(),
            features: BTreeSet::new(),
        };
        let strategy = samples(&every_tool);
        let seed = TestRng::from_seed(RngAlgorithm::ChaCha, &[11; 32]);
        let mut runner = TestRunner::new_with_rng(Config::default(), seed);
        let mut tools = BTreeSet::new();
        for _ in 0..600 {
            let sample = strategy.new_tree(&mut runner).unwrap().current();
            let (before, after) = (sample.render(false), sample.pin(false).render(false));
            assert_eq!(before.tool, after.tool);
            assert_eq!(before.params, after.params, "{sample:#?}");
            assert_eq!(before.fixture, after.fixture, "{sample:#?}");
            tools.insert(before.tool);
        }
        assert_eq!(tools.len(), Tool::ALL.len(), "{tools:?}");
    }

    /// A step that changes nothing would be taken forever: shrinking spent
    /// its whole probe budget (2000 probes, seconds per finding) on a file
    /// whose content was already the one piece `[0]`.
    #[test]
    fn no_simpler_step_is_the_sample_itself() {
        let sample = Sample {
            layout: Layout::Single,
            outside: false,
            target_below: None,
            entries: vec![SampleEntry {
                base: Base::First,
                dirs: Vec::new(),
                name: 0,
                kind: EntryKind::File(vec![0]),
                locked: false,
            }],
            git: false,
            call: CallSpec::Resolve { path: Arg::Absent },
            linked_root: false,
            extra: None,
        };
        let steps = sample.simpler();
        assert!(!steps.is_empty());
        assert!(steps.iter().all(|s| *s != sample), "{steps:#?}");
    }
}
