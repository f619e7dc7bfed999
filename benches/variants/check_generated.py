"""Checks puzzles made by `sudokud generate --rules ...` with OR-Tools CP-SAT
(one worker, the plain model of benches/variants/cpsat.py), which shares
nothing with sudokud: each puzzle's solution keeps its rules, it has no other
solution, and it has two or more once any one given is taken away (minimal,
for puzzles made without symmetry). Prints one JSON line: the counts and
the givens a puzzle on average.

    python benches/variants/check_generated.py MADE.jsonl
"""

import json
import sys

from ortools.sat.python import cp_model

from cpsat import model_of


def solutions(puzzle, rules, avoid=None):
    """The solutions of `puzzle` under `rules`, counted to two (or, with
    `avoid`, whether one differs from it: 1 plus 1 when one does)."""
    model, x = model_of(puzzle, rules)
    found = []
    while len(found) < 2:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if solver.Solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        values = [solver.Value(v) for v in x]
        found.append(values)
        different = [model.NewBoolVar("") for _ in x]
        for var, value, flag in zip(x, values, different):
            model.Add(var != value).OnlyEnforceIf(flag)
        model.AddBoolOr(different)
    return found


def main():
    made = unique = minimal = kept = givens_made = 0
    for line in open(sys.argv[1]):
        item = json.loads(line)
        made += 1
        puzzle, rules = item["puzzle"], item["rules"]
        found = solutions(puzzle, rules)
        expected = [int(ch) for ch in item["solution"]]
        unique += len(found) == 1
        kept += bool(found) and found[0] == expected
        givens = [i for i, ch in enumerate(puzzle) if ch != "."]
        givens_made += len(givens)
        minimal += all(
            len(solutions(puzzle[:i] + "." + puzzle[i + 1:], rules)) == 2 for i in givens
        )
    print(json.dumps({"made": made, "unique": unique, "solution_kept": kept,
                      "minimal": minimal, "givens": givens_made / max(made, 1)}))


if __name__ == "__main__":
    main()
