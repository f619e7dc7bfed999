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
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${CPSAT_VENV:-/tmp/sudokud-cpsat}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import ortools' 2>/dev/null || "$venv/bin/pip" install --quiet ortools
cargo build --quiet --release --example make_variants
ours=target/release/examples/make_variants
data=benches/variants/data

sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
  for file in "$data"/*.jsonl; do sets+=("$(basename "$file" .jsonl)"); done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-24s %5s %9s %11s %11s %8s %9s %11s %11s %8s %9s\n' set n cp-sat-ok \
  cpsat-1st/us ours-1st/us ratio min-ratio cpsat-cnt/us ours-cnt/us ratio min-ratio
for set in "${sets[@]}"; do
  taskset -c 0 "$ours" time "$data/$set.jsonl" >"$work/ours"
  taskset -c 0 "$venv/bin/python" benches/variants/cpsat.py "$data/$set.jsonl" >"$work/cpsat"
  python3 - "$set" "$work/ours" "$work/cpsat" <<'PY'
import json, statistics, sys
name, ours_file, cpsat_file = sys.argv[1:]
ours = [json.loads(line) for line in open(ours_file)]
cpsat = [json.loads(line) for line in open(cpsat_file)]
assert [o["name"] for o in ours] == [c["name"] for c in cpsat]
ok = sum(c["right"] and c["count"] == 1 and o["right"] and o["count"] == 1
         for o, c in zip(ours, cpsat))
row = [name, len(ours), f"{ok}/{len(ours)}"]
for key in ("first_us", "count_us"):
    c = statistics.median(x[key] for x in cpsat)
    o = statistics.median(x[key] for x in ours)
    worst = min(x[key] / y[key] for x, y in zip(cpsat, ours))
    row += [f"{c:.0f}", f"{o:.0f}", f"{c / o:.1f}x", f"{worst:.1f}x"]
print("%-24s %5s %9s %11s %11s %8s %9s %11s %11s %8s %9s" % tuple(row))
PY
done
