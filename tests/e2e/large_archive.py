"""A long campaign as an archive, generated without playing it: an encounter created,
then GM notes of a chosen size, each event linked and hashed as the service would, so an
import of any size can be measured (``import_peak_bytes``)."""

from __future__ import annotations

import asyncio
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

from events.archive import ArchivedEvent, ArchiveEnd, ArchiveHeader
from events.envelope import GENESIS_HASH
from events.hashing import event_hash

_encode = msgspec.json.Encoder().encode

_MEASURE = """
import resource, sys
from api.cli.main import main
code = main(["import", sys.argv[1], "--database-url", sys.argv[2]])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, file=sys.stderr)
sys.exit(code)
"""


def write_archive(path: Path, events: int, note_bytes: int = 800) -> uuid.UUID:
    """Write an archive of ``events`` events (each note ``note_bytes`` of text) to
    ``path``, one line at a time; returns the encounter id."""
    stream_id = uuid.uuid4()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    metadata: dict[str, Any] = {"actor": {"role": "gm", "token_id": "0" * 16}}
    prev = GENESIS_HASH
    with path.open("wb") as out:
        out.write(b" " * 400 + b"\n")  # the header's place, written once the head is known
        for version in range(1, events + 1):
            if version == 1:
                kind = "encounter.created"
                data: dict[str, Any] = {"name": "Long campaign", "ruleset": "generic",
                                        "options": {}}  # fmt: skip
            else:
                kind = "encounter.note_added"
                data = {"text": f"Session note {version}: " + "x" * note_bytes}
            recorded_at = start + timedelta(seconds=version)
            meta = {**metadata, "command_id": str(uuid.UUID(int=version))}
            digest = event_hash(
                prev, stream_id=stream_id, stream_version=version, type=kind, type_version=1,
                data=data, metadata=meta, recorded_at=recorded_at,
            )  # fmt: skip
            event = ArchivedEvent(
                stream_version=version, type=kind, type_version=1, data=data, metadata=meta,
                recorded_at=recorded_at, prev_hash=prev, hash=digest,
            )  # fmt: skip
            out.write(_encode(event) + b"\n")
            prev = digest
        out.write(_encode(ArchiveEnd(events=events, last_hash=prev)) + b"\n")
        header = ArchiveHeader(
            encounter_id=stream_id, ruleset="generic", version=events, last_hash=prev,
            exported_at=start, seeds="revealed",
        )  # fmt: skip
        out.seek(0)
        out.write(_encode(header).ljust(400) + b"\n")
    return stream_id


async def import_peak_bytes(archive: Path, database_url: str) -> int:
    """The peak resident memory of ``aeon-ledger import`` of ``archive`` into the database
    at ``database_url``, run in a process of its own; raises if the import fails."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _MEASURE, str(archive), database_url,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    if process.returncode != 0 or b"hash chain verified" not in out:
        raise RuntimeError(f"the import failed:\n{err.decode()}")
    return int(err.decode().strip().splitlines()[-1])
