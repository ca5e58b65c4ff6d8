//! Spec coverage: which requirement is pinned by how many cases, per tool
//! and per path shape.
//!
//! A rule pinned through one tool only never runs against an implementation
//! that lacks that tool (most real agents expose no `resolve`), so coverage
//! is counted per rule *and* per tool the rule applies to (the spec's
//! `Applies to:` lines, [`toolpath_suite::spec::Requirement::tools`]). A
//! containment rule pinned only for absolute paths, or only in the first
//! root, misses the implementations that check one form or one root and
//! not the other, so a rule's `Shapes:` line asks for each shape through
//! each tool too ([`toolpath_suite::case::Shape`]). `toolpath lint` prints
//! both and fails on a gap; a test holds the embedded suite to it.

use toolpath_suite::case::{Case, Form, RootPlace};
use toolpath_suite::protocol::Tool;
use toolpath_suite::spec::Requirement;

/// How one requirement is pinned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCoverage {
    pub requirement: Requirement,
    /// Cases citing the rule, whatever their tool.
    pub cases: usize,
    /// For each tool the rule applies to, the instances citing it through that tool.
    pub per_tool: Vec<(String, usize)>,
    /// Instances citing the rule in each form and in each root place,
    /// whatever their tool.
    pub per_form: Vec<(Form, usize)>,
    pub per_root: Vec<(RootPlace, usize)>,
    /// The shapes the rule's `Shapes:` line asks for that no instance
    /// pins, each as `tool.form.root` (`grep.relative.second`; a part the
    /// rule does not ask about is left out).
    pub missing_shapes: Vec<String>,
}

impl RuleCoverage {
    /// The tools the rule applies to that no case pins it through.
    pub fn missing_tools(&self) -> Vec<&str> {
        self.per_tool
            .iter()
            .filter(|(_, n)| *n == 0)
            .map(|(tool, _)| tool.as_str())
            .collect()
    }
}

/// Coverage of every requirement by `cases`, in spec order.
pub fn coverage(requirements: &[Requirement], cases: &[Case]) -> Vec<RuleCoverage> {
    requirements
        .iter()
        .map(|req| {
            let citing: Vec<&Case> = cases.iter().filter(|c| c.spec.contains(&req.id)).collect();
            let per_tool = req
                .tools
                .iter()
                .map(|tool| {
                    let n = citing
                        .iter()
                        .flat_map(|c| c.instances())
                        .filter(|i| i.tool.name() == tool)
                        .count();
                    (tool.clone(), n)
                })
                .collect();
            let instances: Vec<_> = citing.iter().flat_map(|c| c.instances()).collect();
            let per_form = Form::BOTH
                .iter()
                .map(|&f| {
                    let n = instances
                        .iter()
                        .filter(|i| i.case.shape.form == Some(f))
                        .count();
                    (f, n)
                })
                .collect();
            let per_root = RootPlace::BOTH
                .iter()
                .map(|&p| {
                    let n = instances
                        .iter()
                        .filter(|i| i.case.shape.root == Some(p))
                        .count();
                    (p, n)
                })
                .collect();
            let missing_shapes = missing_shapes(req, &instances);
            RuleCoverage {
                requirement: req.clone(),
                cases: citing.len(),
                per_tool,
                per_form,
                per_root,
                missing_shapes,
            }
        })
        .collect()
}

/// The `tool.form.root` cells of the rule's shapes that no instance pins.
/// A file tool is never asked for `relative` (FILE-3): where that leaves it
/// no form, any form counts.
fn missing_shapes(req: &Requirement, instances: &[toolpath_suite::case::Instance]) -> Vec<String> {
    let asks = |word: &str| req.shapes.iter().any(|s| s == word);
    let forms: Vec<Form> = Form::BOTH.into_iter().filter(|f| asks(f.name())).collect();
    let roots: Vec<RootPlace> = RootPlace::BOTH
        .into_iter()
        .filter(|p| asks(p.name()))
        .collect();
    if forms.is_empty() && roots.is_empty() {
        return Vec::new();
    }
    let mut missing = Vec::new();
    for tool_name in &req.tools {
        let Some(tool) = Tool::ALL.into_iter().find(|t| t.name() == tool_name) else {
            continue;
        };
        let tool_forms: Vec<Option<Form>> = {
            let usable: Vec<Option<Form>> = forms
                .iter()
                .filter(|&&f| !(tool.is_file_tool() && f == Form::Relative))
                .map(|&f| Some(f))
                .collect();
            if usable.is_empty() {
                vec![None]
            } else {
                usable
            }
        };
        let tool_roots: Vec<Option<RootPlace>> = if roots.is_empty() {
            vec![None]
        } else {
            roots.iter().map(|&p| Some(p)).collect()
        };
        for form in &tool_forms {
            for root in &tool_roots {
                let pinned = instances.iter().any(|i| {
                    i.tool == tool
                        && form.is_none_or(|f| i.case.shape.form == Some(f))
                        && root.is_none_or(|p| i.case.shape.root == Some(p))
                });
                if !pinned {
                    let mut cell = tool_name.clone();
                    if let Some(f) = form {
                        cell = format!("{cell}.{}", f.name());
                    }
                    if let Some(p) = root {
                        cell = format!("{cell}.{}", p.name().split(' ').next().unwrap_or(""));
                    }
                    missing.push(cell);
                }
            }
        }
    }
    missing
}

