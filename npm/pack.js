#!/usr/bin/env node
// Assembles the npm packages from binaries cargo already built, and packs them:
//
//   node npm/pack.js OUT_DIR TARGET=BINARY [TARGET=BINARY ...]
//   node npm/pack.js /tmp/npm x86_64-unknown-linux-gnu=target/release/repochart
//
// Each TARGET (a Rust target triple, `npm/platforms.json`) becomes its platform package
// (`repochart-linux-x64-gnu`: the binary, stripped, with `os`/`cpu`/`libc` so that npm
// installs it only there); `repochart` (the launcher, `npm/repochart`) lists the platform
// packages built as optional dependencies. Versions come from Cargo.toml. In GitHub
// Actions (GITHUB_REPOSITORY set) every package names its repository, which npm's
// provenance requires. Prints the tarballs' paths.
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

const root = path.resolve(__dirname, "..");
const [outArg, ...pairs] = process.argv.slice(2);
if (!outArg || pairs.length === 0) {
  console.error("usage: node npm/pack.js OUT_DIR TARGET=BINARY [TARGET=BINARY ...]");
  process.exit(2);
}
const out = path.resolve(outArg);
const cargo = fs.readFileSync(path.join(root, "Cargo.toml"), "utf8");
const version = /^version\s*=\s*"([^"]+)"/m.exec(cargo)[1];
const platforms = JSON.parse(fs.readFileSync(path.join(__dirname, "platforms.json"), "utf8"));
const repository = process.env.GITHUB_REPOSITORY
  ? { type: "git", url: `git+${process.env.GITHUB_SERVER_URL || "https://github.com"}/${process.env.GITHUB_REPOSITORY}.git` }
  : undefined;
const stage = fs.mkdtempSync(path.join(require("os").tmpdir(), "repochart-npm-"));
fs.mkdirSync(out, { recursive: true });

const pack = (dir) => {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop();
  return path.join(out, name);
};

const optional = {};
const tarballs = [];
for (const pair of pairs) {
  const [target, binary] = pair.split("=");
  const p = platforms[target];
  if (!p || !binary) {
    console.error(`unknown target ${target} (see npm/platforms.json), or no binary given`);
    process.exit(2);
  }
  const dir = path.join(stage, p.package);
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  const dest = path.join(dir, "bin", p.binary);
  fs.copyFileSync(path.resolve(binary), dest);
  fs.chmodSync(dest, 0o755);
  if (p.os !== "win32" && p.os === process.platform) {
    // Line tables and symbols out (the cargo profile keeps line tables for profiling).
    try {
      execFileSync("strip", [dest]);
    } catch (e) {
      console.error(`strip not available; packing ${dest} unstripped`);
    }
  }
  const manifest = {
    name: p.package,
    version,
    description: `The repochart binary for ${target}; installed by the repochart package.`,
    license: "MIT OR Apache-2.0",
    os: [p.os],
    cpu: [p.cpu],
    files: [`bin/${p.binary}`],
  };
  if (p.libc) manifest.libc = [p.libc];
  if (repository) manifest.repository = repository;
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  optional[p.package] = version;
  tarballs.push(pack(dir));
}

const launcher = path.join(stage, "repochart");
fs.mkdirSync(path.join(launcher, "bin"), { recursive: true });
fs.copyFileSync(path.join(__dirname, "repochart", "bin", "repochart.js"), path.join(launcher, "bin", "repochart.js"));
fs.chmodSync(path.join(launcher, "bin", "repochart.js"), 0o755);
fs.copyFileSync(path.join(root, "README.md"), path.join(launcher, "README.md"));
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "repochart", "package.json"), "utf8"));
manifest.version = version;
manifest.optionalDependencies = optional;
if (repository) manifest.repository = repository;
fs.writeFileSync(path.join(launcher, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
tarballs.unshift(pack(launcher));
fs.rmSync(stage, { recursive: true, force: true });
console.log(tarballs.join("\n"));
