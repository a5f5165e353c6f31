#!/usr/bin/env python3
"""Search by intent on hand-labelled tasks (issue 51).

Usage: bench/search_tasks.py BINARY TASKS.json REPO [TASKS.json REPO ...] [--limit 10] [--show N]

Each TASKS.json (`bench/search-tasks/<repo>.json`) holds tasks written as an agent would
write them ("Find where a file is decided to be binary"), each labelled with the 3-8 symbols a
developer must read for it, as the index names them (a qualified name without parameters:
`grep_searcher::line_buffer::LineBufferBuilder::binary_detection`,
`com.macro.mall.security.util.JwtTokenUtil#validateToken`), checked by reading the code.
REPO is the repository the labels were written on (the commit is in the file's `commit`).

Indexes REPO with BINARY, checks that every label names a symbol of the index (a label that
does not is an error: the labels are stale), then asks `repochart query search_symbols
query=<task> limit=<limit>` and scores its rows against the labels: a row is a hit when its
qualified name (without parameters) is a label, each label once. Reports per repository and
over all tasks the means of P@k (hits / k), R@k (labels found / labels), MRR (1 / rank of
the first hit) and NDCG@k (binary relevance).
"""
import json, math, os, re, sqlite3, subprocess, sys


def rows(binary, repo, query, limit):
    """The qualified names of search_symbols' rows, in order (parameters left out)."""
    out = subprocess.run([binary, "query", "--repo", repo, "search_symbols", f"query={query}", f"limit={limit}"],
                         capture_output=True, text=True).stdout
    names = []
    for line in out.splitlines()[1:]:
        parts = line.split()
        if len(parts) < 2 or line.startswith("..."):
            continue
        names.append(re.sub(r"\(.*", "", parts[1]))
    return names[:limit]


def score(found, labels, k):
    hits, seen = [], set()
    for name in found[:k]:
        hit = name in labels and name not in seen
        seen.add(name)
        hits.append(hit)
    first = next((i for i, h in enumerate(hits) if h), None)
    dcg = sum(1 / math.log2(i + 2) for i, h in enumerate(hits) if h)
    idcg = sum(1 / math.log2(i + 2) for i in range(min(len(labels), k)))
    return {"p": sum(hits) / k, "r": sum(hits) / len(labels), "mrr": 0 if first is None else 1 / (first + 1),
            "ndcg": dcg / idcg}


def main():
    args = sys.argv[1:]
    opt = lambda flag, default: int(args[args.index(flag) + 1]) if flag in args else default
    limit, show = opt("--limit", 10), opt("--show", 0)
    for flag in ("--limit", "--show"):
        if flag in args:
            i = args.index(flag)
            del args[i:i + 2]
    binary, pairs = args[0], list(zip(args[1::2], args[2::2]))
    every, failed = [], False
    for tasks_file, repo in pairs:
        spec = json.load(open(tasks_file))
        subprocess.run([binary, "index", "--repo", repo], check=True, capture_output=True)
        db = sqlite3.connect(os.path.join(repo, ".repochart", "index.db"))
        known = {q for (q,) in db.execute("SELECT qname FROM symbols")}
        missing = [(t["task"], l) for t in spec["tasks"] for l in t["labels"] if l not in known]
        for task, label in missing:
            print(f"{spec['repo']}: label {label!r} of {task!r} names no symbol of the index", file=sys.stderr)
        failed |= bool(missing)
        scores = []
        for t in spec["tasks"]:
            found = rows(binary, repo, t["task"], limit)
            s = score(found, set(t["labels"]), limit)
            scores.append(s)
            if show and s["r"] < 1:
                show -= 1
                print(f"\n{spec['repo']}: {t['task']}\n  labels: {t['labels']}\n  rows:   {found}")
        every += scores
        report(spec["repo"], scores, limit)
    if len(pairs) > 1:
        report("all", every, limit)
    sys.exit(1 if failed else 0)


def report(name, scores, k):
    mean = lambda key: sum(s[key] for s in scores) / max(1, len(scores))
    print(f"{name}: {len(scores)} tasks; P@{k} {mean('p'):.4f} R@{k} {mean('r'):.4f} MRR {mean('mrr'):.4f} "
          f"NDCG@{k} {mean('ndcg'):.4f}")


if __name__ == "__main__":
    main()
