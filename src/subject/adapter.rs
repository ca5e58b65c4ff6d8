//! External adapters: a long-lived process speaking the JSON Lines protocol.
//!
//! The process is started once and reused for every case; start-up cost is
//! paid once. Anything that goes wrong with it (exit, silence past the
//! timeout, a line that is not a valid message, a wrong `seq`) becomes an
//! [`AdapterFailure`] for the one case being run: the whole process group is
//! killed, and the next call starts a fresh process and replays `hello`.
//! After `max_restarts` restarts the adapter is given up on and the caller
//! marks the run partial.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::protocol::{
    AdapterHello, AdapterMessage, Call, HarnessHello, HarnessMessage, PROTOCOL_VERSION, ToolResult,
};
use crate::subject::{AdapterFailure, FailureKind, Subject};

/// How much of an adapter's standard error is kept for reports.
const STDERR_TAIL_BYTES: usize = 8 * 1024;

/// How to start and supervise an adapter.
#[derive(Debug, Clone)]
pub struct AdapterConfig {
    /// Program and arguments, already split.
    pub argv: Vec<String>,
    pub call_timeout: Duration,
    pub hello_timeout: Duration,
    pub max_restarts: usize,
    /// Run the process as this user and group (used to observe permission
    /// bits when the harness itself runs as root).
    pub user: Option<(u32, u32)>,
    /// Where each adapter process gets a fresh temporary directory of its
    /// own (its `TMPDIR`), so workers and restarts never share state.
    pub tmpdir: PathBuf,
    pub suite_version: String,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    /// This process's own `TMPDIR`, removed with it.
    scratch: tempfile::TempDir,
}

/// A supervised adapter process.
pub struct Adapter {
    config: AdapterConfig,
    running: Option<Running>,
    hello: AdapterHello,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    seq: u64,
    /// Restarts after the first start.
    restarts: usize,
}

impl Adapter {
    /// Starts the adapter and exchanges `hello`.
    pub fn start(config: AdapterConfig) -> Result<Adapter, AdapterFailure> {
        let mut adapter = Adapter {
            config,
            running: None,
            // Replaced by the adapter's own as soon as it answers.
            hello: AdapterHello::default(),
            stderr: Arc::new(Mutex::new(VecDeque::new())),
            seq: 0,
            restarts: 0,
        };
        adapter.spawn()?;
        Ok(adapter)
    }

