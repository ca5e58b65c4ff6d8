#!/usr/bin/env node
// The `toolpath` command of the npm package: runs the prebuilt binary that
// npm installed with it. The binary is in a package of its own for each
// platform (@toolpath/linux-x64 ...), listed in optionalDependencies with
// `os` and `cpu` fields, so npm installs the one package that fits and
// nothing is downloaded by an install script.
"use strict";

const { spawn } = require("node:child_process");

const PLATFORMS = {
  "linux x64": "@toolpath/linux-x64",
};

function fail(message) {
  process.stderr.write(`toolpath: ${message}\n`);
  // 2: the exit code toolpath gives bad usage; nothing ran.
  process.exit(2);
}

function binary() {
  const key = `${process.platform} ${process.arch}`;
  const pkg = PLATFORMS[key];
  if (pkg === undefined) {
    fail(
      `no prebuilt binary for ${key}; build it from source instead: ` +
        "cargo install --locked toolpath (Rust 1.89 or newer)",
    );
  }
  try {
    return require.resolve(`${pkg}/bin/toolpath`);
  } catch {
    fail(
      `${pkg}, which carries the binary, is not installed; ` +
        "install toolpath again without --omit=optional or --no-optional",
    );
  }
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
