#!/usr/bin/env bash
# `sudokud solve --remote` to one local server (its default slots) against local
# `sudokud solve` (every core), in the same run, taking turns ROUNDS times. Client
# and server share this machine's cores: the remote figure pays for both. Prints
# median wall times, the ratio (local / remote: 1.0 = as fast as local), the CPU
# each side used a run (by the scheduler's count), and the share of the machine's
# CPU time the hypervisor took away (steal) while the rounds ran.
#
#   bash benches/remote.sh            (env: SETS="17_clue forum_hardest_1905_11plus", ROUNDS=5)
#
# BIN=PATH measures that sudokud binary instead of building this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${BIN:-}" ] || cargo build --release --locked --bin sudokud --bin sudokud-server >/dev/null
bin=${BIN:-target/release/sudokud}
dir=${SUDOKUD_PUZZLES:-../shared/data/puzzles}
rounds=${ROUNDS:-5}
sets=${SETS:-"17_clue forum_hardest_1905_11plus"}
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SUDOKUD_LISTEN=127.0.0.1:$port RUST_LOG=warn "$bin" serve &
server=$!
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do "$bin" health --addr 127.0.0.1:$port >/dev/null 2>&1 && break; sleep 0.1; done
# The server's CPU time so far, in clock ticks (/proc/PID/stat: its threads,
# the compute pool's that have ended too; the server's busy threads are sampled
# fairly by the tick, unlike a client's short bursts, below).
server_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
# Total and stolen ticks of the whole machine.
machine() { awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $9}' /proc/stat; }
# Runs a command, its output to $work/out, appending "wall cpu" (seconds) to the
# file named first: with perf, its duration_time and task-clock (the child's
# own, scheduler-exact); without, the clock around it and rusage.
if perf stat -e task-clock,duration_time -x, -o /dev/null true 2>/dev/null; then
  cpu_counter=perf
else
  cpu_counter=rusage
fi
timed() {
  local out=$1; shift
  if [ $cpu_counter = perf ]; then
    perf stat -e task-clock,duration_time -x, -o "$work/perf" "$@" >"$work/out"
    awk -F, '/task-clock/ {cpu = $1 / 1000} /duration_time/ {wall = $1 / 1e9}
      END {printf "%.4f %.4f\n", wall, cpu}' "$work/perf" >>"$out"
    return
  fi
  OUT="$work/out" python3 -c '
import os, resource, subprocess, sys, time
start = time.perf_counter()
with open(os.environ["OUT"], "wb") as out:
    subprocess.run(sys.argv[1:], stdout=out, check=True)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall:.4f} {usage.ru_utime + usage.ru_stime:.4f}")' "$@" >>"$out"
}
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for set in $sets; do
  file="$dir/$set.txt"
  : >"$work/local"; : >"$work/remote"
  "$bin" solve "$file" >"$work/expected"
  ticks=0
  read -r total_before steal_before < <(machine)
  for _ in $(seq 1 "$rounds"); do
    timed "$work/local" "$bin" solve "$file"
    before=$(server_ticks)
    timed "$work/remote" "$bin" solve --remote 127.0.0.1:$port "$file"
    ticks=$((ticks + $(server_ticks) - before))
    cmp -s "$work/expected" "$work/out" || { echo "$set: remote output differs"; exit 1; }
  done
  read -r total_after steal_after < <(machine)
  local_wall=$(cut -d' ' -f1 "$work/local" | median)
  remote_wall=$(cut -d' ' -f1 "$work/remote" | median)
  echo "$set ($(wc -l <"$work/expected") puzzles, $rounds rounds, medians):" \
    "local $local_wall s, remote $remote_wall s," \
    "ratio $(echo "scale=3; $local_wall / $remote_wall" | bc)x;" \
    "CPU a run: local $(cut -d' ' -f2 "$work/local" | median) s," \
    "remote client $(cut -d' ' -f2 "$work/remote" | median) s" \
    "+ server $(echo "scale=3; $ticks / $(getconf CLK_TCK) / $rounds" | bc) s (client CPU by $cpu_counter);" \
    "steal $(( 100 * (steal_after - steal_before) / (total_after - total_before + 1) ))%"
done
