"""A Python client for sudokud: calls Solve, then streams SolveSteps.

Usage:
    pip install -r examples/python/requirements.txt
    python examples/python/sudoku_client.py [--addr 127.0.0.1:50051] [PUZZLE]

The stubs are generated from proto/sudoku/v1/sudoku.proto at start-up with
grpcio-tools, so nothing generated is kept in the repository.
"""

import argparse
import importlib
import pathlib
import sys
import tempfile

from grpc_tools import protoc

import grpc

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROTO_DIR = ROOT / "proto"
DEFAULT_PUZZLE = (
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
)


def load_stubs():
    """Generates sudoku_pb2 / sudoku_pb2_grpc into a temporary directory and imports them."""
    out = tempfile.mkdtemp(prefix="sudoku_stubs_")
    include = pathlib.Path(protoc.__file__).parent / "_proto"
    status = protoc.main(
        [
            "grpc_tools.protoc",
            f"-I{PROTO_DIR}",
            f"-I{include}",
            f"--python_out={out}",
            f"--grpc_python_out={out}",
            str(PROTO_DIR / "sudoku/v1/sudoku.proto"),
        ]
    )
    if status != 0:
        sys.exit(f"protoc failed with status {status}")
    sys.path.insert(0, out)
    return (
        importlib.import_module("sudoku.v1.sudoku_pb2"),
        importlib.import_module("sudoku.v1.sudoku_pb2_grpc"),
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addr", default="127.0.0.1:50051")
    parser.add_argument("puzzle", nargs="?", default=DEFAULT_PUZZLE)
    args = parser.parse_args()

    pb, rpc = load_stubs()
    with grpc.insecure_channel(args.addr) as channel:
        stub = rpc.SudokuServiceStub(channel)

        reply = stub.Solve(pb.SolveRequest(puzzle=args.puzzle, check_unique=True), timeout=10)
        print("outcome:", pb.Outcome.Name(reply.outcome))
        print("solution:", reply.solution)
        print("algorithm:", pb.Algorithm.Name(reply.algorithm))
        print("solution_count:", reply.solution_count)
        print("placements:", reply.stats.placements, "backtracks:", reply.stats.backtracks)

        steps = 0
        request = pb.SolveStepsRequest(puzzle=args.puzzle, max_batch=64)
        for message in stub.SolveSteps(request, timeout=10):
            kind = message.WhichOneof("event")
            if kind == "started":
                print("started:", message.started.puzzle)
            elif kind == "steps":
                steps += len(message.steps.steps)
            else:
                finished = message.finished
                print("streamed steps:", steps)
                print("finished:", pb.Outcome.Name(finished.outcome), finished.solution)

        try:
            stub.Solve(pb.SolveRequest(puzzle="12x"), timeout=10)
        except grpc.RpcError as error:
            print("bad puzzle:", error.code().name, "-", error.details())


if __name__ == "__main__":
    main()
