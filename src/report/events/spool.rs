//! A finished run's spool read back: verified line by line against its
//! seal, indexed by position, and read as often as a renderer needs.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Event, EventLog};
use crate::report::CaseReport;
use crate::report::seal::SpoolKey;
use crate::report::view::CaseSource;

/// A finished run's spool, verified and read back in position order, as
/// often as a renderer needs: only where each position's latest line is
/// held (its offset and line number, 12 bytes an instance), never the
/// reports.
///
/// It is read through the descriptor the run wrote it with, so a file put
/// in its place (a link, a FIFO) is never read; what is read in it is
/// verified: every line's seal at [`Spool::open`], the number of lines
/// against the number written, every position present, and each line
/// again when a renderer reads it. A spool that does not verify is refused
/// with the first line that is wrong: nothing an adapter writes into the
/// run's directory can change a verdict.
pub struct Spool {
    path: PathBuf,
    file: File,
    key: SpoolKey,
    /// Where the latest line of each position starts.
    offsets: Vec<u64>,
    /// The line number of each position's latest line, its seal's sequence
    /// number (u32: a run has fewer lines than that).
    seqs: Vec<u32>,
    /// How many lines the run wrote, all verified.
    lines: u64,
}

/// Reads a file at positions of its own, leaving the descriptor's offset
/// to the writer that shares it.
struct At<'a> {
    file: &'a File,
    pos: u64,
}

impl io::Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = std::os::unix::fs::FileExt::read_at(self.file, buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl io::Seek for At<'_> {
    fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
        self.pos = match to {
            io::SeekFrom::Start(n) => n,
            io::SeekFrom::Current(d) => self.pos.checked_add_signed(d).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "seek before the start")
            })?,
            io::SeekFrom::End(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "the spool is read from positions it indexed",
                ));
            }
        };
        Ok(self.pos)
    }
}

impl Spool {
    const MISSING: u64 = u64::MAX;

    /// Verifies and indexes `log`, the spool of a run of `total` instances
    /// (written with [`EventLog::sealed`]).
    pub fn open(log: &EventLog, total: usize) -> io::Result<Spool> {
        /// Just enough of a line to index it.
        #[derive(Deserialize)]
        struct Peek {
            event: String,
            position: Option<usize>,
        }
        let path = log.path.clone();
        let (file, written) = {
            let lines = log.file.lock().expect("event log");
            (lines.file.try_clone()?, lines.written)
        };
        let key = log
            .seal
            .clone()
            .ok_or_else(|| io::Error::other(format!("{} is not a sealed spool", path.display())))?;
        let mut reader = BufReader::new(At {
            file: &file,
            pos: 0,
        });
        let mut offsets = vec![Spool::MISSING; total];
        let mut seqs = vec![0u32; total];
        let (mut offset, mut seq, mut line) = (0u64, 0u64, Vec::new());
        loop {
            line.clear();
            let read = reader.read_until(b'\n', &mut line)?;
            if read == 0 {
                break;
            }
            let json = key
                .unseal(seq, &line)
                .map_err(|e| tampered(&path, seq, &e))?;
            let peek: Peek = serde_json::from_slice(json).map_err(|e| tampered(&path, seq, &e))?;
            if peek.event == "case" {
                let position = peek
                    .position
                    .filter(|p| *p < total)
                    .ok_or_else(|| tampered(&path, seq, &"a case line without a valid position"))?;
                offsets[position] = offset;
                seqs[position] = u32::try_from(seq).map_err(|e| tampered(&path, seq, &e))?;
            }
            offset += read as u64;
            seq += 1;
        }
        if seq != written {
            return Err(tampered(
                &path,
                seq.min(written),
                &format!("the spool has {seq} lines, the run wrote {written}"),
            ));
        }
        if let Some(position) = offsets.iter().position(|o| *o == Spool::MISSING) {
            return Err(io::Error::other(format!(
                "{} has no report for instance {position} (the log could not be written whole)",
                path.display()
            )));
        }
        Ok(Spool {
            path,
            file,
            key,
            offsets,
            seqs,
            lines: written,
        })
    }

