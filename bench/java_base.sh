#!/usr/bin/env bash
# The java.base bench every closing note carries: two binaries, interleaved, on fresh
# copies of java.base from a JDK's lib/src.zip. Per round and binary: the cold index
# (wall seconds), the no-op re-index of the unchanged tree, the cold run's peak RSS
# (`/usr/bin/time -f %M`) and the size of `.repochart/`. Prints each run, then the medians.
#
#   bench/java_base.sh ROUNDS BIN_BEFORE BIN_AFTER [SRC_ZIP]
#
# SRC_ZIP defaults to the first JDK under /usr/lib/jvm whose lib/src.zip is a real file.
set -euo pipefail
rounds=${1:?rounds}
before=${2:?binary before}
after=${3:?binary after}
zip=${4:-}
if [ -z "$zip" ]; then
  for z in /usr/lib/jvm/*/lib/src.zip; do
    if [ -f "$(readlink -f "$z")" ]; then zip=$z; break; fi
  done
fi
[ -n "$zip" ] || { echo "no JDK src.zip found; pass one" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -c "
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extractall(sys.argv[2], [n for n in z.namelist() if n.startswith('java.base/')])
" "$zip" "$work/src"
echo "java.base from $zip: $(find "$work/src/java.base" -name '*.java' | wc -l) files"
results="$work/results"
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    bin=$before
    [ "$side" = after ] && bin=$after
    repo="$work/repo-$side-$round"
    cp -r "$work/src/java.base" "$repo"
    sync
    start=$(date +%s.%N)
    /usr/bin/time -f %M -o "$work/rss" "$bin" index --repo "$repo" >/dev/null 2>&1
    cold=$(echo "$(date +%s.%N) - $start" | bc)
    start=$(date +%s.%N)
    "$bin" index --repo "$repo" >/dev/null 2>&1
    noop=$(echo "$(date +%s.%N) - $start" | bc)
    rss=$(( $(cat "$work/rss") / 1024 ))
    size=$(du -sb "$repo/.repochart" | cut -f1)
    printf '%s round %s: cold %.2f s, no-op %.2f s, peak RSS %s MB, index %.2f MB\n' \
      "$side" "$round" "$cold" "$noop" "$rss" "$(echo "$size / 1000000" | bc -l)"
    echo "$side $cold $noop $rss $size" >> "$results"
    rm -rf "$repo"
  done
done
python3 - "$results" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
print("| binary | cold s | no-op s | peak RSS MB | index MB |")
print("|---|---|---|---|---|")
for side in ("before", "after"):
    mine = [r for r in rows if r[0] == side]
    med = lambda i: statistics.median(float(r[i]) for r in mine)
    print(f"| {side} (median of {len(mine)}) | {med(1):.2f} | {med(2):.2f} | {med(3):.0f} | {med(4) / 1e6:.2f} |")
EOF
