// node --test runners/mastra-core/
// The texts are the tools' own, as @mastra/core 1.71.0 printed them.
import assert from 'node:assert/strict';
import test from 'node:test';

import {
  grepAnswer,
  listAnswer,
  readAnswer,
  returned,
  shellAnswer,
  thrown,
  writeAnswer,
} from './answers.mjs';

const WS = '/w/ws';

test('grep: a relative path is resolved against the base and named derived; an absolute one is read', () => {
  const relative = grepAnswer('2 matches across 2 files\n---\nsrc/a.ts:1:1: hello world\nsrc/b:c.ts:3:5: x: y', WS);
  assert.deepEqual(relative, {
    outcome: 'ok',
    matches: [
      { path: '/w/ws/src/a.ts', line: 1, text: 'hello world' },
      { path: '/w/ws/src/b:c.ts', line: 3, text: 'x: y' },
    ],
    notes: [],
    model_text: '2 matches across 2 files\n---\nsrc/a.ts:1:1: hello world\nsrc/b:c.ts:3:5: x: y',
    derived: ['matches.path'],
  });
  const absolute = grepAnswer('1 match across 1 file\n---\n/w/ws/src/../a.ts:2:1: a', WS);
  assert.deepEqual(absolute.matches, [{ path: '/w/ws/a.ts', line: 2, text: 'a' }]);
  assert.equal(absolute.derived, undefined);
});

test('grep: a skipped path is a success with nothing found, as the tool says; a missing target is not_found', () => {
  const skipped = grepAnswer('0 matches across 0 files (1 path skipped: read error)\n---', WS);
  assert.deepEqual([skipped.outcome, skipped.matches], ['ok', []]);
  const missing = grepAnswer('0 matches across 0 files (target path not found: nothing searched)\n---', WS);
  assert.deepEqual([missing.outcome, missing.error.code, missing.error.rule], ['error', 'not_found', 'target path not found']);
});

test('grep: a cut (match cap or token limit) is the note truncated', () => {
  assert.deepEqual(grepAnswer('1000 matches across 9 files (truncated at 1000)\n---\na:1:1: x', WS).notes, ['truncated']);
  const cut = grepAnswer('150 matches across 150 files\n---\na:1:1: x\nb:1:1: x\n[output truncated: showing first ~2000 of ~3000 tokens]', WS);
  assert.deepEqual([cut.notes, cut.matches.length], [['truncated'], 2]);
});

test('grep: a returned refusal is not a search answer; its sentence gives the code', () => {
  const text = 'Error: Invalid regex pattern: Invalid regular expression: /(/g: Unterminated group';
  assert.equal(grepAnswer(text, WS), null);
  assert.deepEqual(returned(text, 'grep').error, { code: 'invalid_params', message: text, rule: 'grep pattern' });
});

test('ls: a link is a symlink, a directory is what the dirsOnly listing names, anything else a file', () => {
  const text = '.\nout -> ../other\nsrc\npipe\na.ts\n\n2 directories, 2 files';
  const dirs = '.\nout -> ../other\nsrc\n\n2 directories, 0 files';
  assert.deepEqual(listAnswer('ls', text, dirs), {
    outcome: 'ok',
    entries: [
      { path: 'out', type: 'symlink' },
      { path: 'src', type: 'directory' },
      { path: 'pipe', type: 'file' },
      { path: 'a.ts', type: 'file' },
    ],
    notes: [],
    model_text: text,
  });
});

test('glob: the files are the leaves that are not directories, relative to the listed directory', () => {
  const text = '.\nsrc\n\tdeep\n\t\tc.ts\n\tempty\n\ta.ts\nl.ts -> src/a.ts\n\n3 directories, 3 files';
  const dirs = '.\nsrc\n\tdeep\n\tempty\n\n3 directories, 0 files';
  const answer = listAnswer('glob', text, dirs);
  assert.deepEqual(answer.files, ['src/deep/c.ts', 'src/a.ts', 'l.ts']);
  assert.deepEqual(answer.notes, []);
  const deep = listAnswer('glob', '.\nd\n\n1 directory, 0 files (truncated at depth 100)', '.\nd\n\n1 directory, 0 files');
  assert.deepEqual(deep.notes, ['truncated']);
});

test('list_files: a text that is no listing is a refusal read by its errno', () => {
  const answer = listAnswer('ls', 'EACCES: permission denied, scandir', '');
  assert.deepEqual([answer.error.code, answer.error.rule], ['permission_denied', 'EACCES']);
});

