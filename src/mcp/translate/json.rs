//! The JSON form of the result rules: for the lists (`entries`, `files`,
//! `matches`), the answer's text parsed as JSON, the list found at the
//! rule's `items` pointer, and each field of an item read at its own
//! pointer; for one value (`path`, `content`), the string at a pointer,
//! for a read tool that answers its file inside a document. A server
//! that answers in JSON puts an entry's name and type, or a match's line
//! number and text, in one object; a line pattern cannot join them, a
//! pointer per field of the same item can.
//!
//! An item missing a field the result needs (a name, a path, a line
//! number) is skipped, as a line the pattern does not match is; a field
//! that is only sometimes there (a type, a text) makes that field of the
//! answer unobserved rather than read as a default.

use serde_json::Value;

use super::Context;
use crate::mcp::profile::JsonItems;
use crate::subject::budget::{self, MAX_ITEMS};
use toolpath_suite::protocol::{Entry, EntryType, Field, Match};

/// The text as one JSON document, or `None` when it is not one, or holds
/// more values than an answer may be read as ([`MAX_ITEMS`], counted
/// before parsing: the server checks first and fails the case, this only
/// keeps a caller that did not from parsing it).
pub(super) fn parse(text: &str) -> Option<Value> {
    budget::json_items(text.as_bytes(), MAX_ITEMS).ok()?;
    serde_json::from_str(text).ok()
}

/// The string at `pointer` of the document, if there is one there: a
/// single value (`content.json`, `path.json`), never a number or an object
/// read as its JSON, since a file's content or a path is text.
pub(super) fn string(document: Option<&Value>, pointer: &str) -> Option<String> {
    document?.pointer(pointer)?.as_str().map(str::to_owned)
}

/// The list at the rule's `items`, if the document has one there.
fn items<'a>(document: Option<&'a Value>, rule: &JsonItems) -> Option<&'a [Value]> {
    document?
        .pointer(&rule.items)?
        .as_array()
        .map(Vec::as_slice)
}

/// A field of an item as text: a string as it is, another scalar as its
/// JSON (`true`, `3`); a list, an object or `null` is no value for it.
fn scalar(item: &Value, pointer: Option<&str>) -> Option<String> {
    match item.pointer(pointer?)? {
        Value::String(s) => Some(s.clone()),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
        other => Some(other.to_string()),
    }
}

/// A line number: a non-negative integer, or a string of one.
fn number(item: &Value, pointer: Option<&str>) -> Option<u64> {
    match item.pointer(pointer?)? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// `ls` entries, and whether every one had its type; `None` when the
/// answer holds no list at `items`.
pub(super) fn entries(
    ctx: &Context,
    rule: &JsonItems,
    types: &std::collections::BTreeMap<String, EntryType>,
    document: Option<&Value>,
) -> Option<(Vec<Entry>, bool)> {
    let items = items(document, rule)?;
    let mut typed = true;
    let mut entries = Vec::new();
    for item in items {
        let path = match (
            scalar(item, rule.path.as_deref()),
            scalar(item, rule.name.as_deref()),
        ) {
            (Some(path), _) => ctx.named(&path),
            (None, Some(name)) => format!("{}/{name}", ctx.requested.trim_end_matches('/')),
            (None, None) => continue,
        };
        let entry_type = match scalar(item, rule.entry_type.as_deref()) {
            Some(word) => types.get(&word).copied().unwrap_or(EntryType::Other),
            None => {
                typed = false;
                EntryType::File
            }
        };
        entries.push(Entry { path, entry_type });
    }
    Some((entries, typed))
}

/// `glob` files; `None` when the answer holds no list at `items`.
pub(super) fn files(
    ctx: &Context,
    rule: &JsonItems,
    document: Option<&Value>,
) -> Option<Vec<String>> {
    let items = items(document, rule)?;
    Some(
        items
            .iter()
            .filter_map(|item| scalar(item, rule.path.as_deref()))
            .map(|path| ctx.named(&path))
            .collect(),
    )
}

/// Search matches, with [`Field::MatchesText`] added to `derived` when an
/// item had no text; `None` when the answer holds no list at `items`.
pub(super) fn matches(
    ctx: &Context,
    rule: &JsonItems,
    document: Option<&Value>,
    derived: &mut Vec<Field>,
) -> Option<Vec<Match>> {
    let items = items(document, rule)?;
    let mut matches = Vec::new();
    let mut texts = true;
    for item in items {
        let (Some(path), Some(line)) = (
            scalar(item, rule.path.as_deref()),
            number(item, rule.line.as_deref()),
        ) else {
            continue;
        };
        let text = scalar(item, rule.text.as_deref());
        texts &= text.is_some();
        matches.push(Match {
            path: ctx.named(&path),
            line,
            text: text.unwrap_or_default(),
        });
    }
    if !texts {
        derived.push(Field::MatchesText);
    }
    Some(matches)
}
