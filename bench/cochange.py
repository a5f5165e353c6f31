#!/usr/bin/env python3
"""Co-change recall of `change_impact` on a repository's real history (issue 33).

Usage: bench/cochange.py BINARY GIT_DIR [--commits N] [--depth D] [--level file] [--show K]

Clones GIT_DIR (sharing its objects) at HEAD into a temporary directory and indexes it with
BINARY. Then, for the newest N non-merge commits (default 300) that changed 2 to 8 source
files (.java, .rs), seeds `change_impact level=file` with each changed non-test file that
still exists at HEAD, and counts how many of the commit's other changed files (those that
still exist) the impact lists. Prints recall (hits / other files) with the mean impact size
in files, so that an answer of "everything" cannot win, and the share of listed files that
did change with the seed.

One `serve` process answers every question over MCP stdio (JSON-RPC, one message a line);
pages are followed with `offset` until the answer has no "next page".
"""
import argparse, json, os, re, statistics, subprocess, sys, tempfile

SOURCE = (".java", ".rs")


def is_test(path):
    p = path.lower()
    name = p.rsplit("/", 1)[-1]
    return ("/test/" in p or "/tests/" in p or p.startswith("tests/") or p.startswith("test/")
            or name.endswith("test.java") or name.endswith("tests.java") or name.endswith("it.java"))


class Server:
    def __init__(self, binary, repo):
        self.p = subprocess.Popen([binary, "serve", "--repo", repo], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "cochange", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            msg = json.loads(self.p.stdout.readline())
            if msg.get("id") == self.next_id:
                return msg

    def call(self, tool, args):
        r = self.request("tools/call", {"name": tool, "arguments": args})["result"]
        text = "".join(c.get("text", "") for c in r.get("content", []))
        return text, r.get("isError", False)


def impact_files(server, seed, depth, level):
    """The files `change_impact` lists for a seed file, over every page."""
    files, offset = set(), 0
    while True:
        text, err = server.call("change_impact", {"target": seed, "level": level, "depth": depth, "limit": 200, "offset": offset})
        if err:
            return None
        folder = ""
        for line in text.splitlines():
            if re.match(r"^  \S.*/$", line):
                folder = line.strip()
            elif line.startswith("    ") and not line.startswith("     "):
                files.add(folder + line.split()[0])
        m = re.search(r"next page: offset=(\d+)", text)
        if not m:
            return files
        offset = int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("git_dir")
    ap.add_argument("--commits", type=int, default=300)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--level", default="file")
    ap.add_argument("--show", type=int, default=0, help="print the first K seeds' misses")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="cochange-")
    repo = os.path.join(work, "repo")
    subprocess.run(["git", "clone", "-q", "--shared", a.git_dir, repo], check=True)
    subprocess.run([a.binary, "index", "--repo", repo], check=True, capture_output=True)
    log = subprocess.run(["git", "-C", repo, "log", "--no-merges", "--format=@%H", "--name-only", "-n", "20000"],
                         check=True, capture_output=True, text=True).stdout
    commits = []
    for block in log.split("@")[1:]:
        lines = [l for l in block.splitlines() if l.strip()]
        sha, changed = lines[0], [l for l in lines[1:] if l.endswith(SOURCE)]
        if 2 <= len(changed) <= 8:
            commits.append((sha, changed))
        if len(commits) == a.commits:
            break
    server = Server(a.binary, repo)
    hits = others = seeds = 0
    sizes, shown = [], 0
    for sha, changed in commits:
        alive = [c for c in changed if os.path.exists(os.path.join(repo, c))]
        for seed in (c for c in alive if not is_test(c)):
            rest = set(alive) - {seed}
            if not rest:
                continue
            found = impact_files(server, seed, a.depth, a.level)
            if found is None:
                continue
            seeds += 1
            sizes.append(len(found))
            hits += len(rest & found)
            others += len(rest)
            if shown < a.show and rest - found:
                shown += 1
                print(f"{sha[:10]} {seed}: missed {sorted(rest - found)}", file=sys.stderr)
    recall = hits / others if others else 0.0
    listed = sum(sizes)
    print(f"commits {len(commits)}  seeds {seeds}  co-changed files {others}  found {hits}  "
          f"recall {recall:.3f}  impact size mean {statistics.mean(sizes) if sizes else 0:.1f} "
          f"median {statistics.median(sizes) if sizes else 0}  co-changed among listed {hits / listed if listed else 0:.3f}")


if __name__ == "__main__":
    main()
