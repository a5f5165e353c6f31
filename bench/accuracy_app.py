#!/usr/bin/env python3
"""Java calls of an application against javac, without the application's jars (issue 33).

Usage: bench/accuracy_app.py BINARY REPO [--show N]

REPO is a work tree, or a bare git directory (cloned at HEAD into a temporary directory).
Indexes it with BINARY, runs bench/AppRefOracle.java (javac attributes every source file of
the application in one task, no classpath: see that file) and compares, per call site and
per signature, the index's calls and `new`s that name a symbol of the application with
javac's: a row is right when javac attributed that line to that very overload. Call sites
javac could not judge (an erroneous receiver or argument type: a class of a missing jar) are
left out on both sides. Rows are scored by kind: plain (resolved), `[ambiguous]` (right when
javac's choice is among the candidates), name-only guesses; recall is over the calls javac
attributed to the application's own methods and constructors.
"""
import collections, os, sqlite3, subprocess, sys, tempfile

GUESS, AMBIGUOUS = 1, 4
KINDS = {5: "call", 4: "new"}


def simple(target):
    """The name a call site names: `a.B#m(int)` -> `m`, a constructor `a.B#B()` or type `a.B` -> `B`."""
    member = target.split("(")[0]
    return member.rsplit("#", 1)[-1] if "#" in member else member.rsplit(".", 1)[-1]


def main():
    binary, repo = sys.argv[1], sys.argv[2]
    show = int(sys.argv[sys.argv.index("--show") + 1]) if "--show" in sys.argv else 0
    if not os.path.exists(os.path.join(repo, ".git")) and os.path.exists(os.path.join(repo, "HEAD")):
        work = os.path.join(tempfile.mkdtemp(prefix="app-"), "repo")
        subprocess.run(["git", "clone", "-q", "--shared", repo, work], check=True)
        repo = work
    subprocess.run([binary, "index", "--repo", repo], check=True, capture_output=True)
    here = os.path.dirname(os.path.abspath(__file__))
    jdk = os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64")
    out = subprocess.run([os.path.join(jdk, "bin", "java"), os.path.join(here, "AppRefOracle.java"), repo],
                         capture_output=True, text=True, check=True).stdout
    truth, app, skipped = set(), set(), set()
    for line in out.splitlines():
        path, num, kind, target, where = line.split("\t")
        if kind == "skip":
            skipped.add((path, int(num), target))
            continue
        truth.add((path, int(num), kind, target))
        if where == "app":
            app.add((path, int(num), kind, target))
    db = sqlite3.connect(os.path.join(repo, ".repochart", "index.db"))
    sig = "{0}.qname || COALESCE('(' || {0}.params || ')', '')"
    rows = db.execute(
        f"SELECT f.path, r.line, r.kind, {sig.format('t')}, r.confidence, "
        f"(SELECT group_concat({sig.format('a')}, '\n') FROM ref_alts x JOIN symbols a ON a.id = x.target_id WHERE x.ref_id = r.id), r.args "
        "FROM refs r JOIN files f ON f.id = r.file_id JOIN symbols t ON t.id = r.target_id "
        # A call the JDK makes (`Collections.sort` calling `compareTo`, kept with `alias` naming
        # the call that makes it) and a test's request by URL (`mockMvc.perform(get("/owners"))`,
        # receiver `@url`) call a handler nowhere written: javac lists no such call.
        "WHERE r.kind IN (4, 5) AND f.language = 'java' AND NOT (r.kind = 5 AND r.alias IS NOT NULL) "
        "AND r.receiver IS NOT '@url'")
    plain, guesses, ambiguous = set(), set(), []
    args_of = {}
    for path, num, kind, target, conf, alts, args in rows:
        # A method of an anonymous class (`Outer#m.$1#run`): javac's oracle cannot name it
        # (bench/AppRefOracle.java leaves anonymous and local classes' members out).
        if ".$" in target:
            continue
        if "#" in target and "(" not in target:
            target += "()"  # a method whose parameters the index does not keep (an annotation element)
        # `new T()` of a class without a written constructor: javac names the class (its
        # default constructor), the index the no-argument constructor Lombok's `@Data`
        # generates there; the same constructor.
        cls = target[:-2].rsplit("#", 1)[0] if target.endswith("()") else ""
        if KINDS[kind] == "new" and cls and target == f"{cls}#{cls.rsplit('.', 1)[-1]}()" and (path, num, "new", cls) in truth:
            target = cls
        key = (path, num, KINDS[kind], target)
        # A site javac could not judge (`docket.apiInfo(apiInfo(p))`: `Docket` is from a
        # missing jar) hides the index's row of that name on that line, unless javac
        # attributed that very call there (the inner `apiInfo(..)`).
        if (path, num, simple(target)) in skipped and key not in truth:
            continue
        if conf == AMBIGUOUS:
            ambiguous.append((key, [target] + (alts.split("\n") if alts else [])))
            args_of[key] = args or ""
        elif conf == GUESS:
            guesses.add(key)
        else:
            plain.add(key)
    tp = len(plain & truth)
    amb_right = sum(1 for (p, n, k, _), cands in ambiguous if any((p, n, k, c) in truth for c in cands))
    guess_right = len(guesses & truth)
    seen = len(plain) + len(ambiguous) + len(guesses)
    print(f"{repo}: javac attributed {len(truth)} calls and news ({len(app)} into the application), left {len(skipped)} sites out (erroneous types)")
    print("| rows | count | right | precision |")
    print("|---|---|---|---|")
    print(f"| plain | {len(plain)} | {tp} | {tp / max(len(plain), 1):.4f} |")
    print(f"| [ambiguous] | {len(ambiguous)} | {amb_right} | {amb_right / max(len(ambiguous), 1):.4f} |")
    print(f"| name-only guesses | {len(guesses)} | {guess_right} | {guess_right / max(len(guesses), 1):.4f} |")
    print(f"| all rows an agent sees | {seen} | {tp + amb_right + guess_right} | {(tp + amb_right + guess_right) / max(seen, 1):.4f} |")
    found = len(app & plain)
    print(f"recall of plain rows over javac's calls into the application: {found} / {len(app)} = {found / max(len(app), 1):.4f}")
    report_unknown_args([(key, cands, args_of[key]) for key, cands in ambiguous],
                        lambda key, c: (key[0], key[1], key[2], c) in truth, repo, show)
    report_jdk(db, truth - app, here, show)
    if show:
        by_line = collections.defaultdict(set)
        for p, n, k, t in truth:
            by_line[(p, n, k)].add(t)
        print("\nwrong plain rows (javac's answer at that line):")
        for p, n, k, t in sorted(plain - truth)[:show]:
            print(f"  {p}:{n} {k} {t}  javac: {sorted(by_line.get((p, n, k), [])) or '-'}")
        print("\nmissed (the index's rows at that line):")
        ours_by_line = collections.defaultdict(set)
        for p, n, k, t in plain | guesses:
            ours_by_line[(p, n, k)].add(t)
        for p, n, k, t in sorted(app - plain)[:show]:
            print(f"  {p}:{n} {k} {t}  index: {sorted(ours_by_line.get((p, n, k), [])) or '-'}")


