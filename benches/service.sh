#!/usr/bin/env bash
# The service's three figures side by side, one build, one run: unary Solve
# against the bare framework (benches/load.sh), `solve --remote` against local
# `solve` (benches/remote.sh), and 1,000 to 100,000 paced SolveSteps streams,
# opened by h2load (benches/streams-h2load.sh) and by `sudokud load`
# (benches/streams.sh). About 15 minutes; each part prints its own table.
#
#   bash benches/service.sh
#
# BIN=PATH measures that sudokud binary instead of building this tree; ROUNDS
# (default 11) is remote.sh's. Exits 1 when load.sh does (a ratio under its bar).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${BIN:-}" ] || cargo build --quiet --release --bin sudokud --bin sudokud-server
export BIN=${BIN:-target/release/sudokud}
status=0
echo "### Unary Solve against the bare framework (benches/load.sh 3 3)"
bash benches/load.sh 3 3 || status=$?
echo "### solve --remote against local solve (benches/remote.sh)"
ROUNDS=${ROUNDS:-11} bash benches/remote.sh
echo "### Paced streams opened by h2load (benches/streams-h2load.sh)"
bash benches/streams-h2load.sh 1000 10000 100000
echo "### Paced streams opened by sudokud load (benches/streams.sh)"
bash benches/streams.sh 1000 10000 100000
exit "$status"
