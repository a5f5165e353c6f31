#!/usr/bin/env python3
"""A git branch switch under a running server (issue 52, item 3).

Usage: python3 bench/branch_switch.py <repochart binary> <git repository> <ref a> <ref b> [rounds]

Clones the repository to a temporary directory, checks out `a`, starts `repochart serve`
there (watch mode) and waits for its start-up to finish (`graphs ready`, `bench/churn.py`'s
`Server`). Each round then checks out `b`, then `a` again, and times each switch from the
end of `git checkout` until the server's last `index updated` log line (settled: no other
within 2 s). Prints each switch with the server's batches (files parsed, removed, ms),
then the median.
Example: python3 bench/branch_switch.py target/release/repochart <macrozheng/mall> v1.0.3 v1.0.2 2
"""
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from churn import Server  # noqa: E402


def logged_at(line):
    stamp = line.split()[0].rstrip("Z")
    return datetime.datetime.fromisoformat(stamp).replace(tzinfo=datetime.timezone.utc).timestamp()


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    binary, source, a, b = sys.argv[1:5]
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    tmp = tempfile.mkdtemp(prefix="switch-")
    root = os.path.join(tmp, "repo")
    subprocess.run(["git", "clone", "-q", source, root], check=True)
    subprocess.run(["git", "-C", root, "checkout", "-q", a], check=True)
    server = Server(binary, root)
    times = []
    for _ in range(rounds):
        for ref in (b, a):
            start = len(server.lines)
            subprocess.run(["git", "-C", root, "checkout", "-q", ref], check=True)
            ended = time.time()
            last, seen = None, ended
            while True:
                time.sleep(0.2)
                updates = [l for l in server.lines[start:] if "index updated" in l]
                if updates and updates[-1] != last:
                    last, seen = updates[-1], time.time()
                elif last is not None and time.time() - seen > 2:
                    break
                if time.time() - ended > 120:
                    sys.exit(f"{ref}: no index update within 120 s")
            batches = [l.split("index updated", 1)[1].strip() for l in server.lines[start:] if "index updated" in l]
            times.append(logged_at(last) - ended)
            print(f"-> {ref}: settled {times[-1]:.2f} s after the checkout ended; batches: {batches}")
    server.stop()
    shutil.rmtree(tmp)
    print(f"\nmedian: {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
