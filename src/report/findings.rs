//! Findings: what a subject did wrong *as a server* rather than in one
//! answer, kept per run and shown in every report format.
//!
//! An MCP server is certified without adapter code, so what an adapter
//! would have hidden shows here: standard output that is not JSON-RPC
//! (stricter clients drop the connection on it), a request it never
//! answered, a server that had to be killed because closing its input did
//! not end it, and a fixture the profile changed before calls (a `git
//! init`). None of them is an answer's verdict: a case whose request was
//! never answered fails on its own; the finding says it happened, how
//! often and where.
//!
//! A finding is the same however the run was split between workers
//! (`--jobs`) and in whatever order they met it: the instances it keeps
//! are the first in id order, and its example is the one met during the
//! first of them. So a report at `--jobs 2` is the report at `--jobs 1`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How many instance ids one finding keeps (the count says how many in all).
pub const MAX_FINDING_CASES: usize = 20;

/// What kind of misbehaviour a finding is.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum FindingKind {
    /// A line on standard output that is not a JSON-RPC message; skipped.
    NotJsonRpc,
    /// A request the server never answered within the call's timeout; the
    /// server was ended and started again.
    NeverAnswered,
    /// The server exited (or its pipes broke) while a request was open;
    /// it was started again, within `--max-restarts`.
    Crashed,
    /// A tool polled to the profile's limit never said it was done: new
    /// MCP roots never in force, a search session never complete. The
    /// server was ended and started again.
    PollsExhausted,
    /// The server did not exit after its standard input closed and had to
    /// be sent SIGTERM (or SIGKILL).
    Killed,
    /// A message the client could not place: a response to no open
    /// request (or to an id never sent), a line longer than the cap.
    ProtocolError,
    /// The profile changed the fixture before calls (a `git init`); cases
    /// see the changed fixture.
    FixturePrepared,
}

impl FindingKind {
    pub fn name(self) -> &'static str {
        // The wire name, from the serde attribute's twin: one spelling, no list.
        self.into()
    }

    /// What the finding means, in a few words, for report headings.
    pub fn title(self) -> &'static str {
        match self {
            FindingKind::NotJsonRpc => "standard output that is not JSON-RPC",
            FindingKind::NeverAnswered => "a request never answered",
            FindingKind::Crashed => "exited while a request was open",
            FindingKind::PollsExhausted => "polled to the limit, never done",
            FindingKind::Killed => "did not exit when its input closed",
            FindingKind::ProtocolError => "a JSON-RPC message out of place, or a line past the cap",
            FindingKind::FixturePrepared => "the fixture was changed before calls",
        }
    }
}

/// One kind of misbehaviour, counted over the whole run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Finding {
    pub kind: FindingKind,
    /// How many times it happened.
    pub count: usize,
    /// One occurrence, described (foreign text capped and escaped): the
    /// one during the first instance in id order (the least text among
    /// several there), or outside any call when none was during one.
    pub example: String,
    /// The instances it happened during, the first [`MAX_FINDING_CASES`]
    /// in id order; none when it happened outside any call (at shutdown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<String>,
    /// How many more instances it happened during than `cases` lists
    /// (absent: none left out).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_cases: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Findings being collected: one per kind, in kind order, each with the
/// instance it was last noted during. A worker answers one instance at a
/// time, so an instance's notes come together: a note during the instance
/// noted last is another occurrence, not another instance (this is how
/// `more_cases` counts instances it no longer lists).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings(Vec<(Finding, Option<String>)>);

impl Findings {
    /// Counts one occurrence of `kind`, during instance `case` if any.
    /// `example` is described only when it could be the one kept.
    pub fn note(
        &mut self,
        kind: FindingKind,
        example: impl FnOnce() -> String,
        case: Option<&str>,
    ) {
        let at = match self.0.binary_search_by(|(f, _)| f.kind.cmp(&kind)) {
            Ok(at) => at,
            Err(at) => {
                let finding = Finding {
                    kind,
                    count: 1,
                    example: example(),
                    cases: case.into_iter().map(str::to_owned).collect(),
                    more_cases: 0,
                };
                self.0.insert(at, (finding, case.map(str::to_owned)));
                return;
            }
        };
        let (finding, last) = &mut self.0[at];
        let another_instance = case.is_some() && last.as_deref() != case;
        if another_instance {
            *last = case.map(str::to_owned);
        }
        finding.count += 1;
        match example_case(finding).cmp(&(case.is_none(), case)) {
            std::cmp::Ordering::Less => {}
            std::cmp::Ordering::Equal => {
                let text = example();
                if text < finding.example {
                    finding.example = text;
                }
            }
            std::cmp::Ordering::Greater => finding.example = example(),
        }
        if another_instance {
            finding.more_cases +=
                keep_first_cases(&mut finding.cases, case.into_iter().map(str::to_owned));
        }
    }

