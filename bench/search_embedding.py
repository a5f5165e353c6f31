#!/usr/bin/env python3
"""A static-embedding model beside the sentence search, on the labelled tasks (issue 51, item 4).

Usage: bench/search_embedding.py BINARY TASKS.json REPO [TASKS.json REPO ...]

Needs `pip install wordllama==0.4.0.post1` (MIT; its wheel carries the 256-dimension
`l2_supercat` weights, 16 MB, and their tokenizer: nothing is fetched from a model hub).

For each repository: indexes it with BINARY, embeds every declaration of the index (the
words of its owner's and its own name, then its doc comment's first sentence), and for each
task reads `search_symbols`' first 50 rows. It reports P@10, R@10, MRR and NDCG@10
(`search_tasks.py`'s measure) of:
- the rows as they are (alpha 0);
- the rows re-ranked by reciprocal-rank fusion of their place and their cosine similarity's
  place among them, the similarity weighing `alpha` (k = 10 or 30);
- the same with the `pool` declarations nearest the task (tests, fields, constants and
  variants left out) joining the rows;
- the model alone: the ten declarations nearest the task.
"""
import json, os, re, sqlite3, subprocess, sys
from pathlib import Path

import numpy as np
import wordllama
from wordllama import WordLlama

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_tasks import rows, score  # noqa: E402


def words(s):
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", s)
    return re.sub(r"[^A-Za-z0-9]+", " ", s).lower().strip()


def declarations(repo):
    """(qualified names, (kind, path) of each, the text embedded for each)."""
    db = sqlite3.connect(os.path.join(repo, ".repochart", "index.db"))
    seen = {}
    for q, name, kind, doc, path, owner in db.execute(
            "SELECT s.qname, s.name, s.kind, s.doc, f.path, coalesce(p.name, '') FROM symbols s "
            "JOIN files f ON f.id = s.file_id LEFT JOIN symbols p ON p.id = s.parent_id"):
        q = re.sub(r"\(.*", "", q)
        if q not in seen:
            first = re.split(r"(?<=[.!?])\s", doc.strip(), maxsplit=1)[0] if doc else ""
            seen[q] = (kind, path, f"{words(owner)} {words(name)}. {first}".strip())
    names = list(seen)
    return names, [seen[q][:2] for q in names], [seen[q][2] for q in names]


def main():
    binary, pairs = sys.argv[1], list(zip(sys.argv[2::2], sys.argv[3::2]))
    # The wheel keeps the tokenizer under `tokenizers/`, where `cache_dir` looks.
    model = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
    data = []
    for tasks_file, repo in pairs:
        spec = json.load(open(tasks_file))
        subprocess.run([binary, "index", "--repo", repo], check=True, capture_output=True)
        names, meta, texts = declarations(repo)
        vecs = model.embed(texts, norm=True)
        for t in spec["tasks"]:
            sims = vecs @ model.embed([t["task"]], norm=True)[0]
            data.append((names, meta, sims, rows(binary, repo, t["task"], 50), set(t["labels"])))

    def report(label, lists):
        s = [score(found, labels, 10) for found, labels in lists]
        m = {k: sum(x[k] for x in s) / len(s) for k in ("p", "r", "mrr", "ndcg")}
        print(f"{label}: P@10 {m['p']:.4f} R@10 {m['r']:.4f} MRR {m['mrr']:.4f} NDCG@10 {m['ndcg']:.4f}")

    def fused(alpha, pool, k):
        out = []
        for names, meta, sims, found, labels in data:
            at = {q: i for i, q in enumerate(names)}
            lexical = {}
            for r, q in enumerate(q for q in found if q in at):
                lexical.setdefault(q, 1.0 / (k + r + 1))
            taken = 0
            for i in np.argsort(-sims):
                if taken >= pool:
                    break
                kind, path = meta[i]
                if "test" in path or kind in ("field", "constant", "variant", "enum_constant"):
                    continue
                lexical.setdefault(names[i], 0.0)
                taken += 1
            by_model = {q: r for r, q in enumerate(sorted(lexical, key=lambda q: -sims[at[q]]))}
            order = sorted(lexical, key=lambda q: -(lexical[q] + alpha / (k + by_model[q] + 1)))
            out.append((order, labels))
        return out

    for alpha, pool, k in [(0, 0, 10), (0.3, 0, 10), (0.5, 0, 10), (1.0, 0, 10), (0.5, 20, 10), (1.0, 20, 10),
                           (0.5, 0, 30), (1.0, 0, 30)]:
        report(f"alpha {alpha}, pool {pool}, k {k}", fused(alpha, pool, k))
    alone = []
    for names, meta, sims, found, labels in data:
        best = [names[i] for i in np.argsort(-sims)
                if "test" not in meta[i][1] and meta[i][0] not in ("field", "constant", "variant", "enum_constant",
                                                                   "local", "module", "package")][:10]
        alone.append((best, labels))
    report("the model alone", alone)


if __name__ == "__main__":
    main()