    fn spawn(&mut self) -> Result<(), AdapterFailure> {
        let (program, args) = self
            .config
            .argv
            .split_first()
            .ok_or_else(|| AdapterFailure {
                kind: FailureKind::Crash,
                message: "empty adapter command".into(),
                stderr: String::new(),
            })?;
        let scratch = tempfile::Builder::new()
            .prefix("adapter-")
            .tempdir_in(&self.config.tmpdir)
            .map_err(|e| AdapterFailure {
                kind: FailureKind::Crash,
                message: format!("cannot create the adapter's temporary directory: {e}"),
                stderr: String::new(),
            })?;
        if let Some((uid, gid)) = self.config.user {
            let _ = std::os::unix::fs::chown(scratch.path(), Some(uid), Some(gid));
        }
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("LC_ALL", "C")
            .env("TZ", "UTC")
            .env("TMPDIR", scratch.path())
            // Its own process group, so a hang is ended with all its children.
            .process_group(0);
        if let Some((uid, gid)) = self.config.user {
            command.uid(uid).gid(gid);
        }
        let mut child = command.spawn().map_err(|e| AdapterFailure {
            kind: FailureKind::Crash,
            message: format!("cannot start `{}`: {e}", self.config.argv.join(" ")),
            stderr: String::new(),
        })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let stop = line.is_err();
                if tx.send(line).is_err() || stop {
                    break;
                }
            }
        });
        let tail = Arc::clone(&self.stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut tail = tail.lock().expect("stderr buffer");
                tail.extend(&buf[..n]);
                let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
                tail.drain(..excess);
            }
        });
        self.running = Some(Running {
            child,
            stdin,
            lines,
            scratch,
        });
        self.seq = 0;
        let hello = HarnessHello {
            protocol: PROTOCOL_VERSION,
            suite: self.config.suite_version.clone(),
        };
        self.send(&HarnessMessage::Hello(hello))?;
        match self.receive(self.config.hello_timeout)? {
            AdapterMessage::Hello(h) if h.protocol == PROTOCOL_VERSION => {
                self.hello = h;
                Ok(())
            }
            AdapterMessage::Hello(h) => Err(self.fail(
                FailureKind::BadOutput,
                format!(
                    "adapter speaks protocol {}, this harness speaks {PROTOCOL_VERSION}",
                    h.protocol
                ),
            )),
            AdapterMessage::Result(_) => Err(self.fail(
                FailureKind::BadOutput,
                "expected `hello`, got `result`".into(),
            )),
        }
    }

    fn send(&mut self, message: &HarnessMessage) -> Result<(), AdapterFailure> {
        let mut line = serde_json::to_string(message).expect("messages serialise");
        line.push('\n');
        let running = self.running.as_mut().expect("running");
        let written = running
            .stdin
            .write_all(line.as_bytes())
            .and_then(|_| running.stdin.flush());
        written.map_err(|e| {
            self.fail(
                FailureKind::Crash,
                format!("cannot write to the adapter: {e}"),
            )
        })
    }

    fn receive(&mut self, timeout: Duration) -> Result<AdapterMessage, AdapterFailure> {
        let running = self.running.as_mut().expect("running");
        match running.lines.recv_timeout(timeout) {
            Ok(Ok(line)) => serde_json::from_str(&line).map_err(|e| {
                let shown: String = line.chars().take(200).collect();
                self.fail(
                    FailureKind::BadOutput,
                    format!("not a protocol message ({e}): {shown}"),
                )
            }),
            Ok(Err(e)) => Err(self.fail(FailureKind::BadOutput, format!("unreadable output: {e}"))),
            Err(RecvTimeoutError::Timeout) => Err(self.fail(
                FailureKind::Timeout,
                format!("no answer within {} ms", timeout.as_millis()),
            )),
            Err(RecvTimeoutError::Disconnected) => {
                let status = running
                    .child
                    .wait()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|e| e.to_string());
                Err(self.fail(FailureKind::Crash, format!("the adapter exited ({status})")))
            }
        }
    }

    /// Ends the process group and returns the failure with the stderr tail.
    fn fail(&mut self, kind: FailureKind, message: String) -> AdapterFailure {
        self.kill();
        // Give the stderr reader a moment to drain what the process wrote last.
        std::thread::sleep(Duration::from_millis(20));
        AdapterFailure {
            kind,
            message,
            stderr: self.take_stderr(),
        }
    }

    fn take_stderr(&self) -> String {
        let mut tail = self.stderr.lock().expect("stderr buffer");
        let bytes: Vec<u8> = tail.drain(..).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn kill(&mut self) {
        if let Some(mut running) = self.running.take() {
            let pgid = running.child.id() as libc::pid_t;
            // SAFETY: kill(2) with a negative pid signals the process group we created.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }

    /// Says `bye`, waits briefly, then ends the process group.
    pub fn shutdown(&mut self) {
        if self.running.is_some() && self.send(&HarnessMessage::Bye).is_ok() {
            let running = self.running.as_mut().expect("running");
            for _ in 0..50 {
                if matches!(running.child.try_wait(), Ok(Some(_))) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        self.kill();
    }
}

impl Subject for Adapter {
    fn hello(&self) -> &AdapterHello {
        &self.hello
    }

    fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
        if self.running.is_none() {
            if self.restarts >= self.config.max_restarts {
                return Err(AdapterFailure {
                    kind: FailureKind::GaveUp,
                    message: format!(
                        "the adapter was restarted {} times; giving up",
                        self.restarts
                    ),
                    stderr: String::new(),
                });
            }
            self.restarts += 1;
            self.spawn()?;
        }
        self.seq += 1;
        let call = Call {
            seq: self.seq,
            ..call.clone()
        };
        self.send(&HarnessMessage::Call(call.clone()))?;
        match self.receive(self.config.call_timeout)? {
            AdapterMessage::Result(result) if result.seq == call.seq => {
                if result.outcome.is_none() {
                    return Err(
                        self.fail(FailureKind::BadOutput, "result without `outcome`".into())
                    );
                }
                Ok(result)
            }
            AdapterMessage::Result(result) => Err(self.fail(
                FailureKind::WrongSeq,
                format!("answered seq {} to call seq {}", result.seq, call.seq),
            )),
            AdapterMessage::Hello(_) => Err(self.fail(
                FailureKind::BadOutput,
                "expected `result`, got `hello`".into(),
            )),
        }
    }

    fn stderr_tail(&self) -> String {
        self.take_stderr()
    }

    fn scratch_dir(&self) -> Option<&std::path::Path> {
        self.running.as_ref().map(|r| r.scratch.path())
    }
}

impl Drop for Adapter {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Splits an adapter command line on white space, with single and double
/// quotes grouping words. No shell is involved, so nothing is expanded.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unbalanced quote in `{line}`"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty adapter command".into());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_commands_like_a_shell_without_expansion() {
        assert_eq!(split_command("python3 a.py").unwrap(), ["python3", "a.py"]);
        assert_eq!(
            split_command(" node 'my dir/a.mjs'  \"x y\"z ").unwrap(),
            ["node", "my dir/a.mjs", "x yz"]
        );
        assert_eq!(split_command("a ''").unwrap(), ["a", ""]);
        assert_eq!(split_command("echo $HOME").unwrap(), ["echo", "$HOME"]);
        assert!(split_command("a 'b").is_err());
        assert!(split_command("  ").is_err());
    }
}
