#!/usr/bin/env bash
# The logical solver and the generator, measured in one run on this machine:
#
#   bash benches/logic.sh            # N=2000 puzzles for the generator comparison
#   SETS= bash benches/logic.sh      # generation only (SETS: the data sets to rate)
#   ROUNDS=5 bash benches/logic.sh   # the generators take turns in this many rounds
#
# 1. Generation, one core each: QQWing (`qqwing --generate N --one-line`, installed
#    from Debian when missing) against `sudokud generate --threads 1` and against
#    GenerateMany on a server with one solve slot (`--max-concurrent-solves 1`),
#    read by a Python grpcio client on the other core; puzzles/s and the ratios.
#    sudokud's puzzles are unique, minimal and rated (every one goes through the
#    logical solver); QQWing's are unique and unrated.
# 2. Rate on each data set (one thread): time per puzzle, the puzzles per level and
#    how many the techniques could not finish ("beyond").
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
puzzles="$shared/data/puzzles"
n=${N:-2000}
command -v qqwing >/dev/null || { apt-get install -y qqwing >/dev/null 2>&1 || sudo apt-get install -y qqwing >/dev/null; }
cargo build --quiet --release --bin sudokud --bin sudokud-server
ours=${BIN:-target/release/sudokud}

. benches/one-slot-server.sh
start_one_slot_server
trap stop_server EXIT

# Seconds GenerateMany takes for `count` puzzles from `seed` (the client's start-up
# not counted).
generate_many() {
  python3 - "$address" "$1" "$2" <<'PY'
import sys, time, pathlib
sys.path.insert(0, str(pathlib.Path("examples/python").resolve()))
from sudoku_client import load_stubs
import grpc
pb, rpc = load_stubs()
address, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with grpc.insecure_channel(address) as channel:
    stub = rpc.SudokuServiceStub(channel)
    start = time.perf_counter()
    got = sum(1 for _ in stub.GenerateMany(pb.GenerateManyRequest(seed=seed, count=n), timeout=600))
    took = time.perf_counter() - start
assert got == n, got
print(took)
PY
}

# The three take turns in ROUNDS rounds of N/ROUNDS puzzles (each round its own
# seeds), so that a machine whose speed drifts during the run (a shared VM) slows
# each of them alike.
rounds=${ROUNDS:-5}
chunk=$((n / rounds))
n=$((chunk * rounds))
qq=0 local_run=0 remote=0
for round in $(seq 0 $((rounds - 1))); do
  seed=$((1 + round * chunk))
  qq=$(sum "$qq" "$(seconds qqwing --generate "$chunk" --one-line)")
  local_run=$(sum "$local_run" "$(seconds "$ours" generate --threads 1 --seed "$seed" --count "$chunk")")
  remote=$(sum "$remote" "$(generate_many "$seed" "$chunk")")
done

awk -v n="$n" -v qq="$qq" -v local_run="$local_run" -v remote="$remote" 'BEGIN {
  printf "generate %d puzzles, one core each\n", n
  printf "  %-34s %9.0f puzzles/s\n", "qqwing --generate", n / qq
  printf "  %-34s %9.0f puzzles/s  %5.1fx qqwing\n", "sudokud generate --threads 1", n / local_run, qq / local_run
  printf "  %-34s %9.0f puzzles/s  %5.1fx qqwing\n", "GenerateMany (1 slot, gRPC client)", n / remote, qq / remote
}'

echo
printf '%-28s %9s %8s %8s %8s %8s %8s %8s\n' "rate, one thread" "us/puzzle" easy medium hard fiendish diabol. beyond
for set in ${SETS-norvig_top95 magictour_top1465 17_clue forum_hardest_1905_11plus euler96_50}; do
  file="$puzzles/$set.txt"
  [ -f "$file" ] || continue
  out=$(mktemp)
  took=$(seconds sh -c "'$ours' rate --threads 1 '$file' > '$out'")
  awk -v set="$set" -v took="$took" '
    { total++; level[$2]++; if ($3 == "beyond") beyond++ }
    END {
      printf "%-28s %9.0f %8d %8d %8d %8d %8d %8d\n", set, took * 1e6 / total,
        level["easy"], level["medium"], level["hard"], level["fiendish"], level["diabolical"], beyond
    }' "$out"
  rm -f "$out"
done
