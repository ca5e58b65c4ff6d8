//! A finding: a shrunk divergence written as a ready-to-review case file
//! (`cases/README.md` format), with the reference's answer as `expect` and
//! the adapter's answer in a comment.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::fuzz::probe::Divergence;
use toolpath_suite::case::raw::{ExpectedOutcome, Feature};
use toolpath_suite::case::{Action, Case, ErrorExpect, Expect, ExpectedMatch};
use toolpath_suite::protocol::{Outcome, Tool, ToolResult};

/// A divergence found at one iteration of one seed.
#[derive(Debug, Clone)]
pub struct Finding {
    pub seed: u64,
    pub iteration: u64,
    pub divergence: Divergence,
}

impl Finding {
    /// The case id: the area, `fuzz`, the rule and the differing fields,
    /// so one finding keeps one file name across runs.
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
        let fields: Vec<String> = d.fields.iter().map(|f| f.replace('.', "-")).collect();
        if d.adapter_failed() {
            // Keyed by the failure alone (see `Divergence::key`).
            return format!("{area}.fuzz.{}", fields.join("-"));
        }
        format!(
            "{area}.fuzz.{}.{}",
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
            line: 0,
            summary: format!(
                "Found by toolpath fuzz (seed {}, iteration {}): {} differ(s) from the reference; review and describe the rule.",
                self.seed,
                self.iteration,
                d.fields.join(", ")
            ),
            spec: d.rules.clone(),
            tags: Vec::new(),
            requires,
            fixture: f.clone(),
            tools: vec![d.rendered.tool],
            action: Action::Invoke(d.rendered.params.clone()),
            expect: expectation(&d.reference, &d.message_needles, &d.fields),
        }
    }

    /// The comment at the top of the file: how it was found and what the
    /// adapter said instead.
    pub fn comment(&self, adapter: &str) -> String {
        let d = &self.divergence;
        format!(
            "Found by `toolpath fuzz --seed {} --adapter '{adapter}'` at iteration {}.\n\
             Differing: {}. Review the rule and the expectation before adding it to cases/.\n\
             The adapter answered:\n  {}",
            self.seed,
            self.iteration,
            d.fields.join(", "),
            d.actual_text.replace('\n', "\n  ")
        )
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

/// The reference's answer as a case expectation (placeholders already in).
/// `parent` is optional to expose (RES-11), so it is expected only when it
/// is what differs.
fn expectation(reference: &ToolResult, needles: &[String], fields: &[&str]) -> Expect {
    let error = reference.outcome == Some(Outcome::Error);
    let file = reference.kind == Some(toolpath_suite::protocol::Kind::File);
    Expect {
        outcome: if error {
            ExpectedOutcome::Error
        } else {
            ExpectedOutcome::Ok
        },
        kind: reference.kind,
        path: reference.path.clone(),
        parent: reference
            .parent
            .clone()
            .filter(|_| file && fields.contains(&"parent")),
        cwd: reference.cwd.clone(),
        matches: reference.matches.as_ref().map(|ms| {
            let mut v: Vec<ExpectedMatch> = ms
                .iter()
                .map(|m| ExpectedMatch {
                    path: m.path.clone(),
                    line: m.line,
                })
                .collect();
            v.sort();
            v.dedup();
            v
        }),
        notes: reference.notes.clone().filter(|_| !error),
        files: reference.files.clone().filter(|_| !error),
        entries: reference
            .entries
            .as_ref()
            .filter(|_| !error)
            .map(|es| es.iter().map(|e| (e.path.clone(), e.entry_type)).collect()),
        error: reference.error.as_ref().map(|e| ErrorExpect {
            code: e.code,
            message_contains: needles.to_vec(),
        }),
        // The fuzzer calls no tool that writes (see `fuzz::run`).
        writes: Vec::new(),
        mentions: None,
        excludes: None,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::fuzz::sample::Rendered;
    use crate::subject::{AdapterFailure, FailureKind};
    use toolpath_suite::case::validate::parse_case;

    /// What an adapter controls in a finding is made of these: its command
    /// line, its stderr and its answer (through `actual_text`); and the
    /// parameter value the generator tried, which the case must keep. The
    /// first is the bare key injection; the second adds what a terminal or
    /// a YAML parser would act on.
    const HOSTILE: [&str; 2] = [
        "x\rinjected: true",
        "x\rinjected: true\n\u{1b}]52;c;cm0=\u{7}\u{202e}\u{200d}\u{0}\u{2028}",
    ];

    fn finding(hostile: &str) -> Finding {
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
        Finding {
            seed: 7,
            iteration: 3,
            divergence: Divergence {
                rendered: Rendered {
                    fixture: base.fixture,
                    tool: Tool::Resolve,
                    params,
                },
                fields: vec!["adapter.crash"],
                rules: vec!["RES-1".into()],
                reference: ToolResult {
                    outcome: Some(Outcome::Ok),
                    path: Some(format!("{{ws}}/{hostile}")),
                    ..ToolResult::default()
                },
                actual: Err(failure.clone()),
                message_needles: Vec::new(),
                actual_text: format!("adapter failure: {failure}\nstderr:\n  {hostile}"),
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
