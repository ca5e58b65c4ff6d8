// What one of opencode's tool parts says, as a protocol result. A tool part
// is what the agent loop records of a call: `state.status` `completed` with
// the text the model is given (`output`) and `metadata`, or `error` with
// `state.error`. Nothing here decides what the tool should have done.

import { classify } from '../common-node/translate.mjs';

// opencode's own refusals and texts, by the code they mean; tried before
// common-node's templates (which know gemini-cli's wording and errno names).
const RULES = [
  // external_directory denied: opencode's containment (the only rule of
  // the configuration that denies anything).
  ['external-directory', /^The user has specified a rule which prevents you from using this specific tool call/, 'outside_workspace'],
  // The parameters failed its schema: the loop records the call as the tool `invalid`.
  ['invalid-arguments', /^The arguments provided to the tool are invalid|^Invalid input for tool|is not a valid|^Invalid arguments/i, 'invalid_params'],
  ['file-not-found', /^File not found: |^NotFound: /, 'not_found'],
  ['binary', /^Cannot read binary file: /, 'unsupported_file_type'],
  ['edit-no-match', /^(Could not find oldString|oldString not found|Found multiple matches for oldString|oldString and newString must be different)/i, 'invalid_params'],
  ['directory', /\bis a directory\b|\bEISDIR\b/i, 'unsupported_file_type'],
  ['bash-cd-enoent', /\bcd: .*: No such file or directory/, 'not_found'],
  ['bash-cd-enotdir', /\bcd: .*: Not a directory/, 'not_a_directory'],
  ['enotdir', /\bENOTDIR\b|Not a directory/, 'not_a_directory'],
];

export function errorResult(message, tool) {
  const text = String(message ?? '').trim() ? String(message) : '(the tool gave no message)';
  for (const [rule, re, code] of RULES) {
    if (re.test(text)) return { outcome: 'error', error: { code, message: text, rule } };
  }
  // The rest (errno names, rg's and bash's words) by common-node's table.
  return { outcome: 'error', error: { code: classify(text, tool), message: text, rule: 'common-node' } };
}

const truncated = (state) => (state.metadata?.truncated === true ? ['truncated'] : []);

/**
 * grep: `Found N matches` then, per file, its absolute path and a colon,
 * and `  Line N: text` per match; or `No files found`.
 */
export function grepAnswer(state) {
  const text = String(state.output ?? '');
  const matches = [];
  if (!text.startsWith('No files found')) {
    if (!/^Found \d+ match/.test(text)) return errorResult(text, 'grep');
    let file = null;
    for (const line of text.split('\n').slice(1)) {
      const hit = /^ {2}Line (\d+): (.*)$/.exec(line);
      if (hit && file !== null) matches.push({ path: file, line: Number(hit[1]), text: hit[2] });
      else if (line.startsWith('/') && line.endsWith(':')) file = line.slice(0, -1);
    }
  }
  return { outcome: 'ok', matches, notes: truncated(state), model_text: text };
}

/** glob: the files' absolute paths, one a line, or `No files found`. */
export function globAnswer(state) {
  const text = String(state.output ?? '');
  const files = text.startsWith('No files found') ? [] : text.split('\n').filter((line) => line.startsWith('/'));
  return { outcome: 'ok', files, notes: truncated(state), model_text: text };
}

/**
 * bash: the command's output; its exit status in `metadata.exit`. The
 * harness runs `pwd` or `ls`: a single absolute line is where it ran.
 */
export function shellAnswer(state) {
  const text = String(state.output ?? '');
  const output = typeof state.metadata?.output === 'string' ? state.metadata.output : text;
  const exit = state.metadata?.exit;
  if (exit !== 0 && exit !== undefined && exit !== null) return errorResult(text, 'shell');
  const line = output.replace(/\n$/, '');
  const cwd = line.startsWith('/') && !line.includes('\n') ? line : undefined;
  return { outcome: 'ok', ...(cwd ? { cwd } : {}), output, model_text: text };
}

/**
 * read: `<path>P</path>`, `<type>file</type>` and `<content>`, each line
 * numbered `N: ` from 1, closed by a parenthesised note. The numbers and
 * the note are its framing, taken off; the lines are joined by newlines
 * (whether the file ended with one is not shown). A directory is read as
 * well: `<type>directory</type>` and its `<entries>`, a listing.
 */
export function readAnswer(state) {
  const text = String(state.output ?? '');
  const framed = /^<path>([\s\S]*?)<\/path>\n<type>(file|directory)<\/type>\n<(content|entries)>\n([\s\S]*)<\/\3>$/.exec(text);
  if (!framed) return errorResult(text, 'read_file');
  const [, where, type, , body] = framed;
  const answer = { outcome: 'ok', kind: type, path: where, notes: truncated(state), model_text: text };
  if (type === 'directory') return answer;
  const lines = [];
  for (const line of body.split('\n')) {
    const numbered = /^(\d+): ([\s\S]*)$/.exec(line);
    if (!numbered) break;
    if (Number(numbered[1]) !== lines.length + 1) {
      throw new Error(`read line ${lines.length + 1} is not numbered as documented: ${JSON.stringify(line)}`);
    }
    lines.push(numbered[2]);
  }
  return { ...answer, content: lines.join('\n') };
}

/** write and edit: their texts name no file; `metadata.filepath` (write) and `metadata.filediff.file` (edit) do. */
export function writtenAnswer(state) {
  const text = String(state.output ?? '');
  const written = state.metadata?.filepath ?? state.metadata?.filediff?.file;
  return typeof written === 'string'
    ? { outcome: 'ok', kind: 'file', path: written, model_text: text }
    : { outcome: 'ok', model_text: text };
}
