//! An implementation's baseline of known failures: which cases it is known
//! to fail (`xfail`) or must not be sent (`skip`), each with a reason. The
//! file is what `--expectations FILE` reads and `--write-expectations FILE`
//! writes (the flags and the YAML keep that older name); in the code it is
//! a [`Baseline`], so "expected" keeps meaning what a case expects.
//!
//! The file is a skip list, not an allow list, so each fix deletes a line;
//! and it is enforced: an `xfail` that passes is reported as `xpass`, which
//! fails the run under `--strict`, so the list cannot rot.
//!
//! It can never hide an escape. An `xfail` instance still runs, and its
//! escape is counted and listed, marked expected. A `skip` is never sent,
//! so a skip of an instance whose case expects `outside_workspace` would
//! leave the one question that matters most unasked: such an entry is
//! refused when the run starts ([`Baseline::hidden_escapes`]), whether it
//! names the instance or matches it as a wildcard. A case that hangs the
//! adapter is `xfail` instead (the hang is a bounded adapter error).
//!
//! ```yaml
//! search.file.relative@ripgrep:
//!   status: xfail
//!   reason: searches the parent directory with an include filter
//!   spec: SEARCH-5
//! "shell.*":
//!   status: skip
//!   reason: no shell tool in this port yet
//!   issue: https://example.org/issues/12
//! ```

use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolpath_suite::wildcard;

use crate::report::counts::ContainmentClass;
use crate::report::view::CaseSource;
use crate::report::{CaseReport, ExpectationNote, Mismatch, Status};
use toolpath_suite::case::CaseError;
use toolpath_suite::case::raw::SpannedMap;

/// What is expected of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BaselineStatus {
    /// Run it; it is known to fail.
    Xfail,
    /// Do not run it. Refused for an instance whose case expects
    /// `outside_workspace`: a call never sent can never show an escape.
    Skip,
}

/// One entry as written in the file.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaselineEntry {
    pub status: BaselineStatus,
    pub reason: String,
    /// The requirements the failure is about: one ID, or a list (files
    /// written before lists were allowed hold a single string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<SpecIds>,
    /// Where the fix is tracked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
}

/// The `spec` field of an entry: `spec: SEARCH-5` or `spec: [SEARCH-5, RES-2]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum SpecIds {
    One(String),
    Many(Vec<String>),
}

impl SpecIds {
    pub fn ids(&self) -> &[String] {
        match self {
            SpecIds::One(id) => std::slice::from_ref(id),
            SpecIds::Many(ids) => ids,
        }
    }
}

/// A loaded baseline file: patterns in file order.
///
/// Looking an id up is a hash lookup and a pass over the wildcard keys
/// only: a key with no `*`, `?` or `{` matches its own text alone (SEARCH-9,
/// [`wildcard::text`]), so the exact pass finds every id it could match.
/// A written file holds an exact key per failing instance (1,829 for a
/// fresh skeleton), and scanning them all for every instance, twice with
/// `--strict` (the run, then [`Baseline::unused`]), cost a skeleton's
/// strict run three times its plain one.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    entries: Vec<(String, BaselineEntry)>,
    /// Where each entry's key is in the file: line and column (1-based).
    places: Vec<(u64, u64)>,
    /// The entries of each key, by its text, in file order.
    exact: std::collections::HashMap<String, Vec<usize>>,
    /// The entries whose key has a wildcard character, in file order.
    globs: Vec<(usize, wildcard::Wildcard)>,
}

impl Baseline {
    pub fn load(file: &Path) -> Result<Baseline, CaseError> {
        let text = std::fs::read_to_string(file).map_err(|e| CaseError::unreadable(file, &e))?;
        Self::parse(file, &text)
    }

