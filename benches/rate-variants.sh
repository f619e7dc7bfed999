#!/usr/bin/env bash
# Explain and Rate under variant rules: every puzzle of the variant sets of
# benches/variants/data explained in-process on one core (the logical solve
# only, once a puzzle; every placement checked against the set's solution).
#
#   bash benches/rate-variants.sh [SET...]     # default: every set in the folder
#
# Per set: puzzles, how many the techniques solve (the rest end needed_search,
# rated 9.5 and up), the median and the slowest solve in milliseconds, the
# median rating, and the techniques that set the ratings (most often first).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release --example make_variants
ours=target/release/examples/make_variants
data=benches/variants/data
sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
  for file in "$data"/*.jsonl; do sets+=("$(basename "$file" .jsonl)"); done
fi
echo "| set | puzzles | solved by the techniques | median ms | slowest ms | median rating | hardest steps |"
echo "|---|---:|---:|---:|---:|---:|---|"
for set in "${sets[@]}"; do
  taskset -c 0 "$ours" rate "$data/$set.jsonl" | python3 -c '
import collections, json, statistics, sys
rows = [json.loads(line) for line in sys.stdin]
ms = [row["us"] / 1000 for row in rows]
solved = sum(row["solved"] for row in rows)
median = statistics.median(row["rating"] for row in rows)
hardest = collections.Counter(row["technique"] or "beyond the ladder" for row in rows)
top = ", ".join(f"{name} {count}" for name, count in hardest.most_common(3))
print(f"| {sys.argv[1]} | {len(rows)} | {solved} | {statistics.median(ms):.2f} | {max(ms):.0f} "
      f"| {median:.1f} | {top} |")
' "$set"
done