def report_jdk(db, lib, here, show):
    """javac's calls of JDK methods (`lib` rows of a `java.` type), against the index's rows of
    that name at that line: right when the index names an outside method whose owner is javac's
    or a subtype of it by the JDK's table (javac names the declaring type, `Collection#stream`,
    the index the receiver's, `List#stream`), else into a repository method, else of another
    owner, else missed (unresolved, or no row)."""
    supers = {}
    with open(os.path.join(here, "..", "grammars", "java", "jdk-types.txt"), encoding="utf-8") as f:
        for line in f:
            w = line.split()
            supers[w[0]] = w[2:]

    def is_sub(t, of):
        stack, seen = [t], {t}
        while stack:
            x = stack.pop()
            if x == of or of == "java.lang.Object":
                return True
            for s in supers.get(x, []):
                if s not in seen:
                    seen.add(s)
                    stack.append(s)
        return False

    ours = collections.defaultdict(list)
    for path, num, name, ext, target in db.execute(
            "SELECT f.path, r.line, r.name, e.qname, r.target_id FROM refs r JOIN files f ON f.id = r.file_id "
            "LEFT JOIN externals e ON e.id = r.external_id WHERE r.kind = 5 AND f.language = 'java' AND r.alias IS NULL"):
        ours[(path, num, name.rsplit(".", 1)[-1])].append((ext, target))
    counts = collections.Counter()
    examples = collections.defaultdict(list)
    for path, num, kind, target in lib:
        if kind != "call" or not target.startswith("java."):
            continue
        owner, method = target.split("(")[0].rsplit("#", 1)
        rows = ours.get((path, num, method), [])
        if method == owner.rsplit(".", 1)[-1]:
            # A constructor: called as `super(..)` or `this(..)` too.
            rows = rows + ours.get((path, num, "super"), []) + ours.get((path, num, "this"), [])
        if any(ext and "#" in ext and is_sub(ext.rsplit("#", 1)[0], owner) for ext, _ in rows):
            verdict = "right"
        elif any(t is not None for _, t in rows):
            verdict = "into the repository"
        elif any(ext for ext, _ in rows):
            verdict = "another owner"
        else:
            verdict = "missed"
        counts[verdict] += 1
        examples[verdict].append(f"{path}:{num} {target}  index: {sorted(str(e) for e, _ in rows) or '-'}")
    total = sum(counts.values())
    print(f"javac's calls of JDK methods: {total}; the index names that method's type or a subtype {counts['right']} "
          f"({counts['right'] / max(total, 1):.4f}), another owner {counts['another owner']}, a repository method "
          f"{counts['into the repository']}, missed {counts['missed']}")
    for verdict in ("another owner", "into the repository") + (("missed",) if os.environ.get("SHOW_MISSED") else ()):
        for e in examples[verdict][:show]:
            print(f"  {verdict}: {e}")


def report_unknown_args(ambiguous, right, root, show):
    """The `[ambiguous]` rows by cause: an argument whose type the index does not know (`?` in
    the argument types it stored), or every argument typed and the overloads still tied.
    `ambiguous` holds (key, candidates, args) with key = (path, line, ...)."""
    unknown = [(k, c, a) for k, c, a in ambiguous if "?" in a.split(",")]
    derived = [(k, c, a) for k, c, a in ambiguous if "?" not in a.split(",") and any(ch in a for ch in "#@")]
    typed = [(k, c, a) for k, c, a in ambiguous if "?" not in a.split(",") and not any(ch in a for ch in "#@")]
    count = lambda rows: sum(1 for k, cands, _ in rows if any(right(k, c) for c in cands))
    print(f"[ambiguous] rows by cause: an argument the extractor could not type (`?`) {len(unknown)} ({count(unknown)} right); "
          f"one typed by a call chain or an element the resolver did not follow (`e#getMessage()`) {len(derived)} "
          f"({count(derived)} right); every argument's type written, the overloads still tied {len(typed)} ({count(typed)} right)")
    for k, cands, args in unknown[:show]:
        try:
            text = open(os.path.join(root, k[0]), encoding="utf-8", errors="replace").read().splitlines()[k[1] - 1].strip()
        except (OSError, IndexError):
            text = ""
        print(f"  {k[0]}:{k[1]} args ({args}): {text[:120]}")


if __name__ == "__main__":
    main()
