"""The schema and the command path stay distributable by the encounter: read
from PostgreSQL's catalog and from the statements a command really runs, so neither can
drift from the rules in docs/scale-out.md#citus."""

from __future__ import annotations

import contextlib
import re
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from api.app import open_pool
from api.settings import Settings
from events.shards import anchor_of, anchors
from projections.inline import read_model_rows
from service.commands import Actor, CommandEnvelope
from service.rulesets.generic.commands import AddCombatant, Damage, RollInitiative
from service.write.pipeline import CREATE_NAMESPACE, CommandPipeline
from tests.support.citus import DISTRIBUTION_COLUMN, REFERENCE_TABLES
from tests.support.pipeline import new_encounter

GM = Actor(role="gm")

_TABLES = re.compile(r"\b(" + "|".join(DISTRIBUTION_COLUMN) + r")\b")
NOT_PER_ENCOUNTER = {
    "schema_migrations",
    "webhooks",
    "webhook_deliveries",
    "carry_over_checkpoint",
}
"""Tables that are not per encounter (Citus: local to the coordinator).  Webhooks are
subscriptions, some service-wide (no encounter): their delivery lanes read the events of
one stream at a time, which Citus routes to its shard.  The carry-over's checkpoint is
one row for the whole service, as a service-wide webhook's is."""


async def test_every_key_of_a_per_encounter_table_leads_with_the_encounter(
    pool: asyncpg.Pool,
) -> None:
    tables = {
        r["relname"]
        for r in await pool.fetch(
            """SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"""
        )
    }
    assert tables == set(DISTRIBUTION_COLUMN) | NOT_PER_ENCOUNTER | set(REFERENCE_TABLES), (
        "a table was added or removed: say here whether it is per encounter"
    )
    # Unique indexes cover primary keys, unique constraints and bare unique indexes alike;
    # exclusion constraints are as binding for Citus.
    keys = await pool.fetch(
        """SELECT c.relname AS table_name, i.relname AS index_name,
                  (SELECT a.attname FROM pg_attribute a
                   WHERE a.attrelid = x.indrelid AND a.attnum = x.indkey[0]) AS leading
           FROM pg_index x
           JOIN pg_class c ON c.oid = x.indrelid
           JOIN pg_class i ON i.oid = x.indexrelid
           JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = current_schema() AND x.indisunique
           UNION ALL
           SELECT c.relname, k.conname,
                  (SELECT a.attname FROM pg_attribute a
                   WHERE a.attrelid = k.conrelid AND a.attnum = k.conkey[1])
           FROM pg_constraint k
           JOIN pg_class c ON c.oid = k.conrelid
           JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = current_schema() AND k.contype = 'x'"""
    )
    offending = [
        f"{k['table_name']}.{k['index_name']} leads with {k['leading']}"
        for k in keys
        if k["table_name"] in DISTRIBUTION_COLUMN
        and k["leading"] != DISTRIBUTION_COLUMN[k["table_name"]]
    ]
    assert offending == []
    assert {k["table_name"] for k in keys} >= set(DISTRIBUTION_COLUMN)


async def test_foreign_keys_join_on_the_encounter(pool: asyncpg.Pool) -> None:
    """Citus keeps a foreign key between co-located tables only when it includes the
    distribution column on both sides."""
    rows = await pool.fetch(
        """SELECT c.relname AS child, p.relname AS parent,
                  array(SELECT a.attname FROM unnest(k.conkey) u(n)
                        JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n)
                  AS columns,
                  array(SELECT a.attname FROM unnest(k.confkey) u(n)
                        JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n)
                  AS referenced
           FROM pg_constraint k
           JOIN pg_class c ON c.oid = k.conrelid
           JOIN pg_class p ON p.oid = k.confrelid
           JOIN pg_namespace n ON n.oid = k.connamespace
           WHERE k.contype = 'f' AND n.nspname = current_schema()"""
    )
    assert rows
    for r in rows:
        if r["child"] in NOT_PER_ENCOUNTER:
            # Local to the coordinator: it may refer to local tables only.
            assert r["parent"] in NOT_PER_ENCOUNTER, dict(r)
            continue
        assert DISTRIBUTION_COLUMN[r["child"]] in r["columns"], dict(r)
        assert DISTRIBUTION_COLUMN[r["parent"]] in r["referenced"], dict(r)


