# Sourced by the benches that time the service against the command line
# (logic.sh, explain.sh): a server of binary $ours with one solve slot, and a
# wall clock around a command.

# Starts the server on a free port: sets `server` (its pid) and `address`;
# exits when it does not start. `stop_server` stops it.
start_one_slot_server() {
  server_log=$(mktemp)
  "$ours" serve --listen 127.0.0.1:0 --max-concurrent-solves 1 2>"$server_log" &
  server=$!
  address=""
  for _ in $(seq 1 100); do
    address=$(grep -o 'address=[0-9.:]*' "$server_log" | head -n1 | cut -d= -f2 || true)
    [ -n "$address" ] && break
    sleep 0.1
  done
  [ -n "$address" ] || { echo "the server did not start"; cat "$server_log"; stop_server; exit 1; }
}

stop_server() {
  kill "$server" 2>/dev/null || true
  rm -f "$server_log"
}

# Wall-clock seconds of one run (its output dropped).
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { print e - s }'
}

# The sum of two numbers.
sum() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }
