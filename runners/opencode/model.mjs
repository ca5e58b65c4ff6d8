// The scripted model: an OpenAI-compatible streaming chat-completions
// endpoint on loopback, declared to opencode as its only provider. opencode
// runs its tools only inside its agent loop, where a model asks for them;
// this model asks for exactly the call the adapter scripted, at once, and
// then ends the turn. No network, no account, no waiting on a real model.
//
// A scripted call is found by the token in the session's last user
// message (`toolpath-call-N`); a request whose last message is a tool's
// answer, or that offers no tools (opencode's own title request), is
// answered with a word of text, which ends the loop.

import http from 'node:http';

import { log } from '../common-node/protocol.mjs';

// opencode sends its system prompt and every tool's schema with each
// request: some tens of KiB. A request past this bound is refused, never
// buffered.
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
const TOKEN = /toolpath-call-(\d+)/;

function textOf(message) {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

/** The chunks of one streamed answer, as the OpenAI wire format frames them. */
function streamed(res, id, deltas) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const frame = (choices, extra = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'scripted', choices, ...extra })}\n\n`);
  for (const [delta, finish] of deltas) frame([{ index: 0, delta, finish_reason: finish }]);
  frame([], { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  res.end('data: [DONE]\n\n');
}

/**
 * Starts the model on 127.0.0.1 and a free port. Returns `{baseURL,
 * script(name, args) -> {token, callID}, close()}`: `script` registers
 * one tool call and gives the text that asks for it and the call's id, by
 * which the adapter finds its answer among the session's messages.
 */
export async function startModel() {
  const scripts = new Map();
  let next = 0;
  let answered = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.writableEnded) return;
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      answered += 1;
      const id = `scripted-${answered}`;
      const messages = Array.isArray(body?.messages) ? body.messages : [];
      const last = messages[messages.length - 1];
      const token = last?.role === 'user' && Array.isArray(body.tools) && body.tools.length ? TOKEN.exec(textOf(last)) : null;
      const call = token ? scripts.get(token[1]) : undefined;
      if (!call) {
        streamed(res, id, [[{ role: 'assistant', content: 'done' }, null], [{}, 'stop']]);
        return;
      }
      scripts.delete(token[1]);
      const toolCall = { index: 0, id: call.callID, type: 'function', function: { name: call.name, arguments: call.args } };
      streamed(res, id, [[{ role: 'assistant', tool_calls: [toolCall] }, null], [{}, 'tool_calls']]);
    });
  });
  server.on('clientError', (err) => log('scripted model: client error', err.message));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    script(name, params) {
      next += 1;
      const callID = `toolpath_${process.pid}_${next}`;
      scripts.set(String(next), { name, args: JSON.stringify(params), callID });
      return { token: `toolpath-call-${next}`, callID };
    },
    close: () => server.close(),
  };
}
