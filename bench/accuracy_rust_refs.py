#!/usr/bin/env python3
"""Rust references of the index against rust-analyzer's, per definition and per use.

Usage: python3 bench/accuracy_rust_refs.py <workspace> [rust-analyzer binary]
       LSIF=<dump> | SCIP=<index> python3 bench/accuracy_rust_refs.py <workspace>

rust-analyzer (the oracle, built once with the nightly toolchain:
`cargo +nightly install ra_ap_rust-analyzer --version 0.0.349 --locked --root <dir>`;
std sources from Debian's `rust-src`) writes an LSIF dump of the workspace
(`RUST_SRC_PATH=/usr/lib/rustlib/src/rust/library rust-analyzer lsif <workspace>`). Its
`textDocument/references` results give, for every definition, the places that use it. Each
definition is matched with the index's symbol declared at the same file and line with the
same name (functions and methods, types, fields, constants and statics, variants, macros),
and its uses are compared with the index's references to that symbol at (file, line)
granularity, for uses in the workspace's own files (not `target/`, not the standard
library) that rust-analyzer analyzed (a module behind a `cfg` it does not enable, such as
`#[cfg(feature = "unstable-index")] mod index;`, has no ranges in the dump: its uses are
left out and counted). Uses on the definition's own line are left out on both sides (a parameter or the
name itself). So are the lines inside invocations of the standard library's macros
(`assert_eq!`, `format!`, ...: the index's `expands` references to `std::`): with the std
sources Debian ships (1.63), this rust-analyzer expands none of them and records no
reference inside their arguments, so it cannot judge the index's there. The index is built
with the release binary beside this script's repository.

With `SCIP=<file>` the oracle is rust-analyzer's SCIP index instead, written without a
sysroot (`rust-analyzer scip <workspace> --output <file> --config-path cfg.json`, cfg
`{"cargo": {"sysroot": null}}`, after `cargo fetch`): this rust-analyzer panics in closure
inference against Debian's 1.63 std sources on some workspaces (tracing), and without a
sysroot it resolves the workspace fully and leaves std unresolved. It then cannot type what
is reached through std (a field behind an `Arc`, a method on an iterator's item): a use the
index finds on a line where rust-analyzer resolved no token of that name is left out and
counted (unjudged), not called an extra.

Prints precision and recall by the kind of definition (calls of functions and methods, type
uses, fields, the rest), name-only guesses apart (they are not counted as found), and the
worst misses by definition.
"""

import collections
import json
import os
import re
import sqlite3
import subprocess
import sys
import urllib.parse

CALLABLE = {"function", "method"}
TYPE = {"struct", "enum", "trait", "union", "type_alias"}
FIELD = {"field"}
GUESS = 1
AMBIGUOUS = 4