/// Every gap as `RULE@tool` (or `RULE` for a rule with no case at all), and
/// every missing shape as `RULE@tool.form.root`.
pub fn gaps(coverage: &[RuleCoverage]) -> Vec<String> {
    let mut out = Vec::new();
    for rule in coverage {
        let id = &rule.requirement.id;
        if rule.cases == 0 {
            out.push(id.clone());
            continue;
        }
        out.extend(rule.missing_tools().iter().map(|t| format!("{id}@{t}")));
        out.extend(rule.missing_shapes.iter().map(|s| format!("{id}@{s}")));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use toolpath_suite::case::validate::parse_case;

    fn case(id: &str, spec: &str, tool: &str) -> Case {
        let text = format!(
            "id: {id}\nsummary: s\nspec: [{spec}]\nfixture: {{roots: [ws]}}\n\
             call: {{tool: {tool}, params: {{pattern: x}}}}\nexpect: {{outcome: ok}}\n"
        );
        parse_case(Path::new("x.yaml"), &text).unwrap()
    }

    fn req(id: &str, tools: &[&str]) -> Requirement {
        Requirement {
            id: id.into(),
            area: "RES".into(),
            summary: String::new(),
            tools: tools.iter().map(|t| t.to_string()).collect(),
            shapes: Vec::new(),
        }
    }

    #[test]
    fn a_rule_pinned_through_resolve_only_has_gaps_for_the_other_tools() {
        let reqs = [req("RES-8", &["resolve", "grep", "ripgrep", "shell"])];
        let cases = [case("resolve.a", "RES-8", "resolve")];
        assert_eq!(
            gaps(&coverage(&reqs, &cases)),
            ["RES-8@grep", "RES-8@ripgrep", "RES-8@shell"]
        );
        let cases = [
            case("resolve.a", "RES-8", "resolve"),
            case("search.a", "RES-8", "search"),
            case("shell.a", "RES-8", "shell"),
        ];
        let cov = coverage(&reqs, &cases);
        assert_eq!(gaps(&cov), Vec::<String>::new());
        assert_eq!(cov[0].cases, 3);
    }

    fn shaped(id: &str, tools: &[&str], shapes: &[&str]) -> Requirement {
        Requirement {
            shapes: shapes.iter().map(|s| s.to_string()).collect(),
            ..req(id, tools)
        }
    }

    fn case_at(id: &str, spec: &str, tool: &str, path: &str, roots: &str, target: &str) -> Case {
        let key = if tool.ends_with("_file") {
            "file_path"
        } else {
            "path"
        };
        let text = format!(
            "id: {id}\nsummary: s\nspec: [{spec}]\nfixture: {{roots: [{roots}], target: {target}}}\n\
             call: {{tool: {tool}, params: {{{key}: \"{path}\"}}}}\nexpect: {{outcome: error, error: {{code: outside_workspace}}}}\n"
        );
        parse_case(Path::new("x.yaml"), &text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_shaped_rule_is_missing_every_form_and_root_no_instance_pins() {
        let reqs = [shaped(
            "SEC-5",
            &["resolve", "read_file"],
            &["absolute", "relative", "first root", "second root"],
        )];
        let cases = [
            case_at("r.a", "SEC-5", "resolve", "lnk", "ws, ws2", "ws"),
            case_at("r.b", "SEC-5", "resolve", "{ws2}/lnk", "ws, ws2", "ws"),
            case_at(
                "r.c",
                "SEC-5",
                "read_file",
                "{target}/lnk",
                "ws, ws2",
                "ws2",
            ),
        ];
        let cov = coverage(&reqs, &cases);
        assert_eq!(
            gaps(&cov),
            [
                "SEC-5@resolve.absolute.first",
                "SEC-5@resolve.relative.second",
                "SEC-5@read_file.absolute.first"
            ],
            "a relative path is never asked of a file tool"
        );
        assert_eq!(cov[0].per_form, [(Form::Absolute, 2), (Form::Relative, 1)]);
        assert_eq!(
            cov[0].per_root,
            [(RootPlace::First, 1), (RootPlace::Later, 2)]
        );
        // A path outside every root written from `{tmp}` has no root.
        let outside = case_at("r.d", "SEC-5", "resolve", "{tmp}/x", "ws", "ws");
        assert_eq!(outside.shape.form, Some(Form::Absolute));
        assert_eq!(outside.shape.root, None);
    }

    #[test]
    fn a_rule_without_cases_is_one_gap() {
        let reqs = [req("SEC-9", &["grep"]), req("OUT-1", &["grep"])];
        let cases = [case("search.a", "OUT-1", "grep")];
        assert_eq!(gaps(&coverage(&reqs, &cases)), ["SEC-9"]);
    }
}
