#!/usr/bin/env bash
# `sudokud solve --remote` to three local servers, one of them killed (SIGKILL)
# halfway through the run: the output must be every answer once, in input
# order, identical to local `sudokud solve`'s. Halfway is timed from an
# unbroken run of the same file first. Prints both runs' times and the result.
#
#   bash benches/remote-kill.sh       (env: SET=forum_hardest_1905_11plus)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --bin sudokud --bin sudokud-server >/dev/null
bin=target/release/sudokud
dir=${SUDOKUD_PUZZLES:-../shared/data/puzzles}
file="$dir/${SET:-forum_hardest_1905_11plus}.txt"
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
addresses=()
for i in 1 2 3; do
  port=$(free_port)
  SUDOKUD_LISTEN=127.0.0.1:$port RUST_LOG=warn "$bin" serve &
  pids+=($!)
  addresses+=("127.0.0.1:$port")
done
for address in "${addresses[@]}"; do
  for _ in $(seq 1 50); do "$bin" health --addr "$address" >/dev/null 2>&1 && break; sleep 0.1; done
done
remote=$(IFS=,; echo "${addresses[*]}")
now() { date +%s.%N; }

"$bin" solve "$file" >"$work/local.out"
start=$(now); "$bin" solve --remote "$remote" "$file" >"$work/whole.out"; end=$(now)
whole=$(echo "$end - $start" | bc)
cmp -s "$work/local.out" "$work/whole.out" || { echo "the unbroken remote run differs from local solve"; exit 1; }

start=$(now)
"$bin" solve --remote "$remote" "$file" >"$work/killed.out" 2>"$work/killed.err" &
client=$!
sleep "$(echo "scale=3; $whole / 2" | bc)"
kill -KILL "${pids[1]}"
wait "$client"
end=$(now)
lines=$(wc -l <"$work/killed.out")
echo "$(basename "$file"): $lines answers; unbroken remote run $(printf %.3f "$whole") s," \
  "with ${addresses[1]} killed at $(printf %.3f "$(echo "$whole / 2" | bc -l)") s: $(printf %.3f "$(echo "$end - $start" | bc)") s"
sed 's/^/client: /' "$work/killed.err"
if cmp -s "$work/local.out" "$work/killed.out"; then
  echo "output identical to local solve: every answer once, in order"
else
  echo "output differs from local solve"; exit 1
fi
