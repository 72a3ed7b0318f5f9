"""The dice_seeds table: the seeds each dice epoch of a stream committed to, the public
one under the epoch and the secret one (for hidden GM rolls) under its negation.

A new epoch's seeds are written by the command's one write statement (events/append.py);
these are the reads.
"""

from __future__ import annotations

from uuid import UUID

from events.db import Database


async def epoch_seeds(db: Database, stream_id: UUID, epoch: int) -> dict[int, bytes]:
    """The stored seeds of ``epoch``, by epoch: ``epoch`` public, ``-epoch`` secret."""
    rows = await db.fetch(
        "SELECT epoch, seed FROM dice_seeds WHERE stream_id = $1"
        " AND epoch IN ($2::int, -($2::int))",
        stream_id,
        epoch,
    )
    return {row["epoch"]: bytes(row["seed"]) for row in rows}


async def secret_seeds(db: Database, stream_id: UUID, epochs: list[int]) -> dict[int, bytes]:
    """The stored secret seeds of ``epochs``, by (positive) epoch."""
    rows = await db.fetch(
        "SELECT -epoch AS epoch, seed FROM dice_seeds"
        " WHERE stream_id = $1 AND epoch = ANY($2::int[])",
        stream_id,
        [-epoch for epoch in epochs],
    )
    return {row["epoch"]: bytes(row["seed"]) for row in rows}
