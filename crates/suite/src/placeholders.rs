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
pub const RESERVED: &[&str] = &["tmp", "target", "adapter-tmp"];

/// The `{name}` placeholders of one built fixture and their values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placeholders {
    pairs: Vec<(String, String)>,
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
        Placeholders { pairs }
    }

    /// Adds a placeholder, for example the adapter's `{adapter-tmp}`.
    pub fn add(&mut self, name: &str, value: &str) {
        self.pairs.push((format!("{{{name}}}"), value.to_owned()));
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
        let mut pairs: Vec<_> = self.pairs.iter().filter(|(n, _)| n != "{target}").collect();
        pairs.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
        let mut out = text.to_owned();
        for (name, value) in pairs {
            if !value.is_empty() {
                out = out.replace(value.as_str(), name);
            }
        }
        out
    }
}
