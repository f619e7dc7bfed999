#!/usr/bin/env bash
# sudokud against OR-Tools CP-SAT (one worker, the plain model: AllDifferent per row,
# column and box) on the public 16x16 and 25x25 sets, first solution and count to two,
# both on the same core (core 0) in the same run.
#
#   bash benches/sizes.sh [SET...]     # default: every set below; MAX_STEPS caps sudokud
#
# CP-SAT's time is its solve calls only (benches/cpsat.py, in a virtualenv it makes:
# PyPI `ortools`); sudokud's is the whole `sudokud solve --threads 1` process. Prints
# each side's total seconds, the ratio CP-SAT / sudokud (above 1: sudokud is faster)
# and how many puzzles sudokud left past MAX_STEPS (their time counts, their answer
# does not: a set with any is no win).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
puzzles="$shared/data/puzzles"
venv=${CPSAT_VENV:-/tmp/sudokud-cpsat}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import ortools' 2>/dev/null || "$venv/bin/pip" install --quiet ortools
cargo build --quiet --release --bin sudokud --bin sudokud-server
ours="target/release/sudokud"
max_steps=${MAX_STEPS:-20000000}

sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(gecode_janko_16x16 lloyd_amos_16x16 lloyd_amos_multi_16x16
  lloyd_amos_25x25 lloyd_amos_multi_25x25 gecode_frisch_25x25)

printf '%-24s %-6s %8s %10s %10s %8s %7s\n' set mode puzzles cp-sat/s sudokud/s ratio capped
for set in "${sets[@]}"; do
  file="$puzzles/$set.txt"
  case "$set" in
    *_16x16) box=4x4 ;;
    *_25x25) box=5x5 ;;
    *) echo "no shape known for $set" >&2; exit 2 ;;
  esac
  count=$(grep -c . "$file")
  for mode in first count; do
    flag=()
    [ "$mode" = count ] && flag=(--count)
    cpsat=$(taskset -c 0 "$venv/bin/python" benches/cpsat.py time "$file" "$box" "$mode" |
      awk '$1 == "total" { print $2 }')
    out=$(mktemp)
    start=$(date +%s.%N)
    taskset -c 0 "$ours" solve --threads 1 --box "$box" --max-steps "$max_steps" \
      "${flag[@]}" "$file" >"$out"
    end=$(date +%s.%N)
    capped=$(grep -c '^error' "$out" || true)
    rm -f "$out"
    awk -v set="$set" -v mode="$mode" -v n="$count" -v c="$cpsat" -v s="$start" -v e="$end" \
      -v capped="$capped" 'BEGIN {
        ours = e - s
        printf "%-24s %-6s %8d %10.3f %10.3f %7.1fx %7d\n", set, mode, n, c, ours, c / ours, capped
      }'
  done
done
