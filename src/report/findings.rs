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
    /// The first occurrence, described (foreign text capped and escaped).
    pub example: String,
    /// The instances it happened during, at most [`MAX_FINDING_CASES`],
    /// in the order seen; none when it happened outside any call (at
    /// shutdown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<String>,
}

/// Findings being collected: one per kind, in kind order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings(Vec<Finding>);

impl Findings {
    /// Counts one occurrence of `kind`, during instance `case` if any.
    pub fn note(
        &mut self,
        kind: FindingKind,
        example: impl FnOnce() -> String,
        case: Option<&str>,
    ) {
        let at = match self.0.binary_search_by(|f| f.kind.cmp(&kind)) {
            Ok(at) => at,
            Err(at) => {
                self.0.insert(
                    at,
                    Finding {
                        kind,
                        count: 0,
                        example: example(),
                        cases: Vec::new(),
                    },
                );
                at
            }
        };
        let finding = &mut self.0[at];
        finding.count += 1;
        if let Some(case) = case
            && finding.cases.len() < MAX_FINDING_CASES
            && !finding.cases.iter().any(|c| c == case)
        {
            finding.cases.push(case.to_owned());
        }
    }

    /// Adds another collection's findings (another worker's) to these.
    pub fn merge(&mut self, other: Vec<Finding>) {
        for theirs in other {
            match self.0.binary_search_by(|f| f.kind.cmp(&theirs.kind)) {
                Err(at) => self.0.insert(at, theirs),
                Ok(at) => {
                    let ours = &mut self.0[at];
                    ours.count += theirs.count;
                    for case in theirs.cases {
                        if ours.cases.len() < MAX_FINDING_CASES && !ours.cases.contains(&case) {
                            ours.cases.push(case);
                        }
                    }
                }
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_vec(self) -> Vec<Finding> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
