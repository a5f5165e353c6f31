#!/usr/bin/env python3
"""The first answers of a `serve` session once start-up has finished (issue 52, item 4).

Starts `repochart serve` on a repository over stdio, waits for the server's `graphs ready`
log line (what calls derive from the whole index is built: the symbol graph, the name list,
change impact's member index), then times each call given, in order, each the first of its
kind in the session, and prints the server's RSS before and after.

With `--after-save FILE` (a Java file of the repository), the calls are then made again, each
right after a save: FILE is given a method (restored at the end), and each call is sent as
soon as the server logs `index updated` for it, so it waits for whatever the server is
rebuilding after that save (issue 52, item 4: graphs ready after each index generation).

Usage: python3 bench/first_answers.py <repochart binary> <repository> [--after-save FILE] [tool json-args]...
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
    args = sys.argv[1:]
    saved = None
    if "--after-save" in args:
        i = args.index("--after-save")
        saved = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2 or len(args) % 2 == 1:
        sys.exit(__doc__)
    binary, repo = args[0], args[1]
    calls = [(args[i], json.loads(args[i + 1])) for i in range(2, len(args), 2)]
    server = subprocess.Popen(
        [binary, "serve", "--repo", repo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    started = time.time()
    ready = threading.Event()
    ready_at = []
    updated = threading.Semaphore(0)

    def read_log():
        for line in server.stderr:
            if "graphs ready" in line and not ready.is_set():
                ready_at.append(time.time() - started)
                ready.set()
            if "index updated" in line and ready.is_set():
                updated.release()

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
    def timed(name, args, how):
        t0 = time.time()
        answer = request("tools/call", {"name": name, "arguments": args})
        ms = (time.time() - t0) * 1000
        result = answer.get("result", {})
        text = result.get("content", [{}])[0].get("text", "")
        error = " (error)" if result.get("isError") else ""
        print(f"{name} {json.dumps(args)}{how}: {ms:.0f} ms, {len(text)} bytes{error}")

    for name, call_args in calls:
        timed(name, call_args, "")
    print(f"RSS after the calls {rss_mb(server.pid):.0f} MB")
    if saved:
        original = open(saved).read()
        try:
            for n, (name, call_args) in enumerate(calls):
                end = original.rfind("}")
                open(saved, "w").write(f"{original[:end]}    public void savedForBench{n}() {{}}\n{original[end:]}")
                if not updated.acquire(timeout=60):
                    sys.exit("no `index updated` within 60 s of a save")
                timed(name, call_args, " right after a save")
                time.sleep(3)
        finally:
            open(saved, "w").write(original)
        print(f"RSS after the saves {rss_mb(server.pid):.0f} MB")
    server.stdin.close()
    server.wait(timeout=60)


if __name__ == "__main__":
    main()
