"""Opens N TCP connections to HOST:PORT that never send a byte, holds them for
HOLD seconds, and reports how many the server closed by itself (and how fast).
Part of benches/silent.sh; talks to this machine only."""

import asyncio
import sys
import time


async def main(host: str, port: int, count: int, hold: float) -> None:
    began = time.monotonic()
    closed_at = []
    failed = 0

    async def one() -> None:
        nonlocal failed
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            failed += 1
            return
        try:
            await reader.read(1)  # b"" (or a reset) once the server closes it
            closed_at.append(time.monotonic() - began)
        except OSError:
            closed_at.append(time.monotonic() - began)
        finally:
            writer.close()

    tasks = [asyncio.create_task(one()) for _ in range(count)]
    done, pending = await asyncio.wait(tasks, timeout=hold)
    for task in pending:
        task.cancel()
    closed_at.sort()
    last = f"{closed_at[-1]:.1f}" if closed_at else "-"
    print(
        f"silent client: {count - failed} opened ({failed} failed to connect), "
        f"{len(closed_at)} closed by the server within {hold:.0f} s (the last after {last} s)",
        flush=True,
    )


if __name__ == "__main__":
    host, port, count, hold = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    asyncio.run(main(host, port, count, hold))
