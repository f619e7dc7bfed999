#!/usr/bin/env bash
# Side-by-side throughput of `sudokud solve` (one thread) and its peers, all reading
# puzzles on stdin and printing answers, on the same machine in the same run:
# - the `sudoku` crate 0.8 (JCZSolve port, AGPL: built outside the repo as a peer,
#   never a dependency), always;
# - tdoku, when TDOKU names a binary (built beside the project, never by this script):
#   a driver of your own that reads one puzzle a line and prints the first solution,
#   or with `--count` the number of solutions up to two (docs/performance.md says how).
#
#   bash benches/peer.sh [SET...]      # default: the five sets of the speed bar
#   TDOKU=/path/to/tdoku-driver bash benches/peer.sh
#
# Prints puzzles/s for first solution and count-to-two and sudokud's ratio to each
# peer and to the faster of them (medians of ROUNDS=7 runs each, the programs
# alternating so that a noisy moment on the shared machine hits all alike). Answers
# are compared first: the counts must be identical, and each first solution must
# fill its puzzle (puzzles with several solutions may differ in which they give).
# The last column reads a contention gauge (benches/gauge/contention.rs) before and
# after each line's runs: about 0.75-0.8 while this core is ours alone, 1.2 and more
# while a neighbouring hyperthread runs (sudokud loses more than its peers then;
# docs/performance.md says why).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
puzzles="$shared/data/puzzles"
peer_target=${PEER_TARGET:-/tmp/sudokud-peer}
CARGO_TARGET_DIR="$peer_target" cargo build --quiet --release \
  --manifest-path "$shared/tools/peer-sudoku-crate/Cargo.toml"
cargo build --quiet --release --bin sudokud --example contention
gauge="target/release/examples/contention"
crate="$peer_target/release/peer-sudoku-crate"
ours="target/release/sudokud"
tdoku=${TDOKU:-}
if [ -n "$tdoku" ] && [ ! -x "$tdoku" ]; then
  echo "TDOKU=$tdoku is not an executable" >&2
  exit 2
fi

sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(17_clue magictour_top1465 forum_hardest_1905_11plus forum_hardest_1106 serg_benchmark)
rounds=${ROUNDS:-7}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Microseconds of wall clock for one run of a program: `micros FILE PROGRAM ARGS...`
# runs it with FILE on stdin, started by this shell itself and timed with bash's own
# clock (`EPOCHREALTIME`, microseconds), so the figure is the program's whole
# process (fork, exec, start, work, exit) and nothing else: no `date` processes and
# no `sh -c` around it, which used to add about 1.8 ms to every run alike.
micros() {
  local file=$1 start end
  shift
  start=$EPOCHREALTIME
  "$@" <"$file" >/dev/null
  end=$EPOCHREALTIME
  echo $((${end//[.,]/} - ${start//[.,]/}))
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Each first solution must keep its puzzle's givens and be a full grid (the
# validity of the grid itself is the peers' agreement on counts and the engine's
# tests); counts must match exactly.
check() {
  local file=$1 mode=$2 name=$3 answers=$4
  if [ "$mode" = count2 ]; then
    cmp -s "$scratch/ours" "$answers" || { echo "$name disagrees on counts for $file" >&2; exit 1; }
  else
    paste -d' ' "$file" "$answers" | awk -v name="$name" '
      length($2) != 81 || $2 !~ /^[1-9]+$/ { bad++; next }
      { for (i = 1; i <= 81; i++) { c = substr($1, i, 1); if (c ~ /[1-9]/ && c != substr($2, i, 1)) { bad++; next } } }
      END { if (bad) { print name ": " bad " answers do not fill their puzzle" > "/dev/stderr"; exit 1 } }'
  fi
}

# The column formats: rates, then ratios (tdoku's when given), then the gauge.
header="%-26s %-6s %11s %11s %8s"
[ -n "$tdoku" ] && header="%-26s %-6s %11s %11s %11s %8s %8s"
printf "$header %10s\n" set mode sudokud/s crate/s ${tdoku:+tdoku/s} vs-crate ${tdoku:+vs-tdoku} gauge | sed 's/ *$//'
for set in "${sets[@]}"; do
  file="$puzzles/$set.txt"
  count=$(wc -l <"$file")
  for mode in first count2; do
    flag=""
    [ "$mode" = count2 ] && flag="--count"
    "$ours" solve --threads 1 $flag <"$file" >"$scratch/ours"
    check "$file" "$mode" sudokud "$scratch/ours"
    "$crate" $flag <"$file" >"$scratch/crate"
    check "$file" "$mode" crate "$scratch/crate"
    if [ -n "$tdoku" ]; then
      "$tdoku" $flag <"$file" >"$scratch/tdoku"
      check "$file" "$mode" tdoku "$scratch/tdoku"
    fi
    : >"$scratch/t.ours"; : >"$scratch/t.crate"; : >"$scratch/t.tdoku"
    before=$("$gauge" 9)
    for _ in $(seq "$rounds"); do
      micros "$file" "$ours" solve --threads 1 $flag >>"$scratch/t.ours"
      micros "$file" "$crate" $flag >>"$scratch/t.crate"
      [ -z "$tdoku" ] || micros "$file" "$tdoku" $flag >>"$scratch/t.tdoku"
    done
    o=$(median <"$scratch/t.ours")
    c=$(median <"$scratch/t.crate")
    t=$([ -z "$tdoku" ] || median <"$scratch/t.tdoku")
    after=$("$gauge" 9)
    awk -v set="$set" -v mode="$mode" -v n="$count" -v o="$o" -v c="$c" -v t="$t" -v g="$before/$after" 'BEGIN {
      line = sprintf("%-26s %-6s %11.0f %11.0f", set, mode, n * 1e6 / o, n * 1e6 / c)
      if (t != "") line = line sprintf(" %11.0f", n * 1e6 / t)
      line = line sprintf(" %7.2fx", c / o)
      if (t != "") line = line sprintf(" %7.2fx", t / o)
      print line sprintf(" %10s", g)
    }'
  done
done
