#!/usr/bin/env bash
# Sudokud's ratings against Sudoku Explainer's own `serate`, on the same
# puzzles, one core each: the agreement by band (benches/se-agreement.py) and
# the time each took.
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
start=$(date +%s.%N)
java -cp "$cp" diuf.sudoku.test.serate --threads=1 --techs="$techs" \
    --format='%r/%p/%d' --input="$work/puzzles" 2>/dev/null > "$work/serate"
middle=$(date +%s.%N)
"$bin" rate --threads 1 < "$work/puzzles" > /dev/null
end=$(date +%s.%N)
paste -d'|' "$work/serate" /dev/null "$work/puzzles" > "$work/rated"
python3 "$(dirname "$0")/se-agreement.py" "$bin" "$work/rated" 1
python3 -c "
s, m, e = $start, $middle, $end
n = sum(1 for _ in open('$work/puzzles'))
print(f'{n} puzzles: serate {m - s:.1f} s, sudokud {e - m:.2f} s, ratio {(m - s) / (e - m):.0f}x')"
