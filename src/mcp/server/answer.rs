//! Answering one suite call: the `tools/call` sent, a search session
//! polled to its end, and the text read back into a result by the
//! profile's rules.

use crate::mcp::client::RequestError;
use crate::mcp::profile::{PollAnswers, RelativeTo, ServerTool, ToolMap};
use crate::mcp::translate::{self, Context, Trial};
use crate::mcp::wire::CallToolResult;
use crate::subject::AdapterFailure;
use crate::subject::budget;
use serde_json::{Map, Value};
use toolpath_suite::protocol::{Call, ToolResult};

use super::*;

impl McpServer {
    /// One suite call: the server in the state it needs, the call
    /// translated, the answer (polled to its end) read back.
    pub(super) fn answer(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
        let profile = self.profile().clone();
        let Some(ToolMap::Tool(map)) = profile.tools.get(&call.tool) else {
            unreachable!("only declared tools are routed here")
        };
        self.enter(call)?;
        let base = self.base(call);
        let arguments = translate::arguments(map, &call.params);
        let mut ctx = Context::new(call.tool, map, &profile.errors, &base, &call.params);
        // What the request named, as the fixture holds it before the call
        // (a link to a file counts: a search given one searches the file).
        ctx.requested_file = translate::requested_path(call.tool, &call.params).is_some()
            && std::fs::metadata(&ctx.requested).is_ok_and(|m| m.is_file());
        let timeout = self.config.call_timeout;
        let running = self.running.as_mut().expect("running");
        let answer = running.connection.call_tool_watched(
            &map.tool,
            &arguments,
            timeout,
            self.hang.as_ref(),
        );
        let notes = running.connection.take_notes();
        self.note(notes);
        let result = match answer {
            Ok(result) => result,
            // A JSON-RPC error is an error answer like an `isError` one:
            // its message is what a client shows the model, and what the
            // profile's rules read (anchored rules included).
            Err(RequestError::Rpc { message, .. }) => {
                let read = translate::error(&mut ctx, &message);
                self.count(ctx.tried);
                return Ok(read);
            }
            Err(e) => return Err(self.lost(e, &format!("`tools/call {}`", map.tool))),
        };
        let is_error = result.is_error();
        let (text, shown) = self.text_to_read(map, &result)?;
        self.within_budget(map, &text, is_error)?;
        let mut read = translate::read(&mut ctx, &text, is_error);
        self.count(ctx.tried);
        // The model saw every answer of a session, whichever was read.
        if let Some(all) = shown {
            read.model_text = Some(all);
        }
        for &field in &map.unobservable {
            if !read.derived.contains(&field) {
                read.derived.push(field);
            }
        }
        Ok(read)
    }

    /// The directory the server resolves a relative path of `call`
    /// against, as the profile says: its working directory, or the first
    /// root.
    fn base(&self, call: &Call) -> String {
        match self.profile().relative_paths {
            RelativeTo::Cwd => {
                let running = self.running.as_ref().expect("running");
                running.state.cwd.display().to_string()
            }
            RelativeTo::Roots => call.workspace.roots[0].clone(),
        }
    }

    /// The text the profile's rules read from `result`, and what the model
    /// was shown when that is another text. The model is shown the
    /// content; the rules read it too, or, where the profile says so, a
    /// value of a successful answer's `structuredContent`, or a search
    /// session's answers polled to its end.
    fn text_to_read(
        &mut self,
        map: &ServerTool,
        result: &CallToolResult,
    ) -> Result<(String, Option<String>), AdapterFailure> {
        let mut text = result.text();
        let mut shown = None;
        if result.is_error() {
            return Ok((text, shown));
        }
        if let Some(pointer) = &map.result.structured {
            let Some(structured) = result.structured_text(pointer) else {
                let why = format!("its structuredContent has no value at `{pointer}`");
                let doing = format!("`tools/call {}`", map.tool);
                return Err(self.lost(RequestError::Malformed(why), &doing));
            };
            shown = Some(std::mem::replace(&mut text, structured));
        }
        if let Some(poll) = &map.result.poll {
            let (all, read) = self.poll(poll, text)?;
            shown = Some(all);
            text = read;
            let running = self.running.as_mut().expect("running");
            let notes = running.connection.take_notes();
            self.note(notes);
        }
        Ok((text, shown))
    }

