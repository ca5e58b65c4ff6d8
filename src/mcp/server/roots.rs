//! A case's roots on the server: the working directory a call needs,
//! the roots handed over (argv and a restart, a config file in the private
//! `HOME`, a tool, or MCP roots) and awaited until in force, and the git
//! repositories a case's roots must be.

use super::*;

impl McpServer {
    /// Makes the private `HOME` where missing, the server's own when it
    /// runs as another user: in its `TMPDIR`, which that user may change,
    /// so the directory is given by descriptor, never through a link put
    /// at its name.
    pub(super) fn make_home(&self) -> std::io::Result<()> {
        let home = self.home();
        match std::fs::create_dir(&home) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(()),
            Err(e) => return Err(e),
        }
        if let Some(user) = self.config.user {
            use rustix::fs::{CWD, Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let dir = rustix::fs::openat(CWD, &home, flags, Mode::empty())?;
            crate::sys::fchown(&dir, user)?;
        }
        Ok(())
    }

    /// `via: config`: the file in the private `HOME` that lists `roots`.
    pub(super) fn write_config(&self, roots: &[String]) -> Result<(), AdapterFailure> {
        let config = self
            .profile()
            .roots
            .config
            .clone()
            .expect("checked at load");
        let path = self.home().join(&*config.file);
        let mut object = config.with.clone();
        object.insert(config.key.clone(), Value::from(roots.to_vec()));
        let text = serde_json::to_string_pretty(&Value::Object(object)).expect("JSON serialises");
        let written = self.make_home().and_then(|()| {
            crate::mcp::confined::write(
                &self.home(),
                &config.file,
                text.as_bytes(),
                self.config.user,
            )
        });
        written.map_err(|e| {
            failure(
                FailureKind::Start,
                format!("cannot write {}: {e}", path.display()),
            )
        })
    }

    /// The working directory `call` needs: its target directory, when the
    /// server resolves relative paths against its own and the call sends
    /// one, or none (which such a server takes as its own directory);
    /// `None` when any will do.
    pub(super) fn required_cwd(&self, call: &Call) -> Option<PathBuf> {
        let relative =
            translate::requested_path(call.tool, &call.params).is_none_or(|p| !p.starts_with('/'));
        (relative && self.profile().relative_paths == RelativeTo::Cwd)
            .then(|| PathBuf::from(&call.workspace.target))
    }

    /// Brings the server into the state `call` needs: a restart when its
    /// directories are fixed at start and differ from the running
    /// process's, or its working directory must change, else new MCP
    /// roots announced and waited for. A new process starts in the target
    /// directory (a server resolving relative paths there) or the
    /// subject's own start directory; never in a directory of an earlier
    /// case, which is gone.
    pub(super) fn enter(&mut self, call: &Call) -> Result<(), AdapterFailure> {
        let required = self.required_cwd(call);
        // A server kept for many cases (its roots changed while it runs)
        // or for the instances of one case file built in one place (its
        // roots fixed at start) lives in the subject's own start
        // directory: the fixture is removed and built again under it. One
        // started for a call that needs its directory (see `call`) lives
        // in the case's target directory.
        let persisting = required.is_none();
        let state = State {
            roots: call.workspace.roots.clone(),
            cwd: match self.profile().relative_paths {
                RelativeTo::Cwd if !persisting => PathBuf::from(&call.workspace.target),
                _ => self.start_dir(),
            },
        };
        let restart = match &self.running {
            None => true,
            Some(running) => {
                required.is_some_and(|cwd| cwd != running.state.cwd)
                    || (!self.roots_change_while_running() && running.state.roots != state.roots)
            }
        };
        if restart {
            self.restart_in(state)
        } else {
            self.change_roots(state.roots)
        }
    }

