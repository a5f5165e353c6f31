#!/usr/bin/env python3
"""change_impact of sampled methods against javac's call graph, without the jars (issue 50).

Usage: bench/impact_app.py BINARY REPO [--sample N] [--seed S] [--show N] [--overridden]

REPO is a work tree, or a bare git directory (cloned at HEAD into a temporary directory).
Indexes it with BINARY and runs bench/ImpactOracle.java (javac attributes every source file
in one task, no classpath). For N methods of the main code (default 60, a seeded sample of
those javac sees used; with --overridden, of those something overrides), rings 1 and 2 are built from javac's answers the way change_impact
walks: ring 1 is every member that uses the method (call, method reference, `new`, field
use), every caller of a method it overrides (dispatch) and every method that overrides it;
ring k+1 is every user of a ring-k member and every caller of a method a ring-k member
overrides. Members are methods, constructors and fields; code in a lambda or an anonymous
class is its enclosing member's. Only the application's own methods are overridden or
dispatched through (as in the index: nothing outside the repository is affected).

`repochart query change_impact target=<method> depth=2 limit=200` gives the index's rings.
They are compared member by member at depth 1 and at depth 2 (every member within that
many rings). A member the index lists and javac does not is left out of precision when
javac could not judge a call it makes to the member before it (an erroneous receiver or
argument type: a class of a missing jar; `S` lines), and counted apart when the index's
edge is one javac never lists: a call the JDK makes (`Collections.sort` calling
`compareTo`) or a test's request by URL (`mockMvc.perform(get("/owners/{id}", 1))`).
"""
import collections, os, random, re, sqlite3, subprocess, sys, tempfile

MEMBER_KINDS = {"method", "constructor", "field"}


def norm(name):
    """One spelling for a member: no type arguments, no spaces, varargs as arrays."""
    name = name.replace(" ", "")
    while "<" in name:
        new = re.sub(r"<[^<>]*>", "", name)
        if new == name:
            break
        name = new
    return name.replace("...", "[]")


def nameless(member):
    """A member of an anonymous class or a lambda (`a.B#m.$1#run()`) as the member that
    holds it: `a.B#m.$`. Both sides number them differently; the holder is what matters."""
    i = member.find(".$")
    return member[:i + 2] if i >= 0 else member


def simple(member):
    head = member.split("(")[0]
    return head.rsplit("#", 1)[-1]


def oracle(repo):
    here = os.path.dirname(os.path.abspath(__file__))
    jdk = os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64")
    out = subprocess.run([os.path.join(jdk, "bin", "java"), os.path.join(here, "ImpactOracle.java"), repo],
                         capture_output=True, text=True, check=True).stdout
    methods, users, skips, overrides, overriders = {}, collections.defaultdict(set), collections.defaultdict(set), \
        collections.defaultdict(set), collections.defaultdict(set)
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "M":
            methods[norm(f[1])] = (f[1], f[2])
        elif f[0] == "E":
            users[norm(f[2])].add((norm(f[1]), f[3]))
        elif f[0] == "S":
            skips[norm(f[1])].add(f[2])
        elif f[0] == "O":
            overrides[norm(f[1])].add(norm(f[2]))
            overriders[norm(f[2])].add(norm(f[1]))
    return methods, users, skips, overrides, overriders


def javac_rings(start, users, overrides, overriders, depth):
    """Rings 1..depth of `start` from javac's graph, as change_impact walks it."""
    seen, frontier, rings = {start}, [start], []
    for d in range(1, depth + 1):
        ring = set()
        for n in frontier:
            ring |= {u for u, _ in users.get(n, ())}
            for o in overrides.get(n, ()):
                if o not in seen:
                    ring |= {u for u, k in users.get(o, ()) if k in ("call", "ref")}
            if d == 1:
                ring |= overriders.get(n, set())
        ring -= seen
        seen |= ring
        rings.append(ring)
        frontier = ring
    return rings


def reaches(member, targets, users, overrides):
    """Whether javac sees `member` use one of `targets`, or call a method one overrides."""
    for t in targets:
        through = {t} | overrides.get(t, set())
        if any(member in {u for u, _ in users.get(o, ())} for o in through):
            return True
    return False


