"""Agreement of `sudokud rate` with published Sudoku Explainer ratings.

Reads `ER/EP/ED|technique|puzzle` lines (EP and ED `-` where unpublished), rates
every puzzle with the binary given, and prints, by SE's ER band, how many of ours
are exact, within 0.2 and within 0.5 of SE's ER, EP and ED, how many ended
`needed_search`, and Spearman's rank correlation of the ERs.

    python3 benches/se-agreement.py BIN FILE [THREADS]
"""

import subprocess
import sys

BANDS = [(0.0, 4.4), (4.5, 5.9), (6.0, 9.0), (9.1, 20.0)]


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    at = 0
    while at < len(order):
        end = at
        while end + 1 < len(order) and values[order[end + 1]] == values[order[at]]:
            end += 1
        for k in range(at, end + 1):
            out[order[k]] = (at + end) / 2
        at = end + 1
    return out


def spearman(xs, ys):
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy)


def main():
    binary, path = sys.argv[1], sys.argv[2]
    threads = sys.argv[3] if len(sys.argv) > 3 else "2"
    published, puzzles = [], []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        figures, _technique, puzzle = line.split("|")
        published.append([None if f == "-" else float(f) for f in figures.split("/")])
        puzzles.append(puzzle)
    out = subprocess.run(
        [binary, "rate", "--threads", threads],
        input="\n".join(puzzles) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(out) == len(puzzles), f"{len(out)} answers for {len(puzzles)} puzzles"
    ours = []
    for line in out:
        first = line.split()[0]
        ours.append([float(f) for f in first.split("/")] + ["beyond the ladder" in line])
    print(f"{len(puzzles)} puzzles of {path}")
    header = "SE ER band | puzzles | needed search | ER exact / <=0.2 / <=0.5 | EP <=0.2 (published) | ED <=0.2 (published)"
    print(header)
    for low, high in BANDS:
        rows = [i for i, p in enumerate(published) if low <= p[0] <= high]
        if not rows:
            continue
        close = lambda i, k, d: abs(ours[i][k] - published[i][k]) <= d + 1e-9
        exact = sum(close(i, 0, 0.0) for i in rows)
        near = sum(close(i, 0, 0.2) for i in rows)
        half = sum(close(i, 0, 0.5) for i in rows)
        searched = sum(ours[i][3] for i in rows)
        with_ep = [i for i in rows if published[i][1] is not None]
        with_ed = [i for i in rows if published[i][2] is not None]
        ep = sum(close(i, 1, 0.2) for i in with_ep)
        ed = sum(close(i, 2, 0.2) for i in with_ed)
        pct = lambda a, b: f"{100 * a / b:.0f}%" if b else "-"
        print(
            f"{low:.1f}-{high:.1f} | {len(rows)} | {searched} | "
            f"{pct(exact, len(rows))} / {pct(near, len(rows))} / {pct(half, len(rows))} | "
            f"{pct(ep, len(with_ep))} ({len(with_ep)}) | {pct(ed, len(with_ed))} ({len(with_ed)})"
        )
    rho = spearman([p[0] for p in published], [o[0] for o in ours])
    print(f"Spearman (ER): {rho:.3f}")


main()
