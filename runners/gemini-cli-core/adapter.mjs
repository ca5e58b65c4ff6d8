// toolpath adapter over the real GrepTool, RipGrepTool, ShellTool, GlobTool, LSTool,
// ReadFileTool, WriteFileTool and EditTool of @google/gemini-cli-core (the
// version pinned in package.json).
//
//   toolpath run --adapter 'node runners/gemini-cli-core/adapter.mjs'
//
// Speaks spec/protocol.md on stdin/stdout; see README.md for the parameter
// mapping and what is left unobservable.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { fileCall, globCall, lsCall, searchCall, shellCall } from '../common-node/calls.mjs';
import { log, privateHome, serve, takeStdout } from '../common-node/protocol.mjs';
import { errorResult, schemaUnderSuiteNames } from '../common-node/translate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = '@google/gemini-cli-core';

// Only protocol lines may reach stdout; the library logs freely.
takeStdout();

// The library keeps state under GEMINI_CLI_HOME: give it a private one before it is loaded.
const home = privateHome('gemini-home');
process.env.GEMINI_CLI_HOME = home;

const importStarted = performance.now();
const core = await import(PACKAGE);
log(`imported ${PACKAGE} in ${(performance.now() - importStarted).toFixed(0)} ms`);
const { Config, EditTool, GlobTool, GrepTool, LSTool, ReadFileTool, RipGrepTool, ShellTool, WriteFileTool } = core;
const version = JSON.parse(
  fs.readFileSync(path.join(here, 'node_modules', PACKAGE, 'package.json'), 'utf8'),
).version;
const MODEL = core.DEFAULT_GEMINI_MODEL ?? 'gemini-2.5-pro';

// Suite parameter name -> this package's name. The search tools call the
// path `dir_path` (the suite's alias `path` is mapped onto it) and the glob
// `include_pattern`; the shell calls its directory `dir_path` (the suite's
// legacy alias `directory` is mapped onto it).
const SEARCH_NAMES = { path: 'dir_path', include: 'include_pattern' };
const SHELL_NAMES = { directory: 'dir_path' };
// Glob and ls call their path `dir_path` too; the suite's alias `path` is
// mapped onto it. Glob's optional `case_sensitive` is left to its default
// (false), as a model would leave it.
const LISTING_NAMES = { path: 'dir_path' };
// The suite's primary names, for the schemas published in hello.
const SEARCH_SCHEMA_NAMES = { dir_path: 'dir_path', include: 'include_pattern' };
const SHELL_SCHEMA_NAMES = { dir_path: 'dir_path' };
const LISTING_SCHEMA_NAMES = { dir_path: 'dir_path' };
// The file tools call their path `file_path`, as the suite does; the
// suite's alias `absolute_path` is mapped onto it. The edit tool (`replace`)
// also requires an `instruction`, a sentence for the model-based correction
// it can attempt when `old_string` is not found; the adapter sends a fixed
// one, and that correction stays off (`disableLLMCorrection`, the default:
// no model is called).
const FILE_NAMES = { absolute_path: 'file_path' };
const EDIT_EXTRA = { instruction: 'Replace old_string with new_string in the file.' };
const FILE_SCHEMA_NAMES = { file_path: 'file_path' };
const FILE_TOOLS = { read_file: ReadFileTool, write_file: WriteFileTool, edit: EditTool };
const TOOLS = ['grep', 'ripgrep', 'shell', 'glob', 'ls', ...Object.keys(FILE_TOOLS)];

// This version's execute takes an options object.
const execute = (invocation, abortSignal) => invocation.execute({ abortSignal });

let sessions = 0;

/**
 * Forgets every project the package has seen. It names a project's state
 * directory after the project's base name and how many projects of that
 * name it already knows (`ws`, `ws-1`, `ws-2`, ...), and its refusals name
 * that directory. Every case is a new project, so the number would be how
 * many cases this process had run before: a message that changes with how
 * the run is split between workers (`--jobs`). Forgotten before each call,
 * it is `ws`, as for a user's first project, in every run.
 */
function forgetProjects() {
  const runtime = core.Storage.getGlobalRuntimeDir();
  for (const state of ['projects.json', core.Storage.getGlobalTempDir(), path.join(runtime, 'history')]) {
    fs.rmSync(path.resolve(runtime, state), { recursive: true, force: true });
  }
}

/** A fresh Config for one call: every call brings a new fixture. */
async function makeConfig(workspace) {
  sessions += 1;
  forgetProjects();
  const config = new Config({
    sessionId: `toolpath-${process.pid}-${sessions}`,
    targetDir: workspace.target,
    cwd: workspace.target,
    debugMode: false,
    model: MODEL,
    usageStatisticsEnabled: false,
    telemetry: { enabled: false },
    interactive: false,
    disableLLMCorrection: true,
  });
  await config.storage.initialize();
  config.getWorkspaceContext().setDirectories(workspace.roots);
  // The write tool hands a model client to its content corrector even when
  // correction is off (disableLLMCorrection), and a Config only has one
  // once the CLI has authenticated; without it every write throws before
  // touching the disk. No model is ever asked here: this stand-in throws
  // if anything uses it, so a call that did would fail, never pass.
  config.baseLlmClient = NO_MODEL;
  return config;
}