test('shell: the output is the text; one absolute line is the directory it ran in', () => {
  assert.deepEqual(shellAnswer('/w/ws/src\n'), {
    outcome: 'ok', cwd: '/w/ws/src', output: '/w/ws/src\n', model_text: '/w/ws/src\n',
  });
  assert.deepEqual(shellAnswer('a\nb\n').cwd, undefined);
  assert.equal(shellAnswer('(no output)').output, '');
  assert.equal(shellAnswer('stdout:\n/w/ws\n\n\nstderr:\nwarn\n').output, '/w/ws\n');
});

test('shell: a failure line after the output is an error, by the errno it quotes', () => {
  const enoent = shellAnswer('Error: Command failed with ENOENT: pwd\nThe "cwd" option is invalid: /w/ws/nope.\nspawn /bin/sh ENOENT');
  assert.deepEqual([enoent.outcome, enoent.error.code], ['error', 'not_found']);
  const enotdir = shellAnswer('Error: Command failed with ENOTDIR: pwd\nThe "cwd" option is not a directory: /w/ws/a.ts.\nspawn ENOTDIR');
  assert.equal(enotdir.error.code, 'not_a_directory');
  const exit = shellAnswer("stderr:\nls: cannot access 'nope': No such file or directory\n\nExit code: 2");
  assert.deepEqual([exit.error.code, exit.derived], ['invalid_params', ['error.code']]);
});

test('read_file: the numbering is taken off, the header kept out of the content', () => {
  assert.deepEqual(readAnswer('src/a.ts (12 bytes)\n     1→hello world\n     2→'), {
    outcome: 'ok', notes: [], content: 'hello world\n', model_text: 'src/a.ts (12 bytes)\n     1→hello world\n     2→',
  });
  assert.equal(readAnswer('e.txt (0 bytes)\n').content, '');
  assert.equal(readAnswer('a.txt (3 bytes)\n     1→1→2').content, '1→2');
  const cut = readAnswer('big.txt (81920 bytes)\n     1→aaa\n     2→bb\n[output truncated: showing first ~2000 of ~20000 tokens]');
  assert.deepEqual([cut.content, cut.notes], ['aaa\nbb', ['truncated']]);
});

test('read_file: binary is what the tool says it is', () => {
  const binary = readAnswer('b.bin (4 bytes, application/x-binary) — binary file not readable as text. Pass an explicit `encoding`.');
  assert.deepEqual([binary.notes, binary.content], [['binary'], undefined]);
  const media = readAnswer({ __workspaceMedia: true, text: 'i.png (8 bytes, image/png)', mediaType: 'image/png', data: '' });
  assert.deepEqual(media, { outcome: 'ok', notes: ['binary'], model_text: 'i.png (8 bytes, image/png)' });
  assert.equal(readAnswer('no header at all'), null);
});

test('write_file and edit_file: the file their sentence names', () => {
  assert.deepEqual(writeAnswer('Wrote 1 bytes to /w/ws/n.txt', WS), {
    outcome: 'ok', kind: 'file', path: '/w/ws/n.txt', model_text: 'Wrote 1 bytes to /w/ws/n.txt',
  });
  const edit = writeAnswer('Replaced 1 occurrence in n (1).txt (lines 1)', WS);
  assert.deepEqual([edit.path, edit.derived], ['/w/ws/n (1).txt', ['path']]);
  assert.equal(writeAnswer('The specified text was not found. Make sure you use the exact text from the file.', WS), null);
});

test('thrown: the class first, then the errno code, else a derived invalid_params', () => {
  const named = (name, message, code) => Object.assign(new Error(message), { name, code });
  assert.equal(thrown(named('PermissionError', 'Permission denied: access on /etc'), 'read_file').error.code, 'outside_workspace');
  assert.equal(thrown(named('IsDirectoryError', 'Path is a directory: src'), 'read_file').error.code, 'unsupported_file_type');
  assert.equal(thrown(named('Error', "ENOTDIR: not a directory, realpath '/w/ws/a/x'", 'ENOTDIR'), 'read_file').error.code, 'not_found');
  assert.equal(thrown(named('Error', 'EACCES: permission denied', 'EACCES'), 'write_file').error.code, 'permission_denied');
  assert.deepEqual(thrown(named('Error', 'boom'), 'edit').derived, ['error.code']);
});
