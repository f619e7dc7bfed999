#!/usr/bin/env bash
# A rolling restart through a real L7 proxy, on this machine. HAProxy (HTTP/2 to
# the backends, one request at a time balanced round robin, `GET /readyz` checks
# every 200 ms, retries on connection failure) stands in front of three sudokud
# processes. Through it, for the whole run, `sudokud load` makes unary Solves and
# `sudokud watch` follows paced SolveSteps streams (resuming the ones cut). Each
# backend in turn gets SIGTERM, is waited for, and is started again on its port.
# Prints the calls made, the calls failed by status and the streams resumed, and
# fails unless no call failed, at least MIN_CALLS Solves were made, and every
# stream printed the same steps as an uninterrupted stream of the same search.
#
#   bash deploy/rolling-restart.sh
#
# Needs haproxy (Debian: apt-get install haproxy) and python3. Settings from the
# environment: SUDOKUD (the binary; default target/debug/sudokud, built if
# missing), STREAMS (10), CALLERS (8), MIN_CALLS (10000), DRAIN (1, seconds),
# GRACE (1), SPAN (seconds a paced stream lasts, 12), KEEP (a directory to keep
# the logs in).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SUDOKUD:-target/debug/sudokud}
streams=${STREAMS:-10}
callers=${CALLERS:-8}
min_calls=${MIN_CALLS:-10000}
drain=${DRAIN:-1}
grace=${GRACE:-1}
span=${SPAN:-12}
puzzles=${PUZZLES:-${SUDOKUD_PUZZLES:-../shared/data/puzzles}/euler96_50.txt}
command -v haproxy >/dev/null || { echo "needs haproxy (apt-get install haproxy)"; exit 2; }
[ -x "$bin" ] || cargo build --locked --bin sudokud --bin sudokud-server
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}" ${backend_pids[@]+"${backend_pids[@]}"}; do
    kill "$pid" 2>/dev/null || true
  done
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Polls `$@` every 0.1 s until it succeeds, at most `limit` seconds.
wait_until() {
  local limit=$1
  shift
  for _ in $(seq 1 $((limit * 10))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "gave up after $limit s waiting for: $*"
  return 1
}

# --- three backends ---------------------------------------------------------
ports=()
backend_pids=()
start_backend() {
  local index=$1
  SUDOKUD_LISTEN="127.0.0.1:${ports[$index]}" SUDOKUD_DRAIN_DELAY=$drain \
    SUDOKUD_SHUTDOWN_GRACE=$grace SUDOKUD_NO_DASHBOARD=true RUST_LOG=warn \
    "$bin" serve >>"$work/backend-$index.log" 2>&1 &
  backend_pids[$index]=$!
  wait_until 20 "$bin" health --addr "127.0.0.1:${ports[$index]}"
}
for index in 0 1 2; do
  ports[$index]=$(free_port)
  start_backend "$index"
done

# --- the proxy ----------------------------------------------------------------
proxy_port=$(free_port)
stats_port=$(free_port)
cat >"$work/haproxy.cfg" <<EOF
global
  maxconn 2000
  log stderr format raw local0 info
defaults
  mode http
  log global
  option httplog
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout check 1s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout
frontend grpc
  bind 127.0.0.1:$proxy_port proto h2
  default_backend sudokud
frontend stats
  bind 127.0.0.1:$stats_port
  stats enable
  stats uri /stats
backend sudokud
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server proto h2 check inter 200ms fall 1 rise 1
  server b0 127.0.0.1:${ports[0]}
  server b1 127.0.0.1:${ports[1]}
  server b2 127.0.0.1:${ports[2]}
EOF
haproxy -c -q -f "$work/haproxy.cfg"
haproxy -db -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
pids+=($!)

# Whether HAProxy's checks say backend `$1` is up.
backend_up() {
  python3 - "$stats_port" "$1" <<'PY'
import csv, sys, urllib.request
port, name = sys.argv[1], sys.argv[2]
rows = csv.DictReader(urllib.request.urlopen(f"http://127.0.0.1:{port}/stats;csv", timeout=2)
                      .read().decode().lstrip("# ").splitlines())
sys.exit(0 if any(r["svname"] == name and r["status"] == "UP" for r in rows) else 1)
PY
}
for index in 0 1 2; do wait_until 10 backend_up "b$index"; done
proxy="127.0.0.1:$proxy_port"
echo "haproxy at $proxy in front of 127.0.0.1:${ports[0]}, :${ports[1]}, :${ports[2]} (logs: $work)"

# --- the streams' puzzles and their uninterrupted steps -------------------------
# Backtracking searches of 300 to 12,000 steps, paced to last about SPAN seconds.
chosen=0
while read -r puzzle && [ "$chosen" -lt "$streams" ]; do
  case "$puzzle" in "" | "#"*) continue ;; esac
  "$bin" watch --addr "$proxy" --algorithm backtracking "$puzzle" >"$work/whole-$chosen.txt"
  steps=$(grep -c -E '^[0-9]+ (place|backtrack) ' "$work/whole-$chosen.txt" || true)
  if [ "$steps" -ge 300 ] && [ "$steps" -le 12000 ]; then
    echo "$puzzle" >"$work/puzzle-$chosen.txt"
    echo $(((steps + span - 1) / span)) >"$work/pace-$chosen.txt"
    chosen=$((chosen + 1))
  fi
