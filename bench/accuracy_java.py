#!/usr/bin/env python3
"""Type-level accuracy of the index against the compiler's own answers (javap).

Usage: python3 bench/accuracy_java.py <java.base sources> [JDK home] [--refs java/util]
       python3 bench/accuracy_java.py <module sources> --refs PKG --refs-only [--index-root DIR]

(`--refs-only` skips the type-level checks, which are java.base's; `--index-root` indexes a
directory that holds the module beside others, e.g. `java.base/` and `jdk.compiler/`, so that
calls into the other modules resolve as they do in a whole JDK.)

The sources are the JDK's own (`unzip <jdk>/lib/src.zip 'java.base/*'`), indexed with the
release binary beside this script's repository (`cargo build --release` first). The
ground truth is `javap -p` on the compiled classes of the same JDK (read from its runtime
image), for every class of java.util, java.util.concurrent, java.io and java.nio, nested
classes included (anonymous and local classes excluded: sources give them no name).

Compared, with precision and recall:
- declared types: every class the compiler emitted is a type symbol of the right kind;
- supertypes: each type's declared `extends`/`implements` (javap's header, generics
  stripped; implicit java.lang.Object/Enum/Record and annotations' Annotation left out);
- implementations, direct and transitive: for each interface and abstract class, the
  types of these packages that implement/extend it;
- declared members: methods, constructors and fields by name and kind, compiler-made
  members (lambdas, bridges, enum values/valueOf, record accessors, default constructors,
  outer-instance fields) left out; and whether each method's lines in the compiled
  LineNumberTable lie inside the symbol's line range.

With `--refs PKG` it also compares references with javac's own attribution
(bench/RefOracle.java: `JavacTask.parse()` + `analyze()` with `--patch-module
java.base=<sources>`) for every file of that package directory: calls, `new`, type uses
and field accesses, each as (file, line, target declaration); and the type-level
dependencies they make (file -> type of the target). Name-only guesses are counted apart.

It reads the index's SQLite file directly (the tools answer from the same rows).
"""

import collections
import os
import re
import sqlite3
import subprocess
import sys

import accuracy_app  # report_unknown_args: the same report for both benches

PACKAGES = ["java/util", "java/util/concurrent", "java/io", "java/nio"]
IMPLICIT_SUPERS = {"java.lang.Object", "java.lang.Enum", "java.lang.Record", "java.lang.annotation.Annotation"}
TYPE_KINDS = {"class", "interface", "enum", "record", "annotation"}


def strip_generics(text):
    out, depth = [], 0
    for c in text:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


def source_name(binary):
    """java.util.Map$Entry -> java.util.Map.Entry"""
    return binary.replace("$", ".")


def split_top(text):
    return [t.strip() for t in text.split(",") if t.strip()]


def list_classes(jdk):
    listing = subprocess.run([os.path.join(jdk, "bin", "jimage"), "list", os.path.join(jdk, "lib", "modules")],
                             capture_output=True, text=True, check=True).stdout
    classes = []
    for line in listing.splitlines():
        line = line.strip()
        if not line.endswith(".class"):
            continue
        path = line[: -len(".class")]
        package, _, name = path.rpartition("/")
        if package not in PACKAGES or name in ("package-info", "module-info"):
            continue
        # Anonymous ($1) and local ($1Local) classes have no source name.
        if re.search(r"\$\d", name):
            continue
        classes.append(path.replace("/", "."))
    return sorted(classes)


HEADER = re.compile(r"^(?P<mods>(?:[a-z]+ )*)(?P<kind>class|interface|enum|record|@interface) (?P<name>[\w.$]+)(?P<rest>.*?)(?: \{)?$")