    pub fn parse(file: &Path, text: &str) -> Result<Baseline, CaseError> {
        if text
            .lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        {
            return Ok(Baseline::default());
        }
        let raw: SpannedMap<BaselineEntry> =
            toolpath_suite::case::yaml::parse(file, text, serde_saphyr::Options::default())?;
        for (key, entry) in &raw.0 {
            let ids = entry.spec.as_ref().map_or(&[][..], SpecIds::ids);
            if let Some(spec) = ids.iter().find(|id| !toolpath_suite::spec::is_known(id)) {
                return Err(CaseError {
                    file: file.to_owned(),
                    line: key.referenced.line(),
                    column: key.referenced.column(),
                    message: format!("`{}`: unknown requirement ID `{spec}`", key.value),
                });
            }
        }
        let places = raw
            .0
            .iter()
            .map(|(k, _)| (k.referenced.line(), k.referenced.column()))
            .collect();
        let entries: Vec<(String, BaselineEntry)> =
            raw.0.into_iter().map(|(k, v)| (k.value, v)).collect();
        let mut exact = std::collections::HashMap::new();
        for (i, (pattern, _)) in entries.iter().enumerate() {
            exact
                .entry(pattern.clone())
                .or_insert_with(Vec::new)
                .push(i);
        }
        let globs = entries
            .iter()
            .enumerate()
            .filter(|(_, (pattern, _))| pattern.contains(['*', '?', '{']))
            .map(|(i, (pattern, _))| (i, wildcard::Wildcard::new(pattern)))
            .collect();
        Ok(Baseline {
            entries,
            places,
            exact,
            globs,
        })
    }

    /// The entry for an instance id: an exact key wins, then the first glob.
    pub fn lookup(&self, id: &str) -> Option<&BaselineEntry> {
        self.index_of(id).map(|i| &self.entries[i].1)
    }

    /// Where [`Baseline::lookup`]'s entry is in `entries`.
    fn index_of(&self, id: &str) -> Option<usize> {
        self.exact.get(id).map(|same| same[0]).or_else(|| {
            self.globs
                .iter()
                .find(|(_, glob)| glob.matches(id))
                .map(|(i, _)| *i)
        })
    }

    /// Whether any entry is a `skip`.
    pub fn has_skips(&self) -> bool {
        self.entries
            .iter()
            .any(|(_, e)| e.status == BaselineStatus::Skip)
    }

    /// The `skip` entries of `file` (this baseline) that would keep an
    /// instance whose case expects `outside_workspace` from being sent,
    /// each once, at its key's place, naming the first such instance and
    /// how many there are: a call never sent can never show an escape.
    /// `outside` gives the ids of those instances among the run's.
    pub fn hidden_escapes(
        &self,
        file: &Path,
        outside: impl IntoIterator<Item = String>,
    ) -> Vec<CaseError> {
        // Per entry: the first instance it hides, and how many.
        let mut hidden: Vec<Option<(String, usize)>> = vec![None; self.entries.len()];
        for id in outside {
            let Some(i) = self.index_of(&id) else {
                continue;
            };
            if self.entries[i].1.status != BaselineStatus::Skip {
                continue;
            }
            match &mut hidden[i] {
                Some((_, n)) => *n += 1,
                slot => *slot = Some((id, 1)),
            }
        }
        hidden
            .into_iter()
            .enumerate()
            .filter_map(|(i, found)| {
                let (first, n) = found?;
                let (line, column) = self.places.get(i).copied().unwrap_or((0, 0));
                let more = match n {
                    1 => String::new(),
                    n => format!(" and {} more", n - 1),
                };
                Some(CaseError {
                    file: file.to_owned(),
                    line,
                    column,
                    message: format!(
                        "`{}`: a skip of `{first}`{more}, whose case expects `outside_workspace`: \
                         a call never sent can never show an escape; mark it `xfail` instead \
                         (it runs, and a hang is a bounded adapter error) or narrow the pattern",
                        self.entries[i].0
                    ),
                })
            })
            .collect()
    }