done <"$puzzles"
[ "$chosen" -eq "$streams" ] || { echo "only $chosen puzzles of 300-12,000 steps in $puzzles"; exit 1; }

# --- traffic through the proxy, restarts under it ----------------------------------
duration=$((span + 3 * (drain + grace) + 8))
"$bin" load --addr "$proxy" --rpc solve --concurrency "$callers" --duration "$duration" \
  >"$work/load.txt" 2>&1 &
load=$!
pids+=("$load")
watchers=()
for index in $(seq 0 $((streams - 1))); do
  "$bin" watch --addr "$proxy" --algorithm backtracking --pace "$(cat "$work/pace-$index.txt")" \
    --reconnects 20 "$(cat "$work/puzzle-$index.txt")" \
    >"$work/watch-$index.txt" 2>"$work/watch-$index.err" &
  watchers+=($!)
  pids+=($!)
done
# Every stream has begun before the first restart.
for index in $(seq 0 $((streams - 1))); do
  wait_until 10 grep -q -E '^[0-9]+ ' "$work/watch-$index.txt"
done

for index in 0 1 2; do
  echo "restarting b$index (SIGTERM, drain $drain s, grace $grace s)"
  kill -TERM "${backend_pids[$index]}"
  wait "${backend_pids[$index]}" || { echo "b$index exited with $?"; exit 1; }
  start_backend "$index"
  wait_until 10 backend_up "b$index"
done
kill -0 "$load" 2>/dev/null || { echo "the Solves ended before the restarts did: raise SPAN"; exit 1; }

# --- what the callers saw ----------------------------------------------------------
status=0
for index in "${!watchers[@]}"; do
  wait "${watchers[$index]}" || { echo "stream $index failed: $(tail -n1 "$work/watch-$index.err")"; status=1; }
done
wait "$load" || status=1
cat "$work/load.txt"
made=$(sed -n -E 's/.* ([0-9]+) calls \(([0-9]+) errors\).*/\1 \2/p' "$work/load.txt")
read -r ok failed <<<"${made:-0 0}"
correct=0
resumed=0
cuts=0
for index in $(seq 0 $((streams - 1))); do
  if cmp -s <(grep -v '^stats: ' "$work/watch-$index.txt") \
    <(grep -v '^stats: ' "$work/whole-$index.txt"); then
    correct=$((correct + 1))
  else
    echo "stream $index: its steps differ from the uninterrupted stream's"
  fi
  cut=$(grep -c '^stream cut' "$work/watch-$index.err" || true)
  cuts=$((cuts + cut))
  [ "$cut" -gt 0 ] && resumed=$((resumed + 1))
done
echo "rolling restart: 3 backends, each restarted once (drain $drain s, grace $grace s)"
echo "unary Solve: $((ok + failed)) calls made, $failed failed"
echo "paced streams: $streams, $correct replay-correct, $resumed resumed ($cuts reconnections)"
if [ "$cuts" -gt 0 ]; then
  echo "streams cut by: $(sed -n -E 's/^stream cut \(([A-Za-z]+): .*/\1/p' "$work"/watch-*.err |
    sort | uniq -c | awk '{printf "%s%s %s", sep, $2, $1; sep=", "}')"
fi
[ "$failed" -eq 0 ] || status=1
[ "$ok" -ge "$min_calls" ] || { echo "fewer than $min_calls Solves"; status=1; }
[ "$correct" -eq "$streams" ] || status=1
[ "$resumed" -gt 0 ] || { echo "no stream was cut: nothing was resumed"; status=1; }
[ "$status" -eq 0 ] && echo "rolling restart passed" || echo "rolling restart FAILED"
exit "$status"
