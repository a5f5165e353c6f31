#!/usr/bin/env node
// The `repochart` command of the npm package: runs the binary of this platform's package
// (one of the optional dependencies; npm installs the one whose `os`/`cpu`/`libc` match),
// passing arguments, standard streams and the exit code through. Nothing is downloaded
// at install time.
"use strict";
const { spawnSync } = require("child_process");

const PACKAGES = {
  "linux-x64": "repochart-linux-x64-gnu",
  "linux-arm64": "repochart-linux-arm64-gnu",
  "darwin-x64": "repochart-darwin-x64",
  "darwin-arm64": "repochart-darwin-arm64",
  "win32-x64": "repochart-win32-x64-msvc",
};

const key = `${process.platform}-${process.arch}`;
const pkg = PACKAGES[key];
if (!pkg) {
  console.error(`repochart: no prebuilt binary for ${key}; install from source with \`cargo install repochart\``);
  process.exit(1);
}
let binary;
try {
  binary = require.resolve(`${pkg}/bin/repochart${process.platform === "win32" ? ".exe" : ""}`);
} catch (e) {
  console.error(
    `repochart: the package ${pkg} is not installed (were optional dependencies left out?); ` +
      "reinstall without --omit=optional, or install from source with `cargo install repochart`",
  );
  process.exit(1);
}
const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  console.error(`repochart: cannot run ${binary}: ${result.error.message}`);
  process.exit(1);
}
if (result.signal) {
  process.kill(process.pid, result.signal);
}
process.exit(result.status === null ? 1 : result.status);
