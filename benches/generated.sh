#!/usr/bin/env bash
# Black-box check of the generator's bars: N puzzles (default 1,000) of each level
# up to fiendish and 20 diabolical, each symmetry in turn, made by `sudokud generate`;
# each checked by `sudokud solve --count` (the search engine's counter, a path that
# shares nothing with the generator): one solution, and two or more once any
# symmetric group of its clues is taken away (minimal); the symmetry is checked cell
# by cell and the rating against the level's range with `sudokud rate`.
#
#   bash benches/generated.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
cargo build --quiet --release --bin sudokud --bin sudokud-server
bin=${BIN:-target/release/sudokud}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
symmetries=(none rotate180 rotate90 mirror diagonal)
i=0
for level in easy medium hard fiendish diabolical; do
  count=$n
  [ "$level" = diabolical ] && count=20
  symmetry=${symmetries[$((i % 5))]}
  i=$((i + 1))
  start=$(date +%s.%N)
  "$bin" generate --count "$count" --level "$level" --symmetry "$symmetry" --seed 1 > "$work/p.txt"
  took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
  python3 - "$work/p.txt" "$symmetry" > "$work/variants.txt" <<'PY'
import sys
puzzles = [line.strip() for line in open(sys.argv[1]) if line.strip()]
symmetry = sys.argv[2]
def image(cell):
    r, c = divmod(cell, 9)
    return {"none": (r, c), "rotate180": (8 - r, 8 - c), "rotate90": (c, 8 - r),
            "mirror": (r, 8 - c), "diagonal": (c, r)}[symmetry]
def orbit(cell):
    seen = [cell]
    while True:
        r, c = image(seen[-1]); nxt = r * 9 + c
        if nxt == cell: return seen
        seen.append(nxt)
bad = 0
for p in puzzles:
    assert len(p) == 81, p
    if any((p[c] == ".") != (p[orbit(c)[-1] if len(orbit(c)) > 1 else c] == ".") for c in range(81)):
        bad += 1
    print(p)  # must have one solution
    done = set()
    for c in range(81):
        if p[c] != "." and c not in done:
            group = orbit(c); done.update(group)
            q = list(p)
            for g in group: q[g] = "."
            print("".join(q))  # must have two or more
print(f"asymmetric {bad}", file=sys.stderr)
PY
  "$bin" solve --count "$work/variants.txt" > "$work/counts.txt"
  python3 - "$work/p.txt" "$work/variants.txt" "$work/counts.txt" <<'PY'
import sys
puzzles = set(l.strip() for l in open(sys.argv[1]) if l.strip())
variants = [l.strip() for l in open(sys.argv[2])]
counts = [l.strip() for l in open(sys.argv[3])]
unique = sum(1 for v, c in zip(variants, counts) if v in puzzles and c == "1")
not_minimal = sum(1 for v, c in zip(variants, counts) if v not in puzzles and c != "2")
print(f"unique {unique}/{len(puzzles)}, groups whose removal kept one solution: {not_minimal}")
PY
  "$bin" rate --threads 1 "$work/p.txt" | awk -v level="$level" -v sym="$symmetry" -v took="$took" '
    { total++; if ($2 == level) right++ }
    END { printf "  %-10s %-9s %5d puzzles in %6.2f s, rated %s: %d\n", level, sym, total, took, level, right }'
done