    /// Refuses an answer that would cost more than one may once read:
    /// each line may become an entry or a match with its path composed,
    /// and a text a rule reads as JSON a value per item, so both are
    /// counted before they are split or parsed. The server is ended, as
    /// for a line past the cap.
    fn within_budget(
        &mut self,
        map: &ServerTool,
        text: &str,
        is_error: bool,
    ) -> Result<(), AdapterFailure> {
        let what = if budget::text_lines(text, budget::MAX_ITEMS).is_err() {
            format!(
                "an answer of more than {} lines, more than one may be read as",
                budget::MAX_ITEMS
            )
        } else if translate::reads_json(&map.result)
            && !is_error
            && budget::json_items(text.as_bytes(), budget::MAX_ITEMS).is_err()
        {
            format!(
                "a JSON text of more than {} values and members, more than one may be read as",
                budget::MAX_ITEMS
            )
        } else {
            return Ok(());
        };
        let doing = format!("`tools/call {}`", map.tool);
        Err(self.lost(RequestError::OverBudget(what), &doing))
    }

    /// Counts the rules tried on one answer.
    pub(super) fn count(&mut self, tried: Vec<Trial>) {
        for trial in tried {
            self.rule_uses
                .applied(&trial.rule, || trial.rule.clone(), trial.matched);
        }
    }

    /// A search session: asked for more until a line says it is done.
    /// Every answer joined (what the model saw), and the text to read:
    /// the same, or the last answer alone when each poll answers the
    /// whole session.
    pub(super) fn poll(
        &mut self,
        poll: &crate::mcp::profile::Poll,
        first: String,
    ) -> Result<(String, String), AdapterFailure> {
        let Some(session) = first.lines().find_map(|line| {
            let found = poll.session.0.captures(line)?.name("session")?;
            Some(found.as_str().to_owned())
        }) else {
            return Ok((first.clone(), first));
        };
        let whole = poll.answers == PollAnswers::All;
        let done = |text: &str| text.lines().any(|l| poll.done.is_match(l));
        let mut all = first.clone();
        let mut last = first;
        let mut polled = false;
        let arguments = substitute(&poll.arguments, &session);
        let timeout = self.config.call_timeout;
        let polls = poll.max_polls.unwrap_or(SESSION_POLLS);
        for _ in 0..polls {
            if done(&last) && (polled || !whole) {
                break;
            }
            let running = self.running.as_mut().expect("running");
            match running
                .connection
                .call_tool(&poll.tool, &arguments, timeout)
            {
                Ok(result) => {
                    last = result.text();
                    if all.len() + 1 + last.len() > MAX_POLLED_BYTES {
                        return Err(self.exhausted(format!(
                            "its search session's answers came to more than {MAX_POLLED_BYTES} bytes"
                        )));
                    }
                    all.push('\n');
                    all.push_str(&last);
                    polled = true;
                }
                Err(e) => return Err(self.lost(e, &format!("polling `{}`", poll.tool))),
            }
        }
        if done(&last) && (polled || !whole) {
            let read = if whole { last } else { all.clone() };
            return Ok((all, read));
        }
        Err(self.exhausted(format!(
            "its search session was not done after {polls} call{} of `{}`",
            if polls == 1 { "" } else { "s" },
            poll.tool
        )))
    }
}

/// `{session}` replaced in every string value.
fn substitute(arguments: &Map<String, Value>, session: &str) -> Map<String, Value> {
    arguments
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Value::String(s) => Value::String(s.replace("{session}", session)),
                other => other.clone(),
            };
            (k.clone(), v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `{session}` is replaced in every string argument, wherever it
    /// stands; other values are left alone.
    #[test]
    fn the_session_is_put_into_every_string_argument() {
        let arguments = json!({"id": "{session}", "n": 3, "text": "s={session};", "flag": null});
        let done = substitute(arguments.as_object().unwrap(), "s1");
        assert_eq!(
            Value::Object(done),
            json!({"id": "s1", "n": 3, "text": "s=s1;", "flag": null})
        );
    }
}
