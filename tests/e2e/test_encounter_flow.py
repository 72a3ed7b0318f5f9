"""A complete generic encounter over HTTP, and its read models against a rebuild."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from projections.rebuild import rebuild_stream
from service.loading import load
from tests.e2e.helpers import Client, combatant, command, create, inner_events
from tests.support.fairness import readme_fairness_script


async def test_complete_generic_encounter(client: Client, database_url: str) -> None:
    eid = await create(client, "Bridge fight", options={"initiative_stat": "dex"})
    for c in (
        combatant("alice", 20, ac=14, dex=3),
        combatant("bob", 16, ac=12, dex=1),
        combatant("orc", 15, ac=13, dex=0),
    ):
        await command(client, eid, c)
    init = await command(client, eid, {"type": "generic.roll_initiative"}, manual=[[10], [12], [9]])
    state = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    assert [slot["combatant"] for slot in state["order"]] == [
        "alice",
        "bob",
        "orc",
    ]  # 13, 13 (dex 3 beats 1), 9
    assert init["events"][0]["data"]["rolls"][0]["modifiers"][0] == {"label": "dex", "value": 3}

    # Round 1: alice hits the orc, bob misses, the orc is slowed for 1 round, then hits bob.
    hit = await command(
        client,
        eid,
        {
            "type": "generic.attack",
            "attacker": "alice",
            "target": "orc",
            "notation": "1d20+5",
            "damage": "1d8+2",
        },
        manual=[[11], [6]],
    )
    assert hit["events"][0]["data"]["rolls"][0]["outcome"] == "hit"
    await command(client, eid, {"type": "generic.next_turn"})
    await command(
        client,
        eid,
        {
            "type": "generic.attack",
            "attacker": "bob",
            "target": "orc",
            "notation": "1d20+2",
            "damage": "1d6",
        },
        manual=[[3]],
    )
    await command(
        client,
        eid,
        {
            "type": "generic.add_condition",
            "target": "orc",
            "condition": "slowed",
            "duration_rounds": 1,
        },
    )
    await command(client, eid, {"type": "generic.next_turn"})
    await command(
        client,
        eid,
        {
            "type": "generic.attack",
            "attacker": "orc",
            "target": "bob",
            "notation": "1d20+4",
            "damage": "1d12",
        },
        manual=[[15], [7]],
    )
    # Round 2 (server dice): the condition expires when round 2 begins.
    turn = await command(client, eid, {"type": "generic.next_turn"})
    assert "generic.condition_expired" in [e["type"] for e in turn["events"]]
    await command(
        client,
        eid,
        {
            "type": "generic.attack",
            "attacker": "alice",
            "target": "orc",
            "notation": "1d20+5",
            "damage": "1d8+2",
        },
    )
    await command(
        client,
        eid,
        {
            "type": "generic.adjudicate",
            "reason": "the orc's armour was cracked",
            "ruling": {"type": "set_value", "combatant": "orc", "field": "stat:ac", "value": 11},
        },
    )

    response = await client.get(f"/encounters/{eid}")
    view = response.json()
    assert response.headers["etag"] == f'"{view["version"]}"'
    game = view["state"]["game"]
    assert game["combatants"]["orc"]["stats"]["ac"] == 11
    assert game["combatants"]["bob"]["hp"] == 9
    assert "slowed" not in [c["name"] for c in game["combatants"]["orc"]["conditions"]]

    log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert "d20 [11] +5 notation = 16 vs 13: hit (manual)" in log
    assert "no longer slowed" in log and "the orc's armour was cracked" in log

    # The inline state equals the state rebuilt from scratch from the events.
    conn = await asyncpg.connect(database_url)
    try:
        before = await conn.fetchval(
            "SELECT state FROM encounter_state WHERE encounter_id = $1", eid
        )
        await rebuild_stream(conn, UUID(eid))
        after = await conn.fetchval(
            "SELECT state FROM encounter_state WHERE encounter_id = $1", eid
        )
    finally:
        await conn.close()
    assert before == after
    pool_conn = await asyncpg.connect(database_url)
    try:
        folded = await load(pool_conn, UUID(eid))
    finally:
        await pool_conn.close()
    rebuilt = msgspec.json.decode(msgspec.json.encode(folded.encounter))
    assert rebuilt == view["state"]

    verify = (await client.get(f"/encounters/{eid}/verify")).json()
    assert verify["ok"] and verify["chain"]["events_checked"] == view["version"]


async def test_server_rolls_recompute_from_revealed_seed_with_hashlib_and_hmac(
    client: Client,
) -> None:
    eid = await create(client, "Fairness", client_seed="players-chose-this")
    await command(client, eid, combatant("a", 10, ac=10))
    await command(client, eid, combatant("b", 10, ac=10))
    for _ in range(5):
        await command(
            client,
            eid,
            {
                "type": "generic.attack",
                "attacker": "a",
                "target": "b",
                "notation": "4d6kh3+1",
                "damage": "1d6!",
            },
        )
    reveal = await client.post(
        f"/encounters/{eid}/dice/reveal", json={"next_client_seed": "round-two"}
    )
    assert reveal.status_code == 200, reveal.text
    seed_hex = reveal.json()["events"][0]["data"]["seed"]
    rolls = (await client.get(f"/encounters/{eid}/rolls")).json()["rolls"]
    events = (await client.get(f"/encounters/{eid}/events")).json()["events"]
    commitment = next(e for e in events if e["type"] == "dice.seed_committed")["data"]["commitment"]

    # The README's script, run verbatim: it may use nothing but hashlib and hmac.
    script = readme_fairness_script()
    assert {line.split()[1] for line in script.splitlines() if line.startswith("import ")} == {
        "hashlib",
        "hmac",
    }
    namespace: dict[str, Any] = {}
    exec(script, namespace)
    server_rolls = [r for r in rolls if r["source"] == "server"]
    assert len(server_rolls) >= 5
    for roll in server_rolls:
        assert namespace["check"](seed_hex, commitment, "players-chose-this", roll), roll
    tampered = {
        **server_rolls[0],
        "dice": [{**d, "face": d["face"] % d["sides"] + 1} for d in server_rolls[0]["dice"]],
    }
    assert not namespace["check"](seed_hex, commitment, "players-chose-this", tampered)
    verify = (await client.get(f"/encounters/{eid}/verify")).json()
    assert verify["dice"]["epochs"][0]["verified"] == len(server_rolls)
    assert verify["dice"]["epochs"][1]["revealed"] is False


async def test_verify_reports_a_tampered_event_by_version(
    client: Client, database_url: str
) -> None:
    eid = await create(client, "Tampered")
    await command(client, eid, combatant("a", 10, ac=10))
    await command(client, eid, combatant("b", 10, ac=10))
    await command(client, eid, {"type": "generic.damage", "target": "b", "amount": 3})
    conn = await asyncpg.connect(database_url)
    try:
        async with conn.transaction():
            await conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
            await conn.execute(
                "UPDATE events SET data = jsonb_set(data::jsonb, '{amount}', '1')::json"
                " WHERE stream_id = $1 AND stream_version = 5",
                UUID(eid),
            )
            await conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
        async with conn.transaction():
            await conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
            await conn.execute(
                "UPDATE events SET data = '{\"nonsense\": true}'::json"
                " WHERE stream_id = $1 AND stream_version = 4",
                UUID(eid),
            )
            await conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
    finally:
        await conn.close()
    response = await client.get(f"/encounters/{eid}/verify")
    assert response.status_code == 200
    report = response.json()
    assert report["ok"] is False
    assert report["chain"]["first_broken"]["version"] == 4
    assert report["chain"]["first_broken"]["stream_id"] == eid
    assert report["dice"]["error"]


async def test_hidden_gm_roll_is_shown_to_the_gm_only(client: Client) -> None:
    eid = await create(client, "Secrets")
    await command(client, eid, combatant("scout", 8, ac=10))
    body = {
        "command": {
            "type": "generic.check",
            "combatant": "scout",
            "notation": "1d20+2",
            "label": "Perception",
            "target_number": 15,
        },
        "hidden": True,
    }
    response = await client.post(f"/encounters/{eid}/commands", json=body)
    assert response.status_code == 200, response.text
    roll = inner_events(response.json()["events"])[0]["data"]["rolls"][0]
    assert roll["hidden"] is True and roll["source"] == "server" and roll["dice"][0]["face"] >= 1
    gm_log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert f"= {roll['total']} vs 15" in gm_log and "secretly" not in gm_log
    # What a player sees is tested with player tokens in test_access.py.
