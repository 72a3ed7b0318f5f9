"""A long campaign imports without reading its archive whole: the import's peak memory
grows by less than the archive's size (reading it whole first, parsed, took about five
times its size)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.conftest import create_database, drop_database
from tests.e2e.large_archive import write_archive

_MEASURE = """
import resource, sys
from api.cli.main import main
code = main(["import", sys.argv[1], "--database-url", sys.argv[2]])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, file=sys.stderr)
sys.exit(code)
"""


async def _peak_bytes(archive: Path, postgres_url: str) -> int:
    """The import's peak resident memory, in a process of its own and a fresh database."""
    url = await create_database(postgres_url)
    try:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", _MEASURE, str(archive), url,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await process.communicate()
        assert process.returncode == 0, err.decode()
        assert b"hash chain verified" in out
        return int(err.decode().strip().splitlines()[-1])
    finally:
        await drop_database(postgres_url, url)


async def test_a_large_archive_imports_in_bounded_memory(postgres_url: str, tmp_path: Path) -> None:
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    await asyncio.to_thread(write_archive, small, 500)
    await asyncio.to_thread(write_archive, large, 20_000)
    growth = await _peak_bytes(large, postgres_url) - await _peak_bytes(small, postgres_url)
    size = large.stat().st_size - small.stat().st_size
    # Measured here: a fifth of the archive's size.  Reading it whole took five times it.
    assert growth < size, (growth, size)
