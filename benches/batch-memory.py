"""A SolveBatch client that sends many puzzles and reads no answer: prints, once a
second, how many puzzles it could hand over and the server's resident memory.

    python3 benches/batch-memory.py ADDR PUZZLES SERVER_PID [SECONDS]
"""

import pathlib
import sys
import time

import grpc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "examples" / "python"))
from sudoku_client import load_stubs  # noqa: E402

pb, rpc = load_stubs()
PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])
    return 0


def main():
    addr, total, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    seconds = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    handed = [0]

    def requests():
        for start in range(0, total, 500):
            handed[0] = start
            ids = range(start, min(total, start + 500))
            yield pb.SolveBatchRequest(puzzles=[pb.BatchPuzzle(id=str(i), puzzle=PUZZLE) for i in ids])
        handed[0] = total

    print(f"server RSS before: {rss_kib(pid)} KiB")
    call = rpc.SudokuServiceStub(grpc.insecure_channel(addr)).SolveBatch(requests())
    for second in range(1, seconds + 1):
        time.sleep(1)
        print(f"{second} s: {handed[0]} of {total} puzzles handed over, server RSS {rss_kib(pid)} KiB")
    call.cancel()


if __name__ == "__main__":
    main()
