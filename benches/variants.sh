#!/usr/bin/env bash
# sudokud's constraint engine against OR-Tools CP-SAT (one worker, a plain model
# of the same rules: benches/variants/cpsat.py) on the variant sets of
# benches/variants/data, both on core 0 in the same run. CP-SAT also checks
# every puzzle independently: its first solution must be the file's, and with
# that solution excluded it must find none (unique).
#
#   bash benches/variants.sh [SET...]     # default: every set in the folder
#
# Times are per puzzle, the solve calls only on both sides (sudokud: the search
# in-process, best of five; CP-SAT: its Solve calls), medians over the set;
# ratio = CP-SAT / sudokud (above 1: sudokud is faster), first solution and
# count to two. `min ratio` is the worst single puzzle's.
#
# With SVSJS=path/to/dist/bundle.js (Rangsk's SudokuVariantSolverJS, built
# beside the project per its README: `npm install && npm run build`; the bench
# never builds it), the same puzzles go to it as f-puzzles boards
# (benches/variants/svsjs.cjs: its solve and countSolutions calls, best of
# three) and a second table gives its times and ratio = SVSJS / sudokud.
#
#   bash benches/variants.sh --rate [SET...]
#
# explains every puzzle of the sets in-process on core 0 instead (the logical
# solve only, once a puzzle, as `Explain` and `Rate` run it; every placement
# checked against the set's solution): per set, how many the techniques solve
# (the rest end needed_search, rated 9.5 and up), the median and the slowest
# solve in milliseconds, the median rating, and the techniques that set the
# ratings (most often first).
set -euo pipefail
cd "$(dirname "$0")/.."
rate=false
if [ "${1:-}" = "--rate" ]; then
  rate=true
  shift
fi
cargo build --quiet --release --example make_variants
ours=target/release/examples/make_variants
data=benches/variants/data

sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
  for file in "$data"/*.jsonl; do sets+=("$(basename "$file" .jsonl)"); done
fi
if $rate; then
  echo "| set | puzzles | solved by the techniques | median ms | slowest ms | median rating | hardest steps |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  for set in "${sets[@]}"; do
    taskset -c 0 "$ours" rate "$data/$set.jsonl" | python3 -c '
import collections, json, statistics, sys
rows = [json.loads(line) for line in sys.stdin]
ms = [row["us"] / 1000 for row in rows]
solved = sum(row["solved"] for row in rows)
median = statistics.median(row["rating"] for row in rows)
hardest = collections.Counter(row["technique"] or "beyond the ladder" for row in rows)
top = ", ".join(f"{name} {count}" for name, count in hardest.most_common(3))
print(f"| {sys.argv[1]} | {len(rows)} | {solved} | {statistics.median(ms):.2f} | {max(ms):.0f} "
      f"| {median:.1f} | {top} |")
' "$set"
  done
  exit 0
fi
venv=${CPSAT_VENV:-/tmp/sudokud-cpsat}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import ortools' 2>/dev/null || "$venv/bin/pip" install --quiet ortools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One table row: a peer's medians against ours on SET, with the ratios and
# the puzzles both solvers solve right and find unique (`ok`).
row() {
  python3 - "$@" <<'PY'
import json, statistics, sys
name, ours_file, peer_file = sys.argv[1:]
ours = [json.loads(line) for line in open(ours_file)]
peer = [json.loads(line) for line in open(peer_file)]
assert [o["name"] for o in ours] == [p["name"] for p in peer]
ok = sum(p["right"] and p["count"] == 1 and o["right"] and o["count"] == 1
         for o, p in zip(ours, peer))
cells = [name, len(ours), f"{ok}/{len(ours)}"]
for key in ("first_us", "count_us"):
    p = statistics.median(x[key] for x in peer)
    o = statistics.median(x[key] for x in ours)
    worst = min(x[key] / y[key] for x, y in zip(peer, ours))
    cells += [f"{p:.0f}", f"{o:.0f}", f"{p / o:.1f}x", f"{worst:.1f}x"]
print("%-24s %5s %9s %11s %11s %8s %9s %11s %11s %8s %9s" % tuple(cells))
PY
}

printf '%-24s %5s %9s %11s %11s %8s %9s %11s %11s %8s %9s\n' set n cp-sat-ok \
  cpsat-1st/us ours-1st/us ratio min-ratio cpsat-cnt/us ours-cnt/us ratio min-ratio
for set in "${sets[@]}"; do
  taskset -c 0 "$ours" time "$data/$set.jsonl" >"$work/ours"
  taskset -c 0 "$venv/bin/python" benches/variants/cpsat.py "$data/$set.jsonl" >"$work/cpsat"
  if [ -n "${SVSJS:-}" ]; then
    taskset -c 0 node benches/variants/svsjs.cjs "$SVSJS" "$data/$set.jsonl" >"$work/svsjs"
    row "$set" "$work/ours" "$work/svsjs" >>"$work/svsjs-table"
  fi
  row "$set" "$work/ours" "$work/cpsat"
done
if [ -n "${SVSJS:-}" ]; then
  echo
  printf '%-24s %5s %9s %11s %11s %8s %9s %11s %11s %8s %9s\n' set n svsjs-ok \
    svsjs-1st/us ours-1st/us ratio min-ratio svsjs-cnt/us ours-cnt/us ratio min-ratio
  cat "$work/svsjs-table"
fi
