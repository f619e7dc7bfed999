#!/usr/bin/env python3
"""OR-Tools CP-SAT as the independent solver for grids of any size.

    cpsat.py time FILE BOX [first|count]   CP-SAT's solve time on each puzzle of FILE
    cpsat.py check FILE BOX SOLUTIONS       every puzzle has one solution, the one given
    cpsat.py make BOX COUNT SEED            COUNT unique minimal puzzles and their solutions

BOX is a box's rows x columns (2x3 for 6x6). Puzzles are one a line, row-major,
comma-separated numbers, 0 empty. The model is the plain one: a variable a cell
with domain 1..N, AllDifferent per row, column and box, the givens fixed. One
worker. `time` measures the solve call only (the wall time of Solve, without
building the model or starting the interpreter) and prints one line a puzzle and
a total. Needs `pip install ortools` (a benchmark tool, never a dependency of the
service). Nothing here shares code with sudokud.
"""

import random
import sys
import time

from ortools.sat.python import cp_model


def shape(box):
    rows, cols = (int(side) for side in box.lower().split("x"))
    return rows, cols, rows * cols


def houses(rows, cols, n):
    for r in range(n):
        yield [r * n + c for c in range(n)]
    for c in range(n):
        yield [r * n + c for r in range(n)]
    for top in range(0, n, rows):
        for left in range(0, n, cols):
            yield [(top + i) * n + left + j for i in range(rows) for j in range(cols)]


def model_of(givens, rows, cols, n):
    model = cp_model.CpModel()
    cells = [model.new_int_var(1, n, f"c{i}") for i in range(n * n)]
    for house in houses(rows, cols, n):
        model.add_all_different([cells[i] for i in house])
    for i, given in enumerate(givens):
        if given:
            model.add(cells[i] == given)
    return model, cells


def solver(seconds=None):
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    if seconds:
        s.parameters.max_time_in_seconds = seconds
    return s


class Counter(cp_model.CpSolverSolutionCallback):
    """Stops at the second solution."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def on_solution_callback(self):
        self.count += 1
        if self.count >= 2:
            self.stop_search()


def read(path):
    with open(path) as lines:
        return [[int(t) for t in line.replace(",", " ").split()] for line in lines if line.strip()]


def solutions_of(givens, rows, cols, n, limit=2, seconds=None):
    """Up to `limit` solutions (lists of digits), by excluding each one found."""
    model, cells = model_of(givens, rows, cols, n)
    found = []
    while len(found) < limit:
        s = solver(seconds)
        status = s.solve(model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if status == cp_model.UNKNOWN:
                raise RuntimeError("CP-SAT gave up")
            break
        answer = [s.value(v) for v in cells]
        found.append(answer)
        # Some cell must differ from this answer.
        differs = []
        for i, v in enumerate(cells):
            b = model.new_bool_var(f"d{len(found)}_{i}")
            model.add(v != answer[i]).only_enforce_if(b)
            differs.append(b)
        model.add_bool_or(differs)
    return found


def time_file(path, box, mode):
    rows, cols, n = shape(box)
    total = 0.0
    for index, givens in enumerate(read(path)):
        model, _ = model_of(givens, rows, cols, n)
        s = solver()
        if mode == "count":
            s.parameters.enumerate_all_solutions = True
            counter = Counter()
            start = time.perf_counter()
            s.solve(model, counter)
            took = time.perf_counter() - start
            found = counter.count
        else:
            start = time.perf_counter()
            status = s.solve(model)
            took = time.perf_counter() - start
            found = int(status in (cp_model.OPTIMAL, cp_model.FEASIBLE))
        total += took
        print(f"{index} {took:.6f} {found}", flush=True)
    print(f"total {total:.6f}")


def check(path, box, solutions_path):
    rows, cols, n = shape(box)
    wrong = 0
    for index, (givens, solution) in enumerate(zip(read(path), read(solutions_path))):
        found = solutions_of(givens, rows, cols, n)
        if found != [solution]:
            wrong += 1
            print(f"puzzle {index + 1}: {len(found)} solutions, not the one given")
    print(f"{wrong} wrong")
    return 1 if wrong else 0


def full_grid(rows, cols, n, rng):
    """A random full grid: the pattern grid with digits, rows within bands,
    bands, columns within stacks and stacks shuffled."""
    def pattern(r, c):
        return (cols * (r % rows) + r // rows + c) % n

    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    bands = rng.sample(range(cols), cols)  # n / rows bands of `rows` rows
    order_rows = [b * rows + r for b in bands for r in rng.sample(range(rows), rows)]
    stacks = rng.sample(range(rows), rows)  # n / cols stacks of `cols` columns
    order_cols = [s * cols + c for s in stacks for c in rng.sample(range(cols), cols)]
    return [digits[pattern(r, c)] for r in order_rows for c in order_cols]


def make(box, count, seed):
    rows, cols, n = shape(box)
    rng = random.Random(seed)
    for _ in range(count):
        solution = full_grid(rows, cols, n, rng)
        givens = list(solution)
        # Take givens away in a random order while one solution remains.
        for cell in rng.sample(range(n * n), n * n):
            kept = givens[cell]
            givens[cell] = 0
            if len(solutions_of(givens, rows, cols, n)) != 1:
                givens[cell] = kept
        print(",".join(map(str, givens)), file=sys.stdout)
        print(",".join(map(str, solution)), file=sys.stderr)


def main(args):
    if len(args) >= 3 and args[0] == "time":
        time_file(args[1], args[2], args[3] if len(args) > 3 else "first")
        return 0
    if len(args) == 4 and args[0] == "check":
        return check(args[1], args[2], args[3])
    if len(args) == 4 and args[0] == "make":
        make(args[1], int(args[2]), int(args[3]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
