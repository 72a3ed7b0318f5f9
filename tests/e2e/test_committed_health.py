"""NPC health and the hash chain (docs/secrecy.md, "NPC health"; docs/tamper-evidence.md):
under ``npc_health`` ``hidden`` a player and a spectator read events without the NPC's
numbers, and still recompute every link of the chain themselves, in every ruleset, and
an opened envelope's commitment too; the GM reads the values and the salts, and checks
every commitment.  The hash as an oracle for hit points: tests/e2e/secrecy/test_oracles.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from events.committed_health import COMMITMENTS, SALTS
from tests.e2e.helpers import Client, command
from tests.e2e.npc_health_tables import TABLES, Table, generic_combatant
from tests.support.chain import relinked


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _table(client: Client, table: Table, npc_health: str = "hidden") -> str:
    created = await client.post(
        "/encounters",
        json={"ruleset": table.ruleset, "name": "Chained health", "npc_health": npc_health,
              **({"options": table.options} if table.options else {})},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    eid = str(created.json()["encounter_id"])
    for step in table.steps:
        await command(client, eid, step.command, manual=step.manual)
    return eid


async def _readers(client: Client, eid: str, pc: str) -> list[dict[str, str]]:
    player = await client.post(f"/encounters/{eid}/tokens", json={"combatants": [pc]})
    spectator = await client.post(f"/encounters/{eid}/tokens", json={"role": "spectator"})
    assert player.status_code == spectator.status_code == 201
    return [_bearer(player.json()["token"]), _bearer(spectator.json()["token"])]


async def _events(client: Client, eid: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    page = await client.get(f"/encounters/{eid}/events?limit=500", headers=headers)
    assert page.status_code == 200, page.text
    events: list[dict[str, Any]] = page.json()["events"]
    return events


@pytest.mark.parametrize("table", TABLES, ids=[t.ruleset for t in TABLES])
async def test_a_player_recomputes_every_link_with_hidden_npc_health(
    client: Client, table: Table
) -> None:
    eid = await _table(client, table)
    gm = await _events(client, eid, {})
    committed = [e for e in gm if COMMITMENTS in e["data"]]
    assert committed, "the table's health events carry commitments"
    assert all(set(e["data"][SALTS]) == set(e["data"][COMMITMENTS]) for e in committed)
    assert relinked(eid, gm) == []  # the GM: values, salts and every commitment
    for headers in await _readers(client, eid, table.pc):
        seen = await _events(client, eid, headers)
        assert not any(SALTS in e["data"] for e in seen)
        assert [e["hash"] for e in seen] == [e["hash"] for e in gm]
        assert relinked(eid, seen) == []
        verified = (await client.get(f"/encounters/{eid}/verify?deep=true", headers=headers)).json()
        assert verified["ok"] is True, verified


async def test_a_player_checks_an_opened_envelope_that_hurt_an_npc(client: Client) -> None:
    """The GM's hidden damage to an NPC, revealed: the player reads the inner events
    without ``hp_after`` and checks the envelope's commitment from them."""
    generic = TABLES[0]
    eid = await _table(client, generic)
    await command(client, eid, generic_combatant("brute", 913))
    player, _ = await _readers(client, eid, generic.pc)
    sealed = await client.post(
        f"/encounters/{eid}/commands",
        json={"command": {"type": "generic.damage", "target": "brute", "notation": "1d4"},
              "manual_dice": [[3]], "hidden": True},
    )  # fmt: skip
    assert sealed.status_code == 200, sealed.text
    revealed = await client.post(f"/encounters/{eid}/rolls/reveal", json={"roll_ids": ["s1"]})
    assert revealed.status_code == 200, revealed.text
    seen = await _events(client, eid, player)
    envelope = next(e for e in seen if e["type"] == "encounter.sealed")
    (damaged,) = envelope["data"]["events"]
    assert "hp_after" not in damaged["data"] and COMMITMENTS in damaged["data"]
    assert "salt" in envelope["data"]
    assert relinked(eid, seen) == []
