"""``Prefer: return=representation`` (RFC 7240): a write's answer also carries the state
after it and its log lines, as the caller may see them."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, combatant, command, create

PREFER = {"Prefer": "return=representation"}


def _alice() -> dict[str, Any]:
    return {**combatant("alice", 10, ac=12), "checks": {"Stealth": "1d20+4"}}


async def test_the_gm_gets_the_state_and_log_lines_of_the_command(client: Client) -> None:
    eid = await create(client)
    await command(client, eid, _alice())
    plain = await client.post(
        f"/encounters/{eid}/commands", json={"command": combatant("goblin", 7, ac=11)}
    )
    assert "state" not in plain.json() and "Preference-Applied" not in plain.headers

    hit = {
        "command": {
            "type": "generic.attack",
            "attacker": "alice",
            "target": "goblin",
            "notation": "1d20",
            "damage": "1d6",
        },
        "manual_dice": [[15], [4]],
    }
    response = await client.post(f"/encounters/{eid}/commands", json=hit, headers=PREFER)
    assert response.status_code == 200, response.text
    assert response.headers["Preference-Applied"] == "return=representation"
    assert "Prefer" in response.headers["Vary"]
    body = response.json()
    assert body["state"]["version"] == body["version"] == int(response.headers["ETag"].strip('"'))
    assert body["state"]["game"]["combatants"]["goblin"]["hp"] == 3
    current = (await client.get(f"/encounters/{eid}")).json()["state"]
    assert body["state"] == current
    assert [line["version"] for line in body["log"]] == [
        e["stream_version"] for e in body["events"]
    ]
    assert "Goblin" in body["log"][0]["text"] and body["log"][0]["rolls"]

    # Preferences are case-insensitive and may come among others (RFC 7240).
    note = await client.post(
        f"/encounters/{eid}/notes",
        json={"text": "The bridge creaks."},
        headers={"Prefer": 'respond-async, RETURN="Representation"; x=1'},
    )
    assert note.json()["log"][0]["text"] == "GM note: The bridge creaks."
    undo = await client.post(f"/encounters/{eid}/undo", headers=PREFER)
    assert undo.status_code == 200, undo.text
    assert undo.json()["state"]["game"]["combatants"]["goblin"]["hp"] == 7
    minimal = await client.post(f"/encounters/{eid}/redo", headers={"Prefer": "return=minimal"})
    assert "state" not in minimal.json() and "Preference-Applied" not in minimal.headers


async def test_a_player_gets_the_state_without_what_a_secret_roll_decided(
    client: Client,
) -> None:
    eid = await create(client, npc_health="exact")
    await command(client, eid, _alice())
    await command(client, eid, combatant("goblin", 12, ac=11))
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["alice"]})
    player = {"Authorization": f"Bearer {minted.json()['token']}", **PREFER}
    secret = {
        "command": {
            "type": "generic.attack",
            "attacker": "alice",
            "target": "goblin",
            "notation": "1d20",
            "damage": "1d6",
        },
        "manual_dice": [[17], [5]],
        "hidden": True,
    }
    gm = await client.post(f"/encounters/{eid}/commands", json=secret, headers=PREFER)
    assert gm.json()["state"]["game"]["combatants"]["goblin"]["hp"] == 7

    check = {"type": "generic.check", "combatant": "alice", "using": "Stealth"}
    response = await client.post(
        f"/encounters/{eid}/commands", json={"command": check}, headers=player
    )
    assert response.status_code == 200, response.text
    body = response.json()
    seen = body["state"]["game"]["combatants"]["goblin"]
    assert "12" in str(seen) and "7" not in str(seen)
    as_read = await client.get(
        f"/encounters/{eid}", headers={"Authorization": player["Authorization"]}
    )
    assert body["state"] == as_read.json()["state"]
    assert len(body["log"]) == len(body["events"]) == 1
    assert "Stealth" in body["log"][0]["text"]