    /// Writes the log as plain JSON Lines (the user's copy, `--events`):
    /// every line the run wrote, in the order written, each verified again
    /// and without its seal.
    pub fn write_plain(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut reader = BufReader::new(At {
            file: &self.file,
            pos: 0,
        });
        let mut line = Vec::new();
        for seq in 0..self.lines {
            line.clear();
            reader.read_until(b'\n', &mut line)?;
            let json = self
                .key
                .unseal(seq, &line)
                .map_err(|e| tampered(&self.path, seq, &e))?;
            out.write_all(json)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// The report at `position`.
    pub fn case(&self, position: usize) -> io::Result<CaseReport> {
        let mut first = None;
        self.visit(position..position + 1, &mut |case| {
            first = Some(case.clone());
            Ok(())
        })?;
        Ok(first.expect("visited"))
    }

    fn visit(
        &self,
        positions: std::ops::Range<usize>,
        visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut reader = BufReader::new(At {
            file: &self.file,
            pos: 0,
        });
        let (mut at, mut line) = (0u64, Vec::new());
        for position in positions {
            let (offset, seq) = (self.offsets[position], u64::from(self.seqs[position]));
            // Relative seeks keep the buffer: lines written in order are read
            // with no system call each.
            reader.seek_relative(offset as i64 - at as i64)?;
            line.clear();
            at = offset + reader.read_until(b'\n', &mut line)? as u64;
            let json = self
                .key
                .unseal(seq, &line)
                .map_err(|e| tampered(&self.path, seq, &e))?;
            match serde_json::from_slice(json).map_err(|e| tampered(&self.path, seq, &e))? {
                Event::Case(case) => visit(&case.report)?,
                _ => return Err(tampered(&self.path, seq, &"not a case line")),
            }
        }
        Ok(())
    }
}

/// A spool that does not verify, naming the first wrong line (from 1).
fn tampered(path: &Path, seq: u64, error: &dyn std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "the run's event log {} does not verify at line {}: {error}",
            path.display(),
            seq + 1
        ),
    )
}

impl CaseSource for Spool {
    fn each(&self, visit: &mut dyn FnMut(&CaseReport) -> io::Result<()>) -> io::Result<()> {
        self.visit(0..self.offsets.len(), visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;
    use crate::report::events::read;
    use crate::report::sink::Sink;

    /// A spool written through the sink: instances finishing out of order,
    /// one amended after the fact.
    fn spooled(dir: &Path, skip: Option<usize>) -> EventLog {
        let path = dir.join(format!("events-{}.jsonl", skip.map_or(9, |s| s)));
        let file = std::fs::OpenOptions::new()
            .create_new(true)
            .read(true)
            .append(true)
            .open(&path)
            .unwrap();
        let log = EventLog::sealed(file, &path, SpoolKey::generate().unwrap());
        let head = crate::report::render::sample_reports::report("x", Vec::new());
        log.start(&head, 3);
        for (position, id, status) in [
            (2, "c", Status::Pass),
            (0, "a", Status::Pass),
            (1, "b", Status::Fail),
        ] {
            if Some(position) != skip {
                let mut case = crate::report::render::sample_reports::case(id, status, &[]);
                case.duration_ms = 1271.7055921705467;
                log.record(position, &case, false);
            }
        }
        let amended = crate::report::render::sample_reports::case("a", Status::AdapterError, &[]);
        log.record(0, &amended, true);
        log.end(&head);
        assert!(log.complete());
        log
    }

    fn statuses(source: &dyn CaseSource) -> io::Result<Vec<(String, Status)>> {
        let mut seen = Vec::new();
        source.each(&mut |c| {
            seen.push((c.id.clone(), c.status));
            Ok(())
        })?;
        Ok(seen)
    }

    #[test]
    fn a_spool_reads_cases_in_position_order_with_the_latest_line_of_each() {
        let dir = tempfile::tempdir().unwrap();
        let log = spooled(dir.path(), None);
        let spool = Spool::open(&log, 3).unwrap();
        let expected = [
            ("a".to_owned(), Status::AdapterError),
            ("b".to_owned(), Status::Fail),
            ("c".to_owned(), Status::Pass),
        ];
        // Every pass reads the same, as a renderer needs.
        assert_eq!(statuses(&spool).unwrap(), expected);
        assert_eq!(statuses(&spool).unwrap(), expected);
        assert_eq!(spool.case(1).unwrap().id, "b");
        // Reports rendered from the log must show the numbers the run had,
        // to the last bit (without exact float parsing, this one reads
        // back as 1271.7055921705469).
        assert_eq!(spool.case(2).unwrap().duration_ms, 1271.7055921705467);
        // The plain copy (`--events`), read whole as `toolpath compare`
        // reads it, agrees; it has every line the run wrote, unsealed.
        let mut copy = Vec::new();
        spool.write_plain(&mut copy).unwrap();
        let text = String::from_utf8(copy).unwrap();
        assert_eq!(statuses(&read(&text).unwrap().cases).unwrap(), expected);
        assert_eq!(text.lines().count(), 6);
        assert!(!text.contains('\t'), "{text}");
    }

    #[test]
    fn a_spool_missing_an_instance_or_a_reader_that_stops_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = Spool::open(&spooled(dir.path(), Some(1)), 3)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("no report for instance 1"), "{err}");
        let log = spooled(dir.path(), None);
        let spool = Spool::open(&log, 3).unwrap();
        let stopped = spool.each(&mut |_| Err(io::Error::other("reader stopped")));
        assert_eq!(stopped.unwrap_err().to_string(), "reader stopped");
        // A position past the run's instances is a broken log, not a panic.
        assert!(Spool::open(&log, 2).is_err());
    }

