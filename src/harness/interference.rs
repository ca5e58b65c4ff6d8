//! Non-interference (SEC-12): an answer compared with the answer to the
//! same call on the fixture's twin, which differs from it only outside
//! every root ([`crate::case::fixture::twin`]). A field that differs has
//! carried something of the outside into the answer, whatever it says:
//! names that exist on both sides, a count of files, a refusal that
//! depends on what lies beyond a link.
//!
//! Every field the judge reads is compared, each with its own
//! placeholders collapsed (the two fixtures live in different
//! directories), on its channel: `content` and a match's text are
//! read; `outcome`, `kind`, `path`, `parent`, `cwd`, a match's place,
//! `notes`, `files`, `entries` and the error are list (what `resolve`
//! says of its one place is resolve); `output` is exec; `model_text` is
//! the channel of what the tool does (`read_file` read, `shell` exec,
//! `resolve` resolve, every other tool list). A field the adapter did not
//! observe (`unobserved`) is not compared, as the judge does not read it.
//!
//! Noise is measured, not guessed: only when the twin's answer differs
//! does the harness ask a third time, on the fixture built again byte for
//! byte, canaries included ([`crate::case::fixture::build_again`]); a
//! field that differs between those two answers of the same fixture
//! ([`noise`]) tells nothing about the outside and is left out.

use serde_json::Value;

use crate::harness::caps::cap;
use crate::report::Channel;
use toolpath_suite::placeholders::Placeholders;
use toolpath_suite::protocol::{Field, Tool, ToolResult};

/// How much of each side of a difference the evidence shows.
const SHOWN: usize = 120;

/// One answer with the placeholders of the fixture it was given on.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub answer: &'a ToolResult,
    pub vars: &'a Placeholders,
}

/// One field that differs between two answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Differing {
    /// The field's wire name (`entries`, `matches.text`).
    pub field: &'static str,
    pub channel: Channel,
    /// Each side's value, collapsed, as JSON.
    pub first: String,
    pub second: String,
}

/// Every field the judge reads that differs between `first` and `second`
/// (the same call of `tool`), placeholders collapsed; `unobserved` names
/// the fields not compared.
pub fn differing(tool: Tool, first: Side, second: Side, unobserved: &[Field]) -> Vec<Differing> {
    let one = fields(tool, first);
    let other = fields(tool, second);
    let observed = |field: &str| !unobserved.iter().any(|u| u.name() == field);
    one.into_iter()
        .zip(other)
        .filter(|((field, _, a), (_, _, b))| observed(field) && a != b)
        .map(|((field, channel, first), (_, _, second))| Differing {
            field,
            channel,
            first,
            second,
        })
        .collect()
}

/// The escapes of the fields that differ on the twin (`twin`) and do not
/// differ between two answers of the same fixture (`noise`): one per
/// channel, with the first field that showed it.
pub fn escapes(twin: &[Differing], noise: &[Differing]) -> Vec<(Channel, String)> {
    let mut found: Vec<(Channel, String)> = Vec::new();
    let leaks = twin
        .iter()
        .filter(|d| !noise.iter().any(|n| n.field == d.field));
    for d in leaks {
        if found.iter().any(|(c, _)| *c == d.channel) {
            continue;
        }
        let shown = |v: &str| cap(v.to_owned(), SHOWN);
        found.push((
            d.channel,
            format!(
                "`{}` changed with what lies outside every root: {} on the fixture, {} on its twin",
                d.field,
                shown(&d.first),
                shown(&d.second)
            ),
        ));
    }
    found.sort_by_key(|(c, _)| *c as u8);
    found
}

