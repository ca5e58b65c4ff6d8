// node --test runners/common-node/
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import {
  absoluteMatchPaths,
  classify,
  errorResult,
  mapParams,
  parseGlobOutput,
  parseLsOutput,
  parseSearchOutput,
  parseShellOutput,
  schemaUnderSuiteNames,
  shellField,
  writtenFilePath,
} from './translate.mjs';

test('mapParams renames onto the tool names, keeping a conflicting alias as it is', () => {
  const names = { path: 'dir_path', include: 'include_pattern' };
  assert.deepEqual(mapParams({ pattern: 'x', path: 'src', include: '*.ts' }, names), {
    pattern: 'x', dir_path: 'src', include_pattern: '*.ts',
  });
  assert.deepEqual(mapParams({ pattern: 'x', dir_path: 'a', path: 'b' }, names), {
    pattern: 'x', dir_path: 'a', path: 'b',
  });
  assert.deepEqual(mapParams({ dir_path: '', path: 'b' }, names), { dir_path: 'b' });
  assert.deepEqual(mapParams({ dir_path: 'a', path: '' }, names), { dir_path: 'a', path: '' });
  assert.deepEqual(mapParams({ path: '' }, names), { dir_path: '' });
  assert.deepEqual(mapParams({ command: 'pwd' }, { dir_path: 'directory' }, { is_background: false }), {
    is_background: false, command: 'pwd',
  });
});

test('schemaUnderSuiteNames lists properties under the suite names', () => {
  const schema = { type: 'object', properties: { path: { description: 'd' }, pattern: {} }, required: ['pattern', 'path'] };
  assert.deepEqual(schemaUnderSuiteNames(schema, { dir_path: 'path' }), {
    type: 'object', properties: { dir_path: { description: 'd' }, pattern: {} }, required: ['pattern', 'dir_path'],
  });
  assert.deepEqual(schema.properties.path, { description: 'd' }, 'the original is untouched');
});

test('parseSearchOutput reads matches and skips context lines', () => {
  const text = 'Found 2 matches for pattern "a"b" in path "s"rc" (filter: "*.ts"):\n---\n' +
    'File: b.ts\nL1: a"b\nL2- ctx\n---\nFile: sub/c.ts\nL3:   two spaces\n---';
  assert.deepEqual(parseSearchOutput(text, { pattern: 'a"b', include: '*.ts' }), {
    location: { kind: 'path', raw: 's"rc' },
    entries: [
      { file: 'b.ts', line: 1, text: 'a"b' },
      { file: 'sub/c.ts', line: 3, text: '  two spaces' },
    ],
    notes: [],
  });
});

test('parseSearchOutput reads ripgrep\'s own PATH:LINE:TEXT lines (qwen-code 0.24)', () => {
  const text = 'Found 2 matches for pattern "x" in path "src/a.ts":\n---\n' +
    '/w/ws/src/a.ts:1:export const x = 1;\n/w/ws/src/b:c.ts:12: x: y';
  assert.deepEqual(parseSearchOutput(text, { pattern: 'x' }), {
    location: { kind: 'path', raw: 'src/a.ts' },
    entries: [
      { file: '/w/ws/src/a.ts', line: 1, text: 'export const x = 1;' },
      { file: '/w/ws/src/b:c.ts', line: 12, text: ' x: y' },
    ],
    notes: [],
  });
});

test('parseSearchOutput reads the other locations and no-match texts', () => {
  assert.deepEqual(
    parseSearchOutput('No matches found for pattern "x" across 2 workspace directories.', { pattern: 'x' }),
    { location: { kind: 'workspaces' }, entries: [], notes: [] },
  );
  assert.deepEqual(
    parseSearchOutput('No matches found for pattern "x" in the workspace directory (filter: "*.md").', { pattern: 'x', include: '*.md' }).location,
    { kind: 'workspace' },
  );
  const truncated = 'Found 1 match for pattern "x" in path "." (results limited to 1 matches for performance):\n---\nFile: a\nL1: x\n---';
  assert.deepEqual(parseSearchOutput(truncated, { pattern: 'x' }).location, { kind: 'path', raw: '.' });
  assert.equal(parseSearchOutput('Error during grep search operation: boom', { pattern: 'x' }), null);
});

test('a note comes from prose, never from a searched line', () => {
  const inLine = 'Found 1 match for pattern "x" in path "a":\n---\nFile: a\nL1: x include filter ignored\n---';
  assert.deepEqual(parseSearchOutput(inLine, { pattern: 'x' }).notes, []);
  const prose = `${inLine.replace('L1: x include filter ignored', 'L1: x')}\nNote: include filter ignored because a specific file path was provided.`;
  assert.deepEqual(parseSearchOutput(prose, { pattern: 'x' }).notes, ['include_ignored']);
});