    /// Adds another collection's findings (another worker's) to these.
    pub fn merge(&mut self, other: Vec<Finding>) {
        for theirs in other {
            match self.0.binary_search_by(|(f, _)| f.kind.cmp(&theirs.kind)) {
                Err(at) => self.0.insert(at, (theirs, None)),
                Ok(at) => {
                    let ours = &mut self.0[at].0;
                    ours.count += theirs.count;
                    let key = |f: &Finding| {
                        let (none, case) = example_case(f);
                        (none, case.map(str::to_owned), f.example.clone())
                    };
                    if key(&theirs) < key(ours) {
                        ours.example = theirs.example;
                    }
                    // Workers answer disjoint instances: theirs left out
                    // stay left out, and what the union no longer lists.
                    ours.more_cases +=
                        theirs.more_cases + keep_first_cases(&mut ours.cases, theirs.cases);
                }
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_vec(self) -> Vec<Finding> {
        self.0.into_iter().map(|(finding, _)| finding).collect()
    }
}

/// Which instance a finding's example was met during, as it sorts: any
/// instance before none (`false` first), then by id. The example is the
/// least occurrence by this key, and `cases` holds the first ids, so the
/// first of them is its instance.
fn example_case(finding: &Finding) -> (bool, Option<&str>) {
    let first = finding.cases.first().map(String::as_str);
    (first.is_none(), first)
}

/// Adds `more` to `cases` (sorted, no repeats) and keeps the first
/// [`MAX_FINDING_CASES`] in id order; how many it left out. The first
/// ones of a union are the first ones of the first ones of each part, so
/// cutting as it goes loses no id that would have been kept.
fn keep_first_cases(cases: &mut Vec<String>, more: impl IntoIterator<Item = String>) -> usize {
    cases.extend(more);
    cases.sort_unstable();
    cases.dedup();
    let left_out = cases.len().saturating_sub(MAX_FINDING_CASES);
    cases.truncate(MAX_FINDING_CASES);
    left_out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the first 20 instances in id order, the rest are counted, not
    /// listed: each instance once however many times it happened there,
    /// and merged across workers exactly.
    #[test]
    fn instances_past_the_listed_ones_are_counted() {
        let mut one = Findings::default();
        for i in 0..30 {
            for _ in 0..3 {
                one.note(
                    FindingKind::NotJsonRpc,
                    || "x".into(),
                    Some(&format!("a{i:02}")),
                );
            }
        }
        let mut other = Findings::default();
        for i in 0..5 {
            other.note(
                FindingKind::NotJsonRpc,
                || "x".into(),
                Some(&format!("b{i}")),
            );
        }
        let listed = |f: &Finding| (f.cases.len(), f.more_cases, f.count);
        let mine = one.clone().into_vec();
        assert_eq!(listed(&mine[0]), (20, 10, 90));
        assert_eq!(mine[0].cases.last().unwrap(), "a19");
        one.merge(other.into_vec());
        let merged = one.into_vec();
        assert_eq!(listed(&merged[0]), (20, 15, 95), "35 instances in all");
        let json = serde_json::to_value(&merged[0]).unwrap();
        assert_eq!(json["more_cases"], 15);
        let none = Finding {
            more_cases: 0,
            ..merged[0].clone()
        };
        assert!(
            serde_json::to_value(&none)
                .unwrap()
                .get("more_cases")
                .is_none()
        );
    }

    #[test]
    fn occurrences_are_counted_per_kind_with_the_first_example_and_cases() {
        let mut f = Findings::default();
        f.note(FindingKind::Killed, || "at shutdown".into(), None);
        f.note(FindingKind::NotJsonRpc, || "first".into(), Some("a"));
        f.note(FindingKind::NotJsonRpc, || "second".into(), Some("a"));
        f.note(FindingKind::NotJsonRpc, || "third".into(), Some("b"));
        let v = f.clone().into_vec();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].kind, FindingKind::NotJsonRpc, "kind order");
        assert_eq!((v[0].count, v[0].example.as_str()), (3, "first"));
        assert_eq!(v[0].cases, ["a", "b"]);
        assert_eq!((v[1].count, v[1].cases.len()), (1, 0));
        let mut other = Findings::default();
        other.note(FindingKind::NotJsonRpc, || "other".into(), Some("c"));
        other.note(FindingKind::NeverAnswered, || "hung".into(), Some("d"));
        f.merge(other.into_vec());
        let v = f.into_vec();
        assert_eq!(
            v.iter().map(|f| (f.kind, f.count)).collect::<Vec<_>>(),
            [
                (FindingKind::NotJsonRpc, 4),
                (FindingKind::NeverAnswered, 1),
                (FindingKind::Killed, 1)
            ]
        );
        assert_eq!(v[0].cases, ["a", "b", "c"]);
    }

    /// However the occurrences are met and split between workers, the
    /// findings are the same: what `--jobs` cannot change in a report.
    #[test]
    fn findings_do_not_depend_on_order_or_on_how_workers_split_them() {
        let mut occurrences: Vec<(FindingKind, String, Option<String>)> = Vec::new();
        for i in 0..MAX_FINDING_CASES + 7 {
            let case = format!("case-{:02}", (i * 7) % (MAX_FINDING_CASES + 7));
            occurrences.push((FindingKind::NeverAnswered, format!("hung {i}"), Some(case)));
        }
        occurrences.push((
            FindingKind::NeverAnswered,
            "also case-00".into(),
            Some("case-00".into()),
        ));
        occurrences.push((FindingKind::Killed, "at shutdown b".into(), None));
        occurrences.push((FindingKind::Killed, "at shutdown a".into(), None));
        occurrences.push((FindingKind::Killed, "during z".into(), Some("z".into())));
        let collect = |occurrences: &[(FindingKind, String, Option<String>)], workers: usize| {
            let mut parts = vec![Findings::default(); workers];
            for (i, (kind, text, case)) in occurrences.iter().enumerate() {
                parts[i % workers].note(*kind, || text.clone(), case.as_deref());
            }
            let mut all = Findings::default();
            for part in parts {
                all.merge(part.into_vec());
            }
            all.into_vec()
        };
        let expected = collect(&occurrences, 1);
        let first: Vec<String> = (0..MAX_FINDING_CASES)
            .map(|i| format!("case-{i:02}"))
            .collect();
        assert_eq!(expected[0].cases, first, "the first ids, in order");
        assert_eq!(
            expected[0].example, "also case-00",
            "the least of case-00's"
        );
        assert_eq!(expected[0].count, MAX_FINDING_CASES + 8);
        assert_eq!(
            (expected[1].example.as_str(), expected[1].count),
            ("during z", 3)
        );
        let mut reordered = occurrences.clone();
        for round in 0..occurrences.len() {
            reordered.rotate_left(1);
            if round % 2 == 1 {
                reordered.reverse();
            }
            for workers in [1, 2, 3] {
                assert_eq!(collect(&reordered, workers), expected, "{round} {workers}");
            }
        }
    }

    #[test]
    fn a_finding_keeps_a_bounded_number_of_cases() {
        let mut f = Findings::default();
        for i in 0..MAX_FINDING_CASES + 5 {
            f.note(FindingKind::NotJsonRpc, String::new, Some(&i.to_string()));
        }
        let v = f.into_vec();
        assert_eq!(v[0].count, MAX_FINDING_CASES + 5);
        assert_eq!(v[0].cases.len(), MAX_FINDING_CASES);
    }

    #[test]
    fn names_are_the_wire_names() {
        use strum::VariantArray;
        for kind in FindingKind::VARIANTS {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
        }
    }
}
