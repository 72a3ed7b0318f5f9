"""Peak resident memory and time of ``aeon-ledger import`` for archives of several sizes.

    python -m bench.import_memory                   # 1,000, 20,000, 60,000 and 120,000 events
    python -m bench.import_memory --events 60000,120000

Each archive is a long campaign of GM notes (tests/e2e/large_archive.py, about 1 KB per
event line), imported by the command in a process of its own into a fresh database; the
peak is that process's ``ru_maxrss``, which includes the interpreter and the imported
code (about 70 MB).  An import whose memory is bounded shows the same peak at every size.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bench.harness import fresh_database, print_table
from tests.e2e.large_archive import import_peak_bytes, write_archive


async def measure(events: int, folder: Path) -> tuple[float, float, float]:
    """(archive MB, seconds, peak MB) of one import."""
    archive = folder / f"{events}.jsonl"
    await asyncio.to_thread(write_archive, archive, events)
    async with fresh_database("aeon_bench_import") as url:
        started = time.perf_counter()
        peak = await import_peak_bytes(archive, url)
        seconds = time.perf_counter() - started
    size = archive.stat().st_size
    archive.unlink()
    return size / 1e6, seconds, peak / 1e6


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", default="1000,20000,60000,120000")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for events in (int(n) for n in args.events.split(",")):
            size, seconds, peak = await measure(events, Path(folder))
            rows.append([f"{events:,}", f"{size:.0f} MB", f"{seconds:.1f} s", f"{peak:.0f} MB"])
    header = ["events", "archive", "time", "peak RSS"]
    print_table("aeon-ledger import of a campaign of GM notes", header, rows)


if __name__ == "__main__":
    asyncio.run(main())
