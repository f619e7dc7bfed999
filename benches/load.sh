#!/usr/bin/env bash
# Unary Solve against the bare framework: sudokud's Solve (line 7 of 17_clue.txt,
# the default engine, a fresh solve every call) and a bare tonic server's health
# Check (../shared/tools/grpc-baseline), alternating, one connection each, at
# concurrency 1, 16 and 64, with grpc-baseline's raw client for both; then one
# unpaced SolveSteps client (batches of 256) against the bare server's stream of
# similar messages. Medians of the rounds; client and servers share this machine.
#
#   bash benches/load.sh [ROUNDS] [SECONDS]     # default: 3 rounds of 3 s per run
# BIN=PATH measures that sudokud binary instead of building this tree (an A/B
# against a base build, e.g. the one benches/instructions.sh leaves in target/ab).
#
# Exits 1 (after every table) when at any concurrency the median Solve / bare
# ratio falls under MIN_RATIO (0.85) or Solve's p99 passes MAX_P99 (2.0) times
# the bare server's: run it before resolving any change to the call path. A
# bench, not a CI test: this shared machine is too noisy to gate landings on it.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
seconds=${2:-3}
min_ratio=${MIN_RATIO:-0.85}
max_p99=${MAX_P99:-2.0}
short=()
shared=${SHARED:-../shared}
[ -n "${BIN:-}" ] || cargo build --quiet --release --bin sudokud --bin sudokud-server
CARGO_TARGET_DIR=target/grpc-baseline cargo build --quiet --release \
  --manifest-path "$shared/tools/grpc-baseline/Cargo.toml"
bin=${BIN:-target/release/sudokud}
raw=target/grpc-baseline/release/grpc-baseline
ours=127.0.0.1:${PORT:-50091}
bare=127.0.0.1:${BARE_PORT:-50092}
"$bin" --listen "$ours" 2>/dev/null &
server=$!
"$raw" serve "$bare" >/dev/null 2>&1 &
baseline=$!
trap 'kill $server $baseline 2>/dev/null || true' EXIT
for _ in $(seq 100); do # wait until both listen
  "$bin" health --addr "$ours" >/dev/null 2>&1 && "$bin" health --addr "$bare" >/dev/null 2>&1 && break
  sleep 0.1
done

puzzle=$(sed -n 7p "$shared/data/puzzles/17_clue.txt")
hex=0a51$(printf %s "$puzzle" | od -An -tx1 | tr -d ' \n')
# One raw run: prints "ok/s p99_us".
run() { # address method payload concurrency
  "$raw" raw "$1" "$2" "$3" "$4" "$seconds" |
    sed -n 's/.* ok\/s=\([0-9]*\) p50_us=[0-9]* p99_us=\([0-9]*\).*/\1 \2/p'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "| concurrency | bare health ok/s | Solve ok/s | Solve / bare | bare p99 µs | Solve p99 µs | p99 ratio |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for concurrency in 1 16 64; do
  bare_rate=() bare_p99=() ours_rate=() ours_p99=()
  for _ in $(seq "$rounds"); do
    read -r rate p99 < <(run "$ours" /sudoku.v1.SudokuService/Solve "$hex" "$concurrency")
    ours_rate+=("$rate") ours_p99+=("$p99")
    read -r rate p99 < <(run "$bare" /grpc.health.v1.Health/Check "" "$concurrency")
    bare_rate+=("$rate") bare_p99+=("$p99")
  done
  b=$(printf '%s\n' "${bare_rate[@]}" | median)
  o=$(printf '%s\n' "${ours_rate[@]}" | median)
  bp=$(printf '%s\n' "${bare_p99[@]}" | median)
  op=$(printf '%s\n' "${ours_p99[@]}" | median)
  awk -v c="$concurrency" -v b="$b" -v o="$o" -v bp="$bp" -v op="$op" \
    'BEGIN { printf "| %d | %d | %d | %.2f | %d | %d | %.2f |\n", c, b, o, o / b, bp, op, op / bp }'
  if awk -v b="$b" -v o="$o" -v m="$min_ratio" 'BEGIN { exit !(b <= 0 || o / b < m) }'; then
    short+=("Solve / bare under $min_ratio at concurrency $concurrency")
  fi
  if awk -v bp="$bp" -v op="$op" -v m="$max_p99" 'BEGIN { exit !(bp <= 0 || op / bp > m) }'; then
    short+=("Solve's p99 over $max_p99 times the bare server's at concurrency $concurrency")
  fi
done

echo
plb=$(mktemp)
head -1 "$shared/data/puzzles/plb_hard20.txt" >"$plb"
ours_steps=() bare_events=()
for _ in $(seq "$rounds"); do
  ours_steps+=("$("$bin" load --addr "$ours" --rpc steps --algorithm backtracking \
    --puzzles "$plb" --duration "$seconds" | sed -n 's/^steps received: [0-9]* (\([0-9]*\) steps\/s)$/\1/p')")
  bare_events+=("$("$raw" stream "$bare" 50000000 256 | sed -n 's/.*events_per_s=\([0-9]*\).*/\1/p')")
done
rm -f "$plb"
s=$(printf '%s\n' "${ours_steps[@]}" | median)
b=$(printf '%s\n' "${bare_events[@]}" | median)
echo "| stream, batches of 256 | events/s |"
echo "|---|---:|"
echo "| bare tonic stream (6-field events) | $b |"
echo "| one SolveSteps client (7-field steps) | $s |"
awk -v s="$s" -v b="$b" 'BEGIN { printf "| SolveSteps / bare | %.2f |\n", s / b }'

if [ ${#short[@]} -gt 0 ]; then
  printf 'short of the bar: %s\n' "${short[@]}" >&2
  exit 1
fi
