"""OR-Tools CP-SAT (one worker) on the variant sets of benches/variants/data:
a plain model of each puzzle's rules, solved for the first solution and then
with that solution excluded (a count to two). Checks every puzzle's solution
and its uniqueness independently of sudokud, and times the solve calls only.

    python benches/variants/cpsat.py SET.jsonl      # a JSON line a puzzle
"""

import json
import sys
import time

from ortools.sat.python import cp_model


def shape_of(rules, cells):
    n = int(round(len(cells) ** 0.5))
    rows, cols = rules.get("boxRows", 0), rules.get("boxCols", 0)
    if not rows:
        rows = max(r for r in range(1, n + 1) if n % r == 0 and r * r <= n)
        cols = n // rows
    return n, rows, cols


def groups(rules, n, rows, cols):
    """Every group of cells whose digits differ."""
    out = [[r * n + c for c in range(n)] for r in range(n)]
    out += [[r * n + c for r in range(n)] for c in range(n)]
    if rules.get("regions"):
        labels = rules["regions"]
        labels = labels.split(",") if "," in labels else [ch for ch in labels if not ch.isspace()]
        names = sorted(set(labels), key=labels.index)
        out += [[i for i in range(n * n) if labels[i] == name] for name in names]
    else:
        out += [[(br * rows + r) * n + bc * cols + c for r in range(rows) for c in range(cols)]
                for br in range(n // rows) for bc in range(n // cols)]
    if rules.get("diagonal"):
        out.append([k * n + k for k in range(n)])
        out.append([k * n + n - 1 - k for k in range(n)])
    if rules.get("windoku"):
        for top, left in [(1, 1), (1, 5), (5, 1), (5, 5)]:
            out.append([(top + k // 3) * n + left + k % 3 for k in range(9)])
    out += [region["cells"] for region in rules.get("extraRegions", [])]
    out += [cage["cells"] for cage in rules.get("cages", [])]
    return out


def model_of(puzzle, rules):
    cells = [0 if ch == "." else int(ch) for ch in puzzle]
    n, rows, cols = shape_of(rules, cells)
    model = cp_model.CpModel()
    x = [model.NewIntVar(1, n, f"x{i}") for i in range(n * n)]
    for i, digit in enumerate(cells):
        if digit:
            model.Add(x[i] == digit)
    for group in groups(rules, n, rows, cols):
        model.AddAllDifferent([x[i] for i in group])
    for cage in rules.get("cages", []):
        if cage.get("sum"):
            model.Add(sum(x[i] for i in cage["cells"]) == cage["sum"])
    for line in rules.get("thermometers", []):
        for a, b in zip(line["cells"], line["cells"][1:]):
            model.Add(x[a] < x[b])
    moves = []
    if rules.get("antiKnight"):
        moves += [(1, 2), (2, 1), (1, -2), (2, -1)]
    if rules.get("antiKing"):
        moves += [(1, 1), (1, -1)]
    for i in range(n * n):
        r, c = divmod(i, n)
        for dr, dc in moves:
            if 0 <= r + dr < n and 0 <= c + dc < n:
                model.Add(x[i] != x[(r + dr) * n + c + dc])
        if rules.get("nonConsecutive"):
            for j in ([i + 1] if c + 1 < n else []) + ([i + n] if r + 1 < n else []):
                model.Add(x[i] - x[j] != 1)
                model.Add(x[j] - x[i] != 1)
    return model, x


def solve(model, x):
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    started = time.perf_counter()
    status = solver.Solve(model)
    spent = time.perf_counter() - started
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return spent, ([solver.Value(v) for v in x] if found else None)


def main():
    for line in open(sys.argv[1]):
        item = json.loads(line)
        model, x = model_of(item["puzzle"], item["rules"])
        first_s, values = solve(model, x)
        expected = [int(ch) for ch in item["solution"]]
        right = values == expected
        # A second solution: any cell different from the first.
        different = [model.NewBoolVar("") for _ in x]
        for var, value, flag in zip(x, expected, different):
            model.Add(var != value).OnlyEnforceIf(flag)
        model.AddBoolOr(different)
        second_s, other = solve(model, x)
        print(json.dumps({"name": item["name"], "first_us": first_s * 1e6,
                          "count_us": (first_s + second_s) * 1e6, "right": right,
                          "count": 1 + (other is not None)}))


if __name__ == "__main__":
    main()
