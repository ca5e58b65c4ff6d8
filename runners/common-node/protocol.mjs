// The adapter side of the toolpath protocol (spec/protocol.md), shared by the
// Node adapters in runners/. It owns standard output: only protocol lines go
// there; everything the library under test prints is sent to standard error.
//
// No dependencies beyond Node itself, so it can be imported before (and
// independently of) the package under test.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import util from 'node:util';

/**
 * A state directory for the package under test, `name` in this process's
 * TMPDIR, emptied now and removed at exit. toolpath gives every adapter
 * process a TMPDIR of its own, so a fixed name is private, and messages that
 * name it read the same in every run. Call it before importing the package.
 */
export function privateHome(name) {
  const home = path.join(os.tmpdir(), name);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  process.on('exit', () => fs.rmSync(home, { recursive: true, force: true }));
  return home;
}

/** Protocol version spoken here. */
export const PROTOCOL = 1;

let realStdoutWrite = null;

/**
 * Sends library output to standard error from now on and returns a function
 * that writes one protocol message to the real standard output. Call it
 * before importing the package under test.
 */
export function takeStdout() {
  if (realStdoutWrite) return send;
  realStdoutWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, encoding, callback) =>
    process.stderr.write(chunk, encoding, callback);
  for (const name of ['log', 'info', 'debug', 'warn', 'error', 'trace', 'dir', 'table']) {
    console[name] = (...args) => {
      process.stderr.write(`${util.format(...args)}\n`);
    };
  }
  return send;
}

function send(message) {
  if (!realStdoutWrite) throw new Error('takeStdout() was not called');
  realStdoutWrite(`${JSON.stringify(message)}\n`);
}

/** A line for the adapter's log on standard error. */
export function log(...args) {
  process.stderr.write(`[adapter] ${util.format(...args)}\n`);
}

/**
 * Reads protocol lines from standard input and answers them one at a time.
 *
 * `hello()` returns the adapter's hello fields (without `type`/`protocol`);
 * `call(message)` returns the result fields (without `type`/`seq`). Anything
 * `call` throws becomes an error result built by `onCrash(error, message)`,
 * so one call can never end the loop.
 */
export function serve({ hello, call, onCrash }) {
  const send = takeStdout();
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let queue = Promise.resolve();
  // Libraries under test start timers and child processes of their own; an
  // error escaping from one of them must not end the run.
  process.on('unhandledRejection', (err) => log('unhandled rejection:', err?.stack ?? err));
  process.on('uncaughtException', (err) => log('uncaught exception:', err?.stack ?? err));
  const exit = (code) => {
    // Let the last protocol line drain before leaving.
    process.stdout.once('drain', () => process.exit(code));
    setTimeout(() => process.exit(code), 200).unref();
    if (!process.stdout.writableNeedDrain) process.exit(code);
  };
  rl.on('line', (line) => {
    if (!line.trim()) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch (err) {
      log('ignoring a line that is not JSON:', err.message);
      return;
    }
    queue = queue.then(async () => {
      switch (message?.type) {
        case 'hello': {
          let fields;
          try {
            fields = await hello(message);
          } catch (err) {
            // Without a hello there is no run; say why and let the harness
            // report the adapter error.
            log('cannot answer hello:', err?.stack ?? err);
            exit(1);
            return;
          }
          send({ type: 'hello', protocol: PROTOCOL, ...fields });
          return;
        }
        case 'call': {
          let fields;
          const started = performance.now();
          try {
            fields = await call(message);
          } catch (err) {
            log(`seq ${message.seq} (${message.case}) threw:`, err?.stack ?? err);
            fields = onCrash(err, message);
          }
          log(`seq ${message.seq} ${message.case}: ${fields.outcome}` +
            `${fields.error ? ` ${fields.error.code}` : ''} in ${(performance.now() - started).toFixed(0)} ms`);
          send({ type: 'result', seq: message.seq, ...fields });
          return;
        }
        case 'bye':
          exit(0);
          return;
        default:
          log('ignoring a message of unknown type', message?.type);
      }
    }).catch((err) => log('protocol loop error:', err?.stack ?? err));
  });
  // Standard input closed: finish what was sent, then leave. (A call that
  // never returns keeps the process; the harness kills its process group.)
  rl.on('close', () => {
    queue = queue.then(() => exit(0));
  });
}
