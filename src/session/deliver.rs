//! Delivering a run's reports: which format goes where, claiming the files
//! before anything runs, and writing each one whole at the end.
//!
//! Report files (and the user's event log, then written as the run goes)
//! are emptied when the run starts ([`claim`]), so an old report never stands for a new run, even one that
//! is killed, and a file that cannot be written is found before the first
//! case runs. At the end, once every adapter ended, each is replaced whole
//! (written beside, then renamed), so it is never seen half-written and
//! nothing an adapter wrote into it meanwhile survives; a device or a FIFO
//! (`--output /dev/null`) is written into instead, never replaced, and
//! opened without following a link.
//!
//! A report is never written through a symbolic link (issue 30, item 8:
//! one was, without truncation, and a tail an adapter planted in the file
//! it named survived under the run's own last line). A link given as an
//! output is refused before anything runs; a link put in a report's place
//! while the run went on is replaced by the report, its target untouched.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use crate::report::Report;
use crate::report::events::{EventLog, Spool};
use crate::report::render::human::Detail;
use crate::report::view::View;

/// Report formats of `toolpath run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
    Junit,
    Markdown,
}

/// Where one report goes: a file, or stdout when `path` is `None`.
#[derive(Debug, Clone)]
pub struct ReportTarget {
    pub format: Format,
    pub path: Option<PathBuf>,
}

/// Pairs formats with outputs (`-` is stdout); at most one may go to stdout.
pub fn targets(formats: &[Format], outputs: &[PathBuf]) -> Result<Vec<ReportTarget>, String> {
    if outputs.len() > formats.len().max(1) {
        return Err("more --output than --format".into());
    }
    let formats = if formats.is_empty() {
        &[Format::Human][..]
    } else {
        formats
    };
    let targets: Vec<ReportTarget> = formats
        .iter()
        .enumerate()
        .map(|(i, format)| ReportTarget {
            format: *format,
            path: outputs.get(i).filter(|p| p.as_os_str() != "-").cloned(),
        })
        .collect();
    if targets.iter().filter(|t| t.path.is_none()).count() > 1 {
        return Err("only one --format may go to stdout; give the others an --output".into());
    }
    Ok(targets)
}

/// Where the event log goes: where asked, or beside the first report that
/// is a file (or not there yet): never beside a device, a FIFO or a link to
/// one (`--output /dev/null` would put it in /dev).
pub fn events_path(asked: Option<&Path>, targets: &[ReportTarget]) -> Option<PathBuf> {
    asked.map(Path::to_owned).or_else(|| {
        let first = targets
            .iter()
            .filter_map(|t| t.path.as_ref())
            .find(|p| std::fs::metadata(p).map_or(true, |m| m.is_file()))?;
        let mut name = first.as_os_str().to_owned();
        name.push(".events.jsonl");
        Some(PathBuf::from(name))
    })
}

/// Empties every report file and starts the user's event log, if any: its
/// live copy, written as the run goes (a killed run leaves it), until
/// [`write_events`] replaces it.
pub fn claim(targets: &[ReportTarget], events: Option<&Path>) -> Result<Option<EventLog>, String> {
    let outputs = targets.iter().filter_map(|t| t.path.as_deref());
    for path in outputs.clone().chain(events) {
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "{} is a symbolic link: reports are written to the file itself, never through a link (give the path it names)",
                path.display()
            ));
        }
    }
    for path in outputs {
        replace_file(path, &mut |_| Ok(()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    events
        .map(|path| {
            EventLog::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))
        })
        .transpose()
}