/// Each field the judge reads, in a fixed order: its wire name, its
/// channel and its value, collapsed, as JSON (`null` when absent).
fn fields(tool: Tool, side: Side) -> Vec<(&'static str, Channel, String)> {
    let a = side.answer;
    let json = |value: Value| side.vars.collapse(&value.to_string());
    // Lists compare as sets of their items (sorted): the order a tool
    // lists in may change from call to call (a parallel walk), and carries
    // nothing the outside decided; a model text's lines likewise.
    let sorted = |mut items: Vec<String>| {
        items.sort();
        items
    };
    let places: Option<Vec<String>> = (a.matches.as_ref()).map(|ms| {
        sorted(
            ms.iter()
                .map(|m| format!("{}:{}", m.path, m.line))
                .collect(),
        )
    });
    let lines: Option<Vec<String>> =
        (a.matches.as_ref()).map(|ms| sorted(ms.iter().map(|m| m.text.clone()).collect()));
    let files: Option<Vec<String>> = (a.files.as_ref()).map(|fs| sorted(fs.clone()));
    let entries: Option<Vec<String>> =
        (a.entries.as_ref()).map(|es| sorted(es.iter().map(|e| json(to(e))).collect()));
    let notes: Option<Vec<String>> = (a.notes.as_ref()).map(|ns| sorted(ns.clone()));
    let model_text: Option<Vec<String>> =
        (a.model_text.as_ref()).map(|text| sorted(text.lines().map(str::to_owned).collect()));
    // What the answer says of a place: names found (list), or, of
    // `resolve`, the place it resolved (resolve).
    let said = Channel::of_reported(tool);
    let told = match tool {
        Tool::ReadFile => Channel::Read,
        Tool::Shell => Channel::Exec,
        _ => said,
    };
    let error = a.error.as_ref();
    vec![
        ("outcome", said, json(to(&a.outcome))),
        (Field::Kind.name(), said, json(to(&a.kind))),
        (Field::Path.name(), said, json(to(&a.path))),
        (Field::Parent.name(), said, json(to(&a.parent))),
        (Field::Cwd.name(), said, json(to(&a.cwd))),
        (Field::Output.name(), Channel::Exec, json(to(&a.output))),
        (Field::Matches.name(), Channel::List, json(to(&places))),
        (Field::MatchesText.name(), Channel::Read, json(to(&lines))),
        (Field::Notes.name(), Channel::List, json(to(&notes))),
        (Field::ModelText.name(), told, json(to(&model_text))),
        (Field::Files.name(), Channel::List, json(to(&files))),
        (Field::Entries.name(), Channel::List, json(to(&entries))),
        (Field::Content.name(), Channel::Read, json(to(&a.content))),
        (
            Field::ErrorCode.name(),
            said,
            json(to(&error.map(|e| e.code))),
        ),
        (
            Field::ErrorMessage.name(),
            said,
            json(to(&error.map(|e| e.message.as_str()))),
        ),
    ]
}

