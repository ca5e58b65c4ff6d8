// One long-lived `opencode serve` per adapter process, and the few calls of
// its HTTP API the adapter makes. Starting the binary costs seconds; a
// session in a running server costs milliseconds, so the server outlives
// every call and each call gets a session of its own. opencode keeps one
// "instance" per project directory (every fixture is a new one); the
// previous fixture's is disposed while the harness judges and builds the
// next, never on a call's own time.

import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { log } from '../common-node/protocol.mjs';

// `opencode serve` printed its address after 5 s on a machine at load 9.
const START_MS = Number(process.env.TOOLPATH_OPENCODE_START_MS ?? 60000);
// What is read of its standard output while waiting for the address.
const MAX_BANNER_BYTES = 64 * 1024;
// An answer of the API is JSON of a session's messages: bounded all the same.
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export const PROVIDER = 'toolpath';
export const MODEL = 'scripted';

/**
 * The configuration of a private opencode: nothing fetched or updated, no
 * language servers or formatters, the scripted model the only one, and its
 * permissions those of an unattended run: every tool allowed, and what it
 * asks about a path outside the project (`external_directory`) denied,
 * since "ask" would wait for a user who never answers. That denial is
 * opencode's own containment; it is what the suite judges.
 */
function config(baseURL) {
  return {
    autoupdate: false,
    share: 'disabled',
    snapshot: false,
    lsp: false,
    formatter: false,
    model: `${PROVIDER}/${MODEL}`,
    small_model: `${PROVIDER}/${MODEL}`,
    provider: {
      [PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'toolpath scripted model',
        options: { baseURL, apiKey: 'none' },
        models: { [MODEL]: { name: MODEL, tool_call: true } },
      },
    },
    permission: { '*': 'allow', external_directory: 'deny', doom_loop: 'allow' },
  };
}

/**
 * A free loopback port. `opencode serve --port 0` does not ask the system
 * for one: it listens on 4096, and a second server (another worker's
 * adapter) shares that port with the first (its socket reuses the port),
 * so either could answer either's requests. A password of its own per
 * server (below) makes a request that reaches the wrong one fail loudly.
 */
async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Writes the configuration once (every server of the adapter shares it)
 * and leaves its directory read-only. At every start opencode installs its
 * plugin package (`@opencode-ai/plugin`) into each configuration
 * directory it may write, from the npm registry: a download per server,
 * and under the box's data limit the allocation that ended servers
 * (MemoryExhaustion inside its zlib). It skips a directory it cannot write.
 */
function writeConfig(dir, baseURL) {
  const file = path.join(dir, 'opencode.json');
  if (fs.existsSync(file)) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(config(baseURL), null, 2));
  fs.chmodSync(dir, 0o555);
  // Writable again at exit, before the private home is removed.
  process.prependListener('exit', () => fs.chmodSync(dir, 0o755));
}

/** The environment of the server: private state directories, nothing of the adapter's own but PATH and TMPDIR. */
function environment(home, password) {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    OPENCODE_SERVER_USERNAME: 'toolpath',
    OPENCODE_SERVER_PASSWORD: password,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    XDG_STATE_HOME: path.join(home, 'state'),
  };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  for (const name of ['MODELS_FETCH', 'AUTOUPDATE', 'SHARE', 'LSP_DOWNLOAD', 'PROJECT_CONFIG', 'DEFAULT_PLUGINS', 'CLAUDE_CODE', 'EXTERNAL_SKILLS']) {
    env[`OPENCODE_DISABLE_${name}`] = '1';
  }
  env.OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER = '1';
  // No plugins from outside the binary (its --pure), and its sessions kept
  // in memory: a run's thousands of them are the adapter's alone and never
  // read again once answered, so nothing of them needs the disk.
  env.OPENCODE_PURE = '1';
  env.OPENCODE_DB = ':memory:';
  // Bun's allocator (mimalloc) reserves its arenas a GiB at a time; in
  // 64 MiB steps a server starts with about 400 MiB less of the box's
  // data limit taken (2.8 GiB instead of 3.2), room for more calls.
  env.MIMALLOC_ARENA_RESERVE = '64MiB';
  return env;
}

async function readBounded(response) {
  const chunks = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) throw new Error(`opencode answered more than ${MAX_RESPONSE_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts `opencode serve` on loopback with its state under `home`, talking
 * to the scripted model at `baseURL`. Resolves to `{client, child}` once it
 * prints its address; rejects if it exits first or says nothing within
 * START_MS. `onExit(code, signal)` is called if it ends after that.
 */
async function startServer({ binary, home, baseURL, onExit }) {
  const password = crypto.randomBytes(24).toString('base64url');
  const env = environment(home, password);
  for (const dir of [env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_CACHE_HOME, env.XDG_STATE_HOME]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  writeConfig(path.join(env.XDG_CONFIG_HOME, 'opencode'), baseURL);
  const port = await freePort();
  const child = spawn(binary, ['serve', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: home,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  // The server dies with the adapter (the harness ends the process group
  // too; this covers an adapter that exits by itself). First of the exit
  // handlers: the private home is removed after it.
  process.prependListener('exit', () => child.kill('SIGKILL'));
  const url = await new Promise((resolve, reject) => {
    let banner = '';
    const timer = setTimeout(() => reject(new Error(`opencode serve printed no address within ${START_MS} ms`)), START_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`opencode serve exited (${signal ?? code}) before printing its address`));
    });
    child.stdout.on('data', (chunk) => {
      if (banner.length < MAX_BANNER_BYTES) banner += chunk.toString('utf8');
      const found = new RegExp(`listening on (http://127\\.0\\.0\\.1:${port})\\b`).exec(banner);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
  });
  child.stdout.resume();
  child.on('exit', onExit);
  return { client: new Client(url, `Basic ${Buffer.from(`toolpath:${password}`).toString('base64')}`), child };
}