/// Replaces the user's event log (`--events`) whole with a copy made from
/// the run's verified spool: only once every adapter ended, so that
/// nothing one wrote into the file while the run went on survives in it.
pub fn write_events(path: &Path, spool: &Spool) -> Result<(), String> {
    replace_file(path, &mut |out| spool.write_plain(out))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Empties the user's event log, for a run that reports nothing (its
/// spool did not verify): its live copy must not stand for the run either.
pub fn withdraw_events(path: &Path) -> Result<(), String> {
    replace_file(path, &mut |_| Ok(())).map_err(|e| format!("cannot empty {}: {e}", path.display()))
}

/// Renders `report` in one format.
pub fn render(report: &Report, format: Format, color: bool) -> String {
    crate::report::render::written(|out| {
        write_format(View::of(report), format, color, Detail::default(), out)
    })
    .expect("a report in memory cannot fail to render")
}

/// Renders a report in one format into `out`, straight from wherever its
/// cases are; `detail` says how many failing instances a human report
/// shows.
pub fn write_format(
    view: View,
    format: Format,
    color: bool,
    detail: Detail,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    use crate::report::render::{human, json, junit, markdown};
    match format {
        Format::Json => json::write(view, out),
        Format::Human => human::write(view, color, detail, out),
        Format::Junit => junit::write(view, out),
        Format::Markdown => markdown::write(view, out),
    }
}

/// Writes each report; a file is replaced whole.
pub fn write_reports(view: View, targets: &[ReportTarget], detail: Detail) -> Result<(), String> {
    for target in targets {
        match &target.path {
            Some(path) => replace_file(path, &mut |out| {
                write_format(view, target.format, false, detail, out)
            })
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            None => {
                let color = target.format == Format::Human && std::io::stdout().is_terminal();
                let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
                let written = write_format(view, target.format, color, detail, &mut stdout)
                    .and_then(|()| stdout.flush());
                match written {
                    // A reader that stopped reading is not an error.
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                    other => {
                        other.map_err(|e| format!("cannot write the report to stdout: {e}"))?
                    }
                }
            }
        }
    }
    Ok(())
}

fn replace_file(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    // Renaming over a device or a FIFO (`--output /dev/null`) would
    // replace it with a regular file, for every process on the machine in
    // the case of /dev/null: write into it instead (never through a link,
    // which is replaced like a file).
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file() && !m.file_type().is_symlink()) {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(crate::sys::O_NOFOLLOW)
            .open(path)?;
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        return out.flush();
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let file = tempfile::NamedTempFile::new_in(dir)?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)?;
    out.into_inner()
        .map_err(|e| e.into_error())?
        .persist(path)
        .map_err(|e| e.error)?;
    Ok(())
}

/// Writes to stdout. A reader that stopped reading (`toolpath list | head`)
/// is not an error: the rest is dropped quietly.
pub fn print_out(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;
    use crate::report::render::sample_reports;

    #[test]
    fn formats_pair_with_outputs_and_one_at_most_goes_to_stdout() {
        let out = |p: &str| PathBuf::from(p);
        let two = targets(&[Format::Json, Format::Human], &[out("r.json")]).unwrap();
        assert_eq!(two[0].path, Some(out("r.json")));
        assert_eq!(two[1].path, None);
        let dash = targets(&[Format::Json], &[out("-")]).unwrap();
        assert_eq!(dash[0].path, None);
        assert!(targets(&[Format::Json, Format::Junit], &[]).is_err());
        assert!(targets(&[Format::Json], &[out("a"), out("b")]).is_err());
        assert_eq!(targets(&[], &[]).unwrap()[0].format, Format::Human);
    }

    /// Delivery: an old report is emptied by the claim and replaced whole
    /// by the rendering; a link given as an output is refused, and a link
    /// put in a report's place after the claim is replaced, its target
    /// untouched; a device is written into.
    #[test]
    fn reports_are_claimed_then_replaced_whole_and_never_written_through_links() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("r.json");
        std::fs::write(&json, "an old report").unwrap();
        let sink = dir.path().join("sink");
        std::fs::write(&sink, "the link's target").unwrap();
        let link = dir.path().join("link.xml");
        std::os::unix::fs::symlink(&sink, &link).unwrap();
        let target = |format, path: &Path| ReportTarget {
            format,
            path: Some(path.to_owned()),
        };
        let refused = claim(&[target(Format::Junit, &link)], None)
            .err()
            .expect("a link is refused");
        assert!(refused.contains("is a symbolic link"), "{refused}");
        let xml = dir.path().join("r.xml");
        let targets = vec![
            target(Format::Json, &json),
            target(Format::Junit, &xml),
            target(Format::Markdown, Path::new("/dev/null")),
        ];
        let events = events_path(None, &targets).unwrap();
        assert_eq!(events, dir.path().join("r.json.events.jsonl"));
        std::fs::write(&events, "an old log").unwrap();
        let log = claim(&targets, Some(&events)).unwrap();
        assert!(log.is_some());
        assert_eq!(std::fs::read_to_string(&json).unwrap(), "");
        assert_eq!(std::fs::read_to_string(&events).unwrap(), "");
        // A link planted in the claimed report's place meanwhile.
        std::fs::remove_file(&xml).unwrap();
        std::os::unix::fs::symlink(&sink, &xml).unwrap();
        let report =
            sample_reports::report("x", vec![sample_reports::case("a.b", Status::Fail, &[])]);
        write_reports(View::of(&report), &targets, Detail::default()).unwrap();
        let written: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(written["cases"][0]["status"], "fail");
        assert!(std::fs::symlink_metadata(&xml).unwrap().is_file());
        assert!(std::fs::read_to_string(&xml).unwrap().starts_with("<?xml"));
        assert_eq!(std::fs::read_to_string(&sink).unwrap(), "the link's target");
        assert!(
            std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
}
