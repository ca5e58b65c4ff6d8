// What the workspace tools of @mastra/core answer, read into protocol
// results: pure functions of the tools' answers (and of the target, the
// workspace's base, where a printed path is relative to it), so that
// answers.test.mjs can hold them to the texts the tools print.
//
// Nothing here decides what a tool should have done: it only reads what the
// tool said.

import path from 'node:path';

// ---------------------------------------------------------------------------
// Errors (spec ERR-1)

// Refusals the tools throw, by class name (their `name`), first.
const THROWN = {
  PermissionError: 'outside_workspace', // the filesystem's containment check, its only use here
  FileNotFoundError: 'not_found',
  DirectoryNotFoundError: 'not_found',
  NotDirectoryError: 'not_a_directory',
  IsDirectoryError: 'unsupported_file_type',
};
// Node's errno codes, thrown as they are (`err.code`) or quoted in a
// returned text (the shell's `Error: Command failed with ENOENT: ...`).
const ERRNO = {
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  ENOENT: 'not_found',
  ELOOP: 'not_found',
  ENAMETOOLONG: 'not_found',
  EISDIR: 'unsupported_file_type',
};

export function failure(message, code, rule, derived) {
  const text = String(message ?? '').trim() ? String(message) : '(the tool gave no message)';
  return {
    outcome: 'error',
    error: { code, message: text, rule },
    ...(derived ? { derived: ['error.code'] } : {}),
  };
}

/** A thrown error, classified by its class, else its errno code. */
export function thrown(err, tool) {
  const name = err?.name;
  const message = err?.message ?? String(err);
  if (Object.hasOwn(THROWN, name)) return failure(message, THROWN[name], name);
  const code = err?.code;
  if (code === 'ENOTDIR') return failure(message, tool === 'shell' ? 'not_a_directory' : 'not_found', code);
  if (Object.hasOwn(ERRNO, code)) return failure(message, ERRNO[code], code);
  return failure(message, 'invalid_params', 'default', true);
}

// Refusals the tools return as text, by their sentence.
const TEXTS = [
  [/^Error: (Invalid regex pattern|Pattern too long)\b/, 'invalid_params', 'grep pattern'],
  [/^The specified text (was not found|appears \d+ times)\./, 'invalid_params', 'edit occurrences'],
];

/**
 * A refusal the tool returned as text: by its sentence, else by the errno
 * name it quotes (the shell's `Error: Command failed with ENOENT: ...`).
 */
export function returned(text, tool) {
  for (const [sentence, code, rule] of TEXTS) if (sentence.test(text)) return failure(text, code, rule);
  const errno = /\bE[A-Z]+\b/.exec(text)?.[0];
  if (errno === 'ENOTDIR') return failure(text, tool === 'shell' ? 'not_a_directory' : 'not_found', errno);
  if (errno && Object.hasOwn(ERRNO, errno)) return failure(text, ERRNO[errno], errno);
  return failure(text, 'invalid_params', 'default', true);
}

// ---------------------------------------------------------------------------
// Answers

/** Whether a text ends with the token limit's cut (`[output truncated: ...]`). */
const CUT = /\n\[output truncated: [^\n]*\]$/;

/**
 * A path the tool printed, as an absolute lexical path: an absolute one as
 * it is (folded), a relative one resolved against the filesystem's base
 * (the target), as the tool resolves it; that one is `derived` (the tool
 * echoes the request's path, so the adapter would be composing it).
 */
function printedPath(printed, target) {
  return path.isAbsolute(printed)
    ? { value: path.normalize(printed), derived: false }
    : { value: path.resolve(target, printed), derived: true };
}

/**
 * grep: a summary line (`N matches across M files`, with parenthesised
 * remarks), `---`, then `PATH:LINE:COLUMN: text` per match, PATH being the
 * searched path as given joined with the file's path below it.
 */
export function grepAnswer(text, target) {
  const [summary, separator, ...lines] = text.split('\n');
  if (!/^\d+ match(es)? across \d+ files?\b/.test(summary) || separator !== '---') return null;
  // The tool says it searched nothing: the target does not exist.
  if (summary.includes('(target path not found: nothing searched)')) {
    return failure(text, 'not_found', 'target path not found');
  }
  const notes = [];
  if (summary.includes('(truncated at ')) notes.push('truncated');
  if (lines.length && CUT.test(`\n${lines[lines.length - 1]}`)) {
    lines.pop();
    if (!notes.includes('truncated')) notes.push('truncated');
  }
  const matches = [];
  let derived = false;
  for (const line of lines) {
    const m = /^(.*?):(\d+):(\d+): (.*)$/s.exec(line);
    if (!m) continue;
    const where = printedPath(m[1], target);
    derived ||= where.derived;
    matches.push({ path: where.value, line: Number(m[2]), text: m[4] });
  }
  return { outcome: 'ok', matches, notes, model_text: text, ...(derived ? { derived: ['matches.path'] } : {}) };
}

/**
 * list_files: `.`, then one line per entry, a tab per level below the
 * listed directory, a link as `name -> target`; a blank line and the
 * counts. Returns the entries with their path relative to the listed
 * directory (which the text never names), or null.
 */
