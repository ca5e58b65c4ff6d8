//! What a renderer reads: a report's header and summary, and its cases in
//! report order from wherever they are kept.
//!
//! A run of 100k instances must not hold 100k case reports in memory, so
//! `toolpath run` keeps them on disk (its event log) and renderers read them
//! back, in as many passes as they need. A report read from a file, or
//! built in a test, is the same thing with its cases in memory.

use std::io;

use crate::report::{CaseReport, Report};

/// The cases of a report, in report order, readable any number of times.
pub trait CaseSource {
    /// Calls `visit` on each case in report order, and stops at the first
    /// error, `visit`'s own (a report that cannot be written) or the
    /// source's (a spool that cannot be read).
    fn each(&self, visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>) -> io::Result<()>;
}

impl CaseSource for Vec<CaseReport> {
    fn each(&self, visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>) -> io::Result<()> {
        self.iter().try_for_each(visit)
    }
}

/// A report as renderers see it. `head` gives every field but the cases:
/// its own `cases` are not read (they are empty when the cases are on
/// disk), and `summary` agrees with `cases`.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub head: &'a Report,
    pub cases: &'a dyn CaseSource,
}

impl<'a> View<'a> {
    /// A report whose cases are in memory.
    pub fn of(report: &'a Report) -> View<'a> {
        View {
            head: report,
            cases: &report.cases,
        }
    }

    /// A header (whose `cases` are ignored) with its cases kept elsewhere.
    pub fn streamed(head: &'a Report, cases: &'a dyn CaseSource) -> View<'a> {
        View { head, cases }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;

    #[test]
    fn a_slice_is_visited_in_order_and_stops_at_the_first_error() {
        let mut report = crate::report::render::sample_reports::report("x", Vec::new());
        for id in ["a", "b", "c"] {
            report
                .cases
                .push(crate::report::render::sample_reports::case(
                    id,
                    Status::Pass,
                    &[],
                ));
        }
        let view = View::of(&report);
        let mut seen = Vec::new();
        let result = view.cases.each(&mut |c| {
            seen.push(c.id.clone());
            if c.id == "b" {
                Err(io::Error::other("stop"))
            } else {
                Ok(())
            }
        });
        assert_eq!(result.unwrap_err().to_string(), "stop");
        assert_eq!(seen, ["a", "b"]);
    }
}
