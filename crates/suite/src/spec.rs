//! The requirement IDs of `spec/README.md`, read from the text itself.
//!
//! The spec is the single source of requirement IDs: a rule is a list item
//! that opens with its bold ID (`- **RES-1** ...`). Reading them from the
//! document (embedded at build time) means a case can never cite an ID the
//! spec does not define, and a new rule without a case is caught by a test.

use std::collections::HashSet;
use std::sync::OnceLock;

/// The normative spec text, embedded so an installed binary needs no checkout.
pub const SPEC_TEXT: &str = include_str!("../../../spec/README.md");

/// One requirement: its ID, its area prefix, the first sentence of its text
/// and the tools it applies to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    pub id: String,
    pub area: String,
    pub summary: String,
    /// Tool names (`grep`, `shell`, ...) from the rule's own `Applies to:`
    /// line, or else its area's; the suite must pin the rule through each.
    pub tools: Vec<String>,
    /// The path shapes (`absolute`, `relative`, `first root`, `second
    /// root`) from the rule's own `Shapes:` line, or else its area's: the
    /// suite must pin the rule through each tool in each of them.
    pub shapes: Vec<String>,
}

/// The words a `Shapes:` line may name.
pub const SHAPE_WORDS: &[&str] = &["absolute", "relative", "first root", "second root"];

/// The marker of an applicability line (spec "Which tools a rule applies to").
const APPLIES_TO: &str = "Applies to:";

/// The marker of a shapes line (spec "Which tools a rule applies to").
const SHAPES: &str = "Shapes:";

/// The backticked names after a marker (`Applies to:`, `Shapes:`); any
/// text outside backticks (a parenthetical pointing elsewhere) is
/// commentary.
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Every requirement of the embedded spec, in document order. Read from
/// the text once per process: loading the suite asks [`is_known`] for every
/// citation of every case, and re-reading the spec each time was 44% of it.
pub fn requirements() -> &'static [Requirement] {
    static REQUIREMENTS: OnceLock<Vec<Requirement>> = OnceLock::new();
    REQUIREMENTS.get_or_init(|| parse_requirements(SPEC_TEXT))
}

/// Whether `id` names a requirement of the embedded spec.
pub fn is_known(id: &str) -> bool {
    static IDS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    IDS.get_or_init(|| requirements().iter().map(|r| r.id.as_str()).collect())
        .contains(id)
}

/// The title of an area's section (`## RES: the shared resolver` gives
/// `the shared resolver`), for views that group requirements by area.
pub fn area_title(area: &str) -> Option<&'static str> {
    SPEC_TEXT.lines().find_map(|line| {
        line.strip_prefix("## ")?
            .strip_prefix(area)?
            .strip_prefix(": ")
            .map(str::trim)
    })
}

/// The order reports list requirement IDs in: by area, then by number as
/// a number (`RES-2` before `RES-11`, which text order reverses). An ID of
/// another form sorts after its area's numbered ones, by its text.
pub fn order_key(id: &str) -> (&str, u64, &str) {
    let (area, number) = id.rsplit_once('-').unwrap_or((id, ""));
    match number.parse::<u64>() {
        Ok(n) => (area, n, ""),
        Err(_) => (area, u64::MAX, number),
    }
}

