//! Where a run's results go as they happen: the event log, a progress
//! display, a list kept in memory. The harness writes to a [`Sink`]; what
//! is done with each result is the sink's business, so `report` never
//! needs to know the harness.

use crate::report::{CaseReport, Report};

/// Receives a run's results as they are judged.
pub trait Sink: Sync {
    /// The run started; `head` has the header fields (no cases, no counts).
    fn start(&self, head: &Report, total: usize);
    /// The report of the instance at `position`. `amended` when it replaces
    /// an earlier report of the same position: a protocol violation found
    /// after an answer is charged to that answer's instance this way.
    fn record(&self, position: usize, report: &CaseReport, amended: bool);
    /// The run ended (finished or cancelled); `head` has the counts.
    fn end(&self, head: &Report);
}

/// Every sink in turn.
pub struct Tee<'a>(pub Vec<&'a dyn Sink>);

impl Sink for Tee<'_> {
    fn start(&self, head: &Report, total: usize) {
        self.0.iter().for_each(|sink| sink.start(head, total));
    }

    fn record(&self, position: usize, report: &CaseReport, amended: bool) {
        self.0
            .iter()
            .for_each(|sink| sink.record(position, report, amended));
    }

    fn end(&self, head: &Report) {
        self.0.iter().for_each(|sink| sink.end(head));
    }
}
