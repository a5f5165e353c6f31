#!/usr/bin/env python3
"""A sentence's latency in `search_symbols` under `repochart serve` (issue 51's p95 target).

Usage: python3 bench/sentence_latency.py <repochart binary> <java.base> <answers.json>

Starts the server on the tree (indexing it first if need be), waits for `graphs ready`,
then asks 30 sentences "where is the X created and checked" (X: every 13th of the first
400 Java files' names, in path order), three times each, and prints the server's CPU time a
call (user and system, from /proc/<pid>/stat over the 90 calls) and the p50, p95 and
largest wall time of the 90 calls as the client sees them. The answers go to the JSON file,
to compare two binaries byte for byte. The server's debug log lines about sentences
(`sentence:`, `sentence pass:`, `sentence words:`, `sentence side:`, where the time went) are appended to
/tmp/sent.log.
"""
import json, os, subprocess, sys, threading, time, statistics
binary, repo, out = sys.argv[1], sys.argv[2], sys.argv[3]
java = sorted(os.path.join(d, f) for d, _, fs in os.walk(repo) for f in fs if f.endswith(".java") and f != "package-info.java" and f != "module-info.java")
names = [os.path.basename(p)[:-5] for p in java][:400:13][:30]
server = subprocess.Popen([binary, "serve", "--repo", repo], env=dict(os.environ, REPOCHART_LOG="repochart=debug"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
ready = threading.Event()
def log():
    for line in server.stderr:
        if "graphs ready" in line: ready.set()
        if "sentence" in line: open("/tmp/sent.log","a").write(line)
threading.Thread(target=log, daemon=True).start()
nid = [0]
def req(method, params):
    nid[0] += 1
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": nid[0], "method": method, "params": params}) + "\n"); server.stdin.flush()
    while True:
        m = json.loads(server.stdout.readline())
        if m.get("id") == nid[0]: return m
req("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "0"}})
server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n"); server.stdin.flush()
ready.wait(600); time.sleep(4)
def cpu():
    fields = open(f"/proc/{server.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
cpu_before = cpu()
times, answers = [], {}
for r in range(3):
    for n in names:
        q = f"where is the {n} created and checked"
        t0 = time.perf_counter()
        m = req("tools/call", {"name": "search_symbols", "arguments": {"query": q, "limit": 10}})
        times.append((time.perf_counter() - t0) * 1000)
        answers[q] = m["result"]["content"][0]["text"]
cpu_after = cpu()
server.stdin.close(); server.wait(30)
times.sort()
print(f"cpu {1000 * (cpu_after - cpu_before) / len(times):.1f} ms a call, p50 {statistics.median(times):.1f} ms p95 {times[int(0.95 * len(times)) - 1]:.1f} ms max {times[-1]:.1f} ms")
json.dump(answers, open(out, "w"), indent=1, sort_keys=True)
