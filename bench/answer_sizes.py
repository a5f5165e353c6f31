#!/usr/bin/env python3
"""Answer sizes of a fixed set of questions, for issue 20's before/after table.

Usage: bench/answer_sizes.py BINARY JDK_JAVA_BASE [--show]
Copies testdata/java-shop and testdata/rust-shop to a temporary directory, indexes them
and JAVA_BASE with BINARY (`repochart index`), runs each question with `repochart query
--json` and prints `| question | bytes |` rows, the median and the largest answer, and the
size of the tools/list answer (`repochart tools` as compact JSON). `--show` prints each answer too.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile

def main():
    binary, jdk = sys.argv[1], sys.argv[2]
    show = "--show" in sys.argv
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tmp = tempfile.mkdtemp(prefix="sizes-")
    repos = {"jdk": jdk}
    for name in ["java-shop", "rust-shop"]:
        repos[name] = os.path.join(tmp, name)
        shutil.copytree(os.path.join(here, "testdata", name), repos[name])
    for repo in repos.values():
        subprocess.run([binary, "index", "--repo", repo], check=True, capture_output=True)
    questions = [
        ("jdk", "repo_overview", {}),
        ("jdk", "dependency_graph", {"target": "java.util.ArrayList"}),
        ("jdk", "dependency_graph", {"target": "java/util/ArrayList.java", "level": "file"}),
        ("jdk", "change_impact", {"target": "java.util.AbstractCollection"}),
        ("jdk", "dependency_path", {"from": "java.util.ArrayList", "to": "java.util.Arrays"}),
        ("jdk", "search_symbols", {"query": "ArrayList"}),
        ("jdk", "get_symbol", {"symbol": "java.util.ArrayList#remove"}),
        ("jdk", "find_references", {"symbol": "java.util.ArrayList#remove"}),
        ("jdk", "find_implementations", {"symbol": "java.util.Collection"}),
        ("jdk", "file_outline", {"path": "java/util/ArrayList.java"}),
        ("jdk", "find_references", {"symbol": "java.util.Objects#requireNonNull"}),
        ("jdk", "search_symbols", {"query": "x" * 10000}),
        ("java-shop", "dependency_graph", {"target": "com.acme.order.OrderService"}),
        ("java-shop", "change_impact", {"target": "com.acme.pay.PaymentGateway"}),
        ("java-shop", "find_references", {"symbol": "com.acme.common.Money"}),
        ("java-shop", "repo_overview", {}),
        ("rust-shop", "file_outline", {"path": "crates/shop-core/src/order.rs"}),
        ("rust-shop", "dependency_graph", {"target": "crates/shop-core/src/order.rs", "level": "file"}),
    ]
    sizes = []
    print("| repo | tool | arguments | bytes |\n|---|---|---|---|")
    for repo, tool, args in questions:
        r = subprocess.run([binary, "query", "--repo", repos[repo], "--json", json.dumps(args), tool], capture_output=True)
        text = r.stdout + r.stderr
        sizes.append(len(r.stdout) if r.returncode == 0 else len(text))
        shown = json.dumps(args) if len(json.dumps(args)) < 80 else json.dumps(args)[:60] + "…"
        print(f"| {repo} | {tool} | `{shown}` | {sizes[-1]:,}{'' if r.returncode == 0 else ' (error)'} |")
        if show:
            print(text.decode(errors="replace"))
    tools = json.loads(subprocess.run([binary, "tools"], capture_output=True, check=True).stdout)
    listed = len(json.dumps(tools, separators=(",", ":")))
    print(f"\nmedian {statistics.median(sizes):,.0f} bytes, largest {max(sizes):,}; tools/list (compact JSON): {listed:,} bytes")
    shutil.rmtree(tmp)

main()
