#!/usr/bin/env bash
# Generation under variant rules: puzzles/s per kind of `sudokud generate
# --threads 1` on core 0 (no symmetry, givens minimal), and every puzzle
# checked by OR-Tools CP-SAT (benches/variants/check_generated.py, nothing of
# sudokud's): unique, its solution the one given, minimal (each given taken
# away gives a second solution).
#
#   bash benches/generate-variants.sh [COUNT]     # default 20 puzzles a kind
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20}
venv=${CPSAT_VENV:-/tmp/sudokud-cpsat}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import ortools' 2>/dev/null || "$venv/bin/pip" install --quiet ortools
cargo build --quiet --release --bin sudokud --bin sudokud-server
bin=${BIN:-target/release/sudokud}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name | rules (proto3 JSON) | flags
kinds=(
  'x|{"diagonal": true}|'
  'windoku|{"windoku": true}|'
  'anti-knight|{"antiKnight": true}|'
  'anti-king|{"antiKing": true}|'
  'non-consecutive|{"nonConsecutive": true}|'
  'thermo|{"thermometers": [{"cells": [0, 10, 20, 30]}, {"cells": [80, 79, 78]}]}|'
  'x+anti-king|{"diagonal": true, "antiKing": true}|'
  'jigsaw|{}|--random-regions'
  'jigsaw+anti-knight|{"antiKnight": true}|--random-regions'
  'jigsaw+windoku|{"windoku": true}|--random-regions'
  'killer|{}|--random-cages'
  'killer+x|{"diagonal": true}|--random-cages'
  'killer 6x6|{"boxRows": 2, "boxCols": 3}|--random-cages'
)
printf '%-20s %6s %10s %8s %7s %7s %8s\n' kind made puzzles/s givens unique kept minimal
for kind in "${kinds[@]}"; do
  IFS='|' read -r name rules flags <<<"$kind"
  echo "$rules" >"$work/rules.json"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086 # flags is one word or none
  taskset -c 0 "$bin" generate --threads 1 --count "$count" --seed 1 \
    --rules "$work/rules.json" $flags >"$work/made.jsonl"
  took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
  checked=$(cd benches/variants && "$venv/bin/python" check_generated.py "$work/made.jsonl")
  python3 - "$name" "$count" "$took" "$checked" <<'PY'
import json, sys
name, count, took, checked = sys.argv[1:]
c = json.loads(checked)
print("%-20s %6s %10.1f %8s %7s %7s %8s" % (name, c["made"], int(count) / float(took),
      f"{c['givens']:.1f}", c["unique"], c["solution_kept"], c["minimal"]))
PY
done