def javap(jdk, classes):
    """class -> {kind, supers, abstract, decls: [{name, kind, synthetic, lines}]} from `javap -p -v`."""
    info = {}
    for i in range(0, len(classes), 100):
        batch = classes[i : i + 100]
        out = subprocess.run([os.path.join(jdk, "bin", "javap"), "-p", "-v"] + batch, capture_output=True, text=True).stdout
        current, decl = None, None
        for raw in out.splitlines():
            line = raw.rstrip()
            if line.startswith("Classfile "):
                current, decl = None, None
                continue
            if current is None:
                m = HEADER.match(strip_generics(line)) if line and not line.startswith(" ") else None
                if not m:
                    continue
                name = m.group("name")
                kind = {"@interface": "annotation"}.get(m.group("kind"), m.group("kind"))
                rest = m.group("rest")
                supers = set()
                ext = re.search(r"extends (.*?)(?: implements |$)", rest)
                imp = re.search(r"implements (.*)$", rest)
                for part in (ext.group(1) if ext else "", imp.group(1) if imp else ""):
                    supers.update(source_name(s) for s in split_top(part))
                # javap prints enums, records and annotations as the classes they compile to.
                if kind == "class" and "java.lang.Enum" in supers:
                    kind = "enum"
                elif kind == "class" and "java.lang.Record" in supers:
                    kind = "record"
                elif kind == "interface" and "java.lang.annotation.Annotation" in supers:
                    kind = "annotation"
                current = {"binary": name, "kind": kind, "supers": supers - IMPLICIT_SUPERS, "decls": [], "body": False,
                           "abstract": "abstract " in m.group("mods") or kind == "interface"}
                info[name] = current
                continue
            s = line.strip()
            # Members follow the constant pool, after a line holding only `{`.
            if not current["body"]:
                current["body"] = line == "{"
                continue
            if line == "}":
                # The class body ends; bootstrap method tables follow.
                current, decl = None, None
                continue
            if decl is not None and s.startswith("flags:") and ("ACC_SYNTHETIC" in s or "ACC_BRIDGE" in s):
                decl["synthetic"] = True
                continue
            if decl is not None and s.startswith("line ") and ":" in s:
                decl["lines"].append(int(s.split()[1].rstrip(":")))
                continue
            if not line.startswith("  ") or line.startswith("   ") or not s.endswith(";"):
                continue
            text = strip_generics(s[:-1])
            if text.startswith("static {}"):
                decl = None
                continue
            if "(" in text:
                name = text[: text.index("(")].split()[-1]
                kind = "method"
                if name == current["binary"]:
                    kind, name = "constructor", source_name(name).split(".")[-1]
            else:
                name, kind = text.split()[-1], "field"
            decl = {"name": name, "kind": kind, "synthetic": "$" in name, "lines": []}
            current["decls"].append(decl)
    return info


def compiler_made(cls, decl, info):
    if decl["synthetic"]:
        return True
    c, name, kind = info[cls], decl["name"], decl["kind"]
    if c["kind"] == "enum" and ((name in ("values", "valueOf") and kind == "method") or kind == "constructor"):
        return True
    if c["kind"] == "record" and kind == "method" and name in ("equals", "hashCode", "toString"):
        return True
    return c["kind"] == "record" and kind == "constructor"


GUESS = 1  # Confidence::code of a name-only guess
AMBIGUOUS = 4  # Confidence::code of a reference naming several overloads


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r