    /// Starts a process in `state`, within `--max-restarts` after a death
    /// nothing explains, and hands it its roots where they go over MCP or
    /// a tool. The start is waited time when the last process was ended
    /// for a request it never answered.
    fn restart_in(&mut self, state: State) -> Result<(), AdapterFailure> {
        if self.running.is_none()
            && self.unexplained
            && let Err(spent) = self.restarts.take()
        {
            return Err(failure(
                FailureKind::GaveUp,
                format!(
                    "the server died unexplained (a crash or a failed start) and was restarted for {spent} case file{} in a row; --max-restarts {} allows no more: giving up",
                    if spent == 1 { "" } else { "s" },
                    self.config.max_restarts
                ),
            ));
        }
        let roots = state.roots.clone();
        // A start that fails is unexplained until one succeeds.
        self.unexplained = true;
        let started = std::time::Instant::now();
        self.launch(state)?;
        if std::mem::take(&mut self.ended_waiting) {
            self.waited += started.elapsed();
        }
        self.unexplained = false;
        // A server taking MCP roots asks for them after `initialized`
        // and may take them in asynchronously, like a later change: a
        // first call sent before they are in force is refused as
        // outside every (empty) allowed directory. A server given them
        // by a tool gets them now, even when its config file listed
        // them: the process being ended meanwhile shares its `HOME`,
        // and desktop-commander writes its config back while it runs
        // (under its own lock, which the tool honours and a write of
        // the file from here could not).
        match *self.profile().roots.via {
            RootsVia::Mcp => self.await_roots(&roots),
            RootsVia::Tool => {
                self.set_roots_by_tool(&roots)?;
                self.await_roots(&roots)
            }
            _ => Ok(()),
        }
    }

    /// Gives the running server `roots`, when they are new, the way they
    /// reach it while it runs (a tool, or MCP roots announced), and waits
    /// until they are in force.
    fn change_roots(&mut self, roots: Vec<String>) -> Result<(), AdapterFailure> {
        let via = *self.profile().roots.via;
        let running = self.running.as_mut().expect("running");
        if running.state.roots == roots {
            return Ok(());
        }
        running.state.roots = roots.clone();
        if via == RootsVia::None {
            return Ok(());
        }
        if via == RootsVia::Tool {
            self.set_roots_by_tool(&roots)?;
        } else if let Err(e) = running
            .connection
            .change_roots(&roots, std::time::Instant::now() + self.config.call_timeout)
        {
            return Err(self.lost(e, "announcing new roots"));
        }
        self.await_roots(&roots)
    }

    /// Whether new roots reach the running server (over MCP, or by a
    /// tool), so no restart is needed for them.
    pub(super) fn roots_change_while_running(&self) -> bool {
        matches!(
            *self.profile().roots.via,
            RootsVia::Mcp | RootsVia::Tool | RootsVia::None
        )
    }

    /// `via: tool`: the profile's roots tool called with `roots`. A server
    /// that refuses is ended (its directories are unknown); the case
    /// fails with what it said.
    pub(super) fn set_roots_by_tool(&mut self, roots: &[String]) -> Result<(), AdapterFailure> {
        let tool = self.profile().roots.tool.clone().expect("checked at load");
        let mut given = Map::new();
        given.insert("roots".into(), Value::from(roots.to_vec()));
        let arguments = tool.arguments.fill(&given);
        let timeout = self.config.call_timeout;
        let running = self.running.as_mut().expect("running");
        let doing = format!("setting new roots (`{}`)", tool.name);
        match running
            .connection
            .call_tool(&tool.name, &arguments, timeout)
        {
            Ok(result) if result.is_error() => {
                let message = format!("{doing}: it answered an error: {}", result.text());
                let stderr = self.kill();
                Err(AdapterFailure {
                    kind: FailureKind::ServerFailed,
                    message,
                    stderr: format!("{}{stderr}", std::mem::take(&mut self.stderr)),
                })
            }
            Ok(_) => Ok(()),
            Err(e) => Err(self.lost(e, &doing)),
        }
    }

