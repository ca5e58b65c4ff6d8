// toolpath adapter over the tools of opencode-ai (the version pinned in
// package.json), the ones its agent runs: grep, glob, bash, read, write and
// edit, inside its own binary. They run only in its agent loop, so the
// adapter runs the loop as a user would, through its server: one `opencode
// serve` for the adapter's life, a session per call, and a scripted model
// on loopback (model.mjs) that asks for exactly the call the case makes.
//
//   toolpath run --adapter 'node runners/opencode/adapter.mjs'
//
// Speaks spec/protocol.md on stdin/stdout; see README.md for the parameter
// mapping and what is left unobservable.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { log, privateHome, serve, takeStdout } from '../common-node/protocol.mjs';
import { mapParams, schemaUnderSuiteNames } from '../common-node/translate.mjs';
import { errorResult, globAnswer, grepAnswer, readAnswer, shellAnswer, writtenAnswer } from './answers.mjs';
import { startModel } from './model.mjs';
import { Servers } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = 'opencode-ai';
const packageDir = path.join(here, 'node_modules', PACKAGE);
// The platform binary its postinstall would pick (setup.sh skips install scripts).
const binary = path.join(here, 'node_modules', 'opencode-linux-x64', 'bin', 'opencode');

takeStdout();
const home = privateHome('opencode-home');
const version = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;

// The harness bounds every call (--timeout-ms) and ends an adapter that
// passes it. This is a backstop of the adapter's own, past any timeout the
// harness is given: a loop still running then is never answered (a hang
// is not an error code); the adapter ends, and the harness reports an
// adapter error.
const STUCK_EXIT_MS = Number(process.env.TOOLPATH_OPENCODE_STUCK_EXIT_MS ?? 300000);

// Suite tool -> opencode's tool, its names for the suite's parameters, the
// parameters it requires that the suite has none of, and how its part is read.
const TOOLS = {
  grep: { name: 'grep', renames: { dir_path: 'path' }, answer: grepAnswer },
  glob: { name: 'glob', renames: { dir_path: 'path' }, answer: globAnswer },
  shell: { name: 'bash', renames: { dir_path: 'workdir', directory: 'workdir' }, extra: { description: 'toolpath call' }, answer: shellAnswer },
  read_file: { name: 'read', renames: { file_path: 'filePath', absolute_path: 'filePath' }, answer: readAnswer },
  write_file: { name: 'write', renames: { file_path: 'filePath', absolute_path: 'filePath' }, answer: writtenAnswer },
  edit: {
    name: 'edit',
    renames: { file_path: 'filePath', absolute_path: 'filePath', old_string: 'oldString', new_string: 'newString' },
    answer: writtenAnswer,
  },
};
// The suite's primary names, for the schemas published in hello.
const SCHEMA_NAMES = {
  grep: { dir_path: 'path' },
  glob: { dir_path: 'path' },
  shell: { dir_path: 'workdir' },
  read_file: { file_path: 'filePath' },
  write_file: { file_path: 'filePath' },
  edit: { file_path: 'filePath', old_string: 'oldString', new_string: 'newString' },
};
// write and edit refuse an existing file the session has not read; a model
// told so reads it and tries again, and so does the adapter, once.
const UNREAD = /^You must read file [\s\S]* before (overwriting|editing) it/;

const model = await startModel();
const servers = new Servers({ binary, home, baseURL: model.baseURL });
const started = performance.now();
const first = await servers.client();
log(`opencode serve ${version} up in ${(performance.now() - started).toFixed(0)} ms at ${first.url}`);
/** One scripted tool call in `session`: its tool part's state. */
async function runTool(client, session, directory, name, params) {
  const { token, callID } = model.script(name, params);
  const stuck = setTimeout(() => {
    log(`the agent loop has not ended after ${STUCK_EXIT_MS} ms; the adapter ends`);
    process.kill(process.pid, 'SIGKILL');
  }, STUCK_EXIT_MS);
  try {
    await client.prompt(session, directory, `Run the scripted call ${token}.`);
  } finally {
    clearTimeout(stuck);
  }
  const messages = await client.messages(session, directory);
  const part = (messages ?? []).flatMap((m) => m.parts ?? []).find((p) => p.type === 'tool' && p.callID === callID);
  if (!part) throw new Error(`the session holds no tool part for the scripted call ${callID}`);
  return part;
}

