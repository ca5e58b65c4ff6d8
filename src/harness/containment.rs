//! The containment verdict of one instance: did anything get out of the
//! workspace? Decided here, where the case, the answer and the fixture
//! are all at hand; the classes themselves, and how they are counted, are
//! the report's ([`crate::report::counts`]).
//!
//! Which instances have one: those whose case expects `outside_workspace`
//! and those of a SEC case (one citing any `SEC-*`) that expect `ok`
//! ([`Population`], known before the call); any other instance expecting
//! `ok` that the tool refused as `outside_workspace` (a false refusal: the
//! tool claimed an inside path is outside, whatever rule the case cites,
//! as a `..name` file citing RES-6 or a link a file tool reads through);
//! and any instance after whose call the fixture changed outside every
//! root. An instance of the population that is never judged is *not
//! observed*; so is one whose outcome the adapter could not observe
//! (declared `unobservable`, or `derived` in that answer), and a refusal
//! whose error code it did not read from the tool: a class is only ever
//! given on what was observed.
//!
//! A change to the fixture outside every root is an escape whatever the
//! answer was, since the harness saw it itself. Where a root is, is read
//! from the fixture as built, before the call (a root may be reached
//! through a link; what the link leads to is inside it). A change found
//! only as a snapshot that overflowed its bounds has no place, so it is a
//! SEC-11 failure but not an escape.

use std::path::Path;

use crate::harness::snapshot::{self, Change, ChangeKind};
use crate::report::{CaseReport, Channel, Check, Containment, ContainmentClass, Mismatch};
use toolpath_suite::case::raw::ExpectedOutcome;
use toolpath_suite::case::{Action, Case};
use toolpath_suite::protocol::{ErrorCode, Field, Outcome, Tool, ToolResult};

/// The kinds of instance that have a containment verdict before the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Population {
    /// The case expects the error `outside_workspace`.
    Outside,
    /// A SEC case that expects `ok`: a refusal is a false one.
    SecurityOk,
}

/// The population `case` belongs to, if any.
pub fn population(case: &Case) -> Option<Population> {
    if !matches!(case.action, Action::Invoke(_)) {
        return None;
    }
    let expect = &case.expect;
    if expect
        .error
        .as_ref()
        .is_some_and(|e| e.code == ErrorCode::OutsideWorkspace)
    {
        Some(Population::Outside)
    } else if expect.outcome == ExpectedOutcome::Ok
        && case.spec.iter().any(|s| s.starts_with("SEC-"))
    {
        Some(Population::SecurityOk)
    } else {
        None
    }
}

/// The verdict of an instance of `case` that got no answer to judge (or
/// never went out): *not observed* for the population, none otherwise.
pub fn unobserved(case: &Case) -> Option<Containment> {
    population(case).map(|_| Containment::of(ContainmentClass::NotObserved))
}

/// Everything the verdict of one judged answer is decided on.
pub struct Answered<'a> {
    pub case: &'a Case,
    /// The tool of the instance.
    pub tool: Tool,
    pub answer: &'a ToolResult,
    /// Fields not observed for this answer: the adapter's `unobservable`
    /// for its tool and the answer's own `derived`.
    pub unobserved: &'a [Field],
    /// The checks that disagreed (the wording is read from them).
    pub mismatches: &'a [Mismatch],
    /// Every channel the harness saw something get out through, with what
    /// showed it: the first change outside every root (write), and what
    /// the answer carried ([`crate::harness::outside`]).
    pub escapes: Vec<(Channel, String)>,
}

/// The channel an `ok` to a path the case expects refused as
/// `outside_workspace` took, by what the tool does with a path: a file is
/// read or searched (read), a directory listed or globbed (list), a path
/// resolved (resolve: handed back to act on, nothing listed), a command
/// run (exec), a file written or edited (write).
pub fn channel_of(tool: Tool) -> Channel {
    match tool {
        Tool::Grep | Tool::Ripgrep | Tool::ReadFile => Channel::Read,
        Tool::Glob | Tool::Ls => Channel::List,
        Tool::Resolve => Channel::Resolve,
        Tool::Shell => Channel::Exec,
        Tool::WriteFile | Tool::Edit => Channel::Write,
    }
}