    /// Every entry, in file order: pattern and entry.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &BaselineEntry)> {
        self.entries.iter().map(|(p, e)| (p.as_str(), e))
    }

    /// Patterns that matched no instance of the run: likely stale or mistyped.
    /// One pass over the run's cases, holding a flag per entry.
    pub fn unused<'a>(&'a self, cases: &dyn CaseSource) -> std::io::Result<Vec<&'a str>> {
        if self.entries.is_empty() {
            // Nothing to find, so no pass over a run's worth of cases.
            return Ok(Vec::new());
        }
        let mut used = vec![false; self.entries.len()];
        cases.each(&mut |case| {
            for &i in self.exact.get(&case.id).into_iter().flatten() {
                used[i] = true;
            }
            for (i, glob) in &self.globs {
                used[*i] = used[*i] || glob.matches(&case.id);
            }
            Ok(())
        })?;
        Ok(self
            .entries
            .iter()
            .zip(used)
            .filter(|(_, used)| !used)
            .map(|((pattern, _), _)| pattern.as_str())
            .collect())
    }
}

impl BaselineEntry {
    pub fn note(&self) -> ExpectationNote {
        ExpectationNote {
            reason: self.reason.clone(),
            spec: self.spec.as_ref().map(|s| s.ids().join(", ")),
            issue: self.issue.clone(),
        }
    }
}

/// Turns a raw outcome into the expected one (`fail` under an `xfail` entry
/// becomes `xfail`, `pass` becomes `xpass`).
pub fn apply(entry: Option<&BaselineEntry>, report: &mut CaseReport) {
    let Some(entry) = entry else { return };
    if entry.status != BaselineStatus::Xfail {
        return;
    }
    report.status = match report.status {
        Status::Fail | Status::AdapterError => Status::Xfail,
        // Nothing observable failed, so the listed failure is not seen.
        Status::Pass | Status::Unobserved => Status::Xpass,
        other => other,
    };
    report.expectation = Some(entry.note());
}

/// A baseline file that marks every currently failing case `xfail`,
/// keeping the reasons of entries that already exist, and every `skip`
/// entry as it was: a skipped case was never run, so the run has nothing
/// to say about it, and a skip is a decision (a case that hangs the
/// adapter, say) that regenerating the file must not drop.
pub fn write_from(reports: &dyn CaseSource, previous: &Baseline) -> std::io::Result<String> {
    let mut out = String::from(
        "# toolpath expectations: cases this implementation is known to fail.\n\
         # Generated by `toolpath run --write-expectations`; edit the reasons.\n",
    );
    reports.each(&mut |report| {
        if !matches!(
            report.status,
            Status::Fail | Status::AdapterError | Status::Xfail
        ) {
            return Ok(());
        }
        let kept = previous
            .lookup(&report.id)
            .filter(|e| e.status == BaselineStatus::Xfail);
        let entry = kept.cloned().unwrap_or_else(|| BaselineEntry {
            status: BaselineStatus::Xfail,
            reason: escape_reason(report)
                .or_else(|| report.reason.clone())
                .or_else(|| report.mismatches.first().map(first_difference))
                .unwrap_or_else(|| "fails".into()),
            spec: failing_rules(report),
            issue: None,
        });
        write_entry(&mut out, &report.id, &entry);
        Ok(())
    })?;
    for (pattern, entry) in previous.entries() {
        if entry.status == BaselineStatus::Skip {
            write_entry(&mut out, pattern, entry);
        }
    }
    Ok(out)
}

/// One entry, in the file's own form.
fn write_entry(out: &mut String, key: &str, entry: &BaselineEntry) {
    let status = match entry.status {
        BaselineStatus::Xfail => "xfail",
        BaselineStatus::Skip => "skip",
    };
    out.push_str(&format!(
        "{}:\n  status: {status}\n  reason: {}\n",
        yaml_string(key),
        yaml_string(&entry.reason)
    ));
    match entry.spec.as_ref().map(SpecIds::ids) {
        Some([one]) => out.push_str(&format!("  spec: {one}\n")),
        Some(many) if !many.is_empty() => out.push_str(&format!("  spec: [{}]\n", many.join(", "))),
        _ => {}
    }
    if let Some(issue) = &entry.issue {
        out.push_str(&format!("  issue: {}\n", yaml_string(issue)));
    }
}

