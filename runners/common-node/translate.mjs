// Translation between the suite's vocabulary and what the gemini-cli family
// of tools (gemini-cli-core, qwen-code-core) prints. Both packages descend
// from the same code, so their search output and error texts share formats;
// where they differ, the adapter passes the difference in explicitly.
//
// Nothing here decides what a tool *should* have done: it only reads what the
// tool said.

import fs from 'node:fs';
import path from 'node:path';

// ---------------------------------------------------------------------------
// Parameters

/**
 * Renames the suite's parameters onto a tool's own names.
 *
 * `renames` maps a suite name to the tool's name for that parameter, e.g.
 * `{path: 'dir_path', include: 'include_pattern'}`. A suite name that already
 * is the tool's name is passed as it is. When a renamed parameter would land
 * on a tool parameter that the call already fills with a non-empty value (the
 * suite's `dir_path` and its alias `path` both given), the renamed one keeps
 * its suite name: the tool then sees a key it does not declare, exactly as it
 * would if a model had sent both. `extra` adds parameters the tool requires
 * that the suite does not have.
 */
export function mapParams(params, renames, extra = {}) {
  const out = {};
  const renamed = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    if (Object.hasOwn(renames, key)) renamed.push([key, renames[key], value]);
    else out[key] = value;
  }
  for (const [suiteName, toolName, value] of renamed) {
    const taken = Object.hasOwn(out, toolName) && out[toolName] !== '' && out[toolName] != null;
    if (taken) out[suiteName] = value;
    else if (!(Object.hasOwn(out, toolName) && (value === '' || value == null))) out[toolName] = value;
  }
  return { ...extra, ...out };
}

/**
 * The tool's parameter schema under the suite's names: `renames` maps a suite
 * name to the tool's name (as in `mapParams`); the property (and its entry in
 * `required`) is listed under the suite name instead. Nothing else changes.
 */
export function schemaUnderSuiteNames(schema, renames) {
  const copy = structuredClone(schema);
  const toSuite = new Map();
  for (const [suiteName, toolName] of Object.entries(renames)) {
    if (!toSuite.has(toolName)) toSuite.set(toolName, suiteName);
  }
  if (copy.properties) {
    const props = {};
    for (const [name, value] of Object.entries(copy.properties)) {
      props[toSuite.get(name) ?? name] = value;
    }
    copy.properties = props;
  }
  if (Array.isArray(copy.required)) {
    copy.required = copy.required.map((name) => toSuite.get(name) ?? name);
  }
  return copy;
}

// ---------------------------------------------------------------------------
// Error classification (spec ERR-1)

// Tried in order; the first that matches wins. The tools' own sentences come
// first, errno names after them, because a message can quote both.
const TEMPLATES = [
  // Schema validation (ajv) and the tools' own parameter checks.
  [/^Value of params must be an object|^params\/|must have required property|must be (string|number|integer|boolean|object|array|>=|<=)|must NOT have|must match/i, 'invalid_params'],
  [/^Invalid (exclude )?regular expression|Invalid regular expression:|regex parse error/i, 'invalid_params'],
  [/^Invalid path: |invalid characters|Path must be a non-empty string/i, 'invalid_params'],
  [/^Command cannot be empty|^Could not identify command root|^Command injection detected|^Command substitution|^Command is not allowed|is not allowed|Directory cannot be absolute/i, 'invalid_params'],
  // Containment.
  [/^Path not in workspace|^Path validation failed|outside the allowed workspace|resolves outside|is not a registered workspace directory|not within (the |any )?workspace|must be within one of the workspace directories/i, 'outside_workspace'],
  [/is ambiguous|ambiguous as it matches|matches (multiple|several) workspace/i, 'ambiguous_name'],
  // Type checks made by the tools themselves.
  [/Path is not a valid directory or file/i, 'unsupported_file_type'],
  // The file tools refuse a directory as such (read, write and edit alike).
  [/Path is a directory, not a file|Target is a directory, not a file|\bEISDIR\b/i, 'unsupported_file_type'],
  // ... and a relative path, before anything else.
  [/^File path must be absolute/i, 'invalid_params'],
  // An edit whose old_string does not occur exactly once: the call as given
  // cannot be carried out (not a missing file, though the texts say "found").
  [/occurrences? found for old_string|Expected \d+ occurrences? but found|could not find the string to replace|Could not find an exact match for 'old_string'/i, 'invalid_params'],
  [/Path is not a directory/i, 'not_a_directory'],
  // The inverted-ENOENT message of older releases says "does not exist"; it is
  // classified by what it says, which is the point of ERR-5.
  [/^Path does not exist/i, 'not_found'],
  [/Infinite recursion detected in robustRealpath/i, 'not_found'],
];

