//! `toolpath serve`: the reference implementation as a stdio adapter.
//!
//! It is what ports can be diffed against message by message, the runner
//! for permission cases as an unprivileged user, and the proof that the
//! stdio path gives exactly the in-process results.

use std::io::{BufRead, Write};

use toolpath_suite::protocol::{AdapterMessage, HarnessMessage};

/// Answers protocol messages from `input` on `output` until `bye` or end of input.
pub fn serve(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<HarnessMessage>(&line) {
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
    Ok(())
}
