#!/usr/bin/env python3
"""Graphs ready after a save: how long a running server takes to bring what calls derive
from the whole index (graphs, change impact's index, the name list, the users, the test
symbols, the MyBatis statements, the lengths) up to date after an index batch (issue 52,
item 4), and its memory after.

Usage: python3 bench/graphs_ready.py <repochart binary> <source tree> [rounds]

Runs `repochart serve` on the tree in place (its index is built or brought up to date first;
a tree with a `java.base/` folder, the whole JDK's `lib/src.zip` unpacked, is edited there),
waits for its start-up to finish, then per round adds a method to one Java file, to 400
(every 8th), and to one other file, each left 5 s and then restored. For each batch it
prints the server's `index updated` and `graphs ready` times and each refreshed part's time
(`REPOCHART_LOG=repochart=debug`), and at the end the server's resident memory and its
peak (`VmRSS`, `VmHWM`). Nothing is timed by this script itself: the figures are the
server's own log lines.
"""
import glob
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import churn  # noqa: E402  (the server wrapper and the edit)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, root = sys.argv[1], os.path.abspath(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    sub = os.path.join(root, "java.base") if os.path.isdir(os.path.join(root, "java.base")) else root
    files = sorted(glob.glob(os.path.join(sub, "**", "*.java"), recursive=True))
    if len(files) < 3200:
        sys.exit(f"{len(files)} Java files under {sub}: the bench edits 400 of every 8th")
    server = churn.Server(binary, root)
    keep = ("index updated", "graphs ready", "refreshed ")
    try:
        for r in range(rounds):
            for label, chosen in [("1 file", files[1000 + r:1001 + r]), ("400 files", files[r::8][:400]), ("1 file", files[2000 + r:2001 + r])]:
                texts = {p: open(p).read() for p in chosen}
                start = len(server.lines)
                for p, t in texts.items():
                    open(p, "w").write(churn.add_method(t, f"ready{r}", False))
                time.sleep(5)
                print(f"--- {label} changed")
                for line in server.lines[start:]:
                    if any(k in line for k in keep):
                        print("  " + line.split("repochart::", 1)[-1].strip())
                for p, t in texts.items():
                    open(p, "w").write(t)
                time.sleep(5)
        status = dict(l.split(":", 1) for l in open(f"/proc/{server.proc.pid}/status") if l.startswith(("VmRSS", "VmHWM")))
        print(f"server RSS {int(status['VmRSS'].split()[0]) // 1024} MB, peak {int(status['VmHWM'].split()[0]) // 1024} MB")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