async def test_a_command_s_statements_touch_its_encounter_only(
    database_url: str,
) -> None:
    """Every statement a command runs names its encounter (or its shard's count row) and no
    other, reads no global order, and relies on no notification: on Citus each is routed
    to one shard."""
    statements: list[asyncpg.LoggedQuery] = []

    async def log_queries(conn: asyncpg.Connection) -> None:
        conn.add_query_logger(statements.append)

    async def keep_session(conn: asyncpg.Connection) -> None:
        """As the service's pool does (api/app.py): no reset query on release."""

    pool = await asyncpg.create_pool(
        database_url, min_size=1, max_size=2, init=log_queries, reset=keep_session
    )
    warm = await open_pool(Settings(database_url=database_url, pool_max=2))  # (migrations)
    await warm.close()
    try:
        pipeline = CommandPipeline(pool, read_model_rows, snapshot_every=3)
        other = await new_encounter(pipeline, "other")
        statements.clear()
        opened = await pipeline.create_encounter(
            ruleset="generic",
            name="mine",
            options={},
            client_seed=None,
            actor=GM,
            idempotency_key="create-mine",
            request_hash="body",
        )
        mine = UUID(msgspec.json.decode(opened.response)["encounter_id"])
        for ident in ("a", "b"):
            await _run(pipeline, mine, AddCombatant(id=ident, name=ident, hp=30, stats={"ac": 1}))
        await _run(pipeline, mine, RollInitiative())
        for _ in range(4):  # past a snapshot
            await _run(pipeline, mine, Damage(target="b", amount=1))
        await pipeline.undo(mine, actor=GM)
        await pipeline.redo(mine, actor=GM)
    finally:
        await pool.close()

    checked = 0
    for s in statements:
        query, values = s.query, _uuids(s.args)
        if not _TABLES.search(query):
            continue  # transaction control, asyncpg's own type introspection
        # A read of the creation namespace (keys stored there by earlier versions) is a
        # statement of its own, never one that also names the encounter.
        ours = {mine, CREATE_NAMESPACE} & values
        # The count row of the encounter's shard (events/shards.py) is keyed by an anchor
        # that Citus puts in the encounter's shard group: naming it alone, or with the
        # encounter, is naming the encounter's shard.
        shard_anchor = anchor_of(mine)[1]
        if not ours and shard_anchor in values:
            ours = {mine}
        assert len(ours) == 1, f"a statement that names no encounter, or two: {query}"
        assert other not in values, f"a statement that names another encounter: {query}"
        assert not (set(anchors()) - {shard_anchor}) & values, f"another shard: {query}"
        if CREATE_NAMESPACE in ours:
            assert query.lstrip().startswith("SELECT"), query
            assert shard_anchor not in values, query
        assert not re.search(r"\b(NOTIFY|LISTEN|pg_notify|nextval|setval)\b", query), query
        # Comparing or ordering by the global position would read across shards.
        assert not re.search(r"\bglobal_position\s*(<|>|=|BETWEEN)", query), query
        assert not re.search(r"ORDER BY\s+(transaction_id|global_position)", query), query
        checked += 1
    assert checked > 10


async def _run(pipeline: CommandPipeline, encounter: UUID, command: Any) -> None:
    await pipeline.execute(encounter, CommandEnvelope(command=command), actor=GM)


def _uuids(args: Any) -> set[UUID]:
    found: set[UUID] = set()
    for a in args or ():
        if isinstance(a, UUID):
            found.add(a)
        elif isinstance(a, list | tuple):
            found |= _uuids(a)
        elif isinstance(a, str):
            with contextlib.suppress(ValueError):
                found.add(UUID(a))
    return found
