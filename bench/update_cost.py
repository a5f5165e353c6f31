#!/usr/bin/env python3
"""Instructions of one update: many files of a tree changed at once, `repochart index` run
under callgrind (issue 52, item 3). Counted, not timed, so two builds compare on a machine
whose speed moves by half within minutes.

Usage: python3 bench/update_cost.py <repochart binary> <source tree> [files] [--top]

Copies the tree, builds its index with the binary and brings it up to date once (the indexes
updates read), adds a method to `files` Java files spread over the tree (every k-th), as
`bench/churn.py` does (`--top`: at the start of the first class body, so that every
reference after it moves), then runs `repochart index` on it under
`valgrind --tool=callgrind` and prints the instructions of the whole run and of its parts
(inclusive). `load_world` is the command line's own: a server keeps the resolver loaded.
Needs valgrind (`callgrind_annotate` comes with it). A binary built from other sources
rebuilds an index it did not make, so each binary prepares its own copy.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from churn import add_method  # noqa: E402

PARTS = [
    ("parse and extract", "repochart::index::read_and_extract"),
    # Tree-sitter's own entry point: C, so never inlined into our code (the Rust wrapper
    # `extract::parse` is, in some builds).
    ("  tree-sitter's parse", "ts_parser_parse"),
    ("  the matcher's walk", "repochart::lang::matcher::Matcher::run_marking"),
    ("parsed files stored (writer)", "repochart::index::run::Run::parse_and_store"),
    # Before `8f1a69e`, `repochart::store::old_refs`.
    ("  old references read", ("repochart::store::ref_rows::old_refs", "repochart::store::old_refs")),
    ("  symbols stored", "repochart::index::run::Run::store_file"),
    ("old versions cleared", "repochart::index::run::Run::clear_old_versions"),
    ("resolved and written", "repochart::index::run::Run::resolve_passes"),
    ("  references written", "repochart::store::Writer::write_file_refs"),
    ("resolver loaded (command line only)", "repochart::resolve::load::load_world"),
]


def main():
    top = "--top" in sys.argv
    args = [a for a in sys.argv if a != "--top"]
    if len(args) < 3:
        sys.exit(__doc__)
    binary, source = os.path.abspath(args[1]), args[2]
    count = int(args[3]) if len(args) > 3 else 400
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        sys.exit("needs valgrind and callgrind_annotate")
    tmp = tempfile.mkdtemp(prefix="update-cost-")
    try:
        root = os.path.join(tmp, "tree")
        shutil.copytree(source, root, ignore=shutil.ignore_patterns(".repochart"))
        index = lambda: subprocess.run([binary, "index", "--repo", root], check=True, capture_output=True)
        index()
        java = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".java"))
        chosen = java[:: max(1, len(java) // count)][:count]
        with open(chosen[0], "a") as f:
            f.write("\n")
        index()
        for path in chosen:
            text = open(path).read()
            open(path, "w").write(add_method(text, "churn0", top))
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "index", "--repo", root],
            capture_output=True, text=True, check=True, env=dict(os.environ, REPOCHART_LOG="repochart=debug"),
        )
        summary = next((l for l in run.stdout.splitlines() if l.startswith("indexed")), "")
        for line in run.stderr.splitlines():
            if "phase:" in line:
                print("   ", line.split("DEBUG ", 1)[-1])
        total = re.search(r"Collected : (\d+)", run.stderr)
        annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], capture_output=True, text=True).stdout
        # A function's lines: its whole (the largest) and the parts inlined from other files.
        inclusive = {}
        for line in annotated.splitlines():
            m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+\S*?\.(?:rs|c|h):(\S+)", line)
            if m:
                value = int(m.group(1).replace(",", ""))
                inclusive[m.group(2)] = max(value, inclusive.get(m.group(2), 0))
        print(f"{len(chosen)} files changed{' (--top)' if top else ''}: {summary}")
        print(f"{'all':40} {int(total.group(1)) / 1e9:7.3f} G" if total else "all: not found")
        for label, names in PARTS:
            names = (names,) if isinstance(names, str) else names
            value = next((inclusive[n] for n in names if n in inclusive), None)
            print(f"{label:40} {value / 1e9:7.3f} G" if value is not None else f"{label:40}       -")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
