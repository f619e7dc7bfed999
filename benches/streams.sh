#!/usr/bin/env bash
# The dashboards bar: N paced streams at once (1 step/s, one step a message, plain
# backtracking on the puzzle built to defeat it) against a release server on this
# machine, with 200 unary Solves of forum_hardest_1106 puzzles (propagation, 5 s
# deadline) made one after another while they pace. Prints, per N, how many
# streams got going and when, the steps/s received, the probes' latencies, and the
# server's CPU per step message, threads and resident memory (from /proc).
#
#   bash benches/streams.sh [N...]       # default: 1000 10000
#
# WINDOW=S (default 10) is the steady window measured once all streams are going.
# PROBES=K (default 200) sets how many unary probes are made.
# BIN=PATH measures that sudokud binary instead of building this tree (an A/B
# against a base build, e.g. the one benches/instructions.sh leaves in target/ab).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
puzzles="$shared/data/puzzles"
window=${WINDOW:-10}
probe_count=${PROBES:-200}
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 10000)
[ -n "${BIN:-}" ] || cargo build --quiet --release --bin sudokud --bin sudokud-server
bin=${BIN:-target/release/sudokud}
ulimit -n 65536 2>/dev/null || true
head -n 1 "$puzzles/plb_hard20.txt" >target/streams-puzzle.txt
port=${PORT:-50093}
for n in "${counts[@]}"; do
  log=$(mktemp)
  "$bin" --listen "127.0.0.1:$port" 2>"$log" &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  for _ in $(seq 1 100); do
    grep -q 'sudokud serving' "$log" && break
    sleep 0.1
  done
  echo "== $n paced streams"
  "$bin" load --addr "127.0.0.1:$port" --rpc steps --streams "$n" --pace 1 \
    --algorithm backtracking --puzzles target/streams-puzzle.txt --duration "$window" \
    --probes "$puzzles/forum_hardest_1106.txt" --probe-count "$probe_count" \
    --probe-algorithm propagation --probe-timeout 5 --server-pid "$server"
  kill -TERM "$server"
  wait "$server" || true
  rm -f "$log"
done
