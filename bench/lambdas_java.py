#!/usr/bin/env python3
"""What Java lambdas and method references implement, against javac (issue 50).

Usage: bench/lambdas_java.py BINARY MODULE_ROOT PACKAGE_DIR... [--show N]
       bench/lambdas_java.py BINARY APPLICATION_ROOT [--show N]

e.g. bench/lambdas_java.py target/release/repochart /work/jb/src/java.base java/util
java/util/stream java/util/concurrent. Indexes MODULE_ROOT with BINARY, runs
bench/ImpactOracle.java on each package directory (compiled as part of the module) and
compares its `L` lines (each lambda or method reference, at its line, with the type javac
converts it to; an intersection cast gives each bound) with the index's nameless lambda
symbols of those directories and the type their `implements` edge names, per file, line and
type. A lambda the index left unresolved (passed to a method whose parameter type it does not
know) counts as missed. Without package directories, the root is an application compiled
whole without its jars (as bench/impact_app.py does), and every file counts. A line with a
lambda whose type javac could not give (a missing jar's) is left out on both sides.
"""
import collections, os, sqlite3, subprocess, sys


def main():
    show = int(sys.argv[sys.argv.index("--show") + 1]) if "--show" in sys.argv else 0
    args = [a for i, a in enumerate(sys.argv[1:], 1) if a != "--show" and sys.argv[i - 1] != "--show"]
    binary, root, dirs = args[0], args[1], args[2:]
    subprocess.run([binary, "index", "--repo", root], check=True, capture_output=True)
    here = os.path.dirname(os.path.abspath(__file__))
    java = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java")
    truth, seen, unjudged = collections.Counter(), set(), set()
    for d in dirs or [None]:
        out = subprocess.run([java, os.path.join(here, "ImpactOracle.java"), root] + ([d] if d else []),
                             capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            f = line.split("\t")
            if f[0] == "L":
                path, num = f[3].rsplit(":", 1)
                if f[2] == "?":
                    unjudged.add((path, int(num)))
                    continue
                truth[(path, int(num), f[2])] += 1
                seen.add((path, int(num)))
    db = sqlite3.connect(os.path.join(root, ".repochart", "index.db"))
    rows = db.execute(
        "SELECT f.path, s.start_line, COALESCE(t.qname, e.qname), r.alias FROM symbols s JOIN files f ON f.id = s.file_id "
        "JOIN refs r ON r.source_id = s.id AND r.kind = 2 LEFT JOIN symbols t ON t.id = r.target_id "
        "LEFT JOIN externals e ON e.id = r.external_id WHERE s.name LIKE '$%' AND s.modifiers LIKE '%lambda%'")
    got, unresolved = collections.Counter(), 0
    for path, line, target, alias in rows:
        if dirs and path.rsplit("/", 1)[0] not in dirs or not dirs and (path, line) not in seen or (path, line) in unjudged:
            continue
        if target is None:
            unresolved += 1
        else:
            got[(path, line, target)] += 1
    found, extra, missed = sum((truth & got).values()), sum((got - truth).values()), sum((truth - got).values())
    print(f"javac: {sum(truth.values())} conversions in {', '.join(dirs) or root}; index: found {found}, extra {extra}, "
          f"missed {missed} ({unresolved} of its lambdas unresolved; {len(unjudged)} lines javac could not judge left out); "
          f"P {found / max(1, found + extra):.4f} R {found / max(1, found + missed):.4f}")
    for k in sorted(got - truth)[:show]:
        print("extra", *k)
    for k in sorted(truth - got)[:show]:
        print("missed", *k)


if __name__ == "__main__":
    main()