    /// Rewrites the spool's file with `edit` applied to its lines, in place
    /// (same inode, as an adapter that found the file would).
    fn forge(log: &EventLog, edit: impl FnOnce(&mut Vec<String>)) {
        let text = std::fs::read_to_string(log.path()).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        edit(&mut lines);
        let mut forged = lines.join("\n");
        forged.push('\n');
        let file = std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(log.path())
            .unwrap();
        std::os::unix::fs::FileExt::write_all_at(&file, forged.as_bytes(), 0).unwrap();
    }

    /// Item 3 of issue 21: an adapter that rewrote the spool in place made
    /// the report list passes for failures. Every way of forging it is
    /// refused with the first wrong line: a status changed (line 4 is the
    /// `fail` of `b`), lines swapped, a line dropped from the end, a line
    /// replayed in another place, and a line sealed with another key.
    #[test]
    fn a_spool_changed_after_it_was_written_is_refused_naming_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let refused = |edit: &dyn Fn(&mut Vec<String>)| -> String {
            // A fresh directory per forgery: the names repeat.
            let sub = tempfile::tempdir_in(dir.path()).unwrap().keep();
            let log = spooled(&sub, None);
            forge(&log, edit);
            match Spool::open(&log, 3) {
                Ok(spool) => panic!("a forged spool was accepted: {:?}", statuses(&spool)),
                Err(e) => e.to_string(),
            }
        };
        let status = refused(&|lines| lines[3] = lines[3].replace("\"fail\"", "\"pass\""));
        assert!(
            status.contains("does not verify at line 4: its seal"),
            "{status}"
        );
        let swapped = refused(&|lines| lines.swap(1, 2));
        assert!(swapped.contains("at line 2:"), "{swapped}");
        let dropped = refused(&|lines| {
            lines.pop();
        });
        assert!(
            dropped.contains("the spool has 5 lines, the run wrote 6"),
            "{dropped}"
        );
        let replayed = refused(&|lines| {
            let first = lines[1].clone();
            lines.push(first);
        });
        assert!(replayed.contains("at line 7:"), "{replayed}");
        let other_key = {
            let sub = tempfile::tempdir_in(dir.path()).unwrap().keep();
            std::fs::read_to_string(spooled(&sub, None).path()).unwrap()
        };
        let foreign = refused(&|lines| {
            *lines = other_key.lines().map(str::to_owned).collect();
        });
        assert!(foreign.contains("at line 1:"), "{foreign}");
    }

    /// The plain copy is made from the spool at delivery: a spool changed
    /// after it was verified gives no copy, but the error.
    #[test]
    fn no_plain_copy_is_made_of_a_spool_changed_after_it_was_verified() {
        let dir = tempfile::tempdir().unwrap();
        let log = spooled(dir.path(), None);
        let spool = Spool::open(&log, 3).unwrap();
        forge(&log, |lines: &mut Vec<String>| {
            lines[3] = lines[3].replace("\"fail\"", "\"pass\"")
        });
        let mut copy = Vec::new();
        let err = spool.write_plain(&mut copy).unwrap_err().to_string();
        assert!(err.contains("does not verify at line 4"), "{err}");
        assert!(!String::from_utf8_lossy(&copy).contains("\"b\""));
    }
}