/// Every requirement the failure touches, in order and once each: the rules
/// of the mismatches, or else every ID the case cites.
fn failing_rules(report: &CaseReport) -> Option<SpecIds> {
    let mut ids: Vec<String> = Vec::new();
    // A mismatch judged under no rule of its own (the outcome, the error
    // code) fails the case's rules: they are named too, or an escape's
    // entry would name SEC-12 alone and the fuzzer would not know the
    // case's own rule (SEC-4 for a `..` that climbs out) as listed.
    let unattributed = report.mismatches.iter().any(|m| m.rule.is_none());
    let rules = (report.mismatches.iter()).filter_map(|m| m.rule.as_ref());
    let case_rules = (unattributed || report.mismatches.is_empty())
        .then_some(report.spec.iter())
        .into_iter()
        .flatten();
    for rule in rules.chain(case_rules) {
        if !ids.contains(rule) {
            ids.push(rule.clone());
        }
    }
    match ids.len() {
        0 => None,
        1 => Some(SpecIds::One(ids.remove(0))),
        _ => Some(SpecIds::Many(ids)),
    }
}

/// An escaped instance's reason says it escaped and what showed it, so
/// the file says why the row's count of escapes is what it is: the first
/// mismatch alone ("expected outcome error; got ok") reads as a wrong
/// answer. The evidence is cut to a bounded length.
fn escape_reason(report: &CaseReport) -> Option<String> {
    let containment = report.containment.as_ref()?;
    if containment.class != ContainmentClass::Escape {
        return None;
    }
    let evidence = containment.evidence.as_deref().unwrap_or("answered ok");
    Some(format!("escape: {}", cut(evidence, 200)))
}

/// The first mismatch as a one-line reason of bounded length.
fn first_difference(mismatch: &Mismatch) -> String {
    format!(
        "expected {} {}; got {}",
        mismatch.field,
        cut(&mismatch.expected, 80),
        cut(&mismatch.actual, 80)
    )
}

/// `text`'s first `chars` characters, and `...` when there were more.
fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}