const NO_MODEL = new Proxy(
  {},
  {
    get(_target, property) {
      if (property === 'then') return undefined; // not a promise
      throw new Error(`toolpath: no model is available to the tools (asked for ${String(property)})`);
    },
  },
);

// The ripgrep binary the package would use (a bundled copy first, then a
// trusted system one). Without one, its RipGrepTool answers every call with
// an error text and no `error` field, which would look like a result.
const rgPath = await core.resolveRipgrepPath();
log(rgPath ? `ripgrep binary: ${rgPath}` : 'no ripgrep binary found: ripgrep calls are unsupported');

async function hello() {
  const scratch = fs.mkdtempSync(path.join(home, 'schemas-'));
  const config = await makeConfig({ roots: [scratch], target: scratch });
  const schemaOf = (tool, names) =>
    schemaUnderSuiteNames(tool.getSchema(MODEL).parametersJsonSchema, names);
  try {
    return {
      implementation: { name: PACKAGE, version, language: 'typescript' },
      tools: TOOLS,
      features: ['symlinks', 'fifos', 'sockets', 'devices'],
      // parent: no tool ever reports it.
      unobservable: ['parent'],
      // Per tool, what its own output cannot show (see README.md):
      // - grep, ripgrep: the output never says whether a file or a
      //   directory was searched (kind), and echoes dir_path as given
      //   (`in path "src/"`), never a resolved path.
      // - glob: never says what it searched is a directory (kind); the
      //   path it searched is printed (`within DIR`, a real path) and judged.
      // - read_file: its llmContent is the file's text and names no file.
      // shell (cwd and output), ls (`Directory listing for X:` says kind
      // and path), write_file and edit (the file written, in the display's
      // `path`) show everything they are asked for.
      unobservable_by_tool: {
        grep: ['kind', 'path'],
        ripgrep: ['kind', 'path'],
        glob: ['kind'],
        read_file: ['kind', 'path'],
      },
      schemas: {
        grep: schemaOf(new GrepTool(config), SEARCH_SCHEMA_NAMES),
        ripgrep: schemaOf(new RipGrepTool(config), SEARCH_SCHEMA_NAMES),
        shell: schemaOf(new ShellTool({ config }), SHELL_SCHEMA_NAMES),
        glob: schemaOf(new GlobTool(config), LISTING_SCHEMA_NAMES),
        ls: schemaOf(new LSTool(config), LISTING_SCHEMA_NAMES),
        read_file: schemaOf(new ReadFileTool(config), FILE_SCHEMA_NAMES),
        write_file: schemaOf(new WriteFileTool(config), FILE_SCHEMA_NAMES),
        edit: schemaOf(new EditTool(config), FILE_SCHEMA_NAMES),
      },
    };
  } finally {
    await config.dispose();
  }
}

// The structured display carries the tool's own absolute path per match
// (real paths); it only tells a file target from a directory and roots that
// share a base name apart (see absoluteMatchPaths).
function hintsOf(result) {
  const shown = result.returnDisplay?.matches;
  return Array.isArray(shown)
    ? shown.map((m) => ({ file: m.filePath, line: m.lineNumber, absolutePath: m.absolutePath }))
    : [];
}

// The file a write or an edit wrote: the tool's own structured display
// (`display.result.path`, the path it wrote through, which this version
// resolves to a real path), the same as its llmContent names.
function writtenPathOf(result) {
  const written = result.display?.result?.path;
  return typeof written === 'string' ? written : null;
}

async function call({ tool, workspace, params }) {
  if (!TOOLS.includes(tool)) {
    return { outcome: 'unsupported', reason: `${PACKAGE} has no ${tool} tool` };
  }
  if (tool === 'ripgrep' && !rgPath) {
    return {
      outcome: 'unsupported',
      reason: `no ripgrep binary where ${PACKAGE} looks (run runners/gemini-cli-core/setup.sh)`,
    };
  }
  const config = await makeConfig(workspace);
  try {
    if (tool === 'shell') {
      return await shellCall({ instance: new ShellTool({ config }), params, renames: SHELL_NAMES, execute });
    }
    if (tool === 'glob') {
      return await globCall({ instance: new GlobTool(config), params, renames: LISTING_NAMES, execute });
    }
    if (tool === 'ls') {
      return await lsCall({ instance: new LSTool(config), params, renames: LISTING_NAMES, execute, sizes: true });
    }
    if (Object.hasOwn(FILE_TOOLS, tool)) {
      return await fileCall({
        suiteTool: tool,
        instance: new FILE_TOOLS[tool](config),
        params,
        renames: FILE_NAMES,
        extra: tool === 'edit' ? EDIT_EXTRA : {},
        execute,
        writtenPath: writtenPathOf,
      });
    }
    return await searchCall({
      suiteTool: tool,
      instance: tool === 'grep' ? new GrepTool(config) : new RipGrepTool(config),
      params,
      renames: SEARCH_NAMES,
      includeName: 'include_pattern',
      workspace,
      dirs: () => config.getWorkspaceContext().getDirectories(),
      execute,
      hintsOf,
    });
  } finally {
    // Config registers listeners on a process-wide event emitter; without
    // this every call would leave its Config behind.
    await config.dispose().catch((err) => log('Config.dispose failed:', err?.message ?? err));
  }
}

serve({
  hello,
  call,
  onCrash: (err, message) => errorResult(err?.message ?? String(err), message.tool),
});
