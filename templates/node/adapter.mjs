#!/usr/bin/env node
// A toolpath adapter skeleton (protocol 1), written by `toolpath new-adapter`.
//
// Run the suite against it at once:
//
//     toolpath run --adapter 'node adapter.mjs'
//
// It declares one tool, `resolve`, wired to a first, naive version (it
// folds the path but checks nothing), so some of its cases pass and the rest
// fail with a diff that shows what is missing; the other tools' cases are
// reported "unsupported" until you move each from NOT_YET_IMPLEMENTED to
// TOOLS. Replace each TODO with a call into your own tool, then keep
// `expectations.yaml` for what still fails:
//
//     toolpath run --adapter 'node adapter.mjs' --write-expectations expectations.yaml
//
// The protocol and the spec come with toolpath: `toolpath export DIR` writes
// them (spec/protocol.md, spec/README.md). stdout carries protocol lines
// only; if your library logs to stdout, send those logs to stderr first.

import fs from 'node:fs';
import readline from 'node:readline';

// TODO: name your implementation.
const IMPLEMENTATION = { name: 'my-agent-tools', version: '0.0.0', language: 'typescript' };
// The tools this adapter implements: only these are declared in `hello`, and
// cases for any other tool are reported "unsupported", never sent.
const TOOLS = ['resolve'];
// The tools of the protocol with a stub below, not declared until written (a
// declared stub would fail every case of its tool with the same TODO).
const NOT_YET_IMPLEMENTED = ['grep', 'ripgrep', 'shell', 'glob', 'ls', 'read_file', 'write_file', 'edit'];
// Fixture features your implementation can handle (symlinks, fifos, sockets, devices).
const FEATURES = ['symlinks'];
// Result fields your tools never show, for every tool, and per tool (for an
// `ls` that prints bare names: { ls: ['entries.path'] }). An expectation on
// such a field is "not checked", and the case is reported "unobserved",
// never passed. Names: spec/protocol.md, "What is observed".
const UNOBSERVABLE = [];
const UNOBSERVABLE_BY_TOOL = {};
// Never fill a field your tool did not give you: an entry path composed from
// the request's path, a `cwd` copied from the request, an error code chosen
// by a default rule are not observations. If an answer needs one, name it in
// that result's `derived` list (e.g. { derived: ['error.code'] }): it then
// counts as not observed for that answer.

class NotImplemented extends Error {}

/** Joins `path` onto `base` and folds `.`, `..` and `//` textually (spec RES-2, RES-3). */
function lexical(base, path) {
  const parts = [];
  for (const segment of (path.startsWith('/') ? path : `${base}/${path}`).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join('/')}`;
}

/**
 * The shared resolver. TODO: call your own; this one checks nothing but its
 * parameters (ERR-2: a key it does not take is refused).
 */
function resolve(workspace, params) {
  const unknown = Object.keys(params).filter((key) => key !== 'path').sort();
  if (unknown.length > 0) {
    const message = `resolve takes no parameter ${unknown.join(', ')}`;
    return { outcome: 'error', error: { code: 'invalid_params', message } };
  }
  if (!params.path) return { outcome: 'ok', kind: 'all-workspaces' };
  const resolved = lexical(workspace.target, params.path);
  // TODO: containment on real paths (SEC-1..3), then not_found /
  // permission_denied (RES-8, RES-9) and unsupported_file_type (RES-10).
  const isDir = fs.existsSync(resolved) && fs.statSync(resolved).isDirectory();
  return { outcome: 'ok', kind: isDir ? 'directory' : 'file', path: resolved };
}

function grep(_workspace, _params) {
  // TODO: run your grep tool on params.pattern, params.dir_path, params.include
  // and translate: kind, path, matches [{path, line, text}], notes.
  throw new NotImplemented('grep');
}

function shell(_workspace, _params) {
  // TODO: run your shell tool with params.command (the suite sends "pwd" or "ls") in
  // params.dir_path; answer {outcome: 'ok', cwd}.
  throw new NotImplemented('shell');
}

function glob(_workspace, _params) {
  // TODO: run your glob tool on params.pattern and params.dir_path (alias
  // params.path; a file is matched alone by its name, spec GLOB-4) and
  // translate: kind, path, files (absolute paths of the matching files).
  throw new NotImplemented('glob');
}

function ls(_workspace, _params) {
  // TODO: run your ls tool on params.dir_path (alias params.path; a file is
  // its own single entry, spec LS-4) and translate: kind, path, entries
  // [{path, type}] with type file, directory, symlink or other. A tool that
  // prints bare names does not tell you the directory: declare
  // 'entries.path' unobservable for ls, or mark the answer `derived`.
  throw new NotImplemented('ls');
}

function read_file(_workspace, _params) {
  // TODO: run your read tool on params.file_path (alias params.absolute_path;
  // it must be absolute, spec FILE-3) and translate: kind 'file', path,
  // content (the file's text), notes ([] or ['binary'], spec FILE-5).
  throw new NotImplemented('read_file');
}

function write_file(_workspace, _params) {
  // TODO: run your write tool on params.file_path and params.content and
  // translate: kind 'file', path. toolpath checks the disk itself.
  throw new NotImplemented('write_file');
}

function edit(_workspace, _params) {
  // TODO: run your edit tool on params.file_path, params.old_string and
  // params.new_string and translate: kind 'file', path.
  throw new NotImplemented('edit');
}

const HANDLERS = { resolve, grep, ripgrep: grep, shell, glob, ls, read_file, write_file, edit };

function answer(call) {
  try {
    return HANDLERS[call.tool](call.workspace, call.params);
  } catch (err) {
    // Honest: a tool moved to TOOLS before it is written fails its cases; a bug
    // in the adapter fails its case and says why, and the loop goes on.
    const message = err instanceof NotImplemented ? `TODO: ${err.message} is not implemented` : `adapter bug: ${err}`;
    if (!(err instanceof NotImplemented)) console.error(err);
    return { outcome: 'error', error: { code: 'invalid_params', message } };
  }
}

const input = readline.createInterface({ input: process.stdin });
for await (const line of input) {
  const message = JSON.parse(line);
  let reply;
  if (message.type === 'hello') {
    reply = {
      type: 'hello',
      protocol: 1,
      implementation: IMPLEMENTATION,
      tools: TOOLS,
      features: FEATURES,
      unobservable: UNOBSERVABLE,
      unobservable_by_tool: UNOBSERVABLE_BY_TOOL,
    };
  } else if (message.type === 'call') {
    reply = { type: 'result', seq: message.seq, ...answer(message) };
  } else {
    break; // bye
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
