#!/usr/bin/env bash
# Sudokud's ratings against Sudoku Explainer's own `serate`, on the same
# puzzles, one core each: the agreement by band (benches/se-agreement.py), the
# time each took in all, and the median times of the puzzles serate rates above
# 9.0 (the issue's speed bar: 10x).
#
#   SERATE_CP=DIR bash benches/serate.sh BIN PUZZLES
#
# SERATE_CP is the classpath of Sukaku Explainer (public source
# SudokuMonster/SukakuExplainer, compiled beside the project with javac; never
# part of it). It runs with Sudoku Explainer 1.2.1's techniques only (no turbot
# fish, no WXYZ-wings or strong-linked fish), the set that reproduces the
# published ratings of the hardest lists. PUZZLES holds one 81-character puzzle
# a line.
set -euo pipefail
bin=${1:?sudokud binary}
puzzles=${2:?puzzle file}
cp=${SERATE_CP:?the classpath of a Sukaku Explainer build}
# Off: generalized sets, turbot fish, WXYZ- to TUVWXYZ-wings, strong-linked fish.
techs=$(python3 -c "
off = {11, 13, 17, 20, 23, 26, 29, 30, 31, 32, 34, 36, 37, 38, 40}
print(''.join('0' if i in off else '1' for i in range(1, 47)))")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v '^#' "$puzzles" | cut -c1-81 > "$work/puzzles"
# serate prints each puzzle's time (%e: 1.23s, 4m05s or 1h02m).
java -cp "$cp" diuf.sudoku.test.serate --threads=1 --techs="$techs" \
    --format='%r/%p/%d %e' --input="$work/puzzles" 2>/dev/null > "$work/serate"
# sudokud one puzzle a run, timed alike (a process start is about a millisecond).
while read -r puzzle; do
  start=$(date +%s%N)
  printf '%s\n' "$puzzle" | "$bin" rate --threads 1 > /dev/null
  echo $(( ($(date +%s%N) - start) / 1000 ))
done < "$work/puzzles" > "$work/ours"
cut -d' ' -f1 "$work/serate" | paste -d'|' - /dev/null "$work/puzzles" > "$work/rated"
python3 "$(dirname "$0")/se-agreement.py" "$bin" "$work/rated" 1
python3 - "$work/serate" "$work/ours" <<'PY'
import re, statistics, sys
def seconds(text):
    parts = re.findall(r"([0-9.]+)([dhms])", text)
    return sum(float(v) * {"d": 86400, "h": 3600, "m": 60, "s": 1}[u] for v, u in parts)
theirs = [(float(l.split()[0].split("/")[0]), seconds(l.split()[1])) for l in open(sys.argv[1])]
ours = [int(l) / 1e6 for l in open(sys.argv[2])]
print(f"{len(ours)} puzzles: serate {sum(t for _, t in theirs):.1f} s, sudokud {sum(ours):.2f} s, "
      f"ratio {sum(t for _, t in theirs) / sum(ours):.0f}x (serate's %e, sudokud a run a puzzle)")
top = [(t, o) for (er, t), o in zip(theirs, ours) if er > 9.0]
if top:
    ts, os_ = [t for t, _ in top], [o for _, o in top]
    ratios = [t / o for t, o in top]
    print(f"serate's ER above 9.0 ({len(top)}): median time serate {statistics.median(ts):.2f} s, "
          f"sudokud {statistics.median(os_):.2f} s ({statistics.median(ts) / statistics.median(os_):.1f}x); "
          f"median per-puzzle ratio {statistics.median(ratios):.1f}x, lowest {min(ratios):.1f}x")
PY