def index_rings(binary, repo, start, depth):
    """The members change_impact lists, ring by ring (every page), and how many pages."""
    rings, offset, pages = [set() for _ in range(depth)], 0, 0
    while offset is not None:
        out = subprocess.run([binary, "query", "--repo", repo, "change_impact", f"target={start}", f"depth={depth}",
                              "limit=200", f"offset={offset}"], capture_output=True, text=True).stdout
        pages += 1
        ring, package, offset = None, "", None
        for line in out.splitlines():
            m = re.match(r"ring (\d+):", line)
            if m:
                ring = int(m.group(1)) - 1
                continue
            m = re.search(r"next page: offset=(\d+)", line)
            if m:
                offset = int(m.group(1))
            if not line.startswith("  "):
                ring = None
                continue
            if ring is None or ring >= depth:
                continue
            if not line.startswith("    "):
                package = line.split()[0]
                continue
            kind, rest = line.strip().split(" ", 1)
            if kind in MEMBER_KINDS:
                rings[ring].add(nameless(norm(f"{package}.{rest.split('  ')[0]}")))
    return rings, pages


def implicit_edges(repo):
    """(from member, to member) of the index's edges javac never lists: calls the JDK makes
    and tests' requests by URL."""
    db = sqlite3.connect(os.path.join(repo, ".repochart", "index.db"))
    sig = "{0}.qname || COALESCE('(' || {0}.params || ')', '')"
    rows = db.execute(f"SELECT {sig.format('s')}, {sig.format('t')} FROM refs r JOIN symbols s ON s.id = r.source_id "
                      "JOIN symbols t ON t.id = r.target_id WHERE r.kind = 5 AND (r.alias IS NOT NULL OR r.receiver = '@url')")
    return {(norm(a), norm(b)) for a, b in rows}


def main():
    binary, repo = sys.argv[1], sys.argv[2]
    arg = lambda flag, default: type(default)(sys.argv[sys.argv.index(flag) + 1]) if flag in sys.argv else default
    n, seed, show = arg("--sample", 60), arg("--seed", 50), arg("--show", 0)
    if not os.path.exists(os.path.join(repo, ".git")) and os.path.exists(os.path.join(repo, "HEAD")):
        work = os.path.join(tempfile.mkdtemp(prefix="impact-"), "repo")
        subprocess.run(["git", "clone", "-q", "--shared", repo, work], check=True)
        repo = work
    subprocess.run([binary, "index", "--repo", repo], check=True, capture_output=True)
    methods, users, skips, overrides, overriders = oracle(repo)
    implicit = implicit_edges(repo)
    used = sorted(m for m, (_, place) in methods.items() if "/test/" not in place and "src/test" not in place
                  and javac_rings(m, users, overrides, overriders, 1)[0])
    if "--overridden" in sys.argv:
        # Only methods something overrides or implements (a class's, an anonymous class's, a
        # lambda's): dispatch and nameless implementations.
        used = [m for m in used if overriders.get(m)]
    sample = random.Random(seed).sample(used, min(n, len(used)))
    totals = {d: collections.Counter() for d in (1, 2)}
    shown = 0
    for start in sample:
        truth = javac_rings(start, users, overrides, overriders, 2)
        got, pages = index_rings(binary, repo, methods[start][0], 2)
        unjudged = set()
        for d in (1, 2):
            want, have = set().union(*truth[:d]), set().union(*got[:d])
            before = {start} | set().union(*got[:d - 1]) if d > 1 else {start}
            c = totals[d]
            c["found"] += len(want & have)
            c["missed"] += len(want - have)
            c["paged"] += pages > 1
            extra = []
            for h in have - want:
                if any((h, b) in implicit for b in before):
                    c["implicit"] += 1
                elif skips.get(h, set()) & {simple(b) for b in before} or reaches(h, unjudged, users, overrides):
                    # javac could not judge its call, or it is reached through a member
                    # javac could not judge.
                    c["unjudged"] += 1
                    unjudged.add(h)
                else:
                    c["extra"] += 1
                    extra.append(h)
            if d == 2 and shown < show and (want - have or extra):
                shown += 1
                print(f"\n{start}\n  missed: {sorted(want - have)}\n  extra: {sorted(extra)}")
    print(f"{repo}: {len(sample)} sampled of {len(used)} used main-code methods (seed {seed})")
    for d in (1, 2):
        c = totals[d]
        p = c["found"] / max(1, c["found"] + c["extra"])
        r = c["found"] / max(1, c["found"] + c["missed"])
        print(f"depth {d}: found {c['found']}, missed {c['missed']}, extra {c['extra']}, "
              f"unjudged {c['unjudged']}, implicit (JDK callbacks, URL requests) {c['implicit']}; "
              f"P {p:.4f} R {r:.4f}" + (f"; {c['paged']} answers paged" if c["paged"] else ""))


if __name__ == "__main__":
    main()
