//! The `{name}` placeholders of cases (`{tmp}`, `{target}`, `{adapter-tmp}`
//! and one per root, named by its fixture path) and their values on one
//! built fixture.
//!
//! Expansion is how a case's portable text becomes machine paths; it is the
//! only direction judging uses. Collapsing machine paths back into
//! placeholders is for display alone: it loses information (a literal
//! `{ws}` in an answer collapses to the same text as the real path), so no
//! verdict is ever taken on collapsed text.

/// The placeholder names the harness itself defines; a root may not be
/// named like one of them, or `{tmp}` would mean two directories.
pub const RESERVED: &[&str] = &["tmp", "target", "adapter-tmp", RUN_DIR];

/// The run's own directory, shown in reports and never expanded (see
/// [`Placeholders::add_shown`]).
pub const RUN_DIR: &str = "run-dir";

/// The `{name}` placeholders of one built fixture and their values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placeholders {
    pairs: Vec<(String, String)>,
    /// Collapsed for display, never expanded.
    shown: Vec<(String, String)>,
}

impl Placeholders {
    pub fn new(tmp: &str, target: &str, roots: &[(String, String)]) -> Placeholders {
        let mut pairs = vec![
            ("{tmp}".to_owned(), tmp.to_owned()),
            ("{target}".to_owned(), target.to_owned()),
        ];
        pairs.extend(
            roots
                .iter()
                .map(|(name, path)| (format!("{{{name}}}"), path.clone())),
        );
        Placeholders {
            pairs,
            shown: Vec::new(),
        }
    }

    /// Adds a placeholder, for example the adapter's `{adapter-tmp}`.
    pub fn add(&mut self, name: &str, value: &str) {
        self.pairs.push((format!("{{{name}}}"), value.to_owned()));
    }

    /// Adds a value that [`collapse`](Self::collapse) shows as `{name}` but
    /// [`expand`](Self::expand) never produces: a place of the harness's
    /// own, such as the run directory, which no case may name, and whose
    /// random name must not make two reports of one run differ (a tool
    /// that took an absolute path for a relative one creates its
    /// directories below the target).
    pub fn add_shown(&mut self, name: &str, value: &str) {
        self.shown.push((format!("{{{name}}}"), value.to_owned()));
    }

    /// Replaces every known placeholder; other braces (`*.{ts,md}`) stay.
    pub fn expand(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (name, value) in &self.pairs {
            if out.contains(name.as_str()) {
                out = out.replace(name.as_str(), value);
            }
        }
        out
    }

    /// Expands a path a case expects (a `path`, a match's file, a needle
    /// naming a path) and reads it lexically, as RES-3 does: a case may
    /// write `{target}/../ws-evil` for the directory beside whichever root
    /// is the target (a matrix cell's), which no single placeholder names.
    /// A text with no `.` or `..` segment and no `//` is left as expanded.
    // The harness's own few lines rather than the reference's resolver:
    // what a case expects never depends on the implementation under test.
    pub fn expand_path(&self, text: &str) -> String {
        let out = self.expand(text);
        let dotted = out
            .split('/')
            .skip(1)
            .any(|s| s == "." || s == ".." || s.is_empty());
        if !out.starts_with('/') || !dotted || out == "/" {
            return out;
        }
        let mut segments: Vec<&str> = Vec::new();
        for segment in out.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    segments.pop();
                }
                name => segments.push(name),
            }
        }
        format!("/{}", segments.join("/"))
    }

    /// Expands placeholders in every string inside a JSON value.
    pub fn expand_json(&self, value: &serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match value {
            Value::String(s) => Value::String(self.expand(s)),
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.expand_json(v)).collect())
            }
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.expand_json(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// The reverse of [`expand`](Self::expand), for reports: machine paths
    /// become placeholders again, longest value first so `{ws}` wins over `{tmp}`.
    pub fn collapse(&self, text: &str) -> String {
        let mut pairs: Vec<_> = (self.pairs.iter().chain(&self.shown))
            .filter(|(n, v)| n != "{target}" && !v.is_empty())
            .collect();
        // A text holding no value's first byte holds no value, and no
        // replacement can make one appear: it is copied as it is. Most
        // texts a report collapses are like that (a matched line, a
        // message without a path), and a fuzzed search's thousands of
        // matches made the searches below most of a probe's time.
        if !text
            .bytes()
            .any(|b| pairs.iter().any(|(_, v)| v.as_bytes()[0] == b))
        {
            return text.to_owned();
        }
        pairs.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
        let mut out = text.to_owned();
        for (name, value) in pairs {
            if out.contains(value.as_str()) {
                out = out.replace(value.as_str(), name);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_paths_are_read_lexically_after_expansion() {
        let vars = Placeholders::new("/t", "/t/one/ws", &[("one/ws".into(), "/t/one/ws".into())]);
        assert_eq!(
            vars.expand_path("{target}/../ws-evil/a"),
            "/t/one/ws-evil/a"
        );
        assert_eq!(vars.expand_path("{one/ws}/./x//y/"), "/t/one/ws/x/y");
        assert_eq!(vars.expand_path("{target}/..foo"), "/t/one/ws/..foo");
        assert_eq!(vars.expand_path("absolute"), "absolute");
        assert_eq!(vars.expand_path("{target}/../.."), "/t");
        assert_eq!(vars.expand_path("{target}/../../../.."), "/");
    }

    /// A shown-only value is collapsed in reports, below the longer values
    /// of the fixture, and never expanded from a case's text.
    #[test]
    fn a_shown_value_collapses_and_never_expands() {
        let mut vars = Placeholders::new(
            "/r/run-x/fixtures/1",
            "/r/run-x/fixtures/1/ws",
            &[("ws".into(), "/r/run-x/fixtures/1/ws".into())],
        );
        vars.add_shown(RUN_DIR, "/r/run-x");
        assert_eq!(
            vars.collapse("+ /r/run-x/fixtures/1/ws/ /r/run-x/fixtures (directory)"),
            "+ {ws}/ {run-dir}/fixtures (directory)"
        );
        assert_eq!(vars.expand("{run-dir}/events"), "{run-dir}/events");
    }
}
