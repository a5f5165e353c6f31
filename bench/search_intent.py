#!/usr/bin/env python3
"""Search by intent, measured on real history (issue 35).

For the most recent non-merge commits of a repository, the commit subject is the query and
the declarations the commit changed are the truth: the innermost methods, functions and
types overlapping its changed lines, as `change_impact git:HEAD~1` lists them at that
commit. Each commit is checked out in a scratch clone and indexed incrementally, then
`search_symbols` answers the subject; the top `--limit` rows are scored against the truth.

    python3 bench/search_intent.py BINARY CLONE [--commits 200] [--skip 0] [--limit 10] [--show 5]

`--skip N` leaves out the N newest commits first: `--skip 200` scores the 200 before the
ones the weights were chosen on, a set nothing was tuned on.

With `--parent`, the search runs on the index of the commit's parent, as a developer starting
the task would have it, and the truth is the changed declarations that exist there (the
ones the commit adds cannot be found before it is written, and a test named after the
subject would be a leak). Without it, the search runs on the commit itself, whose own
subject is then in the git history the search reads (with what it changed): that mode
leaks the answer and is no measure since the search reads past commits.

Reports P@k (hits / k), R@k (truth found / truth) and MRR (1 / rank of the first hit), each
the mean over the commits that changed at least one declaration; a hit is a row naming a
changed declaration (overloads by name: the subject names no parameter types), each once
(a field and a method of one name are two rows of one qualified name). Commits
whose changes touch no declaration (docs, build files) are counted apart.
"""

import argparse
import sqlite3
import os
import re
import shutil
import subprocess
import sys
import tempfile

KINDS = {
    "class", "interface", "enum", "record", "annotation", "method", "constructor", "field", "function",
    "struct", "trait", "impl", "module", "macro", "const", "static", "variant", "type", "type_alias",
    "union", "endpoint", "constant", "associated_type",
}
ROW = re.compile(r"^\s*([a-z_]+) (\S+)")


def run(args, cwd=None):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True)


def plain(handle):
    """A handle without its parameter list: `a.B#m(int)` -> `a.B#m`."""
    return handle.split("(", 1)[0]


def changed_declarations(binary, work):
    out = run([binary, "query", "change_impact", "target=git:HEAD~1", "limit=1", "--repo", work]).stdout
    truth = set()
    for line in out.splitlines():
        m = re.match(r"^  [MA] ([a-z_]+) (\S+)  ", line)
        if m and m.group(1) in KINDS:
            truth.add(plain(m.group(2)))
    return truth


def declared(work):
    """Every declaration's handle in the index of `work` (read straight from the symbol table)."""
    db = sqlite3.connect(os.path.join(work, ".repochart", "index.db"))
    try:
        return {plain(q) for (q,) in db.execute("SELECT qname FROM symbols")}
    finally:
        db.close()


def search(binary, work, query, limit):
    out = run([binary, "query", "search_symbols", f"query={query}", f"limit={limit}", "--repo", work]).stdout
    rows = []
    for line in out.splitlines():
        m = ROW.match(line)
        if m and m.group(1) in KINDS:
            rows.append(plain(m.group(2)))
    return rows[:limit]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("clone")
    ap.add_argument("--commits", type=int, default=200)
    ap.add_argument("--skip", type=int, default=0, help="leave out this many of the newest commits first")
    ap.add_argument("--limit", type=int, default=10)
    ap.add_argument("--parent", action="store_true", help="search the parent's index (see the header)")
    ap.add_argument("--show", type=int, default=0, help="print this many commits with their rows")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    work = tempfile.mkdtemp(prefix="search-intent-")
    try:
        run(["git", "clone", "-q", os.path.abspath(a.clone), work])
        log = run(["git", "log", "--no-merges", "--format=%H%x09%s", "-n", str(a.commits), f"--skip={a.skip}"], cwd=work).stdout
        commits = [l.split("\t", 1) for l in log.splitlines() if "\t" in l]
        scored, skipped = [], 0
        shown = 0
        for sha, subject in commits:
            if run(["git", "checkout", "-q", "--force", sha], cwd=work).returncode != 0:
                skipped += 1
                continue
            if run(["git", "rev-parse", "-q", "--verify", "HEAD~1"], cwd=work).returncode != 0:
                skipped += 1
                continue
            run([binary, "index", "--repo", work])
            truth = changed_declarations(binary, work)
            if a.parent and truth:
                run(["git", "checkout", "-q", "--force", "HEAD~1"], cwd=work)
                run([binary, "index", "--repo", work])
                truth &= declared(work)
            if not truth:
                skipped += 1
                continue
            rows = search(binary, work, subject, a.limit)
            first = next((i + 1 for i, r in enumerate(rows) if r in truth), None)
            found = {r for r in rows if r in truth}
            scored.append((len(found) / a.limit, len(found) / len(truth), 1.0 / first if first else 0.0,
                           min(len(truth), a.limit) / a.limit))
            if shown < a.show:
                shown += 1
                print(f"--- {sha[:8]} {subject}")
                print(f"    truth ({len(truth)}): {', '.join(sorted(truth)[:8])}{' ...' if len(truth) > 8 else ''}")
                for i, r in enumerate(rows):
                    print(f"    {i + 1:2} {'*' if r in truth else ' '} {r}")
        n = len(scored)
        if not n:
            print("no commit changed a declaration")
            return 1
        p = sum(s[0] for s in scored) / n
        r = sum(s[1] for s in scored) / n
        mrr = sum(s[2] for s in scored) / n
        name = os.path.basename(os.path.abspath(a.clone).rstrip("/"))
        print(f"{name}: {n} commits scored ({skipped} skipped: no declaration changed, or a root commit)")
        print(f"P@{a.limit} {p:.4f}  R@{a.limit} {r:.4f}  MRR {mrr:.4f}")
        # A commit that changed 3 declarations scores at most P@10 0.3: the best any ranking can do.
        ceiling = sum(s[3] for s in scored) / n
        print(f"ceiling P@{a.limit} {ceiling:.4f} (every changed declaration in the top {a.limit})")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
