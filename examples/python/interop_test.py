"""Interop test: a Python grpcio client against a running sudokud.

    python examples/python/interop_test.py --addr 127.0.0.1:50051

Checks Solve (solved, unsolvable, bad input, step limit, deadline), SolveSteps
(message order, consecutive seq, replay equals the solution, cancellation), Explain,
Hint, Rate, Generate, GenerateMany and SolveBatch, and prints "N passed, M failed".
"""

import argparse
import pathlib
import sys
import traceback

import grpc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sudoku_client import load_stubs  # noqa: E402

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# Norvig's top95 #19: plain singles-then-backtracking needs under 30,000 steps on it.
GUESSY = ".237....68...6.59.9.....7......4.97.3.7.96..2.........5..47.........2....8......."
# Built to defeat row-major backtracking: about 69 million placements.
DEFEATER = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
UNSOLVABLE = "12345678" + "." * 36 + "9" + "." * 36  # r1c9 has no candidate

pb, rpc = load_stubs()


def is_solution(puzzle, solution):
    if len(solution) != 81 or not solution.isdigit() or "0" in solution:
        return False
    if any(p not in ".0" and p != s for p, s in zip(puzzle, solution)):
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [
        [(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)
    ]
    return all(sorted(solution[i] for i in unit) == list("123456789") for unit in units)


def expect_error(call, code, text):
    try:
        call()
    except grpc.RpcError as error:
        assert error.code() == code, (error.code(), error.details())
        assert text in error.details(), error.details()
        return
    raise AssertionError(f"expected {code}")


def test_solve(stub):
    reply = stub.Solve(pb.SolveRequest(puzzle=HARD, check_unique=True), timeout=10)
    assert reply.outcome == pb.OUTCOME_SOLVED
    assert is_solution(HARD, reply.solution)
    assert reply.solution_count == 1
    assert reply.algorithm != pb.ALGORITHM_UNSPECIFIED


def test_unsolvable(stub):
    reply = stub.Solve(pb.SolveRequest(puzzle=UNSOLVABLE), timeout=10)
    assert reply.outcome == pb.OUTCOME_UNSOLVABLE
    assert reply.solution == ""


def test_bad_puzzles(stub):
    expect_error(
        lambda: stub.Solve(pb.SolveRequest(puzzle=HARD[:40] + "x" + HARD[41:]), timeout=10),
        grpc.StatusCode.INVALID_ARGUMENT,
        "at r5c5 ",
    )
    expect_error(
        lambda: stub.Solve(pb.SolveRequest(puzzle="7...7" + "." * 76), timeout=10),
        grpc.StatusCode.INVALID_ARGUMENT,
        "r1c1 and r1c5 both hold 7",
    )


def test_step_limit(stub):
    request = pb.SolveRequest(puzzle=DEFEATER, algorithm=pb.ALGORITHM_BACKTRACKING, max_steps=1000)
    expect_error(lambda: stub.Solve(request, timeout=10), grpc.StatusCode.RESOURCE_EXHAUSTED, "1000")


def test_deadline(stub):
    request = pb.SolveRequest(puzzle=DEFEATER, algorithm=pb.ALGORITHM_BACKTRACKING)
    expect_error(lambda: stub.Solve(request, timeout=0.2), grpc.StatusCode.DEADLINE_EXCEEDED, "")


def test_solve_steps(stub):
    request = pb.SolveStepsRequest(puzzle=GUESSY, algorithm=pb.ALGORITHM_SINGLES, max_batch=50)
    messages = list(stub.SolveSteps(request, timeout=30))
    assert messages[0].WhichOneof("event") == "started"
    assert messages[-1].WhichOneof("event") == "finished"
    cells = list(messages[0].started.puzzle)
    seq = 0
    for message in messages[1:-1]:
        assert message.WhichOneof("event") == "steps"
        assert 1 <= len(message.steps.steps) <= 50
        for step in message.steps.steps:
            seq += 1
            assert step.seq == seq
            cell = step.row * 9 + step.col
            if step.kind == pb.STEP_KIND_PLACE:
                assert cells[cell] == "."
                cells[cell] = str(step.digit)
            else:
                assert cells[cell] == str(step.digit)
                cells[cell] = "."
    finished = messages[-1].finished
    assert "".join(cells) == finished.solution
    assert is_solution(GUESSY, finished.solution)
    assert finished.stats.backtracks > 0
    assert finished.stats.placements + finished.stats.backtracks == seq


def test_cancel_stream(stub):
    request = pb.SolveStepsRequest(puzzle=DEFEATER, algorithm=pb.ALGORITHM_BACKTRACKING)
    call = stub.SolveSteps(request, timeout=30)
    for _, _message in zip(range(3), call):
        pass
    call.cancel()
    # The server is still fine after the cancel.
    test_solve(stub)


def test_health(stub):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    health = health_pb2_grpc.HealthStub(stub.channel)
    for service in ("", "sudoku.v1.SudokuService"):
        reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING, (service, reply)


def test_explain(stub):
    solution = stub.Solve(pb.SolveRequest(puzzle=HARD), timeout=10).solution
    request = pb.ExplainRequest(puzzle=HARD, finish_by_search=True, max_batch=10)
    messages = list(stub.Explain(request, timeout=30))
    assert messages[0].WhichOneof("event") == "started"
    assert messages[-1].WhichOneof("event") == "finished"
    seq = 0
    for message in messages[1:-1]:
        for step in message.steps.steps:
            seq += 1
            assert step.seq == seq
            for c in step.placements:
                assert solution[c.row * 9 + c.col] == str(c.digit), step
            for c in step.eliminations:
                assert solution[c.row * 9 + c.col] != str(c.digit), step
    assert messages[-1].finished.solution == solution


def test_rate_and_hint(stub):
    rated = stub.Rate(pb.RateRequest(puzzle=HARD), timeout=30)
    assert rated.rating >= 1.0 and rated.level, rated
    two = "." * 81
    expect_error(lambda: stub.Rate(pb.RateRequest(puzzle=two), timeout=10),
                 grpc.StatusCode.FAILED_PRECONDITION, "more than one solution")
    solution = stub.Solve(pb.SolveRequest(puzzle=HARD), timeout=10).solution
    cell = HARD.index(".")
    wrong = str(int(solution[cell]) % 9 + 1)
    board = HARD[:cell] + wrong + HARD[cell + 1:]
    hint = stub.Hint(pb.HintRequest(puzzle=HARD, board=board), timeout=10)
    assert [(c.row * 9 + c.col, c.digit) for c in hint.wrong] == [(cell, int(wrong))], hint
    assert hint.step.placements or hint.step.eliminations, hint


def test_generate(stub):
    request = pb.GenerateRequest(seed=9, level="hard", symmetry=pb.SYMMETRY_ROTATE_180)
    made = stub.Generate(request, timeout=30)
    again = stub.Generate(request, timeout=30)
    assert made == again
    assert all((made.puzzle[i] == ".") == (made.puzzle[80 - i] == ".") for i in range(81))
    assert 1.7 <= made.rating <= 2.5 and made.level == "hard", made
    checked = stub.Solve(pb.SolveRequest(puzzle=made.puzzle, check_unique=True), timeout=10)
    assert checked.solution_count == 1 and checked.solution == made.solution
    many = list(stub.GenerateMany(pb.GenerateManyRequest(seed=9, count=3), timeout=30))
    assert [m.seed for m in many] == [9, 10, 11]


def test_solve_batch(stub):
    """Many puzzles on one call: answers by id, as they finish; a bad puzzle's
    answer carries Solve's status code and message, and never fails the call."""
    puzzles = {f"p{i}": HARD for i in range(300)}
    puzzles.update({"bad": "12", "guessy": GUESSY, "none": UNSOLVABLE})

    def requests():
        items = list(puzzles.items())
        for start in range(0, len(items), 100):
            yield pb.SolveBatchRequest(
                puzzles=[pb.BatchPuzzle(id=i, puzzle=p) for i, p in items[start:start + 100]]
            )

    answers = {}
    for message in stub.SolveBatch(requests(), timeout=30):
        for answer in message.answers:
            assert answer.id not in answers, f"{answer.id} answered twice"
            answers[answer.id] = answer
    assert set(answers) == set(puzzles)
    assert answers["bad"].code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert "81" in answers["bad"].error, answers["bad"].error
    assert answers["none"].code == 0 and answers["none"].outcome == pb.OUTCOME_UNSOLVABLE
    for key in [k for k in puzzles if k not in ("bad", "none")]:
        assert answers[key].code == 0, answers[key]
        assert is_solution(puzzles[key], answers[key].solution), key


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--addr", default="127.0.0.1:50051")
    args = parser.parse_args()
    tests = [value for name, value in globals().items() if name.startswith("test_")]
    passed = failed = 0
    with grpc.insecure_channel(args.addr) as channel:
        stub = rpc.SudokuServiceStub(channel)
        stub.channel = channel
        for test in tests:
            try:
                test(stub)
                passed += 1
                print(f"ok   {test.__name__}")
            except Exception:  # noqa: BLE001 - report every failure, then exit non-zero
                failed += 1
                print(f"FAIL {test.__name__}")
                traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
