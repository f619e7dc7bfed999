#!/usr/bin/env bash
# `sudokud solve --remote` to one local server (its default slots) against local
# `sudokud solve` (every core), in the same run, taking turns ROUNDS times. Client
# and server share this machine's cores: the remote figure pays for both. Prints
# wall times, the ratio (local time / remote time: 1.0 = as fast as local), and
# the server's CPU time for its runs.
#
#   bash benches/remote.sh            (env: SETS="17_clue forum_hardest_1905_11plus", ROUNDS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --bin sudokud >/dev/null
bin=target/release/sudokud
dir=${SUDOKUD_PUZZLES:-../shared/data/puzzles}
rounds=${ROUNDS:-3}
sets=${SETS:-"17_clue forum_hardest_1905_11plus"}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SUDOKUD_LISTEN=127.0.0.1:$port RUST_LOG=warn "$bin" serve &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do "$bin" health --addr 127.0.0.1:$port >/dev/null 2>&1 && break; sleep 0.1; done
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
ticks=$(getconf CLK_TCK)
now() { date +%s.%N; }
for set in $sets; do
  file="$dir/$set.txt"
  local_total=0 remote_total=0 server_ticks=0
  "$bin" solve "$file" >/tmp/sudokud-local.out
  for _ in $(seq 1 "$rounds"); do
    start=$(now); "$bin" solve "$file" >/tmp/sudokud-local.out; end=$(now)
    local_total=$(echo "$local_total + $end - $start" | bc)
    before=$(cpu)
    start=$(now); "$bin" solve --remote 127.0.0.1:$port "$file" >/tmp/sudokud-remote.out; end=$(now)
    server_ticks=$((server_ticks + $(cpu) - before))
    remote_total=$(echo "$remote_total + $end - $start" | bc)
    cmp -s /tmp/sudokud-local.out /tmp/sudokud-remote.out || { echo "$set: remote output differs"; exit 1; }
  done
  puzzles=$(wc -l </tmp/sudokud-local.out)
  echo "$set ($puzzles puzzles, $rounds rounds): local $(echo "scale=3; $local_total / $rounds" | bc) s," \
    "remote $(echo "scale=3; $remote_total / $rounds" | bc) s," \
    "ratio $(echo "scale=2; $local_total / $remote_total" | bc)x," \
    "server CPU $(echo "scale=3; $server_ticks / $ticks / $rounds" | bc) s a run"
done
