// One call of a gemini-cli-style declarative tool (build -> getDescription
// -> execute), translated into a protocol result. Shared by the adapters over
// @google/gemini-cli-core and @qwen-code/qwen-code-core, whose tools follow
// the same shape and differ in parameter names and in how `execute` is
// called; both differences come in as arguments.

import path from 'node:path';

import { log } from './protocol.mjs';
import {
  SEARCH_FAILURE,
  absoluteMatchPaths,
  errorResult,
  mapParams,
  parseGlobOutput,
  parseLsOutput,
  parseSearchOutput,
  parseShellOutput,
  shellField,
} from './translate.mjs';

// The harness gives a call 10 s by default; abort the tool a little before
// that so that a tool that honours its signal can still answer.
const ABORT_MS = Number(process.env.TOOLPATH_ADAPTER_ABORT_MS ?? 8000);
// A tool still running this long after its abort signal is blocked where
// nothing can reach it (an open or read of a FIFO holds a thread of Node's
// pool). The adapter then ends itself: the harness reports an adapter error
// at once, with this reason on standard error, instead of waiting out its
// own timeout (60 s under scripts/certify). It never answers for the tool:
// a hang is not an error code. SIGKILL, because `process.exit` waits for
// the pool's threads, and the blocked one never returns.
const BLOCKED_EXIT_MS = Number(process.env.TOOLPATH_ADAPTER_BLOCKED_EXIT_MS ?? 2000);

function llmText(result) {
  const content = result?.llmContent;
  return typeof content === 'string' ? content : JSON.stringify(content ?? null);
}

/**
 * build + getDescription + execute. Returns `{error}` (a finished error
 * result) when build refuses the parameters, else `{description, result}`.
 * `execute(invocation, signal)` calls the tool's own execute.
 */
async function invoke(instance, toolParams, suiteTool, execute) {
  let invocation;
  try {
    invocation = instance.build(toolParams);
  } catch (err) {
    return { error: errorResult(err?.message ?? String(err), suiteTool) };
  }
  const description = invocation.getDescription();
  const controller = new AbortController();
  let finished = false;
  const abortTimer = setTimeout(() => {
    controller.abort();
    log(`aborted the tool after ${ABORT_MS} ms`);
    setTimeout(() => {
      if (!finished) {
        log(`the tool has not returned ${BLOCKED_EXIT_MS} ms after its abort signal: it is ` +
          'blocked (for example opening a FIFO) and cannot be stopped; the adapter kills itself');
        process.kill(process.pid, 'SIGKILL');
      }
    }, BLOCKED_EXIT_MS).unref();
  }, ABORT_MS);
  try {
    const result = await execute(invocation, controller.signal);
    return { description, result };
  } finally {
    finished = true;
    clearTimeout(abortTimer);
  }
}

/**
 * A grep/ripgrep call. `renames` maps suite names to the tool's (see
 * mapParams); `includeName` is the tool's name for the glob; `dirs` gives
 * the tool's workspace directories; `hintsOf(result)` optionally lists the
 * tool's own `{file, line, absolutePath}` per match.
 */
export async function searchCall({ suiteTool, instance, params, renames, includeName, workspace, dirs, execute, hintsOf }) {
  const toolParams = mapParams(params, renames);
  const { error, description, result } = await invoke(instance, toolParams, suiteTool, execute);
  if (error) return error;
  if (result.error) return errorResult(result.error.message, suiteTool, description);
  const text = llmText(result);
  // Some failures come back as plain llmContent without an `error` field.
  if (SEARCH_FAILURE.test(text)) return errorResult(text, suiteTool, description);
  const parsed = parseSearchOutput(text, { pattern: toolParams.pattern, include: toolParams[includeName] });
  if (!parsed) return errorResult(text, suiteTool, description);
  const matches = absoluteMatchPaths(parsed, {
    target: workspace.target,
    roots: workspace.roots,
    dirs: dirs(),
    hints: hintsOf ? hintsOf(result) : [],
  });
  // model_text is the llmContent exactly as the package gives it to the
  // model (OUT-5 asks that it name the resolved path).
  return { outcome: 'ok', matches, notes: parsed.notes, description, model_text: text };
}

/**
 * A shell call. The harness always runs `pwd`, so the command's output is
 * the directory it ran in, as the shell saw it: that is the `cwd` reported.
 */
