//! The canonical JSON report, written from a [`View`] as the cases are
//! read, so a run of any size is written without holding its cases.
//!
//! The bytes are those of `serde_json::to_string_pretty(&report)` plus a
//! newline: the same fields in the same order, absent where [`Report`]
//! omits them, so a streamed report reads back (and compares) exactly like
//! one serialised whole.

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};

use serde::ser::{Error as _, SerializeSeq};
use serde::{Serialize, Serializer};

use crate::report::findings::Finding;
use crate::report::profile_rules::RuleUse;
use crate::report::view::{CaseSource, View};
use crate::report::{ContainmentCounts, Report, RuleCounts, RunAgainst, Selected, Summary};
use toolpath_suite::protocol::Implementation;

/// The JSON report of `view`, pretty-printed and ending in a newline,
/// written to `out`. An error reading the cases is returned as it came
/// from the source.
pub fn write(view: View, out: &mut dyn Write) -> io::Result<()> {
    let cases = Cases {
        source: view.cases,
        unreadable: RefCell::new(None),
    };
    // serde_json writes many small pieces; a buffer makes them few writes
    // whatever `out` is.
    let mut buffered = BufWriter::new(out);
    let written = serde_json::to_writer_pretty(&mut buffered, &Head::of(view.head, &cases));
    if let Some(error) = cases.unreadable.into_inner() {
        return Err(error);
    }
    written?;
    buffered.write_all(b"\n")?;
    buffered.flush()
}

/// [`Report`]'s fields in its order, with the cases from a source.
#[derive(Serialize)]
struct Head<'a> {
    format: u32,
    suite: &'a str,
    protocol: u32,
    implementation: &'a Implementation,
    #[serde(skip_serializing_if = "Option::is_none")]
    adapter: Option<&'a String>,
    partial: bool,
    strict: bool,
    duration_ms: f64,
    waited_ms: f64,
    workers: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    fixture_dir: Option<&'a String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unprotected: &'a Vec<String>,
    #[serde(skip_serializing_if = "Selected::is_whole")]
    selection: &'a Selected,
    #[serde(skip_serializing_if = "Option::is_none")]
    run_against: Option<&'a RunAgainst>,
    summary: &'a Summary,
    /// Always written, `[]` when none: a reader tells "none" from "not
    /// reported" by the key alone.
    findings: &'a Vec<Finding>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    profile_rules: &'a Vec<RuleUse>,
    containment: &'a ContainmentCounts,
    /// In rule order (`RES-2` before `RES-11`), as every report lists them.
    #[serde(serialize_with = "rules_in_order")]
    rules: &'a RuleCounts,
    cases: &'a Cases<'a>,
}

/// The rule counts as a JSON object whose keys come in rule order: a
/// reader that keeps the text's order sees what the human report shows.
fn rules_in_order<S: serde::Serializer>(rules: &&RuleCounts, s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(crate::report::conformance::in_rule_order(rules))
}

impl<'a> Head<'a> {
    fn of(report: &'a Report, cases: &'a Cases<'a>) -> Head<'a> {
        // Named in full, with no `..`, so a field added to `Report` fails
        // to compile here instead of going missing from streamed reports.
        let Report {
            format,
            suite,
            protocol,
            implementation,
            adapter,
            partial,
            strict,
            duration_ms,
            waited_ms,
            workers,
            fixture_dir,
            unprotected,
            selection,
            run_against,
            summary,
            findings,
            profile_rules,
            containment,
            rules,
            cases: _,
        } = report;
        Head {
            format: *format,
            suite,
            protocol: *protocol,
            implementation,
            adapter: adapter.as_ref(),
            partial: *partial,
            strict: *strict,
            duration_ms: *duration_ms,
            waited_ms: *waited_ms,
            workers: *workers,
            fixture_dir: fixture_dir.as_ref(),
            unprotected,
            selection,
            run_against: run_against.as_ref(),
            summary,
            findings,
            profile_rules,
            containment,
            rules,
            cases,
        }
    }
}

/// The cases as a JSON array, read from their source while it is written.
struct Cases<'a> {
    source: &'a dyn CaseSource,
    /// The source's own error, kept whole: serde can only carry a message,
    /// and the caller should see the `io::Error` the source gave.
    unreadable: RefCell<Option<io::Error>>,
}

impl Serialize for Cases<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        let mut unwritable = None;
        let read = self.source.each(&mut |case| {
            seq.serialize_element(case).map_err(|error| {
                let message = error.to_string();
                unwritable = Some(error);
                io::Error::other(message)
            })
        });
        if let Some(error) = unwritable {
            return Err(error);
        }
        if let Err(error) = read {
            let message = error.to_string();
            *self.unreadable.borrow_mut() = Some(error);
            return Err(S::Error::custom(message));
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::render::sample_reports::{CountedSpool, head, report, varied};

    fn written(view: View) -> io::Result<String> {
        super::super::written(|out| write(view, out))
    }

    #[test]
    fn streamed_report_is_the_whole_report_serialised() {
        let mut bare = varied();
        bare.adapter = None;
        bare.fixture_dir = None;
        bare.partial = false;
        for report in [varied(), bare, report("empty", Vec::new())] {
            let whole = serde_json::to_string_pretty(&report).unwrap() + "\n";
            let spool = CountedSpool::new(report.cases.clone());
            let header = head(&report);
            assert_eq!(written(View::streamed(&header, &spool)).unwrap(), whole);
            assert_eq!(spool.passes.get(), 1);
            assert_eq!(written(View::of(&report)).unwrap(), whole);
            // `findings` is there even when empty (the empty report's).
            let json: serde_json::Value = serde_json::from_str(&whole).unwrap();
            assert!(json["findings"].is_array(), "{json}");
        }
    }

    #[test]
    fn a_spool_that_cannot_be_read_is_its_own_error() {
        let report = varied();
        let header = head(&report);
        for at in [0, 40] {
            let spool = CountedSpool::failing(report.cases.clone(), 1, at);
            let err = written(View::streamed(&header, &spool)).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "at {at}");
            assert_eq!(err.to_string(), "spool cut short");
        }
    }

    #[test]
    fn a_writer_that_fails_is_an_error() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let report = varied();
        let err = write(View::of(&report), &mut Full).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
    }
}
