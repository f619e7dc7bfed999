#!/usr/bin/env bash
# Instructions per puzzle of `sudokud solve --threads 1`, counted by valgrind's
# callgrind (deterministic, unlike wall time on a shared machine), for this tree's
# build and a base build side by side: the A/B that every engine change must pass
# (at most 3% more on any set).
#
#   bash benches/instructions.sh [SET...]      # default: the five sets of the speed bar
#
# BASE=REV (default HEAD~1) is built in a git worktree under target/ab (or give
# BASE_BIN=PATH to a binary already built); SAMPLE=N puzzles of each set (default
# 2000); the start-up cost (an empty input) is taken off before dividing.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
puzzles="$shared/data/puzzles"
sample=${SAMPLE:-2000}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)"; exit 1; }

cargo build --quiet --release --bin sudokud
ours=target/release/sudokud
base_bin=${BASE_BIN:-}
if [ -z "$base_bin" ]; then
  base=${BASE:-HEAD~1}
  tree=target/ab/tree
  rm -rf "$tree"
  git worktree prune
  git worktree add --quiet --detach "$tree" "$base"
  trap 'git worktree remove --force "$tree" 2>/dev/null || true' EXIT
  # Shared puzzles are found relative to the manifest: keep them reachable.
  CARGO_TARGET_DIR=target/ab/target cargo build --quiet --release --bin sudokud \
    --manifest-path "$tree/Cargo.toml"
  base_bin=target/ab/target/release/sudokud
fi

sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(17_clue magictour_top1465 forum_hardest_1905_11plus forum_hardest_1106 serg_benchmark)

# Instructions of one run of `$1 solve --threads 1 $2` on stdin `$3`.
instructions() {
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" solve --threads 1 $2 <"$3" \
    2>"$out" >/dev/null
  grep -o 'Collected : [0-9]*' "$out" | grep -o '[0-9]*$'
  rm -f "$out"
}

empty=$(mktemp)
input=$(mktemp)
trap 'rm -f "$empty" "$input"; git worktree remove --force target/ab/tree 2>/dev/null || true' EXIT
printf '%-28s %-7s %12s %12s %8s\n' set mode base/puzzle this/puzzle change
for set in "${sets[@]}"; do
  head -n "$sample" "$puzzles/$set.txt" >"$input"
  count=$(wc -l <"$input")
  for mode in first count2; do
    flag=""
    [ "$mode" = count2 ] && flag="--count"
    per_base=$(( ($(instructions "$base_bin" "$flag" "$input") - $(instructions "$base_bin" "$flag" "$empty")) / count ))
    per_ours=$(( ($(instructions "$ours" "$flag" "$input") - $(instructions "$ours" "$flag" "$empty")) / count ))
    awk -v set="$set" -v mode="$mode" -v b="$per_base" -v o="$per_ours" \
      'BEGIN { printf "%-28s %-7s %12d %12d %+7.1f%%\n", set, mode, b, o, (o - b) * 100 / b }'
  done
done
