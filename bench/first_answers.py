#!/usr/bin/env python3
"""The first answers of a `serve` session once start-up has finished (issue 52, item 4).

Starts `repochart serve` on a repository over stdio, waits for the server's `graphs ready`
log line (what calls derive from the whole index is built: the symbol graph, the name list,
change impact's member index), then times each call given, in order, each the first of its
kind in the session, and prints the server's RSS before and after.

Usage: python3 bench/first_answers.py <repochart binary> <repository> [tool json-args]...
Example (the whole JDK, `lib/src.zip` unpacked):
  python3 bench/first_answers.py target/release/repochart /tmp/jdk \
    change_impact '{"target":"java.lang.String#length()"}' \
    dependency_graph '{"target":"java.util.HashMap"}'
"""
import json
import subprocess
import sys
import threading
import time


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


def main():
    if len(sys.argv) < 3 or len(sys.argv) % 2 == 0:
        sys.exit(__doc__)
    binary, repo = sys.argv[1], sys.argv[2]
    calls = [(sys.argv[i], json.loads(sys.argv[i + 1])) for i in range(3, len(sys.argv), 2)]
    server = subprocess.Popen(
        [binary, "serve", "--repo", repo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    started = time.time()
    ready = threading.Event()
    ready_at = []

    def read_log():
        for line in server.stderr:
            if "graphs ready" in line and not ready.is_set():
                ready_at.append(time.time() - started)
                ready.set()

    threading.Thread(target=read_log, daemon=True).start()
    next_id = [0]

    def request(method, params):
        next_id[0] += 1
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params}) + "\n")
        server.stdin.flush()
        while True:
            message = json.loads(server.stdout.readline())
            if message.get("id") == next_id[0]:
                return message

    request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}})
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    server.stdin.flush()
    if not ready.wait(timeout=600):
        sys.exit("no `graphs ready` within 600 s")
    print(f"start-up finished after {ready_at[0]:.2f} s; RSS {rss_mb(server.pid):.0f} MB")
    for name, args in calls:
        t0 = time.time()
        answer = request("tools/call", {"name": name, "arguments": args})
        ms = (time.time() - t0) * 1000
        result = answer.get("result", {})
        text = result.get("content", [{}])[0].get("text", "")
        error = " (error)" if result.get("isError") else ""
        print(f"{name} {json.dumps(args)}: {ms:.0f} ms, {len(text)} bytes{error}")
    print(f"RSS after the calls {rss_mb(server.pid):.0f} MB")
    server.stdin.close()
    server.wait(timeout=60)


if __name__ == "__main__":
    main()