const ERRNO = [
  [/\bE(ACCES|PERM)\b|permission denied/i, 'permission_denied'],
  [/\bENOTDIR\b/, 'not_found'],
  [/\bE(NOENT|LOOP|NAMETOOLONG)\b|no such file or directory|does not exist|not found/i, 'not_found'],
];

/**
 * The spec error code for a tool's error text. `tool` is the suite tool name;
 * for `shell`, ENOTDIR (the OS's "Not a directory") means not_a_directory,
 * since it comes from entering the directory. Unknown texts get
 * `invalid_params`, the code for "the call was refused as given"; the
 * original text always stays in the message.
 */
export function classify(message, tool) {
  const text = String(message ?? '');
  for (const [re, code] of TEMPLATES) if (re.test(text)) return code;
  if (tool === 'shell' && /\bENOTDIR\b/.test(text)) return 'not_a_directory';
  for (const [re, code] of ERRNO) if (re.test(text)) return code;
  return 'invalid_params';
}

export function errorResult(message, tool, description) {
  // Kept as it is: trailing white space can be part of a path in it.
  const text = String(message ?? '').trim() ? String(message) : '(the tool gave no message)';
  return {
    outcome: 'error',
    error: { code: classify(text, tool), message: text },
    ...(description ? { description } : {}),
  };
}

// ---------------------------------------------------------------------------
// Search output

/**
 * Texts with which a search tool reports failure in `llmContent` without
 * setting `error` (ripgrep variants do this).
 */
export const SEARCH_FAILURE =
  /^(Error during grep search operation:|Path is not a valid directory or file:|Path does not exist:|Failed to access path stats for |Path not in workspace:|Invalid path:)/;

/**
 * Reads a search result's `llmContent`:
 *
 *     Found 2 matches for pattern "x" in path "src" (filter: "*.ts"):
 *     ---
 *     File: a.ts
 *     L1: text
 *     L2- context line
 *     ---
 *
 * or `No matches found for pattern "x" in path "src".`. The location is
 * `in path "<dir_path as given>"`, `in the workspace directory` or
 * `across N workspace directories`. Context lines (`L2-`) are not matches.
 * `pattern` and `include` are the values sent, so that quotes inside them
 * cannot confuse the reading. Returns null when the text has neither form.
 */
// ripgrep's `PATH:LINE:TEXT`, the path ending at the first `:N:`.
const RG_LINE = /^(.+?):(\d+):(.*)$/;

export function parseSearchOutput(llmContent, { pattern, include }) {
  const text = String(llmContent ?? '');
  const found = /^Found \d+ (match|matches) for pattern "/.exec(text);
  const none = text.startsWith('No matches found for pattern "');
  if (!found && !none) return null;
  const prefix = `${found ? found[0] : 'No matches found for pattern "'}${pattern}" `;
  if (!text.startsWith(prefix)) return null;
  const bodyAt = found ? text.indexOf(':\n---\n') : -1;
  let header = found ? text.slice(prefix.length, bodyAt < 0 ? undefined : bodyAt) : text.slice(prefix.length);
  if (none) header = header.replace(/\.$/, '');
  // Truncation notes (gemini: "(results limited to N matches ...)",
  // qwen: "(showing first N of M+ total matches)").
  header = header.replace(/ \((results limited to|showing first) [^()]*\)$/, '');
  if (include) {
    const filter = ` (filter: "${include}")`;
    if (header.endsWith(filter)) header = header.slice(0, -filter.length);
  }
  let location = null;
  if (/^across \d+ workspace directories$/.test(header)) location = { kind: 'workspaces' };
  else if (header === 'in the workspace directory') location = { kind: 'workspace' };
  else if (header.startsWith('in path "') && header.endsWith('"')) {
    location = { kind: 'path', raw: header.slice('in path "'.length, -1) };
  }
  const entries = [];
  let file = null;
  const body = bodyAt < 0 ? '' : text.slice(bodyAt + ':\n'.length);
  for (const line of body.split('\n')) {
    if (line === '---') {
      file = null;
      continue;
    }
    const fileLine = /^File: (.*)$/.exec(line);
    if (fileLine) {
      file = fileLine[1];
      continue;
    }
    // `L<n>: <text>` is a match, `L<n>- <text>` a context line.
    const hit = /^L(\d+)([:-]) ?(.*)$/.exec(line);
    if (hit && file !== null && hit[2] === ':') {
      entries.push({ file, line: Number(hit[1]), text: hit[3] });
      continue;
    }
    // Outside a `File:` block, ripgrep's own `PATH:LINE:TEXT` (qwen-code
    // 0.24's RipGrepTool passes rg's lines through): the first `:N:` ends
    // the path.
    const rg = file === null ? RG_LINE.exec(line) : null;
    if (rg) entries.push({ file: rg[1], line: Number(rg[2]), text: rg[3] });
  }
  // A note is prose from the tool, never a line of a searched file.
  const prose = text.split('\n').filter((l) => !/^(L\d+[:-]|File: )/.test(l) && !RG_LINE.test(l)).join('\n');
  const notes = /include (filter |pattern )?(was |is )?ignored/i.test(prose) ? ['include_ignored'] : [];
  return { location, entries, notes };
}

