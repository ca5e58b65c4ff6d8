//! Every view of a run, rendered from the canonical [`Report`] alone.
//!
//! Each renderer is a pure function from report data to text: the command
//! line decides where the text goes, tests compare strings, and a report
//! read back from JSON renders exactly like the one just produced. The
//! formats of `toolpath run` (human, JUnit, Markdown, JSON) also write from
//! a [`View`] into a writer, reading the cases in passes, so a run of any
//! size renders in memory that does not grow with its instances; their
//! `render` is that `write` into a string.
//!
//! - [`human`]: the terminal report and progress line;
//! - [`json`]: the canonical JSON report, streamed;
//! - [`junit`]: JUnit XML for CI test views;
//! - [`markdown`]: the certification report (deterministic, committable);
//! - [`compare`]: what changed between two reports;
//! - [`containment`]: the escapes every format lists first;
//! - [`certification`]: one table across implementations;
//! - [`html`]: the same implementations as one page to look at: a matrix of
//!   requirements by implementation, each cell's failures a click away.
//!
//! Everything in a report that an adapter or a case file wrote (ids,
//! reasons, stderr, diffs, names) goes through [`toolpath_suite::sanitize`] for the
//! format at hand, so every format shows the same stand-ins for controls,
//! bidi overrides and invisible characters. The JSON report alone keeps
//! the exact values: it is data, and JSON escapes what it must. Snapshots
//! of each format (`snapshots/`, reviewed whole) pin a deliberately broken
//! run and a hostile one.
//!
//! Statuses are read two ways: by what they mean for the run (the exit
//! code's view, [`outcome`], used by the human closing line and JUnit) and
//! by what they say about conformance
//! ([`counts`](crate::report::counts), used by the Markdown report and the
//! table), where a requirement's instances add up to its
//! [`Standing`](crate::report::conformance::Standing).
//!
//! Every format opens with the containment counts (escapes first, each
//! escape listed by id) before anything per rule: an escape is the first
//! thing a maintainer sees.
//!
//! What this folder may import: the rest of `report` (its own floor), and
//! the suite model below it (`protocol`, `spec`, `sanitize`); never the
//! harness, subjects or sessions that produce reports.
//!
//! [`Report`]: crate::report::Report
//! [`View`]: crate::report::view::View

pub mod certification;
pub mod compare;
pub mod containment;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod outcome;
pub mod requirements;
pub(crate) mod text;

#[cfg(test)]
pub(crate) mod sample_reports;

pub use outcome::RunOutcome;

/// What a renderer's `write` puts out, as a string: how a report in memory
/// is rendered whole (and how the renderers' tests read their output). An
/// error is the source's or the renderer's own; writing to memory never fails.
pub fn written(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<String> {
    let mut out = Vec::new();
    write(&mut out)?;
    Ok(String::from_utf8(out).expect("reports are built from strings"))
}