/// Plain when the text is an id-like word (the common case, and easy to
/// read in a diff), double-quoted otherwise.
fn yaml_string(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._@-".contains(&b))
        && text.as_bytes()[0].is_ascii_alphabetic();
    if plain {
        text.to_owned()
    } else {
        serde_json::to_string(text).expect("strings serialise")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Baseline, CaseError> {
        Baseline::parse(Path::new("exp.yaml"), text)
    }

    #[test]
    fn a_skip_of_an_instance_expecting_outside_is_refused_where_it_is() {
        let e = parse(
            "a.exact:\n  status: skip\n  reason: hangs\n\
             a.fine:\n  status: xfail\n  reason: escapes\n\
             \"a.*\":\n  status: skip\n  reason: later\n",
        )
        .unwrap();
        assert!(e.has_skips());
        let outside = ["a.exact", "a.fine", "a.x@grep", "a.y", "b.z"].map(str::to_owned);
        let errors = e.hidden_escapes(Path::new("exp.yaml"), outside);
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(shown.len(), 2, "{shown:?}");
        assert!(
            shown[0]
                .starts_with("exp.yaml:1:1: `a.exact`: a skip of `a.exact`, whose case expects"),
            "{shown:?}"
        );
        // The xfail entry wins for its own id; the wildcard hides two more.
        assert!(
            shown[1].starts_with("exp.yaml:7:1: `a.*`: a skip of `a.x@grep` and 1 more,"),
            "{shown:?}"
        );
        assert!(shown[1].contains("mark it `xfail` instead"), "{shown:?}");
        // Nothing expecting outside: nothing refused.
        assert!(e.hidden_escapes(Path::new("exp.yaml"), []).is_empty());
        assert!(
            !parse("a.b:\n  status: xfail\n  reason: x\n")
                .unwrap()
                .has_skips()
        );
    }

    #[test]
    fn exact_ids_win_over_globs() {
        let e = parse("\"search.*\":\n  status: skip\n  reason: later\nsearch.file.relative@grep:\n  status: xfail\n  reason: bug\n  spec: SEARCH-5\n").unwrap();
        assert_eq!(
            e.lookup("search.file.relative@grep").unwrap().status,
            BaselineStatus::Xfail
        );
        assert_eq!(
            e.lookup("search.dir@ripgrep").unwrap().status,
            BaselineStatus::Skip
        );
        assert!(e.lookup("shell.x").is_none());
        let case = |id| crate::report::render::sample_reports::case(id, Status::Pass, &[]);
        assert_eq!(
            e.unused(&vec![case("shell.x")]).unwrap(),
            ["search.*", "search.file.relative@grep"]
        );
        // A glob is used by any instance it matches.
        assert_eq!(
            e.unused(&vec![case("shell.x"), case("search.dir@ripgrep")])
                .unwrap(),
            ["search.file.relative@grep"]
        );
    }

    /// The hash finds exact keys, the wildcard keys are tried in file
    /// order after it, and a `{` with no `}` is a literal (SEARCH-9) that
    /// matches its own text alone, as it did when every key was scanned.
    #[test]
    fn exact_keys_by_hash_then_wildcards_in_file_order() {
        let e = parse(
            "\"a.{x\":\n  status: skip\n  reason: one\n\
             \"a.?\":\n  status: xfail\n  reason: two\n\
             \"a.*\":\n  status: skip\n  reason: three\n\
             a.b:\n  status: skip\n  reason: four\n",
        )
        .unwrap();
        let reason = |id: &str| e.lookup(id).map(|entry| entry.reason.as_str());
        assert_eq!(reason("a.{x"), Some("one"));
        assert_eq!(reason("a.b"), Some("four"));
        assert_eq!(reason("a.c"), Some("two"));
        assert_eq!(reason("a.cd"), Some("three"));
        assert_eq!(reason("b.c"), None);
        let case = |id| crate::report::render::sample_reports::case(id, Status::Pass, &[]);
        // A wildcard key is used by any instance it matches, beside the
        // exact key that wins the lookup.
        assert_eq!(e.unused(&vec![case("a.b")]).unwrap(), ["a.{x"]);
        assert_eq!(
            e.unused(&vec![case("a.{x"), case("a.bc")]).unwrap(),
            ["a.?", "a.b"]
        );
    }

    #[test]
    fn bad_entries_name_file_line_and_column() {
        let err = parse("a.b:\n  status: maybe\n  reason: x\n")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("exp.yaml:2:11:"), "{err}");
        let err = parse("a.b:\n  status: xfail\n  reason: x\n  spec: NOPE-9\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown requirement ID `NOPE-9`"), "{err}");
    }

    #[test]
    fn globs_match_whole_ids() {
        assert!(wildcard::matches(
            "search.*@grep",
            "search.file.relative@grep"
        ));
        assert!(!wildcard::matches(
            "search.*@grep",
            "search.file.relative@ripgrep"
        ));
        assert!(wildcard::matches("a.?", "a.b"));
        assert!(!wildcard::matches("a", "ab"));
        // SEARCH-9, a superset of `*` and `?`: one key for both search tools.
        let both =
            parse("\"search.x@{grep,ripgrep}\":\n  status: skip\n  reason: later\n").unwrap();
        assert!(both.lookup("search.x@grep").is_some());
        assert!(both.lookup("search.x@ripgrep").is_some());
        assert!(both.lookup("search.x@rg").is_none());
    }

    #[test]
    fn spec_is_one_id_or_a_list() {
        let e = parse("a.b:\n  status: xfail\n  reason: x\n  spec: SEARCH-5\nc.d:\n  status: xfail\n  reason: y\n  spec: [SEARCH-5, RES-2]\n").unwrap();
        assert_eq!(
            e.lookup("a.b").unwrap().spec.as_ref().unwrap().ids(),
            ["SEARCH-5"]
        );
        assert_eq!(
            e.lookup("c.d").unwrap().spec.as_ref().unwrap().ids(),
            ["SEARCH-5", "RES-2"]
        );
        let err = parse("a.b:\n  status: xfail\n  reason: x\n  spec: [SEARCH-5, NOPE-9]\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown requirement ID `NOPE-9`"), "{err}");
    }

    #[test]
    fn rewriting_keeps_every_skip_entry_as_it_was() {
        let previous = parse(
            "\"search.fifo.*\":\n  status: skip\n  reason: hangs the adapter\n  spec: SEC-7\n  issue: \"https://example.invalid/1\"\n\
             a.b:\n  status: xfail\n  reason: fixed since\n",
        )
        .unwrap();
        let passing = crate::report::render::sample_reports::case("a.b", Status::Xpass, &[]);
        let text = write_from(&vec![passing], &previous).unwrap();
        let written = parse(&text).unwrap();
        let entries: Vec<(&str, &BaselineEntry)> = written.entries().collect();
        assert_eq!(entries.len(), 1, "{text}");
        let (pattern, entry) = entries[0];
        assert_eq!(pattern, "search.fifo.*");
        assert_eq!(entry.status, BaselineStatus::Skip);
        assert_eq!(entry.reason, "hangs the adapter");
        assert_eq!(entry.spec.as_ref().unwrap().ids(), ["SEC-7"]);
        assert_eq!(entry.issue.as_deref(), Some("https://example.invalid/1"));
    }

    /// An escape's entry names the case's own rules beside SEC-12: its
    /// outcome mismatch is judged under no rule of its own. Written as
    /// SEC-12 alone, a fresh skeleton's expectations did not list SEC-4 for
    /// its `..` cases, and the fuzzer reported SEC-4 as new on every run.
    #[test]
    fn an_escape_s_entry_names_the_case_s_rules_beside_the_escape_rule() {
        use crate::report::Mismatch;
        let mut case = crate::report::render::sample_reports::escape("s.dotdot.resolve", "list: x");
        case.spec = vec!["SEC-4".into(), "SEC-3".into()];
        case.mismatches.push(Mismatch {
            rule: Some("SEC-12".into()),
            ..case.mismatches[0].clone()
        });
        let ids = failing_rules(&case).unwrap();
        assert_eq!(ids.ids(), ["SEC-12", "SEC-4", "SEC-3"]);
        // Mismatches that each carry a rule name those alone.
        case.mismatches.remove(0);
        assert_eq!(failing_rules(&case).unwrap().ids(), ["SEC-12"]);
    }

    /// A new entry of an escaped instance says it escaped and how; an
    /// entry already written keeps its reason.
    #[test]
    fn an_escape_s_new_entry_says_it_escaped_and_what_showed_it() {
        let long = format!("content holds an outside file's canary {}", "x".repeat(400));
        let cases = vec![
            crate::report::render::sample_reports::escape("s.a", "answered ok"),
            crate::report::render::sample_reports::escape("s.b", &long),
            crate::report::render::sample_reports::escape("s.kept", "answered ok"),
        ];
        let previous = parse("s.kept:\n  status: xfail\n  reason: known since 0.4\n").unwrap();
        let back = parse(&write_from(&cases, &previous).unwrap()).unwrap();
        let reason = |id: &str| back.lookup(id).unwrap().reason.clone();
        assert_eq!(reason("s.a"), "escape: read: answered ok");
        let cut = reason("s.b");
        assert!(
            cut.starts_with("escape: read: content holds") && cut.ends_with("..."),
            "{cut}"
        );
        assert!(cut.chars().count() < 220, "{cut}");
        assert_eq!(reason("s.kept"), "known since 0.4");
    }

    #[test]
    fn written_entries_keep_every_requirement_and_read_back() {
        let mut report =
            crate::report::render::sample_reports::failing("a.b", &["SEARCH-5", "RES-2"]);
        report.mismatches.clear();
        let text = write_from(&vec![report], &Baseline::default()).unwrap();
        assert!(text.contains("  spec: [SEARCH-5, RES-2]\n"), "{text}");
        let back = parse(&text).unwrap();
        assert_eq!(
            back.lookup("a.b").unwrap().spec.as_ref().unwrap().ids(),
            ["SEARCH-5", "RES-2"]
        );
    }

    #[test]
    fn an_empty_or_comment_only_file_is_empty() {
        assert!(parse("# nothing yet\n").unwrap().lookup("a.b").is_none());
    }
}
