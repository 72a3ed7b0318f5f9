"""Players act from their sheet; numbers off it are a request the GM reads in full, may
amend, and allows or refuses, recorded as events either way."""

from __future__ import annotations

from typing import Any

import msgspec

from tests.e2e.helpers import Client, combatant, command, create

SWORD = {"sword": {"notation": "1d20+5", "damage": "1d8"}}
OFF_SHEET = {"type": "generic.attack", "attacker": "aria", "target": "grak",
             "notation": "1d20+9", "damage": "2d6"}  # fmt: skip


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _table(client: Client) -> tuple[str, dict[str, str]]:
    eid = await create(client, "Requests")
    for who in ("aria", "borin", "grak"):
        await command(client, eid, {**combatant(who, 20, ac=10), "attacks": SWORD})
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    return eid, bearer(minted.json()["token"])


async def _request(
    client: Client, eid: str, sam: dict[str, str], body: dict[str, Any]
) -> dict[str, Any]:
    response = await client.post(f"/encounters/{eid}/requests", json=body, headers=sam)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def test_an_off_sheet_attack_is_a_request_the_gm_allows(client: Client) -> None:
    eid, sam = await _table(client)
    refused = await client.post(
        f"/encounters/{eid}/commands", json={"command": OFF_SHEET}, headers=sam
    )
    assert refused.status_code == 403
    assert "send a request the GM can approve" in refused.json()["detail"]

    asked = await _request(
        client, eid, sam, {"command": OFF_SHEET, "note": "the runed blade from the altar"}
    )
    made = asked["events"][0]
    assert made["type"] == "encounter.request_made" and made["data"]["request_id"] == "q1"
    state = (await client.get(f"/encounters/{eid}", headers=sam)).json()["state"]
    assert state["requests"]["q1"]["command"]["notation"] == "1d20+9"

    allowed = await client.post(
        f"/encounters/{eid}/requests/q1/approve", json={"manual_dice": [[12], [5, 6]]}
    )
    assert allowed.status_code == 200, allowed.text
    types = [e["type"] for e in allowed.json()["events"]]
    assert types == ["generic.attack_rolled", "generic.damaged", "encounter.request_answered"]
    assert allowed.json()["events"][1]["data"]["hp_after"] == 9
    assert (await client.get(f"/encounters/{eid}")).json()["state"]["requests"] == {}
    log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert "Request q1: a player asks the GM to allow generic.attack" in log
    assert "(the runed blade from the altar)" in log
    assert "The GM allows request q1." in log
    again = await client.post(f"/encounters/{eid}/requests/q1/approve")
    assert again.status_code == 422
    assert "no request 'q1' is waiting" in again.json()["detail"]


async def test_the_gm_refuses_with_a_reason_and_players_ask_only_for_their_own(
    client: Client,
) -> None:
    eid, sam = await _table(client)
    await _request(client, eid, sam, {"command": {**OFF_SHEET, "notation": "1d20+1000"}})
    refused = await client.post(
        f"/encounters/{eid}/requests/q1/refuse", json={"reason": "no such bonus exists"}
    )
    assert refused.status_code == 200, refused.text
    assert [e["type"] for e in refused.json()["events"]] == ["encounter.request_answered"]
    log = (await client.get(f"/encounters/{eid}/log.txt", headers=sam)).text
    assert "The GM refuses request q1: no such bonus exists" in log
    theirs = await client.post(
        f"/encounters/{eid}/requests",
        json={"command": {**OFF_SHEET, "attacker": "borin"}},
        headers=sam,
    )
    assert theirs.status_code == 403
    assert "may act only for aria, not for borin" in theirs.json()["detail"]
    gm_only = await client.post(f"/encounters/{eid}/requests/q1/approve", headers=sam)
    assert gm_only.status_code == 403


LANTERN = {"type": "generic.attack", "attacker": "aria", "target": "grak",
           "notation": "1d20+900", "damage": "1d8+900"}  # fmt: skip


async def test_a_request_brings_no_dice_where_players_may_not_roll_their_own(
    client: Client,
) -> None:
    """The hostile player's request: their own numbers and their own dice, in an
    encounter without allow_player_dice.  Refused; nothing waits for the GM."""
    eid, sam = await _table(client)
    body = {"command": LANTERN, "note": "I throw the lantern", "manual_dice": [[20], [8]]}
    refused = await client.post(f"/encounters/{eid}/requests", json=body, headers=sam)
    assert refused.status_code == 403, refused.text
    assert "may not enter their own dice in this encounter" in refused.json()["detail"]
    state = (await client.get(f"/encounters/{eid}")).json()
    assert state["state"]["requests"] == {} and state["version"] == 5


async def test_a_request_carries_only_what_the_player_could_send(client: Client) -> None:
    eid, sam = await _table(client)
    heal = {"type": "generic.heal", "target": "aria", "amount": 20}
    gm_only = await client.post(f"/encounters/{eid}/requests", json={"command": heal}, headers=sam)
    assert gm_only.status_code == 403
    assert "generic.heal is the GM's to issue, not a player's" in gm_only.json()["detail"]
    secret = await client.post(
        f"/encounters/{eid}/requests", json={"command": OFF_SHEET, "hidden": True}, headers=sam
    )
    assert secret.status_code == 400  # a request has no hidden field at all