/** This process's soft limit of writable data (RLIMIT_DATA) in bytes, or Infinity. */
function dataLimit() {
  const line = fs.readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max data size'));
  const soft = line?.slice('Max data size'.length).trim().split(/\s+/)[0];
  return soft && /^\d+$/.test(soft) ? Number(soft) : Infinity;
}

/** The writable data a process maps (VmData), in bytes, or 0 once it is gone. */
function dataOf(pid) {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmData:'));
    return Number(/(\d+) kB/.exec(line ?? '')?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

// How close to the data limit a server may come before it is replaced. A
// call grew it by 32 to 200 MiB (an instance per project directory, freed
// lazily by its garbage collector, if at all), and a single allocation
// can be larger: with 256 and 320 MiB left, servers still ran out of
// memory in whole runs (Bun's "MemoryExhaustion", SIGABRT, or SIGILL), a
// case in a hundred; with 512 MiB, one call in about 1,700 (a whole run,
// 2026-12-06). A start costs about 2.4 s of CPU, beside the calls.
const DATA_MARGIN = 768 * 1024 * 1024;
// How long a broken call waits to see its server's exit (Servers.lost).
const LOSS_WAIT_MS = 3000;

/**
 * The server the calls go to, and the one that will replace it. Under a
 * limit on writable data (toolpath's box sets RLIMIT_DATA, 4 GiB), the
 * server grows with every project directory it has seen, disposed or not,
 * until it cannot allocate and Bun ends it (SIGILL) after a few dozen
 * calls. So a spare is started beside it in advance, and once the
 * server nears the limit, between two calls, the spare takes over and the
 * old one is ended: no call waits for a start.
 */
export class Servers {
  constructor({ binary, home, baseURL }) {
    this.options = { binary, home, baseURL };
    this.limit = dataLimit();
    this.current = null;
    this.spare = null;
  }

  start() {
    const server = startServer({
      ...this.options,
      onExit: (code, signal) => {
        if (this.current === null || this.current.child !== started?.child) return;
        // The server in use ended itself (under the box's data limit, Bun's
        // "MemoryExhaustion" at one call in about 1,700): the next client
        // is the spare's, and a call it broke is tried once more there
        // (adapter.mjs).
        log(`opencode serve ${started.child.pid} exited (${signal ?? code}); the spare takes over`);
        this.current = null;
      },
    });
    let started = null;
    server.then((s) => {
      started = s;
    }, () => {});
    return server;
  }

  /** The client of the server in use: the spare once one is lost, started on first use. */
  async client() {
    if (this.current === null && this.spare !== null) {
      const spare = this.spare;
      this.spare = null;
      this.current = await spare;
    }
    this.current ??= await this.start();
    return this.current.client;
  }

  /**
   * Whether the server behind `client` has ended, waiting up to
   * LOSS_WAIT_MS for its exit to be seen (a broken connection can be
   * reported before the process's end).
   */
  async lost(client) {
    const deadline = performance.now() + LOSS_WAIT_MS;
    while (this.current?.client === client) {
      const { child } = this.current;
      if (child.exitCode !== null || child.signalCode !== null) return true;
      if (performance.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return true;
  }

  /**
   * Between two calls: a spare on its way once there is a limit, and the
   * spare in use once the server has come within DATA_MARGIN of it.
   */
  async between() {
    if (this.limit === Infinity || this.current === null) return;
    this.spare ??= this.start();
    if (dataOf(this.current.child.pid) < this.limit - DATA_MARGIN) return;
    const retired = this.current;
    this.current = await this.spare;
    this.spare = this.start();
    log(`opencode serve ${retired.child.pid} came within ${DATA_MARGIN >> 20} MiB of the data limit: ${this.current.child.pid} takes over`);
    retired.child.kill('SIGKILL');
  }
}

export class Client {
  constructor(url, authorization) {
    this.url = url;
    this.authorization = authorization;
    this.disposing = Promise.resolve();
  }

  /** One API request in project `directory`; the parsed JSON answer. */
  async request(method, route, directory, body) {
    const url = new URL(route, this.url);
    url.searchParams.set('directory', directory);
    const response = await fetch(url, {
      method,
      headers: {
        authorization: this.authorization,
        'content-type': 'application/json',
        'x-opencode-directory': encodeURIComponent(directory),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await readBounded(response);
    if (!response.ok) throw new Error(`opencode ${method} ${route}: HTTP ${response.status}: ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
  }

  createSession(directory) {
    return this.request('POST', '/session', directory, {});
  }

  /** Sends one user message; returns when the agent loop has ended. */
  prompt(sessionID, directory, text) {
    return this.request(
      'POST',
      `/session/${sessionID}/message`,
      directory,
      { parts: [{ type: 'text', text }], model: { providerID: PROVIDER, modelID: MODEL }, agent: 'build' },
    );
  }

  messages(sessionID, directory) {
    return this.request('GET', `/session/${sessionID}/message`, directory);
  }

  /** The tools' parameter schemas as the scripted model is shown them. */
  tools(directory) {
    return this.request('GET', `/experimental/tool?provider=${PROVIDER}&model=${MODEL}`, directory);
  }

  /**
   * Ends the instance opencode keeps for `directory`, in the background:
   * the next request waits for it only if it is still running then, which
   * keeps instances from piling up over a run.
   */
  dispose(directory) {
    this.disposing = this.disposing
      .then(() => this.request('POST', '/instance/dispose', directory, {}))
      .catch((err) => log(`disposing the instance of ${directory}: ${err.message}`));
  }
}
