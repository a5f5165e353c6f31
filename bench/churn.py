#!/usr/bin/env python3
"""Churn: how long `repochart index` takes to settle after many files change at once
(issue 52, item 3).

Usage: python3 bench/churn.py <repochart binary> <source tree> [files] [rounds] [--serve] [--top]

Copies the tree to a temporary directory, builds its index and prepares it as a server
does (a first save builds the indexes updates read), then per round adds a method to
`files` Java files spread over the tree (every k-th), times `repochart index` (the update
path a save batch takes, plus the process start), restores the files and times the index
again. Prints each run with its phase log (`REPOCHART_LOG=repochart=debug`), then the
medians.

With `--serve`, the same edits are made under a running `repochart serve` (watch mode,
started once and left to finish its start-up: `graphs ready`), and each round is timed
from the last file written until a separate read connection finds all the new methods
(restored: until it finds none): what a user of the server waits for, the watcher's
debounce included. The server's phase log of each batch is printed.

The method goes before each file's last closing brace; with `--top`, at the start of its
first class, interface or record body and with a call in it, so that every reference of the
file after it moves a place.
"""
import os
import re
import shutil
import sqlite3
import threading
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


class Server:
    """`repochart serve` on a tree, its log collected as it comes."""

    def __init__(self, binary, root):
        env = dict(os.environ, REPOCHART_LOG="repochart=debug")
        self.proc = subprocess.Popen(
            [binary, "serve", "--repo", root], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
        )
        self.lines = []
        self.ready = threading.Event()
        threading.Thread(target=self.read, daemon=True).start()
        if not self.ready.wait(600):
            sys.exit("the server did not log `graphs ready` within 600 s")
        time.sleep(3)  # the resolver's world is loaded after `graphs ready`; then the tidy

    def read(self):
        for line in self.proc.stderr:
            self.lines.append(line)
            if "graphs ready" in line:
                self.ready.set()

    def phases_since(self, start):
        return [l.split("DEBUG ", 1)[1].strip() for l in self.lines[start:] if "phase:" in l]

    def stop(self):
        self.proc.stdin.close()
        self.proc.wait(30)


def settle(db, name, want):
    """Seconds until `want` symbols called `name` are in the index, polled every 2 ms."""
    t0 = time.time()
    while True:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        n = conn.execute("SELECT COUNT(*) FROM symbols WHERE name = ?", (name,)).fetchone()[0]
        conn.close()
        if n == want:
            return time.time() - t0
        if time.time() - t0 > 120:
            sys.exit(f"{name}: {n} symbols after 120 s, expected {want}")
        time.sleep(0.002)


# The opening brace of a file's first class, interface or record body: not one in a doc
# comment (`{@code ..}`), an annotation's arguments or an enum's constants, where a method
# would be comment text or would break the file's parse.
BODY = re.compile(
    r"^[ \t]*(?:(?:public|protected|private|abstract|final|sealed|non-sealed|static|strictfp)\s+)*(?:class|interface|record)\s+\w+[^{;]*\{",
    re.M,
)


def add_method(text, name, top):
    """The text with `public void NAME() {}` added before its last closing brace, or with
    `--top` `public void NAME() { hashCode(); }` at the start of its first class body (a
    call, so that every reference after it moves a place; a file with no such body, an enum
    or a package-info, takes the first form)."""
    body = BODY.search(text) if top else None
    if body:
        at = body.end()
        return f"{text[:at]}\n    public void {name}() {{ hashCode(); }}{text[at:]}"
    end = text.rfind("}")
    return f"{text[:end]}    public void {name}() {{}}\n{text[end:]}"


def main():
    serve = "--serve" in sys.argv
    top = "--top" in sys.argv
    args = [a for a in sys.argv if a not in ("--serve", "--top")]
    if len(args) < 3:
        sys.exit(__doc__)
    binary, source = args[1], args[2]
    count = int(args[3]) if len(args) > 3 else 400
    rounds = int(args[4]) if len(args) > 4 else 3
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
    if serve:
        db = os.path.join(root, ".repochart", "index.db")
        # How many of the added methods the index holds (an edit that breaks a file's parse
        # adds none): learnt once through `repochart index`.
        texts = {path: open(path).read() for path in chosen}
        for path, text in texts.items():
            open(path, "w").write(add_method(text, "churnprobe", top))
        index(binary, root)
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        want = conn.execute("SELECT COUNT(*) FROM symbols WHERE name = 'churnprobe'").fetchone()[0]
        conn.close()
        for path, text in texts.items():
            open(path, "w").write(text)
        index(binary, root)
        server = Server(binary, root)
        for n in range(rounds):
            texts = {}
            for path in chosen:
                texts[path] = open(path).read()
            start = len(server.lines)
            for path, text in texts.items():
                open(path, "w").write(add_method(text, f"churn{n}", top))
            changed.append(settle(db, f"churn{n}", want))
            print(f"round {n + 1}, {len(chosen)} files changed: {changed[-1]:.2f} s until found")
            time.sleep(1)
            for p in server.phases_since(start):
                print(f"    {p}")
            for path, text in texts.items():
                open(path, "w").write(text)
            restored.append(settle(db, f"churn{n}", 0))
            print(f"round {n + 1}, restored: {restored[-1]:.2f} s until gone")
            time.sleep(3)  # past the tidy that follows a batch
        server.stop()
        print(f"\nmedian (serve): {len(chosen)} files changed {statistics.median(changed):.2f} s, restored {statistics.median(restored):.2f} s")
        shutil.rmtree(tmp)
        return
    for n in range(rounds):
        texts = {}
        for path in chosen:
            text = open(path).read()
            texts[path] = text
            open(path, "w").write(add_method(text, f"churn{n}", top))
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
