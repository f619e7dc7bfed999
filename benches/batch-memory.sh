#!/usr/bin/env bash
# SolveBatch's memory when the client reads nothing: a release server, and a
# Python grpcio client streaming PUZZLES (default 1,000,000) puzzles on one call
# without reading an answer (benches/batch-memory.py). Flow control should stop the
# client early and keep the server's RSS flat.
#
#   bash benches/batch-memory.sh      (needs examples/python/requirements.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --bin sudokud --bin sudokud-server >/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SUDOKUD_LISTEN=127.0.0.1:$port RUST_LOG=warn target/release/sudokud serve &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do target/release/sudokud health --addr 127.0.0.1:$port >/dev/null 2>&1 && break; sleep 0.1; done
python3 benches/batch-memory.py 127.0.0.1:$port "${PUZZLES:-1000000}" "$server" "${SECONDS_WATCHED:-8}"
