#!/usr/bin/env bash
# The dashboards bar measured by an HTTP/2 client nobody here wrote: h2load
# (Debian nghttp2-client) opens N SolveSteps streams over C connections (M
# streams each at once), each paced at one step a second and one step a message,
# every one read to its end; meanwhile `sudokud load --streams 0` makes 200 unary
# Solves of forum_hardest_1106 puzzles (propagation, 5 s deadline) one after
# another. Each stream solves the same almost-full grid (a solution with BLANKS
# cells blanked), so it sends the same messages: one stream read by curl first,
# unpaced, says how many and how many bytes, and h2load's data bytes must come to
# N times that. Prints h2load's summary, the streams completed, the messages they
# carried, the server's CPU per message (the whole run, opening included), and
# its peak and final resident memory (from /proc).
#
#   bash benches/streams-h2load.sh [N...]   # default: 1000 10000 100000
#
# BLANKS=K (default 30) sets how long a stream runs (K steps, K seconds);
# PROBES=K (default 200) sets how many unary probes are made;
# BIN=PATH measures that sudokud binary instead of building this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v h2load >/dev/null || { echo "h2load is not installed (apt-get install nghttp2-client)"; exit 1; }
shared=${SHARED:-../shared}
puzzles="$shared/data/puzzles"
blanks=${BLANKS:-30}
probe_count=${PROBES:-200}
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 10000 100000)
[ -n "${BIN:-}" ] || cargo build --quiet --release --bin sudokud --bin sudokud-server
bin=${BIN:-target/release/sudokud}
ulimit -n 200000 2>/dev/null || ulimit -n 65536 2>/dev/null || true
work=$(mktemp -d)
port=${PORT:-50094}
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

# The request bodies: one gRPC frame of SolveStepsRequest {puzzle, algorithm
# propagation, max_batch 1, step_interval_ms}, paced and not.
solution=$("$bin" solve "$puzzles/euler96_50.txt" | head -n 1)
SOLUTION=$solution BLANKS=$blanks WORK=$work python3 - <<'EOF'
import os, random
solution, blanks, work = os.environ["SOLUTION"], int(os.environ["BLANKS"]), os.environ["WORK"]
cells = list(solution)
for cell in random.Random(7).sample(range(81), blanks):
    cells[cell] = "."
def varint(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)
def request(interval_ms):
    puzzle = "".join(cells).encode()
    message = b"\x0a" + varint(len(puzzle)) + puzzle + b"\x10\x03" + b"\x20\x01"
    if interval_ms:
        message += b"\x28" + varint(interval_ms)
    return b"\x00" + len(message).to_bytes(4, "big") + message
open(f"{work}/paced.bin", "wb").write(request(1000))
open(f"{work}/unpaced.bin", "wb").write(request(0))
EOF
url_path=/sudoku.v1.SudokuService/SolveSteps

start_server() {
  local log=$work/server.log
  "$bin" --listen "127.0.0.1:$port" 2>"$log" &
  server=$!
  for _ in $(seq 1 100); do
    grep -q 'sudokud serving' "$log" && return
    sleep 0.1
  done
  echo "the server did not start"; cat "$log"; exit 1
}
stop_server() { kill -TERM "$server"; wait "$server" || true; server=; }
ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
memory() { awk '/^VmHWM/ {peak = $2} /^VmRSS/ {rss = $2} END {printf "%d %d\n", peak / 1024, rss / 1024}' "/proc/$server/status"; }

# One stream, unpaced: its messages and bytes.
start_server
curl -s --http2-prior-knowledge -H 'content-type: application/grpc' -H 'te: trailers' \
  --data-binary "@$work/unpaced.bin" "http://127.0.0.1:$port$url_path" -o "$work/one.out"
read -r per_stream stream_bytes < <(python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
count, at = 0, 0
while at + 5 <= len(data):
    at += 5 + int.from_bytes(data[at + 1:at + 5], "big")
    count += 1
assert at == len(data), "a truncated frame"
print(count, len(data))' "$work/one.out")
stop_server
echo "one stream: $per_stream messages, $stream_bytes bytes of gRPC frames ($blanks steps a second apart when paced)"

for n in "${counts[@]}"; do
  connections=$(( n < 1000 ? n : 1000 ))
  per_connection=$(( (n + connections - 1) / connections ))
  start_server
  before=$(ticks)
  echo "== $n paced streams, $connections connections, $per_connection streams each"
  "$bin" load --addr "127.0.0.1:$port" --rpc steps --streams 0 --duration 1 \
    --probes "$puzzles/forum_hardest_1106.txt" --probe-count "$probe_count" \
    --probe-algorithm propagation --probe-timeout 5 >"$work/probes.out" 2>&1 &
  probes=$!
  h2load -n "$n" -c "$connections" -m "$per_connection" -t 1 \
    -H 'content-type: application/grpc' -H 'te: trailers' \
    -d "$work/paced.bin" "http://127.0.0.1:$port$url_path" >"$work/h2load.out" 2>&1 || true
  wait $probes || true
  after=$(ticks)
  read -r peak_mb rss_mb < <(memory)
  grep -E '^(finished in|requests:|status codes:|traffic:)' "$work/h2load.out"
  grep '^probes' "$work/probes.out" || cat "$work/probes.out"
  succeeded=$(awk '/^requests:/ {for (i = 1; i <= NF; i++) if ($(i + 1) == "succeeded,") print $i}' "$work/h2load.out")
  data=$(awk '/^traffic:/ {for (i = 1; i <= NF; i++) if ($(i + 1) == "data") {gsub(/[()]/, "", $i); print $i}}' "$work/h2load.out")
  messages=$(( succeeded * per_stream ))
  seconds=$(echo "scale=3; ($after - $before) / $(getconf CLK_TCK)" | bc)
  echo "completed $succeeded of $n; data $data bytes (expected $(( succeeded * stream_bytes )));" \
    "$messages messages; server CPU $seconds s," \
    "$(echo "scale=2; $seconds * 1000000 / $messages" | bc) µs a message;" \
    "RSS peak $peak_mb MB ($(echo "scale=1; $peak_mb * 1024 / $n" | bc) KB a stream), at the end $rss_mb MB"
  stop_server
done