export async function shellCall({ instance, params, renames, extra, execute }) {
  const toolParams = mapParams(params, renames, extra);
  const { error, description, result } = await invoke(instance, toolParams, 'shell', execute);
  if (error) return error;
  if (result.error) return errorResult(result.error.message, 'shell', description);
  const text = llmText(result);
  const output = parseShellOutput(text);
  const exitCode = shellField(text, 'Exit Code');
  if (output === null || (exitCode !== null && exitCode !== '0')) {
    return errorResult(text, 'shell', description);
  }
  const line = output.replace(/\n$/, '');
  const cwd = line.startsWith('/') && !line.includes('\n') ? line : undefined;
  return { outcome: 'ok', ...(cwd ? { cwd } : {}), output, description, model_text: text };
}

/** What the read tools of this family answer, instead of the text, for a binary file. */
export const BINARY_FILE = /^Cannot display content of binary file: /;

/**
 * A file tool call (`read_file`, `write_file`, `edit`). A read's output
 * never names the file it read, so a read has no `kind` or `path` (the
 * adapters declare them unobservable for `read_file`); a write or an edit
 * names the file it wrote, which `writtenPath(result, text)` reads from
 * the tool's answer (null when it names none): that is the `path`
 * reported, of kind `file` (the tool says it wrote a file). What a write
 * did is judged by toolpath from the disk, not from the answer. A read's
 * `llmContent` is the file's text as the model gets it: that is the
 * `content` reported, unless the tool says the file is binary, which is
 * the note `binary` and no content.
 */
export async function fileCall({ suiteTool, instance, params, renames, extra, execute, writtenPath }) {
  const toolParams = mapParams(params, renames, extra);
  const { error, description, result } = await invoke(instance, toolParams, suiteTool, execute);
  if (error) return error;
  if (result.error) return errorResult(result.error.message, suiteTool, description);
  const text = llmText(result);
  const answer = { outcome: 'ok', description, model_text: text };
  if (suiteTool !== 'read_file') {
    const written = writtenPath(result, text);
    return typeof written === 'string' ? { ...answer, kind: 'file', path: written } : answer;
  }
  if (typeof result.llmContent !== 'string') return { ...answer, notes: [] };
  if (BINARY_FILE.test(text)) return { ...answer, notes: ['binary'] };
  return { ...answer, notes: [], content: result.llmContent };
}

/** Whether the suite call gave a path (RES-1: a non-empty string). */
function pathGiven(params) {
  return ['dir_path', 'path'].some((name) => typeof params?.[name] === 'string' && params[name] !== '');
}

/**
 * A glob call. The files are the tool's own absolute paths, as printed; the
 * searched directory it prints (`within <dir>`) is reported as `path` when
 * a path was given.
 */
export async function globCall({ instance, params, renames, execute }) {
  const toolParams = mapParams(params, renames);
  const { error, description, result } = await invoke(instance, toolParams, 'glob', execute);
  if (error) return error;
  if (result.error) return errorResult(result.error.message, 'glob', description);
  const text = llmText(result);
  const parsed = parseGlobOutput(text, toolParams.pattern);
  if (!parsed) return errorResult(text, 'glob', description);
  const echoed = parsed.dir !== null && pathGiven(params) ? { path: parsed.dir } : {};
  return { outcome: 'ok', ...echoed, files: parsed.files, description, model_text: text };
}

/**
 * An ls call. Each entry's path is the listed directory as the tool printed
 * it joined with the entry's name, which is how the tools build it
 * themselves (`path.join`). The kind is `directory`: the text says so
 * (`Directory listing for X:`, `Directory X is empty.`).
 */
export async function lsCall({ instance, params, renames, execute, sizes }) {
  const toolParams = mapParams(params, renames);
  const { error, description, result } = await invoke(instance, toolParams, 'ls', execute);
  if (error) return error;
  if (result.error) return errorResult(result.error.message, 'ls', description);
  const text = llmText(result);
  const parsed = parseLsOutput(text, { sizes });
  if (!parsed) return errorResult(text, 'ls', description);
  const entries = parsed.entries.map((e) => ({ path: path.join(parsed.dir, e.name), type: e.type }));
  return { outcome: 'ok', kind: 'directory', path: parsed.dir, entries, description, model_text: text };
}
