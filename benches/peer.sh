#!/usr/bin/env bash
# Side-by-side throughput of `sudokud solve` (one thread) and the `sudoku` crate 0.8
# (JCZSolve port, AGPL: built outside the repo as a peer, never a dependency), both
# reading puzzles on stdin and printing answers, on the same machine in the same run.
#
#   bash benches/peer.sh [SET...]      # default: the five sets of the speed bar
#
# Prints puzzles/s for first solution and count-to-two, and sudokud's ratio to the peer
# (best of ROUNDS=5 alternating runs each).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
puzzles="$shared/data/puzzles"
peer_target=${PEER_TARGET:-/tmp/sudokud-peer}
CARGO_TARGET_DIR="$peer_target" cargo build --quiet --release \
  --manifest-path "$shared/tools/peer-sudoku-crate/Cargo.toml"
cargo build --quiet --release --bin sudokud
peer="$peer_target/release/peer-sudoku-crate"
ours="target/release/sudokud"

sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(17_clue magictour_top1465 forum_hardest_1905_11plus forum_hardest_1106 serg_benchmark)

# Wall-clock seconds of one run.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { print e - s }'
}

rounds=${ROUNDS:-5}
printf '%-28s %-7s %12s %12s %7s\n' set mode sudokud/s peer/s ratio
for set in "${sets[@]}"; do
  file="$puzzles/$set.txt"
  count=$(wc -l <"$file")
  for mode in first count2; do
    flag=""
    [ "$mode" = count2 ] && flag="--count"
    # Best of ROUNDS runs each, the two programs alternating so that a noisy
    # moment on the shared machine hits both alike.
    ours_s="" peer_s=""
    for _ in $(seq "$rounds"); do
      ours_s=$(awk -v a="$ours_s" -v t="$(seconds sh -c "$ours solve --threads 1 $flag < '$file'")" \
        'BEGIN { print (a == "" || t < a) ? t : a }')
      peer_s=$(awk -v a="$peer_s" -v t="$(seconds sh -c "$peer $flag < '$file'")" \
        'BEGIN { print (a == "" || t < a) ? t : a }')
    done
    awk -v set="$set" -v mode="$mode" -v n="$count" -v o="$ours_s" -v p="$peer_s" \
      'BEGIN { printf "%-28s %-7s %12.0f %12.0f %6.2fx\n", set, mode, n / o, n / p, p / o }'
  done
done
