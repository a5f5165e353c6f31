#!/usr/bin/env python3
"""Churn: how long `repochart index` takes to settle after many files change at once
(issue 52, item 3).

Usage: python3 bench/churn.py <repochart binary> <source tree> [files] [rounds]

Copies the tree to a temporary directory, builds its index and prepares it as a server
does (a first save builds the indexes updates read), then per round adds a method to
`files` Java files spread over the tree (every k-th), times `repochart index` (the update
path a save batch takes, plus the process start), restores the files and times the index
again. Prints each run with its phase log (`REPOCHART_LOG=repochart=debug`), then the
medians.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def index(binary, root):
    env = dict(os.environ, REPOCHART_LOG="repochart=debug")
    t0 = time.time()
    r = subprocess.run([binary, "index", "--repo", root], capture_output=True, text=True, env=env, check=True)
    wall = time.time() - t0
    phases = [l.split("DEBUG ", 1)[1] for l in r.stderr.splitlines() if "phase:" in l]
    return wall, r.stdout.strip(), phases


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, source = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 400
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    tmp = tempfile.mkdtemp(prefix="churn-")
    root = os.path.join(tmp, "tree")
    shutil.copytree(source, root, ignore=shutil.ignore_patterns(".repochart"))
    index(binary, root)
    java = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".java"))
    step = max(1, len(java) // count)
    chosen = java[::step][:count]
    # A first update builds the indexes a first build leaves for later, as a server does
    # right after its first build: touch one file so that it is not in the measure.
    with open(chosen[0], "a") as f:
        f.write("\n")
    index(binary, root)
    changed, restored = [], []
    for n in range(rounds):
        texts = {}
        for path in chosen:
            text = open(path).read()
            texts[path] = text
            end = text.rfind("}")
            open(path, "w").write(f"{text[:end]}    public void churn{n}() {{}}\n{text[end:]}")
        wall, summary, phases = index(binary, root)
        changed.append(wall)
        print(f"round {n + 1}, {len(chosen)} files changed: {wall:.2f} s  {summary}")
        for p in phases:
            print(f"    {p}")
        for path, text in texts.items():
            open(path, "w").write(text)
        wall, summary, _ = index(binary, root)
        restored.append(wall)
        print(f"round {n + 1}, restored: {wall:.2f} s  {summary}")
    print(f"\nmedian: {len(chosen)} files changed {statistics.median(changed):.2f} s, restored {statistics.median(restored):.2f} s")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
