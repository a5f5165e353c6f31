#!/usr/bin/env python3
"""The SHA-1 of every table of an index, row for row: shows that a change which must not
change answers (a re-layout, a speed-up) builds the same index as the binary before it.

    table_hashes.py INDEX_DB [INDEX_DB]

Each table's rows are read in primary-key order (rowid, or every column for a table
without one), each value written with its SQLite type, and hashed. With two databases it
prints both columns and says which tables differ; the exit code is 1 if any do. In `meta`
the values that differ between any two builds of one tree are left out: `index_id` (a
random id), `indexed_at` (a clock) and the `ms` the history walk took.
Tables of SQLite's own (`sqlite_*`) and FTS5's shadow tables (`*_data`, `*_idx`, ...) are
hashed like the rest; an FTS5 table itself is read through its shadow tables, since its
options (`contentless_delete`) may be newer than the SQLite Python links.
"""
import hashlib
import json
import sqlite3
import sys


VOLATILE_META = {"index_id", "indexed_at"}


def stable_meta(row):
    key, value = row[0], row[1]
    if key in VOLATILE_META:
        return (key, "<volatile>") + tuple(row[2:])
    if key == "history_state":
        state = json.loads(value)
        state.pop("ms", None)
        return (key, json.dumps(state, sort_keys=True)) + tuple(row[2:])
    return tuple(row)


def hashes(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = {}
    tables = [
        r[0]
        for r in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if not (r[1] or "").upper().startswith("CREATE VIRTUAL TABLE")
    ]
    for table in tables:
        quoted = '"' + table.replace('"', '""') + '"'
        columns = [r[1] for r in db.execute(f"PRAGMA table_info({quoted})")]
        try:
            rows = db.execute(f"SELECT * FROM {quoted} ORDER BY rowid")
            rows = rows.fetchall()
        except sqlite3.OperationalError:
            # WITHOUT ROWID tables, and virtual tables that cannot be read directly.
            try:
                order = ", ".join(str(i + 1) for i in range(len(columns))) or "1"
                rows = db.execute(f"SELECT * FROM {quoted} ORDER BY {order}").fetchall()
            except sqlite3.OperationalError as e:
                out[table] = (0, f"unreadable: {e}")
                continue
        if table == "meta":
            rows = [stable_meta(row) for row in rows]
        digest = hashlib.sha1()
        for row in rows:
            digest.update(repr(tuple((type(v).__name__, v) for v in row)).encode())
            digest.update(b"\n")
        out[table] = (len(rows), digest.hexdigest())
    return out


def main(paths):
    sides = [hashes(p) for p in paths]
    names = sorted(set().union(*sides))
    differ = []
    for name in names:
        cells = [side.get(name, (0, "missing")) for side in sides]
        same = all(c == cells[0] for c in cells)
        if not same:
            differ.append(name)
        print(f"{name:<28} " + "  ".join(f"{n:>9} {h[:12]}" for n, h in cells) + ("" if same else "  DIFFERS"))
    if len(paths) > 1:
        print(f"{len(names) - len(differ)} of {len(names)} tables identical" + (f"; differ: {', '.join(differ)}" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
