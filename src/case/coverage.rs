//! Spec coverage: which requirement is pinned by how many cases, per tool.
//!
//! A rule pinned through one tool only never runs against an implementation
//! that lacks that tool (most real agents expose no `resolve`), so coverage
//! is counted per rule *and* per tool the rule applies to (the spec's
//! `Applies to:` lines, [`toolpath_suite::spec::Requirement::tools`]). `toolpath lint`
//! prints it and fails on a gap; a test holds the embedded suite to it.

use toolpath_suite::case::Case;
use toolpath_suite::spec::Requirement;

/// How one requirement is pinned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCoverage {
    pub requirement: Requirement,
    /// Cases citing the rule, whatever their tool.
    pub cases: usize,
    /// For each tool the rule applies to, the instances citing it through that tool.
    pub per_tool: Vec<(String, usize)>,
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
            RuleCoverage {
                requirement: req.clone(),
                cases: citing.len(),
                per_tool,
            }
        })
        .collect()
}

/// Every gap as `RULE@tool` (or `RULE` for a rule with no case at all).
pub fn gaps(coverage: &[RuleCoverage]) -> Vec<String> {
    let mut out = Vec::new();
    for rule in coverage {
        let id = &rule.requirement.id;
        if rule.cases == 0 {
            out.push(id.clone());
            continue;
        }
        out.extend(rule.missing_tools().iter().map(|t| format!("{id}@{t}")));
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

    #[test]
    fn a_rule_without_cases_is_one_gap() {
        let reqs = [req("SEC-9", &["grep"]), req("OUT-1", &["grep"])];
        let cases = [case("search.a", "OUT-1", "grep")];
        assert_eq!(gaps(&coverage(&reqs, &cases)), ["SEC-9"]);
    }
}
