//! An argument template: the shape of a server tool's arguments, with
//! the suite's parameters put in as JSON values, for a server whose tool
//! nests what the suite passes flat (server-filesystem's `edit_file`
//! takes `{path, edits: [{oldText, newText}]}` where the suite's `edit`
//! sends `file_path`, `old_string`, `new_string`).
//!
//! A string that is wholly `{name}` is a placeholder: it is replaced by
//! the suite parameter's value as it is, whatever its type (a number
//! stays a number, `null` stays `null`), never spliced into text, so no
//! value can change the shape around it. `{a|b}` takes the first of
//! several names (a parameter and its alias). Any other string is
//! literal, and a string that holds a placeholder among other text is an
//! error when the profile is loaded: splicing is what the template exists
//! to avoid.
//!
//! What the template does not place still reaches the server: parameters
//! it never names pass through under their suite names, so the server
//! itself must refuse a key it does not know (spec ERR-8), exactly as with
//! `rename`.

use std::borrow::Cow;
use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// A checked template (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub enum Template {
    Object(Vec<(String, Template)>),
    Array(Vec<Template>),
    /// A suite parameter: the first of these names that is given.
    Param(Vec<String>),
    /// Sent as it is.
    Literal(Value),
}

impl<'de> Deserialize<'de> for Template {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if !value.is_object() {
            return Err(serde::de::Error::custom(
                "an argument template is an object: the server tool's arguments",
            ));
        }
        Template::parse(&value).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Template {
    fn schema_name() -> Cow<'static, str> {
        "ArgumentTemplate".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "description": "The server tool's arguments, any JSON shape: a string that is wholly `{name}` (or `{name|alias}`, the first given) is replaced by that suite parameter's value as a JSON value; other strings are literal. Parameters the template never names pass through under their suite names."
        })
    }
}

/// A placeholder's names, when `text` is wholly one; `Err` when it holds
/// one among other text.
fn placeholder(text: &str) -> Result<Option<Vec<String>>, String> {
    let name_ok = |n: &str| {
        !n.is_empty()
            && n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    if let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let names: Vec<&str> = inner.split('|').collect();
        if names.iter().all(|n| name_ok(n)) {
            return Ok(Some(names.into_iter().map(str::to_owned).collect()));
        }
    }
    // `{name}` inside other text would be splicing: refused, so a typo
    // does not silently send the braces.
    let spliced = text.match_indices('{').any(|(at, _)| {
        text[at + 1..]
            .split_once('}')
            .is_some_and(|(inner, _)| inner.split('|').all(name_ok))
    });
    if spliced {
        return Err(format!(
            "`{text}`: a placeholder must be the whole string (values are put in as JSON values, never spliced into text)"
        ));
    }
    Ok(None)
}

impl Template {
    /// Reads a template from its JSON value.
    pub fn parse(value: &Value) -> Result<Template, String> {
        Ok(match value {
            Value::Object(members) => Template::Object(
                members
                    .iter()
                    .map(|(k, v)| Ok((k.clone(), Template::parse(v)?)))
                    .collect::<Result<_, String>>()?,
            ),
            Value::Array(items) => Template::Array(
                items
                    .iter()
                    .map(Template::parse)
                    .collect::<Result<_, String>>()?,
            ),
            Value::String(text) => match placeholder(text)? {
                Some(names) => Template::Param(names),
                None => Template::Literal(value.clone()),
            },
            other => Template::Literal(other.clone()),
        })
    }

    /// Every suite name a placeholder of the template names.
    pub fn names(&self) -> BTreeSet<&str> {
        let mut out = BTreeSet::new();
        self.collect_names(&mut out);
        out
    }

    fn collect_names<'a>(&'a self, out: &mut BTreeSet<&'a str>) {
        match self {
            Template::Object(members) => members.iter().for_each(|(_, t)| t.collect_names(out)),
            Template::Array(items) => items.iter().for_each(|t| t.collect_names(out)),
            Template::Param(names) => out.extend(names.iter().map(String::as_str)),
            Template::Literal(_) => {}
        }
    }

    /// The suite name behind a top-level key of the template, when that
    /// key is a placeholder: what a server's schema property stands for.
    pub fn suite_name_of(&self, server_key: &str) -> Option<&str> {
        let Template::Object(members) = self else {
            return None;
        };
        members.iter().find_map(|(k, t)| match t {
            Template::Param(names) if k == server_key => names.first().map(String::as_str),
            _ => None,
        })
    }

    /// The server's arguments for the suite's `params`: the template
    /// filled, then every parameter it did not place, under its suite
    /// name. Of a placeholder's names the first with a non-empty value is
    /// placed (an empty alias counts as absent, as with `rename`); another
    /// of them given non-empty too is passed through, as a model sending
    /// both would; a placeholder none of whose names was sent leaves its
    /// member (or array item) out.
    pub fn fill(&self, params: &Map<String, Value>) -> Map<String, Value> {
        let mut placed = BTreeSet::new();
        let filled = self.fill_value(params, &mut placed);
        let mut out = match filled {
            Some(Value::Object(map)) => map,
            _ => unreachable!("checked at load: the template is an object"),
        };
        let named = self.names();
        for (key, value) in params {
            if placed.contains(key.as_str()) {
                continue;
            }
            let alias_unused = named.contains(key.as_str());
            if alias_unused && is_empty(value) {
                continue;
            }
            // A key the template also writes keeps the template's value:
            // the server's own argument is the one the mapping is for.
            out.entry(key.clone()).or_insert_with(|| value.clone());
        }
        out
    }

    fn fill_value<'a>(
        &'a self,
        params: &Map<String, Value>,
        placed: &mut BTreeSet<&'a str>,
    ) -> Option<Value> {
        match self {
            Template::Object(members) => Some(Value::Object(
                members
                    .iter()
                    .filter_map(|(k, t)| Some((k.clone(), t.fill_value(params, placed)?)))
                    .collect(),
            )),
            Template::Array(items) => Some(Value::Array(
                items
                    .iter()
                    .filter_map(|t| t.fill_value(params, placed))
                    .collect(),
            )),
            Template::Param(names) => {
                let given = |n: &&String| params.get(n.as_str()).is_some_and(|v| !is_empty(v));
                let name = names
                    .iter()
                    .find(given)
                    .or_else(|| names.iter().find(|n| params.contains_key(n.as_str())))?;
                placed.insert(name.as_str());
                params.get(name.as_str()).cloned()
            }
            Template::Literal(value) => Some(value.clone()),
        }
    }
}