/// `value` as JSON (`null` for what cannot be written as JSON).
fn to<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolpath_suite::protocol::{Entry, EntryType, Match, Outcome};

    fn vars(root: &str) -> Placeholders {
        Placeholders::new(
            root,
            &format!("{root}/ws"),
            &[("ws".into(), format!("{root}/ws"))],
        )
    }

    fn listing(root: &str, names: &[&str], text: &str) -> ToolResult {
        ToolResult {
            outcome: Some(Outcome::Ok),
            path: Some(format!("{root}/ws/x")),
            entries: Some(
                (names.iter())
                    .map(|n| Entry {
                        path: format!("{root}/ws/x/{n}"),
                        entry_type: EntryType::File,
                    })
                    .collect(),
            ),
            model_text: Some(format!("listed {root}/ws/x{text}")),
            ..ToolResult::default()
        }
    }

    /// The same items in another order are the same answer: a parallel
    /// walk lists in the order its threads finish (hermes-agent's grep, a
    /// false list escape on one certification run in two).
    #[test]
    fn the_same_items_in_another_order_differ_in_nothing() {
        let (va, vb) = (vars("/t/one-Fx"), vars("/t/two-Fx"));
        let mut a = listing("/t/one-Fx", &["a.txt", "b.txt"], "\na\nb");
        let mut b = listing("/t/two-Fx", &["b.txt", "a.txt"], "\nb\na");
        let matches = |root: &str, order: [&str; 2]| {
            Some(
                order
                    .map(|n| Match {
                        path: format!("{root}/ws/{n}"),
                        line: 1,
                        text: n.to_owned(),
                    })
                    .to_vec(),
            )
        };
        a.matches = matches("/t/one-Fx", ["a", "b"]);
        b.matches = matches("/t/two-Fx", ["b", "a"]);
        let one = Side {
            answer: &a,
            vars: &va,
        };
        let two = Side {
            answer: &b,
            vars: &vb,
        };
        assert_eq!(differing(Tool::Grep, one, two, &[]), []);
    }

    #[test]
    fn the_same_answer_on_two_fixture_directories_differs_in_nothing() {
        let (va, vb) = (vars("/t/one-Fx"), vars("/t/two-Fx"));
        let a = listing("/t/one-Fx", &["in.txt"], "");
        let b = listing("/t/two-Fx", &["in.txt"], "");
        let one = Side {
            answer: &a,
            vars: &va,
        };
        let two = Side {
            answer: &b,
            vars: &vb,
        };
        assert_eq!(differing(Tool::Ls, one, two, &[]), []);
    }

    #[test]
    fn a_count_or_a_name_that_follows_the_outside_is_a_list_escape() {
        let (va, vb) = (vars("/t/one-Fx"), vars("/t/two-Fx"));
        let a = listing("/t/one-Fx", &[], " (1 ignored)");
        let b = listing("/t/two-Fx", &[], " (2 ignored)");
        let one = Side {
            answer: &a,
            vars: &va,
        };
        let two = Side {
            answer: &b,
            vars: &vb,
        };
        let found = differing(Tool::Ls, one, two, &[]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].field, found[0].channel),
            ("model_text", Channel::List)
        );
        let escapes = escapes(&found, &[]);
        assert_eq!(escapes.len(), 1);
        assert_eq!(escapes[0].0, Channel::List);
        assert!(escapes[0].1.contains("(1 ignored)") && escapes[0].1.contains("(2 ignored)"));
        // Not observed, not compared.
        assert_eq!(differing(Tool::Ls, one, two, &[Field::ModelText]), []);
        let c = listing("/t/two-Fx", &["out.txt"], "");
        let named = Side {
            answer: &c,
            vars: &vb,
        };
        let found = differing(
            Tool::Ls,
            Side {
                answer: &listing("/t/one-Fx", &["in.txt"], ""),
                vars: &va,
            },
            named,
            &[],
        );
        assert_eq!(
            found.iter().map(|d| d.field).collect::<Vec<_>>(),
            ["entries"]
        );
    }

    #[test]
    fn each_field_has_its_channel_and_noise_is_left_out() {
        let va = vars("/t/one-Fx");
        let matched = |text: &str, output: &str| ToolResult {
            outcome: Some(Outcome::Ok),
            matches: Some(vec![Match {
                path: "/t/one-Fx/ws/a".into(),
                line: 1,
                text: text.into(),
            }]),
            output: Some(output.into()),
            content: Some(text.into()),
            ..ToolResult::default()
        };
        let (a, b) = (matched("x", "1"), matched("y", "2"));
        let one = Side {
            answer: &a,
            vars: &va,
        };
        let two = Side {
            answer: &b,
            vars: &va,
        };
        let found = differing(Tool::Grep, one, two, &[]);
        let fields: Vec<_> = found.iter().map(|d| (d.field, d.channel)).collect();
        assert_eq!(
            fields,
            [
                ("output", Channel::Exec),
                ("matches.text", Channel::Read),
                ("content", Channel::Read)
            ]
        );
        let channels = |noise: &[Differing]| -> Vec<Channel> {
            escapes(&found, noise).into_iter().map(|(c, _)| c).collect()
        };
        assert_eq!(channels(&[]), [Channel::Read, Channel::Exec]);
        // `output` also differs between two answers of the same fixture.
        let noise = [found[0].clone()];
        assert_eq!(channels(&noise), [Channel::Read]);
    }
}