/// Reads requirement list items (`- **AREA-N** text`) out of a Markdown spec.
pub fn parse_requirements(text: &str) -> Vec<Requirement> {
    let mut out = Vec::new();
    let mut area_tools: Vec<String> = Vec::new();
    let mut area_shapes: Vec<String> = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("## ") {
            area_tools.clear();
            area_shapes.clear();
        }
        if let Some(rest) = line.strip_prefix(APPLIES_TO) {
            area_tools = backticked(rest);
            continue;
        }
        if let Some(rest) = line.strip_prefix(SHAPES) {
            area_shapes = backticked(rest);
            continue;
        }
        let Some(rest) = line.trim_start().strip_prefix("- **") else {
            continue;
        };
        let Some((id, body)) = rest.split_once("**") else {
            continue;
        };
        let Some((area, number)) = id.split_once('-') else {
            continue;
        };
        if area.is_empty()
            || !area.bytes().all(|b| b.is_ascii_uppercase())
            || number.parse::<u32>().is_err()
        {
            continue;
        }
        // The rule's text runs on over indented continuation lines.
        let mut text = body.trim().to_owned();
        while let Some(next) = lines.peek() {
            if next.starts_with("  ") && !next.trim().is_empty() {
                text.push(' ');
                text.push_str(next.trim());
                lines.next();
            } else {
                break;
            }
        }
        // Each marker's names run to the next marker or the end.
        let marker = |name: &'static str| text.find(name).map(|at| (at, name));
        let mut markers: Vec<(usize, &str)> = [marker(APPLIES_TO), marker(SHAPES)]
            .into_iter()
            .flatten()
            .collect();
        markers.sort();
        let names_of = |name: &str| {
            let i = markers.iter().position(|(_, m)| *m == name)?;
            let start = markers[i].0 + name.len();
            let end = markers.get(i + 1).map_or(text.len(), |(at, _)| *at);
            Some(backticked(&text[start..end]))
        };
        let tools = names_of(APPLIES_TO).unwrap_or_else(|| area_tools.clone());
        let shapes = names_of(SHAPES).unwrap_or_else(|| area_shapes.clone());
        if let Some((first, _)) = markers.first() {
            text.truncate(*first);
        }
        let text = text.trim_end().to_owned();
        let summary = match text.find(". ") {
            Some(end) => text[..=end].to_owned(),
            None => text,
        };
        out.push(Requirement {
            id: id.to_owned(),
            area: area.to_owned(),
            summary,
            tools,
            shapes,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule each result field's check enforces is a requirement.
    #[test]
    fn every_field_s_rule_is_a_requirement() {
        let rules: Vec<_> = crate::protocol::Field::ALL
            .iter()
            .filter_map(|f| f.rule())
            .collect();
        assert!(!rules.is_empty());
        for rule in rules {
            assert!(is_known(rule), "{rule}");
        }
    }

    #[test]
    fn every_area_has_a_title() {
        for r in requirements() {
            assert!(area_title(&r.area).is_some(), "{}", r.area);
        }
        assert_eq!(area_title("RES"), Some("the shared resolver"));
        assert_eq!(area_title("RE"), None, "whole area names only");
    }

    #[test]
    fn reads_ids_areas_and_first_sentences() {
        let text = "# T\n\n- **RES-1** An empty path means none. More text\n  on two lines.\n- **ERR-12** Codes.\n- not a rule\n- **lower-1** no\n";
        let reqs = parse_requirements(text);
        let ids: Vec<_> = reqs
            .iter()
            .map(|r| (r.id.as_str(), r.area.as_str()))
            .collect();
        assert_eq!(ids, [("RES-1", "RES"), ("ERR-12", "ERR")]);
        assert_eq!(reqs[0].summary, "An empty path means none.");
    }

    #[test]
    fn tools_come_from_the_area_unless_the_rule_names_its_own() {
        let text = "## RES\n\nApplies to: `resolve`, `shell`.\n\n- **RES-1** One.\n- **RES-2** Two.\n  Applies to: `grep` (not the shell: SHELL-3).\n## OUT\n\n- **OUT-1** None.\n";
        let reqs = parse_requirements(text);
        let tools: Vec<_> = reqs.iter().map(|r| r.tools.join(",")).collect();
        assert_eq!(tools, ["resolve,shell", "grep", ""]);
        assert_eq!(reqs[1].summary, "Two.");
    }

    #[test]
    fn shapes_come_from_the_area_unless_the_rule_names_its_own() {
        let text = "## SEC\n\nApplies to: `resolve`, `shell`.\nShapes: `absolute`, `first root`.\n\n- **SEC-1** One.\n- **SEC-2** Two.\n  Shapes: none (a walk).\n- **SEC-3** Three.\n  Shapes: `relative`. Applies to: `grep`.\n## OUT\n\n- **OUT-1** None.\n";
        let reqs = parse_requirements(text);
        let shapes: Vec<_> = reqs.iter().map(|r| r.shapes.join(",")).collect();
        assert_eq!(shapes, ["absolute,first root", "", "relative", ""]);
        assert_eq!(reqs[2].tools, ["grep"]);
        assert_eq!(reqs[2].summary, "Three.");
        assert_eq!(reqs[1].summary, "Two.");
    }

    #[test]
    fn every_embedded_shape_is_known() {
        for req in requirements() {
            for shape in &req.shapes {
                assert!(
                    SHAPE_WORDS.contains(&shape.as_str()),
                    "{}: unknown shape `{shape}`",
                    req.id
                );
            }
        }
        assert!(
            requirements().iter().any(|r| !r.shapes.is_empty()),
            "no rule states its shapes"
        );
    }

    #[test]
    fn every_embedded_rule_applies_to_known_tools() {
        let known: Vec<&str> = crate::protocol::Tool::ALL
            .iter()
            .map(|t| t.name())
            .collect();
        for req in requirements() {
            assert!(!req.tools.is_empty(), "{} applies to no tool", req.id);
            for tool in &req.tools {
                assert!(
                    known.contains(&tool.as_str()),
                    "{}: unknown tool `{tool}`",
                    req.id
                );
            }
        }
    }

    /// Numbers within an area sort as numbers, areas as text.
    #[test]
    fn ids_order_by_area_then_number() {
        let mut ids = vec![
            "RES-11", "SEC-1", "RES-2", "RES-1", "ERR-10", "ERR-9", "RES-x",
        ];
        ids.sort_by_key(|id| order_key(id));
        assert_eq!(
            ids,
            [
                "ERR-9", "ERR-10", "RES-1", "RES-2", "RES-11", "RES-x", "SEC-1"
            ]
        );
    }

    #[test]
    fn embedded_spec_has_unique_ids_in_every_area() {
        let reqs = requirements();
        let mut ids: Vec<_> = reqs.iter().map(|r| r.id.clone()).collect();
        let total = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(
            ids.len(),
            total,
            "duplicate requirement IDs in spec/README.md"
        );
        for area in [
            "RES", "SEARCH", "SHELL", "GLOB", "LS", "COMPAT", "ERR", "SEC", "OUT", "DESC",
        ] {
            assert!(reqs.iter().any(|r| r.area == area), "no {area} rules");
        }
    }
}