def compare_refs(db, sources, jdk, package, root_prefix=""):
    """References of one package's files against javac's attribution, per signature: a call
    or `new` matches only when it names the same overload (erased parameter types)."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([os.path.join(jdk, "bin", "java"), os.path.join(here, "RefOracle.java"), sources, package],
                         capture_output=True, text=True, check=True).stdout
    # The index stores kinds and confidences as numbers (RefKind::code, Confidence::code).
    kinds = {5: "call", 4: "new", 11: "mref", 3: "type", 1: "type", 2: "type", 6: "type", 8: "qualifier", 9: "field"}
    truth = collections.defaultdict(set)
    for line in out.splitlines():
        path, num, kind, target = line.split("\t")
        if target.endswith("#length") and "." not in target.split("#")[0]:
            continue  # an array's length: no declaration in any source
        truth[kind].add((path, int(num), target))
    ours = collections.defaultdict(set)
    guessed = collections.defaultdict(set)
    # Ambiguous references: (path, line, candidates).
    ambiguous = collections.defaultdict(list)
    prefix = root_prefix + package.rstrip("/") + "/"
    sig = "{0}.qname || COALESCE('(' || {0}.params || ')', '')"
    rows = db.execute(
        f"SELECT f.path, r.line, r.kind, COALESCE({sig.format('t')}, e.qname), r.confidence, "
        f"(SELECT group_concat({sig.format('a')}, '\n') FROM ref_alts x JOIN symbols a ON a.id = x.target_id WHERE x.ref_id = r.id), r.args "
        "FROM refs r JOIN files f ON f.id = r.file_id "
        "LEFT JOIN symbols t ON t.id = r.target_id LEFT JOIN externals e ON e.id = r.external_id "
        "LEFT JOIN symbols src ON src.id = r.source_id "
        "WHERE f.path LIKE ? AND instr(substr(f.path, ?), '/') = 0"
        # Written nowhere as such, so javac lists no such reference: the type a lambda or an
        # anonymous class implements (its `$N` symbol's supertype edge) and a call the JDK
        # makes (`Collections.sort` calling `compareTo`, kept with the call that makes it).
        " AND NOT (r.kind IN (1, 2) AND src.name LIKE '$%') AND NOT (r.kind = 5 AND r.alias IS NOT NULL)",
        (prefix + "%", len(prefix) + 1))
    anon = {(p, n, t) for p, n, t in truth["new_anon"]}
    args_of = {}
    for path, num, kind, target, conf, alts, args in rows:
        path = path[len(root_prefix):]
        k = kinds.get(kind)
        # A member of an anonymous class or a lambda (`Outer#m.$1#run`): javac's answer there
        # is a member RefOracle.java cannot name (it leaves anonymous and local classes out).
        if k is None or target is None or ".$" in target:
            continue
        if k == "new" and (path, num, target.split("#")[0]) in anon:
            k, target = "new_anon", target.split("#")[0]
        if conf == AMBIGUOUS:
            ambiguous[k].append((path, num, [target] + (alts.split("\n") if alts else [])))
            args_of[(path, num, target)] = args or ""
        elif conf == GUESS:
            guessed[k].add((path, num, target))
        else:
            ours[k].add((path, num, target))
    # Members declared more than once in one type: overloads.
    overloaded = {q for (q,) in db.execute(
        "SELECT qname FROM symbols WHERE kind IN ('method', 'constructor') GROUP BY parent_id, name HAVING COUNT(*) > 1")}
    member = lambda target: target.split("(")[0]
    print(f"\nreferences in {package}/*.java against javac, per signature ({sum(len(v) for v in truth.values())} attributed by the compiler)")
    print("| kind | found | extra | missed | precision | recall | ambiguous: right / all | guesses: right / all |")
    print("|---|---|---|---|---|---|---|---|")
    all_t, all_o = set(), set()
    report = [("call", None), ("call", "overloaded"), ("new", None), ("new", "overloaded"), ("new_anon", None), ("mref", None),
              ("type", None), ("qualifier", None), ("field", None)]
    for k, subset in report:
        t, o = truth[k], ours[k]
        amb, g = ambiguous[k], guessed[k]
        if subset:
            t = {x for x in t if member(x[2]) in overloaded}
            o = {x for x in o if member(x[2]) in overloaded}
            amb = [x for x in amb if member(x[2][0]) in overloaded]
            g = {x for x in g if member(x[2]) in overloaded}
        tp, fp, fn = len(t & o), len(o - t), len(t - o)
        p, r = prf(tp, fp, fn)
        amb_right = sum(1 for path, num, cands in amb if any((path, num, c) in t for c in cands))
        label = f"{k} ({subset})" if subset else k
        print(f"| {label} | {tp} | {fp} | {fn} | {p:.4f} | {r:.4f} | {amb_right} / {len(amb)} | {len(g & t)} / {len(g)} |")
        if not subset:
            all_t |= {(k,) + x for x in t}
            all_o |= {(k,) + x for x in o}
    tp, fp, fn = len(all_t & all_o), len(all_o - all_t), len(all_t - all_o)
    p, r = prf(tp, fp, fn)
    print(f"| all references | {tp} | {fp} | {fn} | {p:.4f} | {r:.4f} | | |")
    owner = lambda q: q.split("#")[0]
    dep_t = {(x[1], owner(x[3])) for x in all_t}
    dep_o = {(x[1], owner(x[3])) for x in all_o}
    tp, fp, fn = len(dep_t & dep_o), len(dep_o - dep_t), len(dep_t - dep_o)
    p, r = prf(tp, fp, fn)
    print(f"| type dependencies (file -> type) | {tp} | {fp} | {fn} | {p:.4f} | {r:.4f} | | |")
    calls = [((path, num, k), cands, args_of[(path, num, cands[0])]) for k in ("call", "new") for path, num, cands in ambiguous[k]]
    accuracy_app.report_unknown_args(calls, lambda key, c: (key[0], key[1], c) in truth[key[2]], sources,
                                     int(os.environ.get("MISSES", "3")))
    signatures = {x[2] for k in ("call", "new", "mref") for x in truth[k] if "(" in x[2]}
    print(f"\n{len(signatures)} distinct signatures called; {len({s for s in signatures if member(s) in overloaded})} of them overloaded")
    for k in ("call", "new", "mref", "type", "qualifier", "field"):
        extra = sorted(ours[k] - truth[k])
        missed = sorted(truth[k] - ours[k])
        if extra or missed:
            print(f"\n{k}, first misses of {len(missed)} / extras of {len(extra)}:")
            for e in missed[:int(os.environ.get("MISSES", "3"))]:
                print(f"  missed {e}")
            for e in extra[:int(os.environ.get("MISSES", "3"))]:
                print(f"  extra  {e}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    refs = sys.argv[sys.argv.index("--refs") + 1] if "--refs" in sys.argv else None
    if refs:
        args.remove(refs)
    index_root = sys.argv[sys.argv.index("--index-root") + 1] if "--index-root" in sys.argv else None
    if index_root:
        args.remove(index_root)
    if not args:
        print(__doc__)
        sys.exit(2)
    sources = os.path.abspath(args[0])
    jdk = args[1] if len(args) > 1 else "/usr/lib/jvm/temurin-25-jdk-amd64"
    here = os.path.dirname(os.path.abspath(__file__))
    binary = os.environ.get("REPOCHART_BIN") or os.path.join(here, "..", "target", "release", "repochart")
    repo = os.path.abspath(index_root) if index_root else sources
    subprocess.run([binary, "index", "--repo", repo], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = sqlite3.connect(os.path.join(repo, ".repochart", "index.db"))
    if "--refs-only" in sys.argv and refs:
        root_prefix = os.path.relpath(sources, repo) + "/" if index_root else ""
        compare_refs(db, sources, jdk, refs, root_prefix)
        return

    classes = list_classes(jdk)
    info = javap(jdk, classes)
    names = {source_name(c): c for c in info}

    sym = {}
    for sid, kind, qname, start, end in db.execute("SELECT id, kind, qname, start_line, end_line FROM symbols"):
        if kind in TYPE_KINDS:
            sym.setdefault(qname, (sid, kind, start, end))
    members = collections.defaultdict(set)
    ranges = collections.defaultdict(list)
    for parent, kind, name, start, end in db.execute(
            "SELECT p.qname, s.kind, s.name, s.start_line, s.end_line FROM symbols s JOIN symbols p ON p.id = s.parent_id "
            "WHERE s.kind IN ('method', 'constructor', 'field', 'enum_constant')"):
        k = "field" if kind == "enum_constant" else kind
        members[parent].add((name, k))
        ranges[(parent, name, k)].append((start, end))
    supers_idx = collections.defaultdict(set)
    guesses = 0
    for src, tq, eq, conf in db.execute(
            "SELECT s.qname, t.qname, e.qname, r.confidence FROM refs r JOIN symbols s ON s.id = r.source_id "
            "LEFT JOIN symbols t ON t.id = r.target_id LEFT JOIN externals e ON e.id = r.external_id "
            "WHERE r.kind IN (1, 2)"):  # extends, implements
        target = tq or eq
        if target:
            supers_idx[src].add(target)
            guesses += conf == GUESS

    rows = []
    # Declared types: the compiler's classes found with the right kind; extra = type
    # symbols of these packages the compiler did not emit under that name.
    packages = {p.replace("/", ".") for p in PACKAGES}
    indexed = {q: k for q, k in db.execute(
        "SELECT s.qname, s.kind FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.module IN (%s) AND s.kind IN (%s)"
        % (",".join("'%s'" % p for p in packages), ",".join("'%s'" % k for k in TYPE_KINDS)))}
    tp = sum(1 for n in names if sym.get(n, (0, None))[1] == info[names[n]]["kind"])
    fn_types = [n for n in names if sym.get(n, (0, None))[1] != info[names[n]]["kind"]]
    # Local classes (declared in a method: `Outer#method.Local`) are real declarations the
    # compiler names `Outer$1Local`, and anonymous ones (`Outer.$1`, in an initializer) it
    # names `Outer$1`; they are left out on both sides.
    fp_types = [q for q in indexed if q not in names and "#" not in q and ".$" not in q]
    rows.append(("declared types (kind right)", tp, len(fp_types), len(fn_types),
                 [f"missing {n}" for n in fn_types[:5]] + [f"extra {q}" for q in fp_types[:5]]))

    # Supertypes.
    tp = fp = fn = 0
    misses = []
    for n, c in names.items():
        truth = info[c]["supers"]
        got = supers_idx.get(n, set()) - IMPLICIT_SUPERS
        tp += len(truth & got)
        fp += len(got - truth)
        fn += len(truth - got)
        if truth != got and len(misses) < 8:
            misses.append(f"{n}: missing {sorted(truth - got)} extra {sorted(got - truth)}")
    rows.append(("supertypes", tp, fp, fn, misses))

    # Implementations within these packages: direct and transitive.
    def closure(edges):
        up = {n: set(s) for n, s in edges.items()}
        out = {}
        for n in up:
            seen, stack = set(), list(up[n])
            while stack:
                x = stack.pop()
                if x not in seen:
                    seen.add(x)
                    stack.extend(up.get(x, ()))
            out[n] = seen
        return out

    truth_edges = {n: info[c]["supers"] for n, c in names.items()}
    got_edges = {n: (supers_idx.get(n, set()) - IMPLICIT_SUPERS) for n in names}
    targets = [n for n, c in names.items() if info[c]["abstract"]]
    for label, t_e, g_e in (("implementations, direct", truth_edges, got_edges),
                            ("implementations, transitive", closure(truth_edges), closure(got_edges))):
        tp = fp = fn = 0
        miss = []
        for t in targets:
            truth = {n for n in names if t in t_e.get(n, ())}
            got = {n for n in names if t in g_e.get(n, ())}
            tp += len(truth & got)
            fp += len(got - truth)
            fn += len(truth - got)
            if truth != got and len(miss) < 5:
                miss.append(f"{t}: missing {sorted(truth - got)[:3]} extra {sorted(got - truth)[:3]}")
        rows.append((label, tp, fp, fn, miss))

    # Declared members by name and kind; line ranges of methods (each overload's compiled
    # lines must lie inside one symbol of that name).
    tp = fp = fn = 0
    miss = []
    in_range = checked = 0
    range_miss = []
    for n, c in names.items():
        decls = [d for d in info[c]["decls"] if not compiler_made(c, d, info)]
        truth = {(d["name"], d["kind"]) for d in decls}
        got = members.get(n, set())
        # A class without a constructor in the source gets a default one in the class file.
        if not any(k == "constructor" for _, k in got):
            truth = {m for m in truth if m[1] != "constructor"}
        if info[c]["kind"] == "record":
            truth = {m for m in truth if not (m[1] == "method" and (m[0], "field") in got)}
        tp += len(truth & got)
        fn += len(truth - got)
        every = {(d["name"], d["kind"]) for d in info[c]["decls"]}
        fp += len({m for m in got - truth if m not in every})
        if truth - got and len(miss) < 8:
            miss.append(f"{n}: {sorted(truth - got)[:3]}")
        for d in decls:
            if d["kind"] != "method" or not d["lines"] or (d["name"], "method") not in got:
                continue
            checked += 1
            spans = ranges.get((n, d["name"], "method"), [])
            if any(all(s <= l <= e for l in d["lines"]) for s, e in spans):
                in_range += 1
            elif len(range_miss) < 5:
                range_miss.append(f"{n}#{d['name']}: lines {min(d['lines'])}-{max(d['lines'])} not inside {spans[:3]}")
    rows.append(("declared members (name, kind)", tp, fp, fn, miss))

    print(f"java.base: {len(names)} classes of {', '.join(p.replace('/', '.') for p in PACKAGES)} (javap -p -v of JDK {os.path.basename(jdk)})")
    print("| measure | found | extra | missed | precision | recall |")
    print("|---|---|---|---|---|---|")
    for label, tp, fp, fn, _ in rows:
        p, r = prf(tp, fp, fn)
        print(f"| {label} | {tp} | {fp} | {fn} | {p:.4f} | {r:.4f} |")
    print(f"| method line ranges containing every compiled line | {in_range} of {checked} | | | | {in_range / max(checked, 1):.4f} |")
    print(f"\nsupertype edges resolved by a name-only guess: {guesses}")
    for label, *_, examples in rows:
        if examples:
            print(f"\n{label}, first misses:")
            for e in examples:
                print(f"  {e}")
    if range_miss:
        print("\nline ranges, first misses:")
        for e in range_miss:
            print(f"  {e}")
    if refs:
        compare_refs(db, sources, jdk, refs)


if __name__ == "__main__":
    main()