    /// Polls the profile's ready tool until its text names every root:
    /// for at most one call's time (and at most `max_polls` asks when the
    /// profile sets it), pausing between asks with a doubling backoff.
    pub(super) fn await_roots(&mut self, roots: &[String]) -> Result<(), AdapterFailure> {
        let Some(ready) = self.profile().roots.ready.clone() else {
            return Ok(());
        };
        let timeout = self.config.call_timeout;
        let started = Instant::now();
        let mut pause = READY_PAUSE_FIRST;
        let mut asked = 0usize;
        loop {
            let running = self.running.as_mut().expect("running");
            let answer = running
                .connection
                .call_tool(&ready.tool, &ready.arguments, timeout);
            asked += 1;
            match answer {
                Ok(result) => {
                    let text = result.text();
                    if roots.iter().all(|r| names(&text, r)) {
                        return Ok(());
                    }
                }
                Err(e) => {
                    return Err(self.lost(e, &format!("waiting for new roots (`{}`)", ready.tool)));
                }
            }
            // Said without the count when time ran out: how many asks fit
            // in the time depends on the machine's load, and a reason is
            // compared across runs.
            if ready.max_polls.is_some_and(|max| asked >= max) {
                return Err(self.exhausted(format!(
                    "its new roots were still not in force after {asked} call{} of `{}`",
                    if asked == 1 { "" } else { "s" },
                    ready.tool
                )));
            }
            let spent = started.elapsed();
            if spent >= timeout {
                return Err(self.exhausted(format!(
                    "its new roots were still not in force after {} ms of calls of `{}`",
                    timeout.as_millis(),
                    ready.tool
                )));
            }
            std::thread::sleep(pause.min(timeout - spent));
            pause = (pause * 2).min(READY_PAUSE_MAX);
        }
    }

    /// `git init ROOT`, with git isolated as for the server, bounded as
    /// its start is (`--hello-timeout-ms`).
    pub(super) fn init_repository(&self, root: &str) -> Result<(), AdapterFailure> {
        let mut command = std::process::Command::new("git");
        command.args(["init", "-q", root]);
        crate::subject::adapter::environment(&mut command, &self.tmp(), None);
        let done = crate::mcp::command::run(command, self.config.user, self.config.hello_timeout)
            .map_err(|e| failure(FailureKind::Start, format!("`git init {root}`: {e}")))?;
        if !done.success {
            return Err(failure(
                FailureKind::Start,
                format!(
                    "`git init {root}` failed ({}): {}",
                    done.status, done.stderr
                ),
            ));
        }
        Ok(())
    }

    /// `git init` in each root that is not a repository yet; the `.git`
    /// directories made (bookkeeping the snapshot leaves out).
    pub(super) fn git_init(&mut self, roots: &[String]) -> Result<Vec<PathBuf>, AdapterFailure> {
        let mut made = Vec::new();
        if !self.profile().server.prepare.contains(&Prepare::GitInit) {
            return Ok(made);
        }
        for root in roots {
            let git = Path::new(root).join(".git");
            // A root prepared before and built again in its place (see
            // `Subject::keeps_place`) has lost its `.git`: prepared anew.
            let before = self.prepared.iter().position(|r| r == root);
            match (before, git.exists()) {
                (Some(_), true) => {
                    made.push(git);
                    continue;
                }
                (None, true) => continue,
                (Some(at), false) => {
                    self.prepared.swap_remove(at);
                }
                (None, false) => {}
            }
            self.init_repository(root)?;
            self.prepared.push(root.clone());
            made.push(git);
            let case = self.case.clone();
            self.findings.note(
                FindingKind::FixturePrepared,
                || "`git init` in a root that was not a repository".into(),
                case.as_deref(),
            );
        }
        Ok(made)
    }
}

/// Whether `text` names the directory `root` (as given, or as its real
/// path: a server may report either).
fn names(text: &str, root: &str) -> bool {
    text.lines().any(|l| l.trim() == root)
        || std::fs::canonicalize(root)
            .ok()
            .is_some_and(|real| text.lines().any(|l| Path::new(l.trim()) == real))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server's list of its directories names a root as given or as
    /// its real path, one a line, never as part of a line.
    #[test]
    fn a_root_is_named_as_given_or_as_its_real_path() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        let link = dir.path().join("link").display().to_string();
        let real = real.display().to_string();
        assert!(names(&format!("Allowed:\n  {link}\n"), &link));
        assert!(names(&format!("{real}\n"), &link));
        assert!(!names(&format!("{link}/sub\n"), &link));
        assert!(!names(&format!("not {link}\n"), &link));
    }
}
