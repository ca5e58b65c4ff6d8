//! What a run was run against: the digest of its suite and of its runner's
//! files (issue 33). A report records it, and every page made from the
//! report shows it as one line, so a committed page can be found stale
//! (its suite or its runner changed since) by reading that line alone,
//! with nothing run again. The digests are computed from the files
//! (`session::run_against`), never given by hand. Beside them, what the
//! line leaves out so that a page made again from the same files is the
//! same page: the day the run was made, and whether it was made as a
//! known-bad control (the certification page shows both).
//!
//! The line, here written and read back (one home for its syntax):
//!
//! ```text
//! suite `sha256:…`, runner `runners/gemini-cli-core` + `runners/common-node` `sha256:…`
//! ```

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The digests a run was made against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RunAgainst {
    /// `sha256:HEX` of the suite's content: the spec's requirement table
    /// and every case file the run read (the embedded suite, or the
    /// `--cases` and `--add-cases` directories), each with its path.
    pub suite: String,
    /// The runner's directories and the digest of their files, when the
    /// run was given them (`--runner-dir`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<Runner>,
    /// The day the run started (UTC, `YYYY-MM-DD`): the date a page says
    /// the row was certified. Not part of [`RunAgainst::markdown`], so a
    /// page made again the next day from the same files is the same page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certified: Option<String>,
    /// Why the row is a known-bad control (`toolpath run --control
    /// REASON`): an implementation certified to show what the suite
    /// catches, not one to choose. Not part of [`RunAgainst::markdown`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<String>,
}

/// A runner's directories, as given, and the digest of their files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Runner {
    pub dirs: Vec<String>,
    /// `sha256:HEX` of every file below `dirs` that can change a verdict
    /// (what `session::run_against::runner_files` lists).
    pub digest: String,
}

/// What a page shows for a report that recorded nothing (made before
/// records were kept, or not by `toolpath run`): always stale.
pub const NOT_RECORDED: &str = "run against: not recorded";

/// Whether `dir` can be shown in a code span and read back unchanged:
/// a runner directory's name must be plain (no backquote, no line break,
/// no ` + `), which `--runner-dir` checks before a run.
pub fn plain_dir(dir: &str) -> bool {
    !dir.is_empty()
        && !dir.contains(" + ")
        && dir
            .chars()
            .all(|c| c != '`' && !c.is_control() && c != '\u{2028}' && c != '\u{2029}')
}

impl RunAgainst {
    /// The line pages show (Markdown; the digests need no escaping, and
    /// the directories are plain, [`plain_dir`]).
    pub fn markdown(&self) -> String {
        let mut line = format!("suite `{}`", self.suite);
        if let Some(runner) = &self.runner {
            let dirs: Vec<String> = runner.dirs.iter().map(|d| format!("`{d}`")).collect();
            line.push_str(&format!(
                ", runner {} `{}`",
                dirs.join(" + "),
                runner.digest
            ));
        }
        line
    }

    /// The record in a line of a page, wherever in the line it stands
    /// (after a label such as `- **Run against:** `): the label, and the
    /// record (`None` where the line says [`NOT_RECORDED`]). `None` when
    /// the line holds neither.
    pub fn find(line: &str) -> Option<(&str, Option<RunAgainst>)> {
        if let Some(at) = line.find(NOT_RECORDED) {
            return Some((label(&line[..at]), None));
        }
        let at = line.find("suite `sha256:")?;
        let (label, rest) = line.split_at(at);
        let rest = rest.strip_prefix("suite `")?;
        let (suite, rest) = rest.split_once('`')?;
        let runner = match rest.strip_prefix(", runner `") {
            None => None,
            Some(rest) => {
                let (dirs, digest) = rest.rsplit_once("` `")?;
                let digest = digest.strip_suffix('`')?;
                Some(Runner {
                    dirs: dirs.split("` + `").map(str::to_owned).collect(),
                    digest: digest.to_owned(),
                })
            }
        };
        Some((
            self::label(label),
            Some(RunAgainst {
                suite: suite.to_owned(),
                runner,
                certified: None,
                control: None,
            }),
        ))
    }
}

/// `- **NAME:** ` as `NAME`.
fn label(before: &str) -> &str {
    before
        .trim_start()
        .trim_start_matches("- ")
        .trim_matches(|c| matches!(c, '*' | ':' | ' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runner() -> RunAgainst {
        RunAgainst {
            suite: "sha256:aa".into(),
            runner: Some(Runner {
                dirs: vec!["runners/x".into(), "runners/common node".into()],
                digest: "sha256:bb".into(),
            }),
            certified: None,
            control: None,
        }
    }

    #[test]
    fn the_line_reads_back_as_written() {
        for record in [
            runner(),
            RunAgainst {
                suite: "sha256:cc".into(),
                runner: None,
                certified: None,
                control: None,
            },
        ] {
            let line = format!("- **Run against:** {}", record.markdown());
            assert_eq!(
                RunAgainst::find(&line),
                Some(("Run against", Some(record.clone()))),
                "{line}"
            );
            let line = format!("- **tool 1.0 (python):** {}", record.markdown());
            assert_eq!(
                RunAgainst::find(&line).map(|(l, _)| l),
                Some("tool 1.0 (python)")
            );
        }
        assert_eq!(
            runner().markdown(),
            "suite `sha256:aa`, runner `runners/x` + `runners/common node` `sha256:bb`"
        );
    }

    #[test]
    fn a_line_without_a_record_has_none() {
        assert_eq!(RunAgainst::find("- **Suite:** 0.3.0 (protocol 1)"), None);
        assert_eq!(RunAgainst::find("suite `sha256:unclosed"), None);
        assert_eq!(
            RunAgainst::find(&format!("- **old 1.0:** {NOT_RECORDED}")),
            Some(("old 1.0", None))
        );
    }

    #[test]
    fn only_plain_directories_can_be_recorded() {
        assert!(plain_dir("runners/gemini-cli-core"));
        assert!(plain_dir("my runner"));
        for bad in ["", "a`b", "a\nb", "a + b", "a\u{2028}b"] {
            assert!(!plain_dir(bad), "{bad:?}");
        }
    }
}
