//! The shape of a case's path: the form it is sent in (absolute or
//! relative) and the root it lies in.
//!
//! A containment rule is only closed when it is pinned for every tool, in
//! both forms and in a first and a second root: implementations have
//! checked relative paths and not absolute ones, and the first root on
//! real paths but the second one lexically. `toolpath lint` counts the
//! shapes that pin each rule (the spec's `Shapes:` lines say which a rule
//! needs). A matrix case knows its shape; a written case's is read off its
//! call ([`Shape::of_call`]).

use serde_json::{Map, Value};

use crate::case::Fixture;

/// How a path parameter is written.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Deserialize,
    serde::Serialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// `{target}/PATH`: begins with `/` once placeholders are expanded.
    Absolute,
    /// `PATH`, resolved against the target directory (RES-2).
    Relative,
}

impl Form {
    pub const BOTH: [Form; 2] = [Form::Absolute, Form::Relative];

    /// The word matrix instance ids use (`abs`, `rel`).
    pub fn short(self) -> &'static str {
        match self {
            Form::Absolute => "abs",
            Form::Relative => "rel",
        }
    }

    /// The word the spec's `Shapes:` lines and lint use.
    pub fn name(self) -> &'static str {
        match self {
            Form::Absolute => "absolute",
            Form::Relative => "relative",
        }
    }
}

/// Where a root stands in the workspace's order: the first root, or one
/// after it (an implementation that checks the first root right and the
/// others wrong fails only there).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize, serde::Serialize,
)]
pub enum RootPlace {
    First,
    Later,
}

impl RootPlace {
    pub const BOTH: [RootPlace; 2] = [RootPlace::First, RootPlace::Later];

    pub fn of_index(index: usize) -> RootPlace {
        if index == 0 {
            RootPlace::First
        } else {
            RootPlace::Later
        }
    }

    /// The word the spec's `Shapes:` lines and lint use.
    pub fn name(self) -> &'static str {
        match self {
            RootPlace::First => "first root",
            RootPlace::Later => "second root",
        }
    }
}

/// The shape of one case's path; `None` where it has none (no path
/// given, a `describe` case, a path outside every root written from
/// `{tmp}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Shape {
    pub form: Option<Form>,
    pub root: Option<RootPlace>,
}

impl Shape {
    /// Reads the shape off a written call: the first path parameter (under
    /// any tool's name for one, [`crate::params::all_path_names`]) that is
    /// a non-empty string. An absolute path lies in the root whose
    /// placeholder begins it (`{ws2}/x`; `{target}/x` in the target's);
    /// a relative one in the target's root.
    pub fn of_call(fixture: &Fixture, params: &Map<String, Value>) -> Shape {
        let Some(path) = crate::params::all_path_names()
            .iter()
            .filter_map(|k| params.get(*k)?.as_str())
            .find(|p| !p.is_empty())
        else {
            return Shape::default();
        };
        let target_root = || {
            fixture
                .roots
                .iter()
                .position(|r| fixture.target.is_within(r))
                .map(RootPlace::of_index)
        };
        if !(path.starts_with('/') || path.starts_with('{')) {
            return Shape {
                form: Some(Form::Relative),
                root: target_root(),
            };
        }
        let begins = |name: &str| {
            let head = format!("{{{name}}}");
            path.strip_prefix(&head)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        let root = if begins("target") {
            target_root()
        } else {
            fixture
                .roots
                .iter()
                .position(|r| begins(r.as_str()))
                .map(RootPlace::of_index)
        };
        Shape {
            form: Some(Form::Absolute),
            root,
        }
    }
}
