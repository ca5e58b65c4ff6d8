//! A finding: a shrunk divergence written as a ready-to-review case file
//! (`cases/README.md` format), with the reference's answer as `expect` (as
//! the probe judged it, so the case fails the adapter as the probe did),
//! and the adapter's answer, the judge's diff and the input's features in
//! a comment.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::fuzz::probe::Divergence;
use toolpath_suite::case::raw::Feature;
use toolpath_suite::case::{Action, Case};
use toolpath_suite::protocol::Tool;

/// A divergence found at one iteration of one seed.
#[derive(Debug, Clone)]
pub struct FuzzFinding {
    pub seed: u64,
    pub iteration: u64,
    pub divergence: Divergence,
}

impl FuzzFinding {
    /// The case id: the area, `fuzz`, the rule, the failed checks and the
    /// short name of the shrunk input's features, so one finding keeps one
    /// file name across runs, and two bugs that fail the same check on
    /// inputs of different shapes get two.
    pub fn id(&self) -> String {
        let d = &self.divergence;
        let area = match d.rendered.tool {
            Tool::Resolve => "resolve",
            Tool::Grep | Tool::Ripgrep => "search",
            Tool::Shell => "shell",
            Tool::Glob => "glob",
            Tool::Ls => "ls",
            Tool::ReadFile | Tool::WriteFile | Tool::Edit => "file",
        };
        let fields: Vec<String> = (d.failed.names().iter())
            .map(|f| f.replace('.', "-"))
            .collect();
        let shape = d.signature.short();
        if d.adapter_failed() {
            // Named by the failure alone (see `Divergence::check`).
            return format!("{area}.fuzz.{}.{shape}", fields.join("-"));
        }
        format!(
            "{area}.fuzz.{}.{}.{shape}",
            d.rules[0].to_lowercase(),
            fields.join("-")
        )
    }

    /// The finding as a case, in `dir` under the name its id gives it.
    pub fn case(&self, dir: &Path) -> Case {
        let d = &self.divergence;
        let id = self.id();
        let f = &d.rendered.fixture;
        let mut requires = BTreeSet::new();
        for (feature, used) in [
            (Feature::Symlinks, !f.symlinks.is_empty()),
            (Feature::Fifos, !f.fifos.is_empty()),
            (Feature::Sockets, !f.sockets.is_empty()),
            (Feature::Devices, !f.devices.is_empty()),
            (Feature::Permissions, !f.modes.is_empty()),
            (Feature::Git, !f.git.is_empty()),
        ] {
            if used {
                requires.insert(feature);
            }
        }
        Case {
            file: dir.join(toolpath_suite::case::load::file_name(&id)),
            id,
            matrix: None,
            line: 0,
            summary: format!(
                "Found by toolpath fuzz (seed {}, iteration {}): {} failed against the reference's answer; review and describe the rule.",
                self.seed, self.iteration, d.failed
            ),
            spec: d.rules.clone(),
            tags: Vec::new(),
            requires,
            shape: toolpath_suite::case::Shape::of_call(f, &d.rendered.params),
            fixture: f.clone(),
            tools: vec![d.rendered.tool],
            action: Action::Invoke(d.rendered.params.clone()),
            expect: d.expect.clone(),
        }
    }

    /// The comment at the top of the file: how it was found, what the
    /// input is made of, what the adapter said instead and how the judge
    /// saw it.
    pub fn comment(&self, adapter: &str) -> String {
        let d = &self.divergence;
        let mut text = format!(
            "Found by `toolpath fuzz --seed {} --adapter '{adapter}'` at iteration {}.\n\
             Failed: {}. Review the rule and the expectation before adding it to cases/.\n\
             Input: {}.\n\
             The adapter answered:\n  {}",
            self.seed,
            self.iteration,
            d.failed,
            d.signature,
            d.actual_text.replace('\n', "\n  ")
        );
        if !d.diff.is_empty() {
            text.push_str("\nThe judge's diff:\n  ");
            text.push_str(d.diff.trim_end().replace('\n', "\n  ").as_str());
        }
        text
    }

