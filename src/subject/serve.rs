//! `toolpath serve`: the reference implementation as a stdio adapter.
//!
//! It is what ports can be diffed against message by message, the runner
//! for permission cases as an unprivileged user, and the proof that the
//! stdio path gives exactly the in-process results.
//!
//! Its input is read as bounded lines of bytes: a line that is not UTF-8
//! or not a protocol message is ignored with a word on stderr, and so is
//! one longer than [`MAX_LINE_BYTES`] (read past, never held), where
//! reading text lines made it exit on the first invalid byte and hold a
//! line of any length (issue 30, item 9).

use std::io::{BufRead, Read, Write};

use crate::subject::lines::MAX_LINE_BYTES;
use toolpath_suite::protocol::{AdapterMessage, HarnessMessage};

/// Answers protocol messages from `input` on `output` until `bye` or end of input.
pub fn serve(input: impl BufRead, output: impl Write) -> std::io::Result<()> {
    serve_lines(input, output, MAX_LINE_BYTES)
}

fn serve_lines(
    mut input: impl BufRead,
    mut output: impl Write,
    limit: usize,
) -> std::io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if (&mut input)
            .take(limit as u64 + 1)
            .read_until(b'\n', &mut line)?
            == 0
        {
            return Ok(());
        }
        if line.len() > limit {
            skip_line(&mut input)?;
            eprintln!("toolpath serve: ignoring a line longer than {limit} bytes");
            continue;
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            eprintln!("toolpath serve: ignoring a line that is not UTF-8");
            continue;
        };
        if text.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<HarnessMessage>(text) {
            Ok(HarnessMessage::Hello(_)) => AdapterMessage::Hello(crate::reference::hello()),
            Ok(HarnessMessage::Call(call)) => {
                let mut result = crate::reference::call(&call.workspace, call.tool, &call.params);
                result.seq = call.seq;
                AdapterMessage::Result(result)
            }
            Ok(HarnessMessage::Bye) => return Ok(()),
            Err(e) => {
                eprintln!("toolpath serve: ignoring a line that is not a protocol message: {e}");
                continue;
            }
        };
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
}

/// Reads past the rest of the current line, holding none of it.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|b| *b == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line that is not UTF-8 and one past the limit are ignored, and
    /// the `hello` after them is answered.
    #[test]
    fn bad_and_overlong_lines_are_ignored_and_serving_goes_on() {
        let hello = r#"{"type":"hello","protocol":1,"suite":"0"}"#;
        let mut input = b"\xff\xfe not utf-8\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100));
        input.push(b'\n');
        input.extend(hello.as_bytes());
        input.push(b'\n');
        let mut output = Vec::new();
        serve_lines(&input[..], &mut output, 64).unwrap();
        let text = String::from_utf8(output).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.starts_with(r#"{"type":"hello""#), "{text}");
    }
}