function realpathOrNull(p) {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * Turns the relative file names of a search result into absolute paths, the
 * way the output states them:
 *
 * - `in path "X"`: names are relative to X, and X to the target directory. A
 *   name that is the searched path itself (a file target, which the tools
 *   print as its base name) is recognised by `hint`, the tool's own absolute
 *   path for the match when it reports one: equal to the real path of X.
 * - `in the workspace directory`: relative to the single workspace directory.
 * - `across N workspace directories`: the first segment is the base name of
 *   a workspace directory; with several of that name, `hint` picks the one.
 *
 * `dirs` are the tool's workspace directories; each is reported as the
 * harness's root with the same real path, so match paths use the roots as
 * the harness gave them.
 */
export function absoluteMatchPaths(parsed, { target, roots, dirs, hints = [] }) {
  const asGiven = (dir) => {
    const real = realpathOrNull(dir) ?? dir;
    return roots.find((r) => r === dir || (realpathOrNull(r) ?? r) === real) ?? dir;
  };
  const hintFor = (entry) =>
    hints.find((h) => h.file === entry.file && h.line === entry.line)?.absolutePath;
  const loc = parsed.location;
  return parsed.entries.map((entry) => {
    let abs;
    if (loc?.kind === 'path') {
      const base = path.resolve(target, loc.raw);
      const hint = hintFor(entry);
      const realBase = hint ? realpathOrNull(base) : null;
      abs = hint && realBase && hint === realBase ? base : path.join(base, entry.file);
    } else if (loc?.kind === 'workspace' && dirs.length === 1) {
      abs = path.join(asGiven(dirs[0]), entry.file);
    } else if (loc?.kind === 'workspaces') {
      const [first, ...rest] = entry.file.split('/');
      let candidates = dirs.filter((d) => path.basename(d) === first);
      if (candidates.length > 1) {
        const hint = hintFor(entry);
        const picked = hint && candidates.find((d) => hint.startsWith(`${d}/`));
        if (picked) candidates = [picked];
      }
      abs = candidates.length
        ? path.join(asGiven(candidates[0]), ...rest)
        : path.resolve(target, entry.file);
    } else {
      abs = path.resolve(target, entry.file);
    }
    return { path: abs, line: entry.line, text: entry.text };
  });
}

// ---------------------------------------------------------------------------
// Glob and ls output

/**
 * Reads a glob result's `llmContent`:
 *
 *     Found 2 file(s) matching "*.ts" within /w/ws/src, sorted by modification time (newest first):
 *     /w/ws/src/a.ts
 *     /w/ws/src/b.ts
 *
 * or `No files found matching pattern "*.ts" within /w/ws/src`. The place
 * is `within <dir>` (one searched directory, as the tool resolved it) or
 * `across|within N workspace directories`; either may be followed by a
 * parenthesised count of ignored files. The file list is the tool's own
 * absolute paths, one per line. `pattern` is the value sent, so quotes in
 * it cannot confuse the reading. Returns `{dir, files}` (`dir` null for
 * several directories), or null when the text has neither form.
 */
export function parseGlobOutput(llmContent, pattern) {
  const text = String(llmContent ?? '');
  const none = `No files found matching pattern "${pattern}" within `;
  const found = new RegExp(`^Found \\d+ file\\(s\\) matching "`).exec(text);
  let header;
  let files = [];
  if (text.startsWith(none)) {
    header = `within ${text.slice(none.length).split('\n')[0]}`;
  } else if (found && text.startsWith(`${found[0]}${pattern}" `)) {
    const rest = text.slice(`${found[0]}${pattern}" `.length);
    const listAt = rest.indexOf(', sorted by modification time (newest first):\n');
    if (listAt < 0) return null;
    header = rest.slice(0, listAt);
    files = rest.slice(listAt).split('\n').slice(1).filter((line) => line !== '');
  } else {
    return null;
  }
  header = header.replace(/ \((\d+ )?(additional )?files were (git-)?ignored\)$/, '');
  const several = /^(across|within) \d+ workspace directories$/.test(header);
  if (!several && !header.startsWith('within ')) return null;
  return { dir: several ? null : header.slice('within '.length), files };
}

/**
 * Reads an ls result's `llmContent`:
 *
 *     Directory listing for /w/ws/src:
 *     [DIR] deep
 *     a.ts (6 bytes)
 *
 * (`sizes`: gemini-cli-core prints each file's size; qwen-code-core does
 * not), or `Directory /w/ws/src is empty.`. The entry lines end at the
 * first empty line (counts of ignored entries and other context follow).
 * `[DIR]` gives type `directory`, anything else `file`: the tools stat
 * each entry following links and print nothing else, so that is all they
 * say. Returns `{dir, entries: [{name, type}]}` or null.
 */
export function parseLsOutput(llmContent, { sizes }) {
  const text = String(llmContent ?? '');
  const empty = /^Directory (.*) is empty\.$/.exec(text);
  if (empty) return { dir: empty[1], entries: [] };
  const header = /^Directory listing for (.*):$/m.exec(text.split('\n')[0]);
  if (!header) return null;
  const entries = [];
  for (const line of text.split('\n').slice(1)) {
    if (line === '') break;
    if (line.startsWith('[DIR] ')) entries.push({ name: line.slice('[DIR] '.length), type: 'directory' });
    else entries.push({ name: sizes ? line.replace(/ \(\d+ bytes\)$/, '') : line, type: 'file' });
  }
  return { dir: header[1], entries };
}

/**
 * The file a successful write or edit names in its `llmContent`, as
 * @qwen-code/qwen-code-core words it (the path as the tool used it), or
 * null when the text is not one of those sentences:
 *
 *     Successfully created and wrote to new file: /w/ws/a.txt.
 *     Successfully overwrote file: /w/ws/a.txt.
 *     Successfully modified file: /w/ws/a.txt (1 replacements).
 *     Created new file: /w/ws/a.txt with provided content.
 *
 * Each sentence is the whole text, so the path is everything between its
 * fixed start and end, whatever characters it holds.
 */
export function writtenFilePath(llmContent) {
  const text = String(llmContent ?? '');
  const sentences = [
    /^Successfully created and wrote to new file: ([\s\S]*)\.$/,
    /^Successfully overwrote file: ([\s\S]*)\.$/,
    /^Successfully modified file: ([\s\S]*) \(\d+ replacements\)\.$/,
    /^Created new file: ([\s\S]*) with provided content\.$/,
  ];
  for (const sentence of sentences) {
    const m = sentence.exec(text);
    if (m) return m[1];
  }
  return null;
}

// ---------------------------------------------------------------------------
// Shell output

const SHELL_LABELS = ['Error', 'Exit Code', 'Signal', 'Background PIDs', 'Process Group PGID'];

/**
 * The command output inside a shell result's `llmContent`
 * (`Output: <text>` followed by labelled lines). Returns null if absent and
 * '' for `(empty)`.
 */
export function parseShellOutput(llmContent) {
  let text = String(llmContent ?? '');
  text = text.replace(/^<untrusted_context>\n/, '').replace(/\n<\/untrusted_context>$/, '');
  const start = text.search(/(^|\n)Output: /);
  if (start < 0) return null;
  let body = text.slice(text.indexOf('Output: ', start) + 'Output: '.length);
  const end = body.search(new RegExp(`\\n(${SHELL_LABELS.join('|')}): `));
  if (end >= 0) body = body.slice(0, end);
  return body === '(empty)' ? '' : body;
}

/** A labelled field of a shell result (`Exit Code: 1` gives '1'), or null. */
export function shellField(llmContent, label) {
  const m = new RegExp(`(^|\\n)${label}: (.*)`).exec(String(llmContent ?? ''));
  return m ? m[2] : null;
}

// ---------------------------------------------------------------------------
// Misc

/** Whether `file` is an executable file (following symbolic links). */
export function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