async def test_the_gm_reads_every_number_and_die_then_approving_applies_exactly_that(
    client: Client,
) -> None:
    eid = await create(client, "Own dice", allow_player_dice=True)
    for who in ("aria", "grak"):
        await command(client, eid, {**combatant(who, 2000, ac=10), "attacks": SWORD})
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    sam = bearer(minted.json()["token"])
    body = {"command": LANTERN, "note": "I throw the lantern", "manual_dice": [[20], [8]]}
    asked = await _request(client, eid, sam, body)
    made = asked["events"][0]["data"]
    assert made["command"].items() >= LANTERN.items() and made["manual_dice"] == [[20], [8]]

    log = (await client.get(f"/encounters/{eid}/log.txt")).text
    line = next(x for x in log.splitlines() if "Request q1" in x)
    for shown in ("notation 1d20+900", "damage 1d8+900", "[20] and [8]", "I throw the lantern"):
        assert shown in line, line

    allowed = await client.post(f"/encounters/{eid}/requests/q1/approve")
    assert allowed.status_code == 200, allowed.text
    damaged = allowed.json()["events"][1]["data"]
    assert damaged["hp_after"] == 2000 - 908  # the 8 and the +900 the GM read, nothing else


async def test_the_gm_amends_a_request_and_approving_applies_the_amendment(
    client: Client,
) -> None:
    eid, sam = await _table(client)
    await _request(client, eid, sam, {"command": LANTERN, "note": "I throw the lantern"})
    amended = await client.post(
        f"/encounters/{eid}/requests/q1/amend",
        json={
            "command": {**LANTERN, "notation": "1d20+2", "damage": "1d4"},
            "manual_dice": [[15], [3]],
        },
    )
    assert amended.status_code == 200, amended.text
    assert [e["type"] for e in amended.json()["events"]] == ["encounter.request_amended"]
    by_player = await client.post(
        f"/encounters/{eid}/requests/q1/amend", json={"command": LANTERN}, headers=sam
    )
    assert by_player.status_code == 403
    state = (await client.get(f"/encounters/{eid}", headers=sam)).json()["state"]
    waiting = state["requests"]["q1"]
    assert waiting["command"]["damage"] == "1d4" and waiting["manual_dice"] == [[15], [3]]
    log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert "The GM amends request q1: approving it now allows generic.attack:" in log
    assert "notation 1d20+2, damage 1d4; with the dice [15] and [3]." in log

    allowed = await client.post(f"/encounters/{eid}/requests/q1/approve")
    assert allowed.status_code == 200, allowed.text
    assert allowed.json()["events"][1]["data"]["hp_after"] == 17  # 20 - (3), not 908


async def test_pending_requests_are_capped_per_token_and_in_size_and_the_gm_clears_them(
    client: Client,
) -> None:
    eid = await create(client, "Flood", allow_player_dice=True)
    for who in ("aria", "borin", "grak"):
        await command(client, eid, {**combatant(who, 20, ac=10), "attacks": SWORD})
    tokens = [
        (await client.post(f"/encounters/{eid}/tokens", json={"combatants": [who]})).json()
        for who in ("aria", "borin")
    ]
    sam, kim = bearer(tokens[0]["token"]), bearer(tokens[1]["token"])
    huge = {"command": OFF_SHEET, "manual_dice": [[9999] * 1000] * 2}
    too_big = await client.post(f"/encounters/{eid}/requests", json=huge, headers=sam)
    assert too_big.status_code == 422, too_big.text
    assert "a request may take 4096 bytes" in too_big.json()["detail"]

    for _ in range(5):
        await _request(client, eid, sam, {"command": OFF_SHEET, "note": "x" * 500})
    sixth = await client.post(
        f"/encounters/{eid}/requests", json={"command": OFF_SHEET}, headers=sam
    )
    assert sixth.status_code == 409, sixth.text
    assert "already has 5 requests waiting" in sixth.json()["detail"]
    await _request(client, eid, kim, {"command": {**OFF_SHEET, "attacker": "borin"}})
    state = (await client.get(f"/encounters/{eid}")).json()["state"]
    assert len(state["requests"]) == 6
    assert len(msgspec.json.encode(state["requests"])) < 6 * 4096

    mine = tokens[0]["info"]["token_id"]
    cleared = await client.post(
        f"/encounters/{eid}/requests/clear", json={"reason": "one at a time", "token_id": mine}
    )
    assert cleared.status_code == 200, cleared.text
    assert len(cleared.json()["events"]) == 5
    left = (await client.get(f"/encounters/{eid}")).json()["state"]["requests"]
    assert list(left) == ["q6"]
    log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert "The GM refuses request q5: one at a time" in log
    await _request(client, eid, sam, {"command": OFF_SHEET})  # room again
    everything = await client.post(f"/encounters/{eid}/requests/clear")
    assert everything.status_code == 200 and len(everything.json()["events"]) == 2
    nothing = await client.post(f"/encounters/{eid}/requests/clear")
    assert nothing.status_code == 422
    by_player = await client.post(f"/encounters/{eid}/requests/clear", headers=sam)
    assert by_player.status_code == 403
