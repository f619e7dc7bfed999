#!/usr/bin/env bash
# Explain through the service against the command line, one core each, same run:
# `sudokud explain --threads 1` over N puzzles of each set, and the same puzzles as
# Explain calls one after another (a Python grpcio client on the other core, every
# stream read to its end) against a server with one solve slot. Prints puzzles/s
# and service / local per set; the two take turns in ROUNDS rounds.
#
#   bash benches/explain.sh                 # N=300, ROUNDS=3
#   SETS="17_clue" N=1000 bash benches/explain.sh
#
# BIN=PATH measures that sudokud binary instead of building this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
puzzles="$shared/data/puzzles"
n=${N:-300}
rounds=${ROUNDS:-3}
sets=${SETS-17_clue magictour_top1465}
[ -n "${BIN:-}" ] || cargo build --quiet --release --bin sudokud --bin sudokud-server
ours=${BIN:-target/release/sudokud}
python3 -c 'import grpc, grpc_tools' 2>/dev/null || pip install --quiet -r examples/python/requirements.txt

. benches/one-slot-server.sh
start_one_slot_server
work=$(mktemp -d)
trap 'stop_server; rm -rf "$work"' EXIT

# Seconds (the interpreter's start-up not counted) and steps of Explain calls over
# the puzzles of file $1, one after another.
explain_calls() {
  python3 - "$address" "$1" <<'PY'
import sys, time, pathlib
sys.path.insert(0, str(pathlib.Path("examples/python").resolve()))
from sudoku_client import load_stubs
import grpc
pb, rpc = load_stubs()
address, path = sys.argv[1], sys.argv[2]
lines = [line.strip() for line in open(path) if line.strip()]
steps = 0
with grpc.insecure_channel(address) as channel:
    stub = rpc.SudokuServiceStub(channel)
    stub.Explain(pb.ExplainRequest(puzzle=lines[0]), timeout=60)  # the connection
    start = time.perf_counter()
    for line in lines:
        for message in stub.Explain(pb.ExplainRequest(puzzle=line, finish_by_search=True), timeout=60):
            if message.HasField("steps"):
                steps += len(message.steps.steps)
    took = time.perf_counter() - start
print(took, steps)
PY
}

echo "| set | puzzles | local puzzles/s | service puzzles/s | service / local |"
echo "|---|---:|---:|---:|---:|"
for set in $sets; do
  head -n "$n" "$puzzles/$set.txt" >"$work/set.txt"
  count=$(wc -l <"$work/set.txt")
  chunk=$(( (count + rounds - 1) / rounds ))
  split -l "$chunk" "$work/set.txt" "$work/part."
  local_total=0 remote_total=0
  for part in "$work"/part.*; do
    local_total=$(sum "$local_total" "$(seconds "$ours" explain --threads 1 --finish-by-search "$part")")
    read -r took _ < <(explain_calls "$part")
    remote_total=$(sum "$remote_total" "$took")
  done
  rm -f "$work"/part.*
  awk -v set="$set" -v n="$count" -v l="$local_total" -v r="$remote_total" \
    'BEGIN { printf "| `%s` | %d | %.0f | %.0f | %.2fx |\n", set, n, n / l, n / r, l / r }'
done