    /// Writes the case file into `dir` and returns its path.
    pub fn write(&self, dir: &Path, adapter: &str) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        let case = self.case(dir);
        let text = crate::case::write::to_yaml(&case, &self.comment(adapter));
        std::fs::write(&case.file, text)?;
        Ok(case.file)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::fuzz::sample::Rendered;
    use crate::subject::{AdapterFailure, FailureKind};
    use toolpath_suite::case::validate::parse_case;
    use toolpath_suite::protocol::{Outcome, ToolResult};

    /// What an adapter controls in a finding is made of these: its command
    /// line, its stderr and its answer (through `actual_text`); and the
    /// parameter value the generator tried, which the case must keep. The
    /// first is the bare key injection; the second adds what a terminal or
    /// a YAML parser would act on.
    const HOSTILE: [&str; 2] = [
        "x\rinjected: true",
        "x\rinjected: true\n\u{1b}]52;c;cm0=\u{7}\u{202e}\u{200d}\u{0}\u{2028}",
    ];

    fn finding(hostile: &str) -> FuzzFinding {
        let base = parse_case(
            Path::new("t.yaml"),
            "id: t.t\nsummary: s\nspec: [RES-1]\nfixture: {roots: [ws]}\n\
             call: {tool: resolve, params: {path: a}}\nexpect: {outcome: ok}\n",
        )
        .unwrap();
        let mut params = serde_json::Map::new();
        params.insert("path".into(), hostile.into());
        let failure = AdapterFailure {
            kind: FailureKind::Crash,
            message: hostile.into(),
            stderr: hostile.into(),
        };
        FuzzFinding {
            seed: 7,
            iteration: 3,
            divergence: Divergence {
                rendered: Rendered {
                    fixture: base.fixture,
                    tool: Tool::Resolve,
                    params,
                },
                failed: crate::fuzz::failed::Failed::Subject(FailureKind::Crash),
                rules: vec!["RES-1".into()],
                expect: crate::fuzz::from_reference::expect_of(
                    &ToolResult {
                        outcome: Some(Outcome::Ok),
                        path: Some(format!("{{ws}}/{hostile}")),
                        ..ToolResult::default()
                    },
                    &[],
                    false,
                ),
                mismatches: Vec::new(),
                // What the adapter said goes into the diff too.
                diff: format!("-path: \"{{ws}}\"\n+path: {hostile:?}\n{hostile}"),
                actual: Err(failure.clone()),
                actual_text: format!("adapter failure: {failure}\nstderr:\n  {hostile}"),
                signature: Default::default(),
            },
        }
    }

    #[test]
    fn adapter_text_cannot_inject_keys_and_the_case_still_reproduces() {
        for hostile in HOSTILE {
            let dir = tempfile::tempdir().unwrap();
            let finding = finding(hostile);
            let file = finding.write(dir.path(), hostile).unwrap();
            let text = std::fs::read_to_string(&file).unwrap();
            let top: BTreeMap<String, serde_json::Value> = serde_saphyr::from_str(&text)
                .unwrap_or_else(|e| panic!("{hostile:?}: {e}\n{text}"));
            let keys: Vec<&str> = top.keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                ["call", "expect", "fixture", "id", "spec", "summary"],
                "{text}"
            );
            assert_eq!(
                toolpath_suite::sanitize::first_hostile(&text),
                None,
                "a reviewer sees every character: {text}"
            );
            let again = parse_case(&file, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let expected = finding.case(dir.path());
            assert_eq!(again.action, expected.action, "the call reproduces");
            assert_eq!(Case { line: 0, ..again }, expected, "{text}");
            let Action::Invoke(params) = &expected.action else {
                panic!("an invocation")
            };
            assert_eq!(params["path"], hostile);
        }
    }
}