/// An empty alias counts as absent (SEARCH-1, FILE-1).
fn is_empty(value: &Value) -> bool {
    value.is_null() || value.as_str() == Some("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn edit() -> Template {
        Template::parse(&json!({
            "path": "{file_path|absolute_path}",
            "edits": [{"oldText": "{old_string}", "newText": "{new_string}"}],
            "dryRun": false,
        }))
        .unwrap()
    }

    fn fill(t: &Template, params: Value) -> Value {
        Value::Object(t.fill(params.as_object().unwrap()))
    }

    #[test]
    fn values_go_in_as_json_values_whatever_they_hold() {
        let t = edit();
        assert_eq!(
            fill(
                &t,
                json!({"file_path": "/w/a.txt", "old_string": "\"}], \"x\": [\"", "new_string": ""})
            ),
            json!({
                "path": "/w/a.txt",
                "edits": [{"oldText": "\"}], \"x\": [\"", "newText": ""}],
                "dryRun": false,
            }),
            "quotes and brackets in a value stay inside its string"
        );
        assert_eq!(
            fill(
                &t,
                json!({"file_path": 42, "old_string": null, "new_string": ["x"]})
            ),
            json!({"path": 42, "edits": [{"oldText": null, "newText": ["x"]}], "dryRun": false}),
            "a number, null and a list reach the server as they were sent"
        );
    }

    #[test]
    fn an_absent_parameter_leaves_its_member_out_and_unknown_keys_pass() {
        let t = edit();
        assert_eq!(
            fill(
                &t,
                json!({"file_path": "/w/a", "old_string": "a", "dir_path": "/w"})
            ),
            json!({"path": "/w/a", "edits": [{"oldText": "a"}], "dryRun": false, "dir_path": "/w"})
        );
        let list = Template::parse(&json!({"paths": ["{file_path}", "{absolute_path}"]})).unwrap();
        assert_eq!(
            fill(&list, json!({"absolute_path": "/w/b"})),
            json!({"paths": ["/w/b"]})
        );
    }

    #[test]
    fn aliases_take_the_first_given_and_a_second_given_passes_through() {
        let t = edit();
        let placed = |p: Value| fill(&t, p)["path"].clone();
        assert_eq!(placed(json!({"absolute_path": "/w/b"})), "/w/b");
        assert_eq!(
            placed(json!({"file_path": "", "absolute_path": "/w/b"})),
            "/w/b"
        );
        assert_eq!(
            fill(&t, json!({"file_path": "", "absolute_path": "/w/b"})).get("file_path"),
            None,
            "an empty alias counts as absent"
        );
        assert_eq!(placed(json!({"file_path": null})), Value::Null);
        let both = fill(&t, json!({"file_path": "/w/a", "absolute_path": "/w/b"}));
        assert_eq!(both["path"], "/w/a");
        assert_eq!(
            both["absolute_path"], "/w/b",
            "as a model sending both would"
        );
    }

    #[test]
    fn placeholders_are_whole_strings_and_splicing_is_refused() {
        assert_eq!(
            Template::parse(&json!({"a": "{x}", "b": "{x} and {y}"})).unwrap_err(),
            "`{x} and {y}`: a placeholder must be the whole string (values are put in as JSON values, never spliced into text)"
        );
        assert!(Template::parse(&json!({"a": "/w/{file_path}"})).is_err());
        assert_eq!(
            Template::parse(&json!({"a": "{Not A Name}", "b": "{}"})).unwrap(),
            Template::Object(vec![
                ("a".into(), Template::Literal(json!("{Not A Name}"))),
                ("b".into(), Template::Literal(json!("{}"))),
            ]),
            "braces that name no parameter are literal"
        );
        let t = edit();
        assert_eq!(t.suite_name_of("path"), Some("file_path"));
        assert_eq!(t.suite_name_of("edits"), None);
        assert_eq!(
            t.names().into_iter().collect::<Vec<_>>(),
            ["absolute_path", "file_path", "new_string", "old_string"]
        );
    }

    #[test]
    fn a_template_is_an_object() {
        let e = serde_json::from_value::<Template>(json!(["{file_path}"])).unwrap_err();
        assert!(e.to_string().contains("is an object"), "{e}");
    }
}