export function listing(text) {
  const lines = text.replace(CUT, '').split('\n');
  if (lines[0] !== '.') return null;
  const entries = [];
  const parents = [];
  for (const line of lines.slice(1)) {
    if (line === '') break;
    const depth = /^\t*/.exec(line)[0].length;
    const shown = line.slice(depth);
    const arrow = shown.indexOf(' -> ');
    const name = arrow < 0 ? shown : shown.slice(0, arrow);
    parents.length = depth;
    const relative = [...parents, name].join('/');
    parents.push(name);
    entries.push({ relative, name, link: arrow >= 0 });
  }
  return { entries, cut: CUT.test(text) };
}

/**
 * glob and ls, from two list_files answers over the same directory: the
 * listing asked for (`text`) and the same with `dirsOnly` (`dirsText`),
 * which names the directories the listing does not mark. An ls entry is a
 * `symlink` when shown `name -> target`, a `directory` when the second
 * listing has it, else a `file` (the tool counts everything else among its
 * files). The glob's files are the entries that are not directories (a
 * link to a file is one). Paths are relative to the listed directory,
 * which the text never names.
 */
export function listAnswer(tool, text, dirsText) {
  const listed = listing(text);
  if (!listed) return returned(text, tool);
  const dirs = listing(dirsText);
  if (!dirs) return returned(dirsText, tool);
  const isDir = new Set(dirs.entries.map((e) => e.relative));
  const truncated = listed.cut || (tool === 'glob' && / \(truncated at depth \d+\)$/m.test(text));
  const notes = truncated ? ['truncated'] : [];
  if (tool === 'ls') {
    const entries = listed.entries.map((e) => ({
      path: e.name,
      type: e.link ? 'symlink' : isDir.has(e.relative) ? 'directory' : 'file',
    }));
    return { outcome: 'ok', entries, notes, model_text: text };
  }
  const files = listed.entries.filter((e) => !isDir.has(e.relative)).map((e) => e.relative);
  return { outcome: 'ok', files, notes, model_text: text };
}

/**
 * execute_command: the command's output alone (`stdout:` and `stderr:`
 * headed when both were written, `(no output)` when neither); a failure ends
 * with `Exit code: N` or `Error: ...` after a blank line.
 */
export function shellAnswer(text) {
  // The failure line follows the output after a blank line, or is the text.
  if (/(^|\n\n)Exit code: -?\d+$/.test(text) || /(^|\n\n)Error: /.test(text)) return returned(text, 'shell');
  let output = text;
  if (text === '(no output)') output = '';
  else if (text.startsWith('stderr:\n')) output = '';
  else if (text.startsWith('stdout:\n')) {
    const end = text.lastIndexOf('\n\nstderr:\n');
    output = text.slice('stdout:\n'.length, end < 0 ? undefined : end);
  }
  // The harness runs `pwd`: one absolute line is where the command ran.
  const line = output.replace(/\n$/, '');
  const cwd = line.startsWith('/') && !line.includes('\n') ? line : undefined;
  return { outcome: 'ok', ...(cwd ? { cwd } : {}), output, model_text: text };
}

/**
 * read_file: `RELPATH (N bytes)`, then the text with a number and `→`
 * before each line (the tool's default framing, taken off here); a binary
 * file is one header line ending `— binary file not readable as text. ...`;
 * a media file an object.
 */
export function readAnswer(result) {
  if (typeof result === 'object' && result?.__workspaceMedia) {
    return { outcome: 'ok', notes: ['binary'], model_text: result.text };
  }
  const text = String(result);
  const newline = text.indexOf('\n');
  const header = newline < 0 ? text : text.slice(0, newline);
  if (header.includes(' — binary file not readable as text.')) {
    return { outcome: 'ok', notes: ['binary'], model_text: text };
  }
  if (newline < 0 || !/ \(\d+ bytes\)$/.test(header)) return null;
  let body = text.slice(newline + 1);
  const cut = CUT.test(body);
  body = body.replace(CUT, '');
  const lines = body === '' ? [] : body.split('\n');
  const numbered = /^ *\d+→/;
  if (cut && lines.length && !numbered.test(lines[lines.length - 1])) lines.pop();
  if (!lines.every((l) => numbered.test(l))) return null;
  const content = lines.map((l) => l.replace(numbered, '')).join('\n');
  return { outcome: 'ok', notes: cut ? ['truncated'] : [], content, model_text: text };
}

/** write_file `Wrote N bytes to PATH`, edit_file `Replaced N occurrence(s) in PATH (lines ...)`. */
export function writeAnswer(text, target) {
  const m = /^Wrote \d+ bytes to ([\s\S]*)$/.exec(text) ??
    /^Replaced \d+ occurrences? in ([\s\S]*?)( \(lines [^()]*\))?$/.exec(text);
  if (!m) return null;
  const where = printedPath(m[1], target);
  return {
    outcome: 'ok', kind: 'file', path: where.value, model_text: text,
    ...(where.derived ? { derived: ['path'] } : {}),
  };
}