test('absoluteMatchPaths joins names onto the searched path as given', () => {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'toolpath-translate-')));
  try {
    fs.mkdirSync(path.join(tmp, 'ws/src'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'b/ws'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'ws/src/a.ts'), 'x\n');
    fs.symlinkSync('src', path.join(tmp, 'ws/l'));
    const ws = path.join(tmp, 'ws');
    const other = path.join(tmp, 'b/ws');
    const at = (raw, entries, hints = []) => absoluteMatchPaths(
      { location: { kind: 'path', raw }, entries }, { target: ws, roots: [ws], dirs: [ws], hints },
    ).map((m) => m.path);
    assert.deepEqual(at('l/', [{ file: 'a.ts', line: 1 }]), [`${ws}/l/a.ts`]);
    // A file target is printed as its base name; the tool's own absolute path tells.
    assert.deepEqual(
      at('l/a.ts', [{ file: 'a.ts', line: 1 }], [{ file: 'a.ts', line: 1, absolutePath: `${ws}/src/a.ts` }]),
      [`${ws}/l/a.ts`],
    );
    const across = absoluteMatchPaths(
      { location: { kind: 'workspaces' }, entries: [{ file: 'ws/src/a.ts', line: 1 }, { file: 'ws/c', line: 2 }] },
      {
        target: ws, roots: [ws, other], dirs: [ws, other],
        hints: [{ file: 'ws/c', line: 2, absolutePath: `${other}/c` }],
      },
    ).map((m) => m.path);
    assert.deepEqual(across, [`${ws}/src/a.ts`, `${other}/c`]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('parseShellOutput and shellField read both packages\' formats', () => {
  const gemini = '<untrusted_context>\nOutput: /w/ws\nProcess Group PGID: 12\n</untrusted_context>';
  assert.equal(parseShellOutput(gemini), '/w/ws');
  const qwen = 'Command: pwd\nDirectory: (root)\nOutput: /w/ws\nError: (none)\nExit Code: 0\nSignal: (none)';
  assert.equal(parseShellOutput(qwen), '/w/ws');
  assert.equal(shellField(qwen, 'Exit Code'), '0');
  assert.equal(parseShellOutput('Output: (empty)\nExit Code: 1'), '');
  assert.equal(parseShellOutput('Command injection detected'), null);
});

test('classify maps the packages\' texts onto spec codes', () => {
  const cases = [
    ['params must have required property \'pattern\'', 'grep', 'invalid_params'],
    ['Invalid regular expression pattern provided: (. Error: ...', 'grep', 'invalid_params'],
    ['Invalid path: /w/ws/a\u0000b', 'grep', 'invalid_params'],
    ['Directory cannot be absolute. Please refer to workspace directories by their name.', 'shell', 'invalid_params'],
    ['Path not in workspace: Attempted path "/etc" resolves outside the allowed workspace directories: /w', 'grep', 'outside_workspace'],
    ['Path validation failed: Attempted path "../x" resolves outside the allowed workspace directories: /w', 'grep', 'outside_workspace'],
    ["Directory 'src' is not a registered workspace directory.", 'shell', 'outside_workspace'],
    ["Directory name 'app' is ambiguous as it matches multiple workspace directories.", 'shell', 'ambiguous_name'],
    ['Path is not a valid directory or file: /w/pipe', 'ripgrep', 'unsupported_file_type'],
    ['Path is not a directory: /w/a.ts', 'grep', 'not_a_directory'],
    ['Failed to access path stats for /w/a.ts: Error: Path is not a directory: /w/a.ts', 'grep', 'not_a_directory'],
    ['Path does not exist: /w/nope', 'grep', 'not_found'],
    ["Failed to access path stats for /w/x: EACCES: permission denied, stat '/w/x'", 'grep', 'permission_denied'],
    ["Failed to access path stats for /w/a/x: ENOTDIR: not a directory, stat '/w/a/x'", 'grep', 'not_found'],
    ['spawn ENOTDIR', 'shell', 'not_a_directory'],
    ['spawn /usr/bin/bash ENOENT', 'shell', 'not_found'],
    ['spawn /usr/bin/bash EACCES', 'shell', 'permission_denied'],
    ['Search path is not a directory: /w/ws/a.ts', 'glob', 'not_a_directory'],
    ['Search path does not exist /w/ws/nope', 'glob', 'not_found'],
    ['Path must be within one of the workspace directories: /w/ws', 'ls', 'outside_workspace'],
    ['Path must be absolute: src', 'ls', 'invalid_params'],
    ["Error listing directory: EACCES: permission denied, scandir '/w/ws/locked'", 'ls', 'permission_denied'],
    ['Path is a directory, not a file: /w/ws/src', 'read_file', 'unsupported_file_type'],
    ['Target is a directory, not a file: /w/ws/src (EISDIR)', 'write_file', 'unsupported_file_type'],
    ['File path must be absolute, but was relative: a.txt. You must provide an absolute path.', 'read_file', 'invalid_params'],
    ['File path must be within one of the workspace directories: /w/ws', 'edit', 'outside_workspace'],
    ['File not found: /w/ws/nope.txt', 'read_file', 'not_found'],
    ["Error checking existing file '/w/ws/ro.txt': EACCES: permission denied, open '/w/ws/ro.txt' (EACCES)", 'write_file', 'permission_denied'],
    ["Failed to edit, 0 occurrences found for old_string in /w/ws/a.txt. No edits made. The exact text in old_string was not found.", 'edit', 'invalid_params'],
    ['Failed to edit, Expected 1 occurrence but found 2 for old_string in file: /w/ws/a.txt', 'edit', 'invalid_params'],
    ['something new', 'grep', 'invalid_params'],
  ];
  for (const [message, tool, code] of cases) assert.equal(classify(message, tool), code, message);
});

test('errorResult keeps the message as it is, trailing white space included', () => {
  assert.deepEqual(errorResult('Path does not exist: /w/  ', 'grep'), {
    outcome: 'error', error: { code: 'not_found', message: 'Path does not exist: /w/  ' },
  });
  assert.equal(errorResult('  ', 'grep').error.message, '(the tool gave no message)');
});

test('parseGlobOutput reads found and not-found texts, one or several directories', () => {
  const found = 'Found 2 file(s) matching "*.{ts,md}" within /w/ws/src (1 additional files were ignored), '
    + 'sorted by modification time (newest first):\n/w/ws/src/b.md\n/w/ws/src/a.ts';
  assert.deepEqual(parseGlobOutput(found, '*.{ts,md}'), { dir: '/w/ws/src', files: ['/w/ws/src/b.md', '/w/ws/src/a.ts'] });
  const across = 'Found 1 file(s) matching "x" across 2 workspace directories, sorted by modification time (newest first):\n/w/o/x';
  assert.deepEqual(parseGlobOutput(across, 'x'), { dir: null, files: ['/w/o/x'] });
  assert.deepEqual(parseGlobOutput('No files found matching pattern "a" b" within /w/ws', 'a" b'), { dir: '/w/ws', files: [] });
  assert.deepEqual(
    parseGlobOutput('No files found matching pattern "x" within 2 workspace directories (3 files were git-ignored)', 'x'),
    { dir: null, files: [] },
  );
  assert.equal(parseGlobOutput('Error during glob search operation: boom', 'x'), null);
  assert.equal(parseGlobOutput('Found 1 file(s) matching "y" within /w', 'x'), null, 'another pattern');
});

test('parseLsOutput reads both packages\' listings and the empty text', () => {
  const gemini = 'Directory listing for /w/ws/src:\n[DIR] deep\na (1).ts (6 bytes)\n\n(2 ignored)';
  assert.deepEqual(parseLsOutput(gemini, { sizes: true }), {
    dir: '/w/ws/src',
    entries: [{ name: 'deep', type: 'directory' }, { name: 'a (1).ts', type: 'file' }],
  });
  const qwen = 'Directory listing for /w/ws/src/:\n[DIR] deep\na.ts (6 bytes)';
  assert.deepEqual(parseLsOutput(qwen, { sizes: false }).entries[1], { name: 'a.ts (6 bytes)', type: 'file' });
  assert.equal(parseLsOutput(qwen, { sizes: false }).dir, '/w/ws/src/');
  assert.deepEqual(parseLsOutput('Directory /w/ws/e is empty.', { sizes: true }), { dir: '/w/ws/e', entries: [] });
  assert.equal(parseLsOutput('Error: Path is not a directory: /w/a', { sizes: true }), null);
});

test('writtenFilePath reads the file a write or edit names, whatever it holds', () => {
  assert.equal(writtenFilePath('Successfully created and wrote to new file: /w/ws/a.txt.'), '/w/ws/a.txt');
  assert.equal(writtenFilePath('Successfully overwrote file: /w/ws/a b. c.txt.'), '/w/ws/a b. c.txt');
  assert.equal(writtenFilePath('Successfully modified file: /w/ws/x (1).txt (1 replacements).'), '/w/ws/x (1).txt');
  assert.equal(writtenFilePath('Created new file: /w/ws/n.txt with provided content.'), '/w/ws/n.txt');
  assert.equal(writtenFilePath('Successfully overwrote file: /w/ws/a.txt. Here is the updated code:\n+x'), null);
  assert.equal(writtenFilePath('Error: Path not in workspace.'), null);
  assert.equal(writtenFilePath(undefined), null);
});
