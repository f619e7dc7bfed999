#!/usr/bin/env bash
# Solve's throughput as a ratio of the health Check's on the same server, at the
# same concurrency, in the same run (the framework's own ceiling), plus the steps/s
# one SolveSteps client receives. Client and server share this machine.
#
#   bash benches/load.sh [ROUNDS] [SECONDS]     # default: 3 rounds of 3 s per call
#
# Health and Solve alternate within each round so noise hits both alike; the table
# shows the median of the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
seconds=${2:-3}
cargo build --quiet --release --bin sudokud
bin=target/release/sudokud
port=${PORT:-50091}
log=$(mktemp)
"$bin" --listen "127.0.0.1:$port" 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do # wait until it listens
  "$bin" health --addr "127.0.0.1:$port" >/dev/null 2>&1 && break
  sleep 0.1
done

rate() { # rpc concurrency -> calls/s
  "$bin" load --addr "127.0.0.1:$port" --rpc "$1" --concurrency "$2" --duration "$seconds" |
    sed -n 's/.* \([0-9]*\) calls\/s$/\1/p'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "| concurrency | health Check calls/s | Solve calls/s | Solve / health |"
echo "|---:|---:|---:|---:|"
for concurrency in 1 16 64; do
  health=() solve=()
  for _ in $(seq "$rounds"); do
    health+=("$(rate health "$concurrency")")
    solve+=("$(rate solve "$concurrency")")
  done
  h=$(printf '%s\n' "${health[@]}" | median)
  s=$(printf '%s\n' "${solve[@]}" | median)
  awk -v c="$concurrency" -v h="$h" -v s="$s" \
    'BEGIN { printf "| %d | %d | %d | %.2f |\n", c, h, s, s / h }'
done

puzzle=$(mktemp)
head -1 "${SHARED:-../shared}/data/puzzles/plb_hard20.txt" >"$puzzle"
echo
"$bin" load --addr "127.0.0.1:$port" --rpc steps --algorithm backtracking \
  --puzzles "$puzzle" --duration "$seconds" | sed -n 's/^steps received: /one SolveSteps stream: /p'
rm -f "$puzzle"
