#!/usr/bin/env node
// The `toolpath` command of the npm package: runs the prebuilt binary that
// npm installed with it. The binary is in a package of its own for each
// platform (@toolpath/linux-x64 ...), listed in optionalDependencies with
// `os` and `cpu` fields, so npm installs the one package that fits and
// nothing is downloaded by an install script. It runs only the binary npm
// put beside it, and only one no other user could have replaced.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { spawn } = require("node:child_process");

const PLATFORMS = {
  "linux x64": "@toolpath/linux-x64",
};

// What to do without a prebuilt binary. `cargo install toolpath` would
// fetch an unrelated crate of that name from crates.io: toolpath is built
// from its own repository.
const FROM_SOURCE =
  "build it from a checkout of toolpath's repository instead: " +
  "cargo install --locked --path . (Rust 1.89 or newer)";

function fail(message) {
  process.stderr.write(`toolpath: ${message}\n`);
  // 2: the exit code toolpath gives bad usage; nothing ran.
  process.exit(2);
}

// Where npm puts the platform package, nearer first: in this package's own
// node_modules (nested: a global install, or another version hoisted in
// its place), or beside this package in the node_modules it was installed
// in itself (hoisted: a project's install; pnpm's too). Never further up,
// as require.resolve would look: the node_modules of any directory above
// a project (/tmp, a shared home) is anyone's to plant a package in, and
// what is found there would run as whoever runs toolpath. __dirname is
// this file's real directory (node follows the node_modules/.bin link).
function places(pkg) {
  const own = path.dirname(__dirname);
  const found = [path.join(own, "node_modules", pkg)];
  const installedIn = path.dirname(own);
  if (path.basename(installedIn) === "node_modules") {
    found.push(path.join(installedIn, pkg));
  }
  return found;
}

// Why `file` is not safe to run, or null: it must be a regular file, and
// it and every directory up to the node_modules holding its package (all
// of which npm made) owned by `installer` (who installed this launcher) or
// root, and writable by no one else: another user who may replace it
// decides what runs.
function distrust(file, installer) {
  if (!fs.statSync(file).isFile()) {
    return `${file} is not a regular file`;
  }
  for (let at = file; ; at = path.dirname(at)) {
    const stat = fs.statSync(at);
    if (stat.uid !== installer && stat.uid !== 0) {
      return (
        `${at} is owned by uid ${stat.uid}, neither root nor ` +
        `the user who installed toolpath (uid ${installer})`
      );
    }
    if ((stat.mode & 0o002) !== 0) {
      return `${at} is writable by other users`;
    }
    if (path.basename(at) === "node_modules") {
      return null;
    }
    if (path.dirname(at) === at) {
      return `${file} is not in a node_modules directory`;
    }
  }
}

function binary() {
  const key = `${process.platform} ${process.arch}`;
  const pkg = PLATFORMS[key];
  if (pkg === undefined) {
    fail(`no prebuilt binary for ${key}; ${FROM_SOURCE}`);
  }
  const installer = fs.statSync(__filename).uid;
  for (const place of places(pkg)) {
    let file;
    try {
      // Its real path: what is checked is what runs (pnpm links packages).
      file = fs.realpathSync(path.join(place, "bin", "toolpath"));
    } catch (e) {
      if (e.code === "ENOENT") {
        continue;
      }
      fail(`cannot read ${place}: ${e.message}`);
    }
    let why;
    try {
      why = distrust(file, installer);
    } catch (e) {
      fail(`cannot check ${file}: ${e.message}`);
    }
    if (why !== null) {
      fail(
        `refusing to run ${file}: ${why}; ` +
          `install toolpath again, or ${FROM_SOURCE}`,
      );
    }
    return file;
  }
  fail(
    `${pkg}, which carries the binary, is not installed beside this launcher ` +
      `(${path.dirname(__dirname)}); install toolpath again without ` +
      `--omit=optional or --no-optional, or ${FROM_SOURCE}`,
  );
}

const child = spawn(binary(), process.argv.slice(2), { stdio: "inherit" });
child.on("error", (e) => fail(`cannot run the binary: ${e.message}`));
// Ctrl-C reaches toolpath from the terminal itself (same process group),
// and a second SIGINT would make it stop without its partial report: the
// launcher ignores SIGINT and waits for toolpath's own exit. SIGTERM and
// SIGHUP sent to the launcher alone are passed on.
process.on("SIGINT", () => {});
for (const signal of ["SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => {
  if (signal !== null) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code);
});
