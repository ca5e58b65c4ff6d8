// Unit tests of what the adapter reads from opencode's tool parts and of the
// scripted model: `node --test runners/opencode/` (no package needed).

import assert from 'node:assert/strict';
import test from 'node:test';

import { errorResult, globAnswer, grepAnswer, readAnswer, shellAnswer, writtenAnswer } from './answers.mjs';
import { startModel } from './model.mjs';

test('grep: matches under each absolute file line; a path with a colon stays whole', () => {
  const output = 'Found 3 matches\n/w/ws/src/a.ts:\n  Line 1: hello: world\n  Line 4: hello\n\n/w/ws/x:y.ts:\n  Line 2: hello\n';
  const answer = grepAnswer({ output, metadata: { truncated: false } });
  assert.deepEqual(answer.matches, [
    { path: '/w/ws/src/a.ts', line: 1, text: 'hello: world' },
    { path: '/w/ws/src/a.ts', line: 4, text: 'hello' },
    { path: '/w/ws/x:y.ts', line: 2, text: 'hello' },
  ]);
  assert.deepEqual(answer.notes, []);
  assert.equal(answer.model_text, output);
});

test('grep: none found, a cut result, and a text of neither form', () => {
  assert.deepEqual(grepAnswer({ output: 'No files found', metadata: {} }).matches, []);
  assert.deepEqual(grepAnswer({ output: 'Found 1 matches\n/a:\n  Line 1: x\n', metadata: { truncated: true } }).notes, ['truncated']);
  assert.equal(grepAnswer({ output: 'something else' }).outcome, 'error');
});

test('glob: absolute lines only', () => {
  assert.deepEqual(globAnswer({ output: '/w/ws/a.ts\n/w/ws/b.ts\n\n(Results are truncated)' }).files, ['/w/ws/a.ts', '/w/ws/b.ts']);
  assert.deepEqual(globAnswer({ output: 'No files found' }).files, []);
});

test('shell: pwd is the cwd; a non-zero exit is an error', () => {
  const ok = shellAnswer({ output: '/w/ws/src\n', metadata: { output: '/w/ws/src\n', exit: 0 } });
  assert.equal(ok.cwd, '/w/ws/src');
  assert.equal(ok.output, '/w/ws/src\n');
  const listing = shellAnswer({ output: 'a\nb\n', metadata: { output: 'a\nb\n', exit: 0 } });
  assert.equal(listing.cwd, undefined);
  const failed = shellAnswer({ output: 'bash: line 1: cd: /w/x: No such file or directory', metadata: { exit: 1 } });
  assert.equal(failed.error.code, 'not_found');
});

test('read: the numbering and the closing note are taken off; a directory is a listing', () => {
  const output = '<path>/w/ws/a.txt</path>\n<type>file</type>\n<content>\n1: hello\n2: \n3: 4: not a number\n\n(End of file - total 3 lines)\n</content>';
  const answer = readAnswer({ output, metadata: {} });
  assert.equal(answer.kind, 'file');
  assert.equal(answer.path, '/w/ws/a.txt');
  assert.equal(answer.content, 'hello\n\n4: not a number');
  const dir = readAnswer({ output: '<path>/w/ws/src</path>\n<type>directory</type>\n<entries>\na.ts\nutils/\n\n(2 entries)\n</entries>' });
  assert.deepEqual([dir.outcome, dir.kind, dir.path, dir.content], ['ok', 'directory', '/w/ws/src', undefined]);
  assert.throws(() => readAnswer({ output: '<path>/a</path>\n<type>file</type>\n<content>\n2: x\n</content>' }), /not numbered/);
});

test('write and edit: the file from the metadata, never from the text', () => {
  assert.deepEqual(writtenAnswer({ output: 'Wrote file successfully.', metadata: { filepath: '/w/ws/a.txt' } }), {
    outcome: 'ok', kind: 'file', path: '/w/ws/a.txt', model_text: 'Wrote file successfully.',
  });
  assert.equal(writtenAnswer({ output: 'Edit applied successfully.', metadata: { filediff: { file: '/w/ws/b.txt' } } }).path, '/w/ws/b.txt');
  assert.equal(writtenAnswer({ output: 'x', metadata: {} }).path, undefined);
});

test('errors: opencode words first, each with its rule', () => {
  const denied = errorResult('The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules [...]', 'read_file');
  assert.deepEqual([denied.error.code, denied.error.rule], ['outside_workspace', 'external-directory']);
  assert.equal(errorResult('File not found: /w/ws/x', 'read_file').error.code, 'not_found');
  assert.equal(errorResult('NotFound: FileSystem.access (/w/ws/nope)', 'shell').error.code, 'not_found');
  assert.equal(errorResult('Cannot read binary file: /w/ws/b.bin', 'read_file').error.code, 'unsupported_file_type');
  assert.equal(errorResult('', 'grep').error.message, '(the tool gave no message)');
});

test('the scripted model asks for the scripted call once, then ends the turn', async () => {
  const model = await startModel();
  try {
    const { token, callID } = model.script('read', { filePath: 'a\u0000b' });
    const ask = async (messages, tools = [{ type: 'function' }]) => {
      const response = await fetch(`${model.baseURL}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ messages, tools, stream: true }),
      });
      const events = (await response.text()).split('\n\n').filter((e) => e.startsWith('data: {'));
      return events.map((e) => JSON.parse(e.slice('data: '.length)));
    };
    const first = await ask([{ role: 'user', content: [{ type: 'text', text: `Run ${token}.` }] }]);
    const call = first[0].choices[0].delta.tool_calls[0];
    assert.deepEqual([call.id, call.function.name, JSON.parse(call.function.arguments)], [callID, 'read', { filePath: 'a\u0000b' }]);
    assert.equal(first[1].choices[0].finish_reason, 'tool_calls');
    // The same token again (a retry by opencode), a tool's answer, a title request: text.
    for (const messages of [[{ role: 'user', content: token }], [{ role: 'tool', content: 'x' }]]) {
      const again = await ask(messages);
      assert.equal(again[0].choices[0].delta.content, 'done');
    }
    assert.equal((await ask([{ role: 'user', content: token }], undefined))[0].choices[0].delta.content, 'done');
  } finally {
    model.close();
  }
});