/// The containment verdict of a judged answer.
pub fn classify(a: &Answered) -> Option<Containment> {
    let mut escapes = a.escapes.clone();
    if population(a.case) == Some(Population::Outside)
        && !a.unobserved.contains(&Field::Outcome)
        && a.answer.outcome == Some(Outcome::Ok)
    {
        escapes.insert(0, (channel_of(a.tool), "answered ok".to_owned()));
    }
    if !escapes.is_empty() {
        let evidence: Vec<String> = escapes
            .iter()
            .map(|(channel, seen)| format!("{}: {seen}", channel.name()))
            .collect();
        let channels = escapes.iter().map(|(c, _)| *c).collect();
        return Some(Containment::escape(channels, evidence.join("; ")));
    }
    let observed = |field: Field| !a.unobserved.contains(&field);
    let Some(population) = population(a.case) else {
        // Outside the population, only an observed `outside_workspace`
        // refusal of a path the case expects `ok` has a class.
        let refused_as_outside = a.case.expect.outcome == ExpectedOutcome::Ok
            && matches!(a.case.action, Action::Invoke(_))
            && observed(Field::Outcome)
            && observed(Field::ErrorCode)
            && a.answer.outcome == Some(Outcome::Error)
            && a.answer
                .error
                .as_ref()
                .is_some_and(|e| e.code == ErrorCode::OutsideWorkspace);
        return refused_as_outside.then(|| Containment::of(ContainmentClass::FalseRefusal));
    };
    let not_observed = Some(Containment::of(ContainmentClass::NotObserved));
    if !observed(Field::Outcome) {
        return not_observed;
    }
    let wording = Check::Contains(Field::ErrorMessage);
    let wording_failed = a.mismatches.iter().any(|m| m.field == wording);
    let class = match (population, a.answer.outcome) {
        (Population::Outside, Some(Outcome::Ok)) => unreachable!("an escape, classed above"),
        (Population::Outside, Some(Outcome::Error)) if !observed(Field::ErrorCode) => {
            return not_observed;
        }
        (Population::Outside, Some(Outcome::Error)) => match &a.answer.error {
            Some(e) if e.code == ErrorCode::OutsideWorkspace => ContainmentClass::Refused,
            _ => ContainmentClass::RefusedOtherCode,
        },
        (Population::SecurityOk, Some(Outcome::Ok)) => ContainmentClass::Accepted,
        (Population::SecurityOk, Some(Outcome::Error)) if !observed(Field::ErrorCode) => {
            return not_observed;
        }
        // Only a claim that the path is outside is a false refusal; any
        // other error fails the case without saying so.
        (Population::SecurityOk, Some(Outcome::Error)) => match &a.answer.error {
            Some(e) if e.code == ErrorCode::OutsideWorkspace => ContainmentClass::FalseRefusal,
            _ => ContainmentClass::OtherError,
        },
        (_, Some(Outcome::Unsupported) | None) => return not_observed,
    };
    let refused = matches!(
        class,
        ContainmentClass::Refused | ContainmentClass::RefusedOtherCode
    );
    Some(Containment {
        wording_failed: refused && wording_failed,
        ..Containment::of(class)
    })
}

/// A report turned into an adapter error after the fact (output written
/// while no call was outstanding): an escape stays one, since the tool did
/// answer `ok` or change the fixture before the violation; any other class
/// becomes *not observed*, as for every adapter error, except a false
/// refusal outside the population (no SEC rule cited), which had a class
/// only for what it answered: it has none.
pub fn amend(report: &mut CaseReport) {
    let Some(c) = &report.containment else { return };
    if c.is_escape() {
        return;
    }
    let in_population = c.class != ContainmentClass::FalseRefusal
        || report.spec.iter().any(|s| s.starts_with("SEC-"));
    report.containment = in_population.then(|| Containment::of(ContainmentClass::NotObserved));
}

/// Where each root is below the fixture directory `root`, as snapshot
/// paths (`/`-joined, relative): its lexical place and, when it is reached
/// through a link, the real place it leads to. Read before the call.
pub fn root_places(root: &Path, roots: &[String]) -> Vec<Vec<u8>> {
    let Ok(real_top) = std::fs::canonicalize(root) else {
        return Vec::new();
    };
    let mut places = Vec::new();
    for r in roots {
        let r = Path::new(r);
        let lexical = r.strip_prefix(root).ok().map(Path::to_path_buf);
        let real = std::fs::canonicalize(r)
            .ok()
            .and_then(|real| real.strip_prefix(&real_top).ok().map(Path::to_path_buf));
        for place in [lexical, real].into_iter().flatten() {
            let bytes = place.as_os_str().as_encoded_bytes().to_vec();
            if !places.contains(&bytes) {
                places.push(bytes);
            }
        }
    }
    places
}

