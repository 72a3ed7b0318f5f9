"""AEON_WRITE_STATEMENT=split on a real Citus cluster: a command's write goes to its
encounter's worker only and commits there in one phase (no PREPARE TRANSACTION), on the
single-trip path and on the locking path, with an Idempotency-Key whose stored answer is
the command's answer byte for byte.  The same commands with the single statement prepare
on the workers, which shows the check can fail.

What Citus sends to the workers is read from its own log of them
(``citus.log_remote_commands``), sent to this test's connections as notices.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
import pytest

from events.idempotency import find_response
from projections.inline import read_model_rows
from service.commands import CommandEnvelope
from service.rulesets.generic.commands import Damage
from service.write.pipeline import CommandPipeline
from service.write.strategy import WriteStatement, strategy_for
from tests.support.pipeline import GM, add, new_encounter
from tests.support.strategies import LockingPath

_SERVER = re.compile(r"on server \S+@([\d.]+:\d+)")


class RemoteCommands:
    """Every command Citus issued to a worker for this pool's connections."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def listen(self, _conn: Any, message: Any) -> None:
        if message.message.startswith("issuing "):
            server = _SERVER.search(message.detail or "")
            self.lines.append((message.message, server[1] if server else ""))

    def taken(self) -> list[tuple[str, str]]:
        lines, self.lines = self.lines, []
        return lines


@pytest.fixture
async def logged(database_url: str) -> AsyncIterator[tuple[asyncpg.Pool, RemoteCommands]]:
    remote = RemoteCommands()

    async def setup(conn: asyncpg.Connection) -> None:  # a released connection forgets it
        conn.add_log_listener(remote.listen)

    pool = await asyncpg.create_pool(
        database_url,
        min_size=1,
        max_size=4,
        setup=setup,
        server_settings={"citus.log_remote_commands": "on", "client_min_messages": "log"},
    )
    yield pool, remote
    await pool.close()


async def _command(
    pool: asyncpg.Pool,
    remote: RemoteCommands,
    form: WriteStatement,
    *,
    single_trip: bool,
) -> tuple[list[tuple[str, str]], UUID, bytes]:
    """A new encounter, a combatant added and one Damage command with an Idempotency-Key;
    the remote commands all three caused."""
    strategy = strategy_for(form) if single_trip else LockingPath(strategy_for(form))
    pipeline = CommandPipeline(pool, read_model_rows, strategy=strategy)
    remote.taken()
    encounter_id = await new_encounter(pipeline, f"one phase {form}")
    await add(pipeline, encounter_id, "ogre", hp=100)  # and now the state is cached
    answer = await pipeline.execute(
        encounter_id,
        CommandEnvelope(command=Damage(target="ogre", amount=1)),
        actor=GM,
        idempotency_key=f"key-{form}-{single_trip}",
        request_hash="h",
    )
    return remote.taken(), encounter_id, answer


@pytest.mark.parametrize("single_trip", [True, False], ids=["single trip", "locking"])
async def test_a_split_command_commits_in_one_phase_on_its_worker(
    logged: tuple[asyncpg.Pool, RemoteCommands], single_trip: bool
) -> None:
    pool, remote = logged
    lines, encounter_id, answer = await _command(pool, remote, "split", single_trip=single_trip)
    commands = [c for c, _ in lines]
    assert commands, "Citus logged no remote command: the check would see nothing"
    assert not [c for c in commands if "PREPARE TRANSACTION" in c], commands
    assert any(c.startswith("issuing COMMIT") for c in commands), commands
    assert len({server for _, server in lines}) == 1, lines
    stored = await find_response(pool, encounter_id, f"key-split-{single_trip}", "h")
    assert stored == answer
    version = msgspec.json.decode(answer)["version"]
    head = await pool.fetchval(
        "SELECT max(stream_version) FROM events WHERE stream_id = $1", encounter_id
    )
    assert head == version
    assert (
        await pool.fetchval(
            "SELECT version FROM encounter_state WHERE encounter_id = $1", encounter_id
        )
        == version
    )


async def test_the_single_statement_commits_in_two_phases(
    logged: tuple[asyncpg.Pool, RemoteCommands],
) -> None:
    pool, remote = logged
    lines, _, _ = await _command(pool, remote, "single", single_trip=True)
    assert [c for c, _ in lines if "PREPARE TRANSACTION" in c]
