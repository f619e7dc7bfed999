#!/usr/bin/env bash
# The JSON route against gRPC on one server: Solve of line 7 of 17_clue.txt as
# a gRPC call (grpc-baseline's raw client, one HTTP/2 connection), as a Connect
# JSON POST to /v1/solve and as Connect's GET form (wrk, one thread, one HTTP/1.1
# keep-alive connection a caller), at concurrency 1, 16 and 64, taking turns
# ROUNDS times; medians of calls/s. Client and server share this machine.
# Needs wrk (Debian: apt-get install wrk).
#
#   bash benches/json-route.sh [ROUNDS] [SECONDS]     # default: 3 rounds of 3 s
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
seconds=${2:-3}
shared=${SHARED:-../shared}
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)"; exit 1; }
cargo build --quiet --release --bin sudokud --bin sudokud-server
CARGO_TARGET_DIR=target/grpc-baseline cargo build --quiet --release \
  --manifest-path "$shared/tools/grpc-baseline/Cargo.toml"
bin=target/release/sudokud
raw=target/grpc-baseline/release/grpc-baseline
address=127.0.0.1:${PORT:-50093}
RUST_LOG=warn "$bin" --listen "$address" 2>/dev/null &
server=$!
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do "$bin" health --addr "$address" >/dev/null 2>&1 && break; sleep 0.1; done

puzzle=$(sed -n 7p "$shared/data/puzzles/17_clue.txt")
hex=0a51$(printf %s "$puzzle" | od -An -tx1 | tr -d ' \n')
cat >"$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"puzzle": "$puzzle"}'
LUA
query="encoding=json&message=%7B%22puzzle%22%3A%22${puzzle//./%2E}%22%7D"
grpc() { "$raw" raw "$address" /sudoku.v1.SudokuService/Solve "$hex" "$1" "$seconds" |
  sed -n 's/.* ok\/s=\([0-9]*\) .*/\1/p'; }
# wrk's requests/s, only when every answer was a 200.
json() {
  wrk -t1 -c "$1" -d "${seconds}s" "${@:2}" >"$work/wrk.txt"
  ! grep -q 'Non-2xx' "$work/wrk.txt" || { cat "$work/wrk.txt"; exit 1; }
  awk '/Requests\/sec/ {printf "%d\n", $2}' "$work/wrk.txt"
}
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
echo "concurrency  gRPC calls/s  JSON POST calls/s (ratio)  GET calls/s (ratio)"
for concurrency in 1 16 64; do
  : >"$work/grpc"; : >"$work/post"; : >"$work/get"
  for _ in $(seq "$rounds"); do
    grpc "$concurrency" >>"$work/grpc"
    json "$concurrency" -s "$work/post.lua" "http://$address/v1/solve" >>"$work/post"
    json "$concurrency" "http://$address/sudoku.v1.SudokuService/Solve?$query" >>"$work/get"
  done
  g=$(median <"$work/grpc"); p=$(median <"$work/post"); q=$(median <"$work/get")
  printf '%11s  %12s  %17s (%.2fx)  %11s (%.2fx)\n' "$concurrency" "$g" "$p" \
    "$(echo "$p / $g" | bc -l)" "$q" "$(echo "$q / $g" | bc -l)"
done