/// Whether `change` lies outside every root in `places`: in the area
/// beside them, or the fixture directory itself (an escape, SEC-11 and
/// FILE-11). An overflow says nothing about where the tree grew, and an
/// expected write that did not happen changed nothing: neither is one.
pub fn is_outside(change: &Change, places: &[Vec<u8>]) -> bool {
    !matches!(change.kind, ChangeKind::Overflow(_) | ChangeKind::Missing)
        && !places.iter().any(|p| within(&change.path, p))
}

/// Whether `path` is `place` or below it; the fixture directory (`""`) is
/// never within a root.
fn within(path: &[u8], place: &[u8]) -> bool {
    !place.is_empty() && (path == place || snapshot::is_below(path, place))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::snapshot::State;
    use std::path::Path;
    use toolpath_suite::case::validate::parse_case;

    fn case(spec: &str, expect: &str) -> Case {
        let text = format!(
            "id: c.x\nsummary: s\nspec: [{spec}]\n\
             fixture: {{roots: [ws], files: {{ws/a: x}}}}\n\
             call: {{tool: resolve, params: {{path: a}}}}\nexpect: {expect}\n"
        );
        parse_case(Path::new("c.yaml"), &text).unwrap()
    }

    fn outside() -> Case {
        case(
            "SEC-4",
            "{outcome: error, error: {code: outside_workspace, message_contains: ['{ws}']}}",
        )
    }

    fn answered<'a>(
        case: &'a Case,
        answer: &'a ToolResult,
        unobserved: &'a [Field],
        mismatches: &'a [Mismatch],
    ) -> Option<ContainmentClass> {
        classify(&Answered {
            case,
            tool: Tool::Resolve,
            answer,
            unobserved,
            mismatches,
            escapes: Vec::new(),
        })
        .map(|c| c.class)
    }

    fn ok() -> ToolResult {
        ToolResult {
            outcome: Some(Outcome::Ok),
            ..ToolResult::default()
        }
    }

    fn wording() -> Mismatch {
        Mismatch {
            field: Check::Contains(Field::ErrorMessage),
            expected: "\"{ws}\"".into(),
            actual: "\"no\" does not contain it".into(),
            rule: None,
        }
    }

    #[test]
    fn an_outside_path_answered_ok_is_an_escape_and_refusals_are_told_apart() {
        use ContainmentClass::*;
        let c = outside();
        assert_eq!(population(&c), Some(Population::Outside));
        assert_eq!(answered(&c, &ok(), &[], &[]), Some(Escape));
        let refused = ToolResult::error(ErrorCode::OutsideWorkspace, "no");
        assert_eq!(answered(&c, &refused, &[], &[]), Some(Refused));
        let other = ToolResult::error(ErrorCode::NotFound, "no");
        assert_eq!(answered(&c, &other, &[], &[]), Some(RefusedOtherCode));
        // The wording is its own flag, never an escape.
        let worded = classify(&Answered {
            case: &c,
            tool: Tool::Resolve,
            answer: &refused,
            unobserved: &[],
            mismatches: &[wording()],
            escapes: Vec::new(),
        })
        .unwrap();
        assert_eq!((worded.class, worded.wording_failed), (Refused, true));
        // What was not observed gets no class.
        let unsupported = ToolResult {
            outcome: Some(Outcome::Unsupported),
            ..ToolResult::default()
        };
        assert_eq!(answered(&c, &unsupported, &[], &[]), Some(NotObserved));
        let derived = [Field::Outcome];
        assert_eq!(answered(&c, &ok(), &derived, &[]), Some(NotObserved));
        let code = [Field::ErrorCode];
        assert_eq!(answered(&c, &other, &code, &[]), Some(NotObserved));
        assert_eq!(
            answered(&c, &ok(), &code, &[]),
            Some(Escape),
            "an ok needs no code to be an escape"
        );
    }

    #[test]
    fn a_sec_case_expecting_ok_refused_is_a_false_refusal() {
        use ContainmentClass::*;
        let c = case("SEC-5", "{outcome: ok}");
        assert_eq!(population(&c), Some(Population::SecurityOk));
        assert_eq!(answered(&c, &ok(), &[], &[]), Some(Accepted));
        let refused = ToolResult::error(ErrorCode::OutsideWorkspace, "no");
        assert_eq!(answered(&c, &refused, &[], &[]), Some(FalseRefusal));
        let other = ToolResult::error(ErrorCode::NotFound, "no");
        assert_eq!(
            answered(&c, &other, &[], &[]),
            Some(OtherError),
            "no claim that the path is outside"
        );
        let code = [Field::ErrorCode];
        assert_eq!(answered(&c, &refused, &code, &[]), Some(NotObserved));
        // Not in the population: no class before the answer, and none
        // for an `ok` or another code; refused as outside, a false refusal.
        let plain = case("RES-6", "{outcome: ok}");
        assert_eq!(population(&plain), None);
        assert_eq!(unobserved(&plain), None);
        assert_eq!(answered(&plain, &ok(), &[], &[]), None);
        assert_eq!(answered(&plain, &other, &[], &[]), None);
        assert_eq!(answered(&plain, &refused, &[], &[]), Some(FalseRefusal));
        // ... as long as the code was read from the tool.
        let code = [Field::ErrorCode];
        assert_eq!(answered(&plain, &refused, &code, &[]), None);
        let outcome = [Field::Outcome];
        assert_eq!(answered(&plain, &refused, &outcome, &[]), None);
        // A case expecting another error never has a false refusal.
        let missing = case(
            "RES-8",
            "{outcome: error, error: {code: not_found, message_contains: ['{ws}']}}",
        );
        assert_eq!(answered(&missing, &refused, &[], &[]), None);
        assert_eq!(unobserved(&c).unwrap().class, NotObserved);
    }

    #[test]
    fn a_change_outside_every_root_is_an_escape_whatever_the_answer() {
        let change = |path: &str| Change {
            path: path.as_bytes().to_vec(),
            kind: ChangeKind::Added(State::Link {
                target: b"x".to_vec(),
            }),
        };
        let places = vec![b"ws".to_vec(), b"real".to_vec()];
        let inside = [change("ws/a"), change("real/b"), change("ws")];
        assert!(inside.iter().find(|c| is_outside(c, &places)).is_none());
        let out = [change("ws/a"), change("ws-evil/x"), change("outside")];
        assert_eq!(
            out.iter().find(|c| is_outside(c, &places)).unwrap().path,
            b"ws-evil/x"
        );
        assert!(is_outside(&change(""), &places));
        let grew = [Change {
            path: Vec::new(),
            kind: ChangeKind::Overflow("more".into()),
        }];
        assert!(!grew.iter().any(|c| is_outside(c, &places)));
        let plain = case("RES-1", "{outcome: ok}");
        let verdict = classify(&Answered {
            case: &plain,
            tool: Tool::Resolve,
            answer: &ok(),
            unobserved: &[],
            mismatches: &[],
            escapes: vec![(
                Channel::Write,
                "changed outside every root: + {tmp}/outside (file)".into(),
            )],
        })
        .unwrap();
        assert_eq!(verdict.class, ContainmentClass::Escape);
        assert_eq!(
            verdict.evidence.as_deref(),
            Some("write: changed outside every root: + {tmp}/outside (file)")
        );
    }

    #[test]
    fn roots_are_found_where_they_are_and_where_their_links_lead() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path();
        std::fs::create_dir_all(top.join("real")).unwrap();
        std::fs::create_dir_all(top.join("ws")).unwrap();
        std::os::unix::fs::symlink("real", top.join("link")).unwrap();
        let roots = [
            top.join("ws").display().to_string(),
            top.join("link").display().to_string(),
        ];
        let places = root_places(top, &roots);
        assert_eq!(places, [b"ws".to_vec(), b"link".to_vec(), b"real".to_vec()]);
    }

    #[test]
    fn a_late_violation_keeps_an_escape_and_forgets_the_rest() {
        let mut r = CaseReport::new(
            "x".into(),
            "x".into(),
            toolpath_suite::protocol::Tool::Resolve,
            "x.yaml".into(),
            1,
            crate::report::Status::AdapterError,
            None,
        );
        r.containment = Some(Containment::of(ContainmentClass::Escape));
        amend(&mut r);
        assert!(r.containment.as_ref().unwrap().is_escape());
        r.containment = Some(Containment::of(ContainmentClass::Refused));
        amend(&mut r);
        assert_eq!(
            r.containment.as_ref().unwrap().class,
            ContainmentClass::NotObserved
        );
        // A false refusal outside the population had a class only for
        // what it answered; in it (a SEC case), it is not observed.
        r.containment = Some(Containment::of(ContainmentClass::FalseRefusal));
        amend(&mut r);
        assert_eq!(r.containment, None);
        r.spec = vec!["SEC-5".into()];
        r.containment = Some(Containment::of(ContainmentClass::FalseRefusal));
        amend(&mut r);
        assert_eq!(r.containment.unwrap().class, ContainmentClass::NotObserved);
    }
}
