"""A long campaign imports in memory that does not grow with it: the archive is read as
it streams in, and the encounter's read models are rebuilt a page of events at a time,
byte for byte as the rebuild of the whole stream at once writes them."""

from __future__ import annotations

import asyncio
from pathlib import Path

from api.app import open_pool
from api.cli.archive_import import import_archive
from api.settings import Settings
from events.provenance import ChainKeys
from projections.rebuild import rebuild_all
from projections.stream_rebuild import STREAM_PAGE_EVENTS
from tests.conftest import create_database, drop_database
from tests.e2e.large_archive import import_peak_bytes, write_archive
from tests.support.read_models import dump


async def _peak_bytes(archive: Path, postgres_url: str) -> int:
    """The import's peak resident memory, in a process of its own and a fresh database."""
    url = await create_database(postgres_url)
    try:
        return await import_peak_bytes(archive, url)
    finally:
        await drop_database(postgres_url, url)


async def test_a_large_archive_imports_in_bounded_memory(postgres_url: str, tmp_path: Path) -> None:
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    await asyncio.to_thread(write_archive, small, 500)
    await asyncio.to_thread(write_archive, large, 20_000)
    growth = await _peak_bytes(large, postgres_url) - await _peak_bytes(small, postgres_url)
    size = large.stat().st_size - small.stat().st_size
    # Measured here: a fifth of the archive's size.  Reading it whole took five times it.
    # Measured here: nothing.  Keeping the rebuild's rows until the end took about twice
    # the archive's size, and reading the archive whole before that five times it.
    assert growth < size // 5, (growth, size)


async def test_an_import_writes_the_read_models_the_whole_stream_rebuild_writes(
    postgres_url: str, tmp_path: Path
) -> None:
    archive = tmp_path / "mid.jsonl"
    events = 2 * STREAM_PAGE_EVENTS + 345  # pages of the import's rebuild, and a part page
    eid = await asyncio.to_thread(write_archive, archive, events, 60)
    url = await create_database(postgres_url)
    pool = await open_pool(Settings(database_url=url))
    try:
        with archive.open("rb") as lines:
            imported = await import_archive(pool, lines, ChainKeys())
        assert imported.events == events
        by_pages = await dump(pool)
        assert len(by_pages["log_entries"]) == events
        assert by_pages["encounter_state"][0][:4] == (eid, "generic", "Long campaign", events)
        assert await rebuild_all(pool, page_events=events, batch_events=events) == (1, events)
        assert await dump(pool) == by_pages
    finally:
        await pool.close()
        await drop_database(postgres_url, url)
