#!/usr/bin/env bash
# The silent-connections bar: two client processes hold 10,000 TCP connections
# each that never send a byte against a release server on this machine. While
# they are held, a new caller's health check must answer within 5 s and the
# server must stay under 10% of a core; then it must close them by itself (the
# handshake timeout; the connection cap below the descriptor limit makes room for
# callers meanwhile). Also prints the server's CPU for the whole run, per
# connection (accept to close).
#
#   bash benches/silent.sh [PER_CLIENT]      # default: 10000 connections per client
#
# TIMEOUT=S (default 10) is the server's handshake timeout here, so that the held
# window (3 s to 8 s after they begin) comes before the closing.
# BIN=PATH measures that sudokud binary instead of building this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
per_client=${1:-10000}
[ -n "${BIN:-}" ] || cargo build --quiet --release --bin sudokud --bin sudokud-server
bin=${BIN:-target/release/sudokud}
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
port=${PORT:-50094}
metrics_port=$((port + 1))
log=$(mktemp)
timeout=${TIMEOUT:-10}
"$bin" --listen "127.0.0.1:$port" --metrics-listen "127.0.0.1:$metrics_port" \
  --handshake-timeout-seconds "$timeout" 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do
  "$bin" health --addr "127.0.0.1:$port" >/dev/null 2>&1 && break
  sleep 0.1
done
echo "server pid $server, descriptor limit $(awk '/Max open files/ { print $4 }' /proc/$server/limits)"
ticks() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }
idle=$(ticks)
hold=$((timeout + 10))
python3 benches/silent.py 127.0.0.1 "$port" "$per_client" "$hold" &
first=$!
python3 benches/silent.py 127.0.0.1 "$port" "$per_client" "$hold" &
second=$!
sleep 3 # let the silent connections pile up
before=$(ticks)
for attempt in 1 2 3; do
  start=$(date +%s.%N)
  if timeout 5 "$bin" health --addr "127.0.0.1:$port" >/dev/null; then
    result=SERVING
  else
    result="no answer within 5 s"
  fi
  end=$(date +%s.%N)
  awk -v a="$attempt" -v r="$result" -v s="$start" -v e="$end" \
    'BEGIN { printf "health check %d while they hold: %s in %.0f ms\n", a, r, (e - s) * 1000 }'
  sleep 1
done
sleep 2
after=$(ticks)
# USER_HZ is 100: ticks over the 5 s window, as a share of one core.
awk -v b="$before" -v a="$after" 'BEGIN { printf "server CPU while they are held (5 s): %.1f%% of a core\n", (a - b) / 5 }'
wait "$first" "$second"
awk -v b="$idle" -v a="$(ticks)" -v n="$((2 * per_client))" \
  'BEGIN { printf "server CPU for the whole run: %.2f s, %.0f µs per connection\n", (a - b) / 100, (a - b) * 1e4 / n }'
curl -s "http://127.0.0.1:$metrics_port/metrics" | grep -E '^sudokud_connections_(open|closed)' || true
grep -c 'connection cap' "$log" | sed 's/^/cap warnings logged (rate-limited): /'