async function hello() {
  const client = await servers.client();
  const scratch = fs.mkdtempSync(path.join(home, 'schemas-'));
  const listed = await client.tools(scratch);
  client.dispose(scratch);
  const byName = new Map((listed ?? []).map((tool) => [tool.id, tool.parameters]));
  const schemas = {};
  for (const [suiteTool, { name }] of Object.entries(TOOLS)) {
    const schema = byName.get(name);
    if (!schema) throw new Error(`opencode lists no ${name} tool (it lists ${[...byName.keys()].join(', ')})`);
    schemas[suiteTool] = schemaUnderSuiteNames(schema, SCHEMA_NAMES[suiteTool]);
  }
  return {
    implementation: { name: PACKAGE, version, language: 'typescript' },
    tools: Object.keys(TOOLS),
    features: ['symlinks', 'fifos', 'sockets', 'devices'],
    // parent: no tool ever reports it.
    unobservable: ['parent'],
    // Per tool, what its own output cannot show (see README.md): grep and
    // glob never say what they searched (kind, path); bash prints only the
    // command's output, so where it ran is what `pwd` printed.
    unobservable_by_tool: {
      grep: ['kind', 'path'],
      glob: ['kind', 'path'],
    },
    schemas,
  };
}

/** The scripted call in a new session of `client`'s server: its tool part. */
async function inSession(client, directory, name, toolParams) {
  // The previous call's instance, disposed after its answer went out.
  await client.disposing;
  const session = (await client.createSession(directory)).id;
  let part = await runTool(client, session, directory, name, toolParams);
  if (part.state?.status === 'error' && UNREAD.test(String(part.state.error)) && typeof toolParams.filePath === 'string') {
    await runTool(client, session, directory, 'read', { filePath: toolParams.filePath });
    part = await runTool(client, session, directory, name, toolParams);
  }
  // Its fixture is removed once answered: so is opencode's instance of it,
  // in the background (the next call waits for that, if it must).
  client.dispose(directory);
  return part;
}

async function call({ tool, workspace, params }) {
  if (!Object.hasOwn(TOOLS, tool)) {
    return { outcome: 'unsupported', reason: `${PACKAGE} has no ${tool} tool` };
  }
  // opencode has one project directory: where it was started, the target.
  const directory = workspace.target;
  await servers.between();
  const { name, renames, extra, answer } = TOOLS[tool];
  const toolParams = mapParams(params, renames, extra);
  const first = await servers.client();
  let part;
  try {
    part = await inSession(first, directory, name, toolParams);
  } catch (error) {
    // The server ended itself during the call (see Servers): the call is
    // tried once more on the spare, in a new session; anything else (or a
    // second loss) is the adapter's failure. A tool that had already acted
    // acts again: the same write, or an edit that now finds its new text.
    if (!(await servers.lost(first))) throw error;
    log(`${tool} call broken by a lost server (${error.message}); tried again on the spare`);
    part = await inSession(await servers.client(), directory, name, toolParams);
  }
  const state = part.state ?? {};
  const description = typeof state.title === 'string' ? state.title : undefined;
  const result = state.status === 'completed' ? answer(state) : errorResult(state.error, tool);
  return description ? { ...result, description } : result;
}

// A call that throws (an HTTP error of the server, a session without the
// scripted call's part) is the adapter's failure, never the tool's answer:
// the adapter ends (protocol.mjs has logged why) and the harness reports
// an adapter error.
serve({
  hello,
  call,
  onCrash: () => process.exit(1),
});