def lsif(workspace, binary):
    env = dict(os.environ, RUST_SRC_PATH=os.environ.get("RUST_SRC_PATH", "/usr/lib/rustlib/src/rust/library"))
    out = subprocess.run([binary, "lsif", workspace], capture_output=True, text=True, env=env, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def _varint(buf, i):
    shift = value = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, i
        shift += 7


def _fields(buf):
    """The (field number, value) pairs of one protobuf message: ints, or bytes for
    length-delimited fields."""
    i, n = 0, len(buf)
    while i < n:
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 2:
            size, i = _varint(buf, i)
            value, i = buf[i:i + size], i + size
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        else:
            raise ValueError(f"protobuf wire type {wire} not expected in SCIP")
        yield number, value


# Every (file, line, name) SCIP resolved to some symbol: without a sysroot, rust-analyzer
# leaves a name it cannot type (a method or field reached through `Arc`, `Option`, an
# iterator of std) without an occurrence, and cannot judge the index there.
RESOLVED_NAMES = set()


def scip_oracle(workspace, path):
    """The same as `oracle`, from a SCIP index (`rust-analyzer scip <ws> --output FILE
    --config-path cfg.json`, cfg `{"cargo": {"sysroot": null}}`): for every symbol of the
    workspace's documents, the occurrence with the Definition role is its definition and
    every other occurrence a use. Local symbols (`local N`) are per document, as SCIP says.
    Read with a few lines of protobuf decoding (Index.documents = 2; Document.relative_path
    = 1, occurrences = 2; Occurrence.range = 1, symbol = 2, symbol_roles = 3)."""
    root = os.path.realpath(workspace)
    data = open(path, "rb").read()
    defs, uses = {}, collections.defaultdict(set)
    seen = set()
    lines_cache = {}
    for number, doc in _fields(data):
        if number != 2:
            continue
        rel, occurrences = None, []
        for f, v in _fields(doc):
            if f == 1:
                rel = v.decode()
            elif f == 2:
                occurrences.append(v)
        if rel is None or rel.startswith("..") or rel.startswith("target/"):
            continue
        seen.add(rel)
        for occ in occurrences:
            rng, symbol, roles = [], "", 0
            for f, v in _fields(occ):
                if f == 1:
                    if isinstance(v, bytes):
                        j = 0
                        while j < len(v):
                            x, j = _varint(v, j)
                            rng.append(x)
                    else:
                        rng.append(v)
                elif f == 2:
                    symbol = v.decode()
                elif f == 3:
                    roles = v
            if not symbol or len(rng) < 3:
                continue
            key = (rel, symbol) if symbol.startswith("local ") else symbol
            line = rng[0]
            if rel not in lines_cache:
                try:
                    lines_cache[rel] = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read().split("\n")
                except OSError:
                    lines_cache[rel] = []
            src = lines_cache[rel]
            end = rng[2] if len(rng) == 3 else rng[3]
            name = src[line][rng[1]:end] if line < len(src) and (len(rng) == 3 or rng[2] == line) else ""
            if name:
                RESOLVED_NAMES.add((rel, line + 1, name))
            if roles & 1:
                if name and (rel, line + 1, name) not in defs.setdefault(key, []):
                    defs[key].append((rel, line + 1, name))
            else:
                uses[key].add((rel, line + 1))
    truth = {}
    global DUPLICATE_USES
    for key, heres in defs.items():
        if len(heres) == 1:
            here = heres[0]
            truth.setdefault(here, set()).update(u for u in uses.get(key, ()) if u != (here[0], here[1]))
            continue
        # One SCIP symbol for several definitions: rust-analyzer names the top-level items of
        # a package's test targets (each its own crate) alike (`fn events()` in five
        # `tests/*.rs`), and a function's local items like another function's of the same
        # name in the file (`fn handler()` in several tests), logging "Duplicate symbol".
        # Their uses are shared out once the index's symbols are known (`share_duplicates`).
        for here in heres:
            truth.setdefault(here, set())
        DUPLICATES.append((heres, uses.get(key, set())))
    return truth, seen


# (definitions, uses) of SCIP symbols defined several times.
DUPLICATES = []


def share_duplicates(truth, function_of):
    """Gives each use of a symbol defined several times to one definition: the one in its
    file whose enclosing function (by the index's outline: `function_of(def)` is its line
    range, for a function's local item) holds the use, else the nearest in its file that is
    no function's local item (a local item is visible only inside its function: a test
    module's `const SHERLOCK` is what its tests use, not the nearer one a later test function
    declares in its body), else the nearest; a use in a file with none is left out and
    counted."""
    global DUPLICATE_USES
    for heres, uses in DUPLICATES:
        for u in uses:
            mine = [h for h in heres if h[0] == u[0]]
            if not mine:
                DUPLICATE_USES += 1
                continue
            inside = [h for h in mine if function_of(h) and function_of(h)[0] <= u[1] <= function_of(h)[1]]
            outer = [h for h in mine if not function_of(h)]
            pool = inside or outer or mine
            here = min(pool, key=lambda h: (abs(h[1] - u[1]), h[1]))
            if u != (here[0], here[1]):
                truth[here].add(u)


# Uses of a SCIP symbol defined in several files, in a file other than the definition's.
DUPLICATE_USES = 0


def oracle(workspace, items):
    """(file, line, name) of each definition -> set of (file, line) of its uses."""
    root = os.path.realpath(workspace)
    docs, ranges, contains, next_of, refs_of, results = {}, {}, {}, {}, {}, collections.defaultdict(lambda: ([], []))
    for it in items:
        if it["type"] == "vertex":
            if it["label"] == "document":
                path = urllib.parse.unquote(urllib.parse.urlparse(it["uri"]).path)
                docs[it["id"]] = os.path.relpath(os.path.realpath(path), root)
            elif it["label"] == "range":
                ranges[it["id"]] = (it["start"]["line"], it["start"]["character"], it["end"]["character"])
        else:
            label = it["label"]
            ins = it.get("inVs", [it["inV"]] if "inV" in it else [])
            if label == "contains":
                for r in ins:
                    contains[r] = it["outV"]
            elif label == "next":
                next_of[it["outV"]] = ins[0]
            elif label == "textDocument/references":
                refs_of[it["outV"]] = ins[0]
            elif label == "item" and it.get("property") in ("definitions", "references"):
                slot = 0 if it["property"] == "definitions" else 1
                results[it["outV"]][slot].extend(ins)
    lines_cache = {}

    def text_of(rid):
        doc = contains.get(rid)
        path = docs.get(doc)
        if path is None or path.startswith("..") or path.startswith("target/"):
            return None
        if path not in lines_cache:
            try:
                lines_cache[path] = open(os.path.join(root, path), encoding="utf-8", errors="replace").read().split("\n")
            except OSError:
                lines_cache[path] = []
        line, start, end = ranges[rid]
        src = lines_cache[path]
        name = src[line][start:end] if line < len(src) else ""
        return path, line + 1, name

    truth = {}
    for result, (defs, uses) in results.items():
        for d in defs:
            here = text_of(d)
            if here is None or not here[2]:
                continue
            places = set()
            for u in uses:
                at = text_of(u)
                if at is not None and (at[0], at[1]) != (here[0], here[1]):
                    places.add((at[0], at[1]))
            truth.setdefault(here, set()).update(places)
    # The files rust-analyzer analyzed: those with ranges. A module left out by a `cfg`
    # rust-analyzer does not enable (`#[cfg(feature = "unstable-index")] mod index;`) has
    # none: it cannot judge uses there.
    seen = {docs[d] for d in set(contains.values()) if d in docs}
    return truth, seen


def index(workspace):
    here = os.path.dirname(os.path.abspath(__file__))
    binary = os.environ.get("REPOCHART_BIN") or os.path.join(here, "..", "target", "release", "repochart")
    subprocess.run([binary, "index", "--repo", workspace], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = sqlite3.connect(os.path.join(workspace, ".repochart", "index.db"))
    symbols = {}
    for sid, path, kind, name, start, end, parent_kind, parent_start, parent_end in db.execute(
            "SELECT s.id, f.path, s.kind, s.name, s.start_line, s.end_line, p.kind, p.start_line, p.end_line FROM symbols s "
            "JOIN files f ON f.id = s.file_id LEFT JOIN symbols p ON p.id = s.parent_id"):
        # The name's line: the first line of the declaration that holds the name; a local
        # item's enclosing function by its lines.
        scope = (parent_start, parent_end) if parent_kind in CALLABLE else None
        symbols.setdefault((path, name), []).append((sid, kind, start, end, scope))
    uses = collections.defaultdict(set)
    guesses = collections.defaultdict(set)
    direct = "SELECT r.target_id, f.path, r.line, r.confidence FROM refs r JOIN files f ON f.id = r.file_id WHERE r.target_id IS NOT NULL"
    has_alts = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'ref_alts'").fetchone() is not None
    rows = db.execute(direct + (" UNION ALL SELECT x.target_id, f.path, r.line, r.confidence FROM ref_alts x "
                                "JOIN refs r ON r.id = x.ref_id JOIN files f ON f.id = r.file_id" if has_alts else ""))
    for target, path, line, conf in rows:
        (guesses if conf == GUESS else uses)[target].add((path, line))
    # For the trait-declaration rule (see main): each symbol's kind, name and parent, the
    # traits each type implements, and the targets of each line's references.
    facts = {sid: (kind, name, parent) for sid, kind, name, parent in db.execute("SELECT id, kind, name, parent_id FROM symbols")}
    implements = collections.defaultdict(set)
    for source, trait in db.execute("SELECT source_id, target_id FROM refs WHERE kind = 2 AND target_id IS NOT NULL AND source_id IS NOT NULL"):
        implements[source].add(trait)
    targets_at = collections.defaultdict(set)
    for target, path, line, _ in db.execute(direct):
        targets_at[(path, line)].add(target)
    by_trait = collections.defaultdict(list)
    for sid, (kind, name, parent) in facts.items():
        if kind == "method" and parent is not None and facts.get(parent, ("",))[0] == "trait":
            by_trait[name].append(sid)
    TRAIT_FACTS.update(facts=facts, implements=implements, targets_at=targets_at, by_trait=by_trait)
    # Lines inside the standard macros' invocations: (path, line) -> True.
    blind = set()
    texts = {}
    for path, line, name in db.execute(
            "SELECT f.path, r.line, r.name FROM refs r JOIN files f ON f.id = r.file_id JOIN externals e ON e.id = r.external_id "
            "WHERE r.kind = 10 AND (e.qname LIKE 'std::%' OR e.qname LIKE 'core::%')"):
        if path not in texts:
            texts[path] = open(os.path.join(workspace, path), encoding="utf-8", errors="replace").read().split("\n")
        for first, last in macro_spans(texts[path], line, name.split("::")[-1]):
            blind.update((path, n) for n in range(first, last + 1))
    return symbols, uses, guesses, blind


TRAIT_FACTS = {}
TRAIT_FALLBACKS = 0


def trait_fallback(sid, place):
    """Whether, at `place`, the index calls an impl's method of the name of the trait method
    `sid` declares, in an impl of that trait (`Router::new().route_with_tsr(..)`: the index
    gives `impl RouterExt for Router`'s method). rust-analyzer without a sysroot cannot
    prove an impl's bounds on std traits (`where S: Clone + Send + Sync`) and gives the
    trait's declaration: which impl is called is then unjudged."""
    facts, implements = TRAIT_FACTS["facts"], TRAIT_FACTS["implements"]
    kind, name, trait = facts.get(sid, (None, None, None))
    if trait is None or facts.get(trait, ("",))[0] != "trait":
        return False
    for target in TRAIT_FACTS["targets_at"].get(place, ()):
        tkind, tname, owner = facts.get(target, (None, None, None))
        if target != sid and tkind == "method" and tname == name and trait in implements.get(owner, ()):
            return True
    return False


def trait_declarations(sid):
    """The trait methods the index's method `sid` implements: those of its name in the
    traits its owner implements (`RouterExt::route_with_tsr` for `Router`'s)."""
    facts, implements = TRAIT_FACTS["facts"], TRAIT_FACTS["implements"]
    kind, name, owner = facts.get(sid, (None, None, None))
    if kind != "method" or owner is None:
        return []
    return [t for t in TRAIT_FACTS["by_trait"].get(name, ()) if facts[t][2] in implements.get(owner, ())]


IMPL_HEADER = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(unsafe\s+)?impl\b")
_LINES = {}


def impl_header(workspace, place):
    """Whether a (file, line) starts an impl block (`impl<T> Trait for Type {`)."""
    path, line = place
    if path not in _LINES:
        try:
            _LINES[path] = open(os.path.join(workspace, path), encoding="utf-8", errors="replace").read().split("\n")
        except OSError:
            _LINES[path] = []
    text = _LINES[path]
    return line - 1 < len(text) and IMPL_HEADER.match(text[line - 1]) is not None


def macro_spans(lines, line, name):
    """The line spans of `name!(...)` invocations starting on `line` (1-based)."""
    spans = []
    text = lines[line - 1]
    start = 0
    while True:
        at = text.find(name + "!", start)
        if at < 0:
            return spans
        start = at + 1
        depth, opened = 0, False
        for n in range(line - 1, min(len(lines), line + 400)):
            segment = lines[n][at + len(name) + 1:] if n == line - 1 else lines[n]
            for c in segment:
                if c in "([{":
                    depth += 1
                    opened = True
                elif c in ")]}":
                    depth -= 1
                    if opened and depth == 0:
                        spans.append((line, n + 1))
                        break
            else:
                continue
            break


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r


def main():
    global TRAIT_FALLBACKS
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    workspace = os.path.realpath(sys.argv[1])
    binary = sys.argv[2] if len(sys.argv) > 2 else "rust-analyzer"
    if os.environ.get("SCIP"):
        truth, seen = scip_oracle(workspace, os.environ["SCIP"])
    elif os.environ.get("LSIF"):
        # A dump written before (`rust-analyzer lsif <workspace> > dump.lsif`).
        items = [json.loads(line) for line in open(os.environ["LSIF"]) if line.startswith("{")]
    else:
        items = lsif(workspace, binary)
    if not os.environ.get("SCIP"):
        truth, seen = oracle(workspace, items)
    symbols, uses, guesses, blind = index(workspace)
    def function_of(here):
        path, line, name = here
        scopes = [s[4] for s in symbols.get((path, name), []) if s[2] == line and s[4]]
        return scopes[0] if scopes else None
    share_duplicates(truth, function_of)
    table = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0])  # tp fp fn defs guess_right guess_all
    misses, extras = [], []
    unmatched = 0
    unseen = 0
    unjudged = 0
    declared = {}
    for (path, line, name), places in truth.items():
        candidates = [s for s in symbols.get((path, name), []) if s[2] == line]
        if candidates:
            declared.setdefault(min(candidates, key=lambda s: s[2])[0], set()).update(p for p in places if p not in blind)
    for (path, line, name), places in sorted(truth.items()):
        candidates = [s for s in symbols.get((path, name), []) if s[2] == line]
        if not candidates:
            unmatched += 1
            continue
        sid, kind, start = min(candidates, key=lambda s: s[2])[:3]
        cls = "calls" if kind in CALLABLE else "types" if kind in TYPE else "fields" if kind in FIELD else "other"
        places = {p for p in places if p not in blind}
        ours = {u for u in uses.get(sid, set()) if (u[0], u[1]) != (path, line) and u not in blind}
        unseen += len({u for u in ours if u[0] not in seen})
        ours = {u for u in ours if u[0] in seen}
        if cls == "types":
            # Impl headers (`impl Trait for Type`): rust-analyzer counts the types named
            # there, the index keeps the trait's `implements` and leaves the self type out
            # (it is the impl's owner, not a use). Left out on both sides.
            places = {p for p in places if not impl_header(workspace, p)}
            ours = {u for u in ours if not impl_header(workspace, u)}
        if os.environ.get("SCIP"):
            # A trait method's declaration where the index names an impl's method (see
            # `trait_fallback`): unjudged, on both sides.
            fallback = {p for p in places - ours if trait_fallback(sid, p)}
            fallback |= {u for u in ours - places if any(u in declared.get(d, ()) for d in trait_declarations(sid))}
            TRAIT_FALLBACKS += len(fallback)
            if os.environ.get("SHOW_FALLBACKS"):
                for u in sorted(fallback):
                    print(f"trait fallback: {kind} {name} {path}:{line} at {u[0]}:{u[1]}", file=sys.stderr)
            places -= fallback
            ours -= fallback
            # A use on a line where rust-analyzer resolved no token of the name: unjudged;
            # one it lists for the definition is judged (an alias: `use x::__private as test`).
            judged = {u for u in ours if u in places or (u[0], u[1], name) in RESOLVED_NAMES}
            unjudged += len(ours - judged)
            if os.environ.get("SHOW_UNJUDGED"):
                for u in sorted(ours - judged):
                    print(f"unjudged: {kind} {name} {path}:{line} at {u[0]}:{u[1]}", file=sys.stderr)
            ours = judged
        guessed = {u for u in guesses.get(sid, set()) if (u[0], u[1]) != (path, line) and u not in blind}
        row = table[cls]
        row[0] += len(ours & places)
        row[1] += len(ours - places)
        row[2] += len(places - ours)
        row[3] += 1
        row[4] += len(guessed & places)
        row[5] += len(guessed)
        if places - ours:
            misses.append((len(places - ours), f"{kind} {name} {path}:{line}", sorted(places - ours)[:3]))
        if os.environ.get("SHOW_EXTRAS"):
            for u in sorted(ours - places):
                print(f"extra: {kind} {name} {path}:{line} at {u[0]}:{u[1]}", file=sys.stderr)
        if ours - places:
            extras.append((len(ours - places), f"{kind} {name} {path}:{line}", sorted(ours - places)[:3]))
    print(f"rust-analyzer definitions in the workspace's files: {len(truth)}; matched to index symbols: {len(truth) - unmatched}; "
          f"{len(blind)} lines inside standard macros left out; {unseen} of the index's uses left out, in files rust-analyzer did not analyze "
          f"(modules behind a cfg it does not enable)"
          + (f"; {unjudged} left out on lines where rust-analyzer (no sysroot) resolved no token of the name; "
             f"{DUPLICATE_USES} uses of a symbol it defines several times left out (in a file without a definition); "
             f"{TRAIT_FALLBACKS} calls where it gives a trait's declaration and the index an impl's method of that trait left out" if os.environ.get("SCIP") else ""))
    if len(truth) == unmatched:
        # An empty or unfinished dump scores 1.0 on nothing; say so instead.
        sys.exit("no definition of the dump matched the index: nothing to measure (is the LSIF dump complete?)")
    print("| definitions | defs | found | extra | missed | precision | recall | guesses: right / all |")
    print("|---|---|---|---|---|---|---|---|")
    total = [0, 0, 0, 0, 0, 0]
    for cls in ("calls", "types", "fields", "other"):
        row = table[cls]
        total = [a + b for a, b in zip(total, row)]
        p, r = prf(row[0], row[1], row[2])
        print(f"| {cls} | {row[3]} | {row[0]} | {row[1]} | {row[2]} | {p:.4f} | {r:.4f} | {row[4]} / {row[5]} |")
    p, r = prf(total[0], total[1], total[2])
    print(f"| all | {total[3]} | {total[0]} | {total[1]} | {total[2]} | {p:.4f} | {r:.4f} | {total[4]} / {total[5]} |")
    print("\nworst misses (uses rust-analyzer found and the index did not):")
    for n, what, sample in sorted(misses, reverse=True)[:int(os.environ.get("MISSES", "12"))]:
        print(f"  {n:4} {what}  e.g. {sample}")
    print("\nworst extras (uses the index found and rust-analyzer did not):")
    for n, what, sample in sorted(extras, reverse=True)[:int(os.environ.get("MISSES", "12"))]:
        print(f"  {n:4} {what}  e.g. {sample}")


if __name__ == "__main__":
    main()
